//! Per-pair warm-start state ([`ChungWangCache`]) and the shared per-thread scratch space
//! ([`ChungWangWorkspace`]) of the separating-vector test.

use super::MAX_ITERATION_CAP;
use super::hemisphere::Hemisphere;
use super::visited_pairs::VisitedPairs;
use crate::{GjkCache, NarrowError};
use colldet_geom::math::VectorD;

/// The state one ordered pair of polytopes carries from one query to the next (the paper's cache:
/// the separating vector and both supporting vertices), passed in as `&mut`.
///
/// * The last separating vector `S` (unit, shape 1's frame, pointing from shape 1 towards shape
///   2) and the supporting vertices (indices into each polytope's vertices) it was last evaluated
///   with: the next query starts there.
/// * After an answer certified by a tetrahedron, its four supporting-vertex pairs: the next query
///   re-evaluates (and if needed refines) that tetrahedron before searching, which under
///   coherence decides a colliding pair with no or a few short climbs (see
///   [`crate::chung_wang`]). `None` otherwise.
/// * The [`GjkCache`] of the GJK fallback, so fallbacks are warm-started too.
///
/// Any content, however stale, is a valid start: correctness never depends on the cache. The
/// first query (or the first after [`reset`](Self::reset)) starts from the direction between the
/// polytopes' vertex averages ([`ConvexPolytope::vertex_average`]).
///
/// Layout: the members every query reads come first (`repr(C)`), so a query usually touches the
/// first two cache lines only; the GJK cache is read on fallbacks.
///
/// [`ConvexPolytope::vertex_average`]: colldet_geom::ConvexPolytope::vertex_average
#[derive(Clone, Debug, Default)]
#[repr(C)]
pub struct ChungWangCache {
    pub(crate) warm: Option<WarmStart>,
    pub(crate) certificate: Option<Certificate>,
    /// The bounding-box pre-test found the boxes overlapping at the last query that ran it: the
    /// next query skips it (and clears this), so pairs whose boxes keep overlapping pay for it
    /// every other query only.
    pub(crate) boxes_overlapped: bool,
    pub(crate) gjk: GjkCache,
}

/// The supporting-vertex pairs `[p, q]` (indices into polytope 1's and 2's vertices) of the four
/// CSO points whose tetrahedron certified the last collision.
pub(crate) type Certificate = [[u32; 2]; 4];

/// Separating vector and supporting vertices of the last query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct WarmStart {
    pub s: VectorD,
    pub vertices: [u32; 2],
    /// The [`geometry_id`](colldet_geom::ConvexPolytope::geometry_id) of the polytope 1 whose
    /// supporting vertex in `s` is `vertices[0]` (polytope 1's vertices do not move in its own
    /// frame, so the next query need not climb for it), or [`NO_KNOWN_SUPPORT`].
    pub support1_of: u64,
}

/// [`WarmStart::support1_of`] when `vertices[0]` is only a start for climbing.
pub(crate) const NO_KNOWN_SUPPORT: u64 = u64::MAX;

impl ChungWangCache {
    /// An empty cache: the first query starts from the centroid direction and the direction tables.
    pub fn new() -> Self {
        Self::default()
    }

    /// Marks the bounding-box pre-test as done for the next query: a caller that ran it itself
    /// ([`super::HullBox::separated`]) and found the boxes overlapping, or that chose to skip it,
    /// calls this before the query so the query does not run it again. Only the next query is
    /// affected.
    #[inline]
    pub fn skip_box_pretest(&mut self) {
        self.boxes_overlapped = true;
    }

    /// True when the cache holds a collision certificate: the next query starts by checking it
    /// and does not run the bounding-box pre-test (a caller running the pre-test itself may skip
    /// it likewise).
    #[inline]
    pub fn has_certificate(&self) -> bool {
        self.certificate.is_some()
    }

    /// Forgets the warm start (separating vector, supporting vertices, collision certificate,
    /// GJK warm start), as when a pair's bounding boxes start to overlap again. Keeps allocations.
    pub fn reset(&mut self) {
        self.warm = None;
        self.certificate = None;
        self.boxes_overlapped = false;
        self.gjk.reset();
    }

    /// The separating vector the next query starts from (unit, shape 1's frame, from shape 1
    /// towards shape 2), if any. After a `Separated` answer it is a certified separating vector
    /// for the pose of that query.
    pub fn separating_vector(&self) -> Option<VectorD> {
        self.warm.map(|w| w.s)
    }

    /// The supporting vertices (shape 1, shape 2) the next query starts hill climbing from.
    pub fn supporting_vertices(&self) -> Option<[u32; 2]> {
        self.warm.map(|w| w.vertices)
    }

    /// A supporting pair (shape 1, shape 2) to name in a collision report: the one the next
    /// query starts from, else the first pair of the collision certificate, if any.
    pub fn witness_vertices(&self) -> Option<[u32; 2]> {
        self.supporting_vertices()
            .or_else(|| self.certificate.map(|c| c[0]))
    }

    /// Checks the invariants: the stored separating vector is a finite unit vector and the GJK
    /// cache is valid.
    ///
    /// # Errors
    /// [`NarrowError::BrokenInvariant`] naming the failed check.
    pub fn validate(&self) -> Result<(), NarrowError> {
        if let Some(w) = self.warm
            && (!w.s.iter().all(|c| c.is_finite()) || (w.s.norm() - 1.0).abs() > 1e-12)
        {
            return Err(NarrowError::BrokenInvariant {
                what: "ChungWangCache separating vector is not a unit vector",
                index: 0,
            });
        }
        self.gjk.validate()
    }
}

/// Why a query was handed to GJK (see [`crate::chung_wang`] for the certification rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FallbackReason {
    /// A separating vector was found but its margin `S . (q - p)` is within the touching band.
    SeparationWithinBand,
    /// The hemisphere test closed but the depth of the origin in the certificate tetrahedron is
    /// within the touching band (or the tetrahedron is degenerate, or a support pair coincides).
    CollisionWithinBand,
    /// A supporting pair recurred where Lemma 3 or Lemma 4 promises a separating vector, and the
    /// margin was within the touching band (rounding at a touching configuration).
    RecurringPair,
    /// The iteration cap was reached.
    IterationCap,
    /// The cached certificate tetrahedron of a colliding pair no longer holds the origin deeper
    /// than the band after its refinements; GJK continues from it instead of a new search.
    CertificateLost,
}

/// How often each outcome occurred over the queries run with one workspace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChungWangStats {
    /// Queries run.
    pub queries: u64,
    /// Queries answered by a certified separating vector.
    pub separated: u64,
    /// Queries answered by the bounding-box pre-test (counted here only, not in `separated`).
    pub separated_by_boxes: u64,
    /// Queries answered by a face normal of the previous query's certificate tetrahedron
    /// ([`Decision::CertificateFace`](super::Decision::CertificateFace); counted here only, not
    /// in `separated`).
    pub separated_by_certificate_face: u64,
    /// Queries answered by a certified tetrahedron from the hemisphere test.
    pub intersecting: u64,
    /// Queries answered by the previous query's certificate tetrahedron (re-evaluated, perhaps
    /// refined) before any search.
    pub intersecting_cached: u64,
    /// Fallbacks to GJK with [`FallbackReason::SeparationWithinBand`].
    pub fallback_separation_within_band: u64,
    /// Fallbacks to GJK with [`FallbackReason::CollisionWithinBand`].
    pub fallback_collision_within_band: u64,
    /// Fallbacks to GJK with [`FallbackReason::RecurringPair`].
    pub fallback_recurring_pair: u64,
    /// Fallbacks to GJK with [`FallbackReason::IterationCap`].
    pub fallback_iteration_cap: u64,
    /// Fallbacks to GJK with [`FallbackReason::CertificateLost`].
    pub fallback_certificate_lost: u64,
    /// Queries in which a supporting pair recurred (Lemma 3 or 4 was applied).
    pub recurring_pairs: u64,
}

impl ChungWangStats {
    /// Total number of GJK fallbacks.
    pub fn fallbacks(&self) -> u64 {
        self.fallback_separation_within_band
            + self.fallback_collision_within_band
            + self.fallback_recurring_pair
            + self.fallback_iteration_cap
            + self.fallback_certificate_lost
    }

    pub(crate) fn count_fallback(&mut self, reason: FallbackReason) {
        match reason {
            FallbackReason::SeparationWithinBand => self.fallback_separation_within_band += 1,
            FallbackReason::CollisionWithinBand => self.fallback_collision_within_band += 1,
            FallbackReason::RecurringPair => self.fallback_recurring_pair += 1,
            FallbackReason::IterationCap => self.fallback_iteration_cap += 1,
            FallbackReason::CertificateLost => self.fallback_certificate_lost += 1,
        }
    }
}

/// Scratch space of the separating-vector test, shared by any number of pairs (one per thread):
/// the time-stamped visited-pair table, the points of the hemisphere test, and outcome counters.
/// Allocated once by [`new`](Self::new) to the largest iteration cap; queries never allocate.
#[derive(Clone, Debug)]
pub struct ChungWangWorkspace {
    pub(crate) visited: VisitedPairs,
    pub(crate) hemisphere: Hemisphere,
    /// Outcome counters, accumulated over all queries run with this workspace.
    pub stats: ChungWangStats,
}

impl Default for ChungWangWorkspace {
    fn default() -> Self {
        Self::new()
    }
}

impl ChungWangWorkspace {
    /// A workspace with room for the largest iteration cap (about 20 KB).
    pub fn new() -> Self {
        Self {
            visited: VisitedPairs::default(),
            hemisphere: Hemisphere::with_capacity(MAX_ITERATION_CAP as usize),
            stats: ChungWangStats::default(),
        }
    }

    /// Checks the visited-pair table, the hemisphere points and that the storage still has room
    /// for the largest iteration cap.
    ///
    /// # Errors
    /// [`NarrowError::BrokenInvariant`] naming the failed check.
    pub fn validate(&self) -> Result<(), NarrowError> {
        self.visited.validate()?;
        self.hemisphere.validate()?;
        if self.hemisphere.capacity() < MAX_ITERATION_CAP as usize {
            return Err(NarrowError::BrokenInvariant {
                what: "hemisphere storage below the iteration cap",
                index: 0,
            });
        }
        Ok(())
    }
}
