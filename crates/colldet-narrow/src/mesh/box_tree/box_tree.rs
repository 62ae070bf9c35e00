//! The box tree: an oriented partition tree over an object's local bounding box.
//!
//! Rationale (what a node stores and what is sound to prune). As in the thesis a node stores only
//! its cut (local axis and coordinate) and its two children, or, for a leaf, its element list; a
//! node's box is never stored: it is the root box cut down along the path, so the children of a
//! box are its two halves (not refitted) and the leaf boxes tile the root box. Elements (faces or
//! edges, by index) are classified by their local AABB and stored at leaves only, duplicated when
//! they cross a cut. An element whose AABB only touches a cut plane from one side is stored on that
//! side only; pruning stays sound because every point of an element lies in the closed box of some
//! leaf that stores it (see [`BoxTree::validate`]), and the traversal treats boxes as closed sets.

use colldet_geom::bounding::Aabb;
use colldet_geom::math::Real;

use crate::error::NarrowError;
use crate::mesh::box_tree::BoxTreeOptions;

/// One node of a [`BoxTree`]: a cut with two children, or a leaf with a slice of element ids.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum BoxTreeNode {
    /// The node's box is cut by the plane `x[axis] = cut` (local frame) into `left`
    /// (`x[axis] <= cut`) and `right` (`x[axis] >= cut`).
    Inner {
        axis: u8,
        cut: Real,
        left: u32,
        right: u32,
    },
    /// Elements `elements[start .. start + len]` of the tree are stored here.
    Leaf { start: u32, len: u32 },
}

/// A leaf met during a traversal: its element ids and its box, in the local frame of the tree's
/// object.
#[derive(Clone, Copy, Debug)]
pub struct BoxTreeLeaf<'a> {
    /// Indices (into the element array the tree was built from) of the elements stored here.
    pub elements: &'a [u32],
    /// The leaf's box (closed), in the tree's local frame.
    pub bounds: Aabb,
}

/// A box tree (Zachmann's thesis, section 3.6): a recursive partition of an object's local
/// bounding box by planes perpendicular to a local axis, with elements (polygons or edges, given
/// as their local AABBs) stored at the leaves. Built once per object ([`BoxTree::build`]),
/// traversed pairwise by [`crate::mesh::box_tree::traverse_box_trees`].
#[derive(Clone, Debug)]
pub struct BoxTree {
    pub(crate) root_box: Aabb,
    pub(crate) nodes: Vec<BoxTreeNode>,
    pub(crate) elements: Vec<u32>,
    pub(crate) element_count: usize,
    pub(crate) depth: u32,
}

impl BoxTree {
    /// The root box: the smallest local AABB containing every element box.
    pub fn root_box(&self) -> &Aabb {
        &self.root_box
    }

    /// Number of nodes (inner nodes and leaves).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Number of leaves.
    pub fn leaf_count(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| matches!(n, BoxTreeNode::Leaf { .. }))
            .count()
    }

    /// Number of elements the tree was built over.
    pub fn element_count(&self) -> usize {
        self.element_count
    }

    /// Number of element references stored over all leaves (at least [`Self::element_count`];
    /// more when elements cross cuts and are duplicated; the thesis measured 1.2 to 1.6 times).
    pub fn element_references(&self) -> usize {
        self.elements.len()
    }

    /// Depth of the deepest leaf (the root alone has depth 0).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Builds the tree over `element_boxes` (one local AABB per element; element `i` is reported
    /// as id `i`). See [`BoxTreeOptions`] for the construction rules.
    ///
    /// # Errors
    /// [`NarrowError::EmptyBoxTree`] for no elements, [`NarrowError::NonFinite`] for a box with a
    /// NaN or infinite coordinate, [`NarrowError::BrokenInvariant`] for a box with `mins > maxs`,
    /// and [`NarrowError::InvalidBoxTreeOption`] for options out of range.
    pub fn build(element_boxes: &[Aabb], options: &BoxTreeOptions) -> Result<Self, NarrowError> {
        crate::mesh::box_tree::box_tree_build::build(element_boxes, options)
    }

    /// For each element, whether it is stored in more than one leaf.
    pub(crate) fn duplicated_elements(&self) -> Vec<bool> {
        let mut seen = vec![0u8; self.element_count];
        for &e in &self.elements {
            let s = &mut seen[e as usize];
            *s = s.saturating_add(1);
        }
        seen.into_iter().map(|s| s > 1).collect()
    }

    /// The leaf stored at node `node`, with its box.
    pub(crate) fn leaf(&self, start: u32, len: u32, bounds: Aabb) -> BoxTreeLeaf<'_> {
        BoxTreeLeaf {
            elements: &self.elements[start as usize..(start + len) as usize],
            bounds,
        }
    }
}

/// The two halves of `bounds` cut by `x[axis] = cut`.
#[inline]
pub(crate) fn split_box(bounds: &Aabb, axis: usize, cut: Real) -> (Aabb, Aabb) {
    let mut left = *bounds;
    let mut right = *bounds;
    left.maxs[axis] = cut;
    right.mins[axis] = cut;
    (left, right)
}
