//! A hash set of unordered index pairs packed into `u64` keys, with a multiply-xorshift hasher,
//! and the sorted extraction of [`ProxyPair`]s shared by the incremental structures.
//!
//! Rationale: the persistent pair sets hold ~10^5 entries and see millions of lookups per frame,
//! so SipHash (the std default, built against hash flooding) would dominate. The keys are internal
//! slot numbers chosen by the structure, not by an adversary, so a cheap bijective mixer suffices.
//! It must avalanche: hashbrown takes the bucket from the low bits and a tag from the top 7
//! bits, and a single multiply leaves the low bits a function of the low input bits only (which
//! for packed pairs clusters the keys into long probe sequences).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::broad_phase::{ProxyId, ProxyPair};
use rayon::prelude::*;

use crate::parallel_sort::{PARALLEL_SORT_MIN_KEYS, ParallelSortScratch, par_sort_u64_below};
use crate::radix_sort::sort_u64_below;

/// Hasher for `u64` pair keys: two multiplies and three xorshifts.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairHasher(u64);

impl Hasher for PairHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used by the pair sets; this path keeps the hasher total.
        for &b in bytes {
            self.write_u64(self.0 ^ u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, key: u64) {
        // The SplitMix64 finaliser: a bijection with full avalanche.
        let mut h = (key ^ (key >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = h ^ (h >> 31);
    }
}

/// A set of packed pairs (see [`pack`]).
pub(crate) type PairSet = HashSet<u64, BuildHasherDefault<PairHasher>>;

/// The key of the unordered pair `{a, b}`: smaller index in the high half. `a != b`.
#[inline]
pub(crate) fn pack(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (u64::from(lo) << 32) | u64::from(hi)
}

/// The two indices of a packed pair, smaller first.
#[inline]
pub(crate) fn unpack(key: u64) -> (u32, u32) {
    ((key >> 32) as u32, key as u32)
}

/// Reusable buffers of [`sorted_proxy_pairs`].
#[derive(Clone, Debug, Default)]
pub(crate) struct PairSortScratch {
    keys: Vec<u64>,
    spare: Vec<u64>,
    counts: Vec<u32>,
    parallel: ParallelSortScratch,
}

/// Keys per piece of the parallel translation.
const TRANSLATE_CHUNK: usize = 4096;

/// Fills `out` with the pairs of `keys` (packed slot pairs) translated to proxy ids by `id_of`,
/// sorted ascending (radix sort). `scratch` is reused between calls so that no allocation happens
/// once it has grown to the pair count. The ids are sorted as `lo << b | hi` with `b` the bits of
/// the largest id (so ids below `2^17` sort in 3 radix passes). With a `pool` of two threads or
/// more and at least [`PARALLEL_SORT_MIN_KEYS`] keys, the translation, the sort
/// ([`par_sort_u64_below`]) and the output run on the pool; the output is the same.
pub(crate) fn sorted_proxy_pairs(
    keys: impl Iterator<Item = u64>,
    id_of: impl Fn(u32) -> ProxyId + Sync,
    scratch: &mut PairSortScratch,
    pool: Option<&rayon::ThreadPool>,
    out: &mut Vec<ProxyPair>,
) {
    let translate = |key: u64| {
        let (a, b) = unpack(key);
        pack(id_of(a), id_of(b))
    };
    let pool = pool
        .filter(|p| p.current_num_threads() > 1 && keys.size_hint().0 >= PARALLEL_SORT_MIN_KEYS);
    scratch.keys.clear();
    let Some(pool) = pool else {
        let mut largest = 0;
        scratch.keys.extend(keys.map(|key| {
            let (a, b) = unpack(key);
            let (a, b) = (id_of(a), id_of(b));
            largest = largest.max(a).max(b);
            pack(a, b)
        }));
        let bits = u32::BITS - largest.leading_zeros();
        repack(&mut scratch.keys, bits);
        sort_u64_below(
            &mut scratch.keys,
            &mut scratch.spare,
            &mut scratch.counts,
            2 * bits,
        );
        out.clear();
        out.extend(scratch.keys.iter().map(|&key| unpack_repacked(key, bits)));
        return;
    };
    scratch.keys.extend(keys);
    pool.install(|| {
        let largest = scratch
            .keys
            .par_chunks_mut(TRANSLATE_CHUNK)
            .map(|chunk| {
                let mut largest = 0;
                for key in chunk {
                    *key = translate(*key);
                    largest = largest.max(*key as u32).max((*key >> 32) as u32);
                }
                largest
            })
            .max()
            .unwrap_or(0);
        let bits = u32::BITS - largest.leading_zeros();
        scratch
            .keys
            .par_chunks_mut(TRANSLATE_CHUNK)
            .for_each(|chunk| repack(chunk, bits));
        let runs = rayon::current_num_threads();
        par_sort_u64_below(&mut scratch.keys, &mut scratch.parallel, 2 * bits, runs);
        out.clear();
        out.par_extend(
            scratch
                .keys
                .par_iter()
                .map(|&key| unpack_repacked(key, bits)),
        );
    });
}

/// Repacks keys `lo << 32 | hi` as `lo << bits | hi`: same order, fewer significant bits (`hi`
/// below `2^bits`).
fn repack(keys: &mut [u64], bits: u32) {
    let low = (1u64 << bits) - 1;
    for key in keys {
        *key = ((*key >> 32) << bits) | (*key & low);
    }
}

/// The pair of a key repacked by [`repack`].
#[inline]
fn unpack_repacked(key: u64, bits: u32) -> ProxyPair {
    let low = (1u64 << bits) - 1;
    ProxyPair((key >> bits) as u32, (key & low) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_is_symmetric_and_inverts() {
        assert_eq!(pack(7, 3), pack(3, 7));
        assert_eq!(unpack(pack(7, 3)), (3, 7));
        assert_eq!(unpack(pack(u32::MAX, 0)), (0, u32::MAX));
    }

    #[test]
    fn sorted_output_translates_ids() {
        let keys = [pack(0, 1), pack(1, 2), pack(0, 2)];
        // Slot s holds proxy 10 - s.
        let mut scratch = PairSortScratch::default();
        let mut out = Vec::new();
        sorted_proxy_pairs(keys.into_iter(), |s| 10 - s, &mut scratch, None, &mut out);
        assert_eq!(
            out,
            vec![ProxyPair(8, 9), ProxyPair(8, 10), ProxyPair(9, 10)]
        );
    }

    #[test]
    fn set_holds_many_keys() {
        let mut set = PairSet::default();
        for a in 0..300u32 {
            for b in a + 1..300 {
                assert!(set.insert(pack(a, b)));
            }
        }
        assert_eq!(set.len(), 300 * 299 / 2);
        assert!(set.contains(&pack(299, 5)));
        assert!(!set.contains(&pack(5, 300)));
    }
}
