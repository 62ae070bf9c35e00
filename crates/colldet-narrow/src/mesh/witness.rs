//! What a mesh-mesh collision query reports: which features of the two meshes meet, and where.

use colldet_geom::dcel::{EdgeId, FaceId, VertexId};
use colldet_geom::math::PointD;

use crate::thesis::PairMember;

/// A feature of one mesh of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeshFeature {
    /// A vertex (for containment: the vertex found inside the other, closed, mesh).
    Vertex(VertexId),
    /// An undirected edge.
    Edge(EdgeId),
    /// A face (a polygon of the mesh; for non-planar faces, the fan of triangles from its first
    /// corner).
    Face(FaceId),
    /// The solid enclosed by a closed mesh (the container in a containment witness).
    Interior,
}

/// How the two meshes were found to share a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WitnessKind {
    /// An edge of mesh 1 meets a face of mesh 2 (`feature1` is the edge, `feature2` the face).
    EdgeFace,
    /// A face of mesh 1 meets an edge of mesh 2 (`feature1` is the face, `feature2` the edge).
    FaceEdge,
    /// A face of mesh 1 meets a face of mesh 2 (both features are faces; used by triangle-based
    /// queries).
    FaceFace,
    /// The surfaces do not meet but one mesh lies inside the solid of the other, closed, mesh:
    /// the contained mesh's feature is a [`MeshFeature::Vertex`] found strictly inside, the
    /// container's is [`MeshFeature::Interior`], and the point is that vertex.
    Containment,
}

/// A witness of a collision between mesh 1 and mesh 2 (`p` and `q` of a query taking `pos12`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshWitness {
    /// Which kind of contact this is; fixes the meaning of the two features.
    pub kind: WitnessKind,
    /// The feature of mesh 1.
    pub feature1: MeshFeature,
    /// The feature of mesh 2.
    pub feature2: MeshFeature,
    /// A point shared by both features, in mesh 1's local frame, `f64`. The yes/no decision is
    /// exact; this point is computed in floating point and may be off by rounding (a few ulps of
    /// the coordinates' magnitude).
    pub point: PointD,
}

impl MeshWitness {
    /// A surface contact at `point` (mesh 1's frame): edge `edge` of mesh `edge_of` meets face
    /// `face` of the other mesh. [`WitnessKind::EdgeFace`] when the edge is mesh 1's,
    /// [`WitnessKind::FaceEdge`] when it is mesh 2's; the features in mesh order.
    #[inline]
    pub(crate) fn edge_meets_face(
        edge_of: PairMember,
        edge: EdgeId,
        face: FaceId,
        point: PointD,
    ) -> Self {
        let (edge, face) = (MeshFeature::Edge(edge), MeshFeature::Face(face));
        let (kind, feature1, feature2) = match edge_of {
            PairMember::Shape1 => (WitnessKind::EdgeFace, edge, face),
            PairMember::Shape2 => (WitnessKind::FaceEdge, face, edge),
        };
        Self {
            kind,
            feature1,
            feature2,
            point,
        }
    }

    /// A [`WitnessKind::Containment`] witness: vertex `vertex` of mesh `contained`, at `point`
    /// (mesh 1's frame), lies inside the solid of the other, closed, mesh.
    #[inline]
    pub(crate) fn vertex_inside(contained: PairMember, vertex: VertexId, point: PointD) -> Self {
        let (vertex, interior) = (MeshFeature::Vertex(vertex), MeshFeature::Interior);
        let (feature1, feature2) = match contained {
            PairMember::Shape1 => (vertex, interior),
            PairMember::Shape2 => (interior, vertex),
        };
        Self {
            kind: WitnessKind::Containment,
            feature1,
            feature2,
            point,
        }
    }
}
