//! colldet-world: the collision world, the thesis's module interface (`colInit`,
//! `colMakeCollidable`, `colStart`, `colSetCallback`, `colSetGeneralCallback`, `colCheck`,
//! `colExit`) as a Rust type. It ties geometry (`colldet-geom`), broad phase (`colldet-broad`)
//! and narrow phase (`colldet-narrow`) together; the C API (`colldet-ffi`) wraps it.
//!
//! # Where things are
//! - `object_table.rs`: every per-object array (slots, ids, shapes, poses, traits, user data).
//! - `object_pose.rs`: the one pose form, checked once where a pose enters the world.
//! - `box_update.rs`, `pair_pass.rs`, `callback_dispatch.rs`: the three steps of
//!   [`World::check`], in that order.
//! - `proximity.rs`: distance and tolerance queries between two objects ([`World::distance`],
//!   [`World::within_distance`]), warm-started per ordered pair (`proximity_caches.rs`).
//! - `tolerance.rs`, `near_pairs.rs`: tolerances in the check ([`World::set_pair_tolerance`],
//!   [`World::set_default_tolerance`]): pairs within their tolerance reported as [`NearPair`]s.
//! - `ray_cast.rs`, `overlap_query.rs`: spatial queries against every object ([`World::ray_cast`],
//!   [`World::ray_cast_all`], [`World::overlap_box`], [`World::overlap_convex`]), with candidates
//!   from the world's query index over the current boxes (`query_index.rs`,
//!   `query_candidates.rs`; the object table's pose log, `pose_log.rs`, keeps it fresh).
//! - `ttc_schedule.rs`, `motion_bound.rs`: the optional time-to-collision schedule
//!   ([`World::set_velocity_bound`]): certified separated pairs skip the narrow pass.
//! - `pair_caches.rs`: the pairs' caches (the narrow phase chooses each pair's test and cache:
//!   `colldet_narrow::dispatch`).
//!
//! # Pipeline of [`World::check`]
//! 1. **Box update** (`box_update.rs`): objects moved since the last check (the moved set, filled
//!    by [`World::set_transform`]) get their tight world box recomputed (support mapping along
//!    the world axes, once per move) and updated in the broad phase.
//! 2. **Narrow pass** (`pair_pass.rs`): the broad phase yields every pair whose boxes overlap;
//!    pairs where neither object moved are dropped (their status cannot have changed), then
//!    pairs the interest matrix switched off. Each pair left gets its test from the narrow
//!    phase's pair-kind table ([`colldet_narrow::PairKind::of`]); kinds with the Chung-Wang
//!    bounding-box pre-test run it here, before the pair's cache is fetched, so a pair it
//!    separates costs no cache and no query. The exact test runs on each remaining pair with the
//!    pair's cache from the cache table. Filter, tests and the table's merge run together in key
//!    ranges of the sorted pairs, on the world's thread pool when `threads != 1`.
//! 3. **Callback dispatch** (`callback_dispatch.rs`): collisions are sorted by id pair and
//!    reported on the calling thread, one at a time: each pair's own callback, or else the
//!    general callback. The order and the results do not depend on the thread count. Moves the
//!    callbacks ask for ([`CallbackContext::set_transform`]) are applied after the last callback
//!    and enter the moved set of the next check.
//! 4. **Near pairs** (`near_pairs.rs`, only with tolerances above 0): pairs within their
//!    tolerance ([`NearPair`]: separated ones found by the narrow pass, touching ones from the
//!    collisions), reported after the collision callbacks to the near-pair callback and kept for
//!    [`World::last_near_pairs`].
//! 5. **Contact events** (`contact_events.rs`): the check's collisions are merged with the
//!    previous contacts into Begin / Persist / End per pair ([`ContactEvent`]), reported after
//!    the collision callbacks to the event callback and kept for
//!    [`World::last_contact_events`].
//!
//! Collision groups (`collision_groups.rs`, [`World::set_group`]) filter pairs in step 2 before
//! the interest matrix.
//!
//! Steps 1 and 2 and the bookkeeping of 4 and 5 form the check's first stage, which calls no
//! callback; the reports form the second. The concurrent mode (`concurrent_check.rs`,
//! [`World::check_begin`], the thesis's section 6.4) runs the first stage on the world's pool
//! while the application works, and the second when the application calls
//! [`RunningCheck::end`].
//!
//! "New collisions" are the thesis's: colliding pairs of which at least one object moved since
//! the previous check. A resting contact between two unmoved objects is not reported again.
//!
//! # Threading contract
//! A `World` is used from one thread at a time. It is `Send` when its user data `U` is (every
//! callback is `Send`), so a world can be built on one thread and moved to a physics or worker
//! thread; it is not `Sync`. Callbacks run on the thread that calls `check` (or
//! [`RunningCheck::end`]), never concurrently. The narrow phase uses the world's own rayon pool;
//! nothing else is shared.

mod box_update;
mod callback_dispatch;
mod carried_bounds;
mod collision;
mod collision_groups;
mod concurrent_check;
mod config;
mod contact_events;
mod contact_query;
mod continuous;
mod continuous_check;
mod error;
mod interest;
mod memory_probe;
mod motion_bound;
mod moved_set;
mod near_pairs;
mod object_id;
mod object_pose;
mod object_table;
mod overlap_query;
mod pair_caches;
mod pair_pass;
mod pair_results;
mod pose_log;
mod prefetch;
mod proximity;
mod proximity_caches;
mod query_candidates;
mod query_index;
mod ray_cast;
mod stats;
mod swept_callbacks;
mod swept_collision;
mod swept_pairs;
mod tolerance;
mod ttc_schedule;

pub use colldet_ccd::{CcdError, ContactKind, SweepContact, TimeOfImpact};
pub use colldet_geom::math::MAX_COORDINATE;
pub use colldet_narrow::dispatch::NO_FEATURE;
pub use colldet_narrow::{
    ContactManifold, ContactPoint, ManifoldKind, Method, Witness, WitnessKind,
};
pub use collision::{CallbackContext, Collision};
pub use collision_groups::{ALL_GROUPS, CollisionGroup};
pub use concurrent_check::RunningCheck;
pub use config::{BroadPhaseKind, Config, MAX_RESOLUTION, MAX_THREADS};
pub use contact_events::{ContactEvent, ContactEventCallback, ContactReport, PairEvent};
pub use error::WorldError;
pub use motion_bound::VelocityBound;
pub use near_pairs::{NearCallback, NearKind, NearPair, NearReport};
pub use object_id::ObjectId;
pub use object_pose::RIGIDITY_TOLERANCE;
pub use proximity::Proximity;
pub use ray_cast::RayHit;
pub use stats::{CheckStats, SV_HISTOGRAM_BINS};
pub use swept_collision::{SweptCallback, SweptCollision, SweptContact, TraceHit};

/// The name of every thread of a world's pool starts with this, then its index: a panic hook
/// (the C API's) can tell that a panic on such a thread is colldet's own, to be caught.
pub const WORKER_THREAD_PREFIX: &str = "colldet-worker-";

use std::sync::Arc;
use std::time::Instant;

use colldet_broad::{BroadPhase, ProxyPair};
use colldet_geom::math::Pose;
use colldet_geom::{BuildOptions, Classification, MeshData};
use colldet_narrow::PreparedShape;

use box_update::MovedBoxes;
use callback_dispatch::Callbacks;
use collision_groups::CollisionGroups;
use contact_events::{ContactInput, ContactTracker};
use continuous::{ContinuousState, SweepScratch};
use interest::{InterestMatrix, PairKey};
use moved_set::MovedSet;
use object_pose::ObjectPose;
use object_table::ObjectTable;
use pair_pass::{NarrowPhase, PassInput, PassSummary};
use swept_callbacks::SweptCallbacks;

/// A collision callback: called once per new collision, on the thread that runs `check`.
pub type CollisionCallback<U> = Box<dyn FnMut(&Collision<'_, U>, &mut CallbackContext<'_>) + Send>;

/// Facts about one object, as [`World::object_info`] reports them.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectInfo {
    /// The classification of its mesh.
    pub classification: Classification,
    /// Number of vertices (as given, including unused ones).
    pub vertex_count: usize,
    /// Number of undirected edges.
    pub edge_count: usize,
    /// Number of faces kept for collision (degenerate ones dropped).
    pub face_count: usize,
}

/// What the first stage of a check hands the second (`World::check_pass` to
/// `World::check_report`).
struct CheckPass {
    summary: PassSummary,
    broad_time: std::time::Duration,
    narrow_time: std::time::Duration,
}

/// A collision world holding objects with user data of type `U`.
pub struct World<U> {
    config: Config,
    objects: ObjectTable<U>,
    broad: Box<dyn BroadPhase + Send>,
    interest: InterestMatrix,
    /// Each object's collision group and mask (`collision_groups.rs`).
    groups: CollisionGroups,
    callbacks: Callbacks<U>,
    /// The pairs in contact, the last check's contact events and the event callback.
    contacts: ContactTracker<U>,
    narrow: NarrowPhase,
    /// Objects moved since the last check (the thesis's front buffer; its back buffer is
    /// `deferred_moves`).
    moved: MovedSet,
    /// Moves the running check's callbacks asked for, applied after the last callback.
    deferred_moves: Vec<(ObjectId, ObjectPose)>,
    started: bool,
    checks: u64,
    pool: Option<Arc<rayon::ThreadPool>>,
    moved_boxes: MovedBoxes,
    pairs: Vec<ProxyPair>,
    last_collisions: Vec<(ObjectId, ObjectId)>,
    stats: CheckStats,
    /// Poses at the last check and sweep shapes, for the continuous queries.
    continuous: ContinuousState,
    swept_callbacks: SweptCallbacks<U>,
    sweep_scratch: SweepScratch,
    last_swept: Vec<SweptContact>,
    sweep_buffers: continuous_check::SweepBuffers,
    /// Per slot, the number of the last continuous check in which its pose had changed (the
    /// check's pair filter).
    really_moved: Vec<u64>,
    /// The expel distance of the continuous queries (0: off).
    expel_distance: f64,
    /// The check count when the world started (the first check after it reports every pair).
    checks_at_start: u64,
    /// Scratch memory of the proximity queries (`proximity.rs`).
    proximity: proximity::ProximityScratch,
    /// The proximity queries' per-pair warm starts (`proximity_caches.rs`).
    proximity_caches: proximity_caches::ProximityCaches,
    /// Scratch memory of the ray casts and overlap queries (`query_candidates.rs`).
    queries: query_candidates::QueryScratch,
    /// The ray casts' and overlap queries' index over the objects' current boxes
    /// (`query_index.rs`).
    query_index: query_index::QueryIndex,
    /// The default tolerance and each object's largest own tolerance (`tolerance.rs`).
    tolerances: tolerance::Tolerances,
    /// The last check's near pairs and their callback (`near_pairs.rs`).
    near: near_pairs::NearPairs<U>,
    /// The time-to-collision schedule (`ttc_schedule.rs`; idle unless an object has a bound).
    schedule: ttc_schedule::TtcSchedule,
    /// The concurrent mode's thread (one-thread worlds) and buffers (`concurrent_check.rs`).
    concurrent: concurrent_check::ConcurrentState,
}

impl<U> World<U> {
    /// A world with `config` (the C API's `colInit`).
    ///
    /// # Errors
    /// [`WorldError::InvalidConfig`] as [`Config::validate`] finds it; [`WorldError::Threads`]
    /// when the pool fails.
    pub fn new(config: Config) -> Result<Self, WorldError> {
        config.validate()?;
        let pool: Option<Arc<rayon::ThreadPool>> = if config.threads == 1 {
            None
        } else {
            Some(Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(config.threads)
                    .thread_name(|i| format!("{WORKER_THREAD_PREFIX}{i}"))
                    .build()
                    .map_err(|e| WorldError::Threads(e.to_string()))?,
            ))
        };
        let broad = config.make_broad_phase(pool.as_ref())?;
        let threads = pool.as_ref().map_or(1, |p| p.current_num_threads());
        Ok(Self {
            config,
            objects: ObjectTable::default(),
            broad,
            interest: InterestMatrix::default(),
            groups: CollisionGroups::default(),
            callbacks: Callbacks::default(),
            contacts: ContactTracker::default(),
            narrow: NarrowPhase::new(threads),
            moved: MovedSet::default(),
            deferred_moves: Vec::new(),
            started: false,
            checks: 0,
            pool,
            moved_boxes: MovedBoxes::default(),
            pairs: Vec::new(),
            last_collisions: Vec::new(),
            stats: CheckStats::default(),
            continuous: ContinuousState::default(),
            swept_callbacks: SweptCallbacks::default(),
            sweep_scratch: SweepScratch::default(),
            last_swept: Vec::new(),
            sweep_buffers: Default::default(),
            really_moved: Vec::new(),
            expel_distance: 0.0,
            checks_at_start: 0,
            proximity: Default::default(),
            proximity_caches: Default::default(),
            queries: Default::default(),
            query_index: Default::default(),
            tolerances: Default::default(),
            near: Default::default(),
            schedule: Default::default(),
            concurrent: Default::default(),
        })
    }

    /// The configuration the world was made with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Number of live objects.
    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// True when the world holds no object.
    pub fn is_empty(&self) -> bool {
        self.objects.len() == 0
    }

    /// True once [`World::start`] has run.
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// Adds an object with geometry `mesh` (copied, built and classified) and user data `user`,
    /// at the identity pose (the C API's `colMakeCollidable`). Allowed before and after
    /// [`World::start`]; after it the object takes part from the next check on.
    ///
    /// # Errors
    /// [`WorldError::InvalidMesh`] naming the problem, [`WorldError::TooManyObjects`],
    /// [`WorldError::OutOfMemory`] when the memory its preparation may need cannot be allocated
    /// (checked before building; see `memory_probe`).
    pub fn make_collidable(&mut self, mesh: MeshData, user: U) -> Result<ObjectId, WorldError> {
        self.make_collidable_with(mesh, &BuildOptions::default(), user)
    }

    /// As [`World::make_collidable`], with explicit build options (for instance
    /// `weld_coincident_vertices: false`, so a triangle soup keeps its surface-only semantics).
    ///
    /// # Errors
    /// As [`World::make_collidable`].
    pub fn make_collidable_with(
        &mut self,
        mesh: MeshData,
        options: &BuildOptions,
        user: U,
    ) -> Result<ObjectId, WorldError> {
        self.check_room()?;
        memory_probe::probe(memory_probe::preparation_bytes(&mesh))?;
        let shape = Arc::new(PreparedShape::build_with(mesh, options)?);
        self.insert_shape(shape, user)
    }

    /// Adds another object sharing the geometry of `like` (no rebuild; instancing).
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`], [`WorldError::TooManyObjects`].
    pub fn make_instance(&mut self, like: ObjectId, user: U) -> Result<ObjectId, WorldError> {
        let shape = Arc::clone(self.objects.shape(like)?);
        self.check_room()?;
        self.insert_shape(shape, user)
    }

    fn check_room(&self) -> Result<(), WorldError> {
        let max = self.config.max_objects;
        if max != 0 && self.objects.len() >= max {
            return Err(WorldError::TooManyObjects(max));
        }
        Ok(())
    }

    fn insert_shape(&mut self, shape: Arc<PreparedShape>, user: U) -> Result<ObjectId, WorldError> {
        let id = self.objects.insert(shape, user)?;
        self.continuous.forget(id.slot());
        self.groups.reset(id.slot());
        if self.started {
            let slot = id.slot();
            let entered = match box_update::refresh_world_box(&mut self.objects, slot) {
                Some(aabb) => self
                    .broad
                    .insert(slot, &self.tolerances.grown_box(slot, &aabb))
                    .map_err(WorldError::from),
                None => Err(WorldError::InvalidHandle(id)),
            };
            if let Err(e) = entered {
                // The id was never handed out: the slot is free again at once.
                let _ = self.objects.remove(id, true);
                return Err(e);
            }
            self.moved.mark(slot);
        }
        Ok(id)
    }

    /// Removes an object and returns its user data. Its handle becomes stale; its pair settings,
    /// pair callbacks and pair caches are dropped. Its contacts end at the next check
    /// ([`ContactEvent::End`], with `None` for its user data).
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn remove(&mut self, id: ObjectId) -> Result<U, WorldError> {
        self.objects.check_live(id)?;
        self.forget_tolerances(id)?;
        let slot = id.slot();
        if self.started {
            self.broad.remove(slot)?;
        }
        // Its caches are dropped by the next check's merge: until then the slot waits.
        let reuse_now = !self.narrow.remove_slot(slot);
        let user = self.objects.remove(id, reuse_now)?;
        self.moved.unmark(slot);
        self.continuous.forget(slot);
        self.schedule.motion.forget(slot);
        self.groups.reset(slot);
        self.swept_callbacks.remove_object(id);
        self.proximity_caches.remove_object(id);
        if self.interest.remove_object(id) {
            self.callbacks.remove_object(id);
        }
        Ok(user)
    }

    /// Starts collision detection (the C API's `colStart`): builds the broad phase from the
    /// objects' current poses. Every object counts as moved for the first check.
    ///
    /// # Errors
    /// [`WorldError::WrongState`] when already started.
    pub fn start(&mut self) -> Result<(), WorldError> {
        if self.started {
            return Err(WorldError::WrongState("start was already called"));
        }
        for slot in 0..self.objects.slot_count() {
            if let Some(aabb) = box_update::refresh_world_box(&mut self.objects, slot) {
                self.broad
                    .insert(slot, &self.tolerances.grown_box(slot, &aabb))?;
                self.moved.mark(slot);
                self.continuous.record(slot, self.objects.object_pose(slot));
            }
        }
        self.started = true;
        self.checks_at_start = self.checks;
        Ok(())
    }

    /// Sets an object's pose (local to world; rigid, `f64`) and enters it in the moved set.
    ///
    /// # Errors
    /// [`WorldError::InvalidTransform`] (non-finite, non-unit rotation; see
    /// [`RIGIDITY_TOLERANCE`]), [`WorldError::InvalidHandle`].
    pub fn set_transform(&mut self, id: ObjectId, pose: Pose) -> Result<(), WorldError> {
        self.place(id, &ObjectPose::new(&pose)?)
    }

    /// Sets an object's pose from a column-major 4x4 matrix (`m[col * 4 + row]`): finite, bottom
    /// row `(0, 0, 0, 1)`, rotation part orthonormal with a positive determinant, each within
    /// [`RIGIDITY_TOLERANCE`]; the rotation is re-orthonormalised in `f64`.
    ///
    /// # Errors
    /// As [`World::set_transform`].
    pub fn set_transform_matrix(&mut self, id: ObjectId, m: &[f64; 16]) -> Result<(), WorldError> {
        self.place(id, &ObjectPose::from_column_major(m)?)
    }

    fn place(&mut self, id: ObjectId, pose: &ObjectPose) -> Result<(), WorldError> {
        self.objects.set_pose(id, pose)?;
        self.moved.mark(id.slot());
        Ok(())
    }

    /// An object's current pose (its quaternion re-normalised when it was set).
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn transform(&self, id: ObjectId) -> Result<Pose, WorldError> {
        self.objects.pose(id)
    }

    /// The user data of an object.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn user_data(&self, id: ObjectId) -> Result<&U, WorldError> {
        self.objects.user(id)
    }

    fn pair_key(&self, a: ObjectId, b: ObjectId) -> Result<PairKey, WorldError> {
        self.objects.check_live(a)?;
        self.objects.check_live(b)?;
        if a == b {
            return Err(WorldError::SameObject);
        }
        Ok(PairKey::new(a, b))
    }

    /// Switches collision detection for the pair `{a, b}` on or off (default: on).
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`], [`WorldError::SameObject`].
    pub fn set_interest(
        &mut self,
        a: ObjectId,
        b: ObjectId,
        interested: bool,
    ) -> Result<(), WorldError> {
        let key = self.pair_key(a, b)?;
        let settings = self.interest.entry(key);
        let switched_on = interested && settings.uninterested;
        settings.uninterested = !interested;
        if switched_on {
            // Its contact state is unknown: the next check tests it (for the events).
            self.contacts.note_retest(&[a.slot(), b.slot()]);
        }
        Ok(())
    }

    /// True unless the pair was switched off.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`], [`WorldError::SameObject`].
    pub fn interest(&self, a: ObjectId, b: ObjectId) -> Result<bool, WorldError> {
        let key = self.pair_key(a, b)?;
        Ok(!self.interest.get(&key).uninterested)
    }

    /// Gives the pair `{a, b}` its own callback (replacing the general one for it, and an
    /// earlier own callback). It is dropped when either object is removed.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`], [`WorldError::SameObject`].
    pub fn set_callback(
        &mut self,
        a: ObjectId,
        b: ObjectId,
        callback: CollisionCallback<U>,
    ) -> Result<(), WorldError> {
        let key = self.pair_key(a, b)?;
        self.interest.entry(key).own_callback = true;
        self.callbacks.set_pair(key, callback);
        Ok(())
    }

    /// Sets the callback for pairs without their own.
    pub fn set_general_callback(&mut self, callback: CollisionCallback<U>) {
        self.callbacks.set_general(callback);
    }

    /// Sets the contact-event callback (replacing an earlier one): after each check's collision
    /// callbacks it is called once per [`PairEvent`] of the check, sorted by id pair, on the
    /// calling thread (see [`ContactEvent`] for the semantics).
    pub fn set_event_callback(&mut self, callback: ContactEventCallback<U>) {
        self.contacts.set_callback(Some(callback));
    }

    /// Removes the contact-event callback (events are still listed by
    /// [`World::last_contact_events`]).
    pub fn clear_event_callback(&mut self) {
        self.contacts.set_callback(None);
    }

    /// The last check's contact events, sorted by id pair (what the event callback saw). Kept
    /// whether or not an event callback is set; `check_continuous` does not change them.
    pub fn last_contact_events(&self) -> &[PairEvent] {
        self.contacts.events()
    }

    /// Number of pairs in contact after the last check (every colliding pair, moved or not).
    pub fn contact_count(&self) -> usize {
        self.contacts.contact_count()
    }

    /// Whether `a` and `b` were in contact after the last check (stale ids answer false).
    pub fn in_contact(&self, a: ObjectId, b: ObjectId) -> bool {
        self.contacts.in_contact(a, b)
    }

    /// Sets an object's collision group and mask: a pair is tested only when each object's mask
    /// admits the other's group, `(group_a & mask_b) != 0 && (group_b & mask_a) != 0`, and the
    /// interest matrix does not switch it off. Default: both [`ALL_GROUPS`] (every pair
    /// admitted). A change takes effect at the next check: a contact now excluded ends, and the
    /// object's pairs are tested again for the contact events (a pair now admitted and colliding
    /// begins), but a change is not a move: the collision callbacks report a pair only when one
    /// of its objects moved, as always.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn set_group(&mut self, id: ObjectId, group: u32, mask: u32) -> Result<(), WorldError> {
        self.objects.check_live(id)?;
        if self.groups.set(id.slot(), CollisionGroup { group, mask }) {
            self.contacts.note_retest(&[id.slot()]);
        }
        Ok(())
    }

    /// An object's collision group and mask.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn group(&self, id: ObjectId) -> Result<CollisionGroup, WorldError> {
        self.objects.check_live(id)?;
        Ok(self.groups.get(id.slot()))
    }

    /// Number of pairs with their own callback (pairs of removed objects do not count).
    pub fn pair_callback_count(&self) -> usize {
        self.callbacks.pair_count()
    }

    /// Classification and counts of an object.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn object_info(&self, id: ObjectId) -> Result<ObjectInfo, WorldError> {
        let p = self.objects.shape(id)?.polyhedron();
        Ok(ObjectInfo {
            classification: p.classification().clone(),
            vertex_count: p.dcel().vertex_count(),
            edge_count: p.dcel().edge_count(),
            face_count: p.dcel().face_count(),
        })
    }

    /// Figures of the last check.
    pub fn stats(&self) -> &CheckStats {
        &self.stats
    }

    /// Checks the world's internal invariants (the object table's arrays agree with each other;
    /// the moved set names live objects only). For tests and debugging; linear in the number of
    /// slots.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    pub fn validate(&self) -> Result<(), String> {
        self.objects.validate()?;
        let placed = self.objects.placed();
        self.schedule
            .motion
            .validate(placed, |slot| self.moved.contains(slot))?;
        for &slot in self.moved.slots() {
            if placed.id(slot).is_none() {
                return Err(format!("the moved set names empty slot {slot}"));
            }
        }
        Ok(())
    }

    /// Detects the new collisions since the last check and reports them to the callbacks (the C
    /// API's `colCheck`); returns how many there were. See the module docs for the pipeline.
    ///
    /// # Errors
    /// [`WorldError::WrongState`] before [`World::start`]. [`WorldError::Narrow`] when the exact
    /// test failed on some pair: the check still completes for every other pair (their callbacks
    /// run, the moved set is consumed) and the failure of the pair first in the broad phase's
    /// order is returned.
    pub fn check(&mut self) -> Result<usize, WorldError> {
        let pass = self.check_pass()?;
        self.check_report(pass)
    }

    /// The first stage of a check, everything before the callbacks: box update, broad phase,
    /// narrow pass, contacts and near pairs. It calls no callback and drops none, so a concurrent
    /// check ([`World::check_begin`]) runs it on a pool thread.
    fn check_pass(&mut self) -> Result<CheckPass, WorldError> {
        if !self.started {
            return Err(WorldError::WrongState("check before start"));
        }
        self.checks += 1;
        let broad_start = Instant::now();
        box_update::update_moved_boxes(
            &mut self.objects,
            &self.moved,
            &mut *self.broad,
            self.pool.as_deref(),
            &mut self.moved_boxes,
            &self.tolerances,
        )?;
        // Objects whose contacts must be tested again (`contact_events.rs`): as moved in the
        // narrow pass, for the events only (their boxes are current: they did not move).
        self.contacts
            .enter_retests(&mut self.moved, self.objects.placed());
        self.broad.overlapping_pairs(&mut self.pairs);
        let broad_time = broad_start.elapsed();

        let narrow_start = Instant::now();
        let input = PassInput {
            check: self.checks,
            method: self.config.method,
            pairs: &self.pairs,
            moved: &self.moved,
            interest: &self.interest,
            groups: &self.groups,
            objects: self.objects.placed(),
            default_tolerance: self.tolerances.default_tolerance(),
        };
        // The schedule measures the moves and leaves its certified pairs out of the pass.
        self.schedule.before_pass(&input);
        let pass_input = PassInput {
            pairs: self.schedule.pass_pairs(&self.pairs),
            ..input
        };
        let summary = self.narrow.run(&pass_input, self.pool.as_deref());
        self.schedule
            .after_pass(&input, self.narrow.found(), summary.first_failure.is_some());
        self.objects.reuse_released_slots();
        let narrow_time = narrow_start.elapsed();
        let found = self.narrow.found();
        self.contacts.update(&ContactInput {
            found,
            moved: &self.moved,
            objects: self.objects.placed(),
            interest: &self.interest,
            groups: &self.groups,
        });
        self.continuous.record_moved(
            &self.moved,
            self.contacts.retest_only(),
            self.objects.placed(),
            self.pool.as_deref(),
        );
        let (contacts, moved) = (&self.contacts, &self.moved);
        self.near.collect(
            &near_pairs::NearInput {
                separated: self.narrow.near(),
                found,
                tolerances: &self.tolerances,
                interest: &self.interest,
            },
            |sa, sb| contacts.really_moved(moved, sa) || contacts.really_moved(moved, sb),
        );
        Ok(CheckPass {
            summary,
            broad_time,
            narrow_time,
        })
    }

    /// The second stage of a check, on the calling thread: the callbacks (collisions, near
    /// pairs, contact events), then the moves waiting in `deferred_moves` (a concurrent check's
    /// moves made while it ran, then the callbacks' own), which enter the moved set of the next
    /// check.
    fn check_report(&mut self, pass: CheckPass) -> Result<usize, WorldError> {
        let CheckPass {
            summary,
            broad_time,
            narrow_time,
        } = pass;
        let found = self.contacts.reportable(self.narrow.found(), &self.moved);
        self.last_collisions.clear();
        self.last_collisions
            .extend(found.iter().map(|c| (c.key.0, c.key.1)));

        let mut deferred = std::mem::take(&mut self.deferred_moves);
        self.callbacks.report(found, &self.objects, &mut deferred);
        let reported = found.len();
        self.near.report(&self.objects, &mut deferred);
        self.contacts.report(&self.objects, &mut deferred);
        self.moved.clear();
        self.deferred_moves = deferred;
        self.apply_deferred_moves();
        self.stats = CheckStats {
            broad_ms: broad_time.as_secs_f64() * 1e3,
            narrow_ms: narrow_time.as_secs_f64() * 1e3,
            overlapping_pairs: self.pairs.len(),
            colliding_pairs: reported,
            ttc_skipped_pairs: self.schedule.counts.skipped,
            ttc_distances: self.schedule.counts.distances,
            ttc_bound_violations: self.schedule.counts.violations,
            ..summary.stats
        };
        match summary.first_failure {
            Some(e) => Err(e),
            None => Ok(reported),
        }
    }

    /// Applies the moves in `deferred_moves` in order (a later move of an object wins) and
    /// enters them in the moved set.
    fn apply_deferred_moves(&mut self) {
        for (id, pose) in self.deferred_moves.drain(..) {
            // The handle was live when the move was asked for, and neither callbacks nor a
            // running concurrent check's handle can remove objects.
            if self.objects.set_pose(id, &pose).is_ok() {
                self.moved.mark(id.slot());
            }
        }
    }

    /// The pairs reported by the last check, sorted (also what the callbacks saw).
    pub fn last_collisions(&self) -> &[(ObjectId, ObjectId)] {
        &self.last_collisions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_world_moves_to_another_thread() {
        fn assert_send<T: Send>() {}
        assert_send::<World<u64>>();
        let mut world: World<u64> = World::new(Config::default()).unwrap();
        let id = world
            .make_collidable(
                colldet_testkit::shapes::cuboid(colldet_geom::math::VectorD::repeat(0.5)).unwrap(),
                7,
            )
            .unwrap();
        world.set_general_callback(Box::new(|_, _| {}));
        let world = std::thread::spawn(move || {
            world.start().unwrap();
            world.check().unwrap();
            world
        })
        .join()
        .unwrap();
        assert_eq!(*world.user_data(id).unwrap(), 7);
    }

    #[test]
    fn pool_threads_are_named_as_colldets() {
        let world = World::<()>::new(Config {
            threads: 2,
            ..Config::default()
        })
        .unwrap();
        let pool = world.pool.as_ref().unwrap();
        let names: Vec<String> =
            pool.broadcast(|_| std::thread::current().name().unwrap().to_owned());
        assert_eq!(names.len(), 2);
        for name in names {
            assert!(name.starts_with(WORKER_THREAD_PREFIX), "{name}");
        }
    }
}
