//! Input clean-up before the DCEL is built: corners are mapped to their welded representatives
//! (when welding), repeated corners are merged and zero-area faces are dropped (counted, never
//! rejected); unused vertices are counted.

use crate::math::Point;
use crate::mesh_data::{FaceList, MeshData};
use crate::predicates::collinear;

/// The faces kept for collision and where they came from.
pub(crate) struct CleanFaces {
    /// Kept faces with consecutive repeated corners removed.
    pub faces: FaceList,
    /// Input face index of each kept face.
    pub source: Vec<u32>,
    /// Number of input faces dropped as degenerate.
    pub dropped: usize,
    /// Vertices no kept face refers to in the input (before welding).
    pub unused_vertices: usize,
}

/// True when every corner of `face` lies on one line (zero area), decided exactly.
fn all_collinear(vertices: &[Point], face: &[u32]) -> bool {
    let a = &vertices[face[0] as usize];
    let Some(b) = face
        .iter()
        .map(|&i| &vertices[i as usize])
        .find(|p| *p != a)
    else {
        return true;
    };
    face.iter().all(|&i| collinear(a, b, &vertices[i as usize]))
}

/// Maps every corner through `weld` (each vertex's representative, when welding), removes
/// consecutive repeated corners (including last-to-first) from every face and drops faces left
/// with fewer than three corners or with all corners on one line. `mesh` must be validated.
///
/// Welding keeps the same faces: corners merged by it are at one position, and such corners never
/// decide whether a face has area.
pub(crate) fn clean_faces(mesh: &MeshData, weld: Option<&[u32]>) -> CleanFaces {
    let mut faces = FaceList::with_capacity(mesh.faces.len(), mesh.faces.index_count());
    let mut source = Vec::with_capacity(mesh.faces.len());
    let mut corners: Vec<u32> = Vec::new();
    let mut used = vec![false; mesh.vertices.len()];
    for (f, face) in mesh.faces.iter().enumerate() {
        corners.clear();
        for &given in face {
            let v = weld.map_or(given, |w| w[given as usize]);
            if corners.last() != Some(&v) {
                corners.push(v);
            }
        }
        while corners.len() > 1 && corners.first() == corners.last() {
            corners.pop();
        }
        if corners.len() < 3 || all_collinear(&mesh.vertices, &corners) {
            continue;
        }
        for &v in face {
            used[v as usize] = true;
        }
        faces.push(&corners);
        source.push(f as u32);
    }
    let dropped = mesh.faces.len() - faces.len();
    CleanFaces {
        faces,
        source,
        dropped,
        unused_vertices: used.iter().filter(|&&u| !u).count(),
    }
}
