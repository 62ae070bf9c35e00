//! Features of a convex polyhedron's boundary: vertices, edges and faces, named by DCEL ids.

use colldet_geom::Polyhedron;
use colldet_geom::dcel::{EdgeId, FaceId, VertexId};

/// A feature of a polyhedron's boundary, named by the ids of its [`colldet_geom::Dcel`].
///
/// Vertex ids are the input mesh's vertex indices; an edge is the undirected DCEL edge (its two
/// vertices: [`colldet_geom::Dcel::edge_vertices`]); a face id maps back to the input face through
/// [`Polyhedron::face_source`]. A feature is a closed set: an edge includes its end vertices, a
/// face its boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// A vertex (a point).
    Vertex(VertexId),
    /// An edge (a segment between two vertices).
    Edge(EdgeId),
    /// A face (a planar convex polygon).
    Face(FaceId),
}

impl Feature {
    /// The feature's dimension: 0 for a vertex, 1 for an edge, 2 for a face.
    pub fn dimension(self) -> u8 {
        match self {
            Self::Vertex(_) => 0,
            Self::Edge(_) => 1,
            Self::Face(_) => 2,
        }
    }

    /// True when the id is in range for `poly` and, for a vertex, the vertex is used by a face
    /// (unused input vertices are not on the boundary).
    pub fn is_valid_in(self, poly: &Polyhedron) -> bool {
        let dcel = poly.dcel();
        match self {
            Self::Vertex(v) => {
                v.index() < dcel.vertex_count() && dcel.vertex_half_edges(v).len() > 0
            }
            Self::Edge(e) => e.index() < dcel.edge_count(),
            Self::Face(f) => f.index() < dcel.face_count(),
        }
    }
}
