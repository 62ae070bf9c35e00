//! `ColConfig`: how a world is set up, as C sees it, and its checked conversion to
//! [`colldet_world::Config`].

use colldet_geom::WorldAabb;
use colldet_geom::math::PointD;
use colldet_world::{BroadPhaseKind, Config, Method};

use crate::boundary::catch_plain;
use crate::status::{COL_ERR_INVALID_ARGUMENT, Failure};

/// Which broad phase a world uses (`ColConfig::broadphase`): one of the `COL_BROADPHASE_*`
/// values.
pub type ColBroadPhase = u32;
/// Sweep-and-prune (the default).
pub const COL_BROADPHASE_SAP: ColBroadPhase = 0;
/// Uniform grid of `resolution` cells per axis over the universe box (which is then required).
pub const COL_BROADPHASE_GRID: ColBroadPhase = 1;
/// Octree over the universe box (required), finest cells about `resolution` per axis.
pub const COL_BROADPHASE_OCTREE: ColBroadPhase = 2;
/// Dynamic AABB tree.
pub const COL_BROADPHASE_TREE: ColBroadPhase = 3;
/// No broad phase: every pair goes to the exact test (reference, slow).
pub const COL_BROADPHASE_NONE: ColBroadPhase = 4;

/// Which exact test a world runs on candidate pairs (`ColConfig::method`): one of the
/// `COL_METHOD_*` values.
pub type ColMethod = u32;
/// Chosen per pair (the default): convex pairs use the exact box-box test when both are boxes,
/// otherwise the cached separating-vector test; any other pair the exact mesh test with solid
/// semantics for closed meshes.
pub const COL_METHOD_AUTO: ColMethod = 0;
/// Convex test on every pair, on each object's convex hull when it is not convex; a pair with a
/// flat object (a triangle, a quad, a planar soup: no hull) gets the exact mesh test instead.
pub const COL_METHOD_CONVEX: ColMethod = 1;
/// The thesis's arbitrary polygon test (with containment) on every pair.
pub const COL_METHOD_ARBITRARY: ColMethod = 2;
/// The thesis's box-trees (with containment) on every pair.
pub const COL_METHOD_BOXTREE: ColMethod = 3;
/// No exact test: every pair whose bounding boxes overlap is reported.
pub const COL_METHOD_NONE: ColMethod = 4;
/// GJK on convex hulls; a pair with a flat object gets the exact mesh test instead.
pub const COL_METHOD_GJK: ColMethod = 5;

/// `ColConfig::flags`: run the exact tests of a check on `threads` worker threads. Without it
/// every test runs on the thread calling `colCheck` (a check started by `colCheckBegin`, on one
/// thread of the world's own). Results and callback order are the same either way.
pub const COL_FLAG_PARALLEL: u32 = 1;

/// Largest `ColConfig::threads` accepted (more is surely a mistake, and would start that many
/// threads before failing).
pub const COL_MAX_THREADS: u32 = 1024;

/// Largest `ColConfig::resolution` a grid or octree accepts: 128 cells per axis (`128^3` grid
/// cells, an octree of depth 7); more is `COL_ERR_INVALID_ARGUMENT`.
pub const COL_MAX_RESOLUTION: u32 = 128;

/// Largest magnitude of any coordinate colldet accepts: universe box coordinates, mesh vertex
/// coordinates and matrix translations. Larger values are refused (`COL_ERR_INVALID_ARGUMENT`,
/// or `COL_ERR_INVALID_MESH` for vertices) so that every box, radius and distance derived from
/// them stays finite with a wide margin; at `1e15` doubles are already 0.125 apart.
pub const COL_MAX_COORDINATE: f64 = 1e15;

/// Flag bits this version knows; any other bit is rejected.
const KNOWN_FLAGS: u32 = COL_FLAG_PARALLEL;

/// How a world is set up. Start from `colDefaultConfig()` and change fields; the defaults are
/// sweep-and-prune, automatic method, parallel on all cores, no object limit, no universe box.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColConfig {
    /// A `COL_BROADPHASE_*` value.
    pub broadphase: ColBroadPhase,
    /// A `COL_METHOD_*` value.
    pub method: ColMethod,
    /// `COL_FLAG_*` bits.
    pub flags: u32,
    /// Grid cells per axis (grid), finest octree resolution (octree: the next power of two up);
    /// from 1 to `COL_MAX_RESOLUTION` (128) for those two, ignored by the others. Default 16.
    /// Each universe axis must be long enough for its cells: the boundaries
    /// `min + (max - min) * k / resolution` must be distinct doubles (about
    /// `(max - min) / resolution > 2^-52 * max(|min|, |max|)`), else
    /// `COL_ERR_INVALID_ARGUMENT`.
    pub resolution: u32,
    /// Worker threads with `COL_FLAG_PARALLEL`: 0 = all cores (default), at most
    /// `COL_MAX_THREADS`. Ignored without the flag.
    pub threads: u32,
    /// Largest number of live objects, 0 = unlimited (default). Adding one more returns
    /// `COL_ERR_OUT_OF_MEMORY`.
    pub max_collidables: usize,
    /// Lower corner of the universe box, world coordinates. Grids and octrees index this box
    /// (objects may leave it). All six universe values 0 means "no universe box". Every
    /// coordinate finite with magnitude at most `COL_MAX_COORDINATE` (1e15).
    pub universe_min: [f64; 3],
    /// Upper corner of the universe box; each coordinate above the lower one.
    pub universe_max: [f64; 3],
}

impl Default for ColConfig {
    fn default() -> Self {
        let rust = Config::default();
        Self {
            broadphase: COL_BROADPHASE_SAP,
            method: COL_METHOD_AUTO,
            flags: if rust.threads == 1 {
                0
            } else {
                COL_FLAG_PARALLEL
            },
            resolution: rust.resolution,
            threads: 0,
            max_collidables: rust.max_objects,
            universe_min: [0.0; 3],
            universe_max: [0.0; 3],
        }
    }
}

fn invalid(message: &str) -> Failure {
    Failure::new(
        COL_ERR_INVALID_ARGUMENT,
        format!("invalid ColConfig: {message}"),
    )
}

impl ColConfig {
    /// The world configuration this describes.
    pub(crate) fn to_config(self) -> Result<Config, Failure> {
        let broad_phase = match self.broadphase {
            COL_BROADPHASE_SAP => BroadPhaseKind::SweepAndPrune,
            COL_BROADPHASE_GRID => BroadPhaseKind::Grid,
            COL_BROADPHASE_OCTREE => BroadPhaseKind::Octree,
            COL_BROADPHASE_TREE => BroadPhaseKind::DynamicTree,
            COL_BROADPHASE_NONE => BroadPhaseKind::AllPairs,
            other => return Err(invalid(&format!("unknown broadphase {other}"))),
        };
        let method = match self.method {
            COL_METHOD_AUTO => Method::Auto,
            COL_METHOD_CONVEX => Method::Convex,
            COL_METHOD_ARBITRARY => Method::Arbitrary,
            COL_METHOD_BOXTREE => Method::BoxTree,
            COL_METHOD_NONE => Method::None,
            COL_METHOD_GJK => Method::Gjk,
            other => return Err(invalid(&format!("unknown method {other}"))),
        };
        if self.flags & !KNOWN_FLAGS != 0 {
            return Err(invalid(&format!(
                "unknown flag bits {:#x}",
                self.flags & !KNOWN_FLAGS
            )));
        }
        if self.threads > COL_MAX_THREADS {
            return Err(invalid(&format!(
                "threads = {} exceeds COL_MAX_THREADS ({COL_MAX_THREADS})",
                self.threads
            )));
        }
        let threads = if self.flags & COL_FLAG_PARALLEL != 0 {
            self.threads as usize
        } else {
            1
        };
        let unset = self
            .universe_min
            .iter()
            .chain(&self.universe_max)
            .all(|&x| x == 0.0);
        let universe = (!unset).then(|| {
            WorldAabb::new(
                PointD::from(self.universe_min),
                PointD::from(self.universe_max),
            )
        });
        Ok(Config {
            broad_phase,
            method,
            resolution: self.resolution,
            threads,
            max_objects: self.max_collidables,
            universe,
        })
    }
}

/// The default configuration (see `ColConfig`).
///
/// # Safety
/// Always safe to call, from any thread.
#[unsafe(no_mangle)]
pub extern "C" fn colDefaultConfig() -> ColConfig {
    catch_plain(ColConfig::default(), ColConfig::default)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header's limits are the world's (cbindgen needs the literals here).
    #[test]
    fn the_limits_are_the_worlds() {
        assert_eq!(COL_MAX_THREADS as usize, colldet_world::MAX_THREADS);
        assert_eq!(COL_MAX_RESOLUTION, colldet_world::MAX_RESOLUTION);
        assert_eq!(COL_MAX_COORDINATE, colldet_world::MAX_COORDINATE);
    }
}
