//! The collision interest matrix (thesis section 7.0.1), stored sparsely: one entry per unordered
//! pair that has a setting (interest off, own callback). Entries are found in O(1) through a hash
//! map holding the settings, so 100,000 objects need memory for the pairs that have settings, not for
//! n^2 pairs. Pairs without an entry are interested and use the general callback. (The narrow
//! phase's per-pair caches live apart, in [`super::pair_caches`].)
//!
//! Fast path: a per-slot count of entries tells whether an object has any setting at all, so the
//! check looks a pair up only when both its objects have some (none, in the common case of a
//! world without pair settings). The hash uses a cheap multiply-xorshift mixer instead of
//! SipHash: keys are handles the world issued, not adversarial input.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::ObjectId;

/// An unordered pair of live objects, smaller id first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct PairKey(pub ObjectId, pub ObjectId);

impl PairKey {
    pub fn new(a: ObjectId, b: ObjectId) -> Self {
        if a < b { Self(a, b) } else { Self(b, a) }
    }
}

/// The settings of one pair.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairState {
    /// False when the user switched the pair off.
    pub uninterested: bool,
    /// The pair has its own callback (kept in the world's callback table by pair).
    pub own_callback: bool,
    /// The pair's own tolerance (world units), overriding the world's default (`tolerance.rs`).
    pub tolerance: Option<f64>,
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
    index: HashMap<PairKey, PairState, BuildHasherDefault<PairKeyHasher>>,
    /// Entries involving each slot's object.
    per_slot: Vec<u32>,
}

impl InterestMatrix {
    /// The settings of `key` (the defaults when it has none).
    pub fn get(&self, key: &PairKey) -> PairState {
        self.index.get(key).copied().unwrap_or_default()
    }

    /// Whether the objects in slots `sa` and `sb` both have some setting: only then can their
    /// pair have an entry (so a world without pair settings never hashes, nor looks up ids).
    #[inline]
    pub fn both_have_settings(&self, sa: u32, sb: u32) -> bool {
        let has = |s: u32| self.per_slot.get(s as usize).is_some_and(|&n| n > 0);
        has(sa) && has(sb)
    }

    /// The settings of `key`, created (interested, no callback) if missing.
    pub fn entry(&mut self, key: PairKey) -> &mut PairState {
        if !self.index.contains_key(&key) {
            for id in [key.0, key.1] {
                let slot = id.slot() as usize;
                if self.per_slot.len() <= slot {
                    self.per_slot.resize(slot + 1, 0);
                }
                self.per_slot[slot] += 1;
            }
        }
        self.index.entry(key).or_default()
    }

    /// The other object and own tolerance of every pair of `id` that has one (one pass over the
    /// entries; for tolerance changes, not for the check).
    pub fn own_tolerances_of(&self, id: ObjectId) -> impl Iterator<Item = (ObjectId, f64)> + '_ {
        self.index.iter().filter_map(move |(key, state)| {
            let other = if key.0 == id {
                key.1
            } else if key.1 == id {
                key.0
            } else {
                return None;
            };
            state.tolerance.map(|t| (other, t))
        })
    }

    /// Drops every entry that involves `id` (the object was removed); returns whether there was
    /// any.
    pub fn remove_object(&mut self, id: ObjectId) -> bool {
        // O(1) for an object without settings (the common case); otherwise one pass.
        if self
            .per_slot
            .get(id.slot() as usize)
            .is_none_or(|&n| n == 0)
        {
            return false;
        }
        let per_slot = &mut self.per_slot;
        self.index.retain(|key, _| {
            let involved = key.0 == id || key.1 == id;
            if involved {
                for other in [key.0, key.1] {
                    per_slot[other.slot() as usize] -= 1;
                }
            }
            !involved
        });
        true
    }
}
