//! Closest-feature tracking (Lin-Canny / V-Clip walk) on convex polyhedra.
//!
//! * Known answers: two unit cubes in face-face, edge-face, edge-edge and vertex-face
//!   configurations at known gaps and many orientations (distance, closest points, features by
//!   DCEL id), the touching band and penetration, scale invariance, and the typed errors.
//! * Differential: seeded random convex pairs (Chung-Wang polytopes and hulls of random clouds,
//!   12 to 1000 vertices; random and near-touching poses) against our GJK distance and parry3d-f64:
//!   booleans outside the band, distances within `1e-4` relative, closest points on their features
//!   and `|point2 - point1| == distance`; cold and warm-started queries agree. A parry distance
//!   that disagrees while ours is certified by brute force (witnesses on their features, and the
//!   support gap along the witness direction equal to the distance) is counted and printed as
//!   parry's; such cases must stay rare.
//! * Coherence: 1000 frames of small motion need few walk steps per query (mean printed).

mod common;

use colldet_geom::dcel::{FaceId, VertexId};
use colldet_geom::math::{Point, PointD, Pose, VectorD, to_f64};
use colldet_geom::{BuildOptions, MeshData, Polyhedron, convex_hull};
use colldet_narrow::{
    ClosestFeatures, Feature, FeaturePairCache, GjkCache, NarrowError, PointCloud,
    closest_features, gjk_distance, touching_tolerance,
};
use colldet_testkit::parry::parry_pose;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cuboid, torus};
use common::{Family, NarrowDraws, SplitMix64, random_cloud, to_pose};
use nalgebra::{Translation3, UnitQuaternion, Vector3};
use parry3d_f64::math::{Pose as PPose, Vector as PVec};
use parry3d_f64::query;
use parry3d_f64::shape::ConvexPolyhedron;
use std::f64::consts::{FRAC_PI_4, SQRT_2};

fn build(mesh: MeshData) -> Polyhedron {
    let p = Polyhedron::build(mesh, &BuildOptions::default()).expect("build");
    assert!(p.classification().convex, "test shape must be convex");
    p
}

fn cube(half: f64) -> Polyhedron {
    build(cuboid(VectorD::new(half, half, half)).unwrap())
}

/// The face of `p` built from input face `source` (cuboid order: -x, +x, -y, +y, -z, +z).
fn face_from_source(p: &Polyhedron, source: u32) -> Feature {
    let f = (0..p.dcel().face_count() as u32)
        .map(FaceId)
        .find(|&f| p.face_source(f) == source)
        .expect("face");
    Feature::Face(f)
}

/// The edge of `p` joining input vertices `a` and `b`.
fn edge_between(p: &Polyhedron, a: u32, b: u32) -> Feature {
    let dcel = p.dcel();
    let h = dcel
        .vertex_half_edges(VertexId(a))
        .find(|&h| dcel.destination(h) == VertexId(b))
        .expect("edge");
    Feature::Edge(dcel.edge(h))
}

fn pose(t: [f64; 3], rot: UnitQuaternion<f64>) -> Pose {
    Pose::from_parts(Translation3::new(t[0], t[1], t[2]), rot)
}

fn axis_angle(axis: Vector3<f64>, angle: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle)
}

/// Distance from `x` (in `p`'s frame) to `feature` of `p`, by direct geometry: a vertex, a
/// segment, or a convex polygon (plane distance when the projection is inside, else the boundary).
fn distance_to_feature(p: &Polyhedron, feature: Feature, x: &PointD) -> f64 {
    let v = |i: u32| to_f64(&p.vertices()[i as usize]);
    let seg = |a: PointD, b: PointD| {
        let ab = b - a;
        let t = ((x - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
        (x - (a + ab * t)).norm()
    };
    match feature {
        Feature::Vertex(i) => (x - v(i.0)).norm(),
        Feature::Edge(e) => {
            let [a, b] = p.dcel().edge_vertices(e);
            seg(v(a.0), v(b.0))
        }
        Feature::Face(f) => {
            let c = p.dcel().face_vertices(f);
            let n = (v(c[1]) - v(c[0])).cross(&(v(c[2]) - v(c[0]))).normalize();
            let inside = (0..c.len()).all(|i| {
                let (a, b) = (v(c[i]), v(c[(i + 1) % c.len()]));
                (x - a).dot(&n.cross(&(b - a))) >= 0.0
            });
            if inside {
                n.dot(&(x - v(c[0]))).abs()
            } else {
                (0..c.len())
                    .map(|i| seg(v(c[i]), v(c[(i + 1) % c.len()])))
                    .fold(f64::INFINITY, f64::min)
            }
        }
    }
}

/// Vertex `v` of shape 2 mapped into shape 1's frame by the widened `pos12`.
fn vertex2(p: &Polyhedron, pos12: &Pose, v: u32) -> PointD {
    pos12 * to_f64(&p.vertices()[v as usize])
}

fn disjoint(r: &ClosestFeatures) -> (f64, PointD, PointD, Feature, Feature) {
    match *r {
        ClosestFeatures::Disjoint {
            distance,
            point1,
            point2,
            feature1,
            feature2,
        } => (distance, point1, point2, feature1, feature2),
        other => panic!("expected Disjoint, got {other:?}"),
    }
}

/// Checks a disjoint answer's internal consistency: `|point2 - point1| == distance`, each point on
/// its feature (point2 checked in shape 2's frame), all within `slack`.
fn check_points(
    a: &Polyhedron,
    b: &Polyhedron,
    pos12: &Pose,
    r: &ClosestFeatures,
    slack: f64,
) -> Result<(), String> {
    let (d, p1, p2, f1, f2) = disjoint(r);
    if ((p2 - p1).norm() - d).abs() > slack {
        return Err(format!("|p2 - p1| = {} but distance {d}", (p2 - p1).norm()));
    }
    let e1 = distance_to_feature(a, f1, &p1);
    let q2 = pos12.inverse_transform_point(&p2);
    let e2 = distance_to_feature(b, f2, &q2);
    if e1 > slack || e2 > slack {
        return Err(format!(
            "points off their features by {e1:e} ({f1:?}) and {e2:e} ({f2:?})"
        ));
    }
    Ok(())
}

/// True when a disjoint answer is the exact distance to within `slack`, by brute force: its points
/// lie on their features (so the true distance is at most `|point2 - point1|`), and the vertices'
/// support gap along `point2 - point1` (a lower bound on the true distance) reaches it.
fn certified_distance(
    a: &Polyhedron,
    b: &Polyhedron,
    pos12: &Pose,
    r: &ClosestFeatures,
    slack: f64,
) -> bool {
    if check_points(a, b, pos12, r, slack).is_err() {
        return false;
    }
    let (d, p1, p2, _, _) = disjoint(r);
    let n = (p2 - p1) / d;
    let max1 = a
        .vertices()
        .iter()
        .map(|v| to_f64(v).coords.dot(&n))
        .fold(f64::NEG_INFINITY, f64::max);
    let min2 = b
        .vertices()
        .iter()
        .map(|v| (pos12 * to_f64(v)).coords.dot(&n))
        .fold(f64::INFINITY, f64::min);
    min2 - max1 >= d - slack
}

// ---------------------------------------------------------------------------------------------
// Known answers on cubes
// ---------------------------------------------------------------------------------------------

const GAPS: [f64; 5] = [1e-3, 0.05, 0.37, 1.0, 4.5];
const ANGLES: [f64; 7] = [0.0, 0.1, 0.5, 1.0, 1.3, 2.2, -0.7];

/// Runs one cube configuration under a fresh cache and a warm cache, returning the cold answer.
fn query_both(
    a: &Polyhedron,
    b: &Polyhedron,
    pos12: &Pose,
    warm: &mut FeaturePairCache,
) -> ClosestFeatures {
    let cold = closest_features(a, b, pos12, &mut FeaturePairCache::new()).unwrap();
    let hot = closest_features(a, b, pos12, warm).unwrap();
    assert_eq!(cold.is_colliding(), hot.is_colliding());
    if let (
        ClosestFeatures::Disjoint { distance: d0, .. },
        ClosestFeatures::Disjoint { distance: d1, .. },
    ) = (cold, hot)
    {
        assert!((d0 - d1).abs() <= 1e-12 * (1.0 + d0), "cold {d0} warm {d1}");
    }
    warm.validate().unwrap();
    cold
}

/// Face-face: cube 2 at `x = 1 + gap`, offset in `y, z` and rotated about `x`: the facing squares
/// stay parallel, distance `gap`, features are the +x face of cube 1 and the -x face of cube 2.
#[test]
fn cubes_face_face() {
    let c = cube(0.5);
    let mut warm = FeaturePairCache::new();
    for &gap in &GAPS {
        for &phi in &ANGLES {
            for offset in [[0.0, 0.0], [0.2, -0.1], [0.45, 0.3]] {
                let p1 = Pose::identity();
                let p2 = pose(
                    [1.0 + gap, offset[0], offset[1]],
                    axis_angle(Vector3::x(), phi),
                );
                let pos12 = p1.inv_mul(&p2);
                let r = query_both(&c, &c, &pos12, &mut warm);
                let expected = pos12.translation.vector.x - 1.0;
                let (d, p1, p2, f1, f2) = disjoint(&r);
                assert!(
                    (d - expected).abs() <= 1e-12 * expected.max(1.0),
                    "gap {gap} phi {phi}: distance {d} expected {expected}"
                );
                assert_eq!(
                    f1,
                    face_from_source(&c, 1),
                    "gap {gap} phi {phi} {offset:?}"
                );
                assert_eq!(
                    f2,
                    face_from_source(&c, 0),
                    "gap {gap} phi {phi} {offset:?}"
                );
                assert!((p1.x - 0.5).abs() < 1e-12 && (p2.x - 0.5 - expected).abs() < 1e-12);
                check_points(&c, &c, &pos12, &r, 1e-12).unwrap();
            }
        }
    }
}

/// Edge-face: cube 2 turned 45 degrees about `z` (its edge between vertices 2 and 6 faces -x),
/// then about `x`: the edge stays parallel to the +x face of cube 1 at distance
/// `D - 0.5 - sqrt(2) / 2`.
#[test]
fn cubes_edge_face() {
    let c = cube(0.5);
    let mut warm = FeaturePairCache::new();
    for &gap in &GAPS {
        for &phi in &ANGLES {
            let x = 0.5 + SQRT_2 / 2.0 + gap;
            let rot = axis_angle(Vector3::x(), phi) * axis_angle(Vector3::z(), FRAC_PI_4);
            let pos12 = pose([x, 0.0, 0.0], rot);
            let r = query_both(&c, &c, &pos12, &mut warm);
            let (d, _, _, f1, f2) = disjoint(&r);
            // Exact for the f64 pose: the lower end of edge 2-6 above the plane x = 0.5.
            let expected = vertex2(&c, &pos12, 2).x.min(vertex2(&c, &pos12, 6).x) - 0.5;
            assert!(
                (expected - gap).abs() <= 1e-12,
                "pose rounding moved the gap"
            );
            assert!(
                (d - expected).abs() <= 1e-12,
                "gap {gap} phi {phi}: {d} vs {expected}"
            );
            assert_eq!(f1, face_from_source(&c, 1), "gap {gap} phi {phi}");
            assert_eq!(f2, edge_between(&c, 2, 6), "gap {gap} phi {phi}");
            check_points(&c, &c, &pos12, &r, 1e-12).unwrap();
        }
    }
}

/// Edge-edge: cube 1 turned 45 degrees about `y` (edge 5-7 along `y` at `x = sqrt(2)/2`), cube 2
/// turned 45 degrees about `z` then by `phi` about `x` (edge 2-6 at `x = D - sqrt(2)/2`, crossing
/// the `x` axis): the edges are skew with common perpendicular along `x`, distance `D - sqrt(2)`.
/// The whole configuration is also rotated by random global rotations (pos12 unchanged up to
/// rounding).
#[test]
fn cubes_edge_edge() {
    let c = cube(0.5);
    let mut rng = SplitMix64(0xe0e0);
    let mut warm = FeaturePairCache::new();
    for &gap in &GAPS {
        for &phi in &[0.0, 0.3, 0.9, 1.2, -1.0, 2.0] {
            for trial in 0..4 {
                let global = if trial == 0 {
                    UnitQuaternion::identity()
                } else {
                    rng.rotation()
                };
                let world_t = global * Vector3::new(0.3, -2.0, 5.0);
                let p1 = Pose::from_parts(
                    Translation3::from(world_t),
                    global * axis_angle(Vector3::y(), FRAC_PI_4),
                );
                let x = SQRT_2 + gap;
                let p2 = Pose::from_parts(
                    Translation3::from(world_t + global * Vector3::new(x, 0.0, 0.0)),
                    global * axis_angle(Vector3::x(), phi) * axis_angle(Vector3::z(), FRAC_PI_4),
                );
                let pos12 = p1.inv_mul(&p2);
                let r = query_both(&c, &c, &pos12, &mut warm);
                let (d, _, _, f1, f2) = disjoint(&r);
                // Exact for the f64 pose: the distance between the lines of the two edges.
                let (a0, a1) = (to_f64(&c.vertices()[5]), to_f64(&c.vertices()[7]));
                let (b0, b1) = (vertex2(&c, &pos12, 2), vertex2(&c, &pos12, 6));
                let axis = (a1 - a0).cross(&(b1 - b0)).normalize();
                let expected = (b0 - a0).dot(&axis).abs();
                assert!(
                    (expected - gap).abs() <= 1e-12,
                    "pose rounding moved the gap"
                );
                assert!(
                    (d - expected).abs() <= 1e-12,
                    "gap {gap} phi {phi} trial {trial}: {d} vs {expected}"
                );
                assert_eq!(
                    f1,
                    edge_between(&c, 5, 7),
                    "gap {gap} phi {phi} trial {trial}"
                );
                assert_eq!(
                    f2,
                    edge_between(&c, 2, 6),
                    "gap {gap} phi {phi} trial {trial}"
                );
                check_points(&c, &c, &pos12, &r, 1e-12).unwrap();
            }
        }
    }
}

/// Vertex-face: cube 2's diagonal turned onto `x` (vertex 0 at `(-sqrt(3)/2, 0, 0)` in the
/// turned frame), then by `phi` about `x`: vertex 0 faces the centre of cube 1's +x face at
/// distance `D - 0.5 - sqrt(3)/2`.
#[test]
fn cubes_vertex_face() {
    let c = cube(0.5);
    let diagonal =
        UnitQuaternion::rotation_between(&Vector3::new(1.0, 1.0, 1.0), &Vector3::x()).unwrap();
    let half_diagonal = 3f64.sqrt() / 2.0;
    let mut warm = FeaturePairCache::new();
    for &gap in &GAPS {
        for &phi in &ANGLES {
            let rot = axis_angle(Vector3::x(), phi) * diagonal;
            let x = 0.5 + half_diagonal + gap;
            let pos12 = pose([x, 0.0, 0.0], rot);
            let r = query_both(&c, &c, &pos12, &mut warm);
            let (d, p1, p2, f1, f2) = disjoint(&r);
            let expected = vertex2(&c, &pos12, 0).x - 0.5;
            assert!(
                (expected - gap).abs() <= 1e-12,
                "pose rounding moved the gap"
            );
            assert!(
                (d - expected).abs() <= 1e-12,
                "gap {gap} phi {phi}: {d} vs {expected}"
            );
            assert_eq!(f1, face_from_source(&c, 1));
            assert_eq!(f2, Feature::Vertex(VertexId(0)));
            assert!((p1 - PointD::new(0.5, 0.0, 0.0)).norm() < 1e-6);
            assert!((p2 - PointD::new(0.5 + d, 0.0, 0.0)).norm() < 1e-6);
            check_points(&c, &c, &pos12, &r, 1e-12).unwrap();
        }
    }
}

/// Vertex-vertex: both cubes with a diagonal on the `x` axis, vertex 7 of cube 1 facing vertex 0
/// of cube 2 at distance `D - sqrt(3)`.
#[test]
fn cubes_vertex_vertex() {
    let c = cube(0.5);
    let diagonal =
        UnitQuaternion::rotation_between(&Vector3::new(1.0, 1.0, 1.0), &Vector3::x()).unwrap();
    for &gap in &GAPS {
        for &phi in &ANGLES {
            let p1 = pose([0.0; 3], diagonal);
            let p2 = pose(
                [3f64.sqrt() + gap, 0.0, 0.0],
                axis_angle(Vector3::x(), phi) * diagonal,
            );
            let pos12 = p1.inv_mul(&p2);
            let r = closest_features(&c, &c, &pos12, &mut FeaturePairCache::new()).unwrap();
            let (d, _, _, f1, f2) = disjoint(&r);
            let expected = (vertex2(&c, &pos12, 0) - to_f64(&c.vertices()[7])).norm();
            assert!(
                (expected - gap).abs() <= 1e-12,
                "pose rounding moved the gap"
            );
            assert!(
                (d - expected).abs() <= 1e-12,
                "gap {gap} phi {phi}: {d} vs {expected}"
            );
            assert_eq!(f1, Feature::Vertex(VertexId(7)));
            assert_eq!(f2, Feature::Vertex(VertexId(0)));
        }
    }
}

/// The touching band: face-face contact at gap 0 and gaps inside `tol` are `Touching`; a gap just
/// above `tol` is `Disjoint`; overlaps deeper than `tol` are `Penetrating`; overlaps inside the band
/// are `Touching`.
#[test]
fn cubes_band_and_penetration() {
    let c = cube(0.5);
    let cloud = PointCloud::new(c.vertices().to_vec()).unwrap();
    let tol = touching_tolerance(&cloud, &cloud);
    let cases: [(f64, &str); 8] = [
        (0.0, "touching"),
        (0.3 * tol, "touching"),
        (-0.3 * tol, "touching"),
        (3.0 * tol, "disjoint"),
        (-3.0 * tol, "penetrating"),
        (-0.2, "penetrating"),
        (-0.999, "penetrating"),
        (-1.0, "penetrating"),
    ];
    for (gap, expected) in cases {
        for phi in [0.0, 0.4] {
            // f64 pose: gaps far below f32 spacing stay what they are.
            let pos12 = pose([1.0 + gap, 0.1, -0.05], axis_angle(Vector3::x(), phi));
            let actual_gap = pos12.translation.vector.x - 1.0;
            let r = closest_features(&c, &c, &pos12, &mut FeaturePairCache::new()).unwrap();
            let class = match r {
                ClosestFeatures::Disjoint { .. } => "disjoint",
                ClosestFeatures::Touching { .. } => "touching",
                ClosestFeatures::Penetrating { .. } => "penetrating",
            };
            assert_eq!(
                class, expected,
                "gap {actual_gap:e} tol {tol:e} phi {phi}: {r:?}"
            );
        }
    }
    // Cube 2 entirely inside a big cube: penetration found from any start.
    let big = cube(3.0);
    let mut cache = FeaturePairCache::new();
    for k in 0..10 {
        let pos12 = Pose::translation(0.1 * f64::from(k), -0.2, 0.05 * f64::from(k));
        let r = closest_features(&big, &c, &pos12, &mut cache).unwrap();
        assert!(matches!(r, ClosestFeatures::Penetrating { .. }), "{r:?}");
        let r = closest_features(&c, &big, &pos12.inverse(), &mut FeaturePairCache::new()).unwrap();
        assert!(matches!(r, ClosestFeatures::Penetrating { .. }), "{r:?}");
    }
}

/// Answers scale with the shapes: cubes of half-size `0.5 * 2^k` for `k` in -40..40 in the
/// vertex-face configuration give distance `gap * 2^k`.
#[test]
fn cubes_scale_invariance() {
    let diagonal =
        UnitQuaternion::rotation_between(&Vector3::new(1.0, 1.0, 1.0), &Vector3::x()).unwrap();
    for k in (-40..=40).step_by(8) {
        let s = 2f64.powi(k);
        let c = cube(0.5 * s);
        let gap = 0.125 * s;
        let x = (0.5 + 3f64.sqrt() / 2.0) * s + gap;
        let pos12 = pose([x, 0.0, 0.0], axis_angle(Vector3::x(), 0.3) * diagonal);
        let r = closest_features(&c, &c, &pos12, &mut FeaturePairCache::new()).unwrap();
        let (d, _, _, f1, f2) = disjoint(&r);
        let expected = vertex2(&c, &pos12, 0).x - 0.5 * s;
        assert!(
            (expected - gap).abs() <= 1e-12 * s,
            "pose rounding moved the gap"
        );
        assert!(
            (d - expected).abs() <= 1e-12 * s,
            "scale 2^{k}: {d} vs {expected}"
        );
        assert_eq!(f1, face_from_source(&c, 1));
        assert_eq!(f2, Feature::Vertex(VertexId(0)));
    }
}

/// Bad input gives typed errors: a non-convex polyhedron, NaN and infinite poses.
#[test]
fn typed_errors() {
    let c = cube(0.5);
    let ring =
        Polyhedron::build(torus(1.0, 0.3, 16, 8).unwrap(), &BuildOptions::default()).unwrap();
    let mut cache = FeaturePairCache::new();
    let pos12 = Pose::translation(5.0, 0.0, 0.0);
    assert!(matches!(
        closest_features(&ring, &c, &pos12, &mut cache),
        Err(NarrowError::NotConvex { shape: "shape 1" })
    ));
    assert!(matches!(
        closest_features(&c, &ring, &pos12, &mut cache),
        Err(NarrowError::NotConvex { shape: "shape 2" })
    ));
    let nan = Pose::translation(f64::NAN, 0.0, 0.0);
    assert!(matches!(
        closest_features(&c, &c, &nan, &mut cache),
        Err(NarrowError::NonFinite { .. })
    ));
    let mut bad_rotation = Pose::translation(3.0, 0.0, 0.0);
    bad_rotation.rotation =
        UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(f64::INFINITY, 0.0, 0.0, 0.0));
    assert!(matches!(
        closest_features(&c, &c, &bad_rotation, &mut cache),
        Err(NarrowError::NonFinite { .. })
    ));
    // The cache still works afterwards.
    let r = closest_features(&c, &c, &Pose::translation(3.0, 0.0, 0.0), &mut cache).unwrap();
    assert!((disjoint(&r).0 - 2.0).abs() < 1e-12);
    cache.validate().unwrap();
}

// ---------------------------------------------------------------------------------------------
// Differential against GJK and parry3d-f64
// ---------------------------------------------------------------------------------------------

struct Shape {
    poly: Polyhedron,
    cloud: PointCloud,
    parry: ConvexPolyhedron,
    radius: f64,
}

fn make_shape(points: &[Point]) -> Option<Shape> {
    let hull = convex_hull(points).ok()?;
    let poly = build(hull.mesh);
    let pv: Vec<PVec> = poly
        .vertices()
        .iter()
        .map(|p| PVec::new(p.x.into(), p.y.into(), p.z.into()))
        .collect();
    let parry = ConvexPolyhedron::from_convex_hull(&pv)?;
    let cloud = PointCloud::new(poly.vertices().to_vec()).unwrap();
    let radius = f64::from(colldet_narrow::SupportMap::local_bounding_radius(&cloud));
    Some(Shape {
        poly,
        cloud,
        parry,
        radius,
    })
}

#[derive(Clone, Copy)]
enum Source {
    ChungWang,
    Clouds,
}

fn pool(rng: &mut SplitMix64, count: usize, source: Source) -> Vec<Shape> {
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let n = (12.0 * (1000.0f64 / 12.0).powf(rng.next_f64())).round() as usize;
        let points = match source {
            Source::ChungWang => {
                let kind = ChungWangShape::ALL[rng.usize_in(0, 2)];
                let mesh = chung_wang_polytope(kind, n, rng.next_u64()).unwrap();
                mesh.vertices
            }
            Source::Clouds => {
                let family = [Family::Ellipsoid, Family::Rod, Family::Plate][rng.usize_in(0, 2)];
                random_cloud(rng, family, n, 1.0)
            }
        };
        if let Some(s) = make_shape(&points) {
            out.push(s);
        }
    }
    out
}

fn parry_intersects(a: &Shape, b: &Shape, pos12: &Pose) -> bool {
    query::intersection_test(&PPose::IDENTITY, &a.parry, &parry_pose(pos12), &b.parry)
        .unwrap()
        .intersecting
}

/// parry's signed distance: the distance when positive, else minus the contact depth.
fn parry_signed_distance(a: &Shape, b: &Shape, pos12: &Pose) -> f64 {
    let pose2 = parry_pose(pos12);
    let d = query::distance(&PPose::IDENTITY, &a.parry, &pose2, &b.parry)
        .unwrap()
        .distance;
    if d > 0.0 {
        return d;
    }
    match query::contact(&PPose::IDENTITY, &a.parry, &pose2, &b.parry, 0.0).unwrap() {
        Some(c) => c.dist.min(0.0),
        None => 0.0,
    }
}

#[derive(Default, Debug)]
struct Stats {
    cases: usize,
    disjoint: usize,
    touching: usize,
    penetrating: usize,
    in_band: usize,
    cold_steps: u64,
    warm_steps: u64,
    max_rel_err_parry: f64,
    max_rel_err_gjk: f64,
    /// Cases where parry's distance disagrees with ours while ours is certified by brute force.
    parry_distance_unbacked: Vec<String>,
    failures: Vec<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum PoseMode {
    /// Translation uniform in a ball of radius `1.1 (r1 + r2)`.
    Random,
    /// Bisected (with parry) to touching along a random direction, then offset by up to
    /// `1e-4 (r1 + r2)`.
    NearTouching,
}

fn run(seed: u64, cases: usize, source: Source, mode: PoseMode) -> Stats {
    let mut rng = SplitMix64(seed);
    let shapes = pool(&mut rng, 40, source);
    // One warm cache per ordered shape pair, reused across that pair's cases (so warm queries
    // start from the feature pair of an unrelated pose).
    let mut warm: Vec<FeaturePairCache> = (0..shapes.len() * shapes.len())
        .map(|_| FeaturePairCache::new())
        .collect();
    let mut stats = Stats::default();
    let mut case = 0;
    while stats.cases < cases {
        case += 1;
        let (i, j) = (
            rng.usize_in(0, shapes.len() - 1),
            rng.usize_in(0, shapes.len() - 1),
        );
        let (a, b) = (&shapes[i], &shapes[j]);
        let size = a.radius + b.radius;
        let rot = rng.rotation();
        let dir = rng.unit_vector();
        let pos12 = match mode {
            PoseMode::Random => to_pose(&rot, &(dir * (1.1 * size * rng.next_f64().cbrt()))),
            PoseMode::NearTouching => {
                let (mut lo, mut hi) = (0.0, size * 1.01);
                if !parry_intersects(a, b, &to_pose(&rot, &(dir * lo))) {
                    continue;
                }
                for _ in 0..40 {
                    let mid = 0.5 * (lo + hi);
                    if parry_intersects(a, b, &to_pose(&rot, &(dir * mid))) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                let offset = match rng.usize_in(0, 9) {
                    0 => 0.0,
                    1 => rng.range(-2e-9, 2e-9) * size,
                    _ => rng.range(-1e-4, 1e-4) * size,
                };
                to_pose(&rot, &(dir * (lo + offset)))
            }
        };
        stats.cases += 1;
        let label = format!("seed {seed} case {case} shapes {i},{j} pos12 {pos12:?}");
        check_case(
            &mut stats,
            a,
            b,
            &pos12,
            size,
            &mut warm[i * shapes.len() + j],
            &label,
        );
    }
    stats
}

fn check_case(
    stats: &mut Stats,
    a: &Shape,
    b: &Shape,
    pos12: &Pose,
    size: f64,
    warm: &mut FeaturePairCache,
    label: &str,
) {
    let tol = touching_tolerance(&a.cloud, &b.cloud);
    let sd = parry_signed_distance(a, b, pos12);
    let mut cold_cache = FeaturePairCache::new();
    let cold = match closest_features(&a.poly, &b.poly, pos12, &mut cold_cache) {
        Ok(r) => r,
        Err(e) => {
            stats.failures.push(format!("{label}: cold error {e}"));
            return;
        }
    };
    stats.cold_steps += u64::from(cold_cache.steps());
    let hot = match closest_features(&a.poly, &b.poly, pos12, warm) {
        Ok(r) => r,
        Err(e) => {
            stats.failures.push(format!("{label}: warm error {e}"));
            return;
        }
    };
    stats.warm_steps += u64::from(warm.steps());
    if let Err(e) = warm.validate() {
        stats.failures.push(format!("{label}: cache invalid {e}"));
    }
    let gjk = match gjk_distance(&a.cloud, &b.cloud, pos12, &mut GjkCache::new()) {
        Ok(g) => g,
        Err(e) => {
            stats.failures.push(format!("{label}: gjk error {e}"));
            return;
        }
    };
    match cold {
        ClosestFeatures::Disjoint { .. } => stats.disjoint += 1,
        ClosestFeatures::Touching { .. } => stats.touching += 1,
        ClosestFeatures::Penetrating { .. } => stats.penetrating += 1,
    }
    if sd.abs() <= tol {
        stats.in_band += 1;
    } else {
        let expected = sd < 0.0;
        for (name, r) in [("cold", &cold), ("warm", &hot)] {
            if r.is_colliding() != expected {
                stats.failures.push(format!(
                    "{label}: {name} boolean {} but parry sd {sd:e} (tol {tol:e}): {r:?}",
                    r.is_colliding()
                ));
            }
        }
        if gjk.status.is_colliding() != cold.is_colliding() {
            stats.failures.push(format!(
                "{label}: GJK {:?} vs ours {cold:?} (sd {sd:e})",
                gjk.status
            ));
        }
        if sd.abs() > 1.01 * tol {
            let ok = match cold {
                ClosestFeatures::Disjoint { .. } => sd > 0.0,
                ClosestFeatures::Penetrating { .. } => sd < 0.0,
                ClosestFeatures::Touching { .. } => false,
            };
            if !ok {
                stats
                    .failures
                    .push(format!("{label}: {cold:?} for sd {sd:e} (tol {tol:e})"));
            }
        }
    }
    for (name, r) in [("cold", &cold), ("warm", &hot)] {
        if let ClosestFeatures::Disjoint { distance, .. } = *r {
            let floor = 1e-9 * size;
            // parry's GJK stops at about 1e-8 of the size: below that its distance is rounding.
            let parry_floor = 1e-7 * size;
            let err_parry = (distance - sd).abs();
            let err_gjk = (distance - gjk.distance).abs();
            let parry_ok = err_parry <= 1e-4 * sd.abs() + parry_floor;
            let gjk_ok = err_gjk <= 1e-4 * gjk.distance + floor;
            if !parry_ok && gjk_ok && certified_distance(&a.poly, &b.poly, pos12, r, floor) {
                stats.parry_distance_unbacked.push(format!(
                    "{label}: {name} distance {distance} (certified) vs parry {sd}"
                ));
                continue;
            }
            if sd > tol {
                stats.max_rel_err_parry = stats.max_rel_err_parry.max(err_parry / sd);
                stats.max_rel_err_gjk = stats.max_rel_err_gjk.max(err_gjk / gjk.distance);
            }
            if !(parry_ok && gjk_ok) {
                stats.failures.push(format!(
                    "{label}: {name} distance {distance} vs parry {sd} vs GJK {}",
                    gjk.distance
                ));
            }
            if let Err(e) = check_points(&a.poly, &b.poly, pos12, r, 1e-9 * size) {
                stats.failures.push(format!("{label}: {name}: {e}"));
            }
        }
    }
}

fn report(name: &str, s: &Stats) {
    println!(
        "{name}: cases {} disjoint {} touching {} penetrating {} in_band {} mean_cold_steps {:.2} \
         mean_warm_steps {:.2} max_rel_err_parry {:.2e} max_rel_err_gjk {:.2e} failures {}",
        s.cases,
        s.disjoint,
        s.touching,
        s.penetrating,
        s.in_band,
        s.cold_steps as f64 / s.cases as f64,
        s.warm_steps as f64 / s.cases as f64,
        s.max_rel_err_parry,
        s.max_rel_err_gjk,
        s.failures.len()
    );
    for u in &s.parry_distance_unbacked {
        println!("  parry distance unbacked: {u}");
    }
    for f in s.failures.iter().take(10) {
        println!("  {f}");
    }
    assert!(
        s.failures.is_empty(),
        "{name}: {} failures",
        s.failures.len()
    );
    // Each case adds a cold and a warm entry; parry must stay a meaningful reference.
    assert!(
        s.parry_distance_unbacked.len() <= 2 * s.cases.div_ceil(1000),
        "{name}: parry's distance disagrees in {} certified answers",
        s.parry_distance_unbacked.len()
    );
}

#[test]
fn differential_chung_wang_random_poses() {
    let s = run(11, 8_000, Source::ChungWang, PoseMode::Random);
    report("differential_chung_wang_random_poses", &s);
    assert!(s.disjoint > 1000 && s.penetrating > 1000);
}

#[test]
fn differential_clouds_random_poses() {
    let s = run(12, 8_000, Source::Clouds, PoseMode::Random);
    report("differential_clouds_random_poses", &s);
    assert!(s.disjoint > 1000 && s.penetrating > 500);
}

#[test]
fn differential_near_touching() {
    let mut s = run(13, 2_000, Source::ChungWang, PoseMode::NearTouching);
    report("differential_near_touching_chung_wang", &s);
    let t = run(14, 2_000, Source::Clouds, PoseMode::NearTouching);
    report("differential_near_touching_clouds", &t);
    s.cases += t.cases;
    assert!(s.cases >= 4_000);
}

// ---------------------------------------------------------------------------------------------
// Coherence
// ---------------------------------------------------------------------------------------------

/// 1000 frames of small relative motion (shape 2 orbiting and spinning slowly, dipping into
/// contact): each frame agrees with GJK, and the warm start needs few steps per query.
#[test]
fn coherent_motion_needs_few_steps() {
    let a = build(chung_wang_polytope(ChungWangShape::Ellipsoid, 600, 7).unwrap());
    let b = build(chung_wang_polytope(ChungWangShape::Plate, 400, 8).unwrap());
    let ca = PointCloud::new(a.vertices().to_vec()).unwrap();
    let cb = PointCloud::new(b.vertices().to_vec()).unwrap();
    let tol = touching_tolerance(&ca, &cb);
    let mut cache = FeaturePairCache::new();
    let mut gjk_cache = GjkCache::new();
    let frames = 1000;
    let mut total_steps = 0u64;
    let mut max_steps = 0u32;
    let mut colliding_frames = 0;
    for k in 0..frames {
        let t = k as f64 / frames as f64;
        let angle = std::f64::consts::TAU * t;
        let radius = 2.05 + 0.35 * (3.0 * angle).cos();
        let translation = Vector3::new(
            radius * angle.cos(),
            radius * angle.sin(),
            0.3 * (2.0 * angle).sin(),
        );
        let rot = axis_angle(Vector3::new(0.3, 1.0, 0.2), 2.0 * angle);
        let pos12 = to_pose(&rot, &translation);
        let r = closest_features(&a, &b, &pos12, &mut cache).unwrap();
        if k > 0 {
            total_steps += u64::from(cache.steps());
            max_steps = max_steps.max(cache.steps());
        }
        let g = gjk_distance(&ca, &cb, &pos12, &mut gjk_cache).unwrap();
        match r {
            ClosestFeatures::Disjoint { distance, .. } => {
                assert!(
                    (distance - g.distance).abs() <= 1e-9 * (1.0 + distance),
                    "frame {k}: {distance} vs GJK {}",
                    g.distance
                );
                check_points(&a, &b, &pos12, &r, 1e-9).unwrap();
            }
            _ => {
                colliding_frames += 1;
                assert!(
                    g.distance <= tol,
                    "frame {k}: colliding but GJK distance {}",
                    g.distance
                );
            }
        }
    }
    let mean = total_steps as f64 / (frames - 1) as f64;
    println!(
        "coherent_motion: frames {frames} mean_steps {mean:.3} max_steps {max_steps} colliding_frames {colliding_frames}"
    );
    assert!(colliding_frames > 0 && colliding_frames < frames / 2);
    assert!(mean < 1.5, "mean steps per query {mean}");
}

/// The cache: repeating a pose takes 0 steps and keeps the features; moving a cache to another
/// pair of shapes drops the stale warm start (answers equal a fresh cache's); `reset` forgets it.
#[test]
fn cache_semantics() {
    let a = build(chung_wang_polytope(ChungWangShape::Rod, 200, 1).unwrap());
    let b = build(chung_wang_polytope(ChungWangShape::Ellipsoid, 300, 2).unwrap());
    let c = cube(0.5);
    let pos12 = pose(
        [0.4, 1.9, 0.3],
        axis_angle(Vector3::new(1.0, 2.0, 0.5), 0.7),
    );
    let mut cache = FeaturePairCache::new();
    assert_eq!(cache.features(), None);
    let first = closest_features(&a, &b, &pos12, &mut cache).unwrap();
    let pair = cache.features().expect("pair stored");
    assert_eq!(pair, first.features());
    let again = closest_features(&a, &b, &pos12, &mut cache).unwrap();
    assert_eq!(cache.steps(), 0);
    assert_eq!(again, first);
    // Same cache, other shapes: same answer as a fresh cache.
    let other = closest_features(&c, &b, &pos12, &mut cache).unwrap();
    let fresh = closest_features(&c, &b, &pos12, &mut FeaturePairCache::new()).unwrap();
    assert!((disjoint(&other).0 - disjoint(&fresh).0).abs() <= 1e-12);
    cache.validate().unwrap();
    cache.reset();
    assert_eq!(cache.features(), None);
    assert_eq!(closest_features(&a, &b, &pos12, &mut cache).unwrap(), first);
}
