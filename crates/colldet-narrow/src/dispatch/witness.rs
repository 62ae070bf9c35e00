//! [`Witness`]: the evidence a pair test gives for a collision, in world coordinates.

use colldet_geom::math::PointD;

/// A feature index that names no feature (the test knew none).
pub const NO_FEATURE: u32 = u32::MAX;

/// What kind of evidence a [`Witness`] holds. The numbers are the C API's `witness_kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u32)]
pub enum WitnessKind {
    /// Only the bounding boxes were tested (`Method::None`); features are 0.
    BoundingBoxes = 0,
    /// Convex pair: `feature_a`/`feature_b` are vertex indices (into each input mesh) of the last
    /// supporting pair; the point is the midpoint of those two vertices in world coordinates, a
    /// location in the contact region, not necessarily inside both solids. For two objects
    /// recognised as boxes under `Method::Auto` or `Method::Convex` the point lies in both boxes
    /// (when they only touch: within the touching band of both). When the test knew no
    /// supporting pair both features are [`NO_FEATURE`] and the point is the midpoint of the two
    /// hulls' box centres.
    SupportVertices = 1,
    /// Face `feature_a` of a intersects face `feature_b` of b (indices of the input faces; for an
    /// edge-face contact, a face bordering the edge); the point lies on both surfaces.
    FaceFace = 2,
    /// No surfaces cross: one object lies inside the other, closed one. The inner object's
    /// feature is its vertex found inside (the point is that vertex), the container's feature is
    /// [`NO_FEATURE`].
    Containment = 3,
}

/// Evidence for a collision, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Witness {
    /// What the features mean.
    pub kind: WitnessKind,
    /// A feature of object `a` (see [`WitnessKind`]).
    pub feature_a: u32,
    /// A feature of object `b`.
    pub feature_b: u32,
    /// A point of the collision, world coordinates.
    pub point: PointD,
}

impl Witness {
    /// The same witness with the roles of the two objects exchanged.
    pub fn swapped(self) -> Self {
        Self {
            feature_a: self.feature_b,
            feature_b: self.feature_a,
            ..self
        }
    }
}
