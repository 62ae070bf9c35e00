//! The surface phase: the first pair of closed triangles (one per mesh) sharing a point.
//!
//! Triangle pairs are filtered by their `f64` boxes widened by [`BOX_MARGIN`] of the scene's
//! magnitude, far more than the rounding of the `f64` coordinates, so no meeting pair is dropped;
//! the pairs left are decided exactly.

use super::exact_points::WorldVertices;
use super::predicates::{ExactTriangle, triangles_meet};

/// Relative widening of the `f64` boxes of the filters.
pub const BOX_MARGIN: f64 = 1e-6;

/// An axis-aligned box in `f64`.
#[derive(Clone, Copy, Debug)]
pub struct Box3 {
    /// Smallest corner.
    pub min: [f64; 3],
    /// Largest corner.
    pub max: [f64; 3],
}

impl Box3 {
    /// The box of `points`, widened by `margin` on every side.
    pub fn around<'a>(points: impl IntoIterator<Item = &'a [f64; 3]>, margin: f64) -> Self {
        let mut b = Box3 {
            min: [f64::INFINITY; 3],
            max: [f64::NEG_INFINITY; 3],
        };
        for p in points {
            for (k, &c) in p.iter().enumerate() {
                b.min[k] = b.min[k].min(c);
                b.max[k] = b.max[k].max(c);
            }
        }
        for k in 0..3 {
            b.min[k] -= margin;
            b.max[k] += margin;
        }
        b
    }

    /// Whether the closed boxes overlap.
    pub fn overlaps(&self, other: &Box3) -> bool {
        (0..3).all(|k| self.min[k] <= other.max[k] && other.min[k] <= self.max[k])
    }
}

/// The filter margin for two meshes: [`BOX_MARGIN`] of the larger magnitude (plus the smallest
/// normal double, for meshes at the origin of size zero).
pub fn margin(a: &WorldVertices, b: &WorldVertices) -> f64 {
    BOX_MARGIN * a.magnitude.max(b.magnitude) + f64::MIN_POSITIVE
}

/// The widened `f64` boxes of `triangles`.
pub fn triangle_boxes(v: &WorldVertices, triangles: &[[u32; 3]], margin: f64) -> Vec<Box3> {
    triangles
        .iter()
        .map(|t| Box3::around(t.iter().map(|&i| &v.approx[i as usize]), margin))
        .collect()
}

/// The first pair `(triangle of a, triangle of b)` of closed triangles sharing a point, in the
/// order of `a`'s triangles, or `None`.
pub fn first_contact(
    a: &WorldVertices,
    tri_a: &[[u32; 3]],
    b: &WorldVertices,
    tri_b: &[[u32; 3]],
) -> Option<(usize, usize)> {
    let m = margin(a, b);
    let boxes_a = triangle_boxes(a, tri_a, m);
    let boxes_b = triangle_boxes(b, tri_b, m);
    let all_a = Box3::around(&a.approx, m);
    let all_b = Box3::around(&b.approx, m);
    let mut near_b: Vec<usize> = (0..tri_b.len())
        .filter(|&j| boxes_b[j].overlaps(&all_a))
        .collect();
    near_b.sort_by(|&i, &j| boxes_b[i].min[0].total_cmp(&boxes_b[j].min[0]));
    for (i, box_a) in boxes_a.iter().enumerate() {
        if !box_a.overlaps(&all_b) {
            continue;
        }
        let end = near_b.partition_point(|&j| boxes_b[j].min[0] <= box_a.max[0]);
        let mut exact_a = None;
        for &j in &near_b[..end] {
            if !box_a.overlaps(&boxes_b[j]) {
                continue;
            }
            let ta = exact_a.get_or_insert_with(|| exact_triangle(a, &tri_a[i]));
            if triangles_meet(ta, &exact_triangle(b, &tri_b[j])) {
                return Some((i, j));
            }
        }
    }
    None
}

/// Triangle `t` of `v` with its exact normal.
pub fn exact_triangle<'a>(v: &'a WorldVertices, t: &[u32; 3]) -> ExactTriangle<'a> {
    let [p, q, r] = t.map(|i| &v.exact[i as usize]);
    ExactTriangle::new(p, q, r)
}
