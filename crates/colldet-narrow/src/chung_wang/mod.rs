//! The Chung-Wang separating-vector test for two convex polytopes ("Quick collision detection of
//! polytopes in virtual environments", 1996), with certified answers.
//!
//! # Pair convention
//! `pos12` is the pose of polytope 2 in polytope 1's frame, an `f32` [`Isometry`] or an `f64`
//! [`Pose`] (widened and re-normalised in `f64`), or a [`crate::PoseMatrix`] (taken as given; the
//! world passes one), turned into `f64` parts by [`crate::RelativePose::widened_parts`] exactly as
//! [`crate::gjk_intersect`] does, so both algorithms answer about the same configuration. The
//! search runs in polytope 1's frame. The separating vector `S` points from polytope 1 (`P`)
//! towards polytope 2 (`Q`); `p` is a supporting vertex of `P` in direction `S`, `q` one of `Q` in
//! direction `-S`, both found by hill climbing in the polytope's own frame with the `f64` direction
//! (directions are rotated, vertices are not), and `q` is then mapped into polytope 1's frame in
//! `f64`.
//!
//! # The search (sections 2-4 of the paper)
//! Each iteration finds `p`, `q`, tests Lemma 1 (`S . (q - p) > 0` proves separation) and otherwise
//! reflects `S` in the plane normal to `r = <q - p>`: `S <- S - 2 (r . S) r`. The directions `r`
//! feed the incremental hemisphere test of section 4.2; when no plane through the origin has them
//! all on one side, the polytopes collide. A supporting pair met before (time-stamped table) sends
//! `S` to the hemisphere normal `w` (Lemma 4); the same pair twice in a row, or a recurring pair
//! right after `S = w`, means the Lemma 3/4 separation was lost to rounding (see below). The first
//! query of a pair (or after [`ChungWangCache::reset`]) starts from the direction between the
//! centroids with start vertices from each polytope's 8 x 16 [`DirectionTable`]; later queries start
//! from the cached `S` and vertices. After a separated answer the cached vertex of polytope 1 is
//! its supporting vertex in the cached `S`, and both live in polytope 1's frame, so the next
//! query's first iteration takes it without climbing (only polytope 2, which moved relative to
//! `S`, is climbed). The cache records which polytope that holds for
//! ([`ConvexPolytope::geometry_id`](colldet_geom::ConvexPolytope::geometry_id)), so a cache
//! reused for another polytope falls back to climbing.
//!
//! # Bounding-box pre-test
//! For a pair without a cached certificate (one marks a pair that probably still collides),
//! before searching, the polytopes' local axis-aligned bounding boxes
//! ([`ConvexPolytope::local_aabb`](colldet_geom::ConvexPolytope::local_aabb)), placed by the
//! `f64` pose, get the 15-axis separating-axis test with margin `tol + noise`
//! ([`Decision::BoundingBoxes`]). For elongated or flat hulls most separated pairs whose world
//! boxes overlap have disjoint local boxes (figures for the rod scenes in `docs/benchmarks.md`),
//! and the test costs no vertex visit. A pair whose boxes overlapped skips the test at its next
//! query (a flag in the [`ChungWangCache`]), so round hulls, whose boxes rarely separate them,
//! pay for it every other query only.
//!
//! # Coherence for colliding pairs
//! The paper's cache makes a separated pair cheap (the cached `S` usually still separates), but a
//! colliding pair would pay a whole search every frame until the hemisphere closes, with long
//! climbs because the reflections swing `S` across the sphere. So the cache also keeps the four
//! supporting-vertex pairs of the tetrahedron that certified the last collision. The next query
//! first re-evaluates their CSO points at the new pose (no climbing); when the origin is no longer
//! deep enough inside, it refines the tetrahedron by at most four GJK-style steps (replace the
//! vertex opposite the face the origin is least deep behind by the CSO support point in that
//! face's outward normal, climbing from the face's vertices). If the origin ends deeper than the
//! band the answer is [`ChungWangStatus::Intersecting`] ([`Decision::CachedTetrahedron`]).
//! Each refinement step's support point is also Lemma 1's test of the negated face normal: when
//! the pair has moved apart the origin has left the tetrahedron through a face, whose normal
//! then usually separates at once ([`Decision::CertificateFace`]; figures in
//! `docs/benchmarks.md`). Otherwise GJK decides, started from that tetrahedron (its points are
//! CSO points near the origin, so GJK needs few support queries where a new search would start
//! over; [`FallbackReason::CertificateLost`]), and its final tetrahedron becomes the next
//! certificate when the pair still intersects. Which vertices span the tetrahedron never matters
//! for correctness: any four CSO points span a tetrahedron inside `Q - P`.

//! # Exactness and the touching band
//! The polytopes are closed solids: they collide iff they share a point, touching included. The
//! band `tol = TOUCHING_TOLERANCE_FACTOR * (r1 + r2)` is GJK's ([`crate::touching_tolerance`]), and
//! `noise = 1e-12 (r1 + r2 + |t12|)` covers `f64` rounding. Answers are certified:
//!
//! * [`ChungWangStatus::Separated`] only when `S . (q - p) > tol + noise` for unit `S` (the
//!   search's `S`, or the negated outward face normal of a refinement step): with exact
//!   supporting vertices (the `f64` hill climb ranks vertices to about `1e-16` of the radius) this
//!   bounds the distance from below, so the distance exceeds `tol`.
//! * [`ChungWangStatus::Intersecting`] only when the origin lies at depth `> tol + noise` inside a
//!   tetrahedron of four CSO points: the one the closing hemisphere test names (see
//!   `hemisphere.rs`) or the cached one of the previous query. The tetrahedron lies in `Q - P`, so
//!   the penetration depth exceeds `tol`.
//! * Otherwise the query is handed to [`crate::gjk_intersect`] (its cache lives in the
//!   [`ChungWangCache`]): a separating margin in `[0, tol]`, a closing tetrahedron shallower than
//!   the band or degenerate, a recurring pair without margin, more than [`iteration_cap`]
//!   iterations, or a cached certificate that no longer holds (GJK then starts from it). GJK's
//!   status is returned, including [`ChungWangStatus::Touching`], which only GJK certifies.
//!   [`ChungWangResult::decided_by`] and [`ChungWangWorkspace::stats`] report every fallback and
//!   its reason.
//!
//! Hence the boolean [`ChungWangStatus::is_colliding`] equals GJK's outside the touching band.
//!
//! [`Isometry`]: colldet_geom::math::Isometry
//! [`Pose`]: colldet_geom::math::Pose
//! [`DirectionTable`]: colldet_geom::DirectionTable

mod cached_tetrahedron;
mod chung_wang_cache;
mod hemisphere;
mod hull_box;
mod separating_vector;
mod tetrahedron_depth;
mod visited_pairs;

pub use chung_wang_cache::{ChungWangCache, ChungWangStats, ChungWangWorkspace, FallbackReason};
pub use hull_box::HullBox;
pub use separating_vector::chung_wang_intersect;

use crate::GjkStatus;

/// The largest value [`iteration_cap`] returns (for polytopes of `2^32 - 1` vertices).
pub const MAX_ITERATION_CAP: u32 = 64 + 4 * (32 + 32);

/// Iterations after which a query falls back to GJK: `64 + 4 (bits(n1) + bits(n2))`, where
/// `bits(n)` is the bit length of the vertex count (`7` for 100 vertices, `10` for 1000). The
/// paper reports at most about 55 iterations for its worst shapes up to 1000 vertices.
pub fn iteration_cap(vertices1: usize, vertices2: usize) -> u32 {
    let bits = |n: usize| 32 - u32::try_from(n).unwrap_or(u32::MAX).leading_zeros();
    64 + 4 * (bits(vertices1) + bits(vertices2))
}

/// Outcome of [`chung_wang_intersect`]; the band is GJK's (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChungWangStatus {
    /// Certified distance above the touching tolerance.
    Separated,
    /// Signed distance within the touching band (only reported through the GJK fallback).
    Touching,
    /// Certified penetration deeper than the touching tolerance.
    Intersecting,
}

impl ChungWangStatus {
    /// True unless [`ChungWangStatus::Separated`]: "do the polytopes collide (touching counts)".
    pub fn is_colliding(self) -> bool {
        self != ChungWangStatus::Separated
    }
}

impl From<GjkStatus> for ChungWangStatus {
    fn from(s: GjkStatus) -> Self {
        match s {
            GjkStatus::Separated => Self::Separated,
            GjkStatus::Touching => Self::Touching,
            GjkStatus::Intersecting => Self::Intersecting,
        }
    }
}

/// What certified the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Lemma 1 with a margin above the band: a separating vector.
    SeparatingVector,
    /// The polytopes' local bounding boxes, placed by the pose, are separated by more than the
    /// band along one of the 15 box axes: no vertex visited.
    BoundingBoxes,
    /// The hemisphere test closed with a certificate tetrahedron deeper than the band.
    Tetrahedron,
    /// The previous query's certificate tetrahedron, re-evaluated at this pose and refined by at
    /// most four support steps, holds the origin deeper than the band: no search ran.
    CachedTetrahedron,
    /// The previous query's certificate tetrahedron no longer holds the origin deeper than the
    /// band, and the negated outward normal `-n` of the face a refinement step pushes (the face
    /// the origin is least deep behind, of the re-evaluated tetrahedron or of one refined by
    /// earlier steps) passes Lemma 1 with a margin above the band: the CSO support point in `n`,
    /// which that step computes anyway, lies more than `tol + noise` behind the origin. No search
    /// ran.
    CertificateFace,
    /// GJK decided, for the given reason.
    GjkFallback(FallbackReason),
}

/// Result of [`chung_wang_intersect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChungWangResult {
    /// Separated, touching or intersecting.
    pub status: ChungWangStatus,
    /// The paper's `k`: supporting-pair evaluations of the separating-vector search (GJK's own
    /// iterations after a fallback are not included).
    pub iterations: u32,
    /// Vertex evaluations (dot products) of the hill climbs of the search, both polytopes.
    pub visits: u32,
    /// What certified the status.
    pub decided_by: Decision,
}
