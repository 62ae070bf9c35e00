//! A convex polytope prepared for support mapping: vertices, vertex adjacency, the Chung-Wang
//! direction table and (for larger polytopes) the Dobkin-Kirkpatrick hierarchy.

use super::brute_force::brute_force;
use super::hill_climb::{hill_climb, hill_climb_from};
use super::tangent_cone::hill_climbing_graph;
use super::vertex_scan::VertexScan;
use super::{DirectionTable, DkHierarchy, SUPPORT_RELATIVE_TOLERANCE, SupportResult, widen};
use crate::adjacency::VertexAdjacency;
use crate::bounding::Aabb;
use crate::error::GeomError;
use crate::math::{Point, Real, Vector, VectorD, to_f64};
use crate::mesh_data::{FaceList, MeshData};
use nalgebra::Matrix3;
use std::sync::atomic::{AtomicU64, Ordering};

/// Default of [`ConvexPolytopeOptions::dk_vertex_threshold`]: polytopes with more than 64
/// vertices get a DK hierarchy. Below that, brute force over the vertices costs about as much
/// as the descent through the levels.
pub const DEFAULT_DK_VERTEX_THRESHOLD: usize = 64;

/// How [`ConvexPolytope::from_convex_mesh_with`] prepares a polytope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvexPolytopeOptions {
    /// The DK hierarchy is built (eagerly, at construction) when the polytope has more than this
    /// many vertices. `usize::MAX` never builds it, `0` always does.
    pub dk_vertex_threshold: usize,
}

impl Default for ConvexPolytopeOptions {
    fn default() -> Self {
        Self {
            dk_vertex_threshold: DEFAULT_DK_VERTEX_THRESHOLD,
        }
    }
}

/// A convex polytope in its local frame (`f32`), prepared for support-mapping queries.
///
/// Vertices are the mesh vertices used by at least one face, renumbered `0..n` in their original
/// order ([`source_vertices`](Self::source_vertices) maps back). Every query takes a direction
/// in the local frame, of any nonzero length, and returns the index of a supporting vertex: a
/// vertex `v` with `dot(v, d) >= max_u dot(u, d) - SUPPORT_RELATIVE_TOLERANCE * |d| * radius`
/// (see [`SUPPORT_RELATIVE_TOLERANCE`] and [`radius`](Self::radius)); ties (faces or edges
/// perpendicular to `d`) may be broken differently by different methods. Queries never allocate.
/// A zero direction, for which every vertex is extreme, or a direction with a NaN or infinite
/// component returns a valid vertex index (vertex 0, or the start vertex for hill climbing)
/// without panicking; such a result carries no meaning.
#[derive(Clone, Debug)]
pub struct ConvexPolytope {
    vertices: Vec<Point>,
    source_vertices: Vec<u32>,
    adjacency: VertexAdjacency,
    table: DirectionTable,
    dk: Option<DkHierarchy>,
    /// The vertices widened to `f64` in lanes, for polytopes of at most
    /// [`SCAN_LANES`](super::SCAN_LANES) vertices (the brute-force query's branch-free form).
    scan: Option<VertexScan>,
    radius: Real,
    vertex_average: VectorD,
    local_aabb: Aabb,
    /// How far a vertex (`f32`) may be from the position the caller gave (`|.|_1`; 0 for `f32`
    /// input, see [`crate::MeshData::vertex_rounding`]).
    vertex_rounding: f64,
    geometry_id: u64,
}

/// The next [`ConvexPolytope::geometry_id`].
static NEXT_GEOMETRY_ID: AtomicU64 = AtomicU64::new(0);

impl ConvexPolytope {
    /// Prepares the convex polytope bounded by `mesh` with the default options (DK hierarchy
    /// above [`DEFAULT_DK_VERTEX_THRESHOLD`] vertices).
    ///
    /// # Preconditions
    /// The caller guarantees convexity: the faces must be the boundary of a convex body, every
    /// used vertex on that boundary (closed convex polyhedra qualify, triangulated or with polygon
    /// faces, including extra vertices inside flat faces or on straight edges; orientation does
    /// not matter). This is not checked; on a non-convex mesh hill climbing and the DK hierarchy
    /// return local maxima, while brute force stays correct.
    ///
    /// # Errors
    /// Whatever [`MeshData::validate`] reports (no vertices or faces, non-finite coordinates,
    /// faces with fewer than 3 indices, indices out of range), and
    /// [`GeomError::DisconnectedMesh`] when the face edges do not connect all used vertices.
    pub fn from_convex_mesh(mesh: &MeshData) -> Result<Self, GeomError> {
        Self::from_convex_mesh_with(mesh, &ConvexPolytopeOptions::default())
    }

    /// The convex hull of `points`, prepared with the default options. Vertex indices then refer
    /// to the hull's vertices; [`source_vertices`](Self::source_vertices) maps them back to
    /// `points`.
    ///
    /// # Errors
    /// What [`crate::hull::convex_hull`] reports: a non-finite point, or points without volume.
    pub fn from_points(points: &[Point]) -> Result<Self, GeomError> {
        let hull = crate::hull::convex_hull(points)?;
        let mut polytope = Self::from_convex_mesh(&hull.mesh)?;
        for v in &mut polytope.source_vertices {
            *v = hull.input_index[*v as usize];
        }
        Ok(polytope)
    }

    /// A polytope from a polyhedron that its classification found convex. Vertex indices map back
    /// to the polyhedron's (= the input mesh's) vertex ids through
    /// [`source_vertices`](Self::source_vertices).
    ///
    /// # Errors
    /// [`GeomError::NotConvex`] when `classification().convex` is false.
    pub fn from_polyhedron(polyhedron: &crate::Polyhedron) -> Result<Self, GeomError> {
        if !polyhedron.classification().convex {
            return Err(GeomError::NotConvex);
        }
        let mesh = MeshData::new(
            polyhedron.vertices().to_vec(),
            polyhedron.dcel().faces().clone(),
        );
        Ok(Self::from_convex_mesh(&mesh)?.with_vertex_rounding(polyhedron.vertex_rounding()))
    }

    /// The polytope marked as the `f32` copy of points given in `f64`, each within `rounding`
    /// (`|.|_1`) of its copy: the convex tests widen their certificates by it.
    pub fn with_vertex_rounding(mut self, rounding: f64) -> Self {
        self.vertex_rounding = rounding;
        self
    }

    /// How far a vertex may be from the position the caller gave, `|.|_1` (0 for `f32` input):
    /// every support value of the polytope the caller meant is within this of this polytope's
    /// (for unit directions).
    pub fn vertex_rounding(&self) -> f64 {
        self.vertex_rounding
    }

    /// As [`ConvexPolytope::from_convex_mesh`], with explicit options.
    ///
    /// # Errors
    /// As [`ConvexPolytope::from_convex_mesh`].
    pub fn from_convex_mesh_with(
        mesh: &MeshData,
        options: &ConvexPolytopeOptions,
    ) -> Result<Self, GeomError> {
        mesh.validate()?;
        let mut new_index = vec![u32::MAX; mesh.vertices.len()];
        for face in mesh.faces.iter() {
            for &v in face {
                new_index[v as usize] = 0;
            }
        }
        let mut source_vertices = Vec::new();
        let mut vertices = Vec::new();
        for (v, slot) in new_index.iter_mut().enumerate() {
            if *slot == 0 {
                *slot = source_vertices.len() as u32;
                source_vertices.push(v as u32);
                vertices.push(mesh.vertices[v]);
            }
        }
        let mut faces = FaceList::with_capacity(mesh.faces.len(), mesh.faces.index_count());
        let mut scratch = Vec::new();
        for face in mesh.faces.iter() {
            scratch.clear();
            scratch.extend(face.iter().map(|&v| new_index[v as usize]));
            faces.push(&scratch);
        }
        if let Some(v) = first_unreachable(&VertexAdjacency::from_faces(vertices.len(), &faces)) {
            return Err(GeomError::DisconnectedMesh {
                vertex: source_vertices[v] as usize,
                reference: source_vertices[0] as usize,
            });
        }
        let adjacency = hill_climbing_graph(&vertices, &faces);
        let radius = vertices
            .iter()
            .map(|p| to_f64(p).coords.norm())
            .fold(0.0f64, f64::max) as Real;
        let vertex_average = vertices
            .iter()
            .fold(VectorD::zeros(), |sum, p| sum + to_f64(p).coords)
            / vertices.len() as f64;
        let local_aabb = Aabb::from_points(&vertices)?;
        let table = DirectionTable::build(&vertices);
        let dk = (vertices.len() > options.dk_vertex_threshold)
            .then(|| DkHierarchy::build(&vertices, &adjacency));
        let scan = VertexScan::new(&vertices);
        Ok(Self {
            vertices,
            source_vertices,
            adjacency,
            table,
            dk,
            scan,
            radius,
            vertex_average,
            local_aabb,
            vertex_rounding: 0.0,
            geometry_id: NEXT_GEOMETRY_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// Number of vertices (at least 1).
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }

    /// The vertices, local frame. Query results index this slice.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// The average of the vertices (local frame, `f64`, summed in vertex order): an interior
    /// point, the Chung-Wang paper's approximate centroid.
    pub fn vertex_average(&self) -> VectorD {
        self.vertex_average
    }

    /// The smallest axis-aligned box holding the vertices, local frame (exact: the least and
    /// greatest vertex coordinates).
    pub fn local_aabb(&self) -> &Aabb {
        &self.local_aabb
    }

    /// For each vertex, its index in the mesh the polytope was built from (ascending).
    pub fn source_vertices(&self) -> &[u32] {
        &self.source_vertices
    }

    /// The hill-climbing graph, in this polytope's numbering: every face edge in both directions
    /// plus one-way artificial edges from vertices inside flat faces (to the vertex farthest
    /// from the face) and from flat corners of polygon faces (to a face vertex off the line),
    /// so that a vertex without a better out-neighbour is a supporting vertex.
    pub fn adjacency(&self) -> &VertexAdjacency {
        &self.adjacency
    }

    /// The 8 x 16 table of supporting vertices used to start hill climbing.
    pub fn direction_table(&self) -> &DirectionTable {
        &self.table
    }

    /// The DK hierarchy, present when the polytope has more vertices than the
    /// [`ConvexPolytopeOptions::dk_vertex_threshold`] it was built with.
    pub fn dk_hierarchy(&self) -> Option<&DkHierarchy> {
        self.dk.as_ref()
    }

    /// An identifier that this polytope shares only with its clones: a process-wide counter
    /// drawn at construction (the geometry never changes afterwards). Per-pair caches key facts
    /// that hold for one pair of polytopes only by it.
    pub fn geometry_id(&self) -> u64 {
        self.geometry_id
    }

    /// Largest distance of a vertex from the local origin (local length units). The scale of
    /// the support tolerance, because dot products with vertices are of size `|d| * radius`.
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The absolute tie tolerance of every query for direction `dir`:
    /// `SUPPORT_RELATIVE_TOLERANCE * |dir| * radius`, in units of `dot(vertex, dir)`.
    pub fn support_tolerance(&self, dir: &Vector) -> f64 {
        SUPPORT_RELATIVE_TOLERANCE * widen(dir).norm() * f64::from(self.radius)
    }

    /// Supporting vertex by scanning all vertices, `O(n)`; among exact ties the lowest index.
    #[inline]
    pub fn support_brute_force(&self, dir: &Vector) -> u32 {
        self.support_brute_force_f64(&widen(dir))
    }

    /// As [`ConvexPolytope::support_brute_force`] for an `f64` direction, used unrounded: the
    /// vertex maximising the `f64` dot product with the exactly widened vertex. Polytopes of at
    /// most [`SCAN_LANES`](super::SCAN_LANES) vertices scan their pre-widened vertex lanes
    /// without branching (same answer, see `vertex_scan.rs`).
    #[inline]
    pub fn support_brute_force_f64(&self, dir: &VectorD) -> u32 {
        match &self.scan {
            Some(scan) => scan.support(dir),
            None => brute_force(&self.vertices, dir),
        }
    }

    /// For polytopes of at most [`SCAN_LANES`](super::SCAN_LANES) vertices, the least and
    /// greatest coordinate of the rotated vertices `rot * v` per axis (`f64`, each `rot * v` as
    /// nalgebra's matrix-vector product rounds it), from the pre-widened vertex lanes without
    /// branching; `None` for larger polytopes. `rot` must be finite.
    #[inline]
    pub fn rotated_vertex_bounds(&self, rot: &Matrix3<f64>) -> Option<([f64; 3], [f64; 3])> {
        self.scan.as_ref().map(|scan| scan.rotated_bounds(rot))
    }

    /// Supporting vertex by steepest-ascent hill climbing from `start` (Chung-Wang section 2.3),
    /// moving only on strict improvement, so it always terminates. Pass the previous answer as
    /// `start` to exploit coherence. An out-of-range `start` is replaced by vertex 0.
    #[inline]
    pub fn support_hill_climb(&self, dir: &Vector, start: u32) -> SupportResult {
        self.support_hill_climb_f64(&widen(dir), start)
    }

    /// As [`ConvexPolytope::support_hill_climb`] for an `f64` direction, used unrounded: every
    /// comparison is between `f64` dot products of the exactly widened vertices with `dir`, so the
    /// answer is extreme for `dir` itself up to the rounding of those dot products (about
    /// `2^-51 * |dir| * radius`), not merely for its nearest `f32` direction.
    #[inline]
    pub fn support_hill_climb_f64(&self, dir: &VectorD, start: u32) -> SupportResult {
        let start = if (start as usize) < self.vertices.len() {
            start
        } else {
            0
        };
        hill_climb(&self.vertices, &self.adjacency, dir, start)
    }

    /// As [`ConvexPolytope::support_hill_climb_f64`], started from the better in `dir` of `hint`
    /// (ignored when out of range) and the direction table's entry for `dir` (looked up in `f64`,
    /// [`DirectionTable::start_vertex_f64`]); the visits count both candidates and the start once
    /// more.
    #[inline]
    pub fn support_hill_climb_f64_warm(&self, dir: &VectorD, hint: u32) -> SupportResult {
        let table = self.table.start_vertex_f64(dir);
        let table_dot = super::dot(&self.vertices[table as usize], dir);
        let hint_dot = self.vertices.get(hint as usize).map(|p| super::dot(p, dir));
        let (start, start_dot) = match hint_dot {
            Some(d) if d >= table_dot => (hint, d),
            _ => (table, table_dot),
        };
        let r = hill_climb_from(&self.vertices, &self.adjacency, dir, start, start_dot);
        SupportResult {
            vertex: r.vertex,
            visits: r.visits + 2,
        }
    }

    /// Supporting vertex by hill climbing from the direction table's entry for `dir`.
    #[inline]
    pub fn support_from_table(&self, dir: &Vector) -> u32 {
        self.support_from_table_counted(dir).vertex
    }

    /// As [`ConvexPolytope::support_from_table`], also counting vertex evaluations.
    #[inline]
    pub fn support_from_table_counted(&self, dir: &Vector) -> SupportResult {
        hill_climb(
            &self.vertices,
            &self.adjacency,
            &widen(dir),
            self.table.start_vertex(dir),
        )
    }

    /// Supporting vertex through the DK hierarchy, or by brute force when the polytope is too
    /// small to have one.
    #[inline]
    pub fn support_dk(&self, dir: &Vector) -> u32 {
        self.support_dk_counted(dir).vertex
    }

    /// As [`ConvexPolytope::support_dk`], also counting vertex evaluations (`n` for brute force).
    #[inline]
    pub fn support_dk_counted(&self, dir: &Vector) -> SupportResult {
        match &self.dk {
            Some(dk) => dk.support_counted(dir),
            None => SupportResult {
                vertex: self.support_brute_force(dir),
                visits: self.vertices.len() as u32,
            },
        }
    }

    /// Checks the invariants: adjacency of matching size, in range and connected; source map
    /// ascending and the same length as the vertices; every table entry equal to the brute-force
    /// supporting vertex of its bin centre; the DK hierarchy (if any) valid with level 0 equal to
    /// this polytope.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.vertices.len();
        if n == 0 || self.adjacency.vertex_count() != n || self.source_vertices.len() != n {
            return Err(format!(
                "{n} vertices, adjacency of {}, {} source indices",
                self.adjacency.vertex_count(),
                self.source_vertices.len()
            ));
        }
        if self.source_vertices.windows(2).any(|w| w[0] >= w[1]) {
            return Err("source vertex map is not ascending".into());
        }
        for v in 0..n as u32 {
            for &w in self.adjacency.neighbours(v) {
                if w as usize >= n || w == v {
                    return Err(format!("edge {v}->{w} out of range or a loop"));
                }
            }
        }
        if let Some(v) = first_unreachable(&self.adjacency) {
            return Err(format!("vertex {v} is not connected to vertex 0"));
        }
        for (bin, &entry) in self.table.entries().iter().enumerate() {
            let expected = self.support_brute_force(&DirectionTable::bin_direction(bin));
            if entry != expected {
                return Err(format!(
                    "table bin {bin} holds {entry}, expected {expected}"
                ));
            }
        }
        if let Some(dk) = &self.dk {
            dk.validate()?;
            if dk.level_vertex_count(0) != Some(n) {
                return Err("DK level 0 is not this polytope".into());
            }
        }
        Ok(())
    }
}

/// The first vertex not reachable from vertex 0 along edges, if any.
fn first_unreachable(adjacency: &VertexAdjacency) -> Option<usize> {
    let n = adjacency.vertex_count();
    if n == 0 {
        return None;
    }
    let mut seen = vec![false; n];
    let mut stack = vec![0u32];
    seen[0] = true;
    while let Some(v) = stack.pop() {
        for &w in adjacency.neighbours(v) {
            if !seen[w as usize] {
                seen[w as usize] = true;
                stack.push(w);
            }
        }
    }
    seen.iter().position(|&s| !s)
}

#[cfg(test)]
mod tests {
    //! Polytopes hulled from random points (irregular triangulations, varied degrees): every
    //! query against brute force, and the cost of coherent queries.
    use super::*;
    use crate::hull::convex_hull;

    use colldet_testkit::SplitMix64 as SplitMix;

    /// A random unit vector (rejection sampling in the cube, norms in `[1e-3, 1]`).
    trait UnitDraw {
        fn unit(&mut self) -> VectorD;
    }

    impl UnitDraw for SplitMix {
        fn unit(&mut self) -> VectorD {
            loop {
                let v = VectorD::new(
                    self.next_f64() * 2.0 - 1.0,
                    self.next_f64() * 2.0 - 1.0,
                    self.next_f64() * 2.0 - 1.0,
                );
                if (1e-3..=1.0).contains(&v.norm()) {
                    return v.normalize();
                }
            }
        }
    }

    /// The hull of `n` random points on the ellipsoid with semi-axes `radii`, as a polytope.
    fn random_hull(rng: &mut SplitMix, n: usize, radii: [f64; 3]) -> ConvexPolytope {
        let points: Vec<Point> = (0..n)
            .map(|_| {
                let u = rng.unit();
                Point::new(
                    (u.x * radii[0]) as Real,
                    (u.y * radii[1]) as Real,
                    (u.z * radii[2]) as Real,
                )
            })
            .collect();
        let mesh = convex_hull(&points).expect("random points span 3D").mesh;
        let polytope = ConvexPolytope::from_convex_mesh(&mesh).expect("hull mesh is valid");
        polytope.validate().expect("invariants");
        polytope
    }

    fn to_vector(d: &VectorD) -> Vector {
        Vector::new(d.x as Real, d.y as Real, d.z as Real)
    }

    fn max_dot(points: &[Point], d: &Vector) -> f64 {
        let d = widen(d);
        points
            .iter()
            .map(|p| super::super::dot(p, &d))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    #[test]
    fn random_hulls_match_brute_force() {
        let mut rng = SplitMix(0xdead_beef);
        let shapes = [
            [1.0, 0.7, 0.4],
            [1.0, 1.0, 1e-3],
            [1.0, 0.9, 1e-6],
            [0.01, 0.01, 1.0],
        ];
        let mut checks = 0;
        for radii in shapes {
            for (n, queries) in [(12, 2000), (100, 2000), (1000, 2000), (10_000, 500)] {
                let polytope = random_hull(&mut rng, n, radii);
                let points = polytope.vertices();
                let mut dirs: Vec<Vector> = (0..queries).map(|_| to_vector(&rng.unit())).collect();
                dirs.extend([Vector::x(), -Vector::x(), Vector::y(), -Vector::y()]);
                dirs.extend([Vector::z(), -Vector::z(), Vector::new(1.0, 1.0, 1.0)]);
                let mut previous = 0;
                for d in &dirs {
                    let best = max_dot(points, d);
                    let tol = polytope.support_tolerance(d);
                    let warm = polytope.support_hill_climb(d, previous).vertex;
                    previous = warm;
                    for v in [
                        polytope.support_brute_force(d),
                        polytope.support_hill_climb(d, 0).vertex,
                        warm,
                        polytope.support_from_table(d),
                        polytope.support_dk(d),
                    ] {
                        let got = super::super::dot(&points[v as usize], &widen(d));
                        assert!(got >= best - tol, "n {n} radii {radii:?} dir {d:?}");
                        checks += 1;
                    }
                }
            }
        }
        assert!(checks > 100_000);
    }

    /// `f64` dot product of vertex `v` with `d`, as every query evaluates it.
    fn dot_f64(points: &[Point], v: u32, d: &VectorD) -> f64 {
        super::super::dot(&points[v as usize], d)
    }

    #[test]
    fn f64_queries_return_a_true_f64_extreme_vertex() {
        let mut rng = SplitMix(0x05ee_df64);
        let mut checks = 0;
        for radii in [[1.0, 0.7, 0.4], [1.0, 1.0, 1e-3], [3e4, 2e4, 1e4]] {
            for (n, queries) in [(8, 3000), (60, 3000), (500, 2000), (3000, 500)] {
                let polytope = random_hull(&mut rng, n, radii);
                let points = polytope.vertices();
                let count = polytope.vertex_count() as u32;
                let mut previous = 0;
                for q in 0..queries {
                    // Unit directions (not f32-representable) and, every 7th, a long one.
                    let d = rng.unit() * if q % 7 == 0 { 1e5 } else { 1.0 };
                    let brute = polytope.support_brute_force_f64(&d);
                    let best = dot_f64(points, brute, &d);
                    assert!(points.iter().all(|p| super::super::dot(p, &d) <= best));
                    // Hill climbing ranks by the same rounded dot products, so its local maximum
                    // is the global one up to that rounding: a few ulps of |d| * radius.
                    let slack = 8.0 * f64::EPSILON * d.norm() * f64::from(polytope.radius());
                    let start = (rng.next_f64() * f64::from(count)) as u32;
                    let warm = polytope.support_hill_climb_f64(&d, previous).vertex;
                    previous = warm;
                    for v in [
                        polytope.support_hill_climb_f64(&d, 0).vertex,
                        polytope.support_hill_climb_f64(&d, start).vertex,
                        warm,
                    ] {
                        let got = dot_f64(points, v, &d);
                        assert!(got >= best - slack, "n {n} radii {radii:?} dir {d:?}");
                        checks += 1;
                    }
                }
            }
        }
        assert!(checks > 50_000);
    }

    #[test]
    fn f64_queries_see_a_near_tie_that_the_f32_direction_flips() {
        // Octahedron; a = +x and b = +y tie for d = (c, c, 0.5) and differ by d.x - d.y for nearby
        // directions. Rounding d to f32 moves d.x and d.y by up to 3e-8 each, so a difference of
        // 1e-9 often flips or ties in f32, while f64 resolves it.
        let points: Vec<Point> = [[1., 0., 0.], [0., 1., 0.], [-1., 0., 0.], [0., -1., 0.]]
            .into_iter()
            .chain([[0., 0., 1.], [0., 0., -1.]])
            .map(|[x, y, z]| Point::new(x, y, z))
            .collect();
        let polytope = ConvexPolytope::from_points(&points).expect("spans 3D");
        let index = |i: usize| {
            let p = points[i];
            polytope.vertices().iter().position(|&v| v == p).unwrap() as u32
        };
        let (ia, ib) = (index(0), index(1));
        let mut flipped = 0;
        for k in 0..200 {
            let c = 0.6 + 1e-4 * f64::from(k);
            let delta = if k % 2 == 0 { 1e-9 } else { -1e-9 };
            let d = VectorD::new(c + delta, c, 0.5).normalize();
            let expected = if d.x > d.y { ia } else { ib };
            assert_eq!(polytope.support_brute_force_f64(&d), expected);
            for start in 0..polytope.vertex_count() as u32 {
                assert_eq!(polytope.support_hill_climb_f64(&d, start).vertex, expected);
            }
            let d32 = to_vector(&d);
            if (d32.x > d32.y) != (d.x > d.y) || d32.x == d32.y {
                flipped += 1;
            }
        }
        assert!(
            flipped > 20,
            "only {flipped} directions whose f32 rounding loses the order"
        );
    }

    #[test]
    fn coherent_queries_on_a_1000_point_hull_are_cheap() {
        let mut rng = SplitMix(0xc0ffee);
        let polytope = random_hull(&mut rng, 1000, [1.0, 0.8, 0.6]);
        let mut d = rng.unit();
        let mut previous = polytope.support_from_table(&to_vector(&d));
        let steps = 4000;
        let mut warm = 0u64;
        for _ in 0..steps {
            // Rotate by 10 degrees about a random axis perpendicular to d.
            let axis = rng.unit().cross(&d).normalize();
            let angle = 10f64.to_radians();
            d = d * angle.cos() + axis.cross(&d) * angle.sin();
            let r = polytope.support_hill_climb(&to_vector(&d), previous);
            warm += u64::from(r.visits);
            previous = r.vertex;
        }
        let warm = warm as f64 / steps as f64;
        assert!(warm < 40.0, "mean warm visits {warm}");
        let dk = polytope.dk_hierarchy().expect("1000 > 64 vertices");
        assert!(dk.level_count() < 30);
    }
}
