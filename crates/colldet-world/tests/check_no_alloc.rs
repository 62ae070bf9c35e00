//! A steady-state `World::check` must not allocate: a counting global allocator (all threads)
//! watches a run of periodic motion once every pair the motion produces has been seen (interest
//! entries, pair caches, broad-phase and narrow-phase buffers at full size), while the merges drop
//! the caches of pairs that left and recycle them for pairs that come, with sweep-and-prune in its
//! batch and its incremental mode, serial and on two threads. The run must also report
//! collisions, so the exact tests really ran. A second run moves all of 9,261 small boxes every
//! frame, so that the large frame's pool paths run too.
//!
//! The one allocation allowed is rayon's: handing work to the pool pushes a job on the pool's
//! injector queue, which allocates a new queue block every 63 pushes (the small world enters the
//! pool once per check, the large one at most [`POOL_ENTRIES_PER_LARGE_CHECK`] times). Serial
//! checks allocate nothing.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::CountingAllocator;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cuboid};
use colldet_world::{Config, World};
use nalgebra::{Translation3, UnitQuaternion};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Held by each test while it counts: the counter sees every thread's allocations, so the tests
/// must not run beside each other.
static COUNTING: Mutex<()> = Mutex::new(());

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
    let _counting = COUNTING.lock().unwrap_or_else(|e| e.into_inner());
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

/// Allocations made by [`MEASURED_FRAMES`] checks of a large world of small boxes that all move
/// every frame (the two-thread paths of a large frame: world boxes computed on the pool, the
/// sweep-and-prune batch and column sweep cut into pieces on the pool, the parallel sort of the
/// pairs), after four periods of warm-up; and the collisions reported in that period.
fn large_world_allocations(threads: usize) -> (u64, usize) {
    const SIDE: usize = 21;
    let mut world = World::new(Config {
        threads,
        ..Config::default()
    })
    .unwrap();
    let cube = cuboid(VectorD::new(0.3, 0.25, 0.35)).unwrap();
    let ids: Vec<_> = (0..SIDE * SIDE * SIDE)
        .map(|k| world.make_collidable(cube.clone(), k).unwrap())
        .collect();
    let reported = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&reported);
    world.set_general_callback(Box::new(move |_, _| {
        counter.fetch_add(1, Ordering::Relaxed);
    }));
    let place = |k: usize, frame: u32| {
        let phase = std::f64::consts::TAU * f64::from(frame % PERIOD) / f64::from(PERIOD);
        let base = VectorD::new(
            (k % SIDE) as f64,
            ((k / SIDE) % SIDE) as f64,
            (k / (SIDE * SIDE)) as f64,
        ) * 0.9;
        let axis = VectorD::new(1.0, (k % 3) as f64 - 1.0, (k % 2) as f64).normalize();
        Pose::from_parts(
            Translation3::from(base + axis * (0.4 * phase.sin())),
            UnitQuaternion::from_scaled_axis(axis * phase),
        )
    };
    for (k, &id) in ids.iter().enumerate() {
        world.set_transform(id, place(k, 0)).unwrap();
    }
    world.start().unwrap();
    let mut frame = 0;
    let mut play = |world: &mut World<usize>, frames: u32| {
        for _ in 0..frames {
            for (k, &id) in ids.iter().enumerate() {
                world.set_transform(id, place(k, frame)).unwrap();
            }
            world.check().unwrap();
            frame += 1;
        }
    };
    play(&mut world, 4 * PERIOD);
    reported.store(0, Ordering::Relaxed);
    let before = CountingAllocator::total_allocations();
    play(&mut world, MEASURED_FRAMES);
    (
        CountingAllocator::total_allocations() - before,
        reported.load(Ordering::Relaxed),
    )
}

/// Entries into the pool a large two-thread check can make (`ThreadPool::install` calls on its
/// path: world boxes, the sweep-and-prune change scan and box writes, the column sweep's two
/// passes, the pair sort and pair-set merge, the narrow pass): each pushes one job on rayon's
/// injector queue.
const POOL_ENTRIES_PER_LARGE_CHECK: u32 = 8;

#[test]
fn large_all_moving_world_checks_do_not_allocate() {
    let _counting = COUNTING.lock().unwrap_or_else(|e| e.into_inner());
    for threads in [1, 2] {
        let (allocations, reported) = large_world_allocations(threads);
        assert!(reported > 0, "{threads} threads: no collision reported");
        let allowed = if threads == 1 {
            0
        } else {
            (MEASURED_FRAMES * POOL_ENTRIES_PER_LARGE_CHECK).div_ceil(RAYON_INJECTOR_BLOCK)
        };
        assert!(
            allocations <= u64::from(allowed),
            "{threads} threads: {allocations} allocations (allowed {allowed})"
        );
    }
}
