//! Group filtering on a world like the shared `broad-100k` scene: 100,000 cuboids (sides 0.5 to
//! 1.5, random orientations) in a cube of side 126 (about 5% of its volume), every object moving
//! each frame (0.1 units, 5 degrees). One `check` per iteration, timed alone (the moves are
//! not), one thread, for: no groups; 8 groups whose masks admit every group (the filter's cost
//! alone); 8 groups whose masks admit only their own group (an eighth of the pairs tested).

use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::cuboid;
use colldet_world::{Config, ObjectId, World};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::{Translation3, UnitQuaternion};
use std::time::{Duration, Instant};

const OBJECTS: usize = 100_000;
const HALF_SIDE: f64 = 63.0;
const FRAMES: usize = 8;

/// The world and each frame's poses.
fn world(groups: Option<bool>) -> (World<()>, Vec<ObjectId>, Vec<Vec<Pose>>) {
    let mut rng = SeededRng::new(0xB20AD);
    let mut world = World::new(Config {
        threads: 1,
        ..Config::default()
    })
    .unwrap();
    // The scene's meshes are boxes of sides 0.5 to 1.5.
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
    if let Some(own_group_only) = groups {
        for (k, &id) in ids.iter().enumerate() {
            let group = 1u32 << (k % 8);
            let mask = if own_group_only { group } else { u32::MAX };
            world.set_group(id, group, mask).unwrap();
        }
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

fn groups(c: &mut Criterion) {
    let mut group = c.benchmark_group("groups/broad-100k-like");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for (name, groups) in [
        ("no groups", None),
        ("8 groups, all admitted", Some(false)),
        ("8 groups, own group only", Some(true)),
    ] {
        let (mut world, ids, frames) = world(groups);
        let mut frame = 0;
        let mut pairs = 0;
        group.bench_function(name, |b| {
            b.iter_custom(|iterations| {
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    frame = (frame + 1) % FRAMES;
                    for (id, pose) in ids.iter().zip(&frames[frame]) {
                        world.set_transform(*id, *pose).unwrap();
                    }
                    let start = Instant::now();
                    pairs = world.check().unwrap();
                    total += start.elapsed();
                }
                total
            })
        });
        println!("{name}: {pairs} colliding pairs in the last check");
    }
    group.finish();
}

criterion_group!(benches, groups);
criterion_main!(benches);
