//! Sutherland-Hodgman clipping of a polygon to the prism over a convex reference polygon.

use colldet_geom::math::{PointD, VectorD};

/// Clips the polygon `subject` (any order; a point or a segment too) to the infinite prism of
/// the planar convex polygon `reference` extruded along `axis`, leaving the result in `subject`.
/// `reference` is counter-clockwise around its plane's normal `m`, and `axis . m > 0` (the prism
/// is oblique unless `axis` is along `m`). `scratch` is reused.
pub(crate) fn clip_to_prism(
    subject: &mut Vec<PointD>,
    reference: &[PointD],
    axis: &VectorD,
    scratch: &mut Vec<PointD>,
) {
    let n = reference.len();
    if n < 3 {
        return;
    }
    for k in 0..n {
        if subject.is_empty() {
            return;
        }
        let (a, b) = (reference[k], reference[(k + 1) % n]);
        // The side plane through edge a b along the axis, normal pointing out of the prism.
        let side = (b - a).cross(axis);
        let outside = |p: &PointD| side.dot(&(p - a));
        scratch.clear();
        let m = subject.len();
        for i in 0..m {
            let p = subject[i];
            let q = subject[(i + 1) % m];
            let (dp, dq) = (outside(&p), outside(&q));
            if dp <= 0.0 {
                scratch.push(p);
            }
            // An edge that crosses the plane (a closed polygon's last edge too; a lone segment's
            // second traversal adds nothing new).
            if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
                let t = dp / (dp - dq);
                scratch.push(p + (q - p) * t);
            }
            if m == 2 && i == 0 {
                // A segment is one edge, not two.
                if dq <= 0.0 {
                    scratch.push(q);
                }
                break;
            }
        }
        std::mem::swap(subject, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, z: f64) -> PointD {
        PointD::new(x, y, z)
    }

    fn square(h: f64) -> Vec<PointD> {
        vec![p(-h, -h, 0.0), p(h, -h, 0.0), p(h, h, 0.0), p(-h, h, 0.0)]
    }

    fn area_xy(poly: &[PointD]) -> f64 {
        let n = poly.len();
        (0..n)
            .map(|i| {
                let (a, b) = (poly[i], poly[(i + 1) % n]);
                a.x * b.y - a.y * b.x
            })
            .sum::<f64>()
            / 2.0
    }

    #[test]
    fn diamond_over_a_larger_square_gives_the_octagon() {
        let mut diamond = vec![
            p(1.0, 0.0, -0.1),
            p(0.0, 1.0, -0.1),
            p(-1.0, 0.0, -0.1),
            p(0.0, -1.0, -0.1),
        ];
        let mut scratch = Vec::new();
        clip_to_prism(&mut diamond, &square(0.6), &VectorD::z(), &mut scratch);
        assert_eq!(diamond.len(), 8, "{diamond:?}");
        // The square of side 1.2 less four corner triangles with legs 0.2.
        assert!((area_xy(&diamond) - (1.44 - 4.0 * 0.02)).abs() < 1e-12);
        assert!(diamond.iter().all(|q| q.z == -0.1));
    }

    #[test]
    fn square_clipped_by_a_smaller_diamond_is_the_diamond() {
        let mut sq = square(1.0);
        let diamond = vec![
            p(0.5, 0.0, 0.0),
            p(0.0, 0.5, 0.0),
            p(-0.5, 0.0, 0.0),
            p(0.0, -0.5, 0.0),
        ];
        let mut scratch = Vec::new();
        clip_to_prism(&mut sq, &diamond, &VectorD::z(), &mut scratch);
        assert!((area_xy(&sq) - 0.5).abs() < 1e-12, "{sq:?}");
    }

    #[test]
    fn segment_crossing_the_prism_is_cut_at_both_sides() {
        let mut seg = vec![p(-2.0, 0.25, 1.0), p(2.0, 0.25, 1.0)];
        let mut scratch = Vec::new();
        clip_to_prism(&mut seg, &square(0.5), &VectorD::z(), &mut scratch);
        assert_eq!(seg.len(), 2, "{seg:?}");
        let mut xs: Vec<f64> = seg.iter().map(|q| q.x).collect();
        xs.sort_by(f64::total_cmp);
        assert_eq!(xs, vec![-0.5, 0.5]);
    }

    #[test]
    fn oblique_prism_shifts_the_clip_along_its_axis() {
        // Points one unit below the square, prism leaning by 0.5 in x per unit of z: the square
        // seen from there is [-1, 0] x [-0.5, 0.5].
        let mut sq: Vec<PointD> = square(1.0).iter().map(|q| q - VectorD::z()).collect();
        let mut scratch = Vec::new();
        clip_to_prism(
            &mut sq,
            &square(0.5),
            &VectorD::new(0.5, 0.0, 1.0),
            &mut scratch,
        );
        let xs = sq.iter().map(|q| q.x);
        assert_eq!(xs.clone().fold(f64::INFINITY, f64::min), -1.0);
        assert_eq!(xs.fold(f64::NEG_INFINITY, f64::max), 0.0);
        assert!((area_xy(&sq) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn polygon_outside_the_prism_vanishes() {
        let mut far: Vec<PointD> = square(0.2)
            .iter()
            .map(|q| q + VectorD::new(3.0, 0.0, 0.0))
            .collect();
        let mut scratch = Vec::new();
        clip_to_prism(&mut far, &square(0.5), &VectorD::z(), &mut scratch);
        assert!(far.is_empty());
    }
}
