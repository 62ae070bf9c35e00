//! The narrow phase of one check: the broad phase's pairs filtered, merged with the pair-cache
//! table and tested, in key ranges spread over the world's thread pool.
//!
//! Rationale: the pairs come sorted by slot pair, as the cache table is, so a key range of pairs
//! and the same key range of the table make an independent piece of work: the range's pairs are
//! filtered (moved set, interest, the bounding-box pre-test), each pair left takes its cache
//! from the range's part of the table, is tested by its kind's test (`colldet_narrow::dispatch`), and goes into the range's part of the next table. No
//! serial pass builds a job list or gives caches back, so two threads divide the whole narrow
//! phase, not only the exact tests. Results do not depend on how the pairs are split: a pair's
//! outcome depends on its own cache only, and each result carries the pair's index in the
//! broad-phase list (see [`super::pair_results`]).

use std::sync::{Mutex, PoisonError};

use colldet_broad::ProxyPair;
use colldet_narrow::dispatch::{PretestMemo, PretestOutcome, box_pretest};
use colldet_narrow::{Method, PairKind, test_pair};

use crate::WorldError;
use crate::collision_groups::CollisionGroups;
use crate::interest::{InterestMatrix, PairKey};
use crate::moved_set::MovedSet;
use crate::near_pairs::{NearPair, test_apart_pair};
use crate::object_table::PlacedObjects;
use crate::pair_caches::{PairCaches, TableRange, slot_pair_key};
use crate::pair_results::{self, Failure, Found, FoundSegment, Workers};
use crate::stats::CheckStats;

/// Fewest broad-phase pairs per key range on the pool (a range's set-up costs about as much as
/// filtering a few pairs).
const MIN_RANGE_PAIRS: usize = 8;

/// Most key ranges per pool thread: enough for the pool to balance the load (pair costs vary by
/// a factor of hundreds), few enough that joining the table's parts stays cheap.
const RANGES_PER_THREAD: usize = 32;

/// The pass prefetches the objects of the pair this many pairs ahead, and the cache this many
/// table entries ahead.
const PREFETCH_AHEAD: usize = 6;

/// The narrow phase's state kept across checks: the pair caches, the workers' scratch memory
/// and results, and the last check's collisions. Every buffer keeps its capacity, so a warm
/// world does not allocate.
pub(crate) struct NarrowPhase {
    caches: PairCaches,
    /// Exact-test scratch memory and results: one per pool thread (one in serial mode), idle
    /// between the key ranges (see [`PairPass`]).
    workers: Mutex<Workers>,
    /// The last check's collisions sorted by id pair (its capacity, the most any check found,
    /// is the room each worker reserves).
    found: Vec<Found>,
    /// The last check's separated pairs within their tolerance, sorted by id pair.
    near: Vec<NearPair>,
    /// Scratch of the merge of the workers' collisions ([`pair_results::merge_found`]).
    segments: Vec<(FoundSegment, usize)>,
}

/// What one narrow pass reads of the world.
pub(crate) struct PassInput<'w> {
    pub check: u64,
    pub method: Method,
    /// The broad phase's pairs, sorted by slot pair.
    pub pairs: &'w [ProxyPair],
    pub moved: &'w MovedSet,
    pub interest: &'w InterestMatrix,
    pub groups: &'w CollisionGroups,
    pub objects: &'w PlacedObjects,
    /// The tolerance of pairs without their own (`tolerance.rs`; 0: touching pairs only).
    pub default_tolerance: f64,
}

/// What a narrow pass counted, and its first failure.
pub(crate) struct PassSummary {
    /// The Chung-Wang counters (only the `sv_*` fields are set), tested and box-filtered pairs.
    pub stats: CheckStats,
    /// The failure of the pair earliest in the broad-phase list, as the world reports it.
    pub first_failure: Option<WorldError>,
}

impl NarrowPhase {
    /// A narrow phase for `threads` pool threads (1 in serial mode).
    pub fn new(threads: usize) -> Self {
        Self {
            caches: PairCaches::default(),
            workers: Mutex::new((0..threads).map(|_| Box::default()).collect()),
            found: Vec::new(),
            near: Vec::new(),
            segments: Vec::new(),
        }
    }

    /// The last pass's collisions, sorted by id pair.
    pub fn found(&self) -> &[Found] {
        &self.found
    }

    /// The last pass's separated pairs within their tolerance, sorted by id pair.
    pub fn near(&self) -> &[NearPair] {
        &self.near
    }

    /// Marks `slot` as removed in the pair caches; false when it may be reused at once (see
    /// [`PairCaches::remove_slot`]).
    pub fn remove_slot(&mut self, slot: u32) -> bool {
        self.caches.remove_slot(slot)
    }

    /// Filters, tests and caches the pairs of `input` (on `pool` when given), collecting the
    /// collisions sorted by id pair.
    pub fn run(&mut self, input: &PassInput<'_>, pool: Option<&rayon::ThreadPool>) -> PassSummary {
        let room = self.found.capacity();
        let workers = self
            .workers
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        let threads = pool.map_or(1, rayon::ThreadPool::current_num_threads);
        // Room for every range's segment in any worker, so a warm world does not allocate.
        let most_ranges = threads * RANGES_PER_THREAD;
        self.segments.reserve(most_ranges);
        for worker in workers.iter_mut() {
            worker.clear(room);
            worker.segments.reserve(most_ranges);
        }
        let (ranges, range_len) = split_ranges(input.pairs.len(), threads);
        let table = self.caches.begin(input.check, ranges);
        let pass = PairPass {
            method: input.method,
            pairs: input.pairs,
            moved: input.moved,
            interest: input.interest,
            groups: input.groups,
            objects: input.objects,
            default_tolerance: input.default_tolerance,
            idle_workers: &self.workers,
            range_len,
        };
        match pool {
            Some(pool) => pool.install(|| pass.run(table)),
            None => pass.run(table),
        }
        self.caches.finish(ranges);

        let mut found = std::mem::take(&mut self.found);
        found.clear();
        let workers = self
            .workers
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        pair_results::merge_found(workers, &mut self.segments, &mut found);
        self.near.clear();
        for worker in workers.iter() {
            self.near.extend_from_slice(&worker.near);
        }
        self.near.sort_unstable_by_key(|p| (p.a, p.b));
        let mut stats = CheckStats::default();
        let mut first: Option<Failure> = None;
        for worker in workers.iter_mut() {
            stats.add_sv_counters(&worker.stats);
            stats.tested_pairs += worker.tested;
            stats.box_filtered_pairs += worker.box_filtered;
            if let Some(failure) = worker.failure.take()
                && first
                    .as_ref()
                    .is_none_or(|f| failure.pair_index < f.pair_index)
            {
                first = Some(failure);
            }
        }
        found.sort_unstable_by_key(|c| c.key);
        self.found = found;
        PassSummary {
            stats,
            first_failure: first.map(|f| WorldError::Narrow {
                a: f.key.0,
                b: f.key.1,
                source: f.source,
            }),
        }
    }
}

/// What the pass reads of the world (shared by the pool threads).
pub(crate) struct PairPass<'w> {
    pub method: Method,
    /// The broad phase's pairs, sorted by slot pair.
    pub pairs: &'w [ProxyPair],
    pub moved: &'w MovedSet,
    pub interest: &'w InterestMatrix,
    /// Collision groups: checked before the interest matrix.
    pub groups: &'w CollisionGroups,
    pub objects: &'w PlacedObjects,
    /// As [`PassInput::default_tolerance`].
    pub default_tolerance: f64,
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
        let found_before = worker.found.len();
        let mut merge = table.merge();
        let objects = self.objects;
        for (i, &ProxyPair(sa, sb)) in pairs.iter().enumerate() {
            if let Some(&ProxyPair(ahead_a, ahead_b)) = pairs.get(i + PREFETCH_AHEAD) {
                objects.prefetch(ahead_a);
                objects.prefetch(ahead_b);
            }
            if !self.moved.contains(sa) && !self.moved.contains(sb) {
                continue;
            }
            if !self.groups.admits(sa, sb) {
                continue;
            }
            // The ids (a random read per pair in a large world) are only looked up here when both
            // objects have pair settings, and otherwise after the test for colliding pairs.
            let mut own_callback = false;
            let mut tolerance = self.default_tolerance;
            if self.interest.both_have_settings(sa, sb) {
                let (Some(a), Some(b)) = (objects.id(sa), objects.id(sb)) else {
                    continue;
                };
                let settings = self.interest.get(&PairKey::new(a, b));
                if settings.uninterested {
                    continue;
                }
                own_callback = settings.own_callback;
                tolerance = settings.tolerance.unwrap_or(tolerance);
            }
            let key = slot_pair_key(sa, sb);
            let kind = PairKind::of(self.method, objects.traits(sa), objects.traits(sb));
            // The Chung-Wang query's bounding-box pre-test, run here with the same pose and
            // margin: a pair it separates is not tested (its cache entry, if any, is carried
            // over untouched).
            let memo = if kind.has_box_pretest() {
                merge.pretest_memo(key)
            } else {
                PretestMemo::default()
            };
            let pretest = box_pretest(
                kind,
                memo,
                objects.pretest_box(sa),
                objects.pretest_box(sb),
                || objects.matrix(sa).inv_mul(objects.matrix(sb)),
            );
            if pretest == PretestOutcome::Separated {
                worker.box_filtered += 1;
                if tolerance > 0.0 {
                    test_apart_pair(&mut worker, first + i, (sa, sb), tolerance, objects);
                }
                continue;
            }
            worker.tested += 1;
            merge.prefetch_cache(PREFETCH_AHEAD);
            let mut apart = false;
            merge.test(key, |cache| {
                let (a, b) = (objects.placed(sa), objects.placed(sb));
                let outcome = test_pair(kind, &a, &b, cache, &mut worker.narrow);
                let certified = outcome.as_ref().is_ok_and(|o| o.certified);
                apart = outcome.as_ref().is_ok_and(|o| o.witness.is_none());
                worker.record(first + i, (sa, sb), outcome, own_callback, objects);
                PretestMemo::after_test(pretest, certified)
            });
            if apart && tolerance > 0.0 {
                test_apart_pair(&mut worker, first + i, (sa, sb), tolerance, objects);
            }
        }
        merge.finish();
        if worker.found.len() > found_before {
            worker.segments.push(FoundSegment {
                first_pair: first,
                start: found_before,
                end: worker.found.len(),
            });
        }
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
