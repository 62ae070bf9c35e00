//! Small seeded random generators whose output streams are fixed forever.
//!
//! Rationale: regression tests and benchmarks store seeds, so the mapping seed -> numbers must
//! never change, whatever crate versions are in use. The generators are therefore written out
//! here from their published definitions rather than taken from a crate:
//! - [`SplitMix64`] (Steele, Lea, Flood 2014; Vigna's `splitmix64.c`) expands a 64-bit seed; it
//!   is also the generator of the many tests written with it, with the simple draws those tests
//!   use (see its documentation),
//! - [`SeededRng`] is xoshiro256** 1.0 (Blackman, Vigna 2018) with its 256-bit state filled by four
//!   consecutive SplitMix64 outputs, the seeding its authors recommend.
//!
//! Every derived draw consumes a documented, fixed number of `next_u64` outputs (except
//! [`SeededRng::index`], which rejects, and is documented so), so the streams stay reproducible.
//! Changing any of these functions changes stored test cases: don't.

use colldet_geom::math::{Pose, VectorD};
use nalgebra::{Quaternion, Translation3, Unit, UnitQuaternion};
use std::f64::consts::TAU;

/// The SplitMix64 generator: a 64-bit counter advanced by the golden-ratio increment, passed
/// through a fixed bijective mixer. Used to seed [`SeededRng`]; also usable on its own.
///
/// The field is the counter: `SplitMix64(seed)` is `SplitMix64::new(seed)`.
///
/// Its draws are the ones the tests written with SplitMix64 use, each from exactly one
/// `next_u64`, and simpler than [`SeededRng`]'s: [`SplitMix64::range`] is not clamped below
/// `hi`, and [`SplitMix64::below`] reduces modulo `n` without rejecting. Distributions built on
/// them (unit vectors, rotations, boxes) differ from test to test and stay with their tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// A generator whose counter starts at `seed`.
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next output (the counter is advanced first, as in the reference code).
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform `f64` in `[0, 1)`: the top 53 bits of one `next_u64`, divided by `2^53` (exact;
    /// the same mapping as [`SeededRng::f64`]).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `lo + (hi - lo) * next_f64()`: uniform in `[lo, hi)` up to rounding. Unlike
    /// [`SeededRng::range`] the result is not clamped, so it can round up to `hi`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    /// `next_u64() % n`: an index in `0..n` by modulo reduction (biased by less than `n / 2^64`;
    /// unlike [`SeededRng::index`], never rejects). Panics for `n == 0`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// `next_u64() % n`: [`SplitMix64::below`] for a `u64` bound.
    pub fn below_u64(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// An integer in `lo..=hi` by modulo reduction: `lo + next_u64() % (hi - lo + 1)`.
    pub fn usize_in(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as usize
    }

    /// An integer in `lo..=hi` by modulo reduction: `lo + next_u64() % (hi - lo + 1)`.
    pub fn i64_in(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// True with probability `p`: `next_f64() < p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p
    }

    /// Fisher-Yates shuffle: for `i` from `len - 1` down to 1, swaps item `i` with item
    /// `below(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// xoshiro256** seeded through [`SplitMix64`]: the deterministic generator of every colldet shape
/// generator, test and benchmark. Not cryptographic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeededRng {
    s: [u64; 4],
}

impl SeededRng {
    /// The generator for `seed`: its state is the first four outputs of `SplitMix64::new(seed)`
    /// (never all zero, since SplitMix64 is a bijection of distinct counters).
    pub fn new(seed: u64) -> Self {
        let mut sm = SplitMix64::new(seed);
        Self {
            s: [sm.next_u64(), sm.next_u64(), sm.next_u64(), sm.next_u64()],
        }
    }

    /// A generator with the given raw xoshiro256** state; `None` for the all-zero state, which
    /// the algorithm never leaves.
    pub fn from_state(state: [u64; 4]) -> Option<Self> {
        (state != [0; 4]).then_some(Self { s: state })
    }

    /// The next 64 uniformly distributed bits (xoshiro256** output function and state update).
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform `f64` in `[0, 1)`: the top 53 bits of one `next_u64`, times `2^-53` (exact, so
    /// every value is a multiple of `2^-53`).
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform `f64` in `[lo, hi)`, from one `next_u64`: `lo + (hi - lo) * u`, with a result
    /// that rounds up to `hi` replaced by the largest double below `hi`. When `hi <= lo` (or a
    /// bound is not finite) the formula is returned unclamped, so `range(x, x)` is `x`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        let x = lo + (hi - lo) * self.f64();
        if hi > lo && x >= hi {
            hi.next_down()
        } else {
            x
        }
    }

    /// A uniform index in `0..n` by Lemire's multiply-and-reject method (consumes one
    /// `next_u64` except in the rare rejected case, probability `< n / 2^64`). Returns 0 for
    /// `n == 0`, without drawing.
    pub fn index(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let n = n as u64;
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as usize;
            }
        }
    }

    /// A unit vector uniformly distributed on the sphere, from two draws: `z` uniform in
    /// `[-1, 1)` and the azimuth uniform in `[0, 2 pi)` (Archimedes: the height of a uniform
    /// point on the sphere is uniform). Unit length up to rounding, then renormalised.
    pub fn unit_vector(&mut self) -> Unit<VectorD> {
        let z = self.range(-1.0, 1.0);
        let phi = TAU * self.f64();
        let r = (1.0 - z * z).max(0.0).sqrt();
        Unit::new_normalize(VectorD::new(r * phi.cos(), r * phi.sin(), z))
    }

    /// A rotation uniformly distributed over SO(3) (Haar measure), from three draws, by
    /// Shoemake's method (Graphics Gems III, "Uniform random rotations"): with `u1, u2, u3`
    /// uniform in `[0, 1)`, the quaternion `(w, i, j, k) = (sqrt(u1) cos 2 pi u3,
    /// sqrt(1 - u1) sin 2 pi u2, sqrt(1 - u1) cos 2 pi u2, sqrt(u1) sin 2 pi u3)` is uniform on
    /// the unit 3-sphere.
    pub fn rotation(&mut self) -> UnitQuaternion<f64> {
        let u1 = self.f64();
        let a2 = TAU * self.f64();
        let a3 = TAU * self.f64();
        let (s1, c1) = ((1.0 - u1).sqrt(), u1.sqrt());
        UnitQuaternion::new_normalize(Quaternion::new(
            c1 * a3.cos(),
            s1 * a2.sin(),
            s1 * a2.cos(),
            c1 * a3.sin(),
        ))
    }

    /// `pose` moved a little: turned by up to `max_turn` radians about a uniform axis (applied
    /// after its rotation, about its origin), then its origin shifted by up to `max_shift` in a
    /// uniform direction. Four draws, in that order.
    pub fn nudged(&mut self, pose: &Pose, max_turn: f64, max_shift: f64) -> Pose {
        let turn = UnitQuaternion::from_scaled_axis(
            self.unit_vector().into_inner() * self.range(0.0, max_turn),
        );
        let shift = self.unit_vector().into_inner() * self.range(0.0, max_shift);
        Pose::from_parts(
            Translation3::from(pose.translation.vector + shift),
            turn * pose.rotation,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_published_outputs() {
        let mut a = SplitMix64::new(1_234_567);
        let expected = [
            6_457_827_717_110_365_317u64,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for e in expected {
            assert_eq!(a.next_u64(), e);
        }
        let mut b = SplitMix64::new(0);
        for e in [
            0xe220_a839_7b1d_cdafu64,
            0x6e78_9e6a_a1b9_65f4,
            0x06c4_5d18_8009_454f,
            0xf88b_b8a8_724c_81ec,
            0x1b39_896a_51a8_749b,
        ] {
            assert_eq!(b.next_u64(), e);
        }
    }

    /// The draws the SplitMix64 tests were written with: pinned to their formulas, one
    /// `next_u64` each, so the tests' seeds keep their cases.
    #[test]
    fn splitmix64_draws_follow_their_formulas() {
        for seed in [0u64, 7, 0x5eed_0001, u64::MAX] {
            let (mut a, mut b) = (SplitMix64(seed), SplitMix64::new(seed));
            let unit = |x: u64| (x >> 11) as f64 / (1u64 << 53) as f64;
            for _ in 0..1000 {
                assert_eq!(a.next_f64(), unit(b.next_u64()));
                assert_eq!(a.range(-3.0, 5.0), -3.0 + 8.0 * unit(b.next_u64()));
                assert_eq!(a.below(7), (b.next_u64() % 7) as usize);
                assert_eq!(a.below_u64(1 << 40), b.next_u64() % (1 << 40));
                assert_eq!(a.usize_in(4, 40), 4 + (b.next_u64() % 37) as usize);
                assert_eq!(a.i64_in(-5, 5), (b.next_u64() % 11) as i64 - 5);
                assert_eq!(a.chance(0.25), unit(b.next_u64()) < 0.25);
            }
            assert_eq!(a, b);
            let mut items: Vec<usize> = (0..50).collect();
            a.shuffle(&mut items);
            let mut expected: Vec<usize> = (0..50).collect();
            for i in (1..50).rev() {
                expected.swap(i, (b.next_u64() % (i as u64 + 1)) as usize);
            }
            assert_eq!(items, expected);
        }
    }

    #[test]
    fn xoshiro256starstar_matches_published_outputs_for_state_1234() {
        let mut rng = SeededRng::from_state([1, 2, 3, 4]).expect("nonzero state");
        let expected = [
            11_520u64,
            0,
            1_509_978_240,
            1_215_971_899_390_074_240,
            1_216_172_134_540_287_360,
            607_988_272_756_665_600,
            16_172_922_978_634_559_625,
            8_476_171_486_693_032_832,
            10_595_114_339_597_558_777,
            2_904_607_092_377_533_576,
        ];
        for e in expected {
            assert_eq!(rng.next_u64(), e);
        }
        assert!(SeededRng::from_state([0; 4]).is_none());
    }

    #[test]
    fn seeding_uses_four_splitmix_outputs() {
        let rng = SeededRng::new(0);
        assert_eq!(
            rng.s,
            [
                0xe220_a839_7b1d_cdaf,
                0x6e78_9e6a_a1b9_65f4,
                0x06c4_5d18_8009_454f,
                0xf88b_b8a8_724c_81ec
            ]
        );
        // First output pinned from the definitions (rotl(s1 * 5, 7) * 9); stored seeds rely on it.
        let mut rng = SeededRng::new(0);
        let s1 = 0x6e78_9e6a_a1b9_65f4u64;
        assert_eq!(
            rng.next_u64(),
            s1.wrapping_mul(5).rotate_left(7).wrapping_mul(9)
        );
    }

    #[test]
    fn same_seed_same_stream_different_seed_different_stream() {
        let mut a = SeededRng::new(42);
        let mut b = SeededRng::new(42);
        let mut c = SeededRng::new(43);
        let mut differ = 0;
        for _ in 0..1000 {
            let x = a.next_u64();
            assert_eq!(x, b.next_u64());
            differ += usize::from(x != c.next_u64());
        }
        assert_eq!(differ, 1000);
    }

    #[test]
    fn f64_is_uniform_in_unit_interval() {
        let mut rng = SeededRng::new(7);
        let n = 200_000;
        let mut buckets = [0usize; 10];
        let mut sum = 0.0;
        for _ in 0..n {
            let u = rng.f64();
            assert!((0.0..1.0).contains(&u));
            sum += u;
            buckets[(u * 10.0) as usize] += 1;
        }
        // Mean 1/2, standard error 0.289 / sqrt(n) = 6.5e-4: allow ~8 standard errors.
        assert!((sum / n as f64 - 0.5).abs() < 5e-3);
        // Chi-square with 9 degrees of freedom; 0.999 quantile is 27.9.
        let expected = n as f64 / 10.0;
        let chi2: f64 = buckets
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 27.9, "chi2 = {chi2}");
    }

    #[test]
    fn range_stays_half_open_and_index_stays_in_bounds() {
        let mut rng = SeededRng::new(11);
        for _ in 0..10_000 {
            let x = rng.range(-3.0, 5.0);
            assert!((-3.0..5.0).contains(&x));
            let tiny = rng.range(1e-12, 2e-12);
            assert!((1e-12..2e-12).contains(&tiny));
        }
        assert_eq!(rng.range(2.5, 2.5), 2.5);
        let mut counts = [0usize; 7];
        for _ in 0..70_000 {
            counts[rng.index(7)] += 1;
        }
        // Each bucket expects 10_000 with standard deviation ~93.
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(rng.index(0), 0);
        assert_eq!(rng.index(1), 0);
    }

    #[test]
    fn unit_vectors_are_unit_and_isotropic() {
        let mut rng = SeededRng::new(3);
        let n = 100_000;
        let mut mean = VectorD::zeros();
        let mut second = nalgebra::Matrix3::<f64>::zeros();
        for _ in 0..n {
            let v = rng.unit_vector().into_inner();
            assert!((v.norm() - 1.0).abs() < 1e-15);
            mean += v;
            second += v * v.transpose();
        }
        mean /= n as f64;
        second /= n as f64;
        // E[v] = 0, E[v v^T] = I / 3; standard errors ~ 0.0018 and ~ 0.0009.
        assert!(mean.norm() < 0.01, "{mean}");
        let dev = (second - nalgebra::Matrix3::identity() / 3.0).abs().max();
        assert!(dev < 0.006, "{second}");
    }

    #[test]
    fn rotations_are_proper_and_haar_distributed() {
        let mut rng = SeededRng::new(5);
        let n = 100_000;
        let mut mean = nalgebra::Matrix3::<f64>::zeros();
        let mut mean_sq = nalgebra::Matrix3::<f64>::zeros();
        let mut trace = 0.0;
        for _ in 0..n {
            let q = rng.rotation();
            let m = q.to_rotation_matrix().into_inner();
            assert!((m.determinant() - 1.0).abs() < 1e-12);
            assert!(
                (m * m.transpose() - nalgebra::Matrix3::identity())
                    .abs()
                    .max()
                    < 1e-12
            );
            mean += m;
            mean_sq += m.component_mul(&m);
            trace += m.trace();
        }
        mean /= n as f64;
        mean_sq /= n as f64;
        // Haar measure on SO(3): E[R_ij] = 0, E[R_ij^2] = 1/3, E[trace] = 0 (the rotation angle
        // has density (1 - cos t) / pi, so E[1 + 2 cos t] = 0).
        assert!(mean.abs().max() < 0.01, "{mean}");
        assert!(
            (mean_sq.add_scalar(-1.0 / 3.0)).abs().max() < 0.006,
            "{mean_sq}"
        );
        assert!((trace / n as f64).abs() < 0.02);
    }
}
