//! EPA's expansion loop and the public penetration query.

use super::epa_seed::{Seed, seed_polytope};
use super::epa_workspace::{EpaWorkspace, Face};
use super::{EPA_MAX_ITERATIONS, EPA_RELATIVE_TOLERANCE};
use crate::RelativePose;
use crate::cso::{CsoPoint, PairFrame};
use crate::gjk::simplex::Simplex;
use crate::gjk::simplex::{area2, argmax_abs};
use crate::gjk::{EarlyStop, GjkCache, GjkEnd, run_gjk};
use crate::{NarrowError, SupportMap};
use colldet_geom::math::{PointD, VectorD};

/// Penetration of a pair, in shape 1's frame and units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// Penetration depth: the length of the shortest translation of shape 2 along `normal` that
    /// separates the interiors. Negative (`-distance`, at most `tol` in magnitude) for a pair that
    /// is separated by a gap inside the touching band.
    pub depth: f64,
    /// Unit contact normal pointing from shape 1 towards shape 2: translating shape 2 by
    /// `depth * normal` brings the pair to touching.
    pub normal: VectorD,
    /// Deepest point of shape 1 into shape 2 along `normal` (on shape 1's surface).
    pub point1: PointD,
    /// Deepest point of shape 2 into shape 1 along `-normal` (on shape 2's surface); `point1 -
    /// point2 = depth * normal`.
    pub point2: PointD,
}

/// When EPA may stop.
#[derive(Clone, Copy, Debug)]
pub(crate) enum EpaGoal {
    /// Stop as soon as the depth is known to be above or at most `tol`.
    Classify { tol: f64 },
    /// Bracket the depth to `EPA_RELATIVE_TOLERANCE`.
    Converge,
}

/// What EPA found.
#[derive(Clone, Copy, Debug)]
pub(crate) enum EpaOutcome {
    DeeperThanTolerance,
    WithinTolerance,
    Converged(Penetration),
}

/// The penetration depth, normal and contact points of a pair.
///
/// `pos12` is shape 2's pose in shape 1's frame; results are in shape 1's frame. GJK runs first
/// (warm-started from `cache`); EPA then expands GJK's final simplex inside `workspace`.
///
/// Returns `Ok(None)` when the pair is separated beyond the touching tolerance (`sd > tol`, see
/// [`crate::gjk`]), `Some` with a negative depth `-distance` for a gap within the band, and `Some`
/// with `depth >= 0` for a pair sharing a point, accurate to
/// [`EPA_RELATIVE_TOLERANCE`](super::EPA_RELATIVE_TOLERANCE) of the depth plus rounding noise. For a
/// flat `A - B` (e.g. coplanar plates) the depth is its thickness along the normal of its plane.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite pose or support point,
/// [`NarrowError::DidNotConverge`] when GJK or EPA reaches its iteration cap,
/// [`NarrowError::EpaDegenerate`] when the polytope cannot be expanded while the depth bounds are
/// still apart.
pub fn epa_penetration<S1, S2, P>(
    s1: &S1,
    s2: &S2,
    pos12: &P,
    cache: &mut GjkCache,
    workspace: &mut EpaWorkspace,
) -> Result<Option<Penetration>, NarrowError>
where
    P: RelativePose + ?Sized,
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    let frame = PairFrame::new(s1, s2, pos12)?;
    let mut simplex = Simplex::empty();
    let run = run_gjk(s1, s2, &frame, cache, EarlyStop::NONE, &mut simplex)?;
    if run.end != GjkEnd::Enclosed {
        let vn = run.v.norm();
        if vn > frame.tol {
            return Ok(None);
        }
        let (p1, p2) = simplex.witness_points();
        return Ok(Some(Penetration {
            depth: -vn,
            normal: -run.v / vn,
            point1: PointD::from(p1),
            point2: PointD::from(p2),
        }));
    }
    let mut hints = run.hints;
    let outcome = run_epa(
        s1,
        s2,
        &frame,
        simplex.points(),
        &mut hints,
        workspace,
        EpaGoal::Converge,
    )?;
    match outcome {
        EpaOutcome::Converged(p) => Ok(Some(p)),
        // Unreachable with `EpaGoal::Converge`; reported rather than guessed.
        EpaOutcome::DeeperThanTolerance | EpaOutcome::WithinTolerance => {
            Err(NarrowError::DidNotConverge {
                algorithm: "EPA",
                iterations: 0,
            })
        }
    }
}

/// Runs EPA from `simplex` (holding the origin) in `ws`.
pub(crate) fn run_epa<S1, S2>(
    s1: &S1,
    s2: &S2,
    frame: &PairFrame,
    simplex: &[CsoPoint],
    hints: &mut [u32; 2],
    ws: &mut EpaWorkspace,
    goal: EpaGoal,
) -> Result<EpaOutcome, NarrowError>
where
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    ws.clear();
    match seed_polytope(ws, s1, s2, frame, simplex, hints)? {
        Seed::Polytope => {}
        Seed::Flat { depth, normal } => {
            let (p1, p2) = common_point(simplex);
            return Ok(EpaOutcome::Converged(Penetration {
                depth,
                normal,
                point1: PointD::from(p1 + normal * (0.5 * depth)),
                point2: PointD::from(p2 - normal * (0.5 * depth)),
            }));
        }
    }
    let noise = frame.noise;
    for _ in 0..EPA_MAX_ITERATIONS {
        let Some(fi) = ws.nearest_face() else {
            return Err(NarrowError::EpaDegenerate {
                lower: 0.0,
                upper: f64::INFINITY,
            });
        };
        let face = ws.faces[fi as usize];
        let (n, d) = (face.normal, face.dist);
        if let EpaGoal::Classify { tol } = goal
            && d > tol
        {
            return Ok(EpaOutcome::DeeperThanTolerance);
        }
        let w = frame.support(s1, s2, &n, hints)?;
        let h = w.w.dot(&n);
        if let EpaGoal::Classify { tol } = goal
            && h <= tol
        {
            return Ok(EpaOutcome::WithinTolerance);
        }
        if h - d <= EPA_RELATIVE_TOLERANCE * h.abs() + noise {
            return Ok(EpaOutcome::Converged(face_penetration(ws, &face, noise)));
        }
        if !expand(ws, fi, w, noise) {
            if h - d <= 1e-6 * h.abs() + noise {
                return Ok(EpaOutcome::Converged(face_penetration(ws, &face, noise)));
            }
            return Err(NarrowError::EpaDegenerate { lower: d, upper: h });
        }
    }
    Err(NarrowError::DidNotConverge {
        algorithm: "EPA",
        iterations: EPA_MAX_ITERATIONS,
    })
}

/// The barycentric-weighted witness point of a simplex that holds the origin, recomputed from its
/// vertices (used only for a flat `A - B`, where any common point serves).
fn common_point(simplex: &[CsoPoint]) -> (VectorD, VectorD) {
    let mut s = Simplex::new(simplex[0]);
    for p in &simplex[1..simplex.len().min(4)] {
        s.push(*p);
    }
    s.reduce();
    s.witness_points()
}

/// Adds support point `w` beyond face `start`: removes every face that sees `w` and fans new faces
/// from the horizon to `w`. Returns false, with the polytope unchanged, when the horizon is not a
/// single closed loop.
fn expand(ws: &mut EpaWorkspace, start: u32, w: CsoPoint, noise: f64) -> bool {
    let wi = ws.verts.len() as u32;
    ws.stack.clear();
    ws.horizon.clear();
    ws.removed.clear();
    ws.faces[start as usize].alive = false;
    ws.removed.push(start);
    for e in [2u8, 1, 0] {
        ws.stack.push((start, e));
    }
    while let Some((pf, pe)) = ws.stack.pop() {
        let f = ws.faces[pf as usize];
        let g = f.adj[pe as usize];
        let ge = f.adj_edge[pe as usize];
        let gf = &ws.faces[g as usize];
        if !gf.alive {
            continue;
        }
        let visible = gf.normal.dot(&w.w) - gf.dist > noise;
        if visible {
            ws.faces[g as usize].alive = false;
            ws.removed.push(g);
            ws.stack.push((g, (ge + 2) % 3));
            ws.stack.push((g, (ge + 1) % 3));
        } else {
            ws.horizon.push(super::epa_workspace::HorizonEdge {
                a: f.v[pe as usize],
                b: f.v[(pe as usize + 1) % 3],
                out_face: g,
                out_edge: ge,
            });
        }
    }
    let m = ws.horizon.len();
    let closed = m >= 3 && (0..m).all(|i| ws.horizon[i].b == ws.horizon[(i + 1) % m].a);
    if !closed {
        // Nothing was rewired yet: reviving the removed faces restores the polytope.
        for &f in &ws.removed {
            ws.faces[f as usize].alive = true;
        }
        return false;
    }
    ws.verts.push(w);
    let first = ws.faces.len() as u32;
    for i in 0..m {
        let h = ws.horizon[i];
        let f = ws.push_face(h.a, h.b, wi);
        ws.link(f, 0, h.out_face, h.out_edge);
    }
    for i in 0..m as u32 {
        let f = first + i;
        let next = first + (i + 1) % m as u32;
        ws.link(f, 1, next, 2);
    }
    true
}

/// Barycentric coordinates of `p` (on or near the plane of `face`) in the face's triangle,
/// computed in the coordinate plane where the triangle's projection is largest.
fn barycentric(ws: &EpaWorkspace, face: &Face, p: &VectorD) -> [f64; 3] {
    let [a, b, c] = face.v.map(|i| ws.verts[i as usize].w);
    let axis = argmax_abs(&face.normal);
    let (x, y) = ((axis + 1) % 3, (axis + 2) % 3);
    let mu = area2(&a, &b, &c, x, y);
    [
        area2(p, &b, &c, x, y) / mu,
        area2(&a, p, &c, x, y) / mu,
        area2(&a, &b, p, x, y) / mu,
    ]
}

/// Depth, normal and contact points from the nearest face `face`: the origin's projection `p` on the
/// face plane, written in barycentric coordinates of the face that holds it. Faces of `A - B` that
/// are polygons (edge-edge contacts give parallelograms) are split into coplanar triangles, and the
/// nearest one is then picked by a tie: among the live faces coplanar with `face`, the one where `p`
/// is deepest inside is used.
fn face_penetration(ws: &EpaWorkspace, face: &Face, noise: f64) -> Penetration {
    let n = face.normal;
    let p = n * face.dist;
    let mut best = *face;
    let mut l = barycentric(ws, face, &p);
    let mut score = l.iter().copied().fold(f64::INFINITY, f64::min);
    if score.is_nan() || score < 0.0 {
        let dist_tol = 1e-9 * face.dist.abs() + noise;
        for f in ws.faces.iter().filter(|f| f.alive) {
            if (f.normal - n).norm() <= 1e-6 && (f.dist - face.dist).abs() <= dist_tol {
                let lf = barycentric(ws, f, &p);
                let sf = lf.iter().copied().fold(f64::INFINITY, f64::min);
                if sf > score {
                    (best, l, score) = (*f, lf, sf);
                }
            }
        }
    }
    for li in &mut l {
        if !(li.is_finite() && *li > 0.0) {
            *li = 0.0;
        }
    }
    let sum: f64 = l.iter().sum();
    if sum > 0.0 {
        for li in &mut l {
            *li /= sum;
        }
    } else {
        l = [1.0 / 3.0; 3];
    }
    let [a, b, c] = best.v.map(|i| ws.verts[i as usize]);
    let p1 = a.p1 * l[0] + b.p1 * l[1] + c.p1 * l[2];
    let p2 = a.p2 * l[0] + b.p2 * l[1] + c.p2 * l[2];
    Penetration {
        depth: face.dist.max(0.0),
        normal: n,
        point1: PointD::from(p1),
        point2: PointD::from(p2),
    }
}
