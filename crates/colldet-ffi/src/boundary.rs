//! The panic boundary every export goes through, and where failure messages are kept.
//!
//! No panic may unwind across `extern "C"`. Each export runs its body under
//! [`std::panic::catch_unwind`]: a failure becomes a status plus a message stored on the world
//! (or, for calls without a world, in a thread-local slot that `colLastError(NULL)` reads), and
//! a caught panic becomes `COL_ERR_INTERNAL` and poisons the world, since its invariants may no
//! longer hold.
//!
//! A caught panic is reported through `colLastError` only, never on the host's stderr: the
//! first call installs (once per process) a panic hook that, while a colldet call runs on the
//! panicking thread, keeps the panic's message and location for the boundary instead of
//! printing them (and a backtrace under `RUST_BACKTRACE`). It is silent too on the threads of a
//! world's pool (named [`WORKER_THREAD_PREFIX`]...), whose panics reach the calling thread's
//! boundary (by its payload: the location is lost). On any other thread, and on the calling one
//! outside colldet's calls or inside a user callback, it hands the panic to the hook that was
//! installed before it, so the host's own hook keeps working.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, PanicHookInfo, catch_unwind};
use std::sync::Once;

use colldet_world::WORKER_THREAD_PREFIX;

use crate::status::{
    COL_ERR_INTERNAL, COL_ERR_NULL_ARGUMENT, COL_ERR_WORLD_LOCKED, COL_OK, ColStatus, Failure,
};
use crate::world::ColWorld;

/// The message of every call on a poisoned world.
pub(crate) const POISONED_MESSAGE: &str = "world poisoned by an earlier internal error";

thread_local! {
    /// The message of the last failed call on this thread that had no world to keep it
    /// (`colInit`, or any call given a NULL world).
    static THREAD_ERROR: RefCell<CString> = RefCell::new(CString::default());

    /// How many colldet calls are running on this thread (a callback may call back in); while
    /// it is above 0 the panic hook is quiet. Set to 0 while a user callback runs.
    static CALL_DEPTH: Cell<usize> = const { Cell::new(0) };

    /// The message and location of the last panic the quiet hook kept on this thread.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs the quiet panic hook, once per process, in front of the hook already set. Not
/// while this thread is panicking (a host's destructor calling colldet during unwinding), where
/// setting a hook would itself panic: a later call installs it.
fn install_quiet_hook() {
    static INSTALL: Once = Once::new();
    if INSTALL.is_completed() || std::thread::panicking() {
        return;
    }
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info: &PanicHookInfo<'_>| {
            let in_call = CALL_DEPTH.try_with(Cell::get).unwrap_or(0) > 0;
            let worker = std::thread::current()
                .name()
                .is_some_and(|name| name.starts_with(WORKER_THREAD_PREFIX));
            if !in_call && !worker {
                previous(info);
                return;
            }
            let text = match info.location() {
                Some(at) => format!("{} (at {at})", panic_text(info.payload())),
                None => panic_text(info.payload()).to_owned(),
            };
            let _ = LAST_PANIC.try_with(|slot| {
                if let Ok(mut slot) = slot.try_borrow_mut() {
                    *slot = Some(text);
                }
            });
        }));
    });
}

/// Marks a colldet call running on this thread while it lives.
struct InCall;

impl InCall {
    fn enter() -> Self {
        install_quiet_hook();
        let outermost = CALL_DEPTH
            .try_with(|depth| depth.replace(depth.get() + 1))
            .is_ok_and(|before| before == 0);
        if outermost {
            let _ = LAST_PANIC.try_with(|slot| slot.try_borrow_mut().map(|mut s| s.take()));
        }
        Self
    }
}

impl Drop for InCall {
    fn drop(&mut self) {
        let _ = CALL_DEPTH.try_with(|depth| depth.set(depth.get().saturating_sub(1)));
    }
}

/// Runs user code (a collision callback) as outside colldet: a panic in it reaches the host's
/// hook (it aborts the process, as no panic may unwind out of an `extern "C"` callback).
pub(crate) fn outside_call<T>(body: impl FnOnce() -> T) -> T {
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            let _ = CALL_DEPTH.try_with(|depth| depth.set(self.0));
        }
    }
    let _restore = Restore(CALL_DEPTH.try_with(|depth| depth.replace(0)).unwrap_or(0));
    body()
}

/// Runs `body` as a colldet call behind `catch_unwind`; a panic's text (message and location,
/// as the quiet hook kept it) is the error.
fn catch_call<T>(body: impl FnOnce() -> T) -> Result<T, String> {
    let _in_call = InCall::enter();
    catch_unwind(AssertUnwindSafe(body)).map_err(|payload| {
        LAST_PANIC
            .try_with(|slot| slot.try_borrow_mut().ok().and_then(|mut s| s.take()))
            .ok()
            .flatten()
            .unwrap_or_else(|| panic_text(payload.as_ref()).to_owned())
    })
}

/// A message as a C string; interior NULs (never produced by colldet) are dropped.
pub(crate) fn c_message(message: &str) -> CString {
    CString::new(message.replace('\0', "")).unwrap_or_default()
}

fn panic_text(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("unknown panic")
}

/// Records `failure` as this thread's last error and returns its status.
fn fail_thread(failure: Failure) -> ColStatus {
    let _ = THREAD_ERROR.try_with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = c_message(&failure.message);
        }
    });
    failure.status
}

/// The thread's last world-less error message (valid until the next such failure on the thread).
pub(crate) fn thread_error() -> *const c_char {
    THREAD_ERROR
        .try_with(|slot| slot.try_borrow().map(|s| s.as_ptr()).ok())
        .ok()
        .flatten()
        .unwrap_or(c"".as_ptr())
}

/// Runs a body that cannot fail; a panic (a bug) yields `fallback`.
pub(crate) fn catch_plain<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_call(body).unwrap_or(fallback)
}

/// Runs the body of an export that has no world yet (`colInit`); failures are kept per thread.
pub(crate) fn catch_global(body: impl FnOnce() -> Result<(), Failure>) -> ColStatus {
    match catch_call(body) {
        Ok(Ok(())) => COL_OK,
        Ok(Err(failure)) => fail_thread(failure),
        Err(panic) => fail_thread(Failure::new(
            COL_ERR_INTERNAL,
            format!("internal error: {panic}"),
        )),
    }
}

/// Whether a call may run while the world's callbacks are being dispatched, and while a
/// concurrent check (`colCheckBegin` to `colCheckEnd`) holds the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// Reads (`colGetObjectInfo`, queries): allowed in callbacks; refused with
    /// `COL_ERR_WORLD_LOCKED` while a concurrent check runs (the world is with the check).
    Any,
    /// Moves (`colSetTransform(d)`): allowed in callbacks and while a concurrent check runs.
    Move,
    /// Structural calls: refused with `COL_ERR_WORLD_LOCKED` inside callbacks and while a
    /// concurrent check runs.
    Structural,
    /// `colCheckEnd`: refused inside callbacks; the one call besides moves a running
    /// concurrent check takes.
    EndCheck,
}

/// Runs the body of export `name` on `world` behind the panic boundary: NULL world, poisoned
/// world, (for structural calls) callback dispatch and a running concurrent check are
/// answered first; a failure's message is stored on the world; a panic poisons it.
///
/// # Safety
/// `world` is NULL or a live pointer from `colInit` that `colExit` has not freed.
pub(crate) unsafe fn with_world(
    world: *const ColWorld,
    name: &str,
    access: Access,
    body: impl FnOnce(&ColWorld) -> Result<(), Failure>,
) -> ColStatus {
    if world.is_null() {
        return fail_thread(Failure::new(
            COL_ERR_NULL_ARGUMENT,
            format!("{name}: `world` is NULL"),
        ));
    }
    // SAFETY: the caller guarantees a live world; every export takes it shared (all mutation
    // goes through cells), so a callback's nested call may hold another shared reference.
    let world = unsafe { &*world };
    if world.is_poisoned() {
        return world.fail(Failure::new(COL_ERR_INTERNAL, POISONED_MESSAGE));
    }
    let structural = matches!(access, Access::Structural | Access::EndCheck);
    if structural && world.in_callback() {
        return world.fail(Failure::new(
            COL_ERR_WORLD_LOCKED,
            format!("{name} cannot be called from inside a collision callback"),
        ));
    }
    if matches!(access, Access::Any | Access::Structural) && world.check_running() {
        return world.fail(Failure::new(
            COL_ERR_WORLD_LOCKED,
            format!(
                "{name} cannot be called while a concurrent check runs (only colSetTransform(d) \
                 and colCheckEnd can, and colExit, which waits for the check)"
            ),
        ));
    }
    match catch_call(|| body(world)) {
        Ok(Ok(())) => COL_OK,
        Ok(Err(failure)) => {
            if failure.status == COL_ERR_INTERNAL {
                world.poison();
            }
            world.fail(failure)
        }
        Err(panic) => {
            world.poison();
            world.fail(Failure::new(
                COL_ERR_INTERNAL,
                format!("{name}: internal error: {panic}; the world is poisoned"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::c_void;

    use super::*;
    use crate::callback::ColCollision;
    use crate::lifecycle::{colCheck, colExit, colStart};
    use crate::mesh::ColMeshDesc;
    use crate::objects::colMakeCollidable;
    use crate::pairs::colSetGeneralCallback;
    use crate::status::COL_ERR_INTERNAL;
    use crate::test_support::{message, new_world};

    #[test]
    fn a_panic_poisons_the_world_and_colexit_still_frees_it() {
        let world = new_world();
        // SAFETY: a live world.
        let status = unsafe { with_world(world, "test", Access::Any, |_| panic!("boom")) };
        assert_eq!(status, COL_ERR_INTERNAL);
        assert!(message(world).contains("boom"), "{}", message(world));
        assert!(message(world).contains("poisoned"));
        // SAFETY: a live (poisoned) world.
        assert_eq!(unsafe { colStart(world) }, COL_ERR_INTERNAL);
        assert_eq!(message(world), POISONED_MESSAGE);
        // SAFETY: as above.
        assert_eq!(unsafe { colExit(world) }, COL_OK);
    }

    /// Selects the child mode of `quiet_panic_child`.
    const QUIET_CHILD: &str = "COLLDET_TEST_QUIET_PANIC_CHILD";

    /// Run by `caught_panics_print_nothing_on_stderr` in a child process (a no-op otherwise):
    /// caught panics in a world call and in a world-less call, then a panic outside colldet.
    #[test]
    fn quiet_panic_child() {
        if std::env::var_os(QUIET_CHILD).is_none() {
            return;
        }
        let world = new_world();
        // SAFETY: a live world.
        let status = unsafe { with_world(world, "test", Access::Any, |_| panic!("world boom")) };
        assert_eq!(status, COL_ERR_INTERNAL);
        let kept = message(world);
        assert!(kept.contains("world boom"), "{kept}");
        assert!(kept.contains("boundary.rs:"), "no location in `{kept}`");
        assert_eq!(catch_global(|| panic!("global boom")), COL_ERR_INTERNAL);
        let kept = message(std::ptr::null());
        assert!(kept.contains("global boom"), "{kept}");
        assert!(kept.contains("boundary.rs:"), "no location in `{kept}`");
        // SAFETY: a live (poisoned) world.
        assert_eq!(unsafe { colExit(world) }, COL_OK);
        // A world's pool thread: its panic is re-raised on the calling thread, caught there.
        let worker = std::thread::Builder::new()
            .name(format!("{WORKER_THREAD_PREFIX}test"))
            .spawn(|| panic!("worker boom"))
            .unwrap();
        assert!(worker.join().is_err());
        // Outside colldet's calls the previous hook (here the default one) still reports.
        assert!(std::panic::catch_unwind(|| panic!("host panic")).is_err());
    }

    /// Selects the child mode of `unwinding_child`.
    const UNWINDING_CHILD: &str = "COLLDET_TEST_UNWINDING_CHILD";

    /// Run by `a_first_call_during_unwinding_is_answered` in a child process (a no-op
    /// otherwise): the process's first colldet call comes from a destructor run by unwinding,
    /// where setting the hook would panic and abort; a later call installs it.
    #[test]
    fn unwinding_child() {
        if std::env::var_os(UNWINDING_CHILD).is_none() {
            return;
        }
        struct CallsOnDrop;
        impl Drop for CallsOnDrop {
            fn drop(&mut self) {
                assert_eq!(catch_global(|| Ok(())), COL_OK);
            }
        }
        let unwound = std::panic::catch_unwind(|| {
            let _guard = CallsOnDrop;
            panic!("host unwinding");
        });
        assert!(unwound.is_err());
        assert_eq!(catch_global(|| panic!("later boom")), COL_ERR_INTERNAL);
        assert!(message(std::ptr::null()).contains("later boom"));
    }

    /// Runs this test binary again with only `child` and `variable` set (which makes `child`
    /// do its work); asserts that it passed and returns its stderr.
    fn run_child(child: &str, variable: &str) -> String {
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", child, "--nocapture"])
            .args(["--test-threads", "1"])
            .env(variable, "1")
            .env("RUST_BACKTRACE", "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(
            output.status.success() && stdout.contains("1 passed"),
            "child failed:\n{stdout}\n{stderr}"
        );
        stderr
    }

    #[test]
    fn a_first_call_during_unwinding_is_answered() {
        let stderr = run_child("boundary::tests::unwinding_child", UNWINDING_CHILD);
        assert!(stderr.contains("host unwinding"), "{stderr}");
        assert!(!stderr.contains("later boom"), "{stderr}");
    }

    #[test]
    fn caught_panics_print_nothing_on_stderr() {
        let stderr = run_child("boundary::tests::quiet_panic_child", QUIET_CHILD);
        assert!(
            !stderr.contains("boom"),
            "a caught panic reached stderr:\n{stderr}"
        );
        assert!(
            stderr.contains("host panic"),
            "the previous hook was not called:\n{stderr}"
        );
    }

    #[test]
    fn a_panic_without_a_world_is_reported_per_thread() {
        let status = catch_global(|| panic!("no world"));
        assert_eq!(status, COL_ERR_INTERNAL);
        assert!(message(std::ptr::null()).contains("no world"));
    }

    /// A collision callback whose nested call panics: the check stops dispatching, returns
    /// `COL_ERR_INTERNAL`, and the world is poisoned but unlocked (colExit frees it).
    unsafe extern "C" fn panicking_nested_call(_: *const ColCollision, user: *mut c_void) {
        let world = user.cast::<ColWorld>();
        // SAFETY: `user` is the live world being checked.
        let status = unsafe { with_world(world, "nested", Access::Any, |_| panic!("nested")) };
        assert_eq!(status, COL_ERR_INTERNAL);
    }

    #[test]
    fn a_panic_inside_a_callback_poisons_the_world() {
        let world = new_world();
        let vertices: [f32; 12] = [0., 0., 0., 1., 0., 0., 0., 1., 0., 0., 0., 1.];
        let indices: [u32; 12] = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];
        let desc = ColMeshDesc {
            vertices: vertices.as_ptr(),
            vertex_count: 4,
            indices: indices.as_ptr(),
            face_sizes: std::ptr::null(),
            face_count: 4,
        };
        let mut id = 0;
        // SAFETY: valid pointers and a live world throughout.
        unsafe {
            for _ in 0..2 {
                assert_eq!(
                    colMakeCollidable(world, &desc, std::ptr::null_mut(), &mut id),
                    COL_OK
                );
            }
            assert_eq!(
                colSetGeneralCallback(world, Some(panicking_nested_call), world.cast()),
                COL_OK
            );
            assert_eq!(colStart(world), COL_OK);
            assert_eq!(colCheck(world), COL_ERR_INTERNAL);
            assert!(!(*world).in_callback());
            assert_eq!(message(world), POISONED_MESSAGE);
            assert_eq!(colExit(world), COL_OK);
        }
    }
}
