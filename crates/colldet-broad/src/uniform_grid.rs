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

use crate::broad_phase::BroadPhaseError;
use crate::broad_phase::BroadPhaseError::Invariant;
use crate::cell_mapping::CellMapping;
use crate::cell_range::CellRange;
use crate::index_update::IndexUpdate;
use crate::space_index::{CellStore, SpaceIndex, space_index_api};

/// Largest total number of cells a [`UniformGrid`] accepts (`128^3`); each cell costs one empty
/// vector (24 bytes) up front.
pub const MAX_GRID_CELLS: u64 = 1 << 21;

/// How to lay out a [`UniformGrid`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UniformGridConfig {
    /// The world box covered by cells (world units). Must be finite with `mins < maxs` on every
    /// axis. Boxes outside it are still handled correctly (attached to the border cells).
    pub universe: WorldAabb,
    /// Cells per axis (x, y, z), each at least 1, product at most [`MAX_GRID_CELLS`] (computed
    /// without overflow: any larger product is refused, however large).
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
        // Saturating: three `u32` factors can exceed `u64` (`2^22` per axis is `2^66`), and a
        // wrapped product (0 for that one) would pass the limit.
        let total = self
            .resolution
            .iter()
            .fold(1u64, |total, &n| total.saturating_mul(u64::from(n)));
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
    index: SpaceIndex<GridCells>,
}

/// The grid's cells: the slot indices of cell `[x, y, z]` at `(z * ny + y) * nx + x`.
#[derive(Clone, Debug)]
struct GridCells {
    nx: usize,
    ny: usize,
    arrays: Vec<Vec<u32>>,
}

impl GridCells {
    #[inline]
    fn index(nx: usize, ny: usize, c: [u32; 3]) -> usize {
        (c[2] as usize * ny + c[1] as usize) * nx + c[0] as usize
    }

    fn coords(&self, index: usize) -> [u32; 3] {
        let (nx, ny) = (self.nx, self.ny);
        [index % nx, (index / nx) % ny, index / (nx * ny)].map(|v| v as u32)
    }

    /// Calls `f` with the array of every cell of `range`, x fastest, then y, then z.
    #[inline]
    fn for_each_array(&mut self, range: &CellRange, mut f: impl FnMut(&mut Vec<u32>)) {
        let (nx, ny) = (self.nx, self.ny);
        range.for_each_cell(|c| f(&mut self.arrays[Self::index(nx, ny, c)]));
    }
}

impl CellStore for GridCells {
    type Extra = ();

    fn attach(&mut self, slot: u32, range: &CellRange, _: &mut ()) {
        self.for_each_array(range, |cell| cell.push(slot));
    }

    fn detach(&mut self, slot: u32, range: &CellRange, _: &mut ()) {
        self.for_each_array(range, |cell| {
            if let Some(pos) = cell.iter().position(|&s| s == slot) {
                cell.swap_remove(pos);
            }
        });
    }

    fn move_slot(
        &mut self,
        slot: u32,
        old: &CellRange,
        new: &CellRange,
        _: &mut (),
    ) -> IndexUpdate {
        let mut change = IndexUpdate::default();
        for slab in old.difference(new).as_slice() {
            change.detached += slab.cell_count();
            self.detach(slot, slab, &mut ());
        }
        for slab in new.difference(old).as_slice() {
            change.attached += slab.cell_count();
            self.attach(slot, slab, &mut ());
        }
        change
    }

    #[inline]
    fn for_each_candidate(&self, range: &CellRange, mut visit: impl FnMut(u32)) {
        for z in range.lo[2]..=range.hi[2] {
            for y in range.lo[1]..=range.hi[1] {
                let row = Self::index(self.nx, self.ny, [0, y, z]);
                for x in range.lo[0]..=range.hi[0] {
                    for &slot in &self.arrays[row + x as usize] {
                        visit(slot);
                    }
                }
            }
        }
    }
}

impl UniformGrid {
    /// An empty grid.
    ///
    /// # Errors
    /// As [`UniformGridConfig::check`].
    pub fn new(config: &UniformGridConfig) -> Result<Self, BroadPhaseError> {
        let mapping = config.mapping()?;
        let [nx, ny, nz] = config.resolution.map(|n| n as usize);
        let cells = GridCells {
            nx,
            ny,
            arrays: vec![Vec::new(); nx * ny * nz],
        };
        Ok(Self {
            index: SpaceIndex::new(mapping, cells),
        })
    }

    /// Cells per axis.
    pub fn resolution(&self) -> [u32; 3] {
        self.index.mapping.resolution()
    }

    /// Checks the cell arrays against the proxies: every proxy is in exactly the cells of its
    /// range (computed afresh from its box), once each, and cells hold nothing else.
    ///
    /// # Errors
    /// [`BroadPhaseError::Invariant`] describing the first inconsistency found.
    pub fn validate(&self) -> Result<(), BroadPhaseError> {
        let SpaceIndex { store, slots, .. } = &self.index;
        slots.validate()?;
        let mut counts = vec![0u64; slots.slots.len()];
        for (index, cell) in store.arrays.iter().enumerate() {
            let coords = store.coords(index);
            let mut sorted = cell.clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                return Err(Invariant(format!("cell {coords:?} holds a slot twice")));
            }
            for &slot in cell {
                let s = &slots.slots[slot as usize];
                if !s.live || !s.cells.contains_cell(coords) {
                    return Err(Invariant(format!(
                        "cell {coords:?} holds slot {slot} outside its range"
                    )));
                }
                counts[slot as usize] += 1;
            }
        }
        for (slot, s) in slots.slots.iter().enumerate() {
            if !s.live {
                continue;
            }
            self.index.check_cell_range(s)?;
            if counts[slot] != s.cells.cell_count() {
                return Err(Invariant(format!(
                    "proxy {} is missing from some cells",
                    s.id
                )));
            }
        }
        Ok(())
    }
}

space_index_api!(UniformGrid);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::boxed;
    use crate::{BroadPhase, ProxyPair};

    fn grid(n: u32) -> UniformGrid {
        UniformGrid::new(&UniformGridConfig::cubic(boxed([0.0; 3], [8.0; 3]), n)).unwrap()
    }

    /// A box whose faces lie exactly on cell boundaries of an 8^3 grid with unit cells starts in
    /// the cell its min opens and ends in the cell its max opens (half-open cells); the max face
    /// of the universe belongs to the last cell; outside parts are clamped.
    #[test]
    fn boundary_boxes_take_the_cells_they_open() {
        let mut g = grid(8);
        // (box, first cell, last cell): on cell boundaries; partly outside the universe.
        let cases = [
            (
                boxed([1.0, 2.0, 3.0], [2.0, 2.0, 5.0]),
                [1, 2, 3],
                [2, 2, 5],
            ),
            (
                boxed([7.0, 8.0, -3.0], [8.0, 8.0, 20.0]),
                [7, 7, 0],
                [7, 7, 7],
            ),
        ];
        for (id, (b, lo, hi)) in (1..).zip(cases) {
            g.insert(id, &b).unwrap();
            assert_eq!(g.proxy_cells(id).unwrap(), CellRange { lo, hi }, "{b:?}");
        }
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
        // (new box, cells left = cells entered): same range, one step, diagonal, teleport.
        let moves = [
            (boxed([1.1, 1.9, 1.2], [2.9, 2.1, 2.0]), 0),
            (boxed([2.1, 1.9, 1.2], [3.9, 2.1, 2.0]), 4),
            (boxed([3.1, 2.9, 2.2], [4.9, 3.1, 3.0]), 7),
            (boxed([6.1, 6.9, 6.2], [7.9, 7.1, 7.0]), 8),
        ];
        for (b, cells) in moves {
            let expected = IndexUpdate {
                detached: cells,
                attached: cells,
            };
            assert_eq!(g.move_proxy(5, &b).unwrap(), expected, "{b:?}");
        }
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
        // The largest cubic grid is accepted, one more cell per axis is not; products beyond
        // `u64` (2^66 for 2^22 per axis, which wrapped to 0) and the largest axes saturate.
        assert_eq!(UniformGridConfig::cubic(u, 128).check(), Ok(()));
        for (n, total) in [
            (1 << 22, u64::MAX),
            (3 << 22, u64::MAX),
            (u32::MAX, u64::MAX),
            (1 << 21, 1 << 63),
        ] {
            assert_eq!(
                UniformGridConfig::cubic(u, n).check(),
                Err(BroadPhaseError::InvalidResolution(total)),
                "{n}"
            );
        }
        let long = UniformGridConfig {
            universe: u,
            resolution: [MAX_GRID_CELLS as u32, 1, 1],
        };
        assert_eq!(long.check(), Ok(()));
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
