//! The exact oracle: do two placed triangle meshes collide, decided exactly for the numbers
//! given.
//!
//! Input: each mesh as `f64` vertices and triangles, placed by an `f64` rotation matrix `R` and
//! translation `t` (world point `R v + t`). `R` is taken as given, rotation or not: the answer
//! is about the points `R v + t` evaluated without rounding. Semantics (solid, as the library's
//! mesh tests):
//! - the objects collide when two closed triangles, one of each, share a point (touching counts;
//!   coplanar and degenerate triangles are decided exactly), or
//! - when one object is closed (every edge used by an even number, at least two, of its
//!   triangles) and contains a vertex of some connected component of the other, by exact ray
//!   parity.
//!
//! All decisions are signs of integer polynomials in the exact coordinates (dyadic rationals
//! over one common power-of-two denominator, module `exact_points`); `f64` only filters, with boxes
//! widened by far more than its rounding. Slow by design: for tests.

mod containment;
mod exact_points;
mod predicates;
mod surface;

#[cfg(test)]
mod tests;

pub use containment::{component_seeds, is_closed};
pub use surface::BOX_MARGIN;

use exact_points::{WorldVertices, common_scale};

/// A triangle mesh as the oracle takes it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OracleMesh {
    /// Vertex positions in the mesh's local frame.
    pub vertices: Vec<[f64; 3]>,
    /// Triangles as vertex indices (any orientation; degenerate triangles allowed).
    pub triangles: Vec<[u32; 3]>,
}

/// A placement: world point `rotation * v + translation`, `rotation[row][column]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OraclePose {
    /// The 3x3 matrix, row-major, taken exactly as given.
    pub rotation: [[f64; 3]; 3],
    /// The translation.
    pub translation: [f64; 3],
}

impl OraclePose {
    /// The identity placement.
    pub const IDENTITY: Self = Self {
        rotation: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        translation: [0.0; 3],
    };

    /// A translation only.
    pub fn translation(t: [f64; 3]) -> Self {
        Self {
            translation: t,
            ..Self::IDENTITY
        }
    }

    /// From a nalgebra matrix and vector (as the library's pose matrices hold them).
    pub fn from_matrix(
        rotation: &nalgebra::Matrix3<f64>,
        translation: &nalgebra::Vector3<f64>,
    ) -> Self {
        Self {
            rotation: std::array::from_fn(|i| std::array::from_fn(|j| rotation[(i, j)])),
            translation: [translation.x, translation.y, translation.z],
        }
    }
}

/// The oracle's answer, with the evidence found first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No shared point.
    Separated,
    /// Triangle `triangle_a` of mesh a and triangle `triangle_b` of mesh b share a point.
    SurfaceContact {
        /// Index into a's triangles.
        triangle_a: usize,
        /// Index into b's triangles.
        triangle_b: usize,
    },
    /// Closed mesh a contains vertex `vertex_b` of mesh b (and with it its component).
    BInsideA {
        /// Index into b's vertices.
        vertex_b: usize,
    },
    /// Closed mesh b contains vertex `vertex_a` of mesh a.
    AInsideB {
        /// Index into a's vertices.
        vertex_a: usize,
    },
}

impl Verdict {
    /// Whether the objects collide.
    pub fn collides(&self) -> bool {
        !matches!(self, Verdict::Separated)
    }
}

/// Whether mesh `a` placed by `pose_a` and mesh `b` placed by `pose_b` collide, exactly (see the
/// module docs).
///
/// # Panics
/// For a NaN or infinite number, or a triangle index out of range.
pub fn exact_collide(
    a: &OracleMesh,
    pose_a: &OraclePose,
    b: &OracleMesh,
    pose_b: &OraclePose,
) -> Verdict {
    for m in [a, b] {
        let n = m.vertices.len();
        assert!(
            m.triangles.iter().flatten().all(|&i| (i as usize) < n),
            "a triangle index is out of range"
        );
    }
    let scale = common_scale([(a, pose_a), (b, pose_b)]);
    let va = WorldVertices::new(a, pose_a, scale);
    let vb = WorldVertices::new(b, pose_b, scale);
    if let Some((triangle_a, triangle_b)) =
        surface::first_contact(&va, &a.triangles, &vb, &b.triangles)
    {
        return Verdict::SurfaceContact {
            triangle_a,
            triangle_b,
        };
    }
    let margin = surface::margin(&va, &vb);
    if let Some(vertex_b) = inside(&va, &a.triangles, &vb, &b.triangles, scale, margin) {
        return Verdict::BInsideA { vertex_b };
    }
    if let Some(vertex_a) = inside(&vb, &b.triangles, &va, &a.triangles, scale, margin) {
        return Verdict::AInsideB { vertex_a };
    }
    Verdict::Separated
}

/// The first component seed of `inner` that the closed `container` contains, if the container
/// is closed.
fn inside(
    container: &WorldVertices,
    container_triangles: &[[u32; 3]],
    inner: &WorldVertices,
    inner_triangles: &[[u32; 3]],
    scale: i64,
    margin: f64,
) -> Option<usize> {
    if !is_closed(container_triangles) {
        return None;
    }
    let boxes = surface::triangle_boxes(container, container_triangles, margin);
    component_seeds(inner_triangles, inner.exact.len())
        .into_iter()
        .find(|&s| {
            containment::contains(
                container,
                container_triangles,
                &boxes,
                &inner.exact[s],
                &inner.approx[s],
                scale,
                margin,
            )
        })
}
