//! The cached certificate tetrahedron of the Chung-Wang test (module docs, "Coherence for
//! colliding pairs"): pairs of 12- to 1000-vertex Chung-Wang polytopes slide through each other
//! with small steps and rotations, so most queries follow a colliding one. Every answer must equal
//! GJK's outside the touching band, every `CachedTetrahedron` answer must be a real penetration
//! deeper than the band (EPA), every `CertificateFace` answer a real separation wider than the
//! band (GJK distance), and the cache must decide most colliding queries. A cache reused
//! for other polytopes (indices out of range, a certificate of unrelated vertices) must never
//! change an answer.

mod common;

use colldet_geom::ConvexPolytope;
use colldet_geom::math::Pose;
use colldet_narrow::chung_wang::Decision;
use colldet_narrow::{
    ChungWangCache, ChungWangWorkspace, EpaWorkspace, GjkCache, GjkStatus, chung_wang_intersect,
    epa_penetration, gjk_distance, gjk_intersect, touching_tolerance,
};
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope};
use common::{NarrowDraws, SplitMix64, to_pose};
use nalgebra::{Unit, UnitQuaternion};

fn polytope(shape: ChungWangShape, n: usize, seed: u64) -> ConvexPolytope {
    ConvexPolytope::from_convex_mesh(&chung_wang_polytope(shape, n, seed).unwrap()).unwrap()
}

/// GJK's boolean, or `None` inside the touching band (within 1% of it, as elsewhere).
fn reference(a: &ConvexPolytope, b: &ConvexPolytope, pos12: &Pose) -> Option<bool> {
    let tol = touching_tolerance(a, b);
    let gjk = gjk_intersect(a, b, pos12, &mut GjkCache::new()).unwrap();
    let in_band = gjk == GjkStatus::Touching
        || (gjk == GjkStatus::Separated
            && gjk_distance(a, b, pos12, &mut GjkCache::new())
                .unwrap()
                .distance
                <= 1.01 * tol);
    (!in_band).then(|| gjk.is_colliding())
}

#[derive(Default)]
struct Tally {
    colliding: usize,
    cached: usize,
    face: usize,
    failures: Vec<String>,
}

/// Polytope 2 crosses polytope 1 along a random line through its centre in `frames` steps, spinning
/// about a random axis by `spin` radians per frame; one cache for the whole pass.
#[allow(clippy::too_many_arguments)]
fn pass(
    a: &ConvexPolytope,
    b: &ConvexPolytope,
    rng: &mut SplitMix64,
    frames: usize,
    spin: f64,
    workspace: &mut ChungWangWorkspace,
    epa: &mut EpaWorkspace,
    tally: &mut Tally,
) {
    let reach = 1.2 * f64::from(a.radius() + b.radius());
    let dir = rng.unit_vector();
    let offset = {
        let side = rng.unit_vector();
        (side - dir * dir.dot(&side)) * (0.5 * rng.next_f64() * reach)
    };
    let axis = Unit::new_normalize(rng.unit_vector());
    let start_rot = rng.rotation();
    let tol = touching_tolerance(a, b);
    let mut cache = ChungWangCache::new();
    for f in 0..=frames {
        let t = -reach + 2.0 * reach * f as f64 / frames as f64;
        let rot = UnitQuaternion::from_axis_angle(&axis, spin * f as f64) * start_rot;
        let pos12 = to_pose(&rot, &(dir * t + offset));
        let r = chung_wang_intersect(a, b, &pos12, &mut cache, workspace).unwrap();
        let expected = reference(a, b, &pos12);
        if expected.is_some_and(|e| e != r.status.is_colliding()) {
            tally
                .failures
                .push(format!("frame {f}: {r:?} but GJK says {expected:?}"));
        }
        if r.status.is_colliding() {
            tally.colliding += 1;
        }
        if r.decided_by == Decision::CertificateFace {
            tally.face += 1;
            let distance = gjk_distance(a, b, &pos12, &mut GjkCache::new())
                .map(|d| d.distance)
                .ok();
            if r.status.is_colliding() || distance.is_none_or(|d| d <= tol) {
                tally.failures.push(format!(
                    "frame {f}: {r:?} but GJK distance {distance:?}, tol {tol:e}"
                ));
            }
        }
        if r.decided_by == Decision::CachedTetrahedron {
            tally.cached += 1;
            let depth = epa_penetration(a, b, &pos12, &mut GjkCache::new(), epa)
                .ok()
                .flatten()
                .map(|p| p.depth);
            if depth.is_none_or(|d| d < tol * (1.0 - 1e-6)) {
                tally.failures.push(format!(
                    "frame {f}: cached certificate but EPA depth {depth:?}, tol {tol:e}"
                ));
            }
        }
        if let Err(e) = cache.validate() {
            tally.failures.push(format!("frame {f}: cache invalid {e}"));
        }
    }
}

#[test]
fn sliding_pairs_are_decided_by_the_cached_tetrahedron() {
    use ChungWangShape::{Ellipsoid, Plate, Rod};
    let mut rng = SplitMix64(0x7e7a);
    let mut workspace = ChungWangWorkspace::new();
    let mut epa = EpaWorkspace::default();
    let mut tally = Tally::default();
    for (k, (shape_a, shape_b, n)) in [
        (Ellipsoid, Ellipsoid, 500),
        (Ellipsoid, Rod, 100),
        (Plate, Rod, 1000),
        (Plate, Ellipsoid, 12),
        (Rod, Rod, 500),
    ]
    .into_iter()
    .enumerate()
    {
        let a = polytope(shape_a, n, 2 * k as u64 + 1);
        let b = polytope(shape_b, n, 2 * k as u64 + 2);
        // Slow spins keep most certificates; fast ones (0.2 rad per frame, as in the cw-*
        // scenes) lose some, which GJK then decides from the certificate's tetrahedron.
        for spin in [0.03; 20].into_iter().chain([0.2; 4]) {
            pass(
                &a,
                &b,
                &mut rng,
                200,
                spin,
                &mut workspace,
                &mut epa,
                &mut tally,
            );
        }
    }
    println!(
        "colliding {} cached {} stats {:?}",
        tally.colliding, tally.cached, workspace.stats
    );
    assert!(
        tally.failures.is_empty(),
        "{:#?}",
        &tally.failures[..8.min(tally.failures.len())]
    );
    assert_eq!(workspace.stats.intersecting_cached, tally.cached as u64);
    assert_eq!(
        workspace.stats.separated_by_certificate_face,
        tally.face as u64
    );
    assert!(
        tally.face > 0,
        "no lost certificate's face separated: that decision is untested"
    );
    assert!(
        workspace.stats.fallback_certificate_lost > 0,
        "no certificate was lost: the GJK continuation is untested"
    );
    assert!(tally.colliding > 2000, "too few colliding queries");
    assert!(
        tally.cached * 10 >= tally.colliding * 6,
        "the cache decided only {} of {} colliding queries",
        tally.cached,
        tally.colliding
    );
    workspace.validate().unwrap();
}

#[test]
fn a_cache_from_other_polytopes_never_changes_an_answer() {
    let big = polytope(ChungWangShape::Ellipsoid, 1000, 7);
    // Same vertex count as `big`, so every cached index is in range for it too.
    let big_twin = polytope(ChungWangShape::Ellipsoid, 1000, 11);
    let small = polytope(ChungWangShape::Rod, 12, 8);
    let other = polytope(ChungWangShape::Plate, 500, 9);
    let mut rng = SplitMix64(0x5ca1e);
    let mut workspace = ChungWangWorkspace::new();
    let mut failures = Vec::new();
    for case in 0..3000 {
        // Warm a cache on a deeply colliding pair of the big polytopes, or on a separated one
        // (whose cache then knows `big`'s supporting vertex in the separating vector)...
        let mut cache = ChungWangCache::new();
        let offset = if case % 3 == 2 { 4.0 } else { 0.1 };
        let warm_pose = to_pose(&rng.rotation(), &(rng.unit_vector() * offset));
        chung_wang_intersect(&big, &other, &warm_pose, &mut cache, &mut workspace).unwrap();
        // ...then use it for another pair at a random pose.
        let (a, b) = match case % 3 {
            0 => (&small, &big),
            1 => (&other, &small),
            _ => (&big_twin, &other),
        };
        let reach = 1.2 * f64::from(a.radius() + b.radius());
        let pos12 = to_pose(
            &rng.rotation(),
            &(rng.unit_vector() * (reach * rng.next_f64().cbrt())),
        );
        let r = chung_wang_intersect(a, b, &pos12, &mut cache, &mut workspace).unwrap();
        let expected = reference(a, b, &pos12);
        if expected.is_some_and(|e| e != r.status.is_colliding()) {
            failures.push(format!("case {case}: {r:?} but GJK says {expected:?}"));
        }
        cache.validate().unwrap();
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
