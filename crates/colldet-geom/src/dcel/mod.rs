//! The doubly connected edge list (half-edge structure) of a polygon mesh.
//!
//! Layout: half-edges are the face corners in face order, so half-edge `h` of face `f` starts at
//! vertex `faces.face(f)[h - start(f)]`, its `next` is the following corner of the same face, and
//! no per-half-edge `next`/`origin` arrays are stored. Undirected edges are numbered separately;
//! each lists every half-edge that runs along it, so non-manifold edges (three or more faces) and
//! boundary edges (one face) are represented, not rejected. `twin` is set exactly when an edge has
//! two half-edges running in opposite directions.

mod build;
mod ids;
mod validate;

pub use ids::{EdgeId, FaceId, HalfEdgeId, VertexId};
pub use validate::DcelError;

use crate::error::GeomError;
use crate::mesh_data::FaceList;

/// Marks a missing twin.
const NO_TWIN: u32 = u32::MAX;

/// Half-edge structure over a polygon face list, built in linear time by [`Dcel::from_polygons`]
/// or as part of [`crate::Polyhedron::build`].
#[derive(Clone, Debug)]
pub struct Dcel {
    vertex_count: usize,
    faces: FaceList,
    /// Face of each half-edge.
    half_edge_face: Vec<u32>,
    /// Twin of each half-edge, or `NO_TWIN`.
    half_edge_twin: Vec<u32>,
    /// Undirected edge of each half-edge.
    half_edge_edge: Vec<u32>,
    /// The two vertices of each edge, smaller index first.
    edge_vertices: Vec<[u32; 2]>,
    /// `edge_starts[e]..edge_starts[e + 1]` indexes `edge_half_edges`.
    edge_starts: Vec<u32>,
    edge_half_edges: Vec<u32>,
    /// `vertex_starts[v]..vertex_starts[v + 1]` indexes `vertex_half_edges` (outgoing half-edges).
    vertex_starts: Vec<u32>,
    vertex_half_edges: Vec<u32>,
}

impl Dcel {
    /// Builds the half-edge structure of polygon `faces` over `vertex_count` vertices, without
    /// classification or orientation repair (that is [`crate::Polyhedron::build`]).
    ///
    /// # Errors
    /// [`GeomError::IndexOutOfRange`] or [`GeomError::FaceTooSmall`] for a bad face, and
    /// [`GeomError::RepeatedCorner`] when two consecutive corners of a face are the same vertex.
    pub fn from_polygons(vertex_count: usize, faces: FaceList) -> Result<Self, GeomError> {
        for (face, corners) in faces.iter().enumerate() {
            if corners.len() < 3 {
                return Err(GeomError::FaceTooSmall {
                    face,
                    len: corners.len(),
                });
            }
            for (i, &v) in corners.iter().enumerate() {
                if v as usize >= vertex_count {
                    return Err(GeomError::IndexOutOfRange {
                        face,
                        index: i64::from(v),
                        vertex_count,
                    });
                }
                if v == corners[(i + 1) % corners.len()] {
                    return Err(GeomError::RepeatedCorner {
                        face,
                        vertex: v as usize,
                    });
                }
            }
        }
        Ok(Self::build(vertex_count, faces))
    }

    /// Number of vertices (including vertices no face uses).
    pub fn vertex_count(&self) -> usize {
        self.vertex_count
    }

    /// Number of faces.
    pub fn face_count(&self) -> usize {
        self.faces.len()
    }

    /// Number of half-edges (the total number of face corners).
    pub fn half_edge_count(&self) -> usize {
        self.half_edge_face.len()
    }

    /// Number of undirected edges.
    pub fn edge_count(&self) -> usize {
        self.edge_vertices.len()
    }

    /// The faces as vertex-index loops (counter-clockwise seen from outside once oriented).
    pub fn faces(&self) -> &FaceList {
        &self.faces
    }

    /// The vertex loop of face `f`.
    #[inline]
    pub fn face_vertices(&self, f: FaceId) -> &[u32] {
        self.faces.face(f.index())
    }

    /// The first half-edge of face `f`; the others follow by [`Dcel::next`].
    #[inline]
    pub fn face_half_edge(&self, f: FaceId) -> HalfEdgeId {
        HalfEdgeId(self.face_start(f.index()))
    }

    /// The half-edges of face `f` in loop order.
    pub fn face_loop(&self, f: FaceId) -> impl ExactSizeIterator<Item = HalfEdgeId> + '_ {
        let start = self.face_start(f.index());
        (start..start + self.faces.face(f.index()).len() as u32).map(HalfEdgeId)
    }

    /// The vertex a half-edge starts at.
    #[inline]
    pub fn origin(&self, h: HalfEdgeId) -> VertexId {
        let f = self.half_edge_face[h.index()] as usize;
        VertexId(self.faces.face(f)[h.index() - self.face_start(f) as usize])
    }

    /// The vertex a half-edge ends at.
    #[inline]
    pub fn destination(&self, h: HalfEdgeId) -> VertexId {
        self.origin(self.next(h))
    }

    /// The face a half-edge bounds.
    #[inline]
    pub fn face(&self, h: HalfEdgeId) -> FaceId {
        FaceId(self.half_edge_face[h.index()])
    }

    /// The next half-edge around the same face.
    #[inline]
    pub fn next(&self, h: HalfEdgeId) -> HalfEdgeId {
        let f = self.half_edge_face[h.index()] as usize;
        let start = self.face_start(f);
        let len = self.faces.face(f).len() as u32;
        HalfEdgeId(start + (h.0 - start + 1) % len)
    }

    /// The previous half-edge around the same face.
    #[inline]
    pub fn prev(&self, h: HalfEdgeId) -> HalfEdgeId {
        let f = self.half_edge_face[h.index()] as usize;
        let start = self.face_start(f);
        let len = self.faces.face(f).len() as u32;
        HalfEdgeId(start + (h.0 - start + len - 1) % len)
    }

    /// The oppositely directed half-edge on the same edge, if the edge has exactly two faces that
    /// traverse it in opposite directions.
    #[inline]
    pub fn twin(&self, h: HalfEdgeId) -> Option<HalfEdgeId> {
        let t = self.half_edge_twin[h.index()];
        (t != NO_TWIN).then_some(HalfEdgeId(t))
    }

    /// The undirected edge a half-edge runs along.
    #[inline]
    pub fn edge(&self, h: HalfEdgeId) -> EdgeId {
        EdgeId(self.half_edge_edge[h.index()])
    }

    /// The two vertices of an edge, smaller index first.
    #[inline]
    pub fn edge_vertices(&self, e: EdgeId) -> [VertexId; 2] {
        let [a, b] = self.edge_vertices[e.index()];
        [VertexId(a), VertexId(b)]
    }

    /// Every half-edge along an edge: two for a manifold interior edge, one on a boundary, three
    /// or more on a non-manifold edge.
    #[inline]
    pub fn edge_half_edges(&self, e: EdgeId) -> impl ExactSizeIterator<Item = HalfEdgeId> + '_ {
        let range = self.edge_starts[e.index()] as usize..self.edge_starts[e.index() + 1] as usize;
        self.edge_half_edges[range].iter().map(|&h| HalfEdgeId(h))
    }

    /// The faces that use an edge (as many as [`Dcel::edge_half_edges`]).
    pub fn edge_faces(&self, e: EdgeId) -> impl ExactSizeIterator<Item = FaceId> + '_ {
        self.edge_half_edges(e).map(|h| self.face(h))
    }

    /// The half-edges leaving vertex `v` (one per face corner at `v`), in face order.
    #[inline]
    pub fn vertex_half_edges(&self, v: VertexId) -> impl ExactSizeIterator<Item = HalfEdgeId> + '_ {
        let range =
            self.vertex_starts[v.index()] as usize..self.vertex_starts[v.index() + 1] as usize;
        self.vertex_half_edges[range].iter().map(|&h| HalfEdgeId(h))
    }

    /// The faces around vertex `v` (one per corner; a face appears twice only if it visits `v`
    /// twice).
    pub fn vertex_faces(&self, v: VertexId) -> impl ExactSizeIterator<Item = FaceId> + '_ {
        self.vertex_half_edges(v).map(|h| self.face(h))
    }

    /// The edges incident to vertex `v`, each once, ascending.
    pub fn vertex_edges(&self, v: VertexId) -> Vec<EdgeId> {
        let mut edges: Vec<EdgeId> = self
            .vertex_half_edges(v)
            .flat_map(|h| [self.edge(h), self.edge(self.prev(h))])
            .collect();
        edges.sort_unstable();
        edges.dedup();
        edges
    }

    /// The vertices joined to `v` by an edge, each once, ascending (the vertex ring).
    pub fn vertex_neighbours(&self, v: VertexId) -> Vec<VertexId> {
        let mut ring: Vec<VertexId> = self
            .vertex_edges(v)
            .into_iter()
            .map(|e| {
                let [a, b] = self.edge_vertices(e);
                if a == v { b } else { a }
            })
            .collect();
        ring.sort_unstable();
        ring
    }

    /// The outgoing half-edges met when turning around the origin of `h` by `h -> twin(prev(h))`,
    /// starting with `h` and stopping at a boundary or when the ring closes. On a manifold vertex
    /// with a closed ring this is the vertex's whole fan. Always terminates: the rotation is
    /// injective, so its orbit from `h` is a chain or a cycle through `h`.
    pub fn vertex_fan(&self, h: HalfEdgeId) -> VertexFan<'_> {
        VertexFan {
            dcel: self,
            start: h,
            current: Some(h),
        }
    }

    #[inline]
    fn face_start(&self, f: usize) -> u32 {
        self.faces.start(f)
    }
}

/// Iterator over the outgoing half-edges of one vertex fan; see [`Dcel::vertex_fan`].
pub struct VertexFan<'a> {
    dcel: &'a Dcel,
    start: HalfEdgeId,
    current: Option<HalfEdgeId>,
}

impl Iterator for VertexFan<'_> {
    type Item = HalfEdgeId;

    fn next(&mut self) -> Option<HalfEdgeId> {
        let h = self.current?;
        self.current = self
            .dcel
            .twin(self.dcel.prev(h))
            .filter(|&n| n != self.start);
        Some(h)
    }
}
