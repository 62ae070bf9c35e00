//! The candidates of a spatial query (ray cast, overlap): the objects whose current world box
//! passes a probe, taken from the world's query index ([`crate::query_index::QueryIndex`]),
//! which is brought up to date with the current poses first ([`World::refresh_query_index`]).

use colldet_broad::ProxyId;
use colldet_geom::WorldAabb;
use colldet_narrow::dispatch::PairScratch;

use crate::World;

/// Scratch memory of the spatial queries (ray casts, overlaps), kept by the world: no allocation
/// once warm (overlap queries allocate their query shape).
#[derive(Default)]
pub(crate) struct QueryScratch {
    /// The candidates of the current query: slot and world box.
    pub(crate) candidates: Vec<(ProxyId, WorldAabb)>,
    /// The index walk's stack: node and entry parameter.
    pub(crate) walk: Vec<(u32, f64)>,
    /// The tree walks' stack.
    pub(crate) stack: Vec<u32>,
    /// The overlap queries' exact pair tests, made on first use (so that taking the scratch out
    /// of the world for a query, which leaves a default in its place, allocates nothing).
    pub(crate) pair: Option<Box<PairScratch>>,
}

impl<U> World<U> {
    /// Brings the query index up to date with the objects' current poses: a rebuild after
    /// additions or removals, a refit of the moved objects' boxes after pose changes only.
    pub(crate) fn refresh_query_index(&mut self) {
        let slot_count = self.objects.slot_count();
        let (placed, changes) = self.objects.placed_and_changes();
        self.query_index.update(placed, slot_count, changes);
    }

    /// Replaces `out` with `(slot, world box)` of every live object whose box at its current pose
    /// passes `probe` (monotone, as [`colldet_broad::BroadPhase::query`] requires), each once.
    /// The index must be fresh ([`World::refresh_query_index`]).
    pub(crate) fn query_candidates(
        &self,
        probe: &mut dyn FnMut(&WorldAabb) -> bool,
        scratch: &mut QueryScratch,
    ) {
        self.query_index
            .collect(probe, &mut scratch.walk, &mut scratch.candidates);
    }
}
