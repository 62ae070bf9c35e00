//! Helpers shared by the crate's unit tests: the brute-force pair set of the batch searches,
//! small box constructors (world frame, `f64`) and a uniform integer from the fixed-seed
//! generator.

use colldet_geom::WorldAabb;
use colldet_geom::math::PointD;
use colldet_testkit::{SplitMix64, brute_force_pairs};

use crate::pair_set::pack;

/// Every two boxes among `boxes[slot]`, `slot` in `slots`, that overlap (closed), as packed slot
/// pairs ([`pack`]), each once, sorted ascending: what the batch searches must report.
pub(crate) fn brute_force(boxes: &[WorldAabb], slots: &[u32]) -> Vec<u64> {
    let slot_box = |k: usize| &boxes[slots[k] as usize];
    let mut pairs: Vec<u64> =
        brute_force_pairs(slots.len(), |i, j| slot_box(i).overlaps(slot_box(j)))
            .into_iter()
            .map(|(i, j)| pack(slots[i], slots[j]))
            .collect();
    pairs.sort_unstable();
    pairs
}

/// The cube of edge `size` with its min corner at `(x, 0, 0)`.
pub(crate) fn cube(x: f64, size: f64) -> WorldAabb {
    WorldAabb::new(PointD::new(x, 0.0, 0.0), PointD::new(x + size, size, size))
}

/// The box with corners `lo` and `hi`.
pub(crate) fn boxed(lo: [f64; 3], hi: [f64; 3]) -> WorldAabb {
    WorldAabb::new(PointD::from(lo), PointD::from(hi))
}

/// Uniform in `lo..=hi` (up to the modulo bias, irrelevant for tests), from `rng`'s next output
/// ([`SplitMix64::i64_in`]).
pub(crate) fn int_in(rng: &mut SplitMix64, lo: i64, hi: i64) -> i64 {
    rng.i64_in(lo, hi)
}
