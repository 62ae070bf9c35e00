//! Support mapping: brute force vs hill climbing cold (start vertex 0) vs hill climbing warm
//! (start = previous answer, direction rotated by 10 degrees per query as in coherent motion) vs
//! the 8 x 16 table start vs the DK hierarchy, on UV ellipsoids (semi-axes 1, 0.8, 0.6; quads and
//! pole fans) of about 12, 100, 1000 and 10,000 vertices. Before timing, the mean number of
//! vertex visits per query of each method is printed to stderr.
//!
//! Run: `cargo bench -p colldet-geom --bench support -- --warm-up-time 1 --measurement-time 2`.

#[path = "../tests/common/mod.rs"]
mod common;

use colldet_geom::ConvexPolytope;
use colldet_geom::math::{Vector, VectorD};
use common::{SplitMix64, SupportDraws, rotate_randomly, uv_ellipsoid_with_about};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const RANDOM_DIRECTIONS: usize = 1024;
const COHERENT_STEPS: usize = 2048;

fn to_vector(d: &VectorD) -> Vector {
    Vector::new(d.x as f32, d.y as f32, d.z as f32)
}

/// A coherent path of directions, each rotated by 10 degrees from the previous one, walked
/// forwards then backwards so that the cycle has no jump.
fn coherent_path(rng: &mut SplitMix64) -> Vec<Vector> {
    let mut d = rng.unit_vector();
    let mut forward = Vec::with_capacity(COHERENT_STEPS);
    for _ in 0..COHERENT_STEPS {
        d = rotate_randomly(rng, &d, 10f64.to_radians());
        forward.push(to_vector(&d));
    }
    let backward: Vec<Vector> = forward.iter().rev().copied().collect();
    forward.extend(backward);
    forward
}

fn mean(visits: impl Iterator<Item = u32>) -> f64 {
    let (sum, count) = visits.fold((0u64, 0u64), |(s, c), v| (s + u64::from(v), c + 1));
    sum as f64 / count as f64
}

fn support(c: &mut Criterion) {
    let mut rng = SplitMix64(0xbe9c_0001);
    eprintln!(
        "{:>7} {:>6} | mean visits: {:>8} {:>8} {:>8} {:>8} {:>8}",
        "n", "levels", "brute", "cold", "warm", "table", "dk"
    );
    for n in [12u32, 100, 1000, 10_000] {
        let mesh = uv_ellipsoid_with_about(n, [1.0, 0.8, 0.6], [0.0, 0.0, 0.0]);
        let polytope = ConvexPolytope::from_convex_mesh(&mesh).expect("UV ellipsoid is valid");
        let vertices = polytope.vertex_count();
        let random: Vec<Vector> = (0..RANDOM_DIRECTIONS)
            .map(|_| to_vector(&rng.unit_vector()))
            .collect();
        let path = coherent_path(&mut rng);

        let mut previous = polytope.support_from_table(&path[0]);
        let warm_visits = mean(path.iter().map(|d| {
            let r = polytope.support_hill_climb(d, previous);
            previous = r.vertex;
            r.visits
        }));
        eprintln!(
            "{:>7} {:>6} | {:>24.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1}",
            vertices,
            polytope.dk_hierarchy().map_or(1, |dk| dk.level_count()),
            vertices as f64,
            mean(
                random
                    .iter()
                    .map(|d| polytope.support_hill_climb(d, 0).visits)
            ),
            warm_visits,
            mean(
                random
                    .iter()
                    .map(|d| polytope.support_from_table_counted(d).visits)
            ),
            mean(random.iter().map(|d| polytope.support_dk_counted(d).visits)),
        );

        let mut group = c.benchmark_group(format!("support/{vertices}"));
        let mut i = 0usize;
        group.bench_function("brute_force", |b| {
            b.iter(|| {
                i = (i + 1) % RANDOM_DIRECTIONS;
                black_box(polytope.support_brute_force(black_box(&random[i])))
            })
        });
        group.bench_function("hill_climb_cold", |b| {
            b.iter(|| {
                i = (i + 1) % RANDOM_DIRECTIONS;
                black_box(polytope.support_hill_climb(black_box(&random[i]), 0))
            })
        });
        let mut k = 0usize;
        let mut previous = polytope.support_from_table(&path[0]);
        group.bench_function("hill_climb_warm", |b| {
            b.iter(|| {
                k = (k + 1) % path.len();
                let r = polytope.support_hill_climb(black_box(&path[k]), previous);
                previous = r.vertex;
                black_box(r)
            })
        });
        group.bench_function("table", |b| {
            b.iter(|| {
                i = (i + 1) % RANDOM_DIRECTIONS;
                black_box(polytope.support_from_table(black_box(&random[i])))
            })
        });
        group.bench_function("dk", |b| {
            b.iter(|| {
                i = (i + 1) % RANDOM_DIRECTIONS;
                black_box(polytope.support_dk(black_box(&random[i])))
            })
        });
        group.finish();
    }
}

criterion_group!(benches, support);
criterion_main!(benches);
