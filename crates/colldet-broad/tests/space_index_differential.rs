//! The uniform grid and the octree against `AllPairs` brute force: identical sorted pair lists
//! every frame of seeded moving scenes (small, large, zero-size and lattice-aligned boxes that
//! touch at equal coordinates, leave and re-enter the universe, teleport far outside, and are
//! inserted and removed), plus structural validation, and bad input leaving the structures usable.

mod grid_common;

use colldet_broad::{
    AllPairs, BroadPhase, BroadPhaseError, Octree, OctreeConfig, ProxyId, ProxyPair, UniformGrid,
    UniformGridConfig,
};
use colldet_geom::WorldAabb;
use colldet_geom::math::PointD;
use grid_common::{MovingScene, Op, SceneOptions, SplitMix64, apply};
use std::collections::BTreeMap;

/// Totals over a run, to show the scene was not trivial.
#[derive(Debug, Default)]
struct RunStats {
    frames: usize,
    pairs: usize,
    frames_with_pairs: usize,
}

/// Replays `frames` frames of the scene into brute force, a grid and an octree and asserts the
/// pair lists are identical every frame, as are the single-proxy neighbour lists (`overlaps_of`)
/// of 8 random proxies per frame; validates both structures every `validate_every` frames.
fn run(
    options: SceneOptions,
    seed: u64,
    frames: usize,
    grid: &UniformGridConfig,
    octree: &OctreeConfig,
    validate_every: usize,
) -> RunStats {
    let mut scene = MovingScene::new(options, seed);
    let mut all = AllPairs::new();
    let mut g = UniformGrid::new(grid).unwrap();
    let mut t = Octree::new(octree).unwrap();
    let mut expected = Vec::new();
    let mut got = Vec::new();
    let mut stats = RunStats::default();
    let mut boxes: BTreeMap<ProxyId, WorldAabb> = BTreeMap::new();
    let mut rng = SplitMix64(seed ^ 0x0bad_5eed);
    let mut ids = Vec::new();
    let mut ops = scene.populate();
    for frame in 0..frames {
        apply(&mut all, &ops);
        apply(&mut g, &ops);
        apply(&mut t, &ops);
        all.overlapping_pairs(&mut expected);
        g.overlapping_pairs(&mut got);
        assert_eq!(got, expected, "grid, seed {seed:#x}, frame {frame}");
        t.overlapping_pairs(&mut got);
        assert_eq!(got, expected, "octree, seed {seed:#x}, frame {frame}");
        assert_eq!(g.len(), all.len());
        assert_eq!(t.len(), all.len());
        for op in &ops {
            match *op {
                Op::Insert(id, b) | Op::Update(id, b) => {
                    boxes.insert(id, b);
                }
                Op::Remove(id) => {
                    boxes.remove(&id);
                }
            }
        }
        let live: Vec<ProxyId> = boxes.keys().copied().collect();
        for _ in 0..8 {
            let id = live[rng.below_u64(live.len() as u64) as usize];
            let expected_ids: Vec<ProxyId> = boxes
                .iter()
                .filter(|&(&other, b)| other != id && b.overlaps(&boxes[&id]))
                .map(|(&other, _)| other)
                .collect();
            g.overlaps_of(id, &mut ids).unwrap();
            assert_eq!(ids, expected_ids, "grid overlaps_of({id}), frame {frame}");
            t.overlaps_of(id, &mut ids).unwrap();
            assert_eq!(ids, expected_ids, "octree overlaps_of({id}), frame {frame}");
        }
        if frame % validate_every == 0 {
            g.validate().unwrap();
            t.validate().unwrap();
        }
        stats.frames += 1;
        stats.pairs += expected.len();
        stats.frames_with_pairs += usize::from(!expected.is_empty());
        ops = scene.step();
    }
    g.validate().unwrap();
    t.validate().unwrap();
    stats
}

fn cube(lo: f64, hi: f64) -> WorldAabb {
    WorldAabb::new(PointD::new(lo, lo, lo), PointD::new(hi, hi, hi))
}

/// 600 mixed boxes over 300 frames in a 16^3 grid and a depth-4 octree whose cells coincide
/// with the scene's lattice, three seeds.
#[test]
fn mixed_scene_matches_brute_force() {
    let options = SceneOptions::default();
    let universe = cube(0.0, 64.0);
    for seed in [0x6e1d_0001, 0x6e1d_0002, 0x6e1d_0003] {
        let options = SceneOptions {
            count: 600,
            ..options
        };
        let stats = run(
            options,
            seed,
            300,
            &UniformGridConfig::cubic(universe, 16),
            &OctreeConfig { universe, depth: 4 },
            25,
        );
        assert_eq!(stats.frames, 300);
        assert!(
            stats.frames_with_pairs == 300 && stats.pairs > 300 * 100,
            "{stats:?}"
        );
    }
}

/// 2000 boxes, 120 frames, many of them on the lattice (faces on cell boundaries and touching
/// each other at equal coordinates), heavy churn and teleports.
#[test]
fn dense_lattice_scene_matches_brute_force() {
    let options = SceneOptions {
        count: 2000,
        lattice_fraction: 0.7,
        churn: 0.03,
        teleport: 0.01,
        ..SceneOptions::default()
    };
    let universe = cube(0.0, 64.0);
    let stats = run(
        options,
        0x6e1d_0010,
        120,
        &UniformGridConfig::cubic(universe, 16),
        &OctreeConfig { universe, depth: 4 },
        40,
    );
    assert!(stats.pairs > 120 * 1000, "{stats:?}");
}

/// Universes that do not match the scene: an awkward non-dyadic universe with a non-cubic grid
/// (boundaries not exactly representable), a universe much smaller than the scene (most boxes
/// outside, clamped to border cells), and the degenerate one-cell grid / root-only octree.
#[test]
fn mismatched_universes_match_brute_force() {
    let options = SceneOptions {
        count: 800,
        ..SceneOptions::default()
    };
    let awkward = WorldAabb::new(PointD::new(-3.3, 7.1, 0.3), PointD::new(57.1, 49.9, 61.7));
    let cases = [
        (
            UniformGridConfig {
                universe: awkward,
                resolution: [5, 17, 3],
            },
            OctreeConfig {
                universe: awkward,
                depth: 5,
            },
        ),
        (
            UniformGridConfig::cubic(cube(20.0, 30.0), 7),
            OctreeConfig {
                universe: cube(20.0, 30.0),
                depth: 2,
            },
        ),
        (
            UniformGridConfig::cubic(cube(0.0, 64.0), 1),
            OctreeConfig {
                universe: cube(0.0, 64.0),
                depth: 0,
            },
        ),
    ];
    for (k, (grid, octree)) in cases.iter().enumerate() {
        let stats = run(options, 0x6e1d_0020 + k as u64, 150, grid, octree, 50);
        assert!(stats.pairs > 150 * 100, "{stats:?}");
    }
}

/// The same mixed scene scaled by 2^-40 (about 1e-12): cells, lattice faces and touching
/// contacts scale exactly, and results still match brute force.
#[test]
fn tiny_scale_scene_matches_brute_force() {
    let scale = (-40f64).exp2();
    let options = SceneOptions {
        count: 500,
        scale,
        ..SceneOptions::default()
    };
    let universe = cube(0.0, 64.0 * scale);
    let stats = run(
        options,
        0x6e1d_0030,
        150,
        &UniformGridConfig::cubic(universe, 16),
        &OctreeConfig { universe, depth: 4 },
        50,
    );
    assert!(stats.pairs > 150 * 50, "{stats:?}");
}

/// Bad input returns the documented error, leaves the structure unchanged, and later calls
/// still agree with brute force.
#[test]
fn bad_input_is_refused_and_structures_stay_usable() {
    let universe = cube(0.0, 8.0);
    let mut grid = UniformGrid::new(&UniformGridConfig::cubic(universe, 4)).unwrap();
    let mut octree = Octree::new(&OctreeConfig { universe, depth: 2 }).unwrap();
    let mut all = AllPairs::new();
    let structures: [&mut dyn BroadPhase; 3] = [&mut grid, &mut octree, &mut all];
    let good = [cube(0.0, 2.0), cube(2.0, 3.0), cube(5.0, 9.0)];
    let nan = WorldAabb::new(PointD::new(f64::NAN, 0.0, 0.0), PointD::new(1.0, 1.0, 1.0));
    let inf = WorldAabb::new(
        PointD::new(0.0, 0.0, 0.0),
        PointD::new(f64::INFINITY, 1.0, 1.0),
    );
    let inverted = WorldAabb::new(PointD::new(2.0, 0.0, 0.0), PointD::new(1.0, 1.0, 1.0));
    let mut results = Vec::new();
    for bp in structures {
        for (id, b) in good.iter().enumerate() {
            bp.insert(id as u32 * 10, b).unwrap();
        }
        assert_eq!(
            bp.insert(10, &cube(7.0, 8.0)),
            Err(BroadPhaseError::AlreadyPresent(10))
        );
        assert_eq!(bp.insert(3, &nan), Err(BroadPhaseError::InvalidBox(3)));
        assert_eq!(bp.insert(3, &inverted), Err(BroadPhaseError::InvalidBox(3)));
        assert_eq!(bp.update(20, &inf), Err(BroadPhaseError::InvalidBox(20)));
        assert_eq!(bp.update(20, &nan), Err(BroadPhaseError::InvalidBox(20)));
        assert_eq!(
            bp.update(4, &cube(0.0, 1.0)),
            Err(BroadPhaseError::NotPresent(4))
        );
        assert_eq!(bp.remove(4), Err(BroadPhaseError::NotPresent(4)));
        assert_eq!(bp.len(), 3);
        let mut pairs = Vec::new();
        bp.overlapping_pairs(&mut pairs);
        assert_eq!(pairs, vec![ProxyPair(0, 10)]);
        bp.update(20, &cube(3.0, 5.0)).unwrap();
        bp.remove(0).unwrap();
        assert_eq!(bp.remove(0), Err(BroadPhaseError::NotPresent(0)));
        bp.insert(0, &cube(4.0, 4.0)).unwrap();
        bp.overlapping_pairs(&mut pairs);
        results.push(pairs);
    }
    assert_eq!(results[2], vec![ProxyPair(0, 20), ProxyPair(10, 20)]);
    assert_eq!(results[0], results[2]);
    assert_eq!(results[1], results[2]);
    let mut ids = vec![5];
    assert_eq!(
        grid.overlaps_of(77, &mut ids),
        Err(BroadPhaseError::NotPresent(77))
    );
    assert!(ids.is_empty());
    assert_eq!(
        octree.overlaps_of(77, &mut ids),
        Err(BroadPhaseError::NotPresent(77))
    );
    grid.overlaps_of(20, &mut ids).unwrap();
    assert_eq!(ids, vec![0, 10]);
    octree.overlaps_of(20, &mut ids).unwrap();
    assert_eq!(ids, vec![0, 10]);
    grid.validate().unwrap();
    octree.validate().unwrap();
}

/// Bad configurations are refused with typed errors.
#[test]
fn bad_configs_are_refused() {
    let u = cube(0.0, 1.0);
    let bad_grids = [
        (
            UniformGridConfig::cubic(u, 0),
            BroadPhaseError::InvalidResolution(0),
        ),
        (
            UniformGridConfig::cubic(cube(1.0, 1.0), 4),
            BroadPhaseError::InvalidUniverse,
        ),
        (
            UniformGridConfig::cubic(cube(2.0, 1.0), 4),
            BroadPhaseError::InvalidUniverse,
        ),
        (
            UniformGridConfig::cubic(cube(f64::NAN, 1.0), 4),
            BroadPhaseError::InvalidUniverse,
        ),
        (
            UniformGridConfig::cubic(cube(0.0, f64::INFINITY), 4),
            BroadPhaseError::InvalidUniverse,
        ),
    ];
    for (config, error) in bad_grids {
        assert_eq!(
            UniformGrid::new(&config).err(),
            Some(error.clone()),
            "{config:?}"
        );
        assert_eq!(config.check(), Err(error));
    }
    let bad_octrees = [
        (
            OctreeConfig {
                universe: u,
                depth: 99,
            },
            BroadPhaseError::InvalidOctreeDepth(99),
        ),
        (
            OctreeConfig {
                universe: cube(1.0, 1.0),
                depth: 3,
            },
            BroadPhaseError::InvalidUniverse,
        ),
    ];
    for (config, error) in bad_octrees {
        assert_eq!(
            Octree::new(&config).err(),
            Some(error.clone()),
            "{config:?}"
        );
    }
}
