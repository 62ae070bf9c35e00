//! What a sweep reports: the time of impact as a certified bracket, the kind of the first
//! contact, the features on each side, and the contact point and normal.

use colldet_geom::math::{PointD, VectorD};

/// Which features of the two bodies meet at the first contact. "Moving" is the body the query
/// sweeps (the first body of a pair), "hit" the other one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContactKind {
    /// A vertex of the moving body touches a face of the hit body.
    VertexFace,
    /// A face of the moving body touches a vertex of the hit body.
    FaceVertex,
    /// An edge of the moving body touches an edge of the hit body.
    EdgeEdge,
}

impl ContactKind {
    /// The kind seen from the other body (vertex-face and face-vertex swap).
    pub fn swapped(self) -> Self {
        match self {
            Self::VertexFace => Self::FaceVertex,
            Self::FaceVertex => Self::VertexFace,
            Self::EdgeEdge => Self::EdgeEdge,
        }
    }
}

/// The fraction of the motion at first contact, as a bracket: the true first contact of the
/// motion the caller's numbers describe lies in `[lo, hi]`, and the bodies touch (within the
/// touching band, see `docs/ccd.md`) at `hi`. `0 <= lo <= hi <= 1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeOfImpact {
    /// No contact before this fraction (certified).
    pub lo: f64,
    /// The bodies touch at this fraction.
    pub hi: f64,
}

impl TimeOfImpact {
    /// A bracket of zero width.
    pub fn exact(t: f64) -> Self {
        Self { lo: t, hi: t }
    }

    /// The bracket's width `hi - lo`.
    pub fn width(&self) -> f64 {
        self.hi - self.lo
    }
}

/// A feature index into the mesh as the caller gave it: a vertex index, a face index (of the
/// input face list), or an edge (colldet's edge numbering: edges numbered in order of first
/// appearance walking the input faces in order, each face's corners in order; see
/// [`crate::SweepShape::edge_vertices`]).
pub type FeatureIndex = u32;

/// The first contact of a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepContact {
    /// When the bodies first touch.
    pub toi: TimeOfImpact,
    /// Which features touch.
    pub kind: ContactKind,
    /// The moving body's feature: a vertex (vertex-face), a face (face-vertex) or an edge.
    pub feature_moving: FeatureIndex,
    /// The hit body's feature: a face (vertex-face), a vertex (face-vertex) or an edge.
    pub feature_hit: FeatureIndex,
    /// The contact point at fraction `toi.hi`, in the frame the query was asked in (world
    /// coordinates for the world's queries).
    pub point: PointD,
    /// Unit contact normal at `toi.hi`, same frame, pointing from the hit body towards the moving
    /// body (the direction the moving body must go to separate).
    pub normal: VectorD,
    /// True when the bodies already touch at fraction 0 (the trace starts in contact): then
    /// `toi` is `[0, 0]` and the features are those found touching.
    pub initially_touching: bool,
}

impl SweepContact {
    /// The same contact described from the hit body's side: features and kind swapped, the normal
    /// negated.
    pub fn swapped(&self) -> Self {
        Self {
            kind: self.kind.swapped(),
            feature_moving: self.feature_hit,
            feature_hit: self.feature_moving,
            normal: -self.normal,
            ..*self
        }
    }
}
