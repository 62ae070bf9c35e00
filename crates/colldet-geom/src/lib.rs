//! colldet-geom: the geometry every other colldet crate builds on.
//!
//! Polyhedra given as polygon meshes are built into a DCEL (half-edge structure) and classified
//! (manifold, closed, oriented, planar and convex faces, convex polyhedron, internal edges).
//! Convex polytopes get support mapping (brute force, hill climbing, the Chung-Wang direction
//! table, the Dobkin-Kirkpatrick hierarchy). Bounding volumes, convex hulls and closest points on
//! segments live here too (the shape generators of the tests and benchmarks are in
//! colldet-testkit). Frames, units and precision: see [`math`].

pub mod adjacency;
pub mod bounding;
pub mod classify;
pub mod dcel;
pub mod error;
pub mod hull;
pub mod io;
pub mod math;
pub mod mesh_data;
pub mod normal;
pub mod polyhedron;
pub mod predicates;
pub mod segment;
pub mod support;

pub use adjacency::VertexAdjacency;
pub use bounding::{Aabb, BoundingSphere, Obb, WorldAabb};
pub use classify::{BuildOptions, Classification};
pub use dcel::Dcel;
pub use error::GeomError;
pub use hull::{ConvexHull, convex_hull, convex_hull_polygons};
pub use mesh_data::{FaceList, MeshData};
pub use polyhedron::Polyhedron;
pub use support::{ConvexPolytope, DirectionTable, DkHierarchy, SupportResult};
