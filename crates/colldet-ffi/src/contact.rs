//! `colContact`: the contact manifold of two objects (normal, depth, up to four point pairs), the
//! contact data an engine's solver needs. Wraps `colldet_world::World::contact`; it changes
//! nothing in the world, so it is allowed before and after `colStart` and inside callbacks (call
//! it from a collision callback to get the contact of the reported pair).

use colldet_world::{ContactManifold, ManifoldKind};

use crate::boundary::{Access, with_world};
use crate::status::{ColStatus, Failure};
use crate::world::{ColObjectId, ColWorld, object_id};

/// `ColContactManifold::kind`: the objects do not collide; `count` is 0.
pub const COL_MANIFOLD_NONE: u32 = 0;
/// A face of one object against the other (face-face, face-edge, face-vertex contacts): the
/// points are the other object's face clipped to it, at most four, the deepest kept.
pub const COL_MANIFOLD_FACE: u32 = 1;
/// An edge-edge or edge-vertex contact (of two convex objects, or of the deepest crossing
/// triangle pair of meshes): one point pair, or a few for meshes.
pub const COL_MANIFOLD_POINT: u32 = 2;
/// One object inside the other, closed one, with no surfaces crossing (or two convex objects
/// touching within the touching band): one common point (a vertex of the inner object), depth 0,
/// normal zero. Depth is not computed for one non-convex solid inside another.
pub const COL_MANIFOLD_WITNESS: u32 = 3;

/// One contact point pair, world coordinates: `point_a - point_b = depth * normal`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ColContactPoint {
    /// The point on (or inside) `a`.
    pub point_a: [f64; 3],
    /// The point on (or inside) `b`.
    pub point_b: [f64; 3],
    /// Penetration along the normal at this point: `> 0` penetrating, `0` touching (slightly
    /// negative within the touching band).
    pub depth: f64,
}

/// The contact manifold of objects `a` and `b`, world coordinates (see `colContact`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ColContactManifold {
    /// Unit normal from `a` towards `b`: moving `b` by `depth * normal` separates the objects
    /// (the shortest such translation, EPA's). Zero for `COL_MANIFOLD_WITNESS` and
    /// `COL_MANIFOLD_NONE`.
    pub normal: [f64; 3],
    /// The largest depth among the points (the penetration depth of two convex objects).
    pub depth: f64,
    /// A `COL_MANIFOLD_*` value.
    pub kind: u32,
    /// Number of meaningful entries of `points`, 0 to 4.
    pub count: u32,
    /// Index of `a`'s face in a face contact (as given), else `COL_NO_FEATURE` (for
    /// `COL_MANIFOLD_WITNESS`, the witness's feature of `a`).
    pub face_a: u32,
    /// Index of `b`'s face in a face contact, else `COL_NO_FEATURE` (or the witness's feature).
    pub face_b: u32,
    /// The point pairs; entries from `count` on are zero.
    pub points: [ColContactPoint; 4],
}

impl ColContactManifold {
    fn from_world(m: &ContactManifold) -> Self {
        let mut out = Self {
            normal: m.normal.into(),
            depth: m.depth,
            kind: match m.kind {
                ManifoldKind::Empty => COL_MANIFOLD_NONE,
                ManifoldKind::Face => COL_MANIFOLD_FACE,
                ManifoldKind::Point => COL_MANIFOLD_POINT,
                ManifoldKind::Witness => COL_MANIFOLD_WITNESS,
            },
            count: m.count as u32,
            face_a: m.face_a,
            face_b: m.face_b,
            points: [ColContactPoint::default(); 4],
        };
        for (slot, c) in out.points.iter_mut().zip(m.points()) {
            *slot = ColContactPoint {
                point_a: c.point_a.coords.into(),
                point_b: c.point_b.coords.into(),
                depth: c.depth,
            };
        }
        out
    }
}

/// The contact manifold of objects `a` and `b` at their current poses, written to `*out` on
/// success (left unchanged on failure): `kind` `COL_MANIFOLD_NONE` and `count` 0 when they do not
/// collide (decided by the exact test of `colCheck`: touching counts), else the normal, the
/// depth and up to four point pairs (see `ColContactManifold` and the `COL_MANIFOLD_*` kinds).
/// Two convex objects: EPA's normal and depth, the points from clipping the faces most aligned
/// with the normal; one convex object inside another is a penetration like any other. A
/// non-convex object whose surface crosses the other's: the deepest crossing triangle pair's
/// normal and the contacts of the pairs along it (depth: the local depth of the crossing, not of
/// the solids). One inside the other with no surfaces crossing: the witness point only. The manifold's geometry is accurate to rounding
/// (about `1e-12` of the objects' size) and to EPA's tolerance (`1e-9` of the depth); only the
/// collide/not decision is exact. Allowed before and after `colStart` and inside callbacks.
///
/// Errors: `COL_ERR_NULL_ARGUMENT` for a NULL `world` or `out`, `COL_ERR_INVALID_HANDLE` for a
/// stale, foreign or 0 id, `COL_ERR_INVALID_ARGUMENT` when `a == b`, `COL_ERR_NUMERICAL` when
/// an algorithm fails numerically.
///
/// # Safety
/// `world` is NULL or a live world; `out` is NULL or writable. Not concurrently with other
/// calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colContact(
    world: *mut ColWorld,
    a: ColObjectId,
    b: ColObjectId,
    out: *mut ColContactManifold,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colContact", Access::Any, |w| {
            if out.is_null() {
                return Err(Failure::null("out"));
            }
            let m = w.world.borrow_mut().contact(object_id(a)?, object_id(b)?)?;
            out.write(match m {
                Some(m) => ColContactManifold::from_world(&m),
                None => ColContactManifold::default(),
            });
            Ok(())
        })
    }
}
