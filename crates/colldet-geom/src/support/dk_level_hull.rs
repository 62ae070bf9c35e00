//! A private incremental convex hull used only to build the levels of the DK hierarchy.
//!
//! The crate's general hull module was being written concurrently when the hierarchy was
//! written, so each coarser DK level (the hull of the vertices that survive a removal round) is
//! computed here. This is a quickhull-style incremental hull with single-face conflict lists:
//!
//! # Rationale (subtle invariants)
//! - Every orientation decision uses the exact [`side_of_plane`]; a point is *outside* a face
//!   only when strictly above its plane. Points on the boundary of the current hull are treated
//!   as inside and never become vertices (they are not needed for support mapping: the hull's
//!   vertices realise every maximum).
//! - Each unprocessed outside point is stored with one face it is strictly above. When the faces
//!   visible from the new apex are deleted, their points are re-tested against the new faces
//!   only. This is complete: a point `q` above a deleted face `F` that is still outside the new
//!   hull sees a new face (a generic segment from `q` to the relative interior of `F` leaves the
//!   new hull through a face that cannot be an old surviving one, since `q` is strictly above
//!   `F`'s plane and the segment would otherwise lie in the old hull).
//! - With exact strict visibility the visible faces form a disc whose boundary (the horizon) is
//!   one simple cycle, so every horizon vertex starts exactly one horizon edge and ends exactly
//!   one; the new faces are linked through that. A new face `(u, w, apex)` keeps the direction
//!   `u -> w` of the deleted visible face, so all faces stay counter-clockwise seen from outside.
//! - The apex is never collinear with a horizon edge: it is strictly above the plane of the
//!   visible face containing that edge.
//!
//! The furthest outside point of a face (by an approximate `f64` distance, used only for the
//! choice, never for a decision) is processed first, which keeps the hull balanced.

use crate::math::{Point, VectorD, to_f64};
use crate::predicates::{collinear, side_of_plane};

/// Marks "no face" in adjacency slots and scratch arrays.
const NONE: u32 = u32::MAX;

/// The hull of a point subset: its vertices and triangles, as indices into the input slice.
pub(crate) struct LevelHull {
    /// Indices (into the input points) of the hull vertices, ascending.
    pub vertices: Vec<u32>,
    /// Triangles, counter-clockwise seen from outside, as indices into the input points.
    pub triangles: Vec<[u32; 3]>,
}

struct Face {
    v: [u32; 3],
    /// `adj[k]` is the face across edge `v[k] -> v[(k + 1) % 3]`.
    adj: [u32; 3],
    alive: bool,
    outside: Vec<u32>,
}

impl Face {
    fn is_above(&self, points: &[Point], q: u32) -> bool {
        let [a, b, c] = self.v;
        side_of_plane(
            &points[a as usize],
            &points[b as usize],
            &points[c as usize],
            &points[q as usize],
        ) > 0
    }

    /// Unnormalised height of `q` above the plane, approximate: for choosing, never deciding.
    fn approximate_height(&self, points: &[Point], q: u32) -> f64 {
        let [a, b, c] = self.v.map(|i| to_f64(&points[i as usize]));
        let n: VectorD = (b - a).cross(&(c - a));
        n.dot(&(to_f64(&points[q as usize]) - a))
    }

    fn edge_slot(&self, from: u32, to: u32) -> Option<usize> {
        (0..3).find(|&k| self.v[k] == from && self.v[(k + 1) % 3] == to)
    }
}

/// The convex hull of `points[i]` for `i` in `subset`. Returns `None` when those points are
/// coplanar, collinear or coincident (the hull has no volume) or `subset` has fewer than 4
/// entries; also, defensively, if the surface were ever found inconsistent (it cannot be with
/// exact predicates). Indices in `subset` must be `< points.len()` and distinct.
pub(crate) fn convex_hull_of_subset(points: &[Point], subset: &[u32]) -> Option<LevelHull> {
    let (a, b, c, d) = initial_simplex(points, subset)?;
    let mut faces: Vec<Face> = Vec::with_capacity(subset.len() * 4);
    let (b, c) = if side_of_plane(
        &points[a as usize],
        &points[b as usize],
        &points[c as usize],
        &points[d as usize],
    ) > 0
    {
        (c, b)
    } else {
        (b, c)
    };
    for v in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
        faces.push(Face {
            v,
            adj: [NONE; 3],
            alive: true,
            outside: Vec::new(),
        });
    }
    for f in 0..4 {
        for k in 0..3 {
            let (from, to) = (faces[f].v[k], faces[f].v[(k + 1) % 3]);
            let twin = (0..4).find(|&g| g != f && faces[g].edge_slot(to, from).is_some());
            faces[f].adj[k] = twin.map_or(NONE, |g| g as u32);
        }
    }
    for &q in subset {
        if q == a || q == b || q == c || q == d {
            continue;
        }
        if let Some(f) = (0..4).find(|&f| faces[f].is_above(points, q)) {
            faces[f].outside.push(q);
        }
    }

    let mut pending: Vec<u32> = (0..4).collect();
    let mut stamp: Vec<u32> = Vec::new();
    let mut visible_flag: Vec<bool> = Vec::new();
    let mut round = 0u32;
    let mut stack: Vec<u32> = Vec::new();
    let mut visible: Vec<u32> = Vec::new();
    let mut horizon: Vec<(u32, u32, u32)> = Vec::new();
    let mut starts_at = vec![NONE; points.len()];
    let mut ends_at = vec![NONE; points.len()];
    let mut orphans: Vec<u32> = Vec::new();

    while let Some(f) = pending.pop() {
        let f = f as usize;
        if !faces[f].alive || faces[f].outside.is_empty() {
            continue;
        }
        let Some(&apex) = faces[f].outside.iter().max_by(|&&p, &&q| {
            let (hp, hq) = (
                faces[f].approximate_height(points, p),
                faces[f].approximate_height(points, q),
            );
            hp.total_cmp(&hq)
        }) else {
            continue;
        };

        // Visible faces by a search from f; horizon edges where a visible face meets a hidden one.
        round += 1;
        stamp.resize(faces.len(), 0);
        visible_flag.resize(faces.len(), false);
        stamp[f] = round;
        visible_flag[f] = true;
        stack.clear();
        visible.clear();
        horizon.clear();
        stack.push(f as u32);
        while let Some(g) = stack.pop() {
            visible.push(g);
            for k in 0..3 {
                let h = faces[g as usize].adj[k] as usize;
                if stamp[h] != round {
                    stamp[h] = round;
                    visible_flag[h] = faces[h].is_above(points, apex);
                    if visible_flag[h] {
                        stack.push(h as u32);
                    }
                }
                if !visible_flag[h] {
                    let fv = faces[g as usize].v;
                    horizon.push((fv[k], fv[(k + 1) % 3], h as u32));
                }
            }
        }

        // New faces (u, w, apex) over the horizon edges, linked to the hidden side and each other.
        let first_new = faces.len();
        for &(u, w, hidden) in &horizon {
            let id = faces.len() as u32;
            // The hidden neighbour shares the horizon edge reversed (closed, oriented surface).
            let slot = faces[hidden as usize].edge_slot(w, u)?;
            faces[hidden as usize].adj[slot] = id;
            starts_at[u as usize] = id;
            ends_at[w as usize] = id;
            faces.push(Face {
                v: [u, w, apex],
                adj: [hidden, NONE, NONE],
                alive: true,
                outside: Vec::new(),
            });
        }
        for face in &mut faces[first_new..] {
            let [u, w, _] = face.v;
            face.adj[1] = starts_at[w as usize];
            face.adj[2] = ends_at[u as usize];
        }

        // Delete the visible faces and hand their outside points to the new faces.
        orphans.clear();
        for &g in &visible {
            let face = &mut faces[g as usize];
            face.alive = false;
            orphans.extend(face.outside.drain(..).filter(|&q| q != apex));
        }
        for &q in &orphans {
            if let Some(id) = (first_new..faces.len()).find(|&id| faces[id].is_above(points, q)) {
                faces[id].outside.push(q);
            }
        }
        pending.extend((first_new..faces.len()).map(|id| id as u32));
    }

    let triangles: Vec<[u32; 3]> = faces.iter().filter(|f| f.alive).map(|f| f.v).collect();
    let mut vertices: Vec<u32> = triangles.iter().flatten().copied().collect();
    vertices.sort_unstable();
    vertices.dedup();
    Some(LevelHull {
        vertices,
        triangles,
    })
}

/// Four points of `subset` spanning a large tetrahedron, or `None` if all are coplanar. The
/// choice of large candidates is approximate; their non-degeneracy is decided exactly, with a
/// scan for any exactly valid point as fallback.
fn initial_simplex(points: &[Point], subset: &[u32]) -> Option<(u32, u32, u32, u32)> {
    let p = |i: u32| &points[i as usize];
    let pd = |i: u32| to_f64(&points[i as usize]);
    let a = *subset.iter().min_by(|&&i, &&j| p(i).x.total_cmp(&p(j).x))?;
    let b = *subset.iter().max_by(|&&i, &&j| {
        (pd(i) - pd(a))
            .norm_squared()
            .total_cmp(&(pd(j) - pd(a)).norm_squared())
    })?;
    if p(a) == p(b) {
        return None;
    }
    let ab = pd(b) - pd(a);
    let line_distance = |i: u32| (pd(i) - pd(a)).cross(&ab).norm_squared();
    let mut c = *subset
        .iter()
        .max_by(|&&i, &&j| line_distance(i).total_cmp(&line_distance(j)))?;
    if collinear(p(a), p(b), p(c)) {
        c = *subset.iter().find(|&&i| !collinear(p(a), p(b), p(i)))?;
    }
    let normal = ab.cross(&(pd(c) - pd(a)));
    let plane_distance = |i: u32| normal.dot(&(pd(i) - pd(a))).abs();
    let mut d = *subset
        .iter()
        .max_by(|&&i, &&j| plane_distance(i).total_cmp(&plane_distance(j)))?;
    if side_of_plane(p(a), p(b), p(c), p(d)) == 0 {
        d = *subset
            .iter()
            .find(|&&i| side_of_plane(p(a), p(b), p(c), p(i)) != 0)?;
    }
    Some((a, b, c, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct SplitMix(u64);
    impl SplitMix {
        fn next_f32(&mut self) -> f32 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (((z ^ (z >> 31)) >> 40) as f32 / (1u32 << 24) as f32) * 2.0 - 1.0
        }
    }

    /// Checks a hull exactly: closed 2-manifold with consistent orientation (every directed edge
    /// has its reverse), Euler characteristic 2, no degenerate face, and every input point on or
    /// below every face (so the hull of the vertices contains all points: it is their hull).
    fn assert_valid_hull(points: &[Point], subset: &[u32], hull: &LevelHull) {
        let mut edges: Vec<(u32, u32)> = hull
            .triangles
            .iter()
            .flat_map(|t| (0..3).map(move |k| (t[k], t[(k + 1) % 3])))
            .collect();
        edges.sort_unstable();
        let before = edges.len();
        edges.dedup();
        assert_eq!(before, edges.len(), "a directed edge appears twice");
        for &(u, w) in &edges {
            assert!(
                edges.binary_search(&(w, u)).is_ok(),
                "edge {u}->{w} has no twin"
            );
        }
        let (v, e, f) = (
            hull.vertices.len() as i64,
            edges.len() as i64 / 2,
            hull.triangles.len() as i64,
        );
        assert_eq!(v - e + f, 2);
        for t in &hull.triangles {
            let [a, b, c] = t.map(|i| &points[i as usize]);
            assert!(!collinear(a, b, c), "degenerate face {t:?}");
            for &q in subset {
                assert!(side_of_plane(a, b, c, &points[q as usize]) <= 0);
            }
        }
    }

    #[test]
    fn random_clouds_and_sphere_points_give_valid_hulls() {
        let mut rng = SplitMix(7);
        for (n, on_sphere) in [
            (4, false),
            (10, false),
            (200, false),
            (300, true),
            (2000, true),
        ] {
            let points: Vec<Point> = (0..n)
                .map(|_| {
                    let p = Point::new(rng.next_f32(), rng.next_f32(), rng.next_f32());
                    if on_sphere {
                        Point::from(p.coords.normalize() * 5.0)
                    } else {
                        p
                    }
                })
                .collect();
            let subset: Vec<u32> = (0..n as u32).collect();
            let hull = convex_hull_of_subset(&points, &subset).expect("points span 3D");
            assert_valid_hull(&points, &subset, &hull);
            if on_sphere {
                // Points on a sphere are all in convex position (up to rounding to f32).
                assert!(hull.vertices.len() as f64 > 0.98 * n as f64);
            }
        }
    }

    #[test]
    fn grid_cube_hull_has_its_corners_and_only_boundary_points() {
        let mut points = Vec::new();
        for i in 0..5 {
            for j in 0..5 {
                for k in 0..5 {
                    points.push(Point::new(i as f32, j as f32, k as f32) * 0.25);
                }
            }
        }
        let subset: Vec<u32> = (0..points.len() as u32).collect();
        let hull = convex_hull_of_subset(&points, &subset).expect("cube spans 3D");
        assert_valid_hull(&points, &subset, &hull);
        // All 8 corners are vertices; other vertices can only be boundary points that were
        // strictly outside the partial hull when they were inserted.
        let corners = hull
            .vertices
            .iter()
            .filter(|&&v| {
                let p = points[v as usize];
                [p.x, p.y, p.z].iter().all(|&c| c == 0.0 || c == 1.0)
            })
            .count();
        assert_eq!(corners, 8);
        for &v in &hull.vertices {
            let p = points[v as usize];
            assert!([p.x, p.y, p.z].iter().any(|&c| c == 0.0 || c == 1.0));
        }
    }

    #[test]
    fn flat_and_tiny_sets() {
        let flat: Vec<Point> = (0..20)
            .map(|i| Point::new(i as f32, (i * i % 7) as f32, 0.0))
            .collect();
        let subset: Vec<u32> = (0..20).collect();
        assert!(convex_hull_of_subset(&flat, &subset).is_none());
        assert!(convex_hull_of_subset(&flat, &subset[..3]).is_none());
        let line: Vec<Point> = (0..5).map(|i| Point::new(i as f32, 2.0, 3.0)).collect();
        assert!(convex_hull_of_subset(&line, &[0, 1, 2, 3, 4]).is_none());
        // A 1e-12-sized tetrahedron with a sliver height.
        let tiny = vec![
            Point::new(0.0, 0.0, 0.0),
            Point::new(1e-12, 0.0, 0.0),
            Point::new(0.0, 1e-12, 0.0),
            Point::new(3e-13, 3e-13, 1e-18),
            Point::new(1e-13, 1e-13, 0.0),
        ];
        let hull = convex_hull_of_subset(&tiny, &[0, 1, 2, 3, 4]).expect("tiny but 3D");
        assert_valid_hull(&tiny, &[0, 1, 2, 3, 4], &hull);
        assert_eq!(hull.vertices, vec![0, 1, 2, 3]);
    }
}
