//! RSS node volumes: the RSS-RSS distance bound is a certified lower bound of the distance
//! between the triangles inside the two nodes (brute force over their triangle pairs), on seeded
//! random meshes (triangle soups and deformed closed shapes, scales 1e-4 to 1e4, far from the
//! origin, near-touching poses), also when cut short at a traversal's pruning limit, and it is
//! tight enough to matter.

mod common;

use colldet_geom::math::{Isometry, Point, PointD};
use colldet_geom::{FaceList, MeshData};
use colldet_narrow::mesh::bvh::{
    BvhBuildOptions, BvhPairFrame, BvhVolume, MeshBvh, MeshDistanceCache, MeshQueryWorkspace,
    ObbRss, Rss, TriangleId, mesh_distance, triangle_distance,
};
use colldet_testkit::shapes::{sphere, torus};
use common::{NarrowDraws, SplitMix64, to_iso};
use nalgebra::{Translation3, UnitQuaternion};

/// A soup of `n` random triangles in a cube of side `scale` around `offset`, sizes up to a
/// fifth of it, some nearly flat.
fn soup(rng: &mut SplitMix64, n: usize, scale: f64, offset: f64) -> MeshData {
    let mut vertices = Vec::new();
    let mut tris = Vec::new();
    for _ in 0..n {
        let c = [0; 3].map(|_| offset + rng.range(-0.5, 0.5) * scale);
        let size = scale * rng.range(0.01, 0.2);
        let base = vertices.len() as u32;
        for _ in 0..3 {
            vertices.push(Point::new(
                (c[0] + rng.range(-1.0, 1.0) * size) as f32,
                (c[1] + rng.range(-1.0, 1.0) * size) as f32,
                (c[2] + rng.range(-1.0, 1.0) * size * rng.range(0.0, 1.0)) as f32,
            ));
        }
        tris.push([base, base + 1, base + 2]);
    }
    MeshData::new(vertices, FaceList::from_triangles(&tris))
}

/// A closed shape scaled anisotropically by `scale` and moved by `offset`.
fn deformed(mut mesh: MeshData, rng: &mut SplitMix64, scale: f64, offset: f64) -> MeshData {
    let s = [0; 3].map(|_| scale * rng.range(0.3, 1.5));
    for p in &mut mesh.vertices {
        *p = Point::new(
            (f64::from(p.x) * s[0] + offset) as f32,
            (f64::from(p.y) * s[1] + offset) as f32,
            (f64::from(p.z) * s[2] + offset) as f32,
        );
    }
    mesh
}

/// The triangles under every node, by node index.
fn node_triangles<V: BvhVolume>(bvh: &MeshBvh<V>) -> Vec<Vec<u32>> {
    let nodes = bvh.nodes();
    let mut out = vec![Vec::new(); nodes.len()];
    for n in (0..nodes.len()).rev() {
        out[n] = match (nodes[n].children(), nodes[n].triangles()) {
            (Some([a, b]), _) => [out[a as usize].clone(), out[b as usize].clone()].concat(),
            (None, Some(r)) => r.collect(),
            (None, None) => unreachable!(),
        };
    }
    out
}

/// The smallest triangle distance between `ta` of `b1` and `tb` of `b2` mapped by `frame`.
fn brute<V: BvhVolume>(
    b1: &MeshBvh<V>,
    b2: &MeshBvh<V>,
    ta: &[u32],
    tb: &[u32],
    frame: &BvhPairFrame,
) -> f64 {
    let mapped: Vec<[PointD; 3]> = tb
        .iter()
        .map(|&t| b2.triangle_f64(TriangleId(t)).map(|p| frame.map_point(&p)))
        .collect();
    let mut best = f64::INFINITY;
    for &t in ta {
        let a = b1.triangle_f64(TriangleId(t));
        for b in &mapped {
            best = best.min(triangle_distance(&a, b).distance);
        }
    }
    best
}

/// Checks the bound on sampled node pairs of many seeded mesh pairs; returns the mean of
/// `bound / distance` over leaf pairs farther apart than a tenth of the scale.
fn bounds_are_certified<V: BvhVolume>(seed: u64) -> f64 {
    let mut rng = SplitMix64(seed);
    let mut ws = MeshQueryWorkspace::new();
    let (mut ratio_sum, mut ratio_n) = (0.0, 0usize);
    for case in 0..120 {
        let scale = 10f64.powf(rng.range(-4.0, 4.0));
        let offset = if case % 3 == 0 { 1e3 * scale } else { 0.0 };
        let make = |rng: &mut SplitMix64| match rng.usize_in(0, 2) {
            0 => soup(rng, 60, scale, offset),
            1 => deformed(torus(0.5, 0.15, 12, 6).unwrap(), rng, scale, offset),
            _ => deformed(sphere(0.5, 10, 6).unwrap(), rng, scale, offset),
        };
        let (m1, m2) = (make(&mut rng), make(&mut rng));
        let b1 = MeshBvh::<V>::build(&m1, &BvhBuildOptions::default()).unwrap();
        let b2 = MeshBvh::<V>::build(&m2, &BvhBuildOptions::default()).unwrap();
        // Shape 2 placed so both sit around the same point, then pushed out along a random
        // direction; every other case pulled back to a gap of 1e-9 .. 1e-2 of the distance.
        let rot = rng.rotation();
        let back = -(rot * nalgebra::Vector3::repeat(offset));
        let dir =
            rng.unit_vector() * rng.range(0.3, 1.5) * scale + nalgebra::Vector3::repeat(offset);
        let mut pose = to_iso(&rot, &(back + dir));
        if case % 2 == 1 {
            let d = mesh_distance(
                &b1,
                &b2,
                &pose,
                &Default::default(),
                &mut MeshDistanceCache::new(),
                &mut ws,
            )
            .unwrap();
            if d.distance > 0.0 {
                let gap = 10f64.powf(rng.range(-9.0, -2.0));
                let shift = (d.point1 - d.point2) * (1.0 - gap);
                let t = pose.translation.vector.cast::<f64>() + shift;
                pose = Isometry::from_parts(
                    Translation3::new(t.x as f32, t.y as f32, t.z as f32),
                    pose.rotation,
                );
            }
        }
        let frame = BvhPairFrame::new(&pose, &b1, &b2).unwrap();
        let (t1, t2) = (node_triangles(&b1), node_triangles(&b2));
        let (n1, n2) = (b1.nodes(), b2.nodes());
        // The root pair, the leaf pair holding the closest triangles and its ancestors' pairs,
        // and random node pairs.
        let d = mesh_distance(
            &b1,
            &b2,
            &pose,
            &Default::default(),
            &mut MeshDistanceCache::new(),
            &mut ws,
        )
        .unwrap();
        let path = |tris: &[Vec<u32>], t: TriangleId| -> Vec<usize> {
            (0..tris.len())
                .filter(|&n| tris[n].contains(&t.0))
                .collect()
        };
        let (pa, pb) = (path(&t1, d.triangle1), path(&t2, d.triangle2));
        let mut pairs: Vec<(usize, usize)> = pa
            .iter()
            .flat_map(|&a| pb.iter().map(move |&b| (a, b)))
            .collect();
        for _ in 0..40 {
            pairs.push((rng.usize_in(0, n1.len() - 1), rng.usize_in(0, n2.len() - 1)));
        }
        for (a, b) in pairs {
            let bound = n1[a].volume.distance_lower_bound(&n2[b].volume, &frame);
            let truth = brute(&b1, &b2, &t1[a], &t2[b], &frame);
            assert!(
                bound >= 0.0 && bound <= truth,
                "{} case {case} nodes {a} {b}: bound {bound} > distance {truth} (scale {scale})",
                V::NAME
            );
            // A traversal's bound, cut short at its pruning limit, is certified too.
            for limit in [
                0.0,
                f64::MIN_POSITIVE,
                0.5 * truth,
                truth,
                2.0 * truth,
                bound,
            ] {
                let cut = n1[a]
                    .volume
                    .distance_lower_bound_below(&n2[b].volume, &frame, limit);
                assert!(
                    cut >= 0.0 && cut <= truth && (cut >= limit || cut >= bound),
                    "{} case {case} nodes {a} {b} limit {limit}: bound {cut}, full {bound}, \
                     distance {truth}",
                    V::NAME
                );
            }
            if !n1[a].volume.overlaps(&n2[b].volume, &frame) {
                assert!(
                    truth > 0.0,
                    "{} case {case}: overlap test separated touching nodes",
                    V::NAME
                );
            }
            if n1[a].is_leaf() && n2[b].is_leaf() && truth > 0.1 * scale {
                ratio_sum += bound / truth;
                ratio_n += 1;
            }
        }
    }
    assert!(ratio_n > 100, "{ratio_n} far leaf pairs");
    ratio_sum / ratio_n as f64
}

#[test]
fn rss_bounds_are_certified_and_tight() {
    let ratio = bounds_are_certified::<Rss>(0x4551);
    // Leaves are one or two triangles: the RSS distance is close to theirs.
    assert!(ratio > 0.85, "mean bound / distance {ratio}");
}

#[test]
fn obb_rss_bounds_are_certified_and_tight() {
    let ratio = bounds_are_certified::<ObbRss>(0x4552);
    assert!(ratio > 0.85, "mean bound / distance {ratio}");
}

/// A pair of parallel squares (two triangles each) at known gaps, overlapping or shifted
/// sideways: the roots' bound is within 1% of the squares' distance (half of it for coplanar
/// squares, where two rounds of alternating closest points are far from converged), and exact up
/// to the margin when they face each other.
#[test]
fn squares_at_known_gaps() {
    let square = MeshData::new(
        vec![
            Point::new(-1.0, -1.0, 0.0),
            Point::new(1.0, -1.0, 0.0),
            Point::new(1.0, 1.0, 0.0),
            Point::new(-1.0, 1.0, 0.0),
        ],
        FaceList::from_triangles(&[[0, 1, 2], [0, 2, 3]]),
    );
    let b = MeshBvh::<Rss>::build(&square, &BvhBuildOptions::default()).unwrap();
    let mut ws = MeshQueryWorkspace::new();
    for (gap, shift) in [
        (0.5f32, 0.0f32),
        (0.25, 1.0),
        (1e-3, 3.0),
        (2.0, 0.5),
        (0.0, 2.5),
    ] {
        let pose = Isometry::from_parts(
            Translation3::new(shift, 0.0, gap),
            UnitQuaternion::from_axis_angle(&nalgebra::Vector3::z_axis(), 0.3),
        );
        let frame = BvhPairFrame::new(&pose, &b, &b).unwrap();
        let bound = b
            .root_volume()
            .distance_lower_bound(b.root_volume(), &frame);
        let want = mesh_distance(
            &b,
            &b,
            &pose,
            &Default::default(),
            &mut MeshDistanceCache::new(),
            &mut ws,
        )
        .unwrap()
        .distance;
        // Coplanar squares beside each other (gap 0) are the alternation's slow case.
        let tight = if gap > 0.0 { 0.99 } else { 0.5 };
        assert!(
            bound <= want && bound >= tight * want,
            "gap {gap} shift {shift}: {bound} vs {want}"
        );
        if shift < 2.0 {
            assert!(
                bound >= f64::from(gap) - 1e-9,
                "gap {gap} shift {shift}: {bound}"
            );
        }
    }
}
