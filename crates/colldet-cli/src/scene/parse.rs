//! Parser for `colldet-scene 1` files. Errors name the 1-based line they were found on.

use std::path::{Path, PathBuf};

use colldet_geom::io::excerpt;
use thiserror::Error;

/// Why a scene file was rejected.
#[derive(Debug, Error)]
pub enum SceneError {
    /// The text does not follow the format.
    #[error("{path}:{line}: {message}")]
    Syntax {
        /// The scene file (or `<text>` when parsed from a string).
        path: String,
        /// 1-based line number; for a truncated file, the last line.
        line: usize,
        /// What is wrong there.
        message: String,
    },
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path that was read.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

/// One mesh of a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneMesh {
    /// Path of the OFF file, resolved against the scene file's directory.
    pub path: PathBuf,
    /// True when the mesh is a convex polytope (`convex 1`).
    pub convex: bool,
}

/// One object of a scene: its mesh and the twelve numbers of its motion.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneObject {
    /// Index into [`Scene::meshes`].
    pub mesh: usize,
    /// Position at frame 0, `p0`.
    pub position: [f64; 3],
    /// Velocity per frame, `v`.
    pub velocity: [f64; 3],
    /// Initial orientation as a rotation vector (radians), `a`.
    pub orientation: [f64; 3],
    /// Angular velocity as a rotation vector per frame (radians, world axes), `w`.
    pub angular_velocity: [f64; 3],
}

/// A parsed scene. Object ids are the order of the `obj` lines, from 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// The scene's name.
    pub name: String,
    /// Lower corner of the box objects bounce in.
    pub box_min: [f64; 3],
    /// Upper corner of the box.
    pub box_max: [f64; 3],
    /// Number of frames `F`; frames are `0..F`.
    pub frames: u32,
    /// The meshes, indexed by the `mesh` lines' indices.
    pub meshes: Vec<SceneMesh>,
    /// The objects.
    pub objects: Vec<SceneObject>,
}

/// A record: its 1-based line number and its tokens.
type Record<'a> = (usize, Vec<&'a str>);

struct Lines<'a> {
    path: &'a str,
    lines: std::vec::IntoIter<Record<'a>>,
    last_line: usize,
}

/// The lines of `text`, each ended by `\n`, `\r\n` or a lone `\r` (classic Mac OS), mixed
/// freely; as with [`str::lines`], a line end at the very end opens no further (empty) line.
fn text_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, tail) = match rest.find(['\n', '\r']) {
            Some(end) => {
                let after = &rest[end..];
                let ending = if after.starts_with("\r\n") { 2 } else { 1 };
                (&rest[..end], &after[ending..])
            }
            None => (rest, ""),
        };
        rest = tail;
        Some(line)
    })
}

impl<'a> Lines<'a> {
    fn new(path: &'a str, text: &'a str) -> Self {
        let records: Vec<Record<'a>> = text_lines(text)
            .enumerate()
            .map(|(i, l)| (i + 1, l.split_whitespace().collect::<Vec<_>>()))
            .filter(|(_, tokens)| tokens.first().is_some_and(|t| !t.starts_with('#')))
            .collect();
        Self {
            path,
            lines: records.into_iter(),
            last_line: text_lines(text).count().max(1),
        }
    }

    fn error(&self, line: usize, message: impl Into<String>) -> SceneError {
        SceneError::Syntax {
            path: self.path.to_string(),
            line,
            message: message.into(),
        }
    }

    /// The next record, which must start with `keyword` and have `arity` more tokens.
    fn record(&mut self, keyword: &str, arity: usize) -> Result<Record<'a>, SceneError> {
        let Some((line, tokens)) = self.lines.next() else {
            return Err(self.error(
                self.last_line,
                format!("file ends before the `{keyword}` line"),
            ));
        };
        if tokens[0] != keyword {
            return Err(self.error(
                line,
                format!("expected `{keyword}`, found `{}`", excerpt(tokens[0])),
            ));
        }
        if tokens.len() != arity + 1 {
            return Err(self.error(
                line,
                format!(
                    "`{keyword}` takes {arity} values, found {}",
                    tokens.len() - 1
                ),
            ));
        }
        Ok((line, tokens[1..].to_vec()))
    }

    fn number(&self, line: usize, token: &str) -> Result<f64, SceneError> {
        match token.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(self.error(line, format!("`{}` is not a finite number", excerpt(token)))),
        }
    }

    fn count(&self, line: usize, token: &str) -> Result<usize, SceneError> {
        token.parse::<usize>().map_err(|_| {
            self.error(
                line,
                format!("`{}` is not a non-negative integer", excerpt(token)),
            )
        })
    }

    fn vector(&self, line: usize, tokens: &[&str]) -> Result<[f64; 3], SceneError> {
        Ok([
            self.number(line, tokens[0])?,
            self.number(line, tokens[1])?,
            self.number(line, tokens[2])?,
        ])
    }
}

/// Parses scene text. Mesh paths are resolved against `base_dir`; `path` names the file in errors.
///
/// # Errors
/// [`SceneError::Syntax`] naming the first offending line: a wrong header or version, a missing,
/// misplaced or malformed record, a non-finite number, a mesh index out of order or out of range,
/// an empty box, fewer `mesh`/`obj` lines than announced, or text after the last object.
pub fn parse_scene(text: &str, base_dir: &Path, path: &str) -> Result<Scene, SceneError> {
    let mut lines = Lines::new(path, text);
    let (line, version) = lines.record("colldet-scene", 1)?;
    if version[0] != "1" {
        return Err(lines.error(
            line,
            format!("unsupported scene version `{}`", excerpt(version[0])),
        ));
    }
    let name = lines.record("name", 1)?.1[0].to_string();
    let (line, b) = lines.record("box", 6)?;
    let box_min = lines.vector(line, &b[0..3])?;
    let box_max = lines.vector(line, &b[3..6])?;
    if (0..3).any(|c| box_max[c] <= box_min[c]) {
        return Err(lines.error(
            line,
            "the box's maximum must exceed its minimum on every axis",
        ));
    }
    let (line, f) = lines.record("frames", 1)?;
    let frames = u32::try_from(lines.count(line, f[0])?)
        .map_err(|_| lines.error(line, "too many frames"))?;
    let (line, k) = lines.record("meshes", 1)?;
    let mesh_count = lines.count(line, k[0])?;
    let mut meshes = Vec::with_capacity(mesh_count.min(1 << 16));
    for i in 0..mesh_count {
        let (line, m) = lines.record("mesh", 3)?;
        if lines.count(line, m[0])? != i {
            return Err(lines.error(
                line,
                format!("expected mesh index {i}, found `{}`", excerpt(m[0])),
            ));
        }
        let convex = match m[2] {
            "0" => false,
            "1" => true,
            other => {
                return Err(lines.error(
                    line,
                    format!("convex flag must be 0 or 1, found `{}`", excerpt(other)),
                ));
            }
        };
        meshes.push(SceneMesh {
            path: base_dir.join(m[1]),
            convex,
        });
    }
    let (line, n) = lines.record("objects", 1)?;
    let object_count = lines.count(line, n[0])?;
    let mut objects = Vec::with_capacity(object_count.min(1 << 20));
    for _ in 0..object_count {
        let (line, o) = lines.record("obj", 13)?;
        let mesh = lines.count(line, o[0])?;
        if mesh >= mesh_count {
            return Err(lines.error(
                line,
                format!("mesh index {mesh} out of range ({mesh_count} meshes)"),
            ));
        }
        objects.push(SceneObject {
            mesh,
            position: lines.vector(line, &o[1..4])?,
            velocity: lines.vector(line, &o[4..7])?,
            orientation: lines.vector(line, &o[7..10])?,
            angular_velocity: lines.vector(line, &o[10..13])?,
        });
    }
    if let Some((line, tokens)) = lines.lines.next() {
        return Err(lines.error(
            line,
            format!("unexpected `{}` after the last object", excerpt(tokens[0])),
        ));
    }
    Ok(Scene {
        name,
        box_min,
        box_max,
        frames,
        meshes,
        objects,
    })
}

/// Reads and parses a scene file; mesh paths are resolved against the file's directory.
///
/// # Errors
/// [`SceneError::Io`] when the file cannot be read, otherwise as [`parse_scene`].
pub fn load_scene(path: &Path) -> Result<Scene, SceneError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| SceneError::Io {
        path: shown.clone(),
        source,
    })?;
    parse_scene(&text, path.parent().unwrap_or(Path::new(".")), &shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "colldet-scene 1\n# a comment\nname tiny\nbox -1 -1 -1 1 1 1\nframes 3\n\nmeshes 1\nmesh 0 m/cube.off 1\nobjects 2\nobj 0 0 0 0 0.1 0 0 0 0 0 0 0 0.5\nobj 0 0.5 0 0 0 0 0 0 0 0 0 0 0\n";

    fn parse(text: &str) -> Result<Scene, SceneError> {
        parse_scene(text, Path::new("/scenes"), "t.scene")
    }

    fn error_line(text: &str) -> usize {
        match parse(text) {
            Err(SceneError::Syntax { line, .. }) => line,
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }

    #[test]
    fn parses_a_small_scene() {
        let scene = parse(SMALL).unwrap();
        assert_eq!(scene.name, "tiny");
        assert_eq!(
            (scene.box_min, scene.box_max, scene.frames),
            ([-1.0; 3], [1.0; 3], 3)
        );
        assert_eq!(
            scene.meshes,
            vec![SceneMesh {
                path: PathBuf::from("/scenes/m/cube.off"),
                convex: true
            }]
        );
        assert_eq!(scene.objects.len(), 2);
        assert_eq!(scene.objects[0].velocity, [0.1, 0.0, 0.0]);
        assert_eq!(scene.objects[0].angular_velocity, [0.0, 0.0, 0.5]);
        assert_eq!(scene.objects[1].position, [0.5, 0.0, 0.0]);
    }

    #[test]
    fn malformed_files_name_the_line() {
        assert_eq!(error_line("colldet-scene 2\n"), 1);
        assert_eq!(error_line(&SMALL.replace("name tiny", "nome tiny")), 3);
        assert_eq!(
            error_line(&SMALL.replace("box -1 -1 -1 1 1 1", "box -1 -1 -1 1 1")),
            4
        );
        assert_eq!(
            error_line(&SMALL.replace("box -1 -1 -1 1 1 1", "box -1 -1 -1 1 nan 1")),
            4
        );
        assert_eq!(
            error_line(&SMALL.replace("box -1 -1 -1 1 1 1", "box 1 -1 -1 1 1 1")),
            4
        );
        assert_eq!(error_line(&SMALL.replace("frames 3", "frames -3")), 5);
        assert_eq!(
            error_line(&SMALL.replace("mesh 0 m/cube.off 1", "mesh 1 m/cube.off 1")),
            8
        );
        assert_eq!(
            error_line(&SMALL.replace("m/cube.off 1", "m/cube.off 2")),
            8
        );
        assert_eq!(error_line(&SMALL.replace("obj 0 0.5", "obj 1 0.5")), 11);
        assert_eq!(error_line(&SMALL.replace("0 0 0 0.5", "0 0 0 1e999")), 10);
        assert_eq!(
            error_line(&format!("{SMALL}obj 0 0 0 0 0 0 0 0 0 0 0 0 0\n")),
            12
        );
        let truncated: String = SMALL.lines().take(10).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            error_line(&truncated),
            10,
            "a missing obj line is reported at the last line"
        );
        assert_eq!(error_line(""), 1);
    }

    /// `text` with every `\n` replaced by `ending`.
    fn with_line_ends(text: &str, ending: &str) -> String {
        text.replace('\n', ending)
    }

    #[test]
    fn reads_lf_crlf_and_classic_mac_cr_line_ends() {
        let reference = parse(SMALL).unwrap();
        for ending in ["\r\n", "\r"] {
            let scene = parse(&with_line_ends(SMALL, ending)).unwrap();
            assert_eq!(scene, reference, "line ends {ending:?}");
        }
        // Mixed within one file: a lone `\r`, `\r\n` and `\n` each end one line.
        let mixed: String = SMALL
            .lines()
            .zip(["\n", "\r", "\r\n"].iter().cycle())
            .map(|(line, ending)| format!("{line}{ending}"))
            .collect();
        assert_eq!(parse(&mixed).unwrap(), reference);
        assert_eq!(
            text_lines("a\r\rb\r\n\nc").collect::<Vec<_>>(),
            ["a", "", "b", "", "c"]
        );
        assert_eq!(text_lines("a\r").collect::<Vec<_>>(), ["a"]);
        assert_eq!(text_lines("\n\r\n").collect::<Vec<_>>(), ["", ""]);
        assert_eq!(text_lines("").count(), 0);
    }

    #[test]
    fn cr_files_name_the_right_line() {
        for ending in ["\r\n", "\r"] {
            let line_of = |text: &str| error_line(&with_line_ends(text, ending));
            assert_eq!(line_of(&SMALL.replace("name tiny", "nome tiny")), 3);
            assert_eq!(line_of(&SMALL.replace("frames 3", "frames -3")), 5);
            assert_eq!(line_of(&SMALL.replace("obj 0 0.5", "obj 1 0.5")), 11);
            assert_eq!(
                line_of(&format!("{SMALL}obj 0 0 0 0 0 0 0 0 0 0 0 0 0\n")),
                12
            );
            let truncated: String = SMALL.lines().take(10).map(|l| format!("{l}\n")).collect();
            assert_eq!(line_of(&truncated), 10, "{ending:?}");
        }
    }

    #[test]
    fn reads_the_shared_scene_when_present() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/scenes/cw-ellipsoid-500.scene");
        let Ok(scene) = load_scene(&path) else {
            eprintln!("shared scenes not present; skipping");
            return;
        };
        assert_eq!(
            (scene.name.as_str(), scene.frames),
            ("cw-ellipsoid-500", 300)
        );
        assert_eq!((scene.meshes.len(), scene.objects.len()), (8, 500));
        assert!(scene.meshes.iter().all(|m| m.convex && m.path.exists()));
        let mesh = super::super::load_scene_mesh(&scene.meshes[0]).unwrap();
        assert_eq!(mesh.data.vertices.len(), 500);
        let widest = mesh
            .data
            .vertices
            .iter()
            .map(|p| f64::from(p.coords.norm()))
            .fold(0.0, f64::max);
        assert!((mesh.radius - widest).abs() <= 1e-6 * widest);
    }
}
