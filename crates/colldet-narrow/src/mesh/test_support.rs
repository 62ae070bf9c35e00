//! Deterministic helpers shared by the mesh tests.

use colldet_geom::math::PointD;

/// The shared SplitMix64 generator, under the name the mesh tests use.
pub(crate) use colldet_testkit::SplitMix64 as SplitMix;

/// The draws of the mesh tests, under the names they use, on the shared generator.
pub(crate) trait MeshDraws {
    /// Uniform in `[0, 1)` ([`SplitMix::next_f64`]).
    fn f64(&mut self) -> f64;

    /// Uniform integer in `[-r, r]` by modulo reduction ([`SplitMix::i64_in`] on `-r..=r`).
    fn int(&mut self, r: i64) -> i64;

    /// Uniform index in `[0, n)` by modulo reduction ([`SplitMix::below`]).
    fn index(&mut self, n: usize) -> usize;
}

impl MeshDraws for SplitMix {
    fn f64(&mut self) -> f64 {
        self.next_f64()
    }

    fn int(&mut self, r: i64) -> i64 {
        self.i64_in(-r, r)
    }

    fn index(&mut self, n: usize) -> usize {
        self.below(n)
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
