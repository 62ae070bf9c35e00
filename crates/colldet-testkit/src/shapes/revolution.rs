//! Surfaces of revolution about the `z` axis: sphere, torus, cylinder, cone, hyperboloid.
//!
//! Every mesh is built from rings of vertices at angles `2 pi j / n`, `j = 0..n`, counter-clockwise
//! seen from `+z`. A quad between two such rings at the same two angles is an isosceles trapezoid,
//! hence planar (up to the final `f32` rounding); caps are regular polygons. All vertices lie on
//! the analytic surface (inscribed approximation), so volumes converge from below.

use super::{count_at_least, finish, point, positive_length, vertex_budget};
use colldet_geom::GeomError;
use colldet_geom::math::Point;
use colldet_geom::mesh_data::{FaceList, MeshData};
use std::f64::consts::TAU;

/// Appends a ring of `n` points at distance `radius` from the `z` axis and height `z`.
fn push_ring(vertices: &mut Vec<Point>, n: usize, radius: f64, z: f64) {
    for j in 0..n {
        let phi = TAU * j as f64 / n as f64;
        vertices.push(point(radius * phi.cos(), radius * phi.sin(), z));
    }
}

/// Appends the quads joining ring `lower` to ring `upper` (start indices of two rings of `n`
/// vertices each, `upper` above `lower` or, for the torus, further along the tube), outward for a
/// surface whose rings run counter-clockwise seen from `+z`.
fn push_band(faces: &mut FaceList, n: usize, lower: usize, upper: usize) {
    for j in 0..n {
        let k = (j + 1) % n;
        faces.push(&[
            (lower + j) as u32,
            (lower + k) as u32,
            (upper + k) as u32,
            (upper + j) as u32,
        ]);
    }
}

/// Appends a ring of `n` vertices starting at `start` as one polygon facing `+z` (`up`) or `-z`.
fn push_cap(faces: &mut FaceList, n: usize, start: usize, up: bool) {
    let mut cap: Vec<u32> = (start..start + n).map(|v| v as u32).collect();
    if !up {
        cap.reverse();
    }
    faces.push(&cap);
}

/// A UV sphere of the given `radius` centred at the origin, poles on the `z` axis.
///
/// `slices >= 3` meridians and `stacks >= 2` latitude bands: vertex 0 is the north pole
/// `(0, 0, radius)`, then `stacks - 1` rings of `slices` vertices at polar angles
/// `pi i / stacks`, then the south pole (no duplicated pole vertices). Faces: a triangle fan at
/// each pole and quads between rings, `slices * stacks` faces in all.
///
/// # Errors
/// [`GeomError::InvalidShapeParameter`] for a radius that is not a positive normal `f32`, too
/// few slices or stacks, or more than `u32::MAX` vertices.
pub fn sphere(radius: f64, slices: usize, stacks: usize) -> Result<MeshData, GeomError> {
    let r = positive_length("radius", radius)?;
    let slices = count_at_least("slices", slices, 3, "a sphere needs at least 3 slices")?;
    let stacks = count_at_least("stacks", stacks, 2, "a sphere needs at least 2 stacks")?;
    let count = vertex_budget(
        "slices * stacks",
        (stacks - 1)
            .checked_mul(slices)
            .and_then(|n| n.checked_add(2)),
    )?;
    let mut vertices = Vec::with_capacity(count);
    vertices.push(point(0.0, 0.0, r));
    for i in 1..stacks {
        let theta = std::f64::consts::PI * i as f64 / stacks as f64;
        push_ring(&mut vertices, slices, r * theta.sin(), r * theta.cos());
    }
    vertices.push(point(0.0, 0.0, -r));
    let south = count - 1;
    let last_ring = 1 + (stacks - 2) * slices;

    let mut faces = FaceList::with_capacity(slices * stacks, 4 * slices * stacks);
    for j in 0..slices {
        let k = (j + 1) % slices;
        faces.push(&[0, (1 + j) as u32, (1 + k) as u32]);
    }
    for i in 0..stacks - 2 {
        // Ring i + 1 (start 1 + i * slices) lies above ring i + 2.
        let upper = 1 + i * slices;
        push_band(&mut faces, slices, upper + slices, upper);
    }
    for j in 0..slices {
        let k = (j + 1) % slices;
        faces.push(&[south as u32, (last_ring + k) as u32, (last_ring + j) as u32]);
    }
    finish("radius", radius, vertices, faces)
}

/// A torus around the `z` axis, centred at the origin: tube centre circle of radius `major` in
/// the `xy` plane, tube radius `minor < major`.
///
/// `segments >= 3` steps around the `z` axis times `sides >= 3` steps around the tube; vertex
/// `i * sides + j` is at `((major + minor cos psi) cos phi, (major + minor cos psi) sin phi,
/// minor sin psi)` with `phi = 2 pi i / segments`, `psi = 2 pi j / sides`. Faces: one quad per
/// `(i, j)`. Genus 1, so the Euler characteristic is 0.
///
/// # Errors
/// [`GeomError::InvalidShapeParameter`] for radii that are not positive normal `f32`s,
/// `minor >= major` (self-intersecting), too few segments or sides, or more than `u32::MAX`
/// vertices.
pub fn torus(major: f64, minor: f64, segments: usize, sides: usize) -> Result<MeshData, GeomError> {
    let big = positive_length("major", major)?;
    let small = positive_length("minor", minor)?;
    if small >= big {
        return Err(GeomError::InvalidShapeParameter {
            parameter: "minor",
            value: minor,
            requirement: "must be smaller than major (the tube would self-intersect)",
        });
    }
    let segments = count_at_least("segments", segments, 3, "a torus needs at least 3 segments")?;
    let sides = count_at_least("sides", sides, 3, "a torus needs at least 3 sides")?;
    let count = vertex_budget("segments * sides", segments.checked_mul(sides))?;
    let mut vertices = Vec::with_capacity(count);
    for i in 0..segments {
        let phi = TAU * i as f64 / segments as f64;
        let (s, c) = phi.sin_cos();
        for j in 0..sides {
            let psi = TAU * j as f64 / sides as f64;
            let rho = big + small * psi.cos();
            vertices.push(point(rho * c, rho * s, small * psi.sin()));
        }
    }
    let mut faces = FaceList::with_capacity(count, 4 * count);
    for i in 0..segments {
        let i1 = (i + 1) % segments;
        for j in 0..sides {
            let j1 = (j + 1) % sides;
            // d/d phi x d/d psi points away from the tube centre circle.
            faces.push(&[
                (i * sides + j) as u32,
                (i1 * sides + j) as u32,
                (i1 * sides + j1) as u32,
                (i * sides + j1) as u32,
            ]);
        }
    }
    finish("major", major, vertices, faces)
}

/// A prism over a regular `segments`-gon inscribed in the circle of `radius`, axis `z`, from
/// `z = -height / 2` to `z = height / 2`.
///
/// Vertices: the bottom ring (`0..segments`) then the top ring. Faces: `segments` side quads,
/// then the bottom cap and the top cap as single polygons.
///
/// # Errors
/// [`GeomError::InvalidShapeParameter`] for lengths that are not positive normal `f32`s, fewer
/// than 3 segments, or more than `u32::MAX` vertices.
pub fn cylinder(radius: f64, height: f64, segments: usize) -> Result<MeshData, GeomError> {
    let r = positive_length("radius", radius)?;
    let h = positive_length("height", height)?;
    let n = count_at_least(
        "segments",
        segments,
        3,
        "a cylinder needs at least 3 segments",
    )?;
    let count = vertex_budget("segments", n.checked_mul(2))?;
    let mut vertices = Vec::with_capacity(count);
    push_ring(&mut vertices, n, r, -0.5 * h);
    push_ring(&mut vertices, n, r, 0.5 * h);
    let mut faces = FaceList::with_capacity(n + 2, 6 * n);
    push_band(&mut faces, n, 0, n);
    push_cap(&mut faces, n, 0, false);
    push_cap(&mut faces, n, n, true);
    finish("radius", radius, vertices, faces)
}

/// A pyramid over a regular `segments`-gon inscribed in the circle of `radius` at
/// `z = -height / 2`, apex at `(0, 0, height / 2)` (so the bounding box, not the centroid, is
/// centred at the origin).
///
/// Vertices: the base ring (`0..segments`) then the apex. Faces: `segments` side triangles, then
/// the base polygon.
///
/// # Errors
/// [`GeomError::InvalidShapeParameter`] for lengths that are not positive normal `f32`s, fewer
/// than 3 segments, or more than `u32::MAX` vertices.
pub fn cone(radius: f64, height: f64, segments: usize) -> Result<MeshData, GeomError> {
    let r = positive_length("radius", radius)?;
    let h = positive_length("height", height)?;
    let n = count_at_least("segments", segments, 3, "a cone needs at least 3 segments")?;
    let count = vertex_budget("segments", n.checked_add(1))?;
    let mut vertices = Vec::with_capacity(count);
    push_ring(&mut vertices, n, r, -0.5 * h);
    vertices.push(point(0.0, 0.0, 0.5 * h));
    let mut faces = FaceList::with_capacity(n + 1, 4 * n);
    for j in 0..n {
        faces.push(&[j as u32, ((j + 1) % n) as u32, n as u32]);
    }
    push_cap(&mut faces, n, 0, false);
    finish("radius", radius, vertices, faces)
}

/// A hyperboloid of one sheet around the `z` axis, capped at both ends: the surface
/// `x^2 + y^2 = waist^2 + (end^2 - waist^2) (2 z / height)^2` for `|z| <= height / 2`, i.e.
/// radius `waist_radius` at `z = 0` and `end_radius` at both ends (`end_radius == waist_radius`
/// gives a cylinder). Analytic volume `pi height (2 waist^2 + end^2) / 3`.
///
/// `stacks + 1 >= 2` rings of `slices >= 3` vertices at evenly spaced heights, bottom first;
/// faces: `slices * stacks` quads, then the bottom and top caps as single polygons.
///
/// # Errors
/// [`GeomError::InvalidShapeParameter`] for lengths that are not positive normal `f32`s,
/// `end_radius < waist_radius`, too few slices or stacks, or more than `u32::MAX` vertices.
pub fn hyperboloid(
    waist_radius: f64,
    end_radius: f64,
    height: f64,
    slices: usize,
    stacks: usize,
) -> Result<MeshData, GeomError> {
    let a = positive_length("waist_radius", waist_radius)?;
    let b = positive_length("end_radius", end_radius)?;
    let h = positive_length("height", height)?;
    if b < a {
        return Err(GeomError::InvalidShapeParameter {
            parameter: "end_radius",
            value: end_radius,
            requirement: "must be at least waist_radius",
        });
    }
    let slices = count_at_least("slices", slices, 3, "a hyperboloid needs at least 3 slices")?;
    let stacks = count_at_least("stacks", stacks, 1, "a hyperboloid needs at least 1 stack")?;
    let count = vertex_budget(
        "slices * stacks",
        stacks.checked_add(1).and_then(|s| s.checked_mul(slices)),
    )?;
    let mut vertices = Vec::with_capacity(count);
    let flare = (b - a) * (b + a);
    for k in 0..=stacks {
        let t = 2.0 * k as f64 / stacks as f64 - 1.0;
        push_ring(
            &mut vertices,
            slices,
            (a * a + flare * t * t).sqrt(),
            0.5 * h * t,
        );
    }
    let mut faces = FaceList::with_capacity(slices * stacks + 2, 4 * slices * stacks + 2 * slices);
    for k in 0..stacks {
        push_band(&mut faces, slices, k * slices, (k + 1) * slices);
    }
    push_cap(&mut faces, slices, 0, false);
    push_cap(&mut faces, slices, stacks * slices, true);
    finish("end_radius", end_radius, vertices, faces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::mesh_check::{
        assert_closed_and_oriented, assert_euler, max_radius, max_relative_nonplanarity,
        signed_volume,
    };
    use colldet_geom::math::to_f64;
    use std::f64::consts::PI;

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / b.abs()
    }

    /// Volume of the prism over a regular n-gon inscribed in a circle of radius r, height h.
    fn prism_volume(r: f64, h: f64, n: usize) -> f64 {
        0.5 * n as f64 * r * r * (TAU / n as f64).sin() * h
    }

    #[test]
    fn sphere_is_closed_oriented_and_converges_to_the_ball_volume() {
        for (slices, stacks) in [(3, 2), (4, 3), (8, 4), (17, 9), (64, 32), (128, 64)] {
            let r = 2.5;
            let m = sphere(r, slices, stacks).unwrap();
            assert_eq!(m.vertices.len(), 2 + (stacks - 1) * slices);
            assert_eq!(m.faces.len(), slices * stacks);
            assert_eq!(m.faces.iter().filter(|f| f.len() == 3).count(), 2 * slices);
            assert_closed_and_oriented(&m);
            assert_eq!(assert_euler(&m, 2), 1);
            assert!(max_relative_nonplanarity(&m, r) < 1e-6);
            for p in &m.vertices {
                assert!(rel(to_f64(p).coords.norm(), r) < 1e-6);
            }
            let v = signed_volume(&m);
            let ball = 4.0 / 3.0 * PI * r.powi(3);
            assert!(v > 0.0 && v < ball * (1.0 + 1e-6), "{slices}x{stacks}: {v}");
            if slices >= 64 {
                assert!(rel(v, ball) < 0.01, "{slices}x{stacks}: {v} vs {ball}");
            }
        }
    }

    #[test]
    fn sphere_is_scale_free() {
        let unit = signed_volume(&sphere(1.0, 24, 12).unwrap());
        for r in [1e-12, 1e-30, 3e7, 1e12] {
            let m = sphere(r, 24, 12).unwrap();
            assert!(rel(signed_volume(&m), unit * r * r * r) < 1e-5, "r = {r}");
            assert!(rel(max_radius(&m), r) < 1e-6);
        }
    }

    #[test]
    fn torus_has_genus_one_and_converges_to_its_volume() {
        let (big, small) = (3.0, 0.75);
        for (segments, sides) in [(3, 3), (5, 4), (48, 24), (64, 32)] {
            let m = torus(big, small, segments, sides).unwrap();
            assert_eq!(m.vertices.len(), segments * sides);
            assert_eq!(m.faces.len(), segments * sides);
            assert_closed_and_oriented(&m);
            assert_eq!(assert_euler(&m, 0), 1);
            assert!(max_relative_nonplanarity(&m, big) < 1e-6);
            for p in &m.vertices {
                let p = to_f64(p);
                let ring = (p.x.hypot(p.y) - big).hypot(p.z);
                assert!((ring - small).abs() < 1e-6 * big);
            }
            let v = signed_volume(&m);
            assert!(v > 0.0);
            if segments >= 64 {
                let exact = 2.0 * PI * PI * big * small * small;
                assert!(rel(v, exact) < 0.01, "{v} vs {exact}");
            }
        }
    }

    #[test]
    fn cylinder_volume_is_the_exact_prism_volume() {
        let (r, h) = (0.4, 3.0);
        for n in [3, 4, 7, 64, 256] {
            let m = cylinder(r, h, n).unwrap();
            assert_eq!(m.vertices.len(), 2 * n);
            assert_eq!(m.faces.len(), n + 2);
            assert_closed_and_oriented(&m);
            assert_eq!(assert_euler(&m, 2), 1);
            assert!(max_relative_nonplanarity(&m, h) < 1e-6);
            for p in &m.vertices {
                let p = to_f64(p);
                assert!(rel(p.x.hypot(p.y), r) < 1e-6);
                assert!(rel(p.z.abs(), 0.5 * h) < 1e-7);
            }
            let v = signed_volume(&m);
            assert!(rel(v, prism_volume(r, h, n)) < 1e-6, "n = {n}");
            if n >= 64 {
                assert!(rel(v, PI * r * r * h) < 0.01);
            }
        }
    }

    #[test]
    fn cone_volume_is_the_exact_pyramid_volume() {
        let (r, h) = (1.5, 0.5);
        for n in [3, 5, 64, 200] {
            let m = cone(r, h, n).unwrap();
            assert_eq!(m.vertices.len(), n + 1);
            assert_eq!(m.faces.len(), n + 1);
            assert_closed_and_oriented(&m);
            assert_eq!(assert_euler(&m, 2), 1);
            assert!(max_relative_nonplanarity(&m, r) < 1e-6);
            assert_eq!(m.vertices[n], Point::new(0.0, 0.0, 0.25));
            let v = signed_volume(&m);
            assert!(rel(v, prism_volume(r, h, n) / 3.0) < 1e-6, "n = {n}");
            if n >= 64 {
                assert!(rel(v, PI * r * r * h / 3.0) < 0.01);
            }
        }
    }

    #[test]
    fn hyperboloid_lies_on_its_surface_and_converges_to_its_volume() {
        let (a, b, h) = (0.5, 1.25, 2.0);
        for (slices, stacks) in [(3, 1), (6, 2), (64, 32), (128, 64)] {
            let m = hyperboloid(a, b, h, slices, stacks).unwrap();
            assert_eq!(m.vertices.len(), (stacks + 1) * slices);
            assert_eq!(m.faces.len(), slices * stacks + 2);
            assert_closed_and_oriented(&m);
            assert_eq!(assert_euler(&m, 2), 1);
            assert!(max_relative_nonplanarity(&m, b) < 1e-6);
            for p in &m.vertices {
                let p = to_f64(p);
                let t = 2.0 * p.z / h;
                let residual = p.x * p.x + p.y * p.y - a * a - (b * b - a * a) * t * t;
                assert!(residual.abs() < 1e-6 * b * b);
                assert!(p.z.abs() <= 0.5 * h);
            }
            let v = signed_volume(&m);
            assert!(v > 0.0);
            if slices >= 64 {
                let exact = PI * h * (2.0 * a * a + b * b) / 3.0;
                assert!(rel(v, exact) < 0.01, "{v} vs {exact}");
            }
        }
        // Equal radii: the exact prism.
        let m = hyperboloid(0.7, 0.7, 1.0, 9, 3).unwrap();
        assert!(rel(signed_volume(&m), prism_volume(0.7, 1.0, 9)) < 1e-6);
    }

    #[test]
    fn bad_parameters_are_typed_errors() {
        let is_param = |r: Result<MeshData, GeomError>, name: &str| match r {
            Err(GeomError::InvalidShapeParameter { parameter, .. }) => assert_eq!(parameter, name),
            other => panic!("expected an error on {name}, got {other:?}"),
        };
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e-45, 1e39] {
            is_param(sphere(bad, 8, 4), "radius");
            is_param(torus(bad, 0.5, 8, 4), "major");
            is_param(cylinder(1.0, bad, 8), "height");
            is_param(cone(bad, 1.0, 8), "radius");
            is_param(hyperboloid(1.0, 2.0, bad, 8, 4), "height");
        }
        is_param(sphere(1.0, 2, 4), "slices");
        is_param(sphere(1.0, 8, 1), "stacks");
        is_param(torus(1.0, 1.0, 8, 8), "minor");
        is_param(torus(1.0, 0.5, 8, 2), "sides");
        is_param(cylinder(1.0, 1.0, 2), "segments");
        is_param(cone(1.0, 1.0, 0), "segments");
        is_param(hyperboloid(1.0, 0.5, 1.0, 8, 4), "end_radius");
        is_param(hyperboloid(1.0, 1.5, 1.0, 8, 0), "stacks");
        // Counts whose vertex total overflows u32 are rejected before allocating.
        is_param(sphere(1.0, usize::MAX, 3), "slices * stacks");
        is_param(sphere(1.0, 1 << 20, 1 << 13), "slices * stacks");
        is_param(torus(2.0, 1.0, usize::MAX, usize::MAX), "segments * sides");
        is_param(cylinder(1.0, 1.0, usize::MAX), "segments");
        is_param(cone(1.0, 1.0, usize::MAX), "segments");
        is_param(
            hyperboloid(1.0, 1.0, 1.0, 1 << 16, 1 << 16),
            "slices * stacks",
        );
        // Parameters in range whose sums overflow f32 are caught on the coordinates.
        is_param(torus(3e38, 2e38, 8, 4), "major");
    }
}
