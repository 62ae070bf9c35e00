//! Structural checks of the dynamic tree, run by the tests.

use super::{DynamicTree, NONE};
use crate::broad_phase::BroadPhaseError::{self, Invariant};

impl DynamicTree {
    /// Checks the tree's invariants: parent and child links agree, internal boxes are the union
    /// of their children's, heights are exact (the rotations keep the tree roughly balanced,
    /// not strictly AVL),
    /// every live proxy's leaf is reachable exactly once, its fat box contains its tight box, and
    /// the free list and removed leaves are disjoint from the tree. Call after
    /// [`crate::BroadPhase::overlapping_pairs`]: a leaf updated out of its fat box since then is
    /// reported (its re-insertion is pending). O(n).
    ///
    /// # Errors
    /// [`BroadPhaseError::Invariant`] describing the first violated invariant.
    pub fn validate(&self) -> Result<(), BroadPhaseError> {
        let mut reached = vec![false; self.nodes.len()];
        let mut leaves = 0usize;
        if self.root != NONE {
            if self.nodes[self.root as usize].parent != NONE {
                return Err(Invariant("root has a parent".into()));
            }
            let mut stack = vec![self.root];
            while let Some(index) = stack.pop() {
                let i = index as usize;
                if reached[i] {
                    return Err(Invariant(format!("node {index} reached twice")));
                }
                reached[i] = true;
                let node = &self.nodes[i];
                if node.is_leaf() {
                    if node.height != 0 {
                        return Err(Invariant(format!(
                            "leaf {index} has height {}",
                            node.height
                        )));
                    }
                    if self.leaf_of.get(node.proxy as usize) != Some(&index) {
                        return Err(Invariant(format!(
                            "leaf {index} not the leaf of proxy {}",
                            node.proxy
                        )));
                    }
                    let (fat, tight) = (&node.fat, &self.tight[i]);
                    if !(0..3).all(|k| fat.mins[k] <= tight.mins[k] && tight.maxs[k] <= fat.maxs[k])
                    {
                        return Err(Invariant(format!(
                            "leaf {index}: fat box does not contain tight box"
                        )));
                    }
                    leaves += 1;
                    continue;
                }
                let [c0, c1] = node.children;
                if c1 == NONE {
                    return Err(Invariant(format!("node {index} has one child")));
                }
                for c in [c0, c1] {
                    if self.nodes[c as usize].parent != index {
                        return Err(Invariant(format!(
                            "child {c} of {index} has another parent"
                        )));
                    }
                }
                let (h0, h1) = (
                    self.nodes[c0 as usize].height,
                    self.nodes[c1 as usize].height,
                );
                if node.height != 1 + h0.max(h1) {
                    return Err(Invariant(format!(
                        "node {index}: height {} over {h0}, {h1}",
                        node.height
                    )));
                }
                if node.fat
                    != self.nodes[c0 as usize]
                        .fat
                        .merged(&self.nodes[c1 as usize].fat)
                {
                    return Err(Invariant(format!(
                        "node {index}: box is not the union of its children"
                    )));
                }
                stack.extend([c0, c1]);
            }
        }
        if leaves != self.live {
            return Err(Invariant(format!("{leaves} leaves, {} proxies", self.live)));
        }
        let mut free = self.free_list;
        while free != NONE {
            if reached[free as usize] {
                return Err(Invariant(format!("free node {free} is in the tree")));
            }
            reached[free as usize] = true;
            free = self.nodes[free as usize].parent;
        }
        for (id, &leaf) in self.leaf_of.iter().enumerate() {
            if leaf != NONE && self.nodes[leaf as usize].proxy as usize != id {
                return Err(Invariant(format!(
                    "id {id} maps to leaf {leaf} of another proxy"
                )));
            }
        }
        Ok(())
    }
}
