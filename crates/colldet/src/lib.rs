//! colldet: the collision world that ties geometry, broad phase and narrow phase together, and
//! the benchmark scene format its runner plays.

pub mod demo;
pub mod names;
pub mod progress;
pub mod report;
pub mod runner;
pub mod scene;
pub mod world;

pub use world::{
    BroadPhaseKind, CallbackContext, CheckStats, Collision, CollisionCallback, Config, Method,
    ObjectId, ObjectInfo, SV_HISTOGRAM_BINS, Witness, WitnessKind, World, WorldError,
};
