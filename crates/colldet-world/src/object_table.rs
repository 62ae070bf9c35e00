//! [`ObjectTable`]: every per-object array of the world behind one type, indexed by slot.
//!
//! Layout, for the narrow phase's random reads (a check reads two objects per candidate pair at
//! unrelated slots): the slot itself (generation, shape, pose matrix) fills two cache lines; what
//! the pair filter reads for every pair sits in compact arrays of its own (the ids, the two bytes
//! of [`ShapeTraits`]), the pre-test box one cache line a slot; the quaternion pose and the box
//! update's hints, read once per move or by the mesh tests, sit apart. User data lives in its own
//! array, so the part the pool threads share ([`PlacedObjects`]) does not depend on the user
//! data type. [`ObjectTable::validate`] checks that the arrays agree.

use std::sync::Arc;

use colldet_narrow::dispatch::PretestBox;
use colldet_narrow::{PlacedShape, PoseMatrix, PreparedShape, ShapeTraits};

use crate::object_id::WorldTag;
use crate::object_pose::ObjectPose;
use crate::pose_log::PoseLog;
use crate::{ObjectId, WorldError, prefetch};

/// What the pair tests read of a live object first: its geometry and pose matrix.
struct Object {
    shape: Arc<PreparedShape>,
    /// The pose's rotation matrix and translation ([`ObjectPose::matrix`]).
    matrix: PoseMatrix,
}

/// Aligned to cache lines: the narrow phase reads (and prefetches) slots at random.
#[repr(align(64))]
struct Slot {
    generation: u32,
    object: Option<Object>,
}

/// The rest of a live object's state, read once per move or by the mesh tests.
#[derive(Clone, Copy)]
struct Placement {
    /// The pose as set ([`ObjectPose::pose`]).
    pose: colldet_geom::math::Pose,
    /// Extreme hull vertices along the world axes at the last box update (warm starts).
    extreme_hints: [u32; 6],
}

impl Placement {
    fn identity() -> Self {
        Self {
            pose: colldet_geom::math::Pose::identity(),
            extreme_hints: [0; 6],
        }
    }
}

/// The object arrays the narrow phase's threads share: everything but the user data.
pub(crate) struct PlacedObjects {
    /// The tag of the world, in every id it issues and checked on every lookup.
    tag: WorldTag,
    slots: Vec<Slot>,
    /// The live object's id per slot.
    ids: Vec<Option<ObjectId>>,
    /// What chooses the pair test, per slot.
    traits: Vec<ShapeTraits>,
    /// The Chung-Wang pre-test box per slot.
    pretest_boxes: Vec<PretestBox>,
    placements: Vec<Placement>,
}

impl PlacedObjects {
    /// True when `id` names a live object of this world.
    pub fn is_live(&self, id: ObjectId) -> bool {
        id.world_tag() == self.tag
            && self
                .slots
                .get(id.slot() as usize)
                .is_some_and(|s| s.generation == id.generation() && s.object.is_some())
    }

    /// The live object in `slot` as the pair tests see it.
    ///
    /// # Panics
    /// When `slot` holds no live object (the broad phase only reports live ones).
    #[inline]
    pub fn placed(&self, slot: u32) -> PlacedShape<'_> {
        let object = self.slots[slot as usize]
            .object
            .as_ref()
            .expect("live object");
        PlacedShape {
            shape: &object.shape,
            pose: &self.placements[slot as usize].pose,
            matrix: &object.matrix,
        }
    }

    /// The pose of the live object in `slot`, both forms.
    pub fn object_pose(&self, slot: u32) -> ObjectPose {
        let p = self.placed(slot);
        ObjectPose {
            pose: *p.pose,
            matrix: *p.matrix,
        }
    }

    /// The pose matrix of the live object in `slot` (see [`PlacedObjects::placed`]).
    #[inline]
    pub fn matrix(&self, slot: u32) -> &PoseMatrix {
        self.placed(slot).matrix
    }

    /// The id of the object in `slot`, if live.
    #[inline]
    pub fn id(&self, slot: u32) -> Option<ObjectId> {
        self.ids[slot as usize]
    }

    /// The live object's id per slot (`None` for empty slots).
    pub fn ids(&self) -> &[Option<ObjectId>] {
        &self.ids
    }

    /// The traits of the object in `slot` (meaningful for live objects).
    #[inline]
    pub fn traits(&self, slot: u32) -> ShapeTraits {
        self.traits[slot as usize]
    }

    /// The pre-test box of the object in `slot` (meaningful for live objects).
    #[inline]
    pub fn pretest_box(&self, slot: u32) -> &PretestBox {
        &self.pretest_boxes[slot as usize]
    }

    /// Asks for the slot's cache lines ahead of its use (a hint; no effect on results).
    #[inline]
    pub fn prefetch(&self, slot: u32) {
        if let Some(s) = self.slots.get(slot as usize) {
            prefetch::prefetch(s);
        }
    }

    /// The shape of the live object in `slot`, its pose matrix and its extreme-vertex hints, for
    /// the box update.
    pub fn shape_and_hints(&self, slot: u32) -> Option<(&PreparedShape, &PoseMatrix, [u32; 6])> {
        let object = self.slots.get(slot as usize)?.object.as_ref()?;
        let placement = &self.placements[slot as usize];
        Some((&object.shape, &object.matrix, placement.extreme_hints))
    }
}

/// The world's objects: slots with generations, the per-object arrays, user data, free slots.
pub(crate) struct ObjectTable<U> {
    placed: PlacedObjects,
    /// User data per slot, `Some` exactly for live objects.
    users: Vec<Option<U>>,
    free_slots: Vec<u32>,
    /// Slots of removed objects whose pair caches are not dropped yet; reused only after the
    /// next check's cache merge ([`ObjectTable::reuse_released_slots`]).
    released_slots: Vec<u32>,
    live: usize,
    /// Pose and layout changes, for the query index.
    changes: PoseLog,
}

impl<U> Default for ObjectTable<U> {
    /// An empty table whose ids carry a new world tag ([`WorldTag::next`]): one table per world.
    fn default() -> Self {
        Self {
            placed: PlacedObjects {
                tag: WorldTag::next(),
                slots: Vec::new(),
                ids: Vec::new(),
                traits: Vec::new(),
                pretest_boxes: Vec::new(),
                placements: Vec::new(),
            },
            users: Vec::new(),
            free_slots: Vec::new(),
            released_slots: Vec::new(),
            live: 0,
            changes: PoseLog::default(),
        }
    }
}

impl<U> ObjectTable<U> {
    /// Number of live objects.
    pub fn len(&self) -> usize {
        self.live
    }

    /// The arrays the narrow phase shares.
    pub fn placed(&self) -> &PlacedObjects {
        &self.placed
    }

    /// The pose of the live object in `slot`, both forms.
    pub fn object_pose(&self, slot: u32) -> ObjectPose {
        self.placed.object_pose(slot)
    }

    /// The placed objects and the pose and layout changes since the query index last read them.
    pub fn placed_and_changes(&mut self) -> (&PlacedObjects, &mut PoseLog) {
        (&self.placed, &mut self.changes)
    }

    /// Number of slots (live or not): slots are `0..slot_count()`.
    pub fn slot_count(&self) -> u32 {
        self.placed.slots.len() as u32
    }

    /// The live object `id` names; an id of another world (another tag) names none.
    fn object(&self, id: ObjectId) -> Result<&Object, WorldError> {
        if id.world_tag() != self.placed.tag {
            return Err(WorldError::InvalidHandle(id));
        }
        // `let else`, not `ok_or`: the error (a `WorldError`, whose drop is not trivial) is built
        // only when the id is bad, not built and dropped on every lookup.
        let Some(object) = self
            .placed
            .slots
            .get(id.slot() as usize)
            .filter(|s| s.generation == id.generation())
            .and_then(|s| s.object.as_ref())
        else {
            return Err(WorldError::InvalidHandle(id));
        };
        Ok(object)
    }

    /// The live object `id` names as the pair tests see it: [`ObjectTable::check_live`] and
    /// [`PlacedObjects::placed`] in one lookup.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    #[inline]
    pub fn placed_live(&self, id: ObjectId) -> Result<PlacedShape<'_>, WorldError> {
        let object = self.object(id)?;
        Ok(PlacedShape {
            shape: &object.shape,
            pose: &self.placed.placements[id.slot() as usize].pose,
            matrix: &object.matrix,
        })
    }

    /// Checks that `id` names a live object of this world.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn check_live(&self, id: ObjectId) -> Result<(), WorldError> {
        self.object(id).map(|_| ())
    }

    /// The shape of a live object.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn shape(&self, id: ObjectId) -> Result<&Arc<PreparedShape>, WorldError> {
        Ok(&self.object(id)?.shape)
    }

    /// The pose of a live object, as set.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn pose(&self, id: ObjectId) -> Result<colldet_geom::math::Pose, WorldError> {
        self.object(id)?;
        Ok(self.placed.placements[id.slot() as usize].pose)
    }

    /// The user data of a live object.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn user(&self, id: ObjectId) -> Result<&U, WorldError> {
        self.object(id)?;
        self.users[id.slot() as usize]
            .as_ref()
            .ok_or(WorldError::InvalidHandle(id))
    }

    /// The user data of the live object in `slot`.
    ///
    /// # Panics
    /// When `slot` holds no live object.
    pub fn user_in(&self, slot: u32) -> &U {
        self.users[slot as usize].as_ref().expect("live object")
    }

    /// Adds a live object at the identity pose and returns its id.
    ///
    /// # Errors
    /// [`WorldError::TooManyObjects`] when every slot number is taken.
    pub fn insert(&mut self, shape: Arc<PreparedShape>, user: U) -> Result<ObjectId, WorldError> {
        let pretest_box = PretestBox::of(&shape);
        let traits = shape.traits();
        let slot = match self.free_slots.pop() {
            Some(slot) => slot,
            None => {
                if self.placed.slots.len() > ObjectId::MAX_SLOT as usize {
                    return Err(WorldError::TooManyObjects(self.placed.slots.len()));
                }
                let p = &mut self.placed;
                p.slots.push(Slot {
                    generation: 1,
                    object: None,
                });
                p.ids.push(None);
                p.traits.push(traits);
                p.pretest_boxes.push(pretest_box);
                p.placements.push(Placement::identity());
                self.users.push(None);
                (p.slots.len() - 1) as u32
            }
        };
        let s = slot as usize;
        let p = &mut self.placed;
        let id = ObjectId::new(p.tag, slot, p.slots[s].generation);
        p.slots[s].object = Some(Object {
            shape,
            matrix: PoseMatrix::identity(),
        });
        p.ids[s] = Some(id);
        p.traits[s] = traits;
        p.pretest_boxes[s] = pretest_box;
        p.placements[s] = Placement::identity();
        self.users[s] = Some(user);
        self.live += 1;
        self.changes.layout_changed();
        self.changes.pose_set(slot);
        Ok(id)
    }

    /// Removes a live object and returns its user data; its handle becomes stale. The slot is
    /// free again at once when `reuse_now`, else after [`ObjectTable::reuse_released_slots`].
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn remove(&mut self, id: ObjectId, reuse_now: bool) -> Result<U, WorldError> {
        self.object(id)?;
        let s = id.slot() as usize;
        let user = self.users[s].take().ok_or(WorldError::InvalidHandle(id))?;
        let slot = &mut self.placed.slots[s];
        slot.object = None;
        slot.generation = ObjectId::next_generation(slot.generation);
        self.placed.ids[s] = None;
        self.live -= 1;
        self.changes.layout_changed();
        if reuse_now {
            self.free_slots.push(id.slot());
        } else {
            self.released_slots.push(id.slot());
        }
        Ok(user)
    }

    /// Makes the slots released since the last call free for new objects (their pair caches are
    /// gone).
    pub fn reuse_released_slots(&mut self) {
        self.free_slots.append(&mut self.released_slots);
    }

    /// Sets a live object's pose.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`].
    pub fn set_pose(&mut self, id: ObjectId, pose: &ObjectPose) -> Result<(), WorldError> {
        if id.world_tag() != self.placed.tag {
            return Err(WorldError::InvalidHandle(id));
        }
        let s = id.slot() as usize;
        let Some(object) = self
            .placed
            .slots
            .get_mut(s)
            .filter(|slot| slot.generation == id.generation())
            .and_then(|slot| slot.object.as_mut())
        else {
            return Err(WorldError::InvalidHandle(id));
        };
        object.matrix = pose.matrix;
        self.placed.placements[s].pose = pose.pose;
        self.changes.pose_set(id.slot());
        Ok(())
    }

    /// Stores the extreme-vertex hints of the object in `slot` found by a box update.
    pub fn set_extreme_hints(&mut self, slot: u32, hints: [u32; 6]) {
        self.placed.placements[slot as usize].extreme_hints = hints;
    }

    /// Checks that the arrays agree: one entry per slot in each, ids exactly for live slots and
    /// naming their slot, generation and the world's tag, user data exactly for live slots, the live count, the
    /// free and released slots empty and listed once, the traits and pre-test boxes made from
    /// the slot's shape.
    ///
    /// # Errors
    /// A description of the first disagreement.
    pub fn validate(&self) -> Result<(), String> {
        let p = &self.placed;
        let n = p.slots.len();
        let lens = [
            p.ids.len(),
            p.traits.len(),
            p.pretest_boxes.len(),
            p.placements.len(),
            self.users.len(),
        ];
        if lens.iter().any(|&len| len != n) {
            return Err(format!("{n} slots but array lengths {lens:?}"));
        }
        let mut listed = vec![false; n];
        for &slot in self.free_slots.iter().chain(&self.released_slots) {
            let s = slot as usize;
            if s >= n || listed[s] || p.slots[s].object.is_some() {
                return Err(format!(
                    "slot {slot} listed free twice, out of range or live"
                ));
            }
            listed[s] = true;
        }
        let mut live = 0;
        for (s, slot) in p.slots.iter().enumerate() {
            match &slot.object {
                Some(object) => {
                    live += 1;
                    let id = ObjectId::new(p.tag, s as u32, slot.generation);
                    if p.ids[s] != Some(id) || self.users[s].is_none() {
                        return Err(format!(
                            "live slot {s}: id {:?}, user data missing",
                            p.ids[s]
                        ));
                    }
                    if p.traits[s] != object.shape.traits() {
                        return Err(format!("live slot {s}: traits differ from its shape's"));
                    }
                }
                None => {
                    if p.ids[s].is_some() || self.users[s].is_some() {
                        return Err(format!("empty slot {s} has an id or user data"));
                    }
                    if !listed[s] {
                        return Err(format!("empty slot {s} is neither free nor released"));
                    }
                }
            }
            if slot.generation == 0 || slot.generation > ObjectId::MAX_GENERATION {
                return Err(format!("slot {s} has generation {}", slot.generation));
            }
        }
        if live != self.live {
            return Err(format!("{live} live slots, count says {}", self.live));
        }
        Ok(())
    }
}
