//! The narrow phase's per-pair caches (separating vector, simplex, features, plane), kept in a
//! table sorted by slot pair and merged with each check's sorted broad-phase pairs.
//!
//! Rationale: the broad phase hands out its pairs sorted by slot pair, so walking the table
//! alongside them finds each pair's cache with sequential reads, where a hash lookup per pair per
//! check would miss the cache at random (10^5 pairs per check in large scenes). The merge writes
//! the next table into a second buffer (entries of pairs not tested this check are carried over
//! unchanged), and the two buffers swap; both keep their capacity, so a warm world does not
//! allocate. Caches are boxed so a test moves a pointer, not the cache, and the boxes of dropped
//! entries are reset and recycled.
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
//! a GJK run, where a cold start finds the answer directly. Measured on `cw-rod-500` (boxes going
//! in and out of overlap every few frames): keeping caches 64 checks held a table 7 times the
//! tested pairs and cost 7% of the frame in merging, for no fewer visits than 2 checks.

use colldet_narrow::PairCache;

/// Checks a pair may go untested before the merge drops its cache (see the module docs).
pub(crate) const STALE_AFTER_CHECKS: u64 = 2;

/// The key of the slot pair `{a, b}`, `a < b`: ascending keys are ascending slot pairs.
#[inline]
pub(crate) fn slot_pair_key(a: u32, b: u32) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

/// One pair's cache and the last check that tested it.
#[derive(Default)]
struct CachedPair {
    key: u64,
    /// `None` only while the cache is lent out to a test during a check.
    cache: Option<Box<PairCache>>,
    last_tested: u64,
    /// The next check skips the world's bounding-box filter for this pair: it found the boxes
    /// overlapping at the last check, or the pair's cache holds a collision certificate (see
    /// [`PairCaches::lend_unless`]).
    skip_filter: bool,
}

/// The caches of the pairs tested recently, sorted by [`slot_pair_key`].
#[derive(Default)]
pub(crate) struct PairCaches {
    entries: Vec<CachedPair>,
    /// The table being merged during a check (swapped with `entries` by [`PairCaches::finish`]).
    next: Vec<CachedPair>,
    /// Position of the merge in `entries`.
    cursor: usize,
    /// Entries last tested before this check are dropped by the current merge.
    keep_from: u64,
    /// Reset caches of dropped entries, for reuse. Boxed on purpose: entries hold their cache by
    /// pointer, and recycling keeps the block.
    #[allow(clippy::vec_box)]
    spare: Vec<Box<PairCache>>,
    /// `removed[slot]`: the slot's object was removed and its entries are still to be dropped.
    removed: Vec<bool>,
    /// The slots marked in `removed`.
    removed_slots: Vec<u32>,
}

impl PairCaches {
    /// Number of pairs with a cache.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Starts the merge of check number `check`: [`PairCaches::lend`] then takes keys in
    /// ascending order, and entries untested since before `check - STALE_AFTER_CHECKS` go.
    pub fn begin(&mut self, check: u64) {
        self.next.clear();
        self.cursor = 0;
        self.keep_from = check.saturating_sub(STALE_AFTER_CHECKS);
    }

    /// Whether the entry `key` involves a removed slot.
    #[inline]
    fn involves_removed(&self, key: u64) -> bool {
        let removed = |slot: u32| self.removed.get(slot as usize).copied().unwrap_or(false);
        removed((key >> 32) as u32) || removed(key as u32)
    }

    /// Carries the entry at the cursor over to the next table (or drops it, recycling its cache,
    /// when it is stale or involves a removed slot) and advances the cursor.
    #[inline]
    fn carry_one(&mut self) {
        let mut entry = std::mem::take(&mut self.entries[self.cursor]);
        self.cursor += 1;
        if entry.last_tested < self.keep_from
            || (!self.removed_slots.is_empty() && self.involves_removed(entry.key))
        {
            if let Some(mut cache) = entry.cache.take() {
                cache.reset();
                self.spare.push(cache);
            }
        } else {
            self.next.push(entry);
        }
    }

    /// Carries the entries with keys below `key` over to the next table.
    #[inline]
    fn carry_below(&mut self, key: u64) {
        while self
            .entries
            .get(self.cursor)
            .is_some_and(|entry| entry.key < key)
        {
            self.carry_one();
        }
    }

    /// Lends the cache of the pair `key` (ascending across calls within a check; a fresh cache
    /// for a pair without one) and returns it with the index to give it back at.
    #[inline]
    pub fn lend(&mut self, key: u64) -> (u32, Box<PairCache>) {
        self.carry_below(key);
        self.lend_at_cursor(key, false)
    }

    /// As [`PairCaches::lend`], for a pair under the bounding-box filter: unless the entry says
    /// to skip the filter (set when the filter found the boxes overlapping at the check before,
    /// for one check, or by [`PairCaches::give_back`] while the cache holds a collision
    /// certificate), `separated` runs first, and when it returns true the pair is not lent
    /// (`None`; its entry, if any, is carried over untouched, as for an untested pair).
    /// Otherwise the entry records whether `separated` ran, so the next check skips it.
    ///
    /// Rationale: as the Chung-Wang query's own pre-test. Boxes found overlapping usually still
    /// overlap one check later, so testing them every other check halves the cost on pairs that
    /// go on to the exact test; a pair holding a certificate is usually still colliding, and the
    /// query checks the certificate first, without the pre-test.
    #[inline]
    pub fn lend_unless(
        &mut self,
        key: u64,
        separated: impl FnOnce() -> bool,
    ) -> Option<(u32, Box<PairCache>)> {
        self.carry_below(key);
        let entry = self
            .entries
            .get(self.cursor)
            .filter(|entry| entry.key == key);
        let filter_runs = !entry.is_some_and(|entry| entry.skip_filter);
        if filter_runs && separated() {
            if entry.is_some() {
                self.carry_one();
            }
            return None;
        }
        Some(self.lend_at_cursor(key, filter_runs))
    }

    /// Lends the cache of `key`, whose entry (if any) is at the cursor; the next table's entry
    /// gets `skip_filter`.
    #[inline]
    fn lend_at_cursor(&mut self, key: u64, skip_filter: bool) -> (u32, Box<PairCache>) {
        let (cache, last_tested) = match self.entries.get_mut(self.cursor) {
            Some(entry) if entry.key == key => {
                self.cursor += 1;
                (entry.cache.take(), entry.last_tested)
            }
            _ => (None, 0),
        };
        let cache = cache.unwrap_or_else(|| self.spare.pop().unwrap_or_default());
        self.next.push(CachedPair {
            key,
            cache: None,
            last_tested,
            skip_filter,
        });
        ((self.next.len() - 1) as u32, cache)
    }

    /// Ends the merge: the remaining entries are carried over and the next table becomes
    /// current. Lent caches are given back afterwards with [`PairCaches::give_back`].
    pub fn finish(&mut self) {
        while self.cursor < self.entries.len() {
            self.carry_one();
        }
        for &slot in &self.removed_slots {
            self.removed[slot as usize] = false;
        }
        self.removed_slots.clear();
        std::mem::swap(&mut self.entries, &mut self.next);
        self.next.clear();
    }

    /// Gives back the cache lent at `index`, tested at check `check`; `certified` (the cache
    /// holds a collision certificate) makes the next check skip the bounding-box filter.
    #[inline]
    pub fn give_back(&mut self, index: u32, cache: Box<PairCache>, check: u64, certified: bool) {
        let entry = &mut self.entries[index as usize];
        entry.cache = Some(cache);
        entry.last_tested = check;
        entry.skip_filter |= certified;
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

    /// The address of a cache (caches are told apart by their box).
    fn address(cache: &PairCache) -> usize {
        std::ptr::from_ref(cache) as usize
    }

    /// Lends `pairs` in check `check` and gives their caches back; returns the caches' addresses.
    fn test_pairs(caches: &mut PairCaches, check: u64, pairs: &[(u32, u32)]) -> Vec<usize> {
        caches.begin(check);
        let lent: Vec<_> = pairs
            .iter()
            .map(|&(a, b)| caches.lend(slot_pair_key(a, b)))
            .collect();
        caches.finish();
        let addresses = lent.iter().map(|(_, c)| address(c)).collect();
        for (index, cache) in lent {
            caches.give_back(index, cache, check, false);
        }
        addresses
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
        assert!(caches.spare.is_empty());
        // Check 4: they are now stale: dropped by the merge, their caches recycled, one of them
        // at once for the new pair {5,6}.
        let fourth = test_pairs(&mut caches, 4, &[(5, 6)]);
        assert_eq!(
            keys(&caches),
            [(0, 2), (1, 2), (5, 6)].map(|(a, b)| slot_pair_key(a, b))
        );
        assert!([first[0], first[2]].contains(&fourth[0]), "a recycled box");
        assert_eq!(caches.spare.len(), 1);
        // Removal of slot 2 marks it; the next merge drops {0,2} and {1,2}, whether carried
        // before or after the lent key.
        assert!(caches.remove_slot(2));
        assert_eq!(caches.len(), 3);
        test_pairs(&mut caches, 5, &[(0, 3)]);
        assert_eq!(
            keys(&caches),
            [(0, 3), (5, 6)].map(|(a, b)| slot_pair_key(a, b))
        );
        assert_eq!(caches.spare.len(), 2, "one reused, two dropped");
        // Removal of slot 0, from before the lent key {5,6}.
        assert!(caches.remove_slot(0));
        test_pairs(&mut caches, 6, &[(5, 6)]);
        assert_eq!(keys(&caches), [slot_pair_key(5, 6)]);
        assert_eq!(caches.spare.len(), 3);
        assert!(!PairCaches::default().remove_slot(4), "nothing to drop");
    }
}
