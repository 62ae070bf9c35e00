//! World coordinates to integer cell coordinates, shared by the uniform grid and the octree.
//!
//! Cells are half-open: along one axis with `n` cells the boundaries are the `f64` values
//! `b_0 = lo < b_1 < ... < b_n = hi` with `b_k = lo + (hi - lo) * (k / n)` rounded once, and cell
//! `k` is `[b_k, b_{k+1})`, except that the universe's max face `b_n` belongs to the last cell.
//! Coordinates below `lo` map to cell 0 and coordinates above `hi` to cell `n - 1` (clamping).
//!
//! The map is computed by a first guess `floor((x - lo) * n / (hi - lo))` corrected against the
//! stored boundaries, so the half-open rule holds exactly for the stored boundaries (a box whose
//! min lies exactly on `b_k` starts in cell `k`, never `k - 1`).
//!
//! Correctness of the pair search does not depend on where the boundaries are, only on the map
//! being non-decreasing: if two closed boxes share a point `x` on an axis, then
//! `cell(min_a) <= cell(x) <= cell(max_a)` and likewise for `b`, so their cell ranges share
//! `cell(x)`. Clamping keeps the map non-decreasing, which is why objects partly or wholly outside
//! the universe are simply attached to the border cells and still collide correctly.

use colldet_geom::WorldAabb;

use crate::broad_phase::BroadPhaseError;
use crate::cell_range::CellRange;

/// The cell boundaries along one axis.
#[derive(Clone, Debug)]
struct AxisCells {
    /// `n + 1` strictly increasing boundaries; `bounds[0]` and `bounds[n]` are the universe faces.
    bounds: Vec<f64>,
    /// `n / (hi - lo)`, for the first guess.
    cells_per_unit: f64,
}

impl AxisCells {
    fn new(lo: f64, hi: f64, n: u32) -> Result<Self, BroadPhaseError> {
        let extent = hi - lo;
        if !(lo.is_finite() && hi.is_finite() && extent.is_finite() && lo < hi) {
            return Err(BroadPhaseError::InvalidUniverse);
        }
        let mut bounds: Vec<f64> = (0..=n)
            .map(|k| lo + extent * (f64::from(k) / f64::from(n)))
            .collect();
        bounds[0] = lo;
        bounds[n as usize] = hi;
        if bounds.windows(2).any(|w| w[0] >= w[1]) {
            return Err(BroadPhaseError::InvalidUniverse);
        }
        Ok(Self {
            bounds,
            cells_per_unit: f64::from(n) / extent,
        })
    }

    fn cell_count(&self) -> u32 {
        (self.bounds.len() - 1) as u32
    }

    /// The cell holding `x` (finite), clamped to `0 ..= n - 1`.
    #[inline]
    fn cell(&self, x: f64) -> u32 {
        let last = self.bounds.len() - 2;
        let guess = ((x - self.bounds[0]) * self.cells_per_unit).floor();
        // `as` saturates; the clamp also maps out-of-universe coordinates to the border cells.
        let mut k = (guess.max(0.0) as usize).min(last);
        while k < last && self.bounds[k + 1] <= x {
            k += 1;
        }
        while k > 0 && self.bounds[k] > x {
            k -= 1;
        }
        k as u32
    }
}

/// The cell layout of a universe box cut into `resolution[a]` half-open cells along axis `a`.
#[derive(Clone, Debug)]
pub(crate) struct CellMapping {
    axes: [AxisCells; 3],
    universe: WorldAabb,
}

impl CellMapping {
    /// The layout, or [`BroadPhaseError::InvalidUniverse`] when the universe is non-finite, empty
    /// or flat on some axis, or too small for `resolution` (two boundaries equal in `f64`).
    /// `resolution` must be non-zero on every axis (checked by the callers).
    pub(crate) fn new(universe: &WorldAabb, resolution: [u32; 3]) -> Result<Self, BroadPhaseError> {
        let axis = |a: usize| AxisCells::new(universe.mins[a], universe.maxs[a], resolution[a]);
        Ok(Self {
            axes: [axis(0)?, axis(1)?, axis(2)?],
            universe: *universe,
        })
    }

    /// The universe box.
    pub(crate) fn universe(&self) -> &WorldAabb {
        &self.universe
    }

    /// Cells per axis.
    pub(crate) fn resolution(&self) -> [u32; 3] {
        [0, 1, 2].map(|a| self.axes[a].cell_count())
    }

    /// The inclusive range of cells a well-formed (finite, non-inverted) box touches, clamped to
    /// the grid.
    #[inline]
    pub(crate) fn cell_range(&self, aabb: &WorldAabb) -> CellRange {
        CellRange {
            lo: [0, 1, 2].map(|a| self.axes[a].cell(aabb.mins[a])),
            hi: [0, 1, 2].map(|a| self.axes[a].cell(aabb.maxs[a])),
        }
    }

    /// The world box of cell `k` on axis `a`: `[bounds[k], bounds[k + 1]]` (half-open except at
    /// the universe's max face).
    #[cfg(test)]
    pub(crate) fn cell_bounds(&self, a: usize, k: u32) -> (f64, f64) {
        let b = &self.axes[a].bounds;
        (b[k as usize], b[k as usize + 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_geom::math::PointD;

    fn universe(lo: f64, hi: f64) -> WorldAabb {
        WorldAabb::new(PointD::new(lo, lo, lo), PointD::new(hi, hi, hi))
    }

    /// Every boundary maps to the cell it opens, the value just below it to the previous cell,
    /// the max face to the last cell, and outside values to the border cells; checked on
    /// awkward (non-dyadic) universes at several scales, including a 1e-12-sized one.
    #[test]
    fn half_open_cells_and_clamping() {
        for (lo, hi, n) in [
            (0.0, 10.0, 7),
            (-3.3, 1.7, 10),
            (1e-12, 3e-12, 13),
            (-1e9, 2e9, 64),
            (0.1, 0.7, 3),
        ] {
            let m = CellMapping::new(&universe(lo, hi), [n, n, n]).unwrap();
            let axis = &m.axes[1];
            for k in 0..n {
                let (b0, b1) = m.cell_bounds(1, k);
                assert!(b0 < b1);
                assert_eq!(axis.cell(b0), k);
                assert_eq!(axis.cell(b0.next_up()), k);
                if k > 0 {
                    assert_eq!(axis.cell(b0.next_down()), k - 1);
                }
                assert_eq!(axis.cell(b1.next_down()), k);
            }
            assert_eq!(axis.cell(hi), n - 1);
            assert_eq!(axis.cell(hi.next_up()), n - 1);
            assert_eq!(axis.cell(hi + (hi - lo) * 1e6), n - 1);
            assert_eq!(axis.cell(lo.next_down()), 0);
            assert_eq!(axis.cell(-f64::MAX), 0);
            assert_eq!(axis.cell(f64::MAX), n - 1);
        }
    }

    /// Non-finite, empty, flat and too-fine universes are refused.
    #[test]
    fn bad_universes_are_refused() {
        let bad = [
            universe(0.0, 0.0),
            universe(1.0, 0.0),
            universe(f64::NAN, 1.0),
            universe(0.0, f64::INFINITY),
            universe(-f64::MAX, f64::MAX),
            universe(1e16, 1e16 + 8.0),
        ];
        for u in &bad {
            assert_eq!(
                CellMapping::new(u, [16, 16, 16]).err(),
                Some(BroadPhaseError::InvalidUniverse),
                "{u:?}"
            );
        }
        let flat = WorldAabb::new(PointD::new(0.0, 0.0, 0.0), PointD::new(1.0, 0.0, 1.0));
        assert!(CellMapping::new(&flat, [2, 2, 2]).is_err());
    }
}
