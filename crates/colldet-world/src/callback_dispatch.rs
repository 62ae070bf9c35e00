//! The last step of a check: the collisions found, sorted by id pair, reported one at a time on
//! the calling thread (each pair's own callback, else the general one), and the callbacks' table.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::collision::{CallbackContext, Collision};
use crate::interest::{PairKey, PairKeyHasher};
use crate::object_pose::ObjectPose;
use crate::object_table::ObjectTable;
use crate::pair_results::Found;
use crate::{CollisionCallback, ObjectId};

/// The callbacks of a world: one per pair that has its own (the interest matrix's entry says
/// so), and the general one for the others. A removed object's pair callbacks are dropped with
/// it, so the table holds callbacks of live pairs only.
pub(crate) struct Callbacks<U> {
    per_pair: HashMap<PairKey, CollisionCallback<U>, BuildHasherDefault<PairKeyHasher>>,
    general: Option<CollisionCallback<U>>,
}

impl<U> Default for Callbacks<U> {
    fn default() -> Self {
        Self {
            per_pair: HashMap::default(),
            general: None,
        }
    }
}

impl<U> Callbacks<U> {
    /// Gives the pair `key` its own callback, replacing an earlier one.
    pub fn set_pair(&mut self, key: PairKey, callback: CollisionCallback<U>) {
        self.per_pair.insert(key, callback);
    }

    /// Sets the callback of the pairs without their own.
    pub fn set_general(&mut self, callback: CollisionCallback<U>) {
        self.general = Some(callback);
    }

    /// Drops the callbacks of the pairs that involve `id` (the object was removed).
    pub fn remove_object(&mut self, id: ObjectId) {
        self.per_pair.retain(|key, _| key.0 != id && key.1 != id);
    }

    /// Number of pairs with their own callback.
    pub fn pair_count(&self) -> usize {
        self.per_pair.len()
    }

    /// Reports `found` (sorted by id pair) in order: each pair's own callback when
    /// [`Found::own_callback`], else the general one. Moves the callbacks ask for are appended to
    /// `deferred`.
    pub fn report(
        &mut self,
        found: &[Found],
        objects: &ObjectTable<U>,
        deferred: &mut Vec<(ObjectId, ObjectPose)>,
    ) {
        for f in found {
            let (sa, sb) = (f.key.0.slot(), f.key.1.slot());
            let collision = Collision {
                a: f.key.0,
                b: f.key.1,
                user_a: objects.user_in(sa),
                user_b: objects.user_in(sb),
                witness: f.witness,
            };
            let mut ctx = CallbackContext {
                objects: objects.placed(),
                deferred_moves: deferred,
            };
            let callback = if f.own_callback {
                self.per_pair.get_mut(&f.key)
            } else {
                self.general.as_mut()
            };
            if let Some(callback) = callback {
                callback(&collision, &mut ctx);
            }
        }
    }
}
