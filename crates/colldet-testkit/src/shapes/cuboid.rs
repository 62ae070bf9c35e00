//! Boxes: a single cuboid and a grid of disjoint cubes (Zachmann's "cube arrays").

use super::{count_at_least, finish, point, positive_length, vertex_budget};
use colldet_geom::GeomError;
use colldet_geom::math::{Point, VectorD};
use colldet_geom::mesh_data::{FaceList, MeshData};

/// The six outward quads of a box whose 8 vertices are numbered `x + 2 y + 4 z` with each bit
/// set on the positive side of its axis: `-x, +x, -y, +y, -z, +z`.
const BOX_FACES: [[u32; 4]; 6] = [
    [0, 4, 6, 2],
    [1, 3, 7, 5],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 2, 3, 1],
    [4, 5, 7, 6],
];

/// Appends the 8 corners and 6 quads of the box `centre +- half`.
fn push_box(vertices: &mut Vec<Point>, faces: &mut FaceList, centre: [f64; 3], half: [f64; 3]) {
    let base = vertices.len() as u32;
    for v in 0..8 {
        let corner = |axis: usize| {
            if v >> axis & 1 == 1 {
                centre[axis] + half[axis]
            } else {
                centre[axis] - half[axis]
            }
        };
        vertices.push(point(corner(0), corner(1), corner(2)));
    }
    for quad in &BOX_FACES {
        faces.push(&quad.map(|i| base + i));
    }
}

/// The axis-aligned box `[-h.x, h.x] x [-h.y, h.y] x [-h.z, h.z]` for `half_extents = h`: 8
/// vertices numbered `x + 2 y + 4 z` (bit set = positive side) and 6 quads, in the order
/// `-x, +x, -y, +y, -z, +z`. Volume `8 h.x h.y h.z`.
///
/// # Errors
/// [`GeomError::InvalidShapeParameter`] when a half extent is not a positive normal `f32`.
pub fn cuboid(half_extents: VectorD) -> Result<MeshData, GeomError> {
    let h = [
        positive_length("half_extents.x", half_extents.x)?,
        positive_length("half_extents.y", half_extents.y)?,
        positive_length("half_extents.z", half_extents.z)?,
    ];
    let mut vertices = Vec::with_capacity(8);
    let mut faces = FaceList::with_capacity(6, 24);
    push_box(&mut vertices, &mut faces, [0.0; 3], h);
    finish("half_extents", half_extents.max(), vertices, faces)
}

/// A grid of `nx * ny * nz` axis-aligned cubes of edge `size`, `gap` apart (face to face), the
/// whole grid centred at the origin: cube `(i, j, k)` is centred at
/// `((i - (nx - 1) / 2) p, (j - (ny - 1) / 2) p, (k - (nz - 1) / 2) p)` with pitch
/// `p = size + gap`. Each cube is a separate closed component with its own 8 vertices (laid out
/// as in [`cuboid`]), cubes ordered with `i` fastest, then `j`, then `k`. `gap == 0` makes
/// neighbours touch face to face (still separate components).
///
/// # Errors
/// [`GeomError::InvalidShapeParameter`] for a zero count, a `size` that is not a positive normal
/// `f32`, a negative, non-finite or subnormal `gap`, or more than `u32::MAX` vertices.
pub fn cube_array(
    nx: usize,
    ny: usize,
    nz: usize,
    size: f64,
    gap: f64,
) -> Result<MeshData, GeomError> {
    let nx = count_at_least("nx", nx, 1, "a cube array needs at least 1 cube per axis")?;
    let ny = count_at_least("ny", ny, 1, "a cube array needs at least 1 cube per axis")?;
    let nz = count_at_least("nz", nz, 1, "a cube array needs at least 1 cube per axis")?;
    let edge = positive_length("size", size)?;
    if !(gap == 0.0 || positive_length("gap", gap).is_ok()) {
        return Err(GeomError::InvalidShapeParameter {
            parameter: "gap",
            value: gap,
            requirement: "must be zero or finite, positive and within the normal f32 range",
        });
    }
    let cubes = nx.checked_mul(ny).and_then(|n| n.checked_mul(nz));
    let count = vertex_budget("nx * ny * nz", cubes.and_then(|n| n.checked_mul(8)))?;
    let cubes = count / 8;
    let pitch = edge + gap;
    let offset = |i: usize, n: usize| (i as f64 - 0.5 * (n - 1) as f64) * pitch;
    let half = [0.5 * edge; 3];
    let mut vertices = Vec::with_capacity(count);
    let mut faces = FaceList::with_capacity(6 * cubes, 24 * cubes);
    for k in 0..nz {
        for j in 0..ny {
            for i in 0..nx {
                let centre = [offset(i, nx), offset(j, ny), offset(k, nz)];
                push_box(&mut vertices, &mut faces, centre, half);
            }
        }
    }
    finish("size", size, vertices, faces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::mesh_check::{
        assert_closed_and_oriented, assert_euler, max_relative_nonplanarity, signed_volume,
    };
    use colldet_geom::math::to_f64;

    /// Newell normal of a face (exact direction for planar polygons).
    fn face_normal(m: &MeshData, f: usize) -> VectorD {
        let face = m.faces.face(f);
        let mut n = VectorD::zeros();
        for (i, &a) in face.iter().enumerate() {
            let p = to_f64(&m.vertices[a as usize]).coords;
            let q = to_f64(&m.vertices[face[(i + 1) % face.len()] as usize]).coords;
            n += p.cross(&q);
        }
        n
    }

    #[test]
    fn cuboid_is_exact_and_faces_point_along_the_axes() {
        for h in [
            VectorD::new(1.0, 2.0, 3.0),
            VectorD::new(0.5, 0.25, 4.0),
            VectorD::new(1e-12, 3e-12, 2e-12),
        ] {
            let m = cuboid(h).unwrap();
            assert_eq!(m.vertices.len(), 8);
            assert_eq!(m.faces.len(), 6);
            assert_closed_and_oriented(&m);
            assert_eq!(assert_euler(&m, 2), 1);
            assert_eq!(max_relative_nonplanarity(&m, h.max()), 0.0);
            let hf = h.map(|c| f64::from(c as f32));
            let exact = 8.0 * hf.x * hf.y * hf.z;
            assert!((signed_volume(&m) - exact).abs() <= 1e-15 * exact);
            for (f, axis) in [-1.0, 1.0].repeat(3).into_iter().enumerate() {
                let n = face_normal(&m, f).normalize();
                let mut expected = VectorD::zeros();
                expected[f / 2] = axis;
                assert_eq!(n, expected, "face {f}");
            }
            for (v, p) in m.vertices.iter().enumerate() {
                for axis in 0..3 {
                    let sign = if v >> axis & 1 == 1 { 1.0 } else { -1.0 };
                    assert_eq!(f64::from(p[axis]), sign * hf[axis]);
                }
            }
        }
        assert_eq!(
            signed_volume(&cuboid(VectorD::new(1.0, 2.0, 3.0)).unwrap()),
            48.0
        );
    }

    #[test]
    fn cube_array_is_a_grid_of_disjoint_closed_cubes() {
        let (nx, ny, nz, size, gap) = (3, 2, 4, 0.5, 0.25);
        let m = cube_array(nx, ny, nz, size, gap).unwrap();
        let cubes = nx * ny * nz;
        assert_eq!(m.vertices.len(), 8 * cubes);
        assert_eq!(m.faces.len(), 6 * cubes);
        assert_closed_and_oriented(&m);
        assert_eq!(assert_euler(&m, 2), cubes);
        assert_eq!(signed_volume(&m), cubes as f64 * 0.125);
        // Bounding box: n cubes and n - 1 gaps per axis, centred at the origin.
        let extent = |n: usize| 0.5 * (n as f64 * size + (n - 1) as f64 * gap);
        for (axis, n) in [nx, ny, nz].into_iter().enumerate() {
            let max = m
                .vertices
                .iter()
                .map(|p| f64::from(p[axis]))
                .fold(f64::MIN, f64::max);
            let min = m
                .vertices
                .iter()
                .map(|p| f64::from(p[axis]))
                .fold(f64::MAX, f64::min);
            assert_eq!((min, max), (-extent(n), extent(n)));
        }
        // Each cube has edge `size`; any two cubes are separated by at least `gap` on some axis.
        let boxes: Vec<_> = m
            .vertices
            .chunks_exact(8)
            .map(|c| (to_f64(&c[0]), to_f64(&c[7])))
            .collect();
        for (lo, hi) in &boxes {
            assert_eq!(hi - lo, VectorD::repeat(size));
        }
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                let separation = (0..3)
                    .map(|k| (b.0[k] - a.1[k]).max(a.0[k] - b.1[k]))
                    .fold(f64::MIN, f64::max);
                assert!(separation >= gap, "{a:?} {b:?}");
            }
        }
        // Touching cubes are allowed and still separate components.
        let touching = cube_array(2, 1, 1, 1.0, 0.0).unwrap();
        assert_eq!(assert_euler(&touching, 2), 2);
        assert_eq!(touching.vertices[1], touching.vertices[8]);
    }

    #[test]
    fn bad_box_parameters_are_typed_errors() {
        let name = |r: Result<MeshData, GeomError>| match r {
            Err(GeomError::InvalidShapeParameter { parameter, .. }) => parameter,
            other => panic!("expected an error, got {other:?}"),
        };
        assert_eq!(name(cuboid(VectorD::new(1.0, 0.0, 1.0))), "half_extents.y");
        assert_eq!(
            name(cuboid(VectorD::new(1.0, 1.0, f64::NAN))),
            "half_extents.z"
        );
        assert_eq!(name(cube_array(0, 1, 1, 1.0, 0.1)), "nx");
        assert_eq!(name(cube_array(1, 1, 1, -1.0, 0.1)), "size");
        assert_eq!(name(cube_array(1, 1, 1, 1.0, -0.1)), "gap");
        assert_eq!(name(cube_array(1, 1, 1, 1.0, f64::NAN)), "gap");
        assert_eq!(
            name(cube_array(1 << 12, 1 << 12, 1 << 12, 1.0, 0.1)),
            "nx * ny * nz"
        );
        assert_eq!(name(cube_array(usize::MAX, 2, 1, 1.0, 0.1)), "nx * ny * nz");
    }
}
