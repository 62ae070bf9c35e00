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

/// A tiny deterministic generator (SplitMix64) shared by this module's randomized tests.
#[cfg(test)]
pub(crate) mod test_rng {
    use crate::math::{Isometry, Pose};
    use nalgebra::{Quaternion, Translation3, UnitQuaternion, Vector3};

    /// SplitMix64.
    pub struct Rng(pub u64);

    impl Rng {
        pub fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        /// Uniform in [0, 1).
        pub fn unit(&mut self) -> f64 {
            (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
        }
        /// Uniform in [lo, hi).
        pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * self.unit()
        }
        /// Uniform integer in 0..n.
        pub fn below(&mut self, n: usize) -> usize {
            (self.next_u64() % n as u64) as usize
        }
        /// `10^u` for `u` uniform in `[lo, hi)`: a log-uniform magnitude.
        pub fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
            10f64.powf(self.range(lo, hi))
        }
        /// A uniformly distributed rotation.
        pub fn rotation(&mut self) -> UnitQuaternion<f64> {
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
        /// A random `f64` pose with translation components in `[-t, t)`.
        pub fn pose(&mut self, t: f64) -> Pose {
            let tr = Vector3::new(self.range(-t, t), self.range(-t, t), self.range(-t, t));
            Pose::from_parts(Translation3::from(tr), self.rotation())
        }
        /// A random `f32` isometry with translation components in `[-t, t)`.
        pub fn isometry(&mut self, t: f64) -> Isometry {
            nalgebra::convert(self.pose(t))
        }
    }
}
