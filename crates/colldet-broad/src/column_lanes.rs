//! The column sweep's inner loop over lanes: a band's column entries (sorted by `s`-min within
//! each column) copied into one array per bound, so that a block of [`LANES`] entries is tested
//! against one box with a few vector compares ([`block_masks`]).
//!
//! The test is the column sweep's `f32` test: entry `b` is a candidate of entry `a` (before it in
//! the column) when `b` lies in the column and `s-min(b) <= s-max(a)`; a candidate is a hit when
//! the two boxes also overlap on `u` and `v` (closed intervals) and the column is their reference
//! column (`(flags(a) | flags(b)) == 3`, see [`crate::column_sweep`]).

use crate::lane_masks::block_masks;

/// Entries a block tests together: two 128-bit vectors of `f32`.
pub(crate) const LANES: usize = 8;

/// All bits of a block's lane mask.
const FULL_BLOCK: u32 = (1 << LANES) - 1;

/// A band's column entries as lanes, indexed as the entries are, plus [`LANES`] entries of
/// padding so that a block read past a column's end stays in bounds.
#[derive(Clone, Debug, Default)]
pub(crate) struct ColumnLanes {
    /// `s`-min, `u`-min, `u`-max, `v`-min, `v`-max: the lists a block reads.
    bounds: [Vec<f32>; 5],
    /// `s`-max.
    s_hi: Vec<f32>,
    /// Bit 0: the column is the entry's first along `u`; bit 1: along `v`.
    flags: Vec<u32>,
}

impl ColumnLanes {
    /// Replaces the lanes with `entries` (bounds along `[s, u, v]` and flags), then the padding.
    pub(crate) fn fill(
        &mut self,
        entries: impl ExactSizeIterator<Item = ([f32; 3], [f32; 3], u32)>,
    ) {
        let n = entries.len();
        // Every entry below is overwritten; the padding is never read as a candidate (lanes past
        // a column's end are masked), so only new capacity is filled (no clearing pass).
        for list in self.bounds.iter_mut().chain([&mut self.s_hi]) {
            list.resize(n + LANES, 0.0);
        }
        self.flags.resize(n + LANES, 0);
        let [s_lo, u_lo, u_hi, v_lo, v_hi] = &mut self.bounds;
        for (i, (lo, hi, flags)) in entries.enumerate() {
            (s_lo[i], u_lo[i], v_lo[i]) = (lo[0], lo[1], lo[2]);
            (self.s_hi[i], u_hi[i], v_hi[i]) = (hi[0], hi[1], hi[2]);
            self.flags[i] = flags;
        }
    }

    /// Sweeps the column `start..start + len`: calls `hit(a, b)` for every hit `a < b` (in
    /// increasing `a`, then `b`); returns the number of candidates tested.
    ///
    /// Entry `a` is tested against the entries after it a block at a time, until a block holds an
    /// entry outside the column or one whose `s`-min exceeds `a`'s `s`-max: the column is sorted
    /// by `s`-min, so every later entry is then apart from `a` on `s`.
    #[inline]
    pub(crate) fn sweep_column(
        &self,
        start: usize,
        len: usize,
        mut hit: impl FnMut(usize, usize),
    ) -> u64 {
        let [s_lo, u_lo, u_hi, v_lo, v_hi] = &self.bounds;
        let lists = [&s_lo[..], u_lo, u_hi, v_lo, v_hi];
        let mut candidates = 0u64;
        let end = start + len;
        for a in start..end {
            let ea = [self.s_hi[a], u_lo[a], u_hi[a], v_lo[a], v_hi[a]];
            let a_flags = self.flags[a];
            let mut b = a + 1;
            loop {
                let (mut inside, mut hits) = block_masks::<LANES>(&ea, lists, b);
                // Lanes past the column's end are not candidates.
                let in_column = if end - b >= LANES {
                    FULL_BLOCK
                } else {
                    (1 << (end - b)) - 1
                };
                inside &= in_column;
                hits &= in_column;
                while hits != 0 {
                    let other = b + hits.trailing_zeros() as usize;
                    hits &= hits - 1;
                    // Both first cells are at most the column's: its cell is their larger one
                    // along an axis when it is one of them.
                    if (a_flags | self.flags[other]) == 3 {
                        hit(a, other);
                    }
                }
                candidates += u64::from(inside.count_ones());
                if inside != FULL_BLOCK {
                    break;
                }
                b += LANES;
            }
        }
        candidates
    }
}
