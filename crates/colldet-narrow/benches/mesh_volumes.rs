//! Which node volume wins on which mesh query: OBB trees (six-projection distance bound), RSS
//! trees (PQP's rectangle swept spheres; overlap by the RSS bound) and OBBRSS trees (the box's
//! overlap test, the RSS's distance bound), on zoo mesh pairs at the poses of
//! `benches/peers/test/zoo-distance.poses` (surface gaps 0.001 to 1 of the meshes' radius):
//! distance (cold), tolerance verification at half and twice the gap, and collision at the
//! 0.001-gap poses as they are (apart) and pulled in by 1% of their offset (mostly touching).
//! Tree memory and the volume and triangle tests per query are printed to stderr first; distance
//! queries testing more than 20,000 triangle pairs on average are counted, not timed.
//!
//! Run: `cargo bench -p colldet-narrow --bench mesh_volumes -- --warm-up-time 0.3
//! --measurement-time 1`.

use colldet_geom::math::Pose;
use colldet_geom::{MeshData, Obb};
use colldet_narrow::mesh::bvh::{
    BvhBuildOptions, BvhVolume, MeshBvh, MeshDistanceCache, MeshQueryWorkspace, ObbRss, Rss,
    mesh_distance, mesh_surfaces_intersect, mesh_within_distance,
};
use colldet_testkit::zoo_poses::{ZooPair, zoo_mesh, zoo_poses};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::Translation3;
use std::hint::black_box;

/// Queries testing more triangle pairs than this on average are counted, not timed.
const SLOW_TRIANGLE_TESTS: u64 = 20_000;

/// The pair's trees for one volume, and the benches of every query on them.
fn bench_volume<V: BvhVolume>(
    c: &mut Criterion,
    name: &str,
    ma: &MeshData,
    mb: &MeshData,
    pair: &ZooPair,
) {
    let (ta, tb) = (
        MeshBvh::<V>::build(ma, &BvhBuildOptions::default()).unwrap(),
        MeshBvh::<V>::build(mb, &BvhBuildOptions::default()).unwrap(),
    );
    eprintln!(
        "{name} {}: {} bytes per node, {:.1} tree bytes per triangle",
        V::NAME,
        std::mem::size_of_val(&ta.nodes()[0]),
        ta.bytes_per_triangle()
    );
    let mut ws = MeshQueryWorkspace::new();
    let mut group = c.benchmark_group(format!("mesh_volumes/{name}"));
    for g in &pair.gaps {
        let (gap, poses) = (&g.gap, &g.poses);
        let n = poses.len();
        let (mut vt, mut tt) = (0, 0);
        for p in poses {
            mesh_distance(
                &ta,
                &tb,
                p,
                &Default::default(),
                &mut MeshDistanceCache::new(),
                &mut ws,
            )
            .unwrap();
            vt += ws.volume_tests();
            tt += ws.triangle_tests();
        }
        eprintln!(
            "  {} distance gap {gap}: {} volume tests, {} triangle tests per query",
            V::NAME,
            vt / n as u64,
            tt / n as u64
        );
        if tt / n as u64 > SLOW_TRIANGLE_TESTS {
            // Far too slow for criterion's samples; the counts say enough.
            eprintln!("  {} distance gap {gap}: not timed", V::NAME);
            continue;
        }
        group.bench_function(format!("gap {gap}/distance/{}", V::NAME), |b| {
            b.iter(|| {
                poses
                    .iter()
                    .map(|p| {
                        let mut cache = MeshDistanceCache::new();
                        mesh_distance(&ta, &tb, p, &Default::default(), &mut cache, &mut ws)
                            .unwrap()
                            .distance
                    })
                    .sum::<f64>()
            })
        });
        for factor in [0.5, 2.0] {
            let tol = gap * factor;
            group.bench_function(format!("gap {gap}/within {factor}x/{}", V::NAME), |b| {
                b.iter(|| {
                    poses
                        .iter()
                        .filter(|p| {
                            mesh_within_distance(&ta, &tb, *p, tol, &mut ws)
                                .unwrap()
                                .is_some()
                        })
                        .count()
                })
            });
        }
    }
    let near = &pair.gaps[0].poses;
    let pulled: Vec<Pose> = near
        .iter()
        .map(|p| Pose::from_parts(Translation3::from(p.translation.vector * 0.99), p.rotation))
        .collect();
    for (set, poses) in [("apart", near), ("pulled_in", &pulled)] {
        let hits = poses
            .iter()
            .filter(|p| {
                mesh_surfaces_intersect(&ta, &tb, *p, &Default::default(), &mut ws).unwrap()
            })
            .count();
        eprintln!(
            "  {} collision {set}: {hits} of {} touch",
            V::NAME,
            poses.len()
        );
        group.bench_function(format!("collision {set}/{}", V::NAME), |b| {
            b.iter(|| {
                poses
                    .iter()
                    .filter(|p| {
                        mesh_surfaces_intersect(&ta, &tb, *p, &Default::default(), &mut ws).unwrap()
                    })
                    .count()
            })
        });
    }
    group.finish();
    black_box((ta, tb));
}

fn bench(c: &mut Criterion) {
    for pair in zoo_poses() {
        let (ma, mb) = (zoo_mesh(&pair.a), zoo_mesh(&pair.b));
        let name = pair.name();
        bench_volume::<Obb>(c, &name, &ma, &mb, &pair);
        bench_volume::<Rss>(c, &name, &ma, &mb, &pair);
        bench_volume::<ObbRss>(c, &name, &ma, &mb, &pair);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
