//! Dihedral angles: which two-face edges are reflex (concave), hence internal edges and vertices,
//! and whether the surface is locally convex everywhere.
//!
//! For an edge shared by faces `f1` and `f2`, the edge is reflex when some corner of `f2` lies
//! strictly above `f1`'s plane (on its normal's side). A triangle's plane is its three corners and
//! the test is exact; a larger face uses its Newell plane with a tolerance of
//! `planarity_tolerance x` the size of the two faces. Both faces' views are checked, so the result
//! does not depend on which face comes first.

use crate::dcel::{Dcel, EdgeId, FaceId, VertexId};
use crate::math::{Point, VectorD, to_f64};
use crate::predicates::side_of_plane;

use super::face_shape::{corner_centroid, face_diameter};

/// Reflex (internal) edges and vertices.
pub(crate) struct Dihedrals {
    /// Per edge: true when its two faces meet concavely.
    pub internal_edges: Vec<bool>,
    /// Per vertex: true when it has edges and all of them are internal.
    pub internal_vertices: Vec<bool>,
}

/// True when some corner of `other` lies strictly above the plane of `face`.
fn any_corner_above(
    vertices: &[Point],
    face: &[u32],
    normal: &VectorD,
    other: &[u32],
    tolerance: f64,
) -> bool {
    if face.len() == 3 {
        let [a, b, c] = [face[0], face[1], face[2]].map(|i| &vertices[i as usize]);
        return other
            .iter()
            .any(|&i| side_of_plane(a, b, c, &vertices[i as usize]) > 0);
    }
    let length = normal.norm();
    if length == 0.0 {
        return false;
    }
    let unit = normal / length;
    let centroid = corner_centroid(vertices, face);
    let limit = tolerance
        * face_diameter(vertices, face, &centroid).max(face_diameter(
            vertices,
            other,
            &corner_centroid(vertices, other),
        ));
    other
        .iter()
        .any(|&i| (to_f64(&vertices[i as usize]) - centroid).dot(&unit) > limit)
}

/// Classifies every two-face (twinned) edge as reflex or not.
pub(crate) fn classify_dihedrals(
    dcel: &Dcel,
    vertices: &[Point],
    normals: &[VectorD],
    tolerance: f64,
) -> Dihedrals {
    let mut internal_edges = vec![false; dcel.edge_count()];
    for e in (0..dcel.edge_count() as u32).map(EdgeId) {
        let mut hs = dcel.edge_half_edges(e);
        let (Some(h), Some(t), None) = (hs.next(), hs.next(), hs.next()) else {
            continue;
        };
        if dcel.twin(h) != Some(t) {
            continue;
        }
        let (f1, f2): (FaceId, FaceId) = (dcel.face(h), dcel.face(t));
        let (face1, face2) = (dcel.face_vertices(f1), dcel.face_vertices(f2));
        internal_edges[e.index()] =
            any_corner_above(vertices, face1, &normals[f1.index()], face2, tolerance)
                || any_corner_above(vertices, face2, &normals[f2.index()], face1, tolerance);
    }
    // Every edge at a vertex is the edge of an outgoing half-edge or of the half-edge before it.
    let internal_vertices = (0..dcel.vertex_count() as u32)
        .map(VertexId)
        .map(|v| {
            let mut outgoing = dcel.vertex_half_edges(v).peekable();
            outgoing.peek().is_some()
                && outgoing.all(|h| {
                    internal_edges[dcel.edge(h).index()]
                        && internal_edges[dcel.edge(dcel.prev(h)).index()]
                })
        })
        .collect();
    Dihedrals {
        internal_edges,
        internal_vertices,
    }
}
