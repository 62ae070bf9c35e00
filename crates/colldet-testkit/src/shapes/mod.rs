//! Deterministic shape generators for tests, benchmarks and the demo.
//!
//! - Chung-Wang point sets ([`ellipsoid_points`], [`rod_points`], [`plate_points`]): random points
//!   on the surfaces of strictly convex bodies, as in the experiments of Chung and Wang's separating
//!   vector paper; their convex hulls are the test polytopes.
//! - Zachmann's test objects ([`sphere`], [`torus`], [`cylinder`], [`cone`], [`hyperboloid`],
//!   [`tetra_flake`], [`cube_array`], [`cuboid`]): closed polygon meshes with a resolution
//!   parameter.
//!
//! - [`triangle_soup`]: any mesh with every triangle corner its own vertex (STL layout).
//!
//! Random shapes draw from [`SeededRng`], whose stream is fixed forever, so stored seeds keep
//! reproducing the same shapes.
//!
//! Conventions shared by every generator:
//! - Parameters are `f64` and the result is computed in `f64` and rounded once to [`Real`].
//!   Lengths are in the caller's units; nothing is scale dependent, so a 1e-12-sized shape works
//!   as long as every length and coordinate is a normal `f32` (about 1.2e-38 to 3.4e38).
//! - Shapes are centred at the origin (the centre of their bounding box) with their axis of
//!   symmetry, where there is one, along `z` (along `x` for the rod).
//! - Meshes are closed, every face is counter-clockwise seen from outside (outward normals), every
//!   edge is used by exactly two faces in opposite directions, and faces are planar up to the
//!   final rounding to `f32`.
//! - Bad parameters (non-finite, non-positive, too few segments, more than `u32::MAX` vertices)
//!   give [`GeomError::InvalidShapeParameter`]; generators never panic on input.
//!
//! [`Real`]: colldet_geom::math::Real
//! [`SeededRng`]: crate::SeededRng

mod chung_wang;
mod cuboid;
mod revolution;
mod soup;
mod tetra_flake;

#[cfg(test)]
mod mesh_check;

pub use chung_wang::{
    ChungWangShape, chung_wang_hull_off_centre, chung_wang_points, chung_wang_polytope,
    ellipsoid_points, plate_points, rod_points, varied_hull_pair,
};
pub use cuboid::{cube_array, cuboid};
pub use revolution::{cone, cylinder, hyperboloid, sphere, torus};
pub use soup::triangle_soup;
pub use tetra_flake::tetra_flake;

use colldet_geom::GeomError;
use colldet_geom::math::{Point, is_finite_point};
use colldet_geom::mesh_data::{FaceList, MeshData};

/// Checks that a length is finite, positive and a normal `f32` (so it survives the rounding of
/// the output coordinates), and returns it.
fn positive_length(parameter: &'static str, value: f64) -> Result<f64, GeomError> {
    let single = value as f32;
    if value.is_finite() && value > 0.0 && single.is_normal() {
        Ok(value)
    } else {
        Err(GeomError::InvalidShapeParameter {
            parameter,
            value,
            requirement: "must be finite, positive and within the normal f32 range",
        })
    }
}

/// Checks that a resolution count is at least `min`.
fn count_at_least(
    parameter: &'static str,
    value: usize,
    min: usize,
    requirement: &'static str,
) -> Result<usize, GeomError> {
    if value >= min {
        Ok(value)
    } else {
        Err(GeomError::InvalidShapeParameter {
            parameter,
            value: value as f64,
            requirement,
        })
    }
}

/// Checks that a vertex count (`None` when it overflowed `usize`) fits the `u32` face indices.
fn vertex_budget(parameter: &'static str, count: Option<usize>) -> Result<usize, GeomError> {
    match count {
        Some(n) if n <= u32::MAX as usize => Ok(n),
        _ => Err(GeomError::InvalidShapeParameter {
            parameter,
            value: count.map_or(f64::INFINITY, |n| n as f64),
            requirement: "the resulting vertex count must fit in u32",
        }),
    }
}

/// Rounds an `f64` position to a local point.
#[inline]
fn point(x: f64, y: f64, z: f64) -> Point {
    Point::new(x as f32, y as f32, z as f32)
}

/// Wraps the generated data, rejecting coordinates that overflowed `f32` (huge parameters whose
/// sums leave the range even though each parameter is in range).
fn finish(
    parameter: &'static str,
    value: f64,
    vertices: Vec<Point>,
    faces: FaceList,
) -> Result<MeshData, GeomError> {
    if vertices.iter().all(is_finite_point) {
        Ok(MeshData::new(vertices, faces))
    } else {
        Err(GeomError::InvalidShapeParameter {
            parameter,
            value,
            requirement: "the shape's coordinates must stay within the f32 range",
        })
    }
}
