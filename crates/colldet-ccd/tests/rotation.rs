//! Rotational sweeps (motion (b)) and translate-then-rotate (motion (c)) against known answers:
//! closed-form first contacts of a rod turning into a wall, rotations beyond 180 degrees and
//! negative ones, the seed's degenerate cases, starts in contact, and a brute-force comparison
//! with the discrete GJK test sampled along random rotations.

use colldet_ccd::rotation::{
    RotationPlan, RotationRoot, edge_edge_coefficients, edge_edge_rotation,
};
use colldet_ccd::rotation_sweep::{
    TranslateRotateWorkspace, sweep_rotation, sweep_translate_then_rotate,
};
use colldet_ccd::{BodyMotion, CcdError, ContactKind, Motion, RigidPose, SweepShape};
use colldet_geom::Polyhedron;
use colldet_geom::math::{MatrixD, Point, PointD, Pose, VectorD};
use colldet_geom::mesh_data::{FaceList, MeshData};
use colldet_narrow::{GjkCache, GjkStatus, PointCloud, gjk_distance, gjk_intersect};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cuboid};
use nalgebra::{Translation3, UnitQuaternion};
use std::f64::consts::PI;

/// The box `[lo, hi]` (vertices `x + 2 y + 4 z`, faces `-x, +x, -y, +y, -z, +z`).
fn box_mesh(lo: [f32; 3], hi: [f32; 3]) -> MeshData {
    let vertices = (0..8)
        .map(|v| {
            let c = |k: usize| if v >> k & 1 == 1 { hi[k] } else { lo[k] };
            Point::new(c(0), c(1), c(2))
        })
        .collect();
    let mut faces = FaceList::with_capacity(6, 24);
    for quad in [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ] {
        faces.push(&quad);
    }
    MeshData::new(vertices, faces)
}

fn shape(mesh: MeshData) -> SweepShape {
    SweepShape::new(&Polyhedron::build(mesh, &Default::default()).unwrap()).unwrap()
}

fn rot_z(angle: f64) -> MatrixD {
    colldet_ccd::motion::axis_angle_matrix(&VectorD::z(), angle)
}

/// The rod `x in [-h, h], y in [0, 2], z in [-h, h]` (h = 0.05 as f32) and the wall
/// `x in [-2.5, -1.5]` (large in y, z) on the side its tip turns to under a positive rotation
/// about `+z` (mirrored in `x` when `side < 0`).
fn rod_and_wall(side: f64) -> (SweepShape, SweepShape) {
    let rod = shape(box_mesh([-0.05, 0.0, -0.05], [0.05, 2.0, 0.05]));
    let wall = if side > 0.0 {
        box_mesh([-2.5, -5.0, -5.0], [-1.5, 5.0, 5.0])
    } else {
        box_mesh([1.5, -5.0, -5.0], [2.5, 5.0, 5.0])
    };
    (rod, shape(wall))
}

/// The angle at which the rod's leading tip corner `(-h, 2)` first reaches `x = -1.5`:
/// `h cos + 2 sin = 1.5`, smallest root, from the closed-form `tan(theta / 2)`.
fn rod_contact_angle() -> f64 {
    let h = f64::from(0.05f32);
    // h (1 - r^2) + 4 r = 1.5 (1 + r^2)  ->  (1.5 + h) r^2 - 4 r + (1.5 - h) = 0
    let (a, b, c) = (1.5 + h, -4.0, 1.5 - h);
    let r = (-b - (b * b - 4.0 * a * c).sqrt()) / (2.0 * a);
    2.0 * r.atan()
}

#[test]
fn rod_turns_into_wall_closed_form() {
    let (rod, wall) = rod_and_wall(1.0);
    let theta = rod_contact_angle();
    let total = 1.5;
    let c = sweep_rotation(
        &rod,
        &RigidPose::identity(),
        &PointD::origin(),
        &VectorD::z(),
        total,
        &wall,
        &RigidPose::identity(),
    )
    .unwrap()
    .expect("contact");
    let want = theta / total;
    assert!(
        (c.toi.lo - want).abs() < 1e-12 && (c.toi.hi - want).abs() < 1e-12,
        "{c:?} {want}"
    );
    assert!(c.toi.lo <= c.toi.hi && c.toi.hi - c.toi.lo < 1e-14);
    assert_eq!(c.kind, ContactKind::VertexFace);
    // Tip corners at x = -h, y = 2: vertices 2 and 6; the wall's +x face is face 1.
    assert!([2, 6].contains(&c.feature_moving), "{c:?}");
    assert_eq!(c.feature_hit, 1);
    assert!((c.normal - VectorD::x()).norm() < 1e-12);
    assert!((c.point.x + 1.5).abs() < 1e-12, "{:?}", c.point);
    assert!(!c.initially_touching);
}

/// Rotations of 179, 181 and 359 degrees, both signs: the start pose is turned back so that the
/// contact happens at `k * total`.
#[test]
fn long_and_negative_rotations() {
    let theta = rod_contact_angle();
    for degrees in [179.0f64, 181.0, 359.0, 540.0] {
        for side in [1.0, -1.0] {
            for k in [0.3, 0.7] {
                let total = degrees.to_radians();
                let (rod, wall) = rod_and_wall(side);
                let at = k * total.min(2.0 * PI);
                let start = RigidPose::new(rot_z(side * (theta - at)), VectorD::zeros());
                let c = sweep_rotation(
                    &rod,
                    &start,
                    &PointD::origin(),
                    &VectorD::z(),
                    side * total,
                    &wall,
                    &RigidPose::identity(),
                )
                .unwrap()
                .unwrap_or_else(|| panic!("no contact {degrees} {side} {k}"));
                let want = at / total;
                assert!(
                    (c.toi.lo - want).abs() < 1e-12 && (c.toi.hi - want).abs() < 1e-12,
                    "{degrees} {side} {k}: {:?} want {want}",
                    c.toi
                );
                assert_eq!(c.feature_hit, if side > 0.0 { 1 } else { 0 });
            }
        }
    }
}

/// Face-vertex: the rod's `-x` face turns onto the apex `(-1, 1, 0)` of a tetrahedron when the
/// apex's rod-frame `x` reaches `-h`: `sin(theta) - cos(theta) = -h`, i.e.
/// `theta = pi / 4 - asin(h / sqrt(2))`.
#[test]
fn rod_face_onto_apex() {
    let rod = shape(box_mesh([-0.05, 0.0, -0.05], [0.05, 2.0, 0.05]));
    let points = [
        Point::new(-1.0, 1.0, 0.0),
        Point::new(-2.0, 0.5, -0.5),
        Point::new(-2.0, 1.5, -0.5),
        Point::new(-2.0, 1.0, 0.5),
    ];
    let hull = colldet_geom::hull::convex_hull(&points).unwrap().mesh;
    let apex = hull.vertices.iter().position(|p| *p == points[0]).unwrap() as u32;
    let tetra = shape(hull);
    let h = f64::from(0.05f32);
    let theta = PI / 4.0 - (h / 2.0f64.sqrt()).asin();
    let total = 1.5;
    let c = sweep_rotation(
        &rod,
        &RigidPose::identity(),
        &PointD::origin(),
        &VectorD::z(),
        total,
        &tetra,
        &RigidPose::identity(),
    )
    .unwrap()
    .expect("contact");
    assert!((c.toi.hi - theta / total).abs() < 1e-12, "{c:?}");
    assert_eq!(c.kind, ContactKind::FaceVertex);
    assert_eq!((c.feature_moving, c.feature_hit), (0, apex));
    assert!((c.point - PointD::new(-1.0, 1.0, 0.0)).norm() < 1e-15);
    let want_normal = VectorD::new(theta.cos(), theta.sin(), 0.0);
    assert!((c.normal - want_normal).norm() < 1e-12, "{c:?}");
}

/// An open surface (one triangle in the plane `x = -1.5`) is hit from either side.
#[test]
fn open_surface_hit_from_both_sides() {
    let (rod, _) = rod_and_wall(1.0);
    let theta = rod_contact_angle();
    for flip in [false, true] {
        let mut corners = [[-1.5f32, -5.0, -5.0], [-1.5, 5.0, -5.0], [-1.5, 0.0, 5.0]];
        if flip {
            corners.swap(1, 2);
        }
        let mut faces = FaceList::with_capacity(1, 3);
        faces.push(&[0, 1, 2]);
        let mesh = MeshData::new(
            corners.map(|c| Point::new(c[0], c[1], c[2])).to_vec(),
            faces,
        );
        let sheet = shape(mesh);
        assert!(!sheet.is_closed());
        let c = sweep_rotation(
            &rod,
            &RigidPose::identity(),
            &PointD::origin(),
            &VectorD::z(),
            1.5,
            &sheet,
            &RigidPose::identity(),
        )
        .unwrap()
        .expect("contact");
        assert!((c.toi.hi - theta / 1.5).abs() < 1e-12, "{flip}: {c:?}");
        assert!((c.normal - VectorD::x()).norm() < 1e-12, "{flip}: {c:?}");
    }
}

#[test]
fn no_hit_when_turning_away() {
    let (rod, wall) = rod_and_wall(1.0);
    for angle in [-1.0, -2.0, 0.5, 0.0] {
        let c = sweep_rotation(
            &rod,
            &RigidPose::identity(),
            &PointD::origin(),
            &VectorD::z(),
            angle,
            &wall,
            &RigidPose::identity(),
        )
        .unwrap();
        assert!(c.is_none(), "{angle}: {c:?}");
    }
}

/// The plan's pieces: below pi each, roots ordered by (piece, r).
#[test]
fn plan_pieces_and_fraction_bracket() {
    for (deg, pieces) in [
        (10.0f64, 1),
        (179.0, 1),
        (180.0, 2),
        (181.0, 2),
        (359.0, 2),
        (360.0, 3),
    ] {
        let plan = RotationPlan::new(deg.to_radians()).unwrap();
        assert_eq!(plan.pieces(), pieces, "{deg}");
        let end = RotationRoot {
            piece: pieces - 1,
            r: plan.r_max(),
        };
        let [lo, hi] = plan.fraction_bracket(end);
        assert!(lo <= 1.0 && hi >= 1.0 - 1e-15, "{deg}: {lo} {hi}");
    }
    let plan = RotationPlan::new(1.0).unwrap();
    assert_eq!(
        plan.fraction_bracket(RotationRoot { piece: 0, r: 0.0 }),
        [0.0, 0.0]
    );
    let r = (0.3f64).tan();
    let [lo, hi] = plan.fraction_bracket(RotationRoot { piece: 0, r });
    assert!(lo <= 0.6 && 0.6 <= hi && hi - lo < 1e-14, "{lo} {hi}");
    assert!(RotationPlan::new(f64::NAN).is_err() && RotationPlan::new(-1.0).is_err());
}

/// The floor under the rod is orthogonal to the axis: never reached by turning, and touched
/// from the start when the rod lies on it.
#[test]
fn axis_orthogonal_to_plane() {
    let rod = shape(box_mesh([-0.05, 0.0, -0.05], [0.05, 2.0, 0.05]));
    let floor = shape(box_mesh([-5.0, -5.0, -2.0], [5.0, 5.0, -1.0]));
    let on_floor = shape(box_mesh([-5.0, -5.0, -2.0], [5.0, 5.0, -0.05]));
    for angle in [1.0, 3.0, 6.0, -4.0] {
        let run = |b: &SweepShape| {
            sweep_rotation(
                &rod,
                &RigidPose::identity(),
                &PointD::origin(),
                &VectorD::z(),
                angle,
                b,
                &RigidPose::identity(),
            )
            .unwrap()
        };
        assert!(run(&floor).is_none());
        let c = run(&on_floor).expect("touching");
        assert!(
            c.initially_touching && c.toi.lo == 0.0 && c.toi.hi == 0.0,
            "{c:?}"
        );
        assert!((c.normal - VectorD::z()).norm() < 1e-12, "{c:?}");
    }
}

/// Vertices on the axis (the pivot on the rod's edge): the closed form of the tip `(0, 2)`,
/// `2 sin(theta) = 1.5`.
#[test]
fn vertices_on_the_axis() {
    let rod = shape(box_mesh([0.0, 0.0, -0.05], [0.1, 2.0, 0.05]));
    let (_, wall) = rod_and_wall(1.0);
    let total = 2.0;
    let c = sweep_rotation(
        &rod,
        &RigidPose::identity(),
        &PointD::origin(),
        &VectorD::z(),
        total,
        &wall,
        &RigidPose::identity(),
    )
    .unwrap()
    .expect("contact");
    let want = 0.75f64.asin() / total;
    assert!((c.toi.hi - want).abs() < 1e-12, "{c:?} {want}");
}

/// The seed's degenerate edge-edge cases give the zero function and no edge contact.
#[test]
fn degenerate_edge_pairs() {
    let plan = RotationPlan::new(3.0).unwrap();
    let p = |x: f64, y: f64, z: f64| PointD::new(x, y, z);
    let cases = [
        // Both lines through the axis point (0, 0, 1).
        (
            [p(1.0, 0.0, 1.0), p(-1.0, 0.0, 1.0)],
            [p(0.0, 1.0, 0.0), p(0.0, -1.0, 2.0)],
        ),
        // Both parallel to the axis.
        (
            [p(1.0, 0.0, 0.0), p(1.0, 0.0, 1.0)],
            [p(0.0, -1.0, 0.0), p(0.0, -1.0, 3.0)],
        ),
        // Both in the plane z = 2.
        (
            [p(1.0, 0.0, 2.0), p(1.0, 1.0, 2.0)],
            [p(-1.0, 0.0, 2.0), p(0.0, 1.0, 2.0)],
        ),
    ];
    for ([a0, a1], [b0, b1]) in cases {
        assert_eq!(edge_edge_coefficients(&a0, &a1, &b0, &b1), [0.0; 3]);
        assert!(edge_edge_rotation(&plan, &a0, &a1, &b0, &b1).is_none());
    }
    // A non-degenerate pair: the segment on the x axis at height 1 turning into the fixed
    // segment from (-1, 1, 0) to (-1, 1, 2), parallel to the axis.
    let hit = edge_edge_rotation(
        &plan,
        &p(0.0, 0.0, 1.0),
        &p(2.0, 0.0, 1.0),
        &p(-1.0, 1.0, 0.0),
        &p(-1.0, 1.0, 2.0),
    )
    .expect("edge contact");
    // The rotating segment's line reaches the point (-1, 1) at 135 degrees.
    let angle = plan.angle(hit.root);
    assert!((angle - 0.75 * PI).abs() < 1e-14, "{angle}");
    assert!(
        (hit.point - p(-1.0, 1.0, 1.0)).norm() < 1e-14,
        "{:?}",
        hit.point
    );
}

#[test]
fn start_in_contact() {
    // The rod's -x face on the wall's +x face.
    let rod = shape(box_mesh([-1.5, -0.05, -0.05], [0.5, 0.05, 0.05]));
    let (_, wall) = rod_and_wall(1.0);
    for angle in [0.3, -0.3, 0.0] {
        let c = sweep_rotation(
            &rod,
            &RigidPose::identity(),
            &PointD::origin(),
            &VectorD::z(),
            angle,
            &wall,
            &RigidPose::identity(),
        )
        .unwrap()
        .expect("touching");
        assert!(c.initially_touching, "{c:?}");
        assert_eq!((c.toi.lo, c.toi.hi), (0.0, 0.0));
        assert!(c.normal.x > 0.99, "{c:?}");
    }
}

#[test]
fn bad_input_is_an_error() {
    let (rod, wall) = rod_and_wall(1.0);
    let id = RigidPose::identity();
    let o = PointD::origin();
    let z = VectorD::z();
    let run = |pivot: &PointD, axis: &VectorD, angle: f64| {
        sweep_rotation(&rod, &id, pivot, axis, angle, &wall, &id)
    };
    assert!(matches!(
        run(&o, &z, f64::NAN),
        Err(CcdError::NonFinite { .. })
    ));
    assert!(matches!(
        run(&o, &VectorD::new(f64::NAN, 0.0, 1.0), 1.0),
        Err(CcdError::NonFinite { .. })
    ));
    assert!(matches!(
        run(&PointD::new(f64::INFINITY, 0.0, 0.0), &z, 1.0),
        Err(CcdError::NonFinite { .. })
    ));
    assert!(matches!(
        run(&o, &(z * 2.0), 1.0),
        Err(CcdError::InvalidParameter { .. })
    ));
    let bad = RigidPose::from_translation(VectorD::new(f64::NAN, 0.0, 0.0));
    assert!(sweep_rotation(&rod, &bad, &o, &z, 1.0, &wall, &id).is_err());
}

/// Motion (c): translate the rod towards the wall (no contact), then turn it in; or hit the wall
/// during the translation.
#[test]
fn translate_then_rotate() {
    let (rod, wall) = rod_and_wall(1.0);
    let theta = rod_contact_angle();
    let mut ws = TranslateRotateWorkspace::new();
    let id = RigidPose::identity();
    // The rod starts 1 to the right and translates back to the reference pose, then turns.
    let start = RigidPose::from_translation(VectorD::new(1.0, 0.0, 0.0));
    let d = VectorD::new(-1.0, 0.0, 0.0);
    let pivot = PointD::new(1.0, 0.0, 0.0);
    let c = sweep_translate_then_rotate(
        &rod,
        &start,
        &d,
        &pivot,
        &VectorD::z(),
        1.5,
        &wall,
        &id,
        &mut ws,
    )
    .unwrap()
    .expect("contact");
    let want = 0.5 + 0.5 * theta / 1.5;
    assert!(
        (c.toi.hi - want).abs() < 1e-12 && c.toi.lo <= c.toi.hi,
        "{c:?} {want}"
    );
    // Translating 3 to the left: the rod's -x side at -h reaches -1.5 after 1.5 - h of 3, the
    // translation fraction (1.5 - h) / 3, mapped to the first half.
    let d = VectorD::new(-3.0, 0.0, 0.0);
    let c = sweep_translate_then_rotate(
        &rod,
        &id,
        &d,
        &PointD::origin(),
        &VectorD::z(),
        1.0,
        &wall,
        &id,
        &mut ws,
    )
    .unwrap()
    .expect("contact");
    let h = f64::from(0.05f32);
    let want = 0.5 * (1.5 - h) / 3.0;
    assert!(
        (c.toi.hi - want).abs() < 1e-12 && c.toi.lo <= want + 1e-15,
        "{c:?} {want}"
    );
}

fn to_pose(p: &RigidPose) -> Pose {
    let q = UnitQuaternion::from_matrix(&p.rot);
    Pose::from_parts(Translation3::from(p.trans), q)
}

/// Random convex hulls turning about random axes (motion (b)), or translating then turning
/// (motion (c), `with_translation`): the sweep never misses an overlap seen at 2,000 sampled
/// fractions, and the bodies touch at `toi.hi`. Returns the number of hits of each contact kind.
fn brute_force(seed0: u64, with_translation: bool, wanted_cases: usize) -> [usize; 3] {
    let mut rng = SeededRng::new(seed0);
    let mut cases = 0;
    let mut kinds = [0usize; 3];
    let samples = 2000;
    let mut ws = TranslateRotateWorkspace::new();
    for seed in 0..10 * wanted_cases as u64 {
        if cases == wanted_cases {
            break;
        }
        let mesh_of = |rng: &mut SeededRng, k: u64| -> MeshData {
            if rng.f64() < 0.5 {
                cuboid(VectorD::new(
                    rng.range(0.1, 1.0),
                    rng.range(0.1, 1.0),
                    rng.range(0.1, 1.0),
                ))
                .unwrap()
            } else {
                let kind = ChungWangShape::ALL[rng.index(3)];
                chung_wang_polytope(kind, 8 + rng.index(12), seed0 ^ (seed * 2 + k)).unwrap()
            }
        };
        let (ma, mb) = (mesh_of(&mut rng, 0), mesh_of(&mut rng, 1));
        let (ca, cb) = (
            PointCloud::new(ma.vertices.clone()).unwrap(),
            PointCloud::new(mb.vertices.clone()).unwrap(),
        );
        let (a, b) = (shape(ma), shape(mb));
        let pose_a = RigidPose::new(
            rng.rotation().to_rotation_matrix().into_inner(),
            VectorD::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            ),
        );
        let pose_b = RigidPose::new(
            rng.rotation().to_rotation_matrix().into_inner(),
            VectorD::new(
                rng.range(0.6, 1.8),
                rng.range(-0.5, 0.5),
                rng.range(-0.5, 0.5),
            ),
        );
        // Half the pivots between the bodies (the swing then often reaches b).
        let jitter = VectorD::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        let pivot = if rng.f64() < 0.5 {
            PointD::from((pose_a.trans + pose_b.trans) * 0.5 + jitter * 0.3)
        } else {
            PointD::from(jitter)
        };
        let axis = rng.unit_vector().into_inner();
        let angle = rng.range(-2.0 * PI, 2.0 * PI);
        let d = if with_translation {
            VectorD::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            )
        } else {
            VectorD::zeros()
        };
        let motion = BodyMotion::new(
            pose_a,
            if with_translation {
                Motion::TranslateThenRotate {
                    d,
                    pivot,
                    axis,
                    angle,
                }
            } else {
                Motion::Rotation { pivot, axis, angle }
            },
        )
        .unwrap();
        let scale = 10.0;
        let mut cache = GjkCache::new();
        let rel_at = |tau: f64| to_pose(&motion.pose_at(tau)).inverse() * to_pose(&pose_b);
        let status_at =
            |tau: f64, cache: &mut GjkCache| gjk_intersect(&ca, &cb, &rel_at(tau), cache).unwrap();
        if status_at(0.0, &mut cache) != GjkStatus::Separated {
            continue;
        }
        cases += 1;
        let first = (1..=samples)
            .map(|i| i as f64 / samples as f64)
            .find(|&tau| status_at(tau, &mut cache) == GjkStatus::Intersecting);
        let c = if with_translation {
            sweep_translate_then_rotate(&a, &pose_a, &d, &pivot, &axis, angle, &b, &pose_b, &mut ws)
        } else {
            sweep_rotation(&a, &pose_a, &pivot, &axis, angle, &b, &pose_b)
        }
        .unwrap();
        if let Some(tau) = first {
            let c = c.unwrap_or_else(|| panic!("seed {seed}: missed an overlap at {tau}"));
            assert!(
                c.toi.lo <= tau,
                "seed {seed}: toi {:?} after overlap at {tau}",
                c.toi
            );
        }
        if let Some(c) = c {
            kinds[c.kind as usize] += 1;
            assert!(!c.initially_touching && c.toi.lo <= c.toi.hi);
            let dist = gjk_distance(&ca, &cb, &rel_at(c.toi.hi), &mut GjkCache::new()).unwrap();
            assert!(
                dist.status != GjkStatus::Intersecting && dist.distance <= 1e-9 * scale,
                "seed {seed}: not touching at toi.hi {:?}: {dist:?}",
                c.toi
            );
            assert!((c.normal.norm() - 1.0).abs() < 1e-12);
            // The contact point lies on b's surface (within the band) in world coordinates.
            let local = pose_b.rot.transpose() * (c.point - PointD::from(pose_b.trans));
            let probe = PointCloud::new(vec![Point::new(
                local.x as f32,
                local.y as f32,
                local.z as f32,
            )])
            .unwrap();
            let dp = gjk_distance(&cb, &probe, &Pose::identity(), &mut GjkCache::new()).unwrap();
            assert!(dp.distance <= 1e-5, "seed {seed}: point off b: {dp:?}");
        }
    }
    assert_eq!(cases, wanted_cases);
    kinds
}

#[test]
fn brute_force_rotation_against_sampled_gjk() {
    let kinds = brute_force(0x0c_cd_40_7a, false, 300);
    eprintln!("vertex-face, face-vertex, edge-edge: {kinds:?}");
    assert!(kinds.iter().all(|&k| k >= 10), "{kinds:?}");
}

#[test]
fn brute_force_translate_then_rotate_against_sampled_gjk() {
    let kinds = brute_force(0x7e_57_0c, true, 150);
    eprintln!("vertex-face, face-vertex, edge-edge: {kinds:?}");
    assert!(kinds.iter().sum::<usize>() >= 40, "{kinds:?}");
}
