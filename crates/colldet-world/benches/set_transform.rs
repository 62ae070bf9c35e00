//! Per-call cost of setting poses from column-major matrices (`World::set_transform_matrix`, what
//! `colSetTransformd` runs): the rigidity check, the nearest rotation, the quaternion and the
//! moved mark, for 1,000 objects and rotations off by `f64` rounding and by `f32` noise.

use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::shapes::cuboid;
use colldet_world::{Config, World};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const OBJECTS: usize = 1000;

fn column_major(pose: &Pose, noise: f64) -> [f64; 16] {
    let h = pose.to_homogeneous();
    std::array::from_fn(|i| h[(i % 4, i / 4)] + if i % 4 < 3 && i < 12 { noise } else { 0.0 })
}

fn set_transform(c: &mut Criterion) {
    let mut world = World::new(Config {
        threads: 1,
        ..Config::default()
    })
    .unwrap();
    let mesh = cuboid(VectorD::repeat(0.5)).unwrap();
    let first = world.make_collidable(mesh, ()).unwrap();
    let ids: Vec<_> = std::iter::once(first)
        .chain((1..OBJECTS).map(|_| world.make_instance(first, ()).unwrap()))
        .collect();
    for (name, noise) in [("f64-rigid", 0.0), ("f32-noise", 3e-7)] {
        let matrices: Vec<[f64; 16]> = (0..OBJECTS)
            .map(|k| {
                let t = VectorD::new(k as f64, 0.5 * k as f64, -2.0);
                let axis = VectorD::new(0.3, -0.7, 0.2) * (0.01 * k as f64);
                column_major(&Pose::new(t, axis), noise)
            })
            .collect();
        c.bench_function(&format!("set_transform_matrix/{name}/1000"), |b| {
            b.iter(|| {
                for (id, m) in ids.iter().zip(&matrices) {
                    world.set_transform_matrix(*id, black_box(m)).unwrap();
                }
            })
        });
    }
}

criterion_group!(benches, set_transform);
criterion_main!(benches);
