//! What a collision report carries: both objects, their user data, and a witness.

use colldet_geom::math::{PointD, Pose};

use super::ObjectId;

/// What kind of evidence a [`Witness`] holds. The numbers are the C API's `witness_kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u32)]
pub enum WitnessKind {
    /// Only the bounding boxes were tested (`Method::None`); features are 0.
    BoundingBoxes = 0,
    /// Convex pair: `feature_a`/`feature_b` are vertex indices (into each input mesh) of the last
    /// supporting pair; the point is the midpoint of those two vertices in world coordinates, a
    /// location in the contact region, not necessarily inside both solids. For two objects
    /// recognised as boxes under `Method::Auto` or `Method::Convex` the point lies in both boxes
    /// (when they only touch: within the touching band of both).
    SupportVertices = 1,
    /// Face `feature_a` of a intersects face `feature_b` of b (indices of the input faces; for an
    /// edge-face contact, a face bordering the edge); the point lies on both surfaces.
    FaceFace = 2,
    /// No surfaces cross: one object lies inside the other, closed one. The inner object's
    /// feature is its vertex found inside (the point is that vertex), the container's feature is
    /// `u32::MAX`.
    Containment = 3,
}

/// Evidence for a collision, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Witness {
    /// What the features mean.
    pub kind: WitnessKind,
    /// A feature of object `a` (see [`WitnessKind`]).
    pub feature_a: u32,
    /// A feature of object `b`.
    pub feature_b: u32,
    /// A point of the collision, world coordinates.
    pub point: PointD,
}

impl Witness {
    /// The same witness with the roles of the two objects exchanged.
    pub(crate) fn swapped(self) -> Self {
        Self {
            feature_a: self.feature_b,
            feature_b: self.feature_a,
            ..self
        }
    }
}

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
/// effect after the callbacks, through the moved set's back buffer, so they are seen by the next
/// `check` (the thesis's prescription). Structural changes (adding or removing objects, interest,
/// callbacks) are not offered here; the C API answers them with `COL_ERR_WORLD_LOCKED`.
pub struct CallbackContext<'a> {
    pub(crate) deferred_moves: &'a mut Vec<(ObjectId, Pose)>,
}

impl CallbackContext<'_> {
    /// Moves object `id` to `pose` after the running check's callbacks.
    ///
    /// # Errors
    /// [`super::WorldError::InvalidTransform`] when the pose is not finite or not rigid; an
    /// unknown handle is reported when the move is applied (it is then skipped).
    pub fn set_transform(&mut self, id: ObjectId, pose: Pose) -> Result<(), super::WorldError> {
        let pose = super::transform::checked_pose(&pose)?;
        self.deferred_moves.push((id, pose));
        Ok(())
    }
}
