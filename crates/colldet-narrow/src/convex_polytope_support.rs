//! [`SupportMap`] for [`ConvexPolytope`], and the `f64`-direction hill climb (or scan, for small
//! polytopes) of the Chung-Wang test.
//!
//! Rationale: GJK, EPA and the separating-vector test all certify from the support values
//! themselves, so they climb with the `f64` direction unrounded
//! ([`SupportMap::local_support_hinted_f64`], [`climb`]): rounding the direction to `f32` could
//! cost up to about `1e-7` of the radius in support value, a hundred times the touching band.
//! Hill climbing starts from the better of the warm-start hint and the 8 x 16 direction table's
//! vertex.
//! The climb moves only on strict improvement (it terminates on plateaus); the polytope's
//! hill-climbing graph has the extra tangent-cone edges that make the local maximum global (see
//! [`colldet_geom::support`]). Polytopes of at most [`SCAN_VERTICES`] vertices are scanned
//! instead (every vertex's `f64` dot product, no adjacency): for so few vertices a scan costs
//! less than a warm-started climb (timed on the 12-vertex `cw-*-12` scenes, see
//! `docs/benchmarks.md`), and its answer is as extreme.

use crate::SupportMap;
use colldet_geom::ConvexPolytope;
use colldet_geom::math::{Point, Real, Vector, VectorD};

/// Polytopes with at most this many vertices are scanned instead of climbed (`f64` queries): those
/// that keep their vertices in `f64` lanes for a branch-free scan
/// ([`colldet_geom::support::SCAN_LANES`]).
pub(crate) const SCAN_VERTICES: usize = colldet_geom::support::SCAN_LANES;

impl SupportMap for ConvexPolytope {
    /// The supporting vertex by hill climbing from the direction table's entry for `dir`.
    #[inline]
    fn local_support(&self, dir: &Vector) -> Point {
        self.vertices()[self.support_from_table(dir) as usize]
    }

    /// Hill climbing from vertex `hint` (a vertex index; out of range starts from the direction
    /// table's entry), writing the supporting vertex's index back.
    #[inline]
    fn local_support_hinted(&self, dir: &Vector, hint: &mut u32) -> Point {
        let start = if (*hint as usize) < self.vertex_count() {
            *hint
        } else {
            self.direction_table().start_vertex(dir)
        };
        *hint = self.support_hill_climb(dir, start).vertex;
        self.vertices()[*hint as usize]
    }

    /// As [`SupportMap::local_support_hinted`] with the `f64` direction unrounded: a hill climb
    /// from the hint (or from the direction table's vertex when that is better in `dir`), or a
    /// scan for polytopes of at most 16 vertices.
    #[inline]
    fn local_support_hinted_f64(&self, dir: &VectorD, hint: &mut u32) -> Point {
        *hint = climb(self, dir, *hint).0;
        self.vertices()[*hint as usize]
    }

    /// The vertex with index `hint`, `None` when out of range.
    #[inline]
    fn local_point_of_hint(&self, hint: u32) -> Option<Point> {
        self.vertices().get(hint as usize).copied()
    }

    /// [`ConvexPolytope::radius`]: the largest distance of a vertex from the local origin.
    #[inline]
    fn local_bounding_radius(&self) -> Real {
        self.radius()
    }

    #[inline]
    fn vertex_rounding(&self) -> f64 {
        ConvexPolytope::vertex_rounding(self)
    }
}

/// Steepest-ascent hill climb in `dir` (local frame, `f64`, any non-zero length) from the better
/// (in `dir`) of `start` (ignored when out of range) and the direction table's vertex for `dir`,
/// or a scan of all vertices for polytopes of at most
/// [`SCAN_VERTICES`]. Returns the supporting vertex and the number of vertex evaluations (for a
/// climb the two candidate starts and the start once, every neighbour examined once per
/// examination; for a scan every vertex).
#[inline]
pub(crate) fn climb(polytope: &ConvexPolytope, dir: &VectorD, start: u32) -> (u32, u32) {
    let n = polytope.vertex_count();
    if n <= SCAN_VERTICES {
        return (polytope.support_brute_force_f64(dir), n as u32);
    }
    let r = polytope.support_hill_climb_f64_warm(dir, start);
    (r.vertex, r.visits)
}
