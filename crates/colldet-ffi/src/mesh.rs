//! `ColMeshDesc`: a mesh as C hands it over, and its checked copy into [`MeshData`].

use colldet_geom::MeshData;

use crate::status::{COL_ERR_INVALID_MESH, COL_ERR_OUT_OF_MEMORY, Failure};

/// A polygon mesh in caller memory; `colMakeCollidable` copies it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ColMeshDesc {
    /// `3 * vertex_count` floats: x, y, z of each vertex, in the object's local frame.
    pub vertices: *const f32,
    /// Number of vertices.
    pub vertex_count: usize,
    /// The faces' vertex indices, face after face, each face counter-clockwise seen from
    /// outside: `3 * face_count` indices when `face_sizes` is NULL, else the sum of
    /// `face_sizes`.
    pub indices: *const u32,
    /// `face_count` vertex counts (each at least 3), or NULL when every face is a triangle.
    pub face_sizes: *const u32,
    /// Number of faces.
    pub face_count: usize,
}

fn too_large(what: &str, count: usize) -> Failure {
    Failure::new(
        COL_ERR_INVALID_MESH,
        format!("invalid mesh: {what} = {count} is too large"),
    )
}

/// Length in elements of an array of `count` items of `T`, if it fits in the address space.
fn array_len<T>(count: usize, what: &str) -> Result<usize, Failure> {
    match count.checked_mul(size_of::<T>()) {
        Some(bytes) if bytes <= isize::MAX as usize => Ok(count),
        _ => Err(too_large(what, count)),
    }
}

/// A slice of `len` items at `ptr`; `ptr` may be NULL only when `len` is 0.
///
/// # Safety
/// When `len > 0` and `ptr` is not NULL, `ptr` points to `len` readable items.
unsafe fn slice<'a, T>(ptr: *const T, len: usize, name: &str) -> Result<&'a [T], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: non-NULL, and the caller guarantees `len` readable items; `array_len` checked the
    // byte size fits in `isize`.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// A polygon mesh with `double` coordinates in caller memory; `colMakeCollidabled` copies it.
/// Layout and rules as [`ColMeshDesc`]; the answers are exact for the doubles given.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ColMeshDescd {
    /// `3 * vertex_count` doubles: x, y, z of each vertex, in the object's local frame.
    pub vertices: *const f64,
    /// Number of vertices.
    pub vertex_count: usize,
    /// The faces' vertex indices, face after face, each face counter-clockwise seen from
    /// outside: `3 * face_count` indices when `face_sizes` is NULL, else the sum of
    /// `face_sizes`.
    pub indices: *const u32,
    /// `face_count` vertex counts (each at least 3), or NULL when every face is a triangle.
    pub face_sizes: *const u32,
    /// Number of faces.
    pub face_count: usize,
}

/// The arrays of a mesh description, checked for size and NULL and borrowed from the caller.
struct RawMesh<'a, T> {
    xyz: &'a [T],
    indices: &'a [u32],
    sizes: Option<&'a [u32]>,
}

/// Borrows the arrays of a mesh description with coordinates of type `T`.
///
/// # Safety
/// The pointers hold at least as many items as the counts say (see [`ColMeshDesc`]'s fields).
unsafe fn raw_mesh<'a, T>(
    vertices: *const T,
    vertex_count: usize,
    indices: *const u32,
    face_sizes: *const u32,
    face_count: usize,
) -> Result<RawMesh<'a, T>, Failure> {
    if u32::try_from(vertex_count).is_err() {
        return Err(too_large("vertex_count", vertex_count));
    }
    let coordinates = array_len::<[T; 3]>(vertex_count, "vertex_count")? * 3;
    // SAFETY: the caller's contract on `vertices`.
    let xyz = unsafe { slice(vertices, coordinates, "desc->vertices") }?;
    let face_count = array_len::<u32>(face_count, "face_count")?;
    let sizes = if face_sizes.is_null() {
        None
    } else {
        // SAFETY: the caller's contract on `face_sizes`.
        Some(unsafe { slice(face_sizes, face_count, "desc->face_sizes") }?)
    };
    let index_count = match sizes {
        None => face_count.checked_mul(3),
        Some(sizes) => sizes
            .iter()
            .try_fold(0usize, |sum, &s| sum.checked_add(s as usize)),
    };
    let index_count = index_count.ok_or_else(|| too_large("index count", usize::MAX))?;
    let index_count = array_len::<u32>(index_count, "index count")?;
    // SAFETY: the caller's contract on `indices`.
    let indices = unsafe { slice(indices, index_count, "desc->indices") }?;
    Ok(RawMesh {
        xyz,
        indices,
        sizes,
    })
}

fn invalid_mesh(e: colldet_geom::GeomError) -> Failure {
    match e {
        colldet_geom::GeomError::OutOfMemory { .. } => {
            Failure::new(COL_ERR_OUT_OF_MEMORY, e.to_string())
        }
        _ => Failure::new(COL_ERR_INVALID_MESH, format!("invalid mesh: {e}")),
    }
}

/// The arrays both mesh descriptions hold, with their coordinate type.
trait MeshArrays: Copy {
    /// `f32` or `f64`.
    type Coordinate;
    /// Vertex array, vertex count, index array, face sizes (or NULL) and face count.
    fn arrays(
        self,
    ) -> (
        *const Self::Coordinate,
        usize,
        *const u32,
        *const u32,
        usize,
    );

    /// The arrays, checked for size and NULL and borrowed.
    ///
    /// # Safety
    /// The pointers hold at least as many items as the counts say.
    unsafe fn raw<'a>(self) -> Result<RawMesh<'a, Self::Coordinate>, Failure> {
        let (vertices, vertex_count, indices, face_sizes, face_count) = self.arrays();
        // SAFETY: forwarded caller contract.
        unsafe { raw_mesh(vertices, vertex_count, indices, face_sizes, face_count) }
    }
}

impl MeshArrays for ColMeshDesc {
    type Coordinate = f32;
    fn arrays(self) -> (*const f32, usize, *const u32, *const u32, usize) {
        let d = self;
        (
            d.vertices,
            d.vertex_count,
            d.indices,
            d.face_sizes,
            d.face_count,
        )
    }
}

impl MeshArrays for ColMeshDescd {
    type Coordinate = f64;
    fn arrays(self) -> (*const f64, usize, *const u32, *const u32, usize) {
        let d = self;
        (
            d.vertices,
            d.vertex_count,
            d.indices,
            d.face_sizes,
            d.face_count,
        )
    }
}

impl ColMeshDesc {
    /// Copies the mesh, checking sizes and pointers first; the geometry itself is validated by
    /// [`MeshData::from_arrays`] (every problem named).
    ///
    /// # Safety
    /// The pointers hold at least as many items as the counts say (see the field docs).
    pub(crate) unsafe fn to_mesh_data(self) -> Result<MeshData, Failure> {
        // SAFETY: forwarded caller contract.
        let raw = unsafe { self.raw() }?;
        MeshData::from_arrays(raw.xyz, raw.indices, raw.sizes).map_err(invalid_mesh)
    }
}

impl ColMeshDescd {
    /// Copies the mesh as [`ColMeshDesc::to_mesh_data`] does, keeping the doubles
    /// ([`MeshData::from_arrays_f64`]).
    ///
    /// # Safety
    /// The pointers hold at least as many items as the counts say (see the field docs).
    pub(crate) unsafe fn to_mesh_data(self) -> Result<MeshData, Failure> {
        // SAFETY: forwarded caller contract.
        let raw = unsafe { self.raw() }?;
        MeshData::from_arrays_f64(raw.xyz, raw.indices, raw.sizes).map_err(invalid_mesh)
    }
}
