//! Space indexing (thesis chapter 5): one frame = move proxies + find pairs.
//!
//! - `moving_10k`: 10,000 boxes (mostly smaller than a cell, 0.1% spanning many cells, 5% points,
//!   30% on the half-cell lattice) all moving every frame in a 128^3 universe (roaming up to 8
//!   units outside it): 32^3 uniform grid vs depth-5 octree (32^3 leaves) vs
//!   `AllPairs`; each iteration updates all 10,000 boxes and lists every overlapping pair.
//! - `one_mover_500`: the thesis's "one mover among 500 fixed objects" (10^3 cage, fixed boxes
//!   of edge 0.5, a unit-size mover on a smooth circle): per frame, update the mover and list its
//!   overlaps through an 8^3 grid (`overlaps_of`), through a depth-3 octree, and with no index
//!   (test the mover against all 500 boxes). For context, the full pair list per frame with the
//!   grid and with `AllPairs`.
//!
//! The motion is precomputed and replayed forwards then backwards, so it has no jump. Mean pairs
//! per frame are printed to stderr before timing.
//!
//! Run: `cargo bench -p colldet-broad --bench space_index -- --warm-up-time 1 --measurement-time 3`.

#[path = "../tests/grid_common/mod.rs"]
mod grid_common;

use colldet_broad::{
    AllPairs, BroadPhase, Octree, OctreeConfig, ProxyId, ProxyPair, UniformGrid, UniformGridConfig,
};
use colldet_geom::WorldAabb;
use colldet_geom::math::PointD;
use criterion::{Criterion, criterion_group, criterion_main};
use grid_common::{MovingScene, Op, SceneOptions, SplitMix64, apply};
use std::collections::BTreeMap;
use std::hint::black_box;

const FRAMES: usize = 48;

/// Every box of every frame, as `(id, box)` lists; frame 0 is the initial insertion.
fn snapshots(options: SceneOptions, seed: u64) -> (WorldAabb, Vec<Vec<(ProxyId, WorldAabb)>>) {
    let mut scene = MovingScene::new(options, seed);
    let mut boxes = BTreeMap::new();
    let mut frames = Vec::with_capacity(FRAMES);
    let mut ops = scene.populate();
    for _ in 0..FRAMES {
        for op in &ops {
            if let Op::Insert(id, b) | Op::Update(id, b) = *op {
                boxes.insert(id, b);
            }
        }
        frames.push(boxes.iter().map(|(&id, &b)| (id, b)).collect());
        ops = scene.step();
    }
    (scene.universe(), frames)
}

/// Frame order 0, 1, ..., n-1, n-2, ..., 1 (then repeat).
fn ping_pong(n: usize) -> Vec<usize> {
    (0..n).chain((1..n - 1).rev()).collect()
}

/// Cycles through the snapshots: each call moves every box to the next frame and lists pairs.
fn frame_runner<'a>(
    bp: &'a mut dyn BroadPhase,
    frames: &'a [Vec<(ProxyId, WorldAabb)>],
) -> impl FnMut() -> usize + 'a {
    let order = ping_pong(frames.len());
    let inserts: Vec<Op> = frames[0].iter().map(|&(id, b)| Op::Insert(id, b)).collect();
    apply(bp, &inserts);
    let mut k = 0;
    let mut pairs: Vec<ProxyPair> = Vec::new();
    move || {
        k = (k + 1) % order.len();
        for (id, b) in &frames[order[k]] {
            bp.update(*id, b).expect("update");
        }
        bp.overlapping_pairs(&mut pairs);
        pairs.len()
    }
}

fn moving_10k(c: &mut Criterion) {
    let options = SceneOptions {
        count: 10_000,
        universe: (0.0, 128.0),
        cell: 4.0,
        large_fraction: 0.001,
        move_probability: 1.0,
        churn: 0.0,
        teleport: 0.0,
        roam: 1.0 / 16.0,
        ..SceneOptions::default()
    };
    let (universe, frames) = snapshots(options, 0x5bac_e001);
    let grid_config = UniformGridConfig::cubic(universe, 32);
    let octree_config = OctreeConfig { universe, depth: 5 };
    let mut grid = UniformGrid::new(&grid_config).expect("grid config");
    let mut octree = Octree::new(&octree_config).expect("octree config");
    let mut all = AllPairs::new();
    {
        let mut run = frame_runner(&mut grid, &frames);
        let total: usize = (0..FRAMES).map(|_| run()).sum();
        eprintln!("moving_10k: {} pairs per frame on average", total / FRAMES);
    }
    let mut group = c.benchmark_group("moving_10k");
    group.sample_size(10);
    let mut grid = UniformGrid::new(&grid_config).expect("grid config");
    let mut run = frame_runner(&mut grid, &frames);
    group.bench_function("grid_32", |b| b.iter(|| black_box(run())));
    let mut run = frame_runner(&mut octree, &frames);
    group.bench_function("octree_depth5", |b| b.iter(|| black_box(run())));
    let mut run = frame_runner(&mut all, &frames);
    group.bench_function("all_pairs", |b| b.iter(|| black_box(run())));
    group.finish();
}

fn cube(lo: f64, hi: f64) -> WorldAabb {
    WorldAabb::new(PointD::new(lo, lo, lo), PointD::new(hi, hi, hi))
}

fn one_mover_500(c: &mut Criterion) {
    let universe = cube(0.0, 10.0);
    let mut rng = SplitMix64(0x5bac_e002);
    let fixed: Vec<WorldAabb> = (0..500)
        .map(|_| {
            let p = [0, 1, 2].map(|_| rng.range(0.25, 9.75));
            WorldAabb::new(
                PointD::new(p[0] - 0.25, p[1] - 0.25, p[2] - 0.25),
                PointD::new(p[0] + 0.25, p[1] + 0.25, p[2] + 0.25),
            )
        })
        .collect();
    // A unit box on a circle of radius 3.5 around the centre, 0.02 per frame.
    let path: Vec<WorldAabb> = (0..1100)
        .map(|k| {
            let t = k as f64 * 0.02 / 3.5;
            let centre = PointD::new(5.0 + 3.5 * t.cos(), 5.0 + 3.5 * t.sin(), 5.0 + t.sin());
            WorldAabb::new(
                centre - colldet_geom::math::VectorD::repeat(0.5),
                centre + colldet_geom::math::VectorD::repeat(0.5),
            )
        })
        .collect();
    const MOVER: ProxyId = 500;
    let fill = |bp: &mut dyn BroadPhase| {
        for (id, b) in fixed.iter().enumerate() {
            bp.insert(id as ProxyId, b).expect("insert");
        }
        bp.insert(MOVER, &path[0]).expect("insert");
    };
    let mut grid = UniformGrid::new(&UniformGridConfig::cubic(universe, 8)).expect("grid");
    let mut octree = Octree::new(&OctreeConfig { universe, depth: 3 }).expect("octree");
    let mut all = AllPairs::new();
    fill(&mut grid);
    fill(&mut octree);
    fill(&mut all);

    let mut ids = Vec::new();
    let hits: usize = path
        .iter()
        .map(|b| {
            grid.update(MOVER, b).expect("update");
            grid.overlaps_of(MOVER, &mut ids).expect("present");
            ids.len()
        })
        .sum();
    eprintln!(
        "one_mover_500: the mover overlaps {:.2} boxes per frame on average",
        hits as f64 / path.len() as f64
    );

    let mut group = c.benchmark_group("one_mover_500");
    let mut k = 0;
    group.bench_function("grid_8_overlaps_of", |b| {
        b.iter(|| {
            k = (k + 1) % path.len();
            grid.update(MOVER, &path[k]).expect("update");
            grid.overlaps_of(MOVER, &mut ids).expect("present");
            black_box(ids.len())
        })
    });
    group.bench_function("octree_3_overlaps_of", |b| {
        b.iter(|| {
            k = (k + 1) % path.len();
            octree.update(MOVER, &path[k]).expect("update");
            octree.overlaps_of(MOVER, &mut ids).expect("present");
            black_box(ids.len())
        })
    });
    group.bench_function("none_overlaps_of", |b| {
        b.iter(|| {
            k = (k + 1) % path.len();
            let mover = black_box(path[k]);
            ids.clear();
            for (id, fixed_box) in fixed.iter().enumerate() {
                if mover.overlaps(fixed_box) {
                    ids.push(id as ProxyId);
                }
            }
            black_box(ids.len())
        })
    });
    let mut pairs = Vec::new();
    group.bench_function("grid_8_all_pairs", |b| {
        b.iter(|| {
            k = (k + 1) % path.len();
            grid.update(MOVER, &path[k]).expect("update");
            grid.overlapping_pairs(&mut pairs);
            black_box(pairs.len())
        })
    });
    group.bench_function("none_all_pairs", |b| {
        b.iter(|| {
            k = (k + 1) % path.len();
            all.update(MOVER, &path[k]).expect("update");
            all.overlapping_pairs(&mut pairs);
            black_box(pairs.len())
        })
    });
    group.finish();
}

criterion_group!(benches, moving_10k, one_mover_500);
criterion_main!(benches);
