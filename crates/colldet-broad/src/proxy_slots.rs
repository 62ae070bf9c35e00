//! Dense proxy storage and the thesis's time-stamp pair de-duplication (section 7.3.1), shared by
//! the uniform grid and the octree.
//!
//! Cells store dense slot indices (`u32`), not proxy ids, so the structures never index an array
//! by a caller's id (an id of `u32::MAX` must not allocate four billion entries). A freed slot goes
//! to a free list and is reused, so slot indices stay stable while a proxy lives.
//!
//! Time-stamps: a pair search visits the proxies `O` in slot order. Each visit draws a fresh
//! *query* stamp; a neighbour `X` met in several of `O`'s cells is tested only the first time
//! (its query stamp is set then). After `O` is done it receives the *frame* stamp, and later
//! visits skip it as a neighbour: every pair it belongs to was already considered from its side.
//! Both clocks are `u64` counters that only grow, so stamps never need clearing.

use std::collections::HashMap;

use colldet_geom::WorldAabb;

use crate::broad_phase::BroadPhaseError::Invariant;
use crate::broad_phase::{BroadPhaseError, ProxyId, ProxyPair};
use crate::cell_range::CellRange;
use crate::space_index::CellStore;

/// One proxy (or a free slot when `live` is false).
#[derive(Clone, Debug)]
pub(crate) struct Slot<T> {
    pub(crate) id: ProxyId,
    pub(crate) aabb: WorldAabb,
    pub(crate) cells: CellRange,
    pub(crate) live: bool,
    query_stamp: u64,
    frame_stamp: u64,
    /// Per-structure data (the octree's octant array); kept when the slot is freed so its
    /// capacity is reused.
    pub(crate) extra: T,
}

/// The proxies of one structure, by dense slot.
#[derive(Clone, Debug, Default)]
pub(crate) struct ProxySlots<T> {
    index: HashMap<ProxyId, u32>,
    pub(crate) slots: Vec<Slot<T>>,
    free: Vec<u32>,
    query_clock: u64,
    frame_clock: u64,
}

impl<T: Default> ProxySlots<T> {
    /// Number of live proxies.
    pub(crate) fn len(&self) -> usize {
        self.index.len()
    }

    /// The slot of `id`.
    pub(crate) fn lookup(&self, id: ProxyId) -> Result<u32, BroadPhaseError> {
        self.index
            .get(&id)
            .copied()
            .ok_or(BroadPhaseError::NotPresent(id))
    }

    /// A slot for a new proxy `id`, or [`BroadPhaseError::AlreadyPresent`].
    pub(crate) fn allocate(
        &mut self,
        id: ProxyId,
        aabb: &WorldAabb,
        cells: CellRange,
    ) -> Result<u32, BroadPhaseError> {
        if self.index.contains_key(&id) {
            return Err(BroadPhaseError::AlreadyPresent(id));
        }
        let slot = match self.free.pop() {
            Some(slot) => {
                let s = &mut self.slots[slot as usize];
                s.id = id;
                s.aabb = *aabb;
                s.cells = cells;
                s.live = true;
                slot
            }
            None => {
                self.slots.push(Slot {
                    id,
                    aabb: *aabb,
                    cells,
                    live: true,
                    query_stamp: 0,
                    frame_stamp: 0,
                    extra: T::default(),
                });
                (self.slots.len() - 1) as u32
            }
        };
        self.index.insert(id, slot);
        Ok(slot)
    }

    /// Frees the slot of a live proxy (the caller has already detached it from its cells).
    pub(crate) fn release(&mut self, slot: u32) {
        let s = &mut self.slots[slot as usize];
        debug_assert!(s.live);
        s.live = false;
        self.index.remove(&s.id);
        self.free.push(slot);
    }

    /// Replaces `out` with every pair of proxies whose closed boxes overlap, sorted ascending:
    /// visits the live proxies in slot order, each against the candidates `store` files under
    /// its cell range.
    pub(crate) fn overlapping_pairs(&mut self, store: &impl CellStore, out: &mut Vec<ProxyPair>) {
        out.clear();
        let frame = self.begin_frame();
        for o in 0..self.slots.len() as u32 {
            let entry = &self.slots[o as usize];
            if !entry.live {
                continue;
            }
            let range = entry.cells;
            let query = self.begin_query();
            store.for_each_candidate(&range, |x| self.consider(o, x, query, frame, out));
            self.finish_query(o, frame);
        }
        out.sort_unstable();
    }

    /// Replaces `out` with the ids of the proxies whose closed boxes overlap proxy `id`'s box,
    /// sorted ascending, from the candidates `store` files under its cell range.
    ///
    /// # Errors
    /// [`BroadPhaseError::NotPresent`] (`out` is then left empty).
    pub(crate) fn overlaps_of(
        &mut self,
        store: &impl CellStore,
        id: ProxyId,
        out: &mut Vec<ProxyId>,
    ) -> Result<(), BroadPhaseError> {
        out.clear();
        let me = self.lookup(id)?;
        let range = self.slots[me as usize].cells;
        let query = self.begin_query();
        store.for_each_candidate(&range, |x| self.consider_one(me, x, query, out));
        out.sort_unstable();
        Ok(())
    }

    /// Starts a pair search; returns its frame stamp.
    fn begin_frame(&mut self) -> u64 {
        self.frame_clock += 1;
        self.frame_clock
    }

    /// Starts the neighbour search of one proxy; returns its query stamp.
    fn begin_query(&mut self) -> u64 {
        self.query_clock += 1;
        self.query_clock
    }

    /// Marks `slot` as completely processed in frame `frame`.
    fn finish_query(&mut self, slot: u32, frame: u64) {
        self.slots[slot as usize].frame_stamp = frame;
    }

    /// Considers neighbour `x` met in one of `o`'s cells during query `query` of frame `frame`:
    /// pushes the pair when it was not considered before and the closed boxes overlap.
    #[inline]
    fn consider(&mut self, o: u32, x: u32, query: u64, frame: u64, out: &mut Vec<ProxyPair>) {
        if o == x {
            return;
        }
        let sx = &mut self.slots[x as usize];
        if sx.frame_stamp == frame || sx.query_stamp == query {
            return;
        }
        sx.query_stamp = query;
        let (id_x, box_x) = (sx.id, sx.aabb);
        let so = &self.slots[o as usize];
        if so.aabb.overlaps(&box_x) {
            out.push(ProxyPair::new(so.id, id_x));
        }
    }

    /// Considers neighbour `x` met in one of `o`'s cells during the single-proxy query `query`:
    /// pushes `x`'s id when it was not considered before and the closed boxes overlap.
    #[inline]
    fn consider_one(&mut self, o: u32, x: u32, query: u64, out: &mut Vec<ProxyId>) {
        if o == x {
            return;
        }
        let sx = &mut self.slots[x as usize];
        if sx.query_stamp == query {
            return;
        }
        sx.query_stamp = query;
        let (id_x, box_x) = (sx.id, sx.aabb);
        if self.slots[o as usize].aabb.overlaps(&box_x) {
            out.push(id_x);
        }
    }

    /// Checks the id index and the free list against the slots ([`BroadPhaseError::Invariant`]
    /// on the first inconsistency).
    pub(crate) fn validate(&self) -> Result<(), BroadPhaseError> {
        let live = self.slots.iter().filter(|s| s.live).count();
        if live != self.index.len() || live + self.free.len() != self.slots.len() {
            return Err(Invariant(format!(
                "{live} live slots, {} indexed, {} free, {} total",
                self.index.len(),
                self.free.len(),
                self.slots.len()
            )));
        }
        for (&id, &slot) in &self.index {
            let s = &self.slots[slot as usize];
            if !s.live || s.id != id {
                return Err(Invariant(format!(
                    "index maps proxy {id} to slot {slot} holding {}",
                    s.id
                )));
            }
        }
        if let Some(&slot) = self.free.iter().find(|&&f| self.slots[f as usize].live) {
            return Err(Invariant(format!("free slot {slot} is live")));
        }
        Ok(())
    }
}
