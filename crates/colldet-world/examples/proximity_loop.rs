//! A loop of coherent world proximity queries, for instruction counts under
//! `valgrind --tool=callgrind` (criterion's timing loop is too noisy to attribute a few hundred
//! instructions): the sequence of `benches/proximity.rs`'s `proximity-coherent/hull-N` (two
//! N-vertex ellipsoid hulls, b circling a at 0.05 of the pair's size from touching, walked forth
//! and back), each query preceded by `set_transform`, as an engine moves then asks.
//!
//! `cargo run --release -p colldet-world --example proximity_loop -- QUERY N COUNT` with QUERY one
//! of `distance`, `within-no` (tolerance half the gap), `within-yes` (twice the gap), `move` (the
//! `set_transform` alone), or `stats` (the first poses' distances and how far b turns and
//! shifts per pose); prints a checksum so nothing is optimised away. Divide the instructions of
//! `run_queries` by COUNT plus the 200 warm-up queries.
//!
//! `far-distance` and `far-within` (N ignored) run the far poses of `benches/proximity.rs`'s
//! `proximity/convex-500` instead: two 500-vertex ellipsoid hulls at 16 poses with gaps from 0.01
//! to 1 of the pair's size, visited in turn; `far-within` asks `within_distance` 0.1.

use colldet_geom::math::Pose;
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope};
use colldet_world::{Config, ObjectId, World};
use nalgebra::Translation3;

#[path = "../benches/coherent_poses/mod.rs"]
mod coherent_poses;

use coherent_poses::coherent_poses;

const POSES: usize = 100;

/// Poses of the far sequence (`benches/proximity.rs`'s `POSES`).
const FAR_POSES: usize = 16;

fn ping_pong(k: usize) -> usize {
    let k = k % (2 * POSES - 2);
    if k < POSES { k } else { 2 * POSES - 2 - k }
}

#[inline(never)]
fn run_queries(
    world: &mut World<()>,
    (a, b): (ObjectId, ObjectId),
    poses: &[Pose],
    query: &str,
    tolerance: f64,
    count: usize,
) -> f64 {
    let mut sum = 0.0;
    let far = query.starts_with("far-");
    for k in 0..count {
        let pose = if far {
            poses[k % poses.len()]
        } else {
            poses[ping_pong(k)]
        };
        world.set_transform(b, pose).unwrap();
        sum += match query {
            "distance" | "far-distance" => world.distance(a, b).unwrap().distance,
            "move" => 0.0,
            _ => f64::from(u8::from(world.within_distance(a, b, tolerance).unwrap())),
        };
    }
    sum
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let query = args.get(1).map_or("distance", String::as_str);
    let n: usize = args.get(2).map_or(12, |s| s.parse().expect("N"));
    let count: usize = args.get(3).map_or(20_000, |s| s.parse().expect("COUNT"));
    let mut world = World::new(Config {
        threads: 1,
        ..Config::default()
    })
    .unwrap();
    if query.starts_with("far-") {
        let (a, b, poses) = far_case(&mut world);
        if query == "far-stats" {
            for p in &poses {
                world.set_transform(b, *p).unwrap();
                let d = world.distance(a, b).unwrap().distance;
                println!("distance {d:.4} centre {:.4}", p.translation.vector.norm());
            }
            return;
        }
        run_queries(&mut world, (a, b), &poses, query, 0.1, 2 * POSES);
        let sum = run_queries(&mut world, (a, b), &poses, query, 0.1, count);
        println!("{query} count={count} checksum {sum}");
        return;
    }
    let hull = |seed| chung_wang_polytope(ChungWangShape::Ellipsoid, n, seed).unwrap();
    let a = world.make_collidable(hull(1), ()).unwrap();
    let b = world.make_collidable(hull(2), ()).unwrap();
    // The hulls lie within the unit ball: a size of 2 as the bench's bounding-sphere sum.
    let size = 2.0;
    let gap = 0.05 * size;
    let mut rng = SeededRng::new(0xC0_4E13);
    let poses = coherent_poses(&mut world, (a, b), size, gap, POSES, &mut rng);
    let tolerance = if query == "within-no" { 0.5 } else { 2.0 } * gap;
    if query == "stats" {
        for (k, pose) in poses.iter().enumerate().take(12) {
            world.set_transform(b, *pose).unwrap();
            let d = world.distance(a, b).unwrap().distance;
            let prev = poses[k.saturating_sub(1)];
            let turn = (pose.rotation.to_rotation_matrix().into_inner()
                - prev.rotation.to_rotation_matrix().into_inner())
            .norm();
            let shift = (pose.translation.vector - prev.translation.vector).norm();
            println!("{k}: distance {d:.5} turn {turn:.5} shift {shift:.5}");
        }
        return;
    }
    // Warm the pair's caches, then the measured loop.
    run_queries(&mut world, (a, b), &poses, query, tolerance, 2 * POSES);
    let sum = run_queries(&mut world, (a, b), &poses, query, tolerance, count);
    println!("{query} N={n} count={count} checksum {sum}");
}

/// The pair and poses of `benches/proximity.rs`'s `proximity/convex-500` (same seeds, same
/// construction): b's centre pushed out along a random direction until the pair is apart, then
/// by a gap from 0.01 to 1 of the size 2.
fn far_case(world: &mut World<()>) -> (ObjectId, ObjectId, Vec<Pose>) {
    let mut rng = SeededRng::new(0x9E0C5);
    let hull = |rng: &mut SeededRng| {
        chung_wang_polytope(ChungWangShape::Ellipsoid, 500, rng.next_u64()).unwrap()
    };
    let (ha, hb) = (hull(&mut rng), hull(&mut rng));
    let a = world.make_collidable(ha, ()).unwrap();
    let b = world.make_collidable(hb, ()).unwrap();
    let size = 2.0;
    let mut poses = Vec::new();
    while poses.len() < FAR_POSES {
        let dir = rng.unit_vector().into_inner();
        let rot = rng.rotation();
        let gap = size * 10f64.powf(rng.range(-2.0, 0.0));
        let mut r = 0.0;
        loop {
            world
                .set_transform(b, Pose::from_parts(Translation3::from(dir * r), rot))
                .unwrap();
            if world.distance(a, b).unwrap().distance > 0.0 {
                poses.push(Pose::from_parts(Translation3::from(dir * (r + gap)), rot));
                break;
            }
            r += 0.05 * size;
        }
    }
    (a, b, poses)
}
