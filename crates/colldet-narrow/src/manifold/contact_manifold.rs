//! [`contact_manifold`]: the manifold of two convex objects from their penetration.

use colldet_geom::dcel::VertexId;
use colldet_geom::math::{PointD, VectorD};

use super::face_polygon::{FacePolygon, FaceScratch, best_face_around, supporting_face};
use super::manifold_reduce::{Candidate, reduce_to_four};
use super::polygon_clip::clip_to_prism;
use super::triangle_pair::PairPenetration;
use crate::dispatch::NO_FEATURE;
use crate::{Penetration, PoseMatrix, PreparedShape};

/// Most contact points a manifold holds.
pub const MAX_CONTACT_POINTS: usize = 4;

/// A face takes part in a face contact when `normal . face normal` is at least this (an angle
/// of about 1.4e-3 radians).
pub const FACE_ALIGNMENT: f64 = 1.0 - 1e-6;

/// How the points of a manifold were found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ManifoldKind {
    /// No contact: the manifold is empty.
    #[default]
    Empty,
    /// A face of one object (the reference) against the other: the points are the other
    /// object's face clipped to it (face-face, face-edge, face-vertex).
    Face,
    /// No face is aligned with the normal (edge-edge, edge-vertex): one point pair.
    Point,
    /// A common point of both objects and nothing more: no normal, depth 0. What a world
    /// reports for colliding objects that are not both convex (depth is not computed for
    /// non-convex solids).
    Witness,
}

/// One contact point pair, object a's frame: `point_a - point_b = depth * normal`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactPoint {
    /// The point on (or inside) a.
    pub point_a: PointD,
    /// The point on (or inside) b.
    pub point_b: PointD,
    /// How deep the points are in each other along the manifold's normal: `> 0` penetrating,
    /// `0` touching, slightly negative inside the touching band.
    pub depth: f64,
}

/// The contact manifold of two convex objects (module docs of [`crate::manifold`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactManifold {
    /// Unit normal from a towards b: moving b by `depth * normal` separates the objects (EPA's
    /// normal, the penetration's direction).
    pub normal: VectorD,
    /// The largest depth among the points.
    pub depth: f64,
    /// The points; the first `count` are meaningful.
    pub points: [ContactPoint; MAX_CONTACT_POINTS],
    /// Number of points, `0..=4`.
    pub count: usize,
    /// How the points were found.
    pub kind: ManifoldKind,
    /// Input face index of a's face in the contact (reference or incident face), or
    /// [`NO_FEATURE`] for a point contact.
    pub face_a: u32,
    /// Input face index of b's face in the contact, or [`NO_FEATURE`].
    pub face_b: u32,
}

impl ContactManifold {
    /// The meaningful points.
    pub fn points(&self) -> &[ContactPoint] {
        &self.points[..self.count]
    }
}

/// Reusable buffers of [`contact_manifold`] (no allocation once warm).
#[derive(Clone, Debug, Default)]
pub struct ManifoldWorkspace {
    faces: FaceScratch,
    reference: FacePolygon,
    incident: FacePolygon,
    clipped: Vec<PointD>,
    clip_scratch: Vec<PointD>,
    pub(super) candidates: Vec<Candidate>,
    /// Clipping buffers of the triangle pairs of [`super::mesh_contact_manifold`].
    pub(super) pair_scratch: [Vec<PointD>; 2],
    /// Each hit's penetration in [`super::mesh_contact_manifold`] (`None`: degenerate).
    pub(super) pair_penetrations: Vec<Option<PairPenetration>>,
}

/// The face of a convex object most aligned with `dir` (local unit vector), around its supporting
/// vertex: `(face, unit normal, alignment)`.
fn aligned_face(
    shape: &PreparedShape,
    dir: &VectorD,
) -> Option<(colldet_geom::dcel::FaceId, VectorD, f64)> {
    let hull = shape.hull()?;
    let vertex = hull.support_hill_climb_f64_warm(dir, 0).vertex;
    let v = VertexId(hull.source_vertices()[vertex as usize]);
    best_face_around(shape.polyhedron(), v, dir)
}

/// The contact manifold of convex objects `a` and `b` (b's pose in a's frame `pos12`) from their
/// penetration `pen` (EPA's, a's frame; its depth may be slightly negative inside the touching
/// band) with touching tolerance `tolerance` (points up to that far apart are kept). Results in
/// a's frame. A pair whose normal is zero, or of which an object is not convex (its hull is not
/// the object), gets EPA's point alone.
pub fn contact_manifold(
    a: &PreparedShape,
    b: &PreparedShape,
    pos12: &PoseMatrix,
    pen: &Penetration,
    tolerance: f64,
    ws: &mut ManifoldWorkspace,
) -> ContactManifold {
    let n = pen.normal;
    let single = ContactManifold {
        normal: n,
        depth: pen.depth,
        points: [
            ContactPoint {
                point_a: pen.point1,
                point_b: pen.point2,
                depth: pen.depth,
            },
            ContactPoint::default(),
            ContactPoint::default(),
            ContactPoint::default(),
        ],
        count: 1,
        kind: ManifoldKind::Point,
        face_a: NO_FEATURE,
        face_b: NO_FEATURE,
    };
    let unit = n.norm();
    if !(unit > 0.5 && unit.is_finite() && a.is_convex() && b.is_convex()) {
        return single;
    }
    let rot = pos12.rotation();
    let rot_t = rot.transpose();
    // a's face along n; b's face along -n (b's frame), its normal mapped to a's frame.
    let Some((face_a, normal_a, align_a)) = aligned_face(a, &n) else {
        return single;
    };
    let Some((face_b, normal_b_local, align_b)) = aligned_face(b, &(rot_t * -n)) else {
        return single;
    };
    if align_a.max(align_b) < FACE_ALIGNMENT {
        return single;
    }
    let (radius_a, radius_b) = (f64::from(a.radius()), f64::from(b.radius()));
    // The reference is the better aligned face (a's on a tie); the incident face is the other
    // object's, in a's frame.
    let a_is_reference = align_a >= align_b;
    let ManifoldWorkspace {
        faces,
        reference,
        incident,
        clipped,
        clip_scratch,
        candidates,
        ..
    } = ws;
    let place_b = |poly: &mut FacePolygon| {
        poly.normal = rot * poly.normal;
        for c in &mut poly.corners {
            *c = pos12.transform_point(c);
        }
    };
    if a_is_reference {
        supporting_face(a.polyhedron(), face_a, normal_a, radius_a, faces, reference);
        supporting_face(
            b.polyhedron(),
            face_b,
            normal_b_local,
            radius_b,
            faces,
            incident,
        );
        place_b(incident);
    } else {
        supporting_face(
            b.polyhedron(),
            face_b,
            normal_b_local,
            radius_b,
            faces,
            reference,
        );
        place_b(reference);
        supporting_face(a.polyhedron(), face_a, normal_a, radius_a, faces, incident);
    }
    let n_ref = reference.normal;
    // The manifold's normal is EPA's (the shortest separating translation); depths are measured
    // along it, from each incident point to the reference plane. `toward` is the normal signed
    // like the reference face's: within FACE_ALIGNMENT of it.
    let toward = if a_is_reference { n } else { -n };
    let cos = n_ref.dot(&toward);
    let origin = reference.corners[0];
    clipped.clear();
    clipped.extend_from_slice(&incident.corners);
    clip_to_prism(clipped, &reference.corners, &toward, clip_scratch);
    candidates.clear();
    for p in clipped.iter() {
        let depth = -n_ref.dot(&(p - origin)) / cos;
        if depth >= -tolerance {
            candidates.push((*p, depth));
        }
    }
    if candidates.is_empty() {
        return single;
    }
    // Deep in, the deepest point of the incident object may lie beyond the reference face's
    // prism: EPA's point pair then joins, so the manifold's depth is the penetration depth.
    let clipped_depth = candidates
        .iter()
        .map(|c| c.1)
        .fold(f64::NEG_INFINITY, f64::max);
    if pen.depth > clipped_depth + tolerance {
        let deepest = if a_is_reference {
            pen.point2
        } else {
            pen.point1
        };
        candidates.push((deepest, pen.depth));
    }
    reduce_to_four(candidates, &n_ref);
    let mut manifold = ContactManifold {
        normal: n,
        depth: f64::NEG_INFINITY,
        points: [ContactPoint::default(); MAX_CONTACT_POINTS],
        count: candidates.len(),
        kind: ManifoldKind::Face,
        face_a: if a_is_reference {
            reference.face
        } else {
            incident.face
        },
        face_b: if a_is_reference {
            incident.face
        } else {
            reference.face
        },
    };
    for (slot, &(p, depth)) in manifold.points.iter_mut().zip(candidates.iter()) {
        // p is on the incident object; where the normal through it meets the reference plane is
        // on the reference object.
        let on_reference = p + toward * depth;
        let (point_a, point_b) = if a_is_reference {
            (on_reference, p)
        } else {
            (p, on_reference)
        };
        *slot = ContactPoint {
            point_a,
            point_b,
            depth,
        };
        manifold.depth = manifold.depth.max(depth);
    }
    manifold
}
