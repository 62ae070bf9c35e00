//! Inclusive boxes of integer cell coordinates and their box difference.
//!
//! The difference `A \ B` of two cell boxes is cut into at most six disjoint slabs (thesis
//! section 5.4.3, "entering boxes"): peel off the part of `A` below and above `B` along x, then
//! along y inside the remaining x range, then along z inside the remaining x and y ranges. What is
//! left is `A ∩ B`, so the slabs are disjoint and their union is exactly `A \ B`. The thesis prints
//! the formulas with garbled indices; this construction is the one they describe.

/// A box of integer cell coordinates, inclusive on both ends: cells `lo[a] ..= hi[a]` on axis `a`
/// (x, y, z). Well formed when `lo[a] <= hi[a]` on every axis; such a box is never empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellRange {
    /// Smallest cell coordinate on each axis.
    pub lo: [u32; 3],
    /// Largest cell coordinate on each axis (inclusive).
    pub hi: [u32; 3],
}

/// The pieces of a box difference: at most six disjoint slabs, stored inline (no allocation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CellRangeDifference {
    slabs: [CellRange; 6],
    len: usize,
}

impl CellRangeDifference {
    /// The slabs, disjoint, whose union is the difference.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[CellRange] {
        &self.slabs[..self.len]
    }

    #[inline]
    fn push(&mut self, slab: CellRange) {
        self.slabs[self.len] = slab;
        self.len += 1;
    }
}

impl CellRange {
    /// The box of the single cell `cell`.
    #[inline]
    pub fn single(cell: [u32; 3]) -> Self {
        Self { lo: cell, hi: cell }
    }

    /// Number of cells in the box.
    #[inline]
    pub fn cell_count(&self) -> u64 {
        (0..3)
            .map(|a| u64::from(self.hi[a] - self.lo[a]) + 1)
            .product()
    }

    /// True when the two boxes share at least one cell.
    #[inline]
    pub fn intersects(&self, other: &CellRange) -> bool {
        (0..3).all(|a| self.lo[a] <= other.hi[a] && other.lo[a] <= self.hi[a])
    }

    /// True when every cell of `other` is a cell of `self`.
    #[inline]
    pub fn contains(&self, other: &CellRange) -> bool {
        (0..3).all(|a| self.lo[a] <= other.lo[a] && other.hi[a] <= self.hi[a])
    }

    /// True when `cell` is a cell of the box.
    #[inline]
    pub fn contains_cell(&self, cell: [u32; 3]) -> bool {
        (0..3).all(|a| self.lo[a] <= cell[a] && cell[a] <= self.hi[a])
    }

    /// The common cells, if any.
    #[inline]
    pub fn intersection(&self, other: &CellRange) -> Option<CellRange> {
        if !self.intersects(other) {
            return None;
        }
        Some(CellRange {
            lo: [0, 1, 2].map(|a| self.lo[a].max(other.lo[a])),
            hi: [0, 1, 2].map(|a| self.hi[a].min(other.hi[a])),
        })
    }

    /// `self \ other` as at most six disjoint slabs (see the file header).
    pub(crate) fn difference(&self, other: &CellRange) -> CellRangeDifference {
        let mut result = CellRangeDifference {
            slabs: [*self; 6],
            len: 0,
        };
        if !self.intersects(other) {
            result.push(*self);
            return result;
        }
        let mut core = *self;
        for a in 0..3 {
            if core.lo[a] < other.lo[a] {
                let mut slab = core;
                slab.hi[a] = other.lo[a] - 1;
                result.push(slab);
                core.lo[a] = other.lo[a];
            }
            if core.hi[a] > other.hi[a] {
                let mut slab = core;
                slab.lo[a] = other.hi[a] + 1;
                result.push(slab);
                core.hi[a] = other.hi[a];
            }
        }
        result
    }

    /// Calls `f` with every cell of the box, x fastest, then y, then z.
    #[inline]
    pub(crate) fn for_each_cell(&self, mut f: impl FnMut([u32; 3])) {
        for z in self.lo[2]..=self.hi[2] {
            for y in self.lo[1]..=self.hi[1] {
                for x in self.lo[0]..=self.hi[0] {
                    f([x, y, z]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_testkit::SplitMix64;
    use std::collections::BTreeSet;

    fn cells(r: &CellRange) -> BTreeSet<[u32; 3]> {
        let mut set = BTreeSet::new();
        r.for_each_cell(|c| {
            set.insert(c);
        });
        set
    }

    fn random_range(rng: &mut SplitMix64) -> CellRange {
        let mut lo = [0; 3];
        let mut hi = [0; 3];
        for a in 0..3 {
            let p = (rng.next_u64() % 7) as u32;
            let q = (rng.next_u64() % 7) as u32;
            lo[a] = p.min(q);
            hi[a] = p.max(q);
        }
        CellRange { lo, hi }
    }

    /// The slabs are disjoint, at most six, and their union is exactly the set difference,
    /// checked cell by cell on 20,000 random pairs in a 7^3 grid.
    #[test]
    fn difference_is_an_exact_disjoint_partition() {
        let mut rng = SplitMix64::new(0x5eed_0005);
        for _ in 0..20_000 {
            let a = random_range(&mut rng);
            let b = random_range(&mut rng);
            let diff = a.difference(&b);
            assert!(diff.as_slice().len() <= 6);
            let expected: BTreeSet<_> = cells(&a).difference(&cells(&b)).copied().collect();
            let mut union = BTreeSet::new();
            let mut total = 0;
            for slab in diff.as_slice() {
                assert!((0..3).all(|k| slab.lo[k] <= slab.hi[k]));
                total += slab.cell_count();
                union.extend(cells(slab));
            }
            assert_eq!(union, expected, "{a:?} \\ {b:?}");
            assert_eq!(
                total,
                expected.len() as u64,
                "slabs overlap: {a:?} \\ {b:?}"
            );
        }
    }

    /// A box that grew by one cell on every side loses nothing and gains six slabs.
    #[test]
    fn grown_box_gains_six_slabs() {
        let old = CellRange {
            lo: [2, 2, 2],
            hi: [3, 3, 3],
        };
        let new = CellRange {
            lo: [1, 1, 1],
            hi: [4, 4, 4],
        };
        assert_eq!(old.difference(&new).as_slice().len(), 0);
        let entering = new.difference(&old);
        assert_eq!(entering.as_slice().len(), 6);
        let total: u64 = entering.as_slice().iter().map(CellRange::cell_count).sum();
        assert_eq!(total, 64 - 8);
    }
}
