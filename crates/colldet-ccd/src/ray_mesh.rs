//! The first triangle of a mesh tree that a ray segment touches ([`ray_mesh`]): the tree's
//! volumes cull conservatively, the triangles are decided exactly ([`ray_triangle`]).
//!
//! Rationale. The tree ([`MeshBvh`]) and the ray live in the mesh's local frame. A node is skipped
//! only when its volume, grown by `1e-9` of the coordinates' scale plus the vertices' `f32`
//! rounding (the volumes are fitted to the `f32` copy of vertices given in `f64`), provably
//! misses the ray: far above the rounding of the slab test, so no triangle the exact test would
//! hit is skipped. Each triangle's test takes the best parameter found so far as its `max_t`, so
//! later triangles only count when they are hit no later; ties go to the smaller source face.

use colldet_geom::math::VectorD;
use colldet_narrow::mesh::bvh::{BvhVolume, MeshBvh, TriangleId};

use crate::ray_triangle::{RaySegment3, ray_triangle};

/// Relative margin of the conservative ray-volume tests (times the root volume's coordinate
/// bound plus `|origin|_1`, local units).
pub const RAY_VOLUME_MARGIN: f64 = 1e-9;

/// Where a ray first touches a mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshRayHit {
    /// The parameter of the first contact, in `[0, max_t]` (units of the ray's `dir`).
    pub t: f64,
    /// The triangle touched there (the smallest source face among ties).
    pub triangle: TriangleId,
}

/// The margin of [`ray_mesh`]'s conservative volume tests for a ray from `origin` (the tree's
/// local frame): [`RAY_VOLUME_MARGIN`] times the root volume's coordinate bound plus
/// `|origin|_1`, plus the tree's vertex rounding. A cull of the same ray by any box of the
/// tree's vertices grown by this margin is as conservative as the walk's own.
pub fn ray_volume_margin<V: BvhVolume>(bvh: &MeshBvh<V>, origin: &VectorD) -> f64 {
    RAY_VOLUME_MARGIN * (bvh.root_volume().coordinate_bound() + origin.abs().sum())
        + bvh.vertex_rounding()
}

/// The first contact of `ray` (the tree's local frame) with the closed triangles of `bvh`, or
/// `None` when it touches none within `[0, ray.max_t]`. Whether there is one is exact for the
/// triangles as given ([`MeshBvh::triangle_f64`]) and the ray's doubles. `stack` is scratch
/// memory (no allocation once grown).
pub fn ray_mesh<V: BvhVolume>(
    bvh: &MeshBvh<V>,
    ray: &RaySegment3,
    stack: &mut Vec<u32>,
) -> Option<MeshRayHit> {
    let margin = ray_volume_margin(bvh, &ray.origin);
    let nodes = bvh.nodes();
    let mut best: Option<MeshRayHit> = None;
    let mut bounded = *ray;
    stack.clear();
    stack.push(0);
    while let Some(n) = stack.pop() {
        let node = &nodes[n as usize];
        if !node.volume.ray_may_hit(&ray.origin, &ray.dir, margin) {
            continue;
        }
        let Some(range) = node.triangles() else {
            if let Some([c0, c1]) = node.children() {
                stack.push(c1);
                stack.push(c0);
            }
            continue;
        };
        for t in range {
            let id = TriangleId(t);
            let Some(hit_t) = ray_triangle(&bounded, &bvh.triangle_f64(id)) else {
                continue;
            };
            let better = best.is_none_or(|b| {
                hit_t < b.t
                    || (hit_t == b.t && bvh.source_face(id).0 < bvh.source_face(b.triangle).0)
            });
            if better {
                best = Some(MeshRayHit {
                    t: hit_t,
                    triangle: id,
                });
                bounded.max_t = hit_t;
            }
        }
    }
    best
}
