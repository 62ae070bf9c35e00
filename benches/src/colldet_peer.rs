//! colldet's [`World`] as a peer: one object per scene object, meshes shared by instancing.

use colldet_cli::runner::MOVER_GROUP;
use colldet_cli::scene::ScenePose;
use colldet_geom::WorldAabb;
use colldet_geom::math::{Pose, VectorD};
use colldet_world::{Config, ObjectId, World};
use nalgebra::{Quaternion, Translation3, UnitQuaternion};

use crate::error::PeerError;
use crate::peer::{FrameFigures, Peer};
use crate::scene_data::PeerScene;

/// A started colldet world holding a scene's objects.
pub struct ColldetPeer {
    world: World<u32>,
    ids: Vec<ObjectId>,
}

/// colldet's pose from the scene's quaternion `(w, x, y, z)` and translation.
pub fn world_pose(pose: &ScenePose) -> Pose {
    let [w, x, y, z] = pose.q;
    let rotation = UnitQuaternion::new_normalize(Quaternion::new(w, x, y, z));
    Pose::from_parts(
        Translation3::from(VectorD::new(pose.t[0], pose.t[1], pose.t[2])),
        rotation,
    )
}

impl ColldetPeer {
    /// A world with `config` (its universe defaults to the scene's box) holding every object.
    ///
    /// # Errors
    /// [`PeerError::World`] when the world rejects the configuration or a mesh.
    pub fn new(scene: &PeerScene, mut config: Config) -> Result<Self, PeerError> {
        if config.universe.is_none() {
            config.universe = Some(WorldAabb::new(
                scene.scene.box_min.into(),
                scene.scene.box_max.into(),
            ));
        }
        let mut world = World::new(config)?;
        let mut first: Vec<Option<ObjectId>> = vec![None; scene.meshes.len()];
        let mut ids = Vec::with_capacity(scene.object_count());
        for (k, object) in scene.scene.objects.iter().enumerate() {
            let user =
                u32::try_from(k).map_err(|_| colldet_world::WorldError::TooManyObjects(k))?;
            let id = match first[object.mesh] {
                Some(like) => world.make_instance(like, user)?,
                None => {
                    let id = world.make_collidable(scene.meshes[object.mesh].data.clone(), user)?;
                    first[object.mesh] = Some(id);
                    id
                }
            };
            ids.push(id);
        }
        world.start()?;
        Ok(Self { world, ids })
    }

    /// The world, for inspection.
    pub fn world(&self) -> &World<u32> {
        &self.world
    }

    /// The world and its objects' ids in scene order (for the concurrent check, which takes
    /// the world).
    pub fn into_parts(self) -> (World<u32>, Vec<ObjectId>) {
        (self.world, self.ids)
    }

    /// The world, for the continuous check.
    pub fn world_mut(&mut self) -> &mut World<u32> {
        &mut self.world
    }

    /// Excludes every pair of two objects `k` with `selected[k]` (scene order): they get the
    /// collision group [`MOVER_GROUP`], which their masks exclude (as `colldet run --ccd` does).
    ///
    /// # Errors
    /// [`PeerError::World`] when the world refuses (it does not for live objects).
    pub fn ignore_pairs_among(&mut self, selected: &[bool]) -> Result<(), PeerError> {
        for (&id, _) in self.ids.iter().zip(selected).filter(|(_, s)| **s) {
            self.world.set_group(id, MOVER_GROUP, !MOVER_GROUP)?;
        }
        Ok(())
    }

    /// The pairs of scene objects found colliding by the last check, `(a, b)` with `a < b`,
    /// sorted.
    pub fn colliding_pairs(&self) -> Vec<(usize, usize)> {
        let scene_id = |id| self.world.user_data(id).map_or(usize::MAX, |&k| k as usize);
        let mut pairs: Vec<(usize, usize)> = self
            .world
            .last_collisions()
            .iter()
            .map(|&(a, b)| {
                let (a, b) = (scene_id(a), scene_id(b));
                (a.min(b), a.max(b))
            })
            .collect();
        pairs.sort_unstable();
        pairs
    }
}

impl Peer for ColldetPeer {
    fn name(&self) -> &'static str {
        "colldet"
    }

    fn set_poses(&mut self, poses: &[ScenePose]) -> Result<(), PeerError> {
        for (&id, pose) in self.ids.iter().zip(poses) {
            self.world.set_transform(id, world_pose(pose))?;
        }
        Ok(())
    }

    fn step(&mut self) -> Result<FrameFigures, PeerError> {
        self.world.check()?;
        let stats = self.world.stats();
        Ok(FrameFigures {
            broad_ms: Some(stats.broad_ms),
            narrow_ms: Some(stats.narrow_ms),
            colliding_pairs: stats.colliding_pairs,
        })
    }
}
