//! Bounding-volume hierarchies over a polyhedron's triangles, for mesh-mesh surface intersection
//! and distance.
//!
//! * [`MeshBvh`]: a binary tree over the triangles of a [`MeshData`](colldet_geom::MeshData)
//!   (polygon faces fan-triangulated, each triangle keeping its [`SourceFaceId`]), generic over
//!   the node volume ([`Aabb`] or [`Obb`], see
//!   [`BvhVolume`]). Built top-down ([`MeshBvh::build`], [`BvhBuildOptions`], [`SplitRule`]),
//!   refitted after the vertices move ([`MeshBvh::refit`]), checked by [`MeshBvh::validate`].
//! * [`mesh_surfaces_intersect`]: simultaneous traversal of two trees, `pos12` being shape 2's
//!   pose in shape 1's frame; reports the intersecting triangle pairs (first or all, see
//!   [`MeshIntersectionOptions`]) through a reusable [`MeshQueryWorkspace`].
//! * [`mesh_distance`]: distance and closest points between two meshes (box lower bounds from
//!   projections on the face normals,
//!   closer pair first, pruning by the best distance so far, warm start from a
//!   [`MeshDistanceCache`]), with [`triangle_distance`] as the leaf test.
//!
//! Surface semantics only: two closed meshes one inside the other do not intersect here; solid
//! (containment) semantics are layered on top by the callers.
//!
//! # Layout
//! Nodes live in one array, root first; the two children of an internal node are adjacent
//! (`first`, `first + 1`) and always stored after their parent. Each leaf holds 1 to
//! [`BvhBuildOptions::max_leaf_triangles`] (at most 4) consecutive triangles of the tree's
//! reordered triangle array, so [`TriangleId`]s index that array. A node is its volume plus two
//! `u32`: 32 bytes with an AABB, 68 with an OBB.

mod bvh_build;
mod bvh_distance;
mod bvh_refit;
mod bvh_tolerance;
mod bvh_traverse;
mod bvh_validation;
mod bvh_volume;
mod leaf_pair;
mod obb_fit;
mod obb_pair;
mod obb_rss;
mod pair_queue;
mod placed_volume;
mod rss;
mod triangle_distance;

pub use bvh_build::{BvhBuildOptions, SplitRule};
pub use bvh_distance::{MeshDistance, MeshDistanceCache, MeshDistanceOptions, mesh_distance};
pub use bvh_tolerance::mesh_within_distance;
pub use bvh_traverse::{
    ContactReport, ExactTriangleTest, MeshIntersectionOptions, MeshQueryWorkspace, TrianglePairHit,
    TrianglePairTest, mesh_surfaces_intersect, mesh_surfaces_intersect_with,
    surfaces_intersect_brute_force,
};
pub use bvh_volume::{BvhPairFrame, BvhVolume};
pub use obb_rss::ObbRss;
pub use placed_volume::PlacedVolume;
pub use rss::Rss;
pub use triangle_distance::{TriangleDistance, triangle_distance};

use colldet_geom::Aabb;
use colldet_geom::Obb;
use colldet_geom::math::{Point, PointD, to_f64};

/// Index of a triangle in a [`MeshBvh`]'s (reordered) triangle array; stable across
/// [`MeshBvh::refit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TriangleId(pub u32);

/// Index of the polygon face of the source [`MeshData`](colldet_geom::MeshData) a triangle was
/// cut from (its position in `MeshData::faces`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceFaceId(pub u32);

/// One node: its volume, and either its two children (`count == 0`: children `first` and
/// `first + 1`) or its triangles (`count > 0`: triangles `first .. first + count`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BvhNode<V> {
    /// The node's bounding volume, local frame of the mesh.
    pub volume: V,
    first: u32,
    count: u32,
}

impl<V> BvhNode<V> {
    /// True for a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }

    /// The indices of the two children of an internal node, `None` for a leaf.
    #[inline]
    pub fn children(&self) -> Option<[u32; 2]> {
        (self.count == 0).then_some([self.first, self.first + 1])
    }

    /// The triangles of a leaf as a range of [`TriangleId`] values, `None` for an internal node.
    #[inline]
    pub fn triangles(&self) -> Option<std::ops::Range<u32>> {
        (self.count > 0).then_some(self.first..self.first + self.count)
    }
}

/// A bounding-volume hierarchy over the triangles of one mesh, in the mesh's local frame.
/// See the [module docs](self) for the layout.
#[derive(Clone, Debug)]
pub struct MeshBvh<V: BvhVolume> {
    vertices: Vec<Point>,
    /// The positions as given in `f64` when some are not `f32` numbers
    /// ([`MeshData::precise_vertices`](colldet_geom::MeshData::precise_vertices)); the leaf
    /// tests read them, the volumes are fitted to `vertices`.
    precise: Option<Vec<PointD>>,
    /// Largest `|given - f32 copy|_1` of a vertex: the pair tests widen their margin by it.
    rounding: f64,
    triangles: Vec<[u32; 3]>,
    faces: Vec<SourceFaceId>,
    nodes: Vec<BvhNode<V>>,
    /// The axes-error bound of `nodes` returned by [`BvhVolume::fit_tree`], kept current by
    /// build and refit.
    axes_error: f64,
}

/// A [`MeshBvh`] with local-frame axis-aligned boxes as node volumes: the cheaper tree to build
/// and refit (several times faster than [`ObbBvh`], half the memory), slower to query in close
/// proximity (see `benches/mesh_pair.rs`).
pub type AabbBvh = MeshBvh<Aabb>;
/// A [`MeshBvh`] with covariance-fitted oriented boxes (RAPID's OBB tree) as node volumes: the
/// faster tree for close-proximity queries (far fewer volume tests), slower to build and refit.
pub type ObbBvh = MeshBvh<Obb>;
/// A [`MeshBvh`] with PQP's rectangle swept spheres as node volumes (axes and centre of the
/// node's OBB, then sized around its vertices): overlap tests by the RSS distance bound.
pub type RssBvh = MeshBvh<Rss>;
/// A [`MeshBvh`] with both an OBB and an RSS per node (PQP's and FCL's OBBRSS): the box's
/// overlap test for collision, the RSS's distance bound for distance and tolerance queries.
pub type ObbRssBvh = MeshBvh<ObbRss>;

impl<V: BvhVolume> MeshBvh<V> {
    /// The mesh's vertices (local frame), as given to [`MeshBvh::build`] or [`MeshBvh::refit`].
    #[inline]
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// The nodes, root first (see the [module docs](self) for the layout).
    #[inline]
    pub fn nodes(&self) -> &[BvhNode<V>] {
        &self.nodes
    }

    /// The root's volume (bounds the whole mesh).
    #[inline]
    pub fn root_volume(&self) -> &V {
        &self.nodes[0].volume
    }

    /// Number of triangles (after fan triangulation).
    #[inline]
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// The vertex indices of triangle `id` (counter-clockwise as in its source face).
    /// Panics if `id` is out of range.
    #[inline]
    pub fn triangle_indices(&self, id: TriangleId) -> [u32; 3] {
        self.triangles[id.0 as usize]
    }

    /// The corners of triangle `id`, local frame. Panics if `id` is out of range.
    #[inline]
    pub fn triangle(&self, id: TriangleId) -> [Point; 3] {
        self.triangles[id.0 as usize].map(|i| self.vertices[i as usize])
    }

    /// The corners of triangle `id` exactly as given, in `f64` (the `f32` vertices widened, or
    /// the precise `f64` positions of a mesh given in `f64`), local frame. Panics if `id` is out
    /// of range.
    #[inline]
    pub fn triangle_f64(&self, id: TriangleId) -> [PointD; 3] {
        let corners = self.triangles[id.0 as usize];
        match &self.precise {
            Some(p) => corners.map(|i| p[i as usize]),
            None => corners.map(|i| to_f64(&self.vertices[i as usize])),
        }
    }

    /// A bound on how far a vertex of [`MeshBvh::vertices`] (the `f32` copy the volumes are
    /// fitted to) is from its position as given, in `|.|_1`; 0 for `f32` input.
    #[inline]
    pub fn vertex_rounding(&self) -> f64 {
        self.rounding
    }

    /// The source face triangle `id` was cut from. Panics if `id` is out of range.
    #[inline]
    pub fn source_face(&self, id: TriangleId) -> SourceFaceId {
        self.faces[id.0 as usize]
    }

    /// Bytes held by the tree's own arrays (nodes, triangle indices, face ids), excluding the
    /// copy of the vertices.
    pub fn tree_bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<BvhNode<V>>()
            + self.triangles.len() * std::mem::size_of::<[u32; 3]>()
            + self.faces.len() * std::mem::size_of::<SourceFaceId>()
    }

    /// [`MeshBvh::tree_bytes`] per triangle.
    pub fn bytes_per_triangle(&self) -> f64 {
        self.tree_bytes() as f64 / self.triangles.len() as f64
    }
}
