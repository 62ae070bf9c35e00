//! World configuration: which broad phase, which narrow-phase method, threads and limits.

use std::sync::Arc;

use colldet_broad::{
    AllPairs, BroadPhase, BroadPhaseError, DynamicTree, MAX_GRID_CELLS, MAX_OCTREE_DEPTH, Octree,
    OctreeConfig, SweepAndPrune, UniformGrid, UniformGridConfig,
};
use colldet_geom::WorldAabb;
use colldet_geom::math::MAX_COORDINATE;
use colldet_narrow::Method;

use crate::WorldError;

/// Most worker threads a world accepts ([`Config::threads`]); the C API's `COL_MAX_THREADS`.
pub const MAX_THREADS: usize = 1024;

/// Largest [`Config::resolution`] a grid or octree accepts: 128 cells per axis, the cube root of
/// the grid's [`MAX_GRID_CELLS`] (`2^21`) and `2^`[`MAX_OCTREE_DEPTH`]; the C API's
/// `COL_MAX_RESOLUTION`.
pub const MAX_RESOLUTION: u32 = 128;

// The limit is the grid's and the octree's own.
const _: () = assert!(
    (MAX_RESOLUTION as u64).pow(3) == MAX_GRID_CELLS && 1 << MAX_OCTREE_DEPTH == MAX_RESOLUTION
);

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
    /// Cells per axis for the grid (the octree's finest cells per axis are the next power of two
    /// up from it); ignored by the others. From 1 to [`MAX_RESOLUTION`] when a grid or octree is
    /// chosen.
    pub resolution: u32,
    /// Worker threads for the narrow phase: 0 = all cores, 1 = run on the calling thread, at
    /// most [`MAX_THREADS`].
    pub threads: usize,
    /// Largest number of live objects, 0 = unlimited.
    pub max_objects: usize,
    /// The region grids and octrees index (objects may leave it; they are still found). Required
    /// for `Grid` and `Octree`. Every coordinate has magnitude at most [`MAX_COORDINATE`], with
    /// `mins < maxs` on every axis, and each axis must be long enough for its cells: the cell
    /// boundaries `min + (max - min) * k / n` must be distinct `f64` values (roughly
    /// `(max - min) / n` above `2^-52 * max(|min|, |max|)`).
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
    /// [`WorldError::InvalidConfig`] for a universe box that is inverted, flat, not finite or has
    /// a coordinate of magnitude above [`MAX_COORDINATE`]; a grid or octree without a universe
    /// box, with a resolution of 0 or above [`MAX_RESOLUTION`], or with a universe too small for
    /// its resolution (two cell boundaries equal in `f64`); more than [`MAX_THREADS`] threads.
    pub fn validate(&self) -> Result<(), WorldError> {
        if let Some(u) = &self.universe {
            let ok = (0..3)
                .all(|c| u.mins[c].is_finite() && u.maxs[c].is_finite() && u.mins[c] < u.maxs[c]);
            if !ok {
                return Err(WorldError::InvalidConfig(
                    "the universe box must be finite with min < max",
                ));
            }
            let bounded = (0..3)
                .all(|c| u.mins[c].abs() <= MAX_COORDINATE && u.maxs[c].abs() <= MAX_COORDINATE);
            if !bounded {
                return Err(WorldError::InvalidConfig(
                    "a universe coordinate has magnitude above 1e15 (MAX_COORDINATE)",
                ));
            }
        }
        if matches!(
            self.broad_phase,
            BroadPhaseKind::Grid | BroadPhaseKind::Octree
        ) {
            let Some(universe) = self.universe else {
                return Err(WorldError::InvalidConfig(
                    "grids and octrees need a universe box",
                ));
            };
            if self.resolution == 0 {
                return Err(WorldError::InvalidConfig(
                    "the resolution must be at least 1",
                ));
            }
            if self.resolution > MAX_RESOLUTION {
                return Err(WorldError::InvalidConfig(
                    "the resolution exceeds MAX_RESOLUTION (128)",
                ));
            }
            // The structure's own check of its cells (no allocation): only a universe too small
            // for the resolution is left to find.
            match self.broad_phase {
                BroadPhaseKind::Grid => self.grid_config(universe).check(),
                _ => self.octree_config(universe).check(),
            }
            .map_err(config_error)?;
        }
        if self.threads > MAX_THREADS {
            return Err(WorldError::InvalidConfig(
                "more worker threads than MAX_THREADS (1024)",
            ));
        }
        Ok(())
    }

    fn grid_config(&self, universe: WorldAabb) -> UniformGridConfig {
        UniformGridConfig::cubic(universe, self.resolution)
    }

    /// The finest octants match the resolution: depth = ceil(log2(resolution)).
    fn octree_config(&self, universe: WorldAabb) -> OctreeConfig {
        OctreeConfig {
            universe,
            depth: u32::BITS - self.resolution.saturating_sub(1).leading_zeros(),
        }
    }

    /// The broad phase this configuration chooses (sweep-and-prune shares `pool`).
    ///
    /// # Errors
    /// [`WorldError::InvalidConfig`] for a grid or octree without a universe box or whose
    /// structure refuses its configuration (not after [`Config::validate`]).
    pub(crate) fn make_broad_phase(
        &self,
        pool: Option<&Arc<rayon::ThreadPool>>,
    ) -> Result<Box<dyn BroadPhase + Send>, WorldError> {
        let universe = || {
            self.universe.ok_or(WorldError::InvalidConfig(
                "grids and octrees need a universe box",
            ))
        };
        match self.broad_phase {
            BroadPhaseKind::AllPairs => Ok(Box::new(AllPairs::new())),
            BroadPhaseKind::Grid => Ok(Box::new(
                UniformGrid::new(&self.grid_config(universe()?)).map_err(config_error)?,
            )),
            BroadPhaseKind::Octree => Ok(Box::new(
                Octree::new(&self.octree_config(universe()?)).map_err(config_error)?,
            )),
            BroadPhaseKind::SweepAndPrune => Ok(Box::new(match pool {
                Some(pool) => SweepAndPrune::with_pool(Arc::clone(pool)),
                None => SweepAndPrune::new(),
            })),
            BroadPhaseKind::DynamicTree => Ok(Box::new(DynamicTree::new())),
        }
    }
}

/// A grid's or octree's refusal of its configuration, as the world reports it.
fn config_error(error: BroadPhaseError) -> WorldError {
    WorldError::InvalidConfig(match error {
        BroadPhaseError::InvalidUniverse => {
            "the universe box is too small for the resolution (cell boundaries equal in f64)"
        }
        BroadPhaseError::InvalidResolution(_) | BroadPhaseError::InvalidOctreeDepth(_) => {
            "the resolution exceeds MAX_RESOLUTION (128)"
        }
        _ => "the broad phase refused its configuration",
    })
}
