//! One frame of a shared scene, colldet against parry3d-f64: each criterion iteration sets the
//! next frame's poses (not timed) and finds the colliding pairs (timed), cycling through the
//! scene's frames. Scenes come from `COLLDET_SCENES` (a directory, default `../shared/scenes`
//! beside the workspace) and `PEERS_BENCH_SCENES` (comma-separated names, default
//! `cw-ellipsoid-500,mesh-zoo,broad-10k`); absent scene files are skipped with a message.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use colldet_benches::scenes::{default_scene_dir, resolve};
use colldet_benches::{ColldetPeer, ParryPeer, Peer, PeerScene};
use colldet_cli::scene::ScenePose;
use colldet_world::Config;
use criterion::{Criterion, criterion_group, criterion_main};

/// Times `iters` frames of `peer`, continuing from `frame`.
fn time_frames(
    peer: &mut dyn Peer,
    scene: &PeerScene,
    frame: &mut u32,
    poses: &mut Vec<ScenePose>,
    iters: u64,
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        scene.poses_at(*frame, poses);
        peer.set_poses(poses).expect("poses");
        let start = Instant::now();
        std::hint::black_box(peer.step().expect("step"));
        total += start.elapsed();
        *frame = (*frame + 1) % scene.scene.frames.max(1);
    }
    total
}

fn bench_scenes(c: &mut Criterion) {
    let dir = std::env::var_os("COLLDET_SCENES").map_or_else(default_scene_dir, PathBuf::from);
    let names = std::env::var("PEERS_BENCH_SCENES")
        .unwrap_or_else(|_| "cw-ellipsoid-500,mesh-zoo,broad-10k".to_string());
    for name in names.split(',').filter(|n| !n.is_empty()) {
        let path = resolve(&dir, name);
        if !path.is_file() {
            eprintln!("scene_frame: {} absent, skipped", path.display());
            continue;
        }
        let scene = PeerScene::load(&path).expect("scene");
        let config = Config {
            threads: 1,
            ..Config::default()
        };
        let mut peers: Vec<Box<dyn Peer>> = vec![
            Box::new(ColldetPeer::new(&scene, config).expect("colldet")),
            Box::new(ParryPeer::new(&scene).expect("parry")),
        ];
        let mut group = c.benchmark_group(format!("scene_frame/{name}"));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(3));
        let mut poses = Vec::with_capacity(scene.object_count());
        for peer in &mut peers {
            let mut frame = 0;
            group.bench_function(peer.name(), |b| {
                b.iter_custom(|iters| {
                    time_frames(peer.as_mut(), &scene, &mut frame, &mut poses, iters)
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_scenes);
criterion_main!(benches);
