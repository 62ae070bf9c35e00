//! `include/colldet.h` is exactly what cbindgen generates from this crate now, with the version
//! macros taken from Cargo.toml. `COLLDET_BLESS=1` rewrites it (what `make header` does).

use std::path::Path;

/// The version macros, from this package's Cargo.toml (via Cargo's environment).
fn version_defines() -> String {
    format!(
        "\n#define COLLDET_VERSION_MAJOR {}\n#define COLLDET_VERSION_MINOR {}\n\
         #define COLLDET_VERSION_PATCH {}\n#define COLLDET_VERSION_STRING \"{}\"",
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH"),
        env!("CARGO_PKG_VERSION"),
    )
}

fn generate() -> String {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml parses");
    config.after_includes = Some(version_defines());
    let mut out = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut out);
    String::from_utf8(out).expect("the header is UTF-8")
}

#[test]
fn committed_header_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../include/colldet.h");
    let generated = generate();
    if std::env::var_os("COLLDET_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &generated).expect("include/colldet.h is writable");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let first_difference = committed
            .lines()
            .zip(generated.lines())
            .position(|(c, g)| c != g)
            .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
        panic!(
            "include/colldet.h is out of date (first difference at line {}: committed {:?}, \
             generated {:?}); run `make header` (COLLDET_BLESS=1 cargo test -p colldet-ffi \
             --test header) and commit the result",
            first_difference + 1,
            committed.lines().nth(first_difference),
            generated.lines().nth(first_difference),
        );
    }
}

#[test]
fn header_declares_the_contract() {
    let header = generate();
    for declaration in [
        "#define COL_OK 0",
        "#define COL_ERR_INTERNAL 8",
        "#define COL_WITNESS_SUPPORT_VERTICES 1",
        "typedef struct ColWorld ColWorld;",
        "typedef uint64_t ColObjectId;",
        "typedef void (*ColCollisionCallback)(const struct ColCollision *c, void *user);",
        "ColStatus colCheck(struct ColWorld *world);",
        "#define COL_EVENT_BEGIN 0",
        "#define COL_EVENT_PERSIST 1",
        "#define COL_EVENT_END 2",
        "typedef void (*ColEventCallback)(const struct ColContactEvent *e, void *user);",
        "ColStatus colSetEventCallback(struct ColWorld *world, ColEventCallback cb, void *user);",
        "ColStatus colSetGroup(struct ColWorld *world, ColObjectId id, uint32_t group, uint32_t mask);",
    ] {
        assert!(
            header.contains(declaration),
            "the header lacks {declaration:?}"
        );
    }
    let exports =
        header.matches("\nColStatus col").count() + header.matches("\nconst char *col").count();
    let safety_sections = header.matches(" * # Safety").count();
    assert!(exports >= 14, "only {exports} exports found");
    assert_eq!(
        safety_sections,
        exports + 1,
        "every export (and colDefaultConfig) has # Safety"
    );
}
