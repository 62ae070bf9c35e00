//! [`QueryIndex`]: the world's own index for ray casts and overlap queries, a bounding volume
//! hierarchy over the world boxes of the live objects at their current poses, independent of the
//! broad phase.
//!
//! Layout: a binary tree in one flat array, node 0 the root, the two children of an inner node
//! adjacent, every parent before its children; one object per leaf. Built top-down, each range
//! split where a binned surface-area estimate over the box centres is smallest (12 bins along the
//! axis where the centres spread most; a median split when the bins cannot separate the range).
//!
//! Freshness. The object table logs every pose change and counts additions and removals
//! ([`PoseLog`]). Before a query the world calls [`QueryIndex::update`]: after an addition or a
//! removal it rebuilds; after pose changes only it recomputes the moved objects' leaf boxes and
//! their ancestors (a refit), and rebuilds from the refitted leaves when the refits have grown
//! the inner nodes' total surface area beyond [`REBUILD_GROWTH`] times its value at the build.
//! Leaf boxes are the check's tight world boxes ([`tight_world_aabb`]), so every box holds its
//! object at its current pose and every inner box holds its children. Building and refitting
//! reuse the index's buffers: no allocation once they are large enough.

use colldet_broad::{ProxyId, RAY_BOX_MARGIN, RaySegment};
use colldet_geom::WorldAabb;
use colldet_geom::math::PointD;

use crate::box_update::tight_world_aabb;
use crate::object_table::PlacedObjects;
use crate::pose_log::PoseLog;

/// No node.
const NONE: u32 = u32::MAX;
/// Bins per axis of the split search.
const BINS: usize = 12;
/// Refits may grow the inner nodes' total surface area to this factor of its value at the last
/// build before the tree is rebuilt.
pub(crate) const REBUILD_GROWTH: f64 = 1.5;
/// A refit of more than `1 / FULL_REFIT_SHARE` of the nodes recomputes every inner node in one
/// backward pass instead of walking up from each moved leaf.
const FULL_REFIT_SHARE: usize = 8;

#[derive(Clone, Copy)]
struct Node {
    /// World frame; holds the object (leaf) or both children (inner node).
    aabb: WorldAabb,
    /// Inner node: the first child (the second follows). Leaf: the object's slot.
    index: u32,
    /// The parent, [`NONE`] for the root.
    parent: u32,
    leaf: bool,
}

/// An object being sorted into the tree.
#[derive(Clone, Copy)]
struct Item {
    aabb: Bounds,
    /// Twice the box centre (`mins + maxs`; the factor does not change the splits).
    centre: [f64; 3],
    slot: u32,
}

/// A box as two arrays, for the build's many merges (comparisons only: exact).
#[derive(Clone, Copy)]
struct Bounds {
    lo: [f64; 3],
    hi: [f64; 3],
}

impl Bounds {
    const EMPTY: Self = Self {
        lo: [f64::INFINITY; 3],
        hi: [f64::NEG_INFINITY; 3],
    };

    fn of(b: &WorldAabb) -> Self {
        Self {
            lo: b.mins.coords.into(),
            hi: b.maxs.coords.into(),
        }
    }

    fn world(&self) -> WorldAabb {
        WorldAabb::new(PointD::from(self.lo), PointD::from(self.hi))
    }

    #[inline]
    fn merge(&mut self, other: &Self) {
        for k in 0..3 {
            if other.lo[k] < self.lo[k] {
                self.lo[k] = other.lo[k];
            }
            if other.hi[k] > self.hi[k] {
                self.hi[k] = other.hi[k];
            }
        }
    }

    /// Half the surface area (0 for the empty box's sums are never taken: counts guard them).
    fn half_area(&self) -> f64 {
        let d: [f64; 3] = std::array::from_fn(|k| self.hi[k] - self.lo[k]);
        d[0] * d[1] + d[1] * d[2] + d[2] * d[0]
    }
}

/// Half the surface area of a box.
fn half_area(b: &WorldAabb) -> f64 {
    Bounds::of(b).half_area()
}

/// The empty box (merging it into a box changes nothing).
fn empty_box() -> WorldAabb {
    WorldAabb::new(
        PointD::new(f64::INFINITY, f64::INFINITY, f64::INFINITY),
        PointD::new(f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY),
    )
}

/// The world's query index; see the module documentation.
#[derive(Default)]
pub(crate) struct QueryIndex {
    nodes: Vec<Node>,
    /// The leaf node of each slot ([`NONE`] for a slot without a live object).
    leaf_of: Vec<u32>,
    items: Vec<Item>,
    /// The build's pending ranges: node, first item, end item.
    work: Vec<(u32, u32, u32)>,
    /// The layout count of the [`PoseLog`] at the last build (`None`: never built).
    layout: Option<u64>,
    /// The inner nodes' total half surface area, now and at the last build.
    area: f64,
    built_area: f64,
    /// Builds and refits so far (for tests and benchmarks).
    pub(crate) builds: u64,
    pub(crate) refits: u64,
}

impl QueryIndex {
    /// Brings the index up to date with the objects' current poses and layout (see the module
    /// documentation), consuming the pose log.
    pub fn update(&mut self, placed: &PlacedObjects, slot_count: u32, changes: &mut PoseLog) {
        if self.layout != Some(changes.layout()) {
            // A live slot that has a leaf and no logged pose change (additions log one) keeps
            // its leaf box; the others are computed.
            self.layout = Some(changes.layout());
            self.items.clear();
            for slot in 0..slot_count {
                if let Some((shape, pose, mut hints)) = placed.shape_and_hints(slot) {
                    let leaf = self.leaf_of.get(slot as usize).copied().unwrap_or(NONE);
                    let aabb = if leaf == NONE || changes.is_listed(slot) {
                        tight_world_aabb(shape, pose, &mut hints)
                    } else {
                        self.nodes[leaf as usize].aabb
                    };
                    self.items.push(item(aabb, slot));
                }
            }
            changes.drain(|_| {});
            self.build(slot_count);
            return;
        }
        if !changes.has_poses() {
            return;
        }
        self.refits += 1;
        let full = changes.len() * FULL_REFIT_SHARE > self.nodes.len();
        let (nodes, leaf_of) = (&mut self.nodes, &self.leaf_of);
        let mut area = self.area;
        changes.drain(|slot| {
            let leaf = leaf_of.get(slot as usize).copied().unwrap_or(NONE);
            let Some((shape, pose, mut hints)) = placed.shape_and_hints(slot) else {
                return;
            };
            if leaf == NONE {
                return;
            }
            nodes[leaf as usize].aabb = tight_world_aabb(shape, pose, &mut hints);
            if full {
                return;
            }
            let mut n = nodes[leaf as usize].parent;
            while n != NONE {
                let node = nodes[n as usize];
                let c = node.index as usize;
                let aabb = nodes[c].aabb.merged(&nodes[c + 1].aabb);
                area += half_area(&aabb) - half_area(&node.aabb);
                nodes[n as usize].aabb = aabb;
                n = node.parent;
            }
        });
        if full {
            area = 0.0;
            for n in (0..nodes.len()).rev() {
                if !nodes[n].leaf {
                    let c = nodes[n].index as usize;
                    nodes[n].aabb = nodes[c].aabb.merged(&nodes[c + 1].aabb);
                    area += half_area(&nodes[n].aabb);
                }
            }
        }
        self.area = area;
        if self.area > REBUILD_GROWTH * self.built_area {
            self.items.clear();
            let leaves = self.nodes.iter().filter(|n| n.leaf);
            self.items.extend(leaves.map(|n| item(n.aabb, n.index)));
            self.build(slot_count);
        }
    }

    /// Rebuilds the tree over `boxes` alone (`(slot, world box)`, slots below `slot_count`, each
    /// once), for an index kept apart from the world's objects (the continuous check's index of
    /// the objects at rest, `swept_pairs.rs`); [`QueryIndex::update`] is not called on it.
    pub fn rebuild_from(&mut self, boxes: impl Iterator<Item = (u32, WorldAabb)>, slot_count: u32) {
        self.items.clear();
        self.items
            .extend(boxes.map(|(slot, aabb)| item(aabb, slot)));
        self.layout = None;
        self.build(slot_count);
    }

    /// Builds the tree over `self.items`.
    fn build(&mut self, slot_count: u32) {
        self.builds += 1;
        self.nodes.clear();
        self.leaf_of.clear();
        self.leaf_of.resize(slot_count as usize, NONE);
        self.area = 0.0;
        if !self.items.is_empty() {
            self.nodes.push(Node {
                aabb: empty_box(),
                index: 0,
                parent: NONE,
                leaf: false,
            });
            self.work.push((0, 0, self.items.len() as u32));
        }
        while let Some((node, start, end)) = self.work.pop() {
            let range = &mut self.items[start as usize..end as usize];
            let mut aabb = Bounds::EMPTY;
            let mut centres = Bounds::EMPTY;
            for it in range.iter() {
                aabb.merge(&it.aabb);
                centres.merge(&Bounds {
                    lo: it.centre,
                    hi: it.centre,
                });
            }
            let n = &mut self.nodes[node as usize];
            n.aabb = aabb.world();
            if range.len() == 1 {
                n.leaf = true;
                n.index = range[0].slot;
                self.leaf_of[range[0].slot as usize] = node;
                continue;
            }
            let mid = start + split(range, &centres) as u32;
            let first = self.nodes.len() as u32;
            self.nodes[node as usize].index = first;
            self.area += aabb.half_area();
            for _ in 0..2 {
                self.nodes.push(Node {
                    aabb: empty_box(),
                    index: 0,
                    parent: node,
                    leaf: false,
                });
            }
            self.work.push((first, start, mid));
            self.work.push((first + 1, mid, end));
        }
        self.built_area = self.area;
    }

    /// Walks the leaves whose box the segment may enter, nearer child first, calling `leaf`
    /// with each object's slot; `leaf` returns a bound, and nodes whose conservative entry
    /// parameter ([`RayProbe::enter`]) is strictly above the smallest bound returned so far are
    /// skipped (a node entered exactly at the bound is still visited). `stack` is scratch.
    ///
    /// # Errors
    /// The first error of `leaf`, which ends the walk.
    pub fn walk_ray<E>(
        &self,
        segment: &RaySegment,
        stack: &mut Vec<(u32, f64)>,
        mut leaf: impl FnMut(ProxyId) -> Result<f64, E>,
    ) -> Result<(), E> {
        stack.clear();
        let Some(root) = self.nodes.first() else {
            return Ok(());
        };
        let probe = RayProbe::new(segment, &root.aabb);
        let Some(enter) = probe.enter(&root.aabb) else {
            return Ok(());
        };
        let mut bound = f64::INFINITY;
        stack.push((0, enter));
        while let Some((n, enter)) = stack.pop() {
            if enter > bound {
                continue;
            }
            let node = &self.nodes[n as usize];
            if node.leaf {
                bound = bound.min(leaf(node.index)?);
                continue;
            }
            // A missed child's entry is NaN: never at most the bound.
            let c = node.index;
            let e0 = probe
                .enter(&self.nodes[c as usize].aabb)
                .unwrap_or(f64::NAN);
            let e1 = probe
                .enter(&self.nodes[c as usize + 1].aabb)
                .unwrap_or(f64::NAN);
            // The nearer child is pushed last, so popped first.
            let (near, far) = if e0 <= e1 {
                ((c, e0), (c + 1, e1))
            } else {
                ((c + 1, e1), (c, e0))
            };
            if far.1 <= bound {
                stack.push(far);
            }
            if near.1 <= bound {
                stack.push(near);
            }
        }
        Ok(())
    }

    /// Replaces `out` with `(slot, world box)` of every object whose leaf box passes `probe`
    /// (monotone: true for a box means true for every box containing it), each once. `stack` is
    /// scratch.
    pub fn collect(
        &self,
        probe: &mut dyn FnMut(&WorldAabb) -> bool,
        stack: &mut Vec<(u32, f64)>,
        out: &mut Vec<(ProxyId, WorldAabb)>,
    ) {
        out.clear();
        self.visit(probe, stack, |slot, aabb| out.push((slot, *aabb)));
    }

    /// Calls `leaf` with the slot and leaf box of every object whose leaf box passes `probe`
    /// (monotone, as for [`QueryIndex::collect`]), each once, in tree order. `stack` is scratch.
    #[inline]
    pub fn visit(
        &self,
        mut probe: impl FnMut(&WorldAabb) -> bool,
        stack: &mut Vec<(u32, f64)>,
        mut leaf: impl FnMut(ProxyId, &WorldAabb),
    ) {
        stack.clear();
        if !self.nodes.is_empty() {
            stack.push((0, 0.0));
        }
        while let Some((n, _)) = stack.pop() {
            let node = &self.nodes[n as usize];
            if !probe(&node.aabb) {
                continue;
            }
            if node.leaf {
                leaf(node.index, &node.aabb);
            } else {
                stack.push((node.index + 1, 0.0));
                stack.push((node.index, 0.0));
            }
        }
    }
}

/// A ray segment prepared for many box tests against the boxes of one tree: the box test of
/// [`RaySegment::enter`] with one margin for every box, taken at the root's magnitude (at least
/// each node's, since the root holds every box), so it is at least as wide as that test's own
/// margin for each box; subtracting the origin and the margin in the other order differs by a
/// few ulps of the same magnitudes, far below the margin.
struct RayProbe {
    /// `origin + margin` and `origin - margin`, per axis.
    below: [f64; 3],
    above: [f64; 3],
    inv_dir: [f64; 3],
    /// Per axis: the direction's component is negative (the box's max side is entered first).
    negative: [bool; 3],
    /// Per axis: the direction's component is zero.
    parallel: [bool; 3],
    max_t: f64,
}

impl RayProbe {
    fn new(segment: &RaySegment, root: &WorldAabb) -> Self {
        let o = segment.origin();
        let d = segment.dir();
        let root_magnitude = root.mins.coords.amax().max(root.maxs.coords.amax());
        let margin = RAY_BOX_MARGIN * o.coords.amax().max(root_magnitude) + f64::MIN_POSITIVE;
        Self {
            below: std::array::from_fn(|k| o[k] + margin),
            above: std::array::from_fn(|k| o[k] - margin),
            inv_dir: std::array::from_fn(|k| 1.0 / d[k]),
            negative: std::array::from_fn(|k| d[k] < 0.0),
            parallel: std::array::from_fn(|k| d[k] == 0.0),
            max_t: segment.max_t(),
        }
    }

    /// A lower bound on the parameter where the segment enters `b` grown by the margin, or
    /// `None` when it misses it. A NaN slab parameter (a subnormal direction component) is
    /// ignored, as `f64::max` and `f64::min` ignore it in [`RaySegment::enter`].
    #[inline]
    fn enter(&self, b: &WorldAabb) -> Option<f64> {
        let (mut enter, mut exit) = (0.0f64, self.max_t);
        for k in 0..3 {
            let lo = b.mins[k] - self.below[k];
            let hi = b.maxs[k] - self.above[k];
            if self.parallel[k] {
                if lo > 0.0 || hi < 0.0 {
                    return None;
                }
                continue;
            }
            let (s0, s1) = (lo * self.inv_dir[k], hi * self.inv_dir[k]);
            let (near, far) = if self.negative[k] { (s1, s0) } else { (s0, s1) };
            if near > enter {
                enter = near;
            }
            if far < exit {
                exit = far;
            }
        }
        (enter <= exit).then_some(enter)
    }
}

fn item(aabb: WorldAabb, slot: u32) -> Item {
    let aabb = Bounds::of(&aabb);
    let centre = std::array::from_fn(|k| aabb.lo[k] + aabb.hi[k]);
    Item { aabb, centre, slot }
}

/// Reorders `items` (at least two, their centres within `centres`) into two non-empty parts and
/// returns the length of the first: along the axis where the centres spread most, the bin
/// boundary of least estimated cost (left area x left count + right area x right count), or the
/// median when no boundary separates the items.
fn split(items: &mut [Item], centres: &Bounds) -> usize {
    let half = items.len() / 2;
    let extent: [f64; 3] = std::array::from_fn(|k| centres.hi[k] - centres.lo[k]);
    let k = (0..3).fold(0, |a, k| if extent[k] > extent[a] { k } else { a });
    if !(extent[k] > 0.0 && extent[k].is_finite()) {
        return half;
    }
    let (lo, scale) = (centres.lo[k], BINS as f64 / extent[k]);
    let bin = |c: f64| (((c - lo) * scale) as usize).min(BINS - 1);
    let mut boxes = [Bounds::EMPTY; BINS];
    let mut counts = [0usize; BINS];
    for it in items.iter() {
        let b = bin(it.centre[k]);
        boxes[b].merge(&it.aabb);
        counts[b] += 1;
    }
    // right[i]: the cost term of bins i.. .
    let mut right = [0.0f64; BINS];
    let (mut acc, mut count) = (Bounds::EMPTY, 0usize);
    for i in (1..BINS).rev() {
        acc.merge(&boxes[i]);
        count += counts[i];
        if count > 0 {
            right[i] = acc.half_area() * count as f64;
        }
    }
    let mut best: Option<(f64, usize)> = None;
    let (mut acc, mut count) = (Bounds::EMPTY, 0usize);
    for i in 0..BINS - 1 {
        acc.merge(&boxes[i]);
        count += counts[i];
        if count == 0 || count == items.len() {
            continue;
        }
        let cost = acc.half_area() * count as f64 + right[i + 1];
        if best.is_none_or(|(c, _)| cost < c) {
            best = Some((cost, i));
        }
    }
    let Some((_, last)) = best else {
        items.select_nth_unstable_by(half, |a, b| a.centre[k].total_cmp(&b.centre[k]));
        return half;
    };
    let mut left = 0;
    for i in 0..items.len() {
        if bin(items[i].centre[k]) <= last {
            items.swap(i, left);
            left += 1;
        }
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_testkit::SeededRng;

    fn random_items(n: usize, seed: u64) -> Vec<Item> {
        let mut rng = SeededRng::new(seed);
        (0..n)
            .map(|i| {
                let c = PointD::new(
                    rng.range(-30.0, 30.0),
                    rng.range(-30.0, 30.0),
                    rng.range(-30.0, 30.0),
                );
                let h = rng.range(0.1, 2.0);
                let half = colldet_geom::math::VectorD::repeat(h);
                item(WorldAabb::new(c - half, c + half), i as u32)
            })
            .collect()
    }

    fn depth(index: &QueryIndex, n: u32) -> usize {
        let node = &index.nodes[n as usize];
        if node.leaf {
            1
        } else {
            1 + depth(index, node.index).max(depth(index, node.index + 1))
        }
    }

    /// Every inner box holds its children, every slot has one leaf, parents agree.
    fn check(index: &QueryIndex, n: usize) {
        let mut leaves = 0;
        for (i, node) in index.nodes.iter().enumerate() {
            if node.leaf {
                leaves += 1;
                assert_eq!(index.leaf_of[node.index as usize], i as u32);
                continue;
            }
            for c in [node.index, node.index + 1] {
                let child = &index.nodes[c as usize];
                assert_eq!(child.parent, i as u32);
                assert_eq!(node.aabb.merged(&child.aabb), node.aabb);
            }
        }
        assert_eq!(leaves, n);
    }

    #[test]
    fn builds_a_shallow_consistent_tree() {
        for n in [1usize, 2, 3, 17, 1000] {
            let mut index = QueryIndex {
                items: random_items(n, 7 + n as u64),
                ..Default::default()
            };
            index.build(n as u32);
            check(&index, n);
            let d = depth(&index, 0);
            assert!(
                d <= 3 * (n as f64).log2().ceil() as usize + 1,
                "{n}: depth {d}"
            );
        }
        // Coincident boxes: median splits.
        let one = random_items(1, 3)[0].aabb.world();
        let mut index = QueryIndex {
            items: (0..64).map(|i| item(one, i)).collect(),
            ..Default::default()
        };
        index.build(64);
        check(&index, 64);
        assert_eq!(depth(&index, 0), 7);
    }
}
