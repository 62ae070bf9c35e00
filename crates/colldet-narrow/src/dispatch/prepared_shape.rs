//! [`PreparedShape`]: the collision geometry of one object, prepared once when it is made
//! collidable: the classified polyhedron, its convex polytope (the object when it is convex, its
//! hull otherwise) with its box description when it is a rectangular box, its local bounding
//! box, and the mesh trees, built on the first test that needs them.
//!
//! Rationale: a flat mesh (a triangle, a floor quad, a planar soup, two faces back to back:
//! every vertex its faces use lies in one plane, decided with exact orientation predicates) has
//! no convex hull with volume. It is a surface like any open mesh, so it is prepared without a
//! hull: [`ShapeTraits::flat`] keeps every convex test off its pairs ([`super::PairKind::of`]),
//! and its world box comes from its vertices ([`PreparedShape::flat_vertices`]) instead of the
//! hull's support mapping.

use std::sync::OnceLock;

use colldet_geom::dcel::VertexId;
use colldet_geom::math::{Point, Real};
use colldet_geom::predicates::{collinear, side_of_plane};
use colldet_geom::{Aabb, BuildOptions, ConvexPolytope, GeomError, MeshData, Polyhedron};

use crate::mesh::box_tree::{BoxTreeMesh, BoxTreeOptions};
use crate::mesh::bvh::{BvhBuildOptions, ObbRss, ObbRssBvh};
use crate::mesh::{ComponentSeeds, SolidMesh};
use crate::{BoxHull, NarrowError};

/// What the pair-kind table ([`super::PairKind::of`]) reads of a shape: three bytes, so a caller
/// can keep them per object and choose a pair's test without reading the shapes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShapeTraits {
    /// The object itself is convex ([`PreparedShape::is_convex`]).
    pub convex: bool,
    /// Its hull is a rectangular box ([`PreparedShape::box_hull`]).
    pub box_hull: bool,
    /// It has no hull ([`PreparedShape::is_flat`]): only the mesh tests apply to its pairs.
    pub flat: bool,
}

/// Shared, immutable geometry of an object (local frame, the mesh's own units).
pub struct PreparedShape {
    polyhedron: Polyhedron,
    /// `None` for a flat shape.
    hull: Option<ConvexPolytope>,
    box_hull: Option<BoxHull>,
    /// The vertices faces use when there is no hull (empty otherwise).
    flat_vertices: Box<[Point]>,
    radius: Real,
    local_aabb: Aabb,
    seeds: ComponentSeeds,
    bvh: OnceLock<ObbRssBvh>,
    box_tree: OnceLock<BoxTreeMesh>,
}

/// The vertices some face uses.
fn used_vertices(p: &Polyhedron) -> impl Iterator<Item = Point> + '_ {
    (0..p.dcel().vertex_count() as u32)
        .filter(|&v| p.dcel().vertex_half_edges(VertexId(v)).len() > 0)
        .map(|v| p.vertices()[v as usize])
}

/// True when every point lies in one plane, decided exactly (`f32` coordinates, exact
/// orientation predicates); also for fewer than three points or points on one line.
fn coplanar(points: &[Point]) -> bool {
    let Some((a, rest)) = points.split_first() else {
        return true;
    };
    let Some(b) = rest.iter().find(|p| *p != a) else {
        return true;
    };
    let Some(c) = rest.iter().find(|p| !collinear(a, b, p)) else {
        return true;
    };
    points.iter().all(|d| side_of_plane(a, b, c, d) == 0)
}

impl PreparedShape {
    /// Builds and classifies `mesh` and prepares its convex polytope (or hull). A mesh whose
    /// used vertices are coplanar has no hull and is prepared flat ([`PreparedShape::is_flat`]).
    ///
    /// # Errors
    /// The [`GeomError`] of the polyhedron build: among others
    /// [`GeomError::AllFacesDegenerate`] for a mesh without a face of non-zero area (nothing to
    /// collide).
    pub fn build(mesh: MeshData) -> Result<Self, GeomError> {
        Self::build_with(mesh, &BuildOptions::default())
    }

    /// As [`PreparedShape::build`], with explicit build options (for instance without welding).
    ///
    /// # Errors
    /// As [`PreparedShape::build`].
    pub fn build_with(mesh: MeshData, options: &BuildOptions) -> Result<Self, GeomError> {
        let polyhedron = Polyhedron::build(mesh, options)?;
        let used: Vec<_> = used_vertices(&polyhedron).collect();
        // A face has area, so the used vertices span a plane at least: without volume they
        // are a flat surface. (A closed flat mesh, two faces back to back, is classified convex.)
        let hull = if coplanar(&used) {
            None
        } else if polyhedron.classification().convex {
            Some(ConvexPolytope::from_polyhedron(&polyhedron)?)
        } else {
            Some(
                ConvexPolytope::from_points(&used)?
                    .with_vertex_rounding(polyhedron.vertex_rounding()),
            )
        };
        let local_aabb = Aabb::from_points(&used)?;
        let seeds = ComponentSeeds::new(&polyhedron);
        let box_hull = hull.as_ref().and_then(BoxHull::recognise);
        let radius = match &hull {
            Some(hull) => hull.radius(),
            None => used.iter().map(|p| p.coords.norm()).fold(0.0, Real::max),
        };
        let flat_vertices = if hull.is_some() {
            Box::default()
        } else {
            used.into_boxed_slice()
        };
        Ok(Self {
            polyhedron,
            hull,
            box_hull,
            flat_vertices,
            radius,
            local_aabb,
            seeds,
            bvh: OnceLock::new(),
            box_tree: OnceLock::new(),
        })
    }

    /// The classified polyhedron.
    pub fn polyhedron(&self) -> &Polyhedron {
        &self.polyhedron
    }

    /// One vertex per connected component and the box of the used vertices.
    pub fn seeds(&self) -> &ComponentSeeds {
        &self.seeds
    }

    /// The polytope convex tests run on and world boxes come from: the object when it is
    /// convex, otherwise its convex hull (which has the mesh's extreme points); `None` for a
    /// flat shape.
    pub fn hull(&self) -> Option<&ConvexPolytope> {
        self.hull.as_ref()
    }

    /// True when the shape has no hull: every vertex its faces use lies in one plane (a
    /// triangle, a quad, a planar soup). It collides as a surface, through the mesh tests.
    pub fn is_flat(&self) -> bool {
        self.hull.is_none()
    }

    /// The vertices faces use, local frame, for a flat shape (empty when the shape has a hull):
    /// the points its world box is fitted to.
    pub fn flat_vertices(&self) -> &[Point] {
        &self.flat_vertices
    }

    /// Largest distance of a used vertex from the local origin (the hull's radius when there is
    /// a hull): the scale of world-box margins and of swept boxes.
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The hull recognised as a rectangular box (the exact box-box test runs on it), if it is one.
    pub fn box_hull(&self) -> Option<&BoxHull> {
        self.box_hull.as_ref()
    }

    /// Bounding box of the vertices faces use, local frame.
    pub fn local_aabb(&self) -> &Aabb {
        &self.local_aabb
    }

    /// True when the object itself is convex (a solid with volume: never a flat shape).
    pub fn is_convex(&self) -> bool {
        self.polyhedron.classification().convex && self.hull.is_some()
    }

    /// How far the `f32` copy of a vertex (which the hull, the local box and the trees are
    /// fitted to) may be from the vertex as given ([`Polyhedron::vertex_rounding`]); 0 for
    /// `f32` input. World boxes are widened by it.
    pub fn vertex_rounding(&self) -> f64 {
        self.polyhedron.vertex_rounding()
    }

    /// True when the mesh was given in `f64` and some coordinate is not an `f32` number: the
    /// convex tests then decide about the `f32` hull with a band widened by the rounding, and
    /// the pair test settles what falls inside that band with the exact mesh test.
    pub fn has_precise_vertices(&self) -> bool {
        self.polyhedron.precise_vertices().is_some()
    }

    /// What the pair-kind table reads of the shape. The box-box test is exact on the `f32`
    /// corners only, so a box given in non-`f32` doubles takes the separating-vector test.
    pub fn traits(&self) -> ShapeTraits {
        ShapeTraits {
            convex: self.is_convex(),
            box_hull: self.box_hull.is_some() && !self.has_precise_vertices(),
            flat: self.is_flat(),
        }
    }

    /// The OBBRSS tree of the polyhedron's faces (its source faces are the polyhedron's face
    /// ids), built on first use: each node's OBB serves the collision, containment and ray
    /// tests, its RSS the distance and tolerance queries (the faster volume for each, measured
    /// by colldet-narrow's `mesh_volumes` bench).
    ///
    /// # Errors
    /// The tree build's [`NarrowError`].
    pub fn bvh(&self) -> Result<&ObbRssBvh, NarrowError> {
        if let Some(bvh) = self.bvh.get() {
            return Ok(bvh);
        }
        let faces = self.polyhedron.dcel().faces().clone();
        let mesh = match self.polyhedron.precise_vertices() {
            Some(given) => MeshData::from_f64(given.to_vec(), faces),
            None => MeshData::new(self.polyhedron.vertices().to_vec(), faces),
        };
        let built = ObbRssBvh::build(&mesh, &BvhBuildOptions::default())?;
        Ok(self.bvh.get_or_init(|| built))
    }

    /// The object as the tree-accelerated containment test sees it (builds the tree if needed).
    ///
    /// # Errors
    /// As [`PreparedShape::bvh`].
    pub fn solid(&self) -> Result<SolidMesh<'_, ObbRss>, NarrowError> {
        SolidMesh::new(&self.polyhedron, self.bvh()?, &self.seeds)
    }

    /// The box-trees of the polyhedron, built on first use.
    ///
    /// # Errors
    /// The box-tree build's [`NarrowError`].
    pub fn box_tree(&self) -> Result<&BoxTreeMesh, NarrowError> {
        if let Some(tree) = self.box_tree.get() {
            return Ok(tree);
        }
        let built = BoxTreeMesh::new(self.polyhedron.clone(), &BoxTreeOptions::default())?;
        Ok(self.box_tree.get_or_init(|| built))
    }
}
