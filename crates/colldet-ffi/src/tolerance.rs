//! Tolerances in the check: `colSetPairTolerance`, `colSetDefaultTolerance` and the near-pair
//! callback of `colSetToleranceCallback` (wrapping `colldet_world::World::set_pair_tolerance`,
//! `set_default_tolerance` and `last_near_pairs`). `ColCollision` and the collision callbacks are
//! unchanged: a near pair has its own record, `ColNearPair`.
//!
//! Like collisions, near pairs are taken from the world when `World::check` returns and
//! dispatched after it (see [`crate::world`]): after the check's collision callbacks and before
//! its contact events, one call per pair, sorted by id pair.

use std::cell::{Cell, RefCell};
use std::ffi::c_void;

use colldet_world::{NearKind, NearPair, World};

use crate::boundary::{Access, with_world};
use crate::proximity::ColProximity;
use crate::status::ColStatus;
use crate::world::{ClientData, ColObjectId, ColWorld, object_id};

/// `ColNearPair::kind`: the objects collide (touching counts); the pair also went to its
/// collision callback. `proximity.distance` is 0, `point_a` and `point_b` are the collision's
/// point, the normal is zero and both features are `COL_NO_FEATURE` (no depth is computed).
pub const COL_NEAR_TOUCHING: u32 = 0;
/// `ColNearPair::kind`: the objects are apart by `proximity.distance <= tolerance`; `proximity`
/// is what `colDistance` reports for the pair at the check's poses (`distance > 0` except for a
/// gap within GJK's accuracy of contact, about `1e-12` of the objects' size, where two convex
/// objects may get 0 or a tiny negative depth).
pub const COL_NEAR_SEPARATED: u32 = 1;

/// A pair within its tolerance at a `colCheck`. `a < b` by id, with both objects'
/// `client_data`. World coordinates and units. Valid only during the callback call.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ColNearPair {
    /// The object with the smaller id.
    pub a: ColObjectId,
    /// The object with the larger id.
    pub b: ColObjectId,
    /// The `client_data` given when `a` was made collidable.
    pub client_data_a: *mut c_void,
    /// The `client_data` given when `b` was made collidable.
    pub client_data_b: *mut c_void,
    /// `COL_NEAR_TOUCHING` or `COL_NEAR_SEPARATED`.
    pub kind: u32,
    /// The pair's tolerance at the check (its own, else the default; above 0).
    pub tolerance: f64,
    /// Distance, closest points (world coordinates), unit normal from `a` to `b` and faces, as
    /// `colDistance` reports them (see the kinds for a touching pair). Between non-convex
    /// objects the distance is between the surfaces (a separated pair has neither inside the
    /// other).
    pub proximity: ColProximity,
}

/// A near-pair callback: `p` describes the pair (valid during the call only), `user` is the
/// pointer given with the callback. Called by `colCheck` on its calling thread after the
/// check's collision callbacks and before its contact events, one call at a time, sorted by id
/// pair. It may call what a collision callback may (`colSetTransform`/`colSetTransformd`, whose
/// moves count for the next check, `colGetObjectInfo`, `colDistance`, `colWithinDistance`,
/// `colLastError`, `colStatusString`); structural calls return `COL_ERR_WORLD_LOCKED`. It must
/// return normally.
pub type ColToleranceCallback =
    Option<unsafe extern "C" fn(p: *const ColNearPair, user: *mut c_void)>;

/// The near-pair callback with its user pointer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NearTarget {
    pub callback: unsafe extern "C" fn(*const ColNearPair, *mut c_void),
    pub user: *mut c_void,
}

/// A world's near-pair state on the C side.
#[derive(Default)]
pub(crate) struct NearState {
    pub target: Cell<Option<NearTarget>>,
    /// The last check's near pairs, waiting for the callback.
    pub pending: RefCell<Vec<ColNearPair>>,
}

impl ColNearPair {
    fn from_world(p: &NearPair, world: &World<ClientData>) -> Self {
        let data = |id| world.user_data(id).map_or(std::ptr::null_mut(), |d| d.0);
        Self {
            a: p.a.to_raw(),
            b: p.b.to_raw(),
            client_data_a: data(p.a),
            client_data_b: data(p.b),
            kind: match p.kind {
                NearKind::Touching => COL_NEAR_TOUCHING,
                NearKind::Separated => COL_NEAR_SEPARATED,
            },
            tolerance: p.tolerance,
            proximity: ColProximity::from_world(&p.proximity),
        }
    }
}

impl ColWorld {
    /// After `World::check`: records its near pairs for the callback, if one is set (the
    /// objects are live: callbacks cannot remove any).
    pub(crate) fn record_near_pairs(&self) {
        let mut pending = self.near.pending.borrow_mut();
        pending.clear();
        if self.near.target.get().is_none() {
            return;
        }
        let world = self.world.borrow();
        pending.extend(
            world
                .last_near_pairs()
                .iter()
                .map(|p| ColNearPair::from_world(p, &world)),
        );
    }

    /// Calls the near-pair callback for the recorded pairs (see `dispatch_pending`).
    pub(crate) fn dispatch_near_pairs(&self) {
        let target = self.near.target.get().filter(|_| !self.is_poisoned());
        let Some(target) = target else {
            self.near.pending.borrow_mut().clear();
            return;
        };
        self.dispatch(&self.near.pending, |pair| {
            // SAFETY: the caller of `colSetToleranceCallback` promised a callback that may be
            // called with a pair valid for the call and its `user`.
            unsafe { (target.callback)(pair, target.user) };
        });
    }
}

/// Gives the pair `{a, b}` its own tolerance (world units, `>= 0`), overriding the default of
/// `colSetDefaultTolerance`; 0 makes the pair report touching only. From the next `colCheck`
/// on, when one of its objects moved, the pair goes to the near-pair callback when its objects
/// are at most `tolerance` apart (`distance <= tolerance`: the boundary counts), as
/// `COL_NEAR_SEPARATED` with its distance, or as `COL_NEAR_TOUCHING` when they collide (it then
/// also goes to its collision callback, as always). A tolerance change is not a move. Each
/// object's box in the broad phase grows by half its pairs' largest tolerance. Dropped when
/// either object is removed.
///
/// Errors: `COL_ERR_INVALID_ARGUMENT` for a negative, NaN or infinite `tolerance` (or one above
/// `1e15`), for `a == b`, and for a tolerance above 0 in a world of `COL_METHOD_NONE` (boxes
/// only); `COL_ERR_INVALID_HANDLE` for a bad id; `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetPairTolerance(
    world: *mut ColWorld,
    a: ColObjectId,
    b: ColObjectId,
    tolerance: f64,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetPairTolerance", Access::Structural, |w| {
            let (a, b) = (object_id(a)?, object_id(b)?);
            Ok(w.world.borrow_mut().set_pair_tolerance(a, b, tolerance)?)
        })
    }
}

/// Sets the tolerance of every pair without its own (world units, `>= 0`; default 0: only
/// touching pairs, no near pairs). See `colSetPairTolerance` for what a check reports; a large
/// default grows every box in the broad phase, so more pairs are tested.
///
/// Errors: `COL_ERR_INVALID_ARGUMENT` for a negative, NaN or infinite `tolerance` (or one above
/// `1e15`) and for a tolerance above 0 in a world of `COL_METHOD_NONE`; `COL_ERR_WORLD_LOCKED`
/// inside a callback.
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetDefaultTolerance(world: *mut ColWorld, tolerance: f64) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetDefaultTolerance", Access::Structural, |w| {
            Ok(w.world.borrow_mut().set_default_tolerance(tolerance)?)
        })
    }
}

/// Sets the near-pair callback `cb` with `user` (replacing an earlier one; NULL: near pairs
/// are not delivered). Each `colCheck` calls it once per pair within its tolerance (see
/// `colSetPairTolerance`), after the collision callbacks and before the contact events, sorted
/// by id pair. `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world. `cb`
/// must be callable as described at `ColToleranceCallback` for as long as it is installed, and
/// `user` valid for it; colldet never dereferences `user`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetToleranceCallback(
    world: *mut ColWorld,
    cb: ColToleranceCallback,
    user: *mut c_void,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetToleranceCallback", Access::Structural, |w| {
            w.near
                .target
                .set(cb.map(|callback| NearTarget { callback, user }));
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifecycle::{colCheck, colExit, colStart};
    use crate::objects::{colMakeCollidable, colRemoveCollidable, colSetTransformd};
    use crate::status::{
        COL_ERR_INVALID_ARGUMENT, COL_ERR_INVALID_HANDLE, COL_ERR_NULL_ARGUMENT,
        COL_ERR_WORLD_LOCKED, COL_OK,
    };
    use crate::test_support::{
        TETRAHEDRON_VERTICES, message, new_world, tetrahedron_desc, translation,
    };

    /// A world with three unit tetrahedra at x = 0, 1.5 and 3.5 (client data 1, 2, 3): the
    /// vertex (1, 0, 0) of each is 0.5 (a-b) and 1.0 (b-c) from the next one's origin corner.
    fn three_tetrahedra() -> (*mut ColWorld, [ColObjectId; 3]) {
        let world = new_world();
        let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
        let mut ids = [0; 3];
        for (k, x) in [0.0, 1.5, 3.5].into_iter().enumerate() {
            // SAFETY: a live world and valid pointers.
            unsafe {
                assert_eq!(
                    colMakeCollidable(world, &desc, (k + 1) as *mut c_void, &mut ids[k]),
                    COL_OK
                );
                assert_eq!(
                    colSetTransformd(world, ids[k], translation(x, 0.0, 0.0).as_ptr()),
                    COL_OK
                );
            }
        }
        (world, ids)
    }

    #[test]
    fn bad_tolerances_get_a_status_and_a_message() {
        let (world, [a, b, c]) = three_tetrahedra();
        // SAFETY: a live world; the ids are plain numbers.
        unsafe {
            for t in [-1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e16] {
                assert_eq!(
                    colSetPairTolerance(world, a, b, t),
                    COL_ERR_INVALID_ARGUMENT
                );
                assert!(message(world).contains("tolerance"), "{}", message(world));
                assert_eq!(colSetDefaultTolerance(world, t), COL_ERR_INVALID_ARGUMENT);
                assert!(message(world).contains("tolerance"), "{}", message(world));
            }
            assert_eq!(
                colSetPairTolerance(world, a, a, 1.0),
                COL_ERR_INVALID_ARGUMENT
            );
            assert!(
                message(world).contains("two different"),
                "{}",
                message(world)
            );
            assert_eq!(
                colSetPairTolerance(world, a, 0, 1.0),
                COL_ERR_INVALID_HANDLE
            );
            assert_eq!(colRemoveCollidable(world, c), COL_OK);
            assert_eq!(
                colSetPairTolerance(world, a, c, 1.0),
                COL_ERR_INVALID_HANDLE
            );
            assert!(message(world).contains("stale"), "{}", message(world));
            assert_eq!(
                colSetPairTolerance(std::ptr::null_mut(), a, b, 1.0),
                COL_ERR_NULL_ARGUMENT
            );
            assert_eq!(
                colSetDefaultTolerance(std::ptr::null_mut(), 1.0),
                COL_ERR_NULL_ARGUMENT
            );
            assert_eq!(
                colSetToleranceCallback(std::ptr::null_mut(), None, std::ptr::null_mut()),
                COL_ERR_NULL_ARGUMENT
            );
            // The refused calls changed nothing: no near pair at the check.
            let mut seen = Seen::default();
            assert_eq!(
                colSetToleranceCallback(world, Some(record), (&raw mut seen).cast()),
                COL_OK
            );
            assert_eq!(colStart(world), COL_OK);
            assert_eq!(colCheck(world), COL_OK);
            assert!(seen.pairs.is_empty());
            assert_eq!(colExit(world), COL_OK);
        }
    }

    #[derive(Default)]
    struct Seen {
        pairs: Vec<(u64, u64, usize, usize, u32, f64)>,
        world: Option<*mut ColWorld>,
        locked: Vec<ColStatus>,
    }

    unsafe extern "C" fn record(p: *const ColNearPair, user: *mut c_void) {
        // SAFETY: the test passes a `Seen` and colldet a valid pair.
        let (seen, p) = unsafe { (&mut *user.cast::<Seen>(), &*p) };
        seen.pairs.push((
            p.a,
            p.b,
            p.client_data_a as usize,
            p.client_data_b as usize,
            p.kind,
            p.proximity.distance,
        ));
        if let Some(world) = seen.world {
            // SAFETY: the live world of the test.
            let status = unsafe { colSetDefaultTolerance(world, 2.0) };
            seen.locked.push(status);
        }
    }

    #[test]
    fn near_pairs_reach_the_callback_with_client_data_and_a_locked_world() {
        let (world, [a, b, c]) = three_tetrahedra();
        let mut seen = Seen {
            world: Some(world),
            ..Seen::default()
        };
        // SAFETY: a live world; `seen` outlives the checks.
        unsafe {
            assert_eq!(colSetDefaultTolerance(world, 0.5), COL_OK);
            assert_eq!(colSetPairTolerance(world, c, b, 1.0), COL_OK);
            assert_eq!(
                colSetToleranceCallback(world, Some(record), (&raw mut seen).cast()),
                COL_OK
            );
            assert_eq!(colStart(world), COL_OK);
            assert_eq!(colCheck(world), COL_OK);
            let got: Vec<_> = seen
                .pairs
                .iter()
                .map(|p| (p.0, p.1, p.2, p.3, p.4))
                .collect();
            assert_eq!(
                got,
                [
                    (a, b, 1, 2, COL_NEAR_SEPARATED),
                    (b, c, 2, 3, COL_NEAR_SEPARATED)
                ]
            );
            assert!((seen.pairs[0].5 - 0.5).abs() < 1e-12, "{:?}", seen.pairs);
            assert!((seen.pairs[1].5 - 1.0).abs() < 1e-12, "{:?}", seen.pairs);
            assert_eq!(seen.locked, [COL_ERR_WORLD_LOCKED; 2]);
            // Touching: b onto a's vertex.
            assert_eq!(
                colSetTransformd(world, b, translation(1.0, 0.0, 0.0).as_ptr()),
                COL_OK
            );
            seen.pairs.clear();
            assert_eq!(colCheck(world), COL_OK);
            let kinds: Vec<_> = seen.pairs.iter().map(|p| (p.0, p.1, p.4)).collect();
            assert_eq!(kinds, [(a, b, COL_NEAR_TOUCHING)]);
            // No callback: nothing delivered.
            assert_eq!(
                colSetToleranceCallback(world, None, std::ptr::null_mut()),
                COL_OK
            );
            seen.pairs.clear();
            assert_eq!(
                colSetTransformd(world, b, translation(1.5, 0.0, 0.0).as_ptr()),
                COL_OK
            );
            assert_eq!(colCheck(world), COL_OK);
            assert!(seen.pairs.is_empty());
            assert_eq!(colExit(world), COL_OK);
        }
    }
}
