//! One convex pair under coherent motion: Chung-Wang (cached and uncached), GJK (cached and
//! uncached), closest features (cached) and parry3d-f64's `intersection_test` and `distance`, per
//! query, in the same run.
//!
//! Two ellipsoid hulls (`chung_wang_polytope`, circumradius 1) move with the paper's motion (5% of
//! the radius and 10 degrees per frame, bouncing in a box of half-width 1 radius, both velocities
//! reversed on collision); 1000 relative poses are precomputed and replayed cyclically, one query
//! per criterion iteration. parry gets a `ConvexPolyhedron` hulled from the same vertices and the
//! same `f32` poses widened to `f64`. Chung-Wang with a cache is also measured for 100, 1000 and
//! 10 000 vertices. Before timing, the mean iterations and vertex visits per query and the share of
//! colliding poses are printed to stderr.
//!
//! Run: `cargo bench -p colldet-narrow --bench convex_pair -- --warm-up-time 1 --measurement-time 3`.

use colldet_geom::math::{Isometry, Pose, VectorD, relative_pose};
use colldet_geom::{BuildOptions, ConvexPolytope, Polyhedron};
use colldet_narrow::{
    ChungWangCache, ChungWangWorkspace, FeaturePairCache, GjkCache, chung_wang_intersect,
    closest_features, gjk_intersect,
};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::{Translation3, Unit, UnitQuaternion};
use parry3d_f64::math::{Pose as PPose, Rotation, Vector as PVec};
use parry3d_f64::query;
use parry3d_f64::shape::ConvexPolyhedron;
use std::hint::black_box;

const FRAMES: usize = 1000;

fn polytope(n: usize, seed: u64) -> ConvexPolytope {
    ConvexPolytope::from_convex_mesh(
        &chung_wang_polytope(ChungWangShape::Ellipsoid, n, seed).unwrap(),
    )
    .unwrap()
}

/// The relative poses of the paper's motion, collisions decided by GJK.
fn motion(a: &ConvexPolytope, b: &ConvexPolytope, seed: u64) -> Vec<Isometry> {
    let mut rng = SeededRng::new(seed);
    let radius = f64::from(a.radius().max(b.radius()));
    let mut poses = [
        Pose::from_parts(Translation3::new(-1.1, 0.0, 0.0), rng.rotation()),
        Pose::from_parts(Translation3::new(1.1, 0.0, 0.0), rng.rotation()),
    ];
    let mut velocity = [0, 1].map(|_| rng.unit_vector().into_inner() * (0.05 * radius));
    let axes: [Unit<VectorD>; 2] = [rng.unit_vector(), rng.unit_vector()];
    let mut angular = [10f64.to_radians(); 2];
    let mut cache = GjkCache::new();
    let mut out = Vec::with_capacity(FRAMES);
    while out.len() < FRAMES {
        for k in 0..2 {
            let mut t = poses[k].translation.vector + velocity[k];
            for c in 0..3 {
                if t[c].abs() > radius {
                    velocity[k][c] = -velocity[k][c];
                    t[c] = t[c].clamp(-radius, radius);
                }
            }
            let rot = UnitQuaternion::from_axis_angle(&axes[k], angular[k]) * poses[k].rotation;
            poses[k] = Pose::from_parts(Translation3::from(t), rot);
        }
        let pos12 = relative_pose(&poses[0], &poses[1]);
        if gjk_intersect(a, b, &pos12, &mut cache)
            .unwrap()
            .is_colliding()
        {
            for k in 0..2 {
                velocity[k] = -velocity[k];
                angular[k] = -angular[k];
            }
        }
        out.push(pos12);
    }
    out
}

fn parry_shape(p: &ConvexPolytope) -> ConvexPolyhedron {
    let pts: Vec<PVec> = p
        .vertices()
        .iter()
        .map(|v| PVec::new(v.x.into(), v.y.into(), v.z.into()))
        .collect();
    ConvexPolyhedron::from_convex_hull(&pts).unwrap()
}

fn parry_pose(pos12: &Isometry) -> PPose {
    let q = pos12.rotation.quaternion();
    let t = pos12.translation.vector;
    PPose::from_parts(
        PVec::new(t.x.into(), t.y.into(), t.z.into()),
        Rotation::from_xyzw(q.i.into(), q.j.into(), q.k.into(), q.w.into()).normalize(),
    )
}

/// Prints the mean iterations and visits of cached Chung-Wang over the sequence.
fn profile(name: &str, a: &ConvexPolytope, b: &ConvexPolytope, poses: &[Isometry]) {
    let mut cache = ChungWangCache::new();
    let mut ws = ChungWangWorkspace::new();
    let (mut iterations, mut visits, mut colliding) = (0u64, 0u64, 0u64);
    for _ in 0..2 {
        for pos in poses {
            let r = chung_wang_intersect(a, b, pos, &mut cache, &mut ws).unwrap();
            iterations += u64::from(r.iterations);
            visits += u64::from(r.visits);
            colliding += u64::from(r.status.is_colliding());
        }
    }
    let q = (2 * poses.len()) as f64;
    eprintln!(
        "{name}: vertices {}+{}, colliding {:.3}, mean iterations {:.2}, mean visits {:.1}, \
         fallbacks {} of {}",
        a.vertex_count(),
        b.vertex_count(),
        colliding as f64 / q,
        iterations as f64 / q,
        visits as f64 / q,
        ws.stats.fallbacks(),
        ws.stats.queries
    );
}

fn bench_pair(c: &mut Criterion) {
    let a = polytope(500, 11);
    let b = polytope(500, 12);
    let poses = motion(&a, &b, 5);
    profile("chung_wang_cached_500", &a, &b, &poses);
    let (pa, pb) = (parry_shape(&a), parry_shape(&b));
    let parry_poses: Vec<PPose> = poses.iter().map(parry_pose).collect();
    let mut group = c.benchmark_group("convex_pair_500");

    let mut cache = ChungWangCache::new();
    let mut ws = ChungWangWorkspace::new();
    let mut i = 0;
    group.bench_function("chung_wang_cached", |bench| {
        bench.iter(|| {
            i = (i + 1) % FRAMES;
            chung_wang_intersect(&a, &b, black_box(&poses[i]), &mut cache, &mut ws).unwrap()
        })
    });
    group.bench_function("chung_wang_uncached", |bench| {
        bench.iter(|| {
            i = (i + 1) % FRAMES;
            cache.reset();
            chung_wang_intersect(&a, &b, black_box(&poses[i]), &mut cache, &mut ws).unwrap()
        })
    });
    let mut gjk_cache = GjkCache::new();
    group.bench_function("gjk_cached", |bench| {
        bench.iter(|| {
            i = (i + 1) % FRAMES;
            gjk_intersect(&a, &b, black_box(&poses[i]), &mut gjk_cache).unwrap()
        })
    });
    group.bench_function("gjk_uncached", |bench| {
        bench.iter(|| {
            i = (i + 1) % FRAMES;
            gjk_cache.reset();
            gjk_intersect(&a, &b, black_box(&poses[i]), &mut gjk_cache).unwrap()
        })
    });
    let polyhedron = |seed: u64| {
        let mesh = chung_wang_polytope(ChungWangShape::Ellipsoid, 500, seed).unwrap();
        Polyhedron::build(mesh, &BuildOptions::default()).unwrap()
    };
    let (ha, hb) = (polyhedron(11), polyhedron(12));
    let mut feature_cache = FeaturePairCache::new();
    group.bench_function("closest_features_cached", |bench| {
        bench.iter(|| {
            i = (i + 1) % FRAMES;
            closest_features(&ha, &hb, black_box(&poses[i]), &mut feature_cache).unwrap()
        })
    });
    group.bench_function("parry_distance", |bench| {
        bench.iter(|| {
            i = (i + 1) % FRAMES;
            query::distance(&PPose::IDENTITY, &pa, black_box(&parry_poses[i]), &pb).unwrap()
        })
    });
    group.bench_function("parry_intersection_test", |bench| {
        bench.iter(|| {
            i = (i + 1) % FRAMES;
            query::intersection_test(&PPose::IDENTITY, &pa, black_box(&parry_poses[i]), &pb)
                .unwrap()
                .intersecting
        })
    });
    group.finish();

    let mut group = c.benchmark_group("chung_wang_cached_by_size");
    for n in [100usize, 1000, 10_000] {
        let a = polytope(n, 21);
        let b = polytope(n, 22);
        let poses = motion(&a, &b, 6);
        profile(&format!("chung_wang_cached_{n}"), &a, &b, &poses);
        let mut cache = ChungWangCache::new();
        let mut i = 0;
        group.bench_function(format!("{n}"), |bench| {
            bench.iter(|| {
                i = (i + 1) % FRAMES;
                chung_wang_intersect(&a, &b, black_box(&poses[i]), &mut cache, &mut ws).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_pair);
criterion_main!(benches);
