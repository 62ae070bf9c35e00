//! The narrow phase of one check: the broad phase's pairs filtered, merged with the pair-cache
//! table and tested, in key ranges spread over the world's thread pool.
//!
//! Rationale: the pairs come sorted by slot pair, as the cache table is, so a key range of pairs
//! and the same key range of the table make an independent piece of work: the range's pairs are
//! filtered (moved set, interest, bounding boxes), each pair left takes its cache from the
//! range's part of the table, is tested, and goes into the range's part of the next table. No
//! serial pass builds a job list or gives caches back, so two threads divide the whole narrow
//! phase, not only the exact tests. Results do not depend on how the pairs are split: a pair's
//! outcome depends on its own cache only, and each result carries the pair's index in the
//! broad-phase list (see [`super::pair_results`]).

use std::sync::{Mutex, PoisonError};

use colldet_broad::ProxyPair;

use super::interest::{InterestMatrix, PairKey};
use super::moved_set::MovedSet;
use super::object_id::ObjectId;
use super::pair_caches::{TableRange, slot_pair_key};
use super::pair_results::{Lookup, Workers};
use super::pair_test::{self, PlacedObject, ShapeTraits};
use super::{FilterBox, Method, Placement, Slot, prefetch};

/// Fewest broad-phase pairs per key range on the pool (a range's set-up costs about as much as
/// filtering a few pairs).
const MIN_RANGE_PAIRS: usize = 8;

/// Most key ranges per pool thread: enough for the pool to balance the load (pair costs vary by
/// a factor of hundreds), few enough that joining the table's parts stays cheap.
const RANGES_PER_THREAD: usize = 32;

/// The pass prefetches the objects of the pair this many pairs ahead, and the cache this many
/// table entries ahead.
const PREFETCH_AHEAD: usize = 6;

/// What the pass reads of the world (shared by the pool threads).
pub(crate) struct PairPass<'w> {
    pub method: Method,
    /// The broad phase's pairs, sorted by slot pair.
    pub pairs: &'w [ProxyPair],
    pub moved: &'w MovedSet,
    pub interest: &'w InterestMatrix,
    pub slot_ids: &'w [Option<ObjectId>],
    pub shape_traits: &'w [ShapeTraits],
    pub filter_boxes: &'w [FilterBox],
    pub slots: &'w [Slot],
    pub placements: &'w [Placement],
    /// The idle workers: a range takes one for its pairs and puts it back. Not one per pool
    /// thread by thread index: a test may start rayon work of its own (building a large mesh's
    /// tree on first use), and while it waits, its thread may run another range, which then
    /// takes another worker (a new one if none is idle).
    pub idle_workers: &'w Mutex<Workers>,
    /// Pairs per key range (the last range may have fewer), from [`split_ranges`].
    pub range_len: usize,
}

/// How the pass splits `pairs` pairs over `threads` threads: the number of key ranges and the
/// pairs per range (one range on a single thread).
pub(crate) fn split_ranges(pairs: usize, threads: usize) -> (usize, usize) {
    split_ranges_with(pairs, threads, MIN_RANGE_PAIRS)
}

/// [`split_ranges`] with `min_pairs` pairs at least per range.
pub(crate) fn split_ranges_with(pairs: usize, threads: usize, min_pairs: usize) -> (usize, usize) {
    let ranges = if threads <= 1 {
        1
    } else {
        (pairs / min_pairs.max(1)).clamp(1, threads * RANGES_PER_THREAD)
    };
    let range_len = pairs.div_ceil(ranges).max(1);
    // Rounding the length up may leave the last ranges empty: drop them.
    (pairs.div_ceil(range_len).max(1), range_len)
}

impl PairPass<'_> {
    /// Runs the pass over all pairs: `table` is the whole cache table, begun with the number of
    /// parts [`split_ranges`] gave. Splits with `rayon::join` (call it inside the world's pool;
    /// with one part it runs on the calling thread).
    pub fn run(&self, table: TableRange<'_>) {
        self.run_range(0, self.pairs, table);
    }

    /// Runs the pass over `pairs`, which start at index `first` of the broad-phase list, and the
    /// table range of their keys.
    fn run_range(&self, first: usize, pairs: &[ProxyPair], table: TableRange<'_>) {
        let parts = table.parts();
        if parts == 1 {
            self.run_part(first, pairs, table);
            return;
        }
        let left_parts = parts / 2;
        let at = (left_parts * self.range_len).min(pairs.len());
        let key = pairs
            .get(at)
            .map_or(u64::MAX, |&ProxyPair(a, b)| slot_pair_key(a, b));
        let (left_table, right_table) = table.split(left_parts, key);
        let (left, right) = pairs.split_at(at);
        rayon::join(
            || self.run_range(first, left, left_table),
            || self.run_range(first + at, right, right_table),
        );
    }

    /// Runs the pass over one part's pairs on the current thread, with an idle worker.
    fn run_part(&self, first: usize, pairs: &[ProxyPair], table: TableRange<'_>) {
        let idle = || {
            self.idle_workers
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        let mut worker = idle().pop().unwrap_or_default();
        let mut merge = table.merge();
        let lookup = Lookup {
            slot_ids: self.slot_ids,
            interest: self.interest,
        };
        let object = |slot: u32| {
            let object = self.slots[slot as usize]
                .object
                .as_ref()
                .expect("live object");
            PlacedObject {
                object,
                placement: &self.placements[slot as usize],
            }
        };
        for (i, &ProxyPair(sa, sb)) in pairs.iter().enumerate() {
            if let Some(&ProxyPair(ahead_a, ahead_b)) = pairs.get(i + PREFETCH_AHEAD) {
                for slot in [ahead_a, ahead_b] {
                    if let Some(s) = self.slots.get(slot as usize) {
                        prefetch::prefetch(s);
                    }
                }
            }
            if !self.moved.contains(sa) && !self.moved.contains(sb) {
                continue;
            }
            // The ids (a random read per pair in a large world) are only looked up here when both
            // objects have pair settings, and otherwise after the test for colliding pairs.
            if self.interest.both_have_settings(sa, sb) {
                let (Some(a), Some(b)) = (self.slot_ids[sa as usize], self.slot_ids[sb as usize])
                else {
                    continue;
                };
                if self.interest.get(&PairKey::new(a, b)).uninterested {
                    continue;
                }
            }
            let key = slot_pair_key(sa, sb);
            let (ta, tb) = (
                self.shape_traits[sa as usize],
                self.shape_traits[sb as usize],
            );
            // The Chung-Wang query's bounding-box pre-test, run here with the same pose and
            // margin: a pair it separates is not tested (its cache entry, if any, is carried
            // over untouched).
            let filter_ran =
                pair_test::uses_separating_vector(self.method, ta, tb) && !merge.skips_filter(key);
            if filter_ran {
                let (oa, ob) = (object(sa).object, object(sb).object);
                let (fa, fb) = (
                    &self.filter_boxes[sa as usize].0,
                    &self.filter_boxes[sb as usize].0,
                );
                if fa.separated(fb, &oa.frame.inv_mul(&ob.frame)) {
                    worker.box_filtered += 1;
                    continue;
                }
            }
            worker.tested += 1;
            merge.prefetch_cache(PREFETCH_AHEAD);
            merge.test(key, filter_ran, |cache| {
                let outcome = pair_test::test_pair(
                    self.method,
                    &object(sa),
                    &object(sb),
                    cache,
                    &mut worker.narrow,
                );
                let certified = outcome.as_ref().is_ok_and(|o| o.certified);
                worker.record(first + i, (sa, sb), outcome, lookup);
                certified
            });
        }
        merge.finish();
        idle().push(worker);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_the_pairs_without_empty_ones() {
        for threads in 1..=4 {
            for pairs in 0..2000 {
                let (ranges, len) = split_ranges(pairs, threads);
                assert!(ranges >= 1 && len >= 1);
                assert!(ranges * len >= pairs, "{pairs} pairs, {threads} threads");
                if pairs > 0 {
                    assert!(
                        (ranges - 1) * len < pairs,
                        "an empty range: {pairs}, {threads}"
                    );
                }
                assert!(ranges <= (threads * RANGES_PER_THREAD).max(1));
                if threads == 1 {
                    assert_eq!(ranges, 1);
                } else if ranges > 1 {
                    assert!(len >= MIN_RANGE_PAIRS, "{pairs} pairs in ranges of {len}");
                }
            }
        }
    }
}
