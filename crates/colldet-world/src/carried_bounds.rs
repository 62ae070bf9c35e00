//! Tolerance answers from a convex pair's carried distance bounds, decided on the world poses
//! before any relative pose is formed ([`World::within_distance`](crate::World::within_distance)).
//!
//! Rationale. A convex pair's [`DistanceCertificate`](colldet_narrow::DistanceCertificate) holds
//! bounds `lower <= d <= upper` certified at the poses of the query that recorded them. The
//! distance between two sets changes by at most how far their points move: when no point of `a`
//! moved more than `m_a` and none of `b` more than `m_b` (world frame), the distance now lies in
//! `[lower - m, upper + m]` with `m = m_a + m_b`. The world keeps, beside the certificate, both
//! objects' poses when it was recorded ([`CertifiedPoses`]); each object's `m` is
//! [`pose_displacement_bound`] (`|t1 - t0| + 2 sin(theta / 2) r`, `r` its radius about its
//! origin), zero for an object whose pose is the same. That is tighter than the bound the narrow
//! phase carries on the relative pose (`||R - R0||_F r`, up to `sqrt 2` times the chord) and
//! cheaper: a query answered here forms no relative pose and no pair frame.
//!
//! Exactness: the recorded bounds are about the configuration of the relative pose a query
//! computes in `f64` from the world matrices (`a.matrix^-1 b.matrix`), which differs from the
//! world poses' own by the rounding of a few products and of the matrices' orthonormality (a few
//! units in the last place of `r_a + r_b + |t_a| + |t_b|`). `m` is widened by
//! [`RELATIVE_POSE_ALLOWANCE`] of that scale for each of the two configurations (then and now),
//! on top of the allowance of [`pose_displacement_bound`] (its own rounding, quaternion versus
//! matrix), so an answer decided here is `distance <= tolerance` for the configuration the
//! narrow query would decide about.

use colldet_geom::math::Pose;
use colldet_narrow::PlacedShape;

use crate::motion_bound::{abs_sum, pose_displacement_bound, same_pose, widened_radius};
use crate::proximity::{convex_hulls, exact_vertices};
use crate::proximity_caches::PairProximityCache;

/// Relative allowance, per configuration, for the rounding of the relative pose and of the
/// matrices' orthonormality (see the module docs): a thousand times their size.
const RELATIVE_POSE_ALLOWANCE: f64 = 1e-12;

/// The world poses of a pair's objects `(a, b)` when its certificate's bounds were recorded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CertifiedPoses {
    a: Pose,
    b: Pose,
}

impl PairProximityCache {
    /// After a query of the pair at the poses `a` and `b`: keeps them when the query recorded
    /// new bounds in the certificate (succeeded or not: the bounds recorded are what counts).
    #[inline]
    pub(crate) fn note_poses(&mut self, a: &Pose, b: &Pose) {
        if self.certificate.is_fresh() {
            self.certified_poses = Some(CertifiedPoses { a: *a, b: *b });
        }
    }

    /// The answer to `distance(a, b) <= tolerance` at the placed objects' current poses from
    /// the pair's certificate carried by their motion since its poses; `None` for a pair that is
    /// not two exact convex objects, without bounds, or when the carried bounds do not decide.
    #[inline]
    pub(crate) fn carried_within(
        &mut self,
        (a, b): (&PlacedShape<'_>, &PlacedShape<'_>),
        tolerance: f64,
    ) -> Option<bool> {
        let then = self.certified_poses.as_ref()?;
        let (sa, sb) = (a.shape, b.shape);
        let (ha, hb) = convex_hulls(sa, sb).filter(|_| exact_vertices(sa, sb))?;
        let radii = [f64::from(ha.radius()), f64::from(hb.radius())];
        let motion = pair_motion(then, (a.pose, b.pose), radii);
        self.certificate.decide_within(motion, tolerance)
    }
}

/// A bound on how far the points of both objects (radii `radii` about their origins) moved in
/// total from the poses `then` to `(a, b)`, with the allowances of the module docs.
fn pair_motion(then: &CertifiedPoses, (a, b): (&Pose, &Pose), radii: [f64; 2]) -> f64 {
    let moved = |p0: &Pose, p1: &Pose, radius: f64| {
        if same_pose(p0, p1) {
            0.0
        } else {
            pose_displacement_bound(p0, p1, widened_radius(radius))
        }
    };
    let size = |p: &Pose| abs_sum(&p.translation.vector);
    let scale = radii[0] + radii[1] + size(&then.a) + size(&then.b) + size(a) + size(b);
    (moved(&then.a, a, radii[0]) + moved(&then.b, b, radii[1])) * (1.0 + RELATIVE_POSE_ALLOWANCE)
        + 2.0 * RELATIVE_POSE_ALLOWANCE * scale
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_geom::ConvexPolytope;
    use colldet_narrow::{GjkCache, PoseMatrix, gjk_distance};
    use colldet_testkit::SeededRng;
    use colldet_testkit::shapes::varied_hull_pair;
    use nalgebra::Translation3;

    use crate::object_pose::ObjectPose;

    /// The pair's distance as a world query computes it: GJK on the `f64` relative pose of the
    /// two world matrices.
    fn distance(a: &ConvexPolytope, b: &ConvexPolytope, pa: &ObjectPose, pb: &ObjectPose) -> f64 {
        let pos12: PoseMatrix = pa.matrix.inv_mul(&pb.matrix);
        gjk_distance(a, b, &pos12, &mut GjkCache::new())
            .unwrap()
            .distance
    }

    /// From random poses of both objects, far from the origin or not, to nearby ones (one or
    /// both objects moved, by up to 3% of the size) or unrelated ones: the distance changes by
    /// no more than the pair's motion bound (checked against GJK's accuracy, which both
    /// distances carry).
    #[test]
    fn the_distance_changes_by_at_most_the_pair_motion() {
        let mut rng = SeededRng::new(0xCA_4417);
        for case in 0..400 {
            let (a, b) = varied_hull_pair(case, &mut rng);
            let size = f64::from(a.radius() + b.radius());
            let offset = if case % 7 == 0 { 1e4 } else { 0.0 };
            let base = rng.unit_vector().into_inner() * offset;
            let random_pose = |rng: &mut SeededRng| {
                let t = base + rng.unit_vector().into_inner() * size * rng.range(0.0, 1.5);
                Pose::from_parts(Translation3::from(t), rng.rotation())
            };
            let nudge = |rng: &mut SeededRng, p: &Pose| rng.nudged(p, 0.03, 0.03 * size);
            let (a0, b0) = (random_pose(&mut rng), random_pose(&mut rng));
            let (a1, b1) = match case % 5 {
                0 => (a0, nudge(&mut rng, &b0)),
                1 => (nudge(&mut rng, &a0), b0),
                2 | 3 => (nudge(&mut rng, &a0), nudge(&mut rng, &b0)),
                _ => (random_pose(&mut rng), random_pose(&mut rng)),
            };
            let world = |p: &Pose| ObjectPose::new(p).unwrap();
            let (wa0, wb0, wa1, wb1) = (world(&a0), world(&b0), world(&a1), world(&b1));
            let then = CertifiedPoses {
                a: wa0.pose,
                b: wb0.pose,
            };
            let radii = [f64::from(a.radius()), f64::from(b.radius())];
            let motion = pair_motion(&then, (&wa1.pose, &wb1.pose), radii);
            let d0 = distance(&a, &b, &wa0, &wb0);
            let d1 = distance(&a, &b, &wa1, &wb1);
            let accuracy = 1e-10 * (d0 + d1) + 2e-12 * (size + base.norm() + 2.0 * size);
            assert!(
                (d1 - d0).abs() <= motion + accuracy,
                "case {case}: |{d1} - {d0}| > {motion}"
            );
            if case % 5 == 0 {
                // Only b moved: the bound is b's displacement bound (plus the allowances).
                assert!(motion < 0.1 * size, "case {case}: motion {motion}");
            }
        }
    }
}
