//! Support mapping for convex polytopes: the vertex of a polytope that is extreme in a direction.
//!
//! A supporting vertex of `P` in direction `d` is a vertex `v` with
//! `dot(v, d) = max { dot(u, d) : u vertex of P }` (Chung-Wang, definition 1). Four ways to find
//! one are offered by [`ConvexPolytope`]:
//!
//! - brute force over all vertices, `O(n)`;
//! - hill climbing over the vertex adjacency from a start vertex (steepest ascent, Chung-Wang
//!   section 2.3), cheap when the start is close, as with temporal coherence;
//! - a start taken from the precomputed 8 x 16 [`DirectionTable`] (Chung-Wang section 2.4),
//!   then hill climbing;
//! - the Dobkin-Kirkpatrick hierarchy ([`DkHierarchy`]), `O(log n)` levels, each entered from
//!   the answer of the coarser level.
//!
//! # Rationale (subtle invariants)
//! - **Exact enough ranking.** Every query ranks vertices by `dot(v, d)` evaluated in `f64` with
//!   the `f32` vertex and direction widened exactly. Each product of two `f32` values is exact in
//!   `f64`; only the two additions round, so the ranking error is below `2^-51 * |d| * |v|`,
//!   far below what `f32` geometry can resolve. The documented guarantee is looser (see
//!   [`SUPPORT_RELATIVE_TOLERANCE`]).
//! - **Termination on plateaus.** Hill climbing moves only on a *strict* increase of the
//!   computed dot product. The sequence of values is strictly increasing over a finite set, so
//!   the walk visits each vertex at most once and always stops, also on faces full of coplanar
//!   vertices (exact ties) and for NaN directions (no comparison with NaN succeeds).
//! - **Why local is global.** Hill climbing stops at a vertex `v` with no strictly better
//!   out-neighbour. If the edge vectors `w - v` generate the tangent cone of the polytope at `v`,
//!   any better point would give a better neighbour, so `v` is a supporting vertex. Face-loop
//!   edges generate it at strictly convex vertices and along straight edges, but not at a vertex
//!   inside a flat face (the cone is a half-space, the edges span only the plane: for the
//!   direction opposite the face normal every neighbour ties, on the *minimum* face) nor at a
//!   flat corner of a polygon face. The hill-climbing graph therefore adds a few one-way
//!   artificial edges there (`tangent_cone.rs`). This is why convexity is a precondition of
//!   [`ConvexPolytope::from_convex_mesh`].
//! - **No allocation in queries.** Queries read the polytope's arrays and keep a few scalars.

mod brute_force;
pub mod convex_polytope;
pub mod direction_table;
pub mod dk_hierarchy;
mod hill_climb;
mod tangent_cone;
mod vertex_scan;

pub use convex_polytope::{ConvexPolytope, ConvexPolytopeOptions, DEFAULT_DK_VERTEX_THRESHOLD};
pub use direction_table::DirectionTable;
pub use dk_hierarchy::DkHierarchy;
pub use vertex_scan::SCAN_LANES;

use crate::math::{Point, Vector, VectorD, vec_to_f64};

/// Relative tolerance of the support guarantee: a returned vertex `v` satisfies
/// `dot(v, d) >= max_u dot(u, d) - SUPPORT_RELATIVE_TOLERANCE * |d| * r`, where `r` is the
/// polytope's [`radius`](ConvexPolytope::radius) (largest distance of a vertex from the local
/// origin), so the bound scales with the object and with the direction's length.
///
/// The implementation is far tighter (about `1e-15` relative, see the module rationale); the
/// slack leaves room for callers that reproduce the dot products in `f32`.
pub const SUPPORT_RELATIVE_TOLERANCE: f64 = 1e-5;

/// A supporting vertex together with the cost of finding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SupportResult {
    /// Index of the supporting vertex (in the numbering of the polytope that was queried).
    pub vertex: u32,
    /// Number of vertex evaluations (dot products) the query made: the start vertex counts once
    /// and every neighbour examined counts once, also when examined again from another vertex.
    pub visits: u32,
}

/// The direction widened to `f64` without rounding, as every query uses it.
#[inline]
pub(crate) fn widen(dir: &Vector) -> VectorD {
    vec_to_f64(dir)
}

/// `dot(p, d)` in `f64` with `p` widened exactly; the products are exact, the sums round.
#[inline(always)]
pub(crate) fn dot(p: &Point, d: &VectorD) -> f64 {
    f64::from(p.x) * d.x + f64::from(p.y) * d.y + f64::from(p.z) * d.z
}
