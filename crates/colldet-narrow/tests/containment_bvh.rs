//! Tree-accelerated containment against the full scans it replaces: `point_in_polyhedron_bvh`
//! against `point_in_polyhedron(_with)` on degenerate grids (rays through vertices, along edges
//! and in face planes), grazing rays and boundary points, with and without a pose; and
//! `containment_bvh` against `containment_with` on random poses of nested and overlapping
//! multi-component shapes (same answer and same witness every time).

mod common;

use colldet_geom::math::{Isometry, PointD, Pose, to_f64};
use colldet_geom::{Aabb, BuildOptions, MeshData, Obb, Polyhedron};
use colldet_narrow::mesh::bvh::{
    BvhBuildOptions, BvhVolume, MeshBvh, MeshQueryWorkspace, SplitRule,
};
use colldet_narrow::mesh::{
    ArbitraryWorkspace, ComponentSeeds, PointLocation, SolidMesh, WitnessKind, containment_bvh,
    containment_with, point_in_polyhedron, point_in_polyhedron_bvh, point_in_polyhedron_with,
};
use colldet_narrow::{NarrowError, PoseMatrix};
use colldet_testkit::shapes::{cube_array, sphere, tetra_flake, torus};
use common::{NarrowDraws, SplitMix64, to_iso};
use nalgebra::{Translation3, UnitQuaternion};

fn build(mesh: MeshData) -> Polyhedron {
    Polyhedron::build(mesh, &BuildOptions::default()).unwrap()
}

fn tree<V: BvhVolume>(poly: &Polyhedron, options: &BvhBuildOptions) -> MeshBvh<V> {
    let mesh = MeshData::new(poly.vertices().to_vec(), poly.dcel().faces().clone());
    MeshBvh::build(&mesh, options).unwrap()
}

fn scaled(mut m: MeshData, s: f32) -> MeshData {
    for v in &mut m.vertices {
        v.coords *= s;
    }
    m
}

fn options() -> [BvhBuildOptions; 3] {
    [
        BvhBuildOptions::default(),
        BvhBuildOptions {
            max_leaf_triangles: 1,
            split: SplitRule::MeanOfLongestAxis,
        },
        BvhBuildOptions {
            max_leaf_triangles: 4,
            split: SplitRule::BinnedSah,
        },
    ]
}

/// Half-integer grid over a 3x3x3 cube array (every ray along x runs through vertices, along
/// edges and inside face planes), in the local frame and shifted by an exact translation.
fn grid_case<V: BvhVolume>() {
    let poly = build(cube_array(3, 3, 3, 2.0, 1.0).unwrap());
    let shift = Pose::from_parts(
        Translation3::new(1.0, -2.0, 0.5),
        UnitQuaternion::identity(),
    );
    let mut stack = Vec::new();
    for o in &options() {
        let bvh = tree::<V>(&poly, o);
        let mut counts = [0usize; 3];
        for i in -10..=10 {
            for j in -10..=10 {
                for k in -10..=10 {
                    let q = PointD::new(f64::from(i) / 2.0, f64::from(j) / 2.0, f64::from(k) / 2.0);
                    let expected = point_in_polyhedron(&poly, &q).unwrap();
                    let got = point_in_polyhedron_bvh(&poly, &bvh, None, &q, &mut stack).unwrap();
                    assert_eq!(got, expected, "{q:?}");
                    counts[expected as usize] += 1;
                    let moved = shift * q;
                    let got = point_in_polyhedron_bvh(
                        &poly,
                        &bvh,
                        Some(&PoseMatrix::from_pose(&shift).unwrap()),
                        &moved,
                        &mut stack,
                    )
                    .unwrap();
                    assert_eq!(got, expected, "shifted {q:?}");
                }
            }
        }
        assert!(counts.iter().all(|&n| n > 500), "{counts:?}");
    }
}

#[test]
fn aabb_ray_parity_matches_the_full_scan_on_a_degenerate_grid() {
    grid_case::<Aabb>();
}

#[test]
fn obb_ray_parity_matches_the_full_scan_on_a_degenerate_grid() {
    grid_case::<Obb>();
}

/// Random poses of curved and fractal meshes: random points, points grazing mapped vertices
/// (same y and z), mapped vertices (on the boundary) and mapped edge midpoints.
fn posed_case<V: BvhVolume>(seed: u64) {
    let meshes = [
        build(torus(1.0, 0.4, 24, 12).unwrap()),
        build(sphere(1.2, 16, 9).unwrap()),
        build(tetra_flake(2, 2.0).unwrap()),
        build(cube_array(2, 2, 2, 0.6, 0.3).unwrap()),
    ];
    let mut rng = SplitMix64(seed);
    let mut stack = Vec::new();
    let mut seen = [0usize; 3];
    for poly in &meshes {
        for o in &options() {
            let bvh = tree::<V>(poly, o);
            for _ in 0..12 {
                let t = rng.unit_vector() * rng.range(0.0, 2.0);
                let pose = Pose::from_parts(Translation3::from(t), rng.rotation());
                // The tree maps by the pose's matrix; the reference maps the same way.
                let pose = PoseMatrix::from_pose(&pose).unwrap();
                let mapped: Vec<PointD> = poly
                    .vertices()
                    .iter()
                    .map(|v| pose.transform_point(&to_f64(v)))
                    .collect();
                let full =
                    |q: &PointD| point_in_polyhedron_with(poly, |v| mapped[v.index()], q).unwrap();
                for n in 0..200 {
                    let v = mapped[rng.usize_in(0, mapped.len() - 1)];
                    let w = mapped[rng.usize_in(0, mapped.len() - 1)];
                    let q = match n % 4 {
                        0 => PointD::from(t + rng.unit_vector() * rng.range(0.0, 2.5)),
                        1 => PointD::new(v.x + rng.range(-2.0, 2.0), v.y, v.z),
                        2 => v,
                        _ => PointD::from((v.coords + w.coords) * 0.5),
                    };
                    let expected = full(&q);
                    let got =
                        point_in_polyhedron_bvh(poly, &bvh, Some(&pose), &q, &mut stack).unwrap();
                    assert_eq!(got, expected, "{q:?}");
                    seen[expected as usize] += 1;
                }
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 300), "{seen:?}");
}

#[test]
fn aabb_ray_parity_matches_the_full_scan_under_random_poses() {
    posed_case::<Aabb>(0xc0a1);
}

#[test]
fn obb_ray_parity_matches_the_full_scan_under_random_poses() {
    posed_case::<Obb>(0xc0a2);
}

/// `containment_bvh` equals `containment_with` (answer and witness) on 4,000 random poses of
/// pairs drawn from closed single- and multi-component shapes of different sizes, placed so that
/// nesting is common.
fn containment_case<V: BvhVolume>(seed: u64) {
    let polys = [
        build(torus(1.0, 0.45, 24, 12).unwrap()),
        build(sphere(1.2, 16, 9).unwrap()),
        build(scaled(sphere(1.0, 8, 5).unwrap(), 0.25)),
        build(tetra_flake(2, 2.0).unwrap()),
        build(cube_array(3, 2, 2, 0.3, 0.2).unwrap()),
        build(scaled(cube_array(2, 2, 1, 0.3, 0.1).unwrap(), 0.5)),
    ];
    let trees: Vec<MeshBvh<V>> = polys
        .iter()
        .map(|p| tree(p, &BvhBuildOptions::default()))
        .collect();
    let seeds: Vec<ComponentSeeds> = polys.iter().map(ComponentSeeds::new).collect();
    let solids: Vec<SolidMesh<'_, V>> = (0..polys.len())
        .map(|i| SolidMesh::new(&polys[i], &trees[i], &seeds[i]).unwrap())
        .collect();
    let mut rng = SplitMix64(seed);
    let mut ws = MeshQueryWorkspace::new();
    let mut arbitrary = ArbitraryWorkspace::new();
    let (mut inside1, mut inside2) = (0, 0);
    for _ in 0..4000 {
        let (i, j) = (
            rng.usize_in(0, polys.len() - 1),
            rng.usize_in(0, polys.len() - 1),
        );
        let t = rng.unit_vector() * rng.range(0.0, 1.6);
        let pos12: Isometry = to_iso(&rng.rotation(), &t);
        let expected = containment_with(&polys[i], &polys[j], &pos12, &mut arbitrary).unwrap();
        let got = containment_bvh(&solids[i], &solids[j], &pos12, &mut ws).unwrap();
        assert_eq!(got, expected, "pair ({i}, {j}) at {pos12:?}");
        if let Some(w) = got {
            assert_eq!(w.kind, WitnessKind::Containment);
            if w.feature1 == colldet_narrow::mesh::MeshFeature::Interior {
                inside2 += 1;
            } else {
                inside1 += 1;
            }
        }
    }
    assert!(inside1 > 200 && inside2 > 200, "{inside1} {inside2}");
}

#[test]
fn aabb_containment_matches_the_full_scan_on_4000_poses() {
    containment_case::<Aabb>(0xc0b1);
}

#[test]
fn obb_containment_matches_the_full_scan_on_4000_poses() {
    containment_case::<Obb>(0xc0b2);
}

#[test]
fn mismatched_parts_and_bad_input_are_typed_errors() {
    let cube = build(cube_array(1, 1, 1, 2.0, 0.0).unwrap());
    let ball = build(sphere(1.0, 8, 5).unwrap());
    let cube_tree = tree::<Aabb>(&cube, &BvhBuildOptions::default());
    let ball_seeds = ComponentSeeds::new(&ball);
    let cube_seeds = ComponentSeeds::new(&cube);
    assert!(matches!(
        SolidMesh::new(&cube, &cube_tree, &ball_seeds),
        Err(NarrowError::InvalidParameter { .. })
    ));
    assert!(matches!(
        SolidMesh::new(&ball, &cube_tree, &cube_seeds),
        Err(NarrowError::InvalidParameter { .. })
    ));
    let mut stack = Vec::new();
    assert!(matches!(
        point_in_polyhedron_bvh(&ball, &cube_tree, None, &PointD::origin(), &mut stack),
        Err(NarrowError::InvalidParameter { .. })
    ));
    assert!(matches!(
        point_in_polyhedron_bvh(
            &cube,
            &cube_tree,
            None,
            &PointD::new(f64::NAN, 0.0, 0.0),
            &mut stack
        ),
        Err(NarrowError::NonFinite { .. })
    ));
    let open = build(MeshData::new(
        cube.vertices().to_vec(),
        colldet_geom::FaceList::from_triangles(&[[0, 1, 2]]),
    ));
    let open_tree = tree::<Aabb>(&open, &BvhBuildOptions::default());
    assert!(matches!(
        point_in_polyhedron_bvh(&open, &open_tree, None, &PointD::origin(), &mut stack),
        Err(NarrowError::NotClosed { .. })
    ));
    assert_eq!(
        point_in_polyhedron_bvh(&cube, &cube_tree, None, &PointD::origin(), &mut stack).unwrap(),
        PointLocation::Inside
    );
    let solid = SolidMesh::new(&cube, &cube_tree, &cube_seeds).unwrap();
    let mut ws = MeshQueryWorkspace::new();
    let nan = Isometry::translation(f32::NAN, 0.0, 0.0);
    assert!(matches!(
        containment_bvh(&solid, &solid, &nan, &mut ws),
        Err(NarrowError::NonFinite { .. })
    ));
}
