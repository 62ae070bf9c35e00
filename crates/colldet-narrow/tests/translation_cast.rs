//! The GJK ray cast of a translating pair ([`gjk_translation_cast`]) on seeded random convex
//! polytopes (ellipsoid, rod and plate clouds of 12 to 400 points) under random poses and
//! translations aimed near the fixed shape: its certified claims hold against the pair sampled at
//! 1,001 fractions with GJK distance (a `Miss` touches at no sample; a `Near { lo }` touches at
//! no sample before `lo` and is in contact at `lo` to within `1e-6` of the pair's size), and its
//! `lo` agrees with parry3d-f64's `cast_shapes` time of impact to `1e-6` where parry reports one.

mod common;

use colldet_geom::ConvexPolytope;
use colldet_geom::math::{Pose as OurPose, VectorD};
use colldet_narrow::{GjkCache, PoseMatrix, TranslationCast, gjk_distance, gjk_translation_cast};
use colldet_testkit::parry::parry_pose;
use common::{Family, NarrowDraws, SplitMix64, random_cloud, to_pose};
use parry3d_f64::math::{Pose, Vector as PVec};
use parry3d_f64::query::{self, ShapeCastOptions};
use parry3d_f64::shape::ConvexPolyhedron;

const CASES: usize = 400;
const SAMPLES: usize = 1000;

struct Shape {
    ours: ConvexPolytope,
    theirs: ConvexPolyhedron,
    radius: f64,
}

fn random_shape(rng: &mut SplitMix64) -> Shape {
    loop {
        let family = [Family::Ellipsoid, Family::Rod, Family::Plate][rng.usize_in(0, 2)];
        let n = (12.0 * (400.0f64 / 12.0).powf(rng.next_f64())).round() as usize;
        let points = random_cloud(rng, family, n, 1.0);
        let pv: Vec<PVec> = points
            .iter()
            .map(|p| PVec::new(p.x.into(), p.y.into(), p.z.into()))
            .collect();
        let (Ok(ours), Some(theirs)) = (
            ConvexPolytope::from_points(&points),
            ConvexPolyhedron::from_convex_hull(&pv),
        ) else {
            continue;
        };
        let radius = f64::from(ours.radius());
        return Shape {
            ours,
            theirs,
            radius,
        };
    }
}

/// Shape 2 at `start` moved by `d * tau`.
fn moved(start: &OurPose, d: &VectorD, tau: f64) -> OurPose {
    let mut pose = *start;
    pose.translation.vector += d * tau;
    pose
}

#[test]
fn cast_claims_hold_against_sampling_and_parry() {
    let mut rng = SplitMix64(0x00ca_57ed);
    let (mut misses, mut nears, mut undecided, mut parry_compared) = (0, 0, 0, 0);
    for case in 0..CASES {
        let (s1, s2) = (random_shape(&mut rng), random_shape(&mut rng));
        let size = s1.radius + s2.radius;
        // Shape 2 starts apart from shape 1 and moves towards a point near it.
        let start_t = rng.unit_vector() * (size * rng.range(1.05, 3.0));
        let aim = rng.unit_vector() * (size * rng.range(0.0, 1.2));
        let d = (aim - start_t) * rng.range(0.3, 2.5);
        let start = to_pose(&rng.rotation(), &start_t);
        let Ok(pos) = PoseMatrix::from_pose(&start) else {
            continue;
        };
        let mut cache = GjkCache::new();
        let distance_at = |tau: f64, cache: &mut GjkCache| {
            let pose = PoseMatrix::from_pose(&moved(&start, &d, tau)).unwrap();
            gjk_distance(&s1.ours, &s2.ours, &pose, cache)
                .unwrap()
                .distance
        };
        if distance_at(0.0, &mut cache) <= 0.0 {
            continue;
        }
        let scale = size + start_t.norm() + d.norm();
        let (band, error) = (1e-9 * scale, 32.0 * f64::EPSILON * scale);
        let mut hints = [u32::MAX; 2];
        let cast =
            gjk_translation_cast(&s1.ours, &s2.ours, &pos, &d, band, error, &mut hints).unwrap();
        let first_touch = (0..=SAMPLES)
            .map(|k| k as f64 / SAMPLES as f64)
            .find(|&tau| distance_at(tau, &mut cache) <= 0.0);
        match cast {
            TranslationCast::Miss => {
                misses += 1;
                assert_eq!(first_touch, None, "case {case}: a miss touches");
            }
            TranslationCast::Near { lo, normal } => {
                nears += 1;
                assert!((0.0..=1.0).contains(&lo), "case {case}: lo {lo}");
                assert!((normal.norm() - 1.0).abs() < 1e-12);
                if let Some(tau) = first_touch {
                    assert!(tau >= lo, "case {case}: touches at {tau} before lo {lo}");
                }
                let gap = distance_at(lo, &mut cache);
                assert!(gap <= 1e-6 * size, "case {case}: apart by {gap} at lo");
                let hit = query::cast_shapes(
                    &parry_pose(&start),
                    PVec::new(d.x, d.y, d.z),
                    &s2.theirs,
                    &Pose::IDENTITY,
                    PVec::ZERO,
                    &s1.theirs,
                    ShapeCastOptions {
                        max_time_of_impact: 1.0,
                        ..ShapeCastOptions::default()
                    },
                )
                .unwrap();
                if let Some(hit) = hit {
                    parry_compared += 1;
                    assert!(
                        (hit.time_of_impact - lo).abs() <= 1e-6,
                        "case {case}: parry {} ours {lo}",
                        hit.time_of_impact
                    );
                }
            }
            TranslationCast::Undecided => undecided += 1,
        }
    }
    println!(
        "misses {misses}, nears {nears} ({parry_compared} against parry), undecided {undecided}"
    );
    assert!(
        misses >= CASES / 10 && nears >= CASES / 5,
        "{misses} {nears}"
    );
    assert!(undecided <= CASES / 50, "{undecided} undecided");
}
