//! Exact building blocks and pair queries for arbitrary (non-convex, possibly open) polyhedra.

pub mod box_tree;
