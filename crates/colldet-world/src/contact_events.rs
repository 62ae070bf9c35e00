//! Contact events: per pair, [`ContactEvent::Begin`] at the first check where it collides,
//! [`ContactEvent::Persist`] at each later check while it keeps colliding, [`ContactEvent::End`]
//! at the first check where it no longer does.
//!
//! The world keeps the pairs in contact after each check (sorted by id pair, with their latest
//! witness). A check's contacts are its new collisions (pairs with a moved object, as `check`
//! reports them) plus the previous contacts that could not have changed: both objects live and
//! unmoved, interest on, groups admitting the pair. A previous contact missing from that set
//! ends: it was tested and no longer collides, or its boxes parted, or an object was removed,
//! or interest or groups now exclude it. One merge of two sorted lists per check, O(contacts);
//! the lists keep their capacity, so a warm world does not allocate.
//!
//! Some changes make a pair's contact state unknown without moving an object: a continuous
//! check (it consumes the moved set without touching the contacts), interest switched back on,
//! a group change. Their objects are noted here as *retests*, and the next `check` tests their
//! pairs as if they had moved, so their events are right, but does not report those pairs to the
//! collision callbacks (or count them as new collisions) unless an object of the pair really
//! moved: the collision callbacks' "new collisions" stay exactly what they are without events.

use colldet_narrow::Witness;

use crate::ObjectId;
use crate::collision::CallbackContext;
use crate::collision_groups::CollisionGroups;
use crate::interest::{InterestMatrix, PairKey};
use crate::moved_set::MovedSet;
use crate::object_pose::ObjectPose;
use crate::object_table::{ObjectTable, PlacedObjects};
use crate::pair_results::Found;

/// What happened to a pair's contact at a check. The C API's `COL_EVENT_*` numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum ContactEvent {
    /// The pair collides and did not at the previous check (or is new).
    Begin = 0,
    /// The pair collided at the previous check and still does.
    Persist = 1,
    /// The pair collided at the previous check and no longer does, one of its objects was
    /// removed since, or interest or groups now exclude it.
    End = 2,
}

/// One pair's event at a check, as [`crate::World::last_contact_events`] lists them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairEvent {
    /// What happened.
    pub event: ContactEvent,
    /// The object with the smaller id (possibly removed, for `End`).
    pub a: ObjectId,
    /// The object with the larger id.
    pub b: ObjectId,
    /// Begin and Persist: this check's witness (a pair whose objects did not move keeps the
    /// witness found when it was last tested: the poses are the same). End: the witness of the
    /// last check at which the pair was in contact.
    pub witness: Witness,
}

/// An event as the event callback receives it: the pair's event with its objects' user data.
pub struct ContactReport<'a, U> {
    /// What happened.
    pub event: ContactEvent,
    /// The object with the smaller id.
    pub a: ObjectId,
    /// The object with the larger id.
    pub b: ObjectId,
    /// `a`'s user data; `None` only for `End` when `a` was removed (`World::remove` returned it).
    pub user_a: Option<&'a U>,
    /// `b`'s user data; `None` only for `End` when `b` was removed.
    pub user_b: Option<&'a U>,
    /// As [`PairEvent::witness`].
    pub witness: Witness,
}

/// The contact-event callback: called once per event, after the check's collision callbacks,
/// on the thread that runs `check`, sorted by id pair.
pub type ContactEventCallback<U> =
    Box<dyn FnMut(&ContactReport<'_, U>, &mut CallbackContext<'_>) + Send>;

/// A pair in contact and its latest witness.
#[derive(Clone, Copy)]
struct Contact {
    key: PairKey,
    witness: Witness,
}

/// What a check's contact update reads of the world.
pub(crate) struct ContactInput<'w> {
    /// The check's collisions, sorted by id pair.
    pub found: &'w [Found],
    /// The slots tested this check (moved, added, or swept by a continuous check).
    pub moved: &'w MovedSet,
    pub objects: &'w PlacedObjects,
    pub interest: &'w InterestMatrix,
    pub groups: &'w CollisionGroups,
}

/// The pairs in contact, the last check's events and the event callback.
pub(crate) struct ContactTracker<U> {
    contacts: Vec<Contact>,
    /// The next contact list while it is built (kept for its capacity).
    next: Vec<Contact>,
    events: Vec<PairEvent>,
    callback: Option<ContactEventCallback<U>>,
    /// Slots whose pairs the next check tests again (see the module docs).
    retest: MovedSet,
    /// Slots the running check tests only as retests (not moved).
    retest_only: MovedSet,
    /// The check's collisions the collision callbacks see when some are retests only.
    reportable: Vec<Found>,
}

impl<U> Default for ContactTracker<U> {
    fn default() -> Self {
        Self {
            contacts: Vec::new(),
            next: Vec::new(),
            events: Vec::new(),
            callback: None,
            retest: MovedSet::default(),
            retest_only: MovedSet::default(),
            reportable: Vec::new(),
        }
    }
}

impl<U> ContactTracker<U> {
    /// Sets (or, with `None`, removes) the event callback.
    pub fn set_callback(&mut self, callback: Option<ContactEventCallback<U>>) {
        self.callback = callback;
    }

    /// The last check's events, sorted by id pair.
    pub fn events(&self) -> &[PairEvent] {
        &self.events
    }

    /// Number of pairs in contact after the last check.
    pub fn contact_count(&self) -> usize {
        self.contacts.len()
    }

    /// Whether `{a, b}` was in contact after the last check.
    pub fn in_contact(&self, a: ObjectId, b: ObjectId) -> bool {
        let key = PairKey::new(a, b);
        self.contacts.binary_search_by_key(&key, |c| c.key).is_ok()
    }

    /// Notes slots whose pairs the next check must test again.
    pub fn note_retest(&mut self, slots: &[u32]) {
        for &slot in slots {
            self.retest.mark(slot);
        }
    }

    /// The slots the running check tests only as retests (they did not move).
    pub fn retest_only(&self) -> &MovedSet {
        &self.retest_only
    }

    /// Before a check's narrow pass: enters the retest slots of live objects into `moved`
    /// (their pairs are tested again), remembering those that were not moved otherwise.
    pub fn enter_retests(&mut self, moved: &mut MovedSet, objects: &PlacedObjects) {
        self.retest_only.clear();
        for &slot in self.retest.slots() {
            if objects.id(slot).is_some() && !moved.contains(slot) {
                moved.mark(slot);
                self.retest_only.mark(slot);
            }
        }
        self.retest.clear();
    }

    /// The collisions the collision callbacks report: `found` without the pairs tested only
    /// as retests (see [`ContactTracker::enter_retests`]).
    pub fn reportable<'f>(&'f mut self, found: &'f [Found], moved: &MovedSet) -> &'f [Found] {
        if self.retest_only.slots().is_empty() {
            return found;
        }
        let retest_only = &self.retest_only;
        let really_moved = |slot: u32| moved_for_callbacks(moved, retest_only, slot);
        self.reportable.clear();
        self.reportable.extend(
            found
                .iter()
                .filter(|f| really_moved(f.key.0.slot()) || really_moved(f.key.1.slot())),
        );
        &self.reportable
    }

    /// Whether the object in `slot` counts as moved for the running check's callbacks: in
    /// `moved` and not only as a retest (the filter of [`ContactTracker::reportable`]).
    pub fn really_moved(&self, moved: &MovedSet, slot: u32) -> bool {
        moved_for_callbacks(moved, &self.retest_only, slot)
    }

    /// Merges the previous contacts with the check's collisions into the new contacts and the
    /// check's events (see the module docs).
    pub fn update(&mut self, input: &ContactInput<'_>) {
        self.events.clear();
        self.next.clear();
        let previous = std::mem::take(&mut self.contacts);
        let (mut i, mut j) = (0, 0);
        loop {
            match (previous.get(i), input.found.get(j)) {
                (None, None) => break,
                (Some(o), Some(n)) if o.key == n.key => {
                    i += 1;
                    j += 1;
                    self.keep(ContactEvent::Persist, n.key, n.witness);
                }
                (Some(o), None) => {
                    i += 1;
                    self.carry(*o, input);
                }
                (Some(o), Some(n)) if o.key < n.key => {
                    i += 1;
                    self.carry(*o, input);
                }
                (_, Some(n)) => {
                    j += 1;
                    self.keep(ContactEvent::Begin, n.key, n.witness);
                }
            }
        }
        self.contacts = std::mem::replace(&mut self.next, previous);
    }

    /// A previous contact this check did not find colliding: it persists when it could not
    /// have changed, else it ends.
    fn carry(&mut self, old: Contact, input: &ContactInput<'_>) {
        if unchanged(old.key, input) {
            self.keep(ContactEvent::Persist, old.key, old.witness);
        } else {
            self.push_event(ContactEvent::End, old.key, old.witness);
        }
    }

    /// Records `event` for a pair in contact after this check.
    fn keep(&mut self, event: ContactEvent, key: PairKey, witness: Witness) {
        self.push_event(event, key, witness);
        self.next.push(Contact { key, witness });
    }

    fn push_event(&mut self, event: ContactEvent, key: PairKey, witness: Witness) {
        self.events.push(PairEvent {
            event,
            a: key.0,
            b: key.1,
            witness,
        });
    }

    /// Calls the event callback for each event of the last check, in order; moves it asks for
    /// are appended to `deferred`.
    pub fn report(&mut self, objects: &ObjectTable<U>, deferred: &mut Vec<(ObjectId, ObjectPose)>) {
        let Some(callback) = self.callback.as_mut() else {
            return;
        };
        let placed = objects.placed();
        let user = |id: ObjectId| placed.is_live(id).then(|| objects.user_in(id.slot()));
        for e in &self.events {
            let report = ContactReport {
                event: e.event,
                a: e.a,
                b: e.b,
                user_a: user(e.a),
                user_b: user(e.b),
                witness: e.witness,
            };
            let mut ctx = CallbackContext {
                objects: placed,
                deferred_moves: deferred,
            };
            callback(&report, &mut ctx);
        }
    }
}

/// Whether a previous contact `key`, not found colliding by this check, still is: both objects
/// live and untested (neither moved), and neither interest nor groups exclude the pair.
fn unchanged(key: PairKey, input: &ContactInput<'_>) -> bool {
    let objects = input.objects;
    if !objects.is_live(key.0) || !objects.is_live(key.1) {
        return false;
    }
    let (sa, sb) = (key.0.slot(), key.1.slot());
    if input.moved.contains(sa) || input.moved.contains(sb) || !input.groups.admits(sa, sb) {
        return false;
    }
    !(input.interest.both_have_settings(sa, sb) && input.interest.get(&key).uninterested)
}

/// In `moved` and not in `retest_only`: the object moved for the check's callbacks.
fn moved_for_callbacks(moved: &MovedSet, retest_only: &MovedSet, slot: u32) -> bool {
    moved.contains(slot) && !retest_only.contains(slot)
}
