//! The collision interest matrix (thesis section 7.0.1), stored sparsely: one entry per unordered
//! pair that has a setting (interest off, own callback) or a live narrow-phase cache. Entries are
//! found in O(1) through a hash map into an arena, so 100,000 objects need memory for the pairs
//! that matter, not for n^2 pairs. Pairs without an entry are interested and use the general
//! callback.

use std::collections::HashMap;

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

/// Sparse symmetric pair table.
#[derive(Default)]
pub(crate) struct InterestMatrix {
    index: HashMap<PairKey, u32>,
    states: Vec<PairState>,
    keys: Vec<Option<PairKey>>,
    free: Vec<u32>,
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

    fn release(&mut self, i: u32) {
        if let Some(key) = self.keys[i as usize].take() {
            self.index.remove(&key);
            self.states[i as usize] = PairState::default();
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
