//! The certified general sweep against brute force and closed forms.
//!
//! Brute force: the motion is sampled at 2,000 fractions and GJK (`colldet_narrow`) decides each
//! sample on the hulls. A pair that starts apart and overlaps (deeper than GJK's touching band) at
//! a sample must be reported with `lo` at or before that sample; a reported contact must have the
//! bodies within `1e-7 * scale` at `toi.hi`.

use colldet_ccd::{
    BodyMotion, ContactKind, GeneralSweepOptions, GeneralSweepWorkspace, Motion, RigidPose,
    SweepContact, SweepShape, sweep_general_with,
};
use colldet_geom::Polyhedron;
use colldet_geom::math::{MatrixD, Pose, VectorD};
use colldet_geom::mesh_data::MeshData;
use colldet_narrow::{GjkCache, GjkStatus, PointCloud, gjk_distance};
use colldet_testkit::CountingAllocator;
use colldet_testkit::rng::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cuboid};
use nalgebra::{Rotation3, Translation3, UnitQuaternion};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const SAMPLES: usize = 2000;

struct Body {
    shape: SweepShape,
    cloud: PointCloud,
}

fn body(mesh: MeshData) -> Body {
    let cloud = PointCloud::new(mesh.vertices.clone()).expect("points");
    let poly = Polyhedron::build(mesh, &Default::default()).expect("mesh builds");
    Body {
        shape: SweepShape::new(&poly).expect("sweepable"),
        cloud,
    }
}

fn iso(p: &RigidPose) -> Pose {
    let rot = Rotation3::from_matrix(&p.rot);
    Pose::from_parts(
        Translation3::from(p.trans),
        UnitQuaternion::from_rotation_matrix(&rot),
    )
}

/// GJK on the two bodies at fraction `tau`.
fn gjk_at(
    a: &Body,
    ma: &BodyMotion,
    b: &Body,
    mb: &BodyMotion,
    tau: f64,
) -> colldet_narrow::GjkDistance {
    let pos12 = iso(&ma.pose_at(tau)).inverse() * iso(&mb.pose_at(tau));
    gjk_distance(&a.cloud, &b.cloud, &pos12, &mut GjkCache::new()).expect("gjk")
}

fn rot(axis: VectorD, angle: f64) -> MatrixD {
    Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle).into_inner()
}

/// Checks one sweep against the sampled brute force; returns the contact.
fn check_case(
    a: &Body,
    ma: &BodyMotion,
    b: &Body,
    mb: &BodyMotion,
    ws: &mut GeneralSweepWorkspace,
    what: &str,
) -> Option<SweepContact> {
    let options = GeneralSweepOptions::default();
    let found = sweep_general_with(&a.shape, ma, &b.shape, mb, &options, ws).expect("valid");
    let scale = a.shape.radius() + b.shape.radius();
    let start = gjk_at(a, ma, b, mb, 0.0).status;
    if let Some(c) = &found {
        let toi = c.toi;
        assert!(
            0.0 <= toi.lo && toi.lo <= toi.hi && toi.hi <= 1.0,
            "{what}: {toi:?}"
        );
        assert!(toi.width() <= options.time_tolerance, "{what}: {toi:?}");
        let d = gjk_at(a, ma, b, mb, toi.hi).distance;
        assert!(d <= 1e-7 * scale, "{what}: apart by {d} at {toi:?} ({c:?})");
        assert!((c.normal.norm() - 1.0).abs() < 1e-9, "{what}: {c:?}");
        if c.initially_touching {
            assert_eq!((toi.lo, toi.hi), (0.0, 0.0));
            assert_ne!(
                start,
                GjkStatus::Separated,
                "{what}: apart at 0 but touching"
            );
        }
    }
    if start == GjkStatus::Separated {
        let first = (0..=SAMPLES).find(|&k| {
            let tau = k as f64 / SAMPLES as f64;
            gjk_at(a, ma, b, mb, tau).status == GjkStatus::Intersecting
        });
        if let Some(k) = first {
            let tau = k as f64 / SAMPLES as f64;
            let c = found.unwrap_or_else(|| panic!("{what}: missed the overlap at {tau}"));
            assert!(
                c.toi.lo <= tau,
                "{what}: lo {} after overlap at {tau}",
                c.toi.lo
            );
        }
    }
    found
}

fn random_pose(rng: &mut SeededRng, spread: f64) -> RigidPose {
    let t = VectorD::new(
        rng.range(-spread, spread),
        rng.range(-spread, spread),
        rng.range(-spread, spread),
    );
    RigidPose::new(rng.rotation().to_rotation_matrix().into_inner(), t)
}

fn shapes(seed: u64, n: usize) -> Vec<Body> {
    let mut out = vec![
        body(cuboid(VectorD::new(1.0, 1.0, 1.0)).unwrap()),
        body(cuboid(VectorD::new(1.5, 0.25, 0.5)).unwrap()),
    ];
    for (i, kind) in ChungWangShape::ALL.into_iter().enumerate() {
        out.push(body(chung_wang_polytope(kind, n, seed + i as u64).unwrap()));
    }
    out
}

#[test]
fn interpolated_motions_against_sampling() {
    let bodies = shapes(7, 24);
    let mut rng = SeededRng::new(0x6e5e_0001);
    let mut ws = GeneralSweepWorkspace::new();
    let (mut hits, mut overlaps) = (0, 0);
    for case in 0..240 {
        let a = &bodies[rng.index(bodies.len())];
        let b = &bodies[rng.index(bodies.len())];
        // a flies through the region of b (starting 3 to 4 units away), rotating by up to pi;
        // b turns in place half of the time.
        let start = random_pose(&mut rng, 0.0);
        let dir = rng.unit_vector().into_inner();
        let s = RigidPose::new(start.rot, dir * rng.range(3.0, 4.0));
        let end_t = -dir * rng.range(0.0, 3.0)
            + VectorD::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
        let end_rot = rot(rng.unit_vector().into_inner(), rng.range(0.0, 3.1)) * s.rot;
        let ma = BodyMotion::new(
            s,
            Motion::Interpolated {
                end: RigidPose::new(end_rot, end_t),
            },
        )
        .unwrap();
        let b_start = random_pose(&mut rng, 0.0);
        let mb = if case % 2 == 0 {
            BodyMotion::stationary(b_start)
        } else {
            let spin = rot(rng.unit_vector().into_inner(), rng.range(1.6, 3.1)) * b_start.rot;
            BodyMotion::new(
                b_start,
                Motion::Interpolated {
                    end: RigidPose::new(spin, b_start.trans),
                },
            )
            .unwrap()
        };
        let found = check_case(a, &ma, b, &mb, &mut ws, &format!("case {case}"));
        hits += usize::from(found.is_some());
        overlaps += usize::from(gjk_at(a, &ma, b, &mb, 1.0).status == GjkStatus::Intersecting);
    }
    assert!(
        hits >= 40,
        "too few contacts to be meaningful: {hits} ({overlaps} overlapping at the end)"
    );
}

#[test]
fn big_hulls_against_sampling() {
    let a = body(chung_wang_polytope(ChungWangShape::Ellipsoid, 500, 11).unwrap());
    let b = body(chung_wang_polytope(ChungWangShape::Plate, 500, 12).unwrap());
    let mut rng = SeededRng::new(0x6e5e_0002);
    let mut ws = GeneralSweepWorkspace::new();
    let mut hits = 0;
    for case in 0..10 {
        let dir = rng.unit_vector().into_inner();
        let s = RigidPose::new(rng.rotation().to_rotation_matrix().into_inner(), dir * 3.0);
        let end_rot = rot(rng.unit_vector().into_inner(), 2.5) * s.rot;
        let ma = BodyMotion::new(
            s,
            Motion::Interpolated {
                end: RigidPose::new(end_rot, -dir * 0.5),
            },
        )
        .unwrap();
        let b_start = random_pose(&mut rng, 0.0);
        let spin = rot(rng.unit_vector().into_inner(), 2.0) * b_start.rot;
        let mb = BodyMotion::new(
            b_start,
            Motion::Interpolated {
                end: RigidPose::new(spin, b_start.trans),
            },
        )
        .unwrap();
        hits +=
            usize::from(check_case(&a, &ma, &b, &mb, &mut ws, &format!("big {case}")).is_some());
    }
    assert_eq!(hits, 10, "every big case ends overlapping");
}

/// A unit cube (half extent 1) turning about `z` through its centre by 2 rad; the wall's face is
/// the plane `x = w`. The cube's reach along `x` is `sqrt(2) cos(pi/4 - phi)`, so its corners hit
/// the wall at `phi* = pi/4 - acos(w / sqrt(2))`.
#[test]
fn cube_rotating_into_a_wall() {
    let cube = body(cuboid(VectorD::new(1.0, 1.0, 1.0)).unwrap());
    let wall = body(cuboid(VectorD::new(0.5, 5.0, 5.0)).unwrap());
    let mut ws = GeneralSweepWorkspace::new();
    for w in [1.0625, 1.25, 1.375, 1.40625] {
        let theta = 2.0;
        let start = RigidPose::identity();
        let ma = BodyMotion::new(
            start,
            Motion::Interpolated {
                end: RigidPose::new(rot(VectorD::z(), theta), VectorD::zeros()),
            },
        )
        .unwrap();
        let mb =
            BodyMotion::stationary(RigidPose::from_translation(VectorD::new(w + 0.5, 0.0, 0.0)));
        let c = check_case(&cube, &ma, &wall, &mb, &mut ws, &format!("wall {w}"))
            .expect("hits the wall");
        let phi = std::f64::consts::FRAC_PI_4 - (w / 2f64.sqrt()).acos();
        let tau = phi / theta;
        assert!(
            c.toi.lo <= tau + 1e-12 && tau <= c.toi.hi + 1e-9,
            "{w}: {tau} vs {:?}",
            c.toi
        );
        assert!(!c.initially_touching);
        assert_eq!(c.kind, ContactKind::VertexFace, "{c:?}");
        assert!(c.normal.x < -0.999_999, "{c:?}");
        assert!((c.point.x - w).abs() < 1e-8, "{c:?}");
    }
}

#[test]
fn start_in_contact_and_misses() {
    let cube = body(cuboid(VectorD::new(1.0, 1.0, 1.0)).unwrap());
    let wall = body(cuboid(VectorD::new(0.5, 5.0, 5.0)).unwrap());
    let mut ws = GeneralSweepWorkspace::new();
    let mb = BodyMotion::stationary(RigidPose::from_translation(VectorD::new(1.75, 0.0, 0.0)));
    // Face to face with the wall (face at x = 1.25), moving away while turning.
    let start = RigidPose::from_translation(VectorD::new(0.25, 0.0, 0.0));
    let end = RigidPose::new(rot(VectorD::x(), 1.0), VectorD::new(-3.0, 0.0, 0.0));
    let ma = BodyMotion::new(start, Motion::Interpolated { end }).unwrap();
    let c = check_case(&cube, &ma, &wall, &mb, &mut ws, "resting").expect("touching");
    assert!(c.initially_touching, "{c:?}");
    assert_eq!((c.toi.lo, c.toi.hi), (0.0, 0.0));
    // Passing beside the wall (it ends at z = 5; the cube stays above z = 6.5 + ...).
    let start = RigidPose::from_translation(VectorD::new(0.0, 0.0, 7.0));
    let end = RigidPose::new(rot(VectorD::y(), 3.0), VectorD::new(4.0, 0.0, 7.5));
    let ma = BodyMotion::new(start, Motion::Interpolated { end }).unwrap();
    assert!(check_case(&cube, &ma, &wall, &mb, &mut ws, "beside").is_none());
    // Invalid tolerance and NaN motions are errors, not panics.
    let bad = GeneralSweepOptions {
        time_tolerance: 0.0,
    };
    assert!(sweep_general_with(&cube.shape, &ma, &wall.shape, &mb, &bad, &mut ws).is_err());
    let mut nan = ma;
    nan.start.trans.x = f64::NAN;
    let options = GeneralSweepOptions::default();
    assert!(sweep_general_with(&cube.shape, &nan, &wall.shape, &mb, &options, &mut ws).is_err());
}

/// Motions (b) and (c) through the same engine, and a warm workspace that does not allocate.
#[test]
fn rotations_about_axes_and_no_allocation() {
    let bodies = shapes(21, 16);
    let mut rng = SeededRng::new(0x6e5e_0003);
    let mut ws = GeneralSweepWorkspace::new();
    let mut hits = 0;
    for case in 0..60 {
        let a = &bodies[rng.index(bodies.len())];
        let b = &bodies[rng.index(bodies.len())];
        let start = RigidPose::new(
            rng.rotation().to_rotation_matrix().into_inner(),
            rng.unit_vector().into_inner() * 2.5,
        );
        let axis = rng.unit_vector().into_inner();
        let pivot = colldet_geom::math::PointD::from(rng.unit_vector().into_inner() * 0.5);
        let angle = rng.range(-6.0, 6.0);
        let motion = if case % 2 == 0 {
            Motion::Rotation { pivot, axis, angle }
        } else {
            let d = -start.trans * rng.range(0.0, 0.8);
            Motion::TranslateThenRotate {
                d,
                pivot,
                axis,
                angle,
            }
        };
        let ma = BodyMotion::new(start, motion).unwrap();
        let mb = BodyMotion::stationary(RigidPose::identity());
        hits += usize::from(check_case(a, &ma, b, &mb, &mut ws, &format!("axis {case}")).is_some());
    }
    assert!(hits >= 15, "too few contacts to be meaningful: {hits}");
    // The workspace has grown: the same sweeps again allocate nothing.
    let (a, b) = (&bodies[0], &bodies[3]);
    let ma = BodyMotion::new(
        RigidPose::from_translation(VectorD::new(3.0, 0.0, 0.0)),
        Motion::Interpolated {
            end: RigidPose::new(rot(VectorD::y(), 2.0), VectorD::new(-1.0, 0.0, 0.0)),
        },
    )
    .unwrap();
    let mb = BodyMotion::stationary(RigidPose::identity());
    let options = GeneralSweepOptions::default();
    let first = sweep_general_with(&a.shape, &ma, &b.shape, &mb, &options, &mut ws).unwrap();
    let before = CountingAllocator::thread_allocations();
    let again = sweep_general_with(&a.shape, &ma, &b.shape, &mb, &options, &mut ws).unwrap();
    assert_eq!(CountingAllocator::thread_allocations() - before, 0);
    assert!(first.is_some());
    assert_eq!(first, again);
}

/// The split at the advancement's contact estimate (`split_point` in `general_sweep.rs`) keeps
/// the bracket guarantee, against closed-form first contacts `tau*`: `lo <= tau*` (up to the
/// rounding of the inputs, `1e-12`; more where the root is ill-conditioned, said below) and the
/// bodies touch at `hi` by the discrete test's standard (their closed-form gap there within the
/// touching band `1e-9 (r_a + r_b)`, so `hi` may be a little before `tau*`). Cases: seeded random
/// cubes turning into a wall, near-double roots (the corner's circle just reaching the wall), the
/// tangential double root itself, and a face sliding onto a face (distance 0 from the contact
/// on, no penetration).
#[test]
fn guided_split_brackets_closed_form_contacts() {
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, SQRT_2};
    let cube = body(cuboid(VectorD::new(1.0, 1.0, 1.0)).unwrap());
    let wall = body(cuboid(VectorD::new(0.5, 5.0, 5.0)).unwrap());
    let band = |a: &Body, b: &Body| 1e-9 * (a.shape.radius() + b.shape.radius()) + 1e-12;
    let mut ws = GeneralSweepWorkspace::new();
    let mut rng = SeededRng::new(0x6e5e_0004);
    // The cube turns about `z` through its centre from phase `phi0` at `theta` per unit fraction;
    // its reach along `x` is `sqrt(2) cos(pi/4 - phi)` for `phi` in `[0, pi/2]`. The whole scene
    // is placed by a random rigid map `g` (the root does not change).
    let spin = |g: &RigidPose, phi0: f64, theta: f64, w: f64| {
        let start = RigidPose::new(g.rot * rot(VectorD::z(), phi0), g.trans);
        let end = RigidPose::new(g.rot * rot(VectorD::z(), phi0 + theta), g.trans);
        let ma = BodyMotion::new(start, Motion::Interpolated { end }).unwrap();
        let wall_at = RigidPose::new(g.rot, g.trans + g.rot * VectorD::new(w + 0.5, 0.0, 0.0));
        (ma, BodyMotion::stationary(wall_at))
    };
    // `lo` not after `tau` (within `slack`) and the gap at `hi` within the band.
    let brackets =
        |c: &SweepContact, tau: f64, slack: f64, gap_at_hi: f64, band: f64, what: &str| {
            assert!(c.toi.lo <= tau + slack, "{what}: {tau} before {:?}", c.toi);
            assert!(
                gap_at_hi <= band,
                "{what}: gap {gap_at_hi} at hi of {:?}",
                c.toi
            );
        };
    let wall_gap = |phi0: f64, theta: f64, w: f64, tau: f64| {
        w - SQRT_2 * (FRAC_PI_4 - (phi0 + theta * tau)).cos()
    };
    for case in 0..200 {
        let g = random_pose(&mut rng, 3.0);
        let phi0 = rng.range(0.0, 0.6);
        let w = rng.range(SQRT_2 * (FRAC_PI_4 - phi0).cos() + 1e-3, SQRT_2 - 1e-3);
        let phi = FRAC_PI_4 - (w / SQRT_2).acos();
        // The fraction of the contact; the turn stays below pi (motion (d) takes the shortest arc).
        let u = rng.range(((phi - phi0) / 3.0).max(0.02), 0.98);
        let theta = (phi - phi0) / u;
        let (ma, mb) = spin(&g, phi0, theta, w);
        let what = format!("random {case}");
        let c = check_case(&cube, &ma, &wall, &mb, &mut ws, &what).expect("hits the wall");
        let gap = wall_gap(phi0, theta, w, c.toi.hi);
        brackets(
            &c,
            (phi - phi0) / theta,
            1e-12,
            gap,
            band(&cube, &wall),
            &what,
        );
        assert!(!c.initially_touching, "{what}");
    }
    // Near-double roots: the corner's largest reach `sqrt(2)` at `tau = 1/2` is just past the
    // wall; the two roots are `1/2 -+ acos(1 - eps) / theta`. Rounding `1 - eps` moves the first
    // root by about `1e-16 / sqrt(2 eps)`: a slack of `1e-9` covers `eps >= 1e-12`.
    for k in 3..=12 {
        let eps = 10f64.powi(-k);
        let g = random_pose(&mut rng, 3.0);
        let w = SQRT_2 * (1.0 - eps);
        let (ma, mb) = spin(&g, 0.0, FRAC_PI_2, w);
        let what = format!("near-double 1e-{k}");
        let c = check_case(&cube, &ma, &wall, &mb, &mut ws, &what).expect("hits the wall");
        let tau = (FRAC_PI_4 - (1.0 - eps).acos()) / FRAC_PI_2;
        let gap = wall_gap(0.0, FRAC_PI_2, w, c.toi.hi);
        brackets(&c, tau, 1e-9, gap, band(&cube, &wall), &what);
    }
    // The tangential double root: the wall at the largest reach. Within the inputs' rounding it
    // is a graze or a miss; a reported contact is at the tangency (`sqrt` of the rounding,
    // `1e-7`), a miss must really stay apart there.
    let (ma, mb) = spin(&RigidPose::identity(), 0.0, FRAC_PI_2, SQRT_2);
    match check_case(&cube, &ma, &wall, &mb, &mut ws, "tangent") {
        Some(c) => {
            let gap = wall_gap(0.0, FRAC_PI_2, SQRT_2, c.toi.hi);
            brackets(&c, 0.5, 1e-7, gap, band(&cube, &wall), "tangent");
        }
        None => {
            let pos = iso(&ma.pose_at(0.5)).inverse() * iso(&mb.pose_at(0.5));
            let d = gjk_distance(&cube.cloud, &wall.cloud, &pos, &mut GjkCache::new()).unwrap();
            assert!(d.distance > 0.0, "tangent missed while touching: {d:?}");
        }
    }
    // A face sliding onto a face: the cube moves along `x` from -4 to 4 resting on a cube below
    // (faces both at `y = 1`): they touch from `tau = 1/4` on, without ever overlapping.
    for case in 0..20 {
        let g = random_pose(&mut rng, 3.0);
        let at = |x: f64| RigidPose::new(g.rot, g.trans + g.rot * VectorD::new(x, 2.0, 0.0));
        let ma = BodyMotion::new(at(-4.0), Motion::Interpolated { end: at(4.0) }).unwrap();
        let mb = BodyMotion::stationary(g);
        let what = format!("sliding {case}");
        let c = check_case(&cube, &ma, &cube, &mb, &mut ws, &what).expect("slides onto it");
        // Apart along `x` by `8 (1/4 - hi)` before the contact.
        let gap = 8.0 * (0.25 - c.toi.hi);
        brackets(&c, 0.25, 1e-12, gap, band(&cube, &cube), &what);
    }
}
