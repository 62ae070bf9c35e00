//! `pos12` (the pose of shape 2 in shape 1's frame: an `f32` isometry, an `f64` pose, or an `f64`
//! [`PoseMatrix`]) widened to an `f64` rotation matrix and translation once per query, with the
//! checks every pair query shares: finite entries, and for quaternion poses a quaternion close
//! enough to unit length to be a rotation (norm at least 0.5), re-normalised in `f64`.

use colldet_geom::math::{Isometry, PointD, Pose, VectorD, vec_to_f64};
use nalgebra::{Matrix3, Quaternion, Translation3, UnitQuaternion};

use crate::NarrowError;

/// The pose of shape 2 in shape 1's frame as a pair query accepts it: an `f32` [`Isometry`], an
/// `f64` [`Pose`], or an `f64` [`PoseMatrix`].
///
/// Queries widen it to an `f64` rotation matrix and translation once and then decide exactly
/// about the configuration it describes. Pass an `f64` pose when the objects' world poses are
/// `f64` (the world passes a [`PoseMatrix`]): rounding the relative pose to `f32` moves shape 2 by
/// up to about `6e-8 |t12|`, which is wider than the touching band
/// ([`crate::gjk::TOUCHING_TOLERANCE_FACTOR`]), so an `f32` `pos12` gives the exact answer for the
/// rounded configuration, not for the original one.
pub trait RelativePose: sealed::Sealed {
    /// The rotation matrix and translation in `f64` that the queries decide about: for the
    /// quaternion poses, the quaternion widened and re-normalised in `f64` then turned into a
    /// matrix; for a [`PoseMatrix`], its entries as they are.
    ///
    /// # Errors
    /// [`NarrowError::NonFinite`] for a NaN or infinite entry, or a quaternion too far from unit
    /// length to be a rotation.
    fn widened_parts(&self) -> Result<(Matrix3<f64>, VectorD), NarrowError>;
}

impl RelativePose for Isometry {
    fn widened_parts(&self) -> Result<(Matrix3<f64>, VectorD), NarrowError> {
        Ok(matrix_parts(&widen_pos12(self)?))
    }
}

impl RelativePose for Pose {
    fn widened_parts(&self) -> Result<(Matrix3<f64>, VectorD), NarrowError> {
        let (trans, q) = self.parts_f64();
        Ok(matrix_parts(&checked_pose(trans, q)?))
    }
}

impl RelativePose for PoseMatrix {
    #[inline]
    fn widened_parts(&self) -> Result<(Matrix3<f64>, VectorD), NarrowError> {
        // The sum of the entries is finite when they all are (NaN or infinite otherwise, or,
        // rarely, an overflow that the exact checks below clear): one branch for the common case.
        let r = self.rot.as_slice();
        let t = &self.trans;
        let sum = ((r[0] + r[1]) + (r[2] + r[3]))
            + ((r[4] + r[5]) + (r[6] + r[7]))
            + ((r[8] + t.x) + (t.y + t.z));
        if sum.is_finite() {
            return Ok((self.rot, self.trans));
        }
        if !self.trans.iter().all(|c| c.is_finite()) {
            return Err(NonFinite::translation());
        }
        if !self.rot.iter().all(|c| c.is_finite()) {
            return Err(NonFinite::rotation());
        }
        Ok((self.rot, self.trans))
    }
}

mod sealed {
    /// Only the three pose forms implement [`super::RelativePose`].
    pub trait Sealed {}
    impl Sealed for colldet_geom::math::Isometry {}
    impl Sealed for colldet_geom::math::Pose {}
    impl Sealed for super::PoseMatrix {}
}

/// A rigid pose in `f64` as a rotation matrix and a translation (`x -> rot * x + trans`).
///
/// Rationale: a world computes it once per moved object ([`PoseMatrix::from_pose`]) and each
/// pair's relative pose from two of them ([`PoseMatrix::inv_mul`]) with matrix products only,
/// where the quaternion form costs a quaternion product, a rotated translation, a square root and
/// a division (the re-normalisation) and the matrix conversion per pair.
///
/// The rotation is orthonormal up to `f64` rounding (a few units in the last place per product);
/// the queries take it as given, exactly as they take a widened quaternion's matrix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoseMatrix {
    rot: Matrix3<f64>,
    trans: VectorD,
}

impl PoseMatrix {
    /// The identity pose.
    pub fn identity() -> Self {
        Self {
            rot: Matrix3::identity(),
            trans: VectorD::zeros(),
        }
    }

    /// `pose` with its quaternion re-normalised in `f64` and turned into a matrix (the matrix a
    /// query would widen `pose` to).
    ///
    /// # Errors
    /// [`NarrowError::NonFinite`] for a NaN or infinite translation or rotation, or a quaternion
    /// too far from unit length to be a rotation.
    pub fn from_pose(pose: &Pose) -> Result<Self, NarrowError> {
        let (rot, trans) = pose.widened_parts()?;
        Ok(Self { rot, trans })
    }

    /// The pose `x -> rot * x + trans` from its parts, as given (the caller vouches that `rot` is
    /// a rotation; queries decide exactly about the configuration these numbers describe).
    ///
    /// # Errors
    /// [`NarrowError::NonFinite`] for a NaN or infinite entry.
    pub fn from_parts(rot: Matrix3<f64>, trans: VectorD) -> Result<Self, NarrowError> {
        let pose = Self { rot, trans };
        pose.widened_parts()?;
        Ok(pose)
    }

    /// The rotation matrix (local to parent frame).
    pub fn rotation(&self) -> &Matrix3<f64> {
        &self.rot
    }

    /// The translation (the local origin in the parent frame).
    pub fn translation(&self) -> &VectorD {
        &self.trans
    }

    /// The pose of `other` in `self`'s frame, `self^-1 * other`, with both given in the same
    /// parent frame: rotation `rot^T * other.rot`, translation `rot^T * (other.trans - trans)`,
    /// rounded in `f64`.
    #[inline]
    pub fn inv_mul(&self, other: &Self) -> Self {
        Self {
            rot: self.rot.tr_mul(&other.rot),
            trans: self.rot.tr_mul(&(other.trans - self.trans)),
        }
    }

    /// `p` mapped into the parent frame, `rot * p + trans`, rounded in `f64`.
    #[inline]
    pub fn transform_point(&self, p: &PointD) -> PointD {
        PointD::from(self.rot * p.coords + self.trans)
    }

    /// `p` of the parent frame mapped into the local frame, `rot^T * (p - trans)`, rounded in
    /// `f64` (the transpose stands for the inverse: the rotation is taken as given).
    #[inline]
    pub fn inverse_transform_point(&self, p: &PointD) -> PointD {
        PointD::from(self.rot.tr_mul(&(p.coords - self.trans)))
    }

    /// The direction `v` of the parent frame in the local frame, `rot^T * v`.
    #[inline]
    pub fn inverse_transform_vector(&self, v: &VectorD) -> VectorD {
        self.rot.tr_mul(v)
    }

    /// `pos12` widened once for a query (see [`RelativePose::widened_parts`]).
    ///
    /// # Errors
    /// As [`RelativePose::widened_parts`].
    pub fn widen(pos12: &(impl RelativePose + ?Sized)) -> Result<Self, NarrowError> {
        let (rot, trans) = pos12.widened_parts()?;
        Ok(Self { rot, trans })
    }
}

/// The `f64` translation and quaternion `(w, i, j, k)` of the quaternion pose forms, unchecked.
trait QuaternionParts {
    fn parts_f64(&self) -> (VectorD, Quaternion<f64>);
}

impl QuaternionParts for Isometry {
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

impl QuaternionParts for Pose {
    fn parts_f64(&self) -> (VectorD, Quaternion<f64>) {
        (self.translation.vector, *self.rotation.quaternion())
    }
}

/// The errors of the widening checks.
struct NonFinite;

impl NonFinite {
    fn translation() -> NarrowError {
        NarrowError::NonFinite {
            what: "pos12 translation",
        }
    }

    fn rotation() -> NarrowError {
        NarrowError::NonFinite {
            what: "pos12 rotation",
        }
    }
}

/// The pose with translation `trans` and rotation `q` re-normalised in `f64`, after the checks
/// of [`widen_pos12`].
fn checked_pose(trans: VectorD, q: Quaternion<f64>) -> Result<Pose, NarrowError> {
    if !trans.iter().all(|c| c.is_finite()) {
        return Err(NonFinite::translation());
    }
    let norm = q.norm();
    if !norm.is_finite() || norm < 0.5 {
        return Err(NonFinite::rotation());
    }
    Ok(Pose::from_parts(
        Translation3::from(trans),
        UnitQuaternion::new_normalize(q),
    ))
}

/// The rotation matrix and translation of a pose with a unit quaternion.
fn matrix_parts(pose: &Pose) -> (Matrix3<f64>, VectorD) {
    (
        pose.rotation.to_rotation_matrix().into_inner(),
        pose.translation.vector,
    )
}

/// An `f32` `pos12` as an `f64` pose with its quaternion re-normalised in `f64`.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite translation or rotation, or a quaternion too
/// far from unit length to be a rotation.
pub(crate) fn widen_pos12(pos12: &Isometry) -> Result<Pose, NarrowError> {
    let (trans, q) = pos12.parts_f64();
    checked_pose(trans, q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    fn pose(axis: [f64; 3], angle: f64, t: [f64; 3]) -> Pose {
        Pose::new(Vector3::from(t), Vector3::from(axis).normalize() * angle)
    }

    #[test]
    fn matrix_relative_pose_matches_the_quaternion_one_to_rounding() {
        let a = pose([1.0, 2.0, -0.5], 0.7, [3.0, -1.0, 250.0]);
        let b = pose([-0.3, 0.1, 1.0], 2.9, [2.5, 0.5, 249.0]);
        let (fa, fb) = (
            PoseMatrix::from_pose(&a).unwrap(),
            PoseMatrix::from_pose(&b).unwrap(),
        );
        // The matrix is the rotation of the quaternion (nalgebra's own conversion) and stays
        // orthonormal to rounding.
        let rot_a = *fa.rotation();
        assert!(
            (rot_a - a.rotation.to_rotation_matrix().into_inner())
                .abs()
                .max()
                < 1e-15
        );
        assert!(
            (rot_a.transpose() * rot_a - Matrix3::identity())
                .abs()
                .max()
                < 1e-15
        );
        assert_eq!(fa.translation(), &a.translation.vector);
        let (rot, trans) = fa.inv_mul(&fb).widened_parts().unwrap();
        let (rot_q, trans_q) = a.inv_mul(&b).widened_parts().unwrap();
        assert!((rot - rot_q).abs().max() < 1e-15);
        assert!((trans - trans_q).abs().max() < 1e-12);
        let p = VectorD::new(0.25, -4.0, 1.5);
        let world = fa.rotation() * p + fa.translation();
        assert!((world - (a * nalgebra::Point3::from(p)).coords).abs().max() < 1e-12);
        assert_eq!(PoseMatrix::identity().inv_mul(&fa), fa);
    }

    #[test]
    fn non_finite_matrices_and_poses_are_errors() {
        let mut a = pose([0.0, 0.0, 1.0], 0.3, [1.0, 2.0, 3.0]);
        let far = PoseMatrix::from_pose(&pose([0.0, 1.0, 0.0], 1.0, [f64::MAX, 0.0, 0.0]));
        let near = PoseMatrix::from_pose(&pose([0.0, 1.0, 0.0], 1.0, [-f64::MAX, 0.0, 0.0]));
        assert!(
            far.unwrap()
                .inv_mul(&near.unwrap())
                .widened_parts()
                .is_err()
        );
        a.translation.vector.y = f64::NAN;
        assert!(PoseMatrix::from_pose(&a).is_err());
    }
}
