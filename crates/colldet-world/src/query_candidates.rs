//! The candidates of a spatial query (ray cast, overlap): the objects whose current world box
//! passes a probe, taken from the broad phase's index.
//!
//! The broad phase holds each object's box as of the last check (or its insertion). Objects moved
//! since then (the moved set) have stale boxes there, so they are dropped from its answer and
//! tested with their box recomputed at the current pose (the check's own box function). Before
//! [`World::start`] the index is empty: every object's box is computed (a scan).

use colldet_broad::ProxyId;
use colldet_geom::WorldAabb;
use colldet_narrow::dispatch::PairScratch;

use crate::World;
use crate::box_update::tight_world_aabb;

/// Scratch memory of the spatial queries (ray casts, overlaps), kept by the world: no allocation
/// once warm (overlap queries allocate their query shape).
#[derive(Default)]
pub(crate) struct QueryScratch {
    /// The candidates of the current query: slot and world box.
    pub(crate) candidates: Vec<(ProxyId, WorldAabb)>,
    /// Box entry parameter and slot of the ray candidates, for the first-hit order.
    pub(crate) order: Vec<(f64, ProxyId)>,
    /// The tree walks' stack.
    pub(crate) stack: Vec<u32>,
    /// The overlap queries' exact pair tests, made on first use (so that taking the scratch out
    /// of the world for a query, which leaves a default in its place, allocates nothing).
    pub(crate) pair: Option<Box<PairScratch>>,
}

impl<U> World<U> {
    /// Replaces `out` with `(slot, world box)` of every live object whose box at its current pose
    /// passes `probe` (monotone, as [`colldet_broad::BroadPhase::query`] requires), each once.
    pub(crate) fn query_candidates(
        &self,
        probe: &mut dyn FnMut(&WorldAabb) -> bool,
        out: &mut Vec<(ProxyId, WorldAabb)>,
    ) {
        out.clear();
        let placed = self.objects.placed();
        let fresh = |slot: u32,
                     probe: &mut dyn FnMut(&WorldAabb) -> bool,
                     out: &mut Vec<(ProxyId, WorldAabb)>| {
            if let Some((shape, pose, mut hints)) = placed.shape_and_hints(slot) {
                let aabb = tight_world_aabb(shape, pose, &mut hints);
                if probe(&aabb) {
                    out.push((slot, aabb));
                }
            }
        };
        if !self.started {
            for slot in 0..self.objects.slot_count() {
                fresh(slot, &mut *probe, out);
            }
            return;
        }
        // The moved objects first, then the index's answer without them.
        for &slot in self.moved.slots() {
            fresh(slot, &mut *probe, out);
        }
        let moved = out.len();
        self.broad.query(&mut *probe, out);
        let mut k = moved;
        for i in moved..out.len() {
            if !self.moved.contains(out[i].0) {
                out[k] = out[i];
                k += 1;
            }
        }
        out.truncate(k);
    }
}
