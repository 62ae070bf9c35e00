//! Branch-free support scan of a small polytope: its vertices widened to `f64` once, in
//! structure-of-arrays form padded to [`SCAN_LANES`], so a query is a fixed-length loop of
//! multiply-adds that the compiler vectorises, a max reduction and one equality pass.
//!
//! Rationale: the plain scan ([`super::brute_force`]) widens each `f32` coordinate per query and
//! branches on every improvement (an unpredictable branch). Here the widening happens at
//! construction and the loop has no data-dependent branch. The answer is bit for bit the plain
//! scan's: each dot product is evaluated with the same operations in the same order
//! (`(x dx + y dy) + z dz`, no fused multiply-add), and the result is the lowest index attaining
//! the maximum, as in the plain scan. Padding lanes repeat vertex 0, so they never come before it.

use crate::math::{Point, VectorD};
use nalgebra::Matrix3;

/// Polytopes of at most this many vertices keep their vertices widened to `f64` in padded
/// coordinate lanes for a branch-free support scan (the padded length of the lanes).
pub const SCAN_LANES: usize = 16;

/// The vertices of a polytope of at most [`SCAN_LANES`] vertices, widened to `f64`, one array
/// per coordinate, padded with copies of vertex 0.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct VertexScan {
    x: [f64; SCAN_LANES],
    y: [f64; SCAN_LANES],
    z: [f64; SCAN_LANES],
}

impl VertexScan {
    /// The scan table of `points`, `None` when there are none or more than [`SCAN_LANES`].
    pub(crate) fn new(points: &[Point]) -> Option<Self> {
        let first = *points.first()?;
        if points.len() > SCAN_LANES {
            return None;
        }
        let lane = |k: usize| {
            let p = points.get(k).unwrap_or(&first);
            [f64::from(p.x), f64::from(p.y), f64::from(p.z)]
        };
        Some(Self {
            x: std::array::from_fn(|k| lane(k)[0]),
            y: std::array::from_fn(|k| lane(k)[1]),
            z: std::array::from_fn(|k| lane(k)[2]),
        })
    }

    /// The lowest vertex index maximising the `f64` dot product with `dir`: the answer of
    /// [`super::brute_force`] on the same vertices for every finite `dir` (for a direction with a
    /// NaN component, vertex 0; with an infinite one, some valid index).
    #[inline]
    pub(crate) fn support(&self, dir: &VectorD) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: the CPU supports AVX (checked just above; the answer is cached by std).
            return unsafe { self.support_avx(dir) };
        }
        self.support_portable(dir)
    }

    /// [`Self::support`] without wide vectors (SSE2 at most, the x86_64 baseline).
    #[inline]
    fn support_portable(&self, dir: &VectorD) -> u32 {
        let mut dots = [0.0f64; SCAN_LANES];
        for (k, d) in dots.iter_mut().enumerate() {
            *d = self.x[k] * dir.x + self.y[k] * dir.y + self.z[k] * dir.z;
        }
        // Pairwise maxima (a NaN lane loses to a number on the left only; for finite `dir` no
        // lane is NaN). Ties between 0 and -0 may keep either: the equality pass below treats
        // them alike, as the plain scan's `>` does.
        let max = |a: f64, b: f64| if b > a { b } else { a };
        let mut half = dots;
        let mut width = SCAN_LANES / 2;
        while width > 0 {
            for k in 0..width {
                half[k] = max(half[k], half[k + width]);
            }
            width /= 2;
        }
        let best = half[0];
        // The lowest lane holding the maximum (0 when none does: a NaN maximum), from a bit
        // mask of the lanes equal to it (compared lane-wise, no branch per lane).
        let mut mask = 0u32;
        for (k, d) in dots.iter().enumerate() {
            mask |= u32::from(*d == best) << k;
        }
        if mask == 0 { 0 } else { mask.trailing_zeros() }
    }

    /// [`Self::support`] on 4-wide AVX lanes: the same dot products (`(x dx + y dy) + z dz`,
    /// separate multiplies and adds, no fused multiply-add), so the same `f64` values; the
    /// maximum is the same value (maxima of numbers do not depend on the order, and a `0` / `-0`
    /// tie compares equal in the pass after), and the answer is the lowest lane equal to it
    /// (0 when none is: a NaN maximum), as in the portable scan.
    ///
    /// # Safety
    /// The CPU must support AVX.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn support_avx(&self, dir: &VectorD) -> u32 {
        use std::arch::x86_64::*;
        const BLOCKS: usize = SCAN_LANES / 4;
        let (dx, dy, dz) = (
            _mm256_set1_pd(dir.x),
            _mm256_set1_pd(dir.y),
            _mm256_set1_pd(dir.z),
        );
        let load = |lane: &[f64; SCAN_LANES], b: usize| -> __m256d {
            let block: &[f64; 4] = lane[4 * b..4 * b + 4].try_into().expect("4 lanes");
            // SAFETY: `block` is 4 readable `f64`s; unaligned loads are allowed.
            unsafe { _mm256_loadu_pd(block.as_ptr()) }
        };
        let dots: [__m256d; BLOCKS] = std::array::from_fn(|b| {
            let xy = _mm256_add_pd(
                _mm256_mul_pd(load(&self.x, b), dx),
                _mm256_mul_pd(load(&self.y, b), dy),
            );
            _mm256_add_pd(xy, _mm256_mul_pd(load(&self.z, b), dz))
        });
        let m = _mm256_max_pd(
            _mm256_max_pd(dots[0], dots[1]),
            _mm256_max_pd(dots[2], dots[3]),
        );
        // Horizontal maximum, broadcast to every lane.
        let m = _mm256_max_pd(m, _mm256_permute2f128_pd::<0x01>(m, m));
        let best = _mm256_max_pd(m, _mm256_permute_pd::<0b0101>(m));
        let mut mask = 0u32;
        for (b, d) in dots.iter().enumerate() {
            let equal = _mm256_cmp_pd::<_CMP_EQ_OQ>(*d, best);
            mask |= (_mm256_movemask_pd(equal) as u32) << (4 * b);
        }
        if mask == 0 { 0 } else { mask.trailing_zeros() }
    }

    /// The least and greatest coordinates of the rotated vertices `rot * v`, per axis (`rot` any
    /// matrix; each product evaluated as `(r_c0 x + r_c1 y) + r_c2 z`, the order of nalgebra's
    /// matrix-vector product). For finite entries.
    #[inline]
    pub(crate) fn rotated_bounds(&self, rot: &Matrix3<f64>) -> ([f64; 3], [f64; 3]) {
        let mut mins = [0.0; 3];
        let mut maxs = [0.0; 3];
        for c in 0..3 {
            let (a, b, d) = (rot[(c, 0)], rot[(c, 1)], rot[(c, 2)]);
            let mut lanes = [0.0f64; SCAN_LANES];
            for (k, w) in lanes.iter_mut().enumerate() {
                *w = a * self.x[k] + b * self.y[k] + d * self.z[k];
            }
            let (mut lo, mut hi) = (lanes, lanes);
            let mut width = SCAN_LANES / 2;
            while width > 0 {
                for k in 0..width {
                    lo[k] = if lo[k + width] < lo[k] {
                        lo[k + width]
                    } else {
                        lo[k]
                    };
                    hi[k] = if hi[k + width] > hi[k] {
                        hi[k + width]
                    } else {
                        hi[k]
                    };
                }
                width /= 2;
            }
            mins[c] = lo[0];
            maxs[c] = hi[0];
        }
        (mins, maxs)
    }
}

#[cfg(test)]
mod tests {
    use super::super::brute_force::brute_force;
    use super::*;

    /// A xorshift stream in `[-1, 1)`.
    fn stream(mut state: u64) -> impl FnMut() -> f64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        }
    }

    #[test]
    fn agrees_with_the_plain_scan_on_random_and_tied_vertices() {
        let mut next = stream(0x9e37_79b9_7f4a_7c15);
        for n in 1..=SCAN_LANES {
            for round in 0..400 {
                // Every fourth set snaps coordinates to a coarse grid, so exact ties (and ties
                // between 0 and -0 dot products) are frequent.
                let snap = |v: f64| if round % 4 == 0 { (v * 2.0).round() } else { v };
                let points: Vec<Point> = (0..n)
                    .map(|_| {
                        Point::new(
                            snap(next()) as f32,
                            snap(next()) as f32,
                            snap(next()) as f32,
                        )
                    })
                    .collect();
                let scan = VertexScan::new(&points).unwrap();
                for _ in 0..20 {
                    let dir = if round % 4 == 0 {
                        VectorD::new(snap(next()), snap(next()), snap(next()))
                    } else {
                        VectorD::new(next(), next(), next()) * 10f64.powf(6.0 * next())
                    };
                    let expected = brute_force(&points, &dir);
                    assert_eq!(scan.support(&dir), expected, "{points:?} {dir:?}");
                    // Both paths, whichever `support` takes on this CPU.
                    assert_eq!(scan.support_portable(&dir), expected, "{points:?} {dir:?}");
                }
            }
        }
    }

    #[test]
    fn rotated_bounds_are_the_extremes_of_the_rotated_vertices() {
        let mut next = stream(0x2545_f491_4f6c_dd1d);
        for n in 1..=SCAN_LANES {
            for _ in 0..200 {
                let points: Vec<Point> = (0..n)
                    .map(|_| Point::new(next() as f32, next() as f32, next() as f32) * 3.0)
                    .collect();
                let rot = nalgebra::Rotation3::from_scaled_axis(VectorD::new(
                    3.0 * next(),
                    3.0 * next(),
                    3.0 * next(),
                ));
                let (mins, maxs) = VertexScan::new(&points)
                    .unwrap()
                    .rotated_bounds(rot.matrix());
                for c in 0..3 {
                    let coordinate = |p: &Point| (rot.matrix() * crate::math::to_f64(p).coords)[c];
                    let lo = points.iter().map(coordinate).fold(f64::INFINITY, f64::min);
                    let hi = points
                        .iter()
                        .map(coordinate)
                        .fold(f64::NEG_INFINITY, f64::max);
                    assert_eq!((mins[c], maxs[c]), (lo, hi), "{points:?} {rot:?}");
                }
            }
        }
    }

    #[test]
    fn degenerate_directions_and_sizes() {
        let points = [
            Point::new(0.0, 0.0, 0.0),
            Point::new(1.0, 0.0, 0.0),
            Point::new(1.0, 1.0, 0.0),
            Point::new(-2.0, 0.0, 0.0),
        ];
        let scan = VertexScan::new(&points).unwrap();
        assert_eq!(scan.support(&VectorD::new(1.0, 0.0, 0.0)), 1);
        assert_eq!(scan.support(&VectorD::new(1.0, 1e-9, 0.0)), 2);
        assert_eq!(scan.support(&VectorD::new(-1.0, 0.0, 0.0)), 3);
        assert_eq!(scan.support(&VectorD::zeros()), 0);
        assert_eq!(scan.support(&VectorD::new(f64::NAN, 1.0, 0.0)), 0);
        assert_eq!(scan.support_portable(&VectorD::new(f64::NAN, 1.0, 0.0)), 0);
        assert_eq!(scan.support_portable(&VectorD::new(1.0, 1e-9, 0.0)), 2);
        assert!((scan.support(&VectorD::new(f64::INFINITY, 1.0, 0.0)) as usize) < points.len());
        assert!(VertexScan::new(&[]).is_none());
        assert!(VertexScan::new(&[Point::origin(); SCAN_LANES + 1]).is_none());
        assert!(VertexScan::new(&[Point::origin(); SCAN_LANES]).is_some());
    }
}
