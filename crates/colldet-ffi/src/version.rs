//! The library version, from Cargo.toml (the header's `COLLDET_VERSION_*` macros come from the
//! same place when it is generated).

use std::ffi::c_char;

use crate::boundary::catch_plain;

/// The library version as `"MAJOR.MINOR.PATCH"`, equal to the header's `COLLDET_VERSION_STRING`
/// when header and library match.
///
/// # Safety
/// Always safe to call, from any thread. The string is static: never free it.
#[unsafe(no_mangle)]
pub extern "C" fn colGetVersion() -> *const c_char {
    catch_plain(c"".as_ptr(), || {
        concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
    })
}
