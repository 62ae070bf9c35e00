//! The cached certificate tetrahedron of a colliding pair (see "Coherence for colliding pairs"
//! in the [module docs](super)).
//!
//! Frames and signs as in the search: everything in polytope 1's frame, CSO points `m = q - p`
//! with `p` a vertex of polytope 1 (`P`) and `q` one of polytope 2 (`Q`) mapped by the `f64`
//! relative pose. The CSO support point in direction `d` pairs `P`'s support in `-d` with `Q`'s
//! support in `d`.

use super::chung_wang_cache::{Certificate, NO_KNOWN_SUPPORT, WarmStart};
use super::separating_vector::Frame;
use super::tetrahedron_depth::shallowest_face;
use super::{ChungWangCache, ChungWangResult, ChungWangWorkspace, Decision, FallbackReason};
use crate::convex_polytope_support::climb;
use crate::{GjkStatus, NarrowError, RelativePose, gjk_intersect};
use colldet_geom::ConvexPolytope;
use colldet_geom::math::{VectorD, to_f64};
use nalgebra::Matrix3;

/// Tetrahedron refinements after the first four points (see [`cached_tetrahedron_depth`]).
const REFINEMENTS: usize = 4;

/// The CSO support point in direction `d` (polytope 1's frame), climbing from `hint` (updated).
struct CsoSupport<'a> {
    p1: &'a ConvexPolytope,
    p2: &'a ConvexPolytope,
    frame: &'a Frame,
    rot_t: &'a Matrix3<f64>,
    visits: u32,
}

impl CsoSupport<'_> {
    fn point(&mut self, d: &VectorD, hint: &mut [u32; 2]) -> VectorD {
        let (vp, n1) = climb(self.p1, &-d, hint[0]);
        let (vq, n2) = climb(self.p2, &(self.rot_t * d), hint[1]);
        *hint = [vp, vq];
        self.visits = self.visits.saturating_add(n1).saturating_add(n2);
        self.point_of(hint).unwrap_or_default()
    }

    /// The CSO point of the vertex pair `[p, q]`; `None` when an index is out of range (a cache
    /// reused for other polytopes).
    fn point_of(&self, [i, j]: &[u32; 2]) -> Option<VectorD> {
        let p = to_f64(self.p1.vertices().get(*i as usize)?).coords;
        let q = to_f64(self.p2.vertices().get(*j as usize)?).coords;
        Some(self.frame.rot * q + self.frame.trans - p)
    }
}

/// What the re-evaluated (and perhaps refined) certificate shows at this pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum CachedOutcome {
    /// The origin lies deeper than `wanted` inside the final tetrahedron.
    Deep,
    /// A refinement step's support point proved `s` (unit, polytope 1's frame, from polytope 1
    /// towards polytope 2: the negated outward normal of the face the step pushed) a separating
    /// vector with Lemma 1's margin, `s . (q - p) > wanted`, where `vertices` are the supporting
    /// vertices `[p, q]`: `p` polytope 1's support in `s`, `q` polytope 2's in `-s`.
    Separated { s: VectorD, vertices: [u32; 2] },
    /// Neither: the origin is at most `wanted` deep (or outside, or the tetrahedron is
    /// degenerate, or an index is out of range), and no step separated.
    Lost,
}

/// Re-evaluates the certificate's four CSO points at this pose, then up to [`REFINEMENTS`] times
/// replaces the vertex opposite the face the origin is least deep behind by the CSO support point
/// in that face's outward normal `n` (a GJK step on a full simplex, climbing from the face's most
/// advanced vertex pair; it stops once the origin is deeper than `wanted` or when the support
/// point does not pass the face). Updates `certificate` to the final vertex pairs.
///
/// Each step's support point `m` is also the Lemma 1 test of `S = -n`: the CSO lies at least
/// `-n . m` on `S`'s side of the origin, so `-n . m > wanted` (`wanted = tol + noise`, as for
/// the search's Lemma 1) certifies a separation. Under coherence the origin leaves a lost
/// certificate through one face, whose normal usually separates at once. Returns the outcome and
/// the vertex evaluations.
pub(super) fn cached_tetrahedron_depth(
    p1: &ConvexPolytope,
    p2: &ConvexPolytope,
    frame: &Frame,
    rot_t: &Matrix3<f64>,
    certificate: &mut Certificate,
    wanted: f64,
) -> (CachedOutcome, u32) {
    let mut cso = CsoSupport {
        p1,
        p2,
        frame,
        rot_t,
        visits: 8,
    };
    let mut m = [VectorD::zeros(); 4];
    for (point, pair) in m.iter_mut().zip(certificate.iter()) {
        match cso.point_of(pair) {
            Some(x) => *point = x,
            None => return (CachedOutcome::Lost, 0),
        }
    }
    let mut refinements = 0;
    loop {
        let Some((opposite, normal, origin_depth)) = shallowest_face(&m) else {
            return (CachedOutcome::Lost, cso.visits);
        };
        if origin_depth > wanted {
            return (CachedOutcome::Deep, cso.visits);
        }
        if refinements == REFINEMENTS {
            return (CachedOutcome::Lost, cso.visits);
        }
        refinements += 1;
        let face = [(opposite + 1) % 4, (opposite + 2) % 4, (opposite + 3) % 4];
        let lead = face
            .into_iter()
            .max_by(|&a, &b| normal.dot(&m[a]).total_cmp(&normal.dot(&m[b])))
            .unwrap_or(face[0]);
        let face_offset = normal.dot(&m[lead]);
        let mut pair = certificate[lead];
        let s = cso.point(&normal, &mut pair);
        let reach = normal.dot(&s);
        if -reach > wanted {
            let outcome = CachedOutcome::Separated {
                s: -normal,
                vertices: pair,
            };
            return (outcome, cso.visits);
        }
        if reach <= face_offset + frame.noise {
            return (CachedOutcome::Lost, cso.visits);
        }
        m[opposite] = s;
        certificate[opposite] = pair;
    }
}

/// Decides a pair whose cached certificate no longer holds the origin deeper than the band after
/// its refinements, by GJK started from the certificate's (refined) tetrahedron: its points are
/// CSO points close to the origin, so GJK usually needs few support queries, where the
/// separating-vector search would start over. Keeps GJK's final tetrahedron as the next
/// certificate when the pair still intersects, and its separating direction as the warm start
/// when it is separated. `visits` are the refinements' vertex evaluations.
///
/// # Errors
/// Those of [`gjk_intersect`].
pub(super) fn gjk_from_certificate<P: RelativePose + ?Sized>(
    p1: &ConvexPolytope,
    p2: &ConvexPolytope,
    pos12: &P,
    certificate: &Certificate,
    visits: u32,
    cache: &mut ChungWangCache,
    workspace: &mut ChungWangWorkspace,
) -> Result<ChungWangResult, NarrowError> {
    workspace
        .stats
        .count_fallback(FallbackReason::CertificateLost);
    cache.gjk.seed_simplex(certificate);
    let status = gjk_intersect(p1, p2, pos12, &mut cache.gjk)?;
    match (status, cache.gjk.direction()) {
        (GjkStatus::Intersecting, _) => cache.certificate = cache.gjk.tetrahedron(),
        (GjkStatus::Separated, Some(d)) => {
            cache.warm = Some(WarmStart {
                s: -d,
                vertices: cache.gjk.support_hints(),
                support1_of: NO_KNOWN_SUPPORT,
            });
        }
        _ => {}
    }
    Ok(ChungWangResult {
        status: status.into(),
        iterations: 0,
        visits,
        decided_by: Decision::GjkFallback(FallbackReason::CertificateLost),
    })
}
