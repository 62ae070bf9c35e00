//! `ColWorld`: the opaque world C holds a pointer to, and its re-entrancy design.
//!
//! # Re-entrancy
//! Collision callbacks may call back into the same world (to move objects, read object info,
//! read the last error). To keep that sound:
//! - every export takes the world as a *shared* reference; all state that changes sits in
//!   cells (`RefCell`, `Cell`), so a nested call never creates a second `&mut`;
//! - `colCheck` *collects, then dispatches*: the Rust world's callbacks only record each
//!   collision (with its C callback) in [`ColWorld::pending`]; the world's borrow ends when
//!   `World::check` returns, and only then are the C callbacks called, one at a time, in the
//!   recorded (sorted) order, with the `in_callback` flag set;
//! - while the flag is set, structural calls return `COL_ERR_WORLD_LOCKED`; moves made with
//!   `colSetTransform` go to the world's moved set, so the next check sees them (the thesis's
//!   back buffer: this check's collisions were all computed before any callback ran);
//! - between `colCheckBegin` and `colCheckEnd` the Rust world is with the concurrent check
//!   (`concurrent.rs`): only moves are taken (recorded for the next check); every other call is
//!   refused with `COL_ERR_WORLD_LOCKED` before it reaches the world;
//! - a mistake in this design would make a `RefCell` borrow fail, or reach the world while a
//!   check holds it, which panics, which the boundary turns into `COL_ERR_INTERNAL`: never
//!   undefined behaviour.

use std::cell::{Cell, RefCell};
use std::ffi::{CString, c_char, c_void};
use std::rc::Rc;

use crate::one_thread::OneThread;

use colldet_world::{CollisionCallback, ObjectId, SweptCallback, World};

use crate::boundary::c_message;
use crate::callback::{CallbackTarget, ColCollision, ColCollisionCallback};
use crate::concurrent::WorldSlot;
use crate::continuous::{ColSweptCallback, ColSweptCollision, SweptTarget};
use crate::events::EventState;
use crate::status::{COL_ERR_INVALID_HANDLE, ColStatus, Failure};
use crate::tolerance::NearState;

/// An object id as C sees it: a 64-bit integer, never 0, valid only in the world that issued it
/// and only until the object is removed (any other use is `COL_ERR_INVALID_HANDLE`). An opaque
/// value: compare and sort ids of one world freely (they keep their value while the object lives),
/// but do not build them. Layout, from the low bits: slot + 1 (24 bits: at most 16,777,215
/// objects in a world at once), the slot's generation (24 bits, raised on each removal; after
/// 16,777,215 removals from one slot it starts again, and a stale id kept that long would name
/// the slot's object again), the world's tag (16 bits, 1 to 65,535 from a process-wide counter at
/// `colInit`; the 65,536th world gets tag 1 again, and two live worlds sharing a tag do not tell
/// each other's ids apart).
pub type ColObjectId = u64;

/// The pointer given with an object, handed back in its collisions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientData(pub *mut c_void);

// SAFETY: colldet never dereferences the pointer: it only hands it back to the caller's
// callbacks, on the thread that calls `colCheck` / `colCheckEnd`. A concurrent check's job holds
// the world (with this value) on a pool thread without reading it.
unsafe impl Send for ClientData {}

/// A recorded collision waiting for its callback.
pub(crate) struct PendingCall {
    pub target: CallbackTarget,
    pub collision: ColCollision,
}

/// Collisions recorded during `World::check`, dispatched after it.
pub(crate) type PendingCalls = Rc<RefCell<Vec<PendingCall>>>;

/// A recorded swept collision waiting for its callback.
pub(crate) struct PendingSwept {
    pub target: SweptTarget,
    pub collision: ColSweptCollision,
}

/// Swept collisions recorded during `World::check_continuous`, dispatched after it.
pub(crate) type PendingSweptCalls = Rc<RefCell<Vec<PendingSwept>>>;

/// A collision world. Opaque: create with `colInit`, free with `colExit`.
pub struct ColWorld {
    /// The Rust world, or the concurrent check holding it (`concurrent.rs`).
    pub(crate) world: RefCell<WorldSlot>,
    /// The general callback; pairs without their own callback read it when they collide.
    pub(crate) general: Rc<Cell<Option<CallbackTarget>>>,
    pub(crate) pending: PendingCalls,
    /// The general swept callback; pairs without their own swept callback read it.
    pub(crate) swept_general: Rc<Cell<Option<SweptTarget>>>,
    pub(crate) swept_pending: PendingSweptCalls,
    /// The contact-event callback, the events waiting for it and removed objects' client data.
    pub(crate) events: EventState,
    /// The near-pair callback and the near pairs waiting for it (`tolerance.rs`).
    pub(crate) near: NearState,
    last_error: RefCell<CString>,
    poisoned: Cell<bool>,
    in_callback: Cell<bool>,
}

/// Records a collision for `target`, or for the general callback at the time of the collision
/// when `target` is `None`.
fn recorder(
    target: Option<CallbackTarget>,
    general: &Rc<Cell<Option<CallbackTarget>>>,
    pending: &PendingCalls,
) -> CollisionCallback<ClientData> {
    let state = OneThread::new((target, Rc::clone(general), Rc::clone(pending)));
    Box::new(move |collision, _| {
        let (target, general, pending) = state.get();
        if let Some(target) = target.or_else(|| general.get()) {
            pending.borrow_mut().push(PendingCall {
                target,
                collision: ColCollision::from_world(collision),
            });
        }
    })
}

/// Records a swept collision for `target`, or for the general swept callback at the time of the
/// collision when `target` is `None`.
fn swept_recorder(
    target: Option<SweptTarget>,
    general: &Rc<Cell<Option<SweptTarget>>>,
    pending: &PendingSweptCalls,
) -> SweptCallback<ClientData> {
    let state = OneThread::new((target, Rc::clone(general), Rc::clone(pending)));
    Box::new(move |collision, _| {
        let (target, general, pending) = state.get();
        if let Some(target) = target.or_else(|| general.get()) {
            pending.borrow_mut().push(PendingSwept {
                target,
                collision: ColSweptCollision::from_world(collision),
            });
        }
    })
}

impl ColWorld {
    /// Wraps a new world and installs the recorders of the general callbacks.
    pub(crate) fn new(mut world: World<ClientData>) -> Self {
        let general = Rc::new(Cell::new(None));
        let pending = Rc::new(RefCell::new(Vec::new()));
        world.set_general_callback(recorder(None, &general, &pending));
        let swept_general = Rc::new(Cell::new(None));
        let swept_pending = Rc::new(RefCell::new(Vec::new()));
        world.set_general_swept_callback(swept_recorder(None, &swept_general, &swept_pending));
        // The event recorder is installed by colSetEventCallback, only while a callback is set.
        let events = EventState::default();
        Self {
            world: RefCell::new(WorldSlot::Idle(world)),
            general,
            pending,
            swept_general,
            swept_pending,
            events,
            near: NearState::default(),
            last_error: RefCell::new(CString::default()),
            poisoned: Cell::new(false),
            in_callback: Cell::new(false),
        }
    }

    /// The recorder to install as the own callback of a pair: `cb` with `user`, or, for a NULL
    /// `cb`, whatever the general callback is when the pair collides.
    pub(crate) fn pair_recorder(
        &self,
        cb: ColCollisionCallback,
        user: *mut c_void,
    ) -> CollisionCallback<ClientData> {
        let target = cb.map(|callback| CallbackTarget { callback, user });
        recorder(target, &self.general, &self.pending)
    }

    /// The recorder to install as the own swept callback of a pair: `cb` with `user`, or, for a
    /// NULL `cb`, whatever the general swept callback is when the pair collides.
    pub(crate) fn pair_swept_recorder(
        &self,
        cb: ColSweptCallback,
        user: *mut c_void,
    ) -> SweptCallback<ClientData> {
        let target = cb.map(|callback| SweptTarget { callback, user });
        swept_recorder(target, &self.swept_general, &self.swept_pending)
    }

    /// Calls the recorded callbacks in order with the world locked against structural calls;
    /// stops early if a nested call poisoned the world.
    pub(crate) fn dispatch_pending(&self) {
        self.dispatch(&self.pending, |call| {
            // SAFETY: the caller of `colSetCallback` / `colSetGeneralCallback` promised a
            // callback that may be called with a collision valid for the call and its `user`.
            unsafe { (call.target.callback)(&call.collision, call.target.user) };
        });
    }

    /// `dispatch_pending` for the swept collisions of `colCheckContinuous`.
    pub(crate) fn dispatch_swept_pending(&self) {
        self.dispatch(&self.swept_pending, |call| {
            // SAFETY: the caller of `colSetSweptCallback` / `colSetGeneralSweptCallback`
            // promised a callback that may be called with a collision valid for the call and
            // its `user`.
            unsafe { (call.target.callback)(&call.collision, call.target.user) };
        });
    }

    /// `dispatch_pending` for the contact events of `colCheck` (after its collision callbacks).
    pub(crate) fn dispatch_events(&self) {
        let target = self.events.target.get().filter(|_| !self.is_poisoned());
        let Some(target) = target else {
            self.events.pending.borrow_mut().clear();
            return;
        };
        self.dispatch(&self.events.pending, |event| {
            // SAFETY: the caller of `colSetEventCallback` promised a callback that may be called
            // with an event valid for the call and its `user`.
            unsafe { (target.callback)(event, target.user) };
        });
    }

    /// Takes the recorded calls out of `pending` and makes each with `call`, one at a time, the
    /// world locked against structural calls; stops early if a nested call poisoned the world.
    pub(crate) fn dispatch<T>(&self, pending: &RefCell<Vec<T>>, call: impl Fn(&T)) {
        let mut calls = std::mem::take(&mut *pending.borrow_mut());
        self.in_callback.set(true);
        let _unlock = UnlockOnDrop(&self.in_callback);
        for recorded in &calls {
            crate::boundary::outside_call(|| call(recorded));
            if self.is_poisoned() {
                break;
            }
        }
        calls.clear();
        // Hand the buffer back so the next check records without allocating.
        *pending.borrow_mut() = calls;
    }

    pub(crate) fn is_poisoned(&self) -> bool {
        self.poisoned.get()
    }

    pub(crate) fn poison(&self) {
        self.poisoned.set(true);
    }

    pub(crate) fn in_callback(&self) -> bool {
        self.in_callback.get()
    }

    /// True between `colCheckBegin` and `colCheckEnd`.
    pub(crate) fn check_running(&self) -> bool {
        self.world.try_borrow().is_ok_and(|slot| slot.is_checking())
    }

    /// Stores `failure`'s message as the world's last error and returns its status.
    pub(crate) fn fail(&self, failure: Failure) -> ColStatus {
        if let Ok(mut slot) = self.last_error.try_borrow_mut() {
            *slot = c_message(&failure.message);
        }
        failure.status
    }

    /// The last error message; valid until the next failing call on this world or `colExit`.
    pub(crate) fn last_error(&self) -> *const c_char {
        self.last_error
            .try_borrow()
            .map(|s| s.as_ptr())
            .unwrap_or(c"".as_ptr())
    }
}

/// Clears the in-callback flag when dispatch ends, even by a panic.
struct UnlockOnDrop<'a>(&'a Cell<bool>);

impl Drop for UnlockOnDrop<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

/// The world's handle for a C object id.
pub(crate) fn object_id(raw: ColObjectId) -> Result<ObjectId, Failure> {
    ObjectId::from_raw(raw).ok_or_else(|| {
        Failure::new(
            COL_ERR_INVALID_HANDLE,
            format!("object id {raw} was never issued (0 is never valid)"),
        )
    })
}
