//! [`DistanceCertificate`]: bounds on a pair's distance certified at one relative pose, carried
//! to later poses by a bound on how far shape 2 moved (in shape 1's frame) since.
//!
//! Rationale. GJK's bounds are statements about the points of `A - B`: every point `x` satisfies
//! `u . x >= lower` for a unit `u` (so the distance is at least `lower`), and some point lies
//! within `upper` of the origin (so the distance is at most `upper`). When shape 2's pose in
//! shape 1's frame changes from `(R0, t0)` to `(R, t)`, each point `p` of shape 2 (local
//! coordinates, `|p| <= r2`, its bounding radius) moves by `(R - R0) p + (t - t0)`, at most `m =
//! ||R - R0||_F r2 + |t - t0|` (the Frobenius norm bounds the spectral one). So every point of
//! `A - B` moves by at most `m`, and the distance at the new pose lies in `[lower - m, upper +
//! m]`. A coherent sequence of tolerance queries whose pair stays clear of the tolerance by more
//! than its motion is answered from the last certificate without a support query; when the
//! carried bounds do not decide, the query runs as before and records new bounds at the current
//! pose. A caller with its own, tighter motion bound (a world knows how far each object moved)
//! asks [`DistanceCertificate::decide_within`] first and skips the query when it decides.
//!
//! Exactness: `m` is computed with `r2` raised by [`RADIUS_MARGIN`] (the `f32` radius may be
//! rounded below the largest vertex norm), inflated by `1e-12` relative and by the pair's
//! rounding noise ([`PairFrame::noise`](crate::cso::PairFrame)), far above the rounding of its own
//! computation; the recorded bounds are GJK's own, so an answer decided from carried bounds is
//! one GJK would certify at the new pose.

use crate::cso::PairFrame;
use colldet_geom::math::VectorD;
use nalgebra::Matrix3;

/// Relative margin on shape 2's bounding radius: an `f32` rounded to nearest from the largest
/// vertex norm may fall short of it by half an `f32` ulp (`6e-8` relative).
const RADIUS_MARGIN: f64 = 1e-6;

/// The relative pose and the bounds certified there.
#[derive(Clone, Copy, Debug, PartialEq)]
struct CertifiedPose {
    rot: Matrix3<f64>,
    trans: VectorD,
    lower: f64,
    upper: f64,
    /// Queries that carried these bounds since they were recorded.
    carries: u32,
}

/// Distance bounds of one ordered pair of convex shapes, certified at the relative pose of the
/// query that recorded them and carried to nearby poses by a bound on the motion since
/// ([`gjk_within_distance_coherent`](crate::gjk_within_distance_coherent)). Owned by the
/// caller, one per pair (with the pair's [`GjkCache`](super::GjkCache)); an empty certificate
/// (the default) decides nothing. A cache moved to another pair of shapes must be reset.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DistanceCertificate {
    at: Option<CertifiedPose>,
}

impl DistanceCertificate {
    /// An empty certificate.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the bounds (a cache moved to another pair of shapes must not keep them).
    pub fn reset(&mut self) {
        self.at = None;
    }

    /// The answer to `distance <= tolerance` that the recorded bounds give once widened by
    /// `motion`, the caller's bound on how far the pair moved since they were recorded (no point
    /// of either shape farther than `motion`, in total, from where it was relative to the
    /// other, with the rounding of both relative poses included); `None` when nothing is
    /// recorded or the widened bounds do not decide. A decision counts as a carry, as
    /// [`gjk_within_distance_coherent`](crate::gjk_within_distance_coherent)'s own do; a caller
    /// that decides here may skip that query (and its relative pose) altogether.
    pub fn decide_within(&mut self, motion: f64, tolerance: f64) -> Option<bool> {
        let c = self.at.as_mut()?;
        let answer = if c.lower - motion > tolerance {
            false
        } else if c.upper + motion <= tolerance {
            true
        } else {
            return None;
        };
        c.carries = c.carries.saturating_add(1);
        Some(answer)
    }

    /// True when the bounds were recorded by the last query that used the certificate (none
    /// carried them since): a caller tracking the poses they are certified at takes the current
    /// ones.
    pub fn is_fresh(&self) -> bool {
        self.at.as_ref().is_some_and(|c| c.carries == 0)
    }

    /// The recorded bounds carried to `frame`'s pose, the motion bound they were carried by and
    /// how many queries carried them before this one: `(lower, upper, motion, carries)` with the
    /// distance there in `[lower, upper]`; `(-inf, +inf, 0, 0)` when nothing is recorded.
    pub(crate) fn carry(&mut self, frame: &PairFrame) -> (f64, f64, f64, u32) {
        match &mut self.at {
            Some(c) => {
                let m = frame.motion_since(&c.rot, &c.trans, RADIUS_MARGIN);
                let carries = c.carries;
                c.carries = carries.saturating_add(1);
                (c.lower - m, c.upper + m, m, carries)
            }
            None => (f64::NEG_INFINITY, f64::INFINITY, 0.0, 0),
        }
    }

    /// Records `lower <= distance <= upper` at `frame`'s pose (replacing what was recorded).
    pub(crate) fn record(&mut self, frame: &PairFrame, lower: f64, upper: f64) {
        let (rot, trans) = frame.parts();
        self.at = Some(CertifiedPose {
            rot,
            trans,
            lower,
            upper,
            carries: 0,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gjk::{GjkCache, gjk_distance};
    use colldet_geom::ConvexPolytope;
    use colldet_geom::math::Pose;
    use colldet_testkit::SeededRng;
    use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, varied_hull_pair};
    use nalgebra::Translation3;

    /// Bounds recorded at one pose and carried to another, small or large move, off-centre
    /// shapes included, bracket the cold distance there (checked against GJK's accuracy).
    #[test]
    fn carried_bounds_bracket_the_distance_at_the_new_pose() {
        let mut rng = SeededRng::new(0xCE_471F);
        let mut checked = 0;
        for case in 0..300 {
            let (a, b) = varied_hull_pair(case, &mut rng);
            let size = f64::from(a.radius() + b.radius());
            let pose_at = |rng: &mut SeededRng| {
                let r = size * rng.range(0.3, 1.5);
                Pose::from_parts(
                    Translation3::from(rng.unit_vector().into_inner() * r),
                    rng.rotation(),
                )
            };
            let p0 = pose_at(&mut rng);
            // A small move (turn and shift of up to 2% of the size) or an unrelated pose.
            let p1 = if case % 5 == 4 {
                pose_at(&mut rng)
            } else {
                rng.nudged(&p0, 0.02, 0.02 * size)
            };
            let mut certificate = DistanceCertificate::new();
            let mut cache = GjkCache::new();
            let frame0 = PairFrame::new(&a, &b, &p0).unwrap();
            let d0 = gjk_distance(&a, &b, &p0, &mut cache).unwrap().distance;
            certificate.record(&frame0, d0 * (1.0 - 1e-9), d0);
            let frame1 = PairFrame::new(&a, &b, &p1).unwrap();
            let (lower, upper, motion, carries) = certificate.carry(&frame1);
            assert_eq!(carries, 0);
            let d1 = gjk_distance(&a, &b, &p1, &mut GjkCache::new())
                .unwrap()
                .distance;
            let accuracy = 1e-9 * d1 + frame1.noise;
            assert!(motion >= 0.0, "case {case}");
            if case % 5 != 4 {
                // A small move keeps the bounds useful: about 3% of the size at most.
                assert!(motion < 0.1 * size, "case {case}: motion {motion}");
            }
            assert!(lower <= d1 + accuracy, "case {case}: {lower} > {d1}");
            assert!(d1 <= upper + accuracy, "case {case}: {d1} > {upper}");
            checked += 1;
        }
        assert_eq!(checked, 300);
    }

    #[test]
    fn an_empty_certificate_decides_nothing() {
        let a = ConvexPolytope::from_convex_mesh(
            &chung_wang_polytope(ChungWangShape::Ellipsoid, 12, 7).unwrap(),
        )
        .unwrap();
        let frame = PairFrame::new(&a, &a, &Pose::identity()).unwrap();
        assert_eq!(
            DistanceCertificate::new().carry(&frame),
            (f64::NEG_INFINITY, f64::INFINITY, 0.0, 0)
        );
    }
}
