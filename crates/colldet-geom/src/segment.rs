//! Closest points on closed segments, in `f64`: the one implementation the collision layers use
//! (triangle distance, the closest-feature walk, witness points of the exact mesh tests).
//!
//! Rationale (Ericson, "Real-Time Collision Detection", section 5.1.9, written for this crate):
//! the squared distance between `p0 + s (p1 - p0)` and `q0 + t (q1 - q0)` is a convex quadratic
//! in `(s, t)`. Its unconstrained minimum in `s` is clamped to `[0, 1]`, the best `t` for that
//! `s` follows, and if it leaves `[0, 1]` it is clamped and `s` recomputed for it. This is exact
//! in structure (the clamped pair is a global minimum of the convex problem) and accurate to
//! `f64` rounding. Parallel segments (`a e - b^2 = 0` in the code) take `s = 0`, one of their
//! closest pairs; zero-length segments are points.
//!
//! Inputs are points in one frame (any units); results are in that frame.

use crate::math::PointD;

/// Closest points `(on p0-p1, on q0-q1)` of two closed segments; either may have zero length
/// (a point). For parallel segments, one closest pair (the one with `s = 0` unless clamped).
///
/// Both points are `end0 + (end1 - end0) * u` with `u` in `[0, 1]` (`u = 0` for a zero-length
/// segment), so for finite input they lie on their segments up to rounding.
#[inline]
pub fn closest_points_between_segments(
    p0: &PointD,
    p1: &PointD,
    q0: &PointD,
    q1: &PointD,
) -> (PointD, PointD) {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let f = d2.dot(&r);
    let clamp = |x: f64| x.clamp(0.0, 1.0);
    let (s, t) = if a == 0.0 && e == 0.0 {
        (0.0, 0.0)
    } else if a == 0.0 {
        (0.0, clamp(f / e))
    } else {
        let c = d1.dot(&r);
        if e == 0.0 {
            (clamp(-c / a), 0.0)
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            let s = if denom > 0.0 {
                clamp((b * f - c * e) / denom)
            } else {
                0.0
            };
            let t = (b * s + f) / e;
            if t < 0.0 {
                (clamp(-c / a), 0.0)
            } else if t > 1.0 {
                (clamp((b - c) / a), 1.0)
            } else {
                (s, t)
            }
        }
    };
    (p0 + d1 * s, q0 + d2 * t)
}

/// The point of the closed segment `a-b` closest to `p` (`a` itself when the segment has zero
/// length): the projection parameter clamped to `[0, 1]`.
#[inline]
pub fn closest_point_on_segment(p: &PointD, a: &PointD, b: &PointD) -> PointD {
    let ab = b - a;
    let len_sq = ab.norm_squared();
    if len_sq == 0.0 {
        return *a;
    }
    let t = ((p - a).dot(&ab) / len_sq).clamp(0.0, 1.0);
    a + ab * t
}

#[cfg(test)]
mod tests {
    use super::*;

    use colldet_testkit::SplitMix64 as Rng;

    /// The draws of these tests, on the shared seeded generator (failures reproduce).
    trait Draws {
        fn unit(&mut self) -> f64;
        fn point(&mut self) -> PointD;
    }

    impl Draws for Rng {
        /// Uniform in `[-1, 1)`.
        fn unit(&mut self) -> f64 {
            (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }

        fn point(&mut self) -> PointD {
            PointD::new(self.unit(), self.unit(), self.unit())
        }
    }

    /// A random segment pair: general, parallel (overlapping or not), collinear, or with one or
    /// both segments of zero length, by `kind`.
    fn segments(rng: &mut Rng, kind: u64) -> [PointD; 4] {
        let p0 = rng.point();
        let p1 = rng.point();
        let q0 = rng.point();
        let q1 = rng.point();
        match kind {
            0 => [p0, p1, q0, q1],
            // Parallel: q1 - q0 a multiple of p1 - p0 (either direction).
            1 => [p0, p1, q0, q0 + (p1 - p0) * rng.unit()],
            // Collinear: both on the line through p0 and p1.
            2 => {
                let d = p1 - p0;
                [
                    p0,
                    p1,
                    p0 + d * (1.5 * rng.unit()),
                    p0 + d * (1.5 * rng.unit()),
                ]
            }
            3 => [p0, p0, q0, q1],
            4 => [p0, p1, q0, q0],
            _ => [p0, p0, q0, q0],
        }
    }

    /// Distance of `x` from the closed segment `a-b`, by dense sampling (an upper bound).
    fn sampled_distance(x: &PointD, a: &PointD, b: &PointD, n: u32) -> f64 {
        (0..=n)
            .map(|i| (a + (b - a) * (f64::from(i) / f64::from(n)) - x).norm())
            .fold(f64::INFINITY, f64::min)
    }

    /// `x` lies on the closed segment `a-b` up to rounding.
    fn on_segment(x: &PointD, a: &PointD, b: &PointD) -> bool {
        let ab = b - a;
        let len_sq = ab.norm_squared();
        if len_sq == 0.0 {
            return (x - a).norm() <= 1e-15;
        }
        let t = (x - a).dot(&ab) / len_sq;
        let off_line = (x - (a + ab * t)).norm();
        (-1e-12..=1.0 + 1e-12).contains(&t) && off_line <= 1e-12
    }

    /// Against brute force: both points lie on their segments, and no pair of a dense sampling of
    /// the two segments is closer than the returned pair.
    #[test]
    fn segment_pairs_match_dense_sampling() {
        const N: u32 = 200;
        let mut rng = Rng(0x5e9_5e9);
        for case in 0..600u64 {
            let [p0, p1, q0, q1] = segments(&mut rng, case % 6);
            let (x, y) = closest_points_between_segments(&p0, &p1, &q0, &q1);
            assert!(on_segment(&x, &p0, &p1), "case {case}: {x} off p0-p1");
            assert!(on_segment(&y, &q0, &q1), "case {case}: {y} off q0-q1");
            let d = (x - y).norm();
            let sampled = (0..=N)
                .map(|i| {
                    let on_p = p0 + (p1 - p0) * (f64::from(i) / f64::from(N));
                    sampled_distance(&on_p, &q0, &q1, N)
                })
                .fold(f64::INFINITY, f64::min);
            assert!(d <= sampled + 1e-12, "case {case}: {d} > sampled {sampled}");
            // Swapping the segments gives the same distance.
            let (y2, x2) = closest_points_between_segments(&q0, &q1, &p0, &p1);
            assert!(((x2 - y2).norm() - d).abs() <= 1e-12, "case {case}: swap");
        }
    }

    /// Against brute force: the point lies on the segment and no sample of it is closer.
    #[test]
    fn point_segment_matches_dense_sampling() {
        let mut rng = Rng(0xc105e);
        for case in 0..600u64 {
            let p = rng.point();
            let a = rng.point();
            let b = if case % 5 == 0 { a } else { rng.point() };
            let x = closest_point_on_segment(&p, &a, &b);
            assert!(on_segment(&x, &a, &b), "case {case}");
            let sampled = sampled_distance(&p, &a, &b, 2000);
            assert!((x - p).norm() <= sampled + 1e-12, "case {case}");
            // The segment-segment routine with a zero-length second segment agrees.
            let (y, _) = closest_points_between_segments(&a, &b, &p, &p);
            assert!(
                ((y - p).norm() - (x - p).norm()).abs() <= 1e-12,
                "case {case}"
            );
        }
    }

    /// Fixed cases: crossing, parallel overlapping, end-to-end, zero-length.
    #[test]
    fn fixed_cases() {
        let pt = PointD::new;
        let (x, y) = closest_points_between_segments(
            &pt(-1.0, 0.0, 0.0),
            &pt(1.0, 0.0, 0.0),
            &pt(0.0, -1.0, 1.0),
            &pt(0.0, 1.0, 1.0),
        );
        assert_eq!((x, y), (pt(0.0, 0.0, 0.0), pt(0.0, 0.0, 1.0)));
        let (x, y) = closest_points_between_segments(
            &pt(0.0, 0.0, 0.0),
            &pt(2.0, 0.0, 0.0),
            &pt(1.0, 1.0, 0.0),
            &pt(3.0, 1.0, 0.0),
        );
        assert_eq!((y - x).norm(), 1.0);
        let (x, y) = closest_points_between_segments(
            &pt(0.0, 0.0, 0.0),
            &pt(1.0, 0.0, 0.0),
            &pt(3.0, 0.0, 0.0),
            &pt(2.0, 0.0, 0.0),
        );
        assert_eq!((x, y), (pt(1.0, 0.0, 0.0), pt(2.0, 0.0, 0.0)));
        let p = pt(0.5, 2.0, 0.0);
        let (x, y) = closest_points_between_segments(&p, &p, &p, &p);
        assert_eq!((x, y), (p, p));
        assert_eq!(
            closest_point_on_segment(&pt(5.0, 1.0, 0.0), &pt(0.0, 0.0, 0.0), &pt(2.0, 0.0, 0.0)),
            pt(2.0, 0.0, 0.0)
        );
        assert_eq!(
            closest_point_on_segment(&p, &pt(1.0, 1.0, 1.0), &pt(1.0, 1.0, 1.0)),
            pt(1.0, 1.0, 1.0)
        );
    }
}
