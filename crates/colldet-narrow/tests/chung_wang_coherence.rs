//! Temporal coherence of the Chung-Wang test under the paper's motion (section 6): two 500-vertex
//! ellipsoid polytopes translate by 5% of their radius and rotate by 10 degrees per frame inside a
//! box, bounce off its walls, and reverse both velocities when they collide. As in the paper the
//! test runs only while the world AABBs overlap, with the cache reset when they start to overlap.
//!
//! Prints the iteration-count histogram of Figure 4 (non-colliding queries and all queries) and
//! asserts the paper's findings loosely: at least 90% of non-colliding queries decided in at most
//! 3 steps, a small maximum, and every answer equal to GJK's outside the touching band.

mod common;

use colldet_geom::ConvexPolytope;
use colldet_geom::math::{Pose, VectorD, relative_pose};
use colldet_narrow::{
    ChungWangCache, ChungWangWorkspace, GjkCache, GjkStatus, chung_wang_intersect, gjk_distance,
    gjk_intersect, touching_tolerance,
};
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope};
use common::{NarrowDraws, SplitMix64};
use nalgebra::{Translation3, Unit, UnitQuaternion};

struct Body {
    pose: Pose,
    velocity: VectorD,
    axis: Unit<VectorD>,
    angular: f64,
}

impl Body {
    fn step(&mut self, half_box: f64) {
        let mut t = self.pose.translation.vector + self.velocity;
        for k in 0..3 {
            if t[k].abs() > half_box {
                self.velocity[k] = -self.velocity[k];
                t[k] = t[k].clamp(-half_box, half_box);
            }
        }
        let rot = UnitQuaternion::from_axis_angle(&self.axis, self.angular) * self.pose.rotation;
        self.pose = Pose::from_parts(Translation3::from(t), rot);
    }

    fn reverse(&mut self) {
        self.velocity = -self.velocity;
        self.angular = -self.angular;
    }
}

fn world_aabb(p: &ConvexPolytope, pose: &Pose) -> ([f64; 3], [f64; 3]) {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for v in p.vertices() {
        let w = pose * v.cast::<f64>();
        for k in 0..3 {
            lo[k] = lo[k].min(w[k]);
            hi[k] = hi[k].max(w[k]);
        }
    }
    (lo, hi)
}

fn aabbs_overlap(a: &([f64; 3], [f64; 3]), b: &([f64; 3], [f64; 3])) -> bool {
    (0..3).all(|k| a.0[k] <= b.1[k] && b.0[k] <= a.1[k])
}

#[derive(Default)]
struct Histogram {
    /// counts[k] = queries decided in k iterations (k capped at the last bin).
    counts: Vec<u64>,
    max: u32,
}

impl Histogram {
    fn add(&mut self, k: u32) {
        let bin = (k as usize).min(20);
        if self.counts.len() <= bin {
            self.counts.resize(bin + 1, 0);
        }
        self.counts[bin] += 1;
        self.max = self.max.max(k);
    }
    fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
    fn share_at_most(&self, k: usize) -> f64 {
        self.counts.iter().take(k + 1).sum::<u64>() as f64 / self.total().max(1) as f64
    }
    fn print(&self, name: &str) {
        println!("{name}: {} queries, max k {}", self.total(), self.max);
        let mut cumulative = 0;
        for (k, &c) in self.counts.iter().enumerate().skip(1) {
            cumulative += c;
            println!(
                "  k {k:>2}{} {c:>6}  cumulative {:.4}",
                if k == 20 { "+" } else { " " },
                cumulative as f64 / self.total().max(1) as f64
            );
        }
    }
}

#[test]
fn paper_motion_500_vertex_ellipsoids() {
    let a = ConvexPolytope::from_convex_mesh(
        &chung_wang_polytope(ChungWangShape::Ellipsoid, 500, 1).unwrap(),
    )
    .unwrap();
    let b = ConvexPolytope::from_convex_mesh(
        &chung_wang_polytope(ChungWangShape::Ellipsoid, 500, 2).unwrap(),
    )
    .unwrap();
    let radius = f64::from(a.radius().max(b.radius()));
    let tol = touching_tolerance(&a, &b);
    let mut rng = SplitMix64(0xc0);
    let mut non_colliding = Histogram::default();
    let mut all = Histogram::default();
    let mut ws = ChungWangWorkspace::new();
    let (mut in_band, mut mismatches, mut colliding) = (0, Vec::new(), 0);
    let runs = 8;
    let frames = 1000;
    for run in 0..runs {
        let mut bodies: Vec<Body> = (0..2)
            .map(|i| Body {
                pose: Pose::from_parts(
                    Translation3::from(VectorD::new(if i == 0 { -1.2 } else { 1.2 }, 0.0, 0.0)),
                    rng.rotation(),
                ),
                velocity: rng.unit_vector() * (0.05 * radius),
                axis: Unit::new_normalize(rng.unit_vector()),
                angular: 10f64.to_radians(),
            })
            .collect();
        let mut cache = ChungWangCache::new();
        let mut gjk_cache = GjkCache::new();
        let mut overlapping = false;
        for frame in 0..frames {
            for body in &mut bodies {
                body.step(1.0 * radius);
            }
            let boxes = (
                world_aabb(&a, &bodies[0].pose),
                world_aabb(&b, &bodies[1].pose),
            );
            if !aabbs_overlap(&boxes.0, &boxes.1) {
                overlapping = false;
                continue;
            }
            if !overlapping {
                cache.reset();
                overlapping = true;
            }
            let pos12 = relative_pose(&bodies[0].pose, &bodies[1].pose);
            let r = chung_wang_intersect(&a, &b, &pos12, &mut cache, &mut ws).unwrap();
            let gjk = gjk_intersect(&a, &b, &pos12, &mut gjk_cache).unwrap();
            all.add(r.iterations);
            if r.status.is_colliding() {
                colliding += 1;
                for body in &mut bodies {
                    body.reverse();
                }
            } else {
                non_colliding.add(r.iterations);
            }
            let band = gjk == GjkStatus::Touching
                || (gjk == GjkStatus::Separated
                    && gjk_distance(&a, &b, &pos12, &mut GjkCache::new())
                        .unwrap()
                        .distance
                        <= 1.01 * tol);
            if band {
                in_band += 1;
            } else if r.status.is_colliding() != gjk.is_colliding() {
                mismatches.push(format!(
                    "run {run} frame {frame}: {r:?} vs {gjk:?} pos12 {pos12:?}"
                ));
            }
        }
        cache.validate().unwrap();
    }
    non_colliding.print("non-colliding queries (Figure 4(i))");
    all.print("all queries (Figure 4(ii))");
    println!(
        "colliding {colliding} in_band {in_band} fallbacks {} stats {:?}",
        ws.stats.fallbacks(),
        ws.stats
    );
    assert!(mismatches.is_empty(), "{mismatches:#?}");
    assert!(non_colliding.total() > 1500, "too few close encounters");
    assert!(colliding > 50, "too few collisions");
    let share = non_colliding.share_at_most(3);
    assert!(
        share >= 0.9,
        "only {share} of non-colliding queries in <= 3 steps"
    );
    assert!(all.max <= 60, "max k {}", all.max);
    ws.validate().unwrap();
}
