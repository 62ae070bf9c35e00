//! Exact sign helpers shared by the mesh primitives: 3D volumes, closed 2D/3D segment and
//! triangle incidence, all decided by Shewchuk's adaptive predicates on `f64` coordinates.
//!
//! Rationale (degenerate configurations without case analysis): for points known to be coplanar
//! (or collinear, or coincident), an incidence test in the projection dropping axis `k` can only
//! err by reporting a false contact, and only when that projection is not injective on their
//! affine hull. At least one axis projection is injective on any plane, line or point, so the
//! conjunction of the three projected tests is exact. It is used only on degenerate inputs.

use colldet_geom::math::PointD;
use colldet_geom::predicates::{orient2d, orient3d};
use colldet_geom::segment::closest_points_between_segments;

/// Sign (-1, 0, 1) of `det(b - a, c - a, d - a)`: positive when `d` lies on the side the normal
/// `(b - a) x (c - a)` points to. Exact.
#[inline]
pub(crate) fn vol(a: &PointD, b: &PointD, c: &PointD, d: &PointD) -> i8 {
    let o = orient3d(a, b, c, d);
    if o < 0.0 {
        1
    } else if o > 0.0 {
        -1
    } else {
        0
    }
}

/// The coordinates of `p` with axis `k` dropped, in cyclic order `(k + 1, k + 2)`: this
/// projection keeps the orientation of polygons whose normal has a positive `k` component.
#[inline]
pub(crate) fn drop_axis(p: &PointD, k: usize) -> [f64; 2] {
    [p[(k + 1) % 3], p[(k + 2) % 3]]
}

/// Sign of Shewchuk's `orient2d`: positive when `a, b, c` turn counter-clockwise. Exact.
#[inline]
pub(crate) fn orient2(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> i8 {
    let o = orient2d(a, b, c);
    if o > 0.0 {
        1
    } else if o < 0.0 {
        -1
    } else {
        0
    }
}

/// True when `p` lies in the closed axis-aligned box of `a` and `b` (used for points already
/// known to be collinear with `a` and `b`).
#[inline]
fn in_box_2d(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> bool {
    (0..2).all(|i| a[i].min(b[i]) <= p[i] && p[i] <= a[i].max(b[i]))
}

/// True when `p` lies on the closed segment `ab` (which may be a single point). Exact.
#[inline]
pub(crate) fn point_on_segment_2d(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> bool {
    orient2(a, b, p) == 0 && in_box_2d(a, b, p)
}

/// True when the closed segments `ab` and `cd` share a point (either may be a single point).
/// Exact.
pub(crate) fn segments_intersect_2d(a: [f64; 2], b: [f64; 2], c: [f64; 2], d: [f64; 2]) -> bool {
    let o1 = orient2(a, b, c);
    let o2 = orient2(a, b, d);
    let o3 = orient2(c, d, a);
    let o4 = orient2(c, d, b);
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return true;
    }
    (o1 == 0 && in_box_2d(a, b, c))
        || (o2 == 0 && in_box_2d(a, b, d))
        || (o3 == 0 && in_box_2d(c, d, a))
        || (o4 == 0 && in_box_2d(c, d, b))
}

/// True when `p` lies in the closed triangle `t` (either orientation, possibly degenerate). Exact.
pub(crate) fn point_in_triangle_2d(t: [[f64; 2]; 3], p: [f64; 2]) -> bool {
    let area = orient2(t[0], t[1], t[2]);
    if area == 0 {
        return (0..3).any(|i| point_on_segment_2d(t[i], t[(i + 1) % 3], p));
    }
    (0..3).all(|i| orient2(t[i], t[(i + 1) % 3], p) != -area)
}

/// True when the closed 2D triangles share a point (either orientation, possibly degenerate).
/// Exact.
pub(crate) fn triangles_intersect_2d(t1: [[f64; 2]; 3], t2: [[f64; 2]; 3]) -> bool {
    for i in 0..3 {
        for j in 0..3 {
            if segments_intersect_2d(t1[i], t1[(i + 1) % 3], t2[j], t2[(j + 1) % 3]) {
                return true;
            }
        }
    }
    point_in_triangle_2d(t2, t1[0]) || point_in_triangle_2d(t1, t2[0])
}

/// True when the closed 3D segments `ab` and `cd` share a point (either may be a single point).
/// Exact.
pub(crate) fn segments_intersect_3d(a: &PointD, b: &PointD, c: &PointD, d: &PointD) -> bool {
    if vol(a, b, c, d) != 0 {
        return false;
    }
    (0..3).all(|k| {
        segments_intersect_2d(
            drop_axis(a, k),
            drop_axis(b, k),
            drop_axis(c, k),
            drop_axis(d, k),
        )
    })
}

/// True when the triangle's three corners lie on one line (or coincide). Exact.
#[inline]
pub(crate) fn triangle_is_degenerate(t: &[PointD; 3]) -> bool {
    (0..3).all(|k| {
        orient2(
            drop_axis(&t[0], k),
            drop_axis(&t[1], k),
            drop_axis(&t[2], k),
        ) == 0
    })
}

/// The axis whose projection shows the non-degenerate triangle `t` with the largest area (so the
/// projection is injective on its plane), and the sign of that projected area.
#[inline]
pub(crate) fn dominant_axis(t: &[PointD; 3]) -> (usize, i8) {
    let mut best = (0, 0.0f64);
    for k in 0..3 {
        let a = orient2d(
            drop_axis(&t[0], k),
            drop_axis(&t[1], k),
            drop_axis(&t[2], k),
        );
        if a.abs() > best.1.abs() {
            best = (k, a);
        }
    }
    (best.0, if best.1 > 0.0 { 1 } else { -1 })
}

/// The point where the line through `u, v` meets the plane of `t`, approximately (`f64`), clamped
/// to the segment. Only for witness points: decisions never depend on it.
pub(crate) fn segment_plane_point(u: &PointD, v: &PointD, t: &[PointD; 3]) -> PointD {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let w = v - u;
    let a = n.dot(&w);
    let b = n.dot(&(t[0] - u));
    let s = if a != 0.0 {
        (b / a).clamp(0.0, 1.0)
    } else {
        0.0
    };
    if s.is_finite() { u + w * s } else { *u }
}

/// Exact closed segment `uv` versus closed triangle `t` (either may be degenerate). Returns an
/// approximate point of the intersection when they meet.
pub(crate) fn segment_triangle(u: &PointD, v: &PointD, t: &[PointD; 3]) -> Option<PointD> {
    if triangle_is_degenerate(t) {
        for i in 0..3 {
            let (a, b) = (&t[i], &t[(i + 1) % 3]);
            if segments_intersect_3d(u, v, a, b) {
                return Some(segments_meeting_point(u, v, a, b));
            }
        }
        return None;
    }
    let su = vol(&t[0], &t[1], &t[2], u);
    let sv = vol(&t[0], &t[1], &t[2], v);
    if su * sv > 0 {
        return None;
    }
    if su == 0 && sv == 0 {
        let (k, _) = dominant_axis(t);
        let t2 = t.map(|p| drop_axis(&p, k));
        let (u2, v2) = (drop_axis(u, k), drop_axis(v, k));
        if point_in_triangle_2d(t2, u2) {
            return Some(*u);
        }
        if point_in_triangle_2d(t2, v2) {
            return Some(*v);
        }
        for i in 0..3 {
            let j = (i + 1) % 3;
            if segments_intersect_2d(u2, v2, t2[i], t2[j]) {
                return Some(segments_meeting_point(u, v, &t[i], &t[j]));
            }
        }
        return None;
    }
    // The segment meets the plane in exactly one point; it lies in the closed triangle iff the
    // line u -> v passes every edge on the same side (or on it).
    let mut seen = 0i8;
    for i in 0..3 {
        let s = vol(u, v, &t[i], &t[(i + 1) % 3]);
        if s != 0 {
            if seen != 0 && s != seen {
                return None;
            }
            seen = s;
        }
    }
    Some(segment_plane_point(u, v, t))
}

/// A witness point for closed segments `uv` and `ab` known to meet: the midpoint of their closest
/// pair ([`closest_points_between_segments`], `f64`), or `u` if that is not finite. Approximate;
/// decisions never depend on it.
pub(crate) fn segments_meeting_point(u: &PointD, v: &PointD, a: &PointD, b: &PointD) -> PointD {
    let (p, q) = closest_points_between_segments(u, v, a, b);
    let m = PointD::from((p.coords + q.coords) * 0.5);
    if m.iter().all(|c| c.is_finite()) {
        m
    } else {
        *u
    }
}
