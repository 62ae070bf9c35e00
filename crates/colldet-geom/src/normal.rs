//! Polygon normals by Newell's method.
//!
//! Rationale: for a polygon `p_0 .. p_{n-1}` the vector `N = sum_i p_i x p_{i+1}` (indices mod n)
//! is twice the vector area: for a planar polygon `|N| = 2 * area` and `N` points to the side from
//! which the polygon runs counter-clockwise; for a non-planar polygon `N` is the normal of the
//! plane onto which the polygon projects with the largest area (the least-squares plane
//! direction Newell's method is used for). Componentwise this is
//! `N_x = sum (y_i - y_{i+1}) (z_i + z_{i+1})` and cyclically for `y`, `z` (the thesis prints
//! these with wrong signs; see the errata in the seeds).
//!
//! The sum is independent of the origin; we evaluate it as a fan of triangles from the first
//! vertex, `N = sum_i (p_i - p_0) x (p_{i+1} - p_0)`, and take each triangle's three components
//! as the signed areas of its projections onto the coordinate planes with Shewchuk's adaptive
//! `orient2d` (the `robust` crate): each is accurate to about one rounding of its own value, so
//! a sliver whose corners span many binades (corners near `1e-38` beside one at `512`, where the
//! `f64` differences `p_i - p_0` lose the small coordinates) keeps its true direction instead of
//! one 90 degrees off (found by the `mesh_build` fuzz target:
//! `fuzz/corpus/mesh_build/sliver_face_normal_wrong_subnormal_coordinates.bin`).

use crate::math::{Point, PointD, VectorD, to_f64};

/// Twice the signed area of the triangle `a b c` projected onto the coordinate plane `(u, v)`
/// (axis indices), counter-clockwise positive: one component of `(b - a) x (c - a)`.
fn projected_area(a: &VectorD, b: &VectorD, c: &VectorD, u: usize, v: usize) -> f64 {
    let at = |p: &VectorD| robust::Coord { x: p[u], y: p[v] };
    robust::orient2d(at(a), at(b), at(c))
}

/// Newell's normal of the closed polygon visiting `points` in order, computed in `f64`.
///
/// Not normalised: its length is twice the polygon's area (for planar polygons) and it points to
/// the side from which the polygon is seen counter-clockwise (right-hand rule). For a triangle
/// `a, b, c` it equals `(b - a) x (c - a)`, each component to about one rounding. For a non-planar
/// polygon it is the normal direction of the best-fit plane, with length twice the area of the
/// polygon projected onto that plane. Fewer than three points give the zero vector; non-finite
/// coordinates give non-finite output.
pub fn newell_normal(points: impl IntoIterator<Item = Point>) -> VectorD {
    newell_normal_f64(points.into_iter().map(|p| to_f64(&p)))
}

/// [`newell_normal`] of a polygon given in `f64` (a mesh's vertices as given, `vertex_f64`).
pub fn newell_normal_f64(points: impl IntoIterator<Item = PointD>) -> VectorD {
    let mut iter = points.into_iter();
    let Some(first) = iter.next() else {
        return VectorD::zeros();
    };
    let origin = first.coords;
    let mut prev: Option<VectorD> = None;
    let mut sum = VectorD::zeros();
    for p in iter {
        let cur = p.coords;
        if let Some(prev) = prev {
            if !(origin.iter().chain(prev.iter()).chain(cur.iter())).all(|x| x.is_finite()) {
                // The adaptive predicates expect finite input: NaN or infinity goes through the
                // plain formula and comes out non-finite.
                sum += (prev - origin).cross(&(cur - origin));
            } else {
                sum += VectorD::new(
                    projected_area(&origin, &prev, &cur, 1, 2),
                    projected_area(&origin, &prev, &cur, 2, 0),
                    projected_area(&origin, &prev, &cur, 0, 1),
                );
            }
        }
        prev = Some(cur);
    }
    sum
}

/// Newell's normal (see [`newell_normal`]) of the face `face`, given as indices into `vertices`.
///
/// Returns `None` when an index is out of range.
pub fn newell_normal_of(vertices: &[Point], face: &[u32]) -> Option<VectorD> {
    if face.iter().any(|&i| i as usize >= vertices.len()) {
        return None;
    }
    Some(newell_normal(face.iter().map(|&i| vertices[i as usize])))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f32, y: f32, z: f32) -> Point {
        Point::new(x, y, z)
    }

    /// Newell's normal straight from the textbook formula with correct signs, as an oracle.
    fn textbook(points: &[Point]) -> VectorD {
        let mut n = VectorD::zeros();
        for i in 0..points.len() {
            let a = to_f64(&points[i]);
            let b = to_f64(&points[(i + 1) % points.len()]);
            n.x += (a.y - b.y) * (a.z + b.z);
            n.y += (a.z - b.z) * (a.x + b.x);
            n.z += (a.x - b.x) * (a.y + b.y);
        }
        n
    }

    #[test]
    fn sliver_spanning_many_binades_keeps_its_direction_from_every_start_corner() {
        // The fuzz-found face: two corners below 1e-37, one at z = 512.
        let far = p(0.007_813_456, 3.673_45e-40, 512.0001);
        let tiny_a = p(2.699_963_6e-38, 0.0, 1.744_874e-39);
        let tiny_b = p(2.755_06e-40, 2.152_7e-41, 0.0);
        // Oracle: the cross product from the tiny corner (order tiny_b, far, tiny_a, the same
        // cycle), whose differences keep every small coordinate (only far's, whose small parts
        // do not matter, round).
        let to_far = to_f64(&far) - to_f64(&tiny_b);
        let to_tiny = to_f64(&tiny_a) - to_f64(&tiny_b);
        let expected = to_far.cross(&to_tiny);
        // Along +y: the stored normal used to be along -x (the differences from `far` lost the
        // small coordinates).
        assert!(expected.normalize().y > 0.99, "{expected:?}");
        for corners in [
            [far, tiny_a, tiny_b],
            [tiny_a, tiny_b, far],
            [tiny_b, far, tiny_a],
        ] {
            let n = newell_normal(corners);
            assert!(
                (n - expected).norm() <= 1e-12 * expected.norm(),
                "{corners:?}: {n:?} vs {expected:?}"
            );
        }
    }

    #[test]
    fn non_finite_corners_give_non_finite_normals() {
        let n = newell_normal([p(0., 0., 0.), p(f32::NAN, 0., 0.), p(0., 1., 0.)]);
        assert!(n.iter().any(|x| !x.is_finite()));
        let n = newell_normal([p(0., 0., 0.), p(f32::INFINITY, 0., 0.), p(0., 1., 0.)]);
        assert!(n.iter().any(|x| !x.is_finite()));
    }

    #[test]
    fn unit_square_ccw_in_xy_is_twice_area_up() {
        let sq = [p(0., 0., 0.), p(1., 0., 0.), p(1., 1., 0.), p(0., 1., 0.)];
        assert_eq!(newell_normal(sq), VectorD::new(0.0, 0.0, 2.0));
        assert_eq!(textbook(&sq), VectorD::new(0.0, 0.0, 2.0));
        let mut cw = sq;
        cw.reverse();
        assert_eq!(newell_normal(cw), VectorD::new(0.0, 0.0, -2.0));
    }

    #[test]
    fn squares_in_other_planes_follow_right_hand_rule() {
        // CCW seen from +x: y then z.
        let yz = [p(0., 0., 0.), p(0., 1., 0.), p(0., 1., 1.), p(0., 0., 1.)];
        assert_eq!(newell_normal(yz), VectorD::new(2.0, 0.0, 0.0));
        // CCW seen from +y: z then x.
        let zx = [p(0., 0., 0.), p(0., 0., 1.), p(1., 0., 1.), p(1., 0., 0.)];
        assert_eq!(newell_normal(zx), VectorD::new(0.0, 2.0, 0.0));
    }

    #[test]
    fn l_shaped_polygon_area() {
        // L shape: 2x2 square minus the 1x1 top-right square: area 3, concave vertex at (1,1).
        let l = [
            p(0., 0., 0.),
            p(2., 0., 0.),
            p(2., 1., 0.),
            p(1., 1., 0.),
            p(1., 2., 0.),
            p(0., 2., 0.),
        ];
        assert_eq!(newell_normal(l), VectorD::new(0.0, 0.0, 6.0));
        // Same polygon in a tilted plane z = x + y: area scales by |(−1,−1,1)| = sqrt(3).
        let tilted: Vec<Point> = l.iter().map(|q| p(q.x, q.y, q.x + q.y)).collect();
        let n = newell_normal(tilted.iter().copied());
        assert_eq!(n, VectorD::new(-6.0, -6.0, 6.0));
        assert!((n.norm() / 2.0 - 3.0 * 3f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn triangle_equals_cross_product() {
        let mut rng = colldet_testkit::SplitMix64(0x1234_5678);
        let mut next = || (rng.next_f64() * 200.0 - 100.0) as f32;
        for _ in 0..2000 {
            let (a, b, c) = (
                p(next(), next(), next()),
                p(next(), next(), next()),
                p(next(), next(), next()),
            );
            let expect = (to_f64(&b) - to_f64(&a)).cross(&(to_f64(&c) - to_f64(&a)));
            let n = newell_normal([a, b, c]);
            // Both are exact up to one rounding per product/sum of exact f64 differences.
            assert!((n - expect).norm() <= 1e-12 * expect.norm().max(1e-30) + 1e-300);
            let t = textbook(&[a, b, c]);
            assert!((t - expect).norm() <= 1e-9 * (1.0 + expect.norm()));
        }
    }

    #[test]
    fn non_planar_quad_gives_best_fit_normal() {
        // Saddle quad: corners of the unit square lifted alternately by +h and -h. Its best-fit
        // plane is z = 0 by symmetry, and the projected area is 1.
        let h = 0.25;
        let q = [p(0., 0., h), p(1., 0., -h), p(1., 1., h), p(0., 1., -h)];
        let n = newell_normal(q);
        assert!(n.x.abs() < 1e-15 && n.y.abs() < 1e-15);
        assert_eq!(n.z, 2.0);
        // A planar quad in z = 0.5 x, then bent by moving one corner: the normal stays the
        // average of the two triangle normals of the diagonal split (vector area is additive).
        let bent = [p(0., 0., 0.), p(1., 0., 0.5), p(1., 1., 0.9), p(0., 1., 0.)];
        let t1 = newell_normal([bent[0], bent[1], bent[2]]);
        let t2 = newell_normal([bent[0], bent[2], bent[3]]);
        assert!((newell_normal(bent) - (t1 + t2)).norm() < 1e-15);
    }

    #[test]
    fn far_from_origin_keeps_precision() {
        let o = 1.0e6_f32;
        let sq = [
            p(o, o, o),
            p(o + 1., o, o),
            p(o + 1., o + 1., o),
            p(o, o + 1., o),
        ];
        assert_eq!(newell_normal(sq), VectorD::new(0.0, 0.0, 2.0));
        // Tiny polygon: 1e-12 sides; area factor still exact.
        let e = 1.0e-12_f32;
        let tiny = [p(0., 0., 0.), p(e, 0., 0.), p(0., e, 0.)];
        let n = newell_normal(tiny);
        let expect = f64::from(e) * f64::from(e);
        assert!((n.z - expect).abs() <= 1e-15 * expect);
    }

    #[test]
    fn degenerate_and_indexed_faces() {
        assert_eq!(newell_normal([]), VectorD::zeros());
        assert_eq!(
            newell_normal([p(1., 2., 3.), p(4., 5., 6.)]),
            VectorD::zeros()
        );
        let verts = [p(0., 0., 0.), p(1., 0., 0.), p(1., 1., 0.), p(0., 1., 0.)];
        assert_eq!(
            newell_normal_of(&verts, &[0, 1, 2, 3]),
            Some(VectorD::new(0.0, 0.0, 2.0))
        );
        assert_eq!(newell_normal_of(&verts, &[0, 1, 4]), None);
    }
}
