//! EPA (expanding polytope algorithm): penetration depth, normal and contact points of an
//! intersecting pair, seeded from GJK's final simplex.
//!
//! The polytope lives in an [`EpaWorkspace`] passed in as `&mut` and reused across queries, so a
//! query allocates only while the workspace grows to its high-water mark.
//!
//! Depth bracket: the polytope lies inside `A - B` and contains the origin, so the distance `d`
//! from the origin to its nearest face plane is a lower bound on the depth, and the support value
//! `h` of `A - B` along that face's normal is an upper bound. EPA stops when
//! `h - d <= EPA_RELATIVE_TOLERANCE * h + noise` with `noise = 1e-12 * (r1 + r2 + |t12|)`.

mod epa_penetration;
mod epa_seed;
mod epa_workspace;

pub(crate) use epa_penetration::{EpaGoal, EpaOutcome, run_epa};
pub use epa_penetration::{Penetration, epa_penetration};
pub use epa_workspace::EpaWorkspace;

/// EPA stops when its depth bounds agree to this fraction of the depth (plus rounding noise).
pub const EPA_RELATIVE_TOLERANCE: f64 = 1e-9;

/// Maximum number of expansions of one EPA run before [`crate::NarrowError::DidNotConverge`].
pub const EPA_MAX_ITERATIONS: u32 = 256;
