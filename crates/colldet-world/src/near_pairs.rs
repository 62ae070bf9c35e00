//! Near pairs: what a check reports about pairs within their tolerance (`tolerance.rs`), apart
//! from the collision callbacks.
//!
//! Rationale: the narrow pass tests a pair's contact as always; only when the pair has a
//! tolerance above 0 and its exact test (or box pre-test) finds it apart does the pass ask the
//! proximity machinery (`proximity.rs`) whether it is within the tolerance, with the early-stop
//! query ([`QueryPair::apart_within`]: GJK stopped at the tolerance, or the first triangle pair
//! within it), and only for a pair within it computes the distance and closest points
//! ([`QueryPair::apart_distance`]). Pairs with tolerance 0, the default, cost one comparison.
//! Each worker keeps its near pairs; the check sorts them by id pair and adds the touching pairs
//! with a tolerance above 0, so the list does not depend on the thread count.

use colldet_geom::math::VectorD;
use colldet_narrow::{NarrowError, Witness};

use crate::collision::CallbackContext;
use crate::interest::{InterestMatrix, PairKey};
use crate::object_pose::ObjectPose;
use crate::object_table::{ObjectTable, PlacedObjects};
use crate::pair_results::{Found, Worker};
use crate::proximity::QueryPair;
use crate::tolerance::Tolerances;
use crate::{NO_FEATURE, ObjectId, Proximity, World};

/// How a near pair stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NearKind {
    /// The check's exact test finds the pair colliding (touching counts); it is also reported to
    /// the collision callbacks, as every collision is.
    Touching,
    /// The exact test finds the pair apart, and its distance is at most its tolerance.
    Separated,
}

/// A pair within its tolerance at a check. `a < b` by id. Frames: world coordinates; units:
/// world units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NearPair {
    /// The object with the smaller id.
    pub a: ObjectId,
    /// The object with the larger id.
    pub b: ObjectId,
    /// Touching, or separated within the tolerance.
    pub kind: NearKind,
    /// The pair's tolerance at the check (its own, else the default; above 0).
    pub tolerance: f64,
    /// [`NearKind::Separated`]: what a cold [`World::distance`] reports for the pair at the
    /// check's poses (the check keeps no proximity warm start; a warm query agrees within GJK's
    /// accuracy), with `distance <= tolerance` (`distance` is the Euclidean distance, exact up to
    /// rounding for meshes, GJK's for two convex objects; above 0 except for a gap within that
    /// query's accuracy of contact, where GJK and EPA may answer 0 or a tiny negative depth), the
    /// closest points, the unit normal from `a` to `b` and the faces holding the points. For a non-convex object the distance is
    /// between the surfaces (a separated pair has neither inside the other).
    /// [`NearKind::Touching`]: `distance` 0, `point_a` and `point_b` the collision witness's
    /// point, normal zero and no features (the collision callback has the witness; no depth is
    /// computed).
    pub proximity: Proximity,
}

/// A near pair as the near-pair callback receives it, with the objects' user data.
pub struct NearReport<'a, U> {
    /// The pair.
    pub pair: &'a NearPair,
    /// `a`'s user data.
    pub user_a: &'a U,
    /// `b`'s user data.
    pub user_b: &'a U,
}

/// The near-pair callback: called once per near pair of a check, after the check's collision
/// callbacks and before its contact events, on the thread that runs `check`, sorted by id pair.
pub type NearCallback<U> = Box<dyn FnMut(&NearReport<'_, U>, &mut CallbackContext<'_>) + Send>;

/// Tests whether the pair of slots `(sa, sb)`, found apart by its collision test, is within
/// `tolerance > 0`; records it in `worker` if so (a failure is recorded as the test's would be).
pub(crate) fn test_apart_pair(
    worker: &mut Worker,
    pair_index: usize,
    (sa, sb): (u32, u32),
    tolerance: f64,
    objects: &PlacedObjects,
) {
    let (Some(ia), Some(ib)) = (objects.id(sa), objects.id(sb)) else {
        return;
    };
    // The query runs in id order, so points and normal need no swapping.
    let (key, first, second) = if ia < ib {
        (PairKey(ia, ib), sa, sb)
    } else {
        (PairKey(ib, ia), sb, sa)
    };
    let pair = QueryPair::new(objects.placed(first), objects.placed(second));
    let near = near_distance(&pair, tolerance, worker);
    match near {
        Ok(Some(proximity)) => worker.near.push(NearPair {
            a: key.0,
            b: key.1,
            kind: NearKind::Separated,
            tolerance,
            proximity,
        }),
        Ok(None) => {}
        Err(source) => worker.note_failure(pair_index, key, source),
    }
}

/// The distance of an apart pair when it is within `tolerance`: decided by the early-stop query,
/// then measured; `None` when either says it is farther.
fn near_distance(
    pair: &QueryPair<'_>,
    tolerance: f64,
    worker: &mut Worker,
) -> Result<Option<Proximity>, NarrowError> {
    if !pair.apart_within(tolerance, &mut worker.proximity)? {
        return Ok(None);
    }
    let p = pair.apart_distance(&mut worker.proximity)?;
    Ok((p.distance <= tolerance).then_some(p))
}

/// A touching near pair's record from its collision witness.
fn touching(key: PairKey, tolerance: f64, witness: &Witness) -> NearPair {
    NearPair {
        a: key.0,
        b: key.1,
        kind: NearKind::Touching,
        tolerance,
        proximity: Proximity {
            distance: 0.0,
            point_a: witness.point,
            point_b: witness.point,
            normal: VectorD::zeros(),
            feature_a: NO_FEATURE,
            feature_b: NO_FEATURE,
        },
    }
}

/// The near pairs of the last check and the near-pair callback.
pub(crate) struct NearPairs<U> {
    last: Vec<NearPair>,
    callback: Option<NearCallback<U>>,
}

impl<U> Default for NearPairs<U> {
    fn default() -> Self {
        Self {
            last: Vec::new(),
            callback: None,
        }
    }
}

/// What [`NearPairs::collect`] reads of a check.
pub(crate) struct NearInput<'c> {
    /// The narrow pass's separated near pairs, sorted by id pair.
    pub separated: &'c [NearPair],
    /// The pass's collisions, sorted by id pair.
    pub found: &'c [Found],
    pub tolerances: &'c Tolerances,
    pub interest: &'c InterestMatrix,
}

impl<U> NearPairs<U> {
    /// Makes the check's list: the separated near pairs and the collisions whose pair has a
    /// tolerance above 0, each only when `reported(slot_a, slot_b)` (an object moved for the
    /// callbacks), sorted by id pair.
    pub fn collect(&mut self, input: &NearInput<'_>, reported: impl Fn(u32, u32) -> bool) {
        self.last.clear();
        if !input.tolerances.active() {
            return;
        }
        self.last.extend(
            input
                .separated
                .iter()
                .filter(|p| reported(p.a.slot(), p.b.slot())),
        );
        let default = input.tolerances.default_tolerance();
        for f in input.found {
            let (sa, sb) = (f.key.0.slot(), f.key.1.slot());
            if !reported(sa, sb) {
                continue;
            }
            let tolerance = if input.interest.both_have_settings(sa, sb) {
                input.interest.get(&f.key).tolerance.unwrap_or(default)
            } else {
                default
            };
            if tolerance > 0.0 {
                self.last.push(touching(f.key, tolerance, &f.witness));
            }
        }
        // A pair is either touching or separated: the keys are distinct.
        self.last.sort_unstable_by_key(|p| (p.a, p.b));
    }

    /// Calls the callback, if any, once per near pair in order; moves it asks for are appended
    /// to `deferred`.
    pub fn report(&mut self, objects: &ObjectTable<U>, deferred: &mut Vec<(ObjectId, ObjectPose)>) {
        let Some(callback) = self.callback.as_mut() else {
            return;
        };
        for pair in &self.last {
            let report = NearReport {
                pair,
                user_a: objects.user_in(pair.a.slot()),
                user_b: objects.user_in(pair.b.slot()),
            };
            let mut ctx = CallbackContext {
                objects: objects.placed(),
                deferred_moves: deferred,
            };
            callback(&report, &mut ctx);
        }
    }
}

impl<U> World<U> {
    /// Sets the near-pair callback (replacing an earlier one): each check calls it once per
    /// [`NearPair`] of the check (pairs with a tolerance above 0 and an object moved since the
    /// last check, within their tolerance: touching or separated), after the collision
    /// callbacks and before the contact events, sorted by id pair, on the calling thread. It
    /// may move objects through its [`CallbackContext`] as a collision callback may.
    pub fn set_near_callback(&mut self, callback: NearCallback<U>) {
        self.near.callback = Some(callback);
    }

    /// Removes the near-pair callback (near pairs are still listed by
    /// [`World::last_near_pairs`]).
    pub fn clear_near_callback(&mut self) {
        self.near.callback = None;
    }

    /// The last check's near pairs, sorted by id pair (what the near-pair callback saw); empty
    /// when every tolerance is 0. Identical at any thread count. `check_continuous` does not
    /// change them.
    pub fn last_near_pairs(&self) -> &[NearPair] {
        &self.near.last
    }
}
