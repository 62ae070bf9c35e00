//! Concurrent mode (the thesis's section 6.4): `colCheckBegin` starts a check beside the
//! application, `colCheckEnd` waits for it and calls its callbacks; [`WorldSlot`], the state of
//! a C world's Rust `World` (with the C world, or with a running check).
//!
//! While a check runs, the Rust world is inside the check's job ([`RunningCheck`]); only
//! `colSetTransform(d)` (recorded by the handle, for the next check), `colCheckEnd`, `colExit`
//! (waits, then frees) and `colLastError` can be answered. Every other call returns
//! `COL_ERR_WORLD_LOCKED` (the boundary refuses it before its body runs: see
//! [`crate::boundary::Access`]).

use std::ops::{Deref, DerefMut};

use colldet_world::{ObjectId, RunningCheck, World};

use crate::boundary::{Access, with_world};
use crate::lifecycle::dispatch_check;
use crate::status::{COL_ERR_INTERNAL, COL_ERR_WRONG_STATE, ColStatus, Failure};
use crate::world::{ClientData, ColWorld};

/// Where a C world's Rust world is.
#[allow(clippy::large_enum_variant)] // one per world, nearly always idle: a box would cost every call
pub(crate) enum WorldSlot {
    /// With the C world: every call may use it.
    Idle(World<ClientData>),
    /// With a check started by `colCheckBegin`.
    Checking(RunningCheck<ClientData>),
    /// Gone with a panic while a check ended (a bug); the C world is poisoned.
    Lost,
}

/// The message of the panic a misrouted call meets (the boundary turns it into
/// `COL_ERR_INTERNAL`): the boundary's lock should have refused the call.
const NOT_IDLE: &str = "a call reached the world while a concurrent check holds it";

impl Deref for WorldSlot {
    type Target = World<ClientData>;

    /// The world, for every call but those of a running check (the boundary refuses them).
    fn deref(&self) -> &World<ClientData> {
        match self {
            WorldSlot::Idle(world) => world,
            _ => panic!("{NOT_IDLE}"),
        }
    }
}

impl DerefMut for WorldSlot {
    fn deref_mut(&mut self) -> &mut World<ClientData> {
        match self {
            WorldSlot::Idle(world) => world,
            _ => panic!("{NOT_IDLE}"),
        }
    }
}

impl WorldSlot {
    /// True while a check started by `colCheckBegin` runs.
    pub(crate) fn is_checking(&self) -> bool {
        matches!(self, WorldSlot::Checking(_))
    }

    /// Sets an object's pose from a column-major matrix: at once when idle, for the next check
    /// while one runs.
    pub(crate) fn set_transform_matrix(
        &mut self,
        id: ObjectId,
        m: &[f64; 16],
    ) -> Result<(), Failure> {
        match self {
            WorldSlot::Idle(world) => world.set_transform_matrix(id, m)?,
            WorldSlot::Checking(check) => check.set_transform_matrix(id, m)?,
            WorldSlot::Lost => return Err(Failure::new(COL_ERR_INTERNAL, NOT_IDLE)),
        }
        Ok(())
    }
}

/// Starts a check of the new collisions on the world's worker threads (a thread of its own when
/// `threads` is 1) and returns at once: the application renders or simulates meanwhile. The
/// check sees the poses as they are now; `colSetTransform(d)` calls made before `colCheckEnd`
/// count for the next check. Every other call on the world (including `colCheck` and a second
/// `colCheckBegin`) returns `COL_ERR_WORLD_LOCKED` until `colCheckEnd`; `colExit` waits for the
/// check and frees the world without calling callbacks. `COL_ERR_WRONG_STATE` before
/// `colStart`, `COL_ERR_WORLD_LOCKED` inside a callback, `COL_ERR_OUT_OF_MEMORY` when the thread
/// of a one-thread world cannot be started.
///
/// # Safety
/// `world` is NULL (returns `COL_ERR_NULL_ARGUMENT`) or a live world; not concurrently with
/// other calls on the same world (the check's own threads are colldet's: the calls between
/// `colCheckBegin` and `colCheckEnd` still come from one thread at a time).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colCheckBegin(world: *mut ColWorld) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colCheckBegin", Access::Structural, |w| {
            let mut slot = w.world.borrow_mut();
            let WorldSlot::Idle(idle) = std::mem::replace(&mut *slot, WorldSlot::Lost) else {
                // The boundary refuses the call while a check runs and on a poisoned world.
                return Err(Failure::new(COL_ERR_INTERNAL, NOT_IDLE));
            };
            match idle.check_begin() {
                Ok(check) => {
                    *slot = WorldSlot::Checking(check);
                    Ok(())
                }
                Err((idle, e)) => {
                    *slot = WorldSlot::Idle(idle);
                    Err(e.into())
                }
            }
        })
    }
}

/// Waits for the check `colCheckBegin` started, then, on the calling thread, does what the end
/// of `colCheck` does: calls the collision callbacks, then the near-pair and contact-event
/// callbacks, with the same arguments in the same order as `colCheck` would have. Then the
/// moves are applied: first those made with `colSetTransform(d)` while the check ran, then those
/// the callbacks made (so a callback's move of an object wins); all count for the next check.
/// Returns what `colCheck` would have (`COL_ERR_NUMERICAL` when the exact test failed on some
/// pair). `COL_ERR_WRONG_STATE` without a running check (no `colCheckBegin`, or `colCheckEnd`
/// twice), `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// As `colCheck`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colCheckEnd(world: *mut ColWorld) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colCheckEnd", Access::EndCheck, |w| {
            let check = {
                let mut slot = w.world.borrow_mut();
                match std::mem::replace(&mut *slot, WorldSlot::Lost) {
                    WorldSlot::Checking(check) => check,
                    other => {
                        *slot = other;
                        return Err(Failure::new(
                            COL_ERR_WRONG_STATE,
                            "colCheckEnd without a running check (call colCheckBegin first)",
                        ));
                    }
                }
            };
            // A panic here leaves the slot `Lost`; the boundary poisons the world.
            let (idle, result) = check.end();
            *w.world.borrow_mut() = WorldSlot::Idle(idle);
            dispatch_check(w, result)
        })
    }
}
