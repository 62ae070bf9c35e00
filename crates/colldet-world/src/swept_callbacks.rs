//! The continuous check's callbacks: one per pair, or the general one, called in id-pair order on
//! the calling thread (as the discrete check's, see `callback_dispatch.rs`).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::ObjectId;
use crate::collision::CallbackContext;
use crate::interest::{PairKey, PairKeyHasher};
use crate::object_pose::ObjectPose;
use crate::object_table::ObjectTable;
use crate::swept_collision::{SweptCallback, SweptCollision, SweptContact};

/// The registered continuous-collision callbacks.
pub(crate) struct SweptCallbacks<U> {
    per_pair: HashMap<PairKey, SweptCallback<U>, BuildHasherDefault<PairKeyHasher>>,
    general: Option<SweptCallback<U>>,
}

impl<U> Default for SweptCallbacks<U> {
    fn default() -> Self {
        Self {
            per_pair: HashMap::default(),
            general: None,
        }
    }
}

impl<U> SweptCallbacks<U> {
    pub fn set_pair(&mut self, key: PairKey, callback: SweptCallback<U>) {
        self.per_pair.insert(key, callback);
    }

    pub fn set_general(&mut self, callback: SweptCallback<U>) {
        self.general = Some(callback);
    }

    pub fn remove_object(&mut self, id: ObjectId) {
        if !self.per_pair.is_empty() {
            self.per_pair.retain(|key, _| key.0 != id && key.1 != id);
        }
    }

    /// Calls each contact's callback (its pair's own, else the general one) in order.
    pub fn report(
        &mut self,
        found: &[SweptContact],
        objects: &ObjectTable<U>,
        deferred: &mut Vec<(ObjectId, ObjectPose)>,
    ) {
        for contact in found {
            let collision = SweptCollision {
                contact,
                user_a: objects.user_in(contact.a.slot()),
                user_b: objects.user_in(contact.b.slot()),
            };
            let mut ctx = CallbackContext {
                objects: objects.placed(),
                deferred_moves: deferred,
            };
            let key = PairKey::new(contact.a, contact.b);
            let callback = match self.per_pair.get_mut(&key) {
                Some(own) => Some(own),
                None => self.general.as_mut(),
            };
            if let Some(callback) = callback {
                callback(&collision, &mut ctx);
            }
        }
    }
}
