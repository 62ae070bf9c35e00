//! The collision world: the thesis's module interface (`colInit`, `colMakeCollidable`,
//! `colStart`, `colSetCallback`, `colSetGeneralCallback`, `colCheck`, `colExit`) as a Rust type.
//!
//! # Pipeline of [`World::check`]
//! 1. Objects moved since the last check (the moved set, filled by [`World::set_transform`]) get
//!    their world AABB recomputed (Arvo's transform, once per move) and updated in the broad phase.
//! 2. The broad phase yields every pair whose boxes overlap; pairs where neither object moved are
//!    dropped (their status cannot have changed), then pairs the interest matrix switched off.
//! 3. Pairs given the separating-vector test first get its bounding-box pre-test here
//!    ([`colldet_narrow::HullBox::separated`]: the hulls' local boxes placed by the relative
//!    pose, the same arithmetic and margin as inside the query), so a pair it separates costs
//!    no cache and no query; a pair whose boxes overlapped at the check before skips it once.
//!    The exact test runs on each remaining pair, reusing the pair's cache from the cache table,
//!    and does not run the pre-test again. Steps 2 and 3 and the cache table's merge run
//!    together in key ranges of the sorted pairs, on the world's thread pool when
//!    `threads != 1` (`pair_pass.rs`).
//! 4. Collisions are sorted by id pair and reported on the calling thread, one at a time: each
//!    pair's own callback, or else the general callback. The order and the results do not depend
//!    on the thread count.
//!
//! "New collisions" are the thesis's: colliding pairs of which at least one object moved since
//! the previous check. A resting contact between two unmoved objects is not reported again.
//!
//! # Threading contract
//! A `World` is used from one thread at a time. Callbacks run on the thread that calls `check`,
//! never concurrently. The narrow phase uses the world's own rayon pool; nothing else is shared.

mod collision;
mod config;
mod error;
mod interest;
mod moved_set;
mod object_id;
mod pair_caches;
mod pair_pass;
mod pair_results;
mod pair_test;
mod prefetch;
mod shape;
mod stats;
pub mod transform;

pub use collision::{CallbackContext, Collision, Witness, WitnessKind};
pub use config::{BroadPhaseKind, Config, Method};
pub use error::WorldError;
pub use object_id::ObjectId;
pub use stats::{CheckStats, SV_HISTOGRAM_BINS};

use std::sync::{Arc, Mutex};
use std::time::Instant;

use colldet_broad::{
    AllPairs, BroadPhase, DynamicTree, MAX_OCTREE_DEPTH, Octree, OctreeConfig, ProxyPair,
    SweepAndPrune, UniformGrid, UniformGridConfig,
};
use colldet_geom::math::Pose;
use colldet_geom::{Classification, MeshData, WorldAabb};
use colldet_narrow::{HullBox, PoseMatrix};
use rayon::prelude::*;

use interest::{InterestMatrix, PairKey};
use moved_set::MovedSet;
use pair_caches::PairCaches;
use pair_pass::PairPass;
use pair_results::{Failure, Found, Workers};
use shape::CollisionShape;

/// A collision callback: called once per new collision, on the thread that runs `check`.
pub type CollisionCallback<U> = Box<dyn FnMut(&Collision<'_, U>, &mut CallbackContext<'_>)>;

/// What the pair tests read of a live object: its geometry and placement. User data lives apart
/// (`World::users`), so the parallel narrow phase shares only this, whatever the user data type
/// is; the quaternion pose and the box update's hints live apart too (`World::placements`), so a
/// slot fills two cache lines.
struct Object {
    shape: Arc<CollisionShape>,
    /// The pose as an `f64` rotation matrix and translation, made once per move: the convex
    /// tests take their relative pose from two of these ([`PoseMatrix::inv_mul`]).
    frame: PoseMatrix,
}

/// The rest of a live object's state, read once per move or by the mesh tests.
#[derive(Clone, Copy)]
struct Placement {
    /// The pose as set (checked, quaternion re-normalised).
    pose: Pose,
    /// Extreme hull vertices along the world axes at the last box update (warm starts).
    extreme_hints: [u32; 6],
}

impl Placement {
    fn identity() -> Self {
        Self {
            pose: Pose::identity(),
            extreme_hints: [0; 6],
        }
    }
}

/// What the narrow phase reads of a live object to run the bounding-box filter (see
/// [`World::check`]): the local box and radius of the polytope the Chung-Wang test reads
/// ([`CollisionShape::convex_or_hull`]), made once per object, read at random slots (only for
/// pairs under the filter), so kept apart, one cache line each.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct FilterBox(HullBox);

/// Aligned to cache lines: the narrow phase reads (and prefetches) slots at random.
#[repr(align(64))]
struct Slot {
    generation: u32,
    object: Option<Object>,
}

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

/// Fewest moved objects whose boxes are computed on the pool (below, the hand-over costs more).
const PARALLEL_BOX_UPDATES: usize = 4096;

/// A collision world holding objects with user data of type `U`.
pub struct World<U> {
    config: Config,
    slots: Vec<Slot>,
    /// User data per slot, `Some` exactly for live objects.
    users: Vec<Option<U>>,
    /// The live object's id per slot (compact: the pair filter reads it for every broad-phase
    /// pair, at random slots).
    slot_ids: Vec<Option<ObjectId>>,
    /// Pose and box hints per slot (meaningful for live objects).
    placements: Vec<Placement>,
    /// The bounding-box filter's data per slot (meaningful for live objects).
    filter_boxes: Vec<FilterBox>,
    /// What chooses the pair test, per slot (meaningful for live objects): read for every
    /// candidate pair, so two bytes a slot (a large world's random reads stay in cache).
    shape_traits: Vec<pair_test::ShapeTraits>,
    free_slots: Vec<u32>,
    /// Slots of objects removed since the last check whose pair caches are not dropped yet;
    /// reused only after the next check's cache merge.
    released_slots: Vec<u32>,
    live: usize,
    broad: Box<dyn BroadPhase>,
    interest: InterestMatrix,
    /// The narrow phase's per-pair caches.
    caches: PairCaches,
    moved: MovedSet,
    started: bool,
    checks: u64,
    callbacks: Vec<CollisionCallback<U>>,
    general_callback: Option<CollisionCallback<U>>,
    pool: Option<Arc<rayon::ThreadPool>>,
    /// The new world box and extreme-vertex hints of each moved object (`None` for a removed
    /// one), in moved-set order (filled in parallel on large moves).
    moved_boxes: Vec<Option<(WorldAabb, [u32; 6])>>,
    pairs: Vec<ProxyPair>,
    deferred_moves: Vec<(ObjectId, Pose)>,
    last_collisions: Vec<(ObjectId, ObjectId)>,
    /// Exact-test scratch memory and results, kept across checks so that warm workspaces never
    /// reallocate: one per pool thread (one in serial mode), idle between the key ranges of the
    /// narrow phase (see [`PairPass`]).
    workers: Mutex<Workers>,
    /// The last check's collisions, merged from the workers' (its capacity, the most any check
    /// found, is the room each worker reserves).
    found: Vec<Found>,
    stats: CheckStats,
}

fn make_broad_phase(
    config: &Config,
    pool: Option<&Arc<rayon::ThreadPool>>,
) -> Result<Box<dyn BroadPhase>, WorldError> {
    let universe = || {
        config.universe.ok_or(WorldError::InvalidConfig(
            "grids and octrees need a universe box",
        ))
    };
    match config.broad_phase {
        BroadPhaseKind::AllPairs => Ok(Box::new(AllPairs::new())),
        BroadPhaseKind::Grid => Ok(Box::new(UniformGrid::new(&UniformGridConfig::cubic(
            universe()?,
            config.resolution,
        ))?)),
        BroadPhaseKind::Octree => {
            // The finest octants match the resolution: depth = ceil(log2(resolution)).
            let depth = (u32::BITS - config.resolution.saturating_sub(1).leading_zeros())
                .min(MAX_OCTREE_DEPTH);
            Ok(Box::new(Octree::new(&OctreeConfig {
                universe: universe()?,
                depth,
            })?))
        }
        BroadPhaseKind::SweepAndPrune => Ok(Box::new(match pool {
            Some(pool) => SweepAndPrune::with_pool(Arc::clone(pool)),
            None => SweepAndPrune::new(),
        })),
        BroadPhaseKind::DynamicTree => Ok(Box::new(DynamicTree::new())),
    }
}

impl<U> World<U> {
    /// A world with `config` (the C API's `colInit`).
    ///
    /// # Errors
    /// [`WorldError::InvalidConfig`] for a grid/octree without a universe box or with resolution
    /// 0, an inverted or non-finite universe box; [`WorldError::Threads`] when the pool fails.
    pub fn new(config: Config) -> Result<Self, WorldError> {
        if let Some(u) = &config.universe {
            let ok = (0..3)
                .all(|c| u.mins[c].is_finite() && u.maxs[c].is_finite() && u.mins[c] < u.maxs[c]);
            if !ok {
                return Err(WorldError::InvalidConfig(
                    "the universe box must be finite with min < max",
                ));
            }
        }
        if matches!(
            config.broad_phase,
            BroadPhaseKind::Grid | BroadPhaseKind::Octree
        ) {
            if config.universe.is_none() {
                return Err(WorldError::InvalidConfig(
                    "grids and octrees need a universe box",
                ));
            }
            if config.resolution == 0 {
                return Err(WorldError::InvalidConfig(
                    "the resolution must be at least 1",
                ));
            }
        }
        let pool: Option<Arc<rayon::ThreadPool>> = if config.threads == 1 {
            None
        } else {
            Some(Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(config.threads)
                    .build()
                    .map_err(|e| WorldError::Threads(e.to_string()))?,
            ))
        };
        let broad = make_broad_phase(&config, pool.as_ref())?;
        let workers = pool.as_ref().map_or(1, |p| p.current_num_threads());
        Ok(Self {
            config,
            slots: Vec::new(),
            users: Vec::new(),
            slot_ids: Vec::new(),
            placements: Vec::new(),
            filter_boxes: Vec::new(),
            shape_traits: Vec::new(),
            free_slots: Vec::new(),
            released_slots: Vec::new(),
            live: 0,
            broad,
            interest: InterestMatrix::default(),
            caches: PairCaches::default(),
            moved: MovedSet::default(),
            started: false,
            checks: 0,
            callbacks: Vec::new(),
            general_callback: None,
            pool,
            moved_boxes: Vec::new(),
            pairs: Vec::new(),
            deferred_moves: Vec::new(),
            last_collisions: Vec::new(),
            workers: Mutex::new((0..workers).map(|_| Box::default()).collect()),
            found: Vec::new(),
            stats: CheckStats::default(),
        })
    }

    /// The configuration the world was made with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Number of live objects.
    pub fn len(&self) -> usize {
        self.live
    }

    /// True when the world holds no object.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// True once [`World::start`] has run.
    pub fn is_started(&self) -> bool {
        self.started
    }

    fn object(&self, id: ObjectId) -> Result<&Object, WorldError> {
        self.slots
            .get(id.slot() as usize)
            .filter(|s| s.generation == id.generation())
            .and_then(|s| s.object.as_ref())
            .ok_or(WorldError::InvalidHandle(id))
    }

    fn object_mut(&mut self, id: ObjectId) -> Result<&mut Object, WorldError> {
        self.slots
            .get_mut(id.slot() as usize)
            .filter(|s| s.generation == id.generation())
            .and_then(|s| s.object.as_mut())
            .ok_or(WorldError::InvalidHandle(id))
    }

    /// The object's tight world box (support mapping along the world axes, warm-started).
    fn world_aabb(shape: &CollisionShape, placement: &mut Placement) -> WorldAabb {
        shape.tight_world_aabb(&placement.pose, &mut placement.extreme_hints)
    }

    /// Adds an object with geometry `mesh` (copied, built and classified) and user data `user`,
    /// at the identity pose (the C API's `colMakeCollidable`). Allowed before and after
    /// [`World::start`]; after it the object takes part from the next check on.
    ///
    /// # Errors
    /// [`WorldError::InvalidMesh`] naming the problem, [`WorldError::TooManyObjects`].
    pub fn make_collidable(&mut self, mesh: MeshData, user: U) -> Result<ObjectId, WorldError> {
        if self.config.max_objects != 0 && self.live >= self.config.max_objects {
            return Err(WorldError::TooManyObjects(self.config.max_objects));
        }
        let shape = Arc::new(CollisionShape::build(mesh)?);
        self.insert_shape(shape, user)
    }

    /// Adds another object sharing the geometry of `like` (no rebuild; instancing).
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`], [`WorldError::TooManyObjects`].
    pub fn make_instance(&mut self, like: ObjectId, user: U) -> Result<ObjectId, WorldError> {
        let shape = Arc::clone(&self.object(like)?.shape);
        if self.config.max_objects != 0 && self.live >= self.config.max_objects {
            return Err(WorldError::TooManyObjects(self.config.max_objects));
        }
        self.insert_shape(shape, user)
    }

    fn insert_shape(
        &mut self,
        shape: Arc<CollisionShape>,
        user: U,
    ) -> Result<ObjectId, WorldError> {
        let filter_box = FilterBox(HullBox::of(shape.convex_or_hull()));
        let traits = pair_test::ShapeTraits::of(&shape);
        let slot = match self.free_slots.pop() {
            Some(s) => s,
            None => {
                if self.slots.len() > ObjectId::MAX_SLOT as usize {
                    return Err(WorldError::TooManyObjects(self.slots.len()));
                }
                self.slots.push(Slot {
                    generation: 1,
                    object: None,
                });
                self.users.push(None);
                self.slot_ids.push(None);
                self.placements.push(Placement::identity());
                self.filter_boxes.push(filter_box);
                self.shape_traits.push(traits);
                (self.slots.len() - 1) as u32
            }
        };
        let id = ObjectId::new(slot, self.slots[slot as usize].generation);
        self.filter_boxes[slot as usize] = filter_box;
        self.shape_traits[slot as usize] = traits;
        let object = Object {
            shape,
            frame: PoseMatrix::identity(),
        };
        let placement = &mut self.placements[slot as usize];
        *placement = Placement::identity();
        if self.started {
            if let Err(e) = self
                .broad
                .insert(slot, &Self::world_aabb(&object.shape, placement))
            {
                self.free_slots.push(slot);
                return Err(e.into());
            }
            self.moved.mark(slot);
        }
        self.slots[slot as usize].object = Some(object);
        self.slot_ids[slot as usize] = Some(id);
        self.users[slot as usize] = Some(user);
        self.live += 1;
        Ok(id)
    }

    /// Removes an object and returns its user data. Its handle becomes stale; pair settings and
    /// caches involving it are dropped.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn remove(&mut self, id: ObjectId) -> Result<U, WorldError> {
        self.object(id)?;
        let slot = id.slot();
        if self.started {
            self.broad.remove(slot)?;
        }
        let entry = &mut self.slots[slot as usize];
        entry.object = None;
        self.slot_ids[slot as usize] = None;
        let user = self.users[slot as usize]
            .take()
            .ok_or(WorldError::InvalidHandle(id))?;
        entry.generation = entry.generation.wrapping_add(1).max(1);
        self.live -= 1;
        self.moved.unmark(slot);
        self.interest.remove_object(id);
        if self.caches.remove_slot(slot) {
            // Its caches are dropped by the next check's merge: the slot waits until then.
            self.released_slots.push(slot);
        } else {
            self.free_slots.push(slot);
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
        for slot in 0..self.slots.len() as u32 {
            if let Some(object) = &self.slots[slot as usize].object {
                let placement = &mut self.placements[slot as usize];
                self.broad
                    .insert(slot, &Self::world_aabb(&object.shape, placement))?;
                self.moved.mark(slot);
            }
        }
        self.started = true;
        Ok(())
    }

    /// Sets an object's pose (local to world; rigid, `f64`) and enters it in the moved set.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`], [`WorldError::InvalidTransform`] (non-finite, non-unit
    /// rotation).
    pub fn set_transform(&mut self, id: ObjectId, pose: Pose) -> Result<(), WorldError> {
        let pose = transform::checked_pose(&pose)?;
        let frame = transform::pose_matrix(&pose)?;
        self.object_mut(id)?.frame = frame;
        self.placements[id.slot() as usize].pose = pose;
        self.moved.mark(id.slot());
        Ok(())
    }

    /// Sets an object's pose from a column-major 4x4 matrix; see [`transform`] for what counts as
    /// rigid.
    ///
    /// # Errors
    /// As [`World::set_transform`].
    pub fn set_transform_matrix(&mut self, id: ObjectId, m: &[f64; 16]) -> Result<(), WorldError> {
        let pose = transform::pose_from_column_major(m)?;
        self.set_transform(id, pose)
    }

    /// An object's current pose.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn transform(&self, id: ObjectId) -> Result<Pose, WorldError> {
        self.object(id)?;
        Ok(self.placements[id.slot() as usize].pose)
    }

    /// The user data of an object.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn user_data(&self, id: ObjectId) -> Result<&U, WorldError> {
        self.object(id)?;
        self.users[id.slot() as usize]
            .as_ref()
            .ok_or(WorldError::InvalidHandle(id))
    }

    fn pair_key(&self, a: ObjectId, b: ObjectId) -> Result<PairKey, WorldError> {
        self.object(a)?;
        self.object(b)?;
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
        self.interest.entry(key).uninterested = !interested;
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

    /// Gives the pair `{a, b}` its own callback (replacing the general one for it).
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
        let state = self.interest.entry(key);
        match state.callback {
            Some(c) => self.callbacks[c] = callback,
            None => {
                self.callbacks.push(callback);
                state.callback = Some(self.callbacks.len() - 1);
            }
        }
        Ok(())
    }

    /// Sets the callback for pairs without their own.
    pub fn set_general_callback(&mut self, callback: CollisionCallback<U>) {
        self.general_callback = Some(callback);
    }

    /// Classification and counts of an object.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn object_info(&self, id: ObjectId) -> Result<ObjectInfo, WorldError> {
        let p = &self.object(id)?.shape.polyhedron;
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

    /// Detects the new collisions since the last check and reports them to the callbacks (the C
    /// API's `colCheck`); returns how many there were. See the module docs for the pipeline.
    ///
    /// # Errors
    /// [`WorldError::WrongState`] before [`World::start`]. [`WorldError::Narrow`] when the exact
    /// test failed on some pair: the check still completes for every other pair (their callbacks
    /// run, the moved set is consumed) and the first failure is returned.
    pub fn check(&mut self) -> Result<usize, WorldError> {
        if !self.started {
            return Err(WorldError::WrongState("check before start"));
        }
        self.checks += 1;
        let broad_start = Instant::now();
        match &self.pool {
            Some(pool) if self.moved.slots().len() >= PARALLEL_BOX_UPDATES => {
                // The moved objects' boxes (and new extreme-vertex hints) on the pool, then the
                // hints and the broad-phase updates in moved-set order.
                let (slots, placements) = (&self.slots, &self.placements);
                pool.install(|| {
                    self.moved
                        .slots()
                        .par_iter()
                        .with_min_len(1024)
                        .map(|&slot| {
                            slots[slot as usize].object.as_ref().map(|object| {
                                let mut placement = placements[slot as usize];
                                let aabb = Self::world_aabb(&object.shape, &mut placement);
                                (aabb, placement.extreme_hints)
                            })
                        })
                        .collect_into_vec(&mut self.moved_boxes)
                });
                for (&slot, update) in self.moved.slots().iter().zip(&self.moved_boxes) {
                    if let Some((aabb, hints)) = update {
                        self.placements[slot as usize].extreme_hints = *hints;
                        self.broad.update(slot, aabb)?;
                    }
                }
            }
            _ => {
                for &slot in self.moved.slots() {
                    if let Some(object) = &self.slots[slot as usize].object {
                        let placement = &mut self.placements[slot as usize];
                        self.broad
                            .update(slot, &Self::world_aabb(&object.shape, placement))?;
                    }
                }
            }
        }
        self.broad.overlapping_pairs(&mut self.pairs);
        let broad_time = broad_start.elapsed();

        let narrow_start = Instant::now();
        let room = self.found.capacity();
        for worker in self.workers.get_mut().unwrap_or_else(|e| e.into_inner()) {
            worker.clear(room);
        }
        // The broad-phase pairs come sorted by slot pair: the cache table is merged alongside,
        // in key ranges on the pool.
        let threads = self.pool.as_ref().map_or(1, |p| p.current_num_threads());
        let (ranges, range_len) = pair_pass::split_ranges(self.pairs.len(), threads);
        let table = self.caches.begin(self.checks, ranges);
        let pass = PairPass {
            method: self.config.method,
            pairs: &self.pairs,
            moved: &self.moved,
            interest: &self.interest,
            slot_ids: &self.slot_ids,
            shape_traits: &self.shape_traits,
            filter_boxes: &self.filter_boxes,
            slots: &self.slots,
            placements: &self.placements,
            idle_workers: &self.workers,
            range_len,
        };
        match &self.pool {
            Some(pool) => pool.install(|| pass.run(table)),
            None => pass.run(table),
        }
        self.caches.finish(ranges);
        self.free_slots.append(&mut self.released_slots);
        let mut colliding = std::mem::take(&mut self.found);
        colliding.clear();
        let mut stats = CheckStats::default();
        let (mut tested, mut box_filtered) = (0, 0);
        let mut first_failure: Option<Failure> = None;
        let workers = self.workers.get_mut().unwrap_or_else(|e| e.into_inner());
        pair_results::merge_found(workers, &mut colliding);
        for worker in workers {
            stats.add_sv_counters(&worker.stats);
            tested += worker.tested;
            box_filtered += worker.box_filtered;
            if let Some(failure) = worker.failure.take()
                && first_failure
                    .as_ref()
                    .is_none_or(|f| failure.pair_index < f.pair_index)
            {
                first_failure = Some(failure);
            }
        }
        let first_failure = first_failure.map(|f| WorldError::Narrow {
            a: f.key.0,
            b: f.key.1,
            source: f.source,
        });
        let narrow_time = narrow_start.elapsed();
        colliding.sort_unstable_by_key(|c| c.key);
        self.last_collisions.clear();
        self.last_collisions
            .extend(colliding.iter().map(|c| (c.key.0, c.key.1)));

        let mut deferred = std::mem::take(&mut self.deferred_moves);
        for &Found {
            key,
            callback,
            witness,
            ..
        } in &colliding
        {
            let (sa, sb) = (key.0.slot(), key.1.slot());
            let user_a = self.users[sa as usize].as_ref().expect("live object");
            let user_b = self.users[sb as usize].as_ref().expect("live object");
            let collision = Collision {
                a: key.0,
                b: key.1,
                user_a,
                user_b,
                witness,
            };
            let mut ctx = CallbackContext {
                deferred_moves: &mut deferred,
            };
            match callback {
                Some(c) => (self.callbacks[c])(&collision, &mut ctx),
                None => {
                    if let Some(general) = &mut self.general_callback {
                        general(&collision, &mut ctx);
                    }
                }
            }
        }
        self.moved.clear();
        for (id, pose) in deferred.drain(..) {
            // The pose was checked when the callback deferred it.
            if let (Ok(object), Ok(frame)) = (self.object_mut(id), transform::pose_matrix(&pose)) {
                object.frame = frame;
                self.placements[id.slot() as usize].pose = pose;
                self.moved.mark(id.slot());
            }
        }
        self.deferred_moves = deferred;
        self.stats = CheckStats {
            broad_ms: broad_time.as_secs_f64() * 1e3,
            narrow_ms: narrow_time.as_secs_f64() * 1e3,
            overlapping_pairs: self.pairs.len(),
            tested_pairs: tested,
            box_filtered_pairs: box_filtered,
            colliding_pairs: colliding.len(),
            ..stats
        };
        let reported = colliding.len();
        self.found = colliding;
        match first_failure {
            Some(e) => Err(e),
            None => Ok(reported),
        }
    }

    /// The pairs reported by the last check, sorted (also what the callbacks saw).
    pub fn last_collisions(&self) -> &[(ObjectId, ObjectId)] {
        &self.last_collisions
    }
}
