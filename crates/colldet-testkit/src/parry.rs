//! Conversions to parry3d-f64, the peer the differential tests and benchmarks compare against.

use colldet_geom::math::Pose;
use parry3d_f64::math::{Pose as ParryPose, Rotation, Vector};

/// `pose` as parry3d-f64's pose: the same translation and quaternion, re-normalised by parry.
pub fn parry_pose(pose: &Pose) -> ParryPose {
    let q = pose.rotation.quaternion();
    let t = pose.translation.vector;
    ParryPose::from_parts(
        Vector::new(t.x, t.y, t.z),
        Rotation::from_xyzw(q.i, q.j, q.k, q.w).normalize(),
    )
}
