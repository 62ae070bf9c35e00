//! The cost of tolerances in the check, on a world like the shared `broad-10k` scene: 10,000
//! cuboids (sides 0.5 to 1.5, random orientations) in a cube of side 58.5 (about 5% of its
//! volume), every object moving each frame (0.1 units, 5 degrees). One `check` per iteration,
//! timed alone (the moves are not), one thread, for: every tolerance 0 (the default; the same
//! calls as a world without tolerances), and default tolerances of 0.02, 0.1 and 0.5 (each
//! reports some separated near pairs with their distance). Prints each case's collisions and
//! near pairs in the last check.

use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::cuboid;
use colldet_world::{Config, NearKind, ObjectId, World};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::{Translation3, UnitQuaternion};
use std::time::{Duration, Instant};

const OBJECTS: usize = 10_000;
const HALF_SIDE: f64 = 29.25;
const FRAMES: usize = 8;

/// The world (tolerance `tolerance` when above 0) and each frame's poses.
fn world(tolerance: f64) -> (World<()>, Vec<ObjectId>, Vec<Vec<Pose>>) {
    let mut rng = SeededRng::new(0x70_1e);
    let mut world = World::new(Config {
        threads: 1,
        ..Config::default()
    })
    .unwrap();
    let halves = [0.25, 0.375, 0.5, 0.625, 0.75];
    let mut shapes = Vec::new();
    for x in halves {
        for y in halves {
            for z in halves {
                shapes.push(cuboid(VectorD::new(x, y, z)).unwrap());
            }
        }
    }
    let first: Vec<ObjectId> = shapes
        .into_iter()
        .map(|m| world.make_collidable(m, ()).unwrap())
        .collect();
    let mut ids = first.clone();
    while ids.len() < OBJECTS {
        let like = first[rng.index(first.len())];
        ids.push(world.make_instance(like, ()).unwrap());
    }
    if tolerance > 0.0 {
        world.set_default_tolerance(tolerance).unwrap();
    }
    let starts: Vec<(VectorD, UnitQuaternion<f64>, VectorD, UnitQuaternion<f64>)> = (0..OBJECTS)
        .map(|_| {
            let p = VectorD::new(
                rng.range(-HALF_SIDE, HALF_SIDE),
                rng.range(-HALF_SIDE, HALF_SIDE),
                rng.range(-HALF_SIDE, HALF_SIDE),
            );
            let step = rng.unit_vector().into_inner() * 0.1;
            let turn = UnitQuaternion::from_axis_angle(&rng.unit_vector(), 5f64.to_radians());
            (p, rng.rotation(), step, turn)
        })
        .collect();
    let frames = (0..FRAMES)
        .map(|f| {
            starts
                .iter()
                .map(|(p, q, step, turn)| {
                    let mut r = *q;
                    for _ in 0..f {
                        r = turn * r;
                    }
                    Pose::from_parts(Translation3::from(p + step * f as f64), r)
                })
                .collect()
        })
        .collect();
    world.start().unwrap();
    (world, ids, frames)
}

fn tolerance(c: &mut Criterion) {
    let mut group = c.benchmark_group("tolerance/broad-10k-like");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(10));
    for (name, t) in [
        ("tolerance 0", 0.0),
        ("tolerance 0.02", 0.02),
        ("tolerance 0.1", 0.1),
        ("tolerance 0.5", 0.5),
    ] {
        let (mut world, ids, frames) = world(t);
        let mut frame = 0;
        let mut collisions = 0;
        let mut ran = false;
        group.bench_function(name, |b| {
            ran = true;
            b.iter_custom(|iterations| {
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    frame = (frame + 1) % FRAMES;
                    for (id, pose) in ids.iter().zip(&frames[frame]) {
                        world.set_transform(*id, *pose).unwrap();
                    }
                    let start = Instant::now();
                    collisions = world.check().unwrap();
                    total += start.elapsed();
                }
                total
            })
        });
        if !ran {
            continue; // filtered out on the command line
        }
        let separated = world
            .last_near_pairs()
            .iter()
            .filter(|p| p.kind == NearKind::Separated)
            .count();
        println!(
            "{name}: {collisions} collisions, {separated} separated near pairs, {} broad-phase \
             pairs in the last check",
            world.stats().overlapping_pairs
        );
    }
    group.finish();
}

criterion_group!(benches, tolerance);
criterion_main!(benches);
