//! The Chung-Wang direction table: supporting vertices precomputed for 8 x 16 directions
//! (Chung-Wang section 2.4), used as the start of hill climbing when no coherent start is known.
//!
//! # Layout
//! Directions are binned on the unit sphere in the polytope's local frame by the polar angle
//! `theta` from `+z` (8 bins of 22.5 degrees, bin 0 around `+z`, bin 7 around `-z`) and the
//! azimuth `phi` measured from `+x` towards `+y` (16 bins of 22.5 degrees, bin 0 starting at
//! `+x`). Bin `(i, j)` has index `i * 16 + j` and stores the supporting vertex for its centre
//! direction `theta = (i + 1/2) * 22.5 deg`, `phi = (j + 1/2) * 22.5 deg`.
//!
//! # Rationale
//! The lookup uses no trigonometry: the polar bin counts the thresholds `cos(k * 22.5 deg)`,
//! `k = 1..7`, that `z / |d|` lies below, compared without division or square root as
//! `z^2` against `cos^2 * |d|^2` in `f64` (no underflow for `f32` inputs; three comparisons and
//! the sign of `z`), and the
//! azimuth bin comes from the signs of `x`, `y` and three comparisons against `tan(22.5 deg)`
//! and `1`. Directions exactly on a bin boundary may fall on either side; that only changes the
//! start vertex, never the correctness of the hill climb that follows. A zero or NaN direction
//! maps to some valid bin.

use super::brute_force::brute_force;
use crate::math::{Point, Real, Vector, VectorD, vec_to_f64};

/// Number of polar-angle bins.
pub const POLAR_BINS: usize = 8;
/// Number of azimuth bins.
pub const AZIMUTH_BINS: usize = 16;
/// Number of table entries, `POLAR_BINS * AZIMUTH_BINS`.
pub const DIRECTION_BINS: usize = POLAR_BINS * AZIMUTH_BINS;

/// `cos^2(k * pi / 8)` for `k = 1..=3`: the squares of the positive polar thresholds,
/// descending (rounded; a direction this close to a boundary may fall in either bin).
const POLAR_COS_SQUARED: [f64; 3] = [0.853_553_390_593_273_8, 0.5, 0.146_446_609_406_726_24];
/// `tan(pi / 8)`: the boundary between the first two azimuth bins of a quadrant.
const TAN_PI_8: f64 = 0.414_213_562_373_095_1;

/// Supporting vertices of a polytope for the 128 bin-centre directions of the 8 x 16 layout
/// described in the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectionTable {
    entries: [u32; DIRECTION_BINS],
}

impl DirectionTable {
    /// Precomputes the table by brute force over `points` (local frame): `128 * n` dot products.
    /// `points` must not be empty (a [`ConvexPolytope`](super::ConvexPolytope) never is).
    pub(crate) fn build(points: &[Point]) -> Self {
        let mut entries = [0u32; DIRECTION_BINS];
        for (bin, entry) in entries.iter_mut().enumerate() {
            *entry = brute_force(points, &vec_to_f64(&Self::bin_direction(bin)));
        }
        Self { entries }
    }

    /// The bin index `polar * 16 + azimuth` of direction `dir` (local frame, any length), in
    /// `O(1)` without trigonometry. Always `< 128`, also for zero and NaN directions.
    #[inline]
    pub fn bin(dir: &Vector) -> usize {
        // In f64 so that squares of tiny or huge f32 components neither underflow nor overflow.
        Self::bin_f64(&vec_to_f64(dir))
    }

    /// As [`DirectionTable::bin`] for an `f64` direction, without rounding it to `f32` first.
    /// Always `< 128`; for lengths whose squares leave the `f64` range (beyond about `1e-150`
    /// to `1e150`) the bin may be wrong, which only costs a longer climb from its vertex.
    #[inline]
    pub fn bin_f64(d: &VectorD) -> usize {
        // `z < t * |d|` for the seven descending thresholds `t`, without the square root: for
        // `z >= 0` the thresholds that hold are the positive `t` with `z^2 < t^2 |d|^2` (a prefix
        // of length `c <= 3`), for `z < 0` the three positive ones, zero, and the negative `t`
        // with `z^2 > t^2 |d|^2`, i.e. `7 - c` of them; `7 - c` is `c ^ 7` for `c <= 3`.
        let (z2, len2) = (d.z * d.z, d.norm_squared());
        let c = usize::from(z2 < POLAR_COS_SQUARED[0] * len2)
            + usize::from(z2 < POLAR_COS_SQUARED[1] * len2)
            + usize::from(z2 < POLAR_COS_SQUARED[2] * len2);
        let polar = c ^ (7 * usize::from(d.z < 0.0));
        let (ax, ay) = (d.x.abs(), d.y.abs());
        // Bin within the quadrant of (|x|, |y|): angle >= 22.5, >= 45, >= 67.5 degrees.
        let q = usize::from(ay >= TAN_PI_8 * ax)
            + usize::from(ay >= ax)
            + usize::from(TAN_PI_8 * ay >= ax);
        let q = q.min(3);
        // Quadrants (x >= 0, y >= 0) -> q, (<, >=) -> 7 - q, (<, <) -> 8 + q, (>=, <) -> 15 - q,
        // computed without branches (the signs of directions are unpredictable): `7 - q` is
        // `q ^ 7` for `q <= 3`, mirroring the quadrants where exactly one sign is negative.
        let x_negative = 1 - usize::from(d.x >= 0.0);
        let y_negative = 1 - usize::from(d.y >= 0.0);
        let azimuth = 8 * y_negative + (q ^ (7 * (x_negative ^ y_negative)));
        polar * AZIMUTH_BINS + azimuth
    }

    /// The unit centre direction of bin `bin` (local frame). Bins `>= 128` wrap around modulo
    /// 128.
    pub fn bin_direction(bin: usize) -> Vector {
        let bin = bin % DIRECTION_BINS;
        let step = std::f64::consts::PI / 8.0;
        let theta = ((bin / AZIMUTH_BINS) as f64 + 0.5) * step;
        let phi = ((bin % AZIMUTH_BINS) as f64 + 0.5) * step;
        Vector::new(
            (theta.sin() * phi.cos()) as Real,
            (theta.sin() * phi.sin()) as Real,
            theta.cos() as Real,
        )
    }

    /// The precomputed supporting vertex of the bin that `dir` falls in: a start for hill
    /// climbing, typically within a few edges of the supporting vertex of `dir`.
    #[inline]
    pub fn start_vertex(&self, dir: &Vector) -> u32 {
        self.entries[Self::bin(dir)]
    }

    /// As [`DirectionTable::start_vertex`] for an `f64` direction ([`DirectionTable::bin_f64`]).
    #[inline]
    pub fn start_vertex_f64(&self, dir: &VectorD) -> u32 {
        self.entries[Self::bin_f64(dir)]
    }

    /// All 128 entries, indexed by [`DirectionTable::bin`].
    pub fn entries(&self) -> &[u32; DIRECTION_BINS] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference bin from `acos`/`atan2`, plus the angular distance (radians) of `dir` to the
    /// nearest bin boundary, so boundary cases can be skipped.
    fn reference_bin(dir: &Vector) -> (usize, f64) {
        let d = VectorD::new(dir.x.into(), dir.y.into(), dir.z.into());
        let step = std::f64::consts::PI / 8.0;
        let theta = (d.z / d.norm()).clamp(-1.0, 1.0).acos();
        let mut phi = d.y.atan2(d.x);
        if phi < 0.0 {
            phi += 2.0 * std::f64::consts::PI;
        }
        let polar = ((theta / step) as usize).min(7);
        let azimuth = ((phi / step) as usize).min(15);
        let polar_margin = (theta / step - (theta / step).round()).abs() * step;
        let azimuth_margin =
            (phi / step - (phi / step).round()).abs() * step * theta.sin().max(1e-300);
        (
            polar * AZIMUTH_BINS + azimuth,
            polar_margin.min(azimuth_margin),
        )
    }

    #[test]
    fn bin_matches_trigonometric_reference_on_random_directions() {
        let mut rng = colldet_testkit::SplitMix64(0x1234_5678_9abc_def0);
        let mut next = || rng.next_f64() * 2.0 - 1.0;
        let mut checked = 0;
        for _ in 0..20_000 {
            let d = Vector::new(next() as f32, next() as f32, next() as f32) * 3.0;
            if d.norm() < 1e-3 {
                continue;
            }
            let (expected, margin) = reference_bin(&d);
            if margin < 1e-5 {
                continue;
            }
            assert_eq!(DirectionTable::bin(&d), expected, "direction {d:?}");
            checked += 1;
        }
        assert!(checked > 19_000);
    }

    #[test]
    fn bin_f64_matches_the_reference_and_the_f32_bin_off_boundaries() {
        let mut state = 0x0fed_cba9_8765_4321u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let mut checked = 0;
        for case in 0..20_000 {
            // Lengths from 1e-6 to 1e6: the squares stay far inside the f64 range.
            let scale = 10f64.powi(case % 13 - 6);
            let d = VectorD::new(next(), next(), next()) * scale;
            let narrow = Vector::new(d.x as f32, d.y as f32, d.z as f32);
            let (expected, margin) = reference_bin(&narrow);
            if d.norm() < 1e-3 * scale || margin < 1e-5 {
                continue;
            }
            assert_eq!(DirectionTable::bin_f64(&d), expected, "direction {d:?}");
            assert_eq!(DirectionTable::bin(&narrow), expected, "direction {d:?}");
            checked += 1;
        }
        assert!(checked > 19_000, "{checked}");
        for d in [
            VectorD::zeros(),
            VectorD::new(f64::NAN, 1.0, 0.0),
            VectorD::new(0.0, 0.0, 1e300),
        ] {
            assert!(DirectionTable::bin_f64(&d) < DIRECTION_BINS);
        }
    }

    #[test]
    fn bin_centres_map_to_their_own_bin_and_degenerate_directions_stay_in_range() {
        for bin in 0..DIRECTION_BINS {
            let d = DirectionTable::bin_direction(bin);
            assert!((d.norm() - 1.0).abs() < 1e-6);
            assert_eq!(DirectionTable::bin(&d), bin);
            assert_eq!(DirectionTable::bin(&(d * 1e-30)), bin);
            assert_eq!(DirectionTable::bin(&(d * 1e30)), bin);
        }
        assert!(DirectionTable::bin(&Vector::zeros()) < DIRECTION_BINS);
        assert!(DirectionTable::bin(&Vector::new(f32::NAN, 1.0, 0.0)) < DIRECTION_BINS);
        assert!(DirectionTable::bin(&Vector::new(f32::INFINITY, 1.0, 0.0)) < DIRECTION_BINS);
        assert_eq!(
            DirectionTable::bin(&Vector::new(0.0, 0.0, 1.0)) / AZIMUTH_BINS,
            0
        );
        assert_eq!(
            DirectionTable::bin(&Vector::new(0.0, 0.0, -1.0)) / AZIMUTH_BINS,
            7
        );
    }
}
