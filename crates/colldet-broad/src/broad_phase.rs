//! The interface every broad-phase structure implements.

use colldet_geom::WorldAabb;

/// The caller's id for a box: dense small integers (the world uses object slots), so structures
/// may index arrays by it.
pub type ProxyId = u32;

/// An unordered pair of proxies, stored with the smaller id first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProxyPair(pub ProxyId, pub ProxyId);

impl ProxyPair {
    /// The pair `{a, b}` with the smaller id first. `a != b`.
    #[inline]
    pub fn new(a: ProxyId, b: ProxyId) -> Self {
        if a < b { Self(a, b) } else { Self(b, a) }
    }
}

/// The one error type of this crate.
///
/// Every variant but [`BroadPhaseError::Invariant`] is a refusal of the caller's input (a proxy
/// id, a box, a configuration); the structure is unchanged after it. `Invariant` comes only from
/// a structure's `validate` and reports a bug in the structure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BroadPhaseError {
    /// `insert` of an id that is already present.
    #[error("proxy {0} is already present")]
    AlreadyPresent(ProxyId),
    /// `update` or `remove` of an id that is not present.
    #[error("proxy {0} is not present")]
    NotPresent(ProxyId),
    /// A box with a NaN or infinite bound, or with `mins > maxs` on some axis.
    #[error("proxy {0} has an invalid box (non-finite or inverted)")]
    InvalidBox(ProxyId),
    /// A space-index universe box that is non-finite, empty or flat on some axis, or too small
    /// for its resolution (two cell boundaries would round to the same `f64`).
    #[error("invalid universe box (non-finite, empty, flat, or too small for the resolution)")]
    InvalidUniverse,
    /// A uniform-grid resolution that is zero on some axis or whose cell count exceeds the limit
    /// documented on the grid; the value is the offending per-axis count (or the total, saturated
    /// at `u64::MAX`).
    #[error("invalid grid resolution {0}")]
    InvalidResolution(u64),
    /// An octree depth above the limit documented on the octree.
    #[error("invalid octree depth {0}")]
    InvalidOctreeDepth(u32),
    /// From `validate` only: an internal invariant of the structure does not hold; the text
    /// describes the first violation found.
    #[error("broken invariant: {0}")]
    Invariant(String),
}

/// A broad-phase structure over world-space AABBs.
///
/// Semantics: boxes are closed, so two boxes overlap iff on every axis
/// `a.mins <= b.maxs && b.mins <= a.maxs`. Changes (`insert`, `update`, `remove`) take effect for
/// the next [`BroadPhase::overlapping_pairs`] call.
///
/// # Checking
/// One convention for every structure of this crate:
/// * `validate(&self) -> Result<(), BroadPhaseError>`, an inherent method of every structure
///   with internal invariants (all but [`crate::AllPairs`]), checks those invariants for tests
///   and debugging (O(n) or more) and reports the first violation as
///   [`BroadPhaseError::Invariant`]; it never checks input.
/// * Input is checked by the calls that take it: boxes by `insert` and `update`, configurations
///   by the constructors and by `check` on the configuration types
///   ([`crate::UniformGridConfig::check`], [`crate::OctreeConfig::check`]), with the refusal
///   variants of [`BroadPhaseError`].
pub trait BroadPhase {
    /// Adds proxy `id` with box `aabb`.
    ///
    /// # Errors
    /// [`BroadPhaseError::AlreadyPresent`], [`BroadPhaseError::InvalidBox`].
    fn insert(&mut self, id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError>;

    /// Moves proxy `id` to box `aabb`.
    ///
    /// # Errors
    /// [`BroadPhaseError::NotPresent`], [`BroadPhaseError::InvalidBox`].
    fn update(&mut self, id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError>;

    /// Moves `count` proxies: change `k` (`0..count`) is `change(k)`, `None` for no change. The
    /// same as calling [`BroadPhase::update`] for each change in order (the first refusal is
    /// returned, the changes before it are made), except that each id may appear at most once: a
    /// structure may read the changes in parallel (sweep and prune with a pool does), so `change`
    /// must be cheap and give the same answer on every call.
    ///
    /// # Errors
    /// As [`BroadPhase::update`].
    fn update_batch(
        &mut self,
        count: usize,
        change: &(dyn Fn(usize) -> Option<(ProxyId, WorldAabb)> + Sync),
    ) -> Result<(), BroadPhaseError> {
        for k in 0..count {
            if let Some((id, aabb)) = change(k) {
                self.update(id, &aabb)?;
            }
        }
        Ok(())
    }

    /// Removes proxy `id`.
    ///
    /// # Errors
    /// [`BroadPhaseError::NotPresent`].
    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError>;

    /// Number of proxies present.
    fn len(&self) -> usize;

    /// True when no proxy is present.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Replaces the contents of `out` with every overlapping pair, sorted ascending.
    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>);

    /// Appends to `out` (not cleared) every proxy whose current box (as last given) passes
    /// `probe`, each once with that box, in no particular order. Structures with a hierarchy (the dynamic
    /// tree) also call `probe` on their nodes' boxes and skip the subtrees it rejects, so `probe`
    /// must be monotone: true for a box implies true for every box containing it (a ray or box
    /// overlap test is; [`crate::RaySegment`]). The others test every proxy's box.
    fn query(&self, probe: &mut dyn FnMut(&WorldAabb) -> bool, out: &mut Vec<(ProxyId, WorldAabb)>);
}

/// Checks a box before it enters a structure.
pub(crate) fn check_box(id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError> {
    // Finite with `mins <= maxs` (NaN fails every comparison); branch-free.
    let ok = (0..3).fold(true, |ok, c| {
        let (lo, hi) = (aabb.mins[c], aabb.maxs[c]);
        ok & (lo > f64::NEG_INFINITY) & (hi < f64::INFINITY) & (lo <= hi)
    });
    if ok {
        Ok(())
    } else {
        Err(BroadPhaseError::InvalidBox(id))
    }
}
