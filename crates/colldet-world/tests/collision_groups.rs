//! Collision groups against the interest matrix on random worlds: after every check, the pairs in
//! contact (Begin and Persist events) are exactly the brute-force answer over all pairs (exact
//! oracle, filtered by groups and interest), the events are the difference with the previous
//! check's answer, and the new collisions reported to the collision callbacks are the answer's
//! pairs with a moved object.

use std::collections::BTreeSet;

use colldet_geom::MeshData;
use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::SeededRng;
use colldet_testkit::exact_oracle::{OracleMesh, OraclePose, exact_collide};
use colldet_testkit::shapes::cuboid;
use colldet_world::{BroadPhaseKind, Config, ContactEvent, ObjectId, World, WorldError};
use nalgebra::{Translation3, UnitQuaternion};

const OBJECTS: usize = 20;
const FRAMES: usize = 8;
const SEEDS: u64 = 24;
/// Group bits in use (small, so that masks both admit and exclude often).
const GROUP_BITS: u32 = 3;

struct Body {
    oracle: OracleMesh,
    radius: f64,
    pose: Pose,
    group: u32,
    mask: u32,
}

fn random_box(rng: &mut SeededRng) -> (MeshData, OracleMesh, f64) {
    let h = VectorD::new(
        rng.range(0.2, 0.7),
        rng.range(0.2, 0.7),
        rng.range(0.2, 0.7),
    );
    let mesh = cuboid(h).unwrap();
    let mut triangles = Vec::new();
    for face in mesh.faces.iter() {
        for k in 1..face.len() - 1 {
            triangles.push([face[0], face[k], face[k + 1]]);
        }
    }
    let oracle = OracleMesh {
        vertices: (0..mesh.vertices.len())
            .map(|i| mesh.vertex_f64(i).coords.into())
            .collect(),
        triangles,
    };
    (mesh, oracle, h.norm())
}

fn random_pose(rng: &mut SeededRng, near: Option<&Pose>) -> Pose {
    let rotation: UnitQuaternion<f64> = rng.rotation();
    let t = match near {
        // A small move: contacts often persist.
        Some(p) => {
            p.translation.vector
                + VectorD::new(
                    rng.range(-0.2, 0.2),
                    rng.range(-0.2, 0.2),
                    rng.range(-0.2, 0.2),
                )
        }
        None => VectorD::new(
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
        ),
    };
    let rotation = match near {
        Some(p) if chance(rng, 0.5) => p.rotation,
        _ => rotation,
    };
    Pose::from_parts(Translation3::from(t), rotation)
}

fn chance(rng: &mut SeededRng, p: f64) -> bool {
    rng.f64() < p
}

fn random_group(rng: &mut SeededRng) -> (u32, u32) {
    let bits = (1u32 << GROUP_BITS) - 1;
    let group = 1 << rng.index(GROUP_BITS as usize);
    // Mostly non-empty masks; sometimes everything.
    let mask = if chance(rng, 0.2) {
        u32::MAX
    } else {
        (rng.next_u64() as u32 & bits) | (1 << rng.index(GROUP_BITS as usize))
    };
    (group, mask)
}

/// The oracle's answer for bodies `i < j` (in `i`'s frame, as the world tests the pair: the
/// object in the smaller slot first).
fn collide(a: &Body, b: &Body) -> bool {
    let d = (b.pose.translation.vector - a.pose.translation.vector).norm();
    if d > a.radius + b.radius + 1e-6 {
        return false;
    }
    let ra = a.pose.rotation.to_rotation_matrix().into_inner();
    let rb = b.pose.rotation.to_rotation_matrix().into_inner();
    let rel = OraclePose::from_matrix(
        &(ra.transpose() * rb),
        &(ra.transpose() * (b.pose.translation.vector - a.pose.translation.vector)),
    );
    exact_collide(&a.oracle, &OraclePose::IDENTITY, &b.oracle, &rel).collides()
}

fn config_for(seed: u64) -> Config {
    match seed % 3 {
        0 => Config {
            threads: 1,
            broad_phase: BroadPhaseKind::AllPairs,
            ..Config::default()
        },
        1 => Config {
            threads: 1,
            ..Config::default()
        },
        _ => Config {
            threads: 2,
            ..Config::default()
        },
    }
}

#[test]
fn groups_and_interest_match_brute_force_on_random_worlds() {
    let mut total_contacts = 0;
    let mut total_excluded = 0;
    for seed in 0..SEEDS {
        let mut rng = SeededRng::new(0xc011_6209 + seed);
        let mut world: World<usize> = World::new(config_for(seed)).unwrap();
        let mut bodies = Vec::new();
        let mut ids = Vec::new();
        for i in 0..OBJECTS {
            let (mesh, oracle, radius) = random_box(&mut rng);
            let id = world.make_collidable(mesh, i).unwrap();
            let pose = random_pose(&mut rng, None);
            world.set_transform(id, pose).unwrap();
            ids.push(id);
            bodies.push(Body {
                oracle,
                radius,
                pose,
                group: u32::MAX,
                mask: u32::MAX,
            });
        }
        let mut interest = vec![vec![true; OBJECTS]; OBJECTS];
        world.start().unwrap();
        let mut previous: BTreeSet<(ObjectId, ObjectId)> = BTreeSet::new();
        for frame in 0..FRAMES {
            let mut moved = [frame == 0; OBJECTS];
            if frame > 0 {
                for i in 0..OBJECTS {
                    if chance(&mut rng, 0.4) {
                        let near = chance(&mut rng, 0.7).then_some(&bodies[i].pose);
                        let pose = random_pose(&mut rng, near);
                        world.set_transform(ids[i], pose).unwrap();
                        bodies[i].pose = pose;
                        moved[i] = true;
                    }
                    if chance(&mut rng, 0.15) {
                        let (group, mask) = random_group(&mut rng);
                        world.set_group(ids[i], group, mask).unwrap();
                        (bodies[i].group, bodies[i].mask) = (group, mask);
                    }
                }
                for _ in 0..4 {
                    let (i, j) = (rng.index(OBJECTS), rng.index(OBJECTS));
                    if i != j {
                        let on = chance(&mut rng, 0.5);
                        world.set_interest(ids[i], ids[j], on).unwrap();
                        (interest[i][j], interest[j][i]) = (on, on);
                    }
                }
            }
            world.check().unwrap();

            let mut expected = BTreeSet::new();
            let mut expected_new = Vec::new();
            for i in 0..OBJECTS {
                for j in i + 1..OBJECTS {
                    let (a, b) = (&bodies[i], &bodies[j]);
                    let admitted = (a.group & b.mask) != 0 && (b.group & a.mask) != 0;
                    if !collide(a, b) {
                        continue;
                    }
                    if !(admitted && interest[i][j]) {
                        total_excluded += 1;
                        continue;
                    }
                    expected.insert((ids[i], ids[j]));
                    if moved[i] || moved[j] {
                        expected_new.push((ids[i], ids[j]));
                    }
                }
            }
            let label = format!("seed {seed}, frame {frame}");
            assert_eq!(
                world.last_collisions(),
                expected_new,
                "{label}: new collisions"
            );
            let mut in_contact = BTreeSet::new();
            let mut expected_events = Vec::new();
            for &pair in previous.union(&expected) {
                let event = match (previous.contains(&pair), expected.contains(&pair)) {
                    (false, true) => ContactEvent::Begin,
                    (true, true) => ContactEvent::Persist,
                    _ => ContactEvent::End,
                };
                expected_events.push((event, pair.0, pair.1));
            }
            let events: Vec<_> = world
                .last_contact_events()
                .iter()
                .map(|e| {
                    if e.event != ContactEvent::End {
                        in_contact.insert((e.a, e.b));
                    }
                    (e.event, e.a, e.b)
                })
                .collect();
            assert_eq!(events, expected_events, "{label}: events");
            assert_eq!(in_contact, expected, "{label}: contacts");
            assert_eq!(world.contact_count(), expected.len());
            total_contacts += expected.len();
            previous = expected;
        }
    }
    // The worlds are dense enough to exercise both sides of every filter.
    assert!(total_contacts > 200, "only {total_contacts} contacts");
    assert!(total_excluded > 100, "only {total_excluded} excluded pairs");
}

#[test]
fn set_group_errors_and_defaults() {
    let mut world: World<()> = World::new(Config::default()).unwrap();
    let a = world
        .make_collidable(cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap(), ())
        .unwrap();
    let g = world.group(a).unwrap();
    assert_eq!((g.group, g.mask), (u32::MAX, u32::MAX));
    world.set_group(a, 4, 5).unwrap();
    assert_eq!(world.group(a).unwrap().group, 4);
    world.remove(a).unwrap();
    assert!(matches!(
        world.set_group(a, 1, 1),
        Err(WorldError::InvalidHandle(id)) if id == a
    ));
    assert!(matches!(world.group(a), Err(WorldError::InvalidHandle(_))));
    // A new object in the old slot starts with the defaults.
    let b = world
        .make_collidable(cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap(), ())
        .unwrap();
    assert_eq!(world.group(b).unwrap().mask, u32::MAX);
    let foreign: World<()> = World::new(Config::default()).unwrap();
    assert!(matches!(
        foreign.group(b),
        Err(WorldError::InvalidHandle(_))
    ));
}

/// A dense cluster of 300 cubes split into two groups that each collide only with the other:
/// pairs within a group overlap in the broad phase but never reach a test or a cache.
#[test]
fn excluded_pairs_are_filtered_before_any_test() {
    let mut world: World<()> = World::new(Config {
        threads: 1,
        ..Config::default()
    })
    .unwrap();
    let cube = cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap();
    let mut rng = SeededRng::new(24);
    let mut red = Vec::new();
    for k in 0..300 {
        let id = world.make_collidable(cube.clone(), ()).unwrap();
        let t = VectorD::new(
            rng.range(0.0, 4.0),
            rng.range(0.0, 4.0),
            rng.range(0.0, 4.0),
        );
        world
            .set_transform(id, Pose::from_parts(Translation3::from(t), rng.rotation()))
            .unwrap();
        // Group 1 collides with 2 and 2 with 1: only red-blue pairs are admitted.
        let (group, mask) = if k % 2 == 0 { (1, 2) } else { (2, 1) };
        world.set_group(id, group, mask).unwrap();
        if k % 2 == 0 {
            red.push(id);
        }
    }
    world.start().unwrap();
    world.check().unwrap();
    let all = world.stats().colliding_pairs;
    assert!(all > 0);
    // Every red object joins blue: now every pair is excluded.
    for &id in &red {
        world.set_group(id, 2, 1).unwrap();
    }
    world.check().unwrap();
    let stats = world.stats();
    assert!(
        stats.overlapping_pairs > 1000,
        "{}",
        stats.overlapping_pairs
    );
    assert_eq!(stats.tested_pairs + stats.box_filtered_pairs, 0);
    assert_eq!(world.contact_count(), 0);
    assert_eq!(
        world
            .last_contact_events()
            .iter()
            .filter(|e| e.event == ContactEvent::End)
            .count(),
        all,
        "every contact ends"
    );
}

/// Groups filter the continuous check and traces as the interest matrix does.
#[test]
fn groups_filter_continuous_checks_and_traces() {
    let mut world: World<()> = World::new(Config::default()).unwrap();
    let cube = cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap();
    let wall = world.make_collidable(cube.clone(), ()).unwrap();
    let bullet = world.make_collidable(cube, ()).unwrap();
    world
        .set_transform(bullet, Pose::translation(-5.0, 0.0, 0.0))
        .unwrap();
    world.start().unwrap();
    world.check().unwrap();
    let through = Pose::translation(5.0, 0.0, 0.0);
    assert_eq!(world.trace(bullet, &through).unwrap().unwrap().hit, wall);
    // The wall in group 1, the bullet colliding with group 2 only: excluded.
    world.set_group(wall, 1, u32::MAX).unwrap();
    world.set_group(bullet, 2, 2).unwrap();
    assert!(world.trace(bullet, &through).unwrap().is_none());
    world.set_transform(bullet, through).unwrap();
    assert_eq!(world.check_continuous().unwrap(), 0);
    world.set_group(bullet, 2, u32::MAX).unwrap();
    world
        .set_transform(bullet, Pose::translation(-5.0, 0.0, 0.0))
        .unwrap();
    assert_eq!(world.check_continuous().unwrap(), 1);
}
