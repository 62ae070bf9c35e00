//! Sweep and prune and the dynamic AABB tree against the `AllPairs` brute force on seeded moving
//! scenes: identical sorted pair lists every frame, with structural validation along the way.
//!
//! Scenes cover coherent small moves and teleports, random insertion and removal during the run,
//! boxes much larger than the others, boxes far outside the nominal universe, coordinates on a
//! coarse lattice (so exactly touching faces with equal coordinates are frequent), zero-size
//! boxes, and a universe scaled down to 1e-10 (the tree's margins are relative).

use colldet_broad::{
    AllPairs, BroadPhase, BroadPhaseError, DynamicTree, DynamicTreeOptions, ProxyPair,
    SweepAndPrune,
};
use colldet_geom::WorldAabb;
use colldet_geom::math::PointD;
use colldet_testkit::SeededRng;

/// How a scene is generated.
#[derive(Clone, Copy)]
struct SceneSpec {
    seed: u64,
    /// Proxies alive at the start.
    initial: u32,
    /// Ids are in `0..id_space`.
    id_space: u32,
    frames: u32,
    /// Half side of the nominal universe, in lattice steps.
    half_side: i64,
    /// Lattice step: every coordinate is a multiple of it (exactly representable).
    step: f64,
    /// Largest move per frame and axis, in lattice steps.
    max_move: i64,
    /// Per-frame probability that an object teleports anywhere in the universe.
    teleport: f64,
    /// Probability of each of four removal and four insertion attempts per frame.
    churn: f64,
    /// Probability that a new object is huge (half extents a quarter to half the universe).
    huge: f64,
    /// Probability that a new object is placed millions of steps outside the universe.
    outlier: f64,
    /// Probability that a new object has zero size.
    point: f64,
}

/// One object: centre, half extents and velocity in lattice steps.
#[derive(Clone, Copy)]
struct Object {
    centre: [i64; 3],
    half: [i64; 3],
    velocity: [i64; 3],
}

struct Scene {
    spec: SceneSpec,
    rng: SeededRng,
    objects: Vec<Option<Object>>,
}

impl Scene {
    fn new(spec: SceneSpec) -> Self {
        let mut scene = Scene {
            spec,
            rng: SeededRng::new(spec.seed),
            objects: vec![None; spec.id_space as usize],
        };
        let mut placed = 0;
        while placed < spec.initial {
            let id = scene.rng.index(spec.id_space as usize);
            if scene.objects[id].is_none() {
                scene.objects[id] = Some(scene.new_object());
                placed += 1;
            }
        }
        scene
    }

    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.rng.index((hi - lo + 1) as usize) as i64
    }

    fn new_object(&mut self) -> Object {
        let s = self.spec.half_side;
        let half = if self.rng.f64() < self.spec.point {
            [0; 3]
        } else if self.rng.f64() < self.spec.huge {
            [0; 3].map(|_| self.int(s / 4, s / 2))
        } else {
            [0; 3].map(|_| self.int(0, 6))
        };
        let far = self.rng.f64() < self.spec.outlier;
        let centre = [0; 3].map(|_| {
            let c = self.int(-s, s);
            if far {
                c + 1_000_000 * self.int(-3, 3)
            } else {
                c
            }
        });
        let m = self.spec.max_move;
        let velocity = [0; 3].map(|_| self.int(-m, m));
        Object {
            centre,
            half,
            velocity,
        }
    }

    fn aabb(&self, o: &Object) -> WorldAabb {
        let q = self.spec.step;
        let lo = |k: usize| (o.centre[k] - o.half[k]) as f64 * q;
        let hi = |k: usize| (o.centre[k] + o.half[k]) as f64 * q;
        WorldAabb::new(
            PointD::new(lo(0), lo(1), lo(2)),
            PointD::new(hi(0), hi(1), hi(2)),
        )
    }

    /// Advances one frame, applying every change to all structures.
    fn step(&mut self, structures: &mut [&mut dyn BroadPhase]) {
        let s = self.spec.half_side;
        for id in 0..self.objects.len() {
            let Some(mut o) = self.objects[id] else {
                continue;
            };
            if self.rng.f64() < self.spec.teleport {
                o.centre = [0; 3].map(|_| self.int(-s, s));
            } else {
                for k in 0..3 {
                    o.centre[k] += o.velocity[k];
                    // Bounce at the universe's walls (outliers stay outside and oscillate).
                    if o.centre[k].abs() > s && o.centre[k].signum() == o.velocity[k].signum() {
                        o.velocity[k] = -o.velocity[k];
                    }
                }
                if self.rng.f64() < 0.05 {
                    let m = self.spec.max_move;
                    o.velocity = [0; 3].map(|_| self.int(-m, m));
                }
            }
            self.objects[id] = Some(o);
            let aabb = self.aabb(&o);
            for bp in structures.iter_mut() {
                bp.update(id as u32, &aabb).unwrap();
            }
        }
        for _ in 0..4 {
            if self.rng.f64() < self.spec.churn {
                let id = self.rng.index(self.objects.len());
                if self.objects[id].take().is_some() {
                    for bp in structures.iter_mut() {
                        bp.remove(id as u32).unwrap();
                    }
                }
            }
            if self.rng.f64() < self.spec.churn {
                let id = self.rng.index(self.objects.len());
                if self.objects[id].is_none() {
                    let o = self.new_object();
                    self.objects[id] = Some(o);
                    let aabb = self.aabb(&o);
                    for bp in structures.iter_mut() {
                        bp.insert(id as u32, &aabb).unwrap();
                    }
                }
            }
        }
    }
}

/// Frames in which the tree took each of its paths.
#[derive(Debug, Default)]
struct TreePaths {
    rebuilt: u32,
    reinserted: u32,
    self_traversal: u32,
    queries: u32,
}

/// Runs a scene through the three structures and compares their pairs every frame. Returns the
/// total number of pairs seen and the number of frames in which some pair was exactly touching
/// (a face coordinate of one box equal to the opposite face coordinate of the other).
fn run(spec: SceneSpec, tree_options: DynamicTreeOptions) -> (usize, u32) {
    let (total, touching, _) = run_with_paths(spec, tree_options);
    (total, touching)
}

/// [`run`], also counting the tree's paths.
fn run_with_paths(spec: SceneSpec, tree_options: DynamicTreeOptions) -> (usize, u32, TreePaths) {
    let mut scene = Scene::new(spec);
    let mut all = AllPairs::new();
    let mut sap = SweepAndPrune::new();
    let mut tree = DynamicTree::with_options(tree_options);
    for (id, o) in scene.objects.iter().enumerate() {
        if let Some(o) = o {
            let aabb = scene.aabb(o);
            all.insert(id as u32, &aabb).unwrap();
            sap.insert(id as u32, &aabb).unwrap();
            tree.insert(id as u32, &aabb).unwrap();
        }
    }
    let (mut expected, mut got_sap, mut got_tree) = (Vec::new(), Vec::new(), Vec::new());
    let (mut total, mut touching_frames) = (0, 0);
    let mut paths = TreePaths::default();
    for frame in 0..spec.frames {
        if frame > 0 {
            scene.step(&mut [&mut all, &mut sap, &mut tree]);
        }
        all.overlapping_pairs(&mut expected);
        sap.overlapping_pairs(&mut got_sap);
        tree.overlapping_pairs(&mut got_tree);
        assert_eq!(
            got_sap, expected,
            "sap, seed {:#x} frame {frame}",
            spec.seed
        );
        assert_eq!(
            got_tree, expected,
            "tree, seed {:#x} frame {frame}",
            spec.seed
        );
        let stats = tree.stats();
        paths.rebuilt += u32::from(stats.rebuilt);
        paths.reinserted += u32::from(!stats.rebuilt && stats.refattened > 0);
        paths.self_traversal += u32::from(stats.self_traversal);
        paths.queries += u32::from(!stats.self_traversal);
        assert_eq!(sap.len(), all.len());
        assert_eq!(tree.len(), all.len());
        if frame % 16 == 0 || frame + 1 == spec.frames {
            sap.validate().unwrap();
            tree.validate().unwrap();
        }
        total += expected.len();
        let touching = expected.iter().any(|p: &ProxyPair| {
            let a = scene.aabb(&scene.objects[p.0 as usize].unwrap());
            let b = scene.aabb(&scene.objects[p.1 as usize].unwrap());
            (0..3).any(|k| a.maxs[k] == b.mins[k] || b.maxs[k] == a.mins[k])
        });
        touching_frames += u32::from(touching);
    }
    eprintln!(
        "seed {:#x}: {total} pairs, {touching_frames} touching frames, tree {paths:?}",
        spec.seed
    );
    (total, touching_frames, paths)
}

const BASE: SceneSpec = SceneSpec {
    seed: 0,
    initial: 500,
    id_space: 600,
    frames: 300,
    half_side: 80,
    step: 0.125,
    max_move: 1,
    teleport: 0.0,
    churn: 0.0,
    huge: 0.0,
    outlier: 0.0,
    point: 0.0,
};

#[test]
fn coherent_small_moves_on_a_lattice() {
    for seed in [0x5a9_0001, 0x5a9_0002] {
        let spec = SceneSpec {
            seed,
            initial: 1000,
            id_space: 1000,
            ..BASE
        };
        let (pairs, touching) = run(spec, DynamicTreeOptions::default());
        assert!(pairs > 300 * 100, "scene too sparse: {pairs} pairs");
        assert!(touching > 250, "only {touching} frames with touching pairs");
    }
}

#[test]
fn tree_paths_few_and_many_moving() {
    // A wide margin: few leaves leave their fat boxes, so the tree re-inserts and queries.
    let spec = SceneSpec {
        seed: 0x5a9_0061,
        churn: 0.3,
        ..BASE
    };
    let (pairs, _, paths) = run_with_paths(spec, DynamicTreeOptions { margin: 3.0 });
    assert!(pairs > 300 * 40, "scene too sparse: {pairs} pairs");
    assert!(paths.reinserted > 100 && paths.queries > 100, "{paths:?}");
    // No margin: everything moving leaves its box every frame, so the tree rebuilds and
    // traverses itself.
    let (_, _, paths) = run_with_paths(spec, DynamicTreeOptions { margin: 0.0 });
    assert!(
        paths.rebuilt > 250 && paths.self_traversal > 250,
        "{paths:?}"
    );
}

#[test]
fn large_moves_teleports_and_churn() {
    for seed in [0x5a9_0011, 0x5a9_0012] {
        let spec = SceneSpec {
            seed,
            frames: 400,
            max_move: 12,
            teleport: 0.02,
            churn: 0.5,
            ..BASE
        };
        let (pairs, touching) = run(spec, DynamicTreeOptions { margin: 0.25 });
        assert!(pairs > 400 * 20, "scene too sparse: {pairs} pairs");
        assert!(touching > 100, "only {touching} frames with touching pairs");
    }
}

#[test]
fn huge_far_and_zero_size_boxes() {
    for seed in [0x5a9_0021, 0x5a9_0022, 0x5a9_0023] {
        let spec = SceneSpec {
            seed,
            initial: 400,
            id_space: 700,
            frames: 300,
            max_move: 3,
            teleport: 0.005,
            churn: 0.6,
            huge: 0.02,
            outlier: 0.05,
            point: 0.1,
            ..BASE
        };
        let (pairs, _) = run(spec, DynamicTreeOptions::default());
        assert!(pairs > 300 * 100, "scene too sparse: {pairs} pairs");
        // The tree's incremental path (re-insertion and per-leaf queries): a wide margin, and
        // fewer zero-size boxes (they get no margin, so every move re-inserts them).
        let few_points = SceneSpec {
            point: 0.02,
            ..spec
        };
        let (_, _, paths) = run_with_paths(few_points, DynamicTreeOptions { margin: 10.0 });
        assert!(paths.queries > 200, "{paths:?}");
    }
}

#[test]
fn dense_thousands_of_boxes() {
    let spec = SceneSpec {
        seed: 0x5a9_0031,
        initial: 3000,
        id_space: 3200,
        frames: 60,
        half_side: 70,
        max_move: 2,
        churn: 0.5,
        point: 0.05,
        ..BASE
    };
    let (pairs, _) = run(spec, DynamicTreeOptions { margin: 0.0 });
    assert!(pairs > 60 * 2000, "scene too sparse: {pairs} pairs");
}

#[test]
fn tiny_universe_behaves_like_a_unit_one() {
    // The same scene at lattice steps 1e-12 and 0.125 (both exact scalings of the integer
    // lattice up to rounding of the step, which preserves order and equality): same pairs.
    let spec = SceneSpec {
        seed: 0x5a9_0041,
        frames: 120,
        max_move: 4,
        churn: 0.3,
        ..BASE
    };
    let tiny = SceneSpec {
        step: 1e-12,
        ..spec
    };
    let pairs = run(spec, DynamicTreeOptions::default()).0;
    assert!(pairs > 120 * 20, "scene too sparse: {pairs} pairs");
    assert_eq!(run(tiny, DynamicTreeOptions::default()).0, pairs);
}

#[test]
fn errors_in_the_middle_of_a_run_change_nothing() {
    let spec = SceneSpec {
        seed: 0x5a9_0051,
        churn: 0.5,
        ..BASE
    };
    let mut scene = Scene::new(spec);
    let mut all = AllPairs::new();
    let mut sap = SweepAndPrune::new();
    let mut tree = DynamicTree::new();
    let nan = WorldAabb::new(PointD::new(0.0, 0.0, f64::NAN), PointD::new(1.0, 1.0, 1.0));
    for (id, o) in scene.objects.iter().enumerate() {
        if let Some(o) = o {
            let aabb = scene.aabb(o);
            for bp in [&mut all as &mut dyn BroadPhase, &mut sap, &mut tree] {
                bp.insert(id as u32, &aabb).unwrap();
            }
        }
    }
    let (mut expected, mut got) = (Vec::new(), Vec::new());
    for frame in 0..50u32 {
        if frame > 0 {
            scene.step(&mut [&mut all, &mut sap, &mut tree]);
        }
        let present = scene.objects.iter().position(Option::is_some).unwrap() as u32;
        let absent = scene.objects.iter().position(Option::is_none).unwrap() as u32;
        let some_box = scene.aabb(&scene.objects[present as usize].unwrap());
        for bp in [&mut sap as &mut dyn BroadPhase, &mut tree] {
            assert_eq!(
                bp.insert(present, &some_box),
                Err(BroadPhaseError::AlreadyPresent(present))
            );
            assert_eq!(
                bp.insert(absent, &nan),
                Err(BroadPhaseError::InvalidBox(absent))
            );
            assert_eq!(
                bp.update(present, &nan),
                Err(BroadPhaseError::InvalidBox(present))
            );
            assert_eq!(
                bp.update(absent, &some_box),
                Err(BroadPhaseError::NotPresent(absent))
            );
            assert_eq!(bp.remove(absent), Err(BroadPhaseError::NotPresent(absent)));
        }
        all.overlapping_pairs(&mut expected);
        sap.overlapping_pairs(&mut got);
        assert_eq!(got, expected, "sap frame {frame}");
        tree.overlapping_pairs(&mut got);
        assert_eq!(got, expected, "tree frame {frame}");
        assert!(!expected.is_empty());
    }
    sap.validate().unwrap();
    tree.validate().unwrap();
}
