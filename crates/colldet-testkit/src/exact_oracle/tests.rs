use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;

use super::exact_points::{WorldVertices, common_scale, decompose};
use super::*;
use crate::SeededRng;

/// The unit cube `[0, 1]^3` scaled by `s`, 12 outward triangles.
fn cube(s: f64) -> OracleMesh {
    let vertices = (0..8)
        .map(|i| {
            [
                (i & 1) as f64 * s,
                ((i >> 1) & 1) as f64 * s,
                ((i >> 2) & 1) as f64 * s,
            ]
        })
        .collect();
    let quads = [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ];
    let triangles = quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect();
    OracleMesh {
        vertices,
        triangles,
    }
}

fn triangle(points: [[f64; 3]; 3]) -> OracleMesh {
    OracleMesh {
        vertices: points.to_vec(),
        triangles: vec![[0, 1, 2]],
    }
}

fn collide_at(a: &OracleMesh, b: &OracleMesh, t: [f64; 3]) -> Verdict {
    exact_collide(a, &OraclePose::IDENTITY, b, &OraclePose::translation(t))
}

const TINY: f64 = 1.0 / (1u64 << 40) as f64;

#[test]
fn unit_cubes_touching_at_a_face_an_edge_and_a_vertex_collide() {
    let c = cube(1.0);
    for t in [
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0],
        [-1.0, 0.5, -1.0],
    ] {
        let v = collide_at(&c, &c, t);
        assert!(matches!(v, Verdict::SurfaceContact { .. }), "{t:?}: {v:?}");
    }
}

#[test]
fn unit_cubes_apart_by_two_to_the_minus_forty_are_separated() {
    let c = cube(1.0);
    let d = 1.0 + TINY;
    for t in [[d, 0.0, 0.0], [d, d, 0.0], [d, d, d], [1.0, 1.0, -d]] {
        assert_eq!(collide_at(&c, &c, t), Verdict::Separated, "{t:?}");
    }
}

#[test]
fn overlapping_unit_cubes_collide() {
    let c = cube(1.0);
    assert!(collide_at(&c, &c, [0.5, 0.25, 0.1]).collides());
    assert!(collide_at(&c, &c, [0.0, 0.0, 0.0]).collides());
    assert!(collide_at(&c, &c, [1.0 - TINY, 0.0, 0.0]).collides());
}

#[test]
fn a_small_cube_inside_a_big_one_collides_both_ways_round() {
    let big = cube(10.0);
    let small = cube(1.0);
    assert_eq!(
        collide_at(&big, &small, [4.0, 4.0, 4.0]),
        Verdict::BInsideA { vertex_b: 0 }
    );
    assert_eq!(
        exact_collide(
            &small,
            &OraclePose::translation([4.0, 4.0, 4.0]),
            &big,
            &OraclePose::IDENTITY
        ),
        Verdict::AInsideB { vertex_a: 0 }
    );
    // Outside the big cube but inside its box's shadow on two axes.
    assert_eq!(
        collide_at(&big, &small, [4.0, 4.0, 11.0]),
        Verdict::Separated
    );
}

#[test]
fn an_open_container_contains_nothing() {
    let mut big = cube(10.0);
    big.triangles.pop();
    assert!(!is_closed(&big.triangles));
    assert_eq!(
        collide_at(&big, &cube(1.0), [4.0, 4.0, 4.0]),
        Verdict::Separated
    );
}

#[test]
fn a_point_whose_rays_graze_edges_is_still_classified() {
    // The seed lies on the big cube's diagonal planes and in line with its edges along x: the
    // oracle's direction avoids them.
    let big = cube(8.0);
    let small = cube(1.0);
    for t in [[2.0, 2.0, 2.0], [3.5, 3.5, 3.5], [0.5, 6.5, 0.5]] {
        assert_eq!(
            collide_at(&big, &small, t),
            Verdict::BInsideA { vertex_b: 0 },
            "{t:?}"
        );
    }
}

#[test]
fn coplanar_triangles_are_decided_exactly() {
    let a = triangle([[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]]);
    let b = triangle([[1.0, 1.0, 0.0], [5.0, 1.0, 0.0], [1.0, 5.0, 0.0]]);
    assert!(collide_at(&a, &b, [0.0; 3]).collides());
    // b's corner (1, 1) moved onto a's hypotenuse x + y = 4: touching.
    assert!(collide_at(&a, &b, [1.0, 1.0, 0.0]).collides());
    assert_eq!(
        collide_at(&a, &b, [1.0 + TINY, 1.0, 0.0]),
        Verdict::Separated
    );
    // One inside the other, no edges crossing.
    let small = triangle([[0.5, 0.5, 0.0], [1.0, 0.5, 0.0], [0.5, 1.0, 0.0]]);
    assert!(collide_at(&a, &small, [0.0; 3]).collides());
    assert!(collide_at(&small, &a, [0.0; 3]).collides());
}

#[test]
fn a_triangle_one_ulp_above_a_face_is_separated() {
    let c = cube(1.0);
    let t = triangle([[0.2, 0.2, 0.0], [0.8, 0.2, 0.0], [0.5, 0.8, 0.0]]);
    let above = 1.0f64.next_up();
    assert_eq!(collide_at(&c, &t, [0.0, 0.0, above]), Verdict::Separated);
    assert!(collide_at(&c, &t, [0.0, 0.0, 1.0]).collides());
    // Tilted: one corner one ulp above the face, the others higher.
    let tilted = triangle([[0.5, 0.5, 0.0], [0.9, 0.5, 0.5], [0.5, 0.9, 0.25]]);
    assert_eq!(
        collide_at(&c, &tilted, [0.0, 0.0, above]),
        Verdict::Separated
    );
    assert!(collide_at(&c, &tilted, [0.0, 0.0, 1.0]).collides());
}

#[test]
fn degenerate_triangles_are_segments_and_points() {
    let a = triangle([[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]]);
    // A segment through the plane, inside the triangle.
    let needle = triangle([[1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.5]]);
    assert!(collide_at(&a, &needle, [0.0; 3]).collides());
    assert_eq!(collide_at(&a, &needle, [3.0, 3.0, 0.0]), Verdict::Separated);
    // A point on the hypotenuse, and just off it.
    let point = triangle([[2.0, 2.0, 0.0]; 3]);
    assert!(collide_at(&a, &point, [0.0; 3]).collides());
    assert_eq!(collide_at(&a, &point, [TINY, 0.0, 0.0]), Verdict::Separated);
    // Two collinear segments overlapping, and end to end.
    let s = triangle([[0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [1.0, 1.0, 1.0]]);
    assert!(collide_at(&s, &s, [1.0, 1.0, 1.0]).collides());
    assert!(collide_at(&s, &s, [2.0, 2.0, 2.0]).collides());
    assert_eq!(
        collide_at(&s, &s, [2.0 + 2.0 * TINY, 2.0, 2.0]),
        Verdict::Separated
    );
}

#[test]
fn the_rotation_is_applied_exactly() {
    // A quarter turn about z as exact entries, and the same placed 2^-40 apart.
    let c = cube(1.0);
    let quarter = OraclePose {
        rotation: [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
        translation: [0.0, 0.0, 0.0],
    };
    // The turned cube occupies [-1, 0] x [0, 1] x [0, 1]: it touches c at x = 0.
    assert!(exact_collide(&c, &OraclePose::IDENTITY, &c, &quarter).collides());
    let apart = OraclePose {
        translation: [-TINY, 0.0, 0.0],
        ..quarter
    };
    assert_eq!(
        exact_collide(&c, &OraclePose::IDENTITY, &c, &apart),
        Verdict::Separated
    );
}

#[test]
fn decompose_is_exact() {
    for x in [1.0, -0.375, 1e-310, f64::MAX, 1234.5678901, -TINY] {
        let (m, e) = decompose(x);
        assert!(m % 2 != 0);
        assert_eq!(m as f64 * 2f64.powi(e as i32), x, "{x}");
    }
    assert_eq!(decompose(0.0), (0, 0));
}

#[test]
fn world_coordinates_equal_rational_arithmetic() {
    let mut rng = SeededRng::new(20);
    for _ in 0..50 {
        let mesh = OracleMesh {
            vertices: (0..4)
                .map(|_| std::array::from_fn(|_| rng.range(-5000.0, 5000.0)))
                .collect(),
            triangles: vec![[0, 1, 2], [1, 2, 3]],
        };
        let q = rng.rotation().to_rotation_matrix().into_inner();
        let pose = OraclePose {
            rotation: std::array::from_fn(|i| std::array::from_fn(|j| q[(i, j)])),
            translation: std::array::from_fn(|_| rng.range(-1e4, 1e4)),
        };
        let scale = common_scale([(&mesh, &pose), (&mesh, &OraclePose::IDENTITY)]);
        let w = WorldVertices::new(&mesh, &pose, scale);
        let rational = |x: f64| BigRational::from_float(x).expect("finite");
        let denominator = BigRational::from_integer(BigInt::one() << (scale as u64));
        for (v, exact) in mesh.vertices.iter().zip(&w.exact) {
            for (i, coordinate) in exact.iter().enumerate() {
                let mut sum = rational(pose.translation[i]);
                for (r, x) in pose.rotation[i].iter().zip(v) {
                    sum += rational(*r) * rational(*x);
                }
                assert_eq!(
                    BigRational::from_integer(coordinate.clone()) / &denominator,
                    sum
                );
            }
        }
    }
}
