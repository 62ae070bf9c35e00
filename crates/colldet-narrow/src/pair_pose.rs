//! `pos12` (the pose of shape 2 in shape 1's frame, `f32`) widened to `f64` once per query, with
//! the checks every pair query shares: a finite translation, and a finite quaternion close enough
//! to unit length to be a rotation (norm at least 0.5), re-normalised in `f64`.

use colldet_geom::math::{Isometry, Pose, VectorD, vec_to_f64};
use nalgebra::{Matrix3, Quaternion, Translation3, UnitQuaternion};

use crate::NarrowError;

/// `pos12` as an `f64` pose with its quaternion re-normalised in `f64`.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite translation or rotation, or a quaternion too
/// far from unit length to be a rotation.
pub(crate) fn widen_pos12(pos12: &Isometry) -> Result<Pose, NarrowError> {
    let trans = vec_to_f64(&pos12.translation.vector);
    if !trans.iter().all(|c| c.is_finite()) {
        return Err(NarrowError::NonFinite {
            what: "pos12 translation",
        });
    }
    let q = pos12.rotation.quaternion();
    let q = Quaternion::new(
        f64::from(q.w),
        f64::from(q.i),
        f64::from(q.j),
        f64::from(q.k),
    );
    let norm = q.norm();
    if !norm.is_finite() || norm < 0.5 {
        return Err(NarrowError::NonFinite {
            what: "pos12 rotation",
        });
    }
    Ok(Pose::from_parts(
        Translation3::from(trans),
        UnitQuaternion::new_normalize(q),
    ))
}

/// [`widen_pos12`] as a rotation matrix and a translation.
///
/// # Errors
/// As [`widen_pos12`].
pub(crate) fn widen_pos12_parts(pos12: &Isometry) -> Result<(Matrix3<f64>, VectorD), NarrowError> {
    let pose = widen_pos12(pos12)?;
    Ok((
        pose.rotation.to_rotation_matrix().into_inner(),
        pose.translation.vector,
    ))
}
