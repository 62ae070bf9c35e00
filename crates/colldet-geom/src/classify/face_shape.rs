//! Per-face geometry: Newell normals, planarity and polygon convexity.
//!
//! Convexity of a polygon: the polygon is projected onto the coordinate plane most parallel to it
//! (dropping the normal's dominant axis, which preserves the sign of every corner turn up to the
//! sign of that component), every corner turn is decided exactly with `orient2d` and must not go
//! against the polygon's orientation, and the polygon must wind exactly once (total turning
//! 2 pi). The second condition rejects star polygons whose corners all turn the same way; the
//! first rejects reflex corners such as an L-shape's (which the thesis's two-extrema test misses).

use crate::dcel::{Dcel, FaceId};
use crate::math::{Point, PointD, VectorD, to_f64};
use crate::normal::newell_normal_of;
use crate::predicates::orient2d;

/// Newell normals and shape flags of every face.
pub(crate) struct FaceShapes {
    /// Newell normal of each face (length = twice the area), f64.
    pub normals: Vec<VectorD>,
    pub non_planar: Vec<FaceId>,
    pub non_convex: Vec<FaceId>,
}

/// Newell's normal of a face (f64, length = twice the area); see [`crate::normal`]. Indices are
/// validated before classification, so a missing vertex cannot occur; it would give zero.
pub(crate) fn newell(vertices: &[Point], face: &[u32]) -> VectorD {
    newell_normal_of(vertices, face).unwrap_or_else(VectorD::zeros)
}

/// Centroid of a face's corners (f64).
pub(crate) fn corner_centroid(vertices: &[Point], face: &[u32]) -> PointD {
    let sum = face.iter().fold(VectorD::zeros(), |acc, &i| {
        acc + to_f64(&vertices[i as usize]).coords
    });
    PointD::from(sum / face.len() as f64)
}

/// Largest distance between a face's centroid and a corner, doubled: the face's size scale.
pub(crate) fn face_diameter(vertices: &[Point], face: &[u32], centroid: &PointD) -> f64 {
    2.0 * face
        .iter()
        .map(|&i| (to_f64(&vertices[i as usize]) - centroid).norm())
        .fold(0.0, f64::max)
}

fn is_planar(vertices: &[Point], face: &[u32], normal: &VectorD, tolerance: f64) -> bool {
    if face.len() == 3 {
        return true;
    }
    let length = normal.norm();
    if length == 0.0 {
        return false;
    }
    let unit = normal / length;
    let centroid = corner_centroid(vertices, face);
    let limit = tolerance * face_diameter(vertices, face, &centroid);
    face.iter()
        .all(|&i| (to_f64(&vertices[i as usize]) - centroid).dot(&unit).abs() <= limit)
}

fn is_convex_polygon(vertices: &[Point], face: &[u32], normal: &VectorD) -> bool {
    if face.len() == 3 {
        return true;
    }
    let mut sorted = face.to_vec();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return false;
    }
    let axis = normal.iamax();
    if normal[axis] == 0.0 {
        return false;
    }
    let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
    let sign = normal[axis].signum();
    let project = |i: u32| {
        let p = to_f64(&vertices[i as usize]);
        [p[u], p[v]]
    };
    let k = face.len();
    let mut turning = 0.0;
    for i in 0..k {
        let (a, b, c) = (
            project(face[i]),
            project(face[(i + 1) % k]),
            project(face[(i + 2) % k]),
        );
        if orient2d(a, b, c) * sign < 0.0 {
            return false;
        }
        let (e1, e2) = ([b[0] - a[0], b[1] - a[1]], [c[0] - b[0], c[1] - b[1]]);
        turning += (e1[0] * e2[1] - e1[1] * e2[0]).atan2(e1[0] * e2[0] + e1[1] * e2[1]);
    }
    let windings = (turning.abs() / std::f64::consts::TAU).round();
    windings == 1.0
}

/// Computes normals and the planar / convex flags of every face of `dcel`.
pub(crate) fn classify_faces(
    dcel: &Dcel,
    vertices: &[Point],
    planarity_tolerance: f64,
) -> FaceShapes {
    let mut shapes = FaceShapes {
        normals: Vec::with_capacity(dcel.face_count()),
        non_planar: Vec::new(),
        non_convex: Vec::new(),
    };
    for f in (0..dcel.face_count() as u32).map(FaceId) {
        let face = dcel.face_vertices(f);
        let normal = newell(vertices, face);
        if !is_planar(vertices, face, &normal, planarity_tolerance) {
            shapes.non_planar.push(f);
        }
        if !is_convex_polygon(vertices, face, &normal) {
            shapes.non_convex.push(f);
        }
        shapes.normals.push(normal);
    }
    shapes
}
