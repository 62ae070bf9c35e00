//! The block test of the sweeps ([`crate::axis_sweep`], [`crate::column_lanes`]): one box against
//! a block of `L` boxes stored as lanes (one array per bound, `f32`), giving bit masks without
//! branches. On x86_64 the compares are SSE (part of the baseline), four lanes at a time; other
//! targets run the same test lane by lane.

/// For the block of `L` boxes from index `b` of `lists`, bit masks (bit `k` for box `b + k`) of
/// the boxes whose `s`-min is at most `a`'s `s`-max (`ea[0]`), and of those that also overlap
/// `a` on `u` and `v` (`ea[1..]`: `u`-min, `u`-max, `v`-min, `v`-max; closed intervals).
/// `lists` are the `s`-min, `u`-min, `u`-max, `v`-min and `v`-max arrays, each with at least
/// `b + L` entries. A NaN compares false. `L` is a multiple of 4, at most 32.
#[inline]
pub(crate) fn block_masks<const L: usize>(
    ea: &[f32; 5],
    lists: [&[f32]; 5],
    b: usize,
) -> (u32, u32) {
    let lanes = lists.map(|l| -> &[f32; L] { l[b..b + L].try_into().expect("padded") });
    block_masks_lanes(ea, lanes)
}

/// The masks of [`block_masks`] from the block's lanes (`s`-min, `u`-min, `u`-max, `v`-min,
/// `v`-max), with SSE (part of the x86_64 baseline).
#[cfg(target_arch = "x86_64")]
#[inline]
fn block_masks_lanes<const L: usize>(ea: &[f32; 5], lanes: [&[f32; L]; 5]) -> (u32, u32) {
    use std::arch::x86_64::*;
    let [ls, lu, hu, lv, hv] = lanes;
    // `_mm_loadu_ps` reads the 4 floats of quarter `h` of a block.
    let load = |x: &[f32; L], h: usize| -> __m128 {
        let quarter: &[f32; 4] = x[4 * h..4 * h + 4].try_into().expect("quarter");
        // SAFETY: `quarter` is 4 readable floats; unaligned loads are allowed.
        unsafe { _mm_loadu_ps(quarter.as_ptr()) }
    };
    // SAFETY: SSE is part of the x86_64 baseline, so these intrinsics are available.
    unsafe {
        let (hs, la_u, ha_u, la_v, ha_v) = (
            _mm_set1_ps(ea[0]),
            _mm_set1_ps(ea[1]),
            _mm_set1_ps(ea[2]),
            _mm_set1_ps(ea[3]),
            _mm_set1_ps(ea[4]),
        );
        let mut within = 0u32;
        let mut hits = 0u32;
        for h in 0..L / 4 {
            let inside = _mm_cmple_ps(load(ls, h), hs);
            let overlap = _mm_and_ps(
                _mm_and_ps(
                    _mm_cmple_ps(load(lu, h), ha_u),
                    _mm_cmple_ps(la_u, load(hu, h)),
                ),
                _mm_and_ps(
                    _mm_cmple_ps(load(lv, h), ha_v),
                    _mm_cmple_ps(la_v, load(hv, h)),
                ),
            );
            within |= (_mm_movemask_ps(inside) as u32) << (4 * h);
            hits |= (_mm_movemask_ps(_mm_and_ps(inside, overlap)) as u32) << (4 * h);
        }
        (within, hits)
    }
}

/// [`block_masks_lanes`] without SIMD intrinsics (other targets; tested against the SSE version
/// on x86_64).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline]
fn block_masks_portable<const L: usize>(ea: &[f32; 5], lanes: [&[f32; L]; 5]) -> (u32, u32) {
    let [ls, lu, hu, lv, hv] = lanes;
    let (mut within, mut hits) = (0u32, 0u32);
    for k in 0..L {
        let inside = ls[k] <= ea[0];
        let overlap = (lu[k] <= ea[2]) & (ea[1] <= hu[k]) & (lv[k] <= ea[4]) & (ea[3] <= hv[k]);
        within |= u32::from(inside) << k;
        hits |= u32::from(inside & overlap) << k;
    }
    (within, hits)
}

/// The masks of [`block_masks`] from the block's lanes.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn block_masks_lanes<const L: usize>(ea: &[f32; 5], lanes: [&[f32; L]; 5]) -> (u32, u32) {
    block_masks_portable(ea, lanes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_testkit::SplitMix64;

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn lane_masks_match_the_portable_version() {
        check_lanes::<4>(3);
        check_lanes::<8>(4);
    }

    #[cfg(target_arch = "x86_64")]
    fn check_lanes<const L: usize>(seed: u64) {
        // Values from a small set (many ties), infinities and NaN (the padding).
        let mut rng = SplitMix64::new(seed);
        let values = [
            -1.0,
            0.0,
            0.5,
            1.0,
            2.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let mut pick = || values[(rng.next_u64() % values.len() as u64) as usize];
        for _ in 0..2000 {
            let ea: [f32; 5] = std::array::from_fn(|_| pick());
            let lanes: [[f32; L]; 5] = std::array::from_fn(|_| std::array::from_fn(|_| pick()));
            let lanes = lanes.each_ref();
            assert_eq!(
                block_masks_lanes(&ea, lanes),
                block_masks_portable(&ea, lanes),
                "{ea:?} {lanes:?}"
            );
        }
    }
}
