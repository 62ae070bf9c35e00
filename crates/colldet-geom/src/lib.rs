//! colldet-geom: the geometry every other colldet crate builds on.
//!
//! Polyhedra given as polygon meshes are built into a DCEL (half-edge structure) and classified
//! (manifold, closed, oriented, planar and convex faces, convex polyhedron, internal edges).
//! Convex polytopes get support mapping (brute force, hill climbing, the Chung-Wang direction
//! table, the Dobkin-Kirkpatrick hierarchy). Bounding volumes, convex hulls and the shape
//! generators used by tests and benchmarks live here too. Frames, units and precision: see
//! [`math`].

pub mod adjacency;
pub mod error;
pub mod math;
pub mod mesh_data;
pub mod predicates;
pub mod support;

pub use adjacency::VertexAdjacency;
pub use error::GeomError;
pub use mesh_data::{FaceList, MeshData};
pub use support::{ConvexPolytope, DirectionTable, DkHierarchy, SupportResult};
