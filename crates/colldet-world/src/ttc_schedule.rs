//! Scheduling pair tests by time to collision (the seed's section 7.1, Lin's priority scheme),
//! an optional mode of [`World::check`]: pairs of objects that have a motion bound
//! ([`World::set_velocity_bound`]) are kept from the narrow phase while a certificate proves
//! them separated.
//!
//! # The certificate
//! When a scheduled pair has been tested and found separated often enough (see *When a distance
//! pays*), the world takes a lower bound `g` on its distance at the current poses (GJK on the
//! hulls for the convex tests, the OBB trees' surface distance for the mesh tests; see
//! [`separation_lower_bound`]) and records both objects' odometers (`motion_bound.rs`: the
//! rounded-up sum of each object's point displacement bounds, check after check). At a later
//! check the pair is skipped while `(odo_a - odo_a0) + (odo_b - odo_b0) < g` (each term rounded
//! up): no point of either object is farther than its odometer's growth from where it was when
//! `g` was measured, so the objects are still at least `g` minus that growth apart, more than 0,
//! and the plain check would have found the pair separated (touching counts as colliding, hence
//! the strict inequality). For the mesh tests, which also report containment, the surface gap
//! suffices: the pair was found separated (neither inside the other) when `g` was measured, and
//! moving each point by less than the gap never brings a surface across the other, so no
//! containment can begin. The skip is certified by the **actual motion**, not by the caller's
//! bounds: a wrong bound cannot make a collision be missed (it is counted and changes the plan
//! only), and no heap of expiry times has to be invalidated when an object breaks its bound.
//!
//! # The queue
//! The seed keeps pairs in a heap sorted by estimated time to collision. Here the broad phase
//! already enumerates the box-overlapping pairs sorted by slot pair at every check, so the
//! schedule is a table sorted the same way, merged with that list (as the pair caches are,
//! `pair_caches.rs`): the pair's entry answers "skip or test" with one comparison, in the order
//! the pairs come, without a heap's `log n` per pair. A pair's expiry is a motion budget, not a
//! time; with bounds kept, it lasts at least `g / (v_a + v_b)` checks (`v` the point speed per
//! check), the seed's time to collision.
//!
//! # When a distance pays
//! A distance costs more than a collision test ([`CONVEX_DISTANCE_COST`] tests for GJK on
//! hulls, [`MESH_DISTANCE_COST`] for the trees' surface distance, as measured), so the schedule
//! takes one only after the pair was found separated at `wait` consecutive tests. Each pair's
//! wait starts at [`FIRST_WAIT`] and doubles (up to [`MAX_WAIT`]) when a distance was not worth
//! it by the plan: its certificate is expected to last `g / (v_a + v_b)` checks (`v` the point
//! speeds per check from the objects' bounds or measured motion), fewer than the distance
//! costs in tests. Before a distance, the same test runs on an optimistic gap, the distance
//! between the objects' origins (an upper bound on the gap when the origins lie inside the
//! objects): a pair too fast for it takes no distance and doubles its wait. The world also keeps the account: every [`WINDOW_CHECKS`] checks, when its
//! distances cost at least [`WINDOW_MIN_COST`] tests, it compares the tests the certificates
//! saved with that cost, and multiplies the least wait of every pair by 4 when they did not pay (halves
//! it when they paid twice over). On scenes where objects pass each other fast, distances soon
//! stop; the schedule then costs one comparison per pair.

use colldet_broad::ProxyPair;
use colldet_narrow::dispatch::PairKind;
use colldet_narrow::mesh::bvh::{
    MeshDistanceCache, MeshDistanceOptions, MeshQueryWorkspace, mesh_distance,
};
use colldet_narrow::{GjkCache, NarrowError, PlacedShape, gjk_distance_approx};

use crate::interest::PairKey;
use crate::motion_bound::{MotionTracker, add_up, sub_up};
use crate::pair_caches::slot_pair_key;
use crate::pair_pass::PassInput;
use crate::pair_results::Found;
use crate::proximity::{convex_hulls, exact_vertices};
use crate::{ObjectId, VelocityBound, World, WorldError};

/// Consecutive separated tests before a pair's first distance.
pub(crate) const FIRST_WAIT: u16 = 2;

/// Longest wait (in separated tests) before a pair's next distance.
pub(crate) const MAX_WAIT: u16 = 1024;

/// Cost of a GJK distance between hulls, in collision tests of the same pair (measured on the
/// shared scenes: about 2 us against 0.3 us for a warm Chung-Wang test).
const CONVEX_DISTANCE_COST: f64 = 6.0;

/// Cost of a surface distance by the OBB trees, in collision tests of the same pair (measured on
/// the mesh zoo: about 0.2 ms against 5 us for a tree collision test).
const MESH_DISTANCE_COST: f64 = 40.0;

/// The schedule judges whether its distances pay every this many checks...
const WINDOW_CHECKS: u64 = 4;

/// ...once they cost at least this many tests.
const WINDOW_MIN_COST: f64 = 64.0;

/// Relative error of the schedule's distances: a coarse distance prunes more and certifies
/// `d / (1 + error)`.
const DISTANCE_RELATIVE_ERROR: f64 = 0.25;

/// Rounding allowance subtracted from a distance, relative to the pair's coordinates: far above
/// the distances' own accuracy (about `1e-12` of them).
const GAP_ALLOWANCE: f64 = 1e-9;

/// Marks an entry whose pair is not in this check's pass.
const NOT_IN_PASS: u32 = u32::MAX;

/// A pair's proof of separation: the gap and the odometers when it was measured.
#[derive(Clone, Copy, Debug)]
struct Certificate {
    gap: f64,
    odometer_a: f64,
    odometer_b: f64,
    /// What the distance cost, in tests.
    cost: f64,
}

/// One scheduled pair (both objects have a bound).
#[derive(Clone, Copy, Debug)]
struct PairSchedule {
    key: u64,
    ids: (ObjectId, ObjectId),
    /// Consecutive checks the pair was tested and found separated since its last distance.
    streak: u16,
    /// The streak that triggers the next distance.
    wait: u16,
    certificate: Option<Certificate>,
    /// Tests the current certificate saved.
    saved: u32,
    /// The pair's index in this check's pass list, or [`NOT_IN_PASS`].
    pass_index: u32,
}

/// The counters of one check.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ScheduleCounts {
    /// Pair tests saved: pairs with a moved object, admitted by groups and interest, that a
    /// certificate kept from the narrow pass.
    pub skipped: usize,
    /// Distances taken.
    pub distances: usize,
    /// Objects whose move broke their bound.
    pub violations: usize,
}

/// Scratch memory of the schedule's distances (kept warm: no allocation per query).
#[derive(Default)]
struct DistanceScratch {
    gjk: GjkCache,
    mesh: MeshQueryWorkspace,
}

/// The schedule: the objects' motion, the pairs' certificates, and this check's pass list.
#[derive(Default)]
pub(crate) struct TtcSchedule {
    pub(crate) motion: MotionTracker,
    /// Scheduled pairs sorted by key.
    entries: Vec<PairSchedule>,
    /// The next table, built by [`TtcSchedule::before_pass`].
    next: Vec<PairSchedule>,
    /// The pairs the narrow pass gets.
    pass: Vec<ProxyPair>,
    /// Found collisions' pass indices, sorted (scratch).
    found: Vec<usize>,
    /// Entries (indices in `entries`) due for a distance (scratch).
    due: Vec<u32>,
    scratch: DistanceScratch,
    /// This check's counters.
    pub(crate) counts: ScheduleCounts,
    /// The least wait of every pair (see the module docs), doubled when distances did not pay.
    least_wait: u16,
    /// Cost (in tests) of the distances and tests saved since the window began, and when it did.
    window_cost: f64,
    window_saved: f64,
    window_start: u64,
    /// True when [`TtcSchedule::before_pass`] filtered this check's pairs.
    active: bool,
}

/// Whether the pass considers the pair at all: a moved object, admitted by groups and interest.
fn considered(input: &PassInput<'_>, sa: u32, sb: u32) -> bool {
    if !input.moved.contains(sa) && !input.moved.contains(sb) {
        return false;
    }
    if !input.groups.admits(sa, sb) {
        return false;
    }
    if input.interest.both_have_settings(sa, sb) {
        let (Some(a), Some(b)) = (input.objects.id(sa), input.objects.id(sb)) else {
            return false;
        };
        return !input.interest.get(&PairKey::new(a, b)).uninterested;
    }
    true
}

impl TtcSchedule {
    /// The pairs the narrow pass tests this check: the filtered list after
    /// [`TtcSchedule::before_pass`] returned true, else `all`.
    pub fn pass_pairs<'a>(&'a self, all: &'a [ProxyPair]) -> &'a [ProxyPair] {
        if self.active { &self.pass } else { all }
    }

    /// Measures the moves of the check (`input.moved`), then merges the table with the broad
    /// phase's pairs (`input.pairs`, sorted by slot pair): pairs whose certificate holds are left
    /// out of the pass list, the others go in. Returns whether the schedule is active (some
    /// object has a bound); when it is not, the table is dropped and the pass gets every pair.
    pub fn before_pass(&mut self, input: &PassInput<'_>) -> bool {
        self.counts = ScheduleCounts::default();
        self.active = self.motion.any();
        self.least_wait = self.least_wait.max(FIRST_WAIT);
        if !self.active {
            self.entries.clear();
            return false;
        }
        self.counts.violations = self
            .motion
            .update(input.moved.slots(), input.objects, input.check)
            .violations;
        self.pass.clear();
        self.next.clear();
        let mut old = self.entries.iter().peekable();
        for &ProxyPair(sa, sb) in input.pairs {
            let key = slot_pair_key(sa, sb);
            while old.next_if(|e| e.key < key).is_some() {}
            let kept = old.next_if(|e| e.key == key).copied();
            let (Some(a), Some(b)) = (self.motion.id(sa), self.motion.id(sb)) else {
                self.pass.push(ProxyPair(sa, sb));
                continue;
            };
            let mut entry = match kept {
                Some(e) if e.ids == (a, b) => e,
                _ => PairSchedule {
                    key,
                    ids: (a, b),
                    streak: 0,
                    wait: FIRST_WAIT,
                    certificate: None,
                    saved: 0,
                    pass_index: NOT_IN_PASS,
                },
            };
            entry.pass_index = NOT_IN_PASS;
            if let Some(c) = entry.certificate {
                let motion = add_up(
                    sub_up(self.motion.odometer(sa), c.odometer_a),
                    sub_up(self.motion.odometer(sb), c.odometer_b),
                );
                if motion < c.gap {
                    if considered(input, sa, sb) {
                        entry.saved += 1;
                        self.counts.skipped += 1;
                    }
                    self.next.push(entry);
                    continue;
                }
                // The budget ran out: the pair is tested again.
                if f64::from(entry.saved) >= c.cost {
                    entry.wait = FIRST_WAIT;
                }
                entry.certificate = None;
            }
            entry.pass_index = self.pass.len() as u32;
            self.pass.push(ProxyPair(sa, sb));
            self.next.push(entry);
        }
        std::mem::swap(&mut self.entries, &mut self.next);
        true
    }

    /// Updates the pairs the pass tested (`found`: its collisions, with their index in the pass
    /// list; `failed`: some test failed, so nothing is certified this check): a colliding pair
    /// starts over, a separated one counts a separated test and takes a distance when due. A
    /// distance that fails (numerically) gives no certificate: the pair is tested as usual.
    pub fn after_pass(&mut self, input: &PassInput<'_>, found: &[Found], failed: bool) {
        if !self.active {
            return;
        }
        self.found.clear();
        self.found.extend(found.iter().map(|f| f.pair_index));
        self.found.sort_unstable();
        let mut collided = self.found.iter().copied().peekable();
        self.due.clear();
        for (index, entry) in self.entries.iter_mut().enumerate() {
            if entry.pass_index == NOT_IN_PASS {
                continue;
            }
            let at = entry.pass_index as usize;
            while collided.next_if(|&i| i < at).is_some() {}
            if collided.next_if(|&i| i == at).is_some() {
                entry.streak = 0;
                continue;
            }
            let (sa, sb) = ((entry.key >> 32) as u32, entry.key as u32);
            if failed || !considered(input, sa, sb) {
                continue;
            }
            entry.streak = entry.streak.saturating_add(1);
            if entry.streak < entry.wait.max(self.least_wait) {
                continue;
            }
            // Without an exact test every box-overlapping pair collides: nothing to certify.
            let kind = PairKind::of(
                input.method,
                input.objects.traits(sa),
                input.objects.traits(sb),
            );
            if kind == PairKind::BoundingBoxes {
                entry.streak = 0;
                entry.wait = MAX_WAIT;
                continue;
            }
            // The plan's optimistic view: the gap is at most the distance between the origins
            // when they lie inside the objects; a certificate of that gap must outlast the cost.
            let speed = self.motion.speed(sa) + self.motion.speed(sb);
            let origins = input
                .objects
                .matrix(sa)
                .translation()
                .metric_distance(input.objects.matrix(sb).translation());
            if origins > CONVEX_DISTANCE_COST * speed {
                self.due.push(index as u32);
            } else {
                entry.streak = 0;
                entry.wait = entry.wait.saturating_mul(2).min(MAX_WAIT);
            }
        }
        for i in 0..self.due.len() {
            let entry = &mut self.entries[self.due[i] as usize];
            let (sa, sb) = ((entry.key >> 32) as u32, entry.key as u32);
            let (a, b) = (input.objects.placed(sa), input.objects.placed(sb));
            let kind = PairKind::of(
                input.method,
                input.objects.traits(sa),
                input.objects.traits(sb),
            );
            let (gap, cost) = separation_lower_bound(kind, &a, &b, &mut self.scratch);
            self.counts.distances += 1;
            self.window_cost += cost;
            entry.streak = 0;
            entry.saved = 0;
            let speed = self.motion.speed(sa) + self.motion.speed(sb);
            if gap > 0.0 {
                entry.certificate = Some(Certificate {
                    gap,
                    odometer_a: self.motion.odometer(sa),
                    odometer_b: self.motion.odometer(sb),
                    cost,
                });
            }
            // Judged by the plan: a certificate expected to end before it saves its cost.
            if gap <= cost * speed {
                entry.wait = entry.wait.saturating_mul(2).min(MAX_WAIT);
            }
        }
        self.judge_window(input.check);
    }

    /// Closes the account of the distances every [`WINDOW_CHECKS`] checks (module docs).
    fn judge_window(&mut self, now: u64) {
        self.window_saved += self.counts.skipped as f64;
        if now < self.window_start + WINDOW_CHECKS || self.window_cost < WINDOW_MIN_COST {
            return;
        }
        if self.window_saved < self.window_cost {
            self.least_wait = self.least_wait.saturating_mul(4).min(MAX_WAIT);
        } else if self.window_saved >= 2.0 * self.window_cost {
            self.least_wait = (self.least_wait / 2).max(FIRST_WAIT);
        }
        self.window_cost = 0.0;
        self.window_saved = 0.0;
        self.window_start = now;
    }
}

/// A certified lower bound on the distance between the placed objects `a` and `b` as the pair's
/// test `kind` sees them (hulls for the convex tests, surfaces for the mesh tests), for a pair
/// the test has just found separated; 0 or less when none can be given.
///
/// Convex tests, and mesh tests of two convex objects given in `f32`: GJK's distance `d` between
/// the `f32` hulls to a relative error [`DISTANCE_RELATIVE_ERROR`], so the hulls are at least
/// `d / (1 + error)` apart. Other mesh tests: the OBB trees' distance between the surfaces, to
/// the same relative error. Both objects' `vertex_rounding` (vertices given in `f64` may lie that
/// far from their `f32` copies) and [`GAP_ALLOWANCE`] of the pair's scale (radii and relative
/// translation) are subtracted. Returns the bound (0 when the distance failed numerically: no
/// certificate) and the distance's cost in tests.
fn separation_lower_bound(
    kind: PairKind,
    a: &PlacedShape<'_>,
    b: &PlacedShape<'_>,
    scratch: &mut DistanceScratch,
) -> (f64, f64) {
    let (gap, cost) = match hull_or_surface_distance(kind, a, b, scratch) {
        (Ok(d), cost) => (d, cost),
        (Err(_), cost) => return (0.0, cost),
    };
    // Vertices given in `f64` may lie this far from the `f32` copies some tests read.
    let rounding = a.shape.vertex_rounding() + b.shape.vertex_rounding();
    let scale = f64::from(a.shape.radius())
        + f64::from(b.shape.radius())
        + a.matrix
            .translation()
            .metric_distance(b.matrix.translation());
    (
        gap / (1.0 + DISTANCE_RELATIVE_ERROR) - rounding - GAP_ALLOWANCE * (gap + scale),
        cost,
    )
}

/// The distance [`separation_lower_bound`] starts from, to [`DISTANCE_RELATIVE_ERROR`], and its
/// cost in tests.
fn hull_or_surface_distance(
    kind: PairKind,
    a: &PlacedShape<'_>,
    b: &PlacedShape<'_>,
    scratch: &mut DistanceScratch,
) -> (Result<f64, NarrowError>, f64) {
    let pos12 = a.matrix.inv_mul(b.matrix);
    let convex_kind = matches!(
        kind,
        PairKind::BoxBox | PairKind::SeparatingVector | PairKind::Gjk
    );
    // The convex tests see the hulls; the mesh tests see solids whose distance two exact convex
    // objects' hulls give as well (cheaper than the trees).
    let hulls = if convex_kind {
        a.shape.hull().zip(b.shape.hull())
    } else {
        convex_hulls(a.shape, b.shape).filter(|_| exact_vertices(a.shape, b.shape))
    };
    match hulls {
        Some((ha, hb)) => {
            scratch.gjk.reset();
            let d = gjk_distance_approx(ha, hb, &pos12, DISTANCE_RELATIVE_ERROR, &mut scratch.gjk);
            (d.map(|d| d.distance), CONVEX_DISTANCE_COST)
        }
        None => {
            let d = a.shape.bvh().and_then(|ta| {
                mesh_distance(
                    ta,
                    b.shape.bvh()?,
                    &pos12,
                    &MeshDistanceOptions {
                        relative_error: DISTANCE_RELATIVE_ERROR,
                    },
                    &mut MeshDistanceCache::new(),
                    &mut scratch.mesh,
                )
            });
            (d.map(|d| d.distance), MESH_DISTANCE_COST)
        }
    }
}

impl<U> World<U> {
    /// Gives object `id` a motion bound for the time-to-collision schedule (the C API's
    /// `colSetVelocityBound`). Pairs of two objects with a bound (other than
    /// [`VelocityBound::Unbounded`]) are scheduled: once found separated at a few consecutive
    /// checks, a pair gets a certified lower bound on its distance and is not tested again
    /// until the objects' actual motion since then could have closed it (docs/world.md,
    /// *Scheduling by time to collision*). The check reports exactly what it reports without the
    /// schedule, even when the bound is wrong: bounds only plan when a distance is taken, and
    /// moves beyond them are counted in [`crate::CheckStats::ttc_bound_violations`]. The unit of
    /// time is one check.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`]; [`WorldError::InvalidArgument`] for a negative, NaN or
    /// infinite [`VelocityBound::PerCheck`] value.
    pub fn set_velocity_bound(
        &mut self,
        id: ObjectId,
        bound: VelocityBound,
    ) -> Result<(), WorldError> {
        let shape = self.objects.shape(id)?;
        let bound = bound.validated()?;
        let radius = f64::from(shape.radius()) + shape.vertex_rounding();
        let pose = self.objects.object_pose(id.slot());
        self.schedule
            .motion
            .set(id, bound, pose, radius, self.checks);
        Ok(())
    }

    /// The motion bound of `id` ([`VelocityBound::Unbounded`] unless one was set).
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn velocity_bound(&self, id: ObjectId) -> Result<VelocityBound, WorldError> {
        self.objects.check_live(id)?;
        Ok(self.schedule.motion.bound(id))
    }
}
