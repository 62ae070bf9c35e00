//! [`World::check_continuous`], [`World::trace`] and their settings (pipeline: `continuous.rs`).

use std::sync::Arc;
use std::time::Instant;

use colldet_broad::ProxyPair;
use colldet_ccd::SweepShape;
use colldet_geom::WorldAabb;
use colldet_geom::math::Pose;
use rayon::prelude::*;

use crate::box_update::{refresh_world_box, tight_world_aabb};
use crate::continuous::{SweepScratch, SweptObject, ball_reach, grown, pair_contact, swept_box};
use crate::interest::PairKey;
use crate::object_pose::ObjectPose;
use crate::swept_collision::{SweptCallback, SweptContact, TraceHit};
use crate::swept_pairs::{BallPath, ChangedObject};
use crate::{CheckStats, ObjectId, World, WorldError};

/// The continuous check's per-check lists, kept by the world so a warm world does not allocate
/// them again.
#[derive(Default)]
pub(crate) struct SweepBuffers {
    /// The poses to record after the check, with their boxes.
    end_boxes: Vec<(u32, WorldAabb)>,
    /// The objects whose pose changed in this check, with their swept boxes and ball paths
    /// (grown by the expel distance).
    changed: Vec<ChangedObject>,
    candidates: Vec<Candidate>,
}

/// One candidate pair of a continuous check, by slot (in id order; their sweep shapes are built).
struct Candidate {
    slots: [u32; 2],
    /// The start boxes do not overlap: the pair cannot touch at the start.
    starts_apart: bool,
}

impl<U> World<U> {
    /// Sweeps every object moved since the last check (or since [`World::start`]) from its pose
    /// then to its current pose (position linear, orientation by shortest-arc slerp about its
    /// origin; objects added since then do not sweep) and reports every pair that touches at
    /// some fraction of the interval and of which at least one object's pose changed (set to a
    /// different pose, or added; the first check after start counts every object: resting
    /// contacts between unchanged objects are not reported again, as in [`World::check`]),
    /// with its first contact, to the swept callbacks: sorted by id pair, on the calling thread,
    /// identical at any thread count. Returns how many pairs touched. The moved set is consumed
    /// as by [`World::check`]; the discrete callbacks are not called.
    ///
    /// # Errors
    /// [`WorldError::WrongState`] before [`World::start`]; the first failing pair's
    /// [`WorldError::Narrow`] or [`WorldError::Ccd`] (every other pair is still reported).
    // Not inlined: one call per check, and profiles (callgrind's `--toggle-collect`) find it.
    #[inline(never)]
    pub fn check_continuous(&mut self) -> Result<usize, WorldError> {
        if !self.started {
            return Err(WorldError::WrongState("continuous check before start"));
        }
        self.checks += 1;
        let broad_start = Instant::now();
        let mut buffers = std::mem::take(&mut self.sweep_buffers);
        let result = self.sweep_moved(&mut buffers, broad_start);
        buffers.end_boxes.clear();
        buffers.changed.clear();
        buffers.candidates.clear();
        self.sweep_buffers = buffers;
        result
    }

    /// [`World::check_continuous`] after its state check, with the world's lists.
    fn sweep_moved(
        &mut self,
        buffers: &mut SweepBuffers,
        broad_start: Instant,
    ) -> Result<usize, WorldError> {
        let SweepBuffers {
            end_boxes,
            changed,
            candidates,
        } = buffers;
        // The first check after start reports every touching pair, as `check` does.
        let first = self.checks == self.checks_at_start + 1;
        for &slot in self.moved.slots() {
            if self.objects.placed().id(slot).is_none() {
                continue;
            }
            let to = self.objects.object_pose(slot);
            let from = self.continuous.from(slot).copied();
            let at_rest = from == Some(to);
            // At rest: the box recorded with the pose is the box now.
            let recorded = self.continuous.recorded_box(slot).filter(|_| at_rest);
            let Some(end_box) = recorded.or_else(|| refresh_world_box(&mut self.objects, slot))
            else {
                continue;
            };
            if first || !at_rest {
                let s = slot as usize;
                if self.really_moved.len() <= s {
                    self.really_moved.resize(s + 1, 0);
                }
                self.really_moved[s] = self.checks;
            }
            let (swept, start_box, path) = match from {
                Some(from) if !at_rest => {
                    let (shape, _, mut hints) =
                        self.objects.placed().shape_and_hints(slot).expect("live");
                    // The last continuous check's end box is this one's start box.
                    let start_box = self
                        .continuous
                        .recorded_box(slot)
                        .unwrap_or_else(|| tight_world_aabb(shape, &from.matrix, &mut hints));
                    let radius = f64::from(shape.radius());
                    let (p, q) = (from.matrix.translation(), to.matrix.translation());
                    let reach = ball_reach(radius, p, q) + self.expel_distance;
                    (
                        swept_box(&start_box, &end_box, &from, &to, radius),
                        start_box,
                        BallPath::new(p, q, reach),
                    )
                }
                _ => (end_box, end_box, None),
            };
            self.continuous.set_start_box(slot, self.checks, start_box);
            if first || !at_rest {
                // Grown by the expel distance: a pair whose zones touch is a candidate.
                changed.push(ChangedObject {
                    slot,
                    swept: grown(&swept, self.expel_distance),
                    path,
                });
            }
            // The discrete check's box: grown by the tolerance margin (`tolerance.rs`).
            self.broad
                .update(slot, &self.tolerances.grown_box(slot, &end_box))?;
            // An object at rest with its box recorded keeps its record as it is (recording its
            // pose and box again would change nothing).
            if recorded.is_none() {
                end_boxes.push((slot, end_box));
            }
        }
        let (checks, really_moved) = (self.checks, &self.really_moved);
        // Changed objects whose groups exclude each other (fast movers among walls, say) are
        // not paired among themselves.
        let among = self.groups.may_admit_among(changed.iter().map(|c| c.slot));
        self.continuous.find_pairs(
            changed,
            among,
            |s| really_moved.get(s as usize) == Some(&checks),
            self.objects.placed(),
            self.objects.slot_count(),
            self.expel_distance,
            &mut self.pairs,
        );
        let pairs = std::mem::take(&mut self.pairs);
        let listed = self.list_candidates(&pairs, candidates);
        self.pairs = pairs;
        listed?;
        let broad_time = broad_start.elapsed();

        let narrow_start = Instant::now();
        let method = self.config.method;
        let expel = self.expel_distance;
        let objects = self.objects.placed();
        let continuous = &self.continuous;
        let run = |c: &Candidate, scratch: &mut SweepScratch| {
            let side = |k: usize| {
                let slot = c.slots[k];
                let p = objects.placed(slot);
                let sweep = continuous.sweep_of(slot).expect("built by list_candidates");
                (slot, objects.id(slot).expect("live"), p.shape, sweep)
            };
            let (sa, ia, shape_a, sweep_a) = side(0);
            let (sb, ib, shape_b, sweep_b) = side(1);
            let (to_a, to_b) = (objects.object_pose(sa), objects.object_pose(sb));
            let from_a = continuous.from(sa).copied().unwrap_or(to_a);
            let from_b = continuous.from(sb).copied().unwrap_or(to_b);
            pair_contact(
                method,
                c.starts_apart,
                expel,
                &SweptObject {
                    id: ia,
                    shape: shape_a,
                    sweep: sweep_a,
                    from: &from_a,
                    to: &to_a,
                },
                &SweptObject {
                    id: ib,
                    shape: shape_b,
                    sweep: sweep_b,
                    from: &from_b,
                    to: &to_b,
                },
                scratch,
            )
        };
        // The failure of the pair first in slot order (candidates come in no particular order).
        let mut first_failure: Option<([u32; 2], WorldError)> = None;
        let mut keep = |c: &Candidate,
                        r: Result<Option<SweptContact>, WorldError>,
                        out: &mut Vec<SweptContact>| match r {
            Ok(Some(c)) => out.push(c),
            Ok(None) => {}
            Err(e) => {
                let key = [c.slots[0].min(c.slots[1]), c.slots[0].max(c.slots[1])];
                if first_failure.as_ref().is_none_or(|(k, _)| key < *k) {
                    first_failure = Some((key, e));
                }
            }
        };
        self.last_swept.clear();
        match &self.pool {
            Some(pool) if candidates.len() > 1 => {
                let results: Vec<_> = pool.install(|| {
                    candidates
                        .par_iter()
                        .map_init(SweepScratch::default, |s, c| run(c, s))
                        .collect()
                });
                for (c, r) in candidates.iter().zip(results) {
                    keep(c, r, &mut self.last_swept);
                }
            }
            _ => {
                let scratch = &mut self.sweep_scratch;
                for c in candidates.iter() {
                    keep(c, run(c, scratch), &mut self.last_swept);
                }
            }
        }
        self.last_swept.sort_by_key(|c| (c.a, c.b));
        let narrow_time = narrow_start.elapsed();

        for &(slot, end_box) in end_boxes.iter() {
            let pose = self.objects.object_pose(slot);
            self.continuous.record_with_box(slot, pose, Some(end_box));
        }
        let mut deferred = std::mem::take(&mut self.deferred_moves);
        self.swept_callbacks
            .report(&self.last_swept, &self.objects, &mut deferred);
        // The time-to-collision schedule's odometers see every move (`motion_bound.rs`).
        self.schedule
            .motion
            .update(self.moved.slots(), self.objects.placed(), self.checks);
        // The discrete check's contacts of these objects are tested again by the next check.
        self.contacts.note_retest(self.moved.slots());
        self.moved.clear();
        for (id, pose) in deferred.drain(..) {
            if self.objects.set_pose(id, &pose).is_ok() {
                self.moved.mark(id.slot());
            }
        }
        self.deferred_moves = deferred;
        let reported = self.last_swept.len();
        self.stats = CheckStats {
            broad_ms: broad_time.as_secs_f64() * 1e3,
            narrow_ms: narrow_time.as_secs_f64() * 1e3,
            overlapping_pairs: candidates.len(),
            colliding_pairs: reported,
            ..CheckStats::default()
        };
        match first_failure {
            Some((_, e)) => Err(e),
            None => Ok(reported),
        }
    }

    /// Sets the expel distance `e` of the continuous queries (world units; 0, the default,
    /// switches the zone off): [`World::check_continuous`] and the traces stop a translating
    /// pair where a feature reaches the other body's expel zone, and a feature starting in the
    /// zone may only move away (seed section 3). Not applied to pairs in which an orientation
    /// changes (the general sweep): see `docs/ccd.md`.
    ///
    /// # Errors
    /// [`WorldError::InvalidConfig`] for a negative, NaN or infinite `e`.
    pub fn set_expel_distance(&mut self, e: f64) -> Result<(), WorldError> {
        if !(e.is_finite() && e >= 0.0) {
            return Err(WorldError::InvalidConfig(
                "the expel distance must be finite and non-negative",
            ));
        }
        self.expel_distance = e;
        Ok(())
    }

    /// The expel distance of the continuous queries.
    pub fn expel_distance(&self) -> f64 {
        self.expel_distance
    }

    /// The pairs the last continuous check reported, sorted by id pair.
    pub fn last_swept_contacts(&self) -> &[SweptContact] {
        &self.last_swept
    }

    /// Gives the pair `{a, b}` its own continuous-collision callback (replacing the general one
    /// for it). It is dropped when either object is removed.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`], [`WorldError::SameObject`].
    pub fn set_swept_callback(
        &mut self,
        a: ObjectId,
        b: ObjectId,
        callback: SweptCallback<U>,
    ) -> Result<(), WorldError> {
        let key = self.pair_key(a, b)?;
        self.swept_callbacks.set_pair(key, callback);
        Ok(())
    }

    /// Sets the continuous-collision callback for pairs without their own.
    pub fn set_general_swept_callback(&mut self, callback: SweptCallback<U>) {
        self.swept_callbacks.set_general(callback);
    }

    /// Traces object `id` from its current pose to `end` (motion (d): position linear,
    /// orientation by shortest-arc slerp about its origin) against every other object at its
    /// current pose, and returns the first contact, or `None` when the way is free. Objects whose
    /// interest with `id` is off are ignored. A trace that starts in contact returns fraction 0
    /// with `initially_touching` set. The world is not changed (the object is not moved).
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`], [`WorldError::InvalidTransform`] for a bad `end`, and the
    /// pair tests' failures.
    pub fn trace(&mut self, id: ObjectId, end: &Pose) -> Result<Option<TraceHit>, WorldError> {
        let end = ObjectPose::new(end)?;
        Ok(self.trace_all(id, &end)?.into_iter().next())
    }

    /// As [`World::trace`] with the end pose as a column-major 4x4 matrix (checked as
    /// [`World::set_transform_matrix`] checks it).
    ///
    /// # Errors
    /// As [`World::trace`].
    pub fn trace_matrix(
        &mut self,
        id: ObjectId,
        end: &[f64; 16],
    ) -> Result<Option<TraceHit>, WorldError> {
        let end = ObjectPose::from_column_major(end)?;
        Ok(self.trace_all(id, &end)?.into_iter().next())
    }

    /// Every object the trace of `id` to `end` touches (the seed's contact list), each with its
    /// first contact, sorted by lower fraction then id.
    ///
    /// # Errors
    /// As [`World::trace`].
    pub fn trace_contacts(
        &mut self,
        id: ObjectId,
        end: &Pose,
    ) -> Result<Vec<TraceHit>, WorldError> {
        let end = ObjectPose::new(end)?;
        self.trace_all(id, &end)
    }

    fn trace_all(&mut self, id: ObjectId, end: &ObjectPose) -> Result<Vec<TraceHit>, WorldError> {
        self.objects.check_live(id)?;
        let slot = id.slot();
        let from = self.objects.object_pose(slot);
        let (shape, _, mut hints) = self.objects.placed().shape_and_hints(slot).expect("live");
        let radius = f64::from(shape.radius());
        let start_box = tight_world_aabb(shape, &from.matrix, &mut hints);
        let end_box = tight_world_aabb(shape, &end.matrix, &mut hints);
        let swept = grown(
            &swept_box(&start_box, &end_box, &from, end, radius),
            self.expel_distance,
        );
        let sweep = self.sweep_shape_of(slot)?;
        let mut hits = Vec::new();
        for other in 0..self.objects.slot_count() {
            let Some(other_id) = self.objects.placed().id(other) else {
                continue;
            };
            if other == slot
                || !self.groups.admits(slot, other)
                || self.interest.get(&PairKey::new(id, other_id)).uninterested
            {
                continue;
            }
            let other_sweep = self.sweep_shape_of(other)?;
            let (other_shape, other_pose, mut other_hints) =
                self.objects.placed().shape_and_hints(other).expect("live");
            let other_box = tight_world_aabb(other_shape, other_pose, &mut other_hints);
            if !swept.overlaps(&other_box) {
                continue;
            }
            let here = self.objects.object_pose(other);
            let placed = self.objects.placed();
            let found = pair_contact(
                self.config.method,
                false,
                self.expel_distance,
                &SweptObject {
                    id,
                    shape: placed.placed(slot).shape,
                    sweep: &sweep,
                    from: &from,
                    to: end,
                },
                &SweptObject {
                    id: other_id,
                    shape: other_shape,
                    sweep: &other_sweep,
                    from: &here,
                    to: &here,
                },
                &mut self.sweep_scratch,
            )?;
            if let Some(c) = found {
                let motion = crate::continuous::interpolated(&from, end)?;
                let p = motion.pose_at(c.contact.toi.lo);
                hits.push(TraceHit {
                    hit: other_id,
                    contact: c.contact,
                    pose: crate::continuous::to_pose(&p),
                });
            }
        }
        hits.sort_by(|x, y| {
            x.contact
                .toi
                .lo
                .total_cmp(&y.contact.toi.lo)
                .then(x.hit.cmp(&y.hit))
        });
        Ok(hits)
    }

    /// The candidate pairs among `pairs`: a pose changed, interest on; in id order within each
    /// pair, with their sweep shapes built and whether their start boxes are apart.
    ///
    /// # Errors
    /// [`WorldError::Ccd`] for a geometry that cannot be swept.
    fn list_candidates(
        &mut self,
        pairs: &[ProxyPair],
        candidates: &mut Vec<Candidate>,
    ) -> Result<(), WorldError> {
        for pair in pairs {
            let (sa, sb) = (pair.0.min(pair.1), pair.0.max(pair.1));
            let changed = |slot: u32| self.really_moved.get(slot as usize) == Some(&self.checks);
            if !(changed(sa) || changed(sb)) || !self.groups.admits(sa, sb) {
                continue;
            }
            let placed = self.objects.placed();
            let (Some(ia), Some(ib)) = (placed.id(sa), placed.id(sb)) else {
                continue;
            };
            if self.interest.both_have_settings(sa, sb)
                && self.interest.get(&PairKey::new(ia, ib)).uninterested
            {
                continue;
            }
            let (ka, kb) = if ia < ib { (sa, sb) } else { (sb, sa) };
            self.build_sweep_shape(ka)?;
            self.build_sweep_shape(kb)?;
            let ba = self.start_box_of(ka);
            let bb = self.start_box_of(kb);
            candidates.push(Candidate {
                slots: [ka, kb],
                starts_apart: !ba.overlaps(&bb),
            });
        }
        Ok(())
    }

    /// The world box of the object in `slot` at its pose at the last check (computed once per
    /// check).
    fn start_box_of(&mut self, slot: u32) -> WorldAabb {
        if let Some(b) = self.continuous.start_box(slot, self.checks) {
            return b;
        }
        let (shape, pose, mut hints) = self.objects.placed().shape_and_hints(slot).expect("live");
        let from = self.continuous.from(slot).map_or(pose, |f| &f.matrix);
        let b = tight_world_aabb(shape, from, &mut hints);
        self.continuous.set_start_box(slot, self.checks, b);
        b
    }

    /// Builds the sweep shape of the object in `slot` unless it is.
    fn build_sweep_shape(&mut self, slot: u32) -> Result<(), WorldError> {
        if self.continuous.sweep_of(slot).is_none() {
            self.sweep_shape_of(slot)?;
        }
        Ok(())
    }

    /// The sweep shape of the object in `slot`, built on first use.
    fn sweep_shape_of(&mut self, slot: u32) -> Result<Arc<SweepShape>, WorldError> {
        let id = self.objects.placed().id(slot).expect("live");
        let shape = Arc::clone(self.objects.shape(id)?);
        self.continuous.sweep_shape(slot, &shape)
    }
}
