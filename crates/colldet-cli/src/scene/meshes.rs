//! Loading a scene's meshes: the collision geometry as the file's text gives it (read in `f64`;
//! the doubles are kept when they are not `f32` numbers) and the motion model's bounding radius
//! from the same vertices at `f64`, as the scene format defines it (`docs/scenes.md`).

use colldet_geom::io::{read_off, read_off_positions};
use colldet_geom::{GeomError, MeshData};

use super::motion::bounding_radius;
use super::parse::SceneMesh;

/// One loaded scene mesh.
#[derive(Clone, Debug)]
pub struct LoadedMesh {
    /// The mesh in local coordinates, exactly as the file's text gives it in `f64` (with its
    /// `f32` copy).
    pub data: MeshData,
    /// Bounding radius over all listed vertices, from their `f64` values.
    pub radius: f64,
    /// True when the scene declares the mesh convex.
    pub convex: bool,
}

/// Reads one scene mesh (an OFF file).
///
/// # Errors
/// [`GeomError::Io`] when the file cannot be read, otherwise what the OFF reader reports.
pub fn load_scene_mesh(mesh: &SceneMesh) -> Result<LoadedMesh, GeomError> {
    let text = std::fs::read_to_string(&mesh.path).map_err(|source| GeomError::Io {
        path: mesh.path.display().to_string(),
        source,
    })?;
    let radius = bounding_radius(&read_off_positions::<f64>(&text)?);
    Ok(LoadedMesh {
        data: read_off(&text)?,
        radius,
        convex: mesh.convex,
    })
}
