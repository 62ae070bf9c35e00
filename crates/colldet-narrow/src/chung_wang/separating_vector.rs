//! The separating-vector search loop (the paper's appendix `Quick_Collision`), with certification
//! and the GJK fallback described in the [module docs](super).
//!
//! Rationale for the order of the checks in one iteration:
//! 1. Lemma 1 with margin: `S . m > tol + noise` is a certified separation; `0 <= S . m <= tol +
//!    noise` is a separating vector inside the band, which only GJK can classify.
//! 2. `S . m < 0`. The same pair as in the previous iteration contradicts Lemma 3 (which gives
//!    `S . m = -S_prev . m_prev > 0`) unless rounding ate the margin: GJK decides. A pair met earlier
//!    sends `S` to the hemisphere normal `w` (Lemma 4); if the pair found with `S = w` recurs as
//!    well, Lemma 4 promised `w . m >= 0`, so again only rounding can be at work: GJK decides.
//! 3. A new pair enters the hemisphere test; a closed hemisphere names a tetrahedron of CSO points
//!    around the origin whose depth certifies the collision or sends the query to GJK.
//! 4. Reflection `S <- S - 2 (r . S) r`, re-normalised against drift.
//!
//! Every path ends in a certified status or in GJK; the iteration cap bounds the loop.

use super::cached_tetrahedron::{CachedOutcome, cached_tetrahedron_depth, gjk_from_certificate};
use super::chung_wang_cache::{NO_KNOWN_SUPPORT, WarmStart};
use super::hemisphere::{HemisphereStep, SearchPoint};
use super::hull_box::HullBox;
use super::tetrahedron_depth::origin_depth_in_tetrahedron;
use super::{
    ChungWangCache, ChungWangResult, ChungWangStatus, ChungWangWorkspace, Decision, FallbackReason,
    iteration_cap,
};
use crate::RelativePose;
use crate::convex_polytope_support::climb;
use crate::gjk::TOUCHING_TOLERANCE_FACTOR;
use crate::{GjkStatus, NarrowError, gjk_intersect};
use colldet_geom::ConvexPolytope;
use colldet_geom::math::{VectorD, to_f64};
use nalgebra::Matrix3;

/// Fraction of the pair's numeric scale treated as `f64` rounding noise (as in GJK).
const NOISE_FACTOR: f64 = 1e-12;

/// The relative pose in `f64` (polytope 2 in polytope 1's frame) and the pair's tolerances.
pub(super) struct Frame {
    pub rot: Matrix3<f64>,
    pub trans: VectorD,
    pub tol: f64,
    pub noise: f64,
}

impl Frame {
    fn new(
        p1: &ConvexPolytope,
        p2: &ConvexPolytope,
        pos12: &(impl RelativePose + ?Sized),
    ) -> Result<Self, NarrowError> {
        let (rot, trans) = pos12.widened_parts()?;
        let (tol, noise) = pair_tolerances(
            f64::from(p1.radius()) + f64::from(p2.radius()),
            &trans,
            p1.vertex_rounding() + p2.vertex_rounding(),
        );
        Ok(Self {
            rot,
            trans,
            tol,
            noise,
        })
    }
}

/// The pair's touching band `tol` and rounding noise, from the sum of the polytopes' radii
/// `size`, the relative translation `trans` (lengths, shape 1's frame) and the sum of their
/// [`ConvexPolytope::vertex_rounding`]s `rounding`. The band grows by `2 rounding`: a support
/// value moves by at most `rounding` between the `f32` vertices and the `f64` ones the caller
/// gave, and a mesh that is convex in `f32` is within `rounding` of its hull in `f64`, so every
/// certificate beyond the band holds for the numbers given.
#[inline]
pub(super) fn pair_tolerances(size: f64, trans: &VectorD, rounding: f64) -> (f64, f64) {
    (
        TOUCHING_TOLERANCE_FACTOR * size + 2.0 * rounding,
        NOISE_FACTOR * (size + trans.norm()),
    )
}

/// Classifies a pair of convex polytopes as [`ChungWangStatus::Separated`],
/// [`ChungWangStatus::Touching`] or [`ChungWangStatus::Intersecting`] by the Chung-Wang
/// separating-vector search, certified as described in the [module docs](super).
///
/// `pos12` is polytope 2's pose in polytope 1's frame (an `f32` isometry, as for
/// [`gjk_intersect`]). `cache` belongs to this ordered pair: it warm-starts the query and is
/// updated (after `Separated` it holds the certified separating vector). `workspace` is scratch
/// space that any number of pairs may share; its [`stats`](ChungWangWorkspace::stats) count the
/// outcomes. No allocation happens here.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite `pos12`; the errors of [`gjk_intersect`] when
/// the query falls back to it.
pub fn chung_wang_intersect<P: RelativePose + ?Sized>(
    p1: &ConvexPolytope,
    p2: &ConvexPolytope,
    pos12: &P,
    cache: &mut ChungWangCache,
    workspace: &mut ChungWangWorkspace,
) -> Result<ChungWangResult, NarrowError> {
    let frame = Frame::new(p1, p2, pos12)?;
    let rot_t = frame.rot.transpose();
    workspace.stats.queries += 1;
    if let Some(mut certificate) = cache.certificate.take() {
        let wanted = frame.tol + frame.noise;
        let (outcome, visits) =
            cached_tetrahedron_depth(p1, p2, &frame, &rot_t, &mut certificate, wanted);
        match outcome {
            CachedOutcome::Deep => {
                cache.certificate = Some(certificate);
                workspace.stats.intersecting_cached += 1;
                return Ok(ChungWangResult {
                    status: ChungWangStatus::Intersecting,
                    iterations: 0,
                    visits,
                    decided_by: Decision::CachedTetrahedron,
                });
            }
            CachedOutcome::Separated { s, vertices } => {
                // `vertices[0]` is polytope 1's exact support in `s`: the next query need not
                // climb for it.
                cache.warm = Some(WarmStart {
                    s,
                    vertices,
                    support1_of: p1.geometry_id(),
                });
                workspace.stats.separated_by_certificate_face += 1;
                return Ok(ChungWangResult {
                    status: ChungWangStatus::Separated,
                    iterations: 0,
                    visits,
                    decided_by: Decision::CertificateFace,
                });
            }
            CachedOutcome::Lost => {}
        }
        // The certificate no longer holds the origin deeply: GJK goes on from its tetrahedron.
        return gjk_from_certificate(p1, p2, pos12, &certificate, visits, cache, workspace);
    }
    // Boxes found overlapping at the last query are not tested again this time (see
    // `ChungWangCache::boxes_overlapped`).
    if !std::mem::take(&mut cache.boxes_overlapped) {
        if local_boxes_separated(p1, p2, &frame) {
            workspace.stats.separated_by_boxes += 1;
            return Ok(ChungWangResult {
                status: ChungWangStatus::Separated,
                iterations: 0,
                visits: 0,
                decided_by: Decision::BoundingBoxes,
            });
        }
        cache.boxes_overlapped = true;
    }
    search(p1, p2, pos12, &frame, &rot_t, cache, workspace)
}

/// The separating-vector search proper (the paper's loop), from the warm start or a cold start.
fn search<P: RelativePose + ?Sized>(
    p1: &ConvexPolytope,
    p2: &ConvexPolytope,
    pos12: &P,
    frame: &Frame,
    rot_t: &Matrix3<f64>,
    cache: &mut ChungWangCache,
    workspace: &mut ChungWangWorkspace,
) -> Result<ChungWangResult, NarrowError> {
    workspace.visited.begin_query();
    workspace.hemisphere.clear();

    // A warm `S` whose polytope-1 support is known (same polytope, same `S`) skips that climb.
    let (mut s, [mut vi, mut vj], mut support1_known) = match cache.warm {
        Some(w) => (w.s, w.vertices, w.support1_of == p1.geometry_id()),
        // No start vertices: the first climbs start from the direction tables.
        None => (cold_start(p1, p2, frame), [NO_START; 2], false),
    };
    let cap = iteration_cap(p1.vertex_count(), p2.vertex_count());
    let (v1, v2) = (p1.vertices(), p2.vertices());
    let mut k = 0u32;
    let mut visits = 0u32;
    let mut previous_pair: Option<(u32, u32)> = None;
    let mut jumped_to_w = false;
    let mut recurred = false;
    let mut search = Search {
        p1,
        p2,
        pos12,
        cache,
        workspace,
    };
    loop {
        if k >= cap {
            return search.fallback(FallbackReason::IterationCap, k, visits, s, [vi, vj]);
        }
        k += 1;
        let (a, n1) = if support1_known {
            support1_known = false;
            (vi, 0)
        } else {
            climb(p1, &s, vi)
        };
        let (b, n2) = climb(p2, &(-(rot_t * s)), vj);
        (vi, vj) = (a, b);
        visits = visits.saturating_add(n1).saturating_add(n2);
        let p = to_f64(&v1[vi as usize]).coords;
        let q = frame.rot * to_f64(&v2[vj as usize]).coords + frame.trans;
        let m = q - p;
        let dp = s.dot(&m);
        if dp > frame.tol + frame.noise {
            search.cache.warm = Some(WarmStart {
                s,
                vertices: [vi, vj],
                support1_of: p1.geometry_id(),
            });
            search.workspace.stats.separated += 1;
            return Ok(ChungWangResult {
                status: ChungWangStatus::Separated,
                iterations: k,
                visits,
                decided_by: Decision::SeparatingVector,
            });
        }
        if dp >= 0.0 {
            return search.fallback(FallbackReason::SeparationWithinBand, k, visits, s, [vi, vj]);
        }
        let mn = m.norm();
        if mn <= frame.noise {
            // p and q coincide up to rounding: the polytopes share a point; GJK finds the depth.
            return search.fallback(FallbackReason::CollisionWithinBand, k, visits, s, [vi, vj]);
        }
        let r = m / mn;
        let pair = (vi, vj);
        if previous_pair == Some(pair) {
            return search.fallback(FallbackReason::RecurringPair, k, visits, s, [vi, vj]);
        }
        previous_pair = Some(pair);
        if search.workspace.visited.visit(vi, vj) {
            if jumped_to_w {
                return search.fallback(FallbackReason::RecurringPair, k, visits, s, [vi, vj]);
            }
            if !recurred {
                recurred = true;
                search.workspace.stats.recurring_pairs += 1;
            }
            let w = search.workspace.hemisphere.normal();
            if w.norm_squared() > 0.5 {
                s = w;
                jumped_to_w = true;
                continue;
            }
            return search.fallback(FallbackReason::RecurringPair, k, visits, s, [vi, vj]);
        }
        jumped_to_w = false;
        let point = SearchPoint {
            m,
            r,
            vertices: [vi, vj],
        };
        if let HemisphereStep::Closed(ids) = search.workspace.hemisphere.add(point) {
            let pts = search.workspace.hemisphere.points();
            if origin_depth_in_tetrahedron(&ids.map(|i| pts[i].m)) > frame.tol + frame.noise {
                search.cache.certificate = Some(ids.map(|i| pts[i].vertices));
                if search.cache.warm.is_none() {
                    search.cache.warm = Some(WarmStart {
                        s,
                        vertices: [vi, vj],
                        support1_of: NO_KNOWN_SUPPORT,
                    });
                }
                search.workspace.stats.intersecting += 1;
                return Ok(ChungWangResult {
                    status: ChungWangStatus::Intersecting,
                    iterations: k,
                    visits,
                    decided_by: Decision::Tetrahedron,
                });
            }
            return search.fallback(FallbackReason::CollisionWithinBand, k, visits, s, [vi, vj]);
        }
        s -= r * (2.0 * r.dot(&s));
        let sn = s.norm();
        if sn.is_nan() || sn <= 0.5 {
            // Cannot happen for a reflection of a unit vector; kept so a NaN never loops.
            return search.fallback(FallbackReason::IterationCap, k, visits, r, [vi, vj]);
        }
        s /= sn;
    }
}

/// The inputs GJK needs when the search hands over.
struct Search<'a, P: RelativePose + ?Sized> {
    p1: &'a ConvexPolytope,
    p2: &'a ConvexPolytope,
    pos12: &'a P,
    cache: &'a mut ChungWangCache,
    workspace: &'a mut ChungWangWorkspace,
}

impl<P: RelativePose + ?Sized> Search<'_, P> {
    /// Runs GJK and caches its separating direction (or, when colliding, keeps a warm start).
    fn fallback(
        &mut self,
        reason: FallbackReason,
        iterations: u32,
        visits: u32,
        s: VectorD,
        vertices: [u32; 2],
    ) -> Result<ChungWangResult, NarrowError> {
        self.workspace.stats.count_fallback(reason);
        let status = gjk_intersect(self.p1, self.p2, self.pos12, &mut self.cache.gjk)?;
        let s = match (status, self.cache.gjk.direction()) {
            (GjkStatus::Separated, Some(d)) => -d,
            _ => s,
        };
        if status == GjkStatus::Separated || self.cache.warm.is_none() {
            self.cache.warm = Some(WarmStart {
                s,
                vertices,
                support1_of: NO_KNOWN_SUPPORT,
            });
        }
        Ok(ChungWangResult {
            status: status.into(),
            iterations,
            visits,
            decided_by: Decision::GjkFallback(reason),
        })
    }
}

/// A start-vertex index out of range: [`climb`] then starts from the polytope's direction-table
/// entry for the `f64` direction (for a scanned polytope the start is unused anyway).
const NO_START: u32 = u32::MAX;

/// First `S` from the centroids (the polytopes' vertex averages), unit, polytope 1's frame.
fn cold_start(p1: &ConvexPolytope, p2: &ConvexPolytope, frame: &Frame) -> VectorD {
    let c2 = frame.rot * p2.vertex_average() + frame.trans;
    let d = c2 - p1.vertex_average();
    let n = d.norm();
    if n > 0.0 && n.is_finite() {
        d / n
    } else {
        VectorD::x()
    }
}

/// True when the polytopes' local bounding boxes ([`ConvexPolytope::local_aabb`]), placed by
/// `frame`, are separated by more than `tol + noise` along one of the 15 box axes: the polytopes
/// are then farther apart than `tol` (an edge-pair axis `e x c` has length `<= 1`, so the unscaled
/// margin is the stricter one). Centres and half extents come in `f64` from the exact `f32`
/// corners: their rounding is `f64` rounding, covered by `noise`. The same test as
/// [`HullBox::separated`].
fn local_boxes_separated(p1: &ConvexPolytope, p2: &ConvexPolytope, frame: &Frame) -> bool {
    HullBox::of(p1).separated_by(
        &HullBox::of(p2),
        &frame.rot,
        &frame.trans,
        frame.tol + frame.noise,
    )
}
