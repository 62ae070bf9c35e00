//! Widening a closest feature to the whole feature exposed in the separation direction, so that
//! parallel faces are reported as a face pair and an edge parallel to a face as an edge.
//!
//! Rationale: when the closest points are not unique (parallel features) the walk stops at any
//! valid pair, often a vertex or an edge of the contact region. The largest feature of a convex
//! polyhedron containing closest points is the face (or edge, or vertex) exposed by the
//! separation direction `n`: every point of it lies on the supporting plane through the closest
//! point. A neighbour of the walk's feature is taken when all its vertices lie within `slack` of
//! that plane (the caller passes the touching tolerance, so a face tilted from parallel by rounding
//! of the pose is still reported as a face: every point of the reported feature is within `slack`
//! of the closest distance); faces are preferred to edges.

use super::Feature;
use super::feature_geometry::Placed;
use colldet_geom::dcel::FaceId;
use colldet_geom::math::{PointD, VectorD};

/// True when every corner of face `f` is within `slack` of the plane through `p` with normal `n`.
fn face_on_plane(placed: &Placed<'_>, f: FaceId, p: &PointD, n: &VectorD, slack: f64) -> bool {
    placed
        .poly
        .dcel()
        .face_vertices(f)
        .iter()
        .all(|&v| (placed.point(v) - p).dot(n).abs() <= slack)
}

/// The feature exposed by the unit direction `n` (outward from the polyhedron, in the query
/// frame) that contains `feature`, found among `feature`'s incident faces and edges; `p` is a
/// closest point on `feature`.
pub(crate) fn widen(
    placed: &Placed<'_>,
    feature: Feature,
    p: &PointD,
    n: &VectorD,
    slack: f64,
) -> Feature {
    let dcel = placed.poly.dcel();
    match feature {
        Feature::Face(_) => feature,
        Feature::Edge(e) => dcel
            .edge_faces(e)
            .find(|&f| face_on_plane(placed, f, p, n, slack))
            .map_or(feature, Feature::Face),
        Feature::Vertex(v) => {
            if let Some(f) = dcel
                .vertex_faces(v)
                .find(|&f| face_on_plane(placed, f, p, n, slack))
            {
                return Feature::Face(f);
            }
            dcel.vertex_half_edges(v)
                .find(|&h| (placed.point(dcel.destination(h).0) - p).dot(n).abs() <= slack)
                .map_or(feature, |h| Feature::Edge(dcel.edge(h)))
        }
    }
}
