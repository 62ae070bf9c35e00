//! Mesh-mesh proximity on zoo mesh pairs (the `proximity` bench's `proximity_zoo/...` groups):
//! the world's distance and tolerance queries against parry3d-f64's `distance` on the same
//! `TriMesh` pairs, at the poses of `benches/peers/test/zoo-distance.poses` (surface gaps 0.001
//! to 1 of the meshes' radius, eight poses each; the C++ peers time FCL on the same file).
//! Every query is cold (the pose changes each call), one thread.

use colldet_geom::MeshData;
use colldet_testkit::zoo_poses::{zoo_mesh, zoo_poses};
use colldet_world::{Config, World};
use criterion::Criterion;
use parry3d_f64::math::{Pose as PPose, Rotation, Vector as PVec};
use parry3d_f64::query;
use parry3d_f64::shape::TriMesh;
use std::hint::black_box;

fn trimesh(mesh: &MeshData) -> TriMesh {
    let vertices = mesh
        .vertices
        .iter()
        .map(|p| PVec::new(p.x.into(), p.y.into(), p.z.into()))
        .collect();
    let mut triangles = Vec::new();
    for face in mesh.faces.iter() {
        for k in 1..face.len() - 1 {
            triangles.push([face[0], face[k], face[k + 1]]);
        }
    }
    TriMesh::new(vertices, triangles).expect("parry trimesh")
}

/// The zoo pairs at every gap: colldet's distance, tolerance at half and twice the gap, and
/// parry3d-f64's distance.
pub fn proximity_zoo(c: &mut Criterion) {
    for pair in zoo_poses() {
        let (ma, mb) = (zoo_mesh(&pair.a), zoo_mesh(&pair.b));
        let (pa, pb) = (trimesh(&ma), trimesh(&mb));
        let mut world = World::new(Config {
            threads: 1,
            ..Config::default()
        })
        .unwrap();
        let a = world.make_collidable(ma, ()).unwrap();
        let b = world.make_collidable(mb, ()).unwrap();
        let mut group = c.benchmark_group(format!("proximity_zoo/{}", pair.name()));
        for g in &pair.gaps {
            // Same answers as the file's (exact up to rounding) before timing.
            for (pose, d) in g.poses.iter().zip(&g.distances) {
                world.set_transform(b, *pose).unwrap();
                let got = world.distance(a, b).unwrap().distance;
                assert!(
                    (got - d).abs() <= 1e-9,
                    "{} gap {}: {got} vs {d}",
                    pair.name(),
                    g.gap
                );
            }
            let n = g.poses.len();
            let mut k = 0;
            group.bench_function(format!("gap {}/colldet distance", g.gap), |bench| {
                bench.iter(|| {
                    k = (k + 1) % n;
                    world.set_transform(b, g.poses[k]).unwrap();
                    black_box(world.distance(a, b).unwrap())
                })
            });
            for factor in [0.5, 2.0] {
                let tolerance = factor * g.gap;
                group.bench_function(
                    format!("gap {}/colldet within {factor}x gap", g.gap),
                    |bench| {
                        bench.iter(|| {
                            k = (k + 1) % n;
                            world.set_transform(b, g.poses[k]).unwrap();
                            black_box(world.within_distance(a, b, tolerance).unwrap())
                        })
                    },
                );
            }
            let parry_poses: Vec<PPose> = g
                .poses
                .iter()
                .map(|p| {
                    let q = p.rotation.quaternion();
                    let t = p.translation.vector;
                    PPose::from_parts(
                        PVec::new(t.x, t.y, t.z),
                        Rotation::from_xyzw(q.i, q.j, q.k, q.w).normalize(),
                    )
                })
                .collect();
            group.bench_function(format!("gap {}/parry3d-f64 distance", g.gap), |bench| {
                bench.iter(|| {
                    k = (k + 1) % n;
                    black_box(query::distance(&PPose::IDENTITY, &pa, &parry_poses[k], &pb).unwrap())
                })
            });
        }
        group.finish();
    }
}
