//! The thesis's uniform grid (section 5.5): a universe box cut into half-open cells, each with an
//! array of the proxies whose boxes touch it.
//!
//! - Cells and clamping are described in `cell_mapping.rs`: a box is attached to the inclusive
//!   range of cells its closed box touches, clamped to the grid. Objects partly or wholly outside
//!   the universe are attached to the border cells (no separate "outside" list): the cell map is
//!   non-decreasing, so two overlapping boxes always share a cell and outside objects collide
//!   correctly with each other and with inside ones; many objects far outside only crowd the
//!   border cells (a performance matter, not a correctness one).
//! - Moves use the box difference (section 5.4.3): the proxy leaves only the cells of
//!   `old \ new` and enters only those of `new \ old`, each at most six slabs; when the integer
//!   cell range is unchanged the move only stores the new box (early exit).
//! - Cell arrays are plain vectors searched on removal (the thesis found the doubly-indexed
//!   variant slower).
//! - The pair search visits every proxy's cells and de-duplicates with time-stamps
//!   (`proxy_slots.rs`); candidates are then tested with the real closed-box overlap, so the
//!   result is exactly the overlapping pairs, independent of the resolution.
//! - Boxes are axis aligned; the thesis's oriented-box "stabbing" insertion is not used (it can
//!   miss cells, see the errata in the study guide).

use colldet_geom::WorldAabb;

use crate::broad_phase::BroadPhaseError::Invariant;
use crate::broad_phase::{BroadPhase, BroadPhaseError, ProxyId, ProxyPair, check_box};
use crate::cell_mapping::CellMapping;
use crate::cell_range::CellRange;
use crate::index_update::IndexUpdate;
use crate::proxy_slots::ProxySlots;

/// Largest total number of cells a [`UniformGrid`] accepts (`128^3`); each cell costs one empty
/// vector (24 bytes) up front.
pub const MAX_GRID_CELLS: u64 = 1 << 21;

/// How to lay out a [`UniformGrid`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UniformGridConfig {
    /// The world box covered by cells (world units). Must be finite with `mins < maxs` on every
    /// axis. Boxes outside it are still handled correctly (attached to the border cells).
    pub universe: WorldAabb,
    /// Cells per axis (x, y, z), each at least 1, product at most [`MAX_GRID_CELLS`].
    pub resolution: [u32; 3],
}

impl UniformGridConfig {
    /// `cells_per_axis^3` cells over `universe` (the thesis's `resolution` parameter).
    pub fn cubic(universe: WorldAabb, cells_per_axis: u32) -> Self {
        Self {
            universe,
            resolution: [cells_per_axis; 3],
        }
    }

    /// Checks the configuration as [`UniformGrid::new`] does, without allocating the cells.
    ///
    /// # Errors
    /// [`BroadPhaseError::InvalidResolution`] for a zero axis or too many cells,
    /// [`BroadPhaseError::InvalidUniverse`] for a non-finite, empty or flat universe or one too
    /// small for the resolution (adjacent cell boundaries equal in `f64`).
    pub fn check(&self) -> Result<(), BroadPhaseError> {
        self.mapping().map(|_| ())
    }

    fn mapping(&self) -> Result<CellMapping, BroadPhaseError> {
        if let Some(&zero) = self.resolution.iter().find(|&&n| n == 0) {
            return Err(BroadPhaseError::InvalidResolution(u64::from(zero)));
        }
        let total: u64 = self.resolution.iter().map(|&n| u64::from(n)).product();
        if total > MAX_GRID_CELLS {
            return Err(BroadPhaseError::InvalidResolution(total));
        }
        CellMapping::new(&self.universe, self.resolution)
    }
}

/// A uniform grid of half-open cells with per-cell proxy arrays (see the file header for the
/// rules on boundaries, outside objects and moves).
#[derive(Clone, Debug)]
pub struct UniformGrid {
    mapping: CellMapping,
    /// Slot indices per cell, cell `[x, y, z]` at `(z * ny + y) * nx + x`.
    cells: Vec<Vec<u32>>,
    slots: ProxySlots<()>,
}

impl UniformGrid {
    /// An empty grid.
    ///
    /// # Errors
    /// As [`UniformGridConfig::check`].
    pub fn new(config: &UniformGridConfig) -> Result<Self, BroadPhaseError> {
        let mapping = config.mapping()?;
        let total: usize = config.resolution.iter().map(|&n| n as usize).product();
        Ok(Self {
            mapping,
            cells: vec![Vec::new(); total],
            slots: ProxySlots::default(),
        })
    }

    /// The universe box (world units).
    pub fn universe(&self) -> &WorldAabb {
        self.mapping.universe()
    }

    /// Cells per axis.
    pub fn resolution(&self) -> [u32; 3] {
        self.mapping.resolution()
    }

    /// The inclusive cell range proxy `id` is attached to.
    ///
    /// # Errors
    /// [`BroadPhaseError::NotPresent`].
    pub fn proxy_cells(&self, id: ProxyId) -> Result<CellRange, BroadPhaseError> {
        let slot = self.slots.lookup(id)?;
        Ok(self.slots.slots[slot as usize].cells)
    }

    /// Moves proxy `id` to `aabb` with the box difference and reports the cell entries changed
    /// (zero when the cell range is unchanged). [`BroadPhase::update`] is this without the report.
    ///
    /// # Errors
    /// [`BroadPhaseError::InvalidBox`], [`BroadPhaseError::NotPresent`]; the grid is unchanged.
    pub fn move_proxy(
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
        let mut change = IndexUpdate::default();
        for slab in old.difference(&new).as_slice() {
            change.detached += slab.cell_count();
            self.detach(slot, slab);
        }
        for slab in new.difference(&old).as_slice() {
            change.attached += slab.cell_count();
            self.attach(slot, slab);
        }
        Ok(change)
    }

    /// Replaces `out` with the ids of the proxies whose closed boxes overlap proxy `id`'s box,
    /// sorted ascending: the thesis's neighbour search for one moved object, visiting only the
    /// cells of its range.
    ///
    /// # Errors
    /// [`BroadPhaseError::NotPresent`] (`out` is then left empty).
    pub fn overlaps_of(
        &mut self,
        id: ProxyId,
        out: &mut Vec<ProxyId>,
    ) -> Result<(), BroadPhaseError> {
        out.clear();
        let me = self.slots.lookup(id)?;
        let range = self.slots.slots[me as usize].cells;
        let query = self.slots.begin_query();
        for z in range.lo[2]..=range.hi[2] {
            for y in range.lo[1]..=range.hi[1] {
                let row = self.cell_index([0, y, z]);
                for x in range.lo[0]..=range.hi[0] {
                    for &neighbour in &self.cells[row + x as usize] {
                        self.slots.consider_one(me, neighbour, query, out);
                    }
                }
            }
        }
        out.sort_unstable();
        Ok(())
    }

    /// Checks the cell arrays against the proxies: every proxy is in exactly the cells of its
    /// range (computed afresh from its box), once each, and cells hold nothing else.
    ///
    /// # Errors
    /// [`BroadPhaseError::Invariant`] describing the first inconsistency found.
    pub fn validate(&self) -> Result<(), BroadPhaseError> {
        self.slots.validate()?;
        let mut counts = vec![0u64; self.slots.slots.len()];
        for (index, cell) in self.cells.iter().enumerate() {
            let coords = self.cell_coords(index);
            let mut sorted = cell.clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                return Err(Invariant(format!("cell {coords:?} holds a slot twice")));
            }
            for &slot in cell {
                let s = &self.slots.slots[slot as usize];
                if !s.live || !s.cells.contains_cell(coords) {
                    return Err(Invariant(format!(
                        "cell {coords:?} holds slot {slot} outside its range"
                    )));
                }
                counts[slot as usize] += 1;
            }
        }
        for (slot, s) in self.slots.slots.iter().enumerate() {
            if !s.live {
                continue;
            }
            if s.cells != self.mapping.cell_range(&s.aabb) {
                return Err(Invariant(format!("proxy {} has a stale cell range", s.id)));
            }
            if counts[slot] != s.cells.cell_count() {
                return Err(Invariant(format!(
                    "proxy {} is missing from some cells",
                    s.id
                )));
            }
        }
        Ok(())
    }

    #[inline]
    fn cell_index(&self, c: [u32; 3]) -> usize {
        let [nx, ny, _] = self.mapping.resolution().map(|n| n as usize);
        (c[2] as usize * ny + c[1] as usize) * nx + c[0] as usize
    }

    fn cell_coords(&self, index: usize) -> [u32; 3] {
        let [nx, ny, _] = self.mapping.resolution().map(|n| n as usize);
        [index % nx, (index / nx) % ny, index / (nx * ny)].map(|v| v as u32)
    }

    fn attach(&mut self, slot: u32, range: &CellRange) {
        let [nx, ny, _] = self.mapping.resolution().map(|n| n as usize);
        let cells = &mut self.cells;
        range.for_each_cell(|c| {
            cells[(c[2] as usize * ny + c[1] as usize) * nx + c[0] as usize].push(slot);
        });
    }

    fn detach(&mut self, slot: u32, range: &CellRange) {
        let [nx, ny, _] = self.mapping.resolution().map(|n| n as usize);
        let cells = &mut self.cells;
        range.for_each_cell(|c| {
            let cell = &mut cells[(c[2] as usize * ny + c[1] as usize) * nx + c[0] as usize];
            if let Some(pos) = cell.iter().position(|&s| s == slot) {
                cell.swap_remove(pos);
            }
        });
    }
}

impl BroadPhase for UniformGrid {
    fn insert(&mut self, id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError> {
        check_box(id, aabb)?;
        let range = self.mapping.cell_range(aabb);
        let slot = self.slots.allocate(id, aabb, range)?;
        self.attach(slot, &range);
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError> {
        self.move_proxy(id, aabb).map(|_| ())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let slot = self.slots.lookup(id)?;
        let range = self.slots.slots[slot as usize].cells;
        self.detach(slot, &range);
        self.slots.release(slot);
        Ok(())
    }

    fn len(&self) -> usize {
        self.slots.len()
    }

    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        out.clear();
        let frame = self.slots.begin_frame();
        for o in 0..self.slots.slots.len() as u32 {
            let entry = &self.slots.slots[o as usize];
            if !entry.live {
                continue;
            }
            let range = entry.cells;
            let query = self.slots.begin_query();
            for z in range.lo[2]..=range.hi[2] {
                for y in range.lo[1]..=range.hi[1] {
                    let row = self.cell_index([0, y, z]);
                    for x in range.lo[0]..=range.hi[0] {
                        for &neighbour in &self.cells[row + x as usize] {
                            self.slots.consider(o, neighbour, query, frame, out);
                        }
                    }
                }
            }
            self.slots.finish_query(o, frame);
        }
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::boxed;

    fn grid(n: u32) -> UniformGrid {
        UniformGrid::new(&UniformGridConfig::cubic(boxed([0.0; 3], [8.0; 3]), n)).unwrap()
    }

    /// A box whose faces lie exactly on cell boundaries of an 8^3 grid with unit cells starts in
    /// the cell its min opens and ends in the cell its max opens (half-open cells); the max face
    /// of the universe belongs to the last cell; outside parts are clamped.
    #[test]
    fn boundary_boxes_take_the_cells_they_open() {
        let mut g = grid(8);
        g.insert(1, &boxed([1.0, 2.0, 3.0], [2.0, 2.0, 5.0]))
            .unwrap();
        assert_eq!(
            g.proxy_cells(1).unwrap(),
            CellRange {
                lo: [1, 2, 3],
                hi: [2, 2, 5]
            }
        );
        g.insert(2, &boxed([7.0, 8.0, -3.0], [8.0, 8.0, 20.0]))
            .unwrap();
        assert_eq!(
            g.proxy_cells(2).unwrap(),
            CellRange {
                lo: [7, 7, 0],
                hi: [7, 7, 7]
            }
        );
        g.validate().unwrap();
    }

    /// The box difference: an unchanged cell range is an early exit; a 2x2x2 box moved by one cell
    /// along x leaves 4 cells and enters 4; moved by one cell along x, y and z it keeps one cell
    /// and leaves and enters 7; a teleport leaves and enters all 8.
    #[test]
    fn moves_touch_only_the_box_difference() {
        let mut g = grid(8);
        g.insert(5, &boxed([1.5, 1.5, 1.5], [2.5, 2.5, 2.5]))
            .unwrap();
        let same = g
            .move_proxy(5, &boxed([1.1, 1.9, 1.2], [2.9, 2.1, 2.0]))
            .unwrap();
        assert_eq!(same, IndexUpdate::default());
        let step = g
            .move_proxy(5, &boxed([2.1, 1.9, 1.2], [3.9, 2.1, 2.0]))
            .unwrap();
        assert_eq!(
            step,
            IndexUpdate {
                detached: 4,
                attached: 4
            }
        );
        let diagonal = g
            .move_proxy(5, &boxed([3.1, 2.9, 2.2], [4.9, 3.1, 3.0]))
            .unwrap();
        assert_eq!(
            diagonal,
            IndexUpdate {
                detached: 7,
                attached: 7
            }
        );
        let teleport = g
            .move_proxy(5, &boxed([6.1, 6.9, 6.2], [7.9, 7.1, 7.0]))
            .unwrap();
        assert_eq!(
            teleport,
            IndexUpdate {
                detached: 8,
                attached: 8
            }
        );
        g.validate().unwrap();
    }

    /// Two boxes sharing many cells are reported once; boxes outside the universe on the same
    /// side but apart are not reported although they share the border cells.
    #[test]
    fn pairs_are_reported_once_and_only_when_boxes_overlap() {
        let mut g = grid(4);
        g.insert(9, &boxed([0.0; 3], [8.0; 3])).unwrap();
        g.insert(4, &boxed([1.0; 3], [7.0; 3])).unwrap();
        g.insert(20, &boxed([100.0, 1.0, 1.0], [101.0, 2.0, 2.0]))
            .unwrap();
        g.insert(21, &boxed([102.0, 1.0, 1.0], [103.0, 2.0, 2.0]))
            .unwrap();
        g.insert(22, &boxed([103.0, 2.0, 2.0], [104.0, 3.0, 3.0]))
            .unwrap();
        let mut pairs = Vec::new();
        g.overlapping_pairs(&mut pairs);
        assert_eq!(pairs, vec![ProxyPair(4, 9), ProxyPair(21, 22)]);
    }

    /// Zero, too many cells, and bad universes are refused.
    #[test]
    fn bad_configs_are_refused() {
        let u = boxed([0.0; 3], [1.0; 3]);
        let zero = UniformGridConfig {
            universe: u,
            resolution: [4, 0, 4],
        };
        assert_eq!(zero.check(), Err(BroadPhaseError::InvalidResolution(0)));
        assert_eq!(
            UniformGrid::new(&UniformGridConfig::cubic(u, 129)).err(),
            Some(BroadPhaseError::InvalidResolution(129 * 129 * 129))
        );
        let empty = boxed([0.0; 3], [0.0; 3]);
        assert_eq!(
            UniformGrid::new(&UniformGridConfig::cubic(empty, 4)).err(),
            Some(BroadPhaseError::InvalidUniverse)
        );
    }
}
