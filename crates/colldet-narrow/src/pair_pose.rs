//! `pos12` (the pose of shape 2 in shape 1's frame, `f32` or `f64`) widened to `f64` once per
//! query, with the checks every pair query shares: a finite translation, and a finite quaternion
//! close enough to unit length to be a rotation (norm at least 0.5), re-normalised in `f64`.

use colldet_geom::math::{Isometry, Pose, VectorD, vec_to_f64};
use nalgebra::{Matrix3, Quaternion, Translation3, UnitQuaternion};

use crate::NarrowError;

/// The pose of shape 2 in shape 1's frame as a pair query accepts it: an `f32` [`Isometry`] or an
/// `f64` [`Pose`].
///
/// Queries widen it to `f64` once and then decide exactly about the configuration it describes.
/// Pass the `f64` pose when the objects' world poses are `f64` (the world does): rounding the
/// relative pose to `f32` moves shape 2 by up to about `6e-8 |t12|`, which is wider than the
/// touching band ([`crate::gjk::TOUCHING_TOLERANCE_FACTOR`]), so an `f32` `pos12` gives the exact
/// answer for the rounded configuration, not for the original one.
pub trait RelativePose: sealed::Sealed {
    /// The translation and rotation quaternion `(w, i, j, k)` widened to `f64`, unchecked.
    fn parts_f64(&self) -> (VectorD, Quaternion<f64>);
}

impl RelativePose for Isometry {
    fn parts_f64(&self) -> (VectorD, Quaternion<f64>) {
        let q = self.rotation.quaternion();
        (
            vec_to_f64(&self.translation.vector),
            Quaternion::new(
                f64::from(q.w),
                f64::from(q.i),
                f64::from(q.j),
                f64::from(q.k),
            ),
        )
    }
}

impl RelativePose for Pose {
    fn parts_f64(&self) -> (VectorD, Quaternion<f64>) {
        (self.translation.vector, *self.rotation.quaternion())
    }
}

mod sealed {
    /// Only the two pose precisions implement [`super::RelativePose`].
    pub trait Sealed {}
    impl Sealed for colldet_geom::math::Isometry {}
    impl Sealed for colldet_geom::math::Pose {}
}

/// `pos12` as an `f64` pose with its quaternion re-normalised in `f64`.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite translation or rotation, or a quaternion too
/// far from unit length to be a rotation.
pub(crate) fn widen_pos12<P: RelativePose + ?Sized>(pos12: &P) -> Result<Pose, NarrowError> {
    let (trans, q) = pos12.parts_f64();
    if !trans.iter().all(|c| c.is_finite()) {
        return Err(NarrowError::NonFinite {
            what: "pos12 translation",
        });
    }
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
pub(crate) fn widen_pos12_parts<P: RelativePose + ?Sized>(
    pos12: &P,
) -> Result<(Matrix3<f64>, VectorD), NarrowError> {
    let pose = widen_pos12(pos12)?;
    Ok((
        pose.rotation.to_rotation_matrix().into_inner(),
        pose.translation.vector,
    ))
}
