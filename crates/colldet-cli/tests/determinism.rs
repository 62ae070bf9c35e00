//! Determinism goldens: a hash of the per-frame pair stream of the scenes in `tests/scenes`
//! (played discretely for 40 frames, and continuously), committed here. Every broad phase and 1,
//! 2 and 4 threads must give the same stream, and the stream must match the golden: a change in
//! answers shows up here and has to be explained (then the golden is updated with the reason in
//! the commit). The goldens were taken on x86_64 Linux with glibc: the scene poses use the
//! platform's `sin`/`cos` (FORMAT.md), so another libm may shift a pose by an ulp and a pair with
//! it.

use std::path::PathBuf;

use colldet_cli::runner::{RunOptions, run_scene_file};
use colldet_world::{BroadPhaseKind, Config};

/// FNV-1a, 64 bits: stable across platforms and releases.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325_u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn scene(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenes")
        .join(name)
}

/// The hash of the discrete pair stream (the `--pairs-out` text) and of the continuous hits.
fn streams(name: &str, broad_phase: BroadPhaseKind, threads: usize) -> (u64, u64) {
    let config = Config {
        broad_phase,
        threads,
        ..Config::default()
    };
    let discrete = RunOptions {
        config: config.clone(),
        frames: Some(40),
        ccd: false,
    };
    let mut pairs = Vec::new();
    run_scene_file(&scene(name), &discrete, Some(&mut pairs), |_, _| {}).unwrap();
    let continuous = RunOptions {
        config,
        frames: Some(40),
        ccd: true,
    };
    let summary = run_scene_file(&scene(name), &continuous, None, |_, _| {}).unwrap();
    let hits: String = summary
        .ccd
        .unwrap()
        .hits
        .iter()
        .map(|(f, a, b)| format!("{f} {a} {b}\n"))
        .collect();
    (fnv1a(&pairs), fnv1a(hits.as_bytes()))
}

fn check(name: &str, golden: (u64, u64)) {
    for broad_phase in [
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Grid,
        BroadPhaseKind::Octree,
        BroadPhaseKind::DynamicTree,
        BroadPhaseKind::AllPairs,
    ] {
        for threads in [1, 2, 4] {
            let got = streams(name, broad_phase, threads);
            assert_eq!(
                got, golden,
                "{name} with {broad_phase:?} on {threads} threads: ({:#x}, {:#x}), golden ({:#x}, {:#x})",
                got.0, got.1, golden.0, golden.1
            );
        }
    }
}

#[test]
fn ccd_bullets_streams_match_their_golden() {
    check(
        "ccd-bullets.scene",
        (0x0f2b_b58d_90cf_c79a, 0xf923_606f_f216_89c0),
    );
}

#[test]
fn ccd_spinners_streams_match_their_golden() {
    check(
        "ccd-spinners.scene",
        (0xe8c1_02d0_fd23_2910, 0x7a6c_6a9e_7318_3a4e),
    );
}
