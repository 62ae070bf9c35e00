//! The panic boundary every export goes through, and where failure messages are kept.
//!
//! No panic may unwind across `extern "C"`. Each export runs its body under
//! [`std::panic::catch_unwind`]: a failure becomes a status plus a message stored on the world
//! (or, for calls without a world, in a thread-local slot that `colLastError(NULL)` reads), and
//! a caught panic becomes `COL_ERR_INTERNAL` and poisons the world, since its invariants may no
//! longer hold.

use std::any::Any;
use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::status::{
    COL_ERR_INTERNAL, COL_ERR_NULL_ARGUMENT, COL_ERR_WORLD_LOCKED, COL_OK, ColStatus, Failure,
};
use crate::world::ColWorld;

/// The message of every call on a poisoned world.
pub(crate) const POISONED_MESSAGE: &str = "world poisoned by an earlier internal error";

thread_local! {
    /// The message of the last failed call on this thread that had no world to keep it
    /// (`colInit`, or any call given a NULL world).
    static THREAD_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// A message as a C string; interior NULs (never produced by colldet) are dropped.
pub(crate) fn c_message(message: &str) -> CString {
    CString::new(message.replace('\0', "")).unwrap_or_default()
}

fn panic_text(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("unknown panic")
}

/// Records `failure` as this thread's last error and returns its status.
fn fail_thread(failure: Failure) -> ColStatus {
    let _ = THREAD_ERROR.try_with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = c_message(&failure.message);
        }
    });
    failure.status
}

/// The thread's last world-less error message (valid until the next such failure on the thread).
pub(crate) fn thread_error() -> *const c_char {
    THREAD_ERROR
        .try_with(|slot| slot.try_borrow().map(|s| s.as_ptr()).ok())
        .ok()
        .flatten()
        .unwrap_or(c"".as_ptr())
}

/// Runs a body that cannot fail; a panic (a bug) yields `fallback`.
pub(crate) fn catch_plain<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// Runs the body of an export that has no world yet (`colInit`); failures are kept per thread.
pub(crate) fn catch_global(body: impl FnOnce() -> Result<(), Failure>) -> ColStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => COL_OK,
        Ok(Err(failure)) => fail_thread(failure),
        Err(payload) => fail_thread(Failure::new(
            COL_ERR_INTERNAL,
            format!("internal error: {}", panic_text(payload.as_ref())),
        )),
    }
}

/// Whether a call may run while the world's callbacks are being dispatched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// Reads and moves (`colSetTransform`, `colGetObjectInfo`): allowed in callbacks.
    Any,
    /// Structural calls: refused with `COL_ERR_WORLD_LOCKED` inside callbacks.
    Structural,
}

/// Runs the body of export `name` on `world` behind the panic boundary: NULL world, poisoned
/// world and (for structural calls) callback dispatch are answered first; a failure's message
/// is stored on the world; a panic poisons it.
///
/// # Safety
/// `world` is NULL or a live pointer from `colInit` that `colExit` has not freed.
pub(crate) unsafe fn with_world(
    world: *const ColWorld,
    name: &str,
    access: Access,
    body: impl FnOnce(&ColWorld) -> Result<(), Failure>,
) -> ColStatus {
    if world.is_null() {
        return fail_thread(Failure::new(
            COL_ERR_NULL_ARGUMENT,
            format!("{name}: `world` is NULL"),
        ));
    }
    // SAFETY: the caller guarantees a live world; every export takes it shared (all mutation
    // goes through cells), so a callback's nested call may hold another shared reference.
    let world = unsafe { &*world };
    if world.is_poisoned() {
        return world.fail(Failure::new(COL_ERR_INTERNAL, POISONED_MESSAGE));
    }
    if access == Access::Structural && world.in_callback() {
        return world.fail(Failure::new(
            COL_ERR_WORLD_LOCKED,
            format!("{name} cannot be called from inside a collision callback"),
        ));
    }
    match catch_unwind(AssertUnwindSafe(|| body(world))) {
        Ok(Ok(())) => COL_OK,
        Ok(Err(failure)) => {
            if failure.status == COL_ERR_INTERNAL {
                world.poison();
            }
            world.fail(failure)
        }
        Err(payload) => {
            world.poison();
            world.fail(Failure::new(
                COL_ERR_INTERNAL,
                format!(
                    "{name}: internal error: {}; the world is poisoned",
                    panic_text(payload.as_ref())
                ),
            ))
        }
    }
}
