//! Continuous collision: `colTrace` / `colTraced` (sweep one object to an end pose against the
//! others), `colCheckContinuous` with its swept callbacks, and `colSetExpelDistance`.
//!
//! The swept callbacks follow the discrete ones' design (see [`crate::world`]): the Rust world's
//! swept callbacks only record each contact with its C callback; the C callbacks run after
//! `World::check_continuous` returned, one at a time, with structural calls locked.

use std::ffi::c_void;

use colldet_world::{ContactKind, SweepContact, SweptCollision, TraceHit};

use crate::boundary::{Access, POISONED_MESSAGE, with_world};
use crate::callback::COL_NO_FEATURE;
use crate::status::{COL_ERR_INTERNAL, COL_ERR_INVALID_ARGUMENT, ColStatus, Failure};
use crate::world::{ClientData, ColObjectId, ColWorld, object_id};

/// `contact_kind` of no contact (`ColTrace::hit` is 0), or of a pair that already touched at the
/// start of the motion (fraction 0): no feature pair is known then, the features are
/// `COL_NO_FEATURE` and the normal is zero.
pub const COL_CONTACT_NONE: u32 = 0;
/// A vertex of the moving object (`ColTrace`: the traced object; `ColSweptCollision`: `a`) hits
/// a face of the other: `feature_moving` / `feature_a` is a vertex index, `feature_hit` /
/// `feature_b` a face index (into the meshes as given).
pub const COL_CONTACT_VERTEX_FACE: u32 = 1;
/// A face of the moving object hits a vertex of the other (features: face, then vertex).
pub const COL_CONTACT_FACE_VERTEX: u32 = 2;
/// An edge of the moving object hits an edge of the other. Edges are numbered in order of first
/// appearance walking the faces as given, each face's corners in order.
pub const COL_CONTACT_EDGE_EDGE: u32 = 3;

/// The first contact of a `colTrace` / `colTraced`. `hit` is 0 when the way is free.
///
/// Fractions are of the motion from the object's current pose (0) to the end pose (1): the
/// first contact lies in `[fraction, fraction_hi]` (certified: no contact before `fraction`),
/// and the objects touch at `fraction_hi` (touching counts as contact). The bracket is exact
/// (`fraction == fraction_hi`) for pure translations, narrow otherwise. A trace that starts in
/// contact gives `fraction == fraction_hi == 0`, `contact_kind == COL_CONTACT_NONE`, features
/// `COL_NO_FEATURE` and a zero normal (`point` is then a point of the contact region). With no
/// hit: `fraction == fraction_hi == 1`, `COL_CONTACT_NONE`, `COL_NO_FEATURE`, zero point and
/// normal.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColTrace {
    /// The object hit first (smallest `fraction`, then smallest id), 0 for none.
    pub hit: ColObjectId,
    /// No contact before this fraction of the motion.
    pub fraction: f64,
    /// The objects touch at this fraction (`fraction <= fraction_hi`).
    pub fraction_hi: f64,
    /// A `COL_CONTACT_*` value: what the features are.
    pub contact_kind: u32,
    /// The traced object's feature (vertex, face or edge index, see `contact_kind`).
    pub feature_moving: u32,
    /// The hit object's feature.
    pub feature_hit: u32,
    /// The contact point at `fraction_hi`, world coordinates.
    pub point: [f64; 3],
    /// Unit contact normal at `fraction_hi`, world coordinates, pointing from the hit object
    /// towards the traced one (the direction to move it to separate).
    pub normal: [f64; 3],
}

impl ColTrace {
    /// What a trace that hits nothing reports.
    fn free() -> Self {
        Self {
            hit: 0,
            fraction: 1.0,
            fraction_hi: 1.0,
            contact_kind: COL_CONTACT_NONE,
            feature_moving: COL_NO_FEATURE,
            feature_hit: COL_NO_FEATURE,
            point: [0.0; 3],
            normal: [0.0; 3],
        }
    }

    /// What a failed call leaves in `*out`.
    fn failed() -> Self {
        Self {
            fraction: 0.0,
            fraction_hi: 0.0,
            ..Self::free()
        }
    }

    fn from_hit(hit: &TraceHit) -> Self {
        let c = &hit.contact;
        Self {
            hit: hit.hit.to_raw(),
            fraction: c.toi.lo,
            fraction_hi: c.toi.hi,
            contact_kind: contact_kind(c),
            feature_moving: c.feature_moving,
            feature_hit: c.feature_hit,
            point: [c.point.x, c.point.y, c.point.z],
            normal: [c.normal.x, c.normal.y, c.normal.z],
        }
    }
}

/// The `COL_CONTACT_*` value of a contact.
fn contact_kind(c: &SweepContact) -> u32 {
    if c.initially_touching {
        return COL_CONTACT_NONE;
    }
    match c.kind {
        ContactKind::VertexFace => COL_CONTACT_VERTEX_FACE,
        ContactKind::FaceVertex => COL_CONTACT_FACE_VERTEX,
        ContactKind::EdgeEdge => COL_CONTACT_EDGE_EDGE,
    }
}

/// One pair that touched during the motion `colCheckContinuous` swept, as handed to a swept
/// callback. Valid only during the callback call.
///
/// `a` is the "moving" side (its motion is taken relative to `b`): `contact_kind` and the
/// features read as in `ColTrace` with `a` as the traced object, and `normal` points from `b`
/// towards `a`. Fractions are of the interval since the last check (0: the poses then, 1: the
/// current poses): the first contact lies in `[fraction, fraction_hi]`, the objects touch at
/// `fraction_hi`. A pair that already touched at the start of the interval has fractions 0,
/// `COL_CONTACT_NONE`, features `COL_NO_FEATURE` and a zero normal (`point`: a point of the
/// contact region).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ColSweptCollision {
    /// The object with the smaller id.
    pub a: ColObjectId,
    /// The object with the larger id.
    pub b: ColObjectId,
    /// The `client_data` given when `a` was made collidable.
    pub client_data_a: *mut c_void,
    /// The `client_data` given when `b` was made collidable.
    pub client_data_b: *mut c_void,
    /// No contact before this fraction of the interval.
    pub fraction: f64,
    /// The objects touch at this fraction.
    pub fraction_hi: f64,
    /// A `COL_CONTACT_*` value: what the features are.
    pub contact_kind: u32,
    /// `a`'s feature (vertex, face or edge index, see `contact_kind`).
    pub feature_a: u32,
    /// `b`'s feature.
    pub feature_b: u32,
    /// The contact point at `fraction_hi`, world coordinates.
    pub point: [f64; 3],
    /// Unit contact normal at `fraction_hi`, world coordinates, from `b` towards `a`.
    pub normal: [f64; 3],
}

impl ColSweptCollision {
    pub(crate) fn from_world(s: &SweptCollision<'_, ClientData>) -> Self {
        let c = &s.contact.contact;
        Self {
            a: s.contact.a.to_raw(),
            b: s.contact.b.to_raw(),
            client_data_a: s.user_a.0,
            client_data_b: s.user_b.0,
            fraction: c.toi.lo,
            fraction_hi: c.toi.hi,
            contact_kind: contact_kind(c),
            feature_a: c.feature_moving,
            feature_b: c.feature_hit,
            point: [c.point.x, c.point.y, c.point.z],
            normal: [c.normal.x, c.normal.y, c.normal.z],
        }
    }
}

/// A swept-collision callback: `c` describes the pair's first contact (valid during the call
/// only), `user` is the pointer given with the callback. Called by `colCheckContinuous` on its
/// calling thread, after every contact of the check was computed, one call at a time, sorted by
/// id pair. It may call `colSetTransform`/`colSetTransformd` (the move counts for the next
/// check), `colTrace`/`colTraced`, `colGetObjectInfo`, `colLastError` and `colStatusString`;
/// structural calls return `COL_ERR_WORLD_LOCKED`. It must return normally: no C++ exception or
/// `longjmp` may leave it.
pub type ColSweptCallback =
    Option<unsafe extern "C" fn(c: *const ColSweptCollision, user: *mut c_void)>;

/// A swept callback with its user pointer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SweptTarget {
    pub callback: unsafe extern "C" fn(*const ColSweptCollision, *mut c_void),
    pub user: *mut c_void,
}

/// The body of `colTrace` / `colTraced`.
///
/// # Safety
/// `world` is NULL or a live world; `out` is NULL or writable.
unsafe fn trace(
    world: *const ColWorld,
    name: &str,
    id: ColObjectId,
    end: Option<[f64; 16]>,
    out: *mut ColTrace,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        // Written on every failure, also those answered before the body runs.
        if !out.is_null() {
            out.write(ColTrace::failed());
        }
        with_world(world, name, Access::Any, |w| {
            if out.is_null() {
                return Err(Failure::null("out"));
            }
            let end = end.ok_or_else(|| Failure::null("end_m"))?;
            let id = object_id(id)?;
            let hit = w.world.borrow_mut().trace_matrix(id, &end)?;
            out.write(hit.as_ref().map_or_else(ColTrace::free, ColTrace::from_hit));
            Ok(())
        })
    }
}

/// Traces object `id` from its current pose to the pose `end_m` (a column-major 4x4 matrix,
/// checked exactly as `colSetTransform` checks it) against every other object at its current
/// pose, and writes the first contact to `*out` (see `ColTrace`; `hit == 0` when the way is
/// free). The motion: position linear, orientation by shortest-arc slerp about the object's
/// origin (between the two orientations). Objects whose interest with `id` is off are ignored.
/// The world is not changed: the object is not moved (move it with `colSetTransform`, e.g. to
/// the pose at `fraction`). Works before and after `colStart`, and inside callbacks.
///
/// Errors: `COL_ERR_NULL_ARGUMENT` for a NULL `world`, `end_m` or `out`,
/// `COL_ERR_INVALID_HANDLE` for an unknown or stale `id`, `COL_ERR_INVALID_ARGUMENT` for a NaN,
/// infinite or non-rigid `end_m` (or a motion the sweep refuses), `COL_ERR_NUMERICAL` when a
/// pair test failed numerically; the message is in `colLastError(world)`. On any failure
/// `*out` (when not NULL) holds `hit == 0` with fractions 0.
///
/// # Safety
/// `world` is NULL or a live world; `end_m` is NULL or points to 16 readable floats; `out` is
/// NULL or writable. Not concurrently with other calls on the same world (the trace uses the
/// world's scratch memory, although the world is `const` to the caller).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colTrace(
    world: *const ColWorld,
    id: ColObjectId,
    end_m: *const f32,
    out: *mut ColTrace,
) -> ColStatus {
    // SAFETY: `end_m` is NULL or points to 16 floats (caller's contract); widening to f64 is
    // exact.
    let end = unsafe { end_m.cast::<[f32; 16]>().as_ref() }.map(|m| m.map(f64::from));
    // SAFETY: forwarded caller contract.
    unsafe { trace(world, "colTrace", id, end, out) }
}

/// `colTrace` with a double-precision end matrix.
///
/// # Safety
/// As `colTrace`, with `end_m` NULL or pointing to 16 readable doubles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colTraced(
    world: *const ColWorld,
    id: ColObjectId,
    end_m: *const f64,
    out: *mut ColTrace,
) -> ColStatus {
    // SAFETY: `end_m` is NULL or points to 16 doubles (caller's contract).
    let end = unsafe { end_m.cast::<[f64; 16]>().as_ref() }.copied();
    // SAFETY: forwarded caller contract.
    unsafe { trace(world, "colTraced", id, end, out) }
}

/// Gives the pair `{a, b}` its own swept callback `cb` with `user` (replacing any earlier one
/// and, for this pair, the general swept callback); `colCheckContinuous` calls it. A NULL `cb`
/// hands the pair back to the general swept callback. The discrete callbacks are separate:
/// `colCheck` never calls swept callbacks, `colCheckContinuous` never calls discrete ones.
/// `COL_ERR_INVALID_ARGUMENT` when `a == b`, `COL_ERR_INVALID_HANDLE` for a bad id,
/// `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world. `cb`
/// must be callable as described at `ColSweptCallback` for as long as it is installed, and
/// `user` valid for it; colldet never dereferences `user`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetSweptCallback(
    world: *mut ColWorld,
    a: ColObjectId,
    b: ColObjectId,
    cb: ColSweptCallback,
    user: *mut c_void,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetSweptCallback", Access::Structural, |w| {
            let (a, b) = (object_id(a)?, object_id(b)?);
            let recorder = w.pair_swept_recorder(cb, user);
            Ok(w.world.borrow_mut().set_swept_callback(a, b, recorder)?)
        })
    }
}

/// Sets the swept callback for every pair without its own (NULL: none, such contacts are not
/// reported). `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// As `colSetSweptCallback`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetGeneralSweptCallback(
    world: *mut ColWorld,
    cb: ColSweptCallback,
    user: *mut c_void,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(
            world,
            "colSetGeneralSweptCallback",
            Access::Structural,
            |w| {
                w.swept_general
                    .set(cb.map(|callback| SweptTarget { callback, user }));
                Ok(())
            },
        )
    }
}

/// The continuous check: sweeps every object moved since the last check (`colCheck` or
/// `colCheckContinuous`; or since `colStart`) from its pose then to its current pose (position
/// linear, orientation by shortest-arc slerp about its origin; objects added since then do not
/// sweep), and reports every pair that touches at some fraction of that interval and of which
/// at least one object's pose changed, with its first contact, to the swept callbacks (each
/// pair's own, else the general one): on the calling thread, one at a time, sorted by id pair,
/// after every contact of the check was computed, so moves made from callbacks count for the
/// next check. A pair that touches anywhere in the interval is reported once, also when it is
/// apart again at the end (a fast object passing through a thin one). Like `colCheck` it
/// consumes the moved set; it calls no discrete callback.
///
/// `COL_ERR_WRONG_STATE` before `colStart`; `COL_ERR_NUMERICAL` (or `COL_ERR_INVALID_ARGUMENT`
/// for a motion or shape the sweep refuses) when some pair failed: the others were still
/// checked and reported. `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// `world` is NULL (returns `COL_ERR_NULL_ARGUMENT`) or a live world; not concurrently with
/// other calls on the same world. The callbacks' requirements are those of `ColSweptCallback`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colCheckContinuous(world: *mut ColWorld) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colCheckContinuous", Access::Structural, |w| {
            let result = w.world.borrow_mut().check_continuous();
            w.dispatch_swept_pending();
            if w.is_poisoned() {
                // A call made from a callback failed internally.
                return Err(Failure::new(COL_ERR_INTERNAL, POISONED_MESSAGE));
            }
            result?;
            Ok(())
        })
    }
}

/// Sets the world's expel distance `e` (world units, default 0: off): finite and `>= 0`, else
/// `COL_ERR_INVALID_ARGUMENT` and the setting is unchanged. `COL_ERR_WORLD_LOCKED` inside a
/// callback. With `e > 0`, `colTrace`/`colTraced` and `colCheckContinuous` stop a pair whose
/// orientations do not change where a feature reaches the other object's expel zone (a layer of
/// thickness `e` over its faces; DOOM III seed section 3) instead of its surface, and a feature
/// that starts inside the zone may only move away (fraction 0 otherwise; `COL_CONTACT_*` as
/// for a surface contact). Pairs in which an orientation changes ignore `e` (their contact is
/// the exact surface contact).
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetExpelDistance(world: *mut ColWorld, e: f64) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetExpelDistance", Access::Structural, |w| {
            if !(e.is_finite() && e >= 0.0) {
                return Err(Failure::new(
                    COL_ERR_INVALID_ARGUMENT,
                    format!("colSetExpelDistance: the distance must be finite and >= 0, got {e}"),
                ));
            }
            w.world.borrow_mut().set_expel_distance(e)?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::Access;
    use crate::lifecycle::{colExit, colStart};
    use crate::objects::{colMakeCollidable, colRemoveCollidable, colSetTransformd};
    use crate::status::{
        COL_ERR_INTERNAL, COL_ERR_INVALID_HANDLE, COL_ERR_NULL_ARGUMENT, COL_ERR_WORLD_LOCKED,
        COL_ERR_WRONG_STATE, COL_OK,
    };
    use crate::test_support::{
        TETRAHEDRON_VERTICES, message, new_world, tetrahedron_desc, translation,
    };

    /// Two tetrahedra: `a` at the origin, `b` at `(3, -0.2, -0.2)` (its face 2, the `x = 3`
    /// face, faces `a`'s vertex 1 at `(1, 0, 0)` across the gap).
    fn two_tetrahedra(world: *mut ColWorld) -> (ColObjectId, ColObjectId) {
        let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
        let (mut a, mut b) = (0, 0);
        let null = std::ptr::null_mut();
        // SAFETY: a live world, valid pointers.
        unsafe {
            assert_eq!(colMakeCollidable(world, &desc, null, &mut a), COL_OK);
            assert_eq!(colMakeCollidable(world, &desc, null, &mut b), COL_OK);
            assert_eq!(
                colSetTransformd(world, b, translation(3.0, -0.2, -0.2).as_ptr()),
                COL_OK
            );
        }
        (a, b)
    }

    #[test]
    fn contact_kinds_follow_the_world_kinds() {
        let mut c = SweepContact {
            toi: colldet_world::TimeOfImpact::exact(0.5),
            kind: ContactKind::VertexFace,
            feature_moving: 1,
            feature_hit: 2,
            point: Default::default(),
            normal: Default::default(),
            initially_touching: false,
        };
        assert_eq!(contact_kind(&c), COL_CONTACT_VERTEX_FACE);
        c.kind = ContactKind::FaceVertex;
        assert_eq!(contact_kind(&c), COL_CONTACT_FACE_VERTEX);
        c.kind = ContactKind::EdgeEdge;
        assert_eq!(contact_kind(&c), COL_CONTACT_EDGE_EDGE);
        c.initially_touching = true;
        assert_eq!(contact_kind(&c), COL_CONTACT_NONE);
    }

    #[test]
    fn trace_reports_the_first_contact_and_moves_nothing() {
        let world = new_world();
        let (a, b) = two_tetrahedra(world);
        let end = translation(5.0, 0.0, 0.0);
        let mut t = ColTrace::failed();
        // SAFETY: a live world, valid pointers.
        unsafe {
            assert_eq!(colTraced(world, a, end.as_ptr(), &mut t), COL_OK);
            assert_eq!(t.hit, b);
            assert!((t.fraction - 0.4).abs() <= 1e-12, "{t:?}");
            assert!(t.fraction <= t.fraction_hi && t.fraction_hi - t.fraction <= 1e-12);
            assert_eq!(t.contact_kind, COL_CONTACT_VERTEX_FACE);
            assert_eq!((t.feature_moving, t.feature_hit), (1, 2));
            assert!((t.normal[0] + 1.0).abs() <= 1e-12, "{t:?}");
            assert!((t.point[0] - 3.0).abs() <= 1e-9, "{t:?}");
            // The f32 variant widens exactly: the same answer.
            let end32 = end.map(|v| v as f32);
            let mut t32 = ColTrace::failed();
            assert_eq!(colTrace(world, a, end32.as_ptr(), &mut t32), COL_OK);
            assert_eq!(t32, t);
            // Away from b: nothing hit.
            let away = translation(-5.0, 0.0, 0.0);
            assert_eq!(colTraced(world, a, away.as_ptr(), &mut t), COL_OK);
            assert_eq!(t, ColTrace::free());
            assert_eq!(colExit(world), COL_OK);
        }
    }

    #[test]
    fn a_trace_with_an_expel_distance_stops_earlier() {
        let world = new_world();
        let (a, b) = two_tetrahedra(world);
        let end = translation(5.0, 0.0, 0.0);
        let mut plain = ColTrace::failed();
        let mut t = ColTrace::failed();
        // SAFETY: a live world, valid pointers.
        unsafe {
            assert_eq!(colTraced(world, a, end.as_ptr(), &mut plain), COL_OK);
            assert_eq!(colSetExpelDistance(world, 0.1), COL_OK);
            assert_eq!(colTraced(world, a, end.as_ptr(), &mut t), COL_OK);
            assert_eq!(t.hit, b);
            // Vertex (1, 0, 0) reaches the zone 0.1 before face x = 3: 1.9 of 5 units.
            assert!((plain.fraction - 0.4).abs() <= 1e-12, "{plain:?}");
            assert!((t.fraction - 0.38).abs() <= 1e-12, "{t:?}");
            assert_eq!(t.contact_kind, COL_CONTACT_VERTEX_FACE);
            // Placed in the zone (0.05 from b): towards b stops at once, away is free.
            let near = translation(1.95, 0.0, 0.0);
            assert_eq!(colSetTransformd(world, a, near.as_ptr()), COL_OK);
            assert_eq!(colTraced(world, a, end.as_ptr(), &mut t), COL_OK);
            assert_eq!((t.hit, t.fraction), (b, 0.0));
            let away = translation(-5.0, 0.0, 0.0);
            assert_eq!(colTraced(world, a, away.as_ptr(), &mut t), COL_OK);
            assert_eq!(t, ColTrace::free());
            // Back to 0: the plain answer.
            assert_eq!(colSetExpelDistance(world, 0.0), COL_OK);
            assert_eq!(
                colSetTransformd(world, a, translation(0.0, 0.0, 0.0).as_ptr()),
                COL_OK
            );
            assert_eq!(colTraced(world, a, end.as_ptr(), &mut t), COL_OK);
            assert_eq!(t, plain);
            assert_eq!(colExit(world), COL_OK);
        }
    }

    #[test]
    fn trace_refuses_bad_input_with_a_message() {
        let world = new_world();
        let (a, _) = two_tetrahedra(world);
        let mut t = ColTrace::free();
        t.hit = 99;
        let mut end = translation(5.0, 0.0, 0.0);
        // SAFETY: a live world, valid pointers.
        unsafe {
            end[0] = f64::NAN;
            assert_eq!(
                colTraced(world, a, end.as_ptr(), &mut t),
                COL_ERR_INVALID_ARGUMENT
            );
            assert_eq!(t, ColTrace::failed());
            assert!(!message(world).is_empty());
            end[0] = 2.0;
            assert_eq!(
                colTraced(world, a, end.as_ptr(), &mut t),
                COL_ERR_INVALID_ARGUMENT
            );
            assert!(message(world).contains("scale"), "{}", message(world));
            end[0] = 1.0;
            assert_eq!(
                colTraced(world, a, std::ptr::null(), &mut t),
                COL_ERR_NULL_ARGUMENT
            );
            assert!(message(world).contains("end_m"));
            assert_eq!(
                colTraced(world, a, end.as_ptr(), std::ptr::null_mut()),
                COL_ERR_NULL_ARGUMENT
            );
            assert_eq!(
                colTraced(std::ptr::null(), a, end.as_ptr(), &mut t),
                COL_ERR_NULL_ARGUMENT
            );
            assert!(message(std::ptr::null()).contains("colTraced"));
            assert_eq!(colRemoveCollidable(world, a), COL_OK);
            assert_eq!(
                colTraced(world, a, end.as_ptr(), &mut t),
                COL_ERR_INVALID_HANDLE
            );
            assert!(message(world).contains("stale"), "{}", message(world));
            assert_eq!(
                colTraced(world, 0, end.as_ptr(), &mut t),
                COL_ERR_INVALID_HANDLE
            );
            assert_eq!(colExit(world), COL_OK);
        }
    }

    /// What the swept callback of the tests saw and did.
    struct Seen {
        world: *mut ColWorld,
        calls: Vec<ColSweptCollision>,
        in_callback: bool,
        moved: ColStatus,
        structural: ColStatus,
    }

    unsafe extern "C" fn record(c: *const ColSweptCollision, user: *mut c_void) {
        // SAFETY: `user` is the test's `Seen`, `c` valid for the call.
        let (seen, c) = unsafe { (&mut *user.cast::<Seen>(), *c) };
        seen.calls.push(c);
        // SAFETY: the live world being checked.
        unsafe {
            seen.in_callback = (*seen.world).in_callback();
            seen.moved = colSetTransformd(seen.world, c.a, translation(-5.0, 0.0, 0.0).as_ptr());
            seen.structural = colCheckContinuous(seen.world);
        }
    }

    #[test]
    fn check_continuous_dispatches_after_the_check_with_the_world_locked() {
        let world = new_world();
        let (a, b) = two_tetrahedra(world);
        let mut seen = Seen {
            world,
            calls: Vec::new(),
            in_callback: false,
            moved: -1,
            structural: -1,
        };
        // SAFETY: a live world, valid pointers; `seen` outlives the checks.
        unsafe {
            assert_eq!(colCheckContinuous(world), COL_ERR_WRONG_STATE);
            let user = (&raw mut seen).cast();
            assert_eq!(colSetSweptCallback(world, b, a, Some(record), user), COL_OK);
            assert_eq!(colStart(world), COL_OK);
            assert_eq!(colCheckContinuous(world), COL_OK);
            assert!(seen.calls.is_empty());
            // a jumps through b.
            let end = translation(5.0, 0.0, 0.0);
            assert_eq!(colSetTransformd(world, a, end.as_ptr()), COL_OK);
            assert_eq!(colCheckContinuous(world), COL_OK);
            assert_eq!(seen.calls.len(), 1);
            let c = seen.calls[0];
            assert_eq!((c.a, c.b), (a, b));
            assert!((c.fraction - 0.4).abs() <= 1e-12, "{c:?}");
            assert_eq!(c.contact_kind, COL_CONTACT_VERTEX_FACE);
            assert_eq!((c.feature_a, c.feature_b), (1, 2));
            assert!(seen.in_callback && !(*world).in_callback());
            assert_eq!(seen.moved, COL_OK);
            assert_eq!(seen.structural, COL_ERR_WORLD_LOCKED);
            // The callback's move (5 to -5, through b again) counts for the next check.
            assert_eq!(colCheckContinuous(world), COL_OK);
            assert_eq!(seen.calls.len(), 2);
            assert_eq!(colExit(world), COL_OK);
        }
    }

    unsafe extern "C" fn panicking_nested(_: *const ColSweptCollision, user: *mut c_void) {
        let world = user.cast::<ColWorld>();
        // SAFETY: `user` is the live world being checked.
        let status = unsafe { with_world(world, "nested", Access::Any, |_| panic!("nested")) };
        assert_eq!(status, COL_ERR_INTERNAL);
    }

    #[test]
    fn a_panic_inside_a_swept_callback_poisons_the_world() {
        let world = new_world();
        let (a, _) = two_tetrahedra(world);
        // SAFETY: a live world, valid pointers.
        unsafe {
            assert_eq!(
                colSetGeneralSweptCallback(world, Some(panicking_nested), world.cast()),
                COL_OK
            );
            assert_eq!(colStart(world), COL_OK);
            let end = translation(5.0, 0.0, 0.0);
            assert_eq!(colSetTransformd(world, a, end.as_ptr()), COL_OK);
            assert_eq!(colCheckContinuous(world), COL_ERR_INTERNAL);
            assert!(!(*world).in_callback());
            assert_eq!(message(world), POISONED_MESSAGE);
            assert_eq!(colExit(world), COL_OK);
        }
    }

    #[test]
    fn expel_distance_is_validated_and_kept() {
        let world = new_world();
        // SAFETY: a live world.
        unsafe {
            assert_eq!(colSetExpelDistance(world, 0.25), COL_OK);
            for bad in [-1.0, -0.0 - f64::MIN_POSITIVE, f64::NAN, f64::INFINITY] {
                assert_eq!(colSetExpelDistance(world, bad), COL_ERR_INVALID_ARGUMENT);
                assert!(message(world).contains("finite and >= 0"));
                assert_eq!((*world).world.borrow().expel_distance(), 0.25);
            }
            assert_eq!(colSetExpelDistance(world, 0.0), COL_OK);
            assert_eq!((*world).world.borrow().expel_distance(), 0.0);
            assert_eq!(
                colSetExpelDistance(std::ptr::null_mut(), 1.0),
                COL_ERR_NULL_ARGUMENT
            );
            assert_eq!(colExit(world), COL_OK);
        }
    }
}
