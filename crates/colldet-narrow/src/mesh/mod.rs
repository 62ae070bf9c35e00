//! Pairwise queries on arbitrary (non-convex) polyhedra given as polygon meshes.
//!
//! * [`bvh`]: bounding-volume hierarchies over a mesh's triangles, simultaneous traversal of two
//!   trees for surface intersection, and mesh-mesh distance with closest points.

pub mod bvh;
