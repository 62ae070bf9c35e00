//! Exact building blocks for arbitrary (non-convex, possibly open) polyhedra.
//!
//! * [`triangle_triangle`]: exact closed triangle-triangle and segment-triangle tests.
//! * [`edge_polygon`]: the thesis's lazy edge-face test, exact, coplanar contacts included, and
//!   the exact 2D crossing test for point in polygon.
//! * [`point_in_polyhedron`](mod@point_in_polyhedron): exact ray parity with symbolic perturbation.
//! * [`thesis_arbitrary`](mod@thesis_arbitrary): the thesis's edges-against-polygons test with
//!   its pre-checks (surfaces only).
//! * [`point_in_polyhedron_bvh`](mod@point_in_polyhedron_bvh): the same parity with the ray cast
//!   through a tree of the faces.
//! * [`solid_semantics`]: [`meshes_collide`], surfaces plus containment in closed meshes;
//!   [`containment_bvh`], containment accelerated by the trees.
//! * [`witness`]: [`MeshWitness`], what mesh-mesh queries report.
//! * [`bvh`]: bounding-volume hierarchies over a mesh's triangles, simultaneous traversal of two
//!   trees for surface intersection (leaf test [`triangles_intersect_f64`]), and mesh-mesh
//!   distance with closest points.
//! * [`box_tree`]: the thesis's box trees (oriented partition trees, incremental Cyrus-Beck
//!   box-box test, simultaneous traversal) and the surface query built on them.
//!
//! All decisions are exact for the `f64` coordinates they are given (local `f32` data widens
//! exactly; a second mesh is mapped by `pos12` into the first one's frame once per vertex, and
//! the answer is exact for those mapped positions). Witness points are approximate. A face is the
//! polygon bounded by its corner loop when its corners are exactly coplanar, and the fan of
//! triangles from its first corner otherwise.

pub mod box_tree;
pub mod bvh;
pub mod edge_polygon;
mod exact;
pub mod point_in_polyhedron;
pub mod point_in_polyhedron_bvh;
pub mod solid_semantics;
#[cfg(test)]
mod test_support;
pub mod thesis_arbitrary;
pub mod triangle_triangle;
pub mod witness;

pub use edge_polygon::{edge_polygon_intersect, point_in_polygon_2d};
pub use point_in_polyhedron::{
    PointLocation, encloses_solid, point_in_polyhedron, point_in_polyhedron_with,
};
pub use point_in_polyhedron_bvh::point_in_polyhedron_bvh;
pub use solid_semantics::{
    ComponentSeeds, SolidMesh, containment_bvh, containment_with, meshes_collide,
    meshes_collide_with,
};
pub use thesis_arbitrary::{ArbitraryOptions, ArbitraryWorkspace, thesis_arbitrary};
pub use triangle_triangle::{
    segment_triangle_intersect, triangles_intersect, triangles_intersect_f64,
};
pub use witness::{MeshFeature, MeshWitness, WitnessKind};
