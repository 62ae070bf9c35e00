//! The expel zone (seed section 3) against known answers: the seed's figures 2-4 for a rotating
//! vertex, entries through the hull from outside (and from behind, around the axis), the
//! translational rule of section 3.1, and the polygon-bounds checks at the stop.

use colldet_ccd::CcdError;
use colldet_ccd::expel::{
    ExpelReason, apply_expel_rotation_vertex_face, apply_expel_translation_vertex_face,
    expel_rotation_vertex_plane, expel_translation_vertex_plane,
};
use colldet_ccd::expel::{expanded_edge_offset, expel_translation_edge_edge};
use colldet_ccd::translation_sweep::{TranslationOptions, sweep_translation_with};
use colldet_ccd::{ContactKind, RigidPose, SweepShape, TranslationWorkspace, sweep_translation};
use colldet_geom::math::{MatrixD, PointD, VectorD};
use colldet_geom::{BuildOptions, Polyhedron};
use colldet_testkit::shapes::cuboid;
use std::f64::consts::{FRAC_PI_4, PI, TAU};

const TOL: f64 = 1e-12;

/// The plane `y = -0.004` (front `+y`) near the axis `z`: a vertex close to the axis turns on a
/// small circle that dips into and rises out of the zone.
fn near_plane() -> (VectorD, f64) {
    (VectorD::y(), 0.004)
}

/// Figure 2: in the zone, the first motion leads deeper: no motion at all.
#[test]
fn figure_2_stop_immediately() {
    let (n, d) = near_plane();
    let p = PointD::new(-0.001, -0.003, 0.0);
    for angle in [0.1, 3.0, 7.0] {
        let s = expel_rotation_vertex_plane(&p, &n, d, angle, 0.01).unwrap();
        assert_eq!(s.fraction, 0.0);
        assert_eq!(s.reason, ExpelReason::InZoneMovingIn);
        assert!(s.in_zone_at_start && s.starts_in_contact());
    }
    // Turning the other way it moves out of the plane first.
    let s = expel_rotation_vertex_plane(&p, &n, d, -3.0, 0.01).unwrap();
    assert!(s.fraction > 0.0 && !s.starts_in_contact());
}

/// Figure 3: in the zone, moving out, never leaving it: up to the top of the circle, where
/// `tan(theta) = px / py`.
#[test]
fn figure_3_move_up_to_top() {
    let (n, d) = near_plane();
    let p = PointD::new(0.001, -0.003, 0.0);
    let top = PI - (1.0f64 / 3.0).atan();
    let s = expel_rotation_vertex_plane(&p, &n, d, 3.0, 0.01).unwrap();
    assert_eq!(s.reason, ExpelReason::InZoneUpToTop);
    assert!((s.fraction - top / 3.0).abs() < TOL, "{s:?}");
    assert!(s.in_zone_at_start && !s.starts_in_contact());
    // A shorter rotation ends before the top: free.
    let s = expel_rotation_vertex_plane(&p, &n, d, 2.0, 0.01).unwrap();
    assert_eq!((s.fraction, s.reason), (1.0, ExpelReason::Free));
}

/// Figure 4: in the zone, moving out, leaving the zone and coming back: stops on the hull.
/// `0.004 + 0.001 sin - 0.003 cos = e = 0.0015` gives `11 r^2 + 4 r - 1 = 0` in `tan(theta/2)`;
/// the downward crossing is the negative root plus a full turn.
#[test]
fn figure_4_move_out_and_collide() {
    let (n, d) = near_plane();
    let p = PointD::new(0.001, -0.003, 0.0);
    let r = (-4.0 - 60.0f64.sqrt()) / 22.0;
    let theta = TAU + 2.0 * r.atan();
    let s = expel_rotation_vertex_plane(&p, &n, d, 6.0, 0.0015).unwrap();
    assert_eq!(s.reason, ExpelReason::HitsHull);
    assert!(
        (s.fraction - theta / 6.0).abs() < TOL,
        "{s:?} {}",
        theta / 6.0
    );
    assert!(s.in_zone_at_start);
    let s = expel_rotation_vertex_plane(&p, &n, d, 5.0, 0.0015).unwrap();
    assert_eq!(s.reason, ExpelReason::Free);
}

/// From outside: the tip at `(0, 2)` turning into the plane `x = -1.5` stops on the hull at
/// `2 sin(theta) = 1.5 - e`; `e = 0` is the plain sweep.
#[test]
fn outside_hits_hull() {
    let n = VectorD::x();
    for (e, want) in [(0.1, 0.7f64.asin()), (0.0, 0.75f64.asin())] {
        let s = expel_rotation_vertex_plane(&PointD::new(0.0, 2.0, 0.0), &n, 1.5, 1.0, e).unwrap();
        assert_eq!(s.reason, ExpelReason::HitsHull);
        assert!((s.fraction - want).abs() < TOL, "{s:?}");
        assert!(!s.in_zone_at_start && !s.starts_in_contact());
        // Mirrored: the other way round from (0, -2).
        let s =
            expel_rotation_vertex_plane(&PointD::new(0.0, -2.0, 0.0), &n, 1.5, -1.0, e).unwrap();
        assert!((s.fraction - want).abs() < TOL, "{s:?}");
    }
    // Starting on the hull and approaching: contact at the start.
    let p = PointD::new(0.0, 2.0, 0.0);
    let s = expel_rotation_vertex_plane(&p, &n, 0.1, 1.0, 0.1).unwrap();
    assert_eq!((s.fraction, s.reason), (0.0, ExpelReason::HitsHull));
    assert!(s.starts_in_contact());
}

/// Deep behind the plane: free until it comes around the axis to the front and enters.
#[test]
fn behind_comes_around() {
    let n = VectorD::x();
    let p = PointD::new(-3.0, 0.0, 0.0);
    let s = expel_rotation_vertex_plane(&p, &n, 1.5, 2.0, 0.1).unwrap();
    assert_eq!((s.fraction, s.reason), (1.0, ExpelReason::Free));
    assert!(!s.in_zone_at_start);
    let s = expel_rotation_vertex_plane(&p, &n, 1.5, 6.0, 0.1).unwrap();
    let want = (TAU - (1.4f64 / 3.0).acos()) / 6.0;
    assert!((s.fraction - want).abs() < TOL, "{s:?} {want}");
}

/// The axis orthogonal to the plane: the distance never changes, nothing stops.
#[test]
fn axis_orthogonal_to_plane() {
    let s =
        expel_rotation_vertex_plane(&PointD::new(1.0, 0.0, 0.001), &VectorD::z(), 0.0, 3.0, 0.01)
            .unwrap();
    assert_eq!((s.fraction, s.reason), (1.0, ExpelReason::Free));
    assert!(s.in_zone_at_start);
}

/// Seed 3.1: translational vertex-polygon.
#[test]
fn translation_rule() {
    let e = 0.1;
    let t = |dist, rate| expel_translation_vertex_plane(dist, rate, e).unwrap();
    let s = t(1.0, -2.0);
    assert_eq!(s.reason, ExpelReason::HitsHull);
    assert!((s.fraction - 0.45).abs() < TOL);
    // In the zone, approaching: contact at the start.
    let s = t(0.05, -1.0);
    assert_eq!((s.fraction, s.reason), (0.0, ExpelReason::InZoneMovingIn));
    assert!(s.starts_in_contact() && s.in_zone_at_start);
    // Slightly behind the plane but within the zone: the same.
    assert_eq!(t(-0.05, -1.0).fraction, 0.0);
    // In the zone, moving away or parallel: free.
    for rate in [1.0, 0.0] {
        let s = t(0.05, rate);
        assert_eq!((s.fraction, s.reason), (1.0, ExpelReason::Free));
        assert!(s.in_zone_at_start);
    }
    // On the hull, approaching: 0, from the hull.
    let s = t(0.1, -1.0);
    assert_eq!((s.fraction, s.reason), (0.0, ExpelReason::HitsHull));
    assert!(s.starts_in_contact());
    // Deep behind: free; too far: free; exactly reaching the hull at the end: stops at 1.
    assert_eq!(t(-1.0, -1.0).reason, ExpelReason::Free);
    assert_eq!(t(3.0, -1.0).reason, ExpelReason::Free);
    let s = t(1.1, -1.0);
    assert_eq!((s.fraction, s.reason), (1.0, ExpelReason::HitsHull));
    // e = 0: the plain sweep (alpha / beta).
    let s = expel_translation_vertex_plane(1.0, -2.0, 0.0).unwrap();
    assert_eq!(s.fraction, 0.5);
}

#[test]
fn bad_input() {
    assert!(matches!(
        expel_translation_vertex_plane(1.0, -1.0, -0.1),
        Err(CcdError::InvalidParameter { .. })
    ));
    assert!(matches!(
        expel_translation_vertex_plane(f64::NAN, -1.0, 0.1),
        Err(CcdError::NonFinite { .. })
    ));
    assert!(matches!(
        expel_rotation_vertex_plane(&PointD::origin(), &VectorD::zeros(), 0.0, 1.0, 0.1),
        Err(CcdError::InvalidParameter { .. })
    ));
    assert!(
        expel_rotation_vertex_plane(&PointD::origin(), &VectorD::x(), 0.0, f64::INFINITY, 0.1)
            .is_err()
    );
    let tri = [PointD::origin(); 3];
    assert!(
        apply_expel_translation_vertex_face(&PointD::origin(), &VectorD::x(), &tri, 0.1).is_err()
    );
}

/// The polygon-bounds checks at the stop.
#[test]
fn bounds_checked_at_the_stop() {
    // The triangle in z = 0, front +z, around the origin.
    let tri = [
        PointD::new(-1.0, -1.0, 0.0),
        PointD::new(1.0, -1.0, 0.0),
        PointD::new(0.0, 1.0, 0.0),
    ];
    let down = VectorD::new(0.0, 0.0, -2.0);
    let hit = apply_expel_translation_vertex_face(&PointD::new(0.0, 0.0, 1.0), &down, &tri, 0.1)
        .unwrap()
        .expect("stop");
    assert!((hit.stop.fraction - 0.45).abs() < TOL);
    assert!((hit.point.z - 0.1).abs() < TOL);
    // Beside the triangle: no stop.
    let miss =
        apply_expel_translation_vertex_face(&PointD::new(5.0, 0.0, 1.0), &down, &tri, 0.1).unwrap();
    assert!(miss.is_none());
    // Rotation (figure 2) against a triangle in the plane y = -0.004 under the vertex, then one
    // far along x.
    let under = [
        PointD::new(-1.0, -0.004, -1.0),
        PointD::new(0.0, -0.004, 1.0),
        PointD::new(1.0, -0.004, -1.0),
    ];
    let p = PointD::new(-0.001, -0.003, 0.0);
    let hit = apply_expel_rotation_vertex_face(&p, 1.0, &under, 0.01)
        .unwrap()
        .expect("stop");
    assert!(hit.stop.starts_in_contact() && hit.point == p);
    let far = under.map(|q| q + VectorD::new(10.0, 0.0, 0.0));
    assert!(
        apply_expel_rotation_vertex_face(&p, 1.0, &far, 0.01)
            .unwrap()
            .is_none()
    );
}

/// Seed 3.2: the expanded line of a right-angled edge lies `sqrt(2) e` out along the bisector;
/// an edge falling onto an edge stops where it meets it; in the zone: only away.
#[test]
fn translational_edge_edge_stops_at_the_expanded_line() {
    let e = 0.1;
    let (n1, n2) = (VectorD::new(-1.0, 0.0, 1.0), VectorD::new(1.0, 0.0, 1.0));
    let w = expanded_edge_offset(&n1.normalize(), &n2.normalize(), e);
    assert!(
        (w - VectorD::new(0.0, 0.0, 2f64.sqrt() * e)).norm() < TOL,
        "{w:?}"
    );
    // One triangle, and a knife edge: e n1; a sharp edge is capped at 2 e.
    assert!(
        (expanded_edge_offset(&VectorD::z(), &VectorD::z(), e) - VectorD::z() * e).norm() < TOL
    );
    assert!(
        (expanded_edge_offset(&VectorD::z(), &-VectorD::z(), e) - VectorD::z() * e).norm() < TOL
    );
    let sharp = expanded_edge_offset(
        &VectorD::new(-0.99, 0.0, 0.141),
        &VectorD::new(0.99, 0.0, 0.141),
        e,
    );
    assert!(sharp.norm() <= 2.0 * e * (1.0 + 1e-12));
    // Edge along x at height 1 falling by 4 onto the edge along y at 0, line at height e.
    let (a, b) = (VectorD::new(-1.0, 0.5, 1.0), VectorD::new(1.0, 0.5, 1.0));
    let (p, q) = (VectorD::new(0.2, -1.0, 0.0), VectorD::new(0.2, 1.0, 0.0));
    let up = VectorD::new(0.0, 0.0, e);
    let down = VectorD::new(0.0, 0.0, -4.0);
    let f = expel_translation_edge_edge(&a, &b, &down, &p, &q, &up).unwrap();
    assert!((f - (1.0 - e) / 4.0).abs() < TOL, "{f}");
    // Moving away, beyond the fixed edge's end, not reaching the line: free.
    assert!(expel_translation_edge_edge(&a, &b, &-down, &p, &q, &up).is_none());
    let short = VectorD::new(0.2, 0.4, 0.0);
    assert!(expel_translation_edge_edge(&a, &b, &down, &p, &short, &up).is_none());
    let slow = VectorD::new(0.0, 0.0, -0.5);
    assert!(expel_translation_edge_edge(&a, &b, &slow, &p, &q, &up).is_none());
    // In the zone (height e / 2): approaching stops at 0, leaving is free.
    let (a, b) = (
        a - VectorD::new(0.0, 0.0, 1.0 - e / 2.0),
        b - VectorD::new(0.0, 0.0, 1.0 - e / 2.0),
    );
    assert_eq!(
        expel_translation_edge_edge(&a, &b, &down, &p, &q, &up),
        Some(0.0)
    );
    assert!(expel_translation_edge_edge(&a, &b, &-down, &p, &q, &up).is_none());
    // Behind the edge moving out through it: not the zone's business (free).
    let (a, b) = (a - VectorD::z(), b - VectorD::z());
    assert!(expel_translation_edge_edge(&a, &b, &-down, &p, &q, &up).is_none());
}

fn shape(half: VectorD) -> SweepShape {
    SweepShape::new(&Polyhedron::build(cuboid(half).unwrap(), &BuildOptions::default()).unwrap())
        .unwrap()
}

fn at(z: f64) -> RigidPose {
    RigidPose::new(MatrixD::identity(), VectorD::new(0.3, -0.2, z))
}

/// Seed 3.1 on a pair: a cube (half side 0.5) over a slab whose top is `z = 0`.
#[test]
fn translational_sweep_stops_at_the_expel_zone() {
    let cube = shape(VectorD::repeat(0.5));
    let floor = shape(VectorD::new(5.0, 5.0, 0.5));
    let floor_pose = RigidPose::new(MatrixD::identity(), VectorD::new(0.0, 0.0, -0.5));
    let mut ws = TranslationWorkspace::new();
    let zero = VectorD::zeros();
    let sweep = |pose: &RigidPose, d: VectorD, e: f64, ws: &mut TranslationWorkspace| {
        sweep_translation_with(
            &cube,
            pose,
            &d,
            &floor,
            &floor_pose,
            &zero,
            &TranslationOptions { expel: e },
            ws,
        )
    };
    // Falling from bottom height h = 1.5 by 2: (h - e) / |v| instead of h / |v|.
    let fall = VectorD::new(0.0, 0.0, -2.0);
    for e in [0.1, 0.25, 1e-6] {
        let c = sweep(&at(2.0), fall, e, &mut ws).expect("stops");
        let want = (1.5 - e) / 2.0;
        assert!(
            (c.toi.lo - want).abs() < TOL && (c.toi.hi - want).abs() < TOL,
            "{e}: {c:?}"
        );
        assert!((c.normal - VectorD::z()).norm() < 1e-12, "{c:?}");
        assert!(!c.initially_touching);
        // The point is on the cube's bottom at the stop, e above the floor.
        assert!((c.point.z - e).abs() < 1e-12, "{c:?}");
    }
    // e = 0 through the options: exactly the plain sweep.
    let plain = sweep_translation(&cube, &at(2.0), &fall, &floor, &floor_pose, &zero, &mut ws);
    assert_eq!(sweep(&at(2.0), fall, 0.0, &mut ws), plain);
    let plain = plain.unwrap();
    assert!(plain.toi.lo <= 0.75 && 0.75 <= plain.toi.hi);
    // Not reaching the zone: free.
    assert!(sweep(&at(2.0), VectorD::new(0.0, 0.0, -1.3), 0.1, &mut ws).is_none());
    assert!(sweep(&at(2.0), VectorD::new(0.0, 0.0, -1.4), 0.1, &mut ws).is_some());
    // Starting inside the zone (bottom at 0.05 < e): deeper stops at 0, away or along is free.
    let inside = at(0.55);
    let c = sweep(&inside, VectorD::new(0.0, 0.0, -1.0), 0.1, &mut ws).expect("stops");
    assert_eq!((c.toi.lo, c.toi.hi), (0.0, 0.0));
    let c = sweep(&inside, VectorD::new(0.3, 0.0, -0.01), 0.1, &mut ws).expect("stops");
    assert_eq!(c.toi.hi, 0.0);
    assert!(sweep(&inside, VectorD::new(0.0, 0.0, 1.0), 0.1, &mut ws).is_none());
    assert!(sweep(&inside, VectorD::new(0.2, 0.3, 1.0), 0.1, &mut ws).is_none());
    assert!(sweep(&inside, VectorD::new(2.0, 1.0, 0.0), 0.1, &mut ws).is_none());
    // The same with the floor moving up (face-vertex, reverse motion) instead.
    let c = sweep_translation_with(
        &floor,
        &floor_pose,
        &VectorD::new(0.0, 0.0, 2.0),
        &cube,
        &at(2.0),
        &zero,
        &TranslationOptions { expel: 0.1 },
        &mut ws,
    )
    .expect("stops");
    assert!((c.toi.hi - 0.7).abs() < TOL, "{c:?}");
}

/// Seed 3.2 on a pair: a cube standing on an edge (turned 45 degrees about x) falling onto a
/// slab's ridge (turned 45 degrees about y): the ridges cross, the stop is where the falling
/// ridge meets the expanded line, `sqrt(2) e` above the fixed ridge.
#[test]
fn translational_sweep_edges_stop_at_the_expanded_line() {
    let cube = shape(VectorD::repeat(0.5));
    let slab = shape(VectorD::new(0.5, 3.0, 0.5));
    let (s, c) = FRAC_PI_4.sin_cos();
    let about_x = MatrixD::new(1.0, 0.0, 0.0, 0.0, c, -s, 0.0, s, c);
    let about_y = MatrixD::new(c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c);
    let r = 0.5 * 2f64.sqrt();
    // Ridge of the slab at z = 0, bottom ridge of the cube at z = 1.
    let slab_pose = RigidPose::new(about_y, VectorD::new(0.0, 0.0, -r));
    let cube_pose = RigidPose::new(about_x, VectorD::new(0.0, 0.0, 1.0 + r));
    let mut ws = TranslationWorkspace::new();
    let e = 0.05;
    let c = sweep_translation_with(
        &cube,
        &cube_pose,
        &VectorD::new(0.0, 0.0, -2.0),
        &slab,
        &slab_pose,
        &VectorD::zeros(),
        &TranslationOptions { expel: e },
        &mut ws,
    )
    .expect("stops");
    let want = (1.0 - 2f64.sqrt() * e) / 2.0;
    assert_eq!(c.kind, ContactKind::EdgeEdge, "{c:?}");
    assert!((c.toi.hi - want).abs() < 1e-9, "{c:?} want {want}");
}
