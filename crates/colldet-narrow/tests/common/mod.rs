//! Shared helpers for the colldet-narrow integration tests: draws from the seeded generator,
//! shape clouds and poses.
#![allow(dead_code)]

use colldet_geom::math::{Isometry, Point, Vector};
use colldet_narrow::PointCloud;
use nalgebra::{Translation3, UnitQuaternion};

pub use colldet_testkit::SplitMix64;

/// The random directions and rotations of the narrow-phase tests, drawn from the shared
/// [`SplitMix64`].
pub trait NarrowDraws {
    /// Uniform unit vector: rejection sampling in the cube (norms in `(0.1, 1]`, divided by the
    /// norm).
    fn unit_vector(&mut self) -> nalgebra::Vector3<f64>;

    /// Uniform rotation (f64): a quaternion with components uniform in `[-1, 1)`, normalised
    /// (the identity when its norm is below 0.1).
    fn rotation(&mut self) -> UnitQuaternion<f64>;
}

impl NarrowDraws for SplitMix64 {
    fn unit_vector(&mut self) -> nalgebra::Vector3<f64> {
        loop {
            let v = nalgebra::Vector3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }

    fn rotation(&mut self) -> UnitQuaternion<f64> {
        let q = nalgebra::Quaternion::new(
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
        );
        if q.norm() < 0.1 {
            UnitQuaternion::identity()
        } else {
            UnitQuaternion::new_normalize(q)
        }
    }
}

pub fn p(x: f32, y: f32, z: f32) -> Point {
    Point::new(x, y, z)
}

/// Axis-aligned box with half extents `h`, centred at the local origin (8 corners).
pub fn cuboid(h: [f32; 3]) -> PointCloud {
    let mut pts = Vec::new();
    for sx in [-1.0, 1.0] {
        for sy in [-1.0, 1.0] {
            for sz in [-1.0, 1.0] {
                pts.push(p(sx * h[0], sy * h[1], sz * h[2]));
            }
        }
    }
    PointCloud::new(pts).unwrap()
}

/// Unit cube `[-0.5, 0.5]^3`.
pub fn unit_cube() -> PointCloud {
    cuboid([0.5, 0.5, 0.5])
}

/// `n` Fibonacci points on the sphere of radius `r`, plus both poles `(0, 0, +-r)`.
pub fn fibonacci_sphere(n: usize, r: f32) -> PointCloud {
    let mut pts = vec![p(0.0, 0.0, r), p(0.0, 0.0, -r)];
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    for i in 0..n {
        let z = 1.0 - (2.0 * i as f64 + 1.0) / n as f64;
        let rad = (1.0 - z * z).sqrt();
        let th = golden * i as f64;
        pts.push(p(
            (rad * th.cos()) as f32 * r,
            (rad * th.sin()) as f32 * r,
            z as f32 * r,
        ));
    }
    PointCloud::new(pts).unwrap()
}

pub fn iso(t: [f32; 3]) -> Isometry {
    Isometry::from_parts(
        Translation3::new(t[0], t[1], t[2]),
        UnitQuaternion::identity(),
    )
}

pub fn iso_rot(t: [f32; 3], axis: Vector, angle: f32) -> Isometry {
    Isometry::from_parts(
        Translation3::new(t[0], t[1], t[2]),
        UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle),
    )
}

/// The `f64` pose of [`to_iso`], without rounding to `f32`.
pub fn to_pose(rot: &UnitQuaternion<f64>, t: &nalgebra::Vector3<f64>) -> colldet_geom::math::Pose {
    colldet_geom::math::Pose::from_parts(Translation3::new(t.x, t.y, t.z), *rot)
}

/// Rounds an `f64` pose to the `f32` [`Isometry`] the queries also take.
pub fn to_iso(rot: &UnitQuaternion<f64>, t: &nalgebra::Vector3<f64>) -> Isometry {
    Isometry::from_parts(
        Translation3::new(t.x as f32, t.y as f32, t.z as f32),
        nalgebra::convert::<UnitQuaternion<f64>, UnitQuaternion<f32>>(*rot),
    )
}

/// Random convex point sets of the three families used by the randomized tests.
#[derive(Clone, Copy, Debug)]
pub enum Family {
    Ellipsoid,
    Rod,
    Plate,
}

/// A random point cloud: `n` points of the given family with sizes scaled by `scale`, centred near
/// the local origin.
pub fn random_cloud(rng: &mut SplitMix64, family: Family, n: usize, scale: f64) -> Vec<Point> {
    let (a, b, c) = match family {
        Family::Ellipsoid => (
            rng.range(0.3, 1.5),
            rng.range(0.3, 1.5),
            rng.range(0.3, 1.5),
        ),
        Family::Rod => (
            rng.range(1.0, 3.0),
            rng.range(0.01, 0.1),
            rng.range(0.01, 0.1),
        ),
        Family::Plate => (
            rng.range(0.5, 2.0),
            rng.range(0.5, 2.0),
            rng.range(0.005, 0.05),
        ),
    };
    let mut pts = Vec::with_capacity(n);
    for _ in 0..n {
        let u = rng.unit_vector();
        let q = match family {
            Family::Ellipsoid => u,
            // Points inside a thin box / slab, biased to its boundary.
            _ => nalgebra::Vector3::new(u.x.signum() * u.x.abs().sqrt(), u.y, u.z.signum()),
        };
        pts.push(p(
            (q.x * a * scale) as f32,
            (q.y * b * scale) as f32,
            (q.z * c * scale) as f32,
        ));
    }
    pts
}
