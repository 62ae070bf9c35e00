//! The collision geometry of one object, prepared once when it is made collidable: the
//! classified polyhedron, its convex polytope (for convex objects, or the hull when a convex
//! method is forced), and its local bounding box.

use colldet_geom::{Aabb, ConvexPolytope, GeomError, MeshData, Polyhedron};

/// Shared, immutable geometry of an object.
pub(crate) struct CollisionShape {
    pub polyhedron: Polyhedron,
    /// The convex polytope the convex tests use: the object itself when it is convex, otherwise
    /// its convex hull (built only when the configured method can need it).
    pub convex: Option<ConvexPolytope>,
    /// Bounding box of the vertices faces use, local frame.
    pub local_aabb: Aabb,
}

impl CollisionShape {
    /// Builds and classifies `mesh`; `need_hull` asks for the convex hull of non-convex objects.
    pub fn build(mesh: MeshData, need_hull: bool) -> Result<Self, GeomError> {
        let polyhedron = Polyhedron::build(mesh, &Default::default())?;
        let convex = if polyhedron.classification().convex {
            Some(ConvexPolytope::from_polyhedron(&polyhedron)?)
        } else if need_hull {
            Some(ConvexPolytope::from_points(polyhedron.vertices())?)
        } else {
            None
        };
        let used: Vec<_> = (0..polyhedron.dcel().vertex_count() as u32)
            .filter(|&v| {
                polyhedron
                    .dcel()
                    .vertex_half_edges(colldet_geom::dcel::VertexId(v))
                    .len()
                    > 0
            })
            .map(|v| polyhedron.vertices()[v as usize])
            .collect();
        let local_aabb = Aabb::from_points(&used)?;
        Ok(Self {
            polyhedron,
            convex,
            local_aabb,
        })
    }

    /// True when the object itself is convex.
    pub fn is_convex(&self) -> bool {
        self.polyhedron.classification().convex
    }

    /// The polytope convex tests run on: the object, or its hull when a convex method is forced.
    pub fn convex_or_hull(&self) -> Result<&ConvexPolytope, colldet_narrow::NarrowError> {
        self.convex
            .as_ref()
            .ok_or(colldet_narrow::NarrowError::InvalidOption {
                name: "method",
                value: 0.0,
                requirement: "needs convex objects or a convex method forced at creation",
            })
    }
}
