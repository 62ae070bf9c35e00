//! Geometry of features in `f64`: the relative pose, face planes computed from the vertices, and
//! the closest points between two features (point, segment or convex polygon).
//!
//! Rationale: mesh vertices are `f32` and widen to `f64` exactly; face normals are recomputed here
//! from the vertices (sum of fan cross products, exact direction for triangles up to one rounding
//! per product) instead of trusting the stored `f32` normals. A face of the second polyhedron is
//! placed in the first one's frame vertex by vertex (only the vertices of the features at hand are
//! ever transformed). The closest-point routines are exact in structure (every candidate pair of a
//! convex closest-pair problem is tried) and accurate to `f64` rounding.

use crate::NarrowError;
use crate::RelativePose;
use colldet_geom::Polyhedron;
use colldet_geom::dcel::FaceId;
use colldet_geom::math::{PointD, VectorD, to_f64};
use colldet_geom::segment::{closest_point_on_segment, closest_points_between_segments};
use nalgebra::Matrix3;

use super::Feature;

/// `pos12` in `f64`: maps shape 2's local coordinates into shape 1's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairPose {
    pub rot: Matrix3<f64>,
    pub trans: VectorD,
}

impl PairPose {
    /// Widens `pos12`, normalising its quaternion in `f64`.
    ///
    /// # Errors
    /// [`NarrowError::NonFinite`] for a NaN or infinite translation or rotation (or a quaternion
    /// too far from unit length to be a rotation).
    pub(crate) fn new<P: RelativePose + ?Sized>(pos12: &P) -> Result<Self, NarrowError> {
        let (rot, trans) = pos12.widened_parts()?;
        Ok(Self { rot, trans })
    }

    /// A point of shape 1's frame expressed in shape 2's frame.
    #[inline]
    pub(crate) fn point_in_frame2(&self, p: &PointD) -> PointD {
        PointD::from(self.rot.transpose() * (p.coords - self.trans))
    }
}

/// A polyhedron placed in the query frame (shape 1's): identity for shape 1, `pos12` for shape 2.
#[derive(Clone, Copy)]
pub(crate) struct Placed<'a> {
    pub poly: &'a Polyhedron,
    pub rot: Matrix3<f64>,
    pub trans: VectorD,
}

impl<'a> Placed<'a> {
    /// The polyhedron in its own frame.
    pub(crate) fn local(poly: &'a Polyhedron) -> Self {
        Self {
            poly,
            rot: Matrix3::identity(),
            trans: VectorD::zeros(),
        }
    }

    /// The polyhedron under `pose`.
    pub(crate) fn posed(poly: &'a Polyhedron, pose: &PairPose) -> Self {
        Self {
            poly,
            rot: pose.rot,
            trans: pose.trans,
        }
    }

    /// Vertex `v` (an input index) in the query frame.
    #[inline]
    pub(crate) fn point(&self, v: u32) -> PointD {
        let local = to_f64(&self.poly.vertices()[v as usize]);
        PointD::from(self.rot * local.coords + self.trans)
    }

    /// The unit outward normal of face `f` in the query frame (zero for a zero-area face).
    pub(crate) fn face_normal(&self, f: FaceId) -> VectorD {
        self.rot * local_face_normal(self.poly, f)
    }
}

/// The unit outward normal of face `f` in the polyhedron's frame, from its vertices in `f64`: the
/// sum of the fan cross products `(v_i - v_0) x (v_{i+1} - v_0)` (the exact direction of a planar
/// polygon's area vector, one cross product for a triangle). Zero for a zero-area face.
pub(crate) fn local_face_normal(poly: &Polyhedron, f: FaceId) -> VectorD {
    let corners = poly.dcel().face_vertices(f);
    let vertices = poly.vertices();
    let origin = to_f64(&vertices[corners[0] as usize]);
    let mut sum = VectorD::zeros();
    let mut previous = to_f64(&vertices[corners[1] as usize]) - origin;
    for &c in &corners[2..] {
        let current = to_f64(&vertices[c as usize]) - origin;
        sum += previous.cross(&current);
        previous = current;
    }
    let length = sum.norm();
    if length > 0.0 && length.is_finite() {
        sum / length
    } else {
        VectorD::zeros()
    }
}

/// A face placed in the query frame, with its unit normal.
struct Polygon<'a> {
    placed: &'a Placed<'a>,
    corners: &'a [u32],
    normal: VectorD,
}

impl<'a> Polygon<'a> {
    fn new(placed: &'a Placed<'a>, f: FaceId) -> Self {
        Self {
            placed,
            corners: placed.poly.dcel().face_vertices(f),
            normal: placed.face_normal(f),
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.corners.len()
    }

    #[inline]
    fn vertex(&self, i: usize) -> PointD {
        self.placed.point(self.corners[i % self.corners.len()])
    }

    /// True when `p`'s projection onto the face's plane lies in the polygon (boundary included).
    fn contains_projection(&self, p: &PointD) -> bool {
        let mut a = self.vertex(0);
        for i in 0..self.len() {
            let b = self.vertex(i + 1);
            let inward = self.normal.cross(&(b - a));
            if (p - a).dot(&inward) < 0.0 {
                return false;
            }
            a = b;
        }
        true
    }

    /// The point of the polygon closest to `p`.
    fn closest_to_point(&self, p: &PointD) -> PointD {
        let a = self.vertex(0);
        if self.contains_projection(p) {
            return p - self.normal * self.normal.dot(&(p - a));
        }
        let mut best = a;
        let mut best_sq = f64::INFINITY;
        let mut a = a;
        for i in 0..self.len() {
            let b = self.vertex(i + 1);
            let q = closest_point_on_segment(p, &a, &b);
            let sq = (p - q).norm_squared();
            if sq < best_sq {
                best_sq = sq;
                best = q;
            }
            a = b;
        }
        best
    }

    /// Closest points `(on the segment a-b, on the polygon)`.
    fn closest_to_segment(&self, a: &PointD, b: &PointD) -> (PointD, PointD) {
        let origin = self.vertex(0);
        let sa = self.normal.dot(&(a - origin));
        let sb = self.normal.dot(&(b - origin));
        if ((sa <= 0.0 && sb >= 0.0) || (sa >= 0.0 && sb <= 0.0)) && sa != sb {
            let x = a + (b - a) * (sa / (sa - sb));
            if self.contains_projection(&x) {
                return (x, x);
            }
        }
        let mut best = (*a, self.closest_to_point(a));
        let mut best_sq = (best.0 - best.1).norm_squared();
        let cb = self.closest_to_point(b);
        let sq = (b - cb).norm_squared();
        if sq < best_sq {
            best = (*b, cb);
            best_sq = sq;
        }
        let mut e0 = origin;
        for i in 0..self.len() {
            let e1 = self.vertex(i + 1);
            let (on_segment, on_edge) = closest_points_between_segments(a, b, &e0, &e1);
            let sq = (on_segment - on_edge).norm_squared();
            if sq < best_sq {
                best = (on_segment, on_edge);
                best_sq = sq;
            }
            e0 = e1;
        }
        best
    }
}

/// The end points of an edge feature in the query frame.
fn segment(placed: &Placed<'_>, e: colldet_geom::dcel::EdgeId) -> (PointD, PointD) {
    let [a, b] = placed.poly.dcel().edge_vertices(e);
    (placed.point(a.0), placed.point(b.0))
}

/// Closest points `(on f1, on f2)` of two features placed in the query frame.
pub(crate) fn closest_points(
    placed1: &Placed<'_>,
    f1: Feature,
    placed2: &Placed<'_>,
    f2: Feature,
) -> (PointD, PointD) {
    match (f1, f2) {
        (Feature::Vertex(v1), Feature::Vertex(v2)) => (placed1.point(v1.0), placed2.point(v2.0)),
        (Feature::Vertex(v1), Feature::Edge(e2)) => {
            let p = placed1.point(v1.0);
            let (a, b) = segment(placed2, e2);
            (p, closest_point_on_segment(&p, &a, &b))
        }
        (Feature::Vertex(v1), Feature::Face(g2)) => {
            let p = placed1.point(v1.0);
            (p, Polygon::new(placed2, g2).closest_to_point(&p))
        }
        (Feature::Edge(e1), Feature::Edge(e2)) => {
            let (a, b) = segment(placed1, e1);
            let (c, d) = segment(placed2, e2);
            closest_points_between_segments(&a, &b, &c, &d)
        }
        (Feature::Edge(e1), Feature::Face(g2)) => {
            let (a, b) = segment(placed1, e1);
            Polygon::new(placed2, g2).closest_to_segment(&a, &b)
        }
        (Feature::Face(g1), Feature::Face(g2)) => {
            let poly1 = Polygon::new(placed1, g1);
            let poly2 = Polygon::new(placed2, g2);
            let mut best = (poly1.vertex(0), poly2.vertex(0));
            let mut best_sq = f64::INFINITY;
            for i in 0..poly1.len() {
                let (on_edge, on_face) =
                    poly2.closest_to_segment(&poly1.vertex(i), &poly1.vertex(i + 1));
                let sq = (on_edge - on_face).norm_squared();
                if sq < best_sq {
                    best = (on_edge, on_face);
                    best_sq = sq;
                }
            }
            for i in 0..poly2.len() {
                let (on_edge, on_face) =
                    poly1.closest_to_segment(&poly2.vertex(i), &poly2.vertex(i + 1));
                let sq = (on_edge - on_face).norm_squared();
                if sq < best_sq {
                    best = (on_face, on_edge);
                    best_sq = sq;
                }
            }
            best
        }
        (Feature::Edge(_) | Feature::Face(_), Feature::Vertex(_))
        | (Feature::Face(_), Feature::Edge(_)) => {
            let (q2, q1) = closest_points(placed2, f2, placed1, f1);
            (q1, q2)
        }
    }
}
