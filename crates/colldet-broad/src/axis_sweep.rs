//! The batch pair search of sweep and prune for small inputs (up to [`AXIS_SWEEP_MAX_BOXES`]
//! boxes): one sort-and-sweep along the axis of largest spread, on `f32` bounds in
//! structure-of-arrays layout, with the order of the previous search as the starting order.
//!
//! Rationale: with a few hundred boxes, the grid of [`crate::column_sweep`] collapses to one or
//! a few columns (the Chung-Wang scenes: 500 rods or ellipsoids, every one moving far, one
//! column), and its per-box machinery (bands, bucket scatter, 32-byte column entries tested one
//! at a time) costs more than the sweep itself. Here:
//! - The sweep axis `s` is the axis of largest spread (as in the column sweep), except that the
//!   last search's axis is kept while its spread is at least [`AXIS_KEEP_RATIO`] of the largest
//!   (in a cube of boxes the widest axis flips from frame to frame). Every box is
//!   rounded *outward* to `f32` (the column sweep's rounding: the `f32` box contains the `f64`
//!   one), so the `f32` tests below can only add candidates, never lose a pair.
//! - The slots are kept in the order of the last search (dropping slots no longer present and
//!   appending new ones) and re-sorted by `f32` `s`-min with an insertion sort: boxes moving
//!   coherently change the order a little, so the sort is about linear. When it would move more
//!   than [`INSERTION_BUDGET_PER_BOX`] entries per box (the sweep axis changed, many new boxes,
//!   incoherent motion) it stops and a comparison sort finishes.
//! - The bounds are gathered in that order into six arrays (`s`-min, `s`-max, `u`-min, ...),
//!   padded with [`LANES`] NaN `s`-mins. Box `i` is tested against the boxes after it a block of
//!   [`LANES`] at a time, without branches, until a block reaches a box whose `s`-min exceeds
//!   `i`'s `s`-max (or the NaN padding, which compares false): sorted by `s`-min, every later box
//!   is apart on `s`. Within a block the `u` and `v` overlap tests give a bit mask of candidates.
//! - A candidate passing the `f32` test on all three axes is decided by the exact closed test on
//!   the `f64` boxes (few candidates pass: the `f32` boxes are only a few `f32` steps larger).
//!
//! The result is the set of overlapping pairs, exactly the column sweep's.

use colldet_geom::WorldAabb;

use crate::column_sweep::{round_down, round_up};
use crate::pair_set::pack;

/// Largest input for which sweep and prune's batch mode uses this search (above, the column
/// sweep, whose grid pays off on spread-out inputs).
pub const AXIS_SWEEP_MAX_BOXES: usize = 1024;

/// Estimated cost of this search per proxy, in units of one insertion-sort swap of the
/// incremental mode: where the two cost the same when both are timed on the Chung-Wang scenes
/// with the motion slowed down (recorded boxes interpolated); below it the incremental repair
/// is the cheaper. Figures in `docs/benchmarks.md`.
pub const AXIS_SWEEP_COST_SWAPS: u64 = 3;

/// Insertion-sort moves per box after which the re-sort falls back to a comparison sort.
const INSERTION_BUDGET_PER_BOX: usize = 16;

/// The sweep axis stays the last one while its spread is at least this fraction of the largest
/// (switching makes the kept order useless; with nearly equal spreads the candidates are alike).
const AXIS_KEEP_RATIO: f64 = 0.8;

/// Boxes tested together (branch-free within a block).
const LANES: usize = 8;

/// Scratch memory and the order kept between searches (no allocation once warm).
#[derive(Clone, Debug, Default)]
pub(crate) struct AxisSweep {
    /// Sweep axis of the last search.
    axis: usize,
    /// The slots of the last search, by `f32` `s`-min.
    order: Vec<u32>,
    /// Per slot: the search (`2 * epoch`) that listed it; `2 * epoch + 1` once it is in `order`.
    stamp: Vec<u32>,
    /// Current search number.
    epoch: u32,
    /// `(f32 s-min, slot)` being sorted.
    keys: Vec<(f32, u32)>,
    /// Bounds in sweep order: `[s-min, s-max, u-min, u-max, v-min, v-max]`, each padded by
    /// [`LANES`] entries (`s`-min NaN).
    bounds: [Vec<f32>; 6],
    /// Spread of the last input along each world axis (0 for fewer than one box).
    spread: [f64; 3],
    /// Candidates the last search tested.
    candidates: u64,
    /// Blocks with candidates passing the `f32` test: `a << 40 | b << 8 | lane mask`.
    hits: Vec<u64>,
}

impl AxisSweep {
    /// Spread of the last input along each world axis.
    pub(crate) fn spread(&self) -> [f64; 3] {
        self.spread
    }

    /// Candidates the last search tested (pairs overlapping in `f32` along the sweep axis).
    pub(crate) fn candidates(&self) -> u64 {
        self.candidates
    }

    /// Replaces `out` with the packed slot pairs (see [`pack`]) of every two boxes among
    /// `boxes[slot]`, `slot` in `slots`, that overlap (closed), each pair once, in no particular
    /// order. `slots` holds no duplicates and the boxes are finite with `mins <= maxs`.
    pub(crate) fn find_pairs(&mut self, boxes: &[WorldAabb], slots: &[u32], out: &mut Vec<u64>) {
        out.clear();
        self.candidates = 0;
        let n = slots.len();
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for &slot in slots {
            let b = &boxes[slot as usize];
            for k in 0..3 {
                lo[k] = lo[k].min(b.mins[k]);
                hi[k] = hi[k].max(b.maxs[k]);
            }
        }
        self.spread = std::array::from_fn(|k| if n == 0 { 0.0 } else { hi[k] - lo[k] });
        let spread = self.spread;
        let widest = (0..3)
            .max_by(|&a, &b| spread[a].total_cmp(&spread[b]).then(b.cmp(&a)))
            .unwrap_or(0);
        // Hysteresis: the kept order is only nearly sorted along the last axis.
        let s = if spread[self.axis] >= AXIS_KEEP_RATIO * spread[widest] {
            self.axis
        } else {
            widest
        };
        self.update_order(slots);
        self.sort(boxes, s);
        if n < 2 {
            return;
        }
        self.gather(boxes, [s, (s + 1) % 3, (s + 2) % 3]);
        self.candidates = self.sweep(boxes, out);
    }

    /// Makes `order` hold exactly `slots`: the kept slots in their last order, then the new ones.
    fn update_order(&mut self, slots: &[u32]) {
        if self.epoch >= u32::MAX / 2 - 1 {
            self.epoch = 0;
            self.stamp.iter_mut().for_each(|s| *s = u32::MAX);
        }
        self.epoch += 1;
        let (listed, kept) = (2 * self.epoch, 2 * self.epoch + 1);
        if let Some(&largest) = slots.iter().max()
            && self.stamp.len() <= largest as usize
        {
            self.stamp.resize(largest as usize + 1, u32::MAX);
        }
        for &slot in slots {
            self.stamp[slot as usize] = listed;
        }
        let stamp = &mut self.stamp;
        self.order
            .retain(|&slot| match stamp.get_mut(slot as usize) {
                Some(s) if *s == listed => {
                    *s = kept;
                    true
                }
                _ => false,
            });
        self.order.extend(
            slots
                .iter()
                .copied()
                .filter(|&slot| stamp[slot as usize] == listed),
        );
    }

    /// Sorts `order` by `f32` `s`-min (ties by slot, so the order along an axis does not depend
    /// on history): insertion sort from the kept order, finished by a comparison sort past the
    /// budget.
    fn sort(&mut self, boxes: &[WorldAabb], s: usize) {
        self.axis = s;
        self.keys.clear();
        self.keys.extend(
            self.order
                .iter()
                .map(|&slot| (round_down(boxes[slot as usize].mins[s]), slot)),
        );
        let before = |a: (f32, u32), b: (f32, u32)| a.0 < b.0 || (a.0 == b.0 && a.1 < b.1);
        let keys = &mut self.keys;
        let mut budget = INSERTION_BUDGET_PER_BOX * keys.len();
        let mut sorted = true;
        for i in 1..keys.len() {
            let e = keys[i];
            if !before(e, keys[i - 1]) {
                continue;
            }
            let mut j = i;
            while j > 0 && before(e, keys[j - 1]) {
                keys[j] = keys[j - 1];
                j -= 1;
            }
            keys[j] = e;
            budget = budget.saturating_sub(i - j);
            if budget == 0 {
                sorted = false;
                break;
            }
        }
        if !sorted {
            keys.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        }
        self.order.clear();
        self.order.extend(self.keys.iter().map(|&(_, slot)| slot));
    }

    /// Fills `bounds` from the boxes in sweep order, in the sweep frame `[s, u, v]`, in one pass
    /// over `keys` (sorted by [`AxisSweep::sort`]; their `s`-mins are the rounded ones already).
    fn gather(&mut self, boxes: &[WorldAabb], [s, u, v]: [usize; 3]) {
        let n = self.keys.len();
        for (k, list) in self.bounds.iter_mut().enumerate() {
            list.clear();
            // NaN `s`-mins end every sweep; the other padding is never a candidate.
            list.resize(n + LANES, if k == 0 { f32::NAN } else { 0.0 });
        }
        let [lo_s, hi_s, lo_u, hi_u, lo_v, hi_v] = &mut self.bounds;
        for (i, &(s_min, slot)) in self.keys.iter().enumerate() {
            let b = &boxes[slot as usize];
            lo_s[i] = s_min;
            hi_s[i] = round_up(b.maxs[s]);
            lo_u[i] = round_down(b.mins[u]);
            hi_u[i] = round_up(b.maxs[u]);
            lo_v[i] = round_down(b.mins[v]);
            hi_v[i] = round_up(b.maxs[v]);
        }
    }

    /// The sweep (see the module docs); appends the overlapping pairs to `out` and returns the
    /// candidates tested.
    fn sweep(&mut self, boxes: &[WorldAabb], out: &mut Vec<u64>) -> u64 {
        let [lo_s, hi_s, lo_u, hi_u, lo_v, hi_v] = &self.bounds;
        let n = self.order.len();
        // The hit encoding holds positions below 2^24.
        assert!(n < 1 << 24, "{n} boxes: too many for the single-axis sweep");
        let mut candidates = 0u64;
        let hits = &mut self.hits;
        hits.clear();
        for a in 0..n {
            let ea = [hi_s[a], lo_u[a], hi_u[a], lo_v[a], hi_v[a]];
            let mut b = a + 1;
            loop {
                let (within, mask) = block_masks(&ea, [lo_s, lo_u, hi_u, lo_v, hi_v], b);
                // Branch-free: the entry is kept only when some lane is a candidate.
                hits.push(((a as u64) << 40) | ((b as u64) << 8) | u64::from(mask));
                hits.truncate(hits.len() - usize::from(mask == 0));
                candidates += u64::from(within.count_ones());
                if within != (1 << LANES) - 1 {
                    break;
                }
                b += LANES;
            }
        }
        for &hit in hits.iter() {
            let (a, b) = ((hit >> 40) as usize, (hit >> 8) as u32 as usize);
            let slot_a = self.order[a];
            let box_a = &boxes[slot_a as usize];
            let mut mask = hit as u8;
            while mask != 0 {
                let slot_b = self.order[b + mask.trailing_zeros() as usize];
                mask &= mask - 1;
                if overlaps(box_a, &boxes[slot_b as usize]) {
                    out.push(pack(slot_a, slot_b));
                }
            }
        }
        candidates
    }
}

/// The exact closed overlap test, without early exits.
#[inline]
fn overlaps(a: &WorldAabb, b: &WorldAabb) -> bool {
    (0..3).fold(true, |ok, k| {
        ok & (a.mins[k] <= b.maxs[k]) & (b.mins[k] <= a.maxs[k])
    })
}

/// For the block of [`LANES`] boxes from `b`, bit masks of the boxes whose `s`-min is at most
/// `a`'s `s`-max (`ea[0]`), and of those that also overlap `a` on `u` and `v` (`ea[1..]`:
/// `u`-min, `u`-max, `v`-min, `v`-max). `lists` are the `s`-min, `u`-min, `u`-max, `v`-min and
/// `v`-max arrays.
#[inline]
fn block_masks(ea: &[f32; 5], lists: [&Vec<f32>; 5], b: usize) -> (u32, u32) {
    let lanes = lists.map(|l| -> &[f32; LANES] { l[b..b + LANES].try_into().expect("padded") });
    block_masks_lanes(ea, lanes)
}

/// The masks of [`block_masks`] from the block's lanes (`s`-min, `u`-min, `u`-max, `v`-min,
/// `v`-max), with SSE (part of the x86_64 baseline).
#[cfg(target_arch = "x86_64")]
#[inline]
fn block_masks_lanes(ea: &[f32; 5], lanes: [&[f32; LANES]; 5]) -> (u32, u32) {
    use std::arch::x86_64::*;
    let [ls, lu, hu, lv, hv] = lanes;
    // SSE is part of the x86_64 baseline. `_mm_loadu_ps` reads 4 floats of a `[f32; 8]` half.
    let load = |x: &[f32; LANES], h: usize| -> __m128 {
        let half: &[f32; 4] = x[4 * h..4 * h + 4].try_into().expect("half");
        // SAFETY: `half` is 4 readable floats; unaligned loads are allowed.
        unsafe { _mm_loadu_ps(half.as_ptr()) }
    };
    // SAFETY: SSE is part of the x86_64 baseline, so these intrinsics are available.
    unsafe {
        let (hs, la_u, ha_u, la_v, ha_v) = (
            _mm_set1_ps(ea[0]),
            _mm_set1_ps(ea[1]),
            _mm_set1_ps(ea[2]),
            _mm_set1_ps(ea[3]),
            _mm_set1_ps(ea[4]),
        );
        let mut within = 0u32;
        let mut hits = 0u32;
        for h in 0..LANES / 4 {
            let inside = _mm_cmple_ps(load(ls, h), hs);
            let overlap = _mm_and_ps(
                _mm_and_ps(
                    _mm_cmple_ps(load(lu, h), ha_u),
                    _mm_cmple_ps(la_u, load(hu, h)),
                ),
                _mm_and_ps(
                    _mm_cmple_ps(load(lv, h), ha_v),
                    _mm_cmple_ps(la_v, load(hv, h)),
                ),
            );
            within |= (_mm_movemask_ps(inside) as u32) << (4 * h);
            hits |= (_mm_movemask_ps(_mm_and_ps(inside, overlap)) as u32) << (4 * h);
        }
        (within, hits)
    }
}

/// [`block_masks_lanes`] without SIMD intrinsics (other targets; tested against the SSE version
/// on x86_64).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline]
fn block_masks_portable(ea: &[f32; 5], lanes: [&[f32; LANES]; 5]) -> (u32, u32) {
    let [ls, lu, hu, lv, hv] = lanes;
    let (mut within, mut hits) = (0u32, 0u32);
    for k in 0..LANES {
        let inside = ls[k] <= ea[0];
        let overlap = (lu[k] <= ea[2]) & (ea[1] <= hu[k]) & (lv[k] <= ea[4]) & (ea[3] <= hv[k]);
        within |= u32::from(inside) << k;
        hits |= u32::from(inside & overlap) << k;
    }
    (within, hits)
}

/// The masks of [`block_masks`] from the block's lanes.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn block_masks_lanes(ea: &[f32; 5], lanes: [&[f32; LANES]; 5]) -> (u32, u32) {
    block_masks_portable(ea, lanes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::brute_force;
    use colldet_geom::math::PointD;
    use colldet_testkit::SplitMix64;

    fn search(sweep: &mut AxisSweep, boxes: &[WorldAabb], slots: &[u32]) -> Vec<u64> {
        let mut out = Vec::new();
        sweep.find_pairs(boxes, slots, &mut out);
        let found = out.len();
        out.sort_unstable();
        out.dedup();
        assert_eq!(out.len(), found, "a pair was reported twice");
        out
    }

    #[test]
    fn kept_order_across_moves_churn_and_axis_changes_matches_brute_force() {
        // Lattice boxes (touching faces, zero sizes) moving a little each call, the slot set
        // changing, and every 10 calls the scene stretched along another axis (the sweep axis
        // changes and the kept order is far from sorted).
        let mut rng = SplitMix64::new(7);
        let n = 600;
        let mut centre: Vec<[i64; 3]> = (0..n)
            .map(|_| [0; 3].map(|_| (rng.next_u64() % 80) as i64))
            .collect();
        let half: Vec<[i64; 3]> = (0..n)
            .map(|_| [0; 3].map(|_| (rng.next_u64() % 5) as i64))
            .collect();
        let mut sweep = AxisSweep::default();
        let mut total = 0;
        for call in 0..60 {
            let stretch = (call / 10) % 3;
            for c in &mut centre {
                for x in c.iter_mut() {
                    *x = (*x + (rng.next_u64() % 3) as i64 - 1).clamp(0, 80);
                }
            }
            let boxes: Vec<WorldAabb> = (0..n)
                .map(|i| {
                    let f = |k: usize, x: i64| {
                        x as f64 * 0.25 * if k == stretch { 3.0 } else { 1.0 } + 1.0 / 3.0
                    };
                    let (c, h) = (centre[i], half[i]);
                    WorldAabb::new(
                        PointD::new(f(0, c[0] - h[0]), f(1, c[1] - h[1]), f(2, c[2] - h[2])),
                        PointD::new(f(0, c[0] + h[0]), f(1, c[1] + h[1]), f(2, c[2] + h[2])),
                    )
                })
                .collect();
            let slots: Vec<u32> = (0..n as u32)
                .filter(|&s| !(s as usize + call).is_multiple_of(7) || call.is_multiple_of(2))
                .collect();
            let got = search(&mut sweep, &boxes, &slots);
            assert_eq!(got, brute_force(&boxes, &slots), "call {call}");
            assert_eq!(sweep.axis, stretch, "call {call}");
            total += got.len();
        }
        assert!(total > 10_000, "{total} pairs");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn lane_masks_match_the_portable_version() {
        // Values from a small set (many ties), infinities and NaN (the padding).
        let mut rng = SplitMix64::new(3);
        let values = [
            -1.0,
            0.0,
            0.5,
            1.0,
            2.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let mut pick = || values[(rng.next_u64() % values.len() as u64) as usize];
        for _ in 0..2000 {
            let ea: [f32; 5] = std::array::from_fn(|_| pick());
            let lanes: [[f32; LANES]; 5] = std::array::from_fn(|_| std::array::from_fn(|_| pick()));
            let lanes = lanes.each_ref();
            assert_eq!(
                block_masks_lanes(&ea, lanes),
                block_masks_portable(&ea, lanes),
                "{ea:?} {lanes:?}"
            );
        }
    }

    #[test]
    fn f32_ties_huge_boxes_and_tiny_inputs_match_brute_force() {
        let mut boxes = Vec::new();
        // Gaps below the f32 spacing along each axis: overlapping, touching and apart by 1e-12.
        for i in 0..300u32 {
            let k = (i % 3) as usize;
            let gap = [-1e-12, 0.0, 1e-12][(i / 3 % 3) as usize];
            let base = [0.1 + f64::from(i) * 3.0, 1.0 / 3.0, 0.7];
            let mut lo = base;
            let mut hi = base.map(|x| x + 1.0);
            boxes.push(WorldAabb::new(PointD::from(lo), PointD::from(hi)));
            lo[k] = hi[k] + gap;
            hi[k] = lo[k] + 1.0;
            boxes.push(WorldAabb::new(PointD::from(lo), PointD::from(hi)));
        }
        // A box spanning everything, beyond the f32 range, and two equal points.
        boxes.push(WorldAabb::new(
            PointD::new(-1e300, -1.0, -1.0),
            PointD::new(1e300, 2.0, 2.0),
        ));
        let p = PointD::new(3.1, 0.5, 0.9);
        boxes.push(WorldAabb::new(p, p));
        boxes.push(WorldAabb::new(p, p));
        let slots: Vec<u32> = (0..boxes.len() as u32).collect();
        let mut sweep = AxisSweep::default();
        let expected = brute_force(&boxes, &slots);
        assert_eq!(search(&mut sweep, &boxes, &slots), expected);
        assert!(expected.contains(&pack(601, 602)));
        // Again from the kept order, then with fewer slots.
        assert_eq!(search(&mut sweep, &boxes, &slots), expected);
        for count in [0, 1, 2] {
            let few = &slots[600..600 + count];
            assert_eq!(search(&mut sweep, &boxes, few), brute_force(&boxes, few));
        }
    }
}
