//! Least-significant-digit radix sort of `u64` pair keys (the sorted pair output of the
//! incremental structures). O(n) per digit; digits on which every key agrees are skipped.
//!
//! [`sort_u64_below`] sorts keys known to fit in their low `bits` bits with the fewest passes of
//! at most 12-bit digits (pair keys of ids below `2^17`, packed into 34 bits: three passes). All
//! histograms are counted in one pass over the keys; each remaining digit costs one scattering
//! pass between the data and a scratch buffer, both reused between calls.

/// Widest digit of [`sort_u64_below`]: 4096 counters per digit, three digits fit in L1.
const MAX_DIGIT_BITS: u32 = 12;

/// Sorts `keys`, all below `2^bits` (`bits <= 64`), ascending, using `scratch` as the second
/// buffer and `counts` for the digit histograms: `ceil(bits / 12)` passes of equal digits. Only
/// the histograms of the digits used are cleared (a few KiB for small id ranges).
pub(crate) fn sort_u64_below(
    keys: &mut Vec<u64>,
    scratch: &mut Vec<u64>,
    counts: &mut Vec<u32>,
    bits: u32,
) {
    scratch.clear();
    scratch.resize(keys.len(), 0);
    if sort_slice_below(keys, scratch, counts, bits) {
        std::mem::swap(keys, scratch);
    }
}

/// [`sort_u64_below`] on a slice, with `scratch` of the same length: returns true when the
/// sorted keys ended in `scratch` (an odd number of scattering passes), false when in `keys`.
pub(crate) fn sort_slice_below(
    keys: &mut [u64],
    scratch: &mut [u64],
    counts: &mut Vec<u32>,
    bits: u32,
) -> bool {
    let n = keys.len();
    debug_assert_eq!(scratch.len(), n);
    debug_assert!(keys.iter().all(|&k| bits >= 64 || k >> bits == 0));
    if n < 2 || bits == 0 {
        return false;
    }
    let passes = bits.div_ceil(MAX_DIGIT_BITS);
    let digit = bits.div_ceil(passes);
    let mask = (1u64 << digit) - 1;
    let width = 1usize << digit;
    counts.clear();
    counts.resize(passes as usize * width, 0);
    for &key in keys.iter() {
        for (d, count) in counts.chunks_exact_mut(width).enumerate() {
            count[((key >> (d as u32 * digit)) & mask) as usize] += 1;
        }
    }
    let (mut from, mut to) = (keys, scratch);
    let mut in_scratch = false;
    for (d, count) in counts.chunks_exact_mut(width).enumerate() {
        if count.iter().any(|&c| c as usize == n) {
            continue;
        }
        let mut sum = 0u32;
        for c in count.iter_mut() {
            (*c, sum) = (sum, sum + *c);
        }
        let shift = d as u32 * digit;
        for &key in from.iter() {
            let bucket = &mut count[((key >> shift) & mask) as usize];
            to[*bucket as usize] = key;
            *bucket += 1;
        }
        std::mem::swap(&mut from, &mut to);
        in_scratch = !in_scratch;
    }
    in_scratch
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_testkit::SplitMix64;

    #[test]
    fn sorts_u64_keys_like_the_standard_sort() {
        let mut rng = SplitMix64::new(3);
        let (mut scratch, mut counts) = (Vec::new(), Vec::new());
        for (len, bits) in [
            (0usize, 34u32),
            (1, 34),
            (2, 64),
            (3000, 34),
            (2500, 7),
            (1000, 64),
            (900, 25),
            (777, 5),
        ] {
            let mut keys: Vec<u64> = (0..len).map(|_| rng.next_u64() >> (64 - bits)).collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            sort_u64_below(&mut keys, &mut scratch, &mut counts, bits);
            assert_eq!(keys, expected, "{len} keys below 2^{bits}");
        }
        let mut same = vec![42u64; 100];
        sort_u64_below(&mut same, &mut scratch, &mut counts, 6);
        assert_eq!(same, vec![42u64; 100]);
    }
}
