//! Triangle soups: a mesh as STL files store it, every triangle with its own three corners.

use colldet_geom::math::PointD;
use colldet_geom::mesh_data::{FaceList, MeshData};

/// `mesh` as a triangle soup: every face fan-triangulated from its first corner, every triangle
/// corner a new vertex at the same position (`3 t` vertices for `t` triangles, triangle `i` using
/// `3 i, 3 i + 1, 3 i + 2` in the face's order). Positions given in `f64` stay in `f64`.
pub fn triangle_soup(mesh: &MeshData) -> MeshData {
    let mut positions: Vec<PointD> = Vec::with_capacity(mesh.faces.index_count() * 3);
    for face in mesh.faces.iter() {
        for k in 1..face.len().saturating_sub(1) {
            for v in [face[0], face[k], face[k + 1]] {
                positions.push(mesh.vertex_f64(v as usize));
            }
        }
    }
    let triangles: Vec<[u32; 3]> = (0..positions.len() as u32 / 3)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    let faces = FaceList::from_triangles(&triangles);
    match mesh.precise_vertices() {
        Some(_) => MeshData::from_f64(positions, faces),
        None => MeshData::new(positions.iter().map(|p| p.cast::<f32>()).collect(), faces),
    }
}
