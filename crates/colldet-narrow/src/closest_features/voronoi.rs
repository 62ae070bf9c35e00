//! Voronoi-region tests: is a point in the external Voronoi region of a feature, and if not, which
//! neighbouring feature does it lie towards?
//!
//! Rationale: the Voronoi region of a feature of a convex polyhedron is bounded by constraint
//! planes, one per neighbour (Lin and Canny; Mirtich's V-Clip):
//! * vertex `v`, per incident edge towards `w`: `(x - v) . (w - v) <= 0`;
//! * edge `a-b`: `(x - a) . (b - a) >= 0` (tail), `(x - b) . (b - a) <= 0` (head), and per face
//!   `F` along it, `(x - s) . (n_F x u) <= 0` where `s -> s + u` is the edge's half-edge in `F`
//!   (`n_F x u` points from the edge into `F`);
//! * face `F`, per boundary half-edge `s -> s + u`: `(x - s) . (n_F x u) >= 0`, and the face plane
//!   `n_F . (x - s) >= 0`.
//!
//! The vertex and edge regions contain no interior point of the polyhedron (an interior point near
//! `v` is a positive combination of the edge directions, so it violates some plane), so only the
//! face region needs its plane test. Each violation is measured as a distance (the plane normals
//! are normalised) and compared with `tau`, the caller's rounding allowance; the walk steps to the
//! neighbour across the most violated plane, the rule under which the distance between the
//! feature and the query point never increases.

use colldet_geom::Polyhedron;
use colldet_geom::dcel::{FaceId, HalfEdgeId};
use colldet_geom::math::{PointD, VectorD, to_f64};

use super::Feature;
use super::feature_geometry::local_face_normal;

/// Outcome of testing a point against a feature's Voronoi region.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum RegionTest {
    /// The point is in the region (up to `tau`).
    Inside,
    /// The point violates the constraint plane shared with this neighbour by more than `tau`
    /// (the largest violation).
    Step(Feature),
    /// The feature is a face, the point is inside the face's prism but more than `tau` behind its
    /// plane: a local minimum of the walk (the point may be inside the polyhedron).
    Behind,
}

#[inline]
fn point(poly: &Polyhedron, v: u32) -> PointD {
    to_f64(&poly.vertices()[v as usize])
}

/// The unit vector in face `f`'s plane, perpendicular to half-edge `h` (of `f`, from `s` to `s +
/// u`), pointing into the face; zero when degenerate.
fn inward(normal: &VectorD, u: &VectorD) -> VectorD {
    let w = normal.cross(u);
    let length = w.norm();
    if length > 0.0 { w / length } else { w }
}

/// Tests `x` (in `poly`'s frame) against the Voronoi region of `feature` of `poly`.
pub(crate) fn test_region(poly: &Polyhedron, feature: Feature, x: &PointD, tau: f64) -> RegionTest {
    let dcel = poly.dcel();
    let mut worst = tau;
    let mut step = None;
    match feature {
        Feature::Vertex(v) => {
            let p = point(poly, v.0);
            for h in dcel.vertex_half_edges(v) {
                let u = point(poly, dcel.destination(h).0) - p;
                let length = u.norm();
                if length == 0.0 {
                    continue;
                }
                let violation = (x - p).dot(&u) / length;
                if violation > worst {
                    worst = violation;
                    step = Some(Feature::Edge(dcel.edge(h)));
                }
            }
        }
        Feature::Edge(e) => {
            let [va, vb] = dcel.edge_vertices(e);
            let (a, b) = (point(poly, va.0), point(poly, vb.0));
            let u = b - a;
            let length = u.norm();
            if length > 0.0 {
                let tail = -(x - a).dot(&u) / length;
                if tail > worst {
                    worst = tail;
                    step = Some(Feature::Vertex(va));
                }
                let head = (x - b).dot(&u) / length;
                if head > worst {
                    worst = head;
                    step = Some(Feature::Vertex(vb));
                }
            }
            for h in dcel.edge_half_edges(e) {
                let f = dcel.face(h);
                let (s, w) = half_edge_plane(poly, h, &local_face_normal(poly, f));
                let violation = (x - s).dot(&w);
                if violation > worst {
                    worst = violation;
                    step = Some(Feature::Face(f));
                }
            }
        }
        Feature::Face(f) => {
            let normal = local_face_normal(poly, f);
            for h in dcel.face_loop(f) {
                let (s, w) = half_edge_plane(poly, h, &normal);
                let violation = -(x - s).dot(&w);
                if violation > worst {
                    worst = violation;
                    step = Some(Feature::Edge(dcel.edge(h)));
                }
            }
            if step.is_none() {
                let s = point(poly, dcel.origin(dcel.face_half_edge(f)).0);
                if -normal.dot(&(x - s)) > tau {
                    return RegionTest::Behind;
                }
            }
        }
    }
    step.map_or(RegionTest::Inside, RegionTest::Step)
}

/// The start of half-edge `h` and the unit in-face direction pointing from it into its face.
#[inline]
fn half_edge_plane(poly: &Polyhedron, h: HalfEdgeId, normal: &VectorD) -> (PointD, VectorD) {
    let dcel = poly.dcel();
    let s = point(poly, dcel.origin(h).0);
    let d = point(poly, dcel.destination(h).0);
    (s, inward(normal, &(d - s)))
}

/// The face whose plane `x` is farthest in front of (largest signed distance `n_F . (x - s)`),
/// with that signed distance. For a convex polyhedron a non-positive value means `x` is inside
/// (or on) it, at distance `-value` from its boundary. Visits every face: only the walk's local
/// minima (a point behind a face) call it.
pub(crate) fn farthest_face_plane(poly: &Polyhedron, x: &PointD) -> (FaceId, f64) {
    let dcel = poly.dcel();
    let mut best = (FaceId(0), f64::NEG_INFINITY);
    for i in 0..dcel.face_count() {
        let f = FaceId(i as u32);
        let normal = local_face_normal(poly, f);
        let s = point(poly, dcel.face_vertices(f)[0]);
        let signed = normal.dot(&(x - s));
        if signed > best.1 {
            best = (f, signed);
        }
    }
    best
}
