//! A steady-state `World::check` must not allocate: a counting global allocator (all threads)
//! watches a run of periodic motion once every pair the motion produces has been seen (interest
//! entries, pair caches, broad-phase and narrow-phase buffers at full size), while the merges drop
//! the caches of pairs that left and recycle them for pairs that come, with sweep-and-prune in its batch and its incremental mode, serial and on two
//! threads. The run must also report collisions, so the exact tests really ran.
//!
//! The one allocation allowed is rayon's: handing the narrow phase to the pool pushes a job on
//! the pool's injector queue, which allocates a new queue block every 63 pushes (one per 63
//! checks on two threads). Serial checks allocate nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::CountingAllocator;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cuboid};
use colldet_world::{Config, World};
use nalgebra::{Translation3, UnitQuaternion};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Frames of one period of the motion.
const PERIOD: u32 = 16;

/// Checks watched by the allocation counter.
const MEASURED_FRAMES: u32 = 8 * PERIOD;

/// Pushes on rayon's injector queue per queue block it allocates.
const RAYON_INJECTOR_BLOCK: u32 = 63;

/// Object `k`'s pose at `frame`: on a lattice, swinging along a per-object axis with period
/// [`PERIOD`] (`amplitude` lattice steps) and turning a full turn per period.
fn pose(k: usize, frame: u32, amplitude: f64) -> Pose {
    let phase = std::f64::consts::TAU * f64::from(frame % PERIOD) / f64::from(PERIOD);
    let base = VectorD::new((k % 5) as f64, ((k / 5) % 5) as f64, (k / 25) as f64) * 1.1;
    let axis = VectorD::new(1.0, (k % 3) as f64 - 1.0, (k % 2) as f64).normalize();
    Pose::from_parts(
        Translation3::from(base + axis * (amplitude * phase.sin())),
        UnitQuaternion::from_scaled_axis(axis * phase),
    )
}

/// Allocations made by [`MEASURED_FRAMES`] checks after twelve periods of warm-up, and the
/// collisions reported in that period.
fn steady_state_allocations(threads: usize, amplitude: f64) -> (u64, usize) {
    let mut world = World::new(Config {
        threads,
        ..Config::default()
    })
    .unwrap();
    let meshes = [
        chung_wang_polytope(ChungWangShape::Ellipsoid, 80, 3).unwrap(),
        chung_wang_polytope(ChungWangShape::Rod, 40, 4).unwrap(),
        cuboid(VectorD::new(0.4, 0.3, 0.5)).unwrap(),
    ];
    let ids: Vec<_> = (0..75usize)
        .map(|k| world.make_collidable(meshes[k % 3].clone(), k).unwrap())
        .collect();
    let reported = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&reported);
    world.set_general_callback(Box::new(move |_, _| {
        counter.fetch_add(1, Ordering::Relaxed);
    }));
    // Contact events too: the contact lists keep their capacity.
    let events = Arc::new(AtomicUsize::new(0));
    let event_counter = Arc::clone(&events);
    world.set_event_callback(Box::new(move |_, _| {
        event_counter.fetch_add(1, Ordering::Relaxed);
    }));
    world.start().unwrap();
    let mut frame = 0;
    let mut play = |world: &mut World<usize>, frames: u32| {
        for _ in 0..frames {
            for (k, &id) in ids.iter().enumerate() {
                world.set_transform(id, pose(k, frame, amplitude)).unwrap();
            }
            world.check().unwrap();
            frame += 1;
        }
    };
    // Pairs come and go with the motion: dropped caches are being recycled by now.
    play(&mut world, 12 * PERIOD);
    reported.store(0, Ordering::Relaxed);
    events.store(0, Ordering::Relaxed);
    let before = CountingAllocator::total_allocations();
    play(&mut world, MEASURED_FRAMES);
    assert!(
        events.load(Ordering::Relaxed) >= reported.load(Ordering::Relaxed),
        "every new collision is an event"
    );
    (
        CountingAllocator::total_allocations() - before,
        reported.load(Ordering::Relaxed),
    )
}

#[test]
fn steady_state_checks_do_not_allocate() {
    // Large swings (sweep-and-prune's batch mode) and small ones (its incremental mode).
    for amplitude in [0.6, 0.05] {
        for threads in [1, 2] {
            let (allocations, reported) = steady_state_allocations(threads, amplitude);
            assert!(reported > 0, "amplitude {amplitude}: no collision reported");
            let allowed = if threads == 1 {
                0
            } else {
                MEASURED_FRAMES.div_ceil(RAYON_INJECTOR_BLOCK)
            };
            assert!(
                allocations <= u64::from(allowed),
                "amplitude {amplitude}, {threads} threads: {allocations} allocations"
            );
        }
    }
}
