//! Multi-level marching against parry3d-f64: on seeded separated pairs of convex hulls (12 to
//! 1000 vertices, three Chung-Wang families, random rotations, gaps from `1e-4` to 1 of the pair's
//! size), every level's bracket `[lower, upper]` holds parry's exact distance (between the hulls'
//! triangle meshes, an exact minimum over triangle pairs) up to `1e-9` relative plus `1e-12` of the
//! scale; brackets narrow level by level (lower never falls, upper never rises); the answer meets
//! its relative error; its points lie on the hulls, `distance` apart; and the march visits more
//! than one level on the hulls with a hierarchy.

use colldet_geom::ConvexPolytope;
use colldet_geom::math::{PointD, Pose};
use colldet_narrow::{GjkCache, LevelBound, NarrowError, gjk_distance, multilevel_distance};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope};
use nalgebra::Translation3;
use parry3d_f64::math::{Pose as PPose, Rotation, Vector as PVec};
use parry3d_f64::query::{self, PointQuery};
use parry3d_f64::shape::{ConvexPolyhedron, TriMesh};

struct Hull {
    polytope: ConvexPolytope,
    tri: TriMesh,
    solid: ConvexPolyhedron,
}

fn hull(kind: ChungWangShape, n: usize, seed: u64) -> Hull {
    let mesh = chung_wang_polytope(kind, n, seed).unwrap();
    let polytope = ConvexPolytope::from_convex_mesh(&mesh).unwrap();
    let points: Vec<PVec> = (0..mesh.vertices.len())
        .map(|i| {
            let p = mesh.vertex_f64(i);
            PVec::new(p.x, p.y, p.z)
        })
        .collect();
    let mut triangles = Vec::new();
    for face in mesh.faces.iter() {
        for k in 1..face.len() - 1 {
            triangles.push([face[0], face[k], face[k + 1]]);
        }
    }
    Hull {
        polytope,
        solid: ConvexPolyhedron::from_convex_hull(&points).unwrap(),
        tri: TriMesh::new(points, triangles).unwrap(),
    }
}

fn parry_pose(p: &Pose) -> PPose {
    let q = p.rotation.quaternion();
    let t = p.translation.vector;
    PPose::from_parts(
        PVec::new(t.x, t.y, t.z),
        Rotation::from_xyzw(q.i, q.j, q.k, q.w).normalize(),
    )
}

/// b's pose: a random direction and rotation, pushed out from touching (bisection with parry's
/// boolean test) by `gap`.
fn separated_pose(rng: &mut SeededRng, a: &Hull, b: &Hull, size: f64, gap: f64) -> Pose {
    let dir = rng.unit_vector().into_inner();
    let rot = rng.rotation();
    let at = |r: f64| Pose::from_parts(Translation3::from(dir * r), rot);
    let (mut lo, mut hi) = (0.0, 2.0 * size);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        let hit =
            query::intersection_test(&PPose::IDENTITY, &a.solid, &parry_pose(&at(mid)), &b.solid)
                .unwrap()
                .intersecting;
        if hit {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    at(hi + gap)
}

#[test]
fn every_level_brackets_the_exact_distance() -> Result<(), NarrowError> {
    let mut rng = SeededRng::new(0x3A7C4);
    let mut multi_level = 0;
    let mut early = 0;
    let mut cases = 0;
    for case in 0..120 {
        let pick = |rng: &mut SeededRng| {
            let kind = ChungWangShape::ALL[rng.index(3)];
            let n = [12, 100, 300, 1000][rng.index(4)];
            hull(kind, n, rng.next_u64())
        };
        let (a, b) = (pick(&mut rng), pick(&mut rng));
        let size = f64::from(a.polytope.radius()) + f64::from(b.polytope.radius());
        let gap = size * 10f64.powf(rng.range(-4.0, 0.0));
        let pose = separated_pose(&mut rng, &a, &b, size, gap);
        let exact = query::distance(&PPose::IDENTITY, &a.tri, &parry_pose(&pose), &b.tri)
            .unwrap()
            .distance;
        let scale = size + pose.translation.vector.norm();
        let slack = 1e-9 * exact + 1e-12 * scale;
        for rel in [0.0, 1e-3, 0.05, 0.5] {
            let mut previous: Option<LevelBound> = None;
            let mut levels = 0;
            let answer = multilevel_distance(&a.polytope, &b.polytope, &pose, rel, |bound| {
                levels += 1;
                assert!(
                    bound.lower - slack <= exact && exact <= bound.upper + slack,
                    "case {case} rel {rel}: level {:?} bracket [{}, {}] misses {exact}",
                    bound.levels,
                    bound.lower,
                    bound.upper
                );
                if let Some(p) = previous {
                    assert!(bound.lower >= p.lower && bound.upper <= p.upper);
                    assert!(bound.levels[0] <= p.levels[0] && bound.levels[1] <= p.levels[1]);
                }
                previous = Some(bound);
            })?
            .expect("separated pairs are measured");
            let d = answer.distance;
            assert!(
                exact - slack <= d && d <= (1.0 + rel) * exact + 2.0 * slack,
                "case {case} rel {rel}: {d} vs exact {exact}"
            );
            assert!(((answer.point1 - answer.point2).norm() - d).abs() <= slack);
            let on = |h: &Hull, pose: &PPose, p: &PointD| {
                h.solid
                    .distance_to_point(pose, PVec::new(p.x, p.y, p.z), true)
            };
            assert!(on(&a, &PPose::IDENTITY, &answer.point1) <= 1e-9 * scale);
            assert!(on(&b, &parry_pose(&pose), &answer.point2) <= 1e-9 * scale);
            let hierarchy =
                a.polytope.dk_hierarchy().is_some() || b.polytope.dk_hierarchy().is_some();
            if hierarchy {
                multi_level += usize::from(levels > 1);
                early += usize::from(answer.levels != [0, 0]);
            }
            if rel == 0.0 {
                // At relative error 0 the answer is GJK's (up to both accuracies).
                let gjk = gjk_distance(&a.polytope, &b.polytope, &pose, &mut GjkCache::new())?;
                assert!((gjk.distance - d).abs() <= 2.0 * slack);
            }
            cases += 1;
        }
    }
    assert!(multi_level > 150, "{multi_level} of {cases}");
    assert!(early > 30, "stopped above level 0: {early} of {cases}");
    Ok(())
}

#[test]
fn touching_and_intersecting_pairs_are_left_to_gjk_and_epa() -> Result<(), NarrowError> {
    let a = hull(ChungWangShape::Ellipsoid, 500, 7);
    let b = hull(ChungWangShape::Rod, 300, 8);
    let pose = Pose::from_parts(Translation3::new(0.1, 0.0, 0.0), Default::default());
    assert!(multilevel_distance(&a.polytope, &b.polytope, &pose, 0.01, |_| {})?.is_none());
    assert!(matches!(
        multilevel_distance(&a.polytope, &b.polytope, &pose, -1.0, |_| {}),
        Err(NarrowError::InvalidParameter { .. })
    ));
    Ok(())
}
