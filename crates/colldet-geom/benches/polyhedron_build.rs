//! Building a `Polyhedron` (validation, clean-up, DCEL, orientation, classification) from 100k
//! faces: a torus of quads, the same torus triangulated (200k triangles), and the triangulated
//! torus with every other face flipped (forcing the orientation repair and a second DCEL build);
//! and the bare DCEL build (`Dcel::from_polygons`) of the same faces.

use colldet_geom::{BuildOptions, Dcel, FaceList, MeshData, Polyhedron};
use colldet_testkit::shapes::torus;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

fn triangulated(mesh: &MeshData, flip_every_other: bool) -> MeshData {
    let mut faces = FaceList::new();
    for face in mesh.faces.iter() {
        for k in 1..face.len() - 1 {
            let t = [face[0], face[k], face[k + 1]];
            if flip_every_other && faces.len() % 2 == 1 {
                faces.push(&[t[0], t[2], t[1]]);
            } else {
                faces.push(&t);
            }
        }
    }
    MeshData::new(mesh.vertices.clone(), faces)
}

fn polyhedron_build(c: &mut Criterion) {
    let quads = torus(3.0, 1.0, 400, 250).expect("valid torus");
    assert_eq!(quads.faces.len(), 100_000);
    let cases = [
        ("torus_100k_quads", quads.clone()),
        ("torus_200k_triangles", triangulated(&quads, false)),
        (
            "torus_200k_triangles_half_flipped",
            triangulated(&quads, true),
        ),
    ];
    let mut group = c.benchmark_group("polyhedron_build");
    group.sample_size(20);
    for (name, mesh) in &cases {
        group.bench_function(format!("dcel_only/{name}"), |b| {
            b.iter_batched(
                || mesh.faces.clone(),
                |faces| Dcel::from_polygons(mesh.vertices.len(), faces).expect("clean faces"),
                BatchSize::LargeInput,
            )
        });
    }
    for (name, mesh) in cases {
        group.bench_function(name, |b| {
            b.iter_batched(
                || mesh.clone(),
                |m| Polyhedron::build(m, &BuildOptions::default()).expect("builds"),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, polyhedron_build);
criterion_main!(benches);
