//! `memory`: heap bytes each library holds for a scene, measured by a byte-counting global
//! allocator in this process (colldet and parry3d-f64 in the same run, one after the other, each
//! dropped before the next is built). Per scene and library it prints the bytes live after the
//! objects are built (per object), the bytes the checks added by the last frame (the pair
//! caches, pair sets and scratch; per colliding pair of that frame), and the peak over the run.
//! The scene's own data (meshes and poses as read) is loaded before the first count and is not
//! charged to either library.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use colldet_benches::scenes::{default_scene_dir, resolve};
use colldet_benches::{ColldetPeer, ParryPeer, Peer, PeerError, PeerScene};
use colldet_world::Config;

/// The system allocator, keeping the bytes live and their peak since the last reset.
struct ByteCounter;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

impl ByteCounter {
    fn added(bytes: usize) {
        let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
        PEAK.fetch_max(live, Ordering::Relaxed);
    }

    fn removed(bytes: usize) {
        LIVE.fetch_sub(bytes, Ordering::Relaxed);
    }

    fn live() -> usize {
        LIVE.load(Ordering::Relaxed)
    }

    /// The peak since the last reset, and a new peak window starting at the bytes live now.
    fn take_peak() -> usize {
        PEAK.swap(Self::live(), Ordering::Relaxed)
    }
}

// SAFETY: forwards every call to the system allocator unchanged; only counts the bytes.
unsafe impl GlobalAlloc for ByteCounter {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            Self::added(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            Self::added(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) };
        Self::removed(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            Self::removed(layout.size());
            Self::added(new_size);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: ByteCounter = ByteCounter;

const USAGE: &str = "usage: memory [--scenes DIR] [--frames N] [SCENE ...]
  SCENE is a scene file or a name in DIR (default: ../shared/scenes beside the workspace);
  default scenes: broad-10k, broad-100k, mesh-zoo, cw-ellipsoid-100. --frames N: frames played
  (default 20). Prints heap bytes per library: built, per object, added by the checks, per
  colliding pair of the last frame, and the peak over the run.";

/// What one library held for one scene.
struct Footprint {
    built: usize,
    checks: isize,
    peak: usize,
    pairs: usize,
}

/// Builds a peer with `build`, plays `frames` frames and measures it; the peer is dropped before
/// returning, so the next measurement starts from the same baseline.
fn measure<P: Peer>(
    scene: &PeerScene,
    frames: u32,
    build: impl FnOnce() -> Result<P, PeerError>,
) -> Result<Footprint, PeerError> {
    // The pose buffer is this loop's, not the library's: taken before the baseline.
    let mut poses = Vec::with_capacity(scene.object_count());
    let base = ByteCounter::live();
    ByteCounter::take_peak();
    let mut peer = build()?;
    let built = ByteCounter::live() - base;
    let mut pairs = 0;
    for frame in 0..frames.min(scene.scene.frames) {
        scene.poses_at(frame, &mut poses);
        peer.set_poses(&poses)?;
        pairs = peer.step()?.colliding_pairs;
    }
    let checks = ByteCounter::live() as isize - (base + built) as isize;
    let peak = ByteCounter::take_peak() - base;
    drop(peer);
    Ok(Footprint {
        built,
        checks,
        peak,
        pairs,
    })
}

fn main() -> ExitCode {
    let mut dir = default_scene_dir();
    let mut frames = 20u32;
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scenes" => match args.next() {
                Some(d) => dir = PathBuf::from(d),
                None => return usage("--scenes needs a DIR"),
            },
            "--frames" => match args.next().and_then(|v| v.parse().ok()) {
                Some(n) if n > 0 => frames = n,
                _ => return usage("--frames needs a positive integer"),
            },
            "-h" | "--help" => return usage(""),
            flag if flag.starts_with("--") => return usage(&format!("unknown option `{flag}`")),
            name => names.push(name.to_string()),
        }
    }
    if names.is_empty() {
        names = ["broad-10k", "broad-100k", "mesh-zoo", "cw-ellipsoid-100"]
            .map(String::from)
            .to_vec();
    }
    println!(
        "| scene | objects | library | built MB | bytes/object | checks added MB | bytes/pair | pairs | peak MB |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut failed = false;
    for name in &names {
        let path = resolve(&dir, name);
        if let Err(e) = report(&path, frames) {
            eprintln!("memory: {}: {e}", path.display());
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn report(path: &std::path::Path, frames: u32) -> Result<(), PeerError> {
    let scene = PeerScene::load(path)?;
    let config = Config {
        threads: 1,
        ..Config::default()
    };
    let runs = [
        (
            "colldet",
            measure(&scene, frames, || ColldetPeer::new(&scene, config.clone()))?,
        ),
        (
            "parry3d-f64",
            measure(&scene, frames, || ParryPeer::new(&scene))?,
        ),
    ];
    let n = scene.object_count();
    let mb = |bytes: f64| bytes / 1e6;
    for (library, f) in runs {
        println!(
            "| {} | {n} | {library} | {:.2} | {:.0} | {:.2} | {} | {} | {:.2} |",
            scene.name(),
            mb(f.built as f64),
            f.built as f64 / n as f64,
            mb(f.checks as f64),
            if f.pairs > 0 {
                format!("{:.0}", f.checks as f64 / f.pairs as f64)
            } else {
                "-".to_string()
            },
            f.pairs,
            mb(f.peak as f64),
        );
    }
    Ok(())
}

fn usage(message: &str) -> ExitCode {
    if !message.is_empty() {
        eprintln!("memory: {message}");
    }
    eprintln!("{USAGE}");
    if message.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}
