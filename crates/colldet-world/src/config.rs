//! World configuration: which broad phase, which narrow-phase method, threads and limits.

use colldet_geom::WorldAabb;

/// Which broad-phase structure finds candidate pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BroadPhaseKind {
    /// Sweep-and-prune (I-COLLIDE): the default.
    #[default]
    SweepAndPrune,
    /// The thesis's uniform grid over [`Config::universe`] with [`Config::resolution`] cells per axis.
    Grid,
    /// The thesis's octree over [`Config::universe`].
    Octree,
    /// A dynamic AABB tree.
    DynamicTree,
    /// Every pair (reference).
    AllPairs,
}

/// Which exact test runs on a candidate pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Chosen per pair from the objects' classification: two convex objects use the exact
    /// box-box test when both are boxes (Chung-Wang near the touching band), otherwise the cached
    /// Chung-Wang separating-vector test; any other pair uses the mesh BVH test with solid
    /// semantics.
    #[default]
    Auto,
    /// Convex test on every pair, using each object's convex hull when it is not convex: box-box
    /// when both hulls are boxes, Chung-Wang otherwise.
    Convex,
    /// The thesis's arbitrary (polygon soup) test with containment.
    Arbitrary,
    /// The thesis's box-trees with containment.
    BoxTree,
    /// Chung-Wang separating vector on convex hulls (as `Convex`, without the box-box test).
    SeparatingVector,
    /// GJK on convex hulls.
    Gjk,
    /// No exact test: report every broad-phase pair (bounding boxes overlap).
    None,
}

/// How a world is set up. `Config::default()` is sweep-and-prune, automatic method choice, all
/// cores, no object limit, no universe box.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Broad phase.
    pub broad_phase: BroadPhaseKind,
    /// Narrow-phase method.
    pub method: Method,
    /// Cells per axis for the grid (the octree uses it as its finest resolution); ignored by the
    /// others. Must be at least 1 when a grid or octree is chosen.
    pub resolution: u32,
    /// Worker threads for the narrow phase: 0 = all cores, 1 = run on the calling thread.
    pub threads: usize,
    /// Largest number of live objects, 0 = unlimited.
    pub max_objects: usize,
    /// The region grids and octrees index (objects may leave it; they are still found). Required
    /// for `Grid` and `Octree`.
    pub universe: Option<WorldAabb>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            broad_phase: BroadPhaseKind::default(),
            method: Method::default(),
            resolution: 16,
            threads: 0,
            max_objects: 0,
            universe: None,
        }
    }
}
