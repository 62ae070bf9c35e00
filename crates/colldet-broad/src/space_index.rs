//! What the uniform grid and the octree share: a [`CellMapping`], the proxies in dense slots
//! (`proxy_slots.rs`) and a [`CellStore`] that files slots under cells (the grid's cell arrays,
//! the octree's octants).
//!
//! [`SpaceIndex`] runs every call the way both structures do it (check the box, map it to its
//! cell range, exit early from a move that keeps the range, search pairs with time-stamps) and
//! leaves only the filing to the store. [`space_index_api!`] gives a structure holding a
//! `SpaceIndex` in its field `index` the public calls built on it.

use std::fmt::Debug;

use colldet_geom::WorldAabb;

use crate::broad_phase::BroadPhaseError::Invariant;
use crate::broad_phase::{BroadPhaseError, ProxyId, ProxyPair, check_box};
use crate::cell_mapping::CellMapping;
use crate::cell_range::CellRange;
use crate::index_update::IndexUpdate;
use crate::proxy_slots::{ProxySlots, Slot};

/// Where a space index files its proxies' slots: under cells, or under octants covering cells.
pub(crate) trait CellStore {
    /// Per-proxy data kept in its slot (the octree's octant array; nothing for the grid).
    type Extra: Clone + Debug + Default;

    /// Files `slot` under the cells of `range`.
    fn attach(&mut self, slot: u32, range: &CellRange, extra: &mut Self::Extra);

    /// Takes `slot`, filed under `range`, out of the store.
    fn detach(&mut self, slot: u32, range: &CellRange, extra: &mut Self::Extra);

    /// Refiles `slot` from range `old` to the different range `new` by the box difference;
    /// returns the entries changed.
    fn move_slot(
        &mut self,
        slot: u32,
        old: &CellRange,
        new: &CellRange,
        extra: &mut Self::Extra,
    ) -> IndexUpdate;

    /// Calls `visit` with every slot filed under a cell of `range`, in a fixed order; a slot
    /// filed under several of them comes once for each.
    fn for_each_candidate(&self, range: &CellRange, visit: impl FnMut(u32));
}

/// A cell mapping, the proxies, and the store that files them by cell.
#[derive(Clone, Debug)]
pub(crate) struct SpaceIndex<S: CellStore> {
    pub(crate) mapping: CellMapping,
    pub(crate) store: S,
    pub(crate) slots: ProxySlots<S::Extra>,
}

impl<S: CellStore> SpaceIndex<S> {
    /// An index without proxies.
    pub(crate) fn new(mapping: CellMapping, store: S) -> Self {
        Self {
            mapping,
            store,
            slots: ProxySlots::default(),
        }
    }

    /// The cell range of proxy `id`.
    pub(crate) fn proxy_cells(&self, id: ProxyId) -> Result<CellRange, BroadPhaseError> {
        let slot = self.slots.lookup(id)?;
        Ok(self.slots.slots[slot as usize].cells)
    }

    /// [`crate::BroadPhase::insert`].
    pub(crate) fn insert(&mut self, id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError> {
        check_box(id, aabb)?;
        let range = self.mapping.cell_range(aabb);
        let slot = self.slots.allocate(id, aabb, range)?;
        let entry = &mut self.slots.slots[slot as usize];
        self.store.attach(slot, &range, &mut entry.extra);
        Ok(())
    }

    /// Stores `aabb` as proxy `id`'s box and, when its cell range changed, refiles the proxy.
    pub(crate) fn move_proxy(
        &mut self,
        id: ProxyId,
        aabb: &WorldAabb,
    ) -> Result<IndexUpdate, BroadPhaseError> {
        check_box(id, aabb)?;
        let slot = self.slots.lookup(id)?;
        let new = self.mapping.cell_range(aabb);
        let entry = &mut self.slots.slots[slot as usize];
        entry.aabb = *aabb;
        let old = entry.cells;
        if new == old {
            return Ok(IndexUpdate::default());
        }
        entry.cells = new;
        Ok(self.store.move_slot(slot, &old, &new, &mut entry.extra))
    }

    /// [`crate::BroadPhase::remove`].
    pub(crate) fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let slot = self.slots.lookup(id)?;
        let entry = &mut self.slots.slots[slot as usize];
        self.store.detach(slot, &entry.cells, &mut entry.extra);
        self.slots.release(slot);
        Ok(())
    }

    /// [`crate::BroadPhase::overlapping_pairs`].
    pub(crate) fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        self.slots.overlapping_pairs(&self.store, out);
    }

    /// The sorted ids of the proxies whose boxes overlap proxy `id`'s (`out` is left empty on
    /// error).
    pub(crate) fn overlaps_of(
        &mut self,
        id: ProxyId,
        out: &mut Vec<ProxyId>,
    ) -> Result<(), BroadPhaseError> {
        self.slots.overlaps_of(&self.store, id, out)
    }

    /// [`BroadPhaseError::Invariant`] when the live proxy `s` has a cell range other than the
    /// one its box maps to.
    pub(crate) fn check_cell_range(&self, s: &Slot<S::Extra>) -> Result<(), BroadPhaseError> {
        if s.cells != self.mapping.cell_range(&s.aabb) {
            return Err(Invariant(format!("proxy {} has a stale cell range", s.id)));
        }
        Ok(())
    }
}

/// Gives the structure `$ty`, whose field `index` is a [`SpaceIndex`], the public calls the
/// uniform grid and the octree share: `universe`, `proxy_cells`, `move_proxy`, `overlaps_of` and
/// [`crate::BroadPhase`].
macro_rules! space_index_api {
    ($ty:ty) => {
        impl $ty {
            /// The universe box (world units).
            pub fn universe(&self) -> &colldet_geom::WorldAabb {
                self.index.mapping.universe()
            }

            /// The inclusive range of cells (of the octree: leaves) proxy `id` covers.
            ///
            /// # Errors
            /// [`BroadPhaseError::NotPresent`](crate::BroadPhaseError::NotPresent).
            pub fn proxy_cells(
                &self,
                id: $crate::ProxyId,
            ) -> Result<$crate::CellRange, $crate::BroadPhaseError> {
                self.index.proxy_cells(id)
            }

            /// Moves proxy `id` to `aabb` with the box difference and reports the entries
            /// changed (cells of the grid, octants of the octree; zero when the cell range is
            /// unchanged). [`BroadPhase::update`](crate::BroadPhase::update) is this without the
            /// report.
            ///
            /// # Errors
            /// [`BroadPhaseError::InvalidBox`](crate::BroadPhaseError::InvalidBox),
            /// [`BroadPhaseError::NotPresent`](crate::BroadPhaseError::NotPresent); the
            /// structure is unchanged.
            pub fn move_proxy(
                &mut self,
                id: $crate::ProxyId,
                aabb: &colldet_geom::WorldAabb,
            ) -> Result<$crate::IndexUpdate, $crate::BroadPhaseError> {
                self.index.move_proxy(id, aabb)
            }

            /// Replaces `out` with the ids of the proxies whose closed boxes overlap proxy
            /// `id`'s box, sorted ascending: the thesis's neighbour search for one moved object
            /// (section 5.4.2), visiting only the cells of its range.
            ///
            /// # Errors
            /// [`BroadPhaseError::NotPresent`](crate::BroadPhaseError::NotPresent) (`out` is
            /// then left empty).
            pub fn overlaps_of(
                &mut self,
                id: $crate::ProxyId,
                out: &mut Vec<$crate::ProxyId>,
            ) -> Result<(), $crate::BroadPhaseError> {
                self.index.overlaps_of(id, out)
            }
        }

        impl $crate::BroadPhase for $ty {
            fn insert(
                &mut self,
                id: $crate::ProxyId,
                aabb: &colldet_geom::WorldAabb,
            ) -> Result<(), $crate::BroadPhaseError> {
                self.index.insert(id, aabb)
            }

            fn update(
                &mut self,
                id: $crate::ProxyId,
                aabb: &colldet_geom::WorldAabb,
            ) -> Result<(), $crate::BroadPhaseError> {
                self.index.move_proxy(id, aabb).map(|_| ())
            }

            fn remove(&mut self, id: $crate::ProxyId) -> Result<(), $crate::BroadPhaseError> {
                self.index.remove(id)
            }

            fn len(&self) -> usize {
                self.index.slots.len()
            }

            fn overlapping_pairs(&mut self, out: &mut Vec<$crate::ProxyPair>) {
                self.index.overlapping_pairs(out);
            }

            /// A scan of the live proxies' boxes (the cells are not walked).
            fn query(
                &self,
                probe: &mut dyn FnMut(&colldet_geom::WorldAabb) -> bool,
                out: &mut Vec<($crate::ProxyId, colldet_geom::WorldAabb)>,
            ) {
                for s in &self.index.slots.slots {
                    if s.live && probe(&s.aabb) {
                        out.push((s.id, s.aabb));
                    }
                }
            }
        }
    };
}

pub(crate) use space_index_api;
