//! The batch pair search of sweep and prune: every overlapping pair of a set of boxes from
//! scratch, in O(n + k + c) plus the sorts of small columns, where `k` is the number of pairs and
//! `c` the number of candidates the sweeps test.
//!
//! Rationale: one sweep along one axis tests every pair overlapping on that axis; with 10^5 boxes
//! in a cube that is ~2% of all pairs, 10^8 candidates for 7 * 10^4 overlaps. So the sweep runs
//! per *column* of a coarse 2D grid across the other two axes:
//! - The sweep axis `s` is the axis of largest spread; the columns cut the other two axes `u`, `v`
//!   into cells about [`CELL_SCALE`] mean box extents wide (coarser when there would be more
//!   columns than half the boxes, or when boxes would be copied into more than
//!   [`MAX_ENTRIES_PER_BOX`] columns on average). A box enters every column its `u`-`v` extent
//!   touches.
//! - Boxes are copied into their columns in input order (sequential reads; the copy carries
//!   everything the sweep needs, so a column is one contiguous block), then each column is sorted
//!   by a `u32` key of the `s`-min. The key is a monotone quantisation of the coordinate
//!   (`floor((x - lo) * scale)`), so `a <= b` implies `key(a) <= key(b)`.
//! - In a column, box `i` is tested against the boxes after it until the first whose min key
//!   exceeds `i`'s max key: every later box `j` then has `key(min_j) > key(max_i)`, hence
//!   `min_j > max_i`. Candidates get the exact closed test on all three axes in `f64`, so the
//!   quantisation only costs a few extra candidates, never a wrong answer.
//! - A pair overlapping in several columns is reported once: in the column holding the point
//!   `(max(u-min), max(v-min))` of the two boxes, which lies in both boxes' `u`-`v` extents and in
//!   exactly one cell. Cell coordinates are monotone in the coordinate, so that column is
//!   `(max(cell_u(u-min)), max(cell_v(v-min)))` of the two boxes' first cells.
//!
//! Degenerate inputs (every box in one place, a few huge boxes, far outliers) only make the grid
//! coarser; the worst case is a single column, the plain one-axis sweep.

use colldet_geom::WorldAabb;

use crate::pair_set::pack;

/// Cell width in mean box extents along the cut axes: about two boxes copied per box, and a few
/// candidates per box.
pub(crate) const CELL_SCALE: f64 = 2.0;

/// Largest mean number of columns a box may enter before the grid is made coarser.
pub(crate) const MAX_ENTRIES_PER_BOX: usize = 4;

/// Most cells along one cut axis (cell numbers are stored as `u16`).
const MAX_CELLS_PER_AXIS: usize = 1 << 12;

/// One box in one column: the box in the sweep's frame (`[s-min, s-max, u-min, u-max, v-min,
/// v-max]`), its quantised `s` bounds, its first cell along `u` and `v`, and its slot. Exactly
/// one cache line, so that filling the columns writes one line per entry.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Entry {
    bounds: [f64; 6],
    keys: [u32; 2],
    first_cell: [u16; 2],
    slot: u32,
}

/// Scratch memory of the batch search, reused between calls (no allocation once warm).
#[derive(Clone, Debug, Default)]
pub(crate) struct ColumnSweep {
    /// First and last cell along `u` and `v` of each input box.
    cells: Vec<[u32; 4]>,
    /// Start of each column's entries (one more than the column count).
    column_start: Vec<u32>,
    /// Entries, column after column, in input order within a column.
    entries: Vec<Entry>,
    /// Per column, `s`-min key `<< 32 |` index in the column, sorted within each column.
    order: Vec<u64>,
    /// Spread of the last input along each world axis (0 for fewer than one box).
    spread: [f64; 3],
    /// Candidates the last search tested exactly.
    candidates: u64,
    /// Columns of the last search.
    columns: usize,
}

/// Maps a coordinate to a cell along one axis: monotone, clamped to `0..count`.
#[derive(Clone, Copy, Debug)]
struct AxisCells {
    lo: f64,
    inv_width: f64,
    count: usize,
}

impl AxisCells {
    fn new(lo: f64, spread: f64, count: usize) -> Self {
        let inv_width = if spread > 0.0 {
            count as f64 / spread
        } else {
            0.0
        };
        Self {
            lo,
            inv_width,
            count,
        }
    }

    #[inline]
    fn cell(&self, x: f64) -> u32 {
        // `as usize` saturates (negative rounding noise maps to 0).
        (((x - self.lo) * self.inv_width) as usize).min(self.count - 1) as u32
    }
}

impl ColumnSweep {
    /// Spread of the last input along each world axis.
    pub(crate) fn spread(&self) -> [f64; 3] {
        self.spread
    }

    /// Candidates the last search tested exactly.
    pub(crate) fn candidates(&self) -> u64 {
        self.candidates
    }

    /// Columns of the last search.
    pub(crate) fn columns(&self) -> usize {
        self.columns
    }

    /// Replaces `out` with the packed slot pairs (see [`pack`]) of every two boxes among
    /// `boxes[slot]`, `slot` in `slots`, that overlap (closed), each pair once, in no particular
    /// order. `slots` holds no duplicates and the boxes are finite with `mins <= maxs`.
    pub(crate) fn find_pairs(&mut self, boxes: &[WorldAabb], slots: &[u32], out: &mut Vec<u64>) {
        out.clear();
        self.candidates = 0;
        self.columns = 0;
        let n = slots.len();
        let (mut lo, mut hi, mut extent) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3], [0.0; 3]);
        for &slot in slots {
            let b = &boxes[slot as usize];
            for k in 0..3 {
                lo[k] = lo[k].min(b.mins[k]);
                hi[k] = hi[k].max(b.maxs[k]);
                extent[k] += b.maxs[k] - b.mins[k];
            }
        }
        self.spread = std::array::from_fn(|k| if n == 0 { 0.0 } else { hi[k] - lo[k] });
        if n < 2 {
            return;
        }
        let spread = self.spread;
        let s = (0..3)
            .max_by(|&a, &b| spread[a].total_cmp(&spread[b]).then(b.cmp(&a)))
            .unwrap_or(0);
        let (u, v) = ((s + 1) % 3, (s + 2) % 3);
        let (mut cu, mut cv) = (
            cells_along(spread[u], extent[u] / n as f64),
            cells_along(spread[v], extent[v] / n as f64),
        );
        while cu * cv > (n / 2).max(1) {
            if cu >= cv {
                cu = cu.div_ceil(2);
            } else {
                cv = cv.div_ceil(2);
            }
        }
        loop {
            let (axis_u, axis_v) = (
                AxisCells::new(lo[u], spread[u], cu),
                AxisCells::new(lo[v], spread[v], cv),
            );
            let mut entries = 0usize;
            self.cells.clear();
            for &slot in slots {
                let b = &boxes[slot as usize];
                let cells = [
                    axis_u.cell(b.mins[u]),
                    axis_u.cell(b.maxs[u]),
                    axis_v.cell(b.mins[v]),
                    axis_v.cell(b.maxs[v]),
                ];
                entries += (cells[1] - cells[0] + 1) as usize * (cells[3] - cells[2] + 1) as usize;
                self.cells.push(cells);
            }
            if entries <= MAX_ENTRIES_PER_BOX * n || cu * cv == 1 {
                break;
            }
            (cu, cv) = (cu.div_ceil(2), cv.div_ceil(2));
        }
        self.columns = cu * cv;
        let key_scale = if spread[s] > 0.0 {
            4_294_967_040.0 / spread[s]
        } else {
            0.0
        };
        let key = |x: f64| ((x - lo[s]) * key_scale) as u32;
        self.fill_columns(cu, boxes, slots, [s, u, v], key);
        self.sort_columns();
        self.sweep_columns(cu, out);
    }

    /// Copies every box into the columns it touches, in input order.
    fn fill_columns(
        &mut self,
        cu: usize,
        boxes: &[WorldAabb],
        slots: &[u32],
        [s, u, v]: [usize; 3],
        key: impl Fn(f64) -> u32,
    ) {
        let columns = self.columns;
        self.column_start.clear();
        self.column_start.resize(columns + 1, 0);
        for c in &self.cells {
            for row in c[2]..=c[3] {
                let base = row as usize * cu;
                for col in c[0]..=c[1] {
                    self.column_start[base + col as usize + 1] += 1;
                }
            }
        }
        for i in 1..=columns {
            self.column_start[i] += self.column_start[i - 1];
        }
        let total = self.column_start[columns] as usize;
        self.entries.resize(total, Entry::default());
        self.order.resize(total, 0);
        // `column_start[c]` serves as column c's cursor, then is restored by one shift.
        for (&slot, c) in slots.iter().zip(&self.cells) {
            let b = &boxes[slot as usize];
            let entry = Entry {
                bounds: [
                    b.mins[s], b.maxs[s], b.mins[u], b.maxs[u], b.mins[v], b.maxs[v],
                ],
                keys: [key(b.mins[s]), key(b.maxs[s])],
                // Cells fit: at most MAX_CELLS_PER_AXIS <= 2^16 per axis.
                first_cell: [c[0] as u16, c[2] as u16],
                slot,
            };
            for row in c[2]..=c[3] {
                let base = row as usize * cu;
                for col in c[0]..=c[1] {
                    let cursor = &mut self.column_start[base + col as usize];
                    self.entries[*cursor as usize] = entry;
                    *cursor += 1;
                }
            }
        }
        for i in (1..=columns).rev() {
            self.column_start[i] = self.column_start[i - 1];
        }
        self.column_start[0] = 0;
    }

    /// Sorts each column's entries by `s`-min key (through `order`).
    fn sort_columns(&mut self) {
        for column in self.column_start.windows(2) {
            let (first, end) = (column[0] as usize, column[1] as usize);
            let order = &mut self.order[first..end];
            for (local, (o, e)) in order.iter_mut().zip(&self.entries[first..end]).enumerate() {
                *o = (u64::from(e.keys[0]) << 32) | local as u64;
            }
            order.sort_unstable();
        }
    }

    /// Sweeps every column, appending the pairs whose reference column it is.
    fn sweep_columns(&mut self, cu: usize, out: &mut Vec<u64>) {
        let mut candidates = 0u64;
        for (column, range) in self.column_start.windows(2).enumerate() {
            let (first, end) = (range[0] as usize, range[1] as usize);
            if end - first < 2 {
                continue;
            }
            let (col, row) = ((column % cu) as u16, (column / cu) as u16);
            let entries = &self.entries[first..end];
            let order = &self.order[first..end];
            for (a, &oa) in order.iter().enumerate() {
                let ei = &entries[oa as u32 as usize];
                let kmax = u64::from(ei.keys[1]);
                let bi = &ei.bounds;
                let mut b = a + 1;
                while b < order.len() && order[b] >> 32 <= kmax {
                    let ej = &entries[order[b] as u32 as usize];
                    let bj = &ej.bounds;
                    let overlap = (bi[0] <= bj[1])
                        & (bj[0] <= bi[1])
                        & (bi[2] <= bj[3])
                        & (bj[2] <= bi[3])
                        & (bi[4] <= bj[5])
                        & (bj[4] <= bi[5]);
                    let here = (ei.first_cell[0].max(ej.first_cell[0]) == col)
                        & (ei.first_cell[1].max(ej.first_cell[1]) == row);
                    if overlap & here {
                        out.push(pack(ei.slot, ej.slot));
                    }
                    b += 1;
                }
                candidates += (b - a - 1) as u64;
            }
        }
        self.candidates = candidates;
    }
}

/// Cells along an axis of `spread` for boxes of mean extent `mean_extent`.
fn cells_along(spread: f64, mean_extent: f64) -> usize {
    let width = CELL_SCALE * mean_extent;
    if spread <= 0.0 {
        return 1;
    }
    if width <= 0.0 {
        return MAX_CELLS_PER_AXIS;
    }
    ((spread / width) as usize).clamp(1, MAX_CELLS_PER_AXIS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pair_set::unpack;
    use colldet_geom::math::PointD;

    fn brute_force(boxes: &[WorldAabb], slots: &[u32]) -> Vec<u64> {
        let mut pairs = Vec::new();
        for (i, &a) in slots.iter().enumerate() {
            for &b in &slots[i + 1..] {
                if boxes[a as usize].overlaps(&boxes[b as usize]) {
                    pairs.push(pack(a, b));
                }
            }
        }
        pairs.sort_unstable();
        pairs
    }

    fn search(sweep: &mut ColumnSweep, boxes: &[WorldAabb], slots: &[u32]) -> Vec<u64> {
        let mut out = Vec::new();
        sweep.find_pairs(boxes, slots, &mut out);
        let unsorted = out.len();
        out.sort_unstable();
        out.dedup();
        assert_eq!(out.len(), unsorted, "a pair was reported twice");
        out
    }

    /// A box on a lattice of step 0.5 (touching faces are frequent), possibly flat.
    fn lattice_box(state: &mut u64, side: u64, max_half: u64) -> WorldAabb {
        let mut next = |m: u64| {
            *state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (*state >> 33) % m
        };
        let c: [f64; 3] = std::array::from_fn(|_| next(side) as f64 * 0.5);
        let h: [f64; 3] = std::array::from_fn(|_| next(max_half + 1) as f64 * 0.5);
        WorldAabb::new(
            PointD::new(c[0] - h[0], c[1] - h[1], c[2] - h[2]),
            PointD::new(c[0] + h[0], c[1] + h[1], c[2] + h[2]),
        )
    }

    #[test]
    fn matches_brute_force_on_lattice_boxes() {
        let mut state = 11;
        let mut sweep = ColumnSweep::default();
        for (n, side, max_half) in [
            (0, 10, 2),
            (1, 10, 2),
            (2, 1, 0),
            (300, 40, 3),
            (2000, 120, 2),
            (500, 8, 4),
        ] {
            let boxes: Vec<WorldAabb> = (0..n)
                .map(|_| lattice_box(&mut state, side, max_half))
                .collect();
            // Every other slot, so slots and ranks differ.
            let slots: Vec<u32> = (0..n as u32).filter(|s| s % 3 != 1).collect();
            let got = search(&mut sweep, &boxes, &slots);
            assert_eq!(got, brute_force(&boxes, &slots), "{n} boxes");
            if n >= 2000 {
                assert!(sweep.columns() > 16, "{} columns", sweep.columns());
            }
        }
    }

    #[test]
    fn huge_boxes_outliers_and_points() {
        let mut state = 5;
        let mut boxes: Vec<WorldAabb> = (0..1500).map(|_| lattice_box(&mut state, 80, 2)).collect();
        // Boxes spanning everything, a far outlier, and points on shared faces.
        boxes.push(WorldAabb::new(
            PointD::new(-1.0, -1.0, -1.0),
            PointD::new(50.0, 50.0, 50.0),
        ));
        boxes.push(WorldAabb::new(
            PointD::new(10.0, -5.0, 3.0),
            PointD::new(11.0, 60.0, 3.5),
        ));
        boxes.push(WorldAabb::new(
            PointD::new(1e7, 1e7, 0.0),
            PointD::new(1e7 + 1.0, 1e7, 1.0),
        ));
        boxes.push(WorldAabb::new(
            PointD::new(5.0, 5.0, 5.0),
            PointD::new(5.0, 5.0, 5.0),
        ));
        boxes.push(WorldAabb::new(
            PointD::new(5.0, 5.0, 5.0),
            PointD::new(5.0, 5.0, 5.0),
        ));
        let slots: Vec<u32> = (0..boxes.len() as u32).collect();
        let mut sweep = ColumnSweep::default();
        let got = search(&mut sweep, &boxes, &slots);
        let expected = brute_force(&boxes, &slots);
        assert_eq!(got, expected);
        assert!(expected.iter().any(|&k| unpack(k) == (1503, 1504)));
        // Everything in one place: one column, every pair.
        let same = vec![WorldAabb::new(PointD::new(1.0, 2.0, 3.0), PointD::new(1.0, 2.0, 3.0)); 40];
        let slots: Vec<u32> = (0..40).collect();
        assert_eq!(search(&mut sweep, &same, &slots).len(), 40 * 39 / 2);
        assert_eq!(sweep.columns(), 1);
    }
}
