//! The candidates of a spatial query (ray cast, overlap): the objects whose current world box
//! passes a probe, taken from the world's query index ([`crate::query_index::QueryIndex`]),
//! which is brought up to date with the current poses first ([`World::refresh_query_index`]).

use colldet_broad::ProxyId;
use colldet_geom::WorldAabb;
use colldet_narrow::dispatch::PairScratch;

use crate::World;

/// Scratch memory of the spatial queries (ray casts, overlaps), kept by the world: no allocation
/// once warm (overlap queries allocate their query shape).
#[derive(Default)]
pub(crate) struct QueryScratch {
    /// The candidates of the current query: slot and world box.
    pub(crate) candidates: Vec<(ProxyId, WorldAabb)>,
    /// The index walk's stack: node and entry parameter.
    pub(crate) walk: Vec<(u32, f64)>,
    /// The tree walks' stack.
    pub(crate) stack: Vec<u32>,
    /// The overlap queries' exact pair tests, made on first use (so that taking the scratch out
    /// of the world for a query, which leaves a default in its place, allocates nothing).
    pub(crate) pair: Option<Box<PairScratch>>,
}

impl<U> World<U> {
    /// Brings the query index up to date with the objects' current poses: a rebuild after
    /// additions or removals, a refit of the moved objects' boxes after pose changes only.
    pub(crate) fn refresh_query_index(&mut self) {
        let slot_count = self.objects.slot_count();
        let (placed, changes) = self.objects.placed_and_changes();
        self.query_index.update(placed, slot_count, changes);
    }

    /// Replaces `out` with `(slot, world box)` of every live object whose box at its current pose
    /// passes `probe` (monotone, as [`colldet_broad::BroadPhase::query`] requires), each once.
    /// The index must be fresh ([`World::refresh_query_index`]).
    pub(crate) fn query_candidates(
        &self,
        probe: &mut dyn FnMut(&WorldAabb) -> bool,
        scratch: &mut QueryScratch,
    ) {
        self.query_index
            .collect(probe, &mut scratch.walk, &mut scratch.candidates);
    }
}

#[cfg(test)]
mod tests {
    use colldet_geom::math::{PointD, Pose, VectorD};
    use nalgebra::Translation3;

    use crate::{Config, World};

    /// Pose changes refit the index, additions and removals rebuild it, nothing rebuilds nothing.
    #[test]
    fn moves_refit_and_additions_rebuild() {
        let mut world: World<()> = World::new(Config::default()).unwrap();
        let cube = colldet_testkit::shapes::cuboid(VectorD::repeat(0.5)).unwrap();
        let ids: Vec<_> = (0..4)
            .map(|k| {
                let id = world.make_collidable(cube.clone(), ()).unwrap();
                let at = Translation3::new(3.0 * k as f64, 0.0, 0.0);
                world
                    .set_transform(id, Pose::from_parts(at, Default::default()))
                    .unwrap();
                id
            })
            .collect();
        let (o, d) = (PointD::new(-5.0, 0.0, 0.0), VectorD::x());
        let counts = |w: &World<()>| (w.query_index.builds, w.query_index.refits);
        assert_eq!(
            world
                .ray_cast(&o, &d, f64::INFINITY)
                .unwrap()
                .unwrap()
                .object,
            ids[0]
        );
        assert_eq!(counts(&world), (1, 0));
        world.ray_cast(&o, &d, f64::INFINITY).unwrap();
        assert_eq!(counts(&world), (1, 0));
        // The first cube moves back by 0.25 (its box barely changes): a refit finds it there.
        let back = Pose::from_parts(Translation3::new(0.25, 0.0, 0.0), Default::default());
        world.set_transform(ids[0], back).unwrap();
        let hit = world.ray_cast(&o, &d, f64::INFINITY).unwrap().unwrap();
        assert_eq!((hit.object, hit.t), (ids[0], 4.75));
        assert_eq!(counts(&world), (1, 1));
        world.remove(ids[0]).unwrap();
        assert_eq!(
            world
                .ray_cast(&o, &d, f64::INFINITY)
                .unwrap()
                .unwrap()
                .object,
            ids[1]
        );
        assert_eq!(counts(&world), (2, 1));
    }
}
