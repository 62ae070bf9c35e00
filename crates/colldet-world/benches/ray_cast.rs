//! Ray casts against a world of 1,000 objects (tori, spheres, cones, tetra flakes, boxes; 40 to
//! 256 triangles each, random poses in a cube of side 60): colldet's `World::ray_cast` (first
//! hit; sweep-and-prune's box scan and the dynamic tree's walk for candidates, each object's OBB
//! tree, exact triangle tests) and `ray_cast_all`, against parry3d-f64 on the same world: a
//! `Bvh` over the objects' world boxes and `TriMesh::cast_ray` per leaf (the `cast_ray` of a
//! query pipeline). 1,000 rays per iteration, from outside the cube towards points inside it.

use colldet_geom::WorldAabb;
use colldet_geom::math::{PointD, Pose, VectorD};
use colldet_geom::{FaceList, MeshData};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{cone, cuboid, sphere, tetra_flake, torus};
use colldet_world::{BroadPhaseKind, Config, ObjectId, RayHit, World};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::Translation3;
use parry3d_f64::bounding_volume::Aabb;
use parry3d_f64::math::{Pose as PPose, Rotation, Vector as PVec};
use parry3d_f64::partitioning::{Bvh, BvhBuildStrategy};
use parry3d_f64::query::{Ray, RayCast};
use parry3d_f64::shape::{Shape, TriMesh};
use std::hint::black_box;
use std::time::{Duration, Instant};

const OBJECTS: usize = 1000;
const RAYS: usize = 1000;
const SPREAD: f64 = 30.0;

fn fanned(mesh: MeshData) -> (MeshData, TriMesh) {
    let mut triangles = Vec::new();
    for face in mesh.faces.iter() {
        for k in 1..face.len() - 1 {
            triangles.push([face[0], face[k], face[k + 1]]);
        }
    }
    let pv: Vec<PVec> = mesh
        .vertices
        .iter()
        .map(|p| PVec::new(f64::from(p.x), f64::from(p.y), f64::from(p.z)))
        .collect();
    let tri = TriMesh::new(pv, triangles.clone()).expect("trimesh");
    (
        MeshData::new(mesh.vertices, FaceList::from_triangles(&triangles)),
        tri,
    )
}

fn parry_pose(pose: &Pose) -> PPose {
    let q = pose.rotation.quaternion();
    let t = pose.translation.vector;
    PPose::from_parts(
        PVec::new(t.x, t.y, t.z),
        Rotation::from_xyzw(q.i, q.j, q.k, q.w).normalize(),
    )
}

struct Scene {
    meshes: Vec<(MeshData, TriMesh)>,
    placed: Vec<(usize, Pose)>,
    rays: Vec<(PointD, VectorD)>,
}

fn scene() -> Scene {
    let mut rng = SeededRng::new(0xbe7c_4a11);
    let meshes = vec![
        fanned(torus(1.0, 0.3, 16, 8).unwrap()),
        fanned(sphere(0.8, 12, 6).unwrap()),
        fanned(cone(0.6, 1.2, 10).unwrap()),
        fanned(tetra_flake(2, 1.0).unwrap()),
        fanned(cuboid(VectorD::new(0.9, 0.3, 0.5)).unwrap()),
    ];
    let placed = (0..OBJECTS)
        .map(|_| {
            let t = VectorD::new(
                rng.range(-SPREAD, SPREAD),
                rng.range(-SPREAD, SPREAD),
                rng.range(-SPREAD, SPREAD),
            );
            (
                rng.index(meshes.len()),
                Pose::from_parts(Translation3::from(t), rng.rotation()),
            )
        })
        .collect();
    let rays = (0..RAYS)
        .map(|_| {
            let o = PointD::from(rng.unit_vector().into_inner() * (2.0 * SPREAD));
            let target = PointD::new(
                rng.range(-SPREAD, SPREAD),
                rng.range(-SPREAD, SPREAD),
                rng.range(-SPREAD, SPREAD),
            );
            (o, (target - o).normalize())
        })
        .collect();
    Scene {
        meshes,
        placed,
        rays,
    }
}

fn world(s: &Scene, broad: BroadPhaseKind) -> World<()> {
    world_and_ids(s, broad).0
}

/// The bench world and its objects' ids, in the order of `s.placed`.
fn world_and_ids(s: &Scene, broad: BroadPhaseKind) -> (World<()>, Vec<ObjectId>) {
    let mut w = World::new(Config {
        threads: 1,
        broad_phase: broad,
        universe: Some(WorldAabb::new(
            PointD::new(-SPREAD - 3.0, -SPREAD - 3.0, -SPREAD - 3.0),
            PointD::new(SPREAD + 3.0, SPREAD + 3.0, SPREAD + 3.0),
        )),
        ..Config::default()
    })
    .unwrap();
    let firsts: Vec<_> = s
        .meshes
        .iter()
        .map(|(m, _)| w.make_collidable(m.clone(), ()).unwrap())
        .collect();
    let mut used = vec![false; firsts.len()];
    let mut ids = Vec::new();
    for (kind, pose) in &s.placed {
        let id = if used[*kind] {
            w.make_instance(firsts[*kind], ()).unwrap()
        } else {
            used[*kind] = true;
            firsts[*kind]
        };
        w.set_transform(id, *pose).unwrap();
        ids.push(id);
    }
    w.start().unwrap();
    w.check().unwrap();
    (w, ids)
}

fn ray_casts(c: &mut Criterion) {
    let s = scene();
    let mut group = c.benchmark_group("ray_cast_1000_objects");
    group.sample_size(20);
    for (name, broad) in [
        ("sweep_and_prune", BroadPhaseKind::SweepAndPrune),
        ("dynamic_tree", BroadPhaseKind::DynamicTree),
    ] {
        let mut w = world(&s, broad);
        let hits = s
            .rays
            .iter()
            .filter(|(o, d)| w.ray_cast(o, d, f64::INFINITY).unwrap().is_some())
            .count();
        println!("colldet {name}: {hits} of {RAYS} rays hit");
        group.bench_function(format!("colldet_first_hit/{name}/1000_rays"), |b| {
            b.iter(|| {
                for (o, d) in &s.rays {
                    black_box(w.ray_cast(o, d, f64::INFINITY).unwrap());
                }
            })
        });
        let mut all: Vec<RayHit> = Vec::new();
        group.bench_function(format!("colldet_all_hits/{name}/1000_rays"), |b| {
            b.iter(|| {
                for (o, d) in &s.rays {
                    w.ray_cast_all(o, d, f64::INFINITY, &mut all).unwrap();
                    black_box(all.len());
                }
            })
        });
    }

    // The query index's upkeep: every object moved (by 0.1 along x and back, alternately), then
    // one ray (a refit of all leaves); an object added and one removed, then one ray (a
    // rebuild); each beside the same changes without the ray.
    let (mut w, ids) = world_and_ids(&s, BroadPhaseKind::SweepAndPrune);
    let shifted: Vec<Pose> = s
        .placed
        .iter()
        .map(|(_, p)| Translation3::new(0.1, 0.0, 0.0) * p)
        .collect();
    let (o, d) = s.rays[0];
    let mut flip = false;
    let mut move_all = |w: &mut World<()>| {
        flip = !flip;
        for (k, id) in ids.iter().enumerate() {
            let pose = if flip { shifted[k] } else { s.placed[k].1 };
            w.set_transform(*id, pose).unwrap();
        }
    };
    group.bench_function("index_upkeep/move_1000", |b| b.iter(|| move_all(&mut w)));
    group.bench_function("index_upkeep/move_1000_then_first_hit", |b| {
        b.iter(|| {
            move_all(&mut w);
            black_box(w.ray_cast(&o, &d, f64::INFINITY).unwrap())
        })
    });
    // A check between iterations (not timed) lets removed slots be reused.
    let add_remove = |w: &mut World<()>, iters: u64, ray: bool| {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            w.check().unwrap();
            let start = Instant::now();
            let id = w.make_instance(ids[0], ()).unwrap();
            w.set_transform(id, s.placed[0].1).unwrap();
            w.remove(id).unwrap();
            if ray {
                black_box(w.ray_cast(&o, &d, f64::INFINITY).unwrap());
            }
            total += start.elapsed();
        }
        total
    };
    group.bench_function("index_upkeep/add_remove", |b| {
        b.iter_custom(|iters| add_remove(&mut w, iters, false))
    });
    group.bench_function("index_upkeep/add_remove_then_first_hit", |b| {
        b.iter_custom(|iters| add_remove(&mut w, iters, true))
    });

    // parry: a Bvh over the world boxes, TriMesh::cast_ray at the leaves.
    let poses: Vec<PPose> = s.placed.iter().map(|(_, p)| parry_pose(p)).collect();
    let aabbs: Vec<Aabb> = s
        .placed
        .iter()
        .zip(&poses)
        .map(|((k, _), pose)| s.meshes[*k].1.compute_aabb(pose))
        .collect();
    let bvh = Bvh::from_leaves(BvhBuildStrategy::default(), &aabbs);
    let cast = |o: &PointD, d: &VectorD| {
        let ray = Ray::new(PVec::new(o.x, o.y, o.z), PVec::new(d.x, d.y, d.z));
        bvh.cast_ray(&ray, f64::MAX, |leaf, best| {
            let (k, _) = s.placed[leaf as usize];
            s.meshes[k]
                .1
                .cast_ray(&poses[leaf as usize], &ray, best, false)
        })
    };
    let hits = s.rays.iter().filter(|(o, d)| cast(o, d).is_some()).count();
    println!("parry3d-f64: {hits} of {RAYS} rays hit");
    group.bench_function("parry_cast_ray/bvh/1000_rays", |b| {
        b.iter(|| {
            for (o, d) in &s.rays {
                black_box(cast(o, d));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, ray_casts);
criterion_main!(benches);
