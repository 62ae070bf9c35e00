//! The proximity queries' per-pair warm starts ([`World::distance`](crate::World::distance),
//! `distance_approx`, `within_distance`): for each ordered pair `(a, b)` queried recently, the
//! GJK simplex and supporting vertices of its last convex query ([`GjkCache`]), the distance
//! bounds its convex queries certified ([`DistanceCertificate`]) with both objects' poses then
//! ([`crate::carried_bounds`]), and the closest triangle pair of its last mesh distance
//! ([`MeshDistanceCache`]).
//!
//! Rationale. A pair queried again after a small move has nearly the same closest features: GJK
//! restarted from the last simplex (re-evaluated at the new pose) and hill climbing from the last
//! supporting vertices converge in one or two support queries instead of a dozen, and the tree
//! traversal starts with the last closest triangle pair's distance as its bound. Neither changes
//! what is computed, only where the search starts: GJK stops on the same certified bounds from
//! any starting simplex, and the traversal's minimum is exact whatever its first bound (see
//! [`World::distance`](crate::World::distance) for what holds).
//!
//! Keys are ordered: `(a, b)` and `(b, a)` are different queries (each runs in its first object's
//! frame) and get separate entries. Keys are object ids, generation included, so a slot's next
//! object never inherits an entry; [`ProximityCaches::remove_object`] drops a removed object's
//! entries at once. Memory is bounded: at most [`MAX_PROXIMITY_CACHES`] entries; when the table
//! is full, a new pair first drops every entry not used in the last half of that many queries
//! (at least half of them, since each query uses one entry), so the cost per query stays O(1)
//! amortised. Once the table has grown, queries on known pairs allocate nothing.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use colldet_narrow::mesh::bvh::MeshDistanceCache;
use colldet_narrow::{DistanceCertificate, GjkCache};

use crate::ObjectId;
use crate::carried_bounds::CertifiedPoses;
use crate::interest::PairKeyHasher;

/// Most pairs the table keeps (see the module docs for what happens beyond).
pub(crate) const MAX_PROXIMITY_CACHES: usize = 4096;

/// What one ordered pair's last proximity query leaves for its next one.
#[derive(Default)]
pub(crate) struct PairProximityCache {
    /// The last convex query's simplex, direction and supporting vertices (convex pairs).
    pub(crate) gjk: GjkCache,
    /// The distance bounds the last convex queries certified, at their pose (convex pairs).
    pub(crate) certificate: DistanceCertificate,
    /// The last mesh distance's closest triangle pair (other pairs).
    pub(crate) mesh: MeshDistanceCache,
    /// Both objects' world poses when `certificate`'s bounds were recorded (convex pairs), for
    /// answers carried on world poses ([`crate::carried_bounds`]).
    pub(crate) certified_poses: Option<CertifiedPoses>,
}

struct Entry {
    key: (ObjectId, ObjectId),
    /// The query count when the entry was last used.
    last_used: u64,
    cache: PairProximityCache,
}

/// The table of per-pair warm starts, keyed by the ordered pair of ids.
#[derive(Default)]
pub(crate) struct ProximityCaches {
    /// The entries, in no particular order.
    entries: Vec<Entry>,
    /// Each key's index in `entries`.
    index: HashMap<(ObjectId, ObjectId), u32, BuildHasherDefault<PairKeyHasher>>,
    /// The key and index of the entry used last: a pair queried again (an engine's coherent
    /// sequence) skips the hash lookup.
    last: Option<((ObjectId, ObjectId), u32)>,
    /// Queries served so far (the entries' clock).
    queries: u64,
}

impl ProximityCaches {
    /// The warm start of the ordered pair `(a, b)` (live, different ids), made empty for a pair
    /// without an entry.
    pub(crate) fn get(&mut self, a: ObjectId, b: ObjectId) -> &mut PairProximityCache {
        self.queries += 1;
        let now = self.queries;
        let key = (a, b);
        let i = match self.last {
            Some((last, i)) if last == key => i,
            _ => self.find_or_insert(key, now),
        };
        self.last = Some((key, i));
        let entry = &mut self.entries[i as usize];
        entry.last_used = now;
        &mut entry.cache
    }

    /// The index of `key`'s entry, made (empty) when there is none.
    fn find_or_insert(&mut self, key: (ObjectId, ObjectId), now: u64) -> u32 {
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        if self.entries.len() >= MAX_PROXIMITY_CACHES {
            self.drop_unused(now);
        }
        let i = self.entries.len() as u32;
        self.entries.push(Entry {
            key,
            last_used: now,
            cache: PairProximityCache::default(),
        });
        self.index.insert(key, i);
        i
    }

    /// Drops the entries not used in the last `MAX_PROXIMITY_CACHES / 2` queries.
    #[cold]
    fn drop_unused(&mut self, now: u64) {
        let keep_from = now.saturating_sub((MAX_PROXIMITY_CACHES / 2) as u64);
        self.retain(|entry| entry.last_used >= keep_from);
    }

    /// Drops the entries of the object `id` (it was removed).
    pub(crate) fn remove_object(&mut self, id: ObjectId) {
        if !self.entries.is_empty() {
            self.retain(|entry| entry.key.0 != id && entry.key.1 != id);
        }
    }

    /// Keeps the entries `keep` accepts and re-indexes them.
    fn retain(&mut self, keep: impl Fn(&Entry) -> bool) {
        self.entries.retain(keep);
        self.index.clear();
        for (i, entry) in self.entries.iter().enumerate() {
            self.index.insert(entry.key, i as u32);
        }
        self.last = None;
    }

    /// Number of pairs with an entry.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        debug_assert_eq!(self.entries.len(), self.index.len());
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object_id::WorldTag;

    #[test]
    fn ordered_pairs_get_their_own_entries_and_removal_drops_them() {
        let tag = WorldTag::next();
        let id = |slot: u32| ObjectId::new(tag, slot, 1);
        let mut caches = ProximityCaches::default();
        caches.get(id(0), id(1)).mesh = MeshDistanceCache::new();
        caches.get(id(1), id(0));
        caches.get(id(2), id(1));
        assert_eq!(caches.len(), 3);
        caches.get(id(0), id(1));
        assert_eq!(caches.len(), 3);
        caches.remove_object(id(1));
        assert_eq!(caches.len(), 0);
    }

    /// The remembered last entry never outlives a re-indexing: after a removal the same pair
    /// finds its own entry again, not whatever moved into its old index.
    #[test]
    fn the_last_entry_follows_removals() {
        let tag = WorldTag::next();
        let id = |slot: u32| ObjectId::new(tag, slot, 1);
        let mut caches = ProximityCaches::default();
        for k in 0..4 {
            caches.get(id(k), id(k + 1));
        }
        caches.get(id(3), id(4));
        caches.remove_object(id(0));
        for key in [(id(3), id(4)), (id(2), id(3)), (id(3), id(4))] {
            caches.get(key.0, key.1);
            let (last, i) = caches.last.unwrap();
            assert_eq!((last, caches.entries[i as usize].key), (key, key));
        }
        assert_eq!(caches.len(), 3);
    }

    #[test]
    fn the_table_stays_bounded_and_keeps_recent_pairs() {
        let tag = WorldTag::next();
        let id = |slot: u32| ObjectId::new(tag, slot, 1);
        let mut caches = ProximityCaches::default();
        for k in 0..3 * MAX_PROXIMITY_CACHES as u32 {
            caches.get(id(k), id(k + 1));
            // One pair queried all along keeps its entry.
            caches.get(id(ObjectId::MAX_SLOT), id(0));
            assert!(caches.len() <= MAX_PROXIMITY_CACHES);
        }
        let before = caches.len();
        caches.get(id(ObjectId::MAX_SLOT), id(0));
        assert_eq!(caches.len(), before, "the recent pair kept its entry");
    }
}
