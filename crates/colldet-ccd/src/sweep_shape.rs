//! A polyhedron prepared for sweeping: `f64` vertices, triangles (faces fanned) with their input
//! face index, the edges that can be a first contact, and the vertices that can.
//!
//! Internal edges (seed section 4) are skipped as features: an edge whose two faces meet
//! concavely (colldet-geom's reflex edges) or lie exactly in one plane can never be where a first
//! contact happens (the faces or the boundary of the flat region are hit first), and a vertex
//! whose edges are all internal neither. Triangle diagonals of fanned polygons are not edges.
//! The triangles keep every edge for the inside-the-polygon tests.

use colldet_geom::dcel::{EdgeId, FaceId, VertexId};
use colldet_geom::math::{PointD, VectorD, to_f64};
use colldet_geom::predicates::orient3d;
use colldet_geom::{Aabb, ConvexPolytope, Polyhedron};

use crate::error::CcdError;

/// One triangle of a face fan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepTriangle {
    /// Corner vertex indices, counter-clockwise seen from the front (outside).
    pub corners: [u32; 3],
    /// The input face index the triangle belongs to.
    pub face: u32,
}

/// A polyhedron's features for sweeping (module docs). Everything is in the body's local frame.
#[derive(Clone, Debug)]
pub struct SweepShape {
    vertices: Vec<PointD>,
    triangles: Vec<SweepTriangle>,
    /// Edges that can be a first contact: their vertex pair and colldet edge index.
    edges: Vec<([u32; 2], u32)>,
    /// The triangles on each side of each contact edge (the same triangle twice for an edge
    /// with one face).
    edge_triangles: Vec<[u32; 2]>,
    /// Every edge's vertex pair, by colldet edge index.
    all_edges: Vec<[u32; 2]>,
    /// The triangles around each contact vertex: `vertex_triangles[vertex_triangle_start[i]..
    /// vertex_triangle_start[i + 1]]` for the `i`-th contact vertex.
    vertex_triangle_start: Vec<u32>,
    vertex_triangles: Vec<u32>,
    /// Per triangle: the normal `(q1 - q0) x (q2 - q0)` rounded in `f64`, and the L1 norms'
    /// product and sum of its two edges (the scales of its rounding error).
    triangle_normals: Vec<(VectorD, f64, f64)>,
    /// Vertices that can be a first contact (used, not internal).
    active_vertices: Vec<u32>,
    /// Per vertex: its position in `active_vertices`, or `u32::MAX` when it is not a contact
    /// vertex.
    contact_index: Vec<u32>,
    /// The triangles whose first corner is each vertex: `led_triangles[led_triangle_start[v]..
    /// led_triangle_start[v + 1]]`, ascending.
    led_triangle_start: Vec<u32>,
    led_triangles: Vec<u32>,
    /// The contact edges (positions in `edges`) whose first vertex is each vertex, ascending, as
    /// `led_triangles`.
    led_edge_start: Vec<u32>,
    led_edges: Vec<u32>,
    radius: f64,
    closed: bool,
    local_box: Aabb,
    /// The polytope with hill-climbing support when the polyhedron is convex (the accelerated
    /// translational sweep uses it).
    hull: Option<ConvexPolytope>,
}

impl SweepShape {
    /// Prepares a built polyhedron.
    ///
    /// # Errors
    /// [`CcdError::Mesh`] when the polyhedron has no face.
    pub fn new(poly: &Polyhedron) -> Result<Self, CcdError> {
        let dcel = poly.dcel();
        if dcel.face_count() == 0 {
            return Err(CcdError::Mesh("no face".into()));
        }
        // The vertices as given (a mesh given in `f64` keeps its doubles): every sweep decides
        // about these.
        let vertices: Vec<PointD> = (0..poly.vertices().len())
            .map(|i| poly.vertex_f64(i))
            .collect();
        let mut triangles = Vec::with_capacity(dcel.faces().index_count());
        for f in 0..dcel.face_count() {
            let face = FaceId(f as u32);
            let corners = dcel.face_vertices(face);
            for k in 1..corners.len().saturating_sub(1) {
                triangles.push(SweepTriangle {
                    corners: [corners[0], corners[k], corners[k + 1]],
                    face: poly.face_source(face),
                });
            }
        }
        let all_edges: Vec<[u32; 2]> = (0..dcel.edge_count())
            .map(|e| dcel.edge_vertices(EdgeId(e as u32)).map(|v| v.0))
            .collect();
        let mut edge_active = vec![false; all_edges.len()];
        for (e, active) in edge_active.iter_mut().enumerate() {
            let id = EdgeId(e as u32);
            *active = !poly.is_internal_edge(id) && !is_flat_edge(poly, &vertices, id);
        }
        let edges: Vec<([u32; 2], u32)> = all_edges
            .iter()
            .zip(&edge_active)
            .enumerate()
            .filter(|(_, (_, a))| **a)
            .map(|(e, (v, _))| (*v, e as u32))
            .collect();
        let mut vertex_active = vec![false; vertices.len()];
        for (e, v) in all_edges.iter().enumerate() {
            if edge_active[e] {
                vertex_active[v[0] as usize] = true;
                vertex_active[v[1] as usize] = true;
            }
        }
        // A vertex used only by faces without any active edge (all internal) stays inactive;
        // isolated vertices are not part of the surface.
        let active_vertices = (0..vertices.len() as u32)
            .filter(|&v| vertex_active[v as usize] && !poly.is_internal_vertex(VertexId(v)))
            .collect();
        // Triangles around vertices and edges, from the fans: a triangle's sides are polygon
        // edges or fan diagonals; look polygon edges up by vertex pair.
        let mut triangles_of_vertex: Vec<Vec<u32>> = vec![Vec::new(); vertices.len()];
        let mut triangles_of_pair: std::collections::HashMap<(u32, u32), [u32; 2]> =
            std::collections::HashMap::with_capacity(triangles.len() * 3);
        for (t, tri) in triangles.iter().enumerate() {
            for k in 0..3 {
                let (u, w) = (tri.corners[k], tri.corners[(k + 1) % 3]);
                triangles_of_vertex[u as usize].push(t as u32);
                let key = (u.min(w), u.max(w));
                triangles_of_pair
                    .entry(key)
                    .and_modify(|e| e[1] = t as u32)
                    .or_insert([t as u32; 2]);
            }
        }
        let edge_triangles = edges
            .iter()
            .map(|([u, w], _)| {
                triangles_of_pair
                    .get(&((*u).min(*w), (*u).max(*w)))
                    .copied()
                    .unwrap_or([0; 2])
            })
            .collect();
        let radius = vertices
            .iter()
            .map(|p| p.coords.norm())
            .fold(0.0f64, f64::max);
        let used: Vec<_> = triangles
            .iter()
            .flat_map(|t| t.corners)
            .map(|v| poly.vertices()[v as usize])
            .collect();
        let local_box = Aabb::from_points(&used).map_err(|e| CcdError::Mesh(e.to_string()))?;
        // Fitted to the `f32` copy: widened by the rounding it holds the doubles.
        let local_box = widened(local_box, poly.vertex_rounding());
        let active_vertices: Vec<u32> = active_vertices;
        let mut vertex_triangle_start = Vec::with_capacity(active_vertices.len() + 1);
        let mut vertex_triangles = Vec::new();
        for &v in &active_vertices {
            vertex_triangle_start.push(vertex_triangles.len() as u32);
            vertex_triangles.extend_from_slice(&triangles_of_vertex[v as usize]);
        }
        vertex_triangle_start.push(vertex_triangles.len() as u32);
        let mut contact_index = vec![u32::MAX; vertices.len()];
        for (i, &v) in active_vertices.iter().enumerate() {
            contact_index[v as usize] = i as u32;
        }
        let (led_triangle_start, led_triangles) =
            grouped_by_vertex(vertices.len(), triangles.iter().map(|t| t.corners[0]));
        let (led_edge_start, led_edges) =
            grouped_by_vertex(vertices.len(), edges.iter().map(|(v, _)| v[0]));
        let l1 = |v: &VectorD| v.x.abs() + v.y.abs() + v.z.abs();
        let triangle_normals = triangles
            .iter()
            .map(|t| {
                let [p, q, r] = t.corners.map(|i| vertices[i as usize].coords);
                let (u, w) = (q - p, r - p);
                (u.cross(&w), l1(&u) * l1(&w), l1(&u) + l1(&w))
            })
            .collect();
        Ok(Self {
            vertices,
            triangles,
            edges,
            edge_triangles,
            all_edges,
            vertex_triangle_start,
            vertex_triangles,
            triangle_normals,
            active_vertices,
            contact_index,
            led_triangle_start,
            led_triangles,
            led_edge_start,
            led_edges,
            radius,
            closed: poly.classification().closed,
            local_box,
            // Fitted to the `f32` copy and marked with its rounding (the advancement's gaps
            // subtract it).
            hull: ConvexPolytope::from_polyhedron(poly).ok(),
        })
    }

    /// Vertex positions (local frame, exactly as given: `f32` values widened, or the doubles of a
    /// mesh given in `f64`).
    pub fn vertices(&self) -> &[PointD] {
        &self.vertices
    }

    /// The face triangles.
    pub fn triangles(&self) -> &[SweepTriangle] {
        &self.triangles
    }

    /// The edges that can be a first contact: vertex pair and colldet edge index.
    pub fn contact_edges(&self) -> &[([u32; 2], u32)] {
        &self.edges
    }

    /// The (one or two) triangles on the sides of the `i`-th contact edge.
    pub fn contact_edge_triangles(&self, i: usize) -> [u32; 2] {
        self.edge_triangles[i]
    }

    /// Triangle `t`'s normal `(q1 - q0) x (q2 - q0)` in `f64` (local frame), with the product and
    /// the sum of its edges' L1 norms.
    pub fn triangle_normal(&self, t: usize) -> &(VectorD, f64, f64) {
        &self.triangle_normals[t]
    }

    /// The triangles around the `i`-th contact vertex.
    pub fn contact_vertex_triangles(&self, i: usize) -> &[u32] {
        let (s, e) = (
            self.vertex_triangle_start[i] as usize,
            self.vertex_triangle_start[i + 1] as usize,
        );
        &self.vertex_triangles[s..e]
    }

    /// The vertices that can be a first contact.
    pub fn contact_vertices(&self) -> &[u32] {
        &self.active_vertices
    }

    /// The position of vertex `v` in [`SweepShape::contact_vertices`], or `None` when it cannot
    /// be a first contact.
    pub fn contact_index(&self, v: u32) -> Option<usize> {
        let i = self.contact_index[v as usize];
        (i != u32::MAX).then_some(i as usize)
    }

    /// The triangles whose first corner is vertex `v`, ascending (each triangle is led by exactly
    /// one vertex).
    pub fn triangles_led_by(&self, v: u32) -> &[u32] {
        let v = v as usize;
        let (s, e) = (self.led_triangle_start[v], self.led_triangle_start[v + 1]);
        &self.led_triangles[s as usize..e as usize]
    }

    /// The contact edges (positions in [`SweepShape::contact_edges`]) whose first vertex is `v`,
    /// ascending.
    pub fn contact_edges_led_by(&self, v: u32) -> &[u32] {
        let v = v as usize;
        let (s, e) = (self.led_edge_start[v], self.led_edge_start[v + 1]);
        &self.led_edges[s as usize..e as usize]
    }

    /// The two vertices of colldet edge `edge`, or `None` when out of range.
    pub fn edge_vertices(&self, edge: u32) -> Option<[u32; 2]> {
        self.all_edges.get(edge as usize).copied()
    }

    /// Largest distance of a vertex from the local origin.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// True when the surface is closed (the solid is the enclosed volume).
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The convex polytope (hill-climbing support) when the polyhedron is convex.
    pub fn hull(&self) -> Option<&ConvexPolytope> {
        self.hull.as_ref()
    }

    /// Box of the used vertices, local frame.
    pub fn local_box(&self) -> &Aabb {
        &self.local_box
    }
}

/// The items `0..` grouped by the vertex each names (`leaders`, one per item), as offsets per
/// vertex (`vertex_count + 1` of them) and the items, ascending within each vertex.
fn grouped_by_vertex(
    vertex_count: usize,
    leaders: impl Iterator<Item = u32> + Clone,
) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; vertex_count + 1];
    for v in leaders.clone() {
        start[v as usize + 1] += 1;
    }
    for v in 0..vertex_count {
        start[v + 1] += start[v];
    }
    let mut next = start.clone();
    let mut items = vec![0u32; start[vertex_count] as usize];
    for (item, v) in leaders.enumerate() {
        items[next[v as usize] as usize] = item as u32;
        next[v as usize] += 1;
    }
    (start, items)
}

/// True when `e` has two faces whose triangles at `e` lie exactly in one plane (decided by the
/// exact orientation of the far corner of one face's triangle against the other's).
fn is_flat_edge(poly: &Polyhedron, vertices: &[PointD], e: EdgeId) -> bool {
    let dcel = poly.dcel();
    let halves: Vec<_> = dcel.edge_half_edges(e).collect();
    if halves.len() != 2 {
        return false;
    }
    let corners = |h| {
        let a = dcel.origin(h).0;
        let b = dcel.destination(h).0;
        let c = dcel.destination(dcel.next(h)).0;
        [a, b, c].map(|v| vertices[v as usize])
    };
    let [a, b, c] = corners(halves[0]);
    let [_, _, d] = corners(halves[1]);
    let coplanar = orient3d(&a, &b, &c, &d) == 0.0;
    // Coplanar and on opposite sides of the edge (a fold of 180 degrees is not flat).
    coplanar && opposite_sides(&a, &b, &c, &d)
}

/// True when `c` and `d`, coplanar with the line `ab`, lie strictly on opposite sides of it.
fn opposite_sides(a: &PointD, b: &PointD, c: &PointD, d: &PointD) -> bool {
    let ab = b - a;
    let n = ab.cross(&(c - a));
    let side_d = ab.cross(&(d - a)).dot(&n);
    side_d < 0.0
}

/// `b` grown by `margin` on every side, rounded outward to `f32` (no change for 0).
fn widened(b: Aabb, margin: f64) -> Aabb {
    if margin == 0.0 {
        return b;
    }
    let down = |x: f64| {
        let f = x as f32;
        if f64::from(f) > x { f.next_down() } else { f }
    };
    let up = |x: f64| {
        let f = x as f32;
        if f64::from(f) < x { f.next_up() } else { f }
    };
    let lo = to_f64(&b.mins).coords.map(|x| down(x - margin));
    let hi = to_f64(&b.maxs).coords.map(|x| up(x + margin));
    Aabb::new(lo.into(), hi.into())
}
