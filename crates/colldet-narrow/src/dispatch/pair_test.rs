//! [`test_pair`]: the exact test of one pair of placed shapes, by its [`PairKind`].
//!
//! Every kind takes the `f64` relative pose of the two objects' [`PoseMatrix`]es
//! (`pose_a^-1 * pose_b`, [`PoseMatrix::inv_mul`]) and decides exactly about that configuration:
//! no pose is rounded to `f32` on a decision path.

use colldet_geom::Polyhedron;
use colldet_geom::dcel::FaceId;
use colldet_geom::math::{PointD, Pose, to_f64};

use super::witness::{NO_FEATURE, Witness, WitnessKind};
use super::{PairCache, PairKind, PreparedShape};
use crate::mesh::box_tree::{BoxTreeWorkspace, box_tree_intersect};
use crate::mesh::bvh::{MeshIntersectionOptions, MeshQueryWorkspace, mesh_surfaces_intersect};
use crate::mesh::{
    ArbitraryWorkspace, MeshFeature, MeshWitness, WitnessKind as MeshWitnessKind, containment_bvh,
    containment_with, meshes_collide_with,
};
use crate::{
    BoxBoxStatus, ChungWangStatus, ChungWangWorkspace, GjkStatus, NarrowError, PoseMatrix,
    box_box_common_point, box_box_intersect, chung_wang_intersect, gjk_intersect, touching_slack,
};

/// Per-thread scratch memory of the exact tests (reused across pairs; no allocation per pair
/// once warm).
#[derive(Default)]
pub struct PairScratch {
    chung_wang: ChungWangWorkspace,
    arbitrary: ArbitraryWorkspace,
    bvh: MeshQueryWorkspace,
    box_tree: BoxTreeWorkspace,
}

/// An object as a pair test sees it: its shape and its pose (local to world), as the quaternion
/// pose and the rotation matrix made from it once per move.
#[derive(Clone, Copy)]
pub struct PlacedShape<'a> {
    /// The object's geometry.
    pub shape: &'a PreparedShape,
    /// The pose as set.
    pub pose: &'a Pose,
    /// The same pose as an `f64` matrix (every test's relative pose comes from it).
    pub matrix: &'a PoseMatrix,
}

/// What the exact test of one pair found.
#[derive(Clone, Copy, Debug)]
pub struct PairOutcome {
    /// `Some` when the pair collides (touching counts).
    pub witness: Option<Witness>,
    /// The Chung-Wang iteration count when the separating-vector test ran.
    pub sv_iterations: Option<u32>,
    /// The separating-vector test ran and left a collision certificate in the pair's cache.
    pub certified: bool,
}

impl PairOutcome {
    fn other(witness: Option<Witness>) -> Self {
        Self {
            witness,
            sv_iterations: None,
            certified: false,
        }
    }
}

/// The point `p` of a local frame in world coordinates (`rot * p + trans`, `f64`).
fn to_world(frame: &PoseMatrix, p: &PointD) -> PointD {
    PointD::from(frame.rotation() * p.coords + frame.translation())
}

/// The witness of a convex collision: the supporting vertices the search ended on, mapped to the
/// input meshes' vertex indices, and their midpoint in world coordinates; without a supporting
/// pair (or a hull to name it in), no features and the midpoint of the hulls' box centres.
fn support_witness(
    a: &PlacedShape<'_>,
    b: &PlacedShape<'_>,
    vertices: Option<[u32; 2]>,
) -> Witness {
    let (Some(pa), Some(pb), Some([va, vb])) = (a.shape.hull(), b.shape.hull(), vertices) else {
        let centre =
            |s: &PlacedShape<'_>| to_world(s.matrix, &to_f64(&s.shape.local_aabb().center()));
        return Witness {
            kind: WitnessKind::SupportVertices,
            feature_a: NO_FEATURE,
            feature_b: NO_FEATURE,
            point: PointD::from((centre(a).coords + centre(b).coords) * 0.5),
        };
    };
    let world_a = to_world(a.matrix, &to_f64(&pa.vertices()[va as usize]));
    let world_b = to_world(b.matrix, &to_f64(&pb.vertices()[vb as usize]));
    Witness {
        kind: WitnessKind::SupportVertices,
        feature_a: pa.source_vertices()[va as usize],
        feature_b: pb.source_vertices()[vb as usize],
        point: PointD::from((world_a.coords + world_b.coords) * 0.5),
    }
}

/// An input face index standing for a mesh feature: the face itself, or for an edge a face that
/// borders it, or for a vertex a face around it.
fn feature_face(p: &Polyhedron, feature: MeshFeature) -> u32 {
    let d = p.dcel();
    let face = match feature {
        MeshFeature::Face(f) => Some(f),
        MeshFeature::Edge(e) => d.edge_faces(e).next(),
        MeshFeature::Vertex(v) => d.vertex_faces(v).next(),
        MeshFeature::Interior => None,
    };
    face.map_or(NO_FEATURE, |f| p.face_source(f))
}

/// A mesh test's witness (in a's frame) in world coordinates with input indices.
fn mesh_witness(a: &Polyhedron, b: &Polyhedron, pose_a: &Pose, w: &MeshWitness) -> Witness {
    let point = pose_a * w.point;
    match w.kind {
        MeshWitnessKind::Containment => {
            let vertex = |f: MeshFeature| match f {
                MeshFeature::Vertex(v) => v.0,
                _ => NO_FEATURE,
            };
            Witness {
                kind: WitnessKind::Containment,
                feature_a: vertex(w.feature1),
                feature_b: vertex(w.feature2),
                point,
            }
        }
        _ => Witness {
            kind: WitnessKind::FaceFace,
            feature_a: feature_face(a, w.feature1),
            feature_b: feature_face(b, w.feature2),
            point,
        },
    }
}

/// Can a component of `inner` lie inside the solid of `container`? `inner_to_container` maps
/// `inner`'s frame into `container`'s. Only closed objects contain; a single-component `inner`
/// with one vertex outside `container`'s local box (widened by a relative margin far above the
/// `f64` mapping error and the vertices' `f32` rounding) cannot. Objects with several components
/// are always candidates.
fn may_contain(
    container: &PreparedShape,
    inner: &PreparedShape,
    inner_to_container: &PoseMatrix,
) -> bool {
    if !container.polyhedron().classification().closed {
        return false;
    }
    if inner.polyhedron().classification().components != 1 {
        return true;
    }
    let Some(&seed) = inner.seeds().seeds().first() else {
        return true;
    };
    let vertex = inner_to_container.transform_point(&to_f64(inner.polyhedron().vertex(seed)));
    let bounds = container.local_aabb();
    let scale = f64::from(bounds.half_extents().norm()) + inner_to_container.translation().norm();
    let margin = 1e-5 * scale;
    (0..3).all(|k| {
        f64::from(bounds.mins[k]) - margin <= vertex[k]
            && vertex[k] <= f64::from(bounds.maxs[k]) + margin
    })
}

/// The containment half of the solid semantics, skipped when neither object can contain the
/// other.
fn containment(
    a: &PreparedShape,
    b: &PreparedShape,
    pose_a: &Pose,
    pos12: &PoseMatrix,
    scratch: &mut PairScratch,
) -> Result<Option<Witness>, NarrowError> {
    let pos21 = pos12.inv_mul(&PoseMatrix::identity());
    if !may_contain(a, b, pos12) && !may_contain(b, a, &pos21) {
        return Ok(None);
    }
    let inside = containment_with(
        a.polyhedron(),
        b.polyhedron(),
        pos12,
        &mut scratch.arbitrary,
    )?;
    Ok(inside.map(|w| mesh_witness(a.polyhedron(), b.polyhedron(), pose_a, &w)))
}

/// True when both objects are convex, so their hulls are the objects: a convex test's touching
/// answer (a signed distance inside the band `1e-9 (r_a + r_b)`, widened by twice the hulls'
/// [`vertex_rounding`](colldet_geom::ConvexPolytope::vertex_rounding) for meshes given in
/// `f64`) then goes to the exact mesh test on the vertices as given, and every answer is exact.
/// Separated and intersecting answers are certified beyond the band, so they hold as they are.
/// (Hull pairs of non-convex objects under a forced convex method keep the band.)
fn both_convex(a: &PlacedShape<'_>, b: &PlacedShape<'_>) -> bool {
    a.shape.is_convex() && b.shape.is_convex()
}

/// A pair of placed convex shapes and the `f64` pose of b in a's frame.
struct ConvexPair<'p, 's> {
    a: &'p PlacedShape<'s>,
    b: &'p PlacedShape<'s>,
    pos12: PoseMatrix,
}

impl ConvexPair<'_, '_> {
    /// The Chung-Wang test of the hulls (GJK inside it near the band); the exact mesh test when
    /// a shape is flat (no hull: the kind table never asks for this, the fallback keeps the
    /// answer exact anyway).
    fn separating_vector(
        &self,
        cache: &mut PairCache,
        scratch: &mut PairScratch,
    ) -> Result<PairOutcome, NarrowError> {
        let (a, b) = (self.a, self.b);
        let (Some(hull_a), Some(hull_b)) = (a.shape.hull(), b.shape.hull()) else {
            return bvh(a, b, &self.pos12, scratch);
        };
        let cache = cache.chung_wang();
        let result =
            chung_wang_intersect(hull_a, hull_b, &self.pos12, cache, &mut scratch.chung_wang)?;
        if result.status == ChungWangStatus::Touching && both_convex(a, b) {
            return bvh(a, b, &self.pos12, scratch);
        }
        let witness = result
            .status
            .is_colliding()
            .then(|| support_witness(a, b, cache.witness_vertices()));
        Ok(PairOutcome {
            witness,
            sv_iterations: Some(result.iterations),
            certified: cache.has_certificate(),
        })
    }

    /// The box-box test of two hulls recognised as boxes, Chung-Wang in the touching band.
    fn box_box(
        &self,
        cache: &mut PairCache,
        scratch: &mut PairScratch,
    ) -> Result<PairOutcome, NarrowError> {
        let (a, b, pos12) = (self.a, self.b, &self.pos12);
        // The kind says both hulls are boxes; were one missing, Chung-Wang decides any convex
        // pair (and the mesh test any flat one).
        let (Some(ba), Some(bb), Some(hull_a), Some(hull_b)) = (
            a.shape.box_hull(),
            b.shape.box_hull(),
            a.shape.hull(),
            b.shape.hull(),
        ) else {
            return self.separating_vector(cache, scratch);
        };
        let result = box_box_intersect(ba, bb, pos12)?;
        match (result.status, result.witness) {
            (BoxBoxStatus::Separated, _) => Ok(PairOutcome::other(None)),
            (BoxBoxStatus::Intersecting, Some(w)) => {
                let [va, vb] = w.supporting_vertices;
                Ok(PairOutcome::other(Some(Witness {
                    kind: WitnessKind::SupportVertices,
                    feature_a: hull_a.source_vertices()[va as usize],
                    feature_b: hull_b.source_vertices()[vb as usize],
                    point: to_world(a.matrix, &w.point),
                })))
            }
            _ => {
                // Undecided (touching band): Chung-Wang decides and names the features; the
                // point is moved into both boxes (widened by the band) when one is found.
                let mut outcome = self.separating_vector(cache, scratch)?;
                if let Some(witness) = &mut outcome.witness
                    && let Some(point) =
                        box_box_common_point(ba, bb, pos12, touching_slack(ba, bb))?
                {
                    witness.point = to_world(a.matrix, &point);
                }
                Ok(outcome)
            }
        }
    }
}

/// The BVH surface test, then containment by ray casts through the same trees (one per
/// component seed inside the container's box).
fn bvh(
    a: &PlacedShape<'_>,
    b: &PlacedShape<'_>,
    pos12: &PoseMatrix,
    scratch: &mut PairScratch,
) -> Result<PairOutcome, NarrowError> {
    let (sa, sb) = (a.shape, b.shape);
    let options = MeshIntersectionOptions::default();
    if mesh_surfaces_intersect(sa.bvh()?, sb.bvh()?, pos12, &options, &mut scratch.bvh)? {
        let hit = scratch.bvh.hits()[0];
        let face = |p: &Polyhedron, f: u32| p.face_source(FaceId(f));
        return Ok(PairOutcome::other(Some(Witness {
            kind: WitnessKind::FaceFace,
            feature_a: face(sa.polyhedron(), hit.face1.0),
            feature_b: face(sb.polyhedron(), hit.face2.0),
            point: a.pose * hit.point,
        })));
    }
    let inside = containment_bvh(&sa.solid()?, &sb.solid()?, pos12, &mut scratch.bvh)?;
    Ok(PairOutcome::other(inside.map(|w| {
        mesh_witness(sa.polyhedron(), sb.polyhedron(), a.pose, &w)
    })))
}

/// Runs the exact test of kind `kind` (from [`PairKind::of`] for these shapes) on `(a, b)` with
/// the pair's cache. A [`PairKind::SeparatingVector`] pair's bounding-box pre-test is the
/// caller's ([`super::box_pretest`]): it is not run again here.
///
/// # Errors
/// The test's [`NarrowError`] (non-finite poses, a failed tree build).
pub fn test_pair(
    kind: PairKind,
    a: &PlacedShape<'_>,
    b: &PlacedShape<'_>,
    cache: &mut PairCache,
    scratch: &mut PairScratch,
) -> Result<PairOutcome, NarrowError> {
    let pos12 = || a.matrix.inv_mul(b.matrix);
    let convex = || ConvexPair {
        a,
        b,
        pos12: a.matrix.inv_mul(b.matrix),
    };
    match kind {
        PairKind::BoxBox => convex().box_box(cache, scratch),
        PairKind::SeparatingVector => {
            cache.chung_wang().skip_box_pretest();
            convex().separating_vector(cache, scratch)
        }
        PairKind::Gjk => {
            let (Some(pa), Some(pb)) = (a.shape.hull(), b.shape.hull()) else {
                // A flat shape has no hull (the kind table never asks for this): the exact mesh
                // test.
                return bvh(a, b, &pos12(), scratch);
            };
            let cache = cache.gjk();
            let status = gjk_intersect(pa, pb, &a.matrix.inv_mul(b.matrix), cache)?;
            if status == GjkStatus::Touching && both_convex(a, b) {
                return bvh(a, b, &pos12(), scratch);
            }
            Ok(PairOutcome::other(status.is_colliding().then(|| {
                support_witness(a, b, Some(cache.support_hints()))
            })))
        }
        PairKind::Bvh => bvh(a, b, &pos12(), scratch),
        PairKind::BoxTree => {
            let (sa, sb) = (a.shape, b.shape);
            let pos12 = pos12();
            match box_tree_intersect(
                sa.box_tree()?,
                sb.box_tree()?,
                &pos12,
                &mut scratch.box_tree,
            )? {
                Some(w) => Ok(PairOutcome::other(Some(mesh_witness(
                    sa.polyhedron(),
                    sb.polyhedron(),
                    a.pose,
                    &w,
                )))),
                None => containment(sa, sb, a.pose, &pos12, scratch).map(PairOutcome::other),
            }
        }
        PairKind::Arbitrary => {
            let (sa, sb) = (a.shape, b.shape);
            let found = meshes_collide_with(
                sa.polyhedron(),
                sb.polyhedron(),
                &pos12(),
                &mut scratch.arbitrary,
            )?;
            Ok(PairOutcome::other(found.map(|w| {
                mesh_witness(sa.polyhedron(), sb.polyhedron(), a.pose, &w)
            })))
        }
        PairKind::BoundingBoxes => {
            let centre = |s: &PlacedShape<'_>| *s.pose * to_f64(&s.shape.local_aabb().center());
            let (ca, cb) = (centre(a), centre(b));
            Ok(PairOutcome::other(Some(Witness {
                kind: WitnessKind::BoundingBoxes,
                feature_a: 0,
                feature_b: 0,
                point: PointD::from((ca.coords + cb.coords) * 0.5),
            })))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_geom::math::VectorD;

    /// A cube of half side `h` centred at `(shift, 0, 0)`.
    fn cube_shifted(h: f64, shift: f32) -> PreparedShape {
        let mut mesh = colldet_testkit::shapes::cuboid(VectorD::repeat(h)).unwrap();
        for v in &mut mesh.vertices {
            v.x += shift;
        }
        PreparedShape::build(mesh).unwrap()
    }

    /// A witness names the input vertices of the supporting pair; without one it names no
    /// vertex (never vertex 0) and takes the midpoint of the hulls' box centres.
    #[test]
    fn a_witness_without_a_supporting_pair_names_no_vertex() {
        let (sa, sb) = (cube_shifted(0.5, 0.0), cube_shifted(0.5, 2.0));
        let pose_a = Pose::identity();
        let pose_b = Pose::translation(-1.5, 0.0, 4.0);
        let (ma, mb) = (
            PoseMatrix::from_pose(&pose_a).unwrap(),
            PoseMatrix::from_pose(&pose_b).unwrap(),
        );
        let a = PlacedShape {
            shape: &sa,
            pose: &pose_a,
            matrix: &ma,
        };
        let b = PlacedShape {
            shape: &sb,
            pose: &pose_b,
            matrix: &mb,
        };
        let none = support_witness(&a, &b, None);
        assert_eq!((none.feature_a, none.feature_b), (NO_FEATURE, NO_FEATURE));
        // Centres (0, 0, 0) and (2 - 1.5, 0, 4).
        assert_eq!(none.point, PointD::new(0.25, 0.0, 2.0));
        let named = support_witness(&a, &b, Some([7, 0]));
        let (va, vb) = (
            sa.hull().unwrap().source_vertices()[7],
            sb.hull().unwrap().source_vertices()[0],
        );
        assert_eq!((named.feature_a, named.feature_b), (va, vb));
        let world = |s: &PreparedShape, v: u32, t: VectorD| {
            to_f64(&s.polyhedron().vertices()[v as usize]).coords + t
        };
        let expected =
            (world(&sa, va, VectorD::zeros()) + world(&sb, vb, VectorD::new(-1.5, 0.0, 4.0))) * 0.5;
        assert_eq!(named.point.coords, expected);
    }
}
