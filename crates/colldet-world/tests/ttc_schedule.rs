//! The time-to-collision schedule (`World::set_velocity_bound`) against the plain check: seeded
//! worlds of convex and non-convex objects moved by small steps, large jumps and spins, with
//! bounds that hold, bounds that every move breaks, measured bounds and no bound, objects removed
//! and added (slots reused), and continuous checks in between. After every check the scheduled
//! world must report exactly the plain world's pairs and contact count; it must also have
//! skipped tests, taken distances and counted the broken bounds. Bad bounds and stale ids are
//! refused.

use colldet_geom::MeshData;
use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cone, cuboid, sphere, torus};
use colldet_world::{Config, Method, ObjectId, VelocityBound, World, WorldError};
use nalgebra::{Translation3, UnitQuaternion};

/// The bodies' origins stay within this of the world's origin on each axis.
const HALF_BOX: f64 = 2.5;

fn meshes(rng: &mut SeededRng) -> Vec<MeshData> {
    let mut out = vec![
        torus(1.0, 0.3, 16, 8).unwrap(),
        sphere(0.6, 10, 5).unwrap(),
        cone(0.5, 1.0, 12).unwrap(),
        cuboid(VectorD::new(0.6, 0.3, 0.2)).unwrap(),
    ];
    for kind in [ChungWangShape::Ellipsoid, ChungWangShape::Rod] {
        out.push(chung_wang_polytope(kind, 40, rng.next_u64()).unwrap());
    }
    out
}

/// One object of the twin worlds: the same id-order in both, its pose and velocity.
struct Body {
    plain: ObjectId,
    scheduled: ObjectId,
    pose: Pose,
    velocity: VectorD,
    spin: VectorD,
}

fn random_bound(rng: &mut SeededRng) -> VelocityBound {
    match rng.index(4) {
        0 => VelocityBound::Unbounded,
        1 => VelocityBound::Measured,
        // Broken by any move.
        2 => VelocityBound::PerCheck {
            max_linear: 0.0,
            max_angular: 0.0,
        },
        // The largest step the bodies take (jumps break it).
        _ => VelocityBound::PerCheck {
            max_linear: 0.1,
            max_angular: 0.1,
        },
    }
}

fn random_body_pose(rng: &mut SeededRng) -> Pose {
    Pose::from_parts(
        Translation3::new(
            rng.range(-HALF_BOX, HALF_BOX),
            rng.range(-HALF_BOX, HALF_BOX),
            rng.range(-HALF_BOX, HALF_BOX),
        ),
        rng.rotation(),
    )
}

fn add_body(
    rng: &mut SeededRng,
    pool: &[MeshData],
    plain: &mut World<u32>,
    scheduled: &mut World<u32>,
    tag: u32,
) -> Body {
    let mesh = pool[rng.index(pool.len())].clone();
    let pose = random_body_pose(rng);
    let a = plain.make_collidable(mesh.clone(), tag).unwrap();
    let b = scheduled.make_collidable(mesh, tag).unwrap();
    plain.set_transform(a, pose).unwrap();
    scheduled.set_transform(b, pose).unwrap();
    scheduled.set_velocity_bound(b, random_bound(rng)).unwrap();
    let mut small = |s: f64| VectorD::new(rng.range(-s, s), rng.range(-s, s), rng.range(-s, s));
    Body {
        plain: a,
        scheduled: b,
        pose,
        velocity: small(0.02),
        spin: small(0.02),
    }
}

/// The reported pairs as sorted tag pairs.
fn reported(world: &World<u32>) -> Vec<(u32, u32)> {
    let mut pairs: Vec<(u32, u32)> = world
        .last_collisions()
        .iter()
        .map(|&(a, b)| {
            let (ta, tb) = (*world.user_data(a).unwrap(), *world.user_data(b).unwrap());
            (ta.min(tb), ta.max(tb))
        })
        .collect();
    pairs.sort_unstable();
    pairs
}

fn play(seed: u64, method: Method, threads: usize) -> (usize, usize, usize) {
    let mut rng = SeededRng::new(seed);
    let pool = meshes(&mut rng);
    let config = Config {
        method,
        threads,
        ..Config::default()
    };
    let mut plain: World<u32> = World::new(config.clone()).unwrap();
    let mut scheduled: World<u32> = World::new(config).unwrap();
    let mut tag = 0;
    let mut bodies: Vec<Body> = (0..24)
        .map(|_| {
            tag += 1;
            add_body(&mut rng, &pool, &mut plain, &mut scheduled, tag)
        })
        .collect();
    plain.start().unwrap();
    scheduled.start().unwrap();
    let (mut skipped, mut distances, mut violations) = (0, 0, 0);
    for step in 0..120 {
        for body in &mut bodies {
            let roll = rng.f64();
            if roll < 0.3 {
                continue; // resting this check
            }
            let pose = if roll < 0.31 {
                random_body_pose(&mut rng) // a jump
            } else {
                let mut t = body.pose.translation.vector + body.velocity;
                // Stay in the box: bounce.
                for c in 0..3 {
                    if t[c].abs() > HALF_BOX {
                        body.velocity[c] = -body.velocity[c];
                        t[c] = t[c].clamp(-HALF_BOX, HALF_BOX);
                    }
                }
                Pose::from_parts(
                    Translation3::from(t),
                    UnitQuaternion::from_scaled_axis(body.spin) * body.pose.rotation,
                )
            };
            body.pose = pose;
            plain.set_transform(body.plain, pose).unwrap();
            scheduled.set_transform(body.scheduled, pose).unwrap();
        }
        if step % 30 == 29 {
            // Replace an object: its slot is reused by the next one added.
            let gone = bodies.swap_remove(rng.index(bodies.len()));
            plain.remove(gone.plain).unwrap();
            scheduled.remove(gone.scheduled).unwrap();
            tag += 1;
            bodies.push(add_body(&mut rng, &pool, &mut plain, &mut scheduled, tag));
        }
        if step % 40 == 20 {
            // The continuous check consumes the moves too.
            plain.check_continuous().unwrap();
            scheduled.check_continuous().unwrap();
        } else {
            plain.check().unwrap();
            scheduled.check().unwrap();
            assert_eq!(
                reported(&plain),
                reported(&scheduled),
                "seed {seed:#x}, {method:?}, {threads} threads, step {step}"
            );
            let stats = scheduled.stats();
            skipped += stats.ttc_skipped_pairs;
            distances += stats.ttc_distances;
            violations += stats.ttc_bound_violations;
            assert_eq!(plain.stats().ttc_skipped_pairs, 0);
        }
        assert_eq!(plain.contact_count(), scheduled.contact_count());
        scheduled.validate().unwrap();
    }
    (skipped, distances, violations)
}

#[test]
fn scheduled_checks_report_exactly_the_plain_checks_pairs_even_with_broken_bounds() {
    let mut totals = (0, 0, 0);
    for (seed, method, threads) in [
        (0x77C_0001, Method::Auto, 1),
        (0x77C_0002, Method::Auto, 2),
        (0x77C_0003, Method::Convex, 1),
        (0x77C_0004, Method::Auto, 1),
    ] {
        let (s, d, v) = play(seed, method, threads);
        totals = (totals.0 + s, totals.1 + d, totals.2 + v);
    }
    eprintln!("skipped, distances, violations: {totals:?}");
    let (skipped, distances, violations) = totals;
    assert!(skipped > 100, "{totals:?}");
    assert!(distances > 10, "{totals:?}");
    assert!(violations > 100, "{totals:?}");
}

#[test]
fn a_pair_certified_apart_is_skipped_until_its_motion_could_close_the_gap() {
    // Two unit cubes turned 45 degrees about z (diamonds in xy), a at the origin, b at (d, d, 0):
    // their boxes overlap for d < sqrt(2), their facing faces are d sqrt(2) - 1 apart. b walks
    // towards a by 0.005 per axis per check (0.0071 per check, inside its bound), a rests.
    let mut world: World<()> = World::new(Config::default()).unwrap();
    let cube = cuboid(VectorD::repeat(0.5)).unwrap();
    let a = world.make_collidable(cube.clone(), ()).unwrap();
    let b = world.make_collidable(cube, ()).unwrap();
    let turn =
        UnitQuaternion::from_scaled_axis(VectorD::new(0.0, 0.0, std::f64::consts::FRAC_PI_4));
    let at = |d: f64| Pose::from_parts(Translation3::new(d, d, 0.0), turn);
    world.set_transform(a, at(0.0)).unwrap();
    let mut d = 0.9;
    world.set_transform(b, at(d)).unwrap();
    for id in [a, b] {
        world
            .set_velocity_bound(
                id,
                VelocityBound::PerCheck {
                    max_linear: 0.01,
                    max_angular: 0.0,
                },
            )
            .unwrap();
    }
    world.start().unwrap();
    let mut skips = Vec::new();
    let mut collided_at = None;
    for check in 1..=60 {
        if check > 1 {
            d -= 0.005;
            world.set_transform(b, at(d)).unwrap();
        }
        let n = world.check().unwrap();
        let skipped = world.stats().ttc_skipped_pairs;
        skips.push(skipped);
        if n > 0 && collided_at.is_none() {
            collided_at = Some(check);
        }
        // Touching or closer: never skipped, always reported.
        if d * std::f64::consts::SQRT_2 - 1.0 <= 0.0 {
            assert_eq!((skipped, n), (0, 1), "check {check}");
        }
    }
    // The faces meet once d <= 1 / sqrt(2): 0.9 - 0.005 * 39 = 0.705, at check 40.
    assert_eq!(collided_at, Some(40), "{skips:?}");
    assert!(skips.iter().sum::<usize>() >= 10, "{skips:?}");
    assert!(skips[..5].iter().sum::<usize>() >= 1, "{skips:?}");
    assert_eq!(world.stats().ttc_bound_violations, 0);
}

#[test]
fn bad_bounds_and_stale_ids_are_refused() {
    let mut world: World<()> = World::new(Config::default()).unwrap();
    let cube = cuboid(VectorD::repeat(0.5)).unwrap();
    let a = world.make_collidable(cube, ()).unwrap();
    assert_eq!(world.velocity_bound(a).unwrap(), VelocityBound::Unbounded);
    for (max_linear, max_angular) in [
        (-1.0, 0.0),
        (0.0, -0.5),
        (f64::NAN, 0.0),
        (0.0, f64::NAN),
        (f64::INFINITY, 0.0),
        (0.0, f64::NEG_INFINITY),
    ] {
        let bound = VelocityBound::PerCheck {
            max_linear,
            max_angular,
        };
        assert!(matches!(
            world.set_velocity_bound(a, bound),
            Err(WorldError::InvalidArgument(_))
        ));
        // Refused: the bound is unchanged.
        assert_eq!(world.velocity_bound(a).unwrap(), VelocityBound::Unbounded);
    }
    let bound = VelocityBound::PerCheck {
        max_linear: 0.5,
        max_angular: 0.1,
    };
    world.set_velocity_bound(a, bound).unwrap();
    assert_eq!(world.velocity_bound(a).unwrap(), bound);
    world
        .set_velocity_bound(a, VelocityBound::Measured)
        .unwrap();
    assert_eq!(world.velocity_bound(a).unwrap(), VelocityBound::Measured);
    world
        .set_velocity_bound(a, VelocityBound::Unbounded)
        .unwrap();
    assert_eq!(world.velocity_bound(a).unwrap(), VelocityBound::Unbounded);
    world.remove(a).unwrap();
    assert!(matches!(
        world.set_velocity_bound(a, VelocityBound::Measured),
        Err(WorldError::InvalidHandle(_))
    ));
    assert!(matches!(
        world.velocity_bound(a),
        Err(WorldError::InvalidHandle(_))
    ));
    world.validate().unwrap();
}
