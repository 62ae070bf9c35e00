//! The Chung-Wang demo on a small setup: frame count, objects inside the box, the iteration
//! histogram, the reported collisions against an all-pairs GJK recount, and the setup steps.

use colldet_cli::demo::{Demo, DemoOptions, DemoShape, Preset, PresetOptions, SetupStep};
use colldet_geom::ConvexPolytope;
use colldet_geom::math::{relative_pose, to_f64};
use colldet_narrow::{GjkCache, gjk_intersect};
use colldet_testkit::brute_force_pairs;
use colldet_world::{Config, Method, SV_HISTOGRAM_BINS};

fn small(shape: DemoShape, seed: u64) -> DemoOptions {
    DemoOptions {
        shape,
        objects: 40,
        vertices: 60,
        frames: 30,
        seed,
        config: Config {
            threads: 1,
            ..Config::default()
        },
    }
}

#[test]
fn small_demo_keeps_its_invariants() {
    for (shape, seed) in [
        (DemoShape::Ellipsoid, 1),
        (DemoShape::Rod, 2),
        (DemoShape::Plate, 3),
        (DemoShape::Mixed, 4),
    ] {
        let options = small(shape, seed);
        let mut demo = Demo::new(&options).unwrap();
        assert_eq!(
            demo.world().stats().colliding_pairs,
            0,
            "placed with overlap"
        );
        let half = demo.box_side() / 2.0;
        let mut histogram_total = 0;
        for _ in 0..options.frames {
            demo.step().unwrap();
            let stats = demo.world().stats();
            // Every pair is convex under Method::Auto: one Chung-Wang query per tested pair.
            assert_eq!(stats.sv_queries, stats.tested_pairs);
            assert_eq!(stats.sv_queries - stats.sv_separated, stats.colliding_pairs);
            let bins: usize = stats.sv_separated_histogram.iter().sum();
            assert_eq!(bins, stats.sv_separated);
            assert!(stats.sv_separated_within_3() <= stats.sv_separated);
            histogram_total += bins;
            // Every vertex of every object stays inside the box.
            for k in 0..demo.object_count() {
                let (_, mesh, radius, pose) = demo.object(k);
                let c = demo.centre(k);
                for axis in 0..3 {
                    assert!(c[axis].abs() <= half - radius + 1e-12 * half);
                }
                for v in &mesh.vertices {
                    let w = pose * to_f64(v);
                    assert!((0..3).all(|a| w[a].abs() <= half * (1.0 + 1e-12)));
                }
            }
        }
        assert_eq!(demo.frames_played(), options.frames);
        let summary = demo.summary();
        assert_eq!(summary.frames, options.frames);
        assert_eq!(summary.objects, 40);
        assert_eq!(summary.frame_ms.len(), 30);
        assert_eq!(summary.sv_separated as usize, histogram_total);
        assert!(summary.sv_separated > 0);

        // All-pairs GJK recount on the final poses.
        let hulls: Vec<ConvexPolytope> = (0..demo.object_count())
            .map(|k| ConvexPolytope::from_points(&demo.object(k).1.vertices).unwrap())
            .collect();
        let expected: Vec<(u32, u32)> = brute_force_pairs(hulls.len(), |i, j| {
            let pos12 = relative_pose(&demo.object(i).3, &demo.object(j).3);
            gjk_intersect(&hulls[i], &hulls[j], &pos12, &mut GjkCache::default())
                .unwrap()
                .is_colliding()
        })
        .into_iter()
        .map(|(i, j)| (i as u32, j as u32))
        .collect();
        let world = demo.world();
        let mut reported: Vec<(u32, u32)> = world
            .last_collisions()
            .iter()
            .map(|&(a, b)| {
                let (ua, ub) = (*world.user_data(a).unwrap(), *world.user_data(b).unwrap());
                (ua.min(ub), ua.max(ub))
            })
            .collect();
        reported.sort_unstable();
        assert_eq!(reported, expected, "{shape:?}");
    }
}

#[test]
fn gjk_method_leaves_the_separating_vector_counters_at_zero() {
    let mut options = small(DemoShape::Ellipsoid, 5);
    options.config.method = Method::Gjk;
    options.frames = 5;
    let summary = colldet_cli::demo::run_demo(&options, |_, _| {}).unwrap();
    assert_eq!(summary.frames, 5);
    assert_eq!(summary.sv_queries, 0);
    assert_eq!(summary.sv_max_iterations, 0);
    assert_eq!(SV_HISTOGRAM_BINS, 8);
}

#[test]
fn bad_options_are_errors() {
    for options in [
        DemoOptions {
            objects: 0,
            ..small(DemoShape::Rod, 1)
        },
        DemoOptions {
            vertices: 3,
            ..small(DemoShape::Rod, 1)
        },
        DemoOptions {
            frames: 0,
            ..small(DemoShape::Rod, 1)
        },
    ] {
        assert!(matches!(
            Demo::new(&options),
            Err(colldet_cli::demo::DemoError::InvalidOption(_))
        ));
    }
}

#[test]
fn setup_reports_meshes_objects_placement_then_ready() {
    let options = small(DemoShape::Mixed, 6);
    let mut steps = Vec::new();
    let demo = Demo::with_progress(&options, &mut |step| steps.push(step)).unwrap();
    let meshes: Vec<SetupStep> = (1..=24)
        .map(|done| SetupStep::Meshes { done, total: 24 })
        .collect();
    let objects: Vec<SetupStep> = (1..=40)
        .map(|done| SetupStep::Objects { done, total: 40 })
        .collect();
    assert_eq!(steps[..24], meshes[..]);
    assert_eq!(steps[24..64], objects[..]);
    let placing = &steps[64..steps.len() - 1];
    assert!(!placing.is_empty());
    for (k, step) in placing.iter().enumerate() {
        let SetupStep::Placing {
            attempt,
            round,
            colliding,
            ..
        } = *step
        else {
            panic!("{step:?}");
        };
        // Only the last check finds no collision.
        assert_eq!(colliding == 0, k + 1 == placing.len(), "{step:?}");
        assert!(attempt >= 1 && (1..=colldet_cli::demo::PLACEMENT_ROUNDS).contains(&round));
    }
    assert_eq!(
        steps.last(),
        Some(&SetupStep::Ready {
            objects: 40,
            side: demo.box_side()
        })
    );
    // The same demo as without progress.
    assert_eq!(Demo::new(&options).unwrap().box_side(), demo.box_side());
}

#[test]
fn preset_setup_reports_its_meshes_objects_and_ready() {
    let options = PresetOptions {
        preset: Preset::OneMover,
        frames: Some(1),
        seed: 1,
        config: Config {
            threads: 1,
            ..Config::default()
        },
    };
    let mut steps = Vec::new();
    let demo = Demo::from_preset_with_progress(&options, &mut |step| steps.push(step)).unwrap();
    // The mover, the flake and the wall slab; 1 + 500 + 6 objects.
    assert_eq!(steps[0], SetupStep::Meshes { done: 3, total: 3 });
    assert_eq!(steps.len(), 1 + 507 + 1);
    assert_eq!(
        steps[507],
        SetupStep::Objects {
            done: 507,
            total: 507
        }
    );
    assert_eq!(
        steps[508],
        SetupStep::Ready {
            objects: 507,
            side: 8.0
        }
    );
    assert_eq!(demo.object_count(), 507);
}
