//! Zachmann's concurrent mode (thesis 6.4): a check runs beside the application, which renders
//! or simulates meanwhile and moves objects for the next check.
//!
//! [`World::check_begin`] moves the world into a job on the world's pool (a one-thread pool of
//! its own, made at the first use, when `threads == 1`), which runs the check's first stage: box
//! update, broad phase, narrow pass, contacts and near pairs. That stage calls no callback and
//! drops none (they stay in the world, untouched, until the world comes back). The handle,
//! [`RunningCheck`], is what the application keeps meanwhile: it records moves
//! ([`RunningCheck::set_transform`]), checked when made against the poses' rules and against the
//! ids live at the begin (no object can be added or removed while the check runs: the world is
//! with the job, so structural calls cannot be made at all). [`RunningCheck::end`] waits for the
//! job and runs the second stage on the calling thread: the callbacks (collisions, near pairs,
//! contact events), then the moves, the handle's first (made while the check ran), then those the
//! callbacks asked for, so a callback's move of an object wins. The moves enter the moved set of
//! the next check (the thesis's double-buffered moved set: the running check keeps the poses it
//! started with). The answers are those of [`World::check`] on the same world: the same stages
//! run in the same order, only the first on another thread.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, sync_channel};

use colldet_geom::math::Pose;

use crate::object_pose::ObjectPose;
use crate::{CheckPass, ObjectId, WORKER_THREAD_PREFIX, World, WorldError};

/// A move recorded while no move of its object is: the handle's index of an object's move.
const NO_MOVE: u32 = u32::MAX;

/// What a world keeps for its concurrent checks between them.
#[derive(Default)]
pub(crate) struct ConcurrentState {
    /// The thread of a one-thread world's concurrent checks, made at the first
    /// [`World::check_begin`] (worlds with a pool use their pool).
    thread: Option<Arc<rayon::ThreadPool>>,
    /// The handle's per-slot table, kept for its capacity.
    slots: Vec<SlotAtBegin>,
    /// Test hook: the next concurrent check's first stage panics (see
    /// [`World::inject_panic_in_next_concurrent_check`]).
    #[cfg(any(test, feature = "test-hooks"))]
    panic_in_next_check: bool,
}

/// A slot as the handle knows it: the live object's id at the begin, and the index of its move
/// in the handle's list ([`NO_MOVE`] when none).
#[derive(Clone, Copy)]
struct SlotAtBegin {
    id: Option<ObjectId>,
    move_index: u32,
}

/// The world and the outcome of the check's first stage (`Err` when it panicked), handed back
/// by the job.
struct Finished<U> {
    world: World<U>,
    pass: std::thread::Result<Result<CheckPass, WorldError>>,
}

/// A check running beside the caller (see [`World::check_begin`]). Dropping it without
/// [`RunningCheck::end`] waits for the check and drops the world, with its callbacks, on the
/// dropping thread; the recorded moves are lost.
pub struct RunningCheck<U> {
    /// Hands the world back when the job ends; `None` once it did.
    job: Option<Receiver<Finished<U>>>,
    /// Per slot at the begin: the live id and its recorded move.
    slots: Vec<SlotAtBegin>,
    /// The moves made while the check runs, one per object (the latest), in first-move order.
    moves: Vec<(ObjectId, ObjectPose)>,
}

impl<U: Send + 'static> World<U> {
    /// Starts a check on the world's pool and returns at once (the thesis's concurrent mode,
    /// section 6.4; the C API's `colCheckBegin`). The world goes with the check: meanwhile the
    /// handle only records moves ([`RunningCheck::set_transform`]), which count for the next
    /// check; [`RunningCheck::end`] waits, calls the callbacks on its calling thread and hands the
    /// world back. Results, callbacks and their order are those of [`World::check`]. The check's
    /// first stage runs on a pool thread (with `threads == 1`, on the world's own background
    /// thread, made at the first call), using the pool as [`World::check`] would.
    ///
    /// # Errors
    /// The world back, with [`WorldError::WrongState`] before [`World::start`] and
    /// [`WorldError::Threads`] when a one-thread world's background thread cannot be started.
    #[allow(clippy::result_large_err)] // the world is handed back, as `Arc::try_unwrap` does
    pub fn check_begin(mut self) -> Result<RunningCheck<U>, (Self, WorldError)> {
        if !self.started {
            return Err((self, WorldError::WrongState("check_begin before start")));
        }
        let pool = match self.check_thread() {
            Ok(pool) => pool,
            Err(e) => return Err((self, e)),
        };
        let mut slots = std::mem::take(&mut self.concurrent.slots);
        slots.clear();
        slots.extend(self.objects.placed().ids().iter().map(|&id| SlotAtBegin {
            id,
            move_index: NO_MOVE,
        }));
        // Empty between checks: a check drains it.
        let moves = std::mem::take(&mut self.deferred_moves);
        let (hand_back, job) = sync_channel(1);
        pool.spawn(move || {
            let mut world = self;
            let pass = catch_unwind(AssertUnwindSafe(|| {
                #[cfg(any(test, feature = "test-hooks"))]
                if std::mem::take(&mut world.concurrent.panic_in_next_check) {
                    panic!("a panic injected into a concurrent check's first stage");
                }
                world.check_pass()
            }));
            if let Err(unsent) = hand_back.send(Finished { world, pass }) {
                // Not reached: the handle waits for the world before it is dropped. Should it
                // be, leaking the world beats dropping its callbacks on this thread.
                std::mem::forget(unsent);
            }
        });
        Ok(RunningCheck {
            job: Some(job),
            slots,
            moves,
        })
    }

    /// Test hook (feature `test-hooks`): the next [`World::check_begin`]'s first stage panics
    /// before it starts, as a bug in it would, so that the re-raise in [`RunningCheck::end`]
    /// and the C API's poisoning can be tested.
    #[cfg(any(test, feature = "test-hooks"))]
    #[doc(hidden)]
    pub fn inject_panic_in_next_concurrent_check(&mut self) {
        self.concurrent.panic_in_next_check = true;
    }

    /// The pool a concurrent check's first stage runs on.
    fn check_thread(&mut self) -> Result<Arc<rayon::ThreadPool>, WorldError> {
        if let Some(pool) = self.pool.as_ref().or(self.concurrent.thread.as_ref()) {
            return Ok(Arc::clone(pool));
        }
        let thread = Arc::new(
            rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .thread_name(|_| format!("{WORKER_THREAD_PREFIX}check"))
                .build()
                .map_err(|e| WorldError::Threads(e.to_string()))?,
        );
        self.concurrent.thread = Some(Arc::clone(&thread));
        Ok(thread)
    }
}

impl<U> RunningCheck<U> {
    /// Moves object `id` to `pose` for the next check ([`World::set_transform`]'s rules; a later
    /// move of the same object before [`RunningCheck::end`] replaces this one). The running check
    /// keeps the poses it started with.
    ///
    /// # Errors
    /// [`WorldError::InvalidTransform`] (non-finite, non-unit rotation),
    /// [`WorldError::InvalidHandle`] when `id` named no live object at the begin; the move is
    /// then not recorded.
    pub fn set_transform(&mut self, id: ObjectId, pose: Pose) -> Result<(), WorldError> {
        self.record(id, ObjectPose::new(&pose)?)
    }

    /// [`RunningCheck::set_transform`] from a column-major 4x4 matrix
    /// ([`World::set_transform_matrix`]'s rules).
    ///
    /// # Errors
    /// As [`RunningCheck::set_transform`].
    pub fn set_transform_matrix(&mut self, id: ObjectId, m: &[f64; 16]) -> Result<(), WorldError> {
        self.record(id, ObjectPose::from_column_major(m)?)
    }

    fn record(&mut self, id: ObjectId, pose: ObjectPose) -> Result<(), WorldError> {
        let slot = self
            .slots
            .get_mut(id.slot() as usize)
            .filter(|s| s.id == Some(id))
            .ok_or(WorldError::InvalidHandle(id))?;
        match self.moves.get_mut(slot.move_index as usize) {
            Some(recorded) => recorded.1 = pose,
            None => {
                slot.move_index = self.moves.len() as u32;
                self.moves.push((id, pose));
            }
        }
        Ok(())
    }

    /// Waits for the check, then, on the calling thread, calls its callbacks as
    /// [`World::check`] does and applies the moves: first those recorded by this handle, then
    /// those the callbacks asked for. Returns the world and the check's result.
    ///
    /// # Errors
    /// As [`World::check`] (the moves are applied in any case).
    ///
    /// # Panics
    /// When the check's first stage panicked (a bug), with its payload, after dropping the world
    /// on this thread.
    pub fn end(mut self) -> (World<U>, Result<usize, WorldError>) {
        let Finished { mut world, pass } = self.wait();
        let pass = match pass {
            Ok(pass) => pass,
            Err(payload) => {
                drop(world);
                std::panic::resume_unwind(payload)
            }
        };
        // The world's buffers back; this handle's moves go before the callbacks' own.
        world.concurrent.slots = std::mem::take(&mut self.slots);
        world.deferred_moves = std::mem::take(&mut self.moves);
        let result = match pass {
            Ok(pass) => world.check_report(pass),
            Err(e) => {
                world.apply_deferred_moves();
                Err(e)
            }
        };
        (world, result)
    }

    /// Blocks until the job hands the world back.
    fn wait(&mut self) -> Finished<U> {
        self.job
            .take()
            .and_then(|job| job.recv().ok())
            .expect("a running check's job hands its world back exactly once")
    }
}

impl<U> Drop for RunningCheck<U> {
    fn drop(&mut self) {
        if let Some(job) = self.job.take() {
            // The world and its callbacks are dropped here, on the owner's thread.
            drop(job.recv());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use colldet_geom::math::VectorD;
    use colldet_testkit::shapes::cuboid;

    /// A panic in the first stage (injected: a bug) is raised again by `end` on the caller's
    /// thread, with its payload, and no callback runs.
    #[test]
    fn a_panic_in_the_first_stage_is_raised_by_end() {
        for threads in [1, 2] {
            let config = Config {
                threads,
                ..Config::default()
            };
            let mut world: World<u32> = World::new(config).unwrap();
            let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
            let counter = Arc::clone(&calls);
            world.set_general_callback(Box::new(move |_, _| {
                counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }));
            for k in 0..2 {
                let cube = cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap();
                world.make_collidable(cube, k).unwrap();
            }
            world.start().unwrap();
            world.inject_panic_in_next_concurrent_check();
            let running = world.check_begin().ok().unwrap();
            let Err(payload) = catch_unwind(AssertUnwindSafe(|| running.end())) else {
                panic!("end returned after a panic in the first stage");
            };
            let text = payload.downcast_ref::<&str>().copied().unwrap_or_default();
            assert!(text.contains("panic injected"), "{text:?}");
            assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 0);
        }
    }
}
