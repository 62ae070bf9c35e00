//! Writes the poses of the zoo mesh-distance benchmarks (`benches/peers/test/zoo-distance.poses`):
//! mesh pairs from `crates/colldet-cli/tests/scenes/zoo-meshes` (each centred, radius 1) at
//! surface gaps of 0.001, 0.01, 0.1 and 1, eight poses each. Read by colldet-narrow's
//! `mesh_volumes` bench, colldet-world's `proximity` bench and the C++ peers' `--distance` mode,
//! so all measure the same queries.
//!
//! Each pose: a seeded random rotation of mesh b and a random direction; b's centre is moved
//! out along it until the surfaces are apart, then bisected (50 steps) on the distance
//! `mesh_distance` gives to land at the gap (the recorded distance is the exact one at the pose).
//!
//! Run: `cargo run --release -p colldet-narrow --example zoo_distance_poses [OUT]`.

use colldet_geom::math::Pose;
use colldet_narrow::mesh::bvh::{
    BvhBuildOptions, MeshDistanceCache, MeshQueryWorkspace, ObbRssBvh, mesh_distance,
    mesh_surfaces_intersect,
};
use colldet_testkit::SeededRng;
use colldet_testkit::zoo_poses::{zoo_mesh, zoo_poses_path};
use nalgebra::Translation3;
use std::fmt::Write;

/// The mesh pairs (file names in the zoo directory).
const PAIRS: [(&str, &str); 3] = [
    ("bunny00.off", "armadillo.off"),
    ("camel.off", "bear.off"),
    ("knot1.off", "fandisk.off"),
];
/// Surface gaps, in units of the meshes' radius (1).
const GAPS: [f64; 4] = [0.001, 0.01, 0.1, 1.0];
const POSES_PER_GAP: usize = 8;

fn main() {
    let out = std::env::args().nth(1).unwrap_or_else(zoo_poses_path);
    let load =
        |name: &str| ObbRssBvh::build(&zoo_mesh(name), &BvhBuildOptions::default()).expect("tree");
    let mut rng = SeededRng::new(0x200_d157);
    let mut ws = MeshQueryWorkspace::new();
    let mut text = String::from(
        "# colldet zoo distance poses 1: `pair A B` (files of the zoo directory), then per gap\n\
         # `gap G` and poses `pose qw qx qy qz tx ty tz d` of b in a's frame (f64, shortest\n\
         # round-trip decimals), d the exact surface distance at that pose\n",
    );
    for (a, b) in PAIRS {
        let (ta, tb) = (load(a), load(b));
        writeln!(text, "pair {a} {b}").unwrap();
        for gap in GAPS {
            writeln!(text, "gap {gap}").unwrap();
            let mut made = 0;
            while made < POSES_PER_GAP {
                let rot = rng.rotation();
                let dir = rng.unit_vector().into_inner();
                let pose_at = |r: f64| Pose::from_parts(Translation3::from(dir * r), rot);
                let distance = |r: f64, ws: &mut MeshQueryWorkspace| {
                    let p = pose_at(r);
                    if mesh_surfaces_intersect(&ta, &tb, &p, &Default::default(), ws).unwrap() {
                        return 0.0;
                    }
                    mesh_distance(
                        &ta,
                        &tb,
                        &p,
                        &Default::default(),
                        &mut MeshDistanceCache::new(),
                        ws,
                    )
                    .unwrap()
                    .distance
                };
                // Out from the centre until apart by at least the gap (a nested start is
                // skipped: its surfaces are apart at r = 0).
                if distance(0.0, &mut ws) > 0.0 {
                    continue;
                }
                let (mut lo, mut hi) = (0.0, 0.05);
                while distance(hi, &mut ws) < gap {
                    (lo, hi) = (hi, hi + 0.05);
                }
                for _ in 0..50 {
                    let mid = 0.5 * (lo + hi);
                    if distance(mid, &mut ws) < gap {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                let d = distance(hi, &mut ws);
                let p = pose_at(hi);
                let q = p.rotation.quaternion();
                let t = p.translation.vector;
                writeln!(
                    text,
                    "pose {} {} {} {} {} {} {} {}",
                    q.w, q.i, q.j, q.k, t.x, t.y, t.z, d
                )
                .unwrap();
                made += 1;
            }
        }
    }
    std::fs::write(&out, text).expect("write poses");
    eprintln!("wrote {out}");
}
