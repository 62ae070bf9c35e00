//! The zoo mesh-distance poses file (`benches/peers/test/zoo-distance.poses`) and the zoo meshes
//! it names (`crates/colldet-cli/tests/scenes/zoo-meshes`, each centred with radius 1): read by
//! the mesh-distance benches of colldet-narrow and colldet-world, written by colldet-narrow's
//! `zoo_distance_poses` example; the C++ peers read the same file.
//!
//! Format, one record per line (`#` starts a comment line): `pair A B` (two file names of the
//! zoo directory), then per gap `gap G` and its poses `pose qw qx qy qz tx ty tz d`: mesh b's
//! pose in mesh a's frame (unit quaternion and translation, `f64` in shortest round-trip
//! decimals) and the exact surface distance `d` at that pose.

use colldet_geom::MeshData;
use nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion};

/// The poses of one gap.
#[derive(Clone, Debug, Default)]
pub struct ZooGap {
    /// The surface gap the poses were made for, in the meshes' units (radius 1).
    pub gap: f64,
    /// Mesh b's pose in mesh a's frame.
    pub poses: Vec<Isometry3<f64>>,
    /// The exact surface distance at each pose.
    pub distances: Vec<f64>,
}

/// One mesh pair and its poses by gap.
#[derive(Clone, Debug, Default)]
pub struct ZooPair {
    /// File name of mesh a in the zoo directory.
    pub a: String,
    /// File name of mesh b.
    pub b: String,
    /// The gaps, as listed.
    pub gaps: Vec<ZooGap>,
}

impl ZooPair {
    /// `a-b` without the file extensions.
    pub fn name(&self) -> String {
        let stem = |s: &str| s.rsplit_once('.').map_or(s, |(x, _)| x).to_string();
        format!("{}-{}", stem(&self.a), stem(&self.b))
    }
}

/// The repository's root (from this crate's manifest directory).
pub fn repository_root() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../..").to_string()
}

/// The path of the poses file in the repository.
pub fn zoo_poses_path() -> String {
    format!(
        "{}/benches/peers/test/zoo-distance.poses",
        repository_root()
    )
}

/// Zoo mesh `name` (a file name of the zoo directory), read as OFF.
///
/// # Panics
/// When the file cannot be read or parsed (a benchmark's setup).
pub fn zoo_mesh(name: &str) -> MeshData {
    let path = format!(
        "{}/crates/colldet-cli/tests/scenes/zoo-meshes/{name}",
        repository_root()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    colldet_geom::io::read_off(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Parses the text of a poses file.
///
/// # Errors
/// A message naming the line for a malformed record.
pub fn parse_zoo_poses(text: &str) -> Result<Vec<ZooPair>, String> {
    let mut pairs: Vec<ZooPair> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let bad = |what: &str| format!("line {}: {what}", n + 1);
        let number = |s: &str| s.parse::<f64>().map_err(|_| bad("not a number"));
        match w.first().copied() {
            None => {}
            Some(x) if x.starts_with('#') => {}
            Some("pair") if w.len() == 3 => pairs.push(ZooPair {
                a: w[1].into(),
                b: w[2].into(),
                gaps: Vec::new(),
            }),
            Some("gap") if w.len() == 2 => pairs
                .last_mut()
                .ok_or_else(|| bad("gap before pair"))?
                .gaps
                .push(ZooGap {
                    gap: number(w[1])?,
                    ..ZooGap::default()
                }),
            Some("pose") if w.len() == 9 => {
                let v = w[1..]
                    .iter()
                    .map(|x| number(x))
                    .collect::<Result<Vec<f64>, String>>()?;
                let rot = UnitQuaternion::from_quaternion(Quaternion::new(v[0], v[1], v[2], v[3]));
                let gap = pairs
                    .last_mut()
                    .and_then(|p| p.gaps.last_mut())
                    .ok_or_else(|| bad("pose before gap"))?;
                gap.poses.push(Isometry3::from_parts(
                    Translation3::new(v[4], v[5], v[6]),
                    rot,
                ));
                gap.distances.push(v[7]);
            }
            Some(_) => return Err(bad("unknown record")),
        }
    }
    Ok(pairs)
}

/// The repository's poses file, parsed.
///
/// # Panics
/// When the file cannot be read or parsed (a benchmark's setup).
pub fn zoo_poses() -> Vec<ZooPair> {
    let path = zoo_poses_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_zoo_poses(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}
