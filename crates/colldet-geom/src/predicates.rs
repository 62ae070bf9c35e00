//! Exact geometric predicates on `f64` inputs (Shewchuk's adaptive expansions via `robust`).
//!
//! Local geometry is `f32`, which widens to `f64` exactly, so these signs are exact for mesh data.
//! Sign convention: `orient3d(a, b, c, d) > 0` when `d` lies below the plane through `a, b, c`,
//! i.e. on the side opposite to the normal `(b - a) x (c - a)` (a, b, c counter-clockwise seen
//! from above). [`side_of_plane`] gives the opposite, more intuitive sign.

use crate::math::{Point, PointD, to_f64};
use robust::Coord3D;

#[inline]
fn coord3(p: &PointD) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// Shewchuk's `orient3d`: positive when `d` is below the plane of `a, b, c` (opposite to the
/// normal `(b - a) x (c - a)`), negative above, exactly zero when coplanar.
#[inline]
pub fn orient3d(a: &PointD, b: &PointD, c: &PointD, d: &PointD) -> f64 {
    robust::orient3d(coord3(a), coord3(b), coord3(c), coord3(d))
}

/// The exact sign of `d`'s side of the plane through `a, b, c`: `+1` on the side the normal
/// `(b - a) x (c - a)` points to, `-1` on the other side, `0` on the plane.
#[inline]
pub fn side_of_plane(a: &Point, b: &Point, c: &Point, d: &Point) -> i8 {
    let o = orient3d(&to_f64(a), &to_f64(b), &to_f64(c), &to_f64(d));
    if o < 0.0 {
        1
    } else if o > 0.0 {
        -1
    } else {
        0
    }
}

/// Shewchuk's `orient2d`: positive when `a, b, c` turn counter-clockwise.
#[inline]
pub fn orient2d(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    robust::orient2d(
        robust::Coord { x: a[0], y: a[1] },
        robust::Coord { x: b[0], y: b[1] },
        robust::Coord { x: c[0], y: c[1] },
    )
}

/// True when the three points lie exactly on one line (or coincide).
pub fn collinear(a: &Point, b: &Point, c: &Point) -> bool {
    let (a, b, c) = (to_f64(a), to_f64(b), to_f64(c));
    orient2d([a.x, a.y], [b.x, b.y], [c.x, c.y]) == 0.0
        && orient2d([a.y, a.z], [b.y, b.z], [c.y, c.z]) == 0.0
        && orient2d([a.z, a.x], [b.z, b.x], [c.z, c.x]) == 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_of_plane_follows_the_normal() {
        let (a, b, c) = (
            Point::new(0.0, 0.0, 0.0),
            Point::new(1.0, 0.0, 0.0),
            Point::new(0.0, 1.0, 0.0),
        );
        assert_eq!(side_of_plane(&a, &b, &c, &Point::new(0.2, 0.2, 1e-30)), 1);
        assert_eq!(side_of_plane(&a, &b, &c, &Point::new(0.2, 0.2, -1e-30)), -1);
        assert_eq!(side_of_plane(&a, &b, &c, &Point::new(7.0, -3.0, 0.0)), 0);
    }

    #[test]
    fn collinearity_is_exact() {
        let a = Point::new(0.0, 0.0, 0.0);
        let b = Point::new(1.0, 2.0, 3.0);
        assert!(collinear(&a, &b, &Point::new(2.0, 4.0, 6.0)));
        assert!(!collinear(&a, &b, &Point::new(2.0, 4.0, 6.000001)));
    }
}
