//! The coherent pose sequence of the proximity bench (`benches/proximity.rs`,
//! `proximity-coherent/hull-N`), shared with `examples/proximity_loop.rs` (through `#[path]`) so
//! the example's instruction counts are those of the bench's sequence.

use colldet_geom::math::Pose;
use colldet_testkit::SeededRng;
use colldet_world::{ObjectId, World};
use nalgebra::{Translation3, UnitQuaternion};

/// A coherent sequence of b's poses around a (identity): direction and orientation turn slowly
/// (`step` rad per pose, the orientation 2.5 times faster); b's centre sits on the direction's
/// ray at the touching radius (bisection to `1e-6` of the size) plus `gap`.
pub fn coherent_poses(
    world: &mut World<()>,
    (a, b): (ObjectId, ObjectId),
    size: f64,
    gap: f64,
    count: usize,
    rng: &mut SeededRng,
) -> Vec<Pose> {
    let (dir, axis, spin) = (rng.unit_vector(), rng.unit_vector(), rng.unit_vector());
    let rot0 = rng.rotation();
    let step = 0.004;
    (0..count)
        .map(|k| {
            let turn = UnitQuaternion::from_axis_angle(&axis, step * k as f64);
            let d = turn * dir.into_inner();
            let rot = UnitQuaternion::from_axis_angle(&spin, 2.5 * step * k as f64) * rot0;
            let (mut lo, mut hi) = (0.0, 2.0 * size);
            while hi - lo > 1e-6 * size {
                let mid = 0.5 * (lo + hi);
                world
                    .set_transform(b, Pose::from_parts(Translation3::from(d * mid), rot))
                    .unwrap();
                if world.within_distance(a, b, 0.0).unwrap() {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            Pose::from_parts(Translation3::from(d * (hi + gap)), rot)
        })
        .collect()
}
