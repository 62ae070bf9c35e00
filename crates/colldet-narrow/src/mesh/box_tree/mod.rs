//! Box trees (Zachmann's thesis, section 3.6): exact collision detection of arbitrary polyhedra
//! (polygon soups) by recursively partitioning each object's local box and traversing two such
//! partitions simultaneously.
//!
//! * [`BoxTree`] ([`BoxTree::build`], [`BoxTreeOptions`]): the oriented partition tree over an
//!   object's local bounding box, elements (polygons or edges) stored at the leaves, cut planes
//!   chosen by the penalty `|n_l - n_r| + gamma n_c` with a weighted bisection and a thick cut
//!   plane; [`BoxTree::validate`] checks its invariants.
//! * [`traverse_box_trees`]: the simultaneous traversal of two trees with the incremental
//!   Cyrus-Beck box-box test of the thesis ([`boxes_intersect_by_clipping`] is its one-shot form).
//! * [`BoxTreeMesh`] and [`box_tree_intersect`]: a polyhedron with its face and edge trees, and the
//!   exact surface-intersection query (edges of each against polygons of the other, both ways).
//!
//! Frames: each tree lives in its object's local frame; a pair query takes `pos12`, the pose of
//! object 2 in object 1's frame, and reports results in object 1's frame.

mod box_clip;
#[allow(clippy::module_inception)]
mod box_tree;
mod box_tree_build;
mod box_tree_mesh;
mod box_tree_options;
mod box_tree_traverse;
mod box_tree_validation;
#[cfg(test)]
mod tests;

pub use box_clip::boxes_intersect_by_clipping;
pub use box_tree::{BoxTree, BoxTreeLeaf};
pub use box_tree_mesh::{BoxTreeMesh, BoxTreeStats, BoxTreeWorkspace, box_tree_intersect};
pub use box_tree_options::BoxTreeOptions;
pub use box_tree_traverse::traverse_box_trees;
