//! Deterministic helpers shared by the mesh tests.

use colldet_geom::math::PointD;

/// SplitMix64: a tiny fixed-stream generator for reproducible tests.
pub(crate) struct SplitMix(pub u64);

impl SplitMix {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub(crate) fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform integer in `[-r, r]`.
    pub(crate) fn int(&mut self, r: i64) -> i64 {
        (self.next_u64() % (2 * r as u64 + 1)) as i64 - r
    }

    /// Uniform index in `[0, n)`.
    pub(crate) fn index(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Euclidean distance from `p` to the closed triangle `t` (degenerate triangles included), in
/// plain `f64`.
pub(crate) fn point_triangle_distance(p: &PointD, t: &[PointD; 3]) -> f64 {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let mut best = f64::INFINITY;
    if n.norm_squared() > 0.0 {
        let inside = (0..3).all(|i| {
            let e = t[(i + 1) % 3] - t[i];
            e.cross(&(p - t[i])).dot(&n) >= 0.0
        });
        if inside {
            best = (n.dot(&(p - t[0])) / n.norm()).abs();
        }
    }
    for i in 0..3 {
        let (a, b) = (t[i], t[(i + 1) % 3]);
        let e = b - a;
        let l = e.norm_squared();
        let s = if l > 0.0 {
            ((p - a).dot(&e) / l).clamp(0.0, 1.0)
        } else {
            0.0
        };
        best = best.min((p - (a + e * s)).norm());
    }
    best
}
