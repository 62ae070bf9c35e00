//! Why colldet and parry disagree: the pairs on which they differ at one frame, replayed from
//! fresh worlds, with parry's distance and colldet's touching band (`docs/narrow-phase.md`:
//! a convex pair within `TOUCHING_TOLERANCE_FACTOR x (r1 + r2)` of touching counts as colliding).

use colldet_narrow::TOUCHING_TOLERANCE_FACTOR;
use colldet_world::Config;

use crate::ParryPeer;
use crate::colldet_peer::ColldetPeer;
use crate::error::PeerError;
use crate::peer::Peer;
use crate::scene_data::PeerScene;

/// One pair the two libraries answer differently.
#[derive(Clone, Debug, PartialEq)]
pub struct PairDifference {
    /// Scene object ids, `a < b`.
    pub pair: (usize, usize),
    /// True when colldet reports the pair colliding (and parry does not).
    pub colldet_colliding: bool,
    /// parry's distance between the two (0 when intersecting).
    pub parry_distance: f64,
    /// colldet's touching band for the pair, `TOUCHING_TOLERANCE_FACTOR x (r1 + r2)`.
    pub band: f64,
}

/// The pairs colldet and parry answer differently at `frame`, each library starting fresh.
///
/// # Errors
/// What the libraries report.
pub fn differences_at(
    scene: &PeerScene,
    frame: u32,
    config: Config,
) -> Result<Vec<PairDifference>, PeerError> {
    let mut poses = Vec::with_capacity(scene.object_count());
    scene.poses_at(frame, &mut poses);
    let mut colldet = ColldetPeer::new(scene, config)?;
    colldet.set_poses(&poses)?;
    colldet.step()?;
    let mut parry = ParryPeer::new(scene)?;
    parry.set_poses(&poses)?;
    let ours = colldet.colliding_pairs();
    let theirs = parry.colliding_pairs()?;
    let only = |from: &[(usize, usize)], not_in: &[(usize, usize)], colldet_colliding| {
        from.iter()
            .filter(|p| not_in.binary_search(p).is_err())
            .map(|&pair| {
                Ok(PairDifference {
                    pair,
                    colldet_colliding,
                    parry_distance: parry.distance(pair.0, pair.1)?,
                    band: TOUCHING_TOLERANCE_FACTOR
                        * (scene.mesh_of(pair.0).radius + scene.mesh_of(pair.1).radius),
                })
            })
            .collect::<Result<Vec<_>, PeerError>>()
    };
    let mut differences = only(&ours, &theirs, true)?;
    differences.extend(only(&theirs, &ours, false)?);
    Ok(differences)
}
