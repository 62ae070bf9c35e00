//! Scalar and linear-algebra aliases shared by every colldet crate.
//!
//! Local geometry (mesh vertices, normals, local bounding volumes) is stored in [`Real`] = `f32`,
//! as the engines that feed us store it. Object poses are [`Pose`] = `Isometry3<f64>`: a pairwise
//! query computes the pose of one object in the frame of the other in `f64` and then works in that
//! local frame, so objects far from the world origin keep the precision of their local coordinates.
//! Sign-critical predicates (orientations) are decided exactly by [`crate::predicates`].

pub use nalgebra;

/// Scalar of local geometry (mesh vertices and everything derived from them in the local frame).
pub type Real = f32;
/// A point in an object's local frame.
pub type Point = nalgebra::Point3<Real>;
/// A vector in an object's local frame.
pub type Vector = nalgebra::Vector3<Real>;
/// A rigid transform (rotation then translation) in local-frame precision.
pub type Isometry = nalgebra::Isometry3<Real>;
/// A 3x3 matrix in local-frame precision.
pub type Matrix3 = nalgebra::Matrix3<Real>;

/// The world pose of an object: maps local coordinates to world coordinates, in `f64`.
pub type Pose = nalgebra::Isometry3<f64>;
/// A point in `f64` (world coordinates, or exact-ish intermediate results).
pub type PointD = nalgebra::Point3<f64>;
/// A vector in `f64`.
pub type VectorD = nalgebra::Vector3<f64>;
/// A 3x3 matrix in `f64` (rotations of relative poses, covariances).
pub type MatrixD = nalgebra::Matrix3<f64>;

/// Largest magnitude of a coordinate colldet accepts: each vertex coordinate of a mesh built into
/// a shape ([`crate::Polyhedron::build`]), and in the world each pose translation component and
/// each universe box coordinate. `1e15` (about `2^49.8`) keeps every derived quantity finite by a wide
/// margin: a world box coordinate is at most `|t| + sqrt(3) * r * (1 + 4e-6)`, under `3e15`;
/// radii, box extents and distances stay under `1e16`, so their squares stay finite even in
/// `f32` (`3e32 < 3.4e38`) and products of up to 19 of them in `f64`. At `1e15` the spacing of
/// `f64` values is already 0.125 world units (1 at `2^53`): larger coordinates mean little.
pub const MAX_COORDINATE: f64 = 1e15;

/// The six unit directions along the coordinate axes: `+x, -x, +y, -y, +z, -z` (the negative ones
/// are the negated positive ones, zeros included: `-x` is `(-1, -0, -0)`).
pub const SIGNED_AXES: [VectorD; 6] = [
    VectorD::new(1.0, 0.0, 0.0),
    VectorD::new(-1.0, -0.0, -0.0),
    VectorD::new(0.0, 1.0, 0.0),
    VectorD::new(-0.0, -1.0, -0.0),
    VectorD::new(0.0, 0.0, 1.0),
    VectorD::new(-0.0, -0.0, -1.0),
];

/// Widens a local point to `f64` without rounding.
#[inline]
pub fn to_f64(p: &Point) -> PointD {
    PointD::new(f64::from(p.x), f64::from(p.y), f64::from(p.z))
}

/// Widens a local vector to `f64` without rounding.
#[inline]
pub fn vec_to_f64(v: &Vector) -> VectorD {
    VectorD::new(f64::from(v.x), f64::from(v.y), f64::from(v.z))
}

/// A unit vector perpendicular to the unit vector `v` (the component of `x` or `y`, whichever is
/// farther from `v`, orthogonal to `v`).
pub fn any_perpendicular(v: &VectorD) -> VectorD {
    let other = if v.x.abs() < 0.6 {
        VectorD::x()
    } else {
        VectorD::y()
    };
    (other - v * v.dot(&other)).normalize()
}

/// The pose of object 2 in the frame of object 1, computed in `f64` and then rounded to local
/// precision: `pos12 = pose1^-1 * pose2`, mapping points of object 2's frame into object 1's frame.
#[inline]
pub fn relative_pose(pose1: &Pose, pose2: &Pose) -> Isometry {
    nalgebra::convert(pose1.inv_mul(pose2))
}

/// True when every coordinate of `p` has magnitude at most [`MAX_COORDINATE`] (so is finite).
#[inline]
pub fn is_bounded_point(p: &Point) -> bool {
    [p.x, p.y, p.z]
        .iter()
        .all(|&c| f64::from(c).abs() <= MAX_COORDINATE)
}

/// True when every coordinate of `p` is finite.
#[inline]
pub fn is_finite_point(p: &Point) -> bool {
    p.x.is_finite() && p.y.is_finite() && p.z.is_finite()
}
