//! The collision geometry of one object, prepared once when it is made collidable: the
//! classified polyhedron, its convex polytope (for convex objects, or the hull when a convex
//! method is forced) with its box description when it is a rectangular box, and its local
//! bounding box.

use std::sync::OnceLock;

use colldet_geom::dcel::VertexId;
use colldet_geom::math::{Point, PointD, Pose, Vector, VectorD, to_f64};
use colldet_geom::{Aabb, ConvexPolytope, GeomError, MeshData, Polyhedron, WorldAabb};
use colldet_narrow::mesh::box_tree::{BoxTreeMesh, BoxTreeOptions};
use colldet_narrow::mesh::bvh::{BvhBuildOptions, ObbBvh};
use colldet_narrow::mesh::{ComponentSeeds, SolidMesh};
use colldet_narrow::{BoxHull, NarrowError};
use nalgebra::Matrix3;

/// Relative widening of tight world boxes (times the hull's radius): covers the support mapping's
/// tie tolerance on `f32` directions (about 1e-7) and half the narrow phase's touching band
/// (`1e-9 x (r1 + r2)`), with room to spare.
pub const TIGHT_BOX_MARGIN: f64 = 4e-6;

/// Hulls with at most this many vertices get their world box by transforming every vertex: for
/// so few, a scan costs less than six warm-started hill climbs.
const SCAN_VERTICES: usize = 16;

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
    /// The hull recognised as a rectangular box (the exact box-box test runs on it), if it is one.
    pub box_hull: Option<BoxHull>,
    /// Bounding box of the vertices faces use, local frame.
    pub local_aabb: Aabb,
    /// One vertex per connected component and the box of the used vertices (containment tests).
    pub seeds: ComponentSeeds,
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
        let seeds = ComponentSeeds::new(&polyhedron);
        let box_hull = BoxHull::recognise(&hull);
        Ok(Self {
            polyhedron,
            hull,
            box_hull,
            local_aabb,
            seeds,
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

    /// The object as the tree-accelerated containment test sees it (builds the tree if needed).
    pub fn solid(&self) -> Result<SolidMesh<'_, colldet_geom::Obb>, NarrowError> {
        SolidMesh::new(&self.polyhedron, self.bvh()?, &self.seeds)
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
    /// phase's touching band. A box that is axis-aligned in its local frame is its own local box,
    /// moved by Arvo's transform ([`Aabb::transformed`]); other hulls of at most
    /// [`SCAN_VERTICES`] vertices are scanned.
    pub fn tight_world_aabb(&self, pose: &Pose, hints: &mut [u32; 6]) -> WorldAabb {
        let margin = TIGHT_BOX_MARGIN * f64::from(self.hull.radius());
        if self.box_hull.as_ref().is_some_and(|b| b.is_axis_aligned()) {
            let moved = self.local_aabb.transformed(pose);
            let widen = VectorD::repeat(margin);
            return WorldAabb::new(moved.mins - widen, moved.maxs + widen);
        }
        let r = pose.rotation.to_rotation_matrix();
        let t = pose.translation.vector;
        if self.hull.vertices().len() <= SCAN_VERTICES {
            return self.scanned_world_aabb(r.matrix(), &t, margin);
        }
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

    /// The tight world box of a small hull by transforming every vertex in `f64` (exact extremes,
    /// no search), widened by `margin`.
    fn scanned_world_aabb(&self, r: &Matrix3<f64>, t: &VectorD, margin: f64) -> WorldAabb {
        let mut mins = [f64::INFINITY; 3];
        let mut maxs = [f64::NEG_INFINITY; 3];
        for v in self.hull.vertices() {
            let world = r * to_f64(v).coords;
            for c in 0..3 {
                mins[c] = mins[c].min(world[c]);
                maxs[c] = maxs[c].max(world[c]);
            }
        }
        WorldAabb::new(
            PointD::new(
                mins[0] + t[0] - margin,
                mins[1] + t[1] - margin,
                mins[2] + t[2] - margin,
            ),
            PointD::new(
                maxs[0] + t[0] + margin,
                maxs[1] + t[1] + margin,
                maxs[2] + t[2] + margin,
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_testkit::SeededRng;
    use colldet_testkit::shapes::cuboid;
    use nalgebra::{Translation3, UnitQuaternion};

    /// For boxes, axis-aligned in their frame (Arvo's transform of the local box) or not (the
    /// vertex scan), the tight world box contains the exact vertex extremes with at least half the
    /// margin to spare and exceeds them by at most the margin plus rounding.
    #[test]
    fn box_world_boxes_match_the_vertex_extremes() {
        let mut rng = SeededRng::new(0xb0c5);
        for case in 0..200 {
            let h = VectorD::new(
                rng.range(0.01, 3.0),
                rng.range(0.01, 3.0),
                rng.range(0.01, 3.0),
            );
            let mut mesh = cuboid(h).unwrap();
            if case % 2 == 1 {
                let q = UnitQuaternion::from_scaled_axis(VectorD::new(0.3, -0.7, 0.2));
                for v in &mut mesh.vertices {
                    *v = nalgebra::convert(q * to_f64(v));
                }
            }
            let shape = CollisionShape::build(mesh).unwrap();
            let aligned = shape.box_hull.as_ref().expect("a box").is_axis_aligned();
            assert_eq!(aligned, case % 2 == 0);
            let axis = VectorD::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
            let pose = Pose::from_parts(
                Translation3::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0), 3.0),
                UnitQuaternion::from_scaled_axis(axis * 3.0),
            );
            let r = pose.rotation.to_rotation_matrix();
            let t = pose.translation.vector;
            let margin = TIGHT_BOX_MARGIN * f64::from(shape.hull.radius());
            let tight = shape.tight_world_aabb(&pose, &mut [0; 6]);
            let exact = shape.scanned_world_aabb(r.matrix(), &t, 0.0);
            let rounding = 1e-12 * (1.0 + t.norm());
            for k in 0..3 {
                assert!(tight.mins[k] <= exact.mins[k] - 0.5 * margin, "case {case}");
                assert!(tight.maxs[k] >= exact.maxs[k] + 0.5 * margin, "case {case}");
                assert!(
                    tight.mins[k] >= exact.mins[k] - margin - rounding,
                    "case {case}"
                );
                assert!(
                    tight.maxs[k] <= exact.maxs[k] + margin + rounding,
                    "case {case}"
                );
            }
        }
    }
}
