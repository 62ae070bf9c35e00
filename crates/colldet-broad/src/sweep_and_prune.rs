//! Sweep and prune (I-COLLIDE, Cohen, Lin, Manocha and Ponamgi 1995): three sorted endpoint
//! lists kept from frame to frame and repaired by insertion sort, with the set of overlapping
//! pairs maintained incrementally from the swaps.
//!
//! Rationale (why the swap events give exactly the overlapping pairs):
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

use colldet_geom::WorldAabb;

use crate::broad_phase::{BroadPhase, BroadPhaseError, ProxyId, ProxyPair, check_box};
use crate::pair_set::{PairSet, pack, sorted_proxy_pairs, unpack};

/// Marks an id without a slot, and an unused position.
const NONE: u32 = u32::MAX;

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

    /// Total order used to sort new endpoints before merging (coordinates are finite).
    #[inline]
    fn cmp_key(&self, other: &Endpoint) -> std::cmp::Ordering {
        self.value
            .total_cmp(&other.value)
            .then((self.tag & 1).cmp(&(other.tag & 1)))
    }
}

/// The life cycle of an internal slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlotState {
    /// Unused, on the free list.
    Free,
    /// In the endpoint lists.
    Live,
    /// Inserted since the last repair: no endpoints yet.
    New,
    /// Removed since the last repair: endpoints and pairs still to be dropped.
    Dead,
}

/// Counters of the last repair pass, for benchmarks and tuning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepAndPruneStats {
    /// Endpoint swaps made by the insertion sorts, summed over the three axes.
    pub swaps: u64,
    /// Proxies merged in as new.
    pub inserted: u64,
    /// Proxies dropped.
    pub removed: u64,
}

/// Sweep and prune over world AABBs: exact closed-box overlap (touching counts).
///
/// Proxy ids index a table directly, so memory grows with the largest id used (the world hands
/// out dense slot ids). Each frame costs O(n + swaps + k) where `swaps` is the number of endpoint
/// order changes and `k` the number of overlapping pairs; with coherent motion `swaps` is small
/// relative to `n log n`. Changes are batched: `insert`, `update` and `remove` record, and the
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
    /// Current `[min, max]` of each slot, per axis (the refresh reads these compactly).
    bounds: [Vec<[f64; 2]>; 3],
    free: Vec<u32>,
    /// Endpoint lists, sorted as of the last repair.
    axes: [Vec<Endpoint>; 3],
    /// Fully overlapping slot pairs, as of the last repair.
    pairs: PairSet,
    /// Slots in state `New` or (if removed again) `Dead` that have no endpoints yet.
    inserted: Vec<u32>,
    /// Slots in state `Dead`.
    removed: Vec<u32>,
    /// Some live proxy was updated since the last repair.
    moved: bool,
    live: usize,
    stats: SweepAndPruneStats,
    // Scratch reused between repairs.
    new_endpoints: Vec<Endpoint>,
    merged: Vec<Endpoint>,
    active_old: Vec<u32>,
    active_new: Vec<u32>,
    active_pos: Vec<u32>,
    sorted_keys: Vec<u64>,
}

impl SweepAndPrune {
    /// An empty structure.
    pub fn new() -> Self {
        Self::default()
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

    fn write_box(&mut self, slot: u32, aabb: &WorldAabb) {
        let s = slot as usize;
        self.boxes[s] = *aabb;
        for axis in 0..3 {
            self.bounds[axis][s] = [aabb.mins[axis], aabb.maxs[axis]];
        }
    }

    /// Brings the endpoint lists and the pair set up to date with every recorded change.
    pub fn repair(&mut self) {
        self.stats = SweepAndPruneStats::default();
        if self.inserted.is_empty() && self.removed.is_empty() && !self.moved {
            return;
        }
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
                self.stats.swaps += insertion_sort(axis, &self.boxes, &mut self.pairs);
            }
        }
        self.inserted
            .retain(|&slot| self.states[slot as usize] == SlotState::New);
        if !self.inserted.is_empty() {
            self.merge_inserted();
        }
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
    }

    /// Writes the current coordinates into the endpoints and drops those of dead slots.
    fn refresh_endpoints(&mut self) {
        let states = &self.states;
        for (list, bounds) in self.axes.iter_mut().zip(&self.bounds) {
            if self.removed.is_empty() {
                for e in list.iter_mut() {
                    e.value = bounds[e.slot() as usize][usize::from(e.is_max())];
                }
            } else {
                list.retain_mut(|e| {
                    let slot = e.slot() as usize;
                    if states[slot] == SlotState::Dead {
                        return false;
                    }
                    e.value = bounds[slot][usize::from(e.is_max())];
                    true
                });
            }
        }
    }

    /// Merges the endpoints of the `New` slots into the sorted lists and adds every overlapping
    /// pair involving one of them, by one sweep along x.
    fn merge_inserted(&mut self) {
        for axis in 0..3 {
            self.new_endpoints.clear();
            for &slot in &self.inserted {
                let [lo, hi] = self.bounds[axis][slot as usize];
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

    /// Checks the structure's invariants: every live slot has exactly one min and one max per
    /// axis, the lists are sorted with each coordinate equal to the slot's box, and the id table
    /// and the slots agree. Call after [`SweepAndPrune::repair`] (pending changes are reported as
    /// errors otherwise). For tests; O(n log n).
    ///
    /// # Errors
    /// A description of the first violated invariant.
    pub fn validate(&self) -> Result<(), String> {
        if !self.inserted.is_empty() || !self.removed.is_empty() || self.moved {
            return Err("changes pending: call repair first".into());
        }
        let live_slots = self
            .states
            .iter()
            .filter(|&&s| s == SlotState::Live)
            .count();
        if live_slots != self.live {
            return Err(format!("{live_slots} live slots, {} proxies", self.live));
        }
        for (id, &slot) in self.slot_of.iter().enumerate() {
            if slot != NONE
                && (self.states[slot as usize] != SlotState::Live
                    || self.ids[slot as usize] as usize != id)
            {
                return Err(format!(
                    "id {id} maps to slot {slot} which is not its live slot"
                ));
            }
        }
        for (axis, list) in self.axes.iter().enumerate() {
            if list.len() != 2 * self.live {
                return Err(format!("axis {axis}: {} endpoints", list.len()));
            }
            let mut seen = vec![[false; 2]; self.states.len()];
            for (i, e) in list.iter().enumerate() {
                let slot = e.slot() as usize;
                if self.states[slot] != SlotState::Live {
                    return Err(format!("axis {axis}: endpoint of non-live slot {slot}"));
                }
                let end = usize::from(e.is_max());
                if seen[slot][end] {
                    return Err(format!("axis {axis}: slot {slot} end {end} repeated"));
                }
                seen[slot][end] = true;
                if e.value.to_bits() != self.bounds[axis][slot][end].to_bits() {
                    return Err(format!("axis {axis}: stale coordinate of slot {slot}"));
                }
                if i > 0 && list[i - 1].after(*e) {
                    return Err(format!("axis {axis}: unsorted at {i}"));
                }
            }
        }
        for &key in &self.pairs {
            let (a, b) = unpack(key);
            if !self.boxes[a as usize].overlaps(&self.boxes[b as usize]) {
                return Err(format!("stored pair of slots {a}, {b} does not overlap"));
            }
        }
        Ok(())
    }
}

/// Insertion-sorts `list`, updating `pairs` on every min/max swap (see the module rationale).
/// Returns the number of swaps.
fn insertion_sort(list: &mut [Endpoint], boxes: &[WorldAabb], pairs: &mut PairSet) -> u64 {
    let mut swaps = 0u64;
    for i in 1..list.len() {
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
    swaps
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
                for bounds in &mut self.bounds {
                    bounds.push([0.0; 2]);
                }
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
        self.write_box(slot, aabb);
        if self.states[slot as usize] == SlotState::Live {
            self.moved = true;
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

    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        self.repair();
        let ids = &self.ids;
        sorted_proxy_pairs(
            self.pairs.iter().copied(),
            |slot| ids[slot as usize],
            &mut self.sorted_keys,
            out,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_geom::math::PointD;

    fn cube(x: f64, size: f64) -> WorldAabb {
        WorldAabb::new(PointD::new(x, 0.0, 0.0), PointD::new(x + size, size, size))
    }

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
