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

use colldet_geom::math::Pose;
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope};
use colldet_world::{Config, ObjectId, World};

#[path = "../benches/coherent_poses/mod.rs"]
mod coherent_poses;

use coherent_poses::coherent_poses;

const POSES: usize = 100;

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
    for k in 0..count {
        world.set_transform(b, poses[ping_pong(k)]).unwrap();
        sum += match query {
            "distance" => world.distance(a, b).unwrap().distance,
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
