//! Proximity queries of the world against parry3d-f64 in the same run, one thread.
//!
//! - `proximity/convex-500`, `proximity/torus-1152`: the exact distance, the approximate distance
//!   (1% bound), the tolerance answer and parry's `distance` on the same pair, for two 500-vertex
//!   convex hulls and two 1152-triangle tori, each at 16 poses from near (0.01 of the size) to
//!   far, visited in turn: each query's pose is far from the pair's last one, so the world's warm
//!   start helps little.
//! - `proximity-coherent/hull-N` (N = 12, 100, 500, 1000 vertices, two ellipsoid hulls): a
//!   coherent sequence of 100 poses (b circles a slowly, `0.004` rad of arc and `0.01` rad of
//!   turn per step, at `0.05` of the pair's size from touching), walked back and forth so that
//!   every query is one small step from the pair's last one: the world's warm distance and
//!   tolerance answers (at half and twice the gap: no and yes) against parry's `distance` and
//!   `closest_points` (both cold: parry keeps nothing between calls) and parry's GJK
//!   (`query::gjk::closest_points`) restarted from the previous answer's direction, its
//!   coherent form.
//! - `proximity-approx/hull-N`: the two candidate engines of `distance_approx` on the same
//!   poses, cold (a fresh cache per call), at relative errors 1% and 10%: GJK with its relative
//!   stop (`gjk_distance_approx`, the engine) and the multi-level march over the hulls'
//!   Dobkin-Kirkpatrick hierarchies (`multilevel_distance`).
//! - `proximity_zoo`: zoo mesh pairs at four gaps (`benches/proximity_zoo`), cold.

use colldet_geom::math::Pose;
use colldet_geom::{ConvexPolytope, MeshData};
use colldet_narrow::{GjkCache, gjk_distance_approx, multilevel_distance};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, torus};
use colldet_world::{Config, ObjectId, World};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::Translation3;
use parry3d_f64::math::{Pose as PPose, Rotation, Vector as PVec};
use parry3d_f64::query;
use parry3d_f64::query::gjk::{self, CsoPoint, GJKResult, VoronoiSimplex};
use parry3d_f64::shape::{ConvexPolyhedron, Shape, TriMesh};
use std::hint::black_box;

mod coherent_poses;
mod proximity_zoo;

use coherent_poses::coherent_poses;

/// One pair at `POSES` poses of b, in both libraries.
struct Case {
    world: World<()>,
    a: ObjectId,
    b: ObjectId,
    poses: Vec<Pose>,
    parry_a: Box<dyn Shape>,
    parry_b: Box<dyn Shape>,
}

const POSES: usize = 16;

fn parry_pose(p: &Pose) -> PPose {
    let q = p.rotation.quaternion();
    let t = p.translation.vector;
    PPose::from_parts(
        PVec::new(t.x, t.y, t.z),
        Rotation::from_xyzw(q.i, q.j, q.k, q.w).normalize(),
    )
}

fn points(mesh: &MeshData) -> Vec<PVec> {
    mesh.vertices
        .iter()
        .map(|p| PVec::new(p.x.into(), p.y.into(), p.z.into()))
        .collect()
}

fn trimesh(mesh: &MeshData) -> TriMesh {
    let mut triangles = Vec::new();
    for face in mesh.faces.iter() {
        for k in 1..face.len() - 1 {
            triangles.push([face[0], face[k], face[k + 1]]);
        }
    }
    TriMesh::new(points(mesh), triangles).unwrap()
}

fn case(mesh_a: MeshData, mesh_b: MeshData, convex: bool, size: f64, rng: &mut SeededRng) -> Case {
    let (parry_a, parry_b): (Box<dyn Shape>, Box<dyn Shape>) = if convex {
        (
            Box::new(ConvexPolyhedron::from_convex_hull(&points(&mesh_a)).unwrap()),
            Box::new(ConvexPolyhedron::from_convex_hull(&points(&mesh_b)).unwrap()),
        )
    } else {
        (Box::new(trimesh(&mesh_a)), Box::new(trimesh(&mesh_b)))
    };
    let mut world = World::new(Config {
        threads: 1,
        ..Config::default()
    })
    .unwrap();
    let a = world.make_collidable(mesh_a, ()).unwrap();
    let b = world.make_collidable(mesh_b, ()).unwrap();
    // Gaps from 0.01 to 1 of the size along random directions (b's centre pushed out until the
    // exact distance is positive, then by the gap).
    let mut poses = Vec::new();
    while poses.len() < POSES {
        let dir = rng.unit_vector().into_inner();
        let rot = rng.rotation();
        let gap = size * 10f64.powf(rng.range(-2.0, 0.0));
        let mut r = 0.0;
        loop {
            let pose = Pose::from_parts(Translation3::from(dir * r), rot);
            world.set_transform(b, pose).unwrap();
            let d = world.distance(a, b).unwrap().distance;
            if d > 0.0 {
                let pose = Pose::from_parts(Translation3::from(dir * (r + gap)), rot);
                poses.push(pose);
                break;
            }
            r += 0.05 * size;
        }
    }
    Case {
        world,
        a,
        b,
        poses,
        parry_a,
        parry_b,
    }
}

fn proximity(c: &mut Criterion) {
    let mut rng = SeededRng::new(0x9E0C5);
    let hull = |rng: &mut SeededRng| {
        chung_wang_polytope(ChungWangShape::Ellipsoid, 500, rng.next_u64()).unwrap()
    };
    let (ha, hb) = (hull(&mut rng), hull(&mut rng));
    let tori = (
        torus(1.0, 0.3, 48, 12).unwrap(),
        torus(1.0, 0.3, 48, 12).unwrap(),
    );
    let mut cases = [
        ("convex-500", case(ha, hb, true, 2.0, &mut rng)),
        ("torus-1152", case(tori.0, tori.1, false, 2.6, &mut rng)),
    ];
    for (name, case) in &mut cases {
        let mut group = c.benchmark_group(format!("proximity/{name}"));
        let (a, b) = (case.a, case.b);
        let mut k = 0;
        group.bench_function("colldet distance", |bench| {
            bench.iter(|| {
                k = (k + 1) % POSES;
                case.world.set_transform(b, case.poses[k]).unwrap();
                black_box(case.world.distance(a, b).unwrap())
            })
        });
        group.bench_function("colldet distance_approx 1%", |bench| {
            bench.iter(|| {
                k = (k + 1) % POSES;
                case.world.set_transform(b, case.poses[k]).unwrap();
                black_box(case.world.distance_approx(a, b, 0.01).unwrap())
            })
        });
        group.bench_function("colldet within_distance 0.1", |bench| {
            bench.iter(|| {
                k = (k + 1) % POSES;
                case.world.set_transform(b, case.poses[k]).unwrap();
                black_box(case.world.within_distance(a, b, 0.1).unwrap())
            })
        });
        let parry_poses: Vec<PPose> = case.poses.iter().map(parry_pose).collect();
        group.bench_function("parry3d-f64 distance", |bench| {
            bench.iter(|| {
                k = (k + 1) % POSES;
                black_box(
                    query::distance(
                        &PPose::IDENTITY,
                        case.parry_a.as_ref(),
                        &parry_poses[k],
                        case.parry_b.as_ref(),
                    )
                    .unwrap(),
                )
            })
        });
        group.finish();
    }
}

/// Poses of the coherent sequences.
const COHERENT_POSES: usize = 100;

/// The pose index of call `k`: the sequence forth and back, each call one step from the last.
fn ping_pong(k: usize) -> usize {
    let k = k % (2 * COHERENT_POSES - 2);
    if k < COHERENT_POSES {
        k
    } else {
        2 * COHERENT_POSES - 2 - k
    }
}

fn coherent(c: &mut Criterion) {
    let mut rng = SeededRng::new(0xC0_4E12);
    for n in [12, 100, 500, 1000] {
        let hull = |rng: &mut SeededRng| {
            chung_wang_polytope(ChungWangShape::Ellipsoid, n, rng.next_u64()).unwrap()
        };
        let (ma, mb) = (hull(&mut rng), hull(&mut rng));
        let (ma_copy, mb_copy) = (ma.clone(), mb.clone());
        let parry_a = ConvexPolyhedron::from_convex_hull(&points(&ma)).unwrap();
        let parry_b = ConvexPolyhedron::from_convex_hull(&points(&mb)).unwrap();
        let size =
            parry_a.local_bounding_sphere().radius() + parry_b.local_bounding_sphere().radius();
        let mut world = World::new(Config {
            threads: 1,
            ..Config::default()
        })
        .unwrap();
        let a = world.make_collidable(ma, ()).unwrap();
        let b = world.make_collidable(mb, ()).unwrap();
        let gap = 0.05 * size;
        let poses = coherent_poses(&mut world, (a, b), size, gap, COHERENT_POSES, &mut rng);
        let parry_poses: Vec<PPose> = poses.iter().map(parry_pose).collect();
        let mut group = c.benchmark_group(format!("proximity-coherent/hull-{n}"));
        group.warm_up_time(std::time::Duration::from_secs(1));
        group.measurement_time(std::time::Duration::from_secs(3));
        let mut k = 0;
        group.bench_function("colldet distance (warm)", |bench| {
            bench.iter(|| {
                k += 1;
                world.set_transform(b, poses[ping_pong(k)]).unwrap();
                black_box(world.distance(a, b).unwrap())
            })
        });
        for (name, tolerance) in [
            ("colldet within_distance 0.5 gap (warm)", 0.5 * gap),
            ("colldet within_distance 2 gap (warm)", 2.0 * gap),
        ] {
            group.bench_function(name, |bench| {
                bench.iter(|| {
                    k += 1;
                    world.set_transform(b, poses[ping_pong(k)]).unwrap();
                    black_box(world.within_distance(a, b, tolerance).unwrap())
                })
            });
        }
        group.bench_function("parry3d-f64 distance", |bench| {
            bench.iter(|| {
                k += 1;
                let pose = &parry_poses[ping_pong(k)];
                black_box(query::distance(&PPose::IDENTITY, &parry_a, pose, &parry_b).unwrap())
            })
        });
        group.bench_function("parry3d-f64 closest_points", |bench| {
            bench.iter(|| {
                k += 1;
                let pose = &parry_poses[ping_pong(k)];
                black_box(
                    query::closest_points(&PPose::IDENTITY, &parry_a, pose, &parry_b, f64::MAX)
                        .unwrap(),
                )
            })
        });
        let mut simplex = VoronoiSimplex::new();
        let mut dir = PVec::X;
        group.bench_function("parry3d-f64 gjk closest_points (warm direction)", |bench| {
            bench.iter(|| {
                k += 1;
                let pos12 = parry_poses[ping_pong(k)];
                simplex.reset(CsoPoint::from_shapes(&pos12, &parry_a, &parry_b, dir));
                let result =
                    gjk::closest_points(&pos12, &parry_a, &parry_b, f64::MAX, true, &mut simplex);
                if let GJKResult::ClosestPoints(_, _, d) = result {
                    dir = d;
                }
                black_box(result)
            })
        });
        group.finish();

        // The engines of `distance_approx`, cold (a fresh cache per call) on the same poses.
        let (ha, hb) = (
            ConvexPolytope::from_convex_mesh(&ma_copy).unwrap(),
            ConvexPolytope::from_convex_mesh(&mb_copy).unwrap(),
        );
        let mut group = c.benchmark_group(format!("proximity-approx/hull-{n}"));
        group.warm_up_time(std::time::Duration::from_secs(1));
        group.measurement_time(std::time::Duration::from_secs(3));
        for rel in [0.01, 0.1] {
            group.bench_function(format!("gjk_distance_approx {rel} (cold)"), |bench| {
                bench.iter(|| {
                    k += 1;
                    let pose = &poses[ping_pong(k)];
                    black_box(
                        gjk_distance_approx(&ha, &hb, pose, rel, &mut GjkCache::new()).unwrap(),
                    )
                })
            });
            group.bench_function(format!("multilevel_distance {rel} (cold)"), |bench| {
                bench.iter(|| {
                    k += 1;
                    let pose = &poses[ping_pong(k)];
                    black_box(multilevel_distance(&ha, &hb, pose, rel, |_| {}).unwrap())
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, proximity, coherent, proximity_zoo::proximity_zoo);
criterion_main!(benches);
