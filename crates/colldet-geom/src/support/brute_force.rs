//! Brute-force support mapping: scan every vertex, `O(n)`. The reference the faster methods are
//! tested against, and the query used at the top (coarsest) level of the DK hierarchy.

use super::dot;
use crate::math::{Point, VectorD};

/// The first vertex (lowest index) maximising `dot(v, dir)`; it examines all `points.len()`.
///
/// `points` must not be empty. A zero direction returns vertex 0 (every vertex ties); a
/// direction with a NaN component returns vertex 0 (no comparison with NaN succeeds).
#[inline]
pub(crate) fn brute_force(points: &[Point], dir: &VectorD) -> u32 {
    let mut best = 0u32;
    let mut best_dot = dot(&points[0], dir);
    for (i, p) in points.iter().enumerate().skip(1) {
        let d = dot(p, dir);
        if d > best_dot {
            best_dot = d;
            best = i as u32;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_first_of_tied_maxima_and_vertex_zero_for_degenerate_directions() {
        let points = [
            Point::new(0.0, 0.0, 0.0),
            Point::new(1.0, 0.0, 0.0),
            Point::new(1.0, 1.0, 0.0),
            Point::new(-2.0, 0.0, 0.0),
        ];
        assert_eq!(brute_force(&points, &VectorD::new(1.0, 0.0, 0.0)), 1);
        assert_eq!(brute_force(&points, &VectorD::new(1.0, 1e-9, 0.0)), 2);
        assert_eq!(brute_force(&points, &VectorD::new(-1.0, 0.0, 0.0)), 3);
        assert_eq!(brute_force(&points, &VectorD::zeros()), 0);
        assert_eq!(brute_force(&points, &VectorD::new(f64::NAN, 1.0, 0.0)), 0);
    }
}
