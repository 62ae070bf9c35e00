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
//! tested; it is dropped when one of its objects is removed, or at an eviction when the pair was
//! not tested in the last [`super::CACHE_EVICTION_PERIOD`] checks. Removal is lazy: it marks the
//! slot, and the next merge (which walks the whole table anyway) drops the slot's entries, so
//! removing `k` objects costs O(k) plus one pass instead of `k` passes over the table. The world
//! does not reuse a marked slot before that merge.

use colldet_narrow::PairCache;

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
}

/// The caches of the pairs tested recently, sorted by [`slot_pair_key`].
#[derive(Default)]
pub(crate) struct PairCaches {
    entries: Vec<CachedPair>,
    /// The table being merged during a check (swapped with `entries` by [`PairCaches::finish`]).
    next: Vec<CachedPair>,
    /// Position of the merge in `entries`.
    cursor: usize,
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

    /// Starts a check's merge: [`PairCaches::lend`] then takes keys in ascending order.
    pub fn begin(&mut self) {
        self.next.clear();
        self.cursor = 0;
    }

    /// Whether the entry `key` involves a removed slot.
    #[inline]
    fn involves_removed(&self, key: u64) -> bool {
        let removed = |slot: u32| self.removed.get(slot as usize).copied().unwrap_or(false);
        removed((key >> 32) as u32) || removed(key as u32)
    }

    /// Carries the entry at the cursor over to the next table (or drops it, recycling its cache,
    /// when it involves a removed slot) and advances the cursor.
    fn carry_one(&mut self) {
        let mut entry = std::mem::take(&mut self.entries[self.cursor]);
        self.cursor += 1;
        if !self.removed_slots.is_empty() && self.involves_removed(entry.key) {
            if let Some(mut cache) = entry.cache.take() {
                cache.reset();
                self.spare.push(cache);
            }
        } else {
            self.next.push(entry);
        }
    }

    /// Carries the entries with keys below `key` over to the next table.
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
    pub fn lend(&mut self, key: u64) -> (u32, Box<PairCache>) {
        self.carry_below(key);
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
        });
        ((self.next.len() - 1) as u32, cache)
    }

    /// Ends the merge: the remaining entries are carried over and the next table becomes
    /// current. Lent caches are given back afterwards with [`PairCaches::give_back`].
    pub fn finish(&mut self) {
        if self.removed_slots.is_empty() {
            let rest = self.entries.drain(self.cursor..);
            self.next.extend(rest);
        } else {
            while self.cursor < self.entries.len() {
                self.carry_one();
            }
            for &slot in &self.removed_slots {
                self.removed[slot as usize] = false;
            }
            self.removed_slots.clear();
        }
        std::mem::swap(&mut self.entries, &mut self.next);
        self.next.clear();
    }

    /// Gives back the cache lent at `index`, tested at check `check`.
    pub fn give_back(&mut self, index: u32, cache: Box<PairCache>, check: u64) {
        let entry = &mut self.entries[index as usize];
        entry.cache = Some(cache);
        entry.last_tested = check;
    }

    /// Drops the entries for which `drop` holds, recycling their caches.
    fn drop_where(&mut self, drop: impl Fn(&CachedPair) -> bool) {
        let spare = &mut self.spare;
        self.entries.retain_mut(|entry| {
            if !drop(entry) {
                return true;
            }
            if let Some(mut cache) = entry.cache.take() {
                cache.reset();
                spare.push(cache);
            }
            false
        });
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

    /// Drops the caches of pairs not tested since check `before`.
    pub fn evict_stale(&mut self, before: u64) {
        self.drop_where(|e| e.last_tested < before);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The address of a cache (caches are told apart by their box).
    fn address(cache: &PairCache) -> usize {
        std::ptr::from_ref(cache) as usize
    }

    #[test]
    fn merge_keeps_untested_entries_and_recycles_dropped_caches() {
        let mut caches = PairCaches::default();
        // Check 1: pairs {0,1}, {0,2}, {3,4} tested.
        caches.begin();
        let lent: Vec<_> = [(0, 1), (0, 2), (3, 4)]
            .iter()
            .map(|&(a, b)| caches.lend(slot_pair_key(a, b)))
            .collect();
        caches.finish();
        let boxes: Vec<usize> = lent.iter().map(|(_, c)| address(c)).collect();
        for (index, cache) in lent {
            caches.give_back(index, cache, 1);
        }
        assert_eq!(caches.len(), 3);
        // Check 2: only {0,2} and a new {1,2}: {0,1} and {3,4} are carried over.
        caches.begin();
        let (i02, c02) = caches.lend(slot_pair_key(0, 2));
        let (i12, c12) = caches.lend(slot_pair_key(1, 2));
        caches.finish();
        assert_eq!(address(&c02), boxes[1], "{{0,2}} keeps its cache");
        assert!(!boxes.contains(&address(&c12)), "{{1,2}} gets a new one");
        caches.give_back(i02, c02, 2);
        caches.give_back(i12, c12, 2);
        let keys: Vec<u64> = caches.entries.iter().map(|e| e.key).collect();
        assert_eq!(
            keys,
            [(0, 1), (0, 2), (1, 2), (3, 4)].map(|(a, b)| slot_pair_key(a, b))
        );
        assert!(caches.entries.iter().all(|e| e.cache.is_some()));
        // Eviction of pairs untested since check 2, then removal of slot 2.
        caches.evict_stale(2);
        assert_eq!(caches.len(), 2);
        // Removal of slot 2 marks it; the next merge drops {0,2} and {1,2}, whether carried
        // before or after the lent key.
        assert!(caches.remove_slot(2));
        assert_eq!(caches.len(), 2);
        caches.begin();
        let (i01, c01) = caches.lend(slot_pair_key(0, 3));
        caches.finish();
        assert_eq!(caches.len(), 1);
        assert_eq!(
            caches.spare.len(),
            3,
            "two evicted, two dropped, one reused"
        );
        caches.give_back(i01, c01, 3);
        // Removal of slot 0 (from before {0,3}), then dropped caches are recycled.
        assert!(caches.remove_slot(0));
        caches.begin();
        let (_, cache) = caches.lend(slot_pair_key(5, 6));
        caches.finish();
        assert_eq!(caches.len(), 1);
        assert_eq!(caches.spare.len(), 3);
        drop(cache);
        assert!(!PairCaches::default().remove_slot(4), "nothing to drop");
    }
}
