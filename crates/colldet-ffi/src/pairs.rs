//! Pairs: the interest matrix and the callbacks (`colSetInterest`, `colSetCallback`,
//! `colSetGeneralCallback`).

use std::ffi::{c_int, c_void};

use crate::boundary::{Access, with_world};
use crate::callback::{CallbackTarget, ColCollisionCallback};
use crate::status::ColStatus;
use crate::world::{ColObjectId, ColWorld, object_id};

/// Switches collision detection for the pair `{a, b}` on (`interested != 0`, the default) or
/// off. `COL_ERR_INVALID_ARGUMENT` when `a == b`, `COL_ERR_INVALID_HANDLE` for a bad id,
/// `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetInterest(
    world: *mut ColWorld,
    a: ColObjectId,
    b: ColObjectId,
    interested: c_int,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetInterest", Access::Structural, |w| {
            let (a, b) = (object_id(a)?, object_id(b)?);
            Ok(w.world.borrow_mut().set_interest(a, b, interested != 0)?)
        })
    }
}

/// Gives the pair `{a, b}` its own callback `cb` with `user` (replacing any earlier one and,
/// for this pair, the general callback). A NULL `cb` hands the pair back to the general
/// callback. Errors as `colSetInterest`.
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world. `cb`
/// must be callable as described at `ColCollisionCallback` for as long as it is installed, and
/// `user` valid for it; colldet never dereferences `user`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetCallback(
    world: *mut ColWorld,
    a: ColObjectId,
    b: ColObjectId,
    cb: ColCollisionCallback,
    user: *mut c_void,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetCallback", Access::Structural, |w| {
            let (a, b) = (object_id(a)?, object_id(b)?);
            let recorder = w.pair_recorder(cb, user);
            Ok(w.world.borrow_mut().set_callback(a, b, recorder)?)
        })
    }
}

/// Sets the callback for every pair without its own (NULL: none, such collisions are not
/// reported). `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// As `colSetCallback`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetGeneralCallback(
    world: *mut ColWorld,
    cb: ColCollisionCallback,
    user: *mut c_void,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetGeneralCallback", Access::Structural, |w| {
            w.general
                .set(cb.map(|callback| CallbackTarget { callback, user }));
            Ok(())
        })
    }
}
