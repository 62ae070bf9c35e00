//! World lifecycle: `colInit`, `colStart`, `colCheck`, `colExit`, and `colLastError`.

use std::ffi::c_char;

use colldet_world::{World, WorldError};

use crate::boundary::{
    Access, POISONED_MESSAGE, catch_global, catch_plain, thread_error, with_world,
};
use crate::config::ColConfig;
use crate::status::{COL_ERR_INTERNAL, COL_ERR_WORLD_LOCKED, COL_OK, ColStatus, Failure};
use crate::world::ColWorld;

/// Creates a world with `config` and stores it in `*out` (NULL on failure).
///
/// Returns `COL_ERR_NULL_ARGUMENT` for a NULL argument, `COL_ERR_INVALID_ARGUMENT` for a bad
/// configuration (unknown broad phase, method or flag bits, a grid or octree without a universe
/// box, with resolution 0 or above `COL_MAX_RESOLUTION`, or with a universe too small for its
/// resolution; an inverted, flat or non-finite universe box or one with a coordinate beyond
/// `COL_MAX_COORDINATE`; too many threads),
/// `COL_ERR_OUT_OF_MEMORY` when worker threads cannot be started. There is no world to keep
/// the message: `colLastError(NULL)` returns it, on the calling thread.
///
/// # Safety
/// `config` is NULL or points to a readable `ColConfig`; `out` is NULL or points to writable
/// storage for a pointer. The world belongs to the caller until `colExit`. A world may be used
/// from any thread, but from one thread at a time; different worlds are independent.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colInit(config: *const ColConfig, out: *mut *mut ColWorld) -> ColStatus {
    catch_global(|| {
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        // SAFETY: `out` is writable (caller's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        if config.is_null() {
            return Err(Failure::null("config"));
        }
        // SAFETY: `config` is readable (caller's contract); `ColConfig` has no invalid bit
        // patterns.
        let config = unsafe { config.read() }.to_config()?;
        let world = World::new(config)?;
        // SAFETY: as above.
        unsafe { out.write(Box::into_raw(Box::new(ColWorld::new(world)))) };
        Ok(())
    })
}

/// Frees a world and everything in it (objects, callbacks, messages). NULL is a no-op returning
/// `COL_OK`. Works on a poisoned world. From inside a collision callback it returns
/// `COL_ERR_WORLD_LOCKED` and frees nothing. While a concurrent check runs (`colCheckBegin`) it
/// waits for the check, then frees the world without calling its callbacks.
///
/// # Safety
/// `world` is NULL or a pointer from `colInit` not yet freed; after `COL_OK` it is dangling and
/// must not be used again (client data pointers are not touched: they stay the caller's).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colExit(world: *mut ColWorld) -> ColStatus {
    if world.is_null() {
        return COL_OK;
    }
    // SAFETY: a live world (caller's contract); shared, as in every export.
    let shared = unsafe { &*world };
    if shared.in_callback() {
        return shared.fail(Failure::new(
            COL_ERR_WORLD_LOCKED,
            "colExit cannot be called from inside a collision callback",
        ));
    }
    // SAFETY: not dispatching callbacks, so no other reference to the world exists; it came
    // from `Box::into_raw` in `colInit`.
    let owned = unsafe { Box::from_raw(world) };
    // Dropping runs no user code; a panic here (a bug) would leak the rest, never unwind out.
    catch_plain((), move || drop(owned));
    COL_OK
}

/// Starts collision detection: builds the broad phase from the objects' current poses. Every
/// object counts as moved for the first `colCheck`. Objects may still be added and removed
/// afterwards. `COL_ERR_WRONG_STATE` when already started.
///
/// # Safety
/// `world` is NULL (returns `COL_ERR_NULL_ARGUMENT`) or a live world; not concurrently with
/// other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colStart(world: *mut ColWorld) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colStart", Access::Structural, |w| {
            Ok(w.world.borrow_mut().start()?)
        })
    }
}

/// Detects the new collisions since the last check (colliding pairs of which at least one
/// object moved, was added, or `colStart` ran) and calls their callbacks on the calling thread,
/// one at a time, sorted by id pair (smaller id first): each pair's own callback, else the
/// general one. Every collision of the check is computed before the first callback runs, so
/// moves made from callbacks count for the next check. Then the contact-event callback
/// (`colSetEventCallback`) is called once per `COL_EVENT_*` event of the check, in the same
/// order. `COL_ERR_WRONG_STATE` before
/// `colStart`; `COL_ERR_NUMERICAL` when the exact test failed on some pair (the others were
/// checked and reported).
///
/// # Safety
/// `world` is NULL (returns `COL_ERR_NULL_ARGUMENT`) or a live world; not concurrently with
/// other calls on the same world. The callbacks' requirements are those of
/// `ColCollisionCallback`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colCheck(world: *mut ColWorld) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colCheck", Access::Structural, |w| {
            let result = w.world.borrow_mut().check();
            dispatch_check(w, result)
        })
    }
}

/// After `World::check` (or a concurrent check's end) returned `result`: calls the recorded C
/// callbacks (collisions, near pairs, contact events) on the calling thread and answers as
/// `colCheck`.
pub(crate) fn dispatch_check(
    w: &ColWorld,
    result: Result<usize, WorldError>,
) -> Result<(), Failure> {
    // The removed objects' client data served this check's END events; a check that failed
    // before its contacts were updated (the broad phase) keeps it for the next.
    if result.is_ok() || matches!(result, Err(WorldError::Narrow { .. })) {
        w.events.forget_removed();
        w.record_near_pairs();
    }
    w.dispatch_pending();
    w.dispatch_near_pairs();
    w.dispatch_events();
    if w.is_poisoned() {
        // A call made from a callback failed internally.
        return Err(Failure::new(COL_ERR_INTERNAL, POISONED_MESSAGE));
    }
    result?;
    Ok(())
}

/// The message of the last failed call on `world` (`""` if none failed). With NULL: the message
/// of the last failed call on the calling thread that had no world to keep it (`colInit`, or a
/// call given a NULL world).
///
/// # Safety
/// `world` is NULL or a live world. The string belongs to the world (or thread): do not free
/// it; it stays valid until the next failing call on that world (or, for NULL, the next such
/// failure on the thread) or `colExit`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colLastError(world: *const ColWorld) -> *const c_char {
    catch_plain(c"".as_ptr(), || {
        if world.is_null() {
            thread_error()
        } else {
            // SAFETY: a live world (caller's contract).
            unsafe { &*world }.last_error()
        }
    })
}
