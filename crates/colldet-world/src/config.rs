//! World configuration: which broad phase, which narrow-phase method, threads and limits.

use std::sync::Arc;

use colldet_broad::{
    AllPairs, BroadPhase, DynamicTree, MAX_OCTREE_DEPTH, Octree, OctreeConfig, SweepAndPrune,
    UniformGrid, UniformGridConfig,
};
use colldet_geom::WorldAabb;
use colldet_narrow::Method;

use crate::WorldError;

/// Most worker threads a world accepts ([`Config::threads`]); the C API's `COL_MAX_THREADS`.
pub const MAX_THREADS: usize = 1024;

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
    /// Worker threads for the narrow phase: 0 = all cores, 1 = run on the calling thread, at
    /// most [`MAX_THREADS`].
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

impl Config {
    /// Checks the values [`crate::World::new`] relies on.
    ///
    /// # Errors
    /// [`WorldError::InvalidConfig`] for an inverted or non-finite universe box, a grid or octree
    /// without a universe box or with resolution 0, more than [`MAX_THREADS`] threads.
    pub fn validate(&self) -> Result<(), WorldError> {
        if let Some(u) = &self.universe {
            let ok = (0..3)
                .all(|c| u.mins[c].is_finite() && u.maxs[c].is_finite() && u.mins[c] < u.maxs[c]);
            if !ok {
                return Err(WorldError::InvalidConfig(
                    "the universe box must be finite with min < max",
                ));
            }
        }
        if matches!(
            self.broad_phase,
            BroadPhaseKind::Grid | BroadPhaseKind::Octree
        ) {
            if self.universe.is_none() {
                return Err(WorldError::InvalidConfig(
                    "grids and octrees need a universe box",
                ));
            }
            if self.resolution == 0 {
                return Err(WorldError::InvalidConfig(
                    "the resolution must be at least 1",
                ));
            }
        }
        if self.threads > MAX_THREADS {
            return Err(WorldError::InvalidConfig(
                "more worker threads than MAX_THREADS (1024)",
            ));
        }
        Ok(())
    }

    /// The broad phase this configuration chooses (sweep-and-prune shares `pool`).
    ///
    /// # Errors
    /// [`WorldError::InvalidConfig`] for a grid or octree without a universe box, the broad
    /// phase's own refusal of its configuration.
    pub(crate) fn make_broad_phase(
        &self,
        pool: Option<&Arc<rayon::ThreadPool>>,
    ) -> Result<Box<dyn BroadPhase>, WorldError> {
        let universe = || {
            self.universe.ok_or(WorldError::InvalidConfig(
                "grids and octrees need a universe box",
            ))
        };
        match self.broad_phase {
            BroadPhaseKind::AllPairs => Ok(Box::new(AllPairs::new())),
            BroadPhaseKind::Grid => Ok(Box::new(UniformGrid::new(&UniformGridConfig::cubic(
                universe()?,
                self.resolution,
            ))?)),
            BroadPhaseKind::Octree => {
                // The finest octants match the resolution: depth = ceil(log2(resolution)).
                let depth = (u32::BITS - self.resolution.saturating_sub(1).leading_zeros())
                    .min(MAX_OCTREE_DEPTH);
                Ok(Box::new(Octree::new(&OctreeConfig {
                    universe: universe()?,
                    depth,
                })?))
            }
            BroadPhaseKind::SweepAndPrune => Ok(Box::new(match pool {
                Some(pool) => SweepAndPrune::with_pool(Arc::clone(pool)),
                None => SweepAndPrune::new(),
            })),
            BroadPhaseKind::DynamicTree => Ok(Box::new(DynamicTree::new())),
        }
    }
}
