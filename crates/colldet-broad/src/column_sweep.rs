//! The batch pair search of sweep and prune: every overlapping pair of a set of boxes from
//! scratch, in O(n + k + c) on spread-out inputs (counting scatters, and insertion sorts that
//! only reorder entries sharing a bucket), where `k` is the number of pairs and `c` the number of
//! candidates the sweeps test.
//!
//! Rationale: one sweep along one axis tests every pair overlapping on that axis; with 10^5 boxes
//! in a cube that is orders of magnitude more candidates than overlapping pairs. So the sweep
//! runs per *column* of a coarse 2D grid across the other two axes:
//! - The sweep axis `s` is the axis of largest spread; the columns cut the other two axes `u`, `v`
//!   into cells about [`CELL_SCALE`] mean box extents wide (coarser when there would be more
//!   columns than half the boxes, or when boxes would be copied into more than
//!   [`MAX_ENTRIES_PER_BOX`] columns on average). A box enters every column its `u`-`v` extent
//!   touches.
//! - Each box is condensed into a 32-byte [`Entry`]: its bounds in the sweep's frame as `f32`
//!   rounded *outward* (mins down, maxs up, so the `f32` box contains the `f64` one), its first
//!   cell along `u` and `v`, and its slot. Cells are computed from these `f32` bounds in `f32`
//!   arithmetic (monotone, and the same values everywhere, so every step below agrees on them).
//! - The entries are grouped (reading them in order, a counting scatter) into row *bands* (a few
//!   rows of columns, sized so that a band's entries stay in the L2 cache); a record is the
//!   32-byte entry plus its last cells in a parallel array. Band by band, the records are copied
//!   into the band's columns by a counting scatter keyed by column and by a bucket of `s`-min
//!   (about one entry per bucket; the bucket is monotone in `s`-min): a column is one contiguous
//!   block, sorted but within buckets, which an insertion sort then fixes in about one pass (a
//!   column with a crowded bucket, as clustered inputs make, takes a comparison sort). All the
//!   random accesses stay in cache.
//! - In a column, box `i` is tested against the boxes after it, a block of [`LANES`] at a time
//!   without branches, until a block reaches a box whose `s`-min exceeds `i`'s `s`-max: every
//!   later box `j` then has `min_j > max_i`. The `f32` test on `u` and `v` is conservative
//!   (outward rounding only adds candidates). The hits are buffered and decided afterwards.
//! - A candidate passing the `f32` test is decided without the `f64` boxes when it overlaps by a
//!   margin `d` on every axis (`lo_a + d <= hi_b` in `f32`), with `d = 2^-18 M + 2^-130` for the
//!   largest magnitude `M` of the input on that axis: the outward rounding moves a bound by at
//!   most 5 `f32` steps at `M` (`5 * 2^-23 M`, plus `2^-140` near zero), and the `f32` addition
//!   rounds by at most one step, so the `f32` inequality with margin (about 3 times the 11 steps
//!   needed) implies `lo_a <= hi_b` in `f64`. Otherwise (boxes touching or within a few `f32`
//!   steps of it) the exact closed test runs on the `f64` boxes. The answer is exact.
//! - A pair overlapping in several columns is reported once: in the column holding the point
//!   `(max(u-min), max(v-min))` of the two `f32` boxes, which lies in both boxes' `u`-`v` extents
//!   and in exactly one cell. Cell coordinates are monotone in the coordinate, so that column is
//!   `(max(cell_u(u-min)), max(cell_v(v-min)))` of the two boxes' first cells. Both first cells
//!   are at most those of any column holding both boxes, so that is the column where, along each
//!   axis, one of the two boxes starts: each column copy carries those two flags.
//! - Parallel mode: the per-box passes run in chunks on the pool; the input is cut into
//!   [`PIECES_PER_THREAD`] slices per thread, each grouped by band, then each piece sweeps its
//!   own run of consecutive bands, gathering each band's records from every slice (in slice
//!   order, so a band's records are in input order whatever the thread count), with its own
//!   scratch and pair list; the lists are concatenated in piece order. Work stealing spreads the
//!   pieces, so a thread slowed down by another process on its core does not hold the others
//!   up. The set found is the same whatever the thread count (callers sort it).
//!
//! Degenerate inputs (every box in one place, a few huge boxes, far outliers) only make the grid
//! coarser; the worst case is a single column, the plain one-axis sweep.

use colldet_geom::WorldAabb;
use rayon::prelude::*;

use crate::pair_set::pack;

/// Cell width in mean box extents along the cut axes, chosen on the `broad_phase` bench:
/// narrower cells copy boxes into more columns, which costs more than the branch-free candidate
/// tests they save.
pub(crate) const CELL_SCALE: f64 = 4.0;

/// Largest mean number of columns a box may enter before the grid is made coarser.
pub(crate) const MAX_ENTRIES_PER_BOX: usize = 4;

/// Most cells along one cut axis (cell numbers are stored as `u16`).
const MAX_CELLS_PER_AXIS: usize = 1 << 12;

/// Target entries per band: 256 KiB of entries, well inside a 1 MiB L2 cache.
const BAND_ENTRIES: usize = 8192;

/// Buckets along `s` per column entry (on average over the columns): a bucket holds about one
/// entry, so sorting within buckets costs little.
const BUCKETS_PER_ENTRY: usize = 1;

/// Largest bucket for which a column is sorted by insertion sort (a column with a larger one,
/// from clustered inputs, by comparison sort).
const INSERTION_MAX: usize = 16;

/// Pieces of the input (slices grouped by band, then runs of bands) per pool thread.
const PIECES_PER_THREAD: usize = 4;

/// Fewest boxes for which the parallel mode splits the work (below, threads cost more).
const PARALLEL_MIN_BOXES: usize = 4096;

/// One box in one column: `lo`, `hi` are the box's bounds along `[s, u, v]` in `f32`, rounded
/// outward; `first_cell` its first cell along `u` and `v`; `slot` its index in the caller's box
/// table. Half a cache line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
struct Entry {
    lo: [f32; 3],
    hi: [f32; 3],
    first_cell: [u16; 2],
    slot: u32,
}

/// An [`Entry`] copied into one column: `flags` bit 0 is set when the column is the entry's
/// first along `u`, bit 1 when it is its first along `v`. Half a cache line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
struct ColumnEntry {
    lo: [f32; 3],
    hi: [f32; 3],
    flags: u32,
    slot: u32,
}

/// `2^-140`, a subnormal `f32` far above the smallest (`2^-149`).
const TINY: f32 = f32::from_bits(1 << 9);

/// An `f32` below `x` by 1 to 5 `f32` steps plus at most `2^-140` (finite `x`; `-inf` below the `f32` range), without
/// branches: `f`, the nearest `f32` to `x` clamped to the finite range, is within half a step
/// `q` of `x`, and `f - (2^-22 |f| + 2^-140)` is below `f` by 2 to 4 steps before rounding, at
/// least `1.5q` after.
#[inline]
pub(crate) fn round_down(x: f64) -> f32 {
    let f = x.clamp(-f64::from(f32::MAX), f64::from(f32::MAX)) as f32;
    f - (f.abs() * (1.0 / 4_194_304.0) + TINY)
}

/// An `f32` above `x` by 1 to 5 `f32` steps plus at most `2^-140` (finite `x`; `+inf` above the `f32` range); see
/// [`round_down`].
#[inline]
pub(crate) fn round_up(x: f64) -> f32 {
    let f = x.clamp(-f64::from(f32::MAX), f64::from(f32::MAX)) as f32;
    f + (f.abs() * (1.0 / 4_194_304.0) + TINY)
}

/// Maps a coordinate to a cell along one axis: monotone, clamped to `0..count`.
#[derive(Clone, Copy, Debug)]
struct AxisCells {
    lo: f32,
    inv_width: f32,
    last: u32,
}

impl AxisCells {
    fn new(lo: f64, spread: f64, count: usize) -> Self {
        let inv_width = if spread > 0.0 {
            (count as f64 / spread) as f32
        } else {
            0.0
        };
        Self {
            lo: lo as f32,
            inv_width,
            last: count as u32 - 1,
        }
    }

    /// Cells along this axis.
    #[inline]
    fn count(&self) -> usize {
        self.last as usize + 1
    }

    /// In `f32` arithmetic, which is monotone (rounding is), as the cells need.
    #[inline]
    fn cell(&self, x: f32) -> usize {
        // `as u32` saturates (coordinates below `lo`, and NaN from `-inf * 0`, map to 0).
        (((x - self.lo) * self.inv_width) as u32).min(self.last) as usize
    }
}

/// The grid of one search: cells along `u` and `v`, and the margin that decides a candidate in
/// `f32` (see the module docs), per sweep-frame axis.
#[derive(Clone, Copy, Debug)]
struct Grid {
    u: AxisCells,
    v: AxisCells,
    /// Buckets along `s` of every column (see [`ColumnScratch::sweep_band`]).
    s: AxisCells,
    margin: [f32; 3],
}

impl Grid {
    /// First and last cell along `u`, then along `v`, of an entry.
    #[inline]
    fn cells(&self, e: &Entry) -> [u16; 4] {
        // Fit: at most MAX_CELLS_PER_AXIS <= 2^16 cells per axis.
        [
            self.u.cell(e.lo[1]) as u16,
            self.u.cell(e.hi[1]) as u16,
            self.v.cell(e.lo[2]) as u16,
            self.v.cell(e.hi[2]) as u16,
        ]
    }
}

/// The columns an entry with `cells` enters: `(u - u + 1) * (v - v + 1)`.
#[inline]
fn column_count(c: &[u16; 4]) -> usize {
    usize::from(c[1] - c[0] + 1) * usize::from(c[3] - c[2] + 1)
}

/// The records of one slice of the input (one per thread), grouped by band: each record of a
/// box is its entry (with its first cells) and its last cell along `u` and `v`.
#[derive(Clone, Debug, Default)]
struct BandedChunk {
    /// Start of each band's records (one more than the bands).
    band_start: Vec<u32>,
    cursor: Vec<u32>,
    records: Vec<Entry>,
    last_cells: Vec<[u16; 2]>,
}

impl BandedChunk {
    /// Groups the entries `condensed` (with cells `cells`) by band, every band a box's rows
    /// touch getting a copy, in input order within a band (a counting scatter).
    fn fill(&mut self, condensed: &[Entry], cells: &[[u16; 4]], band_of_row: &[u32], bands: usize) {
        self.band_start.clear();
        self.band_start.resize(bands + 1, 0);
        let band_range = |c: &[u16; 4]| {
            band_of_row[usize::from(c[2])] as usize..band_of_row[usize::from(c[3])] as usize + 1
        };
        for c in cells {
            for band in band_range(c) {
                self.band_start[band + 1] += 1;
            }
        }
        for b in 1..=bands {
            self.band_start[b] += self.band_start[b - 1];
        }
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.band_start[..bands]);
        let total = self.band_start[bands] as usize;
        self.records.resize(total, Entry::default());
        self.last_cells.resize(total, [0; 2]);
        for (e, c) in condensed.iter().zip(cells) {
            for band in band_range(c) {
                let at = self.cursor[band] as usize;
                self.records[at] = *e;
                self.last_cells[at] = [c[1], c[3]];
                self.cursor[band] = at as u32 + 1;
            }
        }
    }

    /// The records of `band`.
    fn band(&self, band: usize) -> (&[Entry], &[[u16; 2]]) {
        let range = self.band_start[band] as usize..self.band_start[band + 1] as usize;
        (&self.records[range.clone()], &self.last_cells[range])
    }
}

/// Scratch memory of the batch search, reused between calls (no allocation once warm).
#[derive(Clone, Debug, Default)]
pub(crate) struct ColumnSweep {
    /// The condensed entry of each input box (input order; `first_cell` set by the grid choice).
    condensed: Vec<Entry>,
    /// The cells of each input box (see [`Grid::cells`]).
    cells: Vec<[u16; 4]>,
    /// The band of each row of columns.
    band_of_row: Vec<u32>,
    /// The records of each thread's slice of the input, by band.
    chunks: Vec<BandedChunk>,
    workers: Vec<BandWorker>,
    /// Spread of the last input along each world axis (0 for fewer than one box).
    spread: [f64; 3],
    /// Candidates the last search tested.
    candidates: u64,
    /// Columns of the last search.
    columns: usize,
    /// The bounds of each chunk of the input (see [`ChunkBounds`]).
    chunk_bounds: Vec<ChunkBounds>,
}

/// The bounds of a chunk of the input boxes: smallest min and largest max per axis, and the sum
/// of the extents per axis.
#[derive(Clone, Copy, Debug)]
struct ChunkBounds {
    lo: [f64; 3],
    hi: [f64; 3],
    extent: [f64; 3],
}

impl Default for ChunkBounds {
    fn default() -> Self {
        Self {
            lo: [f64::INFINITY; 3],
            hi: [f64::NEG_INFINITY; 3],
            extent: [0.0; 3],
        }
    }
}

/// Input boxes per parallel chunk of the per-box passes.
const CHUNK: usize = 4096;

impl ColumnSweep {
    /// Spread of the last input along each world axis.
    pub(crate) fn spread(&self) -> [f64; 3] {
        self.spread
    }

    /// Candidates the last search tested.
    pub(crate) fn candidates(&self) -> u64 {
        self.candidates
    }

    /// Columns of the last search.
    pub(crate) fn columns(&self) -> usize {
        self.columns
    }

    /// Replaces `out` with the packed slot pairs (see [`pack`]) of every two boxes among
    /// `boxes[slot]`, `slot` in `slots`, that overlap (closed), each pair once, in no particular
    /// order. `slots` holds no duplicates and the boxes are finite with `mins <= maxs`. With a
    /// `pool`, large inputs are searched on its threads; the set found is the same.
    pub(crate) fn find_pairs(
        &mut self,
        boxes: &[WorldAabb],
        slots: &[u32],
        pool: Option<&rayon::ThreadPool>,
        out: &mut Vec<u64>,
    ) {
        out.clear();
        self.candidates = 0;
        self.columns = 0;
        let n = slots.len();
        let pool = pool.filter(|p| n >= PARALLEL_MIN_BOXES && p.current_num_threads() > 1);
        // Summed per chunk of `CHUNK` boxes, then over the chunks in order, on the pool or not:
        // the same extents (and so the same grid) at any thread count.
        let chunk_bounds = |chunk: &[u32]| {
            let mut b = ChunkBounds::default();
            for &slot in chunk {
                let aabb = &boxes[slot as usize];
                for k in 0..3 {
                    b.lo[k] = b.lo[k].min(aabb.mins[k]);
                    b.hi[k] = b.hi[k].max(aabb.maxs[k]);
                    b.extent[k] += aabb.maxs[k] - aabb.mins[k];
                }
            }
            b
        };
        match pool {
            Some(pool) => pool.install(|| {
                slots
                    .par_chunks(CHUNK)
                    .map(chunk_bounds)
                    .collect_into_vec(&mut self.chunk_bounds);
            }),
            None => {
                self.chunk_bounds.clear();
                self.chunk_bounds
                    .extend(slots.chunks(CHUNK).map(chunk_bounds));
            }
        }
        let (mut lo, mut hi, mut extent) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3], [0.0; 3]);
        for b in &self.chunk_bounds {
            for k in 0..3 {
                lo[k] = lo[k].min(b.lo[k]);
                hi[k] = hi[k].max(b.hi[k]);
                extent[k] += b.extent[k];
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
        let axes = [s, (s + 1) % 3, (s + 2) % 3];
        // More pieces than threads, so that work stealing evens out a thread slowed down by
        // another process on its core (one piece per thread left that thread's share waiting).
        let threads = pool.map_or(1, |p| PIECES_PER_THREAD * p.current_num_threads());
        let run = |this: &mut Self| {
            this.condense(boxes, slots, axes, threads > 1);
            let (mut grid, entries) = this.choose_grid(axes, lo, extent, threads > 1);
            let columns = grid.u.count() * grid.v.count();
            let buckets = (BUCKETS_PER_ENTRY * entries).div_ceil(columns).max(1);
            grid.s = AxisCells::new(lo[s], spread[s], buckets);
            let bands = entries
                .div_ceil(BAND_ENTRIES)
                .max(threads)
                .min(grid.v.count());
            let rows = grid.v.count();
            this.columns = grid.u.count() * rows;
            this.band_of_row.clear();
            this.band_of_row
                .extend((0..rows).map(|row| (row * bands / rows) as u32));
            this.chunks.resize_with(threads, BandedChunk::default);
            this.workers.resize_with(threads, BandWorker::default);
            let (condensed, cells, band_of_row) = (&this.condensed, &this.cells, &this.band_of_row);
            // Each thread groups its slice of the input by band, then sweeps its run of bands
            // gathering their records from every slice.
            let slice = |w: usize| w * n / threads..(w + 1) * n / threads;
            let fill = |(w, chunk): (usize, &mut BandedChunk)| {
                chunk.fill(&condensed[slice(w)], &cells[slice(w)], band_of_row, bands);
            };
            if threads > 1 {
                this.chunks.par_iter_mut().enumerate().for_each(fill);
            } else {
                this.chunks.iter_mut().enumerate().for_each(fill);
            }
            let chunks = &this.chunks;
            let work = |(w, worker): (usize, &mut BandWorker)| {
                let own = w * bands / threads..(w + 1) * bands / threads;
                worker.run(boxes, grid, chunks, band_of_row, own);
            };
            if threads > 1 {
                this.workers.par_iter_mut().enumerate().for_each(work);
            } else {
                this.workers.iter_mut().enumerate().for_each(work);
            }
        };
        match pool {
            Some(pool) => pool.install(|| run(self)),
            None => run(self),
        }
        for worker in &self.workers[..threads] {
            out.extend_from_slice(&worker.columns.pairs);
            self.candidates += worker.columns.candidates;
        }
    }

    /// Fills `condensed` (the entries without their first cells), in parallel chunks if asked.
    fn condense(
        &mut self,
        boxes: &[WorldAabb],
        slots: &[u32],
        [s, u, v]: [usize; 3],
        parallel: bool,
    ) {
        self.condensed.resize(slots.len(), Entry::default());
        let fill = |(out, slots): (&mut [Entry], &[u32])| {
            for (e, &slot) in out.iter_mut().zip(slots) {
                let b = &boxes[slot as usize];
                *e = Entry {
                    lo: [
                        round_down(b.mins[s]),
                        round_down(b.mins[u]),
                        round_down(b.mins[v]),
                    ],
                    hi: [
                        round_up(b.maxs[s]),
                        round_up(b.maxs[u]),
                        round_up(b.maxs[v]),
                    ],
                    first_cell: [0; 2],
                    slot,
                };
            }
        };
        if parallel {
            self.condensed
                .par_chunks_mut(CHUNK)
                .zip(slots.par_chunks(CHUNK))
                .for_each(fill);
        } else {
            fill((&mut self.condensed, slots));
        }
    }

    /// Picks the column counts (see the module docs) and fills `cells` for them; returns the
    /// grid and its entry count.
    fn choose_grid(
        &mut self,
        [s, u, v]: [usize; 3],
        lo: [f64; 3],
        extent: [f64; 3],
        parallel: bool,
    ) -> (Grid, usize) {
        let n = self.condensed.len();
        let spread = self.spread;
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
        let hi: [f64; 3] = std::array::from_fn(|k| lo[k] + spread[k]);
        let margin = [s, u, v].map(|k| {
            let magnitude = round_up(lo[k].abs().max(hi[k].abs()));
            // 2^-18 M + 2^-130 (see the module docs).
            magnitude * (1.0 / 262_144.0) + f32::from_bits(1 << 19)
        });
        self.cells.resize(n, [0; 4]);
        loop {
            let grid = Grid {
                u: AxisCells::new(lo[u], spread[u], cu),
                v: AxisCells::new(lo[v], spread[v], cv),
                s: AxisCells::new(lo[s], spread[s], 1),
                margin,
            };
            let fill = |(cells, entries): (&mut [[u16; 4]], &mut [Entry])| -> usize {
                let mut count = 0;
                for (c, e) in cells.iter_mut().zip(entries) {
                    *c = grid.cells(e);
                    e.first_cell = [c[0], c[2]];
                    count += column_count(c);
                }
                count
            };
            let entries: usize = if parallel {
                self.cells
                    .par_chunks_mut(CHUNK)
                    .zip(self.condensed.par_chunks_mut(CHUNK))
                    .map(fill)
                    .sum()
            } else {
                fill((&mut self.cells, &mut self.condensed))
            };
            if entries <= MAX_ENTRIES_PER_BOX * n || cu * cv == 1 {
                return (grid, entries);
            }
            (cu, cv) = (cu.div_ceil(2), cv.div_ceil(2));
        }
    }
}

/// One thread's scratch, reused between calls: the records of one band at a time (gathered from
/// every thread's chunk in parallel mode), then in columns.
#[derive(Clone, Debug, Default)]
struct BandWorker {
    /// The records of the current band (parallel mode only), chunk after chunk.
    records: Vec<Entry>,
    last_cells: Vec<[u16; 2]>,
    columns: ColumnScratch,
}

/// The column sort and sweep of one band, and what it found.
#[derive(Clone, Debug, Default)]
struct ColumnScratch {
    /// Start of each bucket of each column of the current band in `entries` (buckets of a column
    /// consecutive, columns in row-major order), then the entry count.
    bucket_start: Vec<u32>,
    /// The current band's entries, column after column, sorted by `s`-min in a column.
    entries: Vec<ColumnEntry>,
    /// Per column of the current band: some bucket holds more than [`INSERTION_MAX`] entries.
    crowded: Vec<bool>,
    /// Pairs found by this thread.
    pairs: Vec<u64>,
    /// Candidates tested by this thread.
    candidates: u64,
}

impl BandWorker {
    /// Sweeps bands `own`, whose records are in `chunks` (concatenated in chunk order).
    fn run(
        &mut self,
        boxes: &[WorldAabb],
        grid: Grid,
        chunks: &[BandedChunk],
        band_of_row: &[u32],
        own: std::ops::Range<usize>,
    ) {
        self.columns.pairs.clear();
        self.columns.candidates = 0;
        let mut first_row = band_of_row.partition_point(|&b| (b as usize) < own.start);
        for band in own {
            let end_row =
                first_row + band_of_row[first_row..].partition_point(|&b| b as usize == band);
            let rows = first_row..end_row;
            first_row = end_row;
            if let [chunk] = chunks {
                let (records, last_cells) = chunk.band(band);
                self.columns
                    .sweep_band(boxes, grid, records, last_cells, rows);
            } else {
                self.records.clear();
                self.last_cells.clear();
                for chunk in chunks {
                    let (records, last_cells) = chunk.band(band);
                    self.records.extend_from_slice(records);
                    self.last_cells.extend_from_slice(last_cells);
                }
                self.columns
                    .sweep_band(boxes, grid, &self.records, &self.last_cells, rows);
            }
        }
    }
}

impl ColumnScratch {
    /// Copies a band's records (`records` with their last cells `last_cells`) into the columns of
    /// `rows` sorted by `s`-min, then sweeps every column, appending the pairs whose reference
    /// column it is.
    ///
    /// The sort is a counting scatter on (column, bucket of `s`-min): the buckets are monotone in
    /// `s`-min, so sorting each bucket (about one entry) sorts the column.
    fn sweep_band(
        &mut self,
        boxes: &[WorldAabb],
        grid: Grid,
        records: &[Entry],
        last_cells: &[[u16; 2]],
        rows: std::ops::Range<usize>,
    ) {
        let cu = grid.u.count();
        let buckets = grid.s.count();
        let columns = rows.len() * cu;
        // The columns of a record in this band: `(first row, last row + 1, first col, last col)`.
        let span = |e: &Entry, last: &[u16; 2]| {
            (
                usize::from(e.first_cell[1]).max(rows.start),
                (usize::from(last[1]) + 1).min(rows.end),
                usize::from(e.first_cell[0]),
                usize::from(last[0]),
            )
        };
        let counts = &mut self.bucket_start;
        counts.clear();
        counts.resize(columns * buckets + 1, 0);
        for (e, last) in records.iter().zip(last_cells) {
            let (r0, r1, c0, c1) = span(e, last);
            let bucket = grid.s.cell(e.lo[0]);
            for row in r0..r1 {
                let base = (row - rows.start) * cu;
                for col in base + c0..=base + c1 {
                    counts[col * buckets + bucket] += 1;
                }
            }
        }
        // Ends of the buckets; the scatter below counts them down to their starts.
        // Within a column only entries of one bucket can be out of order, so an insertion sort
        // moves each past at most its bucket's other entries: columns with a crowded bucket
        // (clustered inputs) are marked for a comparison sort instead.
        self.crowded.clear();
        let mut sum = 0;
        for column in counts[..columns * buckets].chunks_exact_mut(buckets) {
            let mut fullest = 0;
            for count in column {
                fullest = fullest.max(*count);
                sum += *count;
                *count = sum;
            }
            self.crowded.push(fullest > INSERTION_MAX as u32);
        }
        counts[columns * buckets] = sum;
        // `LANES` entries of padding: the sweep reads whole blocks past a column's end.
        self.entries
            .resize(sum as usize + LANES, ColumnEntry::default());
        for (e, last) in records.iter().zip(last_cells) {
            let (r0, r1, c0, c1) = span(e, last);
            let bucket = grid.s.cell(e.lo[0]);
            let mut copy = ColumnEntry {
                lo: e.lo,
                hi: e.hi,
                flags: 0,
                slot: e.slot,
            };
            for row in r0..r1 {
                let base = (row - rows.start) * cu;
                let first_row = u32::from(row == usize::from(e.first_cell[1])) << 1;
                for col in c0..=c1 {
                    let at = &mut counts[(base + col) * buckets + bucket];
                    *at -= 1;
                    copy.flags = first_row | u32::from(col == c0);
                    self.entries[*at as usize] = copy;
                }
            }
        }
        for (column, &crowded) in self.crowded.iter().enumerate() {
            let range = counts[column * buckets] as usize..counts[(column + 1) * buckets] as usize;
            let column_entries = &mut self.entries[range];
            if crowded {
                column_entries.sort_unstable_by(|a, b| a.lo[0].total_cmp(&b.lo[0]));
            } else {
                insertion_sort(column_entries);
            }
        }
        let mut candidates = 0u64;
        let mut hits = [0u64; HIT_BUFFER];
        let mut count = 0;
        for column in 0..columns {
            let start = counts[column * buckets] as usize;
            let len = counts[(column + 1) * buckets] as usize - start;
            candidates += sweep_column(
                &self.entries,
                start,
                len,
                grid.margin,
                boxes,
                &mut hits,
                &mut count,
                &mut self.pairs,
            );
        }
        decide_hits(
            &self.entries,
            &hits[..count],
            grid.margin,
            boxes,
            &mut self.pairs,
        );
        self.candidates += candidates;
    }
}

/// Entries the column sweep tests together (branch-free within a block).
const LANES: usize = 4;

/// Candidate hits buffered by the column sweep before their exact test.
const HIT_BUFFER: usize = 256;

/// Sweeps the column `entries[start..start + len]` (sorted by `s`-min; `entries` holds at least
/// `LANES` more), adding the indices `a << 32 | b` of the pairs passing the `f32` test whose
/// reference column it is to `hits[*count..]` (flushed into `pairs` by [`decide_hits`] when
/// full); returns the candidates tested.
///
/// Box `a` is tested against the boxes after it, `LANES` at a time, until a block ends with a box
/// whose `s`-min exceeds `a`'s `s`-max (every later box is then apart on `s`). Within a block the
/// tests and the buffering are branch-free (a box past the column's end or the `s`-max counts as
/// no hit).
#[allow(clippy::too_many_arguments)]
#[inline]
fn sweep_column(
    entries: &[ColumnEntry],
    start: usize,
    len: usize,
    margin: [f32; 3],
    boxes: &[WorldAabb],
    hits: &mut [u64; HIT_BUFFER],
    count: &mut usize,
    pairs: &mut Vec<u64>,
) -> u64 {
    let mut candidates = 0u64;
    let end = start + len;
    for a in start..end {
        let ea = entries[a];
        let mut b = a + 1;
        loop {
            let block: &[ColumnEntry; LANES] = entries[b..b + LANES].try_into().expect("padded");
            let mut within = 0usize;
            for (k, eb) in block.iter().enumerate() {
                // Sorted by `s`-min, so `ea.lo[0] <= eb.lo[0] <= eb.hi[0]` within the column.
                let inside = (b + k < end) & (eb.lo[0] <= ea.hi[0]);
                let overlap = (ea.lo[1] <= eb.hi[1])
                    & (eb.lo[1] <= ea.hi[1])
                    & (ea.lo[2] <= eb.hi[2])
                    & (eb.lo[2] <= ea.hi[2]);
                // Both first cells are at most the column's: its cell is their larger one
                // along an axis when it is one of them.
                let reference = (ea.flags | eb.flags) == 3;
                within += usize::from(inside);
                hits[*count] = ((a as u64) << 32) | (b + k) as u64;
                *count += usize::from(inside & overlap & reference);
            }
            if *count > HIT_BUFFER - LANES {
                decide_hits(entries, &hits[..*count], margin, boxes, pairs);
                *count = 0;
            }
            candidates += within as u64;
            if within < LANES {
                break;
            }
            b += LANES;
        }
    }
    candidates
}

/// Appends to `pairs` the slot pairs of `hits` (indices `a << 32 | b` of entries passing the
/// `f32` test) whose boxes overlap: in `f32` when they overlap by the margin on every axis (see
/// the module docs), otherwise by the exact `f64` test.
fn decide_hits(
    entries: &[ColumnEntry],
    hits: &[u64],
    d: [f32; 3],
    boxes: &[WorldAabb],
    pairs: &mut Vec<u64>,
) {
    for &hit in hits {
        let (ea, eb) = (
            &entries[(hit >> 32) as usize],
            &entries[hit as u32 as usize],
        );
        let sure = (0..3).all(|k| (ea.lo[k] + d[k] <= eb.hi[k]) & (eb.lo[k] + d[k] <= ea.hi[k]));
        if sure || boxes[ea.slot as usize].overlaps(&boxes[eb.slot as usize]) {
            pairs.push(pack(ea.slot, eb.slot));
        }
    }
}

/// Sorts `entries` by `s`-min (quickly when nearly sorted).
#[inline]
fn insertion_sort(entries: &mut [ColumnEntry]) {
    for i in 1..entries.len() {
        let e = entries[i];
        if entries[i - 1].lo[0] <= e.lo[0] {
            continue;
        }
        let mut j = i;
        while j > 0 && entries[j - 1].lo[0] > e.lo[0] {
            entries[j] = entries[j - 1];
            j -= 1;
        }
        entries[j] = e;
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
    use crate::test_support::brute_force;
    use colldet_geom::math::PointD;

    /// The pairs found serially, checked equal to those found in parallel on 3 threads (uneven
    /// bands) with the same counters.
    fn search(sweep: &mut ColumnSweep, boxes: &[WorldAabb], slots: &[u32]) -> Vec<u64> {
        static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
        let pool = POOL.get_or_init(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(3)
                .build()
                .unwrap()
        });
        let sorted = |sweep: &mut ColumnSweep, parallel: bool| {
            let mut out = Vec::new();
            sweep.find_pairs(boxes, slots, parallel.then_some(pool), &mut out);
            let unsorted = out.len();
            out.sort_unstable();
            out.dedup();
            assert_eq!(out.len(), unsorted, "a pair was reported twice");
            (out, sweep.candidates(), sweep.columns())
        };
        let parallel = sorted(sweep, true);
        let serial = sorted(sweep, false);
        assert_eq!(serial, parallel);
        serial.0
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
            // 6000 slots: above PARALLEL_MIN_BOXES, so the pool searches in bands.
            (9000, 190, 2),
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
            if n == 9000 {
                assert!(slots.len() >= PARALLEL_MIN_BOXES);
            }
        }
    }

    #[test]
    fn coordinates_between_f32_values_are_decided_in_f64() {
        // Pairs of unit boxes whose gap along x is below the f32 spacing: -1e-12 (overlap),
        // 0 (touching, overlap), 1e-12 (apart), at offsets that f32 cannot represent.
        let mut boxes = Vec::new();
        let mut expected = Vec::new();
        for i in 0..3000u32 {
            let x = 0.1 + f64::from(i % 60) * 3.0;
            let y = f64::from(i / 60) * 3.0 + 1.0 / 3.0;
            let gap = [-1e-12, 0.0, 1e-12][(i % 3) as usize];
            boxes.push(WorldAabb::new(
                PointD::new(x, y, 0.7),
                PointD::new(x + 1.0, y + 1.0, 1.7),
            ));
            boxes.push(WorldAabb::new(
                PointD::new(x + 1.0 + gap, y, 0.7),
                PointD::new(x + 2.0 + gap, y + 1.0, 1.7),
            ));
            if gap <= 0.0 {
                expected.push(pack(2 * i, 2 * i + 1));
            }
        }
        let slots: Vec<u32> = (0..boxes.len() as u32).collect();
        let mut sweep = ColumnSweep::default();
        assert_eq!(search(&mut sweep, &boxes, &slots), expected);
        assert_eq!(expected, brute_force(&boxes, &slots));
    }

    #[test]
    fn outward_rounding_and_cells_are_monotone() {
        for x in [
            0.1,
            -0.1,
            1e-40,
            -1e-40,
            1e39,
            -1e39,
            0.0,
            -0.0,
            3.0,
            1.0 / 3.0,
        ] {
            let (down, up) = (round_down(x), round_up(x));
            assert!(f64::from(down) <= x && x <= f64::from(up), "{x}");
            if (1e-30..1e38).contains(&x.abs()) {
                // Within 5 steps (near zero, `2^-140` more).
                let (mut d, mut u) = (down, up);
                for _ in 0..5 {
                    (d, u) = (d.next_up(), u.next_down());
                }
                assert!(f64::from(d) >= x && f64::from(u) <= x, "{x}");
            }
        }
        let values = [
            f32::NEG_INFINITY,
            -1e30,
            -1.0,
            -1e-40,
            0.0,
            1e-40,
            0.5,
            1e30,
            f32::INFINITY,
        ];
        for cells in [
            AxisCells::new(-1.0, 2.0, 7),
            AxisCells::new(0.0, 0.0, 1),
            AxisCells::new(-1e30, 2e30, 4096),
        ] {
            for w in values.windows(2) {
                assert!(cells.cell(w[0]) <= cells.cell(w[1]), "{w:?}");
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
