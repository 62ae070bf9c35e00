//! Bounding volumes: axis-aligned boxes ([`Aabb`] in an object's local frame, [`WorldAabb`] in
//! world coordinates), oriented boxes ([`Obb`]) and spheres ([`BoundingSphere`]).
//!
//! Conventions shared by every volume here:
//! - Local volumes are stored in [`crate::math::Real`] (`f32`) in the frame of the object they
//!   bound; world volumes are `f64`.
//! - Volumes are closed sets: touching volumes overlap, and a point on the boundary is contained.
//! - Every construction and every transform rounds outward, so a volume always contains what it
//!   claims to bound, however far from the origin or however small; overlap tests may report
//!   "overlap" for volumes that are apart by a few ulps of their scale, never "apart" for volumes
//!   that touch or intersect.
//! - Pair tests take `pos12`, the pose of volume 2's frame expressed in volume 1's frame.
//! - `overlaps` and `transformed` never allocate.

pub mod aabb;
pub mod obb;
pub mod sphere;

pub use aabb::{Aabb, WorldAabb};
pub use obb::Obb;
pub use sphere::BoundingSphere;

/// The smallest `f32` that is `>= x` (rounding toward +infinity). NaN stays NaN.
#[inline]
pub(crate) fn round_up_f32(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) < x { y.next_up() } else { y }
}

/// The draws of this module's randomized tests, on the shared SplitMix64 generator.
#[cfg(test)]
pub(crate) mod test_rng {
    use crate::math::{Isometry, Pose};
    use nalgebra::{Quaternion, Translation3, UnitQuaternion, Vector3};

    pub use colldet_testkit::SplitMix64 as Rng;

    /// Draws built on [`Rng`]'s `range`.
    pub trait Draws {
        /// Uniform in [0, 1).
        fn unit(&mut self) -> f64;
        /// `10^u` for `u` uniform in `[lo, hi)`: a log-uniform magnitude.
        fn log_uniform(&mut self, lo: f64, hi: f64) -> f64;
        /// A uniformly distributed rotation.
        fn rotation(&mut self) -> UnitQuaternion<f64>;
        /// A random `f64` pose with translation components in `[-t, t)`.
        fn pose(&mut self, t: f64) -> Pose;
        /// A random `f32` isometry with translation components in `[-t, t)`.
        fn isometry(&mut self, t: f64) -> Isometry;
    }

    impl Draws for Rng {
        fn unit(&mut self) -> f64 {
            self.next_f64()
        }
        fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
            10f64.powf(self.range(lo, hi))
        }
        fn rotation(&mut self) -> UnitQuaternion<f64> {
            loop {
                let q = Quaternion::new(
                    self.range(-1.0, 1.0),
                    self.range(-1.0, 1.0),
                    self.range(-1.0, 1.0),
                    self.range(-1.0, 1.0),
                );
                let n = q.norm();
                if n > 0.1 && n <= 1.0 {
                    return UnitQuaternion::from_quaternion(q);
                }
            }
        }
        fn pose(&mut self, t: f64) -> Pose {
            let tr = Vector3::new(self.range(-t, t), self.range(-t, t), self.range(-t, t));
            Pose::from_parts(Translation3::from(tr), self.rotation())
        }
        fn isometry(&mut self, t: f64) -> Isometry {
            nalgebra::convert(self.pose(t))
        }
    }
}
