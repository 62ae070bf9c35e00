//! Welding: vertices at exactly the same position are one vertex for classification.
//!
//! "Exactly the same" is equality in the precision the mesh was given in: the `f64` values when
//! the mesh keeps them ([`MeshData::precise_vertices`]), the `f32` values otherwise (two doubles
//! that round to the same `f32` are different positions). `-0.0` and `0.0` are one position; NaN
//! never reaches here (the mesh is validated). The representative of a position is the lowest
//! index that has it, so every vertex id the DCEL holds is one of the input's indices.
//!
//! One sort of `(position key, index)` pairs: `O(n log n)` whatever the input, with no hash map a
//! crafted file could flood.

use crate::mesh_data::MeshData;

/// Every vertex's representative (the lowest index at the same exact position) and the number of
/// vertices that are not their own representative.
pub(crate) struct Welding {
    /// `representative[v]` is the lowest vertex index whose position equals `v`'s.
    pub representative: Vec<u32>,
    /// Vertices at the same position as a lower index.
    pub duplicates: usize,
}

/// Finds the representative of every vertex of `mesh` (validated: finite coordinates). Keys are
/// the coordinates' bit patterns with `-0.0` made `0.0` (equal bits iff equal values, NaN
/// excluded): the `f64` values when the mesh keeps them, else the `f32` values (half the bytes to
/// sort; equal `f32` values are equal widened).
pub(crate) fn weld_coincident(mesh: &MeshData) -> Welding {
    match mesh.precise_vertices() {
        Some(precise) => weld_keys(
            precise
                .iter()
                .map(|p| [p.x + 0.0, p.y + 0.0, p.z + 0.0].map(f64::to_bits)),
        ),
        None => weld_keys(
            mesh.vertices
                .iter()
                .map(|p| [p.x + 0.0, p.y + 0.0, p.z + 0.0].map(f32::to_bits)),
        ),
    }
}

/// [`weld_coincident`] on one position key per vertex, in vertex order.
fn weld_keys<K: Ord + Copy>(keys: impl ExactSizeIterator<Item = K>) -> Welding {
    let n = keys.len();
    let mut order: Vec<(K, u32)> = keys.zip(0..n as u32).collect();
    // Sorted by key, then index: the first entry of each run of equal keys is the lowest index.
    order.sort_unstable();
    let mut representative = vec![0u32; n];
    let mut duplicates = 0;
    let mut run: Option<(K, u32)> = None;
    for &(k, v) in &order {
        match run {
            Some((run_key, first)) if run_key == k => {
                representative[v as usize] = first;
                duplicates += 1;
            }
            _ => {
                representative[v as usize] = v;
                run = Some((k, v));
            }
        }
    }
    Welding {
        representative,
        duplicates,
    }
}

#[cfg(test)]
mod tests {
    use super::weld_coincident;
    use crate::math::{Point, PointD};
    use crate::mesh_data::{FaceList, MeshData};

    fn faces() -> FaceList {
        FaceList::from_triangles(&[[0, 1, 2]])
    }

    #[test]
    fn lowest_index_represents_and_signed_zeros_are_one_position() {
        let mesh = MeshData::new(
            vec![
                Point::new(1.0, 2.0, 3.0),
                Point::new(0.0, 0.0, 0.0),
                Point::new(1.0, 2.0, 3.0),
                Point::new(-0.0, 0.0, -0.0),
                Point::new(1.0, 2.0, 3.5),
            ],
            faces(),
        );
        let w = weld_coincident(&mesh);
        assert_eq!(w.representative, [0, 1, 0, 1, 4]);
        assert_eq!(w.duplicates, 2);
    }

    #[test]
    fn doubles_that_round_to_one_float_stay_apart() {
        let a = 0.1f64;
        let b = f64::from_bits(a.to_bits() + 1);
        assert_eq!(a as f32, b as f32);
        let mesh = MeshData::from_f64(
            vec![
                PointD::new(a, 0.0, 0.0),
                PointD::new(b, 0.0, 0.0),
                PointD::new(a, 0.0, -0.0),
                PointD::new(0.0, 1.0, 0.0),
            ],
            faces(),
        );
        assert!(mesh.precise_vertices().is_some());
        let w = weld_coincident(&mesh);
        assert_eq!(w.representative, [0, 1, 0, 3]);
        assert_eq!(w.duplicates, 1);
    }
}
