//! colldet-ccd: continuous collision detection. A body moving over the fraction `tau` in `[0, 1]`
//! (a [`Motion`]) against another one (moving or not): the first contact, as a certified bracket
//! of the fraction ([`TimeOfImpact`]), the features that meet and the contact point and normal.
//!
//! * Translation (seed sections 2.2-2.3): vertex-polygon and edge-edge sweeps in Plücker
//!   coordinates with exact signs ([`translation`]).
//! * Rotation about an axis (seed 2.4-2.5): the `tan(theta/2)` quadratics.
//! * General motions (an engine's interpolated frame-to-frame motion, per-vertex linear motion of
//!   deforming meshes): certified root isolation on the same feature functions.
//!
//! Semantics, tolerances and the promise on exactness: `docs/ccd.md`.

pub mod contact;
pub mod convex_advance;
pub mod descent;
pub mod error;
pub mod exact_det;
pub mod expel;
pub mod feature_functions;
pub mod general_sweep;
pub mod interval;
pub mod motion;
pub mod ray_mesh;
pub mod ray_triangle;
pub mod rotation;
pub mod rotation_sweep;
pub mod sweep_shape;
pub mod trajectory;
pub mod translation;
pub mod translation_sweep;
pub mod vertex_linear;

pub use contact::{ContactKind, FeatureIndex, SweepContact, TimeOfImpact};
pub use error::CcdError;
pub use general_sweep::{
    GeneralSweepOptions, GeneralSweepWorkspace, sweep_general, sweep_general_with,
};
pub use motion::{BodyMotion, Motion, RigidPose};
pub use rotation_sweep::{TranslateRotateWorkspace, sweep_rotation, sweep_translate_then_rotate};
pub use sweep_shape::{SweepShape, SweepTriangle};
pub use translation_sweep::{TranslationWorkspace, sweep_translation};
pub use vertex_linear::{MovingPoint, edge_edge_linear, vertex_triangle_linear};
