//! Raw polygon-mesh input: vertex positions plus polygon faces as vertex-index lists.
//!
//! This is what file readers and array builders produce and what [`crate::Polyhedron::build`]
//! consumes. Faces are stored compactly (one index array plus start offsets) so that a 100k-face
//! mesh is two allocations, not 100k.

use crate::error::GeomError;
use crate::math::{Point, PointD, is_finite_point, to_f64};

/// Polygon faces stored as one flat index array with per-face start offsets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaceList {
    indices: Vec<u32>,
    /// `starts[f]..starts[f + 1]` is face `f`'s slice of `indices`; always begins with 0.
    starts: Vec<u32>,
}

impl FaceList {
    /// An empty face list.
    pub fn new() -> Self {
        Self {
            indices: Vec::new(),
            starts: vec![0],
        }
    }

    /// An empty face list with room for `faces` faces of `indices` total indices.
    pub fn with_capacity(faces: usize, indices: usize) -> Self {
        let mut starts = Vec::with_capacity(faces + 1);
        starts.push(0);
        Self {
            indices: Vec::with_capacity(indices),
            starts,
        }
    }

    /// [`FaceList::with_capacity`] that reports a failed allocation instead of aborting.
    ///
    /// # Errors
    /// [`GeomError::OutOfMemory`].
    pub fn try_with_capacity(faces: usize, indices: usize) -> Result<Self, GeomError> {
        let mut list = Self {
            indices: try_vec(indices)?,
            starts: try_vec(faces.saturating_add(1))?,
        };
        list.starts.push(0);
        Ok(list)
    }

    /// Faces from a triangle index list (three indices per face).
    pub fn from_triangles(triangles: &[[u32; 3]]) -> Self {
        let mut list = Self::with_capacity(triangles.len(), triangles.len() * 3);
        for t in triangles {
            list.push(t);
        }
        list
    }

    /// Appends one face (its vertex indices in order: counter-clockwise seen from outside).
    pub fn push(&mut self, face: &[u32]) {
        self.indices.extend_from_slice(face);
        self.starts.push(self.indices.len() as u32);
    }

    /// Number of faces.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// True when there are no faces.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The vertex indices of face `f`. Panics if `f >= len()`.
    pub fn face(&self, f: usize) -> &[u32] {
        &self.indices[self.starts[f] as usize..self.starts[f + 1] as usize]
    }

    /// Where face `f` begins in the flat index array; in a [`crate::dcel::Dcel`] this is also the
    /// id of the face's first half-edge. Panics if `f >= len()`.
    #[inline]
    pub fn start(&self, f: usize) -> u32 {
        self.starts[f]
    }

    /// Iterates over the faces in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        self.starts
            .windows(2)
            .map(|w| &self.indices[w[0] as usize..w[1] as usize])
    }

    /// Total number of indices over all faces.
    pub fn index_count(&self) -> usize {
        self.indices.len()
    }
}

/// A polygon mesh as given: positions and faces, not yet validated.
///
/// Positions are given in `f32` ([`MeshData::new`], [`MeshData::from_arrays`]) or in `f64`
/// ([`MeshData::from_f64`], [`MeshData::from_arrays_f64`]). The exact tests decide about the
/// positions in the precision they were given: [`MeshData::vertices`] is always the `f32` copy
/// (rounded to nearest from `f64` input) that bounds, hulls and trees are fitted to, and
/// [`MeshData::precise_vertices`] keeps the `f64` values whenever one of them is not an `f32`
/// number.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    /// Vertex positions in the object's local frame, in `f32` (rounded to nearest when the mesh
    /// was given in `f64`; do not edit them on a mesh that has precise vertices).
    pub vertices: Vec<Point>,
    /// Faces as vertex-index lists.
    pub faces: FaceList,
    /// The `f64` positions as given, kept only when some of them are not `f32` numbers.
    precise: Option<Vec<PointD>>,
}

impl MeshData {
    /// A mesh from `f32` positions and faces.
    pub fn new(vertices: Vec<Point>, faces: FaceList) -> Self {
        Self {
            vertices,
            faces,
            precise: None,
        }
    }

    /// A mesh from `f64` positions and faces. The `f32` copy is rounded to nearest; the `f64`
    /// values are kept (and decide) unless every coordinate is an `f32` number.
    pub fn from_f64(vertices: Vec<PointD>, faces: FaceList) -> Self {
        let rounded: Vec<Point> = vertices.iter().map(|p| p.cast::<f32>()).collect();
        Self::with_rounded(vertices, rounded, faces)
    }

    /// [`MeshData::from_f64`] with the `f32` copy already made (`rounded[i]` is `vertices[i]`
    /// rounded to nearest).
    fn with_rounded(vertices: Vec<PointD>, rounded: Vec<Point>, faces: FaceList) -> Self {
        let exact_in_f32 = vertices
            .iter()
            .zip(&rounded)
            .all(|(p, r)| p.iter().zip(r.iter()).all(|(&c, &q)| c == f64::from(q)));
        Self {
            vertices: rounded,
            faces,
            precise: (!exact_in_f32).then_some(vertices),
        }
    }

    /// The positions as given in `f64`, when the mesh was given in `f64` and some coordinate is
    /// not an `f32` number; `None` when [`MeshData::vertices`] holds the exact input.
    pub fn precise_vertices(&self) -> Option<&[PointD]> {
        self.precise.as_deref()
    }

    /// Vertex `i` exactly as given, in `f64`. Panics if `i` is out of range.
    #[inline]
    pub fn vertex_f64(&self, i: usize) -> PointD {
        match &self.precise {
            Some(p) => p[i],
            None => to_f64(&self.vertices[i]),
        }
    }

    /// A bound on how far the `f32` copy of any vertex is from its position as given: the
    /// largest `|given - copy|_1` (so it bounds the change of a projection on any unit vector),
    /// rounded up; 0 when the copy is the input. Boxes, hulls and trees fitted to the copy are
    /// widened by it.
    pub fn vertex_rounding(&self) -> f64 {
        let Some(given) = &self.precise else {
            return 0.0;
        };
        let largest = given
            .iter()
            .zip(&self.vertices)
            .map(|(g, c)| (g - to_f64(c)).abs().sum())
            .fold(0.0, f64::max);
        // Each difference is exact (the copy is the nearest f32, within a factor 2 of the
        // value); the sum of three rounds by at most 2 ulps.
        largest * (1.0 + 4.0 * f64::EPSILON)
    }

    /// The mesh with its `f64` positions dropped: the `f32` copy becomes the input (the exact
    /// tests then decide about the rounded positions).
    pub fn into_f32(mut self) -> Self {
        self.precise = None;
        self
    }

    /// As [`MeshData::from_arrays`], with `f64` coordinates (the C API's `ColMeshDescd`).
    ///
    /// # Errors
    /// As [`MeshData::from_arrays`].
    pub fn from_arrays_f64(
        xyz: &[f64],
        indices: &[u32],
        face_sizes: Option<&[u32]>,
    ) -> Result<Self, GeomError> {
        let vertices: Vec<PointD> = points_from_xyz(xyz)?;
        let mut rounded = try_vec(vertices.len())?;
        rounded.extend(vertices.iter().map(|p| p.cast::<f32>()));
        let mesh = Self::with_rounded(vertices, rounded, faces_from_arrays(indices, face_sizes)?);
        mesh.validate()?;
        Ok(mesh)
    }

    /// A mesh from `xyz` triples, a flat index array and optional per-face vertex counts
    /// (`None` means every face is a triangle). This is the C API's `ColMeshDesc` layout.
    ///
    /// # Errors
    /// [`GeomError::IndexCountMismatch`] when the face sizes do not add up to `indices.len()`
    /// (or `indices.len()` is not a multiple of 3 for triangles), plus everything
    /// [`MeshData::validate`] reports.
    pub fn from_arrays(
        xyz: &[f32],
        indices: &[u32],
        face_sizes: Option<&[u32]>,
    ) -> Result<Self, GeomError> {
        let mesh = Self::new(
            points_from_xyz(xyz)?,
            faces_from_arrays(indices, face_sizes)?,
        );
        mesh.validate()?;
        Ok(mesh)
    }

    /// Checks what makes a mesh unusable: no vertices, no faces, a non-finite coordinate, a face
    /// with fewer than 3 vertices, an index out of range. (Coordinates above
    /// [`MAX_COORDINATE`](crate::math::MAX_COORDINATE) pass here: files and hulls keep any finite
    /// `f32`; [`crate::Polyhedron::build`] refuses them.) Open, non-manifold, inconsistently
    /// oriented and degenerate meshes pass: they are classified, not rejected.
    ///
    /// # Errors
    /// The first problem found, naming the vertex or face.
    pub fn validate(&self) -> Result<(), GeomError> {
        if self.vertices.is_empty() {
            return Err(GeomError::NoVertices);
        }
        if self.faces.is_empty() {
            return Err(GeomError::NoFaces);
        }
        if let Some(precise) = &self.precise {
            if let Some(vertex) = precise
                .iter()
                .position(|p| !p.iter().all(|c| c.is_finite()))
            {
                return Err(GeomError::NonFiniteCoordinate { vertex });
            }
            // Finite doubles beyond the `f32` range round to infinity in the `f32` copy.
            if let Some(vertex) = self.vertices.iter().position(|p| !is_finite_point(p)) {
                return Err(GeomError::CoordinateTooLarge { vertex });
            }
        }
        if let Some(vertex) = self.vertices.iter().position(|p| !is_finite_point(p)) {
            return Err(GeomError::NonFiniteCoordinate { vertex });
        }
        let vertex_count = self.vertices.len();
        for (face, indices) in self.faces.iter().enumerate() {
            if indices.len() < 3 {
                return Err(GeomError::FaceTooSmall {
                    face,
                    len: indices.len(),
                });
            }
            if let Some(&index) = indices.iter().find(|&&i| i as usize >= vertex_count) {
                return Err(GeomError::IndexOutOfRange {
                    face,
                    index: i64::from(index),
                    vertex_count,
                });
            }
        }
        Ok(())
    }
}

/// Points from `xyz` triples (`f32` or `f64`), copied into fallibly reserved memory.
fn points_from_xyz<T: nalgebra::Scalar + Copy>(
    xyz: &[T],
) -> Result<Vec<nalgebra::Point3<T>>, GeomError> {
    if !xyz.len().is_multiple_of(3) {
        return Err(GeomError::CoordinateCountNotMultipleOfThree { len: xyz.len() });
    }
    let mut points = try_vec(xyz.len() / 3)?;
    points.extend(
        xyz.chunks_exact(3)
            .map(|c| nalgebra::Point3::new(c[0], c[1], c[2])),
    );
    Ok(points)
}

/// An empty vector with room for `n` items, or [`GeomError::OutOfMemory`] when that much memory
/// cannot be allocated.
pub(crate) fn try_vec<T>(n: usize) -> Result<Vec<T>, GeomError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| GeomError::OutOfMemory {
        bytes: n.saturating_mul(size_of::<T>()),
    })?;
    Ok(v)
}

/// Faces from a flat index array and optional per-face vertex counts (`None`: triangles); the
/// copy's memory is reserved fallibly.
fn faces_from_arrays(indices: &[u32], face_sizes: Option<&[u32]>) -> Result<FaceList, GeomError> {
    let face_count = face_sizes.map_or(indices.len() / 3, <[u32]>::len);
    let mut faces = FaceList::try_with_capacity(face_count, indices.len())?;
    match face_sizes {
        None => {
            if !indices.len().is_multiple_of(3) {
                return Err(GeomError::IndexCountMismatch {
                    expected: indices.len().div_ceil(3) * 3,
                    actual: indices.len(),
                });
            }
            for t in indices.chunks_exact(3) {
                faces.push(t);
            }
        }
        Some(sizes) => {
            let expected: usize = sizes.iter().map(|&s| s as usize).sum();
            if expected != indices.len() {
                return Err(GeomError::IndexCountMismatch {
                    expected,
                    actual: indices.len(),
                });
            }
            let mut at = 0;
            for &s in sizes {
                faces.push(&indices[at..at + s as usize]);
                at += s as usize;
            }
        }
    }
    Ok(faces)
}
