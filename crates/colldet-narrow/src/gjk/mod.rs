//! GJK (Gilbert-Johnson-Keerthi) for a pair of convex shapes given by support mappings.
//!
//! # Pair convention
//! `pos12` is the pose of shape 2 in shape 1's frame (it maps shape 2's local coordinates into
//! shape 1's), an `f32` `Isometry`, an `f64` `Pose` or an `f64` [`crate::PoseMatrix`]
//! ([`crate::RelativePose`]; pass an `f64` one when the world poses are `f64`, so the answer is
//! about the unrounded configuration). Queries run in shape 1's frame; every returned point, normal
//! and direction is in shape 1's frame, in shape 1's units, as `f64`.
//!
//! # Status and the touching band
//! Shapes are closed convex solids. Let `sd` be the pair's signed distance: the Euclidean distance
//! between the shapes when they are disjoint, minus the penetration depth (the length of the
//! shortest translation of shape 2 that makes the interiors disjoint) when they share a point. Let
//! `tol = TOUCHING_TOLERANCE_FACTOR * (r1 + r2)` with `r1`, `r2` the shapes'
//! [`local_bounding_radius`](crate::SupportMap::local_bounding_radius) ([`touching_tolerance`]).
//! Then:
//!
//! * [`GjkStatus::Separated`] when `sd > tol`;
//! * [`GjkStatus::Touching`] when `-tol <= sd <= tol`;
//! * [`GjkStatus::Intersecting`] when `sd < -tol`.
//!
//! The band edges are resolved to the algorithms' convergence accuracy: on the separated side GJK
//! stops when its upper and lower distance bounds agree to `GJK_RELATIVE_TOLERANCE` of the distance
//! plus rounding noise (`1e-12 * (r1 + r2 + |t12|)`), on the overlapping side the depth is bracketed by
//! EPA (see [`crate::epa`]) until the bracket lies on one side of `tol` or agrees to
//! `EPA_RELATIVE_TOLERANCE`. Away from the edges (`|sd| - tol` larger than those accuracies) the
//! status is exact. In particular `Separated` is returned only with a certified separating plane
//! farther than the tolerance, so "not `Separated`" never misses a real intersection.
//!
//! [`GJK_RELATIVE_TOLERANCE`]: crate::gjk::GJK_RELATIVE_TOLERANCE

mod distance_certificate;
mod gjk_cast;
mod gjk_distance;
mod gjk_intersection;
mod gjk_loop;
mod gjk_tolerance;
pub(crate) mod simplex;

pub use distance_certificate::DistanceCertificate;
pub use gjk_cast::{TranslationCast, gjk_translation_cast};
pub use gjk_distance::{
    GjkDistance, gjk_distance, gjk_distance_approx, gjk_distance_approx_coherent,
};
pub use gjk_intersection::gjk_intersect;
pub(crate) use gjk_loop::{EarlyStop, GjkEnd, run_gjk};
pub use gjk_tolerance::{gjk_within_distance, gjk_within_distance_coherent};

use crate::{NarrowError, SupportMap, epa::EpaWorkspace};
use colldet_geom::math::VectorD;

/// Width of the touching band relative to the size scale `r1 + r2` of the pair.
pub const TOUCHING_TOLERANCE_FACTOR: f64 = 1e-9;

/// GJK stops when its upper and lower distance bounds differ by less than this fraction of the
/// distance (plus rounding noise).
pub const GJK_RELATIVE_TOLERANCE: f64 = 1e-10;

/// Maximum number of support queries of one GJK run before [`NarrowError::DidNotConverge`].
pub const GJK_MAX_ITERATIONS: u32 = 256;

/// The touching band half-width `tol = TOUCHING_TOLERANCE_FACTOR * (r1 + r2)` of a pair, in shape 1's
/// units, with `r1`, `r2` the shapes' bounding radii about their local origins.
pub fn touching_tolerance<S1, S2>(s1: &S1, s2: &S2) -> f64
where
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    TOUCHING_TOLERANCE_FACTOR
        * (f64::from(s1.local_bounding_radius()).abs()
            + f64::from(s2.local_bounding_radius()).abs())
}

/// Outcome of a GJK query; the exact band definitions are in the [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GjkStatus {
    /// Signed distance above the touching tolerance: a separating plane was found.
    Separated,
    /// Signed distance within `[-tol, tol]`: in contact up to the tolerance.
    Touching,
    /// Penetration deeper than the touching tolerance.
    Intersecting,
}

impl GjkStatus {
    /// True unless [`GjkStatus::Separated`]: the boolean answer "do the shapes collide (up to the
    /// touching tolerance)".
    pub fn is_colliding(self) -> bool {
        self != GjkStatus::Separated
    }
}

/// Per-pair state carried from one query to the next (warm start), passed in as `&mut`.
///
/// Holds the last separating direction (unit, shape 1's frame), the support maps' warm-start hints,
/// the support tokens of the last simplex (re-evaluated at the next pose),
/// and an EPA workspace, boxed and allocated on first use (once), used when a query lands in
/// the touching band with the origin enclosed and the depth has to be bracketed against `tol`.
#[derive(Clone, Debug, Default)]
pub struct GjkCache {
    dir: Option<VectorD>,
    hints: [u32; 2],
    simplex_ids: [[u32; 2]; 4],
    /// The weights of the last simplex's closest point (a convex combination).
    simplex_weights: [f64; 4],
    /// `|v|` at the end of the last run (an upper bound on the pair's distance then; 0 before
    /// any run).
    last_distance: f64,
    simplex_len: u8,
    band: Option<Box<EpaWorkspace>>,
}

impl GjkCache {
    /// Makes the next query start from the simplex of these support-token pairs (re-evaluated at
    /// its pose), as if the last query had ended on it.
    pub(crate) fn seed_simplex(&mut self, ids: &[[u32; 2]; 4]) {
        self.simplex_ids = *ids;
        self.simplex_weights = [0.25; 4];
        self.simplex_len = 4;
    }

    /// Renames the support tokens of the last simplex and the hints: `rename(shape, token)`
    /// with `shape` 0 or 1 (a hierarchy's march moving to a finer level).
    pub(crate) fn rename_tokens(&mut self, rename: impl Fn(usize, u32) -> u32) {
        let len = usize::from(self.simplex_len).min(4);
        for ids in &mut self.simplex_ids[..len] {
            *ids = [rename(0, ids[0]), rename(1, ids[1])];
        }
        self.hints = [rename(0, self.hints[0]), rename(1, self.hints[1])];
    }

    /// The support-token pairs of the last query's final simplex when it had four points.
    pub(crate) fn tetrahedron(&self) -> Option<[[u32; 2]; 4]> {
        (self.simplex_len == 4).then_some(self.simplex_ids)
    }

    /// The support-map hints of the last query (for polytopes: the last supporting vertex of
    /// each shape), used as witness features by callers.
    pub fn support_hints(&self) -> [u32; 2] {
        self.hints
    }

    /// An empty cache: the first query starts from the direction between the shapes' origins.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the warm start (keeps the allocated workspace).
    pub fn reset(&mut self) {
        self.dir = None;
        self.hints = [0; 2];
        self.simplex_len = 0;
        self.last_distance = 0.0;
    }

    /// The last direction `v / |v|` of the query, where `v = point1 - point2` was the closest point
    /// of `A - B` (unit, shape 1's frame, pointing from shape 2 towards shape 1), if any.
    pub fn direction(&self) -> Option<VectorD> {
        self.dir
    }

    /// Checks the cache invariants: the stored direction is finite and of unit length.
    ///
    /// # Errors
    /// [`NarrowError::BrokenInvariant`] naming the failed check.
    pub fn validate(&self) -> Result<(), NarrowError> {
        if let Some(d) = self.dir
            && (!d.iter().all(|c| c.is_finite()) || (d.norm() - 1.0).abs() > 1e-12)
        {
            return Err(NarrowError::BrokenInvariant {
                what: "GjkCache direction is not a unit vector",
                index: 0,
            });
        }
        if self.simplex_len > 4 {
            return Err(NarrowError::BrokenInvariant {
                what: "GjkCache simplex has more than 4 points",
                index: 0,
            });
        }
        self.band.as_ref().map_or(Ok(()), |band| band.validate())
    }
}
