//! Contact events: `COL_EVENT_BEGIN` / `COL_EVENT_PERSIST` / `COL_EVENT_END` per pair,
//! delivered by `colCheck` to the callback of `colSetEventCallback` (wrapping
//! `colldet_world::World::set_event_callback`). The collision callbacks and `ColCollision` are
//! unchanged: an event carries a `ColCollision` by value.
//!
//! Like the collision callbacks, events are recorded while `World::check` runs and dispatched
//! after it (see [`crate::world`]): after the check's collision callbacks, one call per event,
//! sorted by id pair. The client data of an object removed since the last check is kept here
//! until that check, so its `COL_EVENT_END` still carries it.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ffi::c_void;
use std::rc::Rc;

use crate::one_thread::OneThread;

use colldet_world::{ContactEvent, ContactEventCallback, ContactReport, ObjectId};

use crate::boundary::{Access, with_world};
use crate::callback::ColCollision;
use crate::status::ColStatus;
use crate::world::{ClientData, ColWorld};

/// `ColContactEvent::event`: the pair collides at this check and did not at the previous one
/// (or one of its objects is new, or interest or groups admit it again).
pub const COL_EVENT_BEGIN: u32 = 0;
/// `ColContactEvent::event`: the pair collided at the previous check and still does (also when
/// neither object moved: a resting contact persists at every check).
pub const COL_EVENT_PERSIST: u32 = 1;
/// `ColContactEvent::event`: the pair collided at the previous check and no longer does, or one
/// of its objects was removed since, or interest or groups now exclude it.
pub const COL_EVENT_END: u32 = 2;

/// One contact event. `collision.a < collision.b` by id, with both objects' `client_data` (for
/// `COL_EVENT_END` also of an object removed since the last check: its id is stale by then).
/// The witness (`witness_kind`, features, `point`): for `COL_EVENT_BEGIN` and
/// `COL_EVENT_PERSIST` the pair's current one (a pair of unmoved objects keeps the witness found
/// when it was last tested); for `COL_EVENT_END` the witness of the last check at which the pair
/// was in contact. Valid only during the callback call.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ColContactEvent {
    /// `COL_EVENT_BEGIN`, `COL_EVENT_PERSIST` or `COL_EVENT_END`.
    pub event: u32,
    /// The pair, its client data and witness, as a collision callback receives them.
    pub collision: ColCollision,
}

/// A contact-event callback: `e` describes the event (valid during the call only), `user` is the
/// pointer given with the callback. Called by `colCheck` on its calling thread after the check's
/// collision callbacks, one call at a time, sorted by id pair. It may call what a collision
/// callback may (`colSetTransform`/`colSetTransformd`, whose moves count for the next check,
/// `colGetObjectInfo`, `colGetGroup`, `colDistance`, `colWithinDistance`, `colLastError`,
/// `colStatusString`); structural calls return `COL_ERR_WORLD_LOCKED`. It must return normally.
pub type ColEventCallback =
    Option<unsafe extern "C" fn(e: *const ColContactEvent, user: *mut c_void)>;

/// The event callback with its user pointer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EventTarget {
    pub callback: unsafe extern "C" fn(*const ColContactEvent, *mut c_void),
    pub user: *mut c_void,
}

/// A world's event state on the C side.
#[derive(Default)]
pub(crate) struct EventState {
    pub target: Rc<Cell<Option<EventTarget>>>,
    /// Events recorded during `World::check`, dispatched after the collision callbacks.
    pub pending: Rc<RefCell<Vec<ColContactEvent>>>,
    /// The client data of objects removed since the last check (for their `COL_EVENT_END`).
    pub removed: Rc<RefCell<HashMap<ObjectId, ClientData>>>,
}

impl EventState {
    /// The Rust world's event callback: records each event for the C callback set at the time.
    pub fn recorder(&self) -> ContactEventCallback<ClientData> {
        let state = OneThread::new((
            Rc::clone(&self.target),
            Rc::clone(&self.pending),
            Rc::clone(&self.removed),
        ));
        Box::new(move |e: &ContactReport<'_, ClientData>, _| {
            let (target, pending, removed) = state.get();
            if target.get().is_none() {
                return;
            }
            let removed = removed.borrow();
            let data = |user: Option<&ClientData>, id: ObjectId| {
                user.or_else(|| removed.get(&id))
                    .map_or(std::ptr::null_mut(), |d| d.0)
            };
            pending.borrow_mut().push(ColContactEvent {
                event: event_number(e.event),
                collision: ColCollision::from_parts(
                    e.a,
                    e.b,
                    data(e.user_a, e.a),
                    data(e.user_b, e.b),
                    &e.witness,
                ),
            });
        })
    }

    /// Keeps a removed object's client data until the next check.
    pub fn note_removed(&self, id: ObjectId, data: ClientData) {
        self.removed.borrow_mut().insert(id, data);
    }

    /// After a check's events were recorded: the removed objects' client data is not needed.
    pub fn forget_removed(&self) {
        self.removed.borrow_mut().clear();
    }
}

/// The C number of an event.
fn event_number(event: ContactEvent) -> u32 {
    match event {
        ContactEvent::Begin => COL_EVENT_BEGIN,
        ContactEvent::Persist => COL_EVENT_PERSIST,
        ContactEvent::End => COL_EVENT_END,
    }
}

/// Sets the contact-event callback `cb` with `user` (replacing an earlier one; NULL: no events
/// are delivered). From the next `colCheck` on, each check calls it once per event, after the
/// check's collision callbacks: per pair, `COL_EVENT_BEGIN` at the first check where it
/// collides, `COL_EVENT_PERSIST` at each later check while it keeps colliding (moved or not),
/// `COL_EVENT_END` at the first check where it no longer does, or after one of its objects was
/// removed, or when `colSetInterest` or `colSetGroup` now exclude it. Contacts are tracked
/// whether or not a callback is set. `colCheckContinuous` makes no events. `COL_ERR_WORLD_LOCKED`
/// inside a callback.
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world. `cb`
/// must be callable as described at `ColEventCallback` for as long as it is installed, and
/// `user` valid for it; colldet never dereferences `user`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetEventCallback(
    world: *mut ColWorld,
    cb: ColEventCallback,
    user: *mut c_void,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetEventCallback", Access::Structural, |w| {
            w.events
                .target
                .set(cb.map(|callback| EventTarget { callback, user }));
            // The Rust world calls the recorder only while a C callback is set.
            let mut world = w.world.borrow_mut();
            match cb {
                Some(_) => world.set_event_callback(w.events.recorder()),
                None => world.clear_event_callback(),
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifecycle::{colCheck, colExit, colStart};
    use crate::objects::{colMakeCollidable, colRemoveCollidable, colSetTransformd};
    use crate::status::{COL_ERR_NULL_ARGUMENT, COL_ERR_WORLD_LOCKED, COL_OK};
    use crate::test_support::{TETRAHEDRON_VERTICES, new_world, tetrahedron_desc, translation};

    #[derive(Default)]
    struct Seen {
        events: Vec<(u32, u64, u64, usize, usize)>,
        world: Option<*mut ColWorld>,
        locked: Vec<ColStatus>,
    }

    unsafe extern "C" fn record(e: *const ColContactEvent, user: *mut c_void) {
        // SAFETY: the test passes a `Seen` and colldet a valid event.
        let (seen, e) = unsafe { (&mut *user.cast::<Seen>(), &*e) };
        let c = &e.collision;
        seen.events.push((
            e.event,
            c.a,
            c.b,
            c.client_data_a as usize,
            c.client_data_b as usize,
        ));
        if let Some(world) = seen.world {
            // SAFETY: the live world of the test.
            let status = unsafe { colSetEventCallback(world, None, std::ptr::null_mut()) };
            seen.locked.push(status);
        }
    }

    #[test]
    fn events_carry_client_data_also_of_removed_objects() {
        let world = new_world();
        let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
        let mut seen = Seen::default();
        let (mut a, mut b) = (0, 0);
        // SAFETY: a live world, valid pointers throughout.
        unsafe {
            assert_eq!(
                colMakeCollidable(world, &desc, 11 as *mut c_void, &mut a),
                COL_OK
            );
            assert_eq!(
                colMakeCollidable(world, &desc, 22 as *mut c_void, &mut b),
                COL_OK
            );
            assert_eq!(
                colSetTransformd(world, b, translation(0.2, 0.0, 0.0).as_ptr()),
                COL_OK
            );
            let user = (&raw mut seen).cast::<c_void>();
            assert_eq!(colSetEventCallback(world, Some(record), user), COL_OK);
            assert_eq!(colStart(world), COL_OK);
            assert_eq!(colCheck(world), COL_OK);
            assert_eq!(colCheck(world), COL_OK);
            seen.world = Some(world);
            assert_eq!(colRemoveCollidable(world, b), COL_OK);
            assert_eq!(colCheck(world), COL_OK);
            assert_eq!(colCheck(world), COL_OK);
            assert_eq!(
                seen.events,
                [
                    (COL_EVENT_BEGIN, a, b, 11, 22),
                    (COL_EVENT_PERSIST, a, b, 11, 22),
                    (COL_EVENT_END, a, b, 11, 22),
                ]
            );
            assert_eq!(seen.locked, [COL_ERR_WORLD_LOCKED]);
            assert_eq!(
                colSetEventCallback(std::ptr::null_mut(), None, std::ptr::null_mut()),
                COL_ERR_NULL_ARGUMENT
            );
            assert_eq!(colExit(world), COL_OK);
        }
    }
}
