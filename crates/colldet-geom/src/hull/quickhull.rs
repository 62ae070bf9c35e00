//! Incremental quickhull with outside sets and exact visibility.
//!
//! Invariants (all decided by exact `orient3d`, never by a tolerance):
//! - The hull is a closed triangle surface, counter-clockwise seen from outside; every triangle
//!   is non-degenerate and every point processed so far is on or behind its plane. So each
//!   triangle lies in a facet plane of the current polytope.
//! - Each unprocessed point is in the outside set of at most one face, and only if it is strictly
//!   in front of that face. A point in no outside set is inside or on the current hull and stays
//!   so as the hull grows.
//! - Inserting apex `p` removes exactly the faces with `p` strictly in front. For a convex
//!   polytope those form a topological disk (faces with `p` exactly in their plane are kept), so
//!   its boundary, the horizon, is one simple cycle and the new faces `(a, b, p)` over horizon
//!   edges `a -> b` close the surface again. `p` is strictly in front of the removed face behind
//!   each horizon edge, hence off the edge's line: new faces are never degenerate.
//! - A point of a removed face's outside set that is in front of no new face is inside the new
//!   hull (the classic quickhull lemma), so only new faces need testing.
//!
//! Floating values only rank points: the farthest point of an outside set is the one with the
//! largest `-orient3d` value (proportional to the distance from the face plane). Any choice is
//! correct; far points just keep the work small.
//!
//! Memory: outside sets are intrusive linked lists through one per-point array, dead face slots
//! are recycled, and all scratch vectors live in the builder, so an insertion allocates nothing
//! beyond amortised vector growth.

use super::face_plane::FacePlane;
use crate::error::GeomError;
use crate::math::PointD;
use crate::predicates::orient3d;

/// "No face" / "no point" in the index arrays.
const NONE: u32 = u32::MAX;

/// One triangle of the hull under construction.
#[derive(Clone, Copy, Debug)]
struct Face {
    /// Input indices, counter-clockwise seen from outside.
    vertices: [u32; 3],
    /// The plane of `vertices`, for filtered side tests.
    plane: FacePlane,
    /// `neighbours[i]` is the face across edge `vertices[i] -> vertices[(i + 1) % 3]`.
    neighbours: [u32; 3],
    /// First point of the outside set (linked through `Quickhull::next_outside`), or `NONE`.
    outside_head: u32,
    /// The point of the outside set with the largest `distance`.
    farthest: u32,
    /// `-orient3d` of `farthest` against this face (positive, proportional to its distance).
    farthest_distance: f64,
    /// False once removed; the slot is then on the free list.
    alive: bool,
    /// Insertion round in which visibility from the current apex was decided.
    stamp: u32,
    /// That round's decision: the apex is strictly in front of this face.
    visible: bool,
}

/// Builds the hull of `points` (all finite) starting from the affinely independent `simplex`.
///
/// Returns triangles as input indices, counter-clockwise seen from outside.
///
/// # Errors
/// [`GeomError::HullInvariant`] if a horizon is not one simple cycle, which the exact
/// predicates rule out; it is reported instead of panicking.
pub(super) fn build(points: &[PointD], simplex: [u32; 4]) -> Result<Vec<[u32; 3]>, GeomError> {
    let mut hull = Quickhull::new(points, simplex);
    hull.run()?;
    Ok(hull.triangles())
}

/// The builder: hull faces, outside sets and scratch space.
struct Quickhull<'a> {
    points: &'a [PointD],
    faces: Vec<Face>,
    free_faces: Vec<u32>,
    /// Per point: the next point of the same outside set, or `NONE`.
    next_outside: Vec<u32>,
    /// Faces that may have a non-empty outside set (stale entries are skipped).
    pending: Vec<u32>,
    round: u32,
    // Scratch, reused every round.
    visible_faces: Vec<u32>,
    search: Vec<u32>,
    /// Horizon edges as `(visible face, edge index)`, first unordered, then in cycle order.
    horizon: Vec<(u32, u8)>,
    horizon_ordered: Vec<(u32, u8)>,
    /// Per point: the horizon edge starting there this round, or `NONE`.
    horizon_from: Vec<u32>,
    new_faces: Vec<u32>,
}

impl<'a> Quickhull<'a> {
    fn new(points: &'a [PointD], simplex: [u32; 4]) -> Self {
        let n = points.len();
        let mut hull = Self {
            points,
            faces: Vec::with_capacity(64),
            free_faces: Vec::new(),
            next_outside: vec![NONE; n],
            pending: Vec::new(),
            round: 0,
            visible_faces: Vec::new(),
            search: Vec::new(),
            horizon: Vec::new(),
            horizon_ordered: Vec::new(),
            horizon_from: vec![NONE; n],
            new_faces: Vec::new(),
        };
        hull.start(simplex);
        hull
    }

    /// `-orient3d` of point `q` against face `f` (filtered): positive exactly when `q` is
    /// strictly in front, zero exactly when it is in the plane.
    #[inline]
    fn distance(&self, f: u32, q: u32) -> f64 {
        let face = &self.faces[f as usize];
        let [_, b, c] = face.vertices;
        let p = self.points;
        face.plane
            .height(&p[q as usize], &p[b as usize], &p[c as usize])
    }

    /// A live face with an empty outside set.
    fn face(&self, vertices: [u32; 3], neighbours: [u32; 3]) -> Face {
        let [a, b, c] = vertices.map(|v| &self.points[v as usize]);
        Face {
            vertices,
            plane: FacePlane::new(a, b, c),
            neighbours,
            outside_head: NONE,
            farthest: NONE,
            farthest_distance: 0.0,
            alive: true,
            stamp: 0,
            visible: false,
        }
    }

    fn start(&mut self, simplex: [u32; 4]) {
        let [a, mut b, mut c, d] = simplex;
        let p = self.points;
        if orient3d(
            &p[a as usize],
            &p[b as usize],
            &p[c as usize],
            &p[d as usize],
        ) < 0.0
        {
            // d is in front of (a, b, c): flip so that d is behind.
            std::mem::swap(&mut b, &mut c);
        }
        // Faces and their neighbours across edges 0, 1, 2 (each edge u -> v of one face is
        // v -> u of the listed neighbour).
        let triangles = [[a, b, c], [b, a, d], [c, b, d], [a, c, d]];
        let neighbours = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]];
        for (vertices, neighbours) in triangles.into_iter().zip(neighbours) {
            let face = self.face(vertices, neighbours);
            self.faces.push(face);
        }
        for q in 0..self.points.len() as u32 {
            if simplex.contains(&q) {
                continue;
            }
            for f in 0..4 {
                let dist = self.distance(f, q);
                if dist > 0.0 {
                    self.add_outside(f, q, dist);
                    break;
                }
            }
        }
        for f in 0..4 {
            if self.faces[f as usize].outside_head != NONE {
                self.pending.push(f);
            }
        }
    }

    #[inline]
    fn add_outside(&mut self, f: u32, q: u32, dist: f64) {
        let face = &mut self.faces[f as usize];
        self.next_outside[q as usize] = face.outside_head;
        face.outside_head = q;
        if face.farthest == NONE || dist > face.farthest_distance {
            face.farthest = q;
            face.farthest_distance = dist;
        }
    }

    fn run(&mut self) -> Result<(), GeomError> {
        while let Some(f) = self.pending.pop() {
            let face = &self.faces[f as usize];
            if !face.alive || face.outside_head == NONE {
                continue;
            }
            let apex = face.farthest;
            self.round += 1;
            self.find_visible(f, apex);
            self.order_horizon(apex)?;
            self.add_cone(apex);
            self.reassign_outside(apex);
        }
        Ok(())
    }

    /// Depth-first search from `start` (which `apex` is in front of) over faces with `apex`
    /// strictly in front; collects them and the horizon edges seen from their side.
    fn find_visible(&mut self, start: u32, apex: u32) {
        let round = self.round;
        self.visible_faces.clear();
        self.horizon.clear();
        self.search.clear();
        {
            let face = &mut self.faces[start as usize];
            face.stamp = round;
            face.visible = true;
        }
        self.visible_faces.push(start);
        self.search.push(start);
        while let Some(g) = self.search.pop() {
            for i in 0..3u8 {
                let n = self.faces[g as usize].neighbours[i as usize];
                let seen = self.faces[n as usize].stamp == round;
                let visible = if seen {
                    self.faces[n as usize].visible
                } else {
                    let visible = self.distance(n, apex) > 0.0;
                    let face = &mut self.faces[n as usize];
                    face.stamp = round;
                    face.visible = visible;
                    if visible {
                        self.visible_faces.push(n);
                        self.search.push(n);
                    }
                    visible
                };
                if !visible {
                    self.horizon.push((g, i));
                }
            }
        }
    }

    /// Puts the horizon edges in cycle order (each edge's end is the next edge's start).
    fn order_horizon(&mut self, apex: u32) -> Result<(), GeomError> {
        let broken = GeomError::HullInvariant {
            point: apex as usize,
        };
        self.horizon_ordered.clear();
        let mut simple = true;
        for (k, &(g, i)) in self.horizon.iter().enumerate() {
            let from = self.faces[g as usize].vertices[i as usize];
            let slot = &mut self.horizon_from[from as usize];
            if *slot != NONE {
                simple = false;
            }
            *slot = k as u32;
        }
        if simple {
            let mut k = 0u32;
            for _ in 0..self.horizon.len() {
                let (g, i) = self.horizon[k as usize];
                self.horizon_ordered.push((g, i));
                let to = self.faces[g as usize].vertices[(i as usize + 1) % 3];
                k = self.horizon_from[to as usize];
                if k == NONE {
                    simple = false;
                    break;
                }
            }
            simple &= k == 0;
        }
        for &(g, i) in &self.horizon {
            let from = self.faces[g as usize].vertices[i as usize];
            self.horizon_from[from as usize] = NONE;
        }
        if simple && self.horizon.len() >= 3 {
            Ok(())
        } else {
            Err(broken)
        }
    }

    /// Adds the faces `(a, b, apex)` over the ordered horizon and links them to each other and
    /// to the kept faces behind the horizon.
    fn add_cone(&mut self, apex: u32) {
        self.new_faces.clear();
        for &(g, i) in &self.horizon_ordered {
            let vertices = self.faces[g as usize].vertices;
            let a = vertices[i as usize];
            let b = vertices[(i as usize + 1) % 3];
            let kept = self.faces[g as usize].neighbours[i as usize];
            let face = self.face([a, b, apex], [kept, NONE, NONE]);
            let id = match self.free_faces.pop() {
                Some(id) => {
                    self.faces[id as usize] = face;
                    id
                }
                None => {
                    self.faces.push(face);
                    (self.faces.len() - 1) as u32
                }
            };
            // The kept face has the edge as b -> a; point it at the new face.
            let kept_face = &mut self.faces[kept as usize];
            for j in 0..3 {
                if kept_face.vertices[j] == b && kept_face.vertices[(j + 1) % 3] == a {
                    kept_face.neighbours[j] = id;
                }
            }
            self.new_faces.push(id);
        }
        let count = self.new_faces.len();
        for k in 0..count {
            let id = self.new_faces[k] as usize;
            self.faces[id].neighbours[1] = self.new_faces[(k + 1) % count];
            self.faces[id].neighbours[2] = self.new_faces[(k + count - 1) % count];
        }
    }

    /// Moves the outside points of the removed faces to the first new face they are strictly in
    /// front of (dropping the others, now inside), then frees the removed faces.
    fn reassign_outside(&mut self, apex: u32) {
        for v in 0..self.visible_faces.len() {
            let g = self.visible_faces[v];
            let mut q = self.faces[g as usize].outside_head;
            while q != NONE {
                let next = self.next_outside[q as usize];
                if q != apex {
                    for k in 0..self.new_faces.len() {
                        let f = self.new_faces[k];
                        let dist = self.distance(f, q);
                        if dist > 0.0 {
                            self.add_outside(f, q, dist);
                            break;
                        }
                    }
                }
                q = next;
            }
            let face = &mut self.faces[g as usize];
            face.alive = false;
            face.outside_head = NONE;
            self.free_faces.push(g);
        }
        for k in 0..self.new_faces.len() {
            let f = self.new_faces[k];
            if self.faces[f as usize].outside_head != NONE {
                self.pending.push(f);
            }
        }
    }

    fn triangles(&self) -> Vec<[u32; 3]> {
        self.faces
            .iter()
            .filter(|f| f.alive)
            .map(|f| f.vertices)
            .collect()
    }
}
