//! Tolerances of the world's check: a default for every pair and an own tolerance per pair (kept
//! in the interest matrix's pair settings, [`crate::interest::PairState::tolerance`]), and the
//! widening of the broad phase's boxes that lets no pair within its tolerance go unseen.
//!
//! Rationale: a pair `{a, b}` with tolerance `t` is within it when the objects are at most `t`
//! apart, and then their tight world boxes are at most `t` apart on every axis. Each object's
//! box enters the broad phase grown by its *margin*, half the largest tolerance of any of its
//! pairs (`max(default, largest own tolerance of its pairs) / 2`), so the two grown boxes
//! overlap (closed boxes) and the broad phase lists the pair. The tight boxes' own margin
//! ([`crate::box_update::TIGHT_BOX_MARGIN`] times the radius) absorbs the rounding of the
//! growth. With every tolerance 0 (the default) the margins are 0 and the boxes are unchanged.
//!
//! Each object's largest own tolerance is kept per slot (raised in O(1); lowered or dropped with
//! one pass over the pair settings), so the box update reads one number per moved object.

use crate::continuous::grown;
use crate::interest::PairKey;
use crate::{MAX_COORDINATE, Method, ObjectId, World, WorldError};
use colldet_geom::WorldAabb;

/// The world's tolerance settings besides the per-pair values in the interest matrix.
#[derive(Default)]
pub(crate) struct Tolerances {
    /// The tolerance of pairs without their own (world units; 0: only touching pairs).
    default: f64,
    /// Per slot, the largest own tolerance of the pairs of its object (0 when none).
    own_max: Vec<f64>,
    /// Slots whose `own_max` is above 0.
    slots_with_own: usize,
}

impl Tolerances {
    /// The tolerance of pairs without their own.
    pub fn default_tolerance(&self) -> f64 {
        self.default
    }

    /// True when some pair may have a tolerance above 0 (else a check reports no near pair).
    pub fn active(&self) -> bool {
        self.default > 0.0 || self.slots_with_own > 0
    }

    /// How far the box of the object in `slot` is grown: half its pairs' largest tolerance.
    #[inline]
    pub fn margin(&self, slot: u32) -> f64 {
        let own = self.own_max.get(slot as usize).copied().unwrap_or(0.0);
        0.5 * self.default.max(own)
    }

    /// `aabb`, the tight world box of the object in `slot`, grown by its margin (itself when
    /// the margin is 0).
    #[inline]
    pub fn grown_box(&self, slot: u32, aabb: &WorldAabb) -> WorldAabb {
        grown(aabb, self.margin(slot))
    }

    fn set_own_max(&mut self, slot: u32, value: f64) {
        let s = slot as usize;
        if self.own_max.len() <= s {
            self.own_max.resize(s + 1, 0.0);
        }
        let was = std::mem::replace(&mut self.own_max[s], value) > 0.0;
        match (was, value > 0.0) {
            (false, true) => self.slots_with_own += 1,
            (true, false) => self.slots_with_own -= 1,
            _ => {}
        }
    }

    fn own_max(&self, slot: u32) -> f64 {
        self.own_max.get(slot as usize).copied().unwrap_or(0.0)
    }
}

/// Checks a tolerance given by the caller.
fn checked(tolerance: f64) -> Result<f64, WorldError> {
    if tolerance.is_nan() || tolerance < 0.0 {
        return Err(WorldError::InvalidArgument(
            "the tolerance must be non-negative (not NaN)",
        ));
    }
    if tolerance > MAX_COORDINATE {
        return Err(WorldError::InvalidArgument(
            "the tolerance must be finite, at most MAX_COORDINATE (1e15)",
        ));
    }
    Ok(tolerance)
}

/// Refuses tolerances above 0 under [`Method::None`]: it reports every pair whose broad-phase
/// boxes overlap, and the tolerance margin grows those boxes.
fn exact_method(method: Method, tolerance: f64) -> Result<(), WorldError> {
    if method == Method::None && tolerance > 0.0 {
        return Err(WorldError::InvalidArgument(
            "tolerances need an exact test (Method::None reports every pair whose boxes overlap)",
        ));
    }
    Ok(())
}

impl<U> World<U> {
    /// Gives the pair `{a, b}` its own tolerance (world units, `>= 0`), overriding the default
    /// ([`World::set_default_tolerance`]); 0 makes the pair report touching only, whatever the
    /// default. From the next check on, when one of the pair's objects moved, the check reports
    /// the pair as a near pair ([`crate::NearPair`]) when its objects are apart by at most
    /// `tolerance` (`distance <= tolerance`: the boundary counts), and as a touching near pair
    /// when they collide and `tolerance > 0`. A tolerance change is not a move. The setting is
    /// dropped when either object is removed.
    ///
    /// # Errors
    /// [`WorldError::InvalidArgument`] for a negative, NaN or infinite `tolerance` (or one above
    /// [`MAX_COORDINATE`]), or one above 0 in a world of [`Method::None`] (boxes only);
    /// [`WorldError::InvalidHandle`], [`WorldError::SameObject`].
    pub fn set_pair_tolerance(
        &mut self,
        a: ObjectId,
        b: ObjectId,
        tolerance: f64,
    ) -> Result<(), WorldError> {
        let tolerance = checked(tolerance)?;
        exact_method(self.config.method, tolerance)?;
        let key = self.pair_key(a, b)?;
        let old = self.interest.entry(key).tolerance.replace(tolerance);
        for (id, other) in [(a, b), (b, a)] {
            let slot = id.slot();
            let max = self.tolerances.own_max(slot);
            let new_max = if tolerance >= max {
                tolerance
            } else if old.is_some_and(|t| t >= max) {
                // The pair held the largest: look at the object's other pairs.
                self.interest
                    .own_tolerances_of(id)
                    .filter(|&(o, _)| o != other)
                    .fold(tolerance, |m, (_, t)| m.max(t))
            } else {
                max
            };
            self.set_object_own_max(slot, new_max)?;
        }
        Ok(())
    }

    /// The tolerance the check uses for the pair `{a, b}`: its own, else the default.
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`], [`WorldError::SameObject`].
    pub fn pair_tolerance(&self, a: ObjectId, b: ObjectId) -> Result<f64, WorldError> {
        let key: PairKey = self.pair_key(a, b)?;
        Ok(self
            .interest
            .get(&key)
            .tolerance
            .unwrap_or(self.tolerances.default_tolerance()))
    }

    /// Sets the tolerance of every pair without its own (world units, `>= 0`; default 0: a check
    /// reports touching pairs only). See [`World::set_pair_tolerance`] for what a check reports.
    /// The broad phase's boxes grow by half the tolerance, so a large default makes the broad
    /// phase list (and the check test) more pairs.
    ///
    /// # Errors
    /// [`WorldError::InvalidArgument`] for a negative, NaN or infinite `tolerance` (or one above
    /// [`MAX_COORDINATE`]), or one above 0 in a world of [`Method::None`].
    pub fn set_default_tolerance(&mut self, tolerance: f64) -> Result<(), WorldError> {
        let tolerance = checked(tolerance)?;
        exact_method(self.config.method, tolerance)?;
        if tolerance == self.tolerances.default {
            return Ok(());
        }
        self.tolerances.default = tolerance;
        if self.started {
            for slot in 0..self.objects.slot_count() {
                self.regrow_broad_box(slot)?;
            }
        }
        Ok(())
    }

    /// The tolerance of pairs without their own.
    pub fn default_tolerance(&self) -> f64 {
        self.tolerances.default_tolerance()
    }

    /// Sets the largest own tolerance of the object in `slot`, regrowing its broad-phase box
    /// when its margin changed.
    fn set_object_own_max(&mut self, slot: u32, value: f64) -> Result<(), WorldError> {
        let margin = self.tolerances.margin(slot);
        self.tolerances.set_own_max(slot, value);
        if self.started && self.tolerances.margin(slot) != margin {
            self.regrow_broad_box(slot)?;
        }
        Ok(())
    }

    /// Hands the broad phase the box of the live object in `slot` grown by its current margin
    /// (nothing for an empty slot).
    fn regrow_broad_box(&mut self, slot: u32) -> Result<(), WorldError> {
        if let Some(aabb) = crate::box_update::refresh_world_box(&mut self.objects, slot) {
            self.broad
                .update(slot, &self.tolerances.grown_box(slot, &aabb))?;
        }
        Ok(())
    }

    /// Before `id` is removed: its slot's own tolerances are forgotten and each partner's
    /// largest own tolerance is taken again without the pair.
    pub(crate) fn forget_tolerances(&mut self, id: ObjectId) -> Result<(), WorldError> {
        if self.tolerances.own_max(id.slot()) == 0.0 {
            return Ok(());
        }
        let partners: Vec<ObjectId> = self
            .interest
            .own_tolerances_of(id)
            .map(|(other, _)| other)
            .collect();
        self.tolerances.set_own_max(id.slot(), 0.0);
        for other in partners {
            let max = self
                .interest
                .own_tolerances_of(other)
                .filter(|&(o, _)| o != id)
                .fold(0.0, |m: f64, (_, t)| m.max(t));
            self.set_object_own_max(other.slot(), max)?;
        }
        Ok(())
    }
}
