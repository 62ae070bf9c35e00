//! Continuous collision detection on the CCD scenes (`ccd-bullets`, `ccd-spinners`; FORMAT.md,
//! "Continuous motion"): every interval `[f, f+1]` played through colldet's continuous check and
//! through parry3d-f64's shape casts, scored against the certified `<scene>.ccd-expected.txt`.
//!
//! A hit is `(f, mover, static)`: a moving object (non-zero `v` or `w`) touching a static one for
//! some fraction of the interval. Mover-mover pairs are not scored (the expected files do not
//! list them).

use std::collections::HashSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use colldet_cli::scene::ScenePose;
use colldet_world::Config;
use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry3d_f64::math::{Pose, Rotation, Vector};
use parry3d_f64::partitioning::{Bvh, BvhBuildStrategy};
use parry3d_f64::query::{
    NonlinearRigidMotion, ShapeCastOptions, cast_shapes, cast_shapes_nonlinear,
};
use parry3d_f64::shape::{ConvexPolyhedron, Shape};

use crate::colldet_peer::ColldetPeer;
use crate::error::PeerError;
use crate::peer::{Peer, median};
use crate::scene_data::PeerScene;

/// The CCD scenes with a certified expected file.
pub const CCD_SCENES: [&str; 2] = ["ccd-bullets", "ccd-spinners"];

/// One hit: interval start frame, mover, static object (scene object ids).
pub type Hit = (u32, u32, u32);

/// The certified answer of a CCD scene.
#[derive(Clone, Debug, Default)]
pub struct CcdExpected {
    /// Certified hits.
    pub hits: HashSet<Hit>,
    /// Ambiguous triples (`A` lines): either answer is accepted.
    pub ambiguous: HashSet<Hit>,
}

/// The expected file beside a scene file: `DIR/NAME.ccd-expected.txt`.
pub fn expected_path(scene_path: &Path) -> PathBuf {
    let stem = scene_path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    scene_path.with_file_name(format!("{stem}.ccd-expected.txt"))
}

impl CcdExpected {
    /// Reads an expected file: `hits ...` summary, `#` comments, then `f mover static tunnel
    /// [trans]` lines, `f mover static A -` for the ambiguous ones.
    ///
    /// # Errors
    /// [`PeerError::Expected`] for an unreadable file or a malformed line.
    pub fn load(path: &Path) -> Result<Self, PeerError> {
        let error = |message: String| PeerError::Expected {
            path: path.display().to_string(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
        let mut expected = Self::default();
        for (number, line) in text.lines().enumerate() {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.is_empty() || tokens[0].starts_with('#') || tokens[0] == "hits" {
                continue;
            }
            let id = |k: usize| -> Result<u32, PeerError> {
                tokens
                    .get(k)
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| error(format!("line {}: `{line}`", number + 1)))
            };
            let hit = (id(0)?, id(1)?, id(2)?);
            if tokens.get(3) == Some(&"A") {
                expected.ambiguous.insert(hit);
            } else {
                expected.hits.insert(hit);
            }
        }
        Ok(expected)
    }
}

/// One library's answers on a CCD scene.
#[derive(Clone, Debug, Default)]
pub struct CcdRun {
    /// The library (and method).
    pub name: String,
    /// Wall time of each interval's continuous check, milliseconds.
    pub frame_ms: Vec<f64>,
    /// The hits found, sorted, without duplicates.
    pub hits: Vec<Hit>,
}

/// A run scored against the expected file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CcdScore {
    /// Hits reported (certified, ambiguous or false).
    pub found: usize,
    /// Certified hits not reported.
    pub missed: usize,
    /// Reported hits that are certified misses (neither a hit nor an `A` line).
    pub false_hits: usize,
    /// Reported hits on `A` lines (accepted).
    pub ambiguous: usize,
}

impl CcdRun {
    /// Median interval time, milliseconds.
    pub fn ms_per_frame(&self) -> f64 {
        median(&self.frame_ms)
    }

    /// Scores the run; only intervals the run played (`f < frames`) count as missed.
    pub fn score(&self, expected: &CcdExpected) -> CcdScore {
        let played = self.frame_ms.len() as u32;
        let found: HashSet<Hit> = self.hits.iter().copied().collect();
        let mut score = CcdScore {
            found: found.len(),
            ..CcdScore::default()
        };
        for hit in &found {
            if expected.ambiguous.contains(hit) {
                score.ambiguous += 1;
            } else if !expected.hits.contains(hit) {
                score.false_hits += 1;
            }
        }
        score.missed = expected
            .hits
            .iter()
            .filter(|h| h.0 < played && !found.contains(h))
            .count();
        score
    }
}

/// Intervals to play: `[f, f+1]` for `f` in `0..intervals(scene, frames)`.
fn intervals(scene: &PeerScene, frames: Option<u32>) -> u32 {
    let frames = frames.map_or(scene.scene.frames, |f| f.min(scene.scene.frames));
    frames.saturating_sub(1)
}

/// True for the objects that move (non-zero velocity or angular velocity).
pub fn movers(scene: &PeerScene) -> Vec<bool> {
    scene
        .scene
        .objects
        .iter()
        .map(|o| o.velocity != [0.0; 3] || o.angular_velocity != [0.0; 3])
        .collect()
}

/// Plays the scene through colldet as `colldet run --ccd` does: frame 0 checked discretely, then
/// for every later frame `f + 1` the world's continuous check over `[f, f+1]` (timed).
///
/// # Errors
/// What the world reports.
pub fn play_colldet(
    scene: &PeerScene,
    frames: Option<u32>,
    config: Config,
) -> Result<CcdRun, PeerError> {
    let mut peer = ColldetPeer::new(scene, config)?;
    let moving = movers(scene);
    // Hits are (mover, static) pairs, as parry's loop tests them: pairs of two movers are of no
    // interest (the runner's `--ccd` does the same).
    peer.ignore_pairs_among(&moving)?;
    let mut run = CcdRun {
        name: "colldet".into(),
        ..CcdRun::default()
    };
    let mut poses = Vec::new();
    scene.poses_at(0, &mut poses);
    peer.set_poses(&poses)?;
    peer.world_mut().check()?;
    for f in 0..intervals(scene, frames) {
        scene.poses_at(f + 1, &mut poses);
        peer.set_poses(&poses)?;
        let start = Instant::now();
        peer.world_mut().check_continuous()?;
        run.frame_ms.push(start.elapsed().as_secs_f64() * 1e3);
        let world = peer.world();
        for hit in world.last_swept_contacts() {
            let ua = *world.user_data(hit.a)?;
            let ub = *world.user_data(hit.b)?;
            match (moving[ua as usize], moving[ub as usize]) {
                (true, false) => run.hits.push((f, ua, ub)),
                (false, true) => run.hits.push((f, ub, ua)),
                _ => {}
            }
        }
    }
    run.hits.sort_unstable();
    run.hits.dedup();
    Ok(run)
}

fn parry_pose(pose: &ScenePose) -> Pose {
    let [w, x, y, z] = pose.q;
    Pose::from_parts(
        Vector::new(pose.t[0], pose.t[1], pose.t[2]),
        Rotation::from_xyzw(x, y, z, w).normalize(),
    )
}

/// The rotation vector of `r1 r0^-1` along the shortest arc: parry's angular velocity over the
/// unit interval (about the object's origin: `local_center` 0).
fn rotation_vector(r0: Rotation, r1: Rotation) -> Vector {
    let mut rel = r1 * r0.inverse();
    if rel.w < 0.0 {
        rel = -rel;
    }
    rel.to_scaled_axis()
}

/// Plays the scene through parry3d-f64: per interval, the swept boxes of the movers (the hull of
/// the start and end boxes for a translation; the boxes of the bounding balls at both ends for a
/// rotating mover) against a BVH of the static boxes (built once, untimed), then on each
/// overlapping pair `cast_shapes` (translation-only movers) or `cast_shapes_nonlinear` (rotating
/// ones: linear velocity `t(f+1) - t(f)`, angular velocity the rotation vector of
/// `q(f+1) q(f)^-1`, about the object's origin) over `[0, 1]`, a contact at the start included.
///
/// # Errors
/// [`PeerError::ParryShape`] for a non-convex or degenerate mesh, [`PeerError::ParryUnsupported`].
pub fn play_parry(scene: &PeerScene, frames: Option<u32>) -> Result<CcdRun, PeerError> {
    let shapes = scene
        .meshes
        .iter()
        .map(|m| {
            let error = |message: &str| PeerError::ParryShape {
                path: m.path.clone(),
                message: message.into(),
            };
            if !m.convex {
                return Err(error("CCD peer: only convex meshes"));
            }
            let points: Vec<Vector> = m
                .positions
                .iter()
                .map(|p| Vector::new(p[0], p[1], p[2]))
                .collect();
            ConvexPolyhedron::from_convex_hull(&points).ok_or_else(|| error("degenerate hull"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let objects = &scene.scene.objects;
    let moving = movers(scene);
    let shape_of = |k: usize| -> &dyn Shape { &shapes[objects[k].mesh] };
    let mut start_poses = Vec::new();
    let mut end_poses = Vec::new();
    scene.poses_at(0, &mut start_poses);
    let statics: Vec<usize> = (0..objects.len()).filter(|&k| !moving[k]).collect();
    let static_boxes: Vec<Aabb> = statics
        .iter()
        .map(|&k| shape_of(k).compute_aabb(&parry_pose(&start_poses[k])))
        .collect();
    let bvh = Bvh::from_leaves(BvhBuildStrategy::default(), &static_boxes);
    let static_poses: Vec<Pose> = statics
        .iter()
        .map(|&k| parry_pose(&start_poses[k]))
        .collect();
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: false,
    };
    let mut run = CcdRun {
        name: "parry3d-f64".into(),
        ..CcdRun::default()
    };
    let mut p0: Vec<Pose> = Vec::new();
    let mut p1: Vec<Pose> = Vec::new();
    for f in 0..intervals(scene, frames) {
        scene.poses_at(f, &mut start_poses);
        scene.poses_at(f + 1, &mut end_poses);
        p0.clear();
        p0.extend(start_poses.iter().map(parry_pose));
        p1.clear();
        p1.extend(end_poses.iter().map(parry_pose));
        let start = Instant::now();
        for k in (0..objects.len()).filter(|&k| moving[k]) {
            let shape = shape_of(k);
            let (a, b) = (&p0[k], &p1[k]);
            let rotating = objects[k].angular_velocity != [0.0; 3];
            let swept = if rotating {
                let r = scene.mesh_of(k).radius;
                let ball = |p: &Pose| {
                    Aabb::new(
                        p.translation - Vector::splat(r),
                        p.translation + Vector::splat(r),
                    )
                };
                ball(a).merged(&ball(b))
            } else {
                shape.compute_aabb(a).merged(&shape.compute_aabb(b))
            };
            for leaf in bvh.intersect_aabb(&swept) {
                let s = statics[leaf as usize];
                let (sp, ss) = (&static_poses[leaf as usize], shape_of(s));
                let hit = if rotating {
                    let motion = NonlinearRigidMotion::new(
                        *a,
                        Vector::ZERO,
                        b.translation - a.translation,
                        rotation_vector(a.rotation, b.rotation),
                    );
                    cast_shapes_nonlinear(
                        &motion,
                        shape,
                        &NonlinearRigidMotion::constant_position(*sp),
                        ss,
                        0.0,
                        1.0,
                        true,
                    )
                } else {
                    cast_shapes(
                        a,
                        b.translation - a.translation,
                        shape,
                        sp,
                        Vector::ZERO,
                        ss,
                        options,
                    )
                }
                .map_err(|_| PeerError::ParryUnsupported)?;
                if hit.is_some_and(|h| h.time_of_impact <= 1.0) {
                    run.hits.push((f, k as u32, s as u32));
                }
            }
        }
        run.frame_ms.push(start.elapsed().as_secs_f64() * 1e3);
    }
    run.hits.sort_unstable();
    run.hits.dedup();
    Ok(run)
}

/// The table of one CCD scene: per library, hits found, missed, false, ambiguous accepted and
/// ms per interval (median), with the ratio to the first run.
pub fn ccd_table(scene: &str, expected: &CcdExpected, runs: &[CcdRun]) -> String {
    let mut out = String::new();
    let intervals = runs.first().map_or(0, |r| r.frame_ms.len());
    let _ = writeln!(
        out,
        "scene {scene} (CCD): {intervals} intervals, {} certified hits, {} ambiguous",
        expected.hits.len(),
        expected.ambiguous.len()
    );
    let _ = writeln!(
        out,
        "  {:<28} {:>8} {:>8} {:>8} {:>8} {:>10} {:>8}",
        "library", "found", "missed", "false", "A", "ms/frame", "ratio"
    );
    let reference = runs.first().map_or(0.0, CcdRun::ms_per_frame);
    for run in runs {
        let s = run.score(expected);
        let _ = writeln!(
            out,
            "  {:<28} {:>8} {:>8} {:>8} {:>8} {:>10.3} {:>7.2}x",
            run.name,
            s.found,
            s.missed,
            s.false_hits,
            s.ambiguous,
            run.ms_per_frame(),
            run.ms_per_frame() / reference
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoring_counts_missed_false_and_ambiguous() {
        let expected = CcdExpected {
            hits: [(0, 1, 2), (1, 1, 2), (5, 1, 3)].into_iter().collect(),
            ambiguous: [(0, 1, 4)].into_iter().collect(),
        };
        let run = CcdRun {
            name: "x".into(),
            frame_ms: vec![1.0; 3],
            hits: vec![(0, 1, 2), (0, 1, 4), (2, 1, 9)],
        };
        // (5, 1, 3) lies beyond the 3 intervals played: not missed.
        assert_eq!(
            run.score(&expected),
            CcdScore {
                found: 3,
                missed: 1,
                false_hits: 1,
                ambiguous: 1
            }
        );
    }

    #[test]
    fn rotation_vector_is_the_shortest_arc() {
        let r0 = Rotation::from_scaled_axis(Vector::new(0.0, 0.0, 0.5));
        let r1 = Rotation::from_scaled_axis(Vector::new(0.0, 0.0, 1.5));
        let w = rotation_vector(r0, -r1);
        assert!((w - Vector::new(0.0, 0.0, 1.0)).length() < 1e-12);
    }

    #[test]
    fn expected_file_beside_the_scene() {
        assert_eq!(
            expected_path(Path::new("/s/ccd-bullets.scene")),
            PathBuf::from("/s/ccd-bullets.ccd-expected.txt")
        );
    }
}
