//! The exact test of one candidate pair, chosen from the configured method and the objects'
//! classification, and the witness it yields in world coordinates.
//!
//! Both objects' poses are `f64`; the test runs in object a's frame, so the answer depends on the
//! relative placement only, not on how far from the world origin the pair is. The convex tests
//! take `pos12 = frame_a^-1 * frame_b` from the objects' rotation matrices and translations (made
//! once per move, [`PoseMatrix`]): rotation `R_a^T R_b`, translation `R_a^T (t_b - t_a)`, rounded
//! in `f64`, and decide exactly about that configuration. The mesh tests take `pose_a^-1 * pose_b`
//! computed in `f64` from the quaternion poses and rounded to the local `f32` precision (they keep
//! conservative bounds).

use colldet_geom::dcel::FaceId;
use colldet_geom::math::{Isometry, PointD, Pose, relative_pose, to_f64};
use colldet_geom::{ConvexPolytope, Polyhedron};
use colldet_narrow::mesh::box_tree::{BoxTreeWorkspace, box_tree_intersect};
use colldet_narrow::mesh::bvh::{
    MeshIntersectionOptions, MeshQueryWorkspace, mesh_surfaces_intersect,
};
use colldet_narrow::mesh::{
    ArbitraryWorkspace, MeshFeature, MeshWitness, WitnessKind as MeshWitnessKind, containment_bvh,
    containment_with,
};
use colldet_narrow::{
    BoxBoxStatus, ChungWangWorkspace, NarrowError, PairCache, PoseMatrix, box_box_common_point,
    box_box_intersect, chung_wang_intersect, gjk_intersect, touching_slack,
};

use super::collision::{Witness, WitnessKind};
use super::config::Method;
use super::shape::CollisionShape;
use super::{Object, Placement};

/// Per-thread scratch memory of the exact tests (reused across pairs; no allocation per pair once
/// warm).
#[derive(Default)]
pub(crate) struct NarrowScratch {
    chung_wang: ChungWangWorkspace,
    arbitrary: ArbitraryWorkspace,
    bvh: MeshQueryWorkspace,
    box_tree: BoxTreeWorkspace,
}

/// Which test a pair gets, decided from what [`ShapeTraits`] holds of the two shapes (so the
/// world's pair filter can ask without reading the shapes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TestKind {
    BoxBox,
    SeparatingVector,
    Gjk,
    Bvh,
    Arbitrary,
    BoxTree,
    BoundingBoxes,
}

fn test_kind(method: Method, a: ShapeTraits, b: ShapeTraits) -> TestKind {
    // The convex test: the box-box test when both hulls are boxes, else Chung-Wang.
    let convex_test = if a.box_hull && b.box_hull {
        TestKind::BoxBox
    } else {
        TestKind::SeparatingVector
    };
    match method {
        Method::Auto if a.convex && b.convex => convex_test,
        Method::Auto => TestKind::Bvh,
        Method::Arbitrary => TestKind::Arbitrary,
        Method::BoxTree => TestKind::BoxTree,
        Method::Convex => convex_test,
        Method::SeparatingVector => TestKind::SeparatingVector,
        Method::Gjk => TestKind::Gjk,
        Method::None => TestKind::BoundingBoxes,
    }
}

/// What [`test_kind`] reads of a shape, kept per object so the world's pair filter can tell the
/// pairs under the bounding-box filter without reading the shapes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ShapeTraits {
    /// [`CollisionShape::is_convex`].
    pub convex: bool,
    /// The hull is a box ([`CollisionShape::box_hull`]).
    pub box_hull: bool,
}

impl ShapeTraits {
    pub fn of(shape: &CollisionShape) -> Self {
        Self {
            convex: shape.is_convex(),
            box_hull: shape.box_hull.is_some(),
        }
    }
}

/// True when [`test_kind`] gives the pair the separating-vector test: the world runs the
/// Chung-Wang bounding-box pre-test for these pairs itself, before taking the pair's cache, and
/// [`test_pair`] then tells the query not to run it again.
pub(crate) fn uses_separating_vector(method: Method, a: ShapeTraits, b: ShapeTraits) -> bool {
    test_kind(method, a, b) == TestKind::SeparatingVector
}

/// An object as a pair test sees it.
pub(crate) struct PlacedObject<'w> {
    pub object: &'w Object,
    /// Read by the mesh tests only (their `f32` relative pose comes from the quaternion poses).
    pub placement: &'w Placement,
}

/// The point `p` of a local frame in world coordinates (`rot * p + trans`, `f64`).
fn to_world(frame: &PoseMatrix, p: &PointD) -> PointD {
    PointD::from(frame.rotation() * p.coords + frame.translation())
}

/// The witness of a convex collision: the supporting vertices the search ended on, mapped to the
/// input meshes' vertex indices, and their midpoint in world coordinates.
fn support_witness(
    pa: &ConvexPolytope,
    frame_a: &PoseMatrix,
    pb: &ConvexPolytope,
    frame_b: &PoseMatrix,
    vertices: Option<[u32; 2]>,
) -> Witness {
    let [va, vb] = vertices.unwrap_or([0, 0]);
    let world_a = to_world(frame_a, &to_f64(&pa.vertices()[va as usize]));
    let world_b = to_world(frame_b, &to_f64(&pb.vertices()[vb as usize]));
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
    face.map_or(u32::MAX, |f| p.face_source(f))
}

fn mesh_witness(a: &Polyhedron, b: &Polyhedron, pose_a: &Pose, w: &MeshWitness) -> Witness {
    let point = pose_a * w.point;
    match w.kind {
        MeshWitnessKind::Containment => {
            let vertex = |f: MeshFeature| match f {
                MeshFeature::Vertex(v) => v.0,
                _ => u32::MAX,
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
/// `f32` mapping error) cannot. Objects with several components are always candidates.
fn may_contain(
    container: &CollisionShape,
    inner: &CollisionShape,
    inner_to_container: &Isometry,
) -> bool {
    let c = container.polyhedron.classification();
    if !c.closed {
        return false;
    }
    if inner.polyhedron.classification().components != 1 {
        return true;
    }
    let vertex = inner_to_container * inner.hull.vertices()[0];
    let bounds = &container.local_aabb;
    let scale = bounds.half_extents().norm() + inner_to_container.translation.vector.norm();
    let margin = 1e-5 * scale;
    (0..3).all(|k| bounds.mins[k] - margin <= vertex[k] && vertex[k] <= bounds.maxs[k] + margin)
}

/// The containment half of the solid semantics, skipped when neither object can contain the
/// other.
fn containment(
    a: &CollisionShape,
    b: &CollisionShape,
    pose_a: &Pose,
    pos12: &Isometry,
    scratch: &mut NarrowScratch,
) -> Result<Option<Witness>, NarrowError> {
    if !may_contain(a, b, pos12) && !may_contain(b, a, &pos12.inverse()) {
        return Ok(None);
    }
    let inside = containment_with(&a.polyhedron, &b.polyhedron, pos12, &mut scratch.arbitrary)?;
    Ok(inside.map(|w| mesh_witness(&a.polyhedron, &b.polyhedron, pose_a, &w)))
}

/// What the exact test of one pair found.
pub(crate) struct PairOutcome {
    /// `Some` when the pair collides (touching counts).
    pub witness: Option<Witness>,
    /// The Chung-Wang iteration count when the separating-vector test ran.
    pub sv_iterations: Option<u32>,
    /// The separating-vector test ran and left a collision certificate in the pair's cache (the
    /// world then skips its bounding-box filter for the pair, see `World::check`).
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

/// The Chung-Wang test of the convex hulls of `(a, b)` (GJK inside it near the band), with
/// `pos12` the `f64` pose of b in a's frame.
fn separating_vector(
    a: &CollisionShape,
    frame_a: &PoseMatrix,
    b: &CollisionShape,
    frame_b: &PoseMatrix,
    pos12: &PoseMatrix,
    cache: &mut PairCache,
    scratch: &mut NarrowScratch,
) -> Result<PairOutcome, NarrowError> {
    let (pa, pb) = (a.convex_or_hull(), b.convex_or_hull());
    let result = chung_wang_intersect(
        pa,
        pb,
        pos12,
        &mut cache.chung_wang,
        &mut scratch.chung_wang,
    )?;
    let witness = result.status.is_colliding().then(|| {
        support_witness(
            pa,
            frame_a,
            pb,
            frame_b,
            cache.chung_wang.supporting_vertices(),
        )
    });
    Ok(PairOutcome {
        witness,
        sv_iterations: Some(result.iterations),
        certified: cache.chung_wang.has_certificate(),
    })
}

/// Runs the exact test on `(a, b)`.
pub(crate) fn test_pair(
    method: Method,
    object_a: &PlacedObject<'_>,
    object_b: &PlacedObject<'_>,
    cache: &mut PairCache,
    scratch: &mut NarrowScratch,
) -> Result<PairOutcome, NarrowError> {
    let (a, frame_a) = (&*object_a.object.shape, &object_a.object.frame);
    let (b, frame_b) = (&*object_b.object.shape, &object_b.object.frame);
    let (pose_a, pose_b) = (&object_a.placement.pose, &object_b.placement.pose);
    // The mesh tests' `f32` relative pose, computed only for them.
    let pos12 = || relative_pose(pose_a, pose_b);
    // The convex tests take the relative pose unrounded: they decide exactly about the `f64`
    // configuration (the mesh tests take the `f32` one and keep conservative bounds).
    let pos12_f64 = frame_a.inv_mul(frame_b);
    match test_kind(method, ShapeTraits::of(a), ShapeTraits::of(b)) {
        TestKind::BoxBox => {
            // Both hulls are boxes (`ShapeTraits::box_hull` is `box_hull.is_some()`); were one
            // missing, Chung-Wang decides any convex pair.
            let (Some(ba), Some(bb)) = (&a.box_hull, &b.box_hull) else {
                return separating_vector(a, frame_a, b, frame_b, &pos12_f64, cache, scratch);
            };
            let result = box_box_intersect(ba, bb, &pos12_f64)?;
            match (result.status, result.witness) {
                (BoxBoxStatus::Separated, _) => Ok(PairOutcome::other(None)),
                (BoxBoxStatus::Intersecting, Some(w)) => {
                    let (pa, pb) = (a.convex_or_hull(), b.convex_or_hull());
                    let [va, vb] = w.supporting_vertices;
                    Ok(PairOutcome::other(Some(Witness {
                        kind: WitnessKind::SupportVertices,
                        feature_a: pa.source_vertices()[va as usize],
                        feature_b: pb.source_vertices()[vb as usize],
                        point: to_world(frame_a, &w.point),
                    })))
                }
                _ => {
                    // Undecided (touching band): Chung-Wang decides and names the features; the
                    // point is moved into both boxes (widened by the band) when one is found.
                    let mut outcome =
                        separating_vector(a, frame_a, b, frame_b, &pos12_f64, cache, scratch)?;
                    if let Some(witness) = &mut outcome.witness
                        && let Some(point) =
                            box_box_common_point(ba, bb, &pos12_f64, touching_slack(ba, bb))?
                    {
                        witness.point = to_world(frame_a, &point);
                    }
                    Ok(outcome)
                }
            }
        }
        TestKind::SeparatingVector => {
            // The world ran the query's bounding-box pre-test before the test (or skipped
            // it after finding the boxes overlapping at the check before).
            cache.chung_wang.skip_box_pretest();
            separating_vector(a, frame_a, b, frame_b, &pos12_f64, cache, scratch)
        }
        TestKind::Gjk => {
            let (pa, pb) = (a.convex_or_hull(), b.convex_or_hull());
            let status = gjk_intersect(pa, pb, &pos12_f64, &mut cache.gjk)?;
            Ok(PairOutcome::other(status.is_colliding().then(|| {
                support_witness(pa, frame_a, pb, frame_b, Some(cache.gjk.support_hints()))
            })))
        }
        TestKind::Bvh => {
            let (ba, bb) = (a.bvh()?, b.bvh()?);
            let options = MeshIntersectionOptions::default();
            let pos12 = pos12();
            if mesh_surfaces_intersect(ba, bb, &pos12, &options, &mut scratch.bvh)? {
                let hit = scratch.bvh.hits()[0];
                let face = |p: &Polyhedron, f: u32| p.face_source(FaceId(f));
                return Ok(PairOutcome::other(Some(Witness {
                    kind: WitnessKind::FaceFace,
                    feature_a: face(&a.polyhedron, hit.face1.0),
                    feature_b: face(&b.polyhedron, hit.face2.0),
                    point: pose_a * hit.point,
                })));
            }
            // Containment by ray casts through the same trees: one per component seed inside the
            // container's box.
            let inside = containment_bvh(&a.solid()?, &b.solid()?, &pos12, &mut scratch.bvh)?;
            Ok(PairOutcome::other(inside.map(|w| {
                mesh_witness(&a.polyhedron, &b.polyhedron, pose_a, &w)
            })))
        }
        TestKind::BoxTree => {
            let (ta, tb) = (a.box_tree()?, b.box_tree()?);
            let pos12 = pos12();
            match box_tree_intersect(ta, tb, &pos12, &mut scratch.box_tree)? {
                Some(w) => Ok(PairOutcome::other(Some(mesh_witness(
                    &a.polyhedron,
                    &b.polyhedron,
                    pose_a,
                    &w,
                )))),
                None => containment(a, b, pose_a, &pos12, scratch).map(PairOutcome::other),
            }
        }
        TestKind::Arbitrary => {
            let found = colldet_narrow::mesh::meshes_collide_with(
                &a.polyhedron,
                &b.polyhedron,
                &pos12(),
                &mut scratch.arbitrary,
            )?;
            Ok(PairOutcome::other(found.map(|w| {
                mesh_witness(&a.polyhedron, &b.polyhedron, pose_a, &w)
            })))
        }
        TestKind::BoundingBoxes => {
            let centre = |s: &CollisionShape, pose: &Pose| pose * to_f64(&s.local_aabb.center());
            let (ca, cb) = (centre(a, pose_a), centre(b, pose_b));
            Ok(PairOutcome::other(Some(Witness {
                kind: WitnessKind::BoundingBoxes,
                feature_a: 0,
                feature_b: 0,
                point: PointD::from((ca.coords + cb.coords) * 0.5),
            })))
        }
    }
}
