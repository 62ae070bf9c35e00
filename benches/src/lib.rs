//! colldet against its peers on the shared scene files (`../shared/scenes/FORMAT.md`).
//!
//! Every library plays the same scene: the same meshes and, at every frame, the same poses
//! computed once by [`colldet_cli::scene::pose_at`] (the exact arithmetic of `pose.h`). Each library
//! then answers "which pairs of solids touch now" in its own way, timed per frame, and the
//! colliding-pair totals must agree. The `peers` binary prints one table per scene; the
//! `scene_frame` criterion bench times single frames of a few scenes.

pub mod ccd;
pub mod colldet_peer;
pub mod dual_race;
pub mod error;
pub mod explain;
pub mod parry_peer;
pub mod peer;
pub mod report;
pub mod scene_data;
pub mod scenes;

pub use colldet_peer::ColldetPeer;
pub use error::PeerError;
pub use parry_peer::parry_f32::ParryF32Peer;
pub use parry_peer::parry_f64::ParryPeer;
pub use peer::{FrameFigures, Peer, PeerRun, play};
pub use scene_data::{PeerMesh, PeerScene};
