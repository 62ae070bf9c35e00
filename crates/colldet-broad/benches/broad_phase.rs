//! Broad phase per frame: sweep and prune, the dynamic AABB tree and (10k only) all pairs, on
//! coherently moving boxes like the `broad-100k` scene: cuboids with edges in [0.5, 1.5], 5%
//! volume fraction in a cube, each moving in a straight line at 10% of its mean edge per frame and
//! bouncing off the walls, and tumbling (its box extents breathe by up to 10% per frame).
//!
//! Before the criterion groups, a table of milliseconds per frame (mean over 30 frames at 10k, 10 at 100k, after a
//! 3-frame warm-up), mean overlapping pairs and mean SAP swaps is printed to stderr. A frame is
//! `update` of every box plus one `overlapping_pairs`; computing the boxes is not timed.
//!
//! `sap-2-threads` is sweep and prune with its batch search on a pool of two threads.
//!
//! Run: `cargo bench -p colldet-broad --bench broad_phase -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use colldet_broad::{AllPairs, BroadPhase, DynamicTree, ProxyPair, SweepAndPrune};
use colldet_geom::WorldAabb;
use colldet_geom::math::PointD;
use colldet_testkit::SeededRng;
use criterion::{Criterion, criterion_group, criterion_main};

/// Objects of the synthetic scene: start centre, velocity per frame, half extents, tumbling phase.
struct Scene {
    half_side: f64,
    start: Vec<[f64; 3]>,
    velocity: Vec<[f64; 3]>,
    half: Vec<[f64; 3]>,
    phase: Vec<f64>,
}

/// Mirror-folds `x` into `[lo, hi]`.
fn fold(x: f64, lo: f64, hi: f64) -> f64 {
    let length = hi - lo;
    let mut t = (x - lo).rem_euclid(2.0 * length);
    if t > length {
        t = 2.0 * length - t;
    }
    lo + t
}

impl Scene {
    fn new(n: usize, seed: u64) -> Self {
        let mut rng = SeededRng::new(seed);
        let half_side = 0.5 * (n as f64 / 0.05).cbrt();
        let mut scene = Scene {
            half_side,
            start: Vec::with_capacity(n),
            velocity: Vec::with_capacity(n),
            half: Vec::with_capacity(n),
            phase: Vec::with_capacity(n),
        };
        for _ in 0..n {
            let half = [0; 3].map(|_| 0.25 * f64::from(2 + rng.index(5) as u32) * 0.5);
            let speed = 0.1 * (half[0] + half[1] + half[2]) * 2.0 / 3.0;
            let dir = rng.unit_vector();
            scene.half.push(half);
            scene
                .velocity
                .push([dir.x * speed, dir.y * speed, dir.z * speed]);
            scene
                .start
                .push([0; 3].map(|_| rng.range(-half_side, half_side)));
            scene.phase.push(rng.range(0.0, std::f64::consts::TAU));
        }
        scene
    }

    fn boxes_at(&self, frame: u32, out: &mut Vec<WorldAabb>) {
        out.clear();
        let t = f64::from(frame);
        for i in 0..self.start.len() {
            // Tumbling: the box of a rotated cuboid, 1.3x to 1.6x its edges, changing by <= 5%
            // per frame.
            let grow = 1.45 + 0.15 * (0.3 * t + self.phase[i]).sin();
            let h = self.half[i].map(|h| h * grow);
            let r = h[0].max(h[1]).max(h[2]);
            let c: [f64; 3] = std::array::from_fn(|k| {
                fold(
                    self.start[i][k] + self.velocity[i][k] * t,
                    -self.half_side + r,
                    self.half_side - r,
                )
            });
            out.push(WorldAabb::new(
                PointD::new(c[0] - h[0], c[1] - h[1], c[2] - h[2]),
                PointD::new(c[0] + h[0], c[1] + h[1], c[2] + h[2]),
            ));
        }
    }
}

/// CPU time of this thread in nanoseconds (Linux `schedstat`), so that the table is not skewed
/// by other processes on a loaded machine; `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Runs `frames` frames starting at `first`, returning the wall time spent in the broad phase
/// (and adding its CPU time to `cpu_ns`).
#[allow(clippy::too_many_arguments)]
fn run_frames<B: BroadPhase>(
    bp: &mut B,
    scene: &Scene,
    first: u32,
    frames: u32,
    boxes: &mut Vec<WorldAabb>,
    pairs: &mut Vec<ProxyPair>,
    pair_count: &mut usize,
    cpu_ns: &mut u64,
) -> Duration {
    let mut total = Duration::ZERO;
    for frame in first..first + frames {
        scene.boxes_at(frame, boxes);
        let (start, cpu_start) = (Instant::now(), thread_cpu_ns());
        for (id, b) in boxes.iter().enumerate() {
            bp.update(id as u32, b).expect("valid box");
        }
        bp.overlapping_pairs(pairs);
        total += start.elapsed();
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu_ns()) {
            *cpu_ns += b - a;
        }
        *pair_count += pairs.len();
        black_box(&pairs);
    }
    total
}

fn filled<B: BroadPhase>(mut bp: B, scene: &Scene) -> B {
    let mut boxes = Vec::new();
    scene.boxes_at(0, &mut boxes);
    for (id, b) in boxes.iter().enumerate() {
        bp.insert(id as u32, b).expect("valid box");
    }
    let mut pairs = Vec::new();
    bp.overlapping_pairs(&mut pairs);
    bp
}

fn table_row<B: BroadPhase>(name: &str, n: usize, bp: B, scene: &Scene, swaps: impl Fn(&B) -> u64) {
    let start = Instant::now();
    let mut bp = filled(bp, scene);
    let build = start.elapsed();
    let (mut boxes, mut pairs, mut count) = (Vec::new(), Vec::new(), 0);
    let mut cpu = 0;
    run_frames(
        &mut bp, scene, 1, 3, &mut boxes, &mut pairs, &mut count, &mut cpu,
    );
    let frames = if n > 10_000 { 10 } else { 30 };
    let (mut total, mut swap_sum) = (Duration::ZERO, 0);
    (count, cpu) = (0, 0);
    for frame in 4..4 + frames {
        total += run_frames(
            &mut bp, scene, frame, 1, &mut boxes, &mut pairs, &mut count, &mut cpu,
        );
        swap_sum += swaps(&bp);
    }
    eprintln!(
        "{n:>7} {name:>13} | build {:>9.2} ms | wall {:>8.3} ms/frame | cpu {:>8.3} ms/frame | {:>8} pairs | {:>10} swaps",
        build.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3 / f64::from(frames),
        cpu as f64 * 1e-6 / f64::from(frames),
        count / frames as usize,
        swap_sum / u64::from(frames),
    );
}

/// One timed frame: `(frame, box buffer, pair buffer) -> broad-phase time`.
type FrameFn<'a> = dyn FnMut(u32, &mut Vec<WorldAabb>, &mut Vec<ProxyPair>) -> Duration + 'a;

fn broad_phase(c: &mut Criterion) {
    let scenes = [
        (10_000usize, Scene::new(10_000, 0xb0ad_0010)),
        (100_000, Scene::new(100_000, 0xb0ad_0100)),
    ];
    for (n, scene) in &scenes {
        table_row("sap", *n, SweepAndPrune::new(), scene, |s| s.stats().swaps);
        // The batch search spread over two threads (wall time is the figure; CPU time is the
        // calling thread's only).
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("thread pool");
        let sap = SweepAndPrune::with_pool(Arc::new(pool));
        table_row("sap-2-threads", *n, sap, scene, |s| s.stats().swaps);
        table_row("dynamic-tree", *n, DynamicTree::new(), scene, |_| 0);
        if *n <= 10_000 {
            table_row("all-pairs", *n, AllPairs::new(), scene, |_| 0);
        }
    }
    let mut group = c.benchmark_group("broad_phase_frame");
    group.sample_size(10);
    for (n, scene) in &scenes {
        let mut bench = |name: &str, bp: &mut FrameFn| {
            let mut frame = 1u32;
            let (mut boxes, mut pairs) = (Vec::new(), Vec::new());
            group.bench_function(format!("{name}/{n}"), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        total += bp(frame, &mut boxes, &mut pairs);
                        frame += 1;
                    }
                    total
                })
            });
        };
        let mut sap = filled(SweepAndPrune::new(), scene);
        bench("sap", &mut |f, boxes, pairs| {
            run_frames(&mut sap, scene, f, 1, boxes, pairs, &mut 0, &mut 0)
        });
        let mut tree = filled(DynamicTree::new(), scene);
        bench("dynamic-tree", &mut |f, boxes, pairs| {
            run_frames(&mut tree, scene, f, 1, boxes, pairs, &mut 0, &mut 0)
        });
        if *n <= 10_000 {
            let mut all = filled(AllPairs::new(), scene);
            bench("all-pairs", &mut |f, boxes, pairs| {
                run_frames(&mut all, scene, f, 1, boxes, pairs, &mut 0, &mut 0)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, broad_phase);
criterion_main!(benches);
