//! Sweep and prune (I-COLLIDE, Cohen, Lin, Manocha and Ponamgi 1995): three sorted endpoint
//! lists kept from frame to frame and repaired by insertion sort, with the set of overlapping
//! pairs maintained incrementally from the swaps; and, when most boxes move far, a batch search
//! that sweeps columns of a coarse grid instead.
//!
//! Rationale of the incremental mode (why the swap events give exactly the overlapping pairs):
//! - Order: endpoints sort by coordinate, and at equal coordinates a min endpoint sorts before a
//!   max endpoint. Then "the min of A precedes the max of B" is exactly `A.min <= B.max`, so the
//!   list order encodes closed-interval overlap, touching included, and a box's min always
//!   precedes its own max (zero-size boxes included).
//! - `update` is lazy: it only records the box. The repair pass first writes every endpoint's new
//!   coordinate, then insertion-sorts each axis. Insertion sort swaps each inverted endpoint pair
//!   exactly once, so on one axis a pair `{A, B}` sees a "begin" swap (a min moves before the
//!   other's max) or an "end" swap (a max moves before the other's min) only when its overlap on
//!   that axis changes, or, with both, when one interval jumps over the other (non-overlap
//!   before and after).
//! - A begin swap inserts the pair if the *new* boxes overlap on all three axes; an end swap
//!   removes it. Hence an insertion only happens for pairs that overlap at the end, and a removal
//!   only for pairs that do not overlap at the end (their last axis state is "apart"). A pair that
//!   overlaps at the end and not before has some axis that went from apart to overlapping, hence
//!   a begin swap; a pair that overlapped before and not at the end has an end swap. Pairs whose
//!   state did not change see either no swap or only swaps that cannot change their membership.
//!   So the set is exact after the pass whatever the order of the events.
//! - The pair set holds only fully overlapping pairs (not I-COLLIDE's per-axis counters, which
//!   would need a counter for every pair overlapping on one axis: ~10^8 pairs at 10^5 boxes).
//! - Inserted proxies skip the insertion sort: their endpoints are sorted and merged into the
//!   lists, and one sweep along x finds every pair with a new proxy (new against all active
//!   intervals, old against active new ones). Removed proxies are dropped from the lists during
//!   the coordinate refresh and from the pair set by one filter pass.
//! - Proxies live in internal slots; a slot freed by `remove` is reused only after the next
//!   repair, so stale endpoints and pairs can never be confused with a re-inserted id.
//!
//! Adaptive choice (when everything moves far, the swaps cost more than starting over):
//! - The batch mode finds every pair from scratch with the column sweep of
//!   [`crate::column_sweep`] (a radix sort and per-column sweeps, O(n + pairs + candidates)), or
//!   for at most [`crate::AXIS_SWEEP_MAX_BOXES`] boxes with the single-axis sweep of
//!   [`crate::axis_sweep`] (where the grid would have one or a few columns and its per-box
//!   machinery costs more than the sweep). The endpoint lists and the pair set are then not
//!   kept: they are rebuilt by one sort when motion calms down.
//! - `update` sums how far the endpoints moved on each axis. With `E = 2 n` endpoints spread over
//!   a length `L` on an axis, an endpoint moving by `d` crosses about `d E / L` others, and each
//!   swap involves two endpoints, so the estimated swap count is `sum(d) E / (2 L)` summed over the
//!   axes ([`SweepAndPruneStats::estimated_swaps`]).
//! - A batch costs about [`BATCH_COST_SWAPS`] swaps per proxy (the ratio of the two timed on
//!   the `broad_phase` bench, see `docs/benchmarks.md`), [`crate::AXIS_SWEEP_COST_SWAPS`] for
//!   the single-axis sweep. Rule: with valid lists, repair incrementally when the estimate is
//!   below the batch cost and fewer than half the proxies are new; the insertion sort gets a
//!   budget of twice the batch cost and, if a sudden change the estimate missed (boxes jumping
//!   inside a dense cluster) exhausts it, stops and runs the batch. After a batch, the lists and
//!   the pair set are rebuilt (one sort per axis) when the estimate is below half the batch
//!   cost. Results do not depend on the path.

use std::sync::Arc;

use colldet_geom::WorldAabb;

use crate::axis_sweep::{AXIS_SWEEP_COST_SWAPS, AXIS_SWEEP_MAX_BOXES, AxisSweep};
use crate::broad_phase::BroadPhaseError::Invariant;
use crate::broad_phase::{BroadPhase, BroadPhaseError, ProxyId, ProxyPair, check_box};
use crate::column_sweep::ColumnSweep;
use crate::pair_set::{PairSet, PairSortScratch, pack, sorted_proxy_pairs, unpack};

/// Marks an id without a slot, and an unused position.
const NONE: u32 = u32::MAX;

/// Estimated cost of a batch search per proxy, in units of one insertion-sort swap (the column
/// sweep; [`crate::AXIS_SWEEP_COST_SWAPS`] for small inputs).
pub const BATCH_COST_SWAPS: u64 = 16;

/// Largest batch searched by the single-axis sweep: [`AXIS_SWEEP_MAX_BOXES`], also for a
/// `SweepAndPrune::default()` (tests lower it to reach the column sweep).
#[derive(Clone, Copy, Debug)]
struct AxisSweepLimit(usize);

impl Default for AxisSweepLimit {
    fn default() -> Self {
        Self(AXIS_SWEEP_MAX_BOXES)
    }
}

/// Changes per chunk of a batch update on the pool: the motion is summed per chunk, then the chunk
/// sums in chunk order, so the estimate does not depend on how many threads the pool has.
const UPDATE_CHUNK: usize = 1024;

/// Fewest changes of a batch update that are read on the pool (below, the hand-over costs more).
const PARALLEL_UPDATES: usize = 4 * UPDATE_CHUNK;

/// What one chunk of a batch update found.
#[derive(Clone, Copy, Debug, Default)]
struct ChunkScan {
    /// The endpoint displacements of its live proxies per axis.
    motion: [f64; 3],
    /// It moves a live proxy.
    moved: bool,
    /// Some change of it is refused (a bad box or an absent id).
    refused: bool,
    /// The smallest and largest slot it changes (`lo > hi` when none).
    slots: (u32, u32),
}

impl ChunkScan {
    /// A chunk that changes nothing yet.
    fn new() -> Self {
        Self {
            slots: (u32::MAX, 0),
            ..Self::default()
        }
    }

    /// The chunk changes some slot in `range`.
    fn touches(&self, range: &std::ops::Range<usize>) -> bool {
        self.slots.0 <= self.slots.1
            && (self.slots.0 as usize) < range.end
            && (self.slots.1 as usize) >= range.start
    }
}

/// One end of a box's projection on one axis.
#[derive(Clone, Copy, Debug)]
struct Endpoint {
    /// World coordinate on the list's axis.
    value: f64,
    /// `slot << 1 | is_max`.
    tag: u32,
}

impl Endpoint {
    #[inline]
    fn new(value: f64, slot: u32, is_max: bool) -> Self {
        Self {
            value,
            tag: (slot << 1) | u32::from(is_max),
        }
    }

    #[inline]
    fn slot(self) -> u32 {
        self.tag >> 1
    }

    #[inline]
    fn is_max(self) -> bool {
        self.tag & 1 == 1
    }

    /// True when `self` sorts strictly after `other`: larger coordinate, or equal coordinate with
    /// `self` a max and `other` a min.
    #[inline]
    fn after(self, other: Endpoint) -> bool {
        self.value > other.value || (self.value == other.value && (self.tag & 1) > (other.tag & 1))
    }

    /// Total order used to sort endpoints from scratch (coordinates are finite).
    #[inline]
    fn cmp_key(&self, other: &Endpoint) -> std::cmp::Ordering {
        self.value
            .total_cmp(&other.value)
            .then((self.tag & 1).cmp(&(other.tag & 1)))
    }
}

/// One bound of a box along an axis.
trait Bound {
    /// The max (`is_max`) or min coordinate along `axis`.
    fn bound(&self, axis: usize, is_max: bool) -> f64;
}

impl Bound for WorldAabb {
    #[inline]
    fn bound(&self, axis: usize, is_max: bool) -> f64 {
        if is_max {
            self.maxs[axis]
        } else {
            self.mins[axis]
        }
    }
}

/// The life cycle of an internal slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlotState {
    /// Unused, on the free list.
    Free,
    /// Present (in the endpoint lists when they are kept).
    Live,
    /// Inserted since the last repair: no endpoints yet.
    New,
    /// Removed since the last repair: endpoints and pairs still to be dropped.
    Dead,
}

/// Counters of the last repair pass, for benchmarks and tuning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepAndPruneStats {
    /// Endpoint swaps made by the insertion sorts, summed over the three axes (0 on a batch
    /// frame unless an insertion sort ran out of budget first).
    pub swaps: u64,
    /// The swap count estimated from how far the boxes moved (see the module docs).
    pub estimated_swaps: u64,
    /// Proxies merged in as new.
    pub inserted: u64,
    /// Proxies dropped.
    pub removed: u64,
    /// The pairs were found by the batch search (instead of repaired by insertion sort).
    pub rebuilt: bool,
    /// Candidate pairs of the batch search: pairs overlapping in `f32` on the sweep axis, whose
    /// other axes it then tested (0 on incremental frames).
    pub candidates: u64,
    /// Columns of the batch search's grid (0 on incremental frames, 1 for the single-axis
    /// sweep).
    pub columns: usize,
    /// The batch search was the single-axis sweep of [`crate::AXIS_SWEEP_MAX_BOXES`] or fewer
    /// boxes (false on incremental frames).
    pub single_axis: bool,
}

/// Sweep and prune over world AABBs: exact closed-box overlap (touching counts).
///
/// Proxy ids index a table directly, so memory grows with the largest id used (the world hands
/// out dense slot ids). An incremental frame costs O(n + swaps + k) where `swaps` is the number
/// of endpoint order changes and `k` the number of overlapping pairs; a batch frame costs
/// O(n + k + candidates). Changes are batched: `insert`, `update` and `remove` record, and the
/// next [`BroadPhase::overlapping_pairs`] repairs everything in one pass.
#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    /// Slot of each proxy id, or `NONE`.
    slot_of: Vec<u32>,
    /// Proxy id of each slot.
    ids: Vec<ProxyId>,
    states: Vec<SlotState>,
    /// Current box of each slot.
    boxes: Vec<WorldAabb>,
    free: Vec<u32>,
    /// The endpoint lists and `pairs` are kept (incremental mode); otherwise the lists are empty
    /// and `batch_pairs` holds the pairs.
    lists_valid: bool,
    /// Endpoint lists, sorted as of the last repair (incremental mode).
    axes: [Vec<Endpoint>; 3],
    /// Fully overlapping slot pairs, as of the last repair (incremental mode).
    pairs: PairSet,
    /// Fully overlapping slot pairs, as of the last repair (batch mode).
    batch_pairs: Vec<u64>,
    /// Slots in state `New` or (if removed again) `Dead` that have no endpoints yet.
    inserted: Vec<u32>,
    /// Slots in state `Dead`.
    removed: Vec<u32>,
    /// Some live proxy was updated since the last repair.
    moved: bool,
    /// Sum of the endpoint displacements per axis since the last repair.
    motion: [f64; 3],
    /// Spread of the boxes per axis at the last repair.
    spread: [f64; 3],
    live: usize,
    stats: SweepAndPruneStats,
    // Scratch reused between repairs.
    column_sweep: ColumnSweep,
    axis_sweep: AxisSweep,
    /// Largest batch searched by the single-axis sweep (the column sweep above it).
    axis_sweep_max: AxisSweepLimit,
    batch_slots: Vec<u32>,
    new_endpoints: Vec<Endpoint>,
    merged: Vec<Endpoint>,
    active_old: Vec<u32>,
    active_new: Vec<u32>,
    active_pos: Vec<u32>,
    sort_scratch: PairSortScratch,
    /// The last repair's insertion sort exhausted its budget (for tests).
    aborted: bool,
    /// The pool the batch search and batch updates may spread over.
    pool: Option<Arc<rayon::ThreadPool>>,
    /// Per chunk of the last batch update on the pool (see [`BroadPhase::update_batch`]).
    chunk_scans: Vec<ChunkScan>,
    /// The slot of each change of the last batch update on the pool (`NONE`: no change).
    change_slots: Vec<u32>,
}

impl SweepAndPrune {
    /// An empty structure.
    pub fn new() -> Self {
        Self {
            lists_valid: true,
            ..Self::default()
        }
    }

    /// An empty structure whose batch search (on large inputs) runs on `pool`'s threads; the
    /// pairs are the same as [`SweepAndPrune::new`]'s.
    pub fn with_pool(pool: Arc<rayon::ThreadPool>) -> Self {
        Self {
            pool: Some(pool),
            ..Self::new()
        }
    }

    /// Counters of the last repair pass (made by [`BroadPhase::overlapping_pairs`]).
    pub fn stats(&self) -> SweepAndPruneStats {
        self.stats
    }

    /// The live slot of `id`, if any.
    fn slot(&self, id: ProxyId) -> Option<u32> {
        self.slot_of
            .get(id as usize)
            .copied()
            .filter(|&slot| slot != NONE)
    }

    /// The parallel part of a batch update (call inside the pool): checks the `count` changes,
    /// storing each one's slot in `change_slots` (`NONE` for no change) and each chunk's motion in
    /// `chunk_scans` ([`ChunkScan`]); returns true when some change is refused.
    fn scan_changes(
        &mut self,
        count: usize,
        change: &(dyn Fn(usize) -> Option<(ProxyId, WorldAabb)> + Sync),
    ) -> bool {
        use rayon::prelude::*;
        self.change_slots.resize(count, NONE);
        let mut scans = std::mem::take(&mut self.chunk_scans);
        let mut slots = std::mem::take(&mut self.change_slots);
        let this = &*self;
        slots
            .par_chunks_mut(UPDATE_CHUNK)
            .enumerate()
            .map(|(c, chunk_slots)| {
                let mut scan = ChunkScan::new();
                for (i, slot_out) in chunk_slots.iter_mut().enumerate() {
                    *slot_out = NONE;
                    let Some((id, aabb)) = change(c * UPDATE_CHUNK + i) else {
                        continue;
                    };
                    let slot = match (check_box(id, &aabb), this.slot(id)) {
                        (Ok(()), Some(slot)) => slot,
                        _ => {
                            scan.refused = true;
                            break;
                        }
                    };
                    *slot_out = slot;
                    scan.slots = (scan.slots.0.min(slot), scan.slots.1.max(slot));
                    if this.states[slot as usize] == SlotState::Live {
                        scan.moved = true;
                        let old = &this.boxes[slot as usize];
                        for k in 0..3 {
                            scan.motion[k] += (aabb.mins[k] - old.mins[k]).abs()
                                + (aabb.maxs[k] - old.maxs[k]).abs();
                        }
                    }
                }
                scan
            })
            .collect_into_vec(&mut scans);
        let refused = scans.iter().any(|s| s.refused);
        self.chunk_scans = scans;
        self.change_slots = slots;
        refused
    }

    fn write_box(&mut self, slot: u32, aabb: &WorldAabb) {
        self.boxes[slot as usize] = *aabb;
    }

    /// The swap count estimated from the recorded motion (see the module docs).
    fn estimated_swaps(&self) -> u64 {
        let endpoints = 2.0 * self.live as f64;
        let swaps: f64 = (0..3)
            .map(|k| {
                if self.motion[k] == 0.0 {
                    0.0
                } else {
                    0.5 * self.motion[k] * endpoints / self.spread[k]
                }
            })
            .sum();
        // Saturating (an infinite estimate from a zero spread means "too many").
        swaps as u64
    }

    /// Brings the pairs up to date with every recorded change.
    pub fn repair(&mut self) {
        self.stats = SweepAndPruneStats::default();
        self.aborted = false;
        if self.inserted.is_empty() && self.removed.is_empty() && !self.moved {
            return;
        }
        self.inserted
            .retain(|&slot| self.states[slot as usize] == SlotState::New);
        let estimate = self.estimated_swaps();
        self.stats.estimated_swaps = estimate;
        // The batch would search the live proxies (new ones included).
        let per_proxy = if self.live <= self.axis_sweep_max.0 {
            AXIS_SWEEP_COST_SWAPS
        } else {
            BATCH_COST_SWAPS
        };
        let batch_cost = per_proxy * self.live as u64;
        let mut incremental =
            self.lists_valid && 2 * self.inserted.len() <= self.live && estimate <= batch_cost;
        if incremental {
            incremental = self.repair_incrementally(2 * batch_cost);
        }
        if !incremental {
            self.batch();
            if estimate <= batch_cost / 2 {
                self.rebuild_lists();
            }
        }
        self.stats.rebuilt = !incremental;
        self.stats.inserted = self.inserted.len() as u64;
        self.stats.removed = self.removed.len() as u64;
        for &slot in &self.inserted {
            self.states[slot as usize] = SlotState::Live;
        }
        for &slot in &self.removed {
            self.states[slot as usize] = SlotState::Free;
            self.free.push(slot);
        }
        self.inserted.clear();
        self.removed.clear();
        self.moved = false;
        self.motion = [0.0; 3];
    }

    /// The incremental repair: refresh, insertion sorts (at most `budget` swaps), removals and
    /// insertions. Returns false, leaving the lists invalid, when the budget ran out.
    fn repair_incrementally(&mut self, budget: u64) -> bool {
        if self.moved || !self.removed.is_empty() {
            self.refresh_endpoints();
        }
        if !self.removed.is_empty() {
            let states = &self.states;
            self.pairs.retain(|&key| {
                let (a, b) = unpack(key);
                states[a as usize] != SlotState::Dead && states[b as usize] != SlotState::Dead
            });
        }
        if self.moved {
            for axis in &mut self.axes {
                let left = budget.saturating_sub(self.stats.swaps);
                let (swaps, done) = insertion_sort(axis, &self.boxes, &mut self.pairs, left);
                self.stats.swaps += swaps;
                if !done {
                    self.aborted = true;
                    return false;
                }
            }
        }
        if !self.inserted.is_empty() {
            self.merge_inserted();
        }
        for (k, list) in self.axes.iter().enumerate() {
            self.spread[k] = match (list.first(), list.last()) {
                (Some(first), Some(last)) => last.value - first.value,
                _ => 0.0,
            };
        }
        true
    }

    /// Writes the current coordinates into the endpoints and drops those of dead slots.
    fn refresh_endpoints(&mut self) {
        let states = &self.states;
        let boxes = &self.boxes;
        for (axis, list) in self.axes.iter_mut().enumerate() {
            if self.removed.is_empty() {
                for e in list.iter_mut() {
                    e.value = boxes[e.slot() as usize].bound(axis, e.is_max());
                }
            } else {
                list.retain_mut(|e| {
                    let slot = e.slot() as usize;
                    if states[slot] == SlotState::Dead {
                        return false;
                    }
                    e.value = boxes[slot].bound(axis, e.is_max());
                    true
                });
            }
        }
    }

    /// Finds every pair of the live and new slots from scratch (the batch mode); the lists and
    /// the incremental pair set are dropped.
    fn batch(&mut self) {
        self.batch_slots.clear();
        self.batch_slots
            .extend((0..self.states.len() as u32).filter(|&slot| {
                matches!(self.states[slot as usize], SlotState::Live | SlotState::New)
            }));
        if self.batch_slots.len() <= self.axis_sweep_max.0 {
            self.axis_sweep
                .find_pairs(&self.boxes, &self.batch_slots, &mut self.batch_pairs);
            self.spread = self.axis_sweep.spread();
            self.stats.candidates = self.axis_sweep.candidates();
            self.stats.columns = 1;
            self.stats.single_axis = true;
        } else {
            self.column_sweep.find_pairs(
                &self.boxes,
                &self.batch_slots,
                self.pool.as_deref(),
                &mut self.batch_pairs,
            );
            self.spread = self.column_sweep.spread();
            self.stats.candidates = self.column_sweep.candidates();
            self.stats.columns = self.column_sweep.columns();
        }
        self.lists_valid = false;
        self.axes.iter_mut().for_each(Vec::clear);
        self.pairs.clear();
    }

    /// Rebuilds the endpoint lists (one sort per axis) and the pair set from the batch pairs, so
    /// that the next frames can repair incrementally.
    fn rebuild_lists(&mut self) {
        for (axis, list) in self.axes.iter_mut().enumerate() {
            list.clear();
            for &slot in &self.batch_slots {
                let b = &self.boxes[slot as usize];
                let (lo, hi) = (b.mins[axis], b.maxs[axis]);
                list.push(Endpoint::new(lo, slot, false));
                list.push(Endpoint::new(hi, slot, true));
            }
            list.sort_unstable_by(Endpoint::cmp_key);
        }
        self.pairs.extend(self.batch_pairs.drain(..));
        self.lists_valid = true;
    }

    /// Sorts the endpoints of the `New` slots and merges them into every (sorted) list.
    fn merge_new_endpoints(&mut self) {
        for axis in 0..3 {
            self.new_endpoints.clear();
            for &slot in &self.inserted {
                let b = &self.boxes[slot as usize];
                let (lo, hi) = (b.mins[axis], b.maxs[axis]);
                self.new_endpoints.push(Endpoint::new(lo, slot, false));
                self.new_endpoints.push(Endpoint::new(hi, slot, true));
            }
            self.new_endpoints.sort_unstable_by(Endpoint::cmp_key);
            let list = &mut self.axes[axis];
            self.merged.clear();
            self.merged.reserve(list.len() + self.new_endpoints.len());
            let (mut i, mut j) = (0, 0);
            while i < list.len() && j < self.new_endpoints.len() {
                if self.new_endpoints[j].after(list[i]) {
                    self.merged.push(list[i]);
                    i += 1;
                } else {
                    self.merged.push(self.new_endpoints[j]);
                    j += 1;
                }
            }
            self.merged.extend_from_slice(&list[i..]);
            self.merged.extend_from_slice(&self.new_endpoints[j..]);
            std::mem::swap(list, &mut self.merged);
        }
    }

    /// Merges the endpoints of the `New` slots into the sorted lists and adds every overlapping
    /// pair involving one of them, by one sweep along x.
    fn merge_inserted(&mut self) {
        self.merge_new_endpoints();

        // Sweep along x. An interval is active from its min to its max endpoint; when a min is
        // reached, every active interval overlaps it on x (closed, by the tie order).
        self.active_pos.clear();
        self.active_pos.resize(self.states.len(), NONE);
        self.active_old.clear();
        self.active_new.clear();
        for e in &self.axes[0] {
            let slot = e.slot();
            let is_new = self.states[slot as usize] == SlotState::New;
            let active = if is_new {
                &mut self.active_new
            } else {
                &mut self.active_old
            };
            if e.is_max() {
                let pos = self.active_pos[slot as usize] as usize;
                active.swap_remove(pos);
                if let Some(&moved) = active.get(pos) {
                    self.active_pos[moved as usize] = pos as u32;
                }
                continue;
            }
            let own = &self.boxes[slot as usize];
            for &other in &self.active_new {
                if own.overlaps(&self.boxes[other as usize]) {
                    self.pairs.insert(pack(slot, other));
                }
            }
            if is_new {
                for &other in &self.active_old {
                    if own.overlaps(&self.boxes[other as usize]) {
                        self.pairs.insert(pack(slot, other));
                    }
                }
            }
            let active = if is_new {
                &mut self.active_new
            } else {
                &mut self.active_old
            };
            self.active_pos[slot as usize] = active.len() as u32;
            active.push(slot);
        }
    }

    /// Checks the structure's invariants: the id table and the slots agree; with kept lists,
    /// every live slot has exactly one min and one max per axis and the lists are sorted with each
    /// coordinate equal to the slot's box (in batch mode the lists are empty); every stored pair
    /// overlaps, once. Call after [`SweepAndPrune::repair`] (pending changes are reported as
    /// errors otherwise). For tests; O(n log n).
    ///
    /// # Errors
    /// [`BroadPhaseError::Invariant`] describing the first violated invariant.
    pub fn validate(&self) -> Result<(), BroadPhaseError> {
        if !self.inserted.is_empty() || !self.removed.is_empty() || self.moved {
            return Err(Invariant("changes pending: call repair first".into()));
        }
        let live_slots = self
            .states
            .iter()
            .filter(|&&s| s == SlotState::Live)
            .count();
        if live_slots != self.live {
            return Err(Invariant(format!(
                "{live_slots} live slots, {} proxies",
                self.live
            )));
        }
        for (id, &slot) in self.slot_of.iter().enumerate() {
            if slot != NONE
                && (self.states[slot as usize] != SlotState::Live
                    || self.ids[slot as usize] as usize != id)
            {
                return Err(Invariant(format!(
                    "id {id} maps to slot {slot} which is not its live slot"
                )));
            }
        }
        for (axis, list) in self.axes.iter().enumerate() {
            if !self.lists_valid {
                if !list.is_empty() {
                    return Err(Invariant(format!(
                        "axis {axis}: endpoints kept in batch mode"
                    )));
                }
                continue;
            }
            if list.len() != 2 * self.live {
                return Err(Invariant(format!("axis {axis}: {} endpoints", list.len())));
            }
            let mut seen = vec![[false; 2]; self.states.len()];
            for (i, e) in list.iter().enumerate() {
                let slot = e.slot() as usize;
                if self.states[slot] != SlotState::Live {
                    return Err(Invariant(format!(
                        "axis {axis}: endpoint of non-live slot {slot}"
                    )));
                }
                let end = usize::from(e.is_max());
                if seen[slot][end] {
                    return Err(Invariant(format!(
                        "axis {axis}: slot {slot} end {end} repeated"
                    )));
                }
                seen[slot][end] = true;
                if e.value.to_bits() != self.boxes[slot].bound(axis, end == 1).to_bits() {
                    return Err(Invariant(format!(
                        "axis {axis}: stale coordinate of slot {slot}"
                    )));
                }
                if i > 0 && list[i - 1].after(*e) {
                    return Err(Invariant(format!("axis {axis}: unsorted at {i}")));
                }
            }
        }
        if !self.lists_valid && !self.pairs.is_empty() {
            return Err(Invariant("incremental pairs kept in batch mode".into()));
        }
        let mut keys: Vec<u64> = self
            .pairs
            .iter()
            .chain(&self.batch_pairs)
            .copied()
            .collect();
        for &key in &keys {
            let (a, b) = unpack(key);
            let live = |s: u32| self.states.get(s as usize) == Some(&SlotState::Live);
            if a == b || !live(a) || !live(b) {
                return Err(Invariant(format!(
                    "stored pair of slots {a}, {b} is not two live slots"
                )));
            }
            if !self.boxes[a as usize].overlaps(&self.boxes[b as usize]) {
                return Err(Invariant(format!(
                    "stored pair of slots {a}, {b} does not overlap"
                )));
            }
        }
        let stored = keys.len();
        keys.sort_unstable();
        keys.dedup();
        if keys.len() != stored {
            return Err(Invariant("a pair is stored twice".into()));
        }
        Ok(())
    }
}

/// Insertion-sorts `list`, updating `pairs` on every min/max swap (see the module rationale).
/// Returns the number of swaps and whether the list is sorted: the sort stops (leaving a
/// permutation of the list) as soon as more than `budget` swaps have been made.
fn insertion_sort(
    list: &mut [Endpoint],
    boxes: &[WorldAabb],
    pairs: &mut PairSet,
    budget: u64,
) -> (u64, bool) {
    let mut swaps = 0u64;
    for i in 1..list.len() {
        if swaps > budget {
            return (swaps, false);
        }
        let e = list[i];
        if !list[i - 1].after(e) {
            continue;
        }
        let mut j = i;
        while j > 0 && list[j - 1].after(e) {
            let f = list[j - 1];
            if e.is_max() != f.is_max() {
                let (a, b) = (e.slot(), f.slot());
                if e.is_max() {
                    // e's max now precedes f's min: apart on this axis.
                    pairs.remove(&pack(a, b));
                } else if boxes[a as usize].overlaps(&boxes[b as usize]) {
                    // e's min now precedes f's max: overlapping on this axis.
                    pairs.insert(pack(a, b));
                }
            }
            list[j] = f;
            j -= 1;
        }
        swaps += (i - j) as u64;
        list[j] = e;
    }
    (swaps, swaps <= budget)
}

impl BroadPhase for SweepAndPrune {
    fn insert(&mut self, id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError> {
        check_box(id, aabb)?;
        if self.slot(id).is_some() {
            return Err(BroadPhaseError::AlreadyPresent(id));
        }
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                let slot = self.states.len() as u32;
                self.ids.push(id);
                self.states.push(SlotState::Free);
                self.boxes.push(*aabb);
                slot
            }
        };
        if self.slot_of.len() <= id as usize {
            self.slot_of.resize(id as usize + 1, NONE);
        }
        self.slot_of[id as usize] = slot;
        self.ids[slot as usize] = id;
        self.states[slot as usize] = SlotState::New;
        self.write_box(slot, aabb);
        self.inserted.push(slot);
        self.live += 1;
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError> {
        check_box(id, aabb)?;
        let slot = self.slot(id).ok_or(BroadPhaseError::NotPresent(id))?;
        if self.states[slot as usize] == SlotState::Live {
            self.moved = true;
            let old = &self.boxes[slot as usize];
            for k in 0..3 {
                self.motion[k] +=
                    (aabb.mins[k] - old.mins[k]).abs() + (aabb.maxs[k] - old.maxs[k]).abs();
            }
        }
        self.write_box(slot, aabb);
        Ok(())
    }

    /// With a pool of two threads or more and at least 4096 changes (`PARALLEL_UPDATES`): the
    /// changes are checked and their motion summed on the pool in chunks of 1024 (`UPDATE_CHUNK`;
    /// the chunk sums added in chunk order), then the boxes are written on the pool, each of four
    /// pieces per thread writing the changes of its range of slots. Otherwise, and whenever a change is refused, the
    /// changes are made one by one as [`BroadPhase::update`] (so the same ones are made, and the
    /// same error returned). The two sums of the motion may differ in their last bits; the
    /// motion only picks the repair path, never the pairs.
    fn update_batch(
        &mut self,
        count: usize,
        change: &(dyn Fn(usize) -> Option<(ProxyId, WorldAabb)> + Sync),
    ) -> Result<(), BroadPhaseError> {
        use rayon::prelude::*;
        let pool = self
            .pool
            .clone()
            .filter(|p| count >= PARALLEL_UPDATES && p.current_num_threads() > 1);
        let refused = match &pool {
            Some(pool) => pool.install(|| self.scan_changes(count, change)),
            None => true,
        };
        if refused {
            for k in 0..count {
                if let Some((id, aabb)) = change(k) {
                    self.update(id, &aabb)?;
                }
            }
            return Ok(());
        }
        for scan in &self.chunk_scans {
            for c in 0..3 {
                self.motion[c] += scan.motion[c];
            }
            self.moved |= scan.moved;
        }
        // Each piece writes the changed boxes of its range of slots (four pieces per thread, so
        // that work stealing evens out a thread slowed down by another process), reading only
        // the chunks of changes that touch its range: when the changes come in slot order (as an
        // engine moving its objects in turn makes them), each piece reads about its own share.
        let pieces = pool.as_ref().map_or(1, |p| 4 * p.current_num_threads());
        let per_range = self.boxes.len().div_ceil(pieces).max(1);
        let (boxes, change_slots) = (&mut self.boxes, &self.change_slots);
        let scans = &self.chunk_scans;
        let write = |(r, part): (usize, &mut [WorldAabb])| {
            let first = r * per_range;
            let range = first..first + part.len();
            for (c, _) in scans.iter().enumerate().filter(|(_, s)| s.touches(&range)) {
                let changes = c * UPDATE_CHUNK..((c + 1) * UPDATE_CHUNK).min(count);
                for k in changes {
                    let at = (change_slots[k] as usize).wrapping_sub(first);
                    if at < part.len()
                        && let Some((_, aabb)) = change(k)
                    {
                        part[at] = aabb;
                    }
                }
            }
        };
        if let Some(pool) = pool {
            pool.install(|| boxes.par_chunks_mut(per_range).enumerate().for_each(write));
        }
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let slot = self.slot(id).ok_or(BroadPhaseError::NotPresent(id))?;
        self.slot_of[id as usize] = NONE;
        self.states[slot as usize] = SlotState::Dead;
        self.removed.push(slot);
        self.live -= 1;
        Ok(())
    }

    fn len(&self) -> usize {
        self.live
    }

    /// A scan of the boxes of the live (and newly inserted) proxies.
    fn query(
        &self,
        probe: &mut dyn FnMut(&WorldAabb) -> bool,
        out: &mut Vec<(ProxyId, WorldAabb)>,
    ) {
        for (slot, state) in self.states.iter().enumerate() {
            if matches!(state, SlotState::Live | SlotState::New) && probe(&self.boxes[slot]) {
                out.push((self.ids[slot], self.boxes[slot]));
            }
        }
    }

    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        self.repair();
        let ids = &self.ids;
        let id_of = |slot: u32| ids[slot as usize];
        let pool = self.pool.as_deref();
        if self.lists_valid {
            let keys = self.pairs.iter().copied();
            sorted_proxy_pairs(keys, id_of, &mut self.sort_scratch, pool, out);
        } else {
            let keys = self.batch_pairs.iter().copied();
            sorted_proxy_pairs(keys, id_of, &mut self.sort_scratch, pool, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{cube, int_in};
    use colldet_geom::math::PointD;
    use colldet_testkit::SplitMix64;

    fn pairs_of(sap: &mut SweepAndPrune) -> Vec<ProxyPair> {
        let mut out = Vec::new();
        sap.overlapping_pairs(&mut out);
        sap.validate().unwrap();
        out
    }

    #[test]
    fn touching_moving_and_jumping_boxes() {
        let mut sap = SweepAndPrune::new();
        sap.insert(3, &cube(0.0, 1.0)).unwrap();
        sap.insert(1, &cube(1.0, 1.0)).unwrap();
        sap.insert(7, &cube(2.0, 1.0)).unwrap();
        assert_eq!(pairs_of(&mut sap), vec![ProxyPair(1, 3), ProxyPair(1, 7)]);
        // 3 jumps over both others to touch 7 from the right: only {3, 7} remains.
        sap.update(3, &cube(3.0, 1.0)).unwrap();
        assert_eq!(pairs_of(&mut sap), vec![ProxyPair(1, 7), ProxyPair(3, 7)]);
        // 1 jumps to the far left; a zero-size box sits on 7's min face.
        sap.update(1, &cube(-10.0, 1.0)).unwrap();
        sap.insert(0, &cube(2.0, 0.0)).unwrap();
        assert_eq!(pairs_of(&mut sap), vec![ProxyPair(0, 7), ProxyPair(3, 7)]);
        assert_eq!(sap.stats().inserted, 1);
    }

    /// A box on a lattice of step 0.25 (exactly touching faces are frequent), up to zero size.
    fn lattice_box(c: [i64; 3], h: [i64; 3]) -> WorldAabb {
        let f = |x: i64| x as f64 * 0.25;
        WorldAabb::new(
            PointD::new(f(c[0] - h[0]), f(c[1] - h[1]), f(c[2] - h[2])),
            PointD::new(f(c[0] + h[0]), f(c[1] + h[1]), f(c[2] + h[2])),
        )
    }

    /// Frames of each kind seen by [`paths_match_all_pairs`].
    #[derive(Debug, Default)]
    struct PathCounts {
        rebuilt: usize,
        incremental: usize,
        single_axis: usize,
        pairs: usize,
    }

    /// 240 frames of 400 lattice boxes in phases (coherent moves of one box in `moving_every`,
    /// teleports, a mix) with churn, checked against brute force and validated every frame; the
    /// single-axis batch search is allowed up to `axis_sweep_max(frame)` boxes.
    fn paths_match_all_pairs(
        moving_every: usize,
        axis_sweep_max: impl Fn(usize) -> usize,
    ) -> PathCounts {
        use crate::AllPairs;
        let (n, side) = (400usize, 40i64);
        let mut rng = SplitMix64::new(0x05a9_fa57);
        let mut centres: Vec<Option<[i64; 3]>> = Vec::new();
        let mut halves = Vec::new();
        let (mut sap, mut all) = (SweepAndPrune::new(), AllPairs::new());
        for id in 0..n {
            let c = [0; 3].map(|_| int_in(&mut rng, -side, side));
            let h = [0; 3].map(|_| int_in(&mut rng, 0, 4));
            centres.push(Some(c));
            halves.push(h);
            sap.insert(id as u32, &lattice_box(c, h)).unwrap();
            all.insert(id as u32, &lattice_box(c, h)).unwrap();
        }
        let (mut expected, mut got) = (Vec::new(), Vec::new());
        let mut counts = PathCounts::default();
        for frame in 0..240 {
            sap.axis_sweep_max = AxisSweepLimit(axis_sweep_max(frame));
            // Phases of 12 frames: some boxes moving by at most one step (incremental),
            // full teleports (batch), a few teleports among the coherent moves (either).
            let phase = (frame / 12) % 3;
            for id in 0..n {
                let Some(c) = centres[id].as_mut() else {
                    continue;
                };
                let teleport = match phase {
                    0 => false,
                    1 => true,
                    _ => id % 97 == frame % 97 || rng.next_u64().is_multiple_of(64),
                };
                if !teleport && (id + frame) % moving_every != 0 {
                    continue;
                }
                for x in c.iter_mut() {
                    *x = if teleport {
                        int_in(&mut rng, -side, side)
                    } else {
                        (*x + int_in(&mut rng, -1, 1)).clamp(-side, side)
                    };
                }
                sap.update(id as u32, &lattice_box(*c, halves[id])).unwrap();
                all.update(id as u32, &lattice_box(*c, halves[id])).unwrap();
            }
            // Churn: a removal and a (re-)insertion most frames.
            let id = int_in(&mut rng, 0, n as i64 - 1) as usize;
            if centres[id].take().is_some() {
                sap.remove(id as u32).unwrap();
                all.remove(id as u32).unwrap();
            }
            let id = int_in(&mut rng, 0, n as i64 - 1) as usize;
            if centres[id].is_none() {
                let c = [0; 3].map(|_| int_in(&mut rng, -side, side));
                centres[id] = Some(c);
                sap.insert(id as u32, &lattice_box(c, halves[id])).unwrap();
                all.insert(id as u32, &lattice_box(c, halves[id])).unwrap();
            }
            sap.overlapping_pairs(&mut got);
            all.overlapping_pairs(&mut expected);
            assert_eq!(got, expected, "frame {frame}");
            sap.validate().unwrap();
            let stats = sap.stats();
            if stats.rebuilt {
                counts.rebuilt += 1;
            } else {
                counts.incremental += 1;
            }
            counts.single_axis += usize::from(stats.single_axis);
            assert!(!stats.single_axis || stats.rebuilt);
            counts.pairs += expected.len();
        }
        counts
    }

    #[test]
    fn rebuild_and_insertion_paths_match_all_pairs() {
        // The column sweep's batches (single-axis sweep disabled).
        let counts = paths_match_all_pairs(4, |_| 0);
        assert!(counts.rebuilt >= 20, "{counts:?}");
        assert!(counts.incremental >= 60, "{counts:?}");
        assert_eq!(counts.single_axis, 0);
        assert!(counts.pairs > 10_000, "{counts:?}");
    }

    #[test]
    fn single_axis_batches_match_all_pairs() {
        // 400 boxes: the single-axis sweep's batches (slower coherent motion, as its batch cost
        // is lower).
        let counts = paths_match_all_pairs(32, |_| AXIS_SWEEP_MAX_BOXES);
        assert!(counts.rebuilt >= 20, "{counts:?}");
        assert!(counts.incremental >= 60, "{counts:?}");
        assert_eq!(counts.single_axis, counts.rebuilt);
        assert!(counts.pairs > 10_000, "{counts:?}");
    }

    #[test]
    fn switching_between_batch_searches_matches_all_pairs() {
        // The batch search alternates between the column sweep and the single-axis sweep (whose
        // kept order goes stale meanwhile, with churn); then the threshold sits inside the range
        // the live count goes through, so the size decides.
        let counts = paths_match_all_pairs(4, |frame| [0, usize::MAX][(frame / 5) % 2]);
        assert!(counts.single_axis >= 10, "{counts:?}");
        assert!(counts.rebuilt >= counts.single_axis + 10, "{counts:?}");
        // (The live count drifts down from 400 with the churn.)
        let counts = paths_match_all_pairs(4, |_| 380);
        assert!(counts.single_axis >= 100, "{counts:?}");
        assert!(counts.rebuilt >= counts.single_axis + 5, "{counts:?}");
    }

    #[test]
    fn shuffling_inside_a_dense_cluster_exhausts_the_insertion_budget() {
        use crate::AllPairs;
        // 300 thin slabs within 0.001 along x, and two far boxes that make the x spread huge: the
        // motion estimate sees tiny moves, but every frame permutes the whole cluster.
        let mut rng = SplitMix64::new(0xc1a5_7e75);
        let (mut sap, mut all) = (SweepAndPrune::new(), AllPairs::new());
        let slab = |x: f64, y: f64| {
            WorldAabb::new(PointD::new(x, y, 0.0), PointD::new(x + 1e-6, y + 0.5, 1.0))
        };
        let far = |x: f64| WorldAabb::new(PointD::new(x, 0.0, 0.0), PointD::new(x + 1.0, 1.0, 1.0));
        for bp in [&mut sap as &mut dyn BroadPhase, &mut all] {
            bp.insert(300, &far(-1000.0)).unwrap();
            bp.insert(301, &far(1000.0)).unwrap();
        }
        let (mut expected, mut got, mut aborted) = (Vec::new(), Vec::new(), 0);
        for frame in 0..6 {
            for id in 0..300u32 {
                let b = slab(
                    int_in(&mut rng, 0, 1000) as f64 * 1e-6,
                    f64::from(id % 40) * 0.25,
                );
                if frame == 0 {
                    sap.insert(id, &b).unwrap();
                    all.insert(id, &b).unwrap();
                } else {
                    sap.update(id, &b).unwrap();
                    all.update(id, &b).unwrap();
                }
            }
            sap.overlapping_pairs(&mut got);
            all.overlapping_pairs(&mut expected);
            assert_eq!(got, expected, "frame {frame}");
            sap.validate().unwrap();
            let stats = sap.stats();
            assert!(frame == 0 || stats.estimated_swaps < 100, "{stats:?}");
            aborted += u32::from(sap.aborted);
            assert_eq!(stats.rebuilt, frame == 0 || sap.aborted);
        }
        assert_eq!(aborted, 5);
    }

    /// Batch updates, read and written on pools of 2 and 3 threads or made one by one, give the
    /// pairs of `AllPairs`, and the pools the same counters (the motion estimate is summed in
    /// fixed chunks); on a
    /// lattice (equal coordinates, touching faces) of 5,000 boxes moving coherently (incremental
    /// frames) or teleporting (batch frames). A refused change (a NaN box in the middle) returns
    /// the error of the one-by-one updates, with the changes before it made.
    #[test]
    fn batch_updates_on_a_pool_match_serial_updates_and_all_pairs() {
        use crate::AllPairs;
        let (n, side) = (5000usize, 30i64);
        let mut rng = SplitMix64::new(0xba7c_0de5);
        let pools: Vec<_> = [2, 3]
            .map(|t| {
                Arc::new(
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(t)
                        .build()
                        .unwrap(),
                )
            })
            .into();
        let mut saps = vec![SweepAndPrune::new()];
        saps.extend(
            pools
                .iter()
                .map(|p| SweepAndPrune::with_pool(Arc::clone(p))),
        );
        let mut all = AllPairs::new();
        let mut centres: Vec<[i64; 3]> = (0..n)
            .map(|_| [0; 3].map(|_| int_in(&mut rng, -side, side)))
            .collect();
        let halves: Vec<[i64; 3]> = (0..n)
            .map(|_| [0; 3].map(|_| int_in(&mut rng, 0, 4)))
            .collect();
        for id in 0..n {
            let b = lattice_box(centres[id], halves[id]);
            all.insert(id as u32, &b).unwrap();
            saps.iter_mut()
                .for_each(|sap| sap.insert(id as u32, &b).unwrap());
        }
        let mut shuffled: Vec<usize> = (0..n).collect();
        for k in (1..n).rev() {
            shuffled.swap(k, (rng.next_u64() % (k as u64 + 1)) as usize);
        }
        let (mut expected, mut got) = (Vec::new(), Vec::new());
        let mut rebuilt = 0;
        for frame in 0..12 {
            let teleport = frame % 4 == 3;
            for (k, c) in centres.iter_mut().enumerate() {
                if !teleport && !(k + frame).is_multiple_of(25) {
                    continue;
                }
                for x in c.iter_mut() {
                    *x = if teleport {
                        int_in(&mut rng, -side, side)
                    } else {
                        (*x + int_in(&mut rng, -1, 1)).clamp(-side, side)
                    };
                }
            }
            // Every third object stays put (no change). Odd frames list the changes in a
            // shuffled order (every chunk of changes then touches every piece of slots).
            let order = |k: usize| if frame % 2 == 1 { shuffled[k] } else { k };
            let change = |k: usize| {
                let id = order(k);
                (!id.is_multiple_of(3)).then(|| (id as u32, lattice_box(centres[id], halves[id])))
            };
            for k in 0..n {
                if let Some((id, b)) = change(k) {
                    all.update(id, &b).unwrap();
                }
            }
            all.overlapping_pairs(&mut expected);
            // Enough pairs for the sort on the pool.
            assert!(
                expected.len() >= crate::parallel_sort::PARALLEL_SORT_MIN_KEYS,
                "{} pairs",
                expected.len()
            );
            let mut stats = Vec::new();
            for sap in &mut saps {
                sap.update_batch(n, &change).unwrap();
                sap.overlapping_pairs(&mut got);
                sap.validate().unwrap();
                assert_eq!(got, expected, "frame {frame}");
                stats.push(sap.stats());
            }
            // The pools sum the motion in the same chunks (the serial updates one by one).
            assert_eq!(stats[1], stats[2]);
            rebuilt += u32::from(stats[1].rebuilt);
        }
        assert!((3..12).contains(&rebuilt), "{rebuilt} batch frames");
        // A NaN box among the changes: refused as by one-by-one updates.
        let nan = WorldAabb::new(PointD::new(f64::NAN, 0.0, 0.0), PointD::new(1.0, 1.0, 1.0));
        let far = |k: usize| lattice_box([4 * side + k as i64, 0, 0], [0; 3]);
        let change = |k: usize| Some((k as u32, if k == 4500 { nan } else { far(k) }));
        for sap in &mut saps {
            assert_eq!(
                sap.update_batch(n, &change),
                Err(BroadPhaseError::InvalidBox(4500))
            );
            sap.overlapping_pairs(&mut got);
            sap.validate().unwrap();
            let moved = |id: u32| id < 4500;
            assert!(
                got.iter().all(|p| !moved(p.0) && !moved(p.1)),
                "moved far apart"
            );
        }
    }

    #[test]
    fn bad_input_is_refused_and_the_structure_stays_usable() {
        let mut sap = SweepAndPrune::new();
        sap.insert(0, &cube(0.0, 1.0)).unwrap();
        sap.insert(1, &cube(0.5, 1.0)).unwrap();
        let nan = WorldAabb::new(PointD::new(f64::NAN, 0.0, 0.0), PointD::new(1.0, 1.0, 1.0));
        let inverted = WorldAabb::new(PointD::new(1.0, 0.0, 0.0), PointD::new(0.0, 1.0, 1.0));
        let infinite = WorldAabb::new(
            PointD::new(0.0, 0.0, 0.0),
            PointD::new(f64::INFINITY, 1.0, 1.0),
        );
        assert_eq!(sap.insert(2, &nan), Err(BroadPhaseError::InvalidBox(2)));
        assert_eq!(
            sap.update(0, &inverted),
            Err(BroadPhaseError::InvalidBox(0))
        );
        assert_eq!(
            sap.update(1, &infinite),
            Err(BroadPhaseError::InvalidBox(1))
        );
        assert_eq!(
            sap.insert(1, &cube(5.0, 1.0)),
            Err(BroadPhaseError::AlreadyPresent(1))
        );
        assert_eq!(sap.remove(9), Err(BroadPhaseError::NotPresent(9)));
        assert_eq!(
            sap.update(4_000_000_000, &cube(0.0, 1.0)),
            Err(BroadPhaseError::NotPresent(4_000_000_000))
        );
        assert_eq!(pairs_of(&mut sap), vec![ProxyPair(0, 1)]);
        assert_eq!(sap.len(), 2);
        // Remove and re-insert the same id before a repair.
        sap.remove(1).unwrap();
        assert_eq!(sap.remove(1), Err(BroadPhaseError::NotPresent(1)));
        sap.insert(1, &cube(10.0, 1.0)).unwrap();
        sap.insert(2, &cube(10.5, 1.0)).unwrap();
        sap.remove(2).unwrap();
        assert!(pairs_of(&mut sap).is_empty());
        sap.update(1, &cube(0.25, 1.0)).unwrap();
        assert_eq!(pairs_of(&mut sap), vec![ProxyPair(0, 1)]);
        assert_eq!(sap.len(), 2);
    }
}
