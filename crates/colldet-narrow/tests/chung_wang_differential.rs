//! Differential tests of the Chung-Wang separating-vector test against our GJK and parry3d-f64.
//!
//! Shapes are the paper's test polytopes (`chung_wang_polytope`: ellipsoid, rod, plate), 12 to
//! 1000 vertices (log-uniform), built once per test into a pool; parry gets the same `f32` vertices
//! widened to `f64`, hulled by `ConvexPolyhedron::from_convex_hull`, and the same rounded pose.
//! Each case draws a pair and a pose: random (translation uniform in a ball of radius
//! `1.1 (r1 + r2)`), or near-touching (bisection on GJK's boolean along a random direction, then an
//! offset of 0, up to `2e-6` or up to `1e-4` of `r1 + r2`). Chung-Wang runs twice per case: with a
//! fresh cache, and with a per-pair cache kept across the test's cases (stale warm starts).
//!
//! Checks, with `tol` the touching band of the pair:
//! * inside the band (GJK says `Touching`, or GJK's distance is at most `1.01 tol`, the 1% allowing
//!   for GJK's convergence accuracy at the band edge) the case is counted, not compared;
//! * elsewhere both Chung-Wang booleans equal GJK's and parry's;
//! * always: a certified `Separated` (decided by a separating vector, the boxes or a lost
//!   certificate's face normal) has GJK distance above
//!   `tol`; a certified `Intersecting` (tetrahedron) is not separated for GJK, and when GJK calls
//!   the pair touching its EPA depth is at least `tol`.
//!
//! The counts of in-band cases, GJK fallbacks by reason and iteration statistics are printed
//! (`--nocapture`).

mod common;

use colldet_geom::ConvexPolytope;
use colldet_geom::math::Pose;
use colldet_narrow::{
    ChungWangCache, ChungWangResult, ChungWangStats, ChungWangWorkspace, Decision, EpaWorkspace,
    GjkCache, GjkStatus, chung_wang_intersect, epa_penetration, gjk_distance, gjk_intersect,
    touching_tolerance,
};
use colldet_testkit::parry::parry_pose;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope};
use common::{NarrowDraws, SplitMix64, to_pose};
use parry3d_f64::math::{Pose as PPose, Vector as PVec};
use parry3d_f64::query;
use parry3d_f64::shape::ConvexPolyhedron;
use std::collections::HashMap;

struct Shape {
    ours: ConvexPolytope,
    theirs: ConvexPolyhedron,
    radius: f64,
}

fn pool(seed: u64, count: usize, kinds: &[ChungWangShape]) -> Vec<Shape> {
    let mut rng = SplitMix64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let kind = kinds[rng.usize_in(0, kinds.len() - 1)];
        let n = (12.0 * (1000.0f64 / 12.0).powf(rng.next_f64())).round() as usize;
        let mesh = chung_wang_polytope(kind, n, rng.next_u64()).unwrap();
        let ours = ConvexPolytope::from_convex_mesh(&mesh).unwrap();
        let pv: Vec<PVec> = ours
            .vertices()
            .iter()
            .map(|p| PVec::new(p.x.into(), p.y.into(), p.z.into()))
            .collect();
        let theirs = ConvexPolyhedron::from_convex_hull(&pv).expect("parry hull");
        let radius = f64::from(ours.radius());
        out.push(Shape {
            ours,
            theirs,
            radius,
        });
    }
    out
}

fn parry_intersects(a: &Shape, b: &Shape, pos12: &Pose) -> bool {
    query::intersection_test(&PPose::IDENTITY, &a.theirs, &parry_pose(pos12), &b.theirs)
        .unwrap()
        .intersecting
}

fn gjk_colliding(a: &Shape, b: &Shape, pos12: &Pose) -> bool {
    gjk_intersect(&a.ours, &b.ours, pos12, &mut GjkCache::new())
        .unwrap()
        .is_colliding()
}

#[derive(Clone, Copy, Debug)]
enum PoseMode {
    Random,
    NearTouching,
}

#[derive(Default)]
struct Stats {
    cases: usize,
    separated: usize,
    intersecting: usize,
    in_band: usize,
    max_iterations: u32,
    total_iterations: u64,
    decided_in_3: usize,
    cold: ChungWangStats,
    warm: ChungWangStats,
    failures: Vec<String>,
}

fn run(seed: u64, cases: usize, kinds: &[ChungWangShape], mode: PoseMode) -> Stats {
    let shapes = pool(seed, 24, kinds);
    let mut rng = SplitMix64(seed ^ 0x5eed);
    let mut cold_ws = ChungWangWorkspace::new();
    let mut warm_ws = ChungWangWorkspace::new();
    let mut caches: HashMap<(usize, usize), ChungWangCache> = HashMap::new();
    let mut epa_ws = EpaWorkspace::new();
    let mut stats = Stats::default();
    let mut case = 0usize;
    while stats.cases < cases {
        case += 1;
        let (i, j) = (
            rng.usize_in(0, shapes.len() - 1),
            rng.usize_in(0, shapes.len() - 1),
        );
        let (a, b) = (&shapes[i], &shapes[j]);
        let size = a.radius + b.radius;
        let rot = rng.rotation();
        let dir = rng.unit_vector();
        let pos12 = match mode {
            PoseMode::Random => to_pose(&rot, &(dir * (1.1 * size * rng.next_f64().cbrt()))),
            PoseMode::NearTouching => {
                let (mut lo, mut hi) = (0.0, size * 1.01);
                if !gjk_colliding(a, b, &to_pose(&rot, &(dir * lo))) {
                    continue;
                }
                for _ in 0..48 {
                    let mid = 0.5 * (lo + hi);
                    if gjk_colliding(a, b, &to_pose(&rot, &(dir * mid))) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                let offset = match rng.usize_in(0, 9) {
                    0 => 0.0,
                    1 => rng.range(-2e-9, 2e-9) * size,
                    _ => rng.range(-1e-4, 1e-4) * size,
                };
                to_pose(&rot, &(dir * (lo + offset)))
            }
        };
        stats.cases += 1;
        let label = format!("seed {seed} case {case} shapes {i},{j} pos12 {pos12:?}");
        let cold = chung_wang_intersect(
            &a.ours,
            &b.ours,
            &pos12,
            &mut ChungWangCache::new(),
            &mut cold_ws,
        );
        let cache = caches.entry((i, j)).or_default();
        let warm = chung_wang_intersect(&a.ours, &b.ours, &pos12, cache, &mut warm_ws);
        let (cold, warm) = match (cold, warm) {
            (Ok(c), Ok(w)) => (c, w),
            (c, w) => {
                stats
                    .failures
                    .push(format!("{label}: error cold {c:?} warm {w:?}"));
                continue;
            }
        };
        if let Err(e) = cache.validate() {
            stats.failures.push(format!("{label}: cache invalid {e}"));
        }
        for r in [&cold, &warm] {
            stats.max_iterations = stats.max_iterations.max(r.iterations);
            stats.total_iterations += u64::from(r.iterations);
            stats.decided_in_3 += usize::from(r.iterations <= 3);
        }
        check_case(&mut stats, &mut epa_ws, a, b, &pos12, &cold, &warm, label);
    }
    stats.cold = cold_ws.stats;
    stats.warm = warm_ws.stats;
    if let Err(e) = cold_ws.validate().and(warm_ws.validate()) {
        stats.failures.push(format!("workspace invalid {e}"));
    }
    stats
}

#[allow(clippy::too_many_arguments)]
fn check_case(
    stats: &mut Stats,
    epa_ws: &mut EpaWorkspace,
    a: &Shape,
    b: &Shape,
    pos12: &Pose,
    cold: &ChungWangResult,
    warm: &ChungWangResult,
    label: String,
) {
    let tol = touching_tolerance(&a.ours, &b.ours);
    let gjk = gjk_intersect(&a.ours, &b.ours, pos12, &mut GjkCache::new()).unwrap();
    let distance = if gjk == GjkStatus::Separated || gjk == GjkStatus::Touching {
        Some(
            gjk_distance(&a.ours, &b.ours, pos12, &mut GjkCache::new())
                .unwrap()
                .distance,
        )
    } else {
        None
    };
    // Certificates hold everywhere, band or not.
    for r in [cold, warm] {
        match r.decided_by {
            Decision::SeparatingVector | Decision::BoundingBoxes | Decision::CertificateFace => {
                if distance.is_none_or(|d| d <= tol * (1.0 - 1e-9)) {
                    stats.failures.push(format!(
                        "{label}: certified Separated but GJK {gjk:?} distance {distance:?} tol {tol:e}"
                    ));
                }
            }
            Decision::Tetrahedron | Decision::CachedTetrahedron => {
                let depth_ok = match gjk {
                    GjkStatus::Separated => false,
                    GjkStatus::Intersecting => true,
                    GjkStatus::Touching => {
                        epa_penetration(&a.ours, &b.ours, pos12, &mut GjkCache::new(), epa_ws)
                            .ok()
                            .flatten()
                            .is_some_and(|p| p.depth >= tol * (1.0 - 1e-6))
                    }
                };
                if !depth_ok {
                    stats.failures.push(format!(
                        "{label}: certified Intersecting but GJK {gjk:?} distance {distance:?}"
                    ));
                }
            }
            Decision::GjkFallback(_) => {}
        }
    }
    let in_band = gjk == GjkStatus::Touching || distance.is_some_and(|d| d <= 1.01 * tol);
    if in_band {
        stats.in_band += 1;
        return;
    }
    let expected = gjk.is_colliding();
    if expected {
        stats.intersecting += 1;
    } else {
        stats.separated += 1;
    }
    // parry's GJK stops at its own relative tolerance (about 1e-8 of the size here), wider than
    // our band: its answer for gaps below 1e-7 of the size is its rounding, not a reference.
    let parry_decides = distance.is_none_or(|d| d > 1e-7 * (a.radius + b.radius));
    let theirs = parry_intersects(a, b, pos12);
    if cold.status.is_colliding() != expected
        || warm.status.is_colliding() != expected
        || (parry_decides && theirs != expected)
    {
        stats.failures.push(format!(
            "{label}: boolean mismatch cold {cold:?} warm {warm:?} gjk {gjk:?} parry {theirs} distance {distance:?} tol {tol:e}"
        ));
    }
}

fn report(name: &str, s: &Stats) {
    println!(
        "{name}: cases {} separated {} intersecting {} in_band {} | iterations mean {:.2} max {} \
         share<=3 {:.3} | cold: fallbacks {} {:?} | warm: fallbacks {} {:?} | failures {}",
        s.cases,
        s.separated,
        s.intersecting,
        s.in_band,
        s.total_iterations as f64 / (2 * s.cases) as f64,
        s.max_iterations,
        s.decided_in_3 as f64 / (2 * s.cases) as f64,
        s.cold.fallbacks(),
        s.cold,
        s.warm.fallbacks(),
        s.warm,
        s.failures.len()
    );
    let shown: Vec<_> = s.failures.iter().take(8).collect();
    assert!(
        s.failures.is_empty(),
        "{name}: {} failures, first: {shown:#?}",
        s.failures.len()
    );
    assert_eq!(s.separated + s.intersecting + s.in_band, s.cases);
}

use ChungWangShape::{Ellipsoid, Plate, Rod};

#[test]
fn random_poses_ellipsoids() {
    let s = run(21, 20_000, &[Ellipsoid], PoseMode::Random);
    report("random_poses_ellipsoids", &s);
    assert!(s.separated > 2000 && s.intersecting > 2000);
}

#[test]
fn random_poses_rods_and_plates() {
    let s = run(22, 20_000, &[Rod, Plate], PoseMode::Random);
    report("random_poses_rods_and_plates", &s);
    assert!(s.separated > 2000 && s.intersecting > 500);
}

#[test]
fn random_poses_mixed() {
    let s = run(23, 20_000, &[Ellipsoid, Rod, Plate], PoseMode::Random);
    report("random_poses_mixed", &s);
    // Stale warm caches of colliding cases meet separated poses: the lost certificate's face
    // normal decides some of them (each checked against GJK's distance above).
    assert!(s.warm.separated_by_certificate_face > 100, "{:?}", s.warm);
}

#[test]
fn near_touching_mixed() {
    let s = run(24, 20_000, &[Ellipsoid, Rod, Plate], PoseMode::NearTouching);
    report("near_touching_mixed", &s);
    assert!(s.in_band > 1000);
}

#[test]
fn near_touching_rods_and_plates() {
    let s = run(25, 20_000, &[Rod, Plate], PoseMode::NearTouching);
    report("near_touching_rods_and_plates", &s);
}
