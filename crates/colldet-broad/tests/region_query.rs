//! `BroadPhase::query` of every structure against a scan of the boxes: the same proxy set for
//! ray segments (the conservative `RaySegment` probe) and box-overlap probes, on seeded scenes
//! with moves between queries (before and after the pair pass that applies them), removals and
//! inserts.

use colldet_broad::{
    AllPairs, BroadPhase, DynamicTree, Octree, OctreeConfig, ProxyId, RaySegment, SweepAndPrune,
    UniformGrid, UniformGridConfig,
};
use colldet_geom::WorldAabb;
use colldet_geom::math::{PointD, VectorD};
use colldet_testkit::SplitMix64;

fn universe() -> WorldAabb {
    WorldAabb::new(
        PointD::new(-50.0, -50.0, -50.0),
        PointD::new(50.0, 50.0, 50.0),
    )
}

fn structures() -> Vec<(&'static str, Box<dyn BroadPhase>)> {
    vec![
        ("all pairs", Box::new(AllPairs::new())),
        ("sweep and prune", Box::new(SweepAndPrune::new())),
        ("dynamic tree", Box::new(DynamicTree::new())),
        (
            "grid",
            Box::new(UniformGrid::new(&UniformGridConfig::cubic(universe(), 8)).unwrap()),
        ),
        (
            "octree",
            Box::new(
                Octree::new(&OctreeConfig {
                    universe: universe(),
                    depth: 3,
                })
                .unwrap(),
            ),
        ),
    ]
}

fn random_box(rng: &mut SplitMix64) -> WorldAabb {
    // Some boxes leave the universe; some have zero size.
    let c = PointD::new(
        rng.range(-60.0, 60.0),
        rng.range(-60.0, 60.0),
        rng.range(-60.0, 60.0),
    );
    let h = if rng.chance(0.1) {
        VectorD::zeros()
    } else {
        VectorD::new(
            rng.range(0.1, 4.0),
            rng.range(0.1, 4.0),
            rng.range(0.1, 4.0),
        )
    };
    WorldAabb::new(c - h, c + h)
}

fn random_ray(rng: &mut SplitMix64) -> RaySegment {
    let mut dir = VectorD::new(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    );
    // Axis-parallel rays too (zero direction components).
    for k in 0..3 {
        if rng.chance(0.2) {
            dir[k] = 0.0;
        }
    }
    if dir == VectorD::zeros() {
        dir.x = 1.0;
    }
    let origin = PointD::new(
        rng.range(-70.0, 70.0),
        rng.range(-70.0, 70.0),
        rng.range(-70.0, 70.0),
    );
    let dir = dir * rng.range(0.5, 3.0);
    let max_t = if rng.chance(0.3) {
        f64::INFINITY
    } else {
        rng.range(0.0, 80.0)
    };
    RaySegment::new(origin, dir, max_t)
}

fn sorted(v: &[(ProxyId, WorldAabb)], boxes: &[Option<WorldAabb>]) -> Vec<ProxyId> {
    for (id, b) in v {
        assert_eq!(Some(*b), boxes[*id as usize], "the box of {id}");
    }
    let mut ids: Vec<ProxyId> = v.iter().map(|e| e.0).collect();
    ids.sort_unstable();
    ids
}

#[test]
fn queries_equal_a_scan_of_the_boxes() {
    let mut rng = SplitMix64::new(0x5eed_0a11);
    let mut boxes: Vec<Option<WorldAabb>> = (0..300).map(|_| Some(random_box(&mut rng))).collect();
    let mut all = structures();
    for (_, s) in &mut all {
        for (id, b) in boxes.iter().enumerate() {
            s.insert(id as ProxyId, b.as_ref().unwrap()).unwrap();
        }
    }
    let mut pairs = Vec::new();
    let mut out = Vec::new();
    for round in 0..40 {
        // Moves, removals and inserts; every other round the pair pass applies them first.
        for _ in 0..30 {
            let id = rng.below(boxes.len());
            let next = if rng.chance(0.1) {
                None
            } else {
                Some(random_box(&mut rng))
            };
            for (_, s) in &mut all {
                match (&boxes[id], &next) {
                    (Some(_), Some(b)) => s.update(id as ProxyId, b).unwrap(),
                    (Some(_), None) => s.remove(id as ProxyId).unwrap(),
                    (None, Some(b)) => s.insert(id as ProxyId, b).unwrap(),
                    (None, None) => {}
                }
            }
            boxes[id] = next;
        }
        if round % 2 == 0 {
            for (_, s) in &mut all {
                s.overlapping_pairs(&mut pairs);
            }
        }
        for _ in 0..25 {
            let ray = random_ray(&mut rng);
            let region = random_box(&mut rng);
            let expect_ray: Vec<ProxyId> = (0..boxes.len() as ProxyId)
                .filter(|&i| boxes[i as usize].is_some_and(|b| ray.may_hit(&b)))
                .collect();
            let expect_box: Vec<ProxyId> = (0..boxes.len() as ProxyId)
                .filter(|&i| boxes[i as usize].is_some_and(|b| b.overlaps(&region)))
                .collect();
            for (name, s) in &all {
                out.clear();
                s.query(&mut |b| ray.may_hit(b), &mut out);
                assert_eq!(
                    sorted(&out, &boxes),
                    expect_ray,
                    "{name}: ray, round {round}"
                );
                out.clear();
                s.query(&mut |b| b.overlaps(&region), &mut out);
                assert_eq!(
                    sorted(&out, &boxes),
                    expect_box,
                    "{name}: box, round {round}"
                );
            }
        }
    }
}
