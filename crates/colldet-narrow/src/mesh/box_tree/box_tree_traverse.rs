//! Simultaneous recursive traversal of two box trees (thesis 3.6.1).
//!
//! The pair state (the 24 clipped edge intervals of [`crate::mesh::box_tree::box_clip`]) is
//! derived incrementally: splitting a box computes its children's states from its own, so a
//! descent never clips a whole box pair from scratch after the roots. When both nodes are inner
//! nodes the tree-1 node is split first and the tree-2 node is split below each of its
//! intersecting children, as in the thesis's outline. Recursion depth is at most the sum of the
//! two trees' depths (each at most 48); no allocation.

use crate::RelativePose;
use core::ops::ControlFlow;

use colldet_geom::bounding::Aabb;

use crate::error::NarrowError;
use crate::mesh::box_tree::box_clip::{ClipFrame, PairClip};
use crate::mesh::box_tree::box_tree::{BoxTree, BoxTreeLeaf, BoxTreeNode, split_box};

/// Visits every pair of non-empty leaves (one of `tree1`, one of `tree2`) whose boxes intersect
/// (empty leaves, cut off by [`crate::mesh::box_tree::BoxTreeOptions::min_empty_fraction`], are
/// skipped with their whole pair), `pos12`
/// mapping tree 2's local frame into tree 1's. Each leaf pair is passed to `leaf_pair` (leaf of
/// tree 1 first, boxes in their own trees' frames); returning [`ControlFlow::Break`] stops the
/// traversal and its value is returned.
///
/// Boxes are tested with the incremental Cyrus-Beck clipping of the thesis: a pair of leaves whose
/// closed boxes touch or intersect is always visited; pairs apart by less than `1e-11` of the
/// pair's coordinate scale may be visited too. Pairs whose ancestors are disjoint are never
/// visited. No allocation.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite pose.
pub fn traverse_box_trees<B, F>(
    tree1: &BoxTree,
    tree2: &BoxTree,
    pos12: &impl RelativePose,
    leaf_pair: F,
) -> Result<Option<B>, NarrowError>
where
    F: FnMut(BoxTreeLeaf<'_>, BoxTreeLeaf<'_>) -> ControlFlow<B>,
{
    let frame = ClipFrame::new(&tree1.root_box, &tree2.root_box, pos12)?;
    Ok(traverse_with_frame(tree1, tree2, &frame, leaf_pair).0)
}

/// [`traverse_box_trees`] with the per-query tables already built (from the two root boxes); also
/// returns the number of box splits (each derives two child pair states).
pub(crate) fn traverse_with_frame<B, F>(
    tree1: &BoxTree,
    tree2: &BoxTree,
    frame: &ClipFrame,
    mut leaf_pair: F,
) -> (Option<B>, u64)
where
    F: FnMut(BoxTreeLeaf<'_>, BoxTreeLeaf<'_>) -> ControlFlow<B>,
{
    let state = frame.initial(&tree1.root_box, &tree2.root_box);
    if !state.overlapping() {
        return (None, 0);
    }
    let mut traversal = Traversal {
        trees: [tree1, tree2],
        frame,
        leaf_pair: &mut leaf_pair,
        splits: 0,
    };
    let found = match traversal.visit([0, 0], [tree1.root_box, tree2.root_box], &state) {
        ControlFlow::Continue(()) => None,
        ControlFlow::Break(b) => Some(b),
    };
    (found, traversal.splits)
}

/// What [`Traversal::descend`] does with each intersecting child pair.
type Next<'n, T, B> = dyn FnMut(&mut T, [u32; 2], [Aabb; 2], &PairClip) -> ControlFlow<B> + 'n;

struct Traversal<'a, F> {
    trees: [&'a BoxTree; 2],
    frame: &'a ClipFrame,
    leaf_pair: &'a mut F,
    splits: u64,
}

impl<F> Traversal<'_, F> {
    /// Visits the pair `nodes` with boxes `boxes`, known to intersect (`state`).
    fn visit<B>(&mut self, nodes: [u32; 2], boxes: [Aabb; 2], state: &PairClip) -> ControlFlow<B>
    where
        F: FnMut(BoxTreeLeaf<'_>, BoxTreeLeaf<'_>) -> ControlFlow<B>,
    {
        let n1 = self.trees[0].nodes[nodes[0] as usize];
        let n2 = self.trees[1].nodes[nodes[1] as usize];
        match (n1, n2) {
            (
                BoxTreeNode::Leaf { start: s1, len: l1 },
                BoxTreeNode::Leaf { start: s2, len: l2 },
            ) => {
                let leaf1 = self.trees[0].leaf(s1, l1, boxes[0]);
                let leaf2 = self.trees[1].leaf(s2, l2, boxes[1]);
                (self.leaf_pair)(leaf1, leaf2)
            }
            (BoxTreeNode::Inner { .. }, BoxTreeNode::Leaf { .. }) => {
                self.descend(0, n1, nodes, boxes, state, &mut |t, nodes, boxes, state| {
                    t.visit(nodes, boxes, state)
                })
            }
            (BoxTreeNode::Leaf { .. }, BoxTreeNode::Inner { .. }) => {
                self.descend(1, n2, nodes, boxes, state, &mut |t, nodes, boxes, state| {
                    t.visit(nodes, boxes, state)
                })
            }
            (BoxTreeNode::Inner { .. }, BoxTreeNode::Inner { .. }) => {
                self.descend(0, n1, nodes, boxes, state, &mut |t, nodes, boxes, state| {
                    t.descend(1, n2, nodes, boxes, state, &mut |t, nodes, boxes, state| {
                        t.visit(nodes, boxes, state)
                    })
                })
            }
        }
    }

    /// Splits the node of tree `which` (the inner node `node`) and calls `next` on each child
    /// whose box intersects the other tree's box.
    fn descend<B>(
        &mut self,
        which: usize,
        node: BoxTreeNode,
        nodes: [u32; 2],
        boxes: [Aabb; 2],
        state: &PairClip,
        next: &mut Next<'_, Self, B>,
    ) -> ControlFlow<B> {
        let BoxTreeNode::Inner {
            axis,
            cut,
            left,
            right,
        } = node
        else {
            return next(self, nodes, boxes, state);
        };
        let axis = axis as usize;
        self.splits += 1;
        let (left_state, right_state) =
            self.frame
                .split(state, which, &boxes[which], axis, cut, &boxes[1 - which]);
        let (left_box, right_box) = split_box(&boxes[which], axis, cut);
        let tree = self.trees[which];
        for (child, child_box, child_state) in [
            (left, left_box, left_state),
            (right, right_box, right_state),
        ] {
            let empty = matches!(tree.nodes[child as usize], BoxTreeNode::Leaf { len: 0, .. });
            if !empty && child_state.overlapping() {
                let mut child_nodes = nodes;
                let mut child_boxes = boxes;
                child_nodes[which] = child;
                child_boxes[which] = child_box;
                next(self, child_nodes, child_boxes, &child_state)?;
            }
        }
        ControlFlow::Continue(())
    }
}
