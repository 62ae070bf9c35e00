//! The collision geometry of one object, prepared once when it is made collidable: the
//! classified polyhedron, its convex polytope (for convex objects, or the hull when a convex
//! method is forced), and its local bounding box.

use std::sync::OnceLock;

use colldet_geom::dcel::VertexId;
use colldet_geom::math::{Point, PointD, Pose, Vector, to_f64};
use colldet_geom::{Aabb, ConvexPolytope, GeomError, MeshData, Polyhedron, WorldAabb};
use colldet_narrow::NarrowError;
use colldet_narrow::mesh::box_tree::{BoxTreeMesh, BoxTreeOptions};
use colldet_narrow::mesh::bvh::{BvhBuildOptions, ObbBvh};

/// Relative widening of tight world boxes (times the hull's radius): covers the support mapping's
/// tie tolerance on `f32` directions (about 1e-7) and half the narrow phase's touching band
/// (`1e-9 x (r1 + r2)`), with room to spare.
pub const TIGHT_BOX_MARGIN: f64 = 4e-6;

/// The vertices some face uses.
fn used_vertices(p: &Polyhedron) -> impl Iterator<Item = Point> + '_ {
    (0..p.dcel().vertex_count() as u32)
        .filter(|&v| p.dcel().vertex_half_edges(VertexId(v)).len() > 0)
        .map(|v| p.vertices()[v as usize])
}

/// Shared, immutable geometry of an object.
pub(crate) struct CollisionShape {
    pub polyhedron: Polyhedron,
    /// The object as a convex polytope when it is convex, otherwise its convex hull. Convex tests
    /// run on it, and tight world boxes come from its support mapping (the hull has the mesh's
    /// extreme points).
    pub hull: ConvexPolytope,
    /// Bounding box of the vertices faces use, local frame.
    pub local_aabb: Aabb,
    /// OBB tree over the faces, built on the first mesh test that needs it.
    bvh: OnceLock<ObbBvh>,
    /// The thesis's box-trees, built on the first box-tree test.
    box_tree: OnceLock<BoxTreeMesh>,
}

impl CollisionShape {
    /// Builds and classifies `mesh` and prepares its convex polytope (or hull).
    pub fn build(mesh: MeshData) -> Result<Self, GeomError> {
        let polyhedron = Polyhedron::build(mesh, &Default::default())?;
        let hull = if polyhedron.classification().convex {
            ConvexPolytope::from_polyhedron(&polyhedron)?
        } else {
            let used: Vec<_> = used_vertices(&polyhedron).collect();
            ConvexPolytope::from_points(&used)?
        };
        let used: Vec<_> = used_vertices(&polyhedron).collect();
        let local_aabb = Aabb::from_points(&used)?;
        Ok(Self {
            polyhedron,
            hull,
            local_aabb,
            bvh: OnceLock::new(),
            box_tree: OnceLock::new(),
        })
    }

    /// True when the object itself is convex.
    pub fn is_convex(&self) -> bool {
        self.polyhedron.classification().convex
    }

    /// The OBB tree of the polyhedron's faces (its source faces are the polyhedron's face ids).
    pub fn bvh(&self) -> Result<&ObbBvh, NarrowError> {
        if let Some(bvh) = self.bvh.get() {
            return Ok(bvh);
        }
        let mesh = MeshData::new(
            self.polyhedron.vertices().to_vec(),
            self.polyhedron.dcel().faces().clone(),
        );
        let built = ObbBvh::build(&mesh, &BvhBuildOptions::default())?;
        Ok(self.bvh.get_or_init(|| built))
    }

    /// The box-trees of the polyhedron.
    pub fn box_tree(&self) -> Result<&BoxTreeMesh, NarrowError> {
        if let Some(tree) = self.box_tree.get() {
            return Ok(tree);
        }
        let built = BoxTreeMesh::new(self.polyhedron.clone(), &BoxTreeOptions::default())?;
        Ok(self.box_tree.get_or_init(|| built))
    }

    /// The polytope convex tests run on: the object, or its hull when a convex method is forced.
    pub fn convex_or_hull(&self) -> &ConvexPolytope {
        &self.hull
    }

    /// The tight world box of the object at `pose`, by support mapping along the world axes
    /// (I-COLLIDE): `hints` holds the six extreme vertices of the last call and warm-starts the
    /// hill climbs, so a small move costs a few vertex visits. The box is widened by
    /// [`TIGHT_BOX_MARGIN`] x the hull's radius to cover the support tolerance and the narrow
    /// phase's touching band.
    pub fn tight_world_aabb(&self, pose: &Pose, hints: &mut [u32; 6]) -> WorldAabb {
        let r = pose.rotation.to_rotation_matrix();
        let t = pose.translation.vector;
        let margin = TIGHT_BOX_MARGIN * f64::from(self.hull.radius());
        let mut mins = PointD::origin();
        let mut maxs = PointD::origin();
        for c in 0..3 {
            let row = r.matrix().row(c).transpose();
            let local: Vector = nalgebra::convert(row);
            let hi = self.hull.support_hill_climb(&local, hints[2 * c]).vertex;
            let lo = self
                .hull
                .support_hill_climb(&-local, hints[2 * c + 1])
                .vertex;
            hints[2 * c] = hi;
            hints[2 * c + 1] = lo;
            let coordinate =
                |v: u32| row.dot(&to_f64(&self.hull.vertices()[v as usize]).coords) + t[c];
            maxs[c] = coordinate(hi) + margin;
            mins[c] = coordinate(lo) - margin;
        }
        WorldAabb::new(mins, maxs)
    }
}
