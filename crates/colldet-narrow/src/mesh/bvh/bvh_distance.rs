//! Distance between two meshes with closest points, by simultaneous traversal of their
//! [`MeshBvh`]s (the PQP scheme).
//!
//! Rationale. Every node pair gets a lower bound on the distance between its volumes
//! ([`BvhVolume::distance_lower_bound`]); a pair whose bound is not below the best triangle
//! distance found so far cannot contain a closer pair and is pruned. Pending pairs are visited
//! smallest bound first (a heap, [`VisitOrder::BestFirst`]), so no pair is opened whose bound
//! is not below the answer: on zoo mesh pairs this tests 3 to 6 times fewer node and triangle
//! pairs than PQP's depth-first order (closer child pair first), for a heap push per pair. Frame-to-frame coherence: the closest triangle pair of the previous query is
//! kept in a [`MeshDistanceCache`] and evaluated before the traversal starts, so in a slowly
//! moving scene the first upper bound is already (nearly) the answer and most of the tree is
//! pruned at the top. With `relative_error > 0` a pair is also pruned when its bound is within
//! that fraction of the best (the answer is then within that relative error).

use super::bvh_traverse::{Descend, descend};
use super::bvh_volume::BvhPairFrame;
use super::{
    BvhVolume, MeshBvh, MeshQueryWorkspace, SourceFaceId, TriangleDistance, TriangleId,
    triangle_distance,
};
use crate::NarrowError;
use crate::RelativePose;
use colldet_geom::math::PointD;
use std::cmp::Reverse;
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
    let evaluate = |t1: u32, t2: &[PointD; 3], id2: u32, best: &mut Option<MeshDistance>| {
        let tri1 = bvh1.triangle_f64(TriangleId(t1));
        let d = triangle_distance(&tri1, t2);
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
        evaluate(t1.0, &mapped, t2.0, &mut best);
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
        |t1, mapped, t2| {
            evaluate(t1, mapped, t2, &mut best);
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
/// `order` by their lower bounds ([`BvhVolume::distance_lower_bound`] under `frame`), and a pair
/// whose bound times `shrink` is at least the current `limit` (or whose limit is 0) is pruned.
/// Each triangle pair of two leaves goes to `visit` with shape 2's triangle mapped into shape 1's
/// frame; it returns whether to go on and the new limit. Counts the tests in `ws`.
#[allow(clippy::too_many_arguments)]
pub(super) fn closest_first<V: BvhVolume>(
    bvh1: &MeshBvh<V>,
    bvh2: &MeshBvh<V>,
    frame: &BvhPairFrame,
    order: VisitOrder,
    shrink: f64,
    mut limit: f64,
    ws: &mut MeshQueryWorkspace,
    mut visit: impl FnMut(u32, &[PointD; 3], u32) -> (ControlFlow<()>, f64),
) {
    let (n1, n2) = (bvh1.nodes(), bvh2.nodes());
    let best_first = order == VisitOrder::BestFirst;
    ws.distance_stack.clear();
    ws.distance_heap.clear();
    // Bounds are non-negative (`+ 0.0` turns a -0.0 into 0.0), so their bits order as they do.
    let push = |ws: &mut MeshQueryWorkspace, a: u32, b: u32, lb: f64| {
        if best_first {
            ws.distance_heap.push(Reverse(((lb + 0.0).to_bits(), a, b)));
        } else {
            ws.distance_stack.push((a, b, lb));
        }
    };
    ws.volume_tests += 1;
    let root_lb = n1[0].volume.distance_lower_bound(&n2[0].volume, frame);
    push(ws, 0, 0, root_lb);
    loop {
        let next = if best_first {
            ws.distance_heap
                .pop()
                .map(|Reverse((bits, a, b))| (a, b, f64::from_bits(bits)))
        } else {
            ws.distance_stack.pop()
        };
        let Some((a, b, lb)) = next else { break };
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
                let mut mapped = [[PointD::origin(); 3]; 4];
                for (slot, t2) in mapped.iter_mut().zip(rb.clone()) {
                    *slot = bvh2
                        .triangle_f64(TriangleId(t2))
                        .map(|p| frame.map_point(&p));
                }
                for t1 in ra {
                    for (k, t2) in rb.clone().enumerate() {
                        ws.triangle_tests += 1;
                        let (flow, new_limit) = visit(t1, &mapped[k], t2);
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
        let bounds = pairs.map(|(x, y)| {
            n1[x as usize]
                .volume
                .distance_lower_bound(&n2[y as usize].volume, frame)
        });
        ws.volume_tests += 2;
        // Depth first: push the farther pair first so the closer one is popped next.
        let order = if bounds[0] <= bounds[1] {
            [1, 0]
        } else {
            [0, 1]
        };
        for k in order {
            if bounds[k] * shrink < limit {
                push(ws, pairs[k].0, pairs[k].1, bounds[k]);
            }
        }
    }
}
