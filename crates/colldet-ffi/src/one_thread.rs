//! [`OneThread`]: the state a `ColWorld` shares with the recorder closures it installs in its
//! Rust `World`, made `Send` so that the closures fit the world's `Send` callback types.
//!
//! Soundness: the state (`Rc` handles of the pending-call lists and callback targets, and the C
//! callers' raw pointers) is only touched by calls on one world, which the C API's contract
//! forbids to run concurrently ("not concurrently with other calls on the same world"); a caller
//! that moves a world between threads orders those calls itself. The world's narrow phase runs
//! on its pool but never calls the recorders: they run on the thread that called `colCheck`.
//! A concurrent check (`colCheckBegin`) moves the Rust world, recorders included, to a pool
//! thread and back; there it neither calls, clones nor drops them, and while it runs every call
//! that could touch this state is refused (`COL_ERR_WORLD_LOCKED`); the world comes back to the
//! thread of `colCheckEnd` (or of `colExit`, which waits for it) before they are used or dropped.

/// A value that is only used by the calls on one world, one call at a time (module docs).
pub(crate) struct OneThread<T>(T);

// SAFETY: see the module docs: every access happens inside a call on the owning world, and the
// C API forbids concurrent calls on one world, so no two threads ever touch the value at once.
unsafe impl<T> Send for OneThread<T> {}

impl<T> OneThread<T> {
    /// Wraps `value`.
    pub(crate) fn new(value: T) -> Self {
        Self(value)
    }

    /// The value.
    pub(crate) fn get(&self) -> &T {
        &self.0
    }
}
