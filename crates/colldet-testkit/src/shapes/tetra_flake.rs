//! The tetra-flake (Sierpinski tetrahedron), Zachmann's "very non-convex" test object.
//!
//! Representation choice: each of the `4^level` small tetrahedra gets its own 4 vertices, so the
//! mesh is a set of closed, outward-oriented 2-manifold components (one per tetrahedron) whose
//! combinatorics share nothing. Geometrically, neighbouring tetrahedra touch at single points
//! (coincident vertices with distinct indices); their interiors are disjoint. A consumer that
//! welds coincident vertices turns those points into non-manifold vertices (every edge still has
//! exactly two faces); without welding every component is an ordinary tetrahedron.

use super::{finish, point, positive_length, vertex_budget};
use colldet_geom::GeomError;
use colldet_geom::math::PointD;
use colldet_geom::mesh_data::{FaceList, MeshData};

/// Outward faces of a tetrahedron `v0..v3` with `det(v1 - v0, v2 - v0, v3 - v0) > 0`.
const TETRA_FACES: [[u32; 3]; 4] = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];

/// The level-`level` Sierpinski tetrahedron inscribed in the cube `[-size, size]^3`.
///
/// Level 0 is the regular tetrahedron with corners `(size, size, size)`, `(-size, size, -size)`,
/// `(size, -size, -size)`, `(-size, -size, size)` (edge `2 sqrt(2) size`, volume `8 size^3 / 3`,
/// centroid at the origin). Each level replaces every tetrahedron by the 4 half-size copies at its
/// corners (the homotheties of ratio 1/2 about each corner), so level `k` has `4^k` tetrahedra of
/// total volume `(1/2)^k * 8 size^3 / 3`. Vertices `4 c .. 4 c + 4` and faces `4 c .. 4 c + 4`
/// belong to tetrahedron `c`; see the module documentation for how the tetrahedra touch.
/// Coordinates are multiples of `size / 2^level`, so for `size` a power of two they are exact.
///
/// # Errors
/// [`GeomError::InvalidShapeParameter`] when `size` is not a positive normal `f32` or the
/// `4^(level + 1)` vertices do not fit in `u32` (`level > 15`).
pub fn tetra_flake(level: u32, size: f64) -> Result<MeshData, GeomError> {
    let s = positive_length("size", size)?;
    let tetras = 4usize.checked_pow(level);
    let count = vertex_budget("level", tetras.and_then(|n| n.checked_mul(4)))?;
    let mut current = vec![[
        PointD::new(s, s, s),
        PointD::new(-s, s, -s),
        PointD::new(s, -s, -s),
        PointD::new(-s, -s, s),
    ]];
    for _ in 0..level {
        let mut next = Vec::with_capacity(current.len() * 4);
        for t in &current {
            for corner in t {
                // Homothety of ratio 1/2 about `corner`: keeps the vertex order, hence the sign.
                next.push(t.map(|v| PointD::from((v.coords + corner.coords) * 0.5)));
            }
        }
        current = next;
    }
    let mut vertices = Vec::with_capacity(count);
    let mut faces = FaceList::with_capacity(count, 3 * count);
    for t in &current {
        let base = vertices.len() as u32;
        vertices.extend(t.iter().map(|v| point(v.x, v.y, v.z)));
        for f in &TETRA_FACES {
            faces.push(&f.map(|i| base + i));
        }
    }
    finish("size", size, vertices, faces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::mesh_check::{assert_closed_and_oriented, assert_euler, signed_volume};
    use colldet_geom::math::{VectorD, to_f64};

    /// Separating-axis test for two tetrahedra (face normals and edge-edge cross products):
    /// true when their interiors are disjoint (touching allowed). Exact for dyadic coordinates.
    fn interiors_disjoint(a: &[PointD], b: &[PointD]) -> bool {
        let edges = |t: &[PointD]| -> Vec<VectorD> {
            let mut e = Vec::new();
            for i in 0..4 {
                for j in i + 1..4 {
                    e.push(t[j] - t[i]);
                }
            }
            e
        };
        let (ea, eb) = (edges(a), edges(b));
        let mut axes = Vec::new();
        for t in [a, b] {
            for f in &TETRA_FACES {
                let [i, j, k] = f.map(|x| x as usize);
                axes.push((t[j] - t[i]).cross(&(t[k] - t[i])));
            }
        }
        for x in &ea {
            for y in &eb {
                axes.push(x.cross(y));
            }
        }
        axes.iter().filter(|n| n.norm_squared() > 0.0).any(|n| {
            let project = |t: &[PointD]| {
                t.iter()
                    .map(|p| p.coords.dot(n))
                    .fold((f64::MAX, f64::MIN), |(lo, hi), d| (lo.min(d), hi.max(d)))
            };
            let ((alo, ahi), (blo, bhi)) = (project(a), project(b));
            ahi <= blo || bhi <= alo
        })
    }

    #[test]
    fn levels_have_4_pow_k_closed_tetrahedra_and_half_the_volume_each_level() {
        let s = 2.0;
        let full = 8.0 * s * s * s / 3.0;
        for level in 0..=6 {
            let m = tetra_flake(level, s).unwrap();
            let tetras = 4usize.pow(level);
            assert_eq!(m.vertices.len(), 4 * tetras);
            assert_eq!(m.faces.len(), 4 * tetras);
            assert_closed_and_oriented(&m);
            assert_eq!(assert_euler(&m, 2), tetras);
            // Dyadic coordinates: the divergence-theorem sum is exact.
            assert_eq!(
                signed_volume(&m),
                full / 2f64.powi(level as i32),
                "level {level}"
            );
            for p in &m.vertices {
                assert!(p.iter().all(|c| f64::from(c.abs()) <= s));
                // Inside the level-0 tetrahedron: the face opposite corner c is the plane
                // c . p = -s, and the tetrahedron is c . p >= -s for each corner direction c.
                let (x, y, z) = (f64::from(p.x), f64::from(p.y), f64::from(p.z));
                for (a, b, c) in [
                    (1.0, 1.0, 1.0),
                    (1.0, -1.0, -1.0),
                    (-1.0, 1.0, -1.0),
                    (-1.0, -1.0, 1.0),
                ] {
                    assert!(-(a * x + b * y + c * z) <= s, "({x}, {y}, {z})");
                }
            }
        }
        // Other sizes: exact up to the f32 rounding of the coordinates.
        for s in [0.3, 1e-12, 7e5] {
            let m = tetra_flake(3, s).unwrap();
            let expected = 8.0 * s * s * s / 3.0 / 8.0;
            assert!(
                (signed_volume(&m) - expected).abs() < 1e-6 * expected,
                "s = {s}"
            );
        }
    }

    #[test]
    fn tetrahedra_have_disjoint_interiors_and_touch_only_at_corners() {
        let m = tetra_flake(3, 1.0).unwrap();
        let tetras: Vec<Vec<PointD>> = m
            .vertices
            .chunks_exact(4)
            .map(|c| c.iter().map(to_f64).collect())
            .collect();
        let mut touching_pairs = 0;
        for (i, a) in tetras.iter().enumerate() {
            for b in &tetras[i + 1..] {
                assert!(interiors_disjoint(a, b));
                let shared = a.iter().filter(|p| b.contains(p)).count();
                assert!(shared <= 1);
                touching_pairs += shared;
            }
        }
        // Each level-1 split of one tetrahedron creates 6 touching pairs (one per edge
        // midpoint); levels 1..=3 split 1 + 4 + 16 tetrahedra, and every touching pair persists
        // (the corner sub-tetrahedra keep the shared point), so 6 * 21 pairs in all.
        assert_eq!(touching_pairs, 6 * 21);
    }

    #[test]
    fn bad_flake_parameters_are_typed_errors() {
        for (level, size, name) in [
            (2, 0.0, "size"),
            (2, f64::NAN, "size"),
            (2, -1.0, "size"),
            (16, 1.0, "level"),
            (u32::MAX, 1.0, "level"),
        ] {
            match tetra_flake(level, size) {
                Err(GeomError::InvalidShapeParameter { parameter, .. }) => {
                    assert_eq!(parameter, name)
                }
                other => panic!("expected an error, got {other:?}"),
            }
        }
    }
}
