//! Soak (issue 21): a million C API calls over one world, objects added, instanced, moved,
//! paired, checked discretely and continuously, traced and removed; the resident memory after
//! the first 100,000 calls and at the end must stay within a few MB. Ignored in `make test`
//! (about a minute); run with `cargo test --release -p colldet-ffi soak -- --ignored --nocapture`.

use std::ffi::c_void;

use crate::continuous::{ColTrace, colCheckContinuous, colTraced};
use crate::lifecycle::{colCheck, colExit, colStart};
use crate::objects::{colMakeCollidable, colMakeInstance, colRemoveCollidable, colSetTransformd};
use crate::pairs::colSetInterest;
use crate::status::COL_OK;
use crate::test_support::{TETRAHEDRON_VERTICES, new_world, tetrahedron_desc, translation};

/// SplitMix64: a tiny seeded generator (no test dependency needed).
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        Self(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }

    fn chance(&mut self, p: f64) -> bool {
        self.range(0.0, 1.0) < p
    }
}

/// Resident set size in bytes (Linux `/proc/self/statm`), or 0 elsewhere.
fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

#[test]
#[ignore = "a minute of calls; run by hand for the figure in the notes"]
fn a_million_calls_keep_memory_flat() {
    const CALLS: u64 = 1_000_000;
    let world = new_world();
    let mut rng = SplitMix64::new(0x50A4);
    let mut ids: Vec<u64> = Vec::new();
    let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
    // SAFETY: a live world; every pointer is valid for the call.
    unsafe {
        assert_eq!(colStart(world), COL_OK);
        let (mut warm, mut calls) = (0u64, 0u64);
        while calls < CALLS {
            calls += 1;
            if calls == 100_000 {
                warm = resident_bytes();
            }
            let pick = |rng: &mut SplitMix64, ids: &[u64]| ids[rng.below(ids.len())];
            match rng.below(100) {
                0..=9 if ids.len() < 300 => {
                    let mut id = 0;
                    let status = if ids.is_empty() || rng.chance(0.5) {
                        colMakeCollidable(world, &desc, std::ptr::null_mut::<c_void>(), &mut id)
                    } else {
                        let like = pick(&mut rng, &ids);
                        colMakeInstance(world, like, std::ptr::null_mut(), &mut id)
                    };
                    assert_eq!(status, COL_OK);
                    ids.push(id);
                }
                10..=17 if !ids.is_empty() => {
                    let k = rng.below(ids.len());
                    assert_eq!(colRemoveCollidable(world, ids.swap_remove(k)), COL_OK);
                }
                18..=69 if !ids.is_empty() => {
                    let id = pick(&mut rng, &ids);
                    let m = translation(
                        rng.range(-10.0, 10.0),
                        rng.range(-10.0, 10.0),
                        rng.range(-10.0, 10.0),
                    );
                    assert_eq!(colSetTransformd(world, id, m.as_ptr()), COL_OK);
                }
                70..=79 if ids.len() >= 2 => {
                    let (a, b) = (pick(&mut rng, &ids), pick(&mut rng, &ids));
                    if a != b {
                        assert_eq!(colSetInterest(world, a, b, rng.chance(0.5).into()), COL_OK);
                    }
                }
                80..=89 => assert_eq!(colCheck(world), COL_OK),
                90..=94 => assert_eq!(colCheckContinuous(world), COL_OK),
                _ if !ids.is_empty() => {
                    let id = pick(&mut rng, &ids);
                    let m = translation(rng.range(-10.0, 10.0), 0.0, 0.0);
                    let mut out = ColTrace {
                        hit: 0,
                        fraction: 0.0,
                        fraction_hi: 0.0,
                        contact_kind: 0,
                        feature_moving: 0,
                        feature_hit: 0,
                        point: [0.0; 3],
                        normal: [0.0; 3],
                    };
                    assert_eq!(colTraced(world, id, m.as_ptr(), &mut out), COL_OK);
                }
                _ => {}
            }
        }
        let end = resident_bytes();
        eprintln!(
            "soak: {CALLS} calls, resident {:.1} MB after 100k, {:.1} MB at the end",
            warm as f64 / 1e6,
            end as f64 / 1e6
        );
        assert!(end <= warm + 8_000_000, "{warm} -> {end}");
        assert_eq!(colExit(world), COL_OK);
    }
}
