//! `dual_mode`: the thesis's dual mode as a measured experiment (`colldet_benches::dual_race`).
//! Per scene it times, on one thread and pair by pair, the world's own test, an alternative exact
//! test and the separating-plane perceptron on the pairs the world's narrow pass tests, and prints
//! the ideal race of each as a fraction of the world's test. Dual mode can only pay where that
//! fraction is below the world's own two-thread/one-thread narrow ratio.

use std::path::PathBuf;
use std::process::ExitCode;

use colldet_benches::dual_race::PairRace;
use colldet_benches::peer::median;
use colldet_benches::scenes::{PEER_SCENES, default_scene_dir, resolve};
use colldet_benches::{ColldetPeer, Peer, PeerError, PeerScene};
use colldet_world::{Config, Method};

const USAGE: &str = "usage: dual_mode [--scenes DIR] [--frames N] [SCENE ...]
  SCENE is a scene file or a name in DIR (default: ../shared/scenes beside the workspace);
  without SCENE, every peer scene present in DIR. --frames N: the first N frames (default 100).";

struct Options {
    dir: PathBuf,
    frames: u32,
    scenes: Vec<String>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        dir: default_scene_dir(),
        frames: 100,
        scenes: Vec::new(),
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scenes" => options.dir = PathBuf::from(args.next().ok_or("--scenes needs a DIR")?),
            "--frames" => {
                let value = args.next().ok_or("--frames needs a value")?;
                options.frames = value
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or(format!("--frames: `{value}` is not a positive integer"))?;
            }
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            scene => options.scenes.push(scene.to_string()),
        }
    }
    Ok(options)
}

/// Plays one scene: candidates, racers and the world at one and two threads, frame by frame.
fn measure(path: &std::path::Path, frames: u32) -> Result<String, PeerError> {
    let scene = PeerScene::load(path)?;
    let world = |method, threads| {
        ColldetPeer::new(
            &scene,
            Config {
                method,
                threads,
                ..Config::default()
            },
        )
    };
    let mut candidates = world(Method::None, 1)?;
    let mut one_thread = world(Method::Auto, 1)?;
    let mut race = PairRace::new(&scene)?;
    let frames = frames.min(scene.scene.frames);
    let mut narrow_1 = Vec::new();
    let mut poses = Vec::new();
    for frame in 0..frames {
        scene.poses_at(frame, &mut poses);
        candidates.set_poses(&poses)?;
        candidates.step()?;
        race.race_frame(&poses, &candidates.colliding_pairs())?;
        one_thread.set_poses(&poses)?;
        narrow_1.push(one_thread.step()?.narrow_ms.unwrap_or(0.0));
    }
    let t = race.totals;
    // The median: the first frame builds the mesh trees.
    let narrow_1 = median(&narrow_1);
    let per_frame = |ns: f64| ns * 1e-6 / f64::from(frames);
    let percent = |k: usize| 100.0 * k as f64 / t.pairs.max(1) as f64;
    // On one basis: the ideal race against the world's test timed the same way. The world's own
    // two-thread ratio is not measured here: between frames this process races pairs for long
    // stretches, its pool threads fall asleep and the two-thread figure would measure waking
    // them. Take it from `colldet run SCENE --threads 1|2`.
    let race_ratio = t.race_alternative_ns.min(t.race_plane_ns) / t.world_ns;
    Ok(format!(
        "| {} | {:.0} | {:.3} | {:.3} | {:.3} | {:.3} ({:.0}%) | {:.3} ({:.0}%) | {} | {:.2} | {:.3} |\n",
        scene.name(),
        t.pairs as f64 / f64::from(frames),
        per_frame(t.world_ns),
        per_frame(t.alternative_ns),
        per_frame(t.plane_ns),
        per_frame(t.race_alternative_ns),
        percent(t.alternative_faster),
        per_frame(t.race_plane_ns),
        percent(t.plane_faster),
        t.disagreements,
        race_ratio,
        narrow_1,
    ))
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("dual_mode: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let scenes: Vec<PathBuf> = if options.scenes.is_empty() {
        PEER_SCENES
            .iter()
            .map(|name| resolve(&options.dir, name))
            .filter(|p| p.exists())
            .collect()
    } else {
        options
            .scenes
            .iter()
            .map(|s| resolve(&options.dir, s))
            .collect()
    };
    println!(
        "ms per frame (mean over at most {} frames). Racers: each pair's test timed alone on one thread, least of 3 from the same cache state; ideal race: per pair the faster racer, no start or cancel cost. The race (on 2 threads) beats the world's pair-parallel narrow phase only if race/world is below the world's 2-thread/1-thread narrow ratio (colldet run SCENE --threads 1|2).",
        options.frames
    );
    println!(
        "| scene | pairs | world's test | GJK or box-trees | planes | ideal race world/alternative (alternative faster) | ideal race world/planes (planes faster) | disagreements | race / world's test | world narrow 1 thread (median) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut status = ExitCode::SUCCESS;
    for path in scenes {
        match measure(&path, options.frames) {
            Ok(row) => print!("{row}"),
            Err(e) => {
                eprintln!("dual_mode: {}: {e}", path.display());
                status = ExitCode::FAILURE;
            }
        }
    }
    status
}
