//! Top-down rebuild of the whole tree by median splits, keeping every leaf's node index.
//!
//! Rationale: leaf indices key the persistent pair set, so they must survive; the internal nodes
//! (always `leaves - 1` of them) are reused in ascending index order and assigned in preorder,
//! so a parent precedes its children in memory and traversals walk mostly forward.

use super::{DynamicTree, NONE};

impl DynamicTree {
    /// Rebuilds the tree over its current leaves (with their current fat boxes): each node splits
    /// its leaves at the median centre along the longest axis of the centres' bounds. Height
    /// `ceil(log2 n)`; O(n log n).
    pub(super) fn rebuild(&mut self) {
        if self.root == NONE {
            return;
        }
        let mut leaves = std::mem::take(&mut self.rebuild_leaves);
        let mut internals = std::mem::take(&mut self.rebuild_internals);
        leaves.clear();
        internals.clear();
        self.stack.clear();
        self.stack.push(self.root);
        while let Some(index) = self.stack.pop() {
            let node = &self.nodes[index as usize];
            if node.is_leaf() {
                leaves.push(index);
            } else {
                internals.push(index);
                self.stack.extend_from_slice(&node.children);
            }
        }
        internals.sort_unstable();
        let mut next = 0;
        self.root = self.build_subtree(&mut leaves, &internals, &mut next);
        self.nodes[self.root as usize].parent = NONE;
        self.rebuild_leaves = leaves;
        self.rebuild_internals = internals;
    }

    /// Builds the subtree over `leaves` (non-empty), taking internal nodes from
    /// `internals[*next..]`. Returns its root; the caller sets the root's parent.
    fn build_subtree(&mut self, leaves: &mut [u32], internals: &[u32], next: &mut usize) -> u32 {
        if let [leaf] = leaves {
            return *leaf;
        }
        let index = internals[*next];
        *next += 1;
        // Halving both coordinates first keeps the centre finite for any finite box.
        let centre = |nodes: &[super::Node], leaf: u32, axis: usize| {
            let b = &nodes[leaf as usize].fat;
            0.5 * b.mins[axis] + 0.5 * b.maxs[axis]
        };
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for &leaf in leaves.iter() {
            for k in 0..3 {
                let c = centre(&self.nodes, leaf, k);
                lo[k] = lo[k].min(c);
                hi[k] = hi[k].max(c);
            }
        }
        let spread = [0, 1, 2].map(|k| hi[k] - lo[k]);
        let axis = (0..3)
            .max_by(|&a, &b| spread[a].total_cmp(&spread[b]))
            .unwrap_or(0);
        let mid = leaves.len() / 2;
        let nodes = &self.nodes;
        leaves.select_nth_unstable_by(mid, |&a, &b| {
            centre(nodes, a, axis).total_cmp(&centre(nodes, b, axis))
        });
        let (left, right) = leaves.split_at_mut(mid);
        let c0 = self.build_subtree(left, internals, next);
        let c1 = self.build_subtree(right, internals, next);
        let (n0, n1) = (self.nodes[c0 as usize], self.nodes[c1 as usize]);
        self.nodes[c0 as usize].parent = index;
        self.nodes[c1 as usize].parent = index;
        let node = &mut self.nodes[index as usize];
        node.children = [c0, c1];
        node.height = 1 + n0.height.max(n1.height);
        node.fat = n0.fat.merged(&n1.fat);
        index
    }
}
