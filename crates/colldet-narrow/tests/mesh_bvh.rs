//! Mesh BVH: tree validation after build and refit, surface intersection against brute force on
//! seeded random and near-touching poses, triangle and mesh distance against brute force and
//! GJK, analytic cube cases, error handling.

mod common;

use colldet_geom::math::{Isometry, Point, PointD, Vector, to_f64};
use colldet_geom::{Aabb, MeshData, Obb};
use colldet_narrow::mesh::bvh::{
    BvhBuildOptions, BvhVolume, ContactReport, ExactTriangleTest, MeshBvh, MeshDistanceCache,
    MeshDistanceOptions, MeshIntersectionOptions, MeshQueryWorkspace, ObbRss, Rss, SplitRule,
    TriangleId, TrianglePairHit, mesh_distance, mesh_surfaces_intersect,
    surfaces_intersect_brute_force, triangle_distance,
};
use colldet_narrow::{GjkCache, NarrowError, PointCloud, gjk_distance};
use colldet_testkit::shapes::{cube_array, cuboid, hyperboloid, sphere, tetra_flake, torus};
use common::{NarrowDraws, SplitMix64, to_iso};
use nalgebra::{Translation3, UnitQuaternion, Vector3};

fn test_shapes() -> Vec<(&'static str, MeshData)> {
    vec![
        ("torus", torus(1.0, 0.3, 12, 8).unwrap()),
        ("tetra_flake", tetra_flake(2, 0.8).unwrap()),
        ("cube_array", cube_array(2, 2, 2, 0.5, 0.2).unwrap()),
        ("hyperboloid", hyperboloid(0.5, 1.0, 2.0, 12, 4).unwrap()),
        ("sphere", sphere(1.0, 12, 8).unwrap()),
    ]
}

fn all_options() -> Vec<BvhBuildOptions> {
    let mut v = Vec::new();
    for split in [SplitRule::BinnedSah, SplitRule::MeanOfLongestAxis] {
        for max_leaf_triangles in 1..=4 {
            v.push(BvhBuildOptions {
                max_leaf_triangles,
                split,
            });
        }
    }
    v
}

fn fan_triangle_count(m: &MeshData) -> usize {
    m.faces.iter().map(|f| f.len() - 2).sum()
}

fn check_build<V: BvhVolume>(mesh: &MeshData, options: &BvhBuildOptions) -> MeshBvh<V> {
    let bvh = MeshBvh::<V>::build(mesh, options).unwrap();
    bvh.validate().unwrap();
    assert_eq!(bvh.triangle_count(), fan_triangle_count(mesh));
    // Every triangle is one of its source face's fan triangles.
    for t in 0..bvh.triangle_count() as u32 {
        let [a, b, c] = bvh.triangle_indices(TriangleId(t));
        let face = mesh.faces.face(bvh.source_face(TriangleId(t)).0 as usize);
        assert_eq!(a, face[0]);
        let k = face.iter().position(|&x| x == b).unwrap();
        assert_eq!(face[k + 1], c);
    }
    // Leaves respect the size limit.
    for n in bvh.nodes() {
        if let Some(r) = n.triangles() {
            assert!(!r.is_empty() && r.len() <= options.max_leaf_triangles as usize);
        }
    }
    bvh
}

#[test]
fn build_and_refit_validate_on_every_shape() {
    let mut rng = SplitMix64(0xb0b);
    for (name, mesh) in test_shapes() {
        for options in all_options() {
            let mut aabb = check_build::<Aabb>(&mesh, &options);
            let mut obb = check_build::<Obb>(&mesh, &options);
            let mut obb_rss = check_build::<ObbRss>(&mesh, &options);
            let mut rss = check_build::<Rss>(&mesh, &options);
            // Deform: anisotropic scale, twist and noise; same topology.
            let moved: Vec<Point> = mesh
                .vertices
                .iter()
                .map(|p| {
                    let ang = 0.4 * f64::from(p.z);
                    let (s, c) = ang.sin_cos();
                    let (x, y) = (f64::from(p.x), f64::from(p.y));
                    Point::new(
                        (1.5 * (c * x - s * y) + rng.range(-0.05, 0.05)) as f32,
                        (0.7 * (s * x + c * y) + rng.range(-0.05, 0.05)) as f32,
                        (f64::from(p.z) + rng.range(-0.05, 0.05)) as f32,
                    )
                })
                .collect();
            aabb.refit(&moved).unwrap();
            aabb.validate()
                .unwrap_or_else(|e| panic!("{name} {options:?} aabb after refit: {e}"));
            obb.refit(&moved).unwrap();
            obb.validate()
                .unwrap_or_else(|e| panic!("{name} {options:?} obb after refit: {e}"));
            obb_rss.refit(&moved).unwrap();
            obb_rss
                .validate()
                .unwrap_or_else(|e| panic!("{name} {options:?} obbrss after refit: {e}"));
            rss.refit(&moved).unwrap();
            rss.validate()
                .unwrap_or_else(|e| panic!("{name} {options:?} rss after refit: {e}"));
            assert_eq!(aabb.vertices(), &moved[..]);
            // The refitted root box is the box of the moved vertices.
            let tight = Aabb::from_points(&moved).unwrap();
            assert_eq!(*aabb.root_volume(), tight);
        }
    }
}

/// Refit fits bottom-up exactly as the build does: refitting to moved vertices gives volumes
/// that contain every moved triangle, and refitting back gives the built tree bit for bit (so a
/// refit equals a build with the same topology on the new vertices).
fn check_refit_matches_build<V: BvhVolume + PartialEq>(
    mesh: &MeshData,
    options: &BvhBuildOptions,
    moved: &[Point],
) {
    let built = MeshBvh::<V>::build(mesh, options).unwrap();
    let mut bvh = built.clone();
    bvh.refit(moved).unwrap();
    bvh.validate().unwrap();
    for n in bvh.nodes() {
        let Some(range) = n.triangles() else { continue };
        for t in range {
            for p in bvh.triangle(TriangleId(t)) {
                assert!(n.volume.contains_point(&p));
            }
        }
    }
    bvh.refit(&mesh.vertices).unwrap();
    assert!(bvh.nodes() == built.nodes(), "{} {options:?}", V::NAME);
}

#[test]
fn refit_equals_a_build_with_the_same_topology() {
    let mut rng = SplitMix64(0x2ef1);
    for (_, mesh) in test_shapes() {
        let moved: Vec<Point> = mesh
            .vertices
            .iter()
            .map(|p| {
                let s = 1.0 + 0.3 * f64::from(p.z).sin();
                Point::new(
                    (s * f64::from(p.x) + rng.range(-0.1, 0.1)) as f32,
                    (f64::from(p.y) / s + rng.range(-0.1, 0.1)) as f32,
                    (f64::from(p.z) * 1.3 + rng.range(-0.1, 0.1)) as f32,
                )
            })
            .collect();
        for options in all_options() {
            check_refit_matches_build::<Aabb>(&mesh, &options, &moved);
            check_refit_matches_build::<Obb>(&mesh, &options, &moved);
            check_refit_matches_build::<ObbRss>(&mesh, &options, &moved);
            check_refit_matches_build::<Rss>(&mesh, &options, &moved);
        }
    }
}

#[test]
fn refit_errors_leave_the_tree_unchanged() {
    let mesh = sphere(1.0, 8, 6).unwrap();
    let mut bvh = MeshBvh::<Aabb>::build(&mesh, &BvhBuildOptions::default()).unwrap();
    let mut big = mesh.vertices.clone();
    big[0] = Point::new(0.0, 0.0, 3.0);
    let mut other = bvh.clone();
    other.refit(&big).unwrap();
    other.validate().unwrap();
    assert_eq!(other.root_volume().maxs.z, 3.0);
    assert!(matches!(
        bvh.refit(&big[1..]),
        Err(NarrowError::InvalidParameter { .. })
    ));
    big[3].x = f32::NAN;
    assert!(matches!(bvh.refit(&big), Err(NarrowError::Geom(_))));
    bvh.validate().unwrap();
    assert_eq!(bvh.vertices(), &mesh.vertices[..]);
    assert_eq!(bvh.root_volume().maxs.z, 1.0);
}

#[test]
fn bad_input_gives_typed_errors() {
    let mesh = cuboid(Vector3::new(0.5, 0.5, 0.5)).unwrap();
    for max_leaf_triangles in [0, 5] {
        let o = BvhBuildOptions {
            max_leaf_triangles,
            ..Default::default()
        };
        assert!(matches!(
            MeshBvh::<Aabb>::build(&mesh, &o),
            Err(NarrowError::InvalidParameter { .. })
        ));
    }
    let mut bad = mesh.clone();
    bad.vertices[2].y = f32::INFINITY;
    assert!(matches!(
        MeshBvh::<Obb>::build(&bad, &BvhBuildOptions::default()),
        Err(NarrowError::Geom(_))
    ));
    let bvh = MeshBvh::<Aabb>::build(&mesh, &BvhBuildOptions::default()).unwrap();
    let mut ws = MeshQueryWorkspace::new();
    let nan = Isometry::translation(f32::NAN, 0.0, 0.0);
    assert!(matches!(
        mesh_surfaces_intersect(&bvh, &bvh, &nan, &Default::default(), &mut ws),
        Err(NarrowError::NonFinite { .. })
    ));
    let mut cache = MeshDistanceCache::new();
    assert!(matches!(
        mesh_distance(&bvh, &bvh, &nan, &Default::default(), &mut cache, &mut ws),
        Err(NarrowError::NonFinite { .. })
    ));
    let o = MeshDistanceOptions {
        relative_error: -1.0,
    };
    assert!(matches!(
        mesh_distance(&bvh, &bvh, &Isometry::identity(), &o, &mut cache, &mut ws),
        Err(NarrowError::InvalidParameter { .. })
    ));
}

/// A random pose of shape 2 around shape 1: uniform rotation, translation in a random direction
/// at a distance up to the sum of the bounding radii.
fn random_pose(rng: &mut SplitMix64, reach: f64) -> Isometry {
    let rot = rng.rotation();
    let t = rng.unit_vector() * rng.range(0.0, reach);
    to_iso(&rot, &t)
}

fn radius(m: &MeshData) -> f64 {
    m.vertices
        .iter()
        .map(|p| to_f64(p).coords.norm())
        .fold(0.0, f64::max)
}

/// Moves shape 2 along the closest-point direction so the surfaces (nearly) touch: the gap left
/// is `gap` times the distance, negative values push it slightly through.
fn near_touching<V: BvhVolume>(
    b1: &MeshBvh<V>,
    b2: &MeshBvh<V>,
    pose: &Isometry,
    gap: f64,
    ws: &mut MeshQueryWorkspace,
) -> Option<Isometry> {
    let d = mesh_distance(
        b1,
        b2,
        pose,
        &Default::default(),
        &mut MeshDistanceCache::new(),
        ws,
    )
    .unwrap();
    if d.distance <= 0.0 {
        return None;
    }
    let dir = (d.point1 - d.point2) / d.distance;
    let shift = dir * d.distance * (1.0 - gap);
    let t = pose.translation.vector.cast::<f64>() + shift;
    Some(Isometry::from_parts(
        Translation3::new(t.x as f32, t.y as f32, t.z as f32),
        pose.rotation,
    ))
}

fn differential<V: BvhVolume>(cases: usize, seed: u64) -> (usize, usize) {
    let shapes = test_shapes();
    let options = [
        BvhBuildOptions::default(),
        BvhBuildOptions {
            max_leaf_triangles: 1,
            split: SplitRule::MeanOfLongestAxis,
        },
        BvhBuildOptions {
            max_leaf_triangles: 4,
            split: SplitRule::BinnedSah,
        },
    ];
    let trees: Vec<Vec<MeshBvh<V>>> = options
        .iter()
        .map(|o| {
            shapes
                .iter()
                .map(|(_, m)| MeshBvh::<V>::build(m, o).unwrap())
                .collect()
        })
        .collect();
    let radii: Vec<f64> = shapes.iter().map(|(_, m)| radius(m)).collect();
    let mut rng = SplitMix64(seed);
    let mut ws = MeshQueryWorkspace::new();
    let mut brute = Vec::new();
    let (mut hits, mut near) = (0, 0);
    for case in 0..cases {
        let o = case % options.len();
        let (i, j) = (
            rng.usize_in(0, shapes.len() - 1),
            rng.usize_in(0, shapes.len() - 1),
        );
        let (b1, b2) = (&trees[o][i], &trees[o][j]);
        let reach = radii[i] + radii[j];
        let mut pose = random_pose(&mut rng, 1.2 * reach);
        if case % 4 == 0 {
            // Near-touching: from a disjoint pose, move in to a gap of -1e-3 .. 1e-3 of the
            // distance.
            pose = to_iso(&rng.rotation(), &(rng.unit_vector() * 1.5 * reach));
            let gap = rng.range(-1e-3, 1e-3);
            if let Some(p) = near_touching(b1, b2, &pose, gap, &mut ws) {
                pose = p;
                near += 1;
            }
        }
        brute.clear();
        let expect =
            surfaces_intersect_brute_force(b1, b2, &pose, &mut ExactTriangleTest, &mut brute)
                .unwrap();
        let all = MeshIntersectionOptions {
            report: ContactReport::All,
        };
        let got = mesh_surfaces_intersect(b1, b2, &pose, &all, &mut ws).unwrap();
        assert_eq!(got, expect, "case {case}: shapes {i} {j} pose {pose:?}");
        let key = |h: &TrianglePairHit| (h.triangle1, h.triangle2, h.face1, h.face2);
        let mut found: Vec<_> = ws.hits().iter().map(key).collect();
        found.sort();
        let brute_keys: Vec<_> = brute.iter().map(key).collect();
        assert_eq!(found, brute_keys, "case {case}: hit sets differ");
        // The witness points are common points of the two triangles (up to rounding).
        for h in ws.hits() {
            let t1 = b1.triangle_f64(h.triangle1);
            let d = triangle_distance(&t1, &[h.point; 3]).distance;
            assert!(d <= 1e-9 * reach, "case {case}: witness {d} off triangle 1");
        }
        let first = mesh_surfaces_intersect(b1, b2, &pose, &Default::default(), &mut ws).unwrap();
        assert_eq!(first, expect, "case {case}: first-contact answer");
        assert_eq!(ws.hits().len(), usize::from(expect));
        if let Some(h) = ws.hits().first() {
            assert!(brute_keys.binary_search(&key(h)).is_ok());
        }
        hits += usize::from(expect);
    }
    (hits, near)
}

#[test]
fn aabb_tree_matches_brute_force_on_20000_poses() {
    let (hits, near) = differential::<Aabb>(20_000, 0x00a1_b2c3);
    // Both answers are well represented, and many poses are near-touching.
    assert!(hits > 5_000 && hits < 18_000, "{hits} intersecting poses");
    assert_eq!(near, 5_000, "near-touching poses");
}

#[test]
fn rss_tree_matches_brute_force_on_6000_poses() {
    let (hits, near) = differential::<Rss>(6_000, 0x0455_0455);
    assert!(hits > 1_000 && hits < 5_500, "{hits} intersecting poses");
    assert_eq!(near, 1_500, "near-touching poses");
}

#[test]
fn obb_tree_matches_brute_force_on_6000_poses() {
    let (hits, near) = differential::<Obb>(6_000, 0x0bb0_0bb0);
    assert!(hits > 1_000 && hits < 5_500, "{hits} intersecting poses");
    assert_eq!(near, 1_500, "near-touching poses");
}

fn random_triangle(rng: &mut SplitMix64, center: Vector3<f64>, size: f64) -> [Point; 3] {
    std::array::from_fn(|_| {
        let v = center + rng.unit_vector() * rng.range(0.0, size);
        Point::new(v.x as f32, v.y as f32, v.z as f32)
    })
}

fn point_triangle_distance(p: &PointD, t: &[PointD; 3]) -> f64 {
    // Reference: minimum over a dense barycentric grid plus the three edges (upper bound, tight
    // to the grid step).
    let n = 60;
    let mut best = f64::INFINITY;
    for i in 0..=n {
        for j in 0..=n - i {
            let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
            let q = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v;
            best = best.min((q - p).norm());
        }
    }
    best
}

#[test]
fn triangle_distance_matches_gjk_on_2000_disjoint_pairs() {
    let mut rng = SplitMix64(0x7d15);
    let mut done = 0;
    let mut cache = GjkCache::new();
    while done < 2000 {
        let size = 10f64.powf(rng.range(-3.0, 2.0));
        let a = random_triangle(&mut rng, Vector3::zeros(), size);
        let offset = rng.unit_vector() * size * rng.range(0.0, 2.5);
        let size_b = size * rng.range(0.1, 1.5);
        let b = random_triangle(&mut rng, offset, size_b);
        let (ta, tb) = (a.map(|p| to_f64(&p)), b.map(|p| to_f64(&p)));
        if colldet_narrow::mesh::triangles_intersect_f64(&ta, &tb).is_some() {
            continue;
        }
        let d = triangle_distance(&ta, &tb);
        cache.reset();
        let g = gjk_distance(
            &PointCloud::new(a.to_vec()).unwrap(),
            &PointCloud::new(b.to_vec()).unwrap(),
            &Isometry::identity(),
            &mut cache,
        )
        .unwrap();
        let scale = size * 1e-9;
        assert!(
            (d.distance - g.distance).abs() <= 1e-4 * g.distance + scale,
            "pair {done}: {} vs gjk {} ({a:?} {b:?})",
            d.distance,
            g.distance
        );
        // The witnesses are points of the triangles at the reported distance.
        assert!(((d.point1 - d.point2).norm() - d.distance).abs() <= 1e-12 * size);
        if done < 200 {
            let on1 = point_triangle_distance(&d.point1, &ta);
            let on2 = point_triangle_distance(&d.point2, &tb);
            assert!(on1 <= size * 0.05 && on2 <= size * 0.05);
        }
        done += 1;
    }
}

#[test]
fn intersecting_triangles_have_zero_distance() {
    let mut rng = SplitMix64(0x1a7e);
    let mut done = 0;
    while done < 500 {
        let a = random_triangle(&mut rng, Vector3::zeros(), 1.0);
        let c = rng.unit_vector() * 0.3;
        let b = random_triangle(&mut rng, c, 1.0);
        let (ta, tb) = (a.map(|p| to_f64(&p)), b.map(|p| to_f64(&p)));
        if colldet_narrow::mesh::triangles_intersect_f64(&ta, &tb).is_none() {
            continue;
        }
        assert!(triangle_distance(&ta, &tb).distance <= 1e-12, "pair {done}");
        done += 1;
    }
}

fn brute_distance<V: BvhVolume>(b1: &MeshBvh<V>, b2: &MeshBvh<V>, pos12: &Isometry) -> f64 {
    let iso: nalgebra::Isometry3<f64> = nalgebra::convert(*pos12);
    let q = pos12.rotation.into_inner().cast::<f64>();
    let rot = UnitQuaternion::from_quaternion(q).to_rotation_matrix();
    let t2: Vec<[PointD; 3]> = (0..b2.triangle_count() as u32)
        .map(|t| {
            b2.triangle_f64(TriangleId(t))
                .map(|p| PointD::from(rot * p.coords + iso.translation.vector))
        })
        .collect();
    let mut best = f64::INFINITY;
    for t in 0..b1.triangle_count() as u32 {
        let a = b1.triangle_f64(TriangleId(t));
        for b in &t2 {
            best = best.min(triangle_distance(&a, b).distance);
        }
    }
    best
}

fn distance_against_brute_force<V: BvhVolume>(seed: u64) {
    let shapes = test_shapes();
    let trees: Vec<MeshBvh<V>> = shapes
        .iter()
        .map(|(_, m)| MeshBvh::<V>::build(m, &BvhBuildOptions::default()).unwrap())
        .collect();
    let radii: Vec<f64> = shapes.iter().map(|(_, m)| radius(m)).collect();
    let mut rng = SplitMix64(seed);
    let mut ws = MeshQueryWorkspace::new();
    for case in 0..400 {
        let (i, j) = (
            rng.usize_in(0, shapes.len() - 1),
            rng.usize_in(0, shapes.len() - 1),
        );
        let reach = radii[i] + radii[j];
        let dir = rng.unit_vector() * rng.range(0.8 * reach, 2.0 * reach);
        let pose = to_iso(&rng.rotation(), &dir);
        let want = brute_distance(&trees[i], &trees[j], &pose);
        let mut cache = MeshDistanceCache::new();
        let got = mesh_distance(
            &trees[i],
            &trees[j],
            &pose,
            &Default::default(),
            &mut cache,
            &mut ws,
        )
        .unwrap();
        assert!(
            (got.distance - want).abs() <= 1e-12 * reach,
            "case {case}: {} vs brute force {want}",
            got.distance
        );
        assert!(((got.point1 - got.point2).norm() - got.distance).abs() <= 1e-12 * reach);
        assert_eq!(cache.last_pair(), Some((got.triangle1, got.triangle2)));
        // Warm start from the cache gives the same answer with no more triangle tests.
        let cold = ws.triangle_tests();
        let again = mesh_distance(
            &trees[i],
            &trees[j],
            &pose,
            &Default::default(),
            &mut cache,
            &mut ws,
        )
        .unwrap();
        assert_eq!(again.distance, got.distance);
        // (one extra test: the cached pair itself)
        assert!(ws.triangle_tests() <= cold + 1);
        // Approximate mode stays within its relative error.
        let approx = mesh_distance(
            &trees[i],
            &trees[j],
            &pose,
            &MeshDistanceOptions {
                relative_error: 0.1,
            },
            &mut MeshDistanceCache::new(),
            &mut ws,
        )
        .unwrap();
        assert!(approx.distance >= want - 1e-12 * reach && approx.distance <= want * 1.1 + 1e-12);
    }
}

#[test]
fn aabb_mesh_distance_matches_brute_force() {
    distance_against_brute_force::<Aabb>(0xd157);
}

#[test]
fn obb_mesh_distance_matches_brute_force() {
    distance_against_brute_force::<Obb>(0xd158);
}

#[test]
fn rss_mesh_distance_matches_brute_force() {
    distance_against_brute_force::<Rss>(0xd159);
}

#[test]
fn obb_rss_mesh_distance_matches_brute_force() {
    distance_against_brute_force::<ObbRss>(0xd15a);
}

#[test]
fn coherent_motion_reuses_the_closest_pair() {
    let m = torus(1.0, 0.3, 48, 24).unwrap();
    let b = MeshBvh::<Aabb>::build(&m, &BvhBuildOptions::default()).unwrap();
    let mut ws = MeshQueryWorkspace::new();
    let mut cache = MeshDistanceCache::new();
    let (mut warm_tests, mut cold_tests) = (0, 0);
    for step in 0..100 {
        let a = step as f32 * 0.002;
        let pose = Isometry::from_parts(
            Translation3::new(0.0, 0.0, 0.75 + 0.001 * step as f32),
            UnitQuaternion::from_axis_angle(&Vector::x_axis(), 1.2 + a),
        );
        let warm = mesh_distance(&b, &b, &pose, &Default::default(), &mut cache, &mut ws).unwrap();
        warm_tests += ws.triangle_tests() + ws.volume_tests();
        let cold = mesh_distance(
            &b,
            &b,
            &pose,
            &Default::default(),
            &mut MeshDistanceCache::new(),
            &mut ws,
        )
        .unwrap();
        cold_tests += ws.triangle_tests() + ws.volume_tests();
        assert_eq!(warm.distance, cold.distance, "step {step}");
    }
    assert!(
        warm_tests < cold_tests,
        "warm {warm_tests} cold {cold_tests}"
    );
}

fn cube(h: f64) -> MeshData {
    cuboid(Vector3::new(h, h, h)).unwrap()
}

fn analytic_cubes<V: BvhVolume>(scale: f32) {
    let c =
        MeshBvh::<V>::build(&cube(0.5 * f64::from(scale)), &BvhBuildOptions::default()).unwrap();
    let big =
        MeshBvh::<V>::build(&cube(2.0 * f64::from(scale)), &BvhBuildOptions::default()).unwrap();
    let mut ws = MeshQueryWorkspace::new();
    let mut cache = MeshDistanceCache::new();
    let opts = MeshIntersectionOptions {
        report: ContactReport::All,
    };
    for gap in [0.25f32, 1e-3, 1e-6] {
        let pose = Isometry::translation((1.0 + gap) * scale, 0.3 * scale, 0.0);
        assert!(!mesh_surfaces_intersect(&c, &c, &pose, &opts, &mut ws).unwrap());
        let d = mesh_distance(&c, &c, &pose, &Default::default(), &mut cache, &mut ws).unwrap();
        let want = f64::from(pose.translation.x) - f64::from(scale);
        assert!(
            (d.distance - want).abs() <= 1e-12 * f64::from(scale),
            "gap {gap}: {} vs {want}",
            d.distance
        );
        assert!((d.point1.x - 0.5 * f64::from(scale)).abs() <= 1e-12 * f64::from(scale));
    }
    // Face to face: touching surfaces intersect; the contact includes the facing faces.
    let pose = Isometry::translation(scale, 0.25 * scale, 0.0);
    assert!(mesh_surfaces_intersect(&c, &c, &pose, &opts, &mut ws).unwrap());
    assert!(ws.hits().iter().any(|h| {
        let n1 = c.triangle(h.triangle1).iter().all(|p| p.x == 0.5 * scale);
        let n2 = c.triangle(h.triangle2).iter().all(|p| p.x == -0.5 * scale);
        n1 && n2
    }));
    // Nested: surfaces apart, distance is the wall gap.
    let pose = Isometry::translation(0.5 * scale, 0.0, 0.0);
    assert!(!mesh_surfaces_intersect(&big, &c, &pose, &opts, &mut ws).unwrap());
    let d = mesh_distance(&big, &c, &pose, &Default::default(), &mut cache, &mut ws).unwrap();
    assert!((d.distance - f64::from(scale)).abs() <= 1e-12 * f64::from(scale));
}

#[test]
fn cubes_at_known_gaps_all_scales() {
    for scale in [1.0f32, 1e-12, 1e6] {
        analytic_cubes::<Aabb>(scale);
        analytic_cubes::<Obb>(scale);
        analytic_cubes::<Rss>(scale);
        analytic_cubes::<ObbRss>(scale);
    }
}

#[test]
fn memory_layout_is_compact() {
    let m = sphere(1.0, 64, 32).unwrap();
    let b = MeshBvh::<Aabb>::build(&m, &BvhBuildOptions::default()).unwrap();
    assert_eq!(std::mem::size_of_val(&b.nodes()[0]), 32);
    // Leaves of up to 2 triangles: at most 2n - 1 nodes of 32 bytes plus 16 bytes per triangle.
    assert!(b.bytes_per_triangle() <= 16.0 + 64.0);
    let o = MeshBvh::<Obb>::build(&m, &BvhBuildOptions::default()).unwrap();
    assert_eq!(std::mem::size_of_val(&o.nodes()[0]), 68);
    // An RSS is as large as a box; OBBRSS shares the box's centre and axes (+12 bytes).
    let r = MeshBvh::<Rss>::build(&m, &BvhBuildOptions::default()).unwrap();
    assert_eq!(std::mem::size_of_val(&r.nodes()[0]), 68);
    let or = MeshBvh::<ObbRss>::build(&m, &BvhBuildOptions::default()).unwrap();
    assert_eq!(std::mem::size_of_val(&or.nodes()[0]), 80);
}
