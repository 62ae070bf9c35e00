//! Contact manifolds: the contact normal, the depth and up to four contact points, as a physics
//! engine's contact solver expects them, for two convex objects ([`contact_manifold`]) and for
//! meshes from their crossing triangle pairs ([`mesh_contact_manifold`]).
//!
//! Built from a penetration ([`crate::Penetration`], EPA's normal and deepest points) in
//! [`contact_manifold`]:
//! 1. the face of each object most aligned with the normal is found around the object's
//!    supporting vertex and merged with its coplanar neighbours (`face_polygon.rs`), so a
//!    triangulated box still has square faces;
//! 2. when one of those faces is within [`FACE_ALIGNMENT`] of the normal (face-face, face-edge and
//!    face-vertex contacts), the better aligned one is the reference face and the other object's
//!    face the incident one. The incident polygon is clipped to the prism of the reference face
//!    along the normal (`polygon_clip.rs`); each clipped point on or below the reference plane is
//!    a contact on the incident object, its depth the distance along the normal to that plane,
//!    where the other object's point is. When EPA's deepest point is deeper than all of them
//!    (deep penetration, where it lies beyond the reference face) it joins them, so the
//!    manifold's depth is the penetration depth;
//! 3. otherwise (edge-edge, vertex-edge contacts) the manifold is EPA's single point pair;
//! 4. more than four points are reduced to four that keep the deepest point and the largest area
//!    (`manifold_reduce.rs`).
//!
//! Everything is in object a's frame, `f64`. The manifold is geometry for a solver, accurate to
//! the rounding of the computation (relative `1e-12` of the objects' size in practice) and to
//! EPA's tolerance for the normal of non-face contacts: the collide/not-collide decision is the
//! exact test's, not the manifold's.

mod contact_manifold;
mod face_polygon;
mod manifold_reduce;
mod mesh_manifold;
mod polygon_clip;
mod triangle_pair;

pub use contact_manifold::{
    ContactManifold, ContactPoint, FACE_ALIGNMENT, MAX_CONTACT_POINTS, ManifoldKind,
    ManifoldWorkspace, contact_manifold,
};
pub use mesh_manifold::mesh_contact_manifold;
