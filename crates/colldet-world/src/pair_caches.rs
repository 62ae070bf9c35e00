//! The narrow phase's per-pair caches (one [`PairCache`] per pair, of the pair's kind, and the
//! pair's [`PretestMemo`]), kept in a table sorted by slot pair and merged with each check's sorted broad-phase pairs.
//!
//! Rationale: the broad phase hands out its pairs sorted by slot pair, so walking the table
//! alongside them finds each pair's cache with sequential reads, where a hash lookup per pair per
//! check would miss the cache at random (10^5 pairs per check in large scenes). The merge runs in
//! key ranges (one per thread's piece of work, see `pair_pass.rs`); each range writes its part of
//! the next table (entries of pairs not tested this check are carried over unchanged), and the
//! parts, joined in key order, become the table. Every buffer keeps its capacity, so a warm world
//! does not allocate. Caches are boxed so a merge moves a pointer, not the cache, and the boxes
//! of dropped entries are reset and recycled: first for the same range's new pairs, then, through
//! a spare list, for any range's new pairs at later checks, so the number of caches made does not
//! depend on how the pool spreads the ranges.
//!
//! Lifetime (as the thesis's interest matrix held them): an entry is made when its pair is first
//! tested; it is dropped when one of its objects is removed, or by the first merge after the pair
//! went untested for [`STALE_AFTER_CHECKS`] checks. Both happen in the merge, which walks the
//! whole table anyway: removal only marks the slot, so removing `k` objects costs O(k) plus that
//! pass, and the world does not reuse a marked slot before it.
//!
//! Why so short a life: a pair drops out of the tests when its boxes stop overlapping or neither
//! object moves. By the time it comes back, its witnesses describe an old configuration: a
//! Chung-Wang certificate tetrahedron kept from a past contact is usually lost at once and costs
//! a GJK run, where a cold start finds the answer directly, and a long-lived table costs more to
//! merge than its old witnesses save (the measurement is in docs/benchmarks.md).

use std::sync::{Mutex, PoisonError};

use colldet_narrow::PairCache;
use colldet_narrow::dispatch::PretestMemo;

use super::prefetch;

/// Reset caches for reuse. Boxed on purpose: table entries hold their cache by pointer, and
/// recycling keeps the block.
#[allow(clippy::vec_box)]
type CacheBoxes = Vec<Box<PairCache>>;

/// Checks a pair may go untested before the merge drops its cache (see the module docs).
pub(crate) const STALE_AFTER_CHECKS: u64 = 2;

/// The key of the slot pair `{a, b}`, `a < b`: ascending keys are ascending slot pairs.
#[inline]
pub(crate) fn slot_pair_key(a: u32, b: u32) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

/// One pair's cache and the last check that tested it.
#[derive(Default)]
pub(crate) struct CachedPair {
    key: u64,
    /// `None` only in a table being merged, once the merge has moved the entry on.
    cache: Option<Box<PairCache>>,
    last_tested: u64,
    /// What the pair's last test leaves for its next bounding-box pre-test.
    pretest: PretestMemo,
}

/// The caches of the pairs tested recently, sorted by [`slot_pair_key`].
///
/// A check merges the table with its sorted pairs in key ranges ([`PairCaches::begin`],
/// [`TableRange::split`]); each range writes its part of the next table, and
/// [`PairCaches::finish`] joins the parts in key order.
#[derive(Default)]
pub(crate) struct PairCaches {
    entries: Vec<CachedPair>,
    /// The next table's parts, one per key range of the merge (kept across checks with their
    /// capacity).
    parts: Vec<TablePart>,
    /// Reset caches for pairs new to the table. Locked only when a range has used up the caches
    /// it dropped itself.
    spare: Mutex<CacheBoxes>,
    /// `removed[slot]`: the slot's object was removed and its entries are still to be dropped.
    removed: Vec<bool>,
    /// The slots marked in `removed`.
    removed_slots: Vec<u32>,
    /// A merge has begun and not finished: a check that panicked left the table half moved.
    merging: bool,
}

/// What the merge of check `check` drops and how it stamps what it tests.
#[derive(Clone, Copy)]
struct MergeRules<'t> {
    check: u64,
    /// Entries last tested before this check are dropped.
    keep_from: u64,
    /// See [`PairCaches::removed`]; empty when no slot is marked.
    removed: &'t [bool],
}

impl MergeRules<'_> {
    /// Whether the merge drops `entry` when it is not tested.
    #[inline]
    fn drops(&self, entry: &CachedPair) -> bool {
        let removed = |slot: u32| self.removed.get(slot as usize).copied().unwrap_or(false);
        entry.last_tested < self.keep_from
            || (!self.removed.is_empty()
                && (removed((entry.key >> 32) as u32) || removed(entry.key as u32)))
    }
}

/// What the merge of one key range writes.
#[derive(Default)]
struct TablePart {
    /// The range's part of the next table.
    entries: Vec<CachedPair>,
    /// Reset caches of the range's dropped entries, used first for the range's new pairs (the
    /// rest join the table's spare caches when the merge ends). Per range, not per thread, so
    /// how many caches the merge allocates does not depend on how the pool spreads the ranges.
    dropped: CacheBoxes,
}

/// A key range of the table being merged and the parts of the next table it writes.
pub(crate) struct TableRange<'t> {
    old: &'t mut [CachedPair],
    parts: &'t mut [TablePart],
    spare: &'t Mutex<CacheBoxes>,
    rules: MergeRules<'t>,
}

impl<'t> TableRange<'t> {
    /// Number of parts the range writes.
    pub fn parts(&self) -> usize {
        self.parts.len()
    }

    /// Splits the range at `key`: the first `left_parts` parts take the keys below it.
    pub fn split(self, left_parts: usize, key: u64) -> (Self, Self) {
        let at = self.old.partition_point(|entry| entry.key < key);
        let (old_left, old_right) = self.old.split_at_mut(at);
        let (parts_left, parts_right) = self.parts.split_at_mut(left_parts);
        (
            TableRange {
                old: old_left,
                parts: parts_left,
                spare: self.spare,
                rules: self.rules,
            },
            TableRange {
                old: old_right,
                parts: parts_right,
                spare: self.spare,
                rules: self.rules,
            },
        )
    }

    /// The merge of a range of one part.
    pub fn merge(self) -> TableMerge<'t> {
        assert_eq!(self.parts.len(), 1, "merge one part at a time");
        let part = &mut self.parts[0];
        part.entries.clear();
        TableMerge {
            old: self.old,
            cursor: 0,
            out: &mut part.entries,
            dropped: &mut part.dropped,
            spare: self.spare,
            rules: self.rules,
        }
    }
}

/// The merge of one key range with the pairs of that range, taken in ascending key order: pairs
/// tested get their cache (kept, recycled or new) and a fresh stamp; entries of other pairs are
/// carried over or dropped. Ends with [`TableMerge::finish`].
#[must_use = "a merge carries the rest of its range over only in `finish`"]
pub(crate) struct TableMerge<'t> {
    old: &'t mut [CachedPair],
    /// Position of the merge in `old`.
    cursor: usize,
    out: &'t mut Vec<CachedPair>,
    /// See [`TablePart::dropped`].
    dropped: &'t mut CacheBoxes,
    spare: &'t Mutex<CacheBoxes>,
    rules: MergeRules<'t>,
}

impl TableMerge<'_> {
    /// Carries the entry at the cursor over to the next table (or drops it, recycling its cache,
    /// when it is stale or involves a removed slot) and advances the cursor.
    #[inline]
    fn carry_one(&mut self) {
        let mut entry = std::mem::take(&mut self.old[self.cursor]);
        self.cursor += 1;
        if self.rules.drops(&entry) {
            if let Some(mut cache) = entry.cache.take() {
                cache.reset();
                self.dropped.push(cache);
            }
        } else {
            self.out.push(entry);
        }
    }

    /// Carries the entries with keys below `key` over to the next table.
    #[inline]
    fn carry_below(&mut self, key: u64) {
        debug_assert!(
            self.out.last().is_none_or(|entry| entry.key < key),
            "keys ascend across a merge (a key out of order would get a second entry)"
        );
        while self
            .old
            .get(self.cursor)
            .is_some_and(|entry| entry.key < key)
        {
            self.carry_one();
        }
    }

    /// The pre-test memo of the pair `key` (the default for a pair without an entry). Keys
    /// ascend across calls, as for [`TableMerge::test`].
    #[inline]
    pub fn pretest_memo(&mut self, key: u64) -> PretestMemo {
        self.carry_below(key);
        match self.old.get(self.cursor) {
            Some(entry) if entry.key == key => entry.pretest,
            _ => PretestMemo::default(),
        }
    }

    /// Tests the pair `key` (keys ascend across calls): `test` gets the pair's cache (a reset
    /// one for a pair without an entry) and returns the pair's new pre-test memo.
    #[inline]
    pub fn test(&mut self, key: u64, test: impl FnOnce(&mut PairCache) -> PretestMemo) {
        self.carry_below(key);
        let cache = match self.old.get_mut(self.cursor) {
            Some(entry) if entry.key == key => {
                self.cursor += 1;
                entry.cache.take()
            }
            _ => None,
        };
        let mut cache = cache.unwrap_or_else(|| self.new_cache());
        let pretest = test(&mut cache);
        self.out.push(CachedPair {
            key,
            cache: Some(cache),
            last_tested: self.rules.check,
            pretest,
        });
    }

    /// A reset cache for a pair new to the table: one the range dropped, else a spare one, else
    /// a new one.
    #[cold]
    fn new_cache(&mut self) -> Box<PairCache> {
        self.dropped.pop().unwrap_or_else(|| {
            let spare = self
                .spare
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop();
            spare.unwrap_or_default()
        })
    }

    /// Prefetches the cache of the entry `ahead` entries past the cursor (a hint: the pairs to
    /// test are most of the table's entries, in the same order).
    #[inline]
    pub fn prefetch_cache(&self, ahead: usize) {
        if let Some(Some(cache)) = self.old.get(self.cursor + ahead).map(|e| e.cache.as_ref()) {
            prefetch::prefetch(&**cache);
        }
    }

    /// Carries the range's remaining entries over.
    pub fn finish(mut self) {
        while self.cursor < self.old.len() {
            self.carry_one();
        }
    }
}

impl PairCaches {
    /// Number of pairs with a cache.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Starts the merge of check number `check` in `parts` key ranges (at least one): split the
    /// range returned, merge each part ([`TableRange::merge`]), then call
    /// [`PairCaches::finish`]. Entries untested since before `check - STALE_AFTER_CHECKS` go.
    pub fn begin(&mut self, check: u64, parts: usize) -> TableRange<'_> {
        if self.merging {
            // The last merge did not finish (a pair test panicked): its entries are half moved,
            // no longer sorted. Start again from an empty table; the caches go.
            self.entries.clear();
        }
        self.merging = true;
        let parts = parts.max(1);
        if self.parts.len() < parts {
            self.parts.resize_with(parts, TablePart::default);
        }
        TableRange {
            old: &mut self.entries,
            parts: &mut self.parts[..parts],
            spare: &self.spare,
            rules: MergeRules {
                check,
                keep_from: check.saturating_sub(STALE_AFTER_CHECKS),
                removed: if self.removed_slots.is_empty() {
                    &[]
                } else {
                    &self.removed
                },
            },
        }
    }

    /// Ends the merge begun with `parts` ranges, all merged and finished: their parts, in key
    /// order, become the table.
    pub fn finish(&mut self, parts: usize) {
        let parts = parts.max(1);
        let spare = self.spare.get_mut().unwrap_or_else(PoisonError::into_inner);
        if parts == 1 {
            std::mem::swap(&mut self.entries, &mut self.parts[0].entries);
        } else {
            self.entries.clear();
            for part in &mut self.parts[..parts] {
                self.entries.append(&mut part.entries);
            }
        }
        for part in &mut self.parts[..parts] {
            spare.append(&mut part.dropped);
        }
        for &slot in &self.removed_slots {
            self.removed[slot as usize] = false;
        }
        self.removed_slots.clear();
        self.merging = false;
    }

    /// Marks `slot` as removed: the caches of its pairs are dropped by the next merge
    /// ([`PairCaches::begin`] to [`PairCaches::finish`]). Returns false when there is nothing to
    /// drop (the table is empty), so the slot may be reused at once.
    pub fn remove_slot(&mut self, slot: u32) -> bool {
        if self.entries.is_empty() {
            return false;
        }
        let s = slot as usize;
        if self.removed.len() <= s {
            self.removed.resize(s + 1, false);
        }
        if !self.removed[s] {
            self.removed[s] = true;
            self.removed_slots.push(slot);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_narrow::dispatch::PretestOutcome;

    /// The memo after a test whose pre-test found the boxes overlapping (or did not run) and
    /// whose cache is (or is not) certified.
    fn memo_of((filter_ran, certified): (bool, bool)) -> PretestMemo {
        let outcome = if filter_ran {
            PretestOutcome::Overlapping
        } else {
            PretestOutcome::NotRun
        };
        PretestMemo::after_test(outcome, certified)
    }

    /// The address of a cache (caches are told apart by their box).
    fn address(cache: &PairCache) -> usize {
        std::ptr::from_ref(cache) as usize
    }

    /// Tests `pairs` in check `check` in `parts` key ranges of `range_len` pairs (halved as the
    /// world's pass halves them); `flags(i)` gives pair `i`'s (filter ran, certified). Returns
    /// the caches' addresses.
    fn test_ranges(
        caches: &mut PairCaches,
        check: u64,
        pairs: &[(u32, u32)],
        (parts, range_len): (usize, usize),
        flags: &dyn Fn(usize) -> (bool, bool),
    ) -> Vec<usize> {
        fn run(
            range: TableRange<'_>,
            first: usize,
            pairs: &[(u32, u32)],
            range_len: usize,
            flags: &dyn Fn(usize) -> (bool, bool),
            addresses: &mut Vec<usize>,
        ) {
            let parts = range.parts();
            if parts > 1 {
                let at = (parts / 2 * range_len).min(pairs.len());
                let key = pairs
                    .get(at)
                    .map_or(u64::MAX, |&(a, b)| slot_pair_key(a, b));
                let (left, right) = range.split(parts / 2, key);
                run(left, first, &pairs[..at], range_len, flags, addresses);
                run(right, first + at, &pairs[at..], range_len, flags, addresses);
                return;
            }
            let mut merge = range.merge();
            for (i, &(a, b)) in pairs.iter().enumerate() {
                let memo = memo_of(flags(first + i));
                merge.test(slot_pair_key(a, b), |cache| {
                    addresses.push(address(cache));
                    memo
                });
            }
            merge.finish();
        }
        let mut addresses = Vec::new();
        let range = caches.begin(check, parts);
        run(range, 0, pairs, range_len, flags, &mut addresses);
        caches.finish(parts);
        addresses
    }

    fn test_pairs(caches: &mut PairCaches, check: u64, pairs: &[(u32, u32)]) -> Vec<usize> {
        test_ranges(caches, check, pairs, (1, pairs.len()), &|_| (false, false))
    }

    fn spare_count(caches: &mut PairCaches) -> usize {
        caches.spare.get_mut().unwrap().len()
    }

    fn keys(caches: &PairCaches) -> Vec<u64> {
        caches.entries.iter().map(|e| e.key).collect()
    }

    #[test]
    fn merge_keeps_recent_entries_and_recycles_dropped_caches() {
        assert_eq!(STALE_AFTER_CHECKS, 2, "the schedule below assumes 2");
        let mut caches = PairCaches::default();
        let first = test_pairs(&mut caches, 1, &[(0, 1), (0, 2), (3, 4)]);
        assert_eq!(caches.len(), 3);
        // Check 2: {0,2} keeps its cache, {1,2} gets a new one, {0,1} and {3,4} are carried.
        let second = test_pairs(&mut caches, 2, &[(0, 2), (1, 2)]);
        assert_eq!(second[0], first[1], "{{0,2}} keeps its cache");
        assert!(!first.contains(&second[1]), "{{1,2}} gets a new one");
        assert_eq!(
            keys(&caches),
            [(0, 1), (0, 2), (1, 2), (3, 4)].map(|(a, b)| slot_pair_key(a, b))
        );
        assert!(caches.entries.iter().all(|e| e.cache.is_some()));
        // Check 3: {0,1} and {3,4}, last tested at check 1, are still within the window.
        test_pairs(&mut caches, 3, &[(0, 2)]);
        assert_eq!(caches.len(), 4);
        assert_eq!(spare_count(&mut caches), 0);
        // Check 4: they are now stale: dropped by the merge, their caches recycled, one of them
        // at once for the new pair {5,6}.
        let fourth = test_pairs(&mut caches, 4, &[(5, 6)]);
        assert_eq!(
            keys(&caches),
            [(0, 2), (1, 2), (5, 6)].map(|(a, b)| slot_pair_key(a, b))
        );
        assert!([first[0], first[2]].contains(&fourth[0]), "a recycled box");
        assert_eq!(spare_count(&mut caches), 1);
        // Removal of slot 2 marks it; the next merge drops {0,2} and {1,2}, whether carried
        // before or after the lent key.
        assert!(caches.remove_slot(2));
        assert_eq!(caches.len(), 3);
        test_pairs(&mut caches, 5, &[(0, 3)]);
        assert_eq!(
            keys(&caches),
            [(0, 3), (5, 6)].map(|(a, b)| slot_pair_key(a, b))
        );
        assert_eq!(spare_count(&mut caches), 2, "one reused, two dropped");
        // Removal of slot 0, from before the lent key {5,6}.
        assert!(caches.remove_slot(0));
        test_pairs(&mut caches, 6, &[(5, 6)]);
        assert_eq!(keys(&caches), [slot_pair_key(5, 6)]);
        assert_eq!(spare_count(&mut caches), 3);
        assert!(!PairCaches::default().remove_slot(4), "nothing to drop");
    }

    /// The table as (key, last tested, skip filter), and each entry's cache address.
    fn snapshot(caches: &PairCaches) -> (Vec<(u64, u64, bool)>, Vec<usize>) {
        let rows = caches
            .entries
            .iter()
            .map(|e| (e.key, e.last_tested, e.pretest.skips_next()))
            .collect();
        let boxes = caches
            .entries
            .iter()
            .map(|e| address(e.cache.as_deref().expect("cache in the table")))
            .collect();
        (rows, boxes)
    }

    #[test]
    fn split_merges_equal_the_single_range_merge() {
        let mut rng = colldet_testkit::SeededRng::new(0x5eed_ca11);
        let mut whole = PairCaches::default();
        let mut split = PairCaches::default();
        for check in 1..=300u64 {
            // Pairs among 12 slots, each tested with probability 1/3; a slot removed now and then.
            let pairs: Vec<(u32, u32)> = (0..12u32)
                .flat_map(|a| (a + 1..12).map(move |b| (a, b)))
                .filter(|_| rng.index(3) == 0)
                .collect();
            if rng.index(10) == 0 {
                let slot = rng.index(12) as u32;
                assert_eq!(whole.remove_slot(slot), split.remove_slot(slot));
            }
            let flags: Vec<(bool, bool)> = pairs
                .iter()
                .map(|_| (rng.index(2) == 0, rng.index(4) == 0))
                .collect();
            let flags = |i: usize| flags[i];
            // The world's split for 1 to 4 threads and a minimum range of 1 to 3 pairs.
            let (parts, range_len) = super::super::pair_pass::split_ranges_with(
                pairs.len(),
                1 + rng.index(4),
                1 + rng.index(3),
            );
            let before = snapshot(&split);
            test_ranges(&mut whole, check, &pairs, (1, pairs.len()), &flags);
            test_ranges(&mut split, check, &pairs, (parts, range_len), &flags);
            let (rows, boxes) = snapshot(&split);
            assert_eq!(
                snapshot(&whole).0,
                rows,
                "check {check}: {parts} ranges of {range_len}"
            );
            // A pair that had an entry keeps its cache.
            for (row, address) in before.0.iter().zip(&before.1) {
                if let Some(i) = rows.iter().position(|r| r.0 == row.0) {
                    assert_eq!(boxes[i], *address, "check {check}: key {:x}", row.0);
                }
            }
            // Caches are neither lost nor made twice: table plus spare stays one set.
            let mut all = boxes.clone();
            all.extend(split.spare.get_mut().unwrap().iter().map(|c| address(c)));
            let count = all.len();
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), count, "check {check}: a cache twice");
        }
    }

    #[test]
    fn filter_skip_follows_the_last_test() {
        let key = slot_pair_key(1, 2);
        let mut caches = PairCaches::default();
        // (filter ran and found overlap, certified) -> whether the next check skips the filter.
        let cases = [
            (false, false, false),
            (true, false, true),
            (false, true, true),
            (true, true, true),
            (false, false, false),
            (true, false, true),
        ];
        let mut skipped = Vec::new();
        for (check, (filter_ran, certified, _)) in (1u64..).zip(cases) {
            let mut merge = caches.begin(check, 1).merge();
            skipped.push(merge.pretest_memo(key).skips_next());
            merge.test(key, |_| memo_of((filter_ran, certified)));
            merge.finish();
            caches.finish(1);
        }
        let expected: Vec<bool> = std::iter::once(false)
            .chain(cases.iter().take(cases.len() - 1).map(|c| c.2))
            .collect();
        assert_eq!(skipped, expected);
        // An untested pair's entry is carried over with its flag, and others do not see it.
        let mut merge = caches.begin(7, 1).merge();
        assert!(!merge.pretest_memo(slot_pair_key(0, 5)).skips_next());
        merge.finish();
        caches.finish(1);
        assert_eq!(snapshot(&caches).0, [(key, 6, true)]);
    }

    #[test]
    fn a_merge_left_unfinished_is_not_built_on() {
        let mut caches = PairCaches::default();
        test_pairs(&mut caches, 1, &[(0, 1), (0, 2), (1, 2)]);
        // As a panicking pair test leaves it: a cache taken, the merge never finished.
        let mut merge = caches.begin(2, 1).merge();
        merge.test(slot_pair_key(0, 2), |_| PretestMemo::default());
        drop(merge);
        test_pairs(&mut caches, 3, &[(1, 2)]);
        assert_eq!(keys(&caches), [slot_pair_key(1, 2)]);
        assert!(caches.entries.iter().all(|e| e.cache.is_some()));
    }
}
