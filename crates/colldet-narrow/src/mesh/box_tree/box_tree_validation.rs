//! Structural validation of a box tree, called by tests.

use colldet_geom::bounding::Aabb;

use crate::error::NarrowError;
use crate::mesh::box_tree::box_tree::{BoxTree, BoxTreeNode, split_box};

impl BoxTree {
    /// Checks the tree against the element boxes it was built from:
    ///
    /// * structure: every node is reached exactly once from the root, child and element indices
    ///   are in range, the recorded depth is the deepest leaf's;
    /// * partition: every cut lies strictly inside its node's box, so the leaf boxes (the root box
    ///   cut down along each path) tile the root box, and their volumes add up to the root's
    ///   (to `1e-9` relative);
    /// * root box: it is the union of the element boxes;
    /// * tightness: a leaf stores an element only if the element's AABB meets the leaf's closed box;
    /// * coverage: every element is stored in every leaf whose box its AABB reaches into: going
    ///   down from the root, in the left subtree when the AABB has a point below the cut, in the
    ///   right one when it has a point above it, and in at least one of them when it lies flat in
    ///   the cut plane. Hence every point of an element lies in the closed box of a leaf that
    ///   stores it, which is what makes pruning by closed-box overlap sound.
    ///
    /// # Errors
    /// [`NarrowError::BrokenInvariant`] naming the check and the node or element it failed at.
    pub fn validate(&self, element_boxes: &[Aabb]) -> Result<(), NarrowError> {
        let broken = |what, index| Err(NarrowError::BrokenInvariant { what, index });
        if element_boxes.len() != self.element_count {
            return broken(
                "element box count differs from the tree's",
                element_boxes.len(),
            );
        }
        let mut union = element_boxes[0];
        for b in element_boxes {
            union.merge(b);
        }
        if union != self.root_box {
            return broken("root box is not the union of the element boxes", 0);
        }
        let mut visits = vec![0u32; self.nodes.len()];
        let mut leaves: Vec<(u32, Aabb)> = Vec::new();
        let mut max_depth = 0;
        let mut stack = vec![(0u32, self.root_box, 0u32)];
        while let Some((node, bounds, depth)) = stack.pop() {
            let Some(visit) = visits.get_mut(node as usize) else {
                return broken("child index out of range", node as usize);
            };
            *visit += 1;
            if *visit > 1 {
                return broken("node reached twice", node as usize);
            }
            max_depth = max_depth.max(depth);
            match self.nodes[node as usize] {
                BoxTreeNode::Inner {
                    axis,
                    cut,
                    left,
                    right,
                } => {
                    let axis = axis as usize;
                    if axis > 2 {
                        return broken("cut axis out of range", node as usize);
                    }
                    if !(bounds.mins[axis] < cut && cut < bounds.maxs[axis]) {
                        return broken("cut not strictly inside its box", node as usize);
                    }
                    let (l, r) = split_box(&bounds, axis, cut);
                    stack.push((left, l, depth + 1));
                    stack.push((right, r, depth + 1));
                }
                BoxTreeNode::Leaf { start, len } => {
                    if start as usize + len as usize > self.elements.len() {
                        return broken("leaf element range out of range", node as usize);
                    }
                    for &e in self.leaf(start, len, bounds).elements {
                        let Some(b) = element_boxes.get(e as usize) else {
                            return broken("leaf element id out of range", e as usize);
                        };
                        if !b.overlaps(&bounds) {
                            return broken("leaf stores an element outside its box", e as usize);
                        }
                    }
                    leaves.push((node, bounds));
                }
            }
        }
        if let Some(node) = visits.iter().position(|&v| v == 0) {
            return broken("node unreachable from the root", node);
        }
        if max_depth != self.depth {
            return broken(
                "recorded depth differs from the deepest leaf",
                max_depth as usize,
            );
        }
        let volume = |b: &Aabb| -> f64 {
            (0..3)
                .map(|k| f64::from(b.maxs[k]) - f64::from(b.mins[k]))
                .product()
        };
        let root_volume = volume(&self.root_box);
        if root_volume > 0.0 {
            let sum: f64 = leaves.iter().map(|(_, b)| volume(b)).sum();
            if (sum - root_volume).abs() > 1e-9 * root_volume {
                return broken("leaf volumes do not add up to the root volume", 0);
            }
        }
        let used: usize = leaves
            .iter()
            .map(|&(node, _)| match self.nodes[node as usize] {
                BoxTreeNode::Leaf { len, .. } => len as usize,
                BoxTreeNode::Inner { .. } => 0,
            })
            .sum();
        if used != self.elements.len() {
            return broken("element storage not used exactly by the leaves", used);
        }
        for (e, b) in element_boxes.iter().enumerate() {
            if !self.covers(0, e as u32, b) {
                return broken("element missing from a leaf its box reaches into", e);
            }
        }
        Ok(())
    }

    /// True when element `e` (with AABB `b`) is stored in every leaf below `node` that the
    /// coverage rule of [`Self::validate`] requires.
    fn covers(&self, node: u32, e: u32, b: &Aabb) -> bool {
        match self.nodes[node as usize] {
            BoxTreeNode::Leaf { start, len } => {
                self.elements[start as usize..(start + len) as usize].contains(&e)
            }
            BoxTreeNode::Inner {
                axis,
                cut,
                left,
                right,
            } => {
                let below = b.mins[axis as usize] < cut;
                let above = b.maxs[axis as usize] > cut;
                if below || above {
                    (!below || self.covers(left, e, b)) && (!above || self.covers(right, e, b))
                } else {
                    self.covers(left, e, b) || self.covers(right, e, b)
                }
            }
        }
    }
}
