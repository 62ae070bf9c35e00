//! The two CCD benchmark scenes (copies of the shared scene files, format in
//! `tests/scenes/FORMAT.md`) played with the continuous check: every certified hit of their
//! expected files is found and nothing else (ambiguous lines, within `1e-9` of touching, may go
//! either way).

use std::collections::BTreeSet;
use std::path::PathBuf;

use colldet_cli::runner::{RunOptions, run_scene_file};
use colldet_world::Config;

/// A hit: `(f, mover, static)`.
type Hit = (u32, u32, u32);

fn scene(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenes")
        .join(name)
}

/// The expected file's certified hits (`f mover static` with `f < frames - 1`) and ambiguous
/// triples.
fn expected(name: &str, frames: u32) -> (BTreeSet<Hit>, BTreeSet<Hit>) {
    let text = std::fs::read_to_string(scene(name)).unwrap();
    let (mut hits, mut ambiguous) = (BTreeSet::new(), BTreeSet::new());
    for line in text.lines() {
        if line.starts_with('#') || line.starts_with("hits") || line.trim().is_empty() {
            continue;
        }
        let t: Vec<&str> = line.split_whitespace().collect();
        let key = (
            t[0].parse().unwrap(),
            t[1].parse().unwrap(),
            t[2].parse().unwrap(),
        );
        if key.0 + 1 >= frames {
            continue;
        }
        if t[3] == "A" {
            ambiguous.insert(key);
        } else {
            hits.insert(key);
        }
    }
    (hits, ambiguous)
}

fn play(name: &str, frames: u32, threads: usize) -> (BTreeSet<Hit>, u64) {
    let options = RunOptions {
        config: Config {
            threads,
            ..Config::default()
        },
        frames: Some(frames),
        ccd: true,
        ttc: None,
    };
    let summary = run_scene_file(&scene(name), &options, None, |_, _| {}).unwrap();
    let ccd = summary.ccd.unwrap();
    (ccd.hits.into_iter().collect(), ccd.tunnels)
}

#[test]
fn ccd_bullets_gives_exactly_the_expected_hits_and_tunnels() {
    let (hits, ambiguous) = expected("ccd-bullets.ccd-expected.txt", 100);
    assert_eq!(hits.len(), 5227);
    assert!(ambiguous.is_empty());
    for threads in [1, 2] {
        let (found, tunnels) = play("ccd-bullets.scene", 100, threads);
        let missed: Vec<_> = hits.difference(&found).collect();
        let false_hits: Vec<_> = found.difference(&hits).collect();
        assert!(missed.is_empty(), "missed {missed:?}");
        assert!(false_hits.is_empty(), "false hits {false_hits:?}");
        assert_eq!(tunnels, 4688);
    }
}

#[test]
fn ccd_spinners_finds_every_certified_hit_and_no_certified_miss() {
    // All 100 frames (99 swept intervals).
    let frames = 100;
    let (hits, ambiguous) = expected("ccd-spinners.ccd-expected.txt", frames);
    assert_eq!(hits.len(), 5979);
    let (found, _) = play("ccd-spinners.scene", frames, 2);
    let missed: Vec<_> = hits.difference(&found).collect();
    let false_hits: Vec<_> = found
        .difference(&hits)
        .filter(|k| !ambiguous.contains(k))
        .collect();
    assert!(missed.is_empty(), "missed {missed:?}");
    assert!(false_hits.is_empty(), "false hits {false_hits:?}");
}
