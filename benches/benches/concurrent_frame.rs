//! The concurrent mode's overlap with application work (the thesis's section 6.4), on the shared
//! `broad-10k` scene (10,000 moving cuboids; `COLLDET_SCENES` names another scene directory,
//! `CONCURRENT_BENCH_SCENE` another scene). One iteration is one application frame, timed whole:
//! - `check, then work`: `check()`, then the application's work, then its new poses
//!   (`set_transform` for every object);
//! - `begin, work, end`: `check_begin()`, the same work and poses (recorded by the running
//!   check's handle, for the next check), then `end()`.
//!
//! The application's work is a fixed amount of single-core arithmetic, calibrated at the start to
//! take as long as one check on one thread (both figures are printed). With 2 cores the
//! concurrent frame can approach the longer of the two instead of their sum. Run with
//! `cargo bench -p colldet-benches --bench concurrent_frame`.

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
        let (world, ids) = world(&scene, threads, &frames[0]);
        let mut world = Some(world);
        let mut frame = 0;
        group.bench_function(format!("threads {threads}/check, then work"), |b| {
            b.iter_custom(|iters| {
                let w = world.as_mut().expect("world");
                let start = Instant::now();
                for _ in 0..iters {
                    frame = (frame + 1) % frames.len();
                    w.check().expect("check");
                    application_work(steps);
                    set_poses(w, &ids, &frames[frame]);
                }
                start.elapsed()
            })
        });
        group.bench_function(format!("threads {threads}/begin, work, end"), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    frame = (frame + 1) % frames.len();
                    let idle = world.take().expect("world");
                    let mut check = idle.check_begin().map_err(|(_, e)| e).expect("begin");
                    application_work(steps);
                    for (&id, &pose) in ids.iter().zip(&frames[frame]) {
                        check.set_transform(id, pose).expect("pose");
                    }
                    let (idle, result) = check.end();
                    result.expect("check");
                    world = Some(idle);
                }
                start.elapsed()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, concurrent_frame);
criterion_main!(benches);
