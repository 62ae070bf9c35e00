//! A dynamic AABB tree (after Box2D's `b2DynamicTree`): leaves hold fattened boxes and are
//! inserted by a surface-area heuristic, kept balanced by AVL-style rotations, and only
//! re-inserted when the tight box leaves its fat box.
//!
//! Rationale (pair maintenance):
//! - Invariant: after every [`BroadPhase::overlapping_pairs`], the persistent pair set holds
//!   every pair of leaves whose *fat* boxes overlap (and only such pairs).
//! - A pair whose fat boxes both stayed unchanged keeps its fat-overlap status, so only leaves
//!   re-inserted since the last call ("moved") are queried against the whole tree; a moved leaf
//!   `m` finding a moved leaf `o < m` skips it, since `o`'s own query adds the pair. When many
//!   leaves moved, one traversal of the tree against itself rebuilds the whole set instead.
//! - The output walks the set once: pairs whose fat boxes separated are dropped, and a pair is
//!   reported iff its *tight* boxes overlap. Tight boxes lie inside fat boxes, so no pair is
//!   missed, and reporting tests the tight boxes, so no false pair is reported.
//! - `update` only records: a leaf whose tight box left its fat box is marked stale, and the
//!   pair pass re-inserts the stale leaves, or, when many are stale (everything moving), gives
//!   them new fat boxes and rebuilds the whole tree top down by median splits (as Box2D v3
//!   rebuilds its moving-body tree), which also lays the nodes out in traversal order.
//! - Leaf node indices stay fixed while a proxy lives (re-insertion detaches and re-attaches the
//!   same node), so the set is keyed by leaf node. A removed proxy's leaf leaves the tree at once
//!   but its node is recycled only after the next pair pass has purged its pairs.
//! - The margin is relative to the box (a fraction of its largest edge), so a 1e-12 box and a
//!   1e6 box behave alike; a zero-size box gets a zero margin and is re-inserted on every move.

mod tree_insert;
mod tree_query;
mod tree_rebuild;
mod tree_validation;

use colldet_geom::WorldAabb;

use crate::broad_phase::{BroadPhase, BroadPhaseError, ProxyId, ProxyPair, check_box};
use crate::pair_set::{PairSet, PairSortScratch, pack, sorted_proxy_pairs, unpack};

/// Marks a missing node or an id without a leaf.
const NONE: u32 = u32::MAX;

/// Tuning of a [`DynamicTree`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynamicTreeOptions {
    /// Fat-box margin on every side, as a fraction of the tight box's largest edge. Larger
    /// margins mean fewer re-insertions and more candidate pairs. Must be finite and `>= 0`.
    pub margin: f64,
}

impl Default for DynamicTreeOptions {
    fn default() -> Self {
        Self { margin: 0.1 }
    }
}

/// What the last pair pass did, for benchmarks and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DynamicTreeStats {
    /// Leaves whose tight box had left the fat box and were given a new fat box.
    pub refattened: u64,
    /// The tree was rebuilt top down (many leaves re-fattened) instead of re-inserting them.
    pub rebuilt: bool,
    /// The pairs were found by a traversal of the tree against itself (many leaves moved)
    /// instead of one query per moved leaf.
    pub self_traversal: bool,
}

/// A node: a leaf (one proxy) or an internal node with two children.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// Leaf: the fat box of the proxy. Internal: the union of the children's boxes.
    pub(crate) fat: WorldAabb,
    /// Parent node, or `NONE` for the root (and for free nodes).
    pub(crate) parent: u32,
    /// Children; `[NONE, NONE]` for a leaf.
    pub(crate) children: [u32; 2],
    /// Leaves are 0; free nodes are -1.
    pub(crate) height: i32,
    /// Proxy id of a leaf.
    pub(crate) proxy: ProxyId,
}

impl Node {
    #[inline]
    pub(crate) fn is_leaf(&self) -> bool {
        self.children[0] == NONE
    }
}

/// Dynamic AABB tree over world AABBs: exact closed-box overlap (touching counts).
///
/// Proxy ids index a table directly, so memory grows with the largest id used. `insert` and
/// `remove` change the tree at once (O(log n)); `update` is O(1) and only marks a leaf whose
/// tight box left its fat box. [`BroadPhase::overlapping_pairs`] then re-inserts the marked
/// leaves (or rebuilds the tree when more than 1/8 are marked), queries each moved leaf (or
/// traverses the tree against itself when more than 1/8 moved), and walks the persistent pair
/// set.
#[derive(Clone, Debug)]
pub struct DynamicTree {
    options: DynamicTreeOptions,
    pub(crate) nodes: Vec<Node>,
    pub(crate) root: u32,
    /// Free nodes, chained through `parent`.
    free_list: u32,
    /// Tight box of each leaf node (unused for other nodes).
    pub(crate) tight: Vec<WorldAabb>,
    /// Leaf node of each proxy id, or `NONE`.
    pub(crate) leaf_of: Vec<u32>,
    /// Per node: inserted, or out of its fat box, since the last pair pass.
    moved: Vec<bool>,
    /// Per node: a leaf whose tight box left its fat box; re-inserted by the next pair pass.
    stale: Vec<bool>,
    moved_list: Vec<u32>,
    /// Leaves of removed proxies awaiting the pair purge; their nodes are not yet free.
    dead: Vec<u32>,
    /// Per node: a removed leaf awaiting the purge.
    is_dead: Vec<bool>,
    /// Leaf pairs whose fat boxes overlap, as of the last pair pass.
    pairs: PairSet,
    pub(crate) live: usize,
    // Scratch reused between calls.
    stack: Vec<u32>,
    pair_stack: Vec<(u32, u32)>,
    rebuild_leaves: Vec<u32>,
    rebuild_internals: Vec<u32>,
    stats: DynamicTreeStats,
    keys: Vec<u64>,
    sorted_keys: PairSortScratch,
}

impl Default for DynamicTree {
    fn default() -> Self {
        Self::with_options(DynamicTreeOptions::default())
    }
}

impl DynamicTree {
    /// An empty tree with the default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty tree. A negative or non-finite margin is replaced by the default.
    pub fn with_options(options: DynamicTreeOptions) -> Self {
        let options = if options.margin.is_finite() && options.margin >= 0.0 {
            options
        } else {
            DynamicTreeOptions::default()
        };
        Self {
            options,
            nodes: Vec::new(),
            root: NONE,
            free_list: NONE,
            tight: Vec::new(),
            leaf_of: Vec::new(),
            moved: Vec::new(),
            moved_list: Vec::new(),
            dead: Vec::new(),
            is_dead: Vec::new(),
            pairs: PairSet::default(),
            live: 0,
            stack: Vec::new(),
            pair_stack: Vec::new(),
            rebuild_leaves: Vec::new(),
            rebuild_internals: Vec::new(),
            stats: DynamicTreeStats::default(),
            stale: Vec::new(),
            keys: Vec::new(),
            sorted_keys: PairSortScratch::default(),
        }
    }

    /// What the last [`BroadPhase::overlapping_pairs`] did.
    pub fn stats(&self) -> DynamicTreeStats {
        self.stats
    }

    /// The options in use.
    pub fn options(&self) -> DynamicTreeOptions {
        self.options
    }

    /// Height of the tree (0 for a single leaf or an empty tree).
    pub fn height(&self) -> u32 {
        if self.root == NONE {
            0
        } else {
            self.nodes[self.root as usize].height as u32
        }
    }

    fn leaf(&self, id: ProxyId) -> Option<u32> {
        self.leaf_of
            .get(id as usize)
            .copied()
            .filter(|&leaf| leaf != NONE)
    }

    /// The fat box of `tight`: every side moved out by `margin * largest edge`. A side whose
    /// widened coordinate would overflow keeps the tight coordinate.
    fn fatten(&self, tight: &WorldAabb, factor: f64) -> WorldAabb {
        let extent = tight.maxs - tight.mins;
        let m = factor * self.options.margin * extent.x.max(extent.y).max(extent.z);
        let mut fat = *tight;
        if m.is_finite() {
            for k in 0..3 {
                let (lo, hi) = (tight.mins[k] - m, tight.maxs[k] + m);
                if lo.is_finite() {
                    fat.mins[k] = lo;
                }
                if hi.is_finite() {
                    fat.maxs[k] = hi;
                }
            }
        }
        fat
    }

    fn mark_moved(&mut self, leaf: u32) {
        if !self.moved[leaf as usize] {
            self.moved[leaf as usize] = true;
            self.moved_list.push(leaf);
        }
    }

    /// Adds to the pair set every leaf whose fat box overlaps the fat box of the moved `leaf`
    /// (skipping moved leaves with a smaller index, which find `leaf` themselves).
    fn query_moved(&mut self, leaf: u32) {
        let fat = self.nodes[leaf as usize].fat;
        self.stack.clear();
        if self.root != NONE {
            self.stack.push(self.root);
        }
        while let Some(index) = self.stack.pop() {
            let node = &self.nodes[index as usize];
            if !node.fat.overlaps(&fat) {
                continue;
            }
            if node.is_leaf() {
                if index != leaf && !(self.moved[index as usize] && index < leaf) {
                    self.pairs.insert(pack(leaf, index));
                }
            } else {
                self.stack.extend_from_slice(&node.children);
            }
        }
    }
}

/// When more than `1 / SELF_TRAVERSAL_FRACTION` of the leaves were re-inserted, one traversal of
/// the tree against itself is cheaper than a query per re-inserted leaf (the queries share their
/// top levels and miss the cache on every node).
const SELF_TRAVERSAL_FRACTION: usize = 8;

/// When more than `1 / REBUILD_FRACTION` of the leaves need a new fat box, rebuilding the tree
/// top down is cheaper than re-inserting them one by one (and gives a tree with better locality).
const REBUILD_FRACTION: usize = 8;

impl DynamicTree {
    /// Gives every stale leaf a new fat box around its tight box, re-inserting it or, when many
    /// are stale, rebuilding the tree.
    fn refresh_stale_leaves(&mut self) {
        let mut refattened = 0;
        for i in 0..self.moved_list.len() {
            let leaf = self.moved_list[i] as usize;
            if self.stale[leaf] {
                refattened += 1;
            }
        }
        self.stats.refattened = refattened as u64;
        self.stats.rebuilt = refattened * REBUILD_FRACTION > self.live;
        for i in 0..self.moved_list.len() {
            let leaf = self.moved_list[i];
            if !self.stale[leaf as usize] {
                continue;
            }
            self.stale[leaf as usize] = false;
            if !self.stats.rebuilt {
                self.remove_leaf(leaf);
            }
            let tight = self.tight[leaf as usize];
            self.nodes[leaf as usize].fat = self.fatten(&tight, 1.0);
            if !self.stats.rebuilt {
                self.insert_leaf(leaf);
            }
        }
        if self.stats.rebuilt {
            self.rebuild();
        }
    }

    /// Replaces the pair set with every pair of leaves whose fat boxes overlap, by a
    /// simultaneous descent of the tree against itself (each unordered node pair visited once).
    fn collect_all_fat_pairs(&mut self) {
        self.pairs.clear();
        self.pair_stack.clear();
        if self.root != NONE {
            self.pair_stack.push((self.root, self.root));
        }
        while let Some((a, b)) = self.pair_stack.pop() {
            let node_a = &self.nodes[a as usize];
            if a == b {
                if !node_a.is_leaf() {
                    let [c0, c1] = node_a.children;
                    self.pair_stack.extend([(c0, c0), (c1, c1), (c0, c1)]);
                }
                continue;
            }
            let node_b = &self.nodes[b as usize];
            if !node_a.fat.overlaps(&node_b.fat) {
                continue;
            }
            match (node_a.is_leaf(), node_b.is_leaf()) {
                (true, true) => {
                    self.pairs.insert(pack(a, b));
                }
                (false, true) => {
                    let [c0, c1] = node_a.children;
                    self.pair_stack.extend([(c0, b), (c1, b)]);
                }
                (true, false) => {
                    let [c0, c1] = node_b.children;
                    self.pair_stack.extend([(a, c0), (a, c1)]);
                }
                (false, false) => {
                    // Descend the taller subtree: keeps the pair depths even.
                    if node_a.height >= node_b.height {
                        let [c0, c1] = node_a.children;
                        self.pair_stack.extend([(c0, b), (c1, b)]);
                    } else {
                        let [c0, c1] = node_b.children;
                        self.pair_stack.extend([(a, c0), (a, c1)]);
                    }
                }
            }
        }
    }
}

impl BroadPhase for DynamicTree {
    fn insert(&mut self, id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError> {
        check_box(id, aabb)?;
        if self.leaf(id).is_some() {
            return Err(BroadPhaseError::AlreadyPresent(id));
        }
        let fat = self.fatten(aabb, 1.0);
        let leaf = self.allocate_node(fat, id);
        self.tight[leaf as usize] = *aabb;
        if self.leaf_of.len() <= id as usize {
            self.leaf_of.resize(id as usize + 1, NONE);
        }
        self.leaf_of[id as usize] = leaf;
        self.insert_leaf(leaf);
        self.mark_moved(leaf);
        self.live += 1;
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError> {
        check_box(id, aabb)?;
        let leaf = self.leaf(id).ok_or(BroadPhaseError::NotPresent(id))?;
        self.tight[leaf as usize] = *aabb;
        let fat = self.nodes[leaf as usize].fat;
        // Re-insert when the box left its fat box, or when the fat box became much too large
        // (a shrunk object would otherwise keep collecting candidate pairs).
        let contains = |outer: &WorldAabb, inner: &WorldAabb| {
            (0..3).all(|k| outer.mins[k] <= inner.mins[k] && inner.maxs[k] <= outer.maxs[k])
        };
        if contains(&fat, aabb) && contains(&self.fatten(aabb, 4.0), &fat) {
            return Ok(());
        }
        // Deferred to the pair pass, which re-inserts a few leaves or rebuilds for many.
        self.stale[leaf as usize] = true;
        self.mark_moved(leaf);
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let leaf = self.leaf(id).ok_or(BroadPhaseError::NotPresent(id))?;
        self.leaf_of[id as usize] = NONE;
        self.remove_leaf(leaf);
        self.is_dead[leaf as usize] = true;
        self.dead.push(leaf);
        self.live -= 1;
        Ok(())
    }

    fn len(&self) -> usize {
        self.live
    }

    fn query(
        &self,
        probe: &mut dyn FnMut(&WorldAabb) -> bool,
        out: &mut Vec<(ProxyId, WorldAabb)>,
    ) {
        self.query_tree(probe, out);
    }

    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        if !self.dead.is_empty() {
            let is_dead = &self.is_dead;
            self.pairs.retain(|&key| {
                let (a, b) = unpack(key);
                !is_dead[a as usize] && !is_dead[b as usize]
            });
            for i in 0..self.dead.len() {
                let leaf = self.dead[i];
                self.is_dead[leaf as usize] = false;
                self.moved[leaf as usize] = false;
                self.stale[leaf as usize] = false;
                self.free_node(leaf);
            }
            self.dead.clear();
        }
        self.refresh_stale_leaves();
        self.stats.self_traversal = self.moved_list.len() * SELF_TRAVERSAL_FRACTION > self.live;
        if self.stats.self_traversal {
            self.collect_all_fat_pairs();
        } else {
            for i in 0..self.moved_list.len() {
                let leaf = self.moved_list[i];
                // Leaves removed after moving were freed above.
                if self.moved[leaf as usize] {
                    self.query_moved(leaf);
                }
            }
        }
        for &leaf in &self.moved_list {
            self.moved[leaf as usize] = false;
        }
        self.moved_list.clear();

        self.keys.clear();
        let (nodes, tight, keys) = (&self.nodes, &self.tight, &mut self.keys);
        self.pairs.retain(|&key| {
            let (a, b) = unpack(key);
            let (a, b) = (a as usize, b as usize);
            if !nodes[a].fat.overlaps(&nodes[b].fat) {
                return false;
            }
            if tight[a].overlaps(&tight[b]) {
                keys.push(key);
            }
            true
        });
        sorted_proxy_pairs(
            self.keys.iter().copied(),
            |leaf| nodes[leaf as usize].proxy,
            &mut self.sorted_keys,
            None,
            out,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::cube;
    use colldet_geom::math::PointD;

    fn pairs_of(tree: &mut DynamicTree) -> Vec<ProxyPair> {
        let mut out = Vec::new();
        tree.overlapping_pairs(&mut out);
        tree.validate().unwrap();
        out
    }

    #[test]
    fn fat_neighbours_are_not_reported_until_tight_boxes_touch() {
        let mut tree = DynamicTree::new();
        tree.insert(3, &cube(0.0, 1.0)).unwrap();
        tree.insert(1, &cube(1.05, 1.0)).unwrap();
        tree.insert(7, &cube(2.0, 1.0)).unwrap();
        // Fat boxes of 3 and 1 overlap (margin 0.1), tight ones do not.
        assert_eq!(pairs_of(&mut tree), vec![ProxyPair(1, 7)]);
        // 1 slides left inside its fat box to touch 3 exactly.
        tree.update(1, &cube(1.0, 1.0)).unwrap();
        assert_eq!(pairs_of(&mut tree), vec![ProxyPair(1, 3), ProxyPair(1, 7)]);
        // 7 jumps far away; a zero-size box sits on 3's min corner.
        tree.update(7, &cube(1e6, 1.0)).unwrap();
        tree.insert(0, &cube(0.0, 0.0)).unwrap();
        assert_eq!(pairs_of(&mut tree), vec![ProxyPair(0, 3), ProxyPair(1, 3)]);
    }

    #[test]
    fn bad_input_is_refused_and_the_tree_stays_usable() {
        let mut tree = DynamicTree::new();
        tree.insert(0, &cube(0.0, 1.0)).unwrap();
        tree.insert(1, &cube(0.5, 1.0)).unwrap();
        let nan = WorldAabb::new(PointD::new(0.0, f64::NAN, 0.0), PointD::new(1.0, 1.0, 1.0));
        let inverted = WorldAabb::new(PointD::new(0.0, 0.0, 2.0), PointD::new(1.0, 1.0, 1.0));
        assert_eq!(tree.insert(2, &nan), Err(BroadPhaseError::InvalidBox(2)));
        assert_eq!(
            tree.update(0, &inverted),
            Err(BroadPhaseError::InvalidBox(0))
        );
        assert_eq!(
            tree.insert(0, &cube(3.0, 1.0)),
            Err(BroadPhaseError::AlreadyPresent(0))
        );
        assert_eq!(tree.remove(5), Err(BroadPhaseError::NotPresent(5)));
        assert_eq!(
            tree.update(u32::MAX, &cube(0.0, 1.0)),
            Err(BroadPhaseError::NotPresent(u32::MAX))
        );
        assert_eq!(pairs_of(&mut tree), vec![ProxyPair(0, 1)]);
        tree.remove(1).unwrap();
        tree.insert(1, &cube(8.0, 1.0)).unwrap();
        tree.insert(2, &cube(8.5, 1.0)).unwrap();
        tree.remove(2).unwrap();
        assert!(pairs_of(&mut tree).is_empty());
        tree.update(1, &cube(0.75, 1.0)).unwrap();
        assert_eq!(pairs_of(&mut tree), vec![ProxyPair(0, 1)]);
        assert_eq!(tree.len(), 2);
    }

    #[test]
    fn bad_margin_falls_back_to_the_default() {
        let tree = DynamicTree::with_options(DynamicTreeOptions { margin: f64::NAN });
        assert_eq!(tree.options(), DynamicTreeOptions::default());
        let tree = DynamicTree::with_options(DynamicTreeOptions { margin: 0.5 });
        assert_eq!(tree.options().margin, 0.5);
    }

    #[test]
    fn a_thousand_boxes_in_a_row_make_a_balanced_tree() {
        let mut tree = DynamicTree::new();
        for i in 0..1000 {
            tree.insert(i, &cube(f64::from(i) * 2.0, 1.0)).unwrap();
        }
        assert!(pairs_of(&mut tree).is_empty());
        // AVL balance: height <= 1.44 log2(n + 2).
        assert!(tree.height() <= 15, "height {}", tree.height());
    }
}
