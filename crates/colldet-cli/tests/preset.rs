//! The thesis presets: object counts and kinds, everything inside the cage, no overlap at the
//! start, fixed objects that stay put, movers kept in by the walls, and reversal on collision
//! against a hand-computed frame.

use std::sync::Arc;

use colldet_cli::demo::{
    Demo, Motion, ONE_MOVER_CAGE_SIDE, ONE_MOVER_FLAKES, Preset, PresetOptions, Setup, SetupObject,
    ZOO_CAGE_SIDE, run_preset,
};
use colldet_geom::MeshData;
use colldet_geom::math::{PointD, Pose, VectorD, to_f64};
use colldet_testkit::shapes::{cuboid, sphere};
use colldet_world::{BroadPhaseKind, Config, Method};
use nalgebra::{Translation3, UnitQuaternion};

fn config(broad_phase: BroadPhaseKind) -> Config {
    Config {
        broad_phase,
        threads: 1,
        ..Config::default()
    }
}

/// Closed-mesh Euler characteristic `V - E + F` (each edge shared by two faces).
fn euler(mesh: &MeshData) -> i64 {
    let corners: usize = mesh.faces.iter().map(<[u32]>::len).sum();
    mesh.vertices.len() as i64 - (corners / 2) as i64 + mesh.faces.len() as i64
}

fn world_vertices(mesh: &MeshData, pose: &Pose) -> Vec<PointD> {
    mesh.vertices.iter().map(|v| pose * to_f64(v)).collect()
}

fn radius(mesh: &MeshData) -> f64 {
    mesh.vertices
        .iter()
        .map(|v| f64::from(v.coords.norm()))
        .fold(0.0, f64::max)
}

/// Bounding spheres of the non-wall objects are pairwise disjoint, and every vertex of a
/// non-wall object is inside the cage interior; walls lie outside it.
fn assert_placed_without_overlap(setup: &Setup) {
    let half = setup.cage_half;
    let inner: Vec<&SetupObject> = setup.objects.iter().filter(|o| !o.wall).collect();
    for (i, a) in inner.iter().enumerate() {
        let ra = radius(&setup.meshes[a.mesh]);
        for p in world_vertices(&setup.meshes[a.mesh], &a.pose) {
            assert!(
                (0..3).all(|c| p[c].abs() <= half),
                "object {i} leaves the cage"
            );
        }
        for b in &inner[i + 1..] {
            let rb = radius(&setup.meshes[b.mesh]);
            let d = (a.pose.translation.vector - b.pose.translation.vector).norm();
            assert!(d > ra + rb, "bounding spheres overlap");
        }
    }
    let walls: Vec<&SetupObject> = setup.objects.iter().filter(|o| o.wall).collect();
    assert_eq!(walls.len(), 6);
    for (k, wall) in walls.iter().enumerate() {
        let axis = k / 2;
        for p in world_vertices(&setup.meshes[wall.mesh], &wall.pose) {
            assert!(p[axis].abs() >= half - 1e-6, "wall {k} enters the cage");
        }
        assert_eq!(wall.motion, Motion::Fixed);
    }
}

#[test]
fn zoo_has_the_thesis_objects_inside_the_cage_without_overlap() {
    let setup = Preset::ThesisZoo.setup(1).unwrap();
    assert_eq!(setup.objects.len(), 36);
    assert_eq!(setup.cage_half, 0.5 * ZOO_CAGE_SIDE);
    let movers: Vec<&SetupObject> = setup
        .objects
        .iter()
        .filter(|o| matches!(o.motion, Motion::Moving { .. }))
        .collect();
    assert_eq!(movers.len(), 30);
    // Kinds by topology: a sphere is one genus-0 shell, a torus has V - E + F = 0, a cube array
    // is several quad boxes, a tetra-flake several tetrahedra (4^level of them).
    let (mut spheres, mut tori, mut cube_arrays, mut flakes) = (0, 0, 0, 0);
    let mut polygons = 0;
    for o in &movers {
        let mesh = &setup.meshes[o.mesh];
        let faces = mesh.faces.len();
        assert!((50..=750).contains(&faces), "{faces} polygons");
        polygons += faces;
        let all = |n: usize| mesh.faces.iter().all(|f| f.len() == n);
        match euler(mesh) {
            0 => tori += 1,
            2 => spheres += 1,
            x if all(4) && mesh.vertices.len() == 8 * faces / 6 && x == 2 * (faces as i64 / 6) => {
                cube_arrays += 1
            }
            x if all(3) && x == 2 * (faces as i64 / 4) && [16, 64].contains(&(faces / 4)) => {
                flakes += 1
            }
            x => panic!("unexpected mesh (euler {x}, {faces} faces)"),
        }
        assert!(
            radius(mesh) <= 0.55,
            "objects fit a ball of radius about 0.5"
        );
    }
    assert_eq!((spheres, tori, cube_arrays, flakes), (8, 8, 7, 7));
    // The thesis: 4758 polygons with the walls.
    assert_eq!(polygons + 36, 4760);
    assert_placed_without_overlap(&setup);
    // A different seed places differently.
    let other = Preset::ThesisZoo.setup(2).unwrap();
    assert_ne!(other.objects[0].pose, setup.objects[0].pose);
}

#[test]
fn one_mover_has_500_fixed_flakes_in_the_cage_without_overlap() {
    let setup = Preset::OneMover.setup(1).unwrap();
    assert_eq!(setup.objects.len(), 1 + ONE_MOVER_FLAKES + 6);
    assert_eq!(setup.cage_half, 0.5 * ONE_MOVER_CAGE_SIDE);
    let mover = &setup.objects[0];
    assert!(matches!(mover.motion, Motion::Moving { .. }));
    assert_eq!(setup.meshes[mover.mesh].faces.len(), 20);
    let flakes: Vec<&SetupObject> = setup.objects[1..=ONE_MOVER_FLAKES].iter().collect();
    for flake in &flakes {
        assert_eq!(flake.motion, Motion::Fixed);
        assert!(!flake.wall);
        let mesh = &setup.meshes[flake.mesh];
        assert_eq!(mesh.faces.len(), 64, "level-2 tetra-flake");
        assert!(mesh.faces.iter().all(|f| f.len() == 3));
    }
    // One flake per lattice cell at most: centres are in distinct unit cells.
    let mut cells: Vec<[i64; 3]> = flakes
        .iter()
        .map(|f| {
            let t = f.pose.translation.vector;
            [0, 1, 2].map(|c| (t[c] + setup.cage_half).floor() as i64)
        })
        .collect();
    cells.sort_unstable();
    cells.dedup();
    assert_eq!(cells.len(), ONE_MOVER_FLAKES);
    assert_placed_without_overlap(&setup);
}

#[test]
fn presets_start_without_collisions_and_keep_their_invariants() {
    for (preset, frames) in [(Preset::ThesisZoo, 150), (Preset::OneMover, 300)] {
        for broad_phase in [BroadPhaseKind::SweepAndPrune, BroadPhaseKind::Grid] {
            let setup = preset.setup(3).unwrap();
            let start: Vec<Pose> = setup.objects.iter().map(|o| o.pose).collect();
            let options = PresetOptions {
                preset,
                frames: Some(frames),
                seed: 3,
                config: config(broad_phase),
            };
            let demo = run_preset(&options, |_, _| {}).unwrap();
            let summary = demo.summary();
            assert_eq!(summary.frames, frames);
            assert_eq!(summary.frame_ms.len(), frames as usize);
            assert_eq!(summary.objects, start.len());
            assert!(summary.thesis.is_some());
            let half = demo.box_side() / 2.0;
            for (k, start_pose) in start.iter().enumerate() {
                let (_, mesh, r, pose) = demo.object(k);
                if !demo.is_moving(k) {
                    assert_eq!(&pose, start_pose, "a fixed object moved");
                    continue;
                }
                // Walls reverse a mover after at most one frame's motion into them:
                // 5% of the radius plus a 10-degree turn.
                let reach = half + r * (0.05 + 10f64.to_radians());
                for p in world_vertices(mesh, &pose) {
                    assert!((0..3).all(|c| p[c].abs() <= reach), "{preset:?} escaped");
                }
            }
        }
    }
}

#[test]
fn grid_and_sweep_and_prune_report_the_same_zoo_collisions() {
    let run = |broad_phase| {
        let options = PresetOptions {
            preset: Preset::ThesisZoo,
            frames: Some(200),
            seed: 5,
            config: Config {
                method: Method::Auto,
                ..config(broad_phase)
            },
        };
        let demo = run_preset(&options, |_, _| {}).unwrap();
        let s = demo.summary();
        (s.colliding_total, s.tested_total)
    };
    let (sap, _) = run(BroadPhaseKind::SweepAndPrune);
    let (grid, _) = run(BroadPhaseKind::Grid);
    let (none, _) = run(BroadPhaseKind::AllPairs);
    assert!(sap > 0, "movers collide");
    assert_eq!(sap, grid);
    assert_eq!(sap, none);
}

/// A 20-polygon sphere flies at a fixed box along +x: it must be reported colliding exactly at
/// the first frame one of its vertices is inside the box, and fly back the next frame.
#[test]
fn a_mover_reverses_at_the_first_colliding_frame() {
    let ball = sphere(0.5, 5, 4).unwrap();
    let reach = ball
        .vertices
        .iter()
        .map(|v| f64::from(v.x))
        .fold(f64::MIN, f64::max);
    let wall = cuboid(VectorD::new(0.5, 2.0, 2.0)).unwrap();
    let (speed, start_x) = (0.07, -2.0);
    let setup = Setup {
        name: "head-on".to_string(),
        meshes: vec![Arc::new(ball), Arc::new(wall)],
        objects: vec![
            SetupObject {
                mesh: 0,
                pose: Pose::from_parts(
                    Translation3::new(start_x, 0.0, 0.0),
                    UnitQuaternion::identity(),
                ),
                motion: Motion::Moving {
                    velocity: VectorD::new(speed, 0.0, 0.0),
                    spin: UnitQuaternion::identity(),
                },
                wall: false,
            },
            SetupObject {
                mesh: 1,
                pose: Pose::from_parts(
                    Translation3::new(0.5, 0.0, 0.0),
                    UnitQuaternion::identity(),
                ),
                motion: Motion::Fixed,
                wall: false,
            },
        ],
        cage_half: 3.0,
        universe: colldet_geom::WorldAabb::new(
            PointD::new(-3.0, -3.0, -3.0),
            PointD::new(3.0, 3.0, 3.0),
        ),
        resolution: 4,
        frames: 40,
        thesis: None,
    };
    // The box's face is x = 0: the first frame k (from 1) with start_x + k * speed + reach > 0.
    let mut x = start_x;
    let first_hit: u32 = (1..)
        .find(|_| {
            x += speed;
            x + reach > 0.0
        })
        .unwrap();
    let mut demo = Demo::from_setup(setup, config(BroadPhaseKind::SweepAndPrune)).unwrap();
    let mut xs = vec![start_x];
    for frame in 1..=first_hit + 2 {
        demo.step().unwrap();
        xs.push(demo.object(0).3.translation.vector.x);
        let colliding = demo.world().stats().colliding_pairs;
        assert_eq!(colliding, usize::from(frame == first_hit), "frame {frame}");
    }
    let k = first_hit as usize;
    assert!(
        (xs[k + 1] - xs[k - 1]).abs() < 1e-12,
        "flew back after the hit"
    );
    assert!((xs[k + 2] - xs[k - 2]).abs() < 1e-12);
}

#[test]
fn preset_names_and_bad_frames() {
    for preset in Preset::ALL {
        assert_eq!(Preset::from_name(preset.name()), Some(preset));
    }
    assert_eq!(Preset::from_name("zoo"), None);
    let options = PresetOptions {
        preset: Preset::OneMover,
        frames: Some(0),
        seed: 1,
        config: Config::default(),
    };
    assert!(matches!(
        Demo::from_preset(&options),
        Err(colldet_cli::demo::DemoError::InvalidOption(_))
    ));
}
