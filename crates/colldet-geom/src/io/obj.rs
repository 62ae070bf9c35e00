//! Wavefront OBJ reader, polygonal subset.
//!
//! Read: `v x y z` (optionally followed by a weight `w`, or a colour `r g b` / `r g b a` as some
//! exporters write; only `x y z` is kept) and `f`/`fo` faces whose corners are `i`, `i/j`, `i/j/k`
//! or `i//k`. Only the position index `i` is used; `j` and `k` must be non-zero integers when
//! present. Indices are 1-based; a negative index counts back from the last vertex defined so far
//! (`-1` is the latest). A positive index may refer to a vertex defined further down the file.
//! `#` starts a comment; a line ending in `\` continues on the next line (errors name the first).
//!
//! Skipped with a warning (one [`ReadWarning`] per keyword, with its count and first line):
//! the statements without polygon geometry `vt vn vp o g s l p mg usemtl mtllib usemap maplib lod
//! bevel c_interp d_interp shadow_obj trace_obj` ([`WarningKind::IgnoredStatement`]); any other
//! statement, free-form geometry (`curv`, `surf`, `cstype`, ...) included
//! ([`WarningKind::UnknownStatement`]: the warning says that what it describes is not in the
//! mesh); and lines of non-negative integers before the first statement, the vertex count some
//! exporters write at the top ([`WarningKind::LeadingCount`]). All objects and groups merge into
//! one mesh, in file order. A malformed `v`, `f` or `fo` line is an error naming its line.
//!
//! Not `tobj`: its errors carry no line number, so this reader is written here.

use std::borrow::Cow;
use std::path::Path;

#[cfg(doc)]
use super::ReadWarning;
use super::warning::Warnings;
use super::{
    LoadedMesh, WarningKind, excerpt, parse_error, parse_position, read_text, strip_bom,
    strip_comment,
};
use crate::error::GeomError;
use crate::math::{PointD, Real};
use crate::mesh_data::{FaceList, MeshData};

/// Statements that carry no polygon geometry and are skipped with a warning.
const IGNORED: [&str; 19] = [
    "vt",
    "vn",
    "vp",
    "o",
    "g",
    "s",
    "l",
    "p",
    "mg",
    "usemtl",
    "mtllib",
    "usemap",
    "maplib",
    "lod",
    "bevel",
    "c_interp",
    "d_interp",
    "shadow_obj",
    "trace_obj",
];

/// Reader state while going through the statements.
struct ObjReader {
    vertices: Vec<PointD>,
    faces: FaceList,
    /// Scratch for the face being read (0-based vertex indices).
    face: Vec<u32>,
    /// The largest 0-based position index used before that vertex was defined, and its line;
    /// checked against the final vertex count at the end.
    forward: Option<(u32, usize)>,
    /// Whether a statement has been seen (a count line is "leading" only before one).
    started: bool,
    warnings: Warnings,
}

impl ObjReader {
    /// Handles one statement (comment removed, continuation lines joined) starting on `line`.
    fn statement(&mut self, content: &str, line: usize) -> Result<(), GeomError> {
        let mut tokens = content.split_ascii_whitespace();
        let Some(keyword) = tokens.next() else {
            return Ok(());
        };
        let started = std::mem::replace(&mut self.started, true);
        match keyword {
            "v" => return self.vertex(tokens, line),
            "f" | "fo" => return self.polygon(tokens, line),
            _ if !started && is_count_line(content) => {
                self.started = false;
                self.warnings
                    .line(WarningKind::LeadingCount, line, content.trim());
            }
            _ if IGNORED.contains(&keyword) => self.warnings.ignored(keyword, line, content.trim()),
            _ => self.warnings.unknown(keyword, line, content.trim()),
        }
        Ok(())
    }

    /// `v x y z [w | r g b | r g b a]`.
    fn vertex<'a>(
        &mut self,
        tokens: impl Iterator<Item = &'a str>,
        line: usize,
    ) -> Result<(), GeomError> {
        let vertex = self.vertices.len();
        let ([x, y, z], extras) = parse_position::<Real>(tokens, line, vertex, |count| {
            parse_error(
                line,
                format!("vertex {vertex}: `v` has {count} values; expected x y z"),
            )
        })?;
        if !matches!(extras, 0 | 1 | 3 | 4) {
            return Err(parse_error(
                line,
                format!(
                    "vertex {vertex}: `v` has {} values; expected x y z, optionally followed \
                     by w, r g b or r g b a",
                    3 + extras
                ),
            ));
        }
        self.vertices.push(PointD::new(x, y, z));
        Ok(())
    }

    /// `f c0 c1 c2 ...` with corners `i`, `i/j`, `i/j/k` or `i//k`.
    fn polygon<'a>(
        &mut self,
        tokens: impl Iterator<Item = &'a str>,
        line: usize,
    ) -> Result<(), GeomError> {
        let face = self.faces.len();
        self.face.clear();
        for corner in tokens {
            let index = self.corner(corner, line, face)?;
            self.face.push(index);
        }
        if self.face.len() < 3 {
            return Err(parse_error(
                line,
                format!(
                    "face {face} has {} vertices; a face needs at least 3",
                    self.face.len()
                ),
            ));
        }
        self.faces.push(&self.face);
        Ok(())
    }

    /// The 0-based position index of one face corner.
    fn corner(&mut self, corner: &str, line: usize, face: usize) -> Result<u32, GeomError> {
        let malformed = || {
            parse_error(
                line,
                format!(
                    "face {face}: corner `{}` is not i, i/j, i/j/k or i//k",
                    excerpt(corner)
                ),
            )
        };
        let mut parts = corner.split('/');
        let position = parts.next().unwrap_or_default();
        match (parts.next(), parts.next(), parts.next()) {
            (None, None, None) => {}
            (Some(texture), None, None) if !texture.is_empty() => {
                attribute_index(texture).ok_or_else(malformed)?;
            }
            (Some(texture), Some(normal), None) if !normal.is_empty() => {
                if !texture.is_empty() {
                    attribute_index(texture).ok_or_else(malformed)?;
                }
                attribute_index(normal).ok_or_else(malformed)?;
            }
            _ => return Err(malformed()),
        }
        let index: i64 = position.parse().map_err(|_| malformed())?;
        let defined = self.vertices.len() as i64;
        let resolved = match index {
            0 => {
                return Err(parse_error(
                    line,
                    format!("face {face}: vertex index 0 (OBJ indices start at 1)"),
                ));
            }
            i if i < 0 => {
                if -i > defined {
                    return Err(parse_error(
                        line,
                        format!(
                            "face {face}: relative vertex index {i} reaches before the first \
                             vertex ({defined} defined so far)"
                        ),
                    ));
                }
                defined + i
            }
            i => i - 1,
        };
        let resolved = u32::try_from(resolved).map_err(|_| {
            parse_error(
                line,
                format!("face {face}: vertex index {index} does not fit 32 bits"),
            )
        })?;
        if i64::from(resolved) >= defined && self.forward.is_none_or(|(max, _)| resolved > max) {
            self.forward = Some((resolved, line));
        }
        Ok(resolved)
    }
}

/// Whether `content` is a line of non-negative integers (a vertex or face count).
fn is_count_line(content: &str) -> bool {
    content
        .split_ascii_whitespace()
        .all(|token| token.bytes().all(|b| b.is_ascii_digit()))
}

/// A texture or normal index: a non-zero integer (its range is not checked, as it is unused).
fn attribute_index(token: &str) -> Option<i64> {
    token.parse::<i64>().ok().filter(|&i| i != 0)
}

/// Parses OBJ text into a mesh. See the module documentation for what is read and skipped
/// (see [`read_obj_with_warnings`] to learn what was skipped).
///
/// Vertices are the object's local-frame positions as written, in `f64` (rounded once from the
/// text; [`MeshData::from_f64`] keeps them when some coordinate is not an `f32` number); faces are
/// the polygons as written (converted to 0-based indices, any size >= 3, order kept).
///
/// # Errors
/// [`GeomError::Parse`] with the 1-based line for: a coordinate that is not a finite `f32`
/// (`nan`, `inf`, `1e999`), a `v` line with the wrong number of values, a face corner that is
/// malformed, zero, a relative index reaching before the first vertex, or (positive) beyond the
/// last vertex of the file (reported at the line using the largest such index), and a face with
/// fewer than 3 corners. [`GeomError::NoVertices`] / [`GeomError::NoFaces`] when the file has no
/// `v` / no `f` lines.
pub fn read_obj(text: &str) -> Result<MeshData, GeomError> {
    read_obj_with_warnings(text).map(|loaded| loaded.mesh)
}

/// As [`read_obj`], returning the mesh and what was skipped: one warning per skipped keyword
/// (and one for leading count lines), in order of first occurrence.
///
/// # Errors
/// As [`read_obj`].
pub fn read_obj_with_warnings(text: &str) -> Result<LoadedMesh, GeomError> {
    let text = strip_bom(text);
    let mut reader = ObjReader {
        vertices: Vec::new(),
        faces: FaceList::new(),
        face: Vec::new(),
        forward: None,
        started: false,
        warnings: Warnings::default(),
    };
    let mut lines = super::text_lines(text).enumerate();
    while let Some((at, raw)) = lines.next() {
        let mut content: Cow<'_, str> = Cow::Borrowed(strip_comment(raw).trim_end());
        while let Some(head) = content.strip_suffix('\\') {
            let mut joined = String::from(head);
            joined.push(' ');
            if let Some((_, next)) = lines.next() {
                joined.push_str(strip_comment(next).trim_end());
            }
            content = Cow::Owned(joined);
        }
        reader.statement(&content, at + 1)?;
    }
    let ObjReader {
        vertices,
        faces,
        forward,
        warnings,
        ..
    } = reader;
    if let Some((index, line)) = forward
        && index as usize >= vertices.len()
    {
        return Err(parse_error(
            line,
            format!(
                "vertex index {} is out of range (the file has {} vertices)",
                u64::from(index) + 1,
                vertices.len()
            ),
        ));
    }
    let mesh = MeshData::from_f64(vertices, faces);
    mesh.validate()?;
    Ok(LoadedMesh {
        mesh,
        warnings: warnings.into_vec(),
    })
}

/// Loads an OBJ file; see [`read_obj`].
///
/// # Errors
/// [`GeomError::Io`] when the file cannot be read, [`GeomError::Parse`] when it is not UTF-8,
/// and everything [`read_obj`] reports.
pub fn load_obj(path: &Path) -> Result<MeshData, GeomError> {
    read_obj(&read_text(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::ReadWarning;
    use crate::math::Point;

    #[track_caller]
    fn assert_parse_error(text: &str, line: usize, fragment: &str) {
        crate::io::tests::assert_parse_error(read_obj, text, line, fragment);
    }

    fn faces(mesh: &MeshData) -> Vec<Vec<u32>> {
        mesh.faces.iter().map(<[u32]>::to_vec).collect()
    }

    #[test]
    fn corner_forms_and_relative_indices() {
        let text = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n\
                    f 1 2 3\nf 1/1 2/1 3/1\nf 1/1/1 2/1/1 3/1/1\nf 1//1 2//1 3//1\n\
                    f -4 -3 -2\nf -4/-1 -3/-1/-1 -2//-1 -1\n";
        let mesh = read_obj(text).unwrap();
        assert_eq!(
            faces(&mesh),
            vec![
                vec![0, 1, 2],
                vec![0, 1, 2],
                vec![0, 1, 2],
                vec![0, 1, 2],
                vec![0, 1, 2],
                vec![0, 1, 2, 3],
            ]
        );
    }

    #[test]
    fn relative_indices_count_back_from_the_latest_vertex() {
        // Two triangles each written with -3 -2 -1 right after its own vertices.
        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf -3 -2 -1\n";
        let mesh = read_obj(text).unwrap();
        assert_eq!(faces(&mesh), vec![vec![0, 1, 2], vec![3, 4, 5]]);
        assert_eq!(mesh.vertices[5], Point::new(0.0, 1.0, 1.0));
    }

    #[test]
    fn groups_merge_and_extras_are_ignored() {
        let text = "# exported\nmtllib a.mtl\no first\ng g1\nusemtl red\ns off\n\
                    v 0 0 0 1\nv 1 0 0 1 0 0\nv 0 1 0 0.5 0.5 0.5 1\n\
                    f 1 2 3\no second\nv 0 0 1\nl 1 4\np 4\nf 1 3 2 4\n";
        let mesh = read_obj(text).unwrap();
        assert_eq!(mesh.vertices.len(), 4);
        assert_eq!(mesh.vertices[1], Point::new(1.0, 0.0, 0.0));
        assert_eq!(faces(&mesh), vec![vec![0, 1, 2], vec![0, 2, 1, 3]]);
    }

    #[test]
    fn forward_references_and_continuations() {
        let text = "f 1 2 \\\n  3 4\nv 0 0 0\nv 1 0 0\r\nv 1 1 0\nv 0 \\\n1 0 # tail\n";
        let mesh = read_obj(text).unwrap();
        assert_eq!(faces(&mesh), vec![vec![0, 1, 2, 3]]);
        assert_eq!(mesh.vertices[3], Point::new(0.0, 1.0, 0.0));
    }

    #[test]
    fn cr_lf_and_crlf_line_ends_read_alike() {
        let lf = "# square\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 \\\n0\n\nf 1 2 3 4\n";
        let expected = read_obj(lf).unwrap();
        for end in ["\r", "\r\n"] {
            let text = lf.replace('\n', end);
            assert_eq!(read_obj(&text).unwrap(), expected, "{end:?}");
            // Errors name the right line: the face's (8th) line refers to vertex 5.
            let bad = text.replace("f 1 2 3 4", "f 1 2 3 5");
            assert_parse_error(&bad, 8, "vertex index 5 is out of range");
        }
    }

    #[test]
    fn vertex_errors() {
        for (vertex_line, fragment) in [
            ("v nan 0 0", "vertex 1: x = `nan` is not a finite f32"),
            ("v 0 inf 0", "y = `inf` is not a finite f32"),
            ("v 0 0 1e999", "z = `1e999` is not a finite f32"),
            ("v 0 0 -1e39", "z = `-1e39` is not a finite f32"),
            ("v 0 0", "`v` has 2 values"),
            ("v 0 0 0 1 1", "`v` has 5 values"),
            ("v 0 0 0 1 1 1 1 1", "`v` has 8 values"),
            ("v 0 0 0 w", "vertex 1: `w` is not a number"),
        ] {
            let text = format!("v 0 0 0\n{vertex_line}\nv 0 1 0\nf 1 2 3\n");
            assert_parse_error(&text, 2, fragment);
        }
    }

    #[test]
    fn face_errors() {
        let head = "v 0 0 0\nv 1 0 0\nv 0 1 0\n# faces\n";
        for (face_line, fragment) in [
            ("f 1 2", "face 0 has 2 vertices"),
            ("f", "face 0 has 0 vertices"),
            ("f 0 1 2", "vertex index 0 (OBJ indices start at 1)"),
            (
                "f -4 1 2",
                "relative vertex index -4 reaches before the first vertex (3 defined",
            ),
            ("f 1 2 4294967297", "4294967297 does not fit 32 bits"),
            ("f 1 2 x", "corner `x` is not"),
            ("f 1 2 3.0", "corner `3.0` is not"),
            ("f 1 2 3/", "corner `3/` is not"),
            ("f 1 2 3//", "corner `3//` is not"),
            ("f 1 2 /3", "corner `/3` is not"),
            ("f 1 2 3/1/1/1", "corner `3/1/1/1` is not"),
            ("f 1 2 3/0", "corner `3/0` is not"),
            ("f 1 2 3/a/1", "corner `3/a/1` is not"),
        ] {
            let text = format!("{head}{face_line}\n");
            assert_parse_error(&text, 5, fragment);
        }
    }

    #[test]
    fn out_of_range_positive_index_names_the_line_of_the_largest() {
        let text = "v 0 0 0\nv 1 0 0\nf 1 2 4\nv 0 1 0\nf 1 2 6\nf 1 2 5\n";
        assert_parse_error(
            text,
            5,
            "vertex index 6 is out of range (the file has 3 vertices)",
        );
        // Forward references that are satisfied later are fine.
        let text = "f 1 2 4\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n";
        assert_eq!(faces(&read_obj(text).unwrap()), vec![vec![0, 1, 3]]);
    }

    /// The warnings of `text` as (line, count, message) triples.
    fn warnings(text: &str) -> Vec<(usize, usize, String)> {
        let loaded = read_obj_with_warnings(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(read_obj(text).unwrap(), loaded.mesh);
        loaded
            .warnings
            .iter()
            .map(|w| (w.line, w.count, w.to_string()))
            .collect()
    }

    const TRIANGLE: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

    #[test]
    fn each_ignored_statement_is_skipped_with_a_warning() {
        for keyword in IGNORED {
            let text = format!("{TRIANGLE}{keyword} 1 2 3\n{keyword} a\n");
            assert_eq!(
                warnings(&text),
                [(
                    5,
                    2,
                    format!("2 lines of `{keyword}` skipped (first at line 5)")
                )],
                "{keyword}"
            );
        }
        assert!(warnings(TRIANGLE).is_empty());
    }

    #[test]
    fn unknown_statements_are_skipped_with_a_warning() {
        let text = format!(
            "v 0 0 0\ncstype bspline\n\n  curv 0 1 1 2\nV 0 0 0\n{TRIANGLE}curv 2 3\n\
             deg 3 \\\n 3\n"
        );
        assert_eq!(
            warnings(&text),
            [
                (
                    2,
                    1,
                    "1 line of unknown statement `cstype` skipped (line 2)".into()
                ),
                (
                    4,
                    2,
                    "2 lines of unknown statement `curv` skipped (first at line 4)".into()
                ),
                (
                    5,
                    1,
                    "1 line of unknown statement `V` skipped (line 5)".into()
                ),
                (
                    11,
                    1,
                    "1 line of unknown statement `deg` skipped (line 11)".into()
                ),
            ]
        );
        let loaded = read_obj_with_warnings(&text).unwrap();
        assert_eq!(loaded.mesh.vertices.len(), 4);
        assert_eq!(loaded.warnings[1].excerpt, "curv 0 1 1 2");
    }

    #[test]
    fn leading_count_lines_are_skipped_with_a_warning() {
        let text = format!("# exported\n8\n\n12 3\n{TRIANGLE}");
        let loaded = read_obj_with_warnings(&text).unwrap();
        assert_eq!(loaded.mesh.vertices.len(), 3);
        assert_eq!(
            loaded.warnings,
            [ReadWarning {
                line: 2,
                kind: WarningKind::LeadingCount,
                count: 2,
                excerpt: "8".into(),
            }]
        );
        assert_eq!(
            loaded.warnings[0].to_string(),
            "2 leading count lines skipped (first at line 2: `8`)"
        );
        // After the first statement a number is an unknown statement.
        assert_eq!(
            warnings(&format!("o x\n8\n{TRIANGLE}")),
            [
                (1, 1, "1 line of `o` skipped (line 1)".into()),
                (
                    2,
                    1,
                    "1 line of unknown statement `8` skipped (line 2)".into()
                ),
            ]
        );
        // A negative or fractional number is no count.
        assert_eq!(
            warnings(&format!("-8\n{TRIANGLE}")),
            [(
                1,
                1,
                "1 line of unknown statement `-8` skipped (line 1)".into()
            )]
        );
    }

    #[test]
    fn coordinates_are_kept_in_f64() {
        let text = "v 4000.1 0.1 1e-9\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
        let mesh = read_obj(text).unwrap();
        let precise = mesh.precise_vertices().expect("0.1 is not an f32 number");
        assert_eq!(
            [precise[0].x, precise[0].y, precise[0].z].map(f64::to_bits),
            [4000.1f64, 0.1, 1e-9].map(f64::to_bits)
        );
        assert_eq!(mesh.vertices[0], Point::new(4000.1, 0.1, 1e-9));
        // Coordinates that are all f32 numbers keep no f64 copy.
        let mesh = read_obj("v 0.5 -2 1e-3\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
        assert!(
            mesh.precise_vertices().is_some(),
            "1e-3 is not an f32 number"
        );
        assert!(read_obj(TRIANGLE).unwrap().precise_vertices().is_none());
    }

    #[test]
    fn empty_meshes_are_rejected() {
        assert!(matches!(read_obj(""), Err(GeomError::NoVertices)));
        assert!(matches!(
            read_obj("# nothing\no x\n"),
            Err(GeomError::NoVertices)
        ));
        assert!(matches!(
            read_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\n"),
            Err(GeomError::NoFaces)
        ));
    }
}
