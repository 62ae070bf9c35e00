//! The expel zone (seed section 3): a layer of thickness `e >= 0` on the front of every face.
//! A feature moves until it reaches the zone's outer hull (the face plane moved out by `e`)
//! instead of the face itself, and a feature already inside the zone may only move away from the
//! face. `e = 0` switches the zone off (the plain sweeps of sections 2.2 and 2.4).
//!
//! Frames and signs: distances are signed distances to the face plane along its unit normal
//! (positive in front, length units); fractions are of the whole motion, in `[0, 1]`.
//! The zone is `-e <= dist < e`: a feature at most `e` behind the plane (rounding may have pushed
//! it there) counts as inside it, one deeper behind is behind the face (faces are only entered
//! from the front, seed 2.2) and never stopped. The polygon-bounds checks are not changed by the
//! zone (seed 3): [`apply_expel_translation_vertex_face`] and [`apply_expel_rotation_vertex_face`]
//! check them at the stop.
//!
//! Answers the seed leaves open, defined here:
//! * a start in contact (inside the zone, or on its hull, and approaching) stops at fraction 0
//!   and says so ([`ExpelStop::starts_in_contact`]);
//! * a translation parallel to the plane, and a rotation that does not change the distance (axis
//!   orthogonal to the plane), never stop (the seed divides by zero);
//! * a rotating vertex in the zone exactly at an extremum of its distance (`s = 0`) counts as
//!   moving deeper when the distance is at a maximum there, as moving out at a minimum;
//! * vertices deeper than `e` behind the plane are free (the seed's formula would stop them).
//!
//! Rotations: the distance of a vertex turning by `theta` about the axis-frame `z` axis is
//! `g(theta) = v0 cos(theta) + v1 sin(theta) + v2` ([`vertex_plane_coefficients`]); the seed's
//! `s` is `g'(0) = v1`, the top `d` the first maximum of `g`. The expel zone is a tolerance
//! mechanism, not an exact predicate: these angles are computed with `atan2` and `acos` in `f64`.

use colldet_geom::math::{PointD, VectorD};

use crate::error::CcdError;
use crate::rotation::{Sense, point_line_inside, rotate_z, vertex_plane_coefficients};

/// Why an expel-zone sweep stops where it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpelReason {
    /// The motion never takes the feature into the zone from its front (fraction 1).
    Free,
    /// The feature starts inside the zone and its motion leads deeper: it may not move (seed
    /// figure 2; fraction 0).
    InZoneMovingIn,
    /// The feature starts inside the zone moving out and stays inside: it moves up to where it is
    /// furthest from the face (seed figure 3).
    InZoneUpToTop,
    /// The feature reaches the zone's outer hull from outside (possibly after first leaving the
    /// zone, seed figure 4).
    HitsHull,
}

/// Where an expel-zone sweep of one vertex against one face plane stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpelStop {
    /// The fraction of the motion allowed, in `[0, 1]`.
    pub fraction: f64,
    /// Why.
    pub reason: ExpelReason,
    /// The vertex started inside the zone (`-e <= dist < e`).
    pub in_zone_at_start: bool,
}

impl ExpelStop {
    fn free(in_zone: bool) -> Self {
        Self {
            fraction: 1.0,
            reason: ExpelReason::Free,
            in_zone_at_start: in_zone,
        }
    }

    /// True when the sweep starts in contact: stopped at fraction 0 because the vertex was
    /// already in the zone or on its hull and approaching the face.
    pub fn starts_in_contact(&self) -> bool {
        self.fraction == 0.0
            && matches!(
                self.reason,
                ExpelReason::InZoneMovingIn | ExpelReason::HitsHull
            )
    }

    /// True when the motion is cut short or ends on the hull (anything but [`ExpelReason::Free`]).
    pub fn stops(&self) -> bool {
        self.reason != ExpelReason::Free
    }
}

fn check_e(e: f64) -> Result<(), CcdError> {
    if !e.is_finite() {
        return Err(CcdError::NonFinite {
            what: "expel distance",
        });
    }
    if e < 0.0 {
        return Err(CcdError::InvalidParameter {
            what: "expel distance",
            requirement: "must be >= 0",
        });
    }
    Ok(())
}

/// Seed 3.1, translational vertex-polygon: a vertex at signed distance `dist` from the face plane
/// whose distance changes by `rate` over the whole translation (`rate = n . d`, unit `n`).
/// Approaching (`rate < 0`): stops at `(dist - e) / -rate`, clamped to `[0, 1]` (0 inside the
/// zone: [`ExpelReason::InZoneMovingIn`]); moving away or parallel: free.
///
/// # Errors
/// [`CcdError::NonFinite`] for a NaN or infinite input, [`CcdError::InvalidParameter`] for
/// `e < 0`.
pub fn expel_translation_vertex_plane(dist: f64, rate: f64, e: f64) -> Result<ExpelStop, CcdError> {
    check_e(e)?;
    if !(dist.is_finite() && rate.is_finite()) {
        return Err(CcdError::NonFinite {
            what: "distance or rate",
        });
    }
    let in_zone = -e <= dist && dist < e;
    if dist < -e || rate >= 0.0 {
        return Ok(ExpelStop::free(in_zone));
    }
    let f = (dist - e) / -rate;
    Ok(if in_zone {
        ExpelStop {
            fraction: 0.0,
            reason: ExpelReason::InZoneMovingIn,
            in_zone_at_start: true,
        }
    } else if f <= 1.0 {
        ExpelStop {
            fraction: f.max(0.0),
            reason: ExpelReason::HitsHull,
            in_zone_at_start: false,
        }
    } else {
        ExpelStop::free(false)
    })
}

/// Seed 3.3, rotational vertex-polygon: the vertex `p` (axis frame) turning by `angle` radians
/// about `z` (negative: the other way) against the plane `n . x + d = 0` (`n` any non-zero
/// normal, front where positive). Pseudo code of the seed with the defined gaps (module docs):
/// in the zone, moving deeper: 0; moving out: the first re-entry through the hull after leaving
/// the zone, else the first maximum of the distance (clamped to 1); outside the zone: the first
/// entry through the hull from its front, else free. Angles beyond a full turn repeat.
///
/// # Errors
/// [`CcdError::NonFinite`] for a NaN or infinite input, [`CcdError::InvalidParameter`] for
/// `e < 0` or a zero normal.
pub fn expel_rotation_vertex_plane(
    p: &PointD,
    n: &VectorD,
    d: f64,
    angle: f64,
    e: f64,
) -> Result<ExpelStop, CcdError> {
    check_e(e)?;
    if !(p.iter().chain(n.iter()).all(|c| c.is_finite()) && d.is_finite() && angle.is_finite()) {
        return Err(CcdError::NonFinite {
            what: "vertex, plane or angle",
        });
    }
    let len = n.norm();
    if len == 0.0 {
        return Err(CcdError::InvalidParameter {
            what: "face normal",
            requirement: "must be non-zero",
        });
    }
    let sense = if angle < 0.0 {
        Sense::Backward
    } else {
        Sense::Forward
    };
    let [v0, v1, v2] = vertex_plane_coefficients(p, &(n / len), d / len, sense);
    let total = angle.abs();
    let dist0 = v0 + v2;
    let in_zone = -e <= dist0 && dist0 < e;
    let amp = v0.hypot(v1);
    if amp == 0.0 || total == 0.0 {
        return Ok(ExpelStop::free(in_zone));
    }
    // g(theta) = amp cos(theta - phi) + v2; decreasing on (phi, phi + pi).
    let phi = v1.atan2(v0);
    let deeper_now = v1 < 0.0 || (v1 == 0.0 && v0 > 0.0);
    let stop = |theta: f64, reason| ExpelStop {
        fraction: (theta / total).clamp(0.0, 1.0),
        reason,
        in_zone_at_start: in_zone,
    };
    // First angle >= 0 where g crosses e downwards (entering the hull), if g reaches e.
    let entry = || {
        let k = (e - v2) / amp;
        (-1.0..=1.0)
            .contains(&k)
            .then(|| (phi + k.acos()).rem_euclid(std::f64::consts::TAU))
    };
    if in_zone {
        if deeper_now {
            return Ok(stop(0.0, ExpelReason::InZoneMovingIn));
        }
        if v2 + amp > e {
            // Leaves the zone, then comes back through the hull.
            return Ok(match entry() {
                Some(theta) if theta <= total => stop(theta, ExpelReason::HitsHull),
                _ => ExpelStop::free(true),
            });
        }
        let top = phi.rem_euclid(std::f64::consts::TAU);
        return Ok(if top <= total {
            stop(top, ExpelReason::InZoneUpToTop)
        } else {
            ExpelStop::free(true)
        });
    }
    // On the hull within the rounding of `g` and approaching: entry at 0 (the crossing angle
    // computed below could round to a full turn instead).
    if dist0 - e <= 4.0 * f64::EPSILON * (v2.abs() + amp) && dist0 >= e && deeper_now {
        return Ok(stop(0.0, ExpelReason::HitsHull));
    }
    Ok(match entry() {
        Some(theta) if theta <= total => stop(theta, ExpelReason::HitsHull),
        _ => ExpelStop::free(false),
    })
}

/// Where the vertex stops against a face: the expel answer and the vertex there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpelHit {
    /// The stop.
    pub stop: ExpelStop,
    /// The vertex at the stop (same frame as the input).
    pub point: PointD,
}

/// The expel-zone stop of a vertex translating by `d` against the closed triangle `tri`
/// (counter-clockwise seen from the front), or `None` when the motion is free or the vertex at the
/// stop is not within the triangle's edges (projected along the normal; the boundary counts).
///
/// # Errors
/// As [`expel_translation_vertex_plane`], and [`CcdError::InvalidParameter`] for a degenerate
/// triangle.
pub fn apply_expel_translation_vertex_face(
    p: &PointD,
    d: &VectorD,
    tri: &[PointD; 3],
    e: f64,
) -> Result<Option<ExpelHit>, CcdError> {
    let n = unit_normal(tri)?;
    let dist = n.dot(&(p - tri[0]));
    let stop = expel_translation_vertex_plane(dist, n.dot(d), e)?;
    if !stop.stops() {
        return Ok(None);
    }
    let point = p + d * stop.fraction;
    Ok(point_line_inside(&point, &-n, tri).then_some(ExpelHit { stop, point }))
}

/// The expel-zone stop of a vertex `p` turning by `angle` about the axis-frame `z` axis against
/// the closed triangle `tri` (axis frame), as [`apply_expel_translation_vertex_face`].
///
/// # Errors
/// As [`expel_rotation_vertex_plane`], and [`CcdError::InvalidParameter`] for a degenerate
/// triangle.
pub fn apply_expel_rotation_vertex_face(
    p: &PointD,
    angle: f64,
    tri: &[PointD; 3],
    e: f64,
) -> Result<Option<ExpelHit>, CcdError> {
    let n = unit_normal(tri)?;
    let stop = expel_rotation_vertex_plane(p, &n, -n.dot(&tri[0].coords), angle, e)?;
    if !stop.stops() {
        return Ok(None);
    }
    let (s, c) = (angle * stop.fraction).sin_cos();
    let point = rotate_z(p, c, s);
    Ok(point_line_inside(&point, &-n, tri).then_some(ExpelHit { stop, point }))
}

fn unit_normal(tri: &[PointD; 3]) -> Result<VectorD, CcdError> {
    if !tri.iter().flat_map(|p| p.iter()).all(|c| c.is_finite()) {
        return Err(CcdError::NonFinite { what: "triangle" });
    }
    (tri[1] - tri[0])
        .cross(&(tri[2] - tri[0]))
        .try_normalize(0.0)
        .ok_or(CcdError::InvalidParameter {
            what: "triangle",
            requirement: "must not be degenerate",
        })
}

/// The offset from a fixed edge to the seed 3.2 line: the intersection of the planes of the two
/// polygons sharing the edge, each moved out by `e` along its unit normal (`n1`, `n2`, pointing
/// to the zone's side). The line is the edge moved by `w` with `n1 . w = n2 . w = e`,
/// `w = (n1 + n2) e / (1 + n1 . n2)`. One polygon (a boundary edge of an open surface, or
/// `n1 = n2`): `w = e n1`. A sharp edge (normals more than 120 degrees apart) puts the line far
/// out (`|w| = e sqrt(2 / (1 + n1 . n2))`): the length is capped at `2 e` there, and two opposite
/// normals (a knife edge) give `e n1`.
pub fn expanded_edge_offset(n1: &VectorD, n2: &VectorD, e: f64) -> VectorD {
    let s = n1 + n2;
    let len = s.norm();
    if len <= 1e-12 {
        return n1 * e;
    }
    // |w| = e |s| / (1 + c) = 2 e / |s| since |s|^2 = 2 (1 + c).
    s * (e * (2.0 / len).min(2.0) / len)
}

/// Seed 3.2, translational edge-edge: the edge `a b` translating by `d` against the fixed edge
/// `p q`, whose expel line is `p q` moved by `offset` ([`expanded_edge_offset`]). `f1` is the
/// fraction at which the moving line meets the fixed edge's line, `f2` the one at which it meets
/// the expel line. `f1 < 0` (moving away) or no crossing (parallel): free (`None`); `f2 > 1`
/// (the expel line is not reached) or `f2 > f1` (approaching from behind, inside the body):
/// free; else the stop `max(f2, 0)` (0: the edge is in the zone and approaching). The edge-bounds
/// checks are those of the plain sweep (seed 2.3, not changed by the zone): the fixed edge must
/// pass between the paths of `a` and `b`, and the moving line between the (reverse) paths of `p`
/// and `q`. Evaluated in `f64` (a tolerance mechanism, as the rest of the zone).
pub fn expel_translation_edge_edge(
    a: &VectorD,
    b: &VectorD,
    d: &VectorD,
    p: &VectorD,
    q: &VectorD,
    offset: &VectorD,
) -> Option<f64> {
    let (ab, pq) = (b - a, q - p);
    let c = ab.cross(&pq);
    let beta = c.dot(d);
    if beta == 0.0 || !beta.is_finite() {
        return None;
    }
    let f1 = -c.dot(&(a - p)) / beta;
    if f1.is_nan() || f1 < 0.0 {
        return None;
    }
    let f2 = -c.dot(&(a - p - offset)) / beta;
    if f2.is_nan() || f2 > 1.0 || f2 > f1 {
        return None;
    }
    let across = d.cross(&pq);
    if across.dot(&(a - p)) * across.dot(&(b - p)) > 0.0 {
        return None;
    }
    let along = d.cross(&ab);
    if along.dot(&(p - a)) * along.dot(&(q - a)) > 0.0 {
        return None;
    }
    Some(f2.max(0.0))
}
