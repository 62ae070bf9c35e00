//! The concurrent mode's overlap with application work (the thesis's section 6.4), on the shared
//! `broad-10k` scene (10,000 moving cuboids; `COLLDET_SCENES` names another scene directory,
//! `CONCURRENT_BENCH_SCENE` another scene). One iteration is one application frame, timed whole:
//! - `check, then work`: `check()`, then the application's work, then its new poses
//!   (`set_transform` for every object);
//! - `begin, work, end`: `check_begin()`, the same work and poses (recorded by the running
//!   check's handle, for the next check), then `end()`.
//!
//! The application's work takes as long as one check on one thread (both figures are printed),
//! in two kinds: `compute`, a fixed amount of single-core arithmetic calibrated at the start
//! (a simulation: the concurrent frame can approach the longer of the two instead of their sum
//! only when a core is free for the check), and `wait`, a sleep of that length (a renderer
//! waiting for the GPU or the display: the check runs meanwhile even on a busy machine). Before
//! criterion's runs, paired rounds (8 serial frames, then 8 concurrent ones, 15 times) give the
//! medians of both on the same world, a ratio robust to a load that changes during the run (the
//! machine is shared). Run with `cargo bench -p colldet-benches --bench concurrent_frame`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use colldet_benches::colldet_peer::world_pose;
use colldet_benches::scenes::{default_scene_dir, resolve};
use colldet_benches::{ColldetPeer, PeerScene};
use colldet_geom::math::Pose;
use colldet_world::{Config, ObjectId, World};
use criterion::{Criterion, criterion_group, criterion_main};

/// Frames of poses the benchmark cycles through.
const MAX_FRAMES: u32 = 16;

/// The application's work: `steps` steps of a dependent floating-point recurrence (the logistic
/// map: one core, no memory traffic, not foldable by the compiler).
fn application_work(steps: u64) -> f64 {
    let mut x = 0.5f64;
    for _ in 0..black_box(steps) {
        x = 3.7 * x * (1.0 - x);
    }
    black_box(x)
}

/// What the application does in a frame besides collision detection.
#[derive(Clone, Copy)]
enum Work {
    /// Computes on its core: [`application_work`] with this many steps (simulation).
    Compute(u64),
    /// Waits without using a core, as a renderer waits for the GPU or the display.
    Wait(Duration),
}

impl Work {
    fn run(self) {
        match self {
            Work::Compute(steps) => {
                application_work(steps);
            }
            Work::Wait(time) => std::thread::sleep(time),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Work::Compute(_) => "compute",
            Work::Wait(_) => "wait",
        }
    }
}

/// The median of `runs` timings of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort_unstable();
    times[runs / 2]
}

/// A started world of the scene with `threads` and its ids, the objects at `poses` (a world
/// starts with every object at the origin: its first check would find every pair colliding).
fn world(scene: &PeerScene, threads: usize, poses: &[Pose]) -> (World<u32>, Vec<ObjectId>) {
    let config = Config {
        threads,
        ..Config::default()
    };
    let (mut world, ids) = ColldetPeer::new(scene, config).expect("world").into_parts();
    set_poses(&mut world, &ids, poses);
    (world, ids)
}

fn set_poses(world: &mut World<u32>, ids: &[ObjectId], poses: &[Pose]) {
    for (&id, &pose) in ids.iter().zip(poses) {
        world.set_transform(id, pose).expect("pose");
    }
}

/// What one application frame needs: the objects, each frame's poses and the work.
struct App<'a> {
    ids: &'a [ObjectId],
    frames: &'a [Vec<Pose>],
    work: Work,
}

impl App<'_> {
    /// A serial frame: `check`, then the work, then the poses of frame `f`.
    fn serial_frame(&self, world: &mut World<u32>, f: usize) {
        world.check().expect("check");
        self.work.run();
        set_poses(world, self.ids, &self.frames[f]);
    }

    /// A concurrent frame: `check_begin`, the work and the poses of frame `f` while the check
    /// runs, `end`.
    fn concurrent_frame(&self, world: World<u32>, f: usize) -> World<u32> {
        let mut check = world.check_begin().map_err(|(_, e)| e).expect("begin");
        self.work.run();
        for (&id, &pose) in self.ids.iter().zip(&self.frames[f]) {
            check.set_transform(id, pose).expect("pose");
        }
        let (world, result) = check.end();
        result.expect("check");
        world
    }

    /// Paired rounds, robust to a load that changes during the run: each round times
    /// `frames` serial frames, then as many concurrent frames, on the same world. The medians
    /// over the rounds of the mean frame time of each kind, milliseconds.
    fn interleaved(
        &self,
        world: &mut Option<World<u32>>,
        rounds: usize,
        frames: usize,
    ) -> (f64, f64) {
        let mut serial = Vec::with_capacity(rounds);
        let mut concurrent = Vec::with_capacity(rounds);
        let mut f = 0;
        for _ in 0..rounds {
            let start = Instant::now();
            for _ in 0..frames {
                f = (f + 1) % self.frames.len();
                self.serial_frame(world.as_mut().expect("world"), f);
            }
            serial.push(start.elapsed().as_secs_f64() * 1e3 / frames as f64);
            let start = Instant::now();
            for _ in 0..frames {
                f = (f + 1) % self.frames.len();
                *world = Some(self.concurrent_frame(world.take().expect("world"), f));
            }
            concurrent.push(start.elapsed().as_secs_f64() * 1e3 / frames as f64);
        }
        let median = |mut v: Vec<f64>| {
            v.sort_unstable_by(f64::total_cmp);
            v[v.len() / 2]
        };
        (median(serial), median(concurrent))
    }
}

fn concurrent_frame(c: &mut Criterion) {
    let dir = std::env::var_os("COLLDET_SCENES").map_or_else(default_scene_dir, PathBuf::from);
    let name = std::env::var("CONCURRENT_BENCH_SCENE").unwrap_or_else(|_| "broad-10k".into());
    let path = resolve(&dir, &name);
    if !path.is_file() {
        eprintln!("concurrent_frame: {} absent, skipped", path.display());
        return;
    }
    let scene = PeerScene::load(&path).expect("scene");
    let frame_count = scene.scene.frames.clamp(1, MAX_FRAMES);
    let mut scene_poses = Vec::new();
    let frames: Vec<Vec<Pose>> = (0..frame_count)
        .map(|f| {
            scene.poses_at(f, &mut scene_poses);
            scene_poses.iter().map(world_pose).collect()
        })
        .collect();

    // Calibration: the work of one frame takes as long as a one-thread check.
    let (mut serial, ids) = world(&scene, 1, &frames[0]);
    let mut frame = 0;
    let check_time = median(9, || {
        frame = (frame + 1) % frames.len();
        set_poses(&mut serial, &ids, &frames[frame]);
        serial.check().expect("check");
    });
    const PROBE: u64 = 1 << 22;
    let probe_time = median(5, || {
        application_work(PROBE);
    });
    let steps = (PROBE as f64 * check_time.as_secs_f64() / probe_time.as_secs_f64()) as u64;
    let work_time = median(5, || {
        application_work(steps);
    });
    eprintln!(
        "concurrent_frame/{name}: one-thread check {:.3} ms, application work {:.3} ms",
        check_time.as_secs_f64() * 1e3,
        work_time.as_secs_f64() * 1e3
    );
    drop(serial);

    let mut group = c.benchmark_group(format!("concurrent_frame/{name}"));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(2));
    group.measurement_time(Duration::from_secs(8));
    for threads in [1, 2] {
        for work in [Work::Compute(steps), Work::Wait(check_time)] {
            let (world, ids) = world(&scene, threads, &frames[0]);
            let app = App {
                ids: &ids,
                frames: &frames,
                work,
            };
            let kind = work.name();
            let mut world = Some(world);
            let (serial_ms, concurrent_ms) = app.interleaved(&mut world, 15, 8);
            eprintln!(
                "concurrent_frame/{name}/threads {threads}/{kind}: interleaved medians: check, then \
             {kind} {serial_ms:.3} ms; begin, {kind}, end {concurrent_ms:.3} ms ({:.2}x)",
                serial_ms / concurrent_ms
            );
            let mut frame = 0;
            group.bench_function(
                format!("threads {threads}/{kind}/check, then {kind}"),
                |b| {
                    b.iter_custom(|iters| {
                        let w = world.as_mut().expect("world");
                        let start = Instant::now();
                        for _ in 0..iters {
                            frame = (frame + 1) % frames.len();
                            app.serial_frame(w, frame);
                        }
                        start.elapsed()
                    })
                },
            );
            group.bench_function(
                format!("threads {threads}/{kind}/begin, {kind}, end"),
                |b| {
                    b.iter_custom(|iters| {
                        let start = Instant::now();
                        for _ in 0..iters {
                            frame = (frame + 1) % frames.len();
                            world = Some(app.concurrent_frame(world.take().expect("world"), frame));
                        }
                        start.elapsed()
                    })
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, concurrent_frame);
criterion_main!(benches);
