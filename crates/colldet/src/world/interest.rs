//! The collision interest matrix (thesis section 7.0.1), stored sparsely: one entry per unordered
//! pair that has a setting (interest off, own callback) or a live narrow-phase cache. Entries are
//! found in O(1) through a hash map into an arena, so 100,000 objects need memory for the pairs
//! that matter, not for n^2 pairs. Pairs without an entry are interested and use the general
//! callback.
//!
//! The index is looked up once per tested pair (10^5 per check in large scenes), so it hashes
//! with a cheap multiply-xorshift mixer instead of SipHash: keys are handles the world issued,
//! not adversarial input.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use colldet_narrow::PairCache;

use super::ObjectId;

/// An unordered pair of live objects, smaller id first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct PairKey(pub ObjectId, pub ObjectId);

impl PairKey {
    pub fn new(a: ObjectId, b: ObjectId) -> Self {
        if a < b { Self(a, b) } else { Self(b, a) }
    }
}

/// Everything the world keeps per pair.
#[derive(Default)]
pub(crate) struct PairState {
    /// False when the user switched the pair off.
    pub uninterested: bool,
    /// Index into the world's callback table, if the pair has its own callback.
    pub callback: Option<usize>,
    /// The narrow phase's warm-start data (separating vector, simplex, features, plane).
    /// (`None` until the pair is first tested; boxed so checks move a pointer, not the cache.)
    pub cache: Option<Box<PairCache>>,
    /// The last check that tested the pair (caches of pairs not tested recently are dropped).
    pub last_tested: u64,
}

impl PairState {
    /// True when the entry holds a user setting and must survive cache eviction.
    fn has_setting(&self) -> bool {
        self.uninterested || self.callback.is_some()
    }
}

/// Hasher for [`PairKey`]s (two `u64` writes): each word is folded in by a rotate, xor and
/// multiply, and `finish` applies the SplitMix64 finaliser so every output bit depends on every
/// input bit (hashbrown takes buckets from the low bits and tags from the high ones).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairKeyHasher(u64);

impl Hasher for PairKeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^ (h >> 31)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used by `PairKey`; this path keeps the hasher total.
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Sparse symmetric pair table.
#[derive(Default)]
pub(crate) struct InterestMatrix {
    index: HashMap<PairKey, u32, BuildHasherDefault<PairKeyHasher>>,
    states: Vec<PairState>,
    keys: Vec<Option<PairKey>>,
    free: Vec<u32>,
    /// Caches of released entries, reset, for reuse (no allocation per new pair once warm).
    /// Boxed on purpose: entries hold their cache by pointer, and recycling keeps the block.
    #[allow(clippy::vec_box)]
    spare_caches: Vec<Box<PairCache>>,
}

impl InterestMatrix {
    /// The entry of `key`, if any.
    pub fn get(&self, key: &PairKey) -> Option<&PairState> {
        self.index.get(key).map(|&i| &self.states[i as usize])
    }

    /// The arena index of `key`'s entry, created (interested, no callback) if missing.
    pub fn entry_index(&mut self, key: PairKey) -> u32 {
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let i = match self.free.pop() {
            Some(i) => {
                self.states[i as usize] = PairState::default();
                self.keys[i as usize] = Some(key);
                i
            }
            None => {
                self.states.push(PairState::default());
                self.keys.push(Some(key));
                (self.states.len() - 1) as u32
            }
        };
        self.index.insert(key, i);
        i
    }

    /// The entry at arena index `i`.
    pub fn state_mut(&mut self, i: u32) -> &mut PairState {
        &mut self.states[i as usize]
    }

    /// The entry at arena index `i`.
    pub fn state(&self, i: u32) -> &PairState {
        &self.states[i as usize]
    }

    /// A cleared cache for a pair tested for the first time (a recycled one when available).
    pub fn fresh_cache(&mut self) -> Box<PairCache> {
        self.spare_caches.pop().unwrap_or_default()
    }

    fn release(&mut self, i: u32) {
        if let Some(key) = self.keys[i as usize].take() {
            self.index.remove(&key);
            if let Some(mut cache) = std::mem::take(&mut self.states[i as usize]).cache {
                cache.reset();
                self.spare_caches.push(cache);
            }
            self.free.push(i);
        }
    }

    /// Drops every entry that involves `id` (the object was removed).
    pub fn remove_object(&mut self, id: ObjectId) {
        let doomed: Vec<u32> = self
            .index
            .iter()
            .filter(|(k, _)| k.0 == id || k.1 == id)
            .map(|(_, &i)| i)
            .collect();
        doomed.into_iter().for_each(|i| self.release(i));
    }

    /// Drops the caches of pairs not tested since check `before`, unless they hold a setting.
    pub fn evict_stale(&mut self, before: u64) {
        for i in 0..self.states.len() as u32 {
            let state = &self.states[i as usize];
            if self.keys[i as usize].is_some() && !state.has_setting() && state.last_tested < before
            {
                self.release(i);
            }
        }
    }
}
