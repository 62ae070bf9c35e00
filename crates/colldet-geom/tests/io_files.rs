//! Mesh file input through the public API: fixture files (tidy ones and ones as real exporters
//! write them, with the warnings they give), text round trips of a known cube in every supported
//! dialect, randomized round trips, and the shared scene meshes when present.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use colldet_geom::io::{
    LoadedMesh, MeshFormat, ReadWarning, WarningKind, load_mesh, load_mesh_with_warnings, load_obj,
    load_off, read_obj, read_off,
};
use colldet_geom::math::Point;
use colldet_geom::{FaceList, GeomError, MeshData};
use colldet_testkit::SplitMix64;

/// The fixture box: x in {-0.1, 0.3}, y in {-2.5, 0.001}, z in {1e-12, 7.25}; vertex
/// `i = x + 2y + 4z` (bits), six outward counter-clockwise quads.
fn cube() -> MeshData {
    let xs = [-0.1f32, 0.3];
    let ys = [-2.5f32, 0.001];
    let zs = [1e-12f32, 7.25];
    let vertices = (0..8)
        .map(|i| Point::new(xs[i & 1], ys[(i >> 1) & 1], zs[(i >> 2) & 1]))
        .collect();
    let mut faces = FaceList::new();
    for quad in [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ] {
        faces.push(&quad);
    }
    MeshData::new(vertices, faces)
}

/// Exact equality, including the sign of zero (which `==` on floats ignores).
#[track_caller]
fn assert_identical(found: &MeshData, expected: &MeshData) {
    assert_eq!(found.faces, expected.faces);
    assert_eq!(found.vertices.len(), expected.vertices.len());
    for (v, (a, b)) in found.vertices.iter().zip(&expected.vertices).enumerate() {
        let bits = |p: &Point| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()];
        assert_eq!(bits(a), bits(b), "vertex {v}: {a} vs {b}");
    }
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Which OFF dialect to write.
#[derive(Clone, Copy)]
enum OffDialect {
    Plain,
    Colour,
    Normal,
}

/// Writes `mesh` as OFF text; coordinates use Rust's shortest round-tripping formatting, in
/// exponent form when `exponent` is set.
fn write_off(mesh: &MeshData, dialect: OffDialect, exponent: bool) -> String {
    let keyword = match dialect {
        OffDialect::Plain => "OFF",
        OffDialect::Colour => "COFF",
        OffDialect::Normal => "NOFF",
    };
    let mut text = format!(
        "{keyword}\n# written by the test\n{} {} 0\n",
        mesh.vertices.len(),
        mesh.faces.len()
    );
    for (i, p) in mesh.vertices.iter().enumerate() {
        if exponent {
            write!(text, "{:e} {:e} {:e}", p.x, p.y, p.z).unwrap();
        } else {
            write!(text, "{} {} {}", p.x, p.y, p.z).unwrap();
        }
        match dialect {
            OffDialect::Plain => {}
            OffDialect::Colour if i % 2 == 0 => text.push_str(" 255 128 0"),
            OffDialect::Colour => text.push_str(" 0.25 0.5 0.75 1"),
            OffDialect::Normal => text.push_str(" 0 0.6 -0.8"),
        }
        text.push('\n');
    }
    for face in mesh.faces.iter() {
        write!(text, "{}", face.len()).unwrap();
        for i in face {
            write!(text, " {i}").unwrap();
        }
        text.push('\n');
    }
    text
}

/// Writes `mesh` as OBJ text: vertices in two objects, corners cycling through the `i`,
/// `i/j`, `i/j/k` and `i//k` forms, every other face with negative (relative) indices written
/// after all vertices.
fn write_obj(mesh: &MeshData, exponent: bool) -> String {
    let mut text = String::from("# written by the test\no first\nvt 0 0\nvn 0 0 1\n");
    let n = mesh.vertices.len();
    for (i, p) in mesh.vertices.iter().enumerate() {
        if i == n / 2 {
            text.push_str("o second\ng part\n");
        }
        if exponent {
            writeln!(text, "v {:e} {:e} {:e}", p.x, p.y, p.z).unwrap();
        } else {
            writeln!(text, "v {} {} {}", p.x, p.y, p.z).unwrap();
        }
    }
    let mut corner = 0usize;
    for (f, face) in mesh.faces.iter().enumerate() {
        text.push('f');
        for &i in face {
            let index = if f % 2 == 0 {
                i64::from(i) + 1
            } else {
                i64::from(i) - n as i64
            };
            match corner % 4 {
                0 => write!(text, " {index}"),
                1 => write!(text, " {index}/1"),
                2 => write!(text, " {index}/1/1"),
                _ => write!(text, " {index}//-1"),
            }
            .unwrap();
            corner += 1;
        }
        text.push('\n');
    }
    text
}

#[test]
fn cube_round_trips_in_every_dialect() {
    let cube = cube();
    for dialect in [OffDialect::Plain, OffDialect::Colour, OffDialect::Normal] {
        for exponent in [false, true] {
            let text = write_off(&cube, dialect, exponent);
            assert_identical(&read_off(&text).unwrap(), &cube);
        }
    }
    for exponent in [false, true] {
        let text = write_obj(&cube, exponent);
        assert!(text.contains("f -4 -3/1 -1/1/1 -2//-1"), "{text}");
        assert_identical(&read_obj(&text).unwrap(), &cube);
    }
}

#[test]
fn fixture_files_load_as_the_cube() {
    let cube = cube();
    for name in ["cube_quads.off", "cube_colour.OFF", "cube.obj"] {
        let path = data(name);
        assert_identical(&load_mesh(&path).unwrap(), &cube);
        let by_format = match MeshFormat::from_path(&path).unwrap() {
            MeshFormat::Off => load_off(&path),
            MeshFormat::Obj => load_obj(&path),
        };
        assert_identical(&by_format.unwrap(), &cube);
    }
}

/// `name` loaded with its warnings; panics naming the file on an error.
fn loaded(name: &str) -> LoadedMesh {
    let path = data(name);
    let loaded = load_mesh_with_warnings(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(load_mesh(&path).unwrap(), loaded.mesh, "{name}");
    let text = std::fs::read_to_string(&path).unwrap();
    let format = MeshFormat::from_path(&path).unwrap();
    assert_eq!(format.read_with_warnings(&text).unwrap(), loaded, "{name}");
    loaded
}

/// The warnings of `loaded` as their messages.
fn messages(loaded: &LoadedMesh) -> Vec<String> {
    loaded.warnings.iter().map(ReadWarning::to_string).collect()
}

#[test]
fn tidy_fixture_files_give_no_warnings() {
    for name in ["cube_quads.off", "cube_colour.OFF"] {
        assert!(loaded(name).warnings.is_empty(), "{name}");
    }
}

#[test]
fn exporter_obj_skips_every_statement_without_geometry() {
    let loaded = loaded("obj_real_world_exporter.obj");
    assert_identical(&loaded.mesh, &cube());
    assert_eq!(
        messages(&loaded),
        [
            "1 line of `mtllib` skipped (line 3)",
            "1 line of `o` skipped (line 4)",
            "4 lines of `vt` skipped (first at line 13)",
            "6 lines of `vn` skipped (first at line 17)",
            "1 line of `vp` skipped (line 23)",
            "1 line of `s` skipped (line 24)",
            "1 line of `usemtl` skipped (line 25)",
            "1 line of `g` skipped (line 26)",
            "1 line of `l` skipped (line 33)",
            "1 line of `p` skipped (line 34)",
        ]
    );
    assert_eq!(
        loaded.warnings[2].kind,
        WarningKind::IgnoredStatement {
            keyword: "vt".into()
        }
    );
    assert_eq!(loaded.warnings[2].excerpt, "vt 0.0 0.0");
}

#[test]
fn leading_count_line_and_relative_corners_load_as_the_cube() {
    let loaded = loaded("obj_real_world_count_line.obj");
    assert_identical(&loaded.mesh, &cube());
    assert_eq!(
        messages(&loaded),
        [
            "1 leading count line skipped (line 1: `8`)",
            "1 line of `vn` skipped (line 7)",
            "1 line of `vt` skipped (line 8)",
        ]
    );
    assert_eq!(loaded.warnings[0].kind, WarningKind::LeadingCount);
}

#[test]
fn unknown_statements_are_skipped_and_named() {
    let loaded = loaded("obj_real_world_unknown_statements.obj");
    assert_identical(&loaded.mesh, &cube());
    assert_eq!(
        messages(&loaded),
        [
            "1 line of unknown statement `cstype` skipped (line 10)",
            "1 line of unknown statement `deg` skipped (line 11)",
            "1 line of unknown statement `curv` skipped (line 12)",
            "1 line of unknown statement `parm` skipped (line 13)",
            "1 line of unknown statement `end` skipped (line 14)",
            "2 lines of unknown statement `colour` skipped (first at line 15)",
        ]
    );
}

#[test]
fn off_trailing_content_is_skipped_with_a_warning() {
    let loaded = loaded("off_trailing_content.off");
    assert_identical(&loaded.mesh, &cube());
    assert_eq!(
        loaded.warnings,
        [ReadWarning {
            line: 19,
            kind: WarningKind::TrailingContent { declared_faces: 6 },
            count: 2,
            excerpt: "3 0 1 2".into(),
        }]
    );
    assert_eq!(
        messages(&loaded),
        ["2 lines after the last of the 6 declared faces skipped (first at line 19: `3 0 1 2`)"]
    );
}

#[test]
fn f64_coordinates_are_kept_bit_exactly() {
    let loaded = loaded("obj_f64_coordinates.obj");
    assert!(loaded.warnings.is_empty());
    let mesh = &loaded.mesh;
    let precise = mesh
        .precise_vertices()
        .expect("4000.1, 0.1 and 1e-9 are not f32 numbers");
    assert_eq!(
        [precise[0].x, precise[0].y, precise[0].z].map(f64::to_bits),
        [4000.1f64, 0.1, 1e-9].map(f64::to_bits)
    );
    assert_eq!(precise[1].x, 4001.0);
    assert_eq!(mesh.vertices[0], Point::new(4000.1, 0.1, 1e-9));
    assert_eq!(mesh.vertex_f64(0), precise[0]);
    // The fixture box's decimals are not f32 numbers either: files are read in f64.
    let cube_file = loaded_precise("cube_quads.off");
    assert_eq!(cube_file[0].x, -0.1f64);
    assert_eq!(cube_file[2].y, 0.001f64);
}

/// The `f64` vertices of fixture `name`, which must have some.
fn loaded_precise(name: &str) -> Vec<colldet_geom::math::PointD> {
    let loaded = loaded(name);
    loaded
        .mesh
        .precise_vertices()
        .unwrap_or_else(|| panic!("{name}: no f64 vertices"))
        .to_vec()
}

#[test]
fn malformed_vertex_and_face_lines_fail_with_their_line() {
    for (name, line, fragment) in [
        ("obj_malformed_vertex.obj", 5, "vertex 2: `v` has 2 values"),
        (
            "obj_malformed_face.obj",
            7,
            "face 0: corner `3/1/1/1` is not i, i/j, i/j/k or i//k",
        ),
    ] {
        for result in [load_mesh(&data(name)), load_obj(&data(name))] {
            match result {
                Err(GeomError::Parse {
                    line: found,
                    message,
                }) => {
                    assert_eq!(found, line, "{name}: {message}");
                    assert!(message.contains(fragment), "{name}: {message}");
                }
                other => panic!("{name}: expected a parse error on line {line}, got {other:?}"),
            }
        }
        assert!(load_mesh_with_warnings(&data(name)).is_err(), "{name}");
    }
}

#[test]
fn load_errors_name_the_path_or_line() {
    match load_mesh(Path::new("no/such/dir/mesh.stl")) {
        Err(GeomError::UnsupportedMeshFormat { path }) => assert_eq!(path, "no/such/dir/mesh.stl"),
        other => panic!("expected UnsupportedMeshFormat, got {other:?}"),
    }
    let missing = data("does-not-exist.off");
    match load_mesh(&missing) {
        Err(GeomError::Io { path, source }) => {
            assert_eq!(path, missing.display().to_string());
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("expected Io, got {other:?}"),
    }
    // Invalid UTF-8 (a lone 0xff byte) on line 3.
    let path = std::env::temp_dir().join(format!("colldet-io-{}-latin1.off", std::process::id()));
    std::fs::write(&path, b"OFF\n3 1 0\n0 0 0 \xff\n1 0 0\n0 1 0\n3 0 1 2\n").unwrap();
    let result = load_mesh(&path);
    std::fs::remove_file(&path).unwrap();
    match result {
        Err(GeomError::Parse { line, message }) => {
            assert_eq!(line, 3);
            assert!(message.contains("UTF-8"), "{message}");
        }
        other => panic!("expected a parse error on line 3, got {other:?}"),
    }
}

/// Any finite f32 (all exponents, subnormals and both zeros included), or a small "typical"
/// coordinate.
fn coordinate(rng: &mut SplitMix64) -> f32 {
    if rng.below_u64(2) == 0 {
        return (rng.below_u64(2001) as f32 - 1000.0) / 64.0;
    }
    loop {
        let x = f32::from_bits(rng.next_u64() as u32);
        if x.is_finite() {
            return x;
        }
    }
}

#[test]
fn random_meshes_round_trip_exactly() {
    let mut rng = SplitMix64(0x0ff0_0b1e);
    let cases = 3000;
    for case in 0..cases {
        let vertex_count = 1 + rng.below_u64(12) as usize;
        let vertices: Vec<Point> = (0..vertex_count)
            .map(|_| {
                Point::new(
                    coordinate(&mut rng),
                    coordinate(&mut rng),
                    coordinate(&mut rng),
                )
            })
            .collect();
        let mut faces = FaceList::new();
        for _ in 0..1 + rng.below_u64(8) {
            let size = 3 + rng.below_u64(5) as usize;
            // Repeated indices (degenerate faces) are allowed and must survive.
            let face: Vec<u32> = (0..size)
                .map(|_| rng.below_u64(vertex_count as u64) as u32)
                .collect();
            faces.push(&face);
        }
        let mesh = MeshData::new(vertices, faces);
        let exponent = case % 2 == 0;
        let dialect = [OffDialect::Plain, OffDialect::Colour, OffDialect::Normal][case % 3];
        let off = write_off(&mesh, dialect, exponent);
        assert_identical(&read_off(&off).unwrap(), &mesh);
        let obj = write_obj(&mesh, exponent);
        assert_identical(&read_obj(&obj).unwrap(), &mesh);
    }
}

/// The shared scene directory: `../shared/scenes` next to the repository (as in CI), else the
/// absolute location on the development machine.
fn shared_mesh(name: &str) -> Option<PathBuf> {
    let beside_repo =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/scenes/zoo-meshes");
    [beside_repo, PathBuf::from("/work/shared/scenes/zoo-meshes")]
        .into_iter()
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// Every mesh of the shared scenes loads, and has what the scene format promises (FORMAT.md):
/// triangles only, no unused vertices, closed (so each edge is shared by two faces and the face
/// count is even).
#[test]
fn every_shared_scene_mesh_loads() {
    let Some(pinion) = shared_mesh("pinion.off") else {
        println!("note: shared scenes not found beside the repository; skipping");
        return;
    };
    let scenes = pinion.parent().unwrap().parent().unwrap();
    let mut loaded = 0;
    for dir in ["zoo-meshes", "broad-meshes", "ccd-meshes", "cw-meshes"] {
        let Ok(entries) = std::fs::read_dir(scenes.join(dir)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if MeshFormat::from_path(&path).is_err() {
                continue;
            }
            let mesh = load_mesh(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut used = vec![false; mesh.vertices.len()];
            for face in mesh.faces.iter() {
                assert_eq!(face.len(), 3, "{}", path.display());
                for &i in face {
                    used[i as usize] = true;
                }
            }
            assert!(used.iter().all(|&u| u), "{}: unused vertex", path.display());
            assert!(
                mesh.faces.len().is_multiple_of(2),
                "{}: odd face count",
                path.display()
            );
            loaded += 1;
        }
    }
    println!("loaded {loaded} shared scene meshes");
    assert!(loaded >= 1);
}

#[test]
fn pinion_loads_with_its_counts() {
    let Some(path) = shared_mesh("pinion.off") else {
        println!("note: pinion.off not found beside the repository; skipping");
        return;
    };
    let mesh = load_mesh(&path).unwrap();
    assert_eq!(mesh.vertices.len(), 650);
    assert_eq!(mesh.faces.len(), 1300);
    assert!(mesh.faces.iter().all(|f| f.len() == 3));
    // First vertex line of the file (`0.0378935499 0.225747622 -0.97241477`) as f32.
    assert_eq!(
        mesh.vertices[0],
        Point::new(0.037_893_55, 0.225_747_62, -0.972_414_8)
    );
}

#[test]
fn bunny_loads_with_its_counts() {
    let Some(path) = shared_mesh("bunny00.off") else {
        println!("note: bunny00.off not found beside the repository; skipping");
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let start = Instant::now();
    let mesh = read_off(&text).unwrap();
    let elapsed = start.elapsed();
    println!(
        "bunny00.off: {} bytes, {} vertices, {} faces parsed in {:.2} ms",
        text.len(),
        mesh.vertices.len(),
        mesh.faces.len(),
        elapsed.as_secs_f64() * 1e3
    );
    assert_eq!(mesh.vertices.len(), 37706);
    assert_eq!(mesh.faces.len(), 75408);
}
