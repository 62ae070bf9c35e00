//! The containment phase: whether a closed mesh contains a point, by exact ray parity.
//!
//! Only called after the surface phase found no contact, so the point (a vertex of the other
//! mesh) is not on the container's surface. The ray leaves the point almost along `+x` in a
//! direction `(2^30, e1, e2)` with small nonzero integers `e1`, `e2`; a direction whose ray
//! meets some edge or vertex of the container exactly is rejected and another drawn, so every
//! crossing counted is a transversal crossing of a triangle's interior.

use std::collections::HashMap;

use num_bigint::BigInt;

use super::exact_points::{WorldVertices, approx_of};
use super::predicates::{IntPoint, segments_meet};
use super::surface::{Box3, exact_triangle};
use crate::SplitMix64;

/// Whether every edge of `triangles` is used by an even number (at least two) of them, the
/// library's definition of a closed mesh (for the meshes of the tests: exactly two). An empty
/// mesh is not closed.
pub fn is_closed(triangles: &[[u32; 3]]) -> bool {
    let mut uses: HashMap<(u32, u32), u32> = HashMap::new();
    for t in triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *uses.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    !uses.is_empty() && uses.values().all(|&n| n % 2 == 0)
}

/// One vertex per connected component of `triangles` (components joined by shared vertex
/// indices), the smallest index of each, in increasing order.
pub fn component_seeds(triangles: &[[u32; 3]], vertex_count: usize) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..vertex_count).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut used = vec![false; vertex_count];
    for t in triangles {
        for &i in t {
            used[i as usize] = true;
        }
        let r0 = root(&mut parent, t[0] as usize);
        for &i in &t[1..] {
            let r = root(&mut parent, i as usize);
            let (lo, hi) = (r0.min(r), r0.max(r));
            parent[hi] = lo;
            if r0 != lo {
                parent[r0] = lo;
            }
        }
    }
    let mut seeds = Vec::new();
    let mut seen = vec![false; vertex_count];
    for (i, &is_used) in used.iter().enumerate() {
        if is_used {
            let r = root(&mut parent, i);
            if !seen[r] {
                seen[r] = true;
                seeds.push(i);
            }
        }
    }
    seeds
}

/// Most ray directions tried before giving up.
const MAX_DIRECTIONS: usize = 64;

/// Whether the closed mesh `triangles` over `v` (with their `f64` boxes widened by `margin`)
/// contains the point `p` (exact, at the common `scale`; `p_approx` in `f64`), which is not on
/// its surface.
///
/// # Panics
/// When [`MAX_DIRECTIONS`] directions all meet an edge (never seen).
pub fn contains(
    v: &WorldVertices,
    triangles: &[[u32; 3]],
    boxes: &[Box3],
    p: &IntPoint,
    p_approx: &[f64; 3],
    scale: i64,
    margin: f64,
) -> bool {
    let used = triangles.iter().flatten().map(|&i| &v.exact[i as usize]);
    let mut lo = p.clone();
    let mut hi = p.clone();
    let mut any = false;
    for q in used {
        any = true;
        for k in 0..3 {
            if q[k] < lo[k] {
                lo[k] = q[k].clone();
            }
            if q[k] > hi[k] {
                hi[k] = q[k].clone();
            }
        }
    }
    if !any || (0..3).any(|k| p[k] < lo[k] || p[k] > hi[k]) {
        return false;
    }
    // The point lies within the container's box; `lo` and `hi` are the box's corners.
    let mut rng = SplitMix64::new(0x005e_ed0f_7a11);
    let big_d = BigInt::from(1u64 << 30);
    for _ in 0..MAX_DIRECTIONS {
        let mut small = || {
            let r = (rng.next_u64() % (1 << 20)) as i64 + 1;
            if rng.next_u64() & 1 == 0 { r } else { -r }
        };
        let d = [big_d.clone(), BigInt::from(small()), BigInt::from(small())];
        // q = p + l d with q_x beyond the box: l = floor((hi_x - p_x) / 2^30) + 1.
        let l = (&hi[0] - &p[0]) / &big_d + 1;
        let q: IntPoint = std::array::from_fn(|k| &p[k] + &l * &d[k]);
        let q_approx = q.clone().map(|c| approx_of(&c, scale));
        let ray_box = Box3::around([p_approx, &q_approx], margin);
        if let Some(crossings) = crossings(v, triangles, boxes, &ray_box, p, &q) {
            return crossings % 2 == 1;
        }
    }
    panic!("every ray direction tried meets an edge of the container");
}

/// The number of triangles the segment `pq` crosses, or `None` when it meets an edge or vertex.
fn crossings(
    v: &WorldVertices,
    triangles: &[[u32; 3]],
    boxes: &[Box3],
    ray_box: &Box3,
    p: &IntPoint,
    q: &IntPoint,
) -> Option<usize> {
    let mut count = 0;
    for (t, b) in triangles.iter().zip(boxes) {
        if !b.overlaps(ray_box) {
            continue;
        }
        let tri = exact_triangle(v, t);
        if tri.edges().iter().any(|(a, b)| segments_meet(p, q, a, b)) {
            return None;
        }
        if tri.crossed_strictly_by(p, q) {
            count += 1;
        }
    }
    Some(count)
}
