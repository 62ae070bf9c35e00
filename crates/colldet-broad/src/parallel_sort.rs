//! Sorting `u64` keys on a thread pool: the keys are cut into one run per thread, each run is
//! radix-sorted ([`crate::radix_sort`]) on its own thread, and the runs are merged pairwise, each
//! merge itself split at a pivot so that both threads share the last one.
//!
//! The result is the keys in ascending order, so it does not depend on the number of runs or on
//! which thread sorted what (equal keys are equal `u64`s).

use crate::radix_sort::sort_slice_below;

/// Fewest keys worth sorting on a pool: below, waking the pool's threads costs more than the
/// sort saves (on cw-ellipsoid-500's 3,700 pairs the frame's broad phase took 0.29-0.33 ms on two
/// threads with the sort there, 0.23-0.25 ms without, 0.23 ms on one thread).
pub(crate) const PARALLEL_SORT_MIN_KEYS: usize = 16384;

/// Output length below which a merge runs on the current thread.
const SERIAL_MERGE: usize = 8192;

/// Reusable buffers of [`par_sort_u64_below`] (no allocation once warm).
#[derive(Clone, Debug, Default)]
pub(crate) struct ParallelSortScratch {
    spare: Vec<u64>,
    /// One histogram buffer per run.
    counts: Vec<Vec<u32>>,
}

/// Sorts `keys`, all below `2^bits`, ascending, in `runs` radix-sorted runs merged in parallel.
/// Call inside the pool's `install` (the work spreads with `rayon::join`).
pub(crate) fn par_sort_u64_below(
    keys: &mut Vec<u64>,
    scratch: &mut ParallelSortScratch,
    bits: u32,
    runs: usize,
) {
    scratch.spare.clear();
    scratch.spare.resize(keys.len(), 0);
    scratch.counts.resize_with(runs.max(1), Vec::new);
    let counts = &mut scratch.counts[..runs.max(1)];
    if sort_runs(keys, &mut scratch.spare, counts, bits) {
        std::mem::swap(keys, &mut scratch.spare);
    }
}

/// Sorts `keys` as `counts.len()` runs (each with its histogram buffer), `spare` being the second
/// buffer of the same length; returns true when the sorted keys are in `spare`.
fn sort_runs(keys: &mut [u64], spare: &mut [u64], counts: &mut [Vec<u32>], bits: u32) -> bool {
    if let [count] = counts {
        return sort_slice_below(keys, spare, count, bits);
    }
    let half = counts.len() / 2;
    let at = keys.len() * half / counts.len();
    let (left_counts, right_counts) = counts.split_at_mut(half);
    let (left_keys, right_keys) = keys.split_at_mut(at);
    let (left_spare, right_spare) = spare.split_at_mut(at);
    let (left_in_spare, right_in_spare) = rayon::join(
        || sort_runs(left_keys, left_spare, left_counts, bits),
        || sort_runs(right_keys, right_spare, right_counts, bits),
    );
    // Both runs into one buffer, then merged into the other.
    match (left_in_spare, right_in_spare) {
        (true, false) => right_spare.copy_from_slice(right_keys),
        (false, true) => left_spare.copy_from_slice(left_keys),
        _ => {}
    }
    if left_in_spare || right_in_spare {
        merge(left_spare, right_spare, keys);
        false
    } else {
        merge(left_keys, right_keys, spare);
        true
    }
}

/// Writes the merge of the sorted `a` and `b` into `out` (of their total length), split in two
/// at a pivot (the middle of the longer input) and run with `rayon::join` while long.
fn merge(a: &[u64], b: &[u64], out: &mut [u64]) {
    debug_assert_eq!(a.len() + b.len(), out.len());
    if out.len() <= SERIAL_MERGE {
        serial_merge(a, b, out);
        return;
    }
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    // Everything left of the cut is at most the pivot, everything right of it at least.
    let am = a.len() / 2;
    let bm = b.partition_point(|&x| x < a[am]);
    let (left, right) = out.split_at_mut(am + bm);
    rayon::join(
        || merge(&a[..am], &b[..bm], left),
        || merge(&a[am..], &b[bm..], right),
    );
}

/// The two-finger merge of the sorted `a` and `b` into `out`.
fn serial_merge(a: &[u64], b: &[u64], out: &mut [u64]) {
    let (mut i, mut j) = (0, 0);
    for slot in out.iter_mut() {
        let take_a = j >= b.len() || (i < a.len() && a[i] <= b[j]);
        *slot = if take_a { a[i] } else { b[j] };
        i += usize::from(take_a);
        j += usize::from(!take_a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_testkit::SplitMix64;

    /// On seeded random keys (narrow ranges give many equal keys, wide ones few), every number of
    /// runs on pools of 1 to 4 threads gives the standard sort's order.
    #[test]
    fn runs_merged_on_a_pool_equal_the_serial_sort() {
        let mut rng = SplitMix64::new(0x5027);
        let mut scratch = ParallelSortScratch::default();
        for threads in 1..=4 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for (len, bits) in [
                (0usize, 34u32),
                (1, 34),
                (5, 3),
                (3000, 34),
                (20_000, 34),
                (40_000, 6),
                (17_001, 64),
                (9_000, 1),
            ] {
                for runs in [1, 2, 3, threads, 7] {
                    let mut keys: Vec<u64> = (0..len)
                        .map(|_| rng.next_u64() >> (64 - bits.max(1)))
                        .collect();
                    if bits == 64 {
                        keys.iter_mut().step_by(3).for_each(|k| *k = u64::MAX);
                    }
                    let mut expected = keys.clone();
                    expected.sort_unstable();
                    pool.install(|| par_sort_u64_below(&mut keys, &mut scratch, bits, runs));
                    assert_eq!(keys, expected, "{len} keys below 2^{bits}, {runs} runs");
                }
            }
        }
    }

    #[test]
    fn merges_split_at_equal_keys_stay_sorted() {
        let a: Vec<u64> = (0..20_000).map(|i| i / 100).collect();
        let b: Vec<u64> = (0..15_000).map(|i| i / 70).collect();
        let mut out = vec![0; a.len() + b.len()];
        merge(&a, &b, &mut out);
        let mut expected = [a, b].concat();
        expected.sort_unstable();
        assert_eq!(out, expected);
    }
}
