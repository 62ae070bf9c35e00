//! Tolerance verification between two meshes: is some pair of their triangles within
//! `tolerance`? By simultaneous traversal of their [`MeshBvh`]s that stops at the first such
//! pair.
//!
//! Rationale. A node pair whose volumes' distance lower bound
//! ([`BvhVolume::distance_lower_bound`]) exceeds the tolerance holds no pair within it and is
//! pruned; the first triangle pair within the tolerance decides. The triangle distances are those
//! of [`super::mesh_distance`] (same mapping of shape 2's triangles, same triangle routine), so the
//! answer equals `mesh_distance(..).distance <= tolerance` exactly. Of two child pairs the one
//! with the smaller bound is visited first, so a pair within the tolerance is met early; a far
//! pair is usually refused at the roots.

use std::ops::ControlFlow;

use super::bvh_distance::{VisitOrder, closest_first};
use super::bvh_volume::BvhPairFrame;
use super::{BvhVolume, MeshBvh, MeshDistance, MeshQueryWorkspace, triangle_distance};
use crate::NarrowError;
use crate::RelativePose;

/// How the tolerance traversal visits node pairs.
const TOLERANCE_ORDER: VisitOrder = VisitOrder::DepthFirst;

/// The first triangle pair found whose distance is at most `tolerance` (shape 1's units), with
/// its closest points in shape 1's frame; `None` when the surfaces are farther apart than
/// `tolerance`. `pos12` is shape 2's pose in shape 1's frame. Surface semantics, as
/// [`super::mesh_distance`]: a mesh nested inside a closed one is as far as the gap between the
/// surfaces. `workspace` holds the traversal stack (no allocation once it has grown).
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite `pos12`, [`NarrowError::InvalidParameter`]
/// for a negative or NaN `tolerance`.
pub fn mesh_within_distance<V: BvhVolume>(
    bvh1: &MeshBvh<V>,
    bvh2: &MeshBvh<V>,
    pos12: &impl RelativePose,
    tolerance: f64,
    workspace: &mut MeshQueryWorkspace,
) -> Result<Option<MeshDistance>, NarrowError> {
    if tolerance.is_nan() || tolerance < 0.0 {
        return Err(NarrowError::InvalidParameter {
            parameter: "tolerance",
            requirement: "must be non-negative (not NaN)",
        });
    }
    let frame = BvhPairFrame::new(pos12, bvh1, bvh2)?;
    let ws = workspace;
    ws.volume_tests = 0;
    ws.triangle_tests = 0;
    // Pairs with a lower bound above the tolerance are pruned: the limit is the next double up.
    let limit = tolerance.next_up();
    let mut found = None;
    closest_first(
        bvh1,
        bvh2,
        &frame,
        TOLERANCE_ORDER,
        1.0,
        limit,
        ws,
        |t1, tri1, t2, tri2| {
            let d = triangle_distance(tri1, tri2);
            if d.distance > tolerance {
                return (ControlFlow::Continue(()), limit);
            }
            found = Some(MeshDistance::of_pair(bvh1, bvh2, t1, t2, &d));
            (ControlFlow::Break(()), limit)
        },
    );
    Ok(found)
}
