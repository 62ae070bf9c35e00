//! Hill climbing to a supporting vertex over the vertex adjacency (Chung-Wang section 2.3).
//!
//! Steepest ascent: at the current vertex every neighbour is evaluated and the walk moves to the
//! best one only if it is strictly better than the current vertex. Strictness makes the computed
//! dot product strictly increase along the walk, so no vertex is entered twice and the walk stops
//! after at most `n - 1` moves, on plateaus of exact ties too. Why the vertex where it stops is a
//! supporting vertex of a convex polytope: see the rationale in [`crate::support`].

use super::{SupportResult, dot};
use crate::adjacency::VertexAdjacency;
use crate::math::{Point, VectorD};

/// Climbs from `start` to a vertex none of whose neighbours is strictly better in `dir`.
///
/// `start` must be `< points.len()` and `adjacency` must describe `points`; callers check both.
#[inline]
pub(crate) fn hill_climb(
    points: &[Point],
    adjacency: &VertexAdjacency,
    dir: &VectorD,
    start: u32,
) -> SupportResult {
    hill_climb_from(
        points,
        adjacency,
        dir,
        start,
        dot(&points[start as usize], dir),
    )
}

/// As [`hill_climb`] with `start_dot = dot(points[start], dir)` already computed (as [`dot`]
/// computes it: the climb compares against it); counts `start` as one visit all the same.
#[inline]
pub(crate) fn hill_climb_from(
    points: &[Point],
    adjacency: &VertexAdjacency,
    dir: &VectorD,
    start: u32,
    start_dot: f64,
) -> SupportResult {
    let mut current = start;
    let mut current_dot = start_dot;
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
            return SupportResult {
                vertex: current,
                visits,
            };
        }
        current = best;
        current_dot = best_dot;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh_data::FaceList;

    /// A unit square (z = 0) with its centre as a fifth vertex: four triangles around the centre.
    fn square_fan() -> (Vec<Point>, VertexAdjacency) {
        let points = vec![
            Point::new(0.0, 0.0, 0.0),
            Point::new(1.0, -1.0, 0.0),
            Point::new(1.0, 1.0, 0.0),
            Point::new(-1.0, 1.0, 0.0),
            Point::new(-1.0, -1.0, 0.0),
        ];
        let faces = FaceList::from_triangles(&[[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 1]]);
        let adjacency = VertexAdjacency::from_faces(points.len(), &faces);
        (points, adjacency)
    }

    #[test]
    fn climbs_from_the_centre_to_the_extreme_corner_and_counts_visits() {
        let (points, adjacency) = square_fan();
        let r = hill_climb(&points, &adjacency, &VectorD::new(1.0, 2.0, 0.0), 0);
        // Centre (1) + its 4 neighbours, move to corner 2, + its 3 neighbours.
        assert_eq!(
            r,
            SupportResult {
                vertex: 2,
                visits: 8
            }
        );
    }

    #[test]
    fn stops_on_plateaus_and_for_degenerate_directions() {
        let (points, adjacency) = square_fan();
        // Normal direction: every vertex ties, so the start is already extreme.
        for start in 0..5 {
            let r = hill_climb(&points, &adjacency, &VectorD::new(0.0, 0.0, 1.0), start);
            assert_eq!(r.vertex, start);
        }
        // Edge direction +x: corners 1 and 2 tie; from the centre the first strictly better is 1.
        let r = hill_climb(&points, &adjacency, &VectorD::new(1.0, 0.0, 0.0), 0);
        assert_eq!(r.vertex, 1);
        let r = hill_climb(&points, &adjacency, &VectorD::new(f64::NAN, 0.0, 0.0), 3);
        assert_eq!(r.vertex, 3);
        let r = hill_climb(&points, &adjacency, &VectorD::zeros(), 4);
        assert_eq!(r.vertex, 4);
    }
}
