//! A node volume of tree 2 mapped into tree 1's frame once per query, and the small cache that
//! keeps those placements while a traversal tests one node of tree 2 against many of tree 1.
//!
//! Rationale. Every pair test of a tree-2 node `b` maps `b`'s axes and centre by the pair
//! frame's `R`, `t` (`R B`, `R c + t`: 36 multiplications for a box) before comparing them with
//! the tree-1 node. The simultaneous traversal opens one node per step and tests both children
//! against the other node, so about half of the pairs reuse the previous pair's tree-2 node, and
//! subtrees revisit it further. [`PlacementCache`] is direct-mapped by node index with a fixed
//! number of entries (memory does not grow with the mesh; a collision only recomputes), each
//! tagged with the query it belongs to, so a new query (another pose or other trees) never reads
//! a stale placement. A placement is a pure function of the node's volume and the frame, so
//! the pair tests decide exactly as they would on a freshly placed volume.

use super::{BvhPairFrame, BvhVolume};
use colldet_geom::math::VectorD;
use nalgebra::Matrix3;

/// A tree-2 node volume mapped into tree 1's frame by a [`BvhPairFrame`] (`f64`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlacedVolume {
    /// The volume's axes (columns) mapped into frame 1: `R B` for a box or RSS, `R` for an AABB.
    pub axes: Matrix3<f64>,
    /// The volume's centre mapped into frame 1: `R c + t`.
    pub center: VectorD,
    /// Half extents along the axes, widened exactly from `f32` (an RSS: its two half lengths
    /// and its radius).
    pub half_extents: VectorD,
}

/// Entries of a [`PlacementCache`] (a power of two): 32 KiB of placements, enough for the nodes
/// a depth-first traversal revisits.
const ENTRIES: usize = 256;

/// One cache slot: the query and node its placement belongs to.
#[derive(Clone, Copy, Debug)]
struct Slot {
    query: u32,
    node: u32,
    placed: PlacedVolume,
}

/// Placements of tree-2 nodes for the current query (see the module rationale). Lives in the
/// caller's [`MeshQueryWorkspace`](super::MeshQueryWorkspace); allocates once, on first use.
#[derive(Clone, Debug, Default)]
pub(super) struct PlacementCache {
    slots: Vec<Slot>,
    /// The current query's tag; slots with another tag are empty. 0 is never a current tag.
    query: u32,
}

impl PlacementCache {
    /// Starts a query: every placement stored so far becomes invalid.
    pub(super) fn start_query(&mut self) {
        if self.slots.is_empty() {
            let empty = Slot {
                query: 0,
                node: 0,
                placed: PlacedVolume {
                    axes: Matrix3::zeros(),
                    center: VectorD::zeros(),
                    half_extents: VectorD::zeros(),
                },
            };
            self.slots = vec![empty; ENTRIES];
        }
        self.query = self.query.wrapping_add(1);
        if self.query == 0 {
            // The tags wrapped: clear them so no slot of 2^32 queries ago looks current.
            self.slots.iter_mut().for_each(|s| s.query = 0);
            self.query = 1;
        }
    }

    /// `volume` (node `node` of tree 2) placed by `frame`, from the cache when this query has
    /// placed it already. [`PlacementCache::start_query`] must have been called for this query.
    #[inline]
    pub(super) fn get<V: BvhVolume>(
        &mut self,
        node: u32,
        volume: &V,
        frame: &BvhPairFrame,
    ) -> &PlacedVolume {
        let slot = &mut self.slots[node as usize & (ENTRIES - 1)];
        if slot.query != self.query || slot.node != node {
            *slot = Slot {
                query: self.query,
                node,
                placed: volume.place(frame),
            };
        }
        &slot.placed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::bvh::{BvhBuildOptions, MeshBvh, ObbRss, Rss};
    use crate::mesh::test_support::{MeshDraws, SplitMix};
    use colldet_geom::math::Isometry;
    use colldet_geom::{Aabb, Obb};
    use colldet_testkit::shapes::{sphere, torus};
    use nalgebra::{Quaternion, Translation3, UnitQuaternion};

    fn random_pose(rng: &mut SplitMix) -> Isometry {
        let mut c = || rng.f64() * 2.0 - 1.0;
        let q = UnitQuaternion::from_quaternion(Quaternion::new(c(), c(), c(), c()));
        let mut t = || (rng.f64() * 3.0 - 1.5) as f32;
        Isometry::from_parts(Translation3::new(t(), t(), t()), q.cast())
    }

    /// One cache over many queries, alternating between two tree-2s (same node indices, other
    /// volumes) and changing the pose each time, visiting node pairs in random order: every
    /// placement it returns equals a fresh one, and so does every pair decision.
    fn cached_equals_fresh<V: BvhVolume>() {
        let options = BvhBuildOptions::default();
        let tree1 = MeshBvh::<V>::build(&torus(1.0, 0.3, 24, 12).unwrap(), &options).unwrap();
        let trees2 = [
            MeshBvh::<V>::build(&sphere(0.8, 20, 12).unwrap(), &options).unwrap(),
            MeshBvh::<V>::build(&torus(0.7, 0.2, 20, 10).unwrap(), &options).unwrap(),
        ];
        let mut rng = SplitMix(0x91ace);
        let mut cache = PlacementCache::default();
        let (mut kept, mut pruned) = (0usize, 0usize);
        for query in 0..120 {
            let tree2 = &trees2[query % 2];
            let frame = BvhPairFrame::new(&random_pose(&mut rng), &tree1, tree2).unwrap();
            cache.start_query();
            let (n1, n2) = (tree1.nodes(), tree2.nodes());
            for _ in 0..3000 {
                // Mostly a few nodes of tree 2, so hits, collisions and refills all occur.
                let b = if rng.f64() < 0.7 {
                    rng.index(n2.len().min(40))
                } else {
                    rng.index(n2.len())
                };
                let a = &n1[rng.index(n1.len())].volume;
                let vb = &n2[b].volume;
                let placed = *cache.get(b as u32, vb, &frame);
                assert_eq!(
                    placed,
                    vb.place(&frame),
                    "{} query {query} node {b}",
                    V::NAME
                );
                let decision = a.overlaps_placed(vb, &placed, &frame);
                assert_eq!(decision, a.overlaps(vb, &frame));
                if decision {
                    kept += 1;
                } else {
                    pruned += 1;
                }
            }
        }
        // Both decisions occur, so the comparison covers both.
        assert!(kept > 1000 && pruned > 1000, "{} {kept} {pruned}", V::NAME);
    }

    #[test]
    fn cached_placements_equal_fresh_ones() {
        cached_equals_fresh::<Aabb>();
        cached_equals_fresh::<Obb>();
        cached_equals_fresh::<ObbRss>();
        cached_equals_fresh::<Rss>();
    }

    /// When the query tags wrap around, slots of the query that had the new tag long ago are
    /// not read as current.
    #[test]
    fn wrapped_query_tags_do_not_revive_old_placements() {
        let options = BvhBuildOptions::default();
        let tree = MeshBvh::<Obb>::build(&sphere(1.0, 12, 8).unwrap(), &options).unwrap();
        let mut rng = SplitMix(5);
        let old = BvhPairFrame::new(&random_pose(&mut rng), &tree, &tree).unwrap();
        let new = BvhPairFrame::new(&random_pose(&mut rng), &tree, &tree).unwrap();
        let volume = &tree.nodes()[3].volume;
        let mut cache = PlacementCache::default();
        cache.start_query();
        assert_eq!(cache.query, 1);
        cache.get(3, volume, &old);
        // 2^32 - 1 queries later the tag comes round to 1 again.
        cache.query = u32::MAX;
        cache.start_query();
        assert_eq!(cache.query, 1);
        assert_eq!(*cache.get(3, volume, &new), volume.place(&new));
        assert_ne!(volume.place(&old), volume.place(&new));
    }
}
