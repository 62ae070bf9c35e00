//! The time-to-collision schedule (`colldet run --ttc`) against the plain check on every scene
//! in `tests/scenes` (copies of the shared benchmark scenes), frame by frame, at 1 and 2
//! threads: the reported pairs must be exactly the plain check's. Three kinds of bounds: the
//! scene's own velocities (kept), the world's measurements, and a bound of zero for every object
//! (broken by every move: the plan then takes distances eagerly, so certificates are made and
//! must be voided by the actual motion). Frames are cut so the file runs in seconds.
//! Each run's bound and thread count is listed in `runs`; broad-100k has its own test.

use std::path::PathBuf;

use colldet_cli::runner::{RunOptions, RunSummary, TtcBounds, run_scene_file};
use colldet_world::Config;

fn scenes() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scenes");
    let mut scenes: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "scene"))
        .collect();
    scenes.sort();
    assert!(scenes.len() >= 17, "{scenes:?}");
    scenes
}

/// Frames played of a scene: fewer for the large ones.
fn frames(scene: &std::path::Path) -> u32 {
    let name = scene.file_name().unwrap().to_string_lossy();
    if name.starts_with("broad-100k") {
        5
    } else if name.starts_with("broad-10k") {
        12
    } else {
        25
    }
}

/// The 100k-object scene: seconds to set up, played by its own test.
fn is_large(scene: &std::path::Path) -> bool {
    frames(scene) < 10
}

/// Asserts that `scheduled` has the lines of `plain`, frame by frame.
fn assert_same_pairs(plain: &str, scheduled: &str, what: &str) {
    for (frame, (p, s)) in plain.lines().zip(scheduled.lines()).enumerate() {
        assert_eq!(p, s, "{what} frame {frame}");
    }
    assert_eq!(plain.lines().count(), scheduled.lines().count(), "{what}");
}

/// The per-frame pair lines of a run, and its summary.
fn run(scene: &std::path::Path, threads: usize, ttc: Option<TtcBounds>) -> (String, RunSummary) {
    let options = RunOptions {
        config: Config {
            threads,
            ..Config::default()
        },
        frames: Some(frames(scene)),
        ccd: false,
        ttc,
    };
    let mut pairs = Vec::new();
    let summary = run_scene_file(scene, &options, Some(&mut pairs), |_, _| {}).unwrap();
    (String::from_utf8(pairs).unwrap(), summary)
}

#[test]
fn the_schedule_reports_exactly_the_plain_checks_pairs_on_every_scene() {
    let bounds = [
        TtcBounds::Scene,
        TtcBounds::Measured,
        TtcBounds::Fixed {
            max_linear: 0.0,
            max_angular: 0.0,
        },
    ];
    // (bound, threads): the scene's and the zero bound at 1 and 2 threads, measured at 1.
    let runs = [(0, 1), (0, 2), (1, 1), (2, 1), (2, 2)];
    let (mut skipped, mut distances, mut violations) = ([0u64; 3], [0u64; 3], [0u64; 3]);
    for scene in scenes() {
        if is_large(&scene) {
            continue;
        }
        let (plain, _) = run(&scene, 1, None);
        {
            for (k, threads) in runs {
                let bound = bounds[k];
                let (scheduled, summary) = run(&scene, threads, Some(bound));
                let what = format!("{}, {threads} threads, {bound:?}", scene.display());
                assert_same_pairs(&plain, &scheduled, &what);
                let ttc = summary.ttc.unwrap();
                skipped[k] += ttc.skipped;
                distances[k] += ttc.distances;
                violations[k] += ttc.violations;
            }
        }
    }
    // The scenes' own bounds hold; the zero bound breaks at every move and still misses nothing,
    // while its eager plan certifies (and skips) many pairs.
    assert_eq!(violations[0], 0);
    assert_eq!(violations[1], 0);
    assert!(violations[2] > 1000, "{violations:?}");
    for k in 0..3 {
        assert!(
            skipped[k] > 0 && distances[k] > 0,
            "{k}: {skipped:?} {distances:?}"
        );
    }
    assert!(distances[2] > distances[0], "{distances:?}");
}

/// broad-100k (100k objects, 5 frames): the zero bound (the most eager plan) at 2 threads.
#[test]
fn the_schedule_reports_exactly_the_plain_checks_pairs_on_the_largest_scene() {
    let scene = scenes().into_iter().find(|s| is_large(s)).unwrap();
    let (plain, _) = run(&scene, 1, None);
    let bound = TtcBounds::Fixed {
        max_linear: 0.0,
        max_angular: 0.0,
    };
    let (scheduled, summary) = run(&scene, 2, Some(bound));
    assert_same_pairs(&plain, &scheduled, "broad-100k, 2 threads, zero bound");
    let ttc = summary.ttc.unwrap();
    assert!(ttc.distances > 0 && ttc.violations > 0, "{ttc:?}");
}
