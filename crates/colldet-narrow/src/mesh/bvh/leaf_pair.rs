//! The triangles of two leaves met by a mesh distance traversal, in shape 1's frame, and a cheap
//! lower bound on each triangle pair's distance that culls most pairs before the triangle test.
//!
//! Rationale. Any unit direction `n` bounds the distance between two triangles from below by
//! the gap between their projections on it (projection shortens every segment). The direction
//! is the one from leaf 1's vertex mean to leaf 2's: for leaves far apart compared to their
//! sizes it is nearly the direction of every closest pair, so a pair that cannot beat the best
//! distance so far is culled for three dot products per triangle; for close leaves the bound is
//! weak and the triangle test decides. The projections use exactly the `f64` corners the
//! triangle test receives, and the pair frame's margin covers their rounding.

use super::{BvhPairFrame, BvhVolume, MeshBvh, TriangleId};
use colldet_geom::math::{PointD, VectorD};

/// Most triangles a leaf holds ([`super::BvhBuildOptions::max_leaf_triangles`]).
const MAX_LEAF_TRIANGLES: usize = 4;

/// Two leaves' triangles (shape 1's frame) and their projections; one per traversal, refilled at
/// each leaf pair.
pub(super) struct LeafPair {
    /// Leaf 1's triangles, as given, in `f64`.
    pub(super) tri1: [[PointD; 3]; MAX_LEAF_TRIANGLES],
    /// Leaf 2's triangles mapped into shape 1's frame.
    pub(super) tri2: [[PointD; 3]; MAX_LEAF_TRIANGLES],
    /// Largest projection of each of leaf 1's triangles on the direction.
    high1: [f64; MAX_LEAF_TRIANGLES],
    /// Smallest projection of each of leaf 2's triangles on the direction.
    low2: [f64; MAX_LEAF_TRIANGLES],
}

impl LeafPair {
    /// An empty pair of leaves.
    pub(super) fn new() -> Self {
        Self {
            tri1: [[PointD::origin(); 3]; MAX_LEAF_TRIANGLES],
            tri2: [[PointD::origin(); 3]; MAX_LEAF_TRIANGLES],
            high1: [0.0; MAX_LEAF_TRIANGLES],
            low2: [0.0; MAX_LEAF_TRIANGLES],
        }
    }

    /// Loads leaf 1's triangles `r1` and leaf 2's `r2` (mapped by `frame`) and projects them
    /// ([`LeafPair::project`]).
    #[inline(always)]
    pub(super) fn load<V: BvhVolume>(
        &mut self,
        bvh1: &MeshBvh<V>,
        bvh2: &MeshBvh<V>,
        frame: &BvhPairFrame,
        r1: std::ops::Range<u32>,
        r2: std::ops::Range<u32>,
    ) {
        let (n1, n2) = (r1.len(), r2.len());
        for (slot, t) in self.tri1.iter_mut().zip(r1) {
            *slot = bvh1.triangle_f64(TriangleId(t));
        }
        for (slot, t) in self.tri2.iter_mut().zip(r2) {
            *slot = bvh2
                .triangle_f64(TriangleId(t))
                .map(|p| frame.map_point(&p));
        }
        self.project(n1, n2, frame.margin);
    }

    /// Projects the first `n1` triangles of leaf 1 and `n2` of leaf 2 on the direction between
    /// their vertex means; `margin` (absolute, shape 1's units) is taken off every gap (all gaps
    /// are `-inf` when the means coincide: no direction).
    #[inline(always)]
    pub(super) fn project(&mut self, n1: usize, n2: usize, margin: f64) {
        let sum = |tris: &[[PointD; 3]]| {
            tris.iter().fold(VectorD::zeros(), |s, t| {
                s + t[0].coords + t[1].coords + t[2].coords
            })
        };
        let mean =
            sum(&self.tri2[..n2]) / (3 * n2) as f64 - sum(&self.tri1[..n1]) / (3 * n1) as f64;
        let Some(n) = mean.try_normalize(0.0) else {
            self.high1 = [f64::INFINITY; MAX_LEAF_TRIANGLES];
            self.low2 = [f64::NEG_INFINITY; MAX_LEAF_TRIANGLES];
            return;
        };
        for (h, t) in self.high1.iter_mut().zip(&self.tri1[..n1]) {
            let [x, y, z] = t.map(|p| p.coords.dot(&n));
            *h = x.max(y).max(z) + margin;
        }
        for (l, t) in self.low2.iter_mut().zip(&self.tri2[..n2]) {
            let [x, y, z] = t.map(|p| p.coords.dot(&n));
            *l = x.min(y).min(z);
        }
    }

    /// A lower bound on the distance between triangle `i` of leaf 1 and `k` of leaf 2 (`-inf`
    /// without a direction).
    #[inline(always)]
    pub(super) fn gap(&self, i: usize, k: usize) -> f64 {
        self.low2[k] - self.high1[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::bvh::triangle_distance;
    use colldet_testkit::SplitMix64;

    /// A random triangle around `c` of size up to `size`, sometimes nearly flat or degenerate.
    fn triangle(rng: &mut SplitMix64, c: &VectorD, size: f64) -> [PointD; 3] {
        let flat = rng.next_f64() < 0.2;
        std::array::from_fn(|_| {
            let mut d = VectorD::new(rng.next_f64(), rng.next_f64(), rng.next_f64())
                .map(|x| (2.0 * x - 1.0) * size);
            if flat {
                d.z *= 1e-9;
            }
            PointD::from(c + d)
        })
    }

    /// The culling gap never exceeds the triangles' distance (as the triangle test computes
    /// it), with margin 0, on far, near, touching and crossing leaves at scales 1e-3 to 1e3.
    #[test]
    fn gaps_never_exceed_the_triangle_distance() {
        let mut rng = SplitMix64(0x1eaf);
        let mut leaves = LeafPair::new();
        let mut culled = 0;
        for case in 0..20_000 {
            let scale = 10f64.powf(6.0 * rng.next_f64() - 3.0);
            let spread = [0.0, 0.5, 2.0, 20.0][case % 4] * scale;
            let (n1, n2) = (1 + case % 4, 1 + (case / 4) % 4);
            let c1 = VectorD::new(rng.next_f64(), rng.next_f64(), rng.next_f64()) * scale;
            let c2 = c1 + VectorD::new(rng.next_f64(), rng.next_f64(), rng.next_f64()) * spread;
            for t in &mut leaves.tri1[..n1] {
                *t = triangle(&mut rng, &c1, scale);
            }
            for t in &mut leaves.tri2[..n2] {
                *t = triangle(&mut rng, &c2, scale);
            }
            leaves.project(n1, n2, 0.0);
            for i in 0..n1 {
                for k in 0..n2 {
                    let d = triangle_distance(&leaves.tri1[i], &leaves.tri2[k]).distance;
                    let gap = leaves.gap(i, k);
                    // Both sides round: a relative 1e-12 of the scale covers it.
                    assert!(
                        gap <= d + 1e-12 * (scale + spread),
                        "case {case}: gap {gap} > distance {d}"
                    );
                    culled += usize::from(gap > 0.5 * d);
                }
            }
        }
        // Far leaves are mostly tight: the bound is worth computing.
        assert!(culled > 20_000, "{culled} tight gaps");
    }
}
