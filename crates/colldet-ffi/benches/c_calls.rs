//! Per-call cost of the C functions an engine calls every frame for every object: `colSetTransformd`
//! and `colSetTransform` (column-major matrices in `f64` and `f32`), through the whole C boundary
//! (handle check, panic guard, rigidity check, nearest rotation, moved mark), on 1,000 objects.
//! The figure to read is the time per 1,000 calls; the goal is under 100 ns a call.

use std::hint::black_box;

use colldet::{
    COL_OK, ColConfig, ColMeshDesc, ColObjectId, ColWorld, colExit, colInit, colMakeCollidable,
    colMakeInstance, colSetTransform, colSetTransformd,
};
use criterion::{Criterion, criterion_group, criterion_main};

const OBJECTS: usize = 1000;

/// A unit cube's corners and its six quadrilateral faces (outward, counter-clockwise).
const CUBE_VERTICES: [f32; 24] = [
    0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1., 0., 0., 0., 1., 1., 0., 1., 1., 1., 1., 0., 1., 1.,
];
const CUBE_INDICES: [u32; 24] = [
    0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4, 2, 3, 7, 6, 1, 2, 6, 5, 0, 4, 7, 3,
];
const CUBE_FACE_SIZES: [u32; 6] = [4; 6];

/// A serial world (no flags) holding `OBJECTS` instances of the cube.
fn cube_world() -> (*mut ColWorld, Vec<ColObjectId>) {
    let config = ColConfig {
        flags: 0,
        ..ColConfig::default()
    };
    let mut world = std::ptr::null_mut();
    // SAFETY: valid pointers throughout; the world lives until `colExit`.
    unsafe {
        assert_eq!(colInit(&config, &mut world), COL_OK);
        let desc = ColMeshDesc {
            vertices: CUBE_VERTICES.as_ptr(),
            vertex_count: 8,
            indices: CUBE_INDICES.as_ptr(),
            face_sizes: CUBE_FACE_SIZES.as_ptr(),
            face_count: 6,
        };
        let mut first = 0;
        let null = std::ptr::null_mut();
        assert_eq!(colMakeCollidable(world, &desc, null, &mut first), COL_OK);
        let mut ids = vec![first];
        for _ in 1..OBJECTS {
            let mut id = 0;
            assert_eq!(colMakeInstance(world, first, null, &mut id), COL_OK);
            ids.push(id);
        }
        (world, ids)
    }
}

/// The column-major matrix of the rotation by `angle` about the unit axis `(0.6, 0, 0.8)` followed
/// by the translation `t`, each rotation entry plus `noise`.
fn pose_matrix(angle: f64, t: [f64; 3], noise: f64) -> [f64; 16] {
    let (s, c) = angle.sin_cos();
    let (x, y, z) = (0.6, 0.0, 0.8);
    let r = [
        [
            c + x * x * (1. - c),
            x * y * (1. - c) - z * s,
            x * z * (1. - c) + y * s,
        ],
        [
            y * x * (1. - c) + z * s,
            c + y * y * (1. - c),
            y * z * (1. - c) - x * s,
        ],
        [
            z * x * (1. - c) - y * s,
            z * y * (1. - c) + x * s,
            c + z * z * (1. - c),
        ],
    ];
    let mut m = [0.0; 16];
    for col in 0..3 {
        for row in 0..3 {
            m[col * 4 + row] = r[row][col] + noise;
        }
        m[12 + col] = t[col];
    }
    m[15] = 1.0;
    m
}

fn set_transform(c: &mut Criterion) {
    let (world, ids) = cube_world();
    for (name, noise) in [("f64-rigid", 0.0), ("f32-noise", 3e-7)] {
        let matrices: Vec<[f64; 16]> = (0..OBJECTS)
            .map(|k| {
                let k = k as f64;
                pose_matrix(0.01 * k, [k, 0.5 * k, -2.0], noise)
            })
            .collect();
        let matrices_f32: Vec<[f32; 16]> = matrices.iter().map(|m| m.map(|x| x as f32)).collect();
        c.bench_function(&format!("colSetTransformd/{name}/1000"), |b| {
            b.iter(|| {
                for (&id, m) in ids.iter().zip(&matrices) {
                    // SAFETY: a live world, a live id and 16 readable doubles.
                    let status = unsafe { colSetTransformd(world, id, black_box(m).as_ptr()) };
                    assert_eq!(status, COL_OK);
                }
            })
        });
        c.bench_function(&format!("colSetTransform/{name}/1000"), |b| {
            b.iter(|| {
                for (&id, m) in ids.iter().zip(&matrices_f32) {
                    // SAFETY: as above, 16 readable floats.
                    let status = unsafe { colSetTransform(world, id, black_box(m).as_ptr()) };
                    assert_eq!(status, COL_OK);
                }
            })
        });
    }
    // SAFETY: the live world, not used again.
    assert_eq!(unsafe { colExit(world) }, COL_OK);
}

criterion_group!(benches, set_transform);
criterion_main!(benches);
