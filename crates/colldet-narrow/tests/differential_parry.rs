//! Differential tests against parry3d-f64 on seeded random convex pairs.
//!
//! Each case is a pair of random point clouds (ellipsoid surfaces, thin rods, flat plates; 12 to
//! 1000 points, log-uniform) under a random relative pose. Shapes come from a per-test pool, pairs
//! and poses are drawn per case. Near-touching cases bisect (with parry's boolean test) the
//! translation along a random direction to the touching contact, then offset it by up to `1e-4`
//! of the pair's size, or (one case in ten) by up to twice the touching band. Poses are `f64`
//! (`f32` spacing is far wider than the band); parry gets the same `f32` points widened to `f64`
//! and the same pose.
//!
//! Checks per case, with `sd` parry's signed distance (distance, or minus the contact depth) and
//! `tol` our touching tolerance:
//! * outside the band (`|sd| > tol`): our boolean (`status != Separated`) equals `sd < 0`; with a
//!   1% margin past the band edge the status is exactly `Separated` / `Intersecting`; parry's
//!   `intersection_test` equals `sd < 0` too when `|sd| > 1e-7` of the size (its GJK stops at its
//!   own relative tolerance, about `1e-8` of the size, so closer gaps are its rounding);
//! * separated: our distance within `1e-4` relative of parry's (plus `1e-9` of the size);
//! * overlapping: our EPA depth within `1e-3` relative of parry's `contact` depth (same floor).
//!
//! Cases inside the band are counted and printed (`--nocapture`).

mod common;

use colldet_geom::math::Pose as OurPose;
use colldet_narrow::{
    EpaWorkspace, GjkCache, GjkStatus, PointCloud, epa_penetration, gjk_distance, gjk_intersect,
    touching_tolerance,
};
use colldet_testkit::parry::parry_pose;
use common::{Family, NarrowDraws, SplitMix64, random_cloud, to_pose};
use parry3d_f64::math::{Pose, Vector as PVec};
use parry3d_f64::query;
use parry3d_f64::shape::ConvexPolyhedron;

struct Shape {
    ours: PointCloud,
    theirs: ConvexPolyhedron,
    radius: f64,
}

fn pool(rng: &mut SplitMix64, count: usize, families: &[Family], scale: f64) -> Vec<Shape> {
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let family = families[rng.usize_in(0, families.len() - 1)];
        let n = (12.0 * (1000.0f64 / 12.0).powf(rng.next_f64())).round() as usize;
        let pts = random_cloud(rng, family, n, scale);
        let pv: Vec<PVec> = pts
            .iter()
            .map(|p| PVec::new(p.x.into(), p.y.into(), p.z.into()))
            .collect();
        let Some(theirs) = ConvexPolyhedron::from_convex_hull(&pv) else {
            continue;
        };
        let ours = PointCloud::new(pts).unwrap();
        let radius = f64::from(colldet_narrow::SupportMap::local_bounding_radius(&ours));
        out.push(Shape {
            ours,
            theirs,
            radius,
        });
    }
    out
}

fn parry_intersects(a: &Shape, b: &Shape, pos12: &OurPose) -> bool {
    query::intersection_test(&Pose::IDENTITY, &a.theirs, &parry_pose(pos12), &b.theirs)
        .unwrap()
        .intersecting
}

/// parry's signed distance (distance when positive, else minus the contact depth) and, for a
/// contact, parry's normal.
fn parry_signed_distance(a: &Shape, b: &Shape, pos12: &OurPose) -> (f64, Option<[f64; 3]>) {
    let pose2 = parry_pose(pos12);
    let d = query::distance(&Pose::IDENTITY, &a.theirs, &pose2, &b.theirs)
        .unwrap()
        .distance;
    if d > 0.0 {
        return (d, None);
    }
    match query::contact(&Pose::IDENTITY, &a.theirs, &pose2, &b.theirs, 0.0).unwrap() {
        Some(c) => (
            c.dist.min(0.0),
            Some([c.normal1.x, c.normal1.y, c.normal1.z]),
        ),
        None => (0.0, None),
    }
}

/// Brute-force support value of `A - B` along unit `n` (shape 1's frame): an upper bound on the
/// penetration depth for every `n`.
pub(crate) fn cso_support_value(
    a: &PointCloud,
    b: &PointCloud,
    pos12: &OurPose,
    n: &nalgebra::Vector3<f64>,
) -> f64 {
    // Normalised in f64 as the queries do (exact_pose keeps printed, unnormalised quaternions).
    let pose = OurPose::from_parts(
        pos12.translation,
        nalgebra::UnitQuaternion::new_normalize(*pos12.rotation.quaternion()),
    );
    let ha = a
        .points()
        .iter()
        .map(|p| p.cast::<f64>().coords.dot(n))
        .fold(f64::NEG_INFINITY, f64::max);
    let lb = b
        .points()
        .iter()
        .map(|p| (pose * p.cast::<f64>()).coords.dot(n))
        .fold(f64::INFINITY, f64::min);
    ha - lb
}

#[derive(Clone, Copy, Debug)]
enum PoseMode {
    /// Translation uniform in a ball of radius `1.1 (r1 + r2)`.
    Random,
    /// Bisected to touching along a random direction, then offset by up to `1e-4 (r1 + r2)`.
    NearTouching,
    /// As `Random`, and the same case is also run with both shapes and the translation scaled by
    /// `2^-10` and `2^10` (exact in `f32`): our answers must scale with it. parry's hull builder
    /// uses absolute tolerances, so parry is compared at scale 1 only.
    ScaledCopies,
}

#[derive(Default, Debug)]
struct Stats {
    cases: usize,
    separated: usize,
    overlapping: usize,
    in_band: usize,
    in_band_touching: usize,
    near_band_edge: usize,
    max_rel_distance_err: f64,
    max_rel_depth_err: f64,
    /// Cases where parry's depth is below ours but parry's own normal has a support value equal to
    /// our depth (parry's number is not attained by any normal it reports).
    parry_depth_unbacked: Vec<String>,
    failures: Vec<String>,
}

fn run(seed: u64, cases: usize, families: &[Family], scale: f64, mode: PoseMode) -> Stats {
    let mut rng = SplitMix64(seed);
    let shapes = pool(&mut rng, 48, families, scale);
    let mut ws = EpaWorkspace::new();
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
            PoseMode::Random | PoseMode::ScaledCopies => {
                let r = 1.1 * size * rng.next_f64().cbrt();
                to_pose(&rot, &(dir * r))
            }
            PoseMode::NearTouching => {
                let (mut lo, mut hi) = (0.0, size * 1.01 + 1e-3 * scale);
                if !parry_intersects(a, b, &to_pose(&rot, &(dir * lo))) {
                    // No touching pose along this direction from a common origin: draw again.
                    continue;
                }
                for _ in 0..48 {
                    let mid = 0.5 * (lo + hi);
                    if parry_intersects(a, b, &to_pose(&rot, &(dir * mid))) {
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
        let label = format!("seed {seed} case {case} shapes {i},{j}");
        if let PoseMode::ScaledCopies = mode {
            check_scaled_copies(&mut stats, &mut ws, &a.ours, &b.ours, &pos12, &label);
        }
        check_case(&mut stats, &mut ws, a, b, &pos12, size, label);
    }
    stats
}

fn check_case(
    stats: &mut Stats,
    ws: &mut EpaWorkspace,
    a: &Shape,
    b: &Shape,
    pos12: &OurPose,
    size: f64,
    label: String,
) {
    let tol = touching_tolerance(&a.ours, &b.ours);
    let (sd, parry_normal) = parry_signed_distance(a, b, pos12);
    // Inside the band the answers only need to agree to the band's width.
    let floor = if sd.abs() <= tol { tol } else { 1e-9 * size };
    let theirs = parry_intersects(a, b, pos12);
    let status = match gjk_intersect(&a.ours, &b.ours, pos12, &mut GjkCache::new()) {
        Ok(s) => s,
        Err(e) => {
            stats.failures.push(format!(
                "{label}: gjk_intersect error {e} (sd {sd:e}) pos12 {pos12:?}"
            ));
            return;
        }
    };
    if sd.abs() <= tol {
        stats.in_band += 1;
        if status == GjkStatus::Touching {
            stats.in_band_touching += 1;
        }
    } else {
        // parry's GJK stops at its own relative tolerance (about 1e-8 of the size), wider than
        // our band: its boolean for gaps below 1e-7 of the size is its rounding, not a reference.
        let parry_decides = sd.abs() > 1e-7 * size;
        if status.is_colliding() != (sd < 0.0) || (parry_decides && theirs != (sd < 0.0)) {
            stats.failures.push(format!(
                "{label}: boolean mismatch ours {status:?} parry {theirs} sd {sd:e} tol {tol:e} pos12 {pos12:?}"
            ));
        }
        if sd.abs() > 1.01 * tol {
            let expected = if sd > 0.0 {
                GjkStatus::Separated
            } else {
                GjkStatus::Intersecting
            };
            if status != expected {
                stats.failures.push(format!(
                    "{label}: status {status:?} expected {expected:?} sd {sd:e} tol {tol:e}"
                ));
            }
        } else {
            stats.near_band_edge += 1;
        }
    }
    if sd > 0.0 {
        stats.separated += 1;
        match gjk_distance(&a.ours, &b.ours, pos12, &mut GjkCache::new()) {
            Ok(d) => {
                let err = (d.distance - sd).abs();
                if sd > floor {
                    stats.max_rel_distance_err = stats.max_rel_distance_err.max(err / sd);
                }
                if err > 1e-4 * sd + floor {
                    stats.failures.push(format!(
                        "{label}: distance {} vs parry {sd} pos12 {pos12:?}",
                        d.distance
                    ));
                }
                if ((d.point1 - d.point2).norm() - d.distance).abs() > 1e-9 * size {
                    stats.failures.push(format!(
                        "{label}: closest points inconsistent with distance"
                    ));
                }
            }
            Err(e) => stats
                .failures
                .push(format!("{label}: gjk_distance error {e}")),
        }
    } else {
        stats.overlapping += 1;
        let depth = -sd;
        match epa_penetration(&a.ours, &b.ours, pos12, &mut GjkCache::new(), ws) {
            Ok(Some(p)) => {
                let err = (p.depth - depth).abs();
                if depth > floor && err <= 1e-3 * depth + floor {
                    stats.max_rel_depth_err = stats.max_rel_depth_err.max(err / depth);
                }
                if err > 1e-3 * depth + floor {
                    // Every unit normal n bounds the depth from above by the support value of
                    // A - B along n. When ours is attained along our normal and parry's own normal
                    // does not give less, parry's depth number is not backed by its normal.
                    let h_ours = cso_support_value(&a.ours, &b.ours, pos12, &p.normal);
                    let h_parry = parry_normal.map(|n| {
                        cso_support_value(&a.ours, &b.ours, pos12, &nalgebra::Vector3::from(n))
                    });
                    let certified = (h_ours - p.depth).abs() <= 1e-9 * size
                        && h_parry.is_some_and(|h| h >= p.depth - 1e-9 * size)
                        && depth < p.depth;
                    if certified {
                        stats.parry_depth_unbacked.push(format!(
                            "{label} pos12 {pos12:?}: ours {} parry {depth}",
                            p.depth
                        ));
                        return;
                    }
                    stats.failures.push(format!(
                        "{label}: depth {} vs parry {depth}; support along our normal {h_ours}, along parry's \
                         {h_parry:?} pos12 {pos12:?}",
                        p.depth
                    ));
                }
                let mismatch = ((p.point1 - p.point2) - p.normal * p.depth).norm();
                if mismatch > 1e-9 * size {
                    stats.failures.push(format!(
                        "{label}: contact points off by {mismatch:e} (depth {}, parry {depth}) pos12 {pos12:?}",
                        p.depth
                    ));
                }
                if let Err(e) = ws.validate() {
                    stats
                        .failures
                        .push(format!("{label}: workspace invalid: {e}"));
                }
            }
            Ok(None) => {
                if depth > tol {
                    stats
                        .failures
                        .push(format!("{label}: no penetration but parry depth {depth}"));
                }
            }
            Err(e) => stats.failures.push(format!(
                "{label}: epa error {e} (parry depth {depth}) pos12 {pos12:?}"
            )),
        }
    }
}

fn scaled(cloud: &PointCloud, k: f32) -> PointCloud {
    PointCloud::new(cloud.points().iter().map(|p| p * k).collect()).unwrap()
}

/// Our answers for the pair scaled by `2^-10` and `2^10` equal the scale-1 answers times the scale.
fn check_scaled_copies(
    stats: &mut Stats,
    ws: &mut EpaWorkspace,
    a: &PointCloud,
    b: &PointCloud,
    pos12: &OurPose,
    label: &str,
) {
    let base_status = gjk_intersect(a, b, pos12, &mut GjkCache::new());
    let base_distance = gjk_distance(a, b, pos12, &mut GjkCache::new());
    let base_depth = epa_penetration(a, b, pos12, &mut GjkCache::new(), ws);
    for k in [1.0 / 1024.0, 1024.0_f32] {
        let (sa, sb) = (scaled(a, k), scaled(b, k));
        let kd = f64::from(k);
        let mut pos = *pos12;
        pos.translation.vector *= kd;
        let same = match (
            &base_status,
            gjk_intersect(&sa, &sb, &pos, &mut GjkCache::new()),
        ) {
            (Ok(s0), Ok(s1)) => *s0 == s1,
            _ => false,
        };
        let dist_ok = match (
            &base_distance,
            gjk_distance(&sa, &sb, &pos, &mut GjkCache::new()),
        ) {
            (Ok(d0), Ok(d1)) => {
                (d1.distance - d0.distance * kd).abs() <= 1e-9 * d0.distance * kd + 1e-12 * kd
            }
            _ => false,
        };
        let depth_ok = match (
            &base_depth,
            epa_penetration(&sa, &sb, &pos, &mut GjkCache::new(), ws),
        ) {
            (Ok(Some(p0)), Ok(Some(p1))) => {
                (p1.depth - p0.depth * kd).abs() <= 1e-7 * p0.depth.abs() * kd + 1e-12 * kd
            }
            (Ok(None), Ok(None)) => true,
            _ => false,
        };
        if !(same && dist_ok && depth_ok) {
            stats.failures.push(format!("{label}: scale {k} changes the answer (status {same}, distance {dist_ok}, depth {depth_ok})"));
        }
    }
}

fn report(name: &str, stats: &Stats) {
    println!(
        "{name}: cases {} separated {} overlapping {} in_band {} (touching {}) near_band_edge {} \
         max_rel_distance_err {:.2e} max_rel_depth_err {:.2e} parry_depth_unbacked {} failures {}",
        stats.cases,
        stats.separated,
        stats.overlapping,
        stats.in_band,
        stats.in_band_touching,
        stats.near_band_edge,
        stats.max_rel_distance_err,
        stats.max_rel_depth_err,
        stats.parry_depth_unbacked.len(),
        stats.failures.len()
    );
    for u in &stats.parry_depth_unbacked {
        println!("  parry depth unbacked: {u}");
    }
    let shown: Vec<_> = stats.failures.iter().take(10).collect();
    assert!(
        stats.failures.is_empty(),
        "{name}: {} failures, first: {shown:#?}",
        stats.failures.len()
    );
}

const ALL: [Family; 3] = [Family::Ellipsoid, Family::Rod, Family::Plate];

#[test]
fn random_poses_ellipsoids() {
    let s = run(1, 20_000, &[Family::Ellipsoid], 1.0, PoseMode::Random);
    report("random_poses_ellipsoids", &s);
}

#[test]
fn random_poses_rods_and_plates() {
    let s = run(
        2,
        20_000,
        &[Family::Rod, Family::Plate],
        1.0,
        PoseMode::Random,
    );
    report("random_poses_rods_and_plates", &s);
}

#[test]
fn near_touching_mixed() {
    let s = run(3, 20_000, &ALL, 1.0, PoseMode::NearTouching);
    report("near_touching_mixed", &s);
}

#[test]
fn near_touching_rods_and_plates() {
    let s = run(
        4,
        20_000,
        &[Family::Rod, Family::Plate],
        1.0,
        PoseMode::NearTouching,
    );
    report("near_touching_rods_and_plates", &s);
}

#[test]
fn random_poses_mixed_with_scaled_copies() {
    let s = run(5, 20_000, &ALL, 1.0, PoseMode::ScaledCopies);
    report("random_poses_mixed_with_scaled_copies", &s);
}

/// A pose printed by an earlier (`f32`) run, widened exactly: nalgebra prints quaternions as
/// `[i, j, k, w]`; the printed values are kept bit for bit (unnormalised, as the `f32` pose was),
/// and the queries, parry and the brute force each normalise them in `f64` as before.
fn exact_pose(q: [f32; 4], t: [f32; 3]) -> OurPose {
    let [i, j, k, w] = q.map(f64::from);
    OurPose::from_parts(
        nalgebra::Translation3::new(t[0].into(), t[1].into(), t[2].into()),
        nalgebra::UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(w, i, j, k)),
    )
}

/// Exact inputs of past disagreements, rebuilt from the seeded pools.
#[test]
fn regressions_from_differential_runs() {
    let mut ws = EpaWorkspace::new();
    // Our bug (fixed): EPA's nearest face was one of several coplanar triangles of a polygonal face of
    // A - B, and the contact points were interpolated on the wrong one.
    let pool1 = pool(&mut SplitMix64(1), 48, &[Family::Ellipsoid], 1.0);
    let pos = exact_pose(
        [0.6987026, 0.2183597, 0.20703371, -0.6490538],
        [0.22920477, -0.5788954, 0.69345343],
    );
    let (a, b) = (&pool1[4], &pool1[30]);
    let p = epa_penetration(&a.ours, &b.ours, &pos, &mut GjkCache::new(), &mut ws)
        .unwrap()
        .unwrap();
    assert!((p.depth - 0.6125396137545069).abs() <= 1e-9, "{}", p.depth);
    assert!(((p.point1 - p.point2) - p.normal * p.depth).norm() <= 1e-12);
    // parry's depth is below ours while the support value of A - B along parry's own normal equals
    // our depth, so parry's number is not attained: ours stands (checked by brute force).
    let pool2 = pool(&mut SplitMix64(2), 48, &[Family::Rod, Family::Plate], 1.0);
    let pool5 = pool(&mut SplitMix64(5), 48, &ALL, 1.0);
    let cases = [
        (
            &pool5[9],
            &pool5[18],
            [-0.35673973, 0.24132138, 0.8709042, 0.23669933],
            [0.696212, 1.6814816, 0.4871566],
            0.06210887847353518,
        ),
        (
            &pool5[24],
            &pool5[22],
            [-0.08334969, 0.76281106, 0.047729507, 0.63944817],
            [1.3978469, -0.79640675, -0.36889237],
            0.6583613220957087,
        ),
        (
            &pool2[3],
            &pool2[7],
            [0.12149177, -0.66722876, 0.53090316, 0.5081215],
            [0.30168006, 0.97042054, -0.75516915],
            0.14757535311055736,
        ),
    ];
    for (a, b, q, t, ours) in cases {
        let pos = exact_pose(q, t);
        let p = epa_penetration(&a.ours, &b.ours, &pos, &mut GjkCache::new(), &mut ws)
            .unwrap()
            .unwrap();
        assert!((p.depth - ours).abs() <= 1e-9, "{} vs {ours}", p.depth);
        assert!((cso_support_value(&a.ours, &b.ours, &pos, &p.normal) - p.depth).abs() <= 1e-9);
        let (sd, normal) = parry_signed_distance(a, b, &pos);
        let h_parry = cso_support_value(
            &a.ours,
            &b.ours,
            &pos,
            &nalgebra::Vector3::from(normal.unwrap()),
        );
        assert!(
            -sd < p.depth - 1e-4 && h_parry >= p.depth - 1e-9,
            "parry {sd} h {h_parry}"
        );
        assert_eq!(
            gjk_intersect(&a.ours, &b.ours, &pos, &mut GjkCache::new()).unwrap(),
            GjkStatus::Intersecting
        );
    }
}
