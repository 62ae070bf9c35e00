//! colldet-narrow: pairwise (narrow-phase) queries on convex shapes.
//!
//! * [`gjk`]: GJK intersection test ([`gjk_intersect`]) and distance ([`gjk_distance`]) with a
//!   warm-startable [`GjkCache`], signed-volume simplex sub-algorithm, `f64` arithmetic.
//! * [`epa`]: EPA penetration depth, normal and contact points ([`epa_penetration`]) in a reusable
//!   [`EpaWorkspace`].
//! * [`thesis`]: the convex tests of Zachmann's thesis, corrected: the modified Cyrus-Beck test
//!   ([`cyrus_beck_intersect`]) and the separating-planes perceptron ([`separating_plane`]).
//! * [`dispatch`]: pair dispatch for callers with many objects: a [`PreparedShape`] per object,
//!   the pair-kind table ([`PairKind::of`]) that chooses each pair's test, one [`PairCache`] per
//!   pair kind, the Chung-Wang bounding-box pre-test run ahead of the cache, and [`test_pair`].
//! * [`box_box_intersect`]: the exact 15-axis separating-axis test for two polytopes recognised
//!   as boxes ([`BoxHull::recognise`]), certified, "undecided" near the touching band; an
//!   intersecting pair comes with a point of both boxes ([`box_box_witness`]).
//! * [`chung_wang`]: the Chung-Wang separating-vector test for convex polytopes
//!   ([`chung_wang_intersect`]) with a per-pair [`ChungWangCache`], certified answers and a GJK
//!   fallback near the touching band.
//! * [`closest_features`](mod@closest_features): closest-feature tracking (Lin-Canny / V-Clip feature walk) between convex
//!   [`colldet_geom::Polyhedron`]s, warm-started from a [`FeaturePairCache`].
//! * [`manifold`]: contact manifolds of convex pairs (normal, depth, up to four points) built
//!   from EPA's penetration by clipping the incident face to the reference face
//!   ([`contact_manifold`]).
//! * [`multilevel_march`](mod@multilevel_march): progressive-refinement distance of convex
//!   polytopes over their Dobkin-Kirkpatrick hierarchies with a certified bracket per level
//!   ([`multilevel_distance`]).
//! * [`mesh`]: non-convex polyhedra: bounding-volume hierarchies over triangles
//!   ([`mesh::bvh::MeshBvh`]), surface intersection and mesh-mesh distance.
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

pub mod box_box;
pub mod box_box_witness;
pub mod box_hull;
mod box_sat;
pub mod chung_wang;
pub mod closest_features;
mod convex_polytope_support;
mod cso;
pub mod dispatch;
pub mod epa;
pub mod error;
pub mod gjk;
pub mod manifold;
pub mod mesh;
pub mod multilevel_march;
mod pair_pose;
pub mod support_map;
pub mod thesis;

pub use box_box::{BoxBoxResult, BoxBoxStatus, BoxBoxWitness, box_box_intersect};
pub use box_box_witness::{box_box_common_point, touching_slack};
pub use box_hull::{BoxHull, MAX_BOX_DEVIATION};
pub use chung_wang::{
    ChungWangCache, ChungWangResult, ChungWangStats, ChungWangStatus, ChungWangWorkspace, Decision,
    FallbackReason, HullBox, chung_wang_intersect,
};
pub use closest_features::{ClosestFeatures, Feature, FeaturePairCache, closest_features};
pub use dispatch::{
    Method, PairCache, PairKind, PairOutcome, PairScratch, PlacedShape, PreparedShape, ShapeTraits,
    Witness, WitnessKind, test_pair,
};
pub use epa::{EpaWorkspace, Penetration, epa_penetration};
pub use error::NarrowError;
pub use gjk::{
    DistanceCertificate, GjkCache, GjkDistance, GjkStatus, TOUCHING_TOLERANCE_FACTOR,
    TranslationCast, gjk_distance, gjk_distance_approx, gjk_distance_approx_coherent,
    gjk_intersect, gjk_translation_cast, gjk_within_distance, gjk_within_distance_coherent,
    touching_tolerance,
};
pub use manifold::{
    ContactManifold, ContactPoint, ManifoldKind, ManifoldWorkspace, contact_manifold,
    mesh_contact_manifold,
};
pub use multilevel_march::{LevelBound, MarchDistance, multilevel_distance};
pub use pair_pose::{PoseMatrix, RelativePose};
pub use support_map::{PointCloud, SupportMap};
pub use thesis::{
    CyrusBeckStatus, CyrusBeckWorkspace, PerceptronOptions, PlaneResult, SeparatingPlaneCache,
    cyrus_beck_intersect, separating_plane,
};
