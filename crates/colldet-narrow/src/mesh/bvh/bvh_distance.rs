//! Distance between two meshes with closest points, by simultaneous traversal of their
//! [`MeshBvh`]s (the PQP scheme).
//!
//! Rationale. Every node pair gets a lower bound on the distance between its volumes
//! ([`BvhVolume::distance_lower_bound_below`], which may stop refining once the bound reaches
//! the best triangle distance found so far); a pair whose bound is not below that best cannot
//! contain a closer pair and is pruned. Pending pairs are visited smallest bound first (a heap,
//! [`VisitOrder::BestFirst`]), so no pair is opened whose bound is not below the answer: on zoo
//! mesh pairs this tests 3 to 6 times fewer node and triangle pairs than PQP's depth-first order
//! (closer child pair first); the closer child skips the heap when nothing pending is closer,
//! and the traversal dives to a first leaf pair before it. A leaf pair's triangle pairs are
//! culled by a projection gap before the triangle test ([`LeafPair`]). Frame-to-frame
//! coherence: the closest triangle pair of the previous query is
//! kept in a [`MeshDistanceCache`] and evaluated before the traversal starts, so in a slowly
//! moving scene the first upper bound is already (nearly) the answer and most of the tree is
//! pruned at the top. With `relative_error > 0` a pair is also pruned when its bound is within
//! that fraction of the best (the answer is then within that relative error).

use super::bvh_traverse::{Descend, descend};
use super::bvh_volume::BvhPairFrame;
use super::leaf_pair::LeafPair;
use super::pair_queue::key;
use super::{
    BvhVolume, MeshBvh, MeshQueryWorkspace, SourceFaceId, TriangleDistance, TriangleId,
    triangle_distance,
};
use crate::NarrowError;
use crate::RelativePose;
use colldet_geom::math::PointD;
use std::ops::ControlFlow;

/// Options of [`mesh_distance`].
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct MeshDistanceOptions {
    /// Allowed relative error of the returned distance (default 0: the exact minimum up to
    /// rounding). The result `d` then satisfies `d_true <= d <= d_true * (1 + relative_error)`.
    pub relative_error: f64,
}

/// The closest triangle pair of the previous [`mesh_distance`] query of one mesh pair, used to
/// start the next one. Owned by the caller, one per pair; a fresh cache works too (cold start).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeshDistanceCache {
    pair: Option<(TriangleId, TriangleId)>,
}

impl MeshDistanceCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the previous answer.
    pub fn reset(&mut self) {
        self.pair = None;
    }

    /// The closest triangle pair of the previous query, if any.
    pub fn last_pair(&self) -> Option<(TriangleId, TriangleId)> {
        self.pair
    }
}

/// The distance between two meshes and where it is attained.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshDistance {
    /// The distance between the surfaces, shape 1's units (0 up to rounding when they
    /// intersect).
    pub distance: f64,
    /// The closest point on shape 1's surface, shape 1's frame.
    pub point1: PointD,
    /// The closest point on shape 2's surface, expressed in shape 1's frame.
    pub point2: PointD,
    /// Shape 1's triangle holding `point1`.
    pub triangle1: TriangleId,
    /// Shape 2's triangle holding `point2`.
    pub triangle2: TriangleId,
    /// The source face of `triangle1`.
    pub face1: SourceFaceId,
    /// The source face of `triangle2`.
    pub face2: SourceFaceId,
}

impl MeshDistance {
    /// The result for triangle `t1` of `bvh1` and `t2` of `bvh2` at distance `d`.
    pub(super) fn of_pair<V: BvhVolume>(
        bvh1: &MeshBvh<V>,
        bvh2: &MeshBvh<V>,
        t1: u32,
        t2: u32,
        d: &TriangleDistance,
    ) -> Self {
        let (i1, i2) = (TriangleId(t1), TriangleId(t2));
        Self {
            distance: d.distance,
            point1: d.point1,
            point2: d.point2,
            triangle1: i1,
            triangle2: i2,
            face1: bvh1.source_face(i1),
            face2: bvh2.source_face(i2),
        }
    }
}

/// Distance between the surfaces of two meshes and a pair of closest points. `pos12` is shape
/// 2's pose in shape 1's frame; results are in shape 1's frame. Surface semantics: for nested
/// closed meshes this is the gap between the surfaces. The triangle-pair distance is accurate to
/// rounding (`~1e-15` relative to the coordinates); `cache` warm-starts the query and is updated;
/// `workspace` holds the traversal stack (no allocation once it has grown).
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite `pos12`, [`NarrowError::InvalidParameter`]
/// for a negative or non-finite `relative_error`.
pub fn mesh_distance<V: BvhVolume>(
    bvh1: &MeshBvh<V>,
    bvh2: &MeshBvh<V>,
    pos12: &impl RelativePose,
    options: &MeshDistanceOptions,
    cache: &mut MeshDistanceCache,
    workspace: &mut MeshQueryWorkspace,
) -> Result<MeshDistance, NarrowError> {
    if !(options.relative_error >= 0.0 && options.relative_error.is_finite()) {
        return Err(NarrowError::InvalidParameter {
            parameter: "relative_error",
            requirement: "must be finite and non-negative",
        });
    }
    let frame = BvhPairFrame::new(pos12, bvh1, bvh2)?;
    let shrink = 1.0 + options.relative_error;
    let ws = workspace;
    ws.volume_tests = 0;
    ws.triangle_tests = 0;

    let mut best: Option<MeshDistance> = None;
    let evaluate = |t1: u32,
                    tri1: &[PointD; 3],
                    id2: u32,
                    t2: &[PointD; 3],
                    best: &mut Option<MeshDistance>| {
        let d = triangle_distance(tri1, t2);
        if best.is_none_or(|b| d.distance < b.distance) {
            *best = Some(MeshDistance::of_pair(bvh1, bvh2, t1, id2, &d));
        }
    };
    if let Some((t1, t2)) = cache.pair
        && (t1.0 as usize) < bvh1.triangle_count()
        && (t2.0 as usize) < bvh2.triangle_count()
    {
        let mapped = bvh2.triangle_f64(t2).map(|p| frame.map_point(&p));
        ws.triangle_tests += 1;
        evaluate(t1.0, &bvh1.triangle_f64(t1), t2.0, &mapped, &mut best);
    }
    let limit = best.map_or(f64::INFINITY, |b| b.distance);
    closest_first(
        bvh1,
        bvh2,
        &frame,
        VisitOrder::BestFirst,
        shrink,
        limit,
        ws,
        |t1, tri1, t2, tri2| {
            evaluate(t1, tri1, t2, tri2, &mut best);
            (
                ControlFlow::Continue(()),
                best.map_or(f64::INFINITY, |b| b.distance),
            )
        },
    );
    let result = best.ok_or(NarrowError::BrokenInvariant {
        what: "mesh distance traversal reached no triangle pair",
        index: 0,
    })?;
    cache.pair = Some((result.triangle1, result.triangle2));
    Ok(result)
}

/// The order in which [`closest_first`] visits node pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum VisitOrder {
    /// Smallest lower bound first over all pending pairs (a heap): no pair is visited whose bound
    /// is not below the answer's, so the distance query tests the fewest node and triangle pairs;
    /// the traversal ends at the first pair whose bound reaches the limit.
    BestFirst,
    /// Depth first, the closer child pair first (a stack): no heap upkeep, and it reaches leaves
    /// at once, which suits queries that stop at the first triangle pair found.
    DepthFirst,
}

/// The simultaneous traversal both mesh distance queries share: node pairs are visited in
/// `order` by their lower bounds ([`BvhVolume::distance_lower_bound_below`] under `frame`), and
/// a pair whose bound times `shrink` is at least the current `limit` (or whose limit is 0) is
/// pruned. Of two child pairs the closer one is visited next without a trip through the heap
/// when no pending pair has a smaller bound, and always until the first leaf pair (so the limit
/// drops to a triangle distance early). Each triangle pair of two leaves that is not culled
/// by its projection gap ([`LeafPair`]) goes to `visit` with both triangles in shape 1's
/// frame (shape 2's mapped); `visit` returns whether to go on and the new limit. Counts the
/// tests in `ws`.
#[allow(clippy::too_many_arguments)]
pub(super) fn closest_first<V: BvhVolume>(
    bvh1: &MeshBvh<V>,
    bvh2: &MeshBvh<V>,
    frame: &BvhPairFrame,
    order: VisitOrder,
    shrink: f64,
    mut limit: f64,
    ws: &mut MeshQueryWorkspace,
    mut visit: impl FnMut(u32, &[PointD; 3], u32, &[PointD; 3]) -> (ControlFlow<()>, f64),
) {
    let (n1, n2) = (bvh1.nodes(), bvh2.nodes());
    let best_first = order == VisitOrder::BestFirst;
    ws.distance_stack.clear();
    ws.distance_queue.clear();
    // The bound a pair needs to be pruned; the volumes may stop refining there.
    let bound = |x: u32, y: u32, limit: f64| {
        n1[x as usize].volume.distance_lower_bound_below(
            &n2[y as usize].volume,
            frame,
            limit / shrink,
        )
    };
    ws.volume_tests += 1;
    let mut next = Some((0, 0, bound(0, 0, limit)));
    // Until the first leaf pair, the closer child is always visited next (a dive to a first
    // triangle distance, which sets the limit that prunes and cuts bounds short).
    let mut diving = true;
    let mut leaves = LeafPair::new();
    while let Some((a, b, lb)) = next.take().or_else(|| {
        if best_first {
            ws.distance_queue.pop()
        } else {
            ws.distance_stack.pop()
        }
    }) {
        if lb * shrink >= limit || limit == 0.0 {
            // Every pair still in the heap has a bound at least as large.
            if best_first {
                break;
            }
            continue;
        }
        let (na, nb) = (&n1[a as usize], &n2[b as usize]);
        let pairs = match descend(na, nb) {
            Descend::Leaves => {
                let (Some(ra), Some(rb)) = (na.triangles(), nb.triangles()) else {
                    continue;
                };
                diving = false;
                leaves.load(bvh1, bvh2, frame, ra.clone(), rb.clone());
                for (i, t1) in ra.enumerate() {
                    for (k, t2) in rb.clone().enumerate() {
                        if leaves.gap(i, k) * shrink >= limit {
                            continue;
                        }
                        ws.triangle_tests += 1;
                        let (flow, new_limit) = visit(t1, &leaves.tri1[i], t2, &leaves.tri2[k]);
                        limit = new_limit;
                        if flow.is_break() {
                            return;
                        }
                    }
                }
                continue;
            }
            Descend::First([c0, c1]) => [(c0, b), (c1, b)],
            Descend::Second([c0, c1]) => [(a, c0), (a, c1)],
        };
        let bounds = pairs.map(|(x, y)| bound(x, y, limit));
        ws.volume_tests += 2;
        let (near, far) = if bounds[0] <= bounds[1] {
            (0, 1)
        } else {
            (1, 0)
        };
        let entry = |k: usize| (pairs[k].0, pairs[k].1, bounds[k]);
        if bounds[far] * shrink < limit {
            push(ws, best_first, entry(far));
        }
        if bounds[near] * shrink < limit {
            let closest_pending = ws.distance_queue.smallest_key();
            if best_first && !diving && closest_pending.is_some_and(|k| k < key(bounds[near])) {
                push(ws, best_first, entry(near));
            } else {
                next = Some(entry(near));
            }
        }
    }
}

/// Queues a node pair `(a, b, bound)`: on the heap (best first) or the stack (depth first).
#[inline]
fn push(ws: &mut MeshQueryWorkspace, best_first: bool, (a, b, lb): (u32, u32, f64)) {
    if best_first {
        ws.distance_queue.push(a, b, lb);
    } else {
        ws.distance_stack.push((a, b, lb));
    }
}
