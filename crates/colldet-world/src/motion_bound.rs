//! Motion bounds of the time-to-collision schedule (`ttc_schedule.rs`): each scheduled object's
//! bound on its motion per check, and the motion it actually made, measured at every check.
//!
//! # Time unit
//! The world has no clock: its unit of time is **one check** ([`crate::World::check`]). A bound
//! says how far the object's origin travels (`max_linear`, world units) and by how much the
//! object turns (`max_angular`, radians) between two consecutive checks; a move that spans `k`
//! checks (the object was not moved at the `k - 1` checks in between) may be `k` times as large.
//! With `r` the object's radius about its local origin (the farthest vertex), no point of the
//! object moves more than `max_linear + 2 sin(min(max_angular, pi) / 2) r` per check: that is
//! the speed the schedule plans with.
//!
//! # Actual motion
//! Every scheduled object keeps an **odometer**: at each check, the displacement bound of its
//! move since its pose at the previous check, `|t1 - t0| + 2 sin(theta / 2) r` (`theta` the angle
//! of the relative rotation), rounded up, is added to it, rounded up. By the triangle inequality,
//! the odometer's increase between two checks bounds how far any point of the object is from
//! where it was, whatever the bound said. The schedule's certificates are in odometer terms, so
//! they stay true when a caller's bound is wrong; bounds only decide when taking a distance pays.
//! A move beyond the bound is counted ([`crate::CheckStats::ttc_bound_violations`]).

use colldet_geom::math::{Pose, VectorD};
use nalgebra::UnitQuaternion;

use crate::object_pose::ObjectPose;
use crate::object_table::PlacedObjects;
use crate::{ObjectId, WorldError};

/// Relative allowance added to every displacement bound: covers the rounding of the bound's own
/// arithmetic and the difference between an object's quaternion and the `f64` matrix the tests
/// use (a few units in the last place), with a wide margin.
const DISPLACEMENT_ALLOWANCE: f64 = 1e-12;

/// Relative slack of the violation test: a move is counted as breaking its bound only beyond
/// this (the poses of a motion that keeps its bound exactly differ from it by rounding).
const VIOLATION_ALLOWANCE: f64 = 1e-9;

/// Relative widening of a shape's radius (stored in `f32`, possibly rounded down).
const RADIUS_ALLOWANCE: f64 = 1e-6;

/// Each check, a measured object's planning speed decays by this factor unless a larger move
/// replaces it: the speed follows the object's recent moves, keeping the largest for a while.
const MEASURED_DECAY: f64 = 0.9;

/// How an object's motion is bounded, for the time-to-collision schedule
/// ([`crate::World::set_velocity_bound`]). The unit of time is one check (see the module docs of
/// `motion_bound.rs` and docs/world.md).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum VelocityBound {
    /// No bound (the default): the object's pairs are tested at every check, as without the
    /// schedule.
    #[default]
    Unbounded,
    /// The caller's bound: between two consecutive checks the object's origin moves at most
    /// `max_linear` world units and the object turns at most `max_angular` radians. Both finite
    /// and non-negative. A move beyond it is counted, and changes nothing else: the schedule's
    /// skips are certified by the actual motion.
    PerCheck {
        /// Largest distance travelled by the object's origin per check (world units).
        max_linear: f64,
        /// Largest rotation angle per check (radians; values above `pi` act as `pi`).
        max_angular: f64,
    },
    /// No bound given: the schedule plans with the object's measured motion (the largest recent
    /// point displacement per check, decaying by 10% per check).
    Measured,
}

impl VelocityBound {
    /// The bound checked: [`VelocityBound::PerCheck`] values finite and non-negative.
    ///
    /// # Errors
    /// [`WorldError::InvalidArgument`] naming the bad value.
    pub(crate) fn validated(self) -> Result<Self, WorldError> {
        if let Self::PerCheck {
            max_linear,
            max_angular,
        } = self
        {
            if !(max_linear.is_finite() && max_linear >= 0.0) {
                return Err(WorldError::InvalidArgument(
                    "max_linear must be finite and non-negative",
                ));
            }
            if !(max_angular.is_finite() && max_angular >= 0.0) {
                return Err(WorldError::InvalidArgument(
                    "max_angular must be finite and non-negative",
                ));
            }
        }
        Ok(self)
    }
}

/// `a + b` rounded up: at least the exact sum (for finite non-negative operands).
#[inline]
pub(crate) fn add_up(a: f64, b: f64) -> f64 {
    (a + b).next_up()
}

/// `a - b` rounded up: at least the exact difference.
#[inline]
pub(crate) fn sub_up(a: f64, b: f64) -> f64 {
    (a - b).next_up()
}

/// Sine of half the angle of the rotation from `q0` to `q1` (in `[0, 1]`): the norm of the
/// vector part of `q0^-1 q1`, whichever sign either quaternion has.
#[inline]
fn half_angle_sine(q0: &UnitQuaternion<f64>, q1: &UnitQuaternion<f64>) -> f64 {
    // The vector part of q0^-1 q1 = conj(q0) q1 alone: w0 v1 - w1 v0 - v0 x v1.
    let (a, b) = (q0.quaternion(), q1.quaternion());
    let (v0, v1) = (a.imag(), b.imag());
    (v1 * a.w - v0 * b.w - v0.cross(&v1)).norm().min(1.0)
}

/// The sum of the magnitudes of `v`'s components (at least its length): a scale for rounding
/// allowances, cheaper than a maximum.
#[inline]
pub(crate) fn abs_sum(v: &VectorD) -> f64 {
    v.x.abs() + v.y.abs() + v.z.abs()
}

/// True when the poses are the same numbers (so no point moved between them).
#[inline]
pub(crate) fn same_pose(p0: &Pose, p1: &Pose) -> bool {
    let (t0, t1) = (&p0.translation.vector, &p1.translation.vector);
    let (q0, q1) = (&p0.rotation.coords, &p1.rotation.coords);
    t0.x == t1.x
        && t0.y == t1.y
        && t0.z == t1.z
        && q0.x == q1.x
        && q0.y == q1.y
        && q0.z == q1.z
        && q0.w == q1.w
}

/// An upper bound on how far any point within `radius` of an object's origin moves between the
/// poses `p0` and `p1`: `|t1 - t0| + 2 sin(theta / 2) radius`, widened by
/// [`DISPLACEMENT_ALLOWANCE`] relative to the coordinates involved (the radius and the
/// translations' component magnitudes).
pub(crate) fn displacement_bound(p0: &ObjectPose, p1: &ObjectPose, radius: f64) -> f64 {
    pose_displacement_bound(&p0.pose, &p1.pose, radius)
}

/// [`displacement_bound`] of two poses as the world keeps them (quaternions re-normalised, the
/// matrices made from them).
#[inline]
pub(crate) fn pose_displacement_bound(p0: &Pose, p1: &Pose, radius: f64) -> f64 {
    let (t0, t1) = (p0.translation.vector, p1.translation.vector);
    let linear = (t1 - t0).norm();
    let chord = 2.0 * half_angle_sine(&p0.rotation, &p1.rotation) * radius;
    let scale = radius + abs_sum(&t0) + abs_sum(&t1);
    (linear + chord) * (1.0 + DISPLACEMENT_ALLOWANCE) + DISPLACEMENT_ALLOWANCE * scale
}

/// `radius` (a shape's radius about its local origin, kept in `f32`) widened to cover its
/// rounding.
pub(crate) fn widened_radius(radius: f64) -> f64 {
    radius * (1.0 + RADIUS_ALLOWANCE)
}

/// What the schedule reads of a tracked object for every pair: kept apart from the rest, so a
/// pass over the pairs reads 24 bytes per object.
#[derive(Clone, Copy, Debug)]
struct Hot {
    id: ObjectId,
    /// Sum of the displacement bounds of every move since tracking began, rounded up.
    odometer: f64,
    /// Planning speed: largest point displacement per check the schedule expects.
    speed: f64,
}

/// The rest of a tracked object's state.
#[derive(Clone, Copy, Debug)]
struct Cold {
    bound: VelocityBound,
    /// Radius about the local origin, rounded up (`f64`).
    radius: f64,
    /// The pose at the last check (or when the bound was set), which the next move is measured
    /// from.
    recorded: ObjectPose,
    /// The check count when `recorded` was taken.
    recorded_at: u64,
}

/// The motion of every scheduled object, by slot (`hot[slot]` and `cold[slot]` are both set for
/// a tracked object).
#[derive(Default)]
pub(crate) struct MotionTracker {
    hot: Vec<Option<Hot>>,
    cold: Vec<Option<Cold>>,
    /// Number of tracked objects (the schedule runs only when some object is tracked).
    count: usize,
}

/// What one check's motion update found.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MotionUpdate {
    /// Objects whose move broke their [`VelocityBound::PerCheck`].
    pub violations: usize,
}

impl MotionTracker {
    /// True when some object has a bound (the schedule has work).
    pub fn any(&self) -> bool {
        self.count > 0
    }

    /// Sets the bound of the live object `id` at its current pose `pose`, with `radius` (about
    /// its origin, including its vertices' rounding); `now` is the world's check count. A new
    /// bound on an object already tracked keeps its odometer.
    pub fn set(
        &mut self,
        id: ObjectId,
        bound: VelocityBound,
        pose: ObjectPose,
        radius: f64,
        now: u64,
    ) {
        let slot = id.slot() as usize;
        if self.hot.len() <= slot {
            self.hot.resize(slot + 1, None);
            self.cold.resize(slot + 1, None);
        }
        let old_hot = self.hot[slot].take().filter(|h| h.id == id);
        let old_cold = self.cold[slot].take();
        let old = old_hot.zip(old_cold);
        if old.is_some() {
            self.count -= 1;
        }
        if bound == VelocityBound::Unbounded {
            return;
        }
        let radius = widened_radius(radius);
        let speed = match bound {
            VelocityBound::PerCheck {
                max_linear,
                max_angular,
            } => planning_speed(max_linear, max_angular, radius),
            // Unknown until the object moves.
            _ => old.map_or(f64::INFINITY, |(h, _)| h.speed),
        };
        let (hot, cold) = match old {
            Some((h, c)) => (Hot { speed, ..h }, Cold { bound, ..c }),
            None => (
                Hot {
                    id,
                    odometer: 0.0,
                    speed,
                },
                Cold {
                    bound,
                    radius,
                    recorded: pose,
                    recorded_at: now,
                },
            ),
        };
        self.hot[slot] = Some(hot);
        self.cold[slot] = Some(cold);
        self.count += 1;
    }

    /// The bound of `id` ([`VelocityBound::Unbounded`] when it has none).
    pub fn bound(&self, id: ObjectId) -> VelocityBound {
        let slot = id.slot() as usize;
        match (self.id(id.slot()), self.cold.get(slot)) {
            (Some(tracked), Some(Some(c))) if tracked == id => c.bound,
            _ => VelocityBound::Unbounded,
        }
    }

    /// Forgets the object in `slot` (removed).
    pub fn forget(&mut self, slot: u32) {
        if let Some(h) = self.hot.get_mut(slot as usize)
            && h.take().is_some()
        {
            self.cold[slot as usize] = None;
            self.count -= 1;
        }
    }

    #[inline]
    fn hot(&self, slot: u32) -> Option<&Hot> {
        self.hot.get(slot as usize).and_then(Option::as_ref)
    }

    /// The id of the tracked object in `slot`, if any.
    #[inline]
    pub fn id(&self, slot: u32) -> Option<ObjectId> {
        self.hot(slot).map(|t| t.id)
    }

    /// The odometer of the tracked object in `slot` (0 when untracked).
    #[inline]
    pub fn odometer(&self, slot: u32) -> f64 {
        self.hot(slot).map_or(0.0, |t| t.odometer)
    }

    /// The planning speed (point displacement per check) of the object in `slot`.
    #[inline]
    pub fn speed(&self, slot: u32) -> f64 {
        self.hot(slot).map_or(f64::INFINITY, |t| t.speed)
    }

    /// Measures the moves of the tracked objects among `moved` (check number `now`): each
    /// odometer grows by its move's displacement bound, each [`VelocityBound::PerCheck`] is
    /// verified, and the current pose becomes the recorded one.
    pub fn update(&mut self, moved: &[u32], objects: &PlacedObjects, now: u64) -> MotionUpdate {
        let mut update = MotionUpdate::default();
        if self.count == 0 {
            return update;
        }
        for &slot in moved {
            let (Some(Some(h)), Some(Some(t))) = (
                self.hot.get_mut(slot as usize),
                self.cold.get_mut(slot as usize),
            ) else {
                continue;
            };
            if objects.id(slot) != Some(h.id) {
                continue;
            }
            let pose = objects.object_pose(slot);
            let checks = now.saturating_sub(t.recorded_at).max(1) as f64;
            let moved_by = displacement_bound(&t.recorded, &pose, t.radius);
            h.odometer = add_up(h.odometer, moved_by);
            // Moves before the world's first check are placement, not motion: not verified,
            // not measured.
            let placing = t.recorded_at == 0;
            match t.bound {
                VelocityBound::PerCheck {
                    max_linear,
                    max_angular,
                } if !placing => {
                    let linear =
                        (pose.pose.translation.vector - t.recorded.pose.translation.vector).norm();
                    let angle = 2.0
                        * half_angle_sine(&t.recorded.pose.rotation, &pose.pose.rotation).asin();
                    let scale = t.recorded.pose.translation.vector.amax()
                        + pose.pose.translation.vector.amax();
                    let allowed_linear = max_linear * checks * (1.0 + VIOLATION_ALLOWANCE)
                        + DISPLACEMENT_ALLOWANCE * scale;
                    let allowed_angle =
                        max_angular * checks * (1.0 + VIOLATION_ALLOWANCE) + DISPLACEMENT_ALLOWANCE;
                    if linear > allowed_linear || angle > allowed_angle {
                        update.violations += 1;
                    }
                }
                VelocityBound::Measured if !placing => {
                    let per_check = moved_by / checks;
                    h.speed = if h.speed.is_finite() {
                        per_check.max(h.speed * MEASURED_DECAY)
                    } else {
                        per_check
                    };
                }
                _ => {}
            }
            t.recorded = pose;
            t.recorded_at = now;
        }
        update
    }

    /// Checks that every tracked object's recorded pose is its current one unless it is in
    /// `moved` (every move reaches the odometer at the next check): for `World::validate`.
    pub fn validate(
        &self,
        objects: &PlacedObjects,
        moved: impl Fn(u32) -> bool,
    ) -> Result<(), String> {
        for (slot, (h, t)) in self.hot.iter().zip(&self.cold).enumerate() {
            let (Some(h), Some(t)) = (h, t) else {
                if h.is_some() != t.is_some() {
                    return Err(format!("the motion tracker's slot {slot} is half set"));
                }
                continue;
            };
            let slot = slot as u32;
            if objects.id(slot) != Some(h.id) {
                return Err(format!(
                    "the motion tracker names a dead object in slot {slot}"
                ));
            }
            if !moved(slot) && objects.object_pose(slot) != t.recorded {
                return Err(format!(
                    "slot {slot} moved without entering the moved set: its odometer missed it"
                ));
            }
        }
        Ok(())
    }
}

/// The point speed of a bound: `max_linear + 2 sin(min(max_angular, pi) / 2) radius`.
fn planning_speed(max_linear: f64, max_angular: f64, radius: f64) -> f64 {
    let half = (max_angular.min(std::f64::consts::PI)) / 2.0;
    max_linear + 2.0 * half.sin() * radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_geom::math::{PointD, Pose};
    use colldet_testkit::SeededRng;
    use nalgebra::{Translation3, Vector3};

    fn random3(rng: &mut SeededRng, s: f64) -> [f64; 3] {
        [rng.range(-s, s), rng.range(-s, s), rng.range(-s, s)]
    }

    fn pose(t: [f64; 3], axis_angle: [f64; 3]) -> ObjectPose {
        ObjectPose::new(&Pose::from_parts(
            Translation3::new(t[0], t[1], t[2]),
            UnitQuaternion::from_scaled_axis(Vector3::from(axis_angle)),
        ))
        .unwrap()
    }

    /// The bound is never below the displacement of a point within the radius (as the tests
    /// place it: through the `f64` matrices), and is reached by pure rotations.
    #[test]
    fn the_displacement_bound_holds_for_every_point_and_is_tight() {
        let mut rng = SeededRng::new(7);
        for _ in 0..2000 {
            let scale = 10f64.powf(rng.range(-3.0, 3.0));
            let p0 = pose(random3(&mut rng, scale), random3(&mut rng, 3.0));
            let step = 10f64.powf(-(rng.f64() * 8.0));
            let p1 = pose(
                (p0.pose.translation.vector + Vector3::from(random3(&mut rng, scale * step)))
                    .into(),
                (p0.pose.rotation.scaled_axis() + Vector3::from(random3(&mut rng, step))).into(),
            );
            let radius = scale * rng.range(0.1, 2.0);
            let bound = displacement_bound(&p0, &p1, radius);
            for _ in 0..20 {
                let dir = Vector3::from(random3(&mut rng, 1.0));
                if dir.norm() == 0.0 {
                    continue;
                }
                let x = PointD::from(dir.normalize() * radius);
                let moved = (p1.matrix.transform_point(&x) - p0.matrix.transform_point(&x)).norm();
                assert!(moved <= bound, "{moved} > {bound}");
            }
        }
        // A half turn about z moves the points of the equator by twice the radius.
        let p0 = pose([0.0; 3], [0.0; 3]);
        let p1 = pose([0.0; 3], [0.0, 0.0, std::f64::consts::PI]);
        let bound = displacement_bound(&p0, &p1, 1.0);
        assert!((bound - 2.0).abs() < 1e-9, "{bound}");
    }

    #[test]
    fn rounding_up_never_goes_below_the_exact_value() {
        assert!(add_up(0.1, 0.2) > 0.1 + 0.2 - 1e-17);
        assert!(add_up(1.0, 0.0) > 1.0);
        assert!(sub_up(1.0, 1.0) > 0.0);
        assert!(sub_up(1.0, 0.1) >= 0.9);
    }

    #[test]
    fn bad_bounds_are_refused() {
        for (l, a) in [
            (-1.0, 0.0),
            (0.0, -1.0),
            (f64::NAN, 0.0),
            (0.0, f64::INFINITY),
        ] {
            let bound = VelocityBound::PerCheck {
                max_linear: l,
                max_angular: a,
            };
            assert!(matches!(
                bound.validated(),
                Err(WorldError::InvalidArgument(_))
            ));
        }
        assert!(VelocityBound::Measured.validated().is_ok());
    }
}
