//! Exact intersection test of two closed triangles (touching counts), with a witness point.
//!
//! Rationale: every sign is an exact `orient3d`/`orient2d` on `f64` coordinates (`f32` mesh
//! data widens exactly), so the answer is the true answer for the given coordinates, including
//! touching at a vertex, along an edge, and coplanar overlap. General case (Guigue-Devillers
//! style): each triangle must straddle or touch the other's plane; after a cyclic rotation that
//! puts the vertex alone on its side first, and flipping the other triangle so that vertex is on
//! the positive side, the two segments cut from the planes' common line overlap iff two
//! orientation determinants have the right sign. A triangle touching the other plane only at
//! one vertex (the other two strictly on one side) is decided as vertex-in-triangle, and
//! degenerate (collinear) triangles are decided edge by edge, so no special case reaches the
//! determinant rule with a zero-length interval. Coplanar pairs use a 2D overlap test in the
//! projection dropping the axis of largest projected area (injective on the common plane).
//! The witness point is computed afterwards in plain `f64` and is approximate.

use super::exact::{
    dominant_axis, drop_axis, point_in_triangle_2d, segment_triangle, triangle_is_degenerate,
    triangles_intersect_2d, vol,
};
use colldet_geom::math::{Point, PointD, to_f64};

/// Exact test of two closed triangles given in `f32` (widened to `f64` without rounding), in
/// one common frame. Returns `None` when they are disjoint and an approximate common point
/// (same frame, `f64`) when they share at least one point; touching counts.
///
/// Degenerate triangles (collinear or coincident corners) are treated as the segments or points
/// they are. Coordinates must be finite: non-finite input gives an unspecified answer (never a
/// panic); meshes built by [`colldet_geom::Polyhedron::build`] are finite. No allocation.
#[inline]
pub fn triangles_intersect(a: &[Point; 3], b: &[Point; 3]) -> Option<PointD> {
    triangles_intersect_f64(&a.map(|p| to_f64(&p)), &b.map(|p| to_f64(&p)))
}

/// [`triangles_intersect`] on `f64` corners (for instance one triangle mapped by `pos12` into the
/// other's frame). Every decision is exact for the given `f64` values.
pub fn triangles_intersect_f64(a: &[PointD; 3], b: &[PointD; 3]) -> Option<PointD> {
    if triangles_meet(a, b) {
        Some(witness_point(a, b))
    } else {
        None
    }
}

/// Exact closed segment `uv` versus closed triangle `t` (either may be degenerate), all in one
/// frame. Returns an approximate point of the intersection (`f64`) when they meet. Exact
/// decision; no allocation.
#[inline]
pub fn segment_triangle_intersect(u: &PointD, v: &PointD, t: &[PointD; 3]) -> Option<PointD> {
    segment_triangle(u, v, t)
}

/// The yes/no decision of [`triangles_intersect_f64`].
fn triangles_meet(t1: &[PointD; 3], t2: &[PointD; 3]) -> bool {
    if triangle_is_degenerate(t1) || triangle_is_degenerate(t2) {
        return edges_meet(t1, t2);
    }
    let d1 = t1.map(|p| vol(&t2[0], &t2[1], &t2[2], &p));
    if d1[0] == d1[1] && d1[1] == d1[2] && d1[0] != 0 {
        return false;
    }
    let d2 = t2.map(|p| vol(&t1[0], &t1[1], &t1[2], &p));
    if d2[0] == d2[1] && d2[1] == d2[2] && d2[0] != 0 {
        return false;
    }
    if d1 == [0, 0, 0] {
        let (k, _) = dominant_axis(t1);
        return triangles_intersect_2d(t1.map(|p| drop_axis(&p, k)), t2.map(|p| drop_axis(&p, k)));
    }
    if let Some(i) = single_touching_vertex(&d1) {
        return point_in_plane_triangle(&t1[i], t2);
    }
    if let Some(i) = single_touching_vertex(&d2) {
        return point_in_plane_triangle(&t2[i], t1);
    }
    // Put the vertex alone on its side first, on the positive side of the other plane.
    let i1 = lone_vertex(&d1);
    let mut p1 = [t1[i1], t1[(i1 + 1) % 3], t1[(i1 + 2) % 3]];
    let i2 = lone_vertex(&d2);
    let mut p2 = [t2[i2], t2[(i2 + 1) % 3], t2[(i2 + 2) % 3]];
    if d1[i1] < 0 {
        p2.swap(1, 2);
    }
    if d2[i2] < 0 {
        p1.swap(1, 2);
    }
    let [a1, b1, c1] = &p1;
    let [a2, b2, c2] = &p2;
    vol(a1, b1, a2, b2) <= 0 && vol(a1, c1, c2, a2) <= 0
}

/// Index of the only vertex on the plane when the other two lie strictly on one side.
#[inline]
fn single_touching_vertex(d: &[i8; 3]) -> Option<usize> {
    (0..3).find(|&i| d[i] == 0 && d[(i + 1) % 3] == d[(i + 2) % 3] && d[(i + 1) % 3] != 0)
}

/// Index of a vertex strictly on one side with the other two on the other side or on the plane.
/// Callers have excluded: all on one strict side, all on the plane, a single touching vertex.
#[inline]
fn lone_vertex(d: &[i8; 3]) -> usize {
    (0..3)
        .find(|&i| d[i] != 0 && d[(i + 1) % 3] != d[i] && d[(i + 2) % 3] != d[i])
        .unwrap_or(0)
}

/// True when `p`, known to lie on the plane of the non-degenerate triangle `t`, lies in it.
#[inline]
fn point_in_plane_triangle(p: &PointD, t: &[PointD; 3]) -> bool {
    let (k, _) = dominant_axis(t);
    point_in_triangle_2d(t.map(|q| drop_axis(&q, k)), drop_axis(p, k))
}

/// Closed triangles meet iff an edge of one meets the other triangle: the decision used when a
/// triangle is degenerate.
fn edges_meet(t1: &[PointD; 3], t2: &[PointD; 3]) -> bool {
    (0..3).any(|i| {
        segment_triangle(&t1[i], &t1[(i + 1) % 3], t2).is_some()
            || segment_triangle(&t2[i], &t2[(i + 1) % 3], t1).is_some()
    })
}

/// An approximate common point of two triangles known to meet: the first edge of either that
/// meets the other (one always does for closed triangles).
fn witness_point(t1: &[PointD; 3], t2: &[PointD; 3]) -> PointD {
    for i in 0..3 {
        if let Some(p) = segment_triangle(&t1[i], &t1[(i + 1) % 3], t2) {
            return p;
        }
        if let Some(p) = segment_triangle(&t2[i], &t2[(i + 1) % 3], t1) {
            return p;
        }
    }
    debug_assert!(false, "meeting triangles without a meeting edge");
    t1[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::test_support::{MeshDraws, SplitMix, point_triangle_distance};

    fn p(x: f64, y: f64, z: f64) -> PointD {
        PointD::new(x, y, z)
    }

    /// Asserts the decision against the edge-based oracle and, when they meet, that the witness
    /// lies on both triangles up to rounding relative to the coordinates' size.
    fn check(t1: &[PointD; 3], t2: &[PointD; 3], case: usize) -> bool {
        let expected = edges_meet(t1, t2);
        let got = triangles_intersect_f64(t1, t2);
        assert_eq!(got.is_some(), expected, "case {case}: {t1:?} {t2:?}");
        let swapped = triangles_intersect_f64(t2, t1);
        assert_eq!(swapped.is_some(), expected, "case {case} swapped");
        if let Some(w) = got {
            let scale = t1
                .iter()
                .chain(t2)
                .map(|q| q.coords.amax())
                .fold(1.0, f64::max);
            let tol = 1e-9 * scale;
            assert!(
                point_triangle_distance(&w, t1) <= tol,
                "case {case}: witness off t1"
            );
            assert!(
                point_triangle_distance(&w, t2) <= tol,
                "case {case}: witness off t2"
            );
        }
        expected
    }

    #[test]
    fn analytic_cases() {
        let base = [p(0.0, 0.0, 0.0), p(2.0, 0.0, 0.0), p(0.0, 2.0, 0.0)];
        // Piercing.
        let pierce = [p(0.5, 0.5, -1.0), p(0.5, 0.5, 1.0), p(3.0, 3.0, 0.5)];
        assert!(triangles_intersect_f64(&base, &pierce).is_some());
        // Vertex touching the face from above.
        let touch = [p(0.5, 0.5, 0.0), p(0.5, 0.5, 1.0), p(1.0, 0.0, 1.0)];
        assert!(triangles_intersect_f64(&base, &touch).is_some());
        // Same, lifted by one f32 ulp of 1 above the plane: disjoint.
        let lift = f64::from(f32::EPSILON);
        let near = touch.map(|q| p(q.x, q.y, q.z + lift));
        assert!(triangles_intersect_f64(&base, &near).is_none());
        // Shared edge, folded.
        let fold = [p(0.0, 0.0, 0.0), p(2.0, 0.0, 0.0), p(1.0, -1.0, 1.0)];
        assert!(triangles_intersect_f64(&base, &fold).is_some());
        // Coplanar overlapping, coplanar touching at one vertex, coplanar disjoint.
        let over = [p(1.0, 1.0, 0.0), p(3.0, 1.0, 0.0), p(1.0, 3.0, 0.0)];
        assert!(triangles_intersect_f64(&base, &over).is_some());
        let corner = [p(2.0, 0.0, 0.0), p(3.0, 0.0, 0.0), p(3.0, 1.0, 0.0)];
        assert!(triangles_intersect_f64(&base, &corner).is_some());
        let apart = [p(1.5, 1.5, 0.0), p(3.0, 1.0, 0.0), p(1.0, 3.0, 0.0)];
        assert!(triangles_intersect_f64(&base, &apart).is_none());
        // Edge crossing edge at a point, out of plane.
        let cross = [p(1.0, -1.0, 0.0), p(1.0, 1.0, 0.0), p(1.0, 0.0, 5.0)];
        let cross = cross.map(|q| p(q.x, q.y - 1.0, q.z));
        assert!(triangles_intersect_f64(&base, &cross).is_some());
        // f32 entry point, and degenerate (collinear) triangle crossing the face.
        let f = |q: &PointD| Point::new(q.x as f32, q.y as f32, q.z as f32);
        assert!(triangles_intersect(&base.map(|q| f(&q)), &pierce.map(|q| f(&q))).is_some());
        let stick = [p(0.5, 0.5, -1.0), p(0.5, 0.5, 1.0), p(0.5, 0.5, 0.0)];
        assert!(triangles_intersect_f64(&base, &stick).is_some());
        let dot = [p(2.0, 2.0, 0.0); 3];
        assert!(triangles_intersect_f64(&base, &dot).is_none());
        let dot = [p(1.0, 1.0, 0.0); 3];
        assert!(triangles_intersect_f64(&base, &dot).is_some());
    }

    fn int_point(rng: &mut SplitMix, r: i64) -> PointD {
        p(rng.int(r) as f64, rng.int(r) as f64, rng.int(r) as f64)
    }

    /// 240,000 random integer triangle pairs against the edge-based oracle: general position,
    /// small coordinate ranges (many coplanar and touching cases), shared vertices, shared edges,
    /// and exactly coplanar pairs on tilted integer planes.
    #[test]
    fn random_integer_pairs_match_the_oracle() {
        let mut rng = SplitMix(0x7417);
        let mut hits = [0usize; 5];
        let mut totals = [0usize; 5];
        for case in 0..240_000 {
            let kind = case % 5;
            let (t1, t2) = match kind {
                0 => {
                    let r = 8;
                    let t1 = [(); 3].map(|_| int_point(&mut rng, r));
                    (t1, [(); 3].map(|_| int_point(&mut rng, r)))
                }
                1 => {
                    let t1 = [(); 3].map(|_| int_point(&mut rng, 2));
                    (t1, [(); 3].map(|_| int_point(&mut rng, 2)))
                }
                2 => {
                    let t1 = [(); 3].map(|_| int_point(&mut rng, 4));
                    let mut t2 = [(); 3].map(|_| int_point(&mut rng, 4));
                    t2[rng.index(3)] = t1[rng.index(3)];
                    (t1, t2)
                }
                3 => {
                    let t1 = [(); 3].map(|_| int_point(&mut rng, 4));
                    let mut t2 = [(); 3].map(|_| int_point(&mut rng, 4));
                    let i = rng.index(3);
                    let j = (i + 1 + rng.index(2)) % 3;
                    let k = rng.index(3);
                    t2[k] = t1[i];
                    t2[(k + 1) % 3] = t1[j];
                    (t1, t2)
                }
                _ => {
                    let o = int_point(&mut rng, 3);
                    let e1 = int_point(&mut rng, 3).coords;
                    let e2 = int_point(&mut rng, 3).coords;
                    let mut q = || o + e1 * rng.int(3) as f64 + e2 * rng.int(3) as f64;
                    ([q(), q(), q()], [q(), q(), q()])
                }
            };
            totals[kind] += 1;
            if check(&t1, &t2, case) {
                hits[kind] += 1;
            }
        }
        // Shared vertices and edges always meet; the other families must contain both answers in
        // quantity, or they test little.
        assert!(hits[2] == totals[2] && hits[3] == totals[3], "{hits:?}");
        for k in [0, 1, 4] {
            assert!(
                hits[k] > totals[k] / 20 && hits[k] < totals[k] * 19 / 20,
                "{hits:?}"
            );
        }
    }

    /// Touching configurations at scale: integer pairs scaled by powers of two (exact), and the
    /// same pairs pushed apart by one ulp along an axis must not gain intersections they lacked.
    #[test]
    fn scaled_cases_keep_their_answer() {
        let mut rng = SplitMix(99);
        for case in 0..20_000 {
            let t1 = [(); 3].map(|_| int_point(&mut rng, 3));
            let t2 = [(); 3].map(|_| int_point(&mut rng, 3));
            let expected = edges_meet(&t1, &t2);
            for s in [1e-30, 2f64.powi(-40), 1.0, 2f64.powi(60)] {
                let a = t1.map(|q| q * s);
                let b = t2.map(|q| q * s);
                assert_eq!(
                    triangles_intersect_f64(&a, &b).is_some(),
                    expected,
                    "{case} {s}"
                );
            }
        }
    }
}
