//! Fuzz bodies for colldet-geom: the OFF and OBJ readers, and polyhedron building and
//! classification. Each body takes the fuzzer's bytes, must not panic or hang on any input, and
//! asserts the invariants listed on it (a failed assertion is a finding).
//!
//! Shared by the cargo-fuzz crate (`fuzz/`) and the stable replay test
//! `crates/colldet-geom/tests/fuzz_corpus_replay.rs` (included there with `#[path]`).

use colldet_geom::dcel::FaceId;
use colldet_geom::io::{EXCERPT_CHARS, read_obj, read_off, read_off_positions};
use colldet_geom::math::Point;
use colldet_geom::{BuildOptions, ConvexPolytope, FaceList, GeomError, MeshData, Polyhedron};

/// Meshes above this many vertices or indices are parsed but not built (keeps each run short).
const MAX_BUILD_SIZE: usize = 4096;

/// The number of lines of `text` as the readers count them (`\n`, `\r\n` and a lone `\r` each
/// end a line; text after the last end is a line; at least 1): the largest line an error may
/// name.
fn line_count(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut lines = 0;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at..].iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(end) => {
                let end = at + end;
                at = if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') {
                    end + 2
                } else {
                    end + 1
                };
            }
            None => at = bytes.len(),
        }
        lines += 1;
    }
    lines.max(1)
}

/// Invariants of a reader's error on `text`: a parse error names a line of the text (a UTF-8
/// byte-order mark does not count), and every message stays short however long the offending
/// token is (tokens are quoted as bounded excerpts).
fn check_error(text: &str, error: &GeomError) {
    if let GeomError::Parse { line, .. } = error {
        let lines = line_count(text);
        assert!(
            (1..=lines).contains(line),
            "parse error at line {line} of a {lines}-line text: {error}"
        );
    }
    let message = error.to_string();
    assert!(
        message.len() <= 8 * EXCERPT_CHARS + 256,
        "{}-byte error message: {}",
        message.len(),
        colldet_geom::io::excerpt(&message)
    );
}

/// Invariants of a mesh a reader accepted: it validates, and a small one goes through
/// [`check_build`].
fn check_read_mesh(mesh: &MeshData) {
    if let Err(e) = mesh.validate() {
        panic!("reader returned a mesh that does not validate: {e}");
    }
    if mesh.vertices.len() <= MAX_BUILD_SIZE && mesh.faces.index_count() <= MAX_BUILD_SIZE {
        check_build(mesh);
    }
}

/// OFF reader: `read_off` on the bytes (lossily decoded as UTF-8). Invariants: no panic; errors
/// as [`check_error`]; an accepted mesh as [`check_read_mesh`]; `read_off_positions::<f32>`
/// accepts exactly what `read_off` accepts and returns its vertices; `read_off_positions::<f64>`
/// accepts everything `read_off` accepts, with as many vertices.
pub fn off_reader(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let read = read_off(&text);
    let positions = read_off_positions::<f32>(&text);
    match (&read, &positions) {
        (Ok(mesh), Ok(positions)) => {
            assert_eq!(positions.len(), mesh.vertices.len());
            for (p, v) in positions.iter().zip(&mesh.vertices) {
                assert_eq!(
                    p.map(f32::to_bits),
                    [v.x, v.y, v.z].map(f32::to_bits),
                    "read_off_positions::<f32> and read_off disagree"
                );
            }
            match read_off_positions::<f64>(&text) {
                Ok(wide) => assert_eq!(wide.len(), mesh.vertices.len()),
                Err(e) => panic!("read_off accepts, read_off_positions::<f64> rejects: {e}"),
            }
            check_read_mesh(mesh);
        }
        (Err(e), Err(f)) => {
            check_error(&text, e);
            check_error(&text, f);
        }
        (Ok(_), Err(e)) => panic!("read_off accepts, read_off_positions::<f32> rejects: {e}"),
        (Err(e), Ok(_)) => panic!("read_off rejects ({e}), read_off_positions::<f32> accepts"),
    }
}

/// OBJ reader: `read_obj` on the bytes (lossily decoded as UTF-8). Invariants: no panic; errors
/// as [`check_error`]; an accepted mesh as [`check_read_mesh`].
pub fn obj_reader(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match read_obj(&text) {
        Ok(mesh) => check_read_mesh(&mesh),
        Err(e) => check_error(&text, &e),
    }
}

/// A cursor over the fuzzer's bytes; reads past the end give `None`.
struct Bytes<'a> {
    data: &'a [u8],
}

impl Bytes<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.data.split_first()?;
        self.data = rest;
        Some(first)
    }

    fn f32_bits(&mut self) -> Option<f32> {
        let mut bits = [0u8; 4];
        for b in &mut bits {
            *b = self.byte()?;
        }
        Some(f32::from_le_bytes(bits))
    }
}

/// Special coordinates the decoder can pick: signed zeros, units, the `f32` extremes, subnormals,
/// values around `MAX_COORDINATE`, NaN and infinities.
const SPECIAL: [f32; 16] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    f32::MAX,
    f32::MIN,
    f32::MIN_POSITIVE,
    1e-45,
    1e18,
    -1e18,
    1e30,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::EPSILON,
];

/// Decodes a mesh from bytes: a vertex count (0 to 32), then per vertex a tag byte choosing raw
/// `f32` bits (NaN, infinities, huge and subnormal values included), three special values
/// ([`SPECIAL`]) or (most tags) three small grid coordinates `i8 / 4` (so that vertices coincide
/// and faces are coplanar or collinear often); then faces until the bytes end: a size byte
/// (0 to 8, so faces with fewer than 3 corners occur) and one byte per corner: `255` is
/// `u32::MAX`, `254` is the vertex count (one past the end), others are taken modulo the vertex
/// count. The mesh is not validated.
pub fn decode_mesh(data: &[u8]) -> MeshData {
    let mut bytes = Bytes { data };
    let n = usize::from(bytes.byte().unwrap_or(0) % 33);
    let mut vertices = Vec::with_capacity(n);
    while vertices.len() < n {
        let Some(tag) = bytes.byte() else { break };
        let xyz = match tag % 8 {
            0 => [bytes.f32_bits(), bytes.f32_bits(), bytes.f32_bits()],
            1 => [(); 3].map(|()| bytes.byte().map(|b| SPECIAL[usize::from(b % 16)])),
            _ => [(); 3].map(|()| bytes.byte().map(|b| f32::from(b as i8) / 4.0)),
        };
        let [Some(x), Some(y), Some(z)] = xyz else {
            break;
        };
        vertices.push(Point::new(x, y, z));
    }
    let count = u32::try_from(vertices.len()).unwrap_or(u32::MAX);
    let mut faces = FaceList::new();
    let mut corners = Vec::new();
    while let Some(size) = bytes.byte() {
        corners.clear();
        for _ in 0..size % 9 {
            let Some(b) = bytes.byte() else { break };
            corners.push(match b {
                255 => u32::MAX,
                254 => count,
                _ => u32::from(b) % count.max(1),
            });
        }
        faces.push(&corners);
    }
    MeshData::new(vertices, faces)
}

/// Mesh building and classification: [`decode_mesh`], then [`check_build`].
pub fn mesh_build(data: &[u8]) {
    check_build(&decode_mesh(data));
}

/// `Polyhedron::build` on `mesh` (validated or not). Invariants: no panic; it rejects exactly
/// what `MeshData::validate` rejects, with the same error, plus only `CoordinateTooLarge` and
/// `AllFacesDegenerate`; a built polyhedron as [`check_polyhedron`].
pub fn check_build(mesh: &MeshData) {
    let valid = mesh.validate();
    let built = Polyhedron::build(mesh.clone(), &BuildOptions::default());
    match (valid, built) {
        (Err(v), Err(b)) => assert_eq!(v.to_string(), b.to_string()),
        (Err(v), Ok(_)) => panic!("build accepted a mesh that validate rejects: {v}"),
        (Ok(()), Err(b)) => assert!(
            matches!(
                b,
                GeomError::CoordinateTooLarge { .. } | GeomError::AllFacesDegenerate { .. }
            ),
            "build rejected a valid mesh: {b:?}"
        ),
        (Ok(()), Ok(p)) => check_polyhedron(mesh, &p),
    }
}

/// Invariants of a polyhedron built from `mesh`: vertices kept as given; a valid DCEL; kept
/// faces plus dropped degenerate faces make the input faces; every face maps to an input face
/// and has a unit (or zero) finite normal, equal to its corners' normal where that is well
/// conditioned ([`well_conditioned_normal`]); the classification's flags agree with its lists and
/// `convex` implies everything it summarises; a convex polyhedron makes a valid `ConvexPolytope`
/// and has every vertex behind (within a small tolerance) every face plane.
pub fn check_polyhedron(mesh: &MeshData, p: &Polyhedron) {
    assert_eq!(p.vertices(), &mesh.vertices[..]);
    let dcel = p.dcel();
    if let Err(e) = dcel.validate() {
        panic!("invalid DCEL: {e:?}");
    }
    assert_eq!(dcel.vertex_count(), mesh.vertices.len());
    let c = p.classification();
    assert_eq!(
        dcel.face_count() + c.degenerate_faces_dropped,
        mesh.faces.len(),
        "kept + dropped faces"
    );
    for f in 0..dcel.face_count() {
        let id = FaceId(f as u32);
        let source = p.face_source(id) as usize;
        assert!(
            source < mesh.faces.len(),
            "face {f} from input face {source}"
        );
        let n = p.face_normal(id);
        let len = n.norm();
        assert!(
            n.iter().all(|x| x.is_finite()) && (len == 0.0 || (len - 1.0).abs() < 1e-4),
            "face {f} normal {n:?}"
        );
        if let Some(direction) = well_conditioned_normal(p, dcel.faces().face(f)) {
            let agreement = n.map(f64::from).dot(&direction);
            assert!(
                agreement > 1.0 - 1e-4,
                "face {f}: normal {n:?}, its corners' normal {direction:?}"
            );
        }
    }
    assert_eq!(
        c.manifold,
        c.non_manifold_edges.is_empty() && c.non_manifold_vertices.is_empty()
    );
    assert!(!c.closed || c.boundary_edge_count == 0, "{c:?}");
    assert_eq!(c.planar_faces, c.non_planar_faces.is_empty());
    assert_eq!(c.convex_faces, c.non_convex_faces.is_empty());
    assert_eq!(
        c.input_consistently_oriented,
        c.orientation_conflicts.is_empty()
    );
    assert!(
        c.components >= 1 && c.components <= dcel.face_count(),
        "{c:?}"
    );
    assert!(c.flipped_faces <= dcel.face_count());
    assert!(c.internal_edge_count <= dcel.edge_count());
    if c.convex {
        assert!(
            c.manifold
                && c.closed
                && c.oriented
                && c.components == 1
                && c.euler_characteristic == 2
                && c.planar_faces
                && c.convex_faces
                && c.internal_edge_count == 0,
            "convex but {c:?}"
        );
        match ConvexPolytope::from_polyhedron(p) {
            Ok(polytope) => {
                if let Err(e) = polytope.validate() {
                    panic!("invalid ConvexPolytope from a convex polyhedron: {e}");
                }
            }
            Err(e) => panic!("convex polyhedron but no ConvexPolytope: {e}"),
        }
        check_convex_planes(p);
    }
}

/// The unit normal of `face` from its corners, `sum (p_i - p_0) x (p_{i+1} - p_0)` in `f64`, when
/// that sum is well conditioned: at least `1e-6` of `sum |p_i - p_0| |p_{i+1} - p_0|` (the sine of
/// the face's angles, roughly). Slivers below that bound (thin faces, or coordinates spanning
/// more binades than an `f64` difference keeps) have no reliable normal and give `None`.
/// Found by `mesh_build`: `corpus/mesh_build/sliver_face_normal_wrong_subnormal_coordinates.bin`
/// is a tetrahedron whose face with corners near `1e-38` and at `z = 512` got a stored normal
/// 90 degrees off (Newell's sum relative to the first corner lost the small coordinates); the
/// normal is now summed from adaptive `orient2d` areas (`normal.rs`, tested there on that face).
/// This oracle, a plain `f64` sum, is still only trusted when well conditioned.
fn well_conditioned_normal(p: &Polyhedron, face: &[u32]) -> Option<nalgebra::Vector3<f64>> {
    let point = |v: u32| p.vertices()[v as usize].map(f64::from);
    let origin = point(face[0]);
    let (mut sum, mut scale) = (nalgebra::Vector3::zeros(), 0.0);
    for pair in face[1..].windows(2) {
        let (a, b) = (point(pair[0]) - origin, point(pair[1]) - origin);
        sum += a.cross(&b);
        scale += a.norm() * b.norm();
    }
    let len = sum.norm();
    (len > 1e-6 * scale && len.is_finite() && len > 0.0).then(|| sum / len)
}

/// Every used vertex of a convex polyhedron lies behind the plane of every face with a
/// well-conditioned normal ([`well_conditioned_normal`]), up to `1e-4` of the bounding-box diagonal (planarity and reflex tests of polygons use a `1e-5` tolerance; the
/// normals are rounded to `f32`).
fn check_convex_planes(p: &Polyhedron) {
    let dcel = p.dcel();
    let used: Vec<u32> = {
        let mut used: Vec<u32> = dcel.faces().iter().flatten().copied().collect();
        used.sort_unstable();
        used.dedup();
        used
    };
    let point = |v: u32| p.vertices()[v as usize].map(f64::from);
    let (mut lo, mut hi) = (point(used[0]), point(used[0]));
    for &v in &used {
        lo = lo.inf(&point(v));
        hi = hi.sup(&point(v));
    }
    let slack = 1e-4 * (hi - lo).norm();
    for (f, face) in dcel.faces().iter().enumerate() {
        if well_conditioned_normal(p, face).is_none() {
            continue;
        }
        let id = FaceId(f as u32);
        let n = p.face_normal(id).map(f64::from);
        let origin = point(face[0]);
        for &v in &used {
            let height = n.dot(&(point(v) - origin));
            assert!(
                height <= slack,
                "convex polyhedron: vertex {v} is {height:e} in front of face {f} (slack {slack:e})"
            );
        }
    }
}
