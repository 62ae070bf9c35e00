//! The hill-climbing graph: face edges plus the few one-way artificial edges that make every
//! vertex's out-edges generate its tangent cone.
//!
//! # Rationale (subtle invariants)
//! Hill climbing stops at a vertex `v` none of whose out-neighbours is strictly better. That
//! vertex is a supporting vertex exactly when the edge vectors `w - v` generate (as a convex
//! cone) the tangent cone of the polytope at `v`: then any better point of the polytope gives a
//! better neighbour. Face-loop edges generate it except in two non-strictly-convex situations,
//! which are repaired here with artificial edges (the "artificial neighbours" of accelerated hill
//! climbing):
//!
//! 1. `v` is a *flat corner* of a polygon face (collinear with its previous and next vertex in the
//!    loop, as with extra vertices on a straight box edge given as one polygon): the loop edges
//!    span only a line, not the face's half-plane at `v`. Added: `v -> w` for a vertex `w` of that
//!    face off the line.
//! 2. All of `v`'s neighbours are coplanar with `v` (a vertex inside a flat face, as in a
//!    triangulated box with grid points): the edges span only the plane, while the tangent cone is
//!    a half-space. For a direction exactly opposite the face normal every neighbour ties and the
//!    climb would stop on the *minimum* face. Added: `v -> u` for the vertex `u` farthest from the
//!    plane (the antipodal vertex of the face), strictly off the plane. A flat polytope (every
//!    vertex on the plane) needs nothing: there the tangent cone is the plane itself.
//!
//! 3. A polygon face of four or more vertices that is not exactly planar (a quad of a sphere whose
//!    corners were rounded to `f32`, accepted as convex within the classification's tolerance):
//!    the true hull folds it along one of its diagonals, an edge the face loop lacks, and a climb
//!    could stop one rounding short of the opposite corner. Added: every diagonal of such a face,
//!    both ways.
//!
//! All decisions (collinear, coplanar, strictly off the plane) are exact; approximate `f64`
//! distances only choose among candidates. Artificial edges are one-way, so a popular antipodal
//! vertex does not collect thousands of neighbours.

use crate::adjacency::VertexAdjacency;
use crate::math::{Point, to_f64};
use crate::mesh_data::FaceList;
use crate::predicates::{collinear, side_of_plane};

/// The hill-climbing graph of the convex polytope with vertices `points` and faces `faces`
/// (indices `< points.len()`): every face-loop edge in both directions plus the artificial
/// one-way edges described in the module documentation.
pub(crate) fn hill_climbing_graph(points: &[Point], faces: &FaceList) -> VertexAdjacency {
    let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(faces.index_count() * 2);
    for face in faces.iter() {
        let m = face.len();
        for (k, &v) in face.iter().enumerate() {
            let next = face[(k + 1) % m];
            if v != next {
                pairs.push((v, next));
                pairs.push((next, v));
            }
            let prev = face[(k + m - 1) % m];
            if let Some(w) = off_line_face_vertex(points, face, prev, v, next) {
                pairs.push((v, w));
            }
        }
        if m >= 4 && !exactly_planar(points, face) {
            for (i, &v) in face.iter().enumerate() {
                for (j, &w) in face.iter().enumerate().skip(i + 2) {
                    if v != w && !(i == 0 && j == m - 1) {
                        pairs.push((v, w));
                        pairs.push((w, v));
                    }
                }
            }
        }
    }
    let face_graph = VertexAdjacency::from_directed_pairs(points.len(), pairs.clone());
    let mut cache: Option<FlatCache> = None;
    for v in 0..points.len() as u32 {
        if let Some(u) = flat_star_escape(points, &face_graph, v, &mut cache) {
            pairs.push((v, u));
        }
    }
    VertexAdjacency::from_directed_pairs(points.len(), pairs)
}

/// True when every vertex of `face` lies exactly on the plane of its first three non-collinear
/// vertices (a face whose vertices are all collinear counts as planar).
fn exactly_planar(points: &[Point], face: &[u32]) -> bool {
    let p = |i: u32| &points[i as usize];
    let a = p(face[0]);
    let Some(b) = face.iter().map(|&i| p(i)).find(|q| *q != a) else {
        return true;
    };
    let Some(c) = face.iter().map(|&i| p(i)).find(|q| !collinear(a, b, q)) else {
        return true;
    };
    face.iter().all(|&i| side_of_plane(a, b, c, p(i)) == 0)
}

/// For a flat corner `v` of `face` (collinear with its loop neighbours `prev` and `next`), a
/// vertex of the face off that line; `None` if `v` is a proper corner or the face is degenerate.
fn off_line_face_vertex(
    points: &[Point],
    face: &[u32],
    prev: u32,
    v: u32,
    next: u32,
) -> Option<u32> {
    let p = |i: u32| &points[i as usize];
    if !collinear(p(prev), p(v), p(next)) {
        return None;
    }
    let other = if p(prev) != p(v) { prev } else { next };
    if p(other) == p(v) {
        return None;
    }
    face.iter()
        .copied()
        .find(|&w| !collinear(p(other), p(v), p(w)))
}

/// The last plane (three points on it) whose escape vertex was found, and that vertex (`None`
/// when the polytope is flat in that plane).
struct FlatCache {
    plane: [Point; 3],
    escape: Option<u32>,
}

/// If all out-neighbours of `v` are coplanar with `v` (and span a plane), the vertex farthest
/// from that plane, strictly off it; `None` otherwise or when the polytope is flat.
fn flat_star_escape(
    points: &[Point],
    graph: &VertexAdjacency,
    v: u32,
    cache: &mut Option<FlatCache>,
) -> Option<u32> {
    let p = |i: u32| &points[i as usize];
    let neighbours = graph.neighbours(v);
    let a = *neighbours.iter().find(|&&a| p(a) != p(v))?;
    let b = *neighbours.iter().find(|&&b| !collinear(p(v), p(a), p(b)))?;
    if neighbours
        .iter()
        .any(|&w| side_of_plane(p(v), p(a), p(b), p(w)) != 0)
    {
        return None;
    }
    if let Some(c) = cache {
        let [q0, q1, q2] = &c.plane;
        let same_plane = [v, a, b]
            .iter()
            .all(|&x| side_of_plane(q0, q1, q2, p(x)) == 0);
        if same_plane {
            return c.escape;
        }
    }
    let (pv, pa, pb) = (to_f64(p(v)), to_f64(p(a)), to_f64(p(b)));
    let normal = (pa - pv).cross(&(pb - pv));
    let height = |i: usize| normal.dot(&(to_f64(&points[i]) - pv)).abs();
    let mut best = (0..points.len()).max_by(|&i, &j| height(i).total_cmp(&height(j)))?;
    if side_of_plane(p(v), p(a), p(b), &points[best]) == 0 {
        best = (0..points.len())
            .find(|&i| side_of_plane(p(v), p(a), p(b), &points[i]) != 0)
            .unwrap_or(usize::MAX);
    }
    let escape = (best != usize::MAX).then_some(best as u32);
    *cache = Some(FlatCache {
        plane: [*p(v), *p(a), *p(b)],
        escape,
    });
    escape
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The corners 0 to 3 of a square in z = 0 (counter-clockwise seen from +z) and its centre 4.
    fn flat_star() -> [Point; 5] {
        [
            Point::new(1.0, 1.0, 0.0),
            Point::new(-1.0, 1.0, 0.0),
            Point::new(-1.0, -1.0, 0.0),
            Point::new(1.0, -1.0, 0.0),
            Point::new(0.0, 0.0, 0.0),
        ]
    }

    #[test]
    fn flat_corner_and_flat_star_get_escape_edges() {
        // A unit square pyramid whose base is the polygon 0,4,1,2,3 with vertex 4 the midpoint of
        // edge 0-1 (a flat corner), apex 5 above the centre.
        let points = vec![
            Point::new(0.0, 0.0, 0.0),
            Point::new(2.0, 0.0, 0.0),
            Point::new(2.0, 2.0, 0.0),
            Point::new(0.0, 2.0, 0.0),
            Point::new(1.0, 0.0, 0.0),
            Point::new(1.0, 1.0, 3.0),
        ];
        let mut faces = FaceList::new();
        faces.push(&[0, 3, 2, 1, 4]);
        faces.push(&[0, 4, 1, 5]);
        faces.push(&[1, 2, 5]);
        faces.push(&[2, 3, 5]);
        faces.push(&[3, 0, 5]);
        let graph = hill_climbing_graph(&points, &faces);
        // Vertex 4 has loop neighbours 0, 1 (base and side) and 5 (side); the base needs an
        // off-line vertex: 3 or 2, the first found in the loop order is 3.
        assert_eq!(graph.neighbours(4), &[0, 1, 3, 5]);
        assert_eq!(graph.neighbours(0), &[3, 4, 5]);

        // A flat star: centre 4 of a square split into four triangles, apex 5 below.
        let mut points = flat_star().to_vec();
        points.push(Point::new(0.2, 0.1, -1.0));
        let faces = FaceList::from_triangles(&[
            [4, 0, 1],
            [4, 1, 2],
            [4, 2, 3],
            [4, 3, 0],
            [0, 5, 1],
            [1, 5, 2],
            [2, 5, 3],
            [3, 5, 0],
        ]);
        let graph = hill_climbing_graph(&points, &faces);
        assert_eq!(graph.neighbours(4), &[0, 1, 2, 3, 5]);
        assert_eq!(graph.neighbours(5), &[0, 1, 2, 3]);
    }

    #[test]
    fn flat_polytopes_get_no_escape_edges() {
        let points = flat_star();
        let faces = FaceList::from_triangles(&[[4, 0, 1], [4, 1, 2], [4, 2, 3], [4, 3, 0]]);
        let graph = hill_climbing_graph(&points, &faces);
        assert_eq!(graph, VertexAdjacency::from_faces(5, &faces));
    }
}
