//! The near-contact suite's shapes: the testkit's closed shapes, fanned into triangles and
//! scaled to thousands of units with coordinates that are not `f32` numbers.

use colldet_geom::MeshData;

use crate::exact_oracle::OracleMesh;
use crate::shapes::{cone, cuboid, cylinder, sphere, tetra_flake, torus};

/// The scale applied to the unit-size shapes (not a round number, so the `f64` coordinates are
/// not `f32` numbers).
pub const SCALE: f64 = 1234.5678901;

/// The offset added after scaling (local origins away from the shapes' centres).
pub const OFFSET: [f64; 3] = [12.345678901234, -98.76543210987, 31.415926535897];

/// Which testkit shape a case uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeKind {
    /// `sphere(1, 16, 8)`.
    Sphere,
    /// `torus(1, 0.4, 24, 12)`.
    Torus,
    /// `cylinder(0.8, 2, 16)`.
    Cylinder,
    /// `cone(1, 2, 16)`.
    Cone,
    /// `cuboid(1, 0.6, 0.8)`.
    Cuboid,
    /// `tetra_flake(2, 1)`: 16 tetrahedra touching at corners.
    TetraFlake,
}

impl ShapeKind {
    /// Every shape, in a fixed order.
    pub const ALL: [ShapeKind; 6] = [
        ShapeKind::Sphere,
        ShapeKind::Torus,
        ShapeKind::Cylinder,
        ShapeKind::Cone,
        ShapeKind::Cuboid,
        ShapeKind::TetraFlake,
    ];

    /// Whether the library classifies the shape as convex (its pairs with other convex shapes
    /// take the convex tests under `Method::Auto`).
    pub fn is_convex(self) -> bool {
        !matches!(self, ShapeKind::Torus | ShapeKind::TetraFlake)
    }

    /// The unit-size testkit mesh.
    fn base(self) -> MeshData {
        let mesh = match self {
            ShapeKind::Sphere => sphere(1.0, 16, 8),
            ShapeKind::Torus => torus(1.0, 0.4, 24, 12),
            ShapeKind::Cylinder => cylinder(0.8, 2.0, 16),
            ShapeKind::Cone => cone(1.0, 2.0, 16),
            ShapeKind::Cuboid => cuboid(colldet_geom::math::VectorD::new(1.0, 0.6, 0.8)),
            ShapeKind::TetraFlake => tetra_flake(2, 1.0),
        };
        mesh.expect("valid shape parameters")
    }
}

/// Every face of `mesh` fanned from its first corner (the testkit's faces are planar and
/// convex).
pub fn fan_triangles(mesh: &MeshData) -> Vec<[u32; 3]> {
    mesh.faces
        .iter()
        .flat_map(|f| (1..f.len() - 1).map(move |k| [f[0], f[k], f[k + 1]]))
        .collect()
}

/// The shape's triangle mesh at the suite's scale: `v * SCALE + OFFSET` in `f64` from the
/// testkit's `f32` vertices, rounded to `f32` (and widened back) when `f32_input`.
pub fn scaled_shape(kind: ShapeKind, f32_input: bool) -> OracleMesh {
    let base = kind.base();
    let triangles = fan_triangles(&base);
    let vertices = base
        .vertices
        .iter()
        .map(|v| {
            let p: [f64; 3] = std::array::from_fn(|k| f64::from(v[k]) * SCALE + OFFSET[k]);
            if f32_input {
                p.map(|c| f64::from(c as f32))
            } else {
                p
            }
        })
        .collect();
    OracleMesh {
        vertices,
        triangles,
    }
}
