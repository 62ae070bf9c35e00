//! Topological and geometric classification of a polyhedron, computed once when it is built.
//!
//! What the flags mean (the collision layers rely on these exact definitions):
//! - **manifold**: every edge is used by at most two faces and the faces around every vertex form
//!   one fan. Non-manifold edges and vertices are listed.
//! - **closed** (watertight): every edge is used by an even number (at least two) of faces, so the
//!   parity of ray crossings defines an inside. Two cubes sharing an edge are closed but not
//!   manifold; a box with a missing face is neither open-safe nor closed.
//! - **oriented**: after building, neighbouring faces traverse every two-face edge in opposite
//!   directions. Inconsistent input is re-oriented when the surface is orientable; the conflicts
//!   found in the input are reported. Closed components are turned outward (positive volume).
//! - **planar faces**: every vertex of every face lies within
//!   `planarity_tolerance x face diameter` of the face's Newell plane.
//! - **convex faces**: every face turns the same way at every corner and winds once.
//! - **convex**: manifold, closed, oriented, one component of genus 0, planar and convex faces, and
//!   no reflex dihedral angle (coplanar neighbours are allowed). By Hadamard's theorem such a
//!   surface bounds a convex solid.
//! - **internal edges** (DOOM III section 4): two-face edges whose faces meet concavely (a vertex
//!   of one face lies strictly above the other's plane); **internal vertices** have only internal
//!   edges. Neither can be the first contact of a polyhedron with another.
//!
//! All of them are computed after welding (by default, [`BuildOptions::weld_coincident_vertices`]):
//! vertices at exactly the same position, in the precision given (`f64` when the mesh keeps it,
//! `-0.0 = 0.0`), are one vertex, the lowest input index at that position, so a triangle soup with
//! every corner repeated (STL) that encloses a volume is closed and oriented. Positions, face
//! sources and vertex ids stay the input's.

mod cleanup;
mod dihedral;
mod face_shape;
mod orientation;
mod topology;
mod weld;

pub(crate) use cleanup::clean_faces;
pub(crate) use dihedral::classify_dihedrals;
pub(crate) use face_shape::classify_faces;
pub(crate) use orientation::orient;
pub(crate) use topology::classify_topology;
pub(crate) use weld::weld_coincident;

use crate::dcel::{EdgeId, FaceId, VertexId};

/// Tolerances for building a polyhedron. All are relative to the size of the feature they test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildOptions {
    /// A face is planar when each vertex is within this fraction of the face's diameter from the
    /// face's Newell plane. Also the tolerance for reflex-angle tests between non-triangular faces
    /// (triangles are tested exactly).
    pub planarity_tolerance: f64,
    /// Merge vertices at exactly the same position (equal `f64` values when the mesh keeps them,
    /// equal `f32` values otherwise; `-0.0` equals `0.0`) before building the DCEL, so that a
    /// triangle soup is classified by its shape, not by how its corners are numbered. The merged
    /// vertex is the lowest input index at that position; [`crate::Polyhedron::vertices`] and
    /// face sources stay as given. Default `true`.
    pub weld_coincident_vertices: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            planarity_tolerance: 1e-5,
            weld_coincident_vertices: true,
        }
    }
}

/// Everything [`crate::Polyhedron::build`] found out about a mesh. Face ids refer to the built
/// polyhedron; `orientation_conflicts` uses the input's face indices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Classification {
    /// See the module docs.
    pub manifold: bool,
    /// Edges used by three or more faces.
    pub non_manifold_edges: Vec<EdgeId>,
    /// Vertices whose faces form more than one fan.
    pub non_manifold_vertices: Vec<VertexId>,
    /// See the module docs.
    pub closed: bool,
    /// Edges used by exactly one face.
    pub boundary_edge_count: usize,
    /// True when the built faces are consistently oriented (every two-face edge traversed in
    /// opposite directions).
    pub oriented: bool,
    /// True when the input already was consistently oriented.
    pub input_consistently_oriented: bool,
    /// Pairs of input faces that traverse a shared edge in the same direction.
    pub orientation_conflicts: Vec<(u32, u32)>,
    /// Faces whose vertex order was reversed to make the orientation consistent and outward.
    pub flipped_faces: usize,
    /// True when a closed component came in inside-out and was turned outward.
    pub inverted_fixed: bool,
    /// See the module docs.
    pub planar_faces: bool,
    /// Faces that are not planar within tolerance.
    pub non_planar_faces: Vec<FaceId>,
    /// See the module docs.
    pub convex_faces: bool,
    /// Faces that are not convex polygons.
    pub non_convex_faces: Vec<FaceId>,
    /// See the module docs.
    pub convex: bool,
    /// Number of connected components (faces linked through shared edges).
    pub components: usize,
    /// Euler characteristic `V - E + F` over used vertices.
    pub euler_characteristic: i64,
    /// Input faces dropped because they have zero area (all vertices on one line).
    pub degenerate_faces_dropped: usize,
    /// Vertices at exactly the same position (in the precision given) as a lower index; the
    /// number of distinct positions is the vertex count minus this.
    pub duplicate_vertices: usize,
    /// True when the duplicates were merged into the lowest index at their position for the
    /// DCEL and every flag ([`BuildOptions::weld_coincident_vertices`]).
    pub welded: bool,
    /// Vertices no kept face refers to in the input (before welding).
    pub unused_vertices: usize,
    /// Number of internal (concave) edges.
    pub internal_edge_count: usize,
    /// Number of vertices all of whose edges are internal.
    pub internal_vertex_count: usize,
}
