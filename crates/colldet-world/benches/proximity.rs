//! Proximity queries of the world against parry3d-f64 in the same run: the exact distance, the
//! approximate distance (1% bound), the tolerance answer and parry's `distance` on the same pair,
//! for two 500-vertex convex hulls and two 1152-triangle tori, each at 16 poses from near (0.01
//! of the size) to far. Every query is cold (a fresh pose each call), one thread.

use colldet_geom::MeshData;
use colldet_geom::math::Pose;
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, torus};
use colldet_world::{Config, ObjectId, World};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::Translation3;
use parry3d_f64::math::{Pose as PPose, Rotation, Vector as PVec};
use parry3d_f64::query;
use parry3d_f64::shape::{ConvexPolyhedron, Shape, TriMesh};
use std::hint::black_box;

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

criterion_group!(benches, proximity);
criterion_main!(benches);
