//! What every library under test provides, and the loop that plays a scene through one of them.

use std::time::Instant;

use colldet_cli::scene::ScenePose;

use crate::error::PeerError;
use crate::scene_data::PeerScene;

/// What one library reports about one frame beyond its wall time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameFigures {
    /// Broad-phase time (box updates and pair search), milliseconds, when the library splits it.
    pub broad_ms: Option<f64>,
    /// Exact-test time, milliseconds, when the library splits it.
    pub narrow_ms: Option<f64>,
    /// Unordered pairs of objects whose solids touch at this frame.
    pub colliding_pairs: usize,
}

/// A collision library holding one scene's objects.
pub trait Peer {
    /// The library's name as printed in tables.
    fn name(&self) -> &'static str;

    /// False for a peer that rounds the scene (poses, vertices) before testing: its totals may
    /// differ from the exact ones on near-touching pairs, which is not a disagreement.
    fn exact(&self) -> bool {
        true
    }

    /// Sets the pose of every object (not timed: the scene's motion is not the library's work).
    fn set_poses(&mut self, poses: &[ScenePose]) -> Result<(), PeerError>;

    /// Finds the colliding pairs at the poses last set (timed).
    fn step(&mut self) -> Result<FrameFigures, PeerError>;
}

/// The figures of one library over one scene.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PeerRun {
    /// The library.
    pub name: &'static str,
    /// Whether the library tests the scene as given ([`Peer::exact`]).
    pub exact: bool,
    /// Wall time of each frame's [`Peer::step`], milliseconds.
    pub frame_ms: Vec<f64>,
    /// Broad-phase time of each frame, when the library reports it.
    pub broad_ms: Vec<f64>,
    /// Exact-test time of each frame, when the library reports it.
    pub narrow_ms: Vec<f64>,
    /// Colliding pairs of each frame.
    pub colliding: Vec<usize>,
}

/// The median of `values` (the mean of the two middle ones for an even count); 0 when empty.
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
    }
}

impl PeerRun {
    /// Median frame time, milliseconds.
    pub fn ms_per_frame(&self) -> f64 {
        median(&self.frame_ms)
    }

    /// Median broad-phase time, when the library reports it.
    pub fn broad_ms(&self) -> Option<f64> {
        (!self.broad_ms.is_empty()).then(|| median(&self.broad_ms))
    }

    /// Median exact-test time, when the library reports it.
    pub fn narrow_ms(&self) -> Option<f64> {
        (!self.narrow_ms.is_empty()).then(|| median(&self.narrow_ms))
    }

    /// Colliding pairs summed over all frames (the scene's checksum).
    pub fn pairs_total(&self) -> u64 {
        self.colliding.iter().map(|&c| c as u64).sum()
    }
}

/// Plays the first `frames` frames of `scene` (all when `None`) through `peer`.
///
/// # Errors
/// What the peer reports.
pub fn play(
    peer: &mut dyn Peer,
    scene: &PeerScene,
    frames: Option<u32>,
) -> Result<PeerRun, PeerError> {
    let frames = frames.map_or(scene.scene.frames, |f| f.min(scene.scene.frames));
    let mut run = PeerRun {
        name: peer.name(),
        exact: peer.exact(),
        ..PeerRun::default()
    };
    let mut poses = Vec::with_capacity(scene.object_count());
    for frame in 0..frames {
        scene.poses_at(frame, &mut poses);
        peer.set_poses(&poses)?;
        let start = Instant::now();
        let figures = peer.step()?;
        run.frame_ms.push(start.elapsed().as_secs_f64() * 1e3);
        run.broad_ms.extend(figures.broad_ms);
        run.narrow_ms.extend(figures.narrow_ms);
        run.colliding.push(figures.colliding_pairs);
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }
}
