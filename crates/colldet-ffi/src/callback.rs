//! What collision callbacks receive: `ColCollision`, the callback type and the witness kinds.

use std::ffi::c_void;

use colldet_world::{Collision, ObjectId, Witness};

use crate::world::{ClientData, ColObjectId};

/// `ColCollision::witness_kind`: only the bounding boxes were tested (`COL_METHOD_NONE`);
/// features are 0 and `point` is the midpoint of the two objects' box centres.
pub const COL_WITNESS_BOXES: u32 = 0;
/// Convex pair: `feature_a` and `feature_b` are vertex indices (into each mesh as given) of the
/// last supporting pair; `point` is their midpoint, a location in the contact region (for two
/// objects recognised as boxes under `COL_METHOD_AUTO` or `COL_METHOD_CONVEX`, a point in both
/// boxes, within the touching band of both when they only touch). When the test knew no
/// supporting pair, both features are `COL_NO_FEATURE` and `point` is the midpoint of the two
/// hulls' box centres.
pub const COL_WITNESS_SUPPORT_VERTICES: u32 = 1;
/// Face `feature_a` of `a` meets face `feature_b` of `b` (face indices as given; for an edge
/// or vertex contact, a face around it); `point` lies on both surfaces.
pub const COL_WITNESS_FACE_FACE: u32 = 2;
/// No surfaces cross: one object lies inside the other, closed one. The inner object's feature
/// is its vertex found inside (`point` is that vertex), the container's is `COL_NO_FEATURE`.
pub const COL_WITNESS_CONTAINMENT: u32 = 3;
/// A feature index meaning "none" (the container in a containment witness, a convex witness
/// without a supporting pair).
pub const COL_NO_FEATURE: u32 = u32::MAX;

/// One new collision, as handed to a callback. Valid only during the callback call.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ColCollision {
    /// The object with the smaller id.
    pub a: ColObjectId,
    /// The object with the larger id.
    pub b: ColObjectId,
    /// The `client_data` given when `a` was made collidable.
    pub client_data_a: *mut c_void,
    /// The `client_data` given when `b` was made collidable.
    pub client_data_b: *mut c_void,
    /// A `COL_WITNESS_*` value: what the features mean.
    pub witness_kind: u32,
    /// A feature of `a` (vertex or face index into its mesh as given; see the witness kinds).
    pub feature_a: u32,
    /// A feature of `b`.
    pub feature_b: u32,
    /// A point of the collision, world coordinates.
    pub point: [f32; 3],
}

impl ColCollision {
    pub(crate) fn from_world(c: &Collision<'_, ClientData>) -> Self {
        Self::from_parts(c.a, c.b, c.user_a.0, c.user_b.0, &c.witness)
    }

    /// The record of objects `a`, `b` with client data `data_a`, `data_b` meeting at `witness`.
    pub(crate) fn from_parts(
        a: ObjectId,
        b: ObjectId,
        data_a: *mut c_void,
        data_b: *mut c_void,
        witness: &Witness,
    ) -> Self {
        let p = witness.point;
        Self {
            a: a.to_raw(),
            b: b.to_raw(),
            client_data_a: data_a,
            client_data_b: data_b,
            witness_kind: witness.kind as u32,
            feature_a: witness.feature_a,
            feature_b: witness.feature_b,
            point: [p.x as f32, p.y as f32, p.z as f32],
        }
    }
}

/// A collision callback: `c` describes the collision (valid during the call only), `user` is
/// the pointer given with the callback. Called by `colCheck` on its calling thread, one call at
/// a time, sorted by id pair. It may call `colSetTransform`/`colSetTransformd` (the move counts
/// for the next check), `colGetObjectInfo`, `colLastError` and `colStatusString`; structural
/// calls return `COL_ERR_WORLD_LOCKED`. It must return normally: no C++ exception or `longjmp`
/// may leave it.
pub type ColCollisionCallback =
    Option<unsafe extern "C" fn(c: *const ColCollision, user: *mut c_void)>;

/// A callback with its user pointer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CallbackTarget {
    pub callback: unsafe extern "C" fn(*const ColCollision, *mut c_void),
    pub user: *mut c_void,
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_world::WitnessKind;

    #[test]
    fn witness_constants_are_the_world_numbers() {
        assert_eq!(COL_WITNESS_BOXES, WitnessKind::BoundingBoxes as u32);
        assert_eq!(
            COL_WITNESS_SUPPORT_VERTICES,
            WitnessKind::SupportVertices as u32
        );
        assert_eq!(COL_WITNESS_FACE_FACE, WitnessKind::FaceFace as u32);
        assert_eq!(COL_WITNESS_CONTAINMENT, WitnessKind::Containment as u32);
        assert_eq!(COL_NO_FEATURE, colldet_world::NO_FEATURE);
    }
}
