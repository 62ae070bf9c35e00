//! A polyhedron ready for collision detection: vertices, DCEL, unit face normals, and its
//! classification, built from raw [`MeshData`] in linear time (plus the exact predicates).

use crate::classify::{
    BuildOptions, Classification, classify_dihedrals, classify_faces, classify_topology,
    clean_faces, orient, weld_coincident,
};
use crate::dcel::{Dcel, EdgeId, FaceId, VertexId};
use crate::error::GeomError;
use crate::math::{Point, PointD, Vector, is_bounded_point, to_f64};
use crate::mesh_data::{FaceList, MeshData};

/// A b-rep polyhedron in its local frame. Faces run counter-clockwise seen from outside (for
/// closed, orientable components; see [`Classification`]).
#[derive(Clone, Debug)]
pub struct Polyhedron {
    vertices: Vec<Point>,
    /// The `f64` positions as given, when some are not `f32` numbers ([`MeshData::from_f64`]).
    precise: Option<Vec<PointD>>,
    /// Largest `|given - f32 copy|_1` over the vertices (0 without precise positions).
    rounding: f64,
    dcel: Dcel,
    /// Unit outward normal of each face (Newell's, rounded to `f32`; zero for zero-area faces
    /// that survived clean-up because they are not collinear but self-cancelling).
    face_normals: Vec<Vector>,
    /// Input face index of each face.
    face_source: Vec<u32>,
    internal_edges: Vec<bool>,
    internal_vertices: Vec<bool>,
    classification: Classification,
}

impl Polyhedron {
    /// Validates, welds, cleans, orients and classifies a mesh.
    ///
    /// Vertices at exactly the same position are merged into the lowest index at that position
    /// for the DCEL and the classification (unless [`BuildOptions::weld_coincident_vertices`] is
    /// off); positions and face sources stay as given. Zero-area faces are dropped (counted in the classification); inconsistent orientation is
    /// repaired when the surface is orientable and closed components are turned outward. Open,
    /// non-manifold and non-convex meshes are accepted and classified.
    ///
    /// # Errors
    /// Everything [`MeshData::validate`] rejects, [`GeomError::CoordinateTooLarge`] for a vertex
    /// coordinate of magnitude above [`MAX_COORDINATE`](crate::math::MAX_COORDINATE) (radii,
    /// boxes and distances could overflow), and [`GeomError::AllFacesDegenerate`] when no face
    /// has area.
    pub fn build(mesh: MeshData, options: &BuildOptions) -> Result<Self, GeomError> {
        mesh.validate()?;
        if let Some(vertex) = mesh.vertices.iter().position(|p| !is_bounded_point(p)) {
            return Err(GeomError::CoordinateTooLarge { vertex });
        }
        let welding = weld_coincident(&mesh);
        let welded = options.weld_coincident_vertices;
        let clean = clean_faces(&mesh, welded.then_some(welding.representative.as_slice()));
        if clean.faces.is_empty() {
            return Err(GeomError::AllFacesDegenerate {
                faces: mesh.faces.len(),
            });
        }
        let precise = mesh.precise_vertices().map(<[PointD]>::to_vec);
        let rounding = mesh.vertex_rounding();
        let vertices = mesh.vertices;
        let mut dcel = Dcel::build(vertices.len(), clean.faces);
        let orientation = orient(&dcel, &vertices);
        let flipped_faces = orientation.flips.iter().filter(|&&f| f).count();
        if flipped_faces > 0 {
            let mut faces = FaceList::with_capacity(dcel.face_count(), dcel.faces().index_count());
            let mut corners = Vec::new();
            for (face, &flip) in dcel.faces().iter().zip(&orientation.flips) {
                corners.clear();
                corners.extend_from_slice(face);
                if flip {
                    corners[1..].reverse();
                }
                faces.push(&corners);
            }
            dcel = Dcel::build(vertices.len(), faces);
        }

        let topology = classify_topology(&dcel);
        let shapes = classify_faces(&dcel, &vertices, options.planarity_tolerance);
        let dihedrals = classify_dihedrals(
            &dcel,
            &vertices,
            &shapes.normals,
            options.planarity_tolerance,
        );
        let internal_edge_count = dihedrals.internal_edges.iter().filter(|&&i| i).count();
        let manifold =
            topology.non_manifold_edges.is_empty() && topology.non_manifold_vertices.is_empty();
        let oriented = orientation.orientable;
        let planar_faces = shapes.non_planar.is_empty();
        let convex_faces = shapes.non_convex.is_empty();
        let convex = manifold
            && topology.closed
            && oriented
            && topology.components == 1
            && topology.euler_characteristic == 2
            && planar_faces
            && convex_faces
            && internal_edge_count == 0;
        let source = &clean.source;
        let classification = Classification {
            manifold,
            non_manifold_edges: topology.non_manifold_edges,
            non_manifold_vertices: topology.non_manifold_vertices,
            closed: topology.closed,
            boundary_edge_count: topology.boundary_edge_count,
            oriented,
            input_consistently_oriented: orientation.conflicts.is_empty(),
            orientation_conflicts: orientation
                .conflicts
                .iter()
                .map(|(a, b)| (source[a.index()], source[b.index()]))
                .collect(),
            flipped_faces,
            inverted_fixed: orientation.inverted_fixed,
            planar_faces,
            non_planar_faces: shapes.non_planar,
            convex_faces,
            non_convex_faces: shapes.non_convex,
            convex,
            components: topology.components,
            euler_characteristic: topology.euler_characteristic,
            degenerate_faces_dropped: clean.dropped,
            duplicate_vertices: welding.duplicates,
            welded,
            unused_vertices: clean.unused_vertices,
            internal_edge_count,
            internal_vertex_count: dihedrals.internal_vertices.iter().filter(|&&i| i).count(),
        };
        let face_normals = shapes
            .normals
            .iter()
            .map(|n| {
                let length = n.norm();
                if length > 0.0 {
                    nalgebra::convert(n / length)
                } else {
                    Vector::zeros()
                }
            })
            .collect();
        Ok(Self {
            vertices,
            precise,
            rounding,
            dcel,
            face_normals,
            face_source: clean.source,
            internal_edges: dihedrals.internal_edges,
            internal_vertices: dihedrals.internal_vertices,
            classification,
        })
    }

    /// Vertex positions in the local frame (all input vertices, unused ones included, so vertex
    /// ids are the input's indices). After welding, the faces use the lowest index at each
    /// position and its duplicates belong to no face.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// The position of vertex `v` (the `f32` copy).
    #[inline]
    pub fn vertex(&self, v: VertexId) -> &Point {
        &self.vertices[v.index()]
    }

    /// Vertex `i` exactly as given, in `f64`: the exact tests decide about these values. Panics
    /// if `i` is out of range.
    #[inline]
    pub fn vertex_f64(&self, i: usize) -> PointD {
        match &self.precise {
            Some(p) => p[i],
            None => to_f64(&self.vertices[i]),
        }
    }

    /// The `f64` positions as given, when the mesh was given in `f64` and some coordinate is not
    /// an `f32` number; `None` when [`Polyhedron::vertices`] is the exact input.
    pub fn precise_vertices(&self) -> Option<&[PointD]> {
        self.precise.as_deref()
    }

    /// A bound on how far the `f32` copy of any vertex is from the position as given (the
    /// largest `|given - copy|_1`, so it bounds the change of a projection on any unit vector):
    /// boxes, hulls and trees fitted to the copy are widened by it. 0 for `f32` input.
    pub fn vertex_rounding(&self) -> f64 {
        self.rounding
    }

    /// The half-edge structure.
    pub fn dcel(&self) -> &Dcel {
        &self.dcel
    }

    /// Unit normal of face `f` (outward for closed oriented meshes).
    #[inline]
    pub fn face_normal(&self, f: FaceId) -> &Vector {
        &self.face_normals[f.index()]
    }

    /// The input face index face `f` was built from.
    #[inline]
    pub fn face_source(&self, f: FaceId) -> u32 {
        self.face_source[f.index()]
    }

    /// True when edge `e` is internal (its faces meet concavely; it can never be a first contact).
    #[inline]
    pub fn is_internal_edge(&self, e: EdgeId) -> bool {
        self.internal_edges[e.index()]
    }

    /// True when all edges of vertex `v` are internal.
    #[inline]
    pub fn is_internal_vertex(&self, v: VertexId) -> bool {
        self.internal_vertices[v.index()]
    }

    /// What the build found out about the mesh.
    pub fn classification(&self) -> &Classification {
        &self.classification
    }
}
