//! What the continuous check and the trace report: a pair's first contact during the motion
//! since the last check, and the callbacks that receive it.

use colldet_ccd::SweepContact;
use colldet_geom::math::Pose;

use crate::ObjectId;
use crate::collision::CallbackContext;

/// One pair that touched during the interval swept by [`crate::World::check_continuous`]: the
/// first contact of `a` moving relative to `b` (`a < b` by id), in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweptContact {
    /// The first object (smaller id): the "moving" side of the contact's kind and features.
    pub a: ObjectId,
    /// The second object.
    pub b: ObjectId,
    /// First contact: fraction bracket, kind, features (`feature_moving` is `a`'s), point and
    /// normal (from `b` towards `a`) at the upper fraction. A pair that already touched at the
    /// start has fraction `[0, 0]` and `initially_touching` set.
    pub contact: SweepContact,
    /// The pair also collides at the end of the interval (the discrete check would see it).
    pub touching_at_end: bool,
}

/// A continuous collision as a callback sees it: the contact and both objects' user data.
pub struct SweptCollision<'a, U> {
    /// The pair and its first contact.
    pub contact: &'a SweptContact,
    /// `a`'s user data.
    pub user_a: &'a U,
    /// `b`'s user data.
    pub user_b: &'a U,
}

/// A continuous-collision callback: called once per touching pair, sorted by id pair, on the
/// thread that runs the check.
pub type SweptCallback<U> = Box<dyn FnMut(&SweptCollision<'_, U>, &mut CallbackContext<'_>) + Send>;

/// The first contact of a trace ([`crate::World::trace`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceHit {
    /// The object hit.
    pub hit: ObjectId,
    /// The contact (the traced object is the moving side), world coordinates.
    pub contact: SweepContact,
    /// The traced object's pose at the lower fraction `contact.toi.lo` (where it can be placed
    /// without having touched anything).
    pub pose: Pose,
}
