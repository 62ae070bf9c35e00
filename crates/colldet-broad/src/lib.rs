//! colldet-broad: finds the pairs of objects whose world-space AABBs overlap.
//!
//! Every structure implements [`BroadPhase`] and reports exactly the same set: the unordered pairs
//! of proxies whose closed boxes overlap (touching boxes overlap), as [`ProxyPair`]s with the
//! smaller id first, sorted ascending. Tests compare each structure with [`AllPairs`] brute force.

mod all_pairs;
mod axis_sweep;
mod broad_phase;
mod cell_mapping;
mod cell_range;
mod column_sweep;
mod index_update;
mod octree;
mod parallel_sort;
mod proxy_slots;
mod radix_sort;
mod region_query;
mod space_index;
#[cfg(test)]
mod test_support;
mod uniform_grid;

pub use all_pairs::AllPairs;
pub use axis_sweep::{AXIS_SWEEP_COST_SWAPS, AXIS_SWEEP_MAX_BOXES};
pub use broad_phase::{BroadPhase, BroadPhaseError, ProxyId, ProxyPair};
pub use cell_range::CellRange;
pub use index_update::IndexUpdate;
pub use octree::{MAX_OCTREE_DEPTH, Octree, OctreeConfig};
pub use region_query::{RAY_BOX_MARGIN, RaySegment};
pub use uniform_grid::{MAX_GRID_CELLS, UniformGrid, UniformGridConfig};
mod dynamic_tree;
mod pair_set;
mod sweep_and_prune;

pub use dynamic_tree::{DynamicTree, DynamicTreeOptions, DynamicTreeStats};
pub use sweep_and_prune::{BATCH_COST_SWAPS, SweepAndPrune, SweepAndPruneStats};
