//! A scene with its meshes loaded once for every library: `f64` positions as written in the OFF
//! files (for parry, and for the bounding radius of the motion model) and colldet's `f32` mesh.

use std::path::Path;

use colldet_cli::scene::{Scene, ScenePose, bounding_radius, load_scene, pose_at};
use colldet_geom::MeshData;
use colldet_geom::io::{read_off, read_off_positions};

use crate::error::PeerError;

/// One mesh of a scene.
#[derive(Clone, Debug)]
pub struct PeerMesh {
    /// The OFF file it was read from (for messages).
    pub path: String,
    /// Vertex positions in the mesh's local frame, exactly as written in the file.
    pub positions: Vec<[f64; 3]>,
    /// The faces split into triangles by the fan `(i0, ij, ij+1)` (FORMAT.md).
    pub triangles: Vec<[u32; 3]>,
    /// colldet's mesh (positions rounded once to `f32`).
    pub data: MeshData,
    /// Bounding radius of the motion model, from the `f64` positions.
    pub radius: f64,
    /// True when the scene declares the mesh a convex polytope.
    pub convex: bool,
}

/// A loaded scene.
#[derive(Clone, Debug)]
pub struct PeerScene {
    /// The parsed scene file.
    pub scene: Scene,
    /// Its meshes, indexed like `scene.meshes`.
    pub meshes: Vec<PeerMesh>,
}

impl PeerScene {
    /// Loads the scene file at `path` and every mesh it names.
    ///
    /// # Errors
    /// [`PeerError::Scene`] for the scene file, [`PeerError::Mesh`] for a mesh file.
    pub fn load(path: &Path) -> Result<Self, PeerError> {
        let scene = load_scene(path)?;
        let meshes = scene
            .meshes
            .iter()
            .map(|m| {
                let name = m.path.display().to_string();
                let mesh_error = |source| PeerError::Mesh {
                    path: name.clone(),
                    source,
                };
                let text = std::fs::read_to_string(&m.path).map_err(|source| {
                    mesh_error(colldet_geom::GeomError::Io {
                        path: name.clone(),
                        source,
                    })
                })?;
                let positions = read_off_positions::<f64>(&text).map_err(mesh_error)?;
                let data = read_off(&text).map_err(mesh_error)?;
                let triangles = data
                    .faces
                    .iter()
                    .flat_map(|f| (1..f.len().saturating_sub(1)).map(|j| [f[0], f[j], f[j + 1]]))
                    .collect();
                Ok(PeerMesh {
                    path: name.clone(),
                    radius: bounding_radius(&positions),
                    positions,
                    triangles,
                    data,
                    convex: m.convex,
                })
            })
            .collect::<Result<Vec<_>, PeerError>>()?;
        Ok(Self { scene, meshes })
    }

    /// The scene's name.
    pub fn name(&self) -> &str {
        &self.scene.name
    }

    /// Number of objects.
    pub fn object_count(&self) -> usize {
        self.scene.objects.len()
    }

    /// The mesh of object `k`.
    pub fn mesh_of(&self, k: usize) -> &PeerMesh {
        &self.meshes[self.scene.objects[k].mesh]
    }

    /// Writes the pose of every object at `frame` into `poses` (cleared first).
    pub fn poses_at(&self, frame: u32, poses: &mut Vec<ScenePose>) {
        poses.clear();
        poses.extend(self.scene.objects.iter().map(|o| {
            pose_at(
                o,
                self.meshes[o.mesh].radius,
                self.scene.box_min,
                self.scene.box_max,
                frame,
            )
        }));
    }
}
