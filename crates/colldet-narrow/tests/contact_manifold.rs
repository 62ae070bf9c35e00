//! Contact manifolds of convex pairs: analytic cases (face, edge and point contacts, a
//! triangulated box), and seeded random pairs against parry3d-f64's manifolds (normal, depth) and
//! against the shapes themselves (every point pair lies in both objects, `point_a - point_b =
//! depth * normal`).

use colldet_geom::math::{Point, PointD, VectorD, to_f64};
use colldet_geom::{FaceList, MeshData};
use colldet_narrow::{
    ContactManifold, EpaWorkspace, GjkCache, ManifoldKind, ManifoldWorkspace, PoseMatrix,
    PreparedShape, contact_manifold, epa_penetration, touching_tolerance,
};
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cuboid};
use nalgebra::{Rotation3, Unit};
use parry3d_f64::math::{Pose as PPose, Vector as PVec};
use parry3d_f64::query::details::contact_manifold_pfm_pfm;
use parry3d_f64::query::{ContactManifold as ParryManifold, PointQuery};
use parry3d_f64::shape::ConvexPolyhedron;

/// The manifold of `a` and `b` at `pos12`, or `None` when EPA finds them apart.
fn manifold(a: &PreparedShape, b: &PreparedShape, pos12: &PoseMatrix) -> Option<ContactManifold> {
    let (ha, hb) = (a.hull().unwrap(), b.hull().unwrap());
    let pen = epa_penetration(
        ha,
        hb,
        pos12,
        &mut GjkCache::default(),
        &mut EpaWorkspace::default(),
    )
    .unwrap()?;
    let tol = touching_tolerance(ha, hb);
    Some(contact_manifold(
        a,
        b,
        pos12,
        &pen,
        tol,
        &mut ManifoldWorkspace::default(),
    ))
}

fn pose(rot: Rotation3<f64>, t: [f64; 3]) -> PoseMatrix {
    PoseMatrix::from_parts(*rot.matrix(), VectorD::new(t[0], t[1], t[2])).unwrap()
}

fn cube(h: f64) -> PreparedShape {
    PreparedShape::build(cuboid(VectorD::repeat(h)).unwrap()).unwrap()
}

/// The cube `[-h, h]^3` with every square face split into two triangles.
fn triangulated_cube(h: f32) -> PreparedShape {
    let vertices: Vec<Point> = (0..8)
        .map(|i| {
            let s = |bit: u32| if i & bit == 0 { -h } else { h };
            Point::new(s(1), s(2), s(4))
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
    let triangles: Vec<[u32; 3]> = quads
        .iter()
        .flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]])
        .collect();
    PreparedShape::build(MeshData::new(
        vertices,
        FaceList::from_triangles(&triangles),
    ))
    .unwrap()
}

fn sorted_points(m: &ContactManifold) -> Vec<[f64; 3]> {
    let mut v: Vec<[f64; 3]> = m
        .points()
        .iter()
        .map(|c| [c.point_b.x, c.point_b.y, c.point_b.z])
        .collect();
    v.sort_by(|x, y| x.partial_cmp(y).unwrap());
    v
}

fn assert_close(x: f64, y: f64, what: &str) {
    assert!((x - y).abs() <= 1e-9, "{what}: {x} != {y}");
}

#[test]
fn cube_sunk_into_cube_gives_the_four_corners_of_the_overlap() {
    for (name, b) in [("quads", cube(0.5)), ("triangles", triangulated_cube(0.5))] {
        let a = cube(0.5);
        let m = manifold(&a, &b, &pose(Rotation3::identity(), [0.2, 0.1, 0.9])).unwrap();
        assert_eq!(m.kind, ManifoldKind::Face, "{name}");
        assert_eq!(m.count, 4, "{name}: {m:?}");
        assert_close(m.normal.z, 1.0, name);
        assert_close(m.depth, 0.1, name);
        let expected = vec![
            [-0.3, -0.4, 0.4],
            [-0.3, 0.5, 0.4],
            [0.5, -0.4, 0.4],
            [0.5, 0.5, 0.4],
        ];
        for (got, want) in sorted_points(&m).iter().zip(&expected) {
            for k in 0..3 {
                assert_close(got[k], want[k], name);
            }
        }
        for c in m.points() {
            assert_close(c.depth, 0.1, name);
            assert_close(c.point_a.z, 0.5, name);
            assert!((c.point_a - c.point_b - m.normal * c.depth).norm() < 1e-12);
        }
    }
}

#[test]
fn triangulated_cube_below_a_cube_is_the_same_contact_seen_from_a() {
    // a is the triangulated one now: its merged top face is the reference.
    let (a, b) = (triangulated_cube(0.5), cube(0.5));
    let m = manifold(&a, &b, &pose(Rotation3::identity(), [-0.2, 0.1, 0.95])).unwrap();
    assert_eq!((m.kind, m.count), (ManifoldKind::Face, 4), "{m:?}");
    assert_close(m.depth, 0.05, "depth");
    let area = {
        let p = sorted_points(&m);
        (p[3][0] - p[0][0]) * (p[3][1] - p[0][1])
    };
    assert_close(area, 0.8 * 0.9, "overlap area");
}

#[test]
fn tilted_cube_edge_into_a_face_gives_two_points() {
    let theta: f64 = 0.2;
    let rot = Rotation3::from_axis_angle(&VectorD::x_axis(), theta);
    let low = 0.5 * theta.cos() + 0.5 * theta.sin();
    let depth = 0.05;
    let (a, b) = (cube(0.5), cube(0.5));
    let m = manifold(&a, &b, &pose(rot, [0.1, 0.0, 0.5 - depth + low])).unwrap();
    assert_eq!((m.kind, m.count), (ManifoldKind::Face, 2), "{m:?}");
    assert_close(m.normal.z, 1.0, "normal");
    let xs: Vec<f64> = sorted_points(&m).iter().map(|p| p[0]).collect();
    assert_close(xs[0], -0.4, "clipped edge start");
    assert_close(xs[1], 0.5, "clipped edge end");
    for c in m.points() {
        assert_close(c.depth, depth, "depth");
    }
}

#[test]
fn crossing_edges_give_one_point() {
    let quarter = std::f64::consts::FRAC_PI_4;
    // a's top is an edge along x, b's bottom an edge along y; they cross above the origin.
    let ra = Rotation3::from_axis_angle(&VectorD::x_axis(), quarter);
    let rb = Rotation3::from_axis_angle(&VectorD::y_axis(), quarter);
    let reach = 0.5 * 2f64.sqrt();
    let (a, b) = (cube(0.5), cube(0.5));
    // b in a's frame: a's frame is rotated by ra.
    let world_b = pose(rb, [0.0, 0.0, 2.0 * reach - 0.01]);
    let pos12 = pose(ra, [0.0; 3]).inv_mul(&world_b);
    let m = manifold(&a, &b, &pos12).unwrap();
    assert_eq!((m.kind, m.count), (ManifoldKind::Point, 1), "{m:?}");
    assert!((m.depth - 0.01).abs() < 1e-9, "{}", m.depth);
}

/// A convex shape for both libraries.
struct Both {
    ours: PreparedShape,
    theirs: ConvexPolyhedron,
    radius: f64,
}

fn both(mesh: MeshData) -> Both {
    let ours = PreparedShape::build(mesh).unwrap();
    let hull = ours.hull().unwrap();
    let pv: Vec<PVec> = hull
        .vertices()
        .iter()
        .map(|p| PVec::new(p.x.into(), p.y.into(), p.z.into()))
        .collect();
    Both {
        theirs: ConvexPolyhedron::from_convex_hull(&pv).unwrap(),
        radius: f64::from(hull.radius()),
        ours,
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn unit(&mut self) -> Unit<VectorD> {
        loop {
            let v =
                VectorD::new(self.next(), self.next(), self.next()) * 2.0 - VectorD::repeat(1.0);
            if v.norm() > 0.1 && v.norm() < 1.0 {
                return Unit::new_normalize(v);
            }
        }
    }
}

/// The signed distance of `p` (a's frame of the pair) outside shape `s` placed at `at`.
fn outside(s: &Both, at: &PPose, p: &PointD) -> f64 {
    let q = PVec::new(p.x, p.y, p.z);
    let proj = s.theirs.project_point(at, q, true);
    if proj.is_inside {
        0.0
    } else {
        (proj.point - q).length()
    }
}

fn parry_pose(m: &PoseMatrix) -> PPose {
    let r = m.rotation();
    let rot = Rotation3::from_matrix_unchecked(*r);
    let q = nalgebra::UnitQuaternion::from_rotation_matrix(&rot);
    let t = m.translation();
    PPose::from_parts(
        PVec::new(t.x, t.y, t.z),
        parry3d_f64::math::Rotation::from_xyzw(q.i, q.j, q.k, q.w).normalize(),
    )
}

#[test]
fn random_convex_pairs_agree_with_parry_and_lie_in_both_shapes() {
    let mut rng = Rng(0xC0_7AC7);
    let mut shapes = Vec::new();
    for (k, kind) in [
        ChungWangShape::Ellipsoid,
        ChungWangShape::Rod,
        ChungWangShape::Plate,
    ]
    .into_iter()
    .enumerate()
    {
        for n in [12, 40, 150] {
            shapes.push(both(
                chung_wang_polytope(kind, n, 7 + k as u64 * 100 + n as u64).unwrap(),
            ));
        }
    }
    for h in [[0.5, 0.5, 0.5], [1.0, 0.2, 0.4], [0.05, 0.8, 0.3]] {
        shapes.push(both(cuboid(VectorD::new(h[0], h[1], h[2])).unwrap()));
    }
    let (mut compared, mut face, mut multi_both) = (0, 0, 0);
    let mut worst_depth = 0.0f64;
    for _ in 0..3000 {
        let ia = (rng.next() * shapes.len() as f64) as usize;
        let ib = (rng.next() * shapes.len() as f64) as usize;
        let (a, b) = (&shapes[ia], &shapes[ib]);
        let rot = Rotation3::from_axis_angle(&rng.unit(), rng.next() * std::f64::consts::PI);
        let reach = 0.9 * (a.radius + b.radius) * rng.next();
        let t = rng.unit().into_inner() * reach;
        let pos12 = pose(rot, [t.x, t.y, t.z]);
        let Some(m) = manifold(&a.ours, &b.ours, &pos12) else {
            continue;
        };
        let scale = a.radius + b.radius;
        // Every point pair in both shapes, along the normal.
        let at_b = parry_pose(&pos12);
        assert!(m.count >= 1 && m.count <= 4);
        for c in m.points() {
            assert!(
                outside(a, &PPose::IDENTITY, &c.point_a) <= 1e-9 * scale,
                "{m:?}"
            );
            assert!(outside(b, &at_b, &c.point_b) <= 1e-9 * scale, "{m:?}");
            assert!((c.point_a - c.point_b - m.normal * c.depth).norm() <= 1e-12 * scale);
            assert!(c.depth <= m.depth);
        }
        // parry's manifold at the same pose.
        let mut theirs: ParryManifold<(), ()> = ParryManifold::new();
        contact_manifold_pfm_pfm(
            &at_b,
            &a.theirs,
            0.0,
            None,
            &b.theirs,
            0.0,
            None,
            0.0,
            &mut theirs,
        );
        if theirs.points.is_empty() || m.depth <= 1e-6 * scale {
            continue;
        }
        compared += 1;
        face += usize::from(m.kind == ManifoldKind::Face);
        multi_both += usize::from(m.count >= 2 && theirs.points.len() >= 2);
        let n = theirs.local_n1;
        let agree = m.normal.dot(&VectorD::new(n.x, n.y, n.z));
        let their_depth = theirs
            .points
            .iter()
            .map(|p| -p.dist)
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(agree >= 1.0 - 1e-6, "normals differ: {agree} {m:?} {n:?}");
        // The depth along the normal from the shapes' vertices: exactly what a manifold's
        // depth must be.
        let (ha, hb) = (a.ours.hull().unwrap(), b.ours.hull().unwrap());
        let along = |p: PointD| m.normal.dot(&p.coords);
        let max_a = ha
            .vertices()
            .iter()
            .map(|v| along(to_f64(v)))
            .fold(f64::NEG_INFINITY, f64::max);
        let min_b = hb
            .vertices()
            .iter()
            .map(|v| along(pos12.transform_point(&to_f64(v))))
            .fold(f64::INFINITY, f64::min);
        let tol = touching_tolerance(ha, hb);
        assert!(
            (m.depth - (max_a - min_b)).abs() <= 1e-9 * scale + tol,
            "{} vs {} {m:?}",
            m.depth,
            max_a - min_b
        );
        // parry's deepest point is measured on its own clipped features: within 1e-5 of the scale.
        worst_depth = worst_depth.max((m.depth - their_depth).abs() / scale);
        assert!(
            (m.depth - their_depth).abs() <= 1e-5 * scale,
            "depths differ: ours {} parry {their_depth}",
            m.depth,
        );
    }
    println!(
        "compared {compared} penetrating pairs, {face} face contacts, {multi_both} with several \
         points in both, largest depth difference to parry {worst_depth:.1e} of the scale"
    );
    assert!(compared > 1000, "{compared}");
}
