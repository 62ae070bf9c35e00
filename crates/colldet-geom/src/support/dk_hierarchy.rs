//! The Dobkin-Kirkpatrick hierarchy for support mapping in `O(log n)` levels.
//!
//! Level 0 is the polytope itself. Level `i + 1` is the convex hull of the vertices of level `i`
//! that survive the removal of an independent set: vertices of degree at most
//! [`DK_MAX_REMOVED_DEGREE`], chosen greedily in index order, no two of them joined by an edge. Building
//! stops at a level with at most [`DK_TOP_MAX_VERTICES`] vertices, or earlier when the survivors
//! of a round are coplanar (a flat polytope has no 3D hull) or a round removes nothing; the top
//! level is then larger and its brute force longer, the answers stay exact.
//!
//! A query takes the brute-force maximum on the top (coarsest) level and then, level by level
//! down to level 0, hill-climbs from the vertex found on the coarser level. Each level is a convex
//! polytope with its own edge graph, so every hill climb ends at a supporting vertex of that level
//! (see the rationale in [`crate::support`]) whatever the start; the DK neighbourhood lemma
//! (Chung-Wang lemma 5: the supporting vertex of level `i` is the start or one of its neighbours)
//! is what makes each climb short, but correctness does not rely on it. That matters because the
//! lemma needs strictly convex vertices, while inputs may have coplanar or collinear vertices.
//!
//! # Rationale (subtle invariants)
//! - The vertices of a coarser level are a subset of the finer level's vertices
//!   (`to_finer` maps them, ascending), so the answer of one level is a valid start on the next.
//! - The hull of each coarser level (the exact quickhull of `crate::hull`) keeps only the extreme points (corners) of the survivors; boundary
//!   points are dropped like removed vertices. They are never needed: the hull's vertices
//!   realise every maximum.
//! - Level 0 is stored as a copy of the polytope's vertices and adjacency, so the hierarchy is a
//!   self-contained value; the coarser levels add roughly `3n` more vertices in total.

use super::brute_force::brute_force;
use super::hill_climb::hill_climb;
use super::tangent_cone::hill_climbing_graph;
use super::{SupportResult, widen};
use crate::adjacency::VertexAdjacency;
use crate::hull::convex_hull;
use crate::math::{Point, Vector, VectorD};

/// Largest degree (in the finer level's edge graph) of a vertex that may be removed when
/// building the next level.
pub const DK_MAX_REMOVED_DEGREE: usize = 8;
/// Building stops at a level with at most this many vertices; it is searched by brute force.
pub const DK_TOP_MAX_VERTICES: usize = 8;

#[derive(Clone, Debug)]
struct DkLevel {
    /// Vertices of this level, local frame.
    points: Vec<Point>,
    /// Hill-climbing graph of this level's convex hull (hull edges plus the artificial edges of
    /// `tangent_cone.rs`: a hull vertex can lie inside a flat face), in this level's numbering.
    adjacency: VertexAdjacency,
    /// For each vertex, its index in the finer level (empty for level 0). Ascending.
    to_finer: Vec<u32>,
}

/// A Dobkin-Kirkpatrick hierarchy of a convex polytope: nested convex polytopes from the
/// polytope itself (level 0) to a handful of vertices (the top level), each level's vertex set a
/// subset of the finer level's. See the module documentation for the construction and query.
#[derive(Clone, Debug)]
pub struct DkHierarchy {
    levels: Vec<DkLevel>,
}

impl DkHierarchy {
    /// Builds the hierarchy of the convex polytope with vertices `points` (local frame) and edge
    /// graph `adjacency` (which must describe exactly these points, as a
    /// [`ConvexPolytope`](super::ConvexPolytope)'s does). Cost: one hull per level, expected
    /// `O(n log n)` each, about `O(log n)` levels.
    ///
    /// Building stops at the first level with at most [`DK_TOP_MAX_VERTICES`] vertices, or
    /// earlier when the survivors of a round are coplanar (a flat polytope has no 3D hull; its
    /// last level is then simply larger) or when a round removes nothing. In every case the
    /// queries stay exact, only the top level's brute force gets longer.
    pub(crate) fn build(points: &[Point], adjacency: &VertexAdjacency) -> Self {
        let mut levels = vec![DkLevel {
            points: points.to_vec(),
            adjacency: adjacency.clone(),
            to_finer: Vec::new(),
        }];
        while let Some(next) = Self::coarser_level(levels.last().expect("level 0 exists")) {
            levels.push(next);
        }
        Self { levels }
    }

    fn coarser_level(finer: &DkLevel) -> Option<DkLevel> {
        let n = finer.points.len();
        if n <= DK_TOP_MAX_VERTICES {
            return None;
        }
        let mut blocked = vec![false; n];
        let mut survivors: Vec<u32> = Vec::with_capacity(n);
        for v in 0..n as u32 {
            let neighbours = finer.adjacency.neighbours(v);
            if !blocked[v as usize] && neighbours.len() <= DK_MAX_REMOVED_DEGREE {
                // Removed: its neighbours must survive this round.
                for &w in neighbours {
                    blocked[w as usize] = true;
                }
            } else {
                survivors.push(v);
            }
        }
        let survivor_points: Vec<Point> = survivors
            .iter()
            .map(|&v| finer.points[v as usize])
            .collect();
        // A flat or degenerate survivor set has no 3D hull: the hierarchy stops here.
        let hull = convex_hull(&survivor_points).ok()?;
        if hull.mesh.vertices.len() >= n {
            return None;
        }
        let adjacency = hill_climbing_graph(&hull.mesh.vertices, &hull.mesh.faces);
        Some(DkLevel {
            to_finer: hull
                .input_index
                .iter()
                .map(|&i| survivors[i as usize])
                .collect(),
            points: hull.mesh.vertices,
            adjacency,
        })
    }

    /// A supporting vertex (index in level 0, i.e. in the polytope) for direction `dir` (local
    /// frame, any nonzero length), within the tolerance of
    /// [`SUPPORT_RELATIVE_TOLERANCE`](super::SUPPORT_RELATIVE_TOLERANCE). A zero or NaN
    /// direction returns some valid vertex index without panicking. No allocation.
    #[inline]
    pub fn support(&self, dir: &Vector) -> u32 {
        self.support_counted(dir).vertex
    }

    /// As [`DkHierarchy::support`], also counting vertex evaluations: all vertices of the top
    /// level plus every hill-climbing evaluation on the finer levels.
    pub fn support_counted(&self, dir: &Vector) -> SupportResult {
        let d = widen(dir);
        let (top, finer) = self
            .levels
            .split_last()
            .expect("a hierarchy always has level 0");
        let mut vertex = brute_force(&top.points, &d);
        let mut visits = top.points.len() as u32;
        let mut coarser = top;
        for level in finer.iter().rev() {
            let start = coarser.to_finer[vertex as usize];
            let r = hill_climb(&level.points, &level.adjacency, &d, start);
            vertex = r.vertex;
            visits += r.visits;
            coarser = level;
        }
        SupportResult { vertex, visits }
    }

    /// The vertices of level `level` (0 = the polytope; local frame), or `None` past the top
    /// level. Each level is the convex hull of its vertices and lies inside the finer levels.
    pub fn level_points(&self, level: usize) -> Option<&[Point]> {
        self.levels.get(level).map(|l| l.points.as_slice())
    }

    /// A supporting vertex of level `level` (its own numbering) for the `f64` direction `dir`:
    /// a hill climb over that level's graph from `start` (a vertex of that level), or the top
    /// level's brute force when `start` is out of range.
    ///
    /// # Panics
    /// When `level` is past the top level.
    #[inline]
    pub fn level_support_f64(&self, level: usize, dir: &VectorD, start: u32) -> u32 {
        let l = &self.levels[level];
        if (start as usize) < l.points.len() {
            hill_climb(&l.points, &l.adjacency, dir, start).vertex
        } else {
            brute_force(&l.points, dir)
        }
    }

    /// The index on level `level - 1` of vertex `vertex` of level `level` (the same point).
    ///
    /// # Panics
    /// When `level` is 0 or past the top level, or `vertex` is out of range.
    #[inline]
    pub fn to_finer(&self, level: usize, vertex: u32) -> u32 {
        self.levels[level].to_finer[vertex as usize]
    }

    /// Number of levels, counting level 0 (the polytope) and the top level.
    pub fn level_count(&self) -> usize {
        self.levels.len()
    }

    /// Number of vertices of level `level` (0 = the polytope), or `None` past the top level.
    pub fn level_vertex_count(&self, level: usize) -> Option<usize> {
        self.levels.get(level).map(|l| l.points.len())
    }

    /// Checks the structural invariants: every level non-empty with an adjacency of matching
    /// size and in range; every coarser level strictly smaller, its `to_finer` map
    /// ascending, in range and pointing at identical points.
    ///
    /// # Errors
    /// A description of the first broken invariant, naming the level and vertex.
    pub fn validate(&self) -> Result<(), String> {
        for (i, level) in self.levels.iter().enumerate() {
            let n = level.points.len();
            if n == 0 || level.adjacency.vertex_count() != n {
                return Err(format!(
                    "level {i}: {n} points but adjacency of {}",
                    level.adjacency.vertex_count()
                ));
            }
            for v in 0..n as u32 {
                for &w in level.adjacency.neighbours(v) {
                    if w as usize >= n || w == v {
                        return Err(format!("level {i}: edge {v}->{w} out of range or a loop"));
                    }
                }
            }
            if i == 0 {
                continue;
            }
            let finer = &self.levels[i - 1];
            if level.to_finer.len() != n || n >= finer.points.len() {
                return Err(format!("level {i}: not a strict subset of level {}", i - 1));
            }
            for (k, &f) in level.to_finer.iter().enumerate() {
                let ascending = k == 0 || level.to_finer[k - 1] < f;
                if !ascending || finer.points.get(f as usize) != Some(&level.points[k]) {
                    return Err(format!(
                        "level {i}: vertex {k} maps to a wrong finer vertex {f}"
                    ));
                }
            }
        }
        Ok(())
    }
}
