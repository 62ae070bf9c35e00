//! [`SupportMap`] for [`ConvexPolytope`], and the `f64`-direction hill climb of the Chung-Wang test.
//!
//! Rationale: the trait takes `f32` directions, so GJK and EPA get the polytope's own queries
//! (hill climbing from the warm-start hint, the 8 x 16 direction table without one). The
//! separating-vector test certifies separation from the support values themselves, so it climbs
//! with the `f64` direction unrounded ([`climb`]): rounding the direction to `f32` could cost up to
//! about `1e-7` of the radius in support value, a hundred times the touching band. The climb moves
//! only on strict improvement (it terminates on plateaus); the polytope's hill-climbing graph has
//! the extra tangent-cone edges that make the local maximum global (see
//! [`colldet_geom::support`]).

use crate::SupportMap;
use colldet_geom::ConvexPolytope;
use colldet_geom::math::{Point, Real, Vector, VectorD};

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
}

/// `dot(p, d)` with `p` widened exactly to `f64`.
#[inline(always)]
pub(crate) fn dot(p: &Point, d: &VectorD) -> f64 {
    f64::from(p.x) * d.x + f64::from(p.y) * d.y + f64::from(p.z) * d.z
}

/// Steepest-ascent hill climb in `dir` (local frame, `f64`, any non-zero length) from `start`
/// (replaced by vertex 0 when out of range). Returns the supporting vertex and the number of
/// vertex evaluations (the start once, every neighbour examined once per examination).
#[inline]
pub(crate) fn climb(polytope: &ConvexPolytope, dir: &VectorD, start: u32) -> (u32, u32) {
    let points = polytope.vertices();
    let adjacency = polytope.adjacency();
    let mut current = if (start as usize) < points.len() {
        start
    } else {
        0
    };
    let mut current_dot = dot(&points[current as usize], dir);
    let mut visits = 1u32;
    loop {
        let mut best = current;
        let mut best_dot = current_dot;
        let neighbours = adjacency.neighbours(current);
        visits += neighbours.len() as u32;
        for &n in neighbours {
            let d = dot(&points[n as usize], dir);
            if d > best_dot {
                best_dot = d;
                best = n;
            }
        }
        if best == current {
            return (current, visits);
        }
        current = best;
        current_dot = best_dot;
    }
}
