//! A hull face's plane with a floating-point filter in front of the exact `orient3d`.
//!
//! Rationale: quickhull asks "is `q` strictly in front of face `(a, b, c)`?" for many `q` per
//! face. The determinant `det(q - a, b - a, c - a)` expanded along `q - a` reuses the face's 2x2
//! minors `(b - a) x (c - a)`, so they are computed once per face. The evaluation has exactly the
//! shape of Shewchuk's `orient3d` stage A (rounded differences of exact inputs, rounded 2x2
//! minors, a left-to-right sum of three products), so his bound `(7 + 56 eps) eps * permanent`
//! applies: when `|det|` exceeds it, its sign is exact. Otherwise the exact adaptive
//! `orient3d` decides. Inputs are `f32` widened to `f64`, so no product underflows or overflows.

use crate::math::PointD;
use crate::predicates::orient3d;

/// Shewchuk's `o3derrboundA`, with `eps = 2^-53`.
const ERROR_BOUND: f64 = (7.0 + 56.0 * EPS) * EPS;
const EPS: f64 = f64::EPSILON * 0.5;

/// The plane of a triangle `(a, b, c)`, oriented by `(b - a) x (c - a)`.
#[derive(Clone, Copy, Debug)]
pub(super) struct FacePlane {
    origin: PointD,
    /// Rounded `(b - a) x (c - a)`.
    minors: [f64; 3],
    /// Sums of the absolute products in each minor, for the error bound.
    magnitudes: [f64; 3],
}

impl FacePlane {
    /// The plane through `a`, `b`, `c`.
    #[inline]
    pub(super) fn new(a: &PointD, b: &PointD, c: &PointD) -> Self {
        let u = b - a;
        let v = c - a;
        let products = [
            (u.y * v.z, u.z * v.y),
            (u.z * v.x, u.x * v.z),
            (u.x * v.y, u.y * v.x),
        ];
        Self {
            origin: *a,
            minors: products.map(|(p, q)| p - q),
            magnitudes: products.map(|(p, q)| p.abs() + q.abs()),
        }
    }

    /// A value whose sign is exactly the side of `q` (positive in front, on the normal's side;
    /// zero on the plane) and whose magnitude is approximately proportional to the distance.
    /// `b`, `c` are the plane's other two points, used only when the filter cannot decide.
    #[inline]
    pub(super) fn height(&self, q: &PointD, b: &PointD, c: &PointD) -> f64 {
        let w = q - self.origin;
        let det = w.x * self.minors[0] + w.y * self.minors[1] + w.z * self.minors[2];
        let permanent = w.x.abs() * self.magnitudes[0]
            + w.y.abs() * self.magnitudes[1]
            + w.z.abs() * self.magnitudes[2];
        if det.abs() > ERROR_BOUND * permanent {
            det
        } else {
            exact_height(&self.origin, b, c, q)
        }
    }
}

/// The exact fallback, kept out of line so that the filter inlines.
#[cold]
#[inline(never)]
fn exact_height(a: &PointD, b: &PointD, c: &PointD, q: &PointD) -> f64 {
    -orient3d(a, b, c, q)
}

#[cfg(test)]
mod tests {
    use super::*;

    use colldet_testkit::SplitMix64;

    #[test]
    fn sign_matches_the_exact_predicate() {
        let mut state = SplitMix64(17);
        let coordinate = |state: &mut SplitMix64| {
            // f32 values from a few scales, often equal or nearly coplanar.
            let r = state.next_u64();
            let base = [0.0f32, 1.0, 1e4, 1e-12][(r % 4) as usize];
            let step = (r >> 8) % 5;
            f64::from(base + (step as f32) * base.max(1e-12) * f32::EPSILON)
        };
        let mut decided = 0;
        for _ in 0..200_000 {
            let p: Vec<PointD> = (0..4)
                .map(|_| {
                    PointD::new(
                        coordinate(&mut state),
                        coordinate(&mut state),
                        coordinate(&mut state),
                    )
                })
                .collect();
            let plane = FacePlane::new(&p[0], &p[1], &p[2]);
            let h = plane.height(&p[3], &p[1], &p[2]);
            let exact = -orient3d(&p[0], &p[1], &p[2], &p[3]);
            assert_eq!(
                h.signum() * f64::from(h != 0.0),
                exact.signum() * f64::from(exact != 0.0)
            );
            decided += usize::from(exact != 0.0);
        }
        assert!(decided > 1000, "too few non-degenerate cases: {decided}");
    }
}
