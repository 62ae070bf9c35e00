//! The starting tetrahedron of quickhull, and the classification of point sets that have none.
//!
//! Floating distances only rank candidates (a far-apart start keeps the first outside sets
//! balanced); every accept/reject decision is exact: two points differ by exact comparison,
//! collinearity by exact `orient2d` projections, coplanarity by exact `orient3d`. When the
//! float-ranked candidate turns out exactly degenerate, a full exact scan decides, so a set is
//! called degenerate only if it really is.

use crate::math::{Point, PointD};
use crate::predicates::{collinear, orient3d};

/// Why a point set has no full-dimensional convex hull.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Degeneracy {
    /// All points are equal (or there are none).
    Coincident,
    /// All points lie on one line, and at least two differ.
    Collinear,
    /// All points lie in one plane, and at least three are not collinear.
    Coplanar,
}

impl Degeneracy {
    /// The name used in [`crate::GeomError::DegenerateHull`].
    pub(super) fn name(self) -> &'static str {
        match self {
            Degeneracy::Coincident => "coincident",
            Degeneracy::Collinear => "collinear",
            Degeneracy::Coplanar => "coplanar",
        }
    }
}

/// Four affinely independent input indices, or why none exist.
///
/// `points` are the `f32` inputs, `wide` the same points widened to `f64` (exactly).
pub(super) fn initial_simplex(points: &[Point], wide: &[PointD]) -> Result<[u32; 4], Degeneracy> {
    if wide.is_empty() {
        return Err(Degeneracy::Coincident);
    }

    // a, b: the farthest-apart pair among the six axis-extreme points.
    let mut extremes = [0usize; 6];
    for (i, p) in wide.iter().enumerate() {
        for axis in 0..3 {
            if p[axis] < wide[extremes[2 * axis]][axis] {
                extremes[2 * axis] = i;
            }
            if p[axis] > wide[extremes[2 * axis + 1]][axis] {
                extremes[2 * axis + 1] = i;
            }
        }
    }
    let mut best = (0usize, 0usize, 0.0f64);
    for (k, &i) in extremes.iter().enumerate() {
        for &j in &extremes[k + 1..] {
            let d = (wide[i] - wide[j]).norm_squared();
            if d > best.2 {
                best = (i, j, d);
            }
        }
    }
    let (a, b) = if points[best.0] != points[best.1] {
        (best.0, best.1)
    } else {
        // The six extremes coincide only if every coordinate range is zero, but an overflowing
        // or underflowing squared distance could also land here: decide exactly.
        match points.iter().position(|p| *p != points[0]) {
            Some(j) => (0, j),
            None => return Err(Degeneracy::Coincident),
        }
    };

    // c: the farthest from line ab, accepted only if exactly not collinear.
    let (pa, pb) = (wide[a], wide[b]);
    let ab = pb - pa;
    let mut c = usize::MAX;
    let mut best_distance = -1.0f64;
    for (i, p) in wide.iter().enumerate() {
        let d = (p - pa).cross(&ab).norm_squared();
        if d > best_distance {
            best_distance = d;
            c = i;
        }
    }
    if collinear(&points[a], &points[b], &points[c]) {
        match (0..points.len()).find(|&i| !collinear(&points[a], &points[b], &points[i])) {
            Some(i) => c = i,
            None => return Err(Degeneracy::Collinear),
        }
    }

    // d: the farthest from plane abc by the magnitude of orient3d, which is zero exactly when
    // the point is coplanar.
    let pc = wide[c];
    let mut d = usize::MAX;
    let mut best_volume = 0.0f64;
    for (i, p) in wide.iter().enumerate() {
        let v = orient3d(&pa, &pb, &pc, p).abs();
        if v > best_volume {
            best_volume = v;
            d = i;
        }
    }
    if d == usize::MAX {
        return Err(Degeneracy::Coplanar);
    }
    Ok([a as u32, b as u32, c as u32, d as u32])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::to_f64;

    fn run(points: &[Point]) -> Result<[u32; 4], Degeneracy> {
        let wide: Vec<PointD> = points.iter().map(to_f64).collect();
        initial_simplex(points, &wide)
    }

    #[test]
    fn classifies_small_and_flat_sets() {
        let o = Point::origin();
        let x = Point::new(1.0, 0.0, 0.0);
        let y = Point::new(0.0, 1.0, 0.0);
        let z = Point::new(0.0, 0.0, 1.0);
        assert_eq!(run(&[]), Err(Degeneracy::Coincident));
        assert_eq!(run(&[x, x, x]), Err(Degeneracy::Coincident));
        assert_eq!(
            run(&[o, x, Point::new(2.0, 0.0, 0.0), x]),
            Err(Degeneracy::Collinear)
        );
        assert_eq!(run(&[o, x, y]), Err(Degeneracy::Coplanar));
        assert_eq!(run(&[o, x, y, x + y.coords, o]), Err(Degeneracy::Coplanar));
        let simplex = run(&[o, o, x, y, z]).expect("a tetrahedron");
        let mut used: Vec<Point> = simplex
            .iter()
            .map(|&i| [o, o, x, y, z][i as usize])
            .collect();
        used.sort_by(|p, q| {
            p.coords
                .as_slice()
                .partial_cmp(q.coords.as_slice())
                .unwrap()
        });
        assert_eq!(used, vec![o, z, y, x]);
    }

    #[test]
    fn finds_points_one_ulp_off_the_line() {
        // Three points on one line dominate; the two others are one ulp off it (and off each
        // other's plane with the line), yet must be found.
        let points = [
            Point::new(0.0, 0.0, 0.0),
            Point::new(4.0, 4.0, 4.0),
            Point::new(2.0, 2.0, 2.0),
            Point::new(1.0, 1.0, 1.0 + f32::EPSILON),
            Point::new(1.0, 1.0 + f32::EPSILON, 1.0),
        ];
        let simplex = run(&points).expect("not coplanar");
        let mut sorted = simplex;
        sorted.sort_unstable();
        assert!(sorted.contains(&3) && sorted.contains(&4), "{simplex:?}");
    }
}
