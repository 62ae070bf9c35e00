//! Mesh-mesh queries in close proximity: our BVHs (AABB and OBB nodes) against parry3d-f64's
//! `TriMesh` `intersection_test` on the same poses, in the same run; build times; bytes per
//! triangle; mesh distance.
//!
//! Trees: AABB and OBB nodes with the default binned-SAH split, and OBB nodes with RAPID's split
//! (`obb_rapid`).
//!
//! Meshes: tori of major radius 1 and minor radius 0.495 at about 1k, 10k and 100k triangles.
//! Two such tori linked like chain links (torus 2 in the xz-plane, centred at `(offset, 0, 0)`)
//! have tube centre lines exactly 1 apart everywhere when `offset = 1`: the surfaces then run
//! parallel at a gap of 0.01 (1% of the tube diameter, "parallel close proximity") over their
//! whole length. `offset = 0.98` pushes them 0.01 into each other (touching). Each pose set spins
//! torus 2 about its own axis by 16 angles, which changes the tessellation alignment only.
//!
//! Run: `cargo bench -p colldet-narrow --bench mesh_pair -- --warm-up-time 0.5
//! --measurement-time 1`. Tree statistics are printed to stderr first.

use colldet_geom::MeshData;
use colldet_geom::math::Isometry;
use colldet_geom::{Aabb, Obb};
use colldet_narrow::mesh::bvh::{
    BvhBuildOptions, BvhVolume, MeshBvh, MeshDistanceCache, MeshQueryWorkspace, SplitRule,
    mesh_distance, mesh_surfaces_intersect,
};
use colldet_testkit::shapes::torus;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use nalgebra::{Translation3, UnitQuaternion, Vector3};
use parry3d_f64::math::{Pose, Rotation, Vector as PVec};
use parry3d_f64::query;
use parry3d_f64::shape::TriMesh;
use std::hint::black_box;
use std::time::Instant;

const SIZES: [(&str, usize, usize); 3] = [("1k", 32, 16), ("10k", 100, 50), ("100k", 316, 158)];
const POSES: usize = 16;

fn mesh(segments: usize, sides: usize) -> MeshData {
    torus(1.0, 0.495, segments, sides).expect("torus")
}

fn parry_mesh(m: &MeshData) -> TriMesh {
    let vertices: Vec<PVec> = m
        .vertices
        .iter()
        .map(|p| PVec::new(p.x.into(), p.y.into(), p.z.into()))
        .collect();
    let mut indices = Vec::new();
    for f in m.faces.iter() {
        for k in 1..f.len() - 1 {
            indices.push([f[0], f[k], f[k + 1]]);
        }
    }
    TriMesh::new(vertices, indices).expect("parry trimesh")
}

fn parry_pose(pos12: &Isometry) -> Pose {
    let q = pos12.rotation.quaternion();
    let t = pos12.translation.vector;
    Pose::from_parts(
        PVec::new(t.x.into(), t.y.into(), t.z.into()),
        Rotation::from_xyzw(q.i.into(), q.j.into(), q.k.into(), q.w.into()).normalize(),
    )
}

/// Torus 2 linked through torus 1 at `offset` along x, spun about its own axis by `k / POSES` of
/// a turn (plus a small phase so no pose aligns vertices exactly).
fn poses(offset: f32) -> Vec<Isometry> {
    (0..POSES)
        .map(|k| {
            let spin = UnitQuaternion::from_axis_angle(
                &Vector3::z_axis(),
                0.013 + k as f32 * std::f32::consts::TAU / POSES as f32,
            );
            let tilt =
                UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f32::consts::FRAC_PI_2);
            Isometry::from_parts(Translation3::new(offset, 0.0, 0.0), tilt * spin)
        })
        .collect()
}

/// CPU time used so far by this process, all threads (Linux `/proc/self/stat`, 100 ticks per
/// second); `None` elsewhere. Build times are also reported as CPU time because the benchmark
/// machines are shared: wall time there measures the load as much as the code.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Mean CPU milliseconds per build over enough builds to fill about a second of CPU.
fn build_cpu_ms<V: BvhVolume>(m: &MeshData, options: &BvhBuildOptions, wall_ms: f64) -> String {
    let reps = ((1000.0 / wall_ms.max(0.01)) as usize).clamp(3, 200);
    let Some(start) = process_cpu_seconds() else {
        return String::new();
    };
    for _ in 0..reps {
        black_box(MeshBvh::<V>::build(m, options).expect("build"));
    }
    let cpu = process_cpu_seconds().unwrap_or(start) - start;
    format!(" (CPU {:.1} ms over {reps})", cpu * 1e3 / reps as f64)
}

fn stats<V: BvhVolume>(
    name: &str,
    m: &MeshData,
    options: &BvhBuildOptions,
    sets: &[(&str, Vec<Isometry>)],
) {
    let t = Instant::now();
    let bvh = MeshBvh::<V>::build(m, options).expect("build");
    let build = t.elapsed();
    let cpu = if *options == BvhBuildOptions::default() {
        build_cpu_ms::<V>(m, options, build.as_secs_f64() * 1e3)
    } else {
        String::new()
    };
    let mut ws = MeshQueryWorkspace::new();
    let mut line = format!(
        "{name:>5} {:>4} {:?} leaf<={}: {} tris, {} nodes, {:.1} bytes/tri, build {:.1} ms{cpu}",
        V::NAME,
        options.split,
        options.max_leaf_triangles,
        bvh.triangle_count(),
        bvh.nodes().len(),
        bvh.bytes_per_triangle(),
        build.as_secs_f64() * 1e3
    );
    for (set, ps) in sets {
        let (mut vt, mut tt, mut hits) = (0, 0, 0);
        for p in ps {
            hits += usize::from(
                mesh_surfaces_intersect(&bvh, &bvh, p, &Default::default(), &mut ws).unwrap(),
            );
            vt += ws.volume_tests();
            tt += ws.triangle_tests();
        }
        line += &format!(
            "; {set}: {hits}/{} hit, {:.0} volume + {:.0} triangle tests/query",
            ps.len(),
            vt as f64 / ps.len() as f64,
            tt as f64 / ps.len() as f64
        );
    }
    eprintln!("{line}");
}

fn bench(c: &mut Criterion) {
    let sets = [("touching", poses(0.98)), ("gap1%", poses(1.0))];
    for (name, segments, sides) in SIZES {
        let m = mesh(segments, sides);
        for split in [SplitRule::BinnedSah, SplitRule::MeanOfLongestAxis] {
            for leaf in [1, 2, 4] {
                let o = BvhBuildOptions {
                    max_leaf_triangles: leaf,
                    split,
                };
                stats::<Aabb>(name, &m, &o, &sets);
                if name != "100k" || leaf == 2 {
                    stats::<Obb>(name, &m, &o, &sets);
                }
            }
        }
    }

    for (name, segments, sides) in SIZES {
        let m = mesh(segments, sides);
        // Default options (binned SAH, leaves of up to 2 triangles) for both volumes.
        let options = BvhBuildOptions::default();
        let aabb = MeshBvh::<Aabb>::build(&m, &options).unwrap();
        let obb = MeshBvh::<Obb>::build(&m, &options).unwrap();
        // The OBB tree with RAPID's split (mean of the centroids along the principal axis).
        let rapid_options = BvhBuildOptions {
            split: SplitRule::MeanOfLongestAxis,
            ..options
        };
        let obb_rapid = MeshBvh::<Obb>::build(&m, &rapid_options).unwrap();
        let theirs = parry_mesh(&m);
        let mut g = c.benchmark_group(format!("mesh_pair/{name}"));
        g.sample_size(10);
        g.bench_function("build/aabb_sah", |b| {
            b.iter(|| MeshBvh::<Aabb>::build(black_box(&m), &options).unwrap())
        });
        g.bench_function("build/obb_sah", |b| {
            b.iter(|| MeshBvh::<Obb>::build(black_box(&m), &options).unwrap())
        });
        g.bench_function("build/obb_rapid", |b| {
            b.iter(|| MeshBvh::<Obb>::build(black_box(&m), &rapid_options).unwrap())
        });
        g.bench_function("build/parry_trimesh", |b| {
            b.iter_batched(
                || m.clone(),
                |m| parry_mesh(black_box(&m)),
                BatchSize::LargeInput,
            )
        });
        for (set, ps) in &sets {
            let mut ws = MeshQueryWorkspace::new();
            g.bench_function(format!("{set}/aabb ({POSES} queries)"), |b| {
                b.iter(|| {
                    ps.iter()
                        .filter(|p| {
                            mesh_surfaces_intersect(&aabb, &aabb, *p, &Default::default(), &mut ws)
                                .unwrap()
                        })
                        .count()
                })
            });
            g.bench_function(format!("{set}/obb ({POSES} queries)"), |b| {
                b.iter(|| {
                    ps.iter()
                        .filter(|p| {
                            mesh_surfaces_intersect(&obb, &obb, *p, &Default::default(), &mut ws)
                                .unwrap()
                        })
                        .count()
                })
            });
            g.bench_function(format!("{set}/obb_rapid ({POSES} queries)"), |b| {
                b.iter(|| {
                    ps.iter()
                        .filter(|p| {
                            mesh_surfaces_intersect(
                                &obb_rapid,
                                &obb_rapid,
                                *p,
                                &Default::default(),
                                &mut ws,
                            )
                            .unwrap()
                        })
                        .count()
                })
            });
            let parry_poses: Vec<Pose> = ps.iter().map(parry_pose).collect();
            // Same answers as ours on these poses.
            for (p, pp) in ps.iter().zip(&parry_poses) {
                let ours =
                    mesh_surfaces_intersect(&aabb, &aabb, p, &Default::default(), &mut ws).unwrap();
                let them = query::intersection_test(&Pose::IDENTITY, &theirs, pp, &theirs)
                    .unwrap()
                    .intersecting;
                assert_eq!(ours, them, "{name} {set}: parry disagrees");
            }
            g.bench_function(format!("{set}/parry ({POSES} queries)"), |b| {
                b.iter(|| {
                    parry_poses
                        .iter()
                        .filter(|pp| {
                            query::intersection_test(&Pose::IDENTITY, &theirs, pp, &theirs)
                                .unwrap()
                                .intersecting
                        })
                        .count()
                })
            });
        }
        let (_, gap) = &sets[1];
        let mut ws = MeshQueryWorkspace::new();
        g.bench_function(format!("distance_gap1%/aabb_cold ({POSES} queries)"), |b| {
            b.iter(|| {
                gap.iter()
                    .map(|p| {
                        let mut cache = MeshDistanceCache::new();
                        mesh_distance(&aabb, &aabb, p, &Default::default(), &mut cache, &mut ws)
                            .unwrap()
                            .distance
                    })
                    .sum::<f64>()
            })
        });
        g.bench_function(format!("distance_gap1%/obb_cold ({POSES} queries)"), |b| {
            b.iter(|| {
                gap.iter()
                    .map(|p| {
                        let mut cache = MeshDistanceCache::new();
                        mesh_distance(&obb, &obb, p, &Default::default(), &mut cache, &mut ws)
                            .unwrap()
                            .distance
                    })
                    .sum::<f64>()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
