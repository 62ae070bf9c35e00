//! The rotational sweep of a pair (motion (b)) and the DOOM III composition translate-then-rotate
//! (motion (c)). Body `a` turns by `angle` radians (right-handed about the unit world `axis`
//! through `pivot`) over the fraction `tau` in `[0, 1]`; body `b` stays put.
//!
//! Everything is solved in the axis frame ([`AxisFrame`]; a negative angle uses the negated axis):
//! `a`'s contact vertices against `b`'s triangles turning forward (vertex-face), `b`'s contact
//! vertices against `a`'s triangles turning backward (face-vertex), `a`'s contact edges against
//! `b`'s (edge-edge), with the primitives of [`crate::rotation`]. Culling: a point turning about
//! the axis keeps its distance `rho` to the axis and its `z`, so two features can only meet when
//! their bands (`z` range, `rho` range) overlap; closed surfaces are only entered through the
//! front of their faces (decided per root from the instantaneous direction of motion, never per
//! face: the direction changes during a rotation), open ones from both sides.
//!
//! A start in contact: when the bodies' surfaces are within `TOUCH_RELATIVE * scale` of each other
//! at `tau = 0` (`scale`: the largest distance of a vertex from the pivot), the answer is
//! `toi = [0, 0]` with `initially_touching = true` and the touching features. Deep overlap at the
//! start is detected when a boundary edge crosses a face (then reported as a vertex-face contact
//! of the crossing edge's first vertex at the crossing point); a body wholly inside the other is
//! not (the sweeps see boundaries only).

use std::collections::HashMap;

use colldet_geom::math::{PointD, VectorD};

use crate::contact::{ContactKind, SweepContact, TimeOfImpact};
use crate::error::CcdError;
use crate::motion::RigidPose;
use crate::rotation::{
    AxisFrame, RotationHit, RotationPlan, RotationRoot, Sense, edge_edge_rotation, rotate_z,
    vertex_face_rotation,
};
use crate::sweep_shape::SweepShape;
use crate::translation_sweep::{TranslationOptions, TranslationWorkspace, sweep_translation_with};

/// Width of the start-contact band relative to the pair's scale in the axis frame.
pub const TOUCH_RELATIVE: f64 = 1e-12;

/// The `z` and distance-to-axis ranges of a feature (axis frame).
#[derive(Clone, Copy, Debug)]
struct Band {
    z: [f64; 2],
    rho: [f64; 2],
}

impl Band {
    fn of(points: &[PointD]) -> Self {
        let mut z = [f64::INFINITY, f64::NEG_INFINITY];
        let mut rho_hi = 0.0f64;
        for p in points {
            z = [z[0].min(p.z), z[1].max(p.z)];
            rho_hi = rho_hi.max(p.x.hypot(p.y));
        }
        let rho_lo = match points.len() {
            1 => points[0].x.hypot(points[0].y),
            2 => origin_segment_distance_2d(&points[0], &points[1]),
            _ => {
                let inside = (0..points.len())
                    .all(|k| cross2(&points[k], &points[(k + 1) % points.len()]) >= 0.0)
                    || (0..points.len())
                        .all(|k| cross2(&points[k], &points[(k + 1) % points.len()]) <= 0.0);
                if inside {
                    0.0
                } else {
                    (0..points.len())
                        .map(|k| {
                            origin_segment_distance_2d(&points[k], &points[(k + 1) % points.len()])
                        })
                        .fold(f64::INFINITY, f64::min)
                }
            }
        };
        Self {
            z,
            rho: [rho_lo, rho_hi],
        }
    }

    fn overlaps(&self, o: &Band, tol: f64) -> bool {
        self.z[0] <= o.z[1] + tol
            && o.z[0] <= self.z[1] + tol
            && self.rho[0] <= o.rho[1] + tol
            && o.rho[0] <= self.rho[1] + tol
    }
}

/// `p x q` of the projections on the `xy` plane.
fn cross2(p: &PointD, q: &PointD) -> f64 {
    p.x * q.y - p.y * q.x
}

/// Distance from the origin to the segment `p q` projected on the `xy` plane.
fn origin_segment_distance_2d(p: &PointD, q: &PointD) -> f64 {
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (-(p.x * dx + p.y * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.x + t * dx).hypot(p.y + t * dy)
}

/// A body's geometry in the axis frame.
struct Placed<'s> {
    shape: &'s SweepShape,
    v: Vec<PointD>,
}

impl Placed<'_> {
    fn tri(&self, t: usize) -> [PointD; 3] {
        self.shape.triangles()[t]
            .corners
            .map(|c| self.v[c as usize])
    }

    fn normal(&self, t: usize) -> VectorD {
        let [p, q, r] = self.tri(t);
        (q - p).cross(&(r - p))
    }

    /// Sum of the unit normals of the triangles using the edge `i j` (either direction).
    fn edge_normal(&self, e: [u32; 2]) -> VectorD {
        let mut sum = VectorD::zeros();
        for (t, tri) in self.shape.triangles().iter().enumerate() {
            let c = tri.corners;
            let uses = (0..3).any(|k| {
                let (p, q) = (c[k], c[(k + 1) % 3]);
                (p, q) == (e[0], e[1]) || (q, p) == (e[0], e[1])
            });
            if uses {
                sum += self.normal(t).try_normalize(0.0).unwrap_or_default();
            }
        }
        sum
    }
}

/// The best candidate so far.
struct Best {
    root: RotationRoot,
    kind: ContactKind,
    feature_moving: u32,
    feature_hit: u32,
    hit: RotationHit,
    /// Triangle (vertex-face: of `b`; face-vertex: of `a`) or edge pair.
    detail: [u32; 4],
}

/// The first contact of `a` turning by `angle` about the world axis through `pivot` along the
/// unit `axis` against the stationary `b` (module docs). World frame: `point` at the contact,
/// `normal` unit, from `b` towards `a`. The fraction bracket certifies only the conversion of the
/// computed root ([`RotationPlan::fraction_bracket`], 8 ulps); the root itself is the rounded
/// `f64` root of the `tan(theta / 2)` quadratic. `angle == 0` only checks the start contact.
///
/// # Errors
/// [`CcdError::NonFinite`] for a NaN or infinite pose, pivot, axis or angle;
/// [`CcdError::InvalidParameter`] for an axis not of unit length (within `1e-6`).
pub fn sweep_rotation(
    a: &SweepShape,
    pose_a: &RigidPose,
    pivot: &PointD,
    axis: &VectorD,
    angle: f64,
    b: &SweepShape,
    pose_b: &RigidPose,
) -> Result<Option<SweepContact>, CcdError> {
    if !pose_a.is_finite() || !pose_b.is_finite() {
        return Err(CcdError::NonFinite { what: "pose" });
    }
    if !angle.is_finite() {
        return Err(CcdError::NonFinite {
            what: "rotation angle",
        });
    }
    let signed_axis = if angle < 0.0 { -axis } else { *axis };
    let frame = AxisFrame::new(pivot, &signed_axis)?;
    let place = |shape: &'_ SweepShape, pose: &RigidPose| -> Vec<PointD> {
        shape
            .vertices()
            .iter()
            .map(|x| frame.point_to_frame(&pose.apply(x)))
            .collect()
    };
    let pa = Placed {
        shape: a,
        v: place(a, pose_a),
    };
    let pb = Placed {
        shape: b,
        v: place(b, pose_b),
    };
    let scale =
        pa.v.iter()
            .chain(&pb.v)
            .map(|p| p.coords.amax())
            .fold(0.0f64, f64::max);
    let tol = TOUCH_RELATIVE * scale;
    if let Some(c) = start_contact(&pa, &pb, tol) {
        return Ok(Some(c.into_world(&frame)));
    }
    if angle == 0.0 {
        return Ok(None);
    }
    let plan = RotationPlan::new(angle.abs())?;
    let best = first_rotation_contact(&plan, &pa, &pb, tol);
    Ok(best.map(|best| contact_of(&plan, &frame, &pa, &pb, &best)))
}

/// The earliest feature contact of the rotation (axis frame).
fn first_rotation_contact(plan: &RotationPlan, pa: &Placed, pb: &Placed, tol: f64) -> Option<Best> {
    let (a, b) = (pa.shape, pb.shape);
    let tri_bands = |p: &Placed| -> Vec<Band> {
        (0..p.shape.triangles().len())
            .map(|t| Band::of(&p.tri(t)))
            .collect()
    };
    let (bands_a, bands_b) = (tri_bands(pa), tri_bands(pb));
    let mut best: Option<Best> = None;
    let better =
        |best: &Option<Best>, root: RotationRoot| best.as_ref().is_none_or(|b| root < b.root);

    // a's vertices against b's faces.
    for &v in a.contact_vertices() {
        let p = pa.v[v as usize];
        let band = Band::of(&[p]);
        for (t, tri) in b.triangles().iter().enumerate() {
            if !band.overlaps(&bands_b[t], tol) {
                continue;
            }
            if let Some(hit) =
                vertex_face_rotation(plan, &p, &pb.tri(t), Sense::Forward, b.is_closed())
                && better(&best, hit.root)
            {
                best = Some(Best {
                    root: hit.root,
                    kind: ContactKind::VertexFace,
                    feature_moving: v,
                    feature_hit: tri.face,
                    hit,
                    detail: [t as u32, 0, 0, 0],
                });
            }
        }
    }
    // b's vertices against a's faces, turning the other way.
    for &v in b.contact_vertices() {
        let p = pb.v[v as usize];
        let band = Band::of(&[p]);
        for (t, tri) in a.triangles().iter().enumerate() {
            if !band.overlaps(&bands_a[t], tol) {
                continue;
            }
            if let Some(hit) =
                vertex_face_rotation(plan, &p, &pa.tri(t), Sense::Backward, a.is_closed())
                && better(&best, hit.root)
            {
                best = Some(Best {
                    root: hit.root,
                    kind: ContactKind::FaceVertex,
                    feature_moving: tri.face,
                    feature_hit: v,
                    hit,
                    detail: [t as u32, 0, 0, 0],
                });
            }
        }
    }
    // Edges against edges.
    let edge_bands = |p: &Placed| -> Vec<Band> {
        p.shape
            .contact_edges()
            .iter()
            .map(|(e, _)| Band::of(&[p.v[e[0] as usize], p.v[e[1] as usize]]))
            .collect()
    };
    let (ebands_a, ebands_b) = (edge_bands(pa), edge_bands(pb));
    for (i, (ea, ida)) in a.contact_edges().iter().enumerate() {
        let (a0, a1) = (pa.v[ea[0] as usize], pa.v[ea[1] as usize]);
        for (j, (eb, idb)) in b.contact_edges().iter().enumerate() {
            if !ebands_a[i].overlaps(&ebands_b[j], tol) {
                continue;
            }
            let (b0, b1) = (pb.v[eb[0] as usize], pb.v[eb[1] as usize]);
            if let Some(hit) = edge_edge_rotation(plan, &a0, &a1, &b0, &b1)
                && better(&best, hit.root)
            {
                best = Some(Best {
                    root: hit.root,
                    kind: ContactKind::EdgeEdge,
                    feature_moving: *ida,
                    feature_hit: *idb,
                    hit,
                    detail: [ea[0], ea[1], eb[0], eb[1]],
                });
            }
        }
    }
    best
}

/// The world-frame contact of a rotation hit.
fn contact_of(
    plan: &RotationPlan,
    frame: &AxisFrame,
    pa: &Placed,
    pb: &Placed,
    best: &Best,
) -> SweepContact {
    let [lo, hi] = plan.fraction_bracket(best.root);
    let (c, s) = plan.cos_sin(best.root);
    let (point, normal) = match best.kind {
        ContactKind::VertexFace => (best.hit.point, pb.normal(best.detail[0] as usize)),
        ContactKind::FaceVertex => {
            let n = pa.normal(best.detail[0] as usize);
            let n = rotate_z(&PointD::from(n), c, s).coords;
            (pb.v[best.feature_hit as usize], -n)
        }
        ContactKind::EdgeEdge => {
            let [i0, i1, j0, j1] = best.detail;
            let r = |i: u32| rotate_z(&pa.v[i as usize], c, s);
            let u1 = r(i1) - r(i0);
            let u2 = pb.v[j1 as usize] - pb.v[j0 as usize];
            let n = orient_from_b(
                u1.cross(&u2),
                &pb.edge_normal([j0, j1]),
                &rotate_z(&PointD::from(pa.edge_normal([i0, i1])), c, s).coords,
            );
            (best.hit.point, n)
        }
    };
    // A face of an open surface can be hit from its back: the normal from b towards a then
    // opposes a's velocity at the contact point (the axis frame turns positively).
    let normal = if best.kind != ContactKind::EdgeEdge
        && normal.dot(&VectorD::new(-point.y, point.x, 0.0)) > 0.0
    {
        -normal
    } else {
        normal
    };
    SweepContact {
        toi: TimeOfImpact { lo, hi },
        kind: best.kind,
        feature_moving: best.feature_moving,
        feature_hit: best.feature_hit,
        point: frame.point_to_world(&point),
        normal: frame
            .vector_to_world(&normal)
            .try_normalize(0.0)
            .unwrap_or_else(VectorD::z),
        initially_touching: false,
    }
}

/// `n` (or a fallback) oriented along `b`'s outward reference `ref_b`, or against `a`'s outward
/// reference `ref_a` when `ref_b` does not decide.
fn orient_from_b(n: VectorD, ref_b: &VectorD, ref_a: &VectorD) -> VectorD {
    let n = if n == VectorD::zeros() {
        if *ref_b != VectorD::zeros() {
            *ref_b
        } else {
            -ref_a
        }
    } else {
        n
    };
    let sb = n.dot(ref_b);
    if sb < 0.0 || (sb == 0.0 && n.dot(ref_a) > 0.0) {
        -n
    } else {
        n
    }
}

/// A contact found at `tau = 0` (axis frame).
struct StartContact {
    kind: ContactKind,
    feature_moving: u32,
    feature_hit: u32,
    point: PointD,
    normal: VectorD,
}

impl StartContact {
    fn into_world(self, frame: &AxisFrame) -> SweepContact {
        SweepContact {
            toi: TimeOfImpact::exact(0.0),
            kind: self.kind,
            feature_moving: self.feature_moving,
            feature_hit: self.feature_hit,
            point: frame.point_to_world(&self.point),
            normal: frame
                .vector_to_world(&self.normal)
                .try_normalize(0.0)
                .unwrap_or_else(VectorD::z),
            initially_touching: true,
        }
    }
}

/// Map from an unordered vertex pair to the colldet edge index.
fn edge_map(shape: &SweepShape) -> HashMap<(u32, u32), u32> {
    let mut map = HashMap::new();
    let mut e = 0u32;
    while let Some([p, q]) = shape.edge_vertices(e) {
        map.insert((p.min(q), p.max(q)), e);
        e += 1;
    }
    map
}

/// The first touching feature pair at `tau = 0` (within `tol`), if any: vertex-face distances,
/// edge-edge distances and edges crossing faces, over all triangle pairs whose boxes overlap.
fn start_contact(pa: &Placed, pb: &Placed, tol: f64) -> Option<StartContact> {
    let (a, b) = (pa.shape, pb.shape);
    let boxes = |p: &Placed| -> Vec<[PointD; 2]> {
        (0..p.shape.triangles().len())
            .map(|t| {
                let [x, y, z] = p.tri(t);
                [x.inf(&y).inf(&z), x.sup(&y).sup(&z)]
            })
            .collect()
    };
    let (boxes_a, boxes_b) = (boxes(pa), boxes(pb));
    let (edges_a, edges_b) = (edge_map(a), edge_map(b));
    let key = |p: u32, q: u32| (p.min(q), p.max(q));
    for (ta, tri_a) in a.triangles().iter().enumerate() {
        let [lo_a, hi_a] = boxes_a[ta];
        for (tb, tri_b) in b.triangles().iter().enumerate() {
            let [lo_b, hi_b] = boxes_b[tb];
            if (0..3).any(|k| lo_a[k] > hi_b[k] + tol || lo_b[k] > hi_a[k] + tol) {
                continue;
            }
            let (xa, xb) = (pa.tri(ta), pb.tri(tb));
            let (na, nb) = (pa.normal(ta), pb.normal(tb));
            for k in 0..3 {
                if point_triangle_distance(&xa[k], &xb) <= tol {
                    return Some(StartContact {
                        kind: ContactKind::VertexFace,
                        feature_moving: tri_a.corners[k],
                        feature_hit: tri_b.face,
                        point: xa[k],
                        normal: nb,
                    });
                }
                if point_triangle_distance(&xb[k], &xa) <= tol {
                    return Some(StartContact {
                        kind: ContactKind::FaceVertex,
                        feature_moving: tri_a.face,
                        feature_hit: tri_b.corners[k],
                        point: xb[k],
                        normal: -na,
                    });
                }
            }
            for i in 0..3 {
                let (i0, i1) = (tri_a.corners[i], tri_a.corners[(i + 1) % 3]);
                let Some(&ea) = edges_a.get(&key(i0, i1)) else {
                    continue;
                };
                for j in 0..3 {
                    let (j0, j1) = (tri_b.corners[j], tri_b.corners[(j + 1) % 3]);
                    let Some(&eb) = edges_b.get(&key(j0, j1)) else {
                        continue;
                    };
                    let (p0, p1) = (pa.v[i0 as usize], pa.v[i1 as usize]);
                    let (q0, q1) = (pb.v[j0 as usize], pb.v[j1 as usize]);
                    let (dist, point) = segment_segment_distance(&p0, &p1, &q0, &q1);
                    if dist <= tol {
                        let n = orient_from_b(
                            (p1 - p0).cross(&(q1 - q0)),
                            &pb.edge_normal([j0, j1]),
                            &pa.edge_normal([i0, i1]),
                        );
                        return Some(StartContact {
                            kind: ContactKind::EdgeEdge,
                            feature_moving: ea,
                            feature_hit: eb,
                            point,
                            normal: n,
                        });
                    }
                }
            }
            for k in 0..3 {
                let (p0, p1) = (xa[k], xa[(k + 1) % 3]);
                if let Some(x) = segment_crosses_triangle(&p0, &p1, &xb) {
                    return Some(StartContact {
                        kind: ContactKind::VertexFace,
                        feature_moving: tri_a.corners[k],
                        feature_hit: tri_b.face,
                        point: x,
                        normal: nb,
                    });
                }
                let (q0, q1) = (xb[k], xb[(k + 1) % 3]);
                if let Some(x) = segment_crosses_triangle(&q0, &q1, &xa) {
                    return Some(StartContact {
                        kind: ContactKind::FaceVertex,
                        feature_moving: tri_a.face,
                        feature_hit: tri_b.corners[k],
                        point: x,
                        normal: -na,
                    });
                }
            }
        }
    }
    None
}

/// Distance from `p` to the closed triangle `t` (`f64`, rounded).
fn point_triangle_distance(p: &PointD, t: &[PointD; 3]) -> f64 {
    let [a, b, c] = *t;
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return ap.norm();
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return bp.norm();
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return (p - (a + ab * v)).norm();
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return cp.norm();
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return (p - (a + ac * w)).norm();
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (p - (b + (c - b) * w)).norm();
    }
    let n = ab.cross(&ac);
    let len = n.norm();
    if len == 0.0 {
        // Degenerate triangle: distance to its longest edge.
        return [(a, b), (b, c), (c, a)]
            .iter()
            .map(|(x, y)| segment_segment_distance(p, p, x, y).0)
            .fold(f64::INFINITY, f64::min);
    }
    (n.dot(&ap) / len).abs()
}

/// Distance between the closed segments `p0 p1` and `q0 q1` and the midpoint of the closest
/// points (`f64`, rounded).
fn segment_segment_distance(p0: &PointD, p1: &PointD, q0: &PointD, q1: &PointD) -> (f64, PointD) {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let (s, t);
    if a == 0.0 && e == 0.0 {
        (s, t) = (0.0, 0.0);
    } else if a == 0.0 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(&r);
        if e == 0.0 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(&d2);
            let den = a * e - b * b;
            let s0 = if den > 0.0 {
                ((b * f - c * e) / den).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            } else {
                (s, t) = (s0, t0);
            }
        }
    }
    let (x, y) = (p0 + d1 * s, q0 + d2 * t);
    ((x - y).norm(), PointD::from((x.coords + y.coords) * 0.5))
}

/// The point where the segment `p0 p1` crosses the closed triangle `t`, when its ends lie strictly
/// on opposite sides of the triangle's plane.
fn segment_crosses_triangle(p0: &PointD, p1: &PointD, t: &[PointD; 3]) -> Option<PointD> {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let (s0, s1) = (n.dot(&(p0 - t[0])), n.dot(&(p1 - t[0])));
    if !((s0 < 0.0 && s1 > 0.0) || (s0 > 0.0 && s1 < 0.0)) {
        return None;
    }
    let x = p0 + (p1 - p0) * (s0 / (s0 - s1));
    let inside = (0..3).all(|k| {
        let (u, v) = (t[k] - x, t[(k + 1) % 3] - x);
        n.dot(&u.cross(&v)) >= 0.0
    });
    inside.then_some(x)
}

/// Reusable state of [`sweep_translate_then_rotate`] (the translation phase's buffers).
#[derive(Clone, Debug, Default)]
pub struct TranslateRotateWorkspace {
    translation: TranslationWorkspace,
}

impl TranslateRotateWorkspace {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }
}

/// Motion (c) of `a` against the stationary `b`: translation by `d` over `tau` in `[0, 1/2]`
/// ([`crate::sweep_translation`]; its fraction `f` maps to `f / 2`), then rotation by `angle`
/// about the axis through `pivot + d` over `[1/2, 1]` ([`sweep_rotation`] from the translated
/// pose; its fraction `g` maps to `(1 + g) / 2`). World frame, as [`sweep_rotation`]. A start in contact
/// (within the touching band) is `[0, 0]`, `initially_touching`; a contact present at the end of
/// the translation is the rotation's start contact, `toi = [1/2, 1/2]`.
///
/// # Errors
/// As [`sweep_rotation`], and [`CcdError::NonFinite`] for a non-finite `d`.
#[allow(clippy::too_many_arguments)]
pub fn sweep_translate_then_rotate(
    a: &SweepShape,
    pose_a: &RigidPose,
    d: &VectorD,
    pivot: &PointD,
    axis: &VectorD,
    angle: f64,
    b: &SweepShape,
    pose_b: &RigidPose,
    ws: &mut TranslateRotateWorkspace,
) -> Result<Option<SweepContact>, CcdError> {
    sweep_translate_then_rotate_with(
        a,
        pose_a,
        d,
        pivot,
        axis,
        angle,
        b,
        pose_b,
        &TranslationOptions::default(),
        ws,
    )
}

/// As [`sweep_translate_then_rotate`], the translation phase with `options`
/// ([`sweep_translation_with`]: an expel distance `e > 0` applies the expel zone of seed 3.1 and
/// 3.2 there). The rotation phase does not apply the zone: the rotating sweep has no expel rule
/// yet (the primitives of seed 3.3 are in [`crate::expel`]).
///
/// # Errors
/// As [`sweep_translate_then_rotate`].
#[allow(clippy::too_many_arguments)]
pub fn sweep_translate_then_rotate_with(
    a: &SweepShape,
    pose_a: &RigidPose,
    d: &VectorD,
    pivot: &PointD,
    axis: &VectorD,
    angle: f64,
    b: &SweepShape,
    pose_b: &RigidPose,
    options: &TranslationOptions,
    ws: &mut TranslateRotateWorkspace,
) -> Result<Option<SweepContact>, CcdError> {
    if !d.iter().all(|c| c.is_finite()) {
        return Err(CcdError::NonFinite {
            what: "translation",
        });
    }
    // The start contact (and the checks of the inputs) come from a rotation by zero.
    if let Some(c) = sweep_rotation(a, pose_a, pivot, axis, 0.0, b, pose_b)? {
        return Ok(Some(c));
    }
    // The axis check runs before the translation, so its errors come first.
    AxisFrame::new(pivot, axis)?;
    let zero = VectorD::zeros();
    if let Some(mut c) =
        sweep_translation_with(a, pose_a, d, b, pose_b, &zero, options, &mut ws.translation)
    {
        c.toi = TimeOfImpact {
            lo: c.toi.lo * 0.5,
            hi: c.toi.hi * 0.5,
        };
        return Ok(Some(c));
    }
    let moved = RigidPose::new(pose_a.rot, pose_a.trans + d);
    let moved_pivot = pivot + d;
    Ok(
        sweep_rotation(a, &moved, &moved_pivot, axis, angle, b, pose_b)?.map(|mut c| {
            c.toi = TimeOfImpact {
                lo: 0.5 + c.toi.lo * 0.5,
                hi: 0.5 + c.toi.hi * 0.5,
            };
            c.initially_touching = false;
            c
        }),
    )
}
