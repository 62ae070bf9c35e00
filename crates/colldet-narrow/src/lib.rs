//! colldet-narrow: pairwise (narrow-phase) queries on convex shapes.
//!
//! * [`gjk`]: GJK intersection test ([`gjk_intersect`]) and distance ([`gjk_distance`]) with a
//!   warm-startable [`GjkCache`], signed-volume simplex sub-algorithm, `f64` arithmetic.
//! * [`epa`]: EPA penetration depth, normal and contact points ([`epa_penetration`]) in a reusable
//!   [`EpaWorkspace`].
//! * [`SupportMap`]: the shape abstraction both need, with [`PointCloud`] (the convex hull of a
//!   point set, brute-force support) as the reference implementation.
//!
//! # Conventions
//! A pair query takes `s1`, `s2` and `pos12`, the pose of shape 2 in shape 1's frame (it maps
//! shape 2's local coordinates into shape 1's; see [`colldet_geom::math::relative_pose`]). Queries
//! run in shape 1's frame: directions are rotated into shape 2's frame for its support queries,
//! its vertices are never transformed wholesale. Results (points, normals, distances) are `f64`,
//! in shape 1's frame and units; normals point from shape 1 towards shape 2. Tolerances are
//! relative to the pair's size (bounding radii), never absolute: see [`gjk`] for the touching band.

mod cso;
pub mod epa;
pub mod error;
pub mod gjk;
pub mod mesh;
pub mod support_map;

pub use epa::{EpaWorkspace, Penetration, epa_penetration};
pub use error::NarrowError;
pub use gjk::{GjkCache, GjkDistance, GjkStatus, gjk_distance, gjk_intersect, touching_tolerance};
pub use support_map::{PointCloud, SupportMap};
