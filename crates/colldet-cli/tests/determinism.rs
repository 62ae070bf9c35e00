//! Determinism goldens: a hash of the per-frame pair stream of the scenes in `tests/scenes`
//! (copies of shared benchmark scenes: played discretely for 40 frames, and the CCD scenes also
//! continuously), committed here. Every broad phase and 1, 2 and 4 threads must give the same
//! stream, and the stream must match the golden: a change in answers shows up here and has to be
//! explained (then the golden is updated with the reason in the commit). broad-10k skips the
//! all-pairs broad phase (50 million box tests a frame); broad-100k runs on sweep-and-prune and
//! the dynamic tree only. The goldens were taken on x86_64 Linux with glibc: the scene poses use the
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

/// The hash of the discrete pair stream (the `--pairs-out` text) and, with `ccd`, of the
/// continuous hits.
fn streams(name: &str, broad_phase: BroadPhaseKind, threads: usize, ccd: bool) -> (u64, u64) {
    let config = Config {
        broad_phase,
        threads,
        ..Config::default()
    };
    let discrete = RunOptions {
        config: config.clone(),
        frames: Some(40),
        ccd: false,
        ttc: None,
    };
    let mut pairs = Vec::new();
    run_scene_file(&scene(name), &discrete, Some(&mut pairs), |_, _| {}).unwrap();
    if !ccd {
        return (fnv1a(&pairs), 0);
    }
    let continuous = RunOptions {
        config,
        frames: Some(40),
        ccd: true,
        ttc: None,
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

const EVERY_BROAD_PHASE: [BroadPhaseKind; 5] = [
    BroadPhaseKind::SweepAndPrune,
    BroadPhaseKind::Grid,
    BroadPhaseKind::Octree,
    BroadPhaseKind::DynamicTree,
    BroadPhaseKind::AllPairs,
];

/// Checks scene `name` against `golden` (discrete hash, continuous hash or 0 without `ccd`) on
/// `broad_phases` at 1, 2 and 4 threads.
fn check_on(name: &str, golden: (u64, u64), ccd: bool, broad_phases: &[BroadPhaseKind]) {
    for &broad_phase in broad_phases {
        for threads in [1, 2, 4] {
            let got = streams(name, broad_phase, threads, ccd);
            assert_eq!(
                got, golden,
                "{name} with {broad_phase:?} on {threads} threads: ({:#x}, {:#x}), golden ({:#x}, {:#x})",
                got.0, got.1, golden.0, golden.1
            );
        }
    }
}

fn check(name: &str, golden: (u64, u64)) {
    check_on(name, golden, true, &EVERY_BROAD_PHASE);
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

#[test]
fn cw_ellipsoid_12_stream_matches_its_golden() {
    check_on(
        "cw-ellipsoid-12.scene",
        (0x43c5_3f78_a8fc_05c0, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn cw_rod_100_stream_matches_its_golden() {
    check_on(
        "cw-rod-100.scene",
        (0x3ff9_58b3_1b98_4322, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn cw_plate_500_stream_matches_its_golden() {
    check_on(
        "cw-plate-500.scene",
        (0xb46f_4420_24c2_fec9, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn cw_ellipsoid_1000_stream_matches_its_golden() {
    check_on(
        "cw-ellipsoid-1000.scene",
        (0x62ec_ff7f_6bae_513b, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn broad_10k_stream_matches_its_golden() {
    check_on(
        "broad-10k.scene",
        (0x05b2_e249_c416_759a, 0),
        false,
        &EVERY_BROAD_PHASE[..4],
    );
}

#[test]
fn mesh_zoo_stream_matches_its_golden() {
    check_on(
        "mesh-zoo.scene",
        (0xe829_af90_e8fb_9567, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn broad_100k_stream_matches_its_golden() {
    check_on(
        "broad-100k.scene",
        (0xb7d7_c003_2b31_60c3, 0),
        false,
        &[BroadPhaseKind::SweepAndPrune, BroadPhaseKind::DynamicTree],
    );
}

#[test]
fn cw_ellipsoid_100_stream_matches_its_golden() {
    check_on(
        "cw-ellipsoid-100.scene",
        (0x8e84_9c84_8c00_3f22, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn cw_ellipsoid_500_stream_matches_its_golden() {
    check_on(
        "cw-ellipsoid-500.scene",
        (0xc666_3d7a_c916_99c7, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn cw_rod_12_stream_matches_its_golden() {
    check_on(
        "cw-rod-12.scene",
        (0x5de3_ac6f_9df9_ad2c, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn cw_rod_500_stream_matches_its_golden() {
    check_on(
        "cw-rod-500.scene",
        (0x1c04_6f7c_7483_0918, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn cw_rod_1000_stream_matches_its_golden() {
    check_on(
        "cw-rod-1000.scene",
        (0xaf64_19c6_6ee1_1504, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn cw_plate_12_stream_matches_its_golden() {
    check_on(
        "cw-plate-12.scene",
        (0x7a9d_d3ba_676f_eb61, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn cw_plate_100_stream_matches_its_golden() {
    check_on(
        "cw-plate-100.scene",
        (0x9a37_3248_b066_e767, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}

#[test]
fn cw_plate_1000_stream_matches_its_golden() {
    check_on(
        "cw-plate-1000.scene",
        (0xfa90_d3b3_3635_354b, 0),
        false,
        &EVERY_BROAD_PHASE,
    );
}
