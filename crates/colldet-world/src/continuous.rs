//! The continuous check and the trace: each moved object sweeps from its pose at the last check
//! to its current pose (motion (d) of `colldet_ccd`: position linear, orientation by slerp about
//! the object's origin), and every pair that touches at some fraction of the interval is reported
//! with its first contact.
//!
//! Per candidate pair (swept boxes overlap, at least one object moved, interest on):
//! 1. the discrete exact test at the start poses: a pair already touching reports fraction 0;
//! 2. else the sweep, in relative motion: both orientations unchanged → the exact translational
//!    sweep (`colldet_ccd::sweep_translation`), otherwise the certified general sweep
//!    (`colldet_ccd::sweep_general`);
//! 3. for a pair that touched, the discrete test at the end poses, which says whether the
//!    discrete check sees the pair too (not needed when the translational sweep certified the
//!    bodies apart at its end, `TranslationWorkspace::apart_at_end`).
//!
//! The sweep alone decides whether a pair separated at the start touches: a pair the discrete
//! test would call touching at the end only inside its touching band (not exactly) is not
//! reported.
//!
//! The expel distance `e` ([`crate::World::set_expel_distance`]) goes to the translational sweep
//! (`colldet_ccd::translation_sweep::sweep_translation_with`): a translating pair stops where a
//! feature reaches the other body's expel zone (seed section 3), and a feature starting in the
//! zone may only move away (fraction 0 otherwise, `initially_touching` false: the surfaces do not
//! touch). It is not applied on the general sweep (a pair in which an orientation changes): that
//! answer is the exact first contact of the surfaces, whatever `e`.

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use colldet_broad::ProxyPair;

use colldet_ccd::translation_sweep::{TranslationOptions, sweep_translation_with};
use colldet_ccd::{
    BodyMotion, CcdError, ContactKind, GeneralSweepOptions, GeneralSweepWorkspace, Motion,
    RigidPose, SweepContact, SweepShape, TimeOfImpact, TranslationWorkspace, sweep_general_with,
};
use colldet_geom::WorldAabb;
use colldet_geom::math::{PointD, VectorD};
use colldet_narrow::dispatch::NO_FEATURE;
use colldet_narrow::{Method, PairCache, PairKind, PairScratch, PlacedShape, PreparedShape};

use rayon::prelude::*;

use crate::box_update::tight_world_aabb;
use crate::moved_set::MovedSet;
use crate::object_pose::ObjectPose;
use crate::object_table::PlacedObjects;
use crate::swept_collision::SweptContact;
use crate::swept_pairs::{BallPath, ChangedObject, SweptPairs};
use crate::{ObjectId, WorldError};

/// Fewest moved objects whose poses a check records on the pool (a record copies about 200
/// bytes: on broad-100k the serial loop was 16 M of the 27 M instructions a two-thread check ran
/// outside the pool).
const PARALLEL_RECORDS: usize = 4096;

/// Slots per piece of work when the records are made on the pool.
const RECORD_CHUNK: usize = 2048;

/// Per-slot state of the continuous queries, kept by the world.
#[derive(Default)]
pub(crate) struct ContinuousState {
    /// Each slot's pose at the last check (`None` for an object added since).
    from: Vec<Option<ObjectPose>>,
    /// Each slot's tight world box at that pose, when the last continuous check computed it (its
    /// end box then, the next check's start box).
    from_boxes: Vec<Option<WorldAabb>>,
    /// Each slot's sweep shape, built on first use and shared between instances.
    sweeps: Vec<Option<Arc<SweepShape>>>,
    by_shape: HashMap<usize, Weak<SweepShape>>,
    /// Each slot's box at its start pose, stamped with the check that computed it.
    start_boxes: Vec<(u64, WorldAabb)>,
    /// The continuous check's broad phase, told of every recorded pose change
    /// (`swept_pairs.rs`).
    pairs: SweptPairs,
    /// Per slot, whether [`ContinuousState::record_moved`]'s pool pass changed its recorded
    /// pose (kept for its capacity).
    changed: Vec<bool>,
}

impl ContinuousState {
    /// Records the current pose of `slot` as its pose at the last check.
    pub fn record(&mut self, slot: u32, pose: ObjectPose) {
        self.record_with_box(slot, pose, None);
    }

    /// Records, as its pose at the last check, the pose of each live object in `moved` but not in
    /// `unchanged` (a retest: its pose did not change, so its record and the box kept with it
    /// stand). With a pool, at least [`PARALLEL_RECORDS`] moved objects and at least a quarter
    /// of the slots moved, the slots are scanned in chunks on the pool (each chunk writes only
    /// its own slots); the records are the same either way.
    pub fn record_moved(
        &mut self,
        moved: &MovedSet,
        unchanged: &MovedSet,
        placed: &PlacedObjects,
        pool: Option<&rayon::ThreadPool>,
    ) {
        let slots = moved.slots();
        let n = placed.ids().len();
        let records = |slot: u32| placed.id(slot).is_some() && !unchanged.contains(slot);
        if self.from.len() < n {
            self.from.resize(n, None);
            self.from_boxes.resize(n, None);
        }
        let dense = slots.len() >= PARALLEL_RECORDS && 4 * slots.len() >= n;
        let Some(pool) = pool.filter(|_| dense) else {
            for &slot in slots {
                let s = slot as usize;
                if records(slot)
                    && record_in_place(&mut self.from[s], &mut self.from_boxes[s], placed, slot)
                {
                    self.pairs.invalidate(slot);
                }
            }
            return;
        };
        self.changed.clear();
        self.changed.resize(n, false);
        let (from, boxes) = (&mut self.from[..n], &mut self.from_boxes[..n]);
        let changed = &mut self.changed[..];
        pool.install(|| {
            from.par_chunks_mut(RECORD_CHUNK)
                .zip(boxes.par_chunks_mut(RECORD_CHUNK))
                .zip(changed.par_chunks_mut(RECORD_CHUNK))
                .enumerate()
                .for_each(|(chunk, ((from, boxes), changed))| {
                    let first = chunk * RECORD_CHUNK;
                    let entries = from.iter_mut().zip(boxes).zip(changed);
                    for (k, ((f, b), c)) in entries.enumerate() {
                        let slot = (first + k) as u32;
                        if moved.contains(slot) && records(slot) {
                            *c = record_in_place(f, b, placed, slot);
                        }
                    }
                });
        });
        // The continuous check's index learns of the changed poses as `record` tells it.
        for &slot in slots {
            if self.changed[slot as usize] {
                self.pairs.invalidate(slot);
            }
        }
    }

    /// [`ContinuousState::record`], with the tight world box at `pose` when it is known.
    pub fn record_with_box(&mut self, slot: u32, pose: ObjectPose, world_box: Option<WorldAabb>) {
        let s = slot as usize;
        if self.from.len() <= s {
            self.from.resize(s + 1, None);
            self.from_boxes.resize(s + 1, None);
        }
        if self.from[s] != Some(pose) {
            self.pairs.invalidate(slot);
        }
        self.from[s] = Some(pose);
        self.from_boxes[s] = world_box;
    }

    /// The pairs of the continuous check ([`SweptPairs::find`]): `changed` lists the objects
    /// whose pose changed in this check with their swept boxes and ball paths grown by `expel`
    /// (`among` false: no two of them may pair), `is_changed`
    /// tells them by slot. An object at rest has its recorded box (or its tight box at its
    /// pose, which is its recorded pose), grown by `expel`.
    #[allow(clippy::too_many_arguments)]
    pub fn find_pairs(
        &mut self,
        changed: &[ChangedObject],
        among: bool,
        is_changed: impl Fn(u32) -> bool,
        placed: &PlacedObjects,
        slot_count: u32,
        expel: f64,
        out: &mut Vec<ProxyPair>,
    ) {
        let from_boxes = &self.from_boxes;
        let resting_box = |slot: u32| {
            if is_changed(slot) {
                return None;
            }
            let (shape, pose, mut hints) = placed.shape_and_hints(slot)?;
            let b = from_boxes
                .get(slot as usize)
                .copied()
                .flatten()
                .unwrap_or_else(|| tight_world_aabb(shape, pose, &mut hints));
            Some(grown(&b, expel))
        };
        // The path against the object's box in its own frame (grown by the expel distance).
        let oriented = |path: &BallPath, slot: u32, _: &WorldAabb| {
            let p = placed.placed(slot);
            let rounding = p.shape.vertex_rounding() + expel;
            let m = p.matrix;
            path.may_meet_oriented(
                p.shape.local_aabb(),
                rounding,
                m.rotation(),
                m.translation(),
            )
        };
        self.pairs.find(
            changed,
            among,
            &is_changed,
            resting_box,
            oriented,
            expel,
            slot_count,
            out,
        );
    }

    /// The tight world box of `slot` at its recorded pose, when known.
    pub fn recorded_box(&self, slot: u32) -> Option<WorldAabb> {
        self.from_boxes.get(slot as usize).copied().flatten()
    }

    /// Forgets a slot (its object was removed or the slot is reused).
    pub fn forget(&mut self, slot: u32) {
        self.pairs.invalidate(slot);
        if let Some(f) = self.from.get_mut(slot as usize) {
            *f = None;
        }
        if let Some(b) = self.from_boxes.get_mut(slot as usize) {
            *b = None;
        }
        if let Some(s) = self.sweeps.get_mut(slot as usize) {
            *s = None;
        }
    }

    /// Remembers `slot`'s start box for check number `check`.
    pub fn set_start_box(&mut self, slot: u32, check: u64, b: WorldAabb) {
        let s = slot as usize;
        if self.start_boxes.len() <= s {
            self.start_boxes.resize(s + 1, (0, b));
        }
        self.start_boxes[s] = (check, b);
    }

    /// `slot`'s start box if computed during check number `check`.
    pub fn start_box(&self, slot: u32, check: u64) -> Option<WorldAabb> {
        self.start_boxes
            .get(slot as usize)
            .filter(|(c, _)| *c == check)
            .map(|(_, b)| *b)
    }

    /// The sweep shape of `slot` when built.
    pub fn sweep_of(&self, slot: u32) -> Option<&SweepShape> {
        self.sweeps.get(slot as usize)?.as_deref()
    }

    /// The pose of `slot` at the last check.
    pub fn from(&self, slot: u32) -> Option<&ObjectPose> {
        self.from.get(slot as usize)?.as_ref()
    }

    /// The sweep shape of the object in `slot` with geometry `shape`, built once per geometry.
    ///
    /// # Errors
    /// [`WorldError::Ccd`] when the geometry cannot be swept.
    pub fn sweep_shape(
        &mut self,
        slot: u32,
        shape: &Arc<PreparedShape>,
    ) -> Result<Arc<SweepShape>, WorldError> {
        let s = slot as usize;
        if let Some(Some(sweep)) = self.sweeps.get(s) {
            return Ok(Arc::clone(sweep));
        }
        let key = Arc::as_ptr(shape) as usize;
        let sweep = match self.by_shape.get(&key).and_then(Weak::upgrade) {
            Some(sweep) => sweep,
            None => {
                let sweep = Arc::new(SweepShape::new(shape.polyhedron())?);
                self.by_shape.retain(|_, w| w.strong_count() > 0);
                self.by_shape.insert(key, Arc::downgrade(&sweep));
                sweep
            }
        };
        if self.sweeps.len() <= s {
            self.sweeps.resize(s + 1, None);
        }
        self.sweeps[s] = Some(Arc::clone(&sweep));
        Ok(sweep)
    }
}

/// One object of a candidate pair: geometry, sweep shape, and poses at both ends.
pub(crate) struct SweptObject<'a> {
    pub id: ObjectId,
    pub shape: &'a PreparedShape,
    pub sweep: &'a SweepShape,
    pub from: &'a ObjectPose,
    pub to: &'a ObjectPose,
}

impl SweptObject<'_> {
    fn placed_at<'p>(&'p self, pose: &'p ObjectPose) -> PlacedShape<'p> {
        PlacedShape {
            shape: self.shape,
            pose: &pose.pose,
            matrix: &pose.matrix,
        }
    }

    fn translates(&self) -> bool {
        self.from.matrix.rotation() == self.to.matrix.rotation()
    }

    /// The motion from `from` to `to`: motion (d), given in its simplest form (a body at rest,
    /// a translation) when the poses allow, which the sweeps enclose more tightly.
    fn motion(&self) -> Result<BodyMotion, CcdError> {
        let start = rigid(self.from);
        if self.from.matrix == self.to.matrix {
            return Ok(BodyMotion::stationary(start));
        }
        let motion = if self.translates() {
            Motion::Translation {
                d: self.to.matrix.translation() - self.from.matrix.translation(),
            }
        } else {
            Motion::Interpolated {
                end: rigid(self.to),
            }
        };
        BodyMotion::new(start, motion)
    }
}

/// The `colldet_ccd` form of a world pose: the matrix the convex tests use.
pub(crate) fn rigid(pose: &ObjectPose) -> RigidPose {
    RigidPose::new(*pose.matrix.rotation(), *pose.matrix.translation())
}

/// Per-thread buffers of the pair sweeps.
#[derive(Default)]
pub(crate) struct SweepScratch {
    pair: PairScratch,
    translation: TranslationWorkspace,
    general: GeneralSweepWorkspace,
}

/// The first contact of `a` (moving relative to `b`) during the interval, or `None` (module
/// docs for the steps). `starts_apart` says that the caller knows the pair separated at the start
/// (their start boxes do not overlap): the start test is skipped. `expel` is the world's expel
/// distance (translational pairs only, module docs).
///
/// # Errors
/// A failed discrete test or sweep ([`WorldError::Narrow`], [`WorldError::Ccd`]).
pub(crate) fn pair_contact(
    method: Method,
    starts_apart: bool,
    expel: f64,
    a: &SweptObject<'_>,
    b: &SweptObject<'_>,
    scratch: &mut SweepScratch,
) -> Result<Option<SweptContact>, WorldError> {
    let kind = PairKind::of(method, a.shape.traits(), b.shape.traits());
    let narrow = |e| WorldError::Narrow {
        a: a.id,
        b: b.id,
        source: e,
    };
    let start = if starts_apart {
        None
    } else {
        let mut cache = PairCache::default();
        colldet_narrow::test_pair(
            kind,
            &a.placed_at(a.from),
            &b.placed_at(b.from),
            &mut cache,
            &mut scratch.pair,
        )
        .map_err(narrow)?
        .witness
    };
    let mut touching_at_end = || -> Result<bool, WorldError> {
        let mut cache = PairCache::default();
        let end = colldet_narrow::test_pair(
            kind,
            &a.placed_at(a.to),
            &b.placed_at(b.to),
            &mut cache,
            &mut scratch.pair,
        )
        .map_err(narrow)?;
        Ok(end.witness.is_some())
    };
    if let Some(w) = start {
        let contact = SweepContact {
            toi: TimeOfImpact::exact(0.0),
            kind: ContactKind::VertexFace,
            feature_moving: NO_FEATURE,
            feature_hit: NO_FEATURE,
            point: w.point,
            normal: VectorD::zeros(),
            initially_touching: true,
        };
        return Ok(Some(SweptContact {
            a: a.id,
            b: b.id,
            contact,
            touching_at_end: touching_at_end()?,
        }));
    }
    let translational = a.translates() && b.translates();
    let swept = if translational {
        let d_a = a.to.matrix.translation() - a.from.matrix.translation();
        let d_b = b.to.matrix.translation() - b.from.matrix.translation();
        sweep_translation_with(
            a.sweep,
            &rigid(a.from),
            &d_a,
            b.sweep,
            &rigid(b.from),
            &d_b,
            &TranslationOptions { expel },
            &mut scratch.translation,
        )
    } else {
        sweep_general_with(
            a.sweep,
            &a.motion()?,
            b.sweep,
            &b.motion()?,
            &GeneralSweepOptions::default(),
            &mut scratch.general,
        )?
    };
    let Some(contact) = swept else {
        return Ok(None);
    };
    // A translational sweep that certified the bodies apart at its end answers for the end test.
    let apart_at_end = translational && scratch.translation.apart_at_end();
    Ok(Some(SweptContact {
        a: a.id,
        b: b.id,
        contact,
        touching_at_end: !apart_at_end && touching_at_end()?,
    }))
}

/// A box containing the object over the whole interval: the union of its end boxes when its
/// orientation does not change (exact for a translating body), else the box of its origin's
/// path grown by its radius about the origin.
pub(crate) fn swept_box(
    from_box: &WorldAabb,
    to_box: &WorldAabb,
    from: &ObjectPose,
    to: &ObjectPose,
    radius: f64,
) -> WorldAabb {
    if from.matrix.rotation() == to.matrix.rotation() {
        return WorldAabb::new(
            from_box.mins.inf(&to_box.mins),
            from_box.maxs.sup(&to_box.maxs),
        );
    }
    let (p, q) = (from.matrix.translation(), to.matrix.translation());
    let r = ball_reach(radius, p, q);
    WorldAabb::new(
        PointD::from(p.inf(q).add_scalar(-r)),
        PointD::from(p.sup(q).add_scalar(r)),
    )
}

/// The radius of a ball about the object's origin that holds the object at every fraction of
/// motion (d) from origin `p` to `q` (world frame): its bounding radius `radius` about the origin
/// (any orientation) widened by the rounding of the vertices' world coordinates.
pub(crate) fn ball_reach(radius: f64, p: &VectorD, q: &VectorD) -> f64 {
    radius * (1.0 + 1e-12) + f64::EPSILON * (p.abs().max() + q.abs().max())
}

/// Motion (d) from `from` to `to`.
///
/// # Errors
/// [`WorldError::Ccd`] for a non-finite pose (the world's poses are checked already).
pub(crate) fn interpolated(from: &ObjectPose, to: &ObjectPose) -> Result<BodyMotion, WorldError> {
    Ok(BodyMotion::new(
        rigid(from),
        Motion::Interpolated { end: rigid(to) },
    )?)
}

/// A `colldet_ccd` pose as a world pose (quaternion from the rotation matrix).
pub(crate) fn to_pose(p: &RigidPose) -> colldet_geom::math::Pose {
    let rot = nalgebra::Rotation3::from_matrix(&p.rot);
    colldet_geom::math::Pose::from_parts(
        nalgebra::Translation3::from(p.trans),
        nalgebra::UnitQuaternion::from_rotation_matrix(&rot),
    )
}

/// `b` grown by `e` on every side (`e = 0`: `b` itself): the reach of a body's expel zone.
pub(crate) fn grown(b: &WorldAabb, e: f64) -> WorldAabb {
    if e == 0.0 {
        return *b;
    }
    WorldAabb::new(
        PointD::from(b.mins.coords.add_scalar(-e)),
        PointD::from(b.maxs.coords.add_scalar(e)),
    )
}

/// Writes the current pose of the live object in `slot` into its record `from` (in place, without
/// building the record first) and clears its recorded box; returns whether the recorded pose
/// changed.
#[inline]
fn record_in_place(
    from: &mut Option<ObjectPose>,
    from_box: &mut Option<WorldAabb>,
    placed: &PlacedObjects,
    slot: u32,
) -> bool {
    let p = placed.placed(slot);
    *from_box = None;
    match from {
        Some(old) if old.pose == *p.pose && old.matrix == *p.matrix => false,
        Some(old) => {
            (old.pose, old.matrix) = (*p.pose, *p.matrix);
            true
        }
        None => {
            *from = Some(ObjectPose {
                pose: *p.pose,
                matrix: *p.matrix,
            });
            true
        }
    }
}
