//! What a collision report carries (both objects, their user data, and a witness), and what a
//! callback may do to the world meanwhile.

use colldet_geom::math::Pose;
use colldet_narrow::Witness;

use crate::object_pose::ObjectPose;
use crate::object_table::PlacedObjects;
use crate::{ObjectId, WorldError};

/// One new collision, as handed to callbacks. `a < b` by id.
pub struct Collision<'a, U> {
    /// The object with the smaller id.
    pub a: ObjectId,
    /// The object with the larger id.
    pub b: ObjectId,
    /// The user data given with `a`.
    pub user_a: &'a U,
    /// The user data given with `b`.
    pub user_b: &'a U,
    /// Where and why they collide.
    pub witness: Witness,
}

/// What a callback may do to the world while a `check` is running: move objects. The moves take
/// effect after the callbacks (they are the thesis's back buffer of the moved set), so the
/// running check's answers do not change and the next `check` sees them. Structural changes
/// (adding or removing objects, interest, callbacks) are not offered here; the C API answers
/// them with `COL_ERR_WORLD_LOCKED`.
pub struct CallbackContext<'a> {
    pub(crate) objects: &'a PlacedObjects,
    pub(crate) deferred_moves: &'a mut Vec<(ObjectId, ObjectPose)>,
}

impl CallbackContext<'_> {
    /// Moves object `id` to `pose` after the running check's callbacks (a later move of the same
    /// object in the same check wins).
    ///
    /// # Errors
    /// [`WorldError::InvalidTransform`] when the pose is not finite or not rigid,
    /// [`WorldError::InvalidHandle`] when `id` names no live object; the move is then not made.
    pub fn set_transform(&mut self, id: ObjectId, pose: Pose) -> Result<(), WorldError> {
        let pose = ObjectPose::new(&pose)?;
        if !self.objects.is_live(id) {
            return Err(WorldError::InvalidHandle(id));
        }
        self.deferred_moves.push((id, pose));
        Ok(())
    }
}
