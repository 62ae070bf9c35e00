//! Test and benchmark helpers for support mapping: random directions and analytic convex
//! meshes (UV ellipsoids with quads and pole fans, boxes with grids of coplanar points, octahedra,
//! prisms with polygon caps). Shared with `benches/support.rs` through `#[path]`.
#![allow(dead_code)]

use colldet_geom::math::{Point, Vector, VectorD};
use colldet_geom::{FaceList, MeshData};
use std::collections::HashMap;

pub use colldet_testkit::SplitMix64;

/// The random directions of the support tests, drawn from the shared [`SplitMix64`].
pub trait SupportDraws {
    /// A uniformly distributed unit vector (rejection sampling in the cube: norms in
    /// `(1e-3, 1]`, divided by the norm).
    fn unit_vector(&mut self) -> VectorD;

    /// A random direction with a random length in `[1e-20, 1e20]` (log-uniform).
    fn direction(&mut self) -> Vector;
}

impl SupportDraws for SplitMix64 {
    fn unit_vector(&mut self) -> VectorD {
        loop {
            let v = VectorD::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let n = v.norm();
            if n > 1e-3 && n <= 1.0 {
                return v / n;
            }
        }
    }

    fn direction(&mut self) -> Vector {
        let u = self.unit_vector() * 10f64.powf(self.range(-20.0, 20.0));
        Vector::new(u.x as f32, u.y as f32, u.z as f32)
    }
}

/// A UV ellipsoid with semi-axes `radii` centred at `centre`: a north pole, `rings` rings of
/// `segments` vertices, a south pole (`rings * segments + 2` vertices). Quads between rings,
/// triangle fans at the poles.
pub fn uv_ellipsoid(rings: u32, segments: u32, radii: [f32; 3], centre: [f32; 3]) -> MeshData {
    let point = |x: f64, y: f64, z: f64| {
        Point::new(
            (f64::from(centre[0]) + f64::from(radii[0]) * x) as f32,
            (f64::from(centre[1]) + f64::from(radii[1]) * y) as f32,
            (f64::from(centre[2]) + f64::from(radii[2]) * z) as f32,
        )
    };
    let mut vertices = vec![point(0.0, 0.0, 1.0)];
    for k in 1..=rings {
        let theta = std::f64::consts::PI * f64::from(k) / f64::from(rings + 1);
        for j in 0..segments {
            let phi = 2.0 * std::f64::consts::PI * f64::from(j) / f64::from(segments);
            vertices.push(point(
                theta.sin() * phi.cos(),
                theta.sin() * phi.sin(),
                theta.cos(),
            ));
        }
    }
    vertices.push(point(0.0, 0.0, -1.0));
    let south = rings * segments + 1;
    let ring = |k: u32, j: u32| 1 + k * segments + j % segments;
    let mut faces = FaceList::new();
    for j in 0..segments {
        faces.push(&[0, ring(0, j), ring(0, j + 1)]);
        faces.push(&[south, ring(rings - 1, j + 1), ring(rings - 1, j)]);
        for k in 0..rings - 1 {
            faces.push(&[
                ring(k, j),
                ring(k + 1, j),
                ring(k + 1, j + 1),
                ring(k, j + 1),
            ]);
        }
    }
    MeshData::new(vertices, faces)
}

/// UV ellipsoid with about `n` vertices (rings and segments chosen near `sqrt(n / 2)` and
/// `sqrt(2 n)`); `n >= 12`.
pub fn uv_ellipsoid_with_about(n: u32, radii: [f32; 3], centre: [f32; 3]) -> MeshData {
    let (rings, segments) = match n {
        0..=12 => (2, 5),
        13..=100 => (7, 14),
        101..=1000 => (27, 37),
        _ => {
            let rings = ((f64::from(n) / 2.0).sqrt().round() as u32).max(2);
            (rings, (n - 2).div_ceil(rings))
        }
    };
    uv_ellipsoid(rings, segments, radii, centre)
}

/// An axis-aligned box with half extents `half` centred at `centre`, every face an
/// `cells x cells` grid of coplanar vertices, triangulated. `(cells + 1)^3 - (cells - 1)^3`
/// vertices.
pub fn grid_box(cells: u32, half: [f32; 3], centre: [f32; 3]) -> MeshData {
    let mut index: HashMap<[u32; 3], u32> = HashMap::new();
    let mut vertices = Vec::new();
    let mut faces = FaceList::new();
    let mut id = |c: [u32; 3], vertices: &mut Vec<Point>| {
        *index.entry(c).or_insert_with(|| {
            let coordinate = |axis: usize| {
                centre[axis] + half[axis] * (2.0 * c[axis] as f32 / cells as f32 - 1.0)
            };
            vertices.push(Point::new(coordinate(0), coordinate(1), coordinate(2)));
            (vertices.len() - 1) as u32
        })
    };
    for axis in 0..3 {
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for side in [0, cells] {
            for i in 0..cells {
                for j in 0..cells {
                    let mut corner = |di: u32, dj: u32| {
                        let mut c = [0u32; 3];
                        c[axis] = side;
                        c[u] = i + di;
                        c[v] = j + dj;
                        id(c, &mut vertices)
                    };
                    let (a, b, c, d) = (corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1));
                    if side == 0 {
                        faces.push(&[a, c, b]);
                        faces.push(&[a, d, c]);
                    } else {
                        faces.push(&[a, b, c]);
                        faces.push(&[a, c, d]);
                    }
                }
            }
        }
    }
    MeshData::new(vertices, faces)
}

/// The octahedron with vertices `+-scale` on the axes, in the order +x, -x, +y, -y, +z, -z.
pub fn octahedron(scale: f32) -> MeshData {
    let s = scale;
    let vertices = vec![
        Point::new(s, 0.0, 0.0),
        Point::new(-s, 0.0, 0.0),
        Point::new(0.0, s, 0.0),
        Point::new(0.0, -s, 0.0),
        Point::new(0.0, 0.0, s),
        Point::new(0.0, 0.0, -s),
    ];
    let faces = FaceList::from_triangles(&[
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ]);
    MeshData::new(vertices, faces)
}

/// A right prism over a regular `sides`-gon of circumradius `radius` in the xy plane, from
/// `z = -half_height` to `z = half_height`; the caps are single polygon faces. Vertex `j` is
/// the bottom vertex at angle `2 pi j / sides`, vertex `sides + j` the top one.
pub fn prism(sides: u32, radius: f32, half_height: f32) -> MeshData {
    let mut vertices = Vec::new();
    for z in [-half_height, half_height] {
        for j in 0..sides {
            let phi = 2.0 * std::f64::consts::PI * f64::from(j) / f64::from(sides);
            vertices.push(Point::new(
                (f64::from(radius) * phi.cos()) as f32,
                (f64::from(radius) * phi.sin()) as f32,
                z,
            ));
        }
    }
    let mut faces = FaceList::new();
    faces.push(&(0..sides).rev().collect::<Vec<_>>());
    faces.push(&(sides..2 * sides).collect::<Vec<_>>());
    for j in 0..sides {
        let k = (j + 1) % sides;
        faces.push(&[j, k, sides + k, sides + j]);
    }
    MeshData::new(vertices, faces)
}

/// Exact-enough maximum of `dot(v, d)` over `points`, in `f64`.
pub fn max_dot(points: &[Point], d: &Vector) -> f64 {
    points
        .iter()
        .map(|p| dot(p, d))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// `dot(p, d)` in `f64`.
pub fn dot(p: &Point, d: &Vector) -> f64 {
    f64::from(p.x) * f64::from(d.x)
        + f64::from(p.y) * f64::from(d.y)
        + f64::from(p.z) * f64::from(d.z)
}

/// Rotates `d` by `angle` radians about a random axis perpendicular to it (length preserved).
pub fn rotate_randomly(rng: &mut SplitMix64, d: &VectorD, angle: f64) -> VectorD {
    let axis = loop {
        let a = rng.unit_vector().cross(d);
        if a.norm() > 1e-6 * d.norm() {
            break a.normalize();
        }
    };
    let rotation = colldet_geom::math::nalgebra::Rotation3::from_axis_angle(
        &colldet_geom::math::nalgebra::Unit::new_unchecked(axis),
        angle,
    );
    rotation * d
}
