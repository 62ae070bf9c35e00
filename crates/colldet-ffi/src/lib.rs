//! colldet's C ABI: `libcolldet.a` / `libcolldet.so` and `include/colldet.h` (generated from
//! this crate by cbindgen; `make header` rewrites it, a test checks it is current).
//!
//! The functions mirror [`colldet_world::World`]: `colInit` / `colMakeCollidable` / `colStart`
//! / `colSetTransform` / `colCheck` with per-pair callbacks through the interest matrix, and
//! `colExit`. Every function returns a `ColStatus` (or a value that cannot fail) and never lets
//! a panic cross the C boundary (see [`boundary`]); a world's re-entrancy design (callbacks
//! calling back into it) is described in [`world`]. The guide is `docs/c-api.md`.
#![allow(non_snake_case)] // the C names are the contract: colInit, colCheck, ...

pub mod boundary;
pub mod callback;
pub mod concurrent;
pub mod config;
pub mod contact;
pub mod continuous;
pub mod events;
pub mod groups;
pub mod lifecycle;
pub mod mesh;
pub mod objects;
mod one_thread;
pub mod pairs;
pub mod proximity;
pub mod queries;
pub mod status;
pub mod tolerance;
pub mod velocity;
pub mod version;
pub mod world;

#[cfg(test)]
mod concurrent_tests;
#[cfg(test)]
mod limit_tests;
#[cfg(test)]
mod near_contact_tests;
#[cfg(test)]
mod soak_tests;
#[cfg(test)]
mod test_support;

pub use callback::*;
pub use concurrent::*;
pub use config::*;
pub use contact::*;
pub use continuous::*;
pub use events::*;
pub use groups::*;
pub use lifecycle::*;
pub use mesh::*;
pub use objects::*;
pub use pairs::*;
pub use proximity::*;
pub use queries::*;
pub use status::*;
pub use tolerance::*;
pub use velocity::*;
pub use version::*;
pub use world::{ColObjectId, ColWorld};
