//! One box pair per query: the box-box test, Chung-Wang (cached), GJK (cached) and parry3d-f64's
//! `intersection_test` on its `Cuboid`s, in the same run.
//!
//! 1000 pairs of axis-aligned boxes (half extents 0.25 to 0.75, as the `broad-100k` scene's) at
//! random relative poses within `0.8 (r1 + r2)` are precomputed and replayed cyclically, one query
//! per criterion iteration (each pair keeps its own cache). The share of colliding pairs is printed
//! to stderr before timing.
//!
//! Run: `cargo bench -p colldet-narrow --bench box_pair -- --warm-up-time 1 --measurement-time 3`.

use colldet_geom::ConvexPolytope;
use colldet_geom::math::{Pose, VectorD};
use colldet_narrow::{
    BoxBoxStatus, BoxHull, ChungWangCache, ChungWangWorkspace, GjkCache, box_box_intersect,
    chung_wang_intersect, gjk_intersect,
};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::cuboid;
use criterion::{Criterion, criterion_group, criterion_main};
use parry3d_f64::math::{Pose as PPose, Rotation, Vector as PVec};
use parry3d_f64::query;
use parry3d_f64::shape::Cuboid;
use std::hint::black_box;

const PAIRS: usize = 1000;

struct Shape {
    polytope: ConvexPolytope,
    boxed: BoxHull,
    parry: Cuboid,
}

fn shape(rng: &mut SeededRng) -> Shape {
    let h = VectorD::new(
        0.25 * rng.range(1.0, 3.0),
        0.25 * rng.range(1.0, 3.0),
        0.25 * rng.range(1.0, 3.0),
    );
    let polytope = ConvexPolytope::from_convex_mesh(&cuboid(h).unwrap()).unwrap();
    let boxed = BoxHull::recognise(&polytope).unwrap();
    let e = boxed.half_extents();
    Shape {
        polytope,
        boxed,
        parry: Cuboid::new(PVec::new(e.x, e.y, e.z)),
    }
}

fn parry_pose(pos12: &Pose) -> PPose {
    let q = pos12.rotation.quaternion();
    let t = pos12.translation.vector;
    PPose::from_parts(
        PVec::new(t.x, t.y, t.z),
        Rotation::from_xyzw(q.i, q.j, q.k, q.w),
    )
}

fn bench_box_pair(c: &mut Criterion) {
    let mut rng = SeededRng::new(3);
    let shapes: Vec<Shape> = (0..16).map(|_| shape(&mut rng)).collect();
    let pairs: Vec<(usize, usize, Pose)> = (0..PAIRS)
        .map(|_| {
            let (i, j) = (rng.index(16), rng.index(16));
            let size = f64::from(shapes[i].polytope.radius() + shapes[j].polytope.radius());
            let t = rng.unit_vector().into_inner() * (0.8 * size * rng.f64().cbrt());
            (i, j, Pose::from_parts(t.into(), rng.rotation()))
        })
        .collect();
    // The box test's answers, undecided ones resolved by GJK as the world resolves them (with
    // Chung-Wang, which answers as GJK does).
    let (mut separated, mut intersecting, mut undecided, mut undecided_colliding) = (0, 0, 0, 0);
    for (i, j, p) in &pairs {
        let (a, b) = (&shapes[*i], &shapes[*j]);
        match box_box_intersect(&a.boxed, &b.boxed, p).unwrap().status {
            BoxBoxStatus::Separated => separated += 1,
            BoxBoxStatus::Intersecting => intersecting += 1,
            BoxBoxStatus::Undecided => {
                undecided += 1;
                let g = gjk_intersect(&a.polytope, &b.polytope, p, &mut GjkCache::default());
                if g.unwrap().is_colliding() {
                    undecided_colliding += 1;
                }
            }
        }
    }
    eprintln!(
        "box pairs: {} of {PAIRS} colliding ({intersecting} certified intersecting, \
         {separated} certified separated, {undecided} undecided of which GJK finds \
         {undecided_colliding} colliding)",
        intersecting + undecided_colliding
    );

    let mut group = c.benchmark_group("box_pair");
    let mut k = 0;
    group.bench_function("box_box", |bench| {
        bench.iter(|| {
            let (i, j, p) = &pairs[k % PAIRS];
            k += 1;
            black_box(box_box_intersect(&shapes[*i].boxed, &shapes[*j].boxed, p).unwrap())
        })
    });
    let mut caches = vec![ChungWangCache::default(); PAIRS];
    let mut workspace = ChungWangWorkspace::default();
    group.bench_function("chung_wang_cached", |bench| {
        bench.iter(|| {
            let (i, j, p) = &pairs[k % PAIRS];
            let r = chung_wang_intersect(
                &shapes[*i].polytope,
                &shapes[*j].polytope,
                p,
                &mut caches[k % PAIRS],
                &mut workspace,
            );
            k += 1;
            black_box(r.unwrap())
        })
    });
    let mut gjk_caches = vec![GjkCache::default(); PAIRS];
    group.bench_function("gjk_cached", |bench| {
        bench.iter(|| {
            let (i, j, p) = &pairs[k % PAIRS];
            let r = gjk_intersect(
                &shapes[*i].polytope,
                &shapes[*j].polytope,
                p,
                &mut gjk_caches[k % PAIRS],
            );
            k += 1;
            black_box(r.unwrap())
        })
    });
    let parry_pairs: Vec<PPose> = pairs.iter().map(|(_, _, p)| parry_pose(p)).collect();
    group.bench_function("parry_cuboid_intersection_test", |bench| {
        bench.iter(|| {
            let (i, j, _) = &pairs[k % PAIRS];
            let r = query::intersection_test(
                &PPose::IDENTITY,
                &shapes[*i].parry,
                &parry_pairs[k % PAIRS],
                &shapes[*j].parry,
            );
            k += 1;
            black_box(r.unwrap())
        })
    });
    group.finish();
}

criterion_group!(benches, bench_box_pair);
criterion_main!(benches);
