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

use super::bvh_traverse::{Descend, descend};
use super::bvh_volume::BvhPairFrame;
use super::{BvhVolume, MeshBvh, MeshDistance, MeshQueryWorkspace, TriangleId, triangle_distance};
use crate::NarrowError;
use crate::RelativePose;
use colldet_geom::math::PointD;

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
    ws.distance_stack.clear();
    ws.volume_tests = 0;
    ws.triangle_tests = 0;
    let (n1, n2) = (bvh1.nodes(), bvh2.nodes());
    ws.volume_tests += 1;
    let root_lb = n1[0].volume.distance_lower_bound(&n2[0].volume, &frame);
    if root_lb <= tolerance {
        ws.distance_stack.push((0, 0, root_lb));
    }
    while let Some((a, b, _)) = ws.distance_stack.pop() {
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
                    let tri1 = bvh1.triangle_f64(TriangleId(t1));
                    for (k, t2) in rb.clone().enumerate() {
                        ws.triangle_tests += 1;
                        let d = triangle_distance(&tri1, &mapped[k]);
                        if d.distance <= tolerance {
                            let (i1, i2) = (TriangleId(t1), TriangleId(t2));
                            return Ok(Some(MeshDistance {
                                distance: d.distance,
                                point1: d.point1,
                                point2: d.point2,
                                triangle1: i1,
                                triangle2: i2,
                                face1: bvh1.source_face(i1),
                                face2: bvh2.source_face(i2),
                            }));
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
                .distance_lower_bound(&n2[y as usize].volume, &frame)
        });
        ws.volume_tests += 2;
        // Push the farther pair first so the closer one is popped next.
        let order = if bounds[0] <= bounds[1] {
            [1, 0]
        } else {
            [0, 1]
        };
        for k in order {
            if bounds[k] <= tolerance {
                ws.distance_stack.push((pairs[k].0, pairs[k].1, bounds[k]));
            }
        }
    }
    Ok(None)
}
