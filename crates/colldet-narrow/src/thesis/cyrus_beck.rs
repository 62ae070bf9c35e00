//! Zachmann's modified Cyrus-Beck test for two convex polyhedra (thesis section 3.4.1), corrected.
//!
//! Every edge of shape 1 is clipped by the face half-spaces of shape 2 (in shape 2's frame); an
//! edge with a non-empty remaining parameter interval meets shape 2, so the pair collides. Then
//! the roles are swapped. Shapes are closed solids: touching is a collision.
//!
//! # Rationale and errata (what differs from the thesis)
//! * Prose vs pseudo-code. The prose says an edge `e = (u, v)` *entering* a half-space
//!   (`n . (v - u) < 0`) restricts the interval "from above" (`beta` decreases) and a leaving edge
//!   lowers `alpha`; the pseudo-code does the opposite: entering `alpha := max(alpha, t*)`, leaving
//!   `beta := min(beta, t*)`. The pseudo-code is right (an entering edge is outside for
//!   `t < t*`) and is what we implement.
//! * Parallel edges. The thesis ignores `n . (v - u) = 0`, claiming "no harm is done". It is
//!   wrong when the parallel edge lies *outside* that face's plane: for a cube hovering above
//!   another, the horizontal bottom edges of the upper cube survive every other clip and a false
//!   collision is reported. We clip with the signed distances `d_u`, `d_v` of the two endpoints:
//!   both outside rejects the edge, both inside or on the plane leaves it, otherwise the crossing
//!   `t* = d_u / (d_u - d_v)` bounds `alpha` (`d_u > 0`) or `beta` (`d_v > 0`).
//! * Collect pre-phase. The thesis clips by the faces whose polygon's bounding box meets shape
//!   1's bounding box, and claims an edge surviving those faces is inside shape 2. That is
//!   unsound: a small shape 1 in a bounding-box corner of a round shape 2 meets no face box, the
//!   collected set is empty and every edge "survives". We collect by *plane* instead (in shape 2's
//!   frame, against the box `B` of shape 1's transformed vertices): a face whose closed
//!   half-space contains `B` cannot cut any edge (edges lie in `B`) and is dropped; a face whose
//!   open outside contains `B` proves the pair disjoint at once; the others are kept. For
//!   `x in B`, `x` is in shape 2 iff it is in every kept half-space, so the shortcut is exact.
//!   Edges whose bounding box misses shape 2's box are skipped (the thesis's "edge vs. object
//!   bbox" pre-check).
//! * Containment (the thesis misses a closed object inside another in its general algorithm):
//!   the edges of the inner object survive clipping untouched, so it is detected. Completeness in
//!   general: if the solids share a point, a vertex of their (convex) intersection lies on an edge
//!   of one of them, inside the other, and that edge survives its pass.
//!
//! # Precision
//! Shape 1's vertices are mapped into shape 2's frame in `f64` (rounding about `1e-16` of
//! `|t12| + r1`; symmetrically for the second pass). The side of a mapped endpoint relative to a
//! *triangle* face is then decided exactly by [`orient3d`] on the face's `f32` corners. A
//! *polygon* face (4 or more corners) is replaced by its Newell plane through the corners'
//! centroid and treated as a slab whose half-width is the measured distance of its corners from
//! that plane plus `POLYGON_NOISE_FACTOR * |n|_1 * (|corner|_inf + |x|_inf)` (relative, see
//! [`POLYGON_NOISE_FACTOR`]); points in the slab count as on the face. The crossing parameters
//! `t*` are rounded, so the final `alpha <= beta` may be decided either way when an edge passes
//! within about `1e-16` of its length of an edge or corner of the other shape, which is far inside
//! GJK's touching band ([`crate::gjk::TOUCHING_TOLERANCE_FACTOR`]). Away from that, the answer is
//! exact.
//!
//! Cost: `O(E1 * K2 + E2 * K1)` clip steps with `K` the kept faces, so `O(n^2)` in the worst case
//! (the thesis found the method no faster than its general algorithm). Per query it transforms
//! the vertices into a reused buffer of the [`CyrusBeckWorkspace`]; nothing is allocated once the
//! buffers have grown to the largest shapes seen.

use super::{Frame12, PairMember};
use crate::NarrowError;
use crate::RelativePose;
use colldet_geom::GeomError;
use colldet_geom::Polyhedron;
use colldet_geom::dcel::{EdgeId, FaceId};
use colldet_geom::math::{PointD, VectorD, to_f64};
use colldet_geom::normal::newell_normal;
use colldet_geom::predicates::orient3d;

/// Rounding-noise scale of polygon-face planes: a point within
/// `POLYGON_NOISE_FACTOR * |n|_1 * (max |corner|_inf + |x|_inf)` (plus the face's own
/// non-planarity) of a polygon face's Newell plane counts as on the face. Relative to the
/// coordinates' magnitude, so the test is scale invariant.
pub const POLYGON_NOISE_FACTOR: f64 = 1e-12;

/// Margin of the plane-versus-box classification of the collect pre-phase, relative to the
/// magnitudes involved (it only decides which faces to skip, so it is generous: a face that is
/// kept needlessly costs time, never correctness).
const FILTER_MARGIN_FACTOR: f64 = 1e-12;

/// Outcome of [`cyrus_beck_intersect`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CyrusBeckStatus {
    /// The closed solids share no point (every edge of each was clipped away by the other).
    Disjoint,
    /// The solids share a point (touching included); the witness is an edge of one inside the
    /// other.
    Intersecting(ClipWitness),
}

impl CyrusBeckStatus {
    /// True for [`CyrusBeckStatus::Intersecting`].
    pub fn is_colliding(&self) -> bool {
        matches!(self, Self::Intersecting(_))
    }
}

/// An edge that survived clipping: the part of it with parameter in `interval` lies in the other
/// shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipWitness {
    /// The shape the edge belongs to.
    pub clipped: PairMember,
    /// The edge, in that shape's DCEL.
    pub edge: EdgeId,
    /// The surviving parameter range `[alpha, beta]`, `0 <= alpha <= beta <= 1`, along the edge
    /// from its first vertex to its second (the order of
    /// [`Dcel::edge_vertices`](colldet_geom::Dcel::edge_vertices)).
    pub interval: [f64; 2],
}

/// A face of the clipping shape as a closed half-space, in that shape's frame.
#[derive(Clone, Copy, Debug)]
enum ClipPlane {
    /// A triangle `a, b, c` (counter-clockwise from outside); sides by the exact [`orient3d`].
    Triangle { a: PointD, b: PointD, c: PointD },
    /// A polygon: Newell normal `normal` (outward, unnormalised), `normal . x = offset` through
    /// the centroid; `|d| <= slack + noise * |x|_inf` counts as on the face.
    Polygon {
        normal: VectorD,
        offset: f64,
        slack: f64,
        noise: f64,
    },
}

/// How a face plane relates to the clipped shape's bounding box.
enum BoxSide {
    /// The box is inside the closed half-space: the face cannot clip any edge.
    Inside,
    /// The box is strictly outside: the shapes are disjoint.
    Outside,
    /// The plane may cut the box.
    Straddles,
}

impl ClipPlane {
    fn new(shape: &Polyhedron, face: &[u32]) -> Self {
        let vertices = shape.vertices();
        if let &[a, b, c] = face {
            return Self::Triangle {
                a: to_f64(&vertices[a as usize]),
                b: to_f64(&vertices[b as usize]),
                c: to_f64(&vertices[c as usize]),
            };
        }
        let normal = newell_normal(face.iter().map(|&i| vertices[i as usize]));
        let mut centroid = VectorD::zeros();
        let mut radius = 0.0_f64;
        for &i in face {
            let p = to_f64(&vertices[i as usize]).coords;
            centroid += p;
            radius = radius.max(p.amax());
        }
        centroid /= face.len() as f64;
        let offset = normal.dot(&centroid);
        let deviation = face
            .iter()
            .map(|&i| (normal.dot(&to_f64(&vertices[i as usize]).coords) - offset).abs())
            .fold(0.0, f64::max);
        let noise = POLYGON_NOISE_FACTOR * normal.lp_norm(1);
        Self::Polygon {
            normal,
            offset,
            slack: deviation + noise * radius,
            noise,
        }
    }

    /// Signed distance-like value of `x`: positive outside, negative inside, exactly zero on the
    /// face (for polygons: within the slab). Only the sign and the ratio of two values of the
    /// same face are used.
    #[inline]
    fn side_value(&self, x: &PointD) -> f64 {
        match self {
            Self::Triangle { a, b, c } => -orient3d(a, b, c, x),
            Self::Polygon {
                normal,
                offset,
                slack,
                noise,
            } => {
                let d = normal.dot(&x.coords) - offset;
                if d.abs() <= slack + noise * x.coords.amax() {
                    0.0
                } else {
                    d
                }
            }
        }
    }

    /// Classifies the box `[lo, hi]` against the half-space, conservatively: `Straddles` unless
    /// the box clears the plane by a margin covering the rounding of this float test (and, for a
    /// polygon, its slab).
    fn box_side(&self, lo: &PointD, hi: &PointD) -> BoxSide {
        let centre = (lo.coords + hi.coords) * 0.5;
        let half = (hi.coords - lo.coords) * 0.5;
        let extent = centre.amax() + half.amax();
        let (normal, value, margin) = match self {
            Self::Triangle { a, b, c } => {
                let n = (b - a).cross(&(c - a));
                let margin = FILTER_MARGIN_FACTOR * n.lp_norm(1) * (a.coords.amax() + extent);
                (n, n.dot(&(centre - a.coords)), margin)
            }
            Self::Polygon {
                normal,
                offset,
                slack,
                noise,
            } => {
                let margin = FILTER_MARGIN_FACTOR * (normal.lp_norm(1) * extent + offset.abs())
                    + slack
                    + noise * extent;
                (*normal, normal.dot(&centre) - offset, margin)
            }
        };
        let spread = normal.x.abs() * half.x + normal.y.abs() * half.y + normal.z.abs() * half.z;
        if value + spread < -margin {
            BoxSide::Inside
        } else if value - spread > margin {
            BoxSide::Outside
        } else {
            BoxSide::Straddles
        }
    }
}

/// Reusable buffers of [`cyrus_beck_intersect`] (one per thread, not per pair): the vertices of
/// the clipped shape mapped into the other's frame, and the kept face planes.
#[derive(Clone, Debug, Default)]
pub struct CyrusBeckWorkspace {
    points: Vec<PointD>,
    planes: Vec<ClipPlane>,
}

impl CyrusBeckWorkspace {
    /// Empty buffers; they grow to the largest shapes seen and are then reused.
    pub fn new() -> Self {
        Self::default()
    }
}

/// What one clipping pass found.
enum PassOutcome {
    /// A face plane has the whole clipped shape strictly outside, or the boxes are disjoint.
    Separated,
    /// An edge survived.
    Survivor(ClipWitness),
    /// Every edge was clipped away.
    AllClipped,
}

/// Do two convex polyhedra (closed solids) share a point? Thesis section 3.4.1, corrected (see
/// the [module docs](self)).
///
/// `pos12` is shape 2's pose in shape 1's frame. Touching counts as intersecting; a shape inside
/// the other is intersecting. The answer is exact except when an edge passes within rounding
/// (about `1e-16` relative) of an edge or corner of the other shape.
///
/// # Errors
/// [`NarrowError::Geom`]`(`[`GeomError::NotConvex`]`)` when either classification is not convex,
/// [`NarrowError::NonFinite`] for a NaN or infinite pose.
pub fn cyrus_beck_intersect<P: RelativePose + ?Sized>(
    p1: &Polyhedron,
    p2: &Polyhedron,
    pos12: &P,
    workspace: &mut CyrusBeckWorkspace,
) -> Result<CyrusBeckStatus, NarrowError> {
    if !p1.classification().convex || !p2.classification().convex {
        return Err(GeomError::NotConvex.into());
    }
    let pose = Frame12::new(pos12)?;
    // Edges of shape 1, clipped in shape 2's frame.
    match clip_pass(p1, p2, |x| pose.in_frame2(x), workspace, PairMember::Shape1) {
        PassOutcome::Separated => return Ok(CyrusBeckStatus::Disjoint),
        PassOutcome::Survivor(w) => return Ok(CyrusBeckStatus::Intersecting(w)),
        PassOutcome::AllClipped => {}
    }
    // Edges of shape 2, clipped in shape 1's frame.
    Ok(
        match clip_pass(p2, p1, |x| pose.in_frame1(x), workspace, PairMember::Shape2) {
            PassOutcome::Survivor(w) => CyrusBeckStatus::Intersecting(w),
            PassOutcome::Separated | PassOutcome::AllClipped => CyrusBeckStatus::Disjoint,
        },
    )
}

/// Clips every edge of `clipped` by the faces of `clipper`, in `clipper`'s frame (`map` takes
/// `clipped`'s local points there).
fn clip_pass(
    clipped: &Polyhedron,
    clipper: &Polyhedron,
    map: impl Fn(&PointD) -> PointD,
    ws: &mut CyrusBeckWorkspace,
    member: PairMember,
) -> PassOutcome {
    // Mapped vertices of the clipped shape and their box (in the clipper's frame).
    ws.points.clear();
    let mut lo = PointD::new(f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let mut hi = PointD::new(f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for v in clipped.vertices() {
        let x = map(&to_f64(v));
        lo = lo.inf(&x);
        hi = hi.sup(&x);
        ws.points.push(x);
    }
    // The clipper's own box (its f32 coordinates are exact in f64).
    let mut clo = PointD::new(f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let mut chi = PointD::new(f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for v in clipper.vertices() {
        let x = to_f64(v);
        clo = clo.inf(&x);
        chi = chi.sup(&x);
    }
    if boxes_disjoint(&lo, &hi, &clo, &chi) {
        return PassOutcome::Separated;
    }

    // Collect: keep the faces whose plane may cut the box.
    ws.planes.clear();
    let dcel = clipper.dcel();
    for f in 0..dcel.face_count() {
        let plane = ClipPlane::new(clipper, dcel.face_vertices(FaceId(f as u32)));
        match plane.box_side(&lo, &hi) {
            BoxSide::Inside => {}
            BoxSide::Outside => return PassOutcome::Separated,
            BoxSide::Straddles => ws.planes.push(plane),
        }
    }

    let dcel = clipped.dcel();
    for e in 0..dcel.edge_count() {
        let edge = EdgeId(e as u32);
        let [u, v] = dcel.edge_vertices(edge);
        let (pu, pv) = (ws.points[u.index()], ws.points[v.index()]);
        if boxes_disjoint(&pu.inf(&pv), &pu.sup(&pv), &clo, &chi) {
            continue;
        }
        if let Some(interval) = clip_edge(&pu, &pv, &ws.planes) {
            return PassOutcome::Survivor(ClipWitness {
                clipped: member,
                edge,
                interval,
            });
        }
    }
    PassOutcome::AllClipped
}

/// Clips the segment `pu -> pv` by the half-spaces `planes`; the surviving `[alpha, beta]`, or
/// `None` when nothing is left.
#[inline]
fn clip_edge(pu: &PointD, pv: &PointD, planes: &[ClipPlane]) -> Option<[f64; 2]> {
    let (mut alpha, mut beta) = (0.0_f64, 1.0_f64);
    for plane in planes {
        let du = plane.side_value(pu);
        let dv = plane.side_value(pv);
        if du > 0.0 {
            if dv > 0.0 {
                return None;
            }
            // Entering: outside for t < t* = du / (du - dv).
            alpha = alpha.max(du / (du - dv));
        } else if dv > 0.0 {
            // Leaving: outside for t > t* = |du| / (|du| + dv) (never -0.0).
            beta = beta.min(du.abs() / (du.abs() + dv));
        }
        if alpha > beta {
            return None;
        }
    }
    Some([alpha, beta])
}

/// True when the closed boxes `[lo1, hi1]` and `[lo2, hi2]` are strictly apart on some axis.
#[inline]
fn boxes_disjoint(lo1: &PointD, hi1: &PointD, lo2: &PointD, hi2: &PointD) -> bool {
    (0..3).any(|i| hi1[i] < lo2[i] || hi2[i] < lo1[i])
}
