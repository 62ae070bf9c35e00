//! [`ObjectPose`]: an object's pose in the one form the world keeps, checked once where it
//! enters the world (`set_transform`, `set_transform_matrix`, a callback's deferred move).
//!
//! Engines hand us column-major 4x4 matrices in `f32` or `f64`, or a translation and a unit
//! quaternion. A matrix is accepted when every entry is finite, the bottom row is `(0, 0, 0, 1)`
//! within [`RIGIDITY_TOLERANCE`], the rotation part `R` satisfies `|R^T R - I| <=
//! RIGIDITY_TOLERANCE` entry-wise and `det R > 0` (no mirroring); its rotation is
//! re-orthonormalised (the nearest rotation) in `f64`. A quaternion pose is accepted when it is
//! finite and the quaternion has unit length within [`RIGIDITY_TOLERANCE`]; it is re-normalised
//! in `f64`. `f32` matrices built by engines typically carry errors around 1e-7, so the tolerance
//! is 1e-4: loose enough for them, tight enough to reject any scale (a 1.0001 scale gives 2e-4).
//!
//! Every translation component must have magnitude at most [`MAX_COORDINATE`] (`1e15`): the
//! object's world box, its translation widened by its hull's extent, must stay finite (a
//! translation near `f64::MAX` overflowed it and lost the world at the next check).

use colldet_geom::math::{MAX_COORDINATE, Pose, VectorD};
use colldet_narrow::PoseMatrix;
use nalgebra::{Matrix3, Rotation3, Translation3, UnitQuaternion};

/// Most iterations of [`nearest_rotation`]: from the largest accepted error
/// ([`RIGIDITY_TOLERANCE`], 1e-4) the error squares each step, 1e-4 -> 1e-8 -> 1e-16.
const ORTHONORMALISE_STEPS: usize = 4;

use crate::WorldError;

/// Entry-wise tolerance on `R^T R - I` and on the bottom row, and on the quaternion's length;
/// see the module docs.
pub const RIGIDITY_TOLERANCE: f64 = 1e-4;

/// A checked pose (local to world, `f64`): the pose with its quaternion re-normalised, and the
/// rotation matrix made from it once, which the convex tests' relative poses come from
/// ([`PoseMatrix::inv_mul`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ObjectPose {
    /// The pose as set, quaternion re-normalised.
    pub pose: Pose,
    /// The same pose as a rotation matrix and translation.
    pub matrix: PoseMatrix,
}

impl ObjectPose {
    /// `pose` checked: finite, translation components of magnitude at most [`MAX_COORDINATE`],
    /// with a quaternion of unit length within [`RIGIDITY_TOLERANCE`].
    ///
    /// # Errors
    /// [`WorldError::InvalidTransform`] when not finite, the translation is too large or the
    /// quaternion is not unit.
    pub fn new(pose: &Pose) -> Result<Self, WorldError> {
        let q = pose.rotation.quaternion();
        let (t, c) = (&pose.translation.vector, &q.coords);
        // Finite entries have a finite sum; a NaN or infinite one does not (nor, rarely, an
        // overflowing sum of finite ones, which the exact check clears).
        let sum = ((t.x + t.y) + (t.z + c.x)) + ((c.y + c.z) + c.w);
        let finite = sum.is_finite() || t.iter().chain(c.iter()).all(|x| x.is_finite());
        if !finite {
            return Err(WorldError::InvalidTransform(
                "the pose has a NaN or infinite component",
            ));
        }
        if (q.norm() - 1.0).abs() > RIGIDITY_TOLERANCE {
            return Err(WorldError::InvalidTransform(
                "the rotation quaternion is not unit length",
            ));
        }
        Self::of_unit(pose.translation, pose.rotation)
    }

    /// A pose from a column-major 4x4 matrix (`m[col * 4 + row]`, as OpenGL stores it), checked
    /// for rigidity (see the module docs).
    ///
    /// # Errors
    /// [`WorldError::InvalidTransform`] when not finite, not rigid, or the translation is too
    /// large.
    pub fn from_column_major(m: &[f64; 16]) -> Result<Self, WorldError> {
        // One pass without early exit (vectorised): a pose is finite far more often than not.
        if !m.iter().fold(true, |finite, x| finite & x.is_finite()) {
            return Err(WorldError::InvalidTransform(
                "the matrix has a NaN or infinite entry",
            ));
        }
        let at = |row: usize, col: usize| m[col * 4 + row];
        let bottom = [at(3, 0), at(3, 1), at(3, 2), at(3, 3) - 1.0];
        if bottom.iter().any(|x| x.abs() > RIGIDITY_TOLERANCE) {
            return Err(WorldError::InvalidTransform(
                "the bottom row is not (0, 0, 0, 1)",
            ));
        }
        let r = Matrix3::from_fn(at);
        let (gram, error) = gram_and_error(&r);
        if error > RIGIDITY_TOLERANCE {
            return Err(WorldError::InvalidTransform(
                "the rotation part is not orthonormal (scale or shear)",
            ));
        }
        if r.determinant() <= 0.0 {
            return Err(WorldError::InvalidTransform(
                "the rotation part mirrors (determinant <= 0)",
            ));
        }
        let translation = VectorD::new(at(0, 3), at(1, 3), at(2, 3));
        if translation.iter().any(|t| t.abs() > MAX_COORDINATE) {
            return Err(WorldError::InvalidTransform(
                "a translation component has magnitude above 1e15 (MAX_COORDINATE)",
            ));
        }
        // The decisions use the orthonormalised matrix itself (nearer the caller's numbers than
        // a round trip through a quaternion); the quaternion is for `World::transform`.
        let rotation = nearest_rotation(r, gram, error);
        let quaternion = UnitQuaternion::from_rotation_matrix(&rotation);
        let matrix = PoseMatrix::from_parts(rotation.into_inner(), translation)
            .map_err(|_| WorldError::InvalidTransform("the pose is not finite or not rigid"))?;
        Ok(Self {
            pose: Pose::from_parts(Translation3::from(translation), quaternion),
            matrix,
        })
    }

    /// The pose of a finite translation and a quaternion of unit length within the tolerance:
    /// the quaternion re-normalised in `f64`, and its matrix; a translation component of
    /// magnitude above [`MAX_COORDINATE`] is refused.
    fn of_unit(
        translation: Translation3<f64>,
        rotation: UnitQuaternion<f64>,
    ) -> Result<Self, WorldError> {
        if translation.vector.iter().any(|t| t.abs() > MAX_COORDINATE) {
            return Err(WorldError::InvalidTransform(
                "a translation component has magnitude above 1e15 (MAX_COORDINATE)",
            ));
        }
        let pose = Pose::from_parts(
            translation,
            UnitQuaternion::new_normalize(*rotation.quaternion()),
        );
        // The matrix `PoseMatrix::from_pose(&pose)` makes (the quaternion re-normalised once more,
        // as a query widening `pose` would), without its checks: the pose passed them above.
        let rotation = UnitQuaternion::new_normalize(*pose.rotation.quaternion());
        let matrix = PoseMatrix::from_parts(
            rotation.to_rotation_matrix().into_inner(),
            pose.translation.vector,
        )
        .map_err(|_| WorldError::InvalidTransform("the pose is not finite or not rigid"))?;
        Ok(Self { pose, matrix })
    }
}

/// `r^T r` (six dot products of `r`'s columns: it is symmetric) and its largest entry-wise
/// distance from the identity, written out for 3x3 (nalgebra's generic product and `amax` cost
/// several times as many instructions; this runs for every pose an engine sets).
#[inline]
fn gram_and_error(r: &Matrix3<f64>) -> (Matrix3<f64>, f64) {
    let column = |j: usize| [r[(0, j)], r[(1, j)], r[(2, j)]];
    let (c0, c1, c2) = (column(0), column(1), column(2));
    let dot = |a: &[f64; 3], b: &[f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let (g00, g11, g22) = (dot(&c0, &c0), dot(&c1, &c1), dot(&c2, &c2));
    let (g01, g02, g12) = (dot(&c0, &c1), dot(&c0, &c2), dot(&c1, &c2));
    let gram = Matrix3::new(g00, g01, g02, g01, g11, g12, g02, g12, g22);
    let error = [g00 - 1.0, g11 - 1.0, g22 - 1.0, g01, g02, g12]
        .iter()
        .fold(0.0_f64, |e, x| e.max(x.abs()));
    (gram, error)
}

/// The rotation nearest to `r` (the orthogonal polar factor), for an `r` that passed the
/// rigidity check (`|r^T r - I| <= RIGIDITY_TOLERANCE` entry-wise, `det r > 0`): the Newton-Schulz
/// (Bjorck) iteration `r <- r (3 I - r^T r) / 2`, which converges quadratically to the polar
/// factor from there, stopped when `r^T r` is the identity to a few `f64` ulps (`gram` is `r^T r`
/// and `error` its largest entry-wise distance from the identity, already computed by the
/// rigidity check). A matrix already orthonormal to that level is kept exactly as given. Closed
/// form in effect (at most [`ORTHONORMALISE_STEPS`] steps of two 3x3 products), where an
/// SVD-based or general iterative fit costs about a microsecond.
fn nearest_rotation(mut r: Matrix3<f64>, mut gram: Matrix3<f64>, mut error: f64) -> Rotation3<f64> {
    for _ in 0..ORTHONORMALISE_STEPS {
        if error <= 4.0 * f64::EPSILON {
            break;
        }
        r = r * (Matrix3::identity() * 3.0 - gram) * 0.5;
        (gram, error) = gram_and_error(&r);
    }
    Rotation3::from_matrix_unchecked(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column_major(pose: &Pose) -> [f64; 16] {
        let h = pose.to_homogeneous();
        std::array::from_fn(|i| h[(i % 4, i / 4)])
    }

    #[test]
    fn accepts_rigid_and_rejects_the_rest() {
        let pose = Pose::new(VectorD::new(1.0, -2.0, 3.0), VectorD::new(0.3, -0.2, 0.9));
        let m = column_major(&pose);
        let back = ObjectPose::from_column_major(&m).unwrap().pose;
        assert!((back.translation.vector - pose.translation.vector).norm() < 1e-15);
        assert!(back.rotation.angle_to(&pose.rotation) < 1e-12);
        assert_eq!(m[12], 1.0, "translation sits in the last column");

        let mut scaled = m;
        (0..3).for_each(|i| scaled[i] *= 1.001);
        assert!(ObjectPose::from_column_major(&scaled).is_err());
        let mut nan = m;
        nan[5] = f64::NAN;
        assert!(ObjectPose::from_column_major(&nan).is_err());
        let mut mirrored = m;
        (0..3).for_each(|i| mirrored[i] = -mirrored[i]);
        assert!(ObjectPose::from_column_major(&mirrored).is_err());
        let mut projective = m;
        projective[3] = 0.5;
        assert!(ObjectPose::from_column_major(&projective).is_err());
        let mut f32_noise = m;
        f32_noise[0] += 3e-7;
        assert!(ObjectPose::from_column_major(&f32_noise).is_ok());
    }

    /// The closed-form orthonormalisation gives the polar factor (nalgebra's iterative nearest
    /// rotation) for matrices up to the rigidity tolerance off, orthonormal to `f64` rounding.
    #[test]
    fn nearest_rotation_is_the_polar_factor() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for case in 0..500 {
            let axis = VectorD::new(next(), next(), next()) * 3.0;
            let exact = Rotation3::new(axis).into_inner();
            let size = [0.0, 1e-12, 3e-7, 1e-5, 3e-5][case % 5];
            let noise = Matrix3::from_fn(|_, _| next() * size);
            let r = exact + noise;
            let (gram, error) = gram_and_error(&r);
            assert!((gram - r.tr_mul(&r)).amax() < 1e-15);
            let ours = nearest_rotation(r, gram, error).into_inner();
            let reference = Rotation3::from_matrix_eps(&r, 1e-15, 100, Rotation3::identity());
            assert!((ours - reference.matrix()).amax() < 1e-13, "case {case}");
            assert!((ours.tr_mul(&ours) - Matrix3::identity()).amax() < 1e-15);
        }
    }

    /// The matrix of a checked quaternion pose is the one a query widening the stored pose
    /// makes, bit for bit (the world's tests and queries compare against that form).
    #[test]
    fn direct_pose_matrix_is_the_widened_pose() {
        for k in 0..200 {
            let x = f64::from(k);
            let t = VectorD::new((x * 0.37).sin() * 1e3, x.cos(), -x * 1e-3);
            let axis = VectorD::new((x * 1.3).sin(), (x * 0.7).cos(), (x * 2.1).sin()) * 3.0;
            let mut pose = Pose::new(t, axis);
            // Off unit length within the tolerance, as an engine's `f32` quaternion may be.
            let q = *pose.rotation.quaternion() * (1.0 + 5e-5 * (x * 0.9).sin());
            pose.rotation = UnitQuaternion::new_unchecked(q);
            let checked = ObjectPose::new(&pose).unwrap();
            assert_eq!(
                checked.matrix,
                PoseMatrix::from_pose(&checked.pose).unwrap(),
                "pose {k}"
            );
        }
    }

    #[test]
    fn checks_direct_poses() {
        let pose = Pose::new(VectorD::new(1.0, 2.0, 3.0), VectorD::new(0.0, 0.5, 0.0));
        assert!(ObjectPose::new(&pose).is_ok());
        let mut bad = pose;
        bad.translation.vector.x = f64::INFINITY;
        assert!(ObjectPose::new(&bad).is_err());
    }

    /// Translations up to MAX_COORDINATE per component are accepted, the next `f64` up is not,
    /// in both pose forms.
    #[test]
    fn translations_are_bounded() {
        for c in 0..3 {
            for sign in [1.0, -1.0] {
                let mut pose = Pose::identity();
                pose.translation.vector[c] = sign * MAX_COORDINATE;
                assert!(ObjectPose::new(&pose).is_ok());
                let mut m = column_major(&pose);
                assert!(ObjectPose::from_column_major(&m).is_ok());
                pose.translation.vector[c] = sign * MAX_COORDINATE.next_up();
                assert!(matches!(
                    ObjectPose::new(&pose),
                    Err(WorldError::InvalidTransform(_))
                ));
                m[12 + c] = sign * f64::MAX;
                assert!(matches!(
                    ObjectPose::from_column_major(&m),
                    Err(WorldError::InvalidTransform(_))
                ));
            }
        }
    }
}
