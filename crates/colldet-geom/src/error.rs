//! The error type of colldet-geom: why a mesh or a point set was rejected.

use thiserror::Error;

/// Why geometry was rejected. Each variant names the place (vertex, face, line) it refers to.
#[derive(Debug, Error)]
pub enum GeomError {
    /// The mesh has no vertices.
    #[error("mesh has no vertices")]
    NoVertices,
    /// The mesh has no faces.
    #[error("mesh has no faces")]
    NoFaces,
    /// Memory for a copy of the mesh could not be allocated (the call is refused; nothing was
    /// changed).
    #[error("out of memory: {bytes} bytes for the mesh could not be allocated")]
    OutOfMemory {
        /// The size of the allocation that failed.
        bytes: usize,
    },
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {vertex} has a non-finite coordinate")]
    NonFiniteCoordinate {
        /// Index of the offending vertex.
        vertex: usize,
    },
    /// A finite vertex coordinate of magnitude above [`crate::math::MAX_COORDINATE`] (`1e15`):
    /// boxes, radii and distances derived from it could overflow.
    #[error("vertex {vertex} has a coordinate of magnitude above 1e15 (MAX_COORDINATE)")]
    CoordinateTooLarge {
        /// Index of the offending vertex.
        vertex: usize,
    },
    /// A face refers to a vertex that does not exist (or a negative index in a file).
    #[error("face {face} uses vertex index {index}, but there are {vertex_count} vertices")]
    IndexOutOfRange {
        /// Index of the offending face.
        face: usize,
        /// The index as written.
        index: i64,
        /// Number of vertices in the mesh.
        vertex_count: usize,
    },
    /// A face has fewer than three vertex indices.
    #[error("face {face} has {len} vertices; a face needs at least 3")]
    FaceTooSmall {
        /// Index of the offending face.
        face: usize,
        /// Number of indices it has.
        len: usize,
    },
    /// Every face has zero area, so nothing is left to collide.
    #[error("no face has non-zero area (all {faces} are degenerate): the mesh has no surface")]
    AllFacesDegenerate {
        /// Number of faces in the input.
        faces: usize,
    },
    /// A vertex that face edges do not connect to the rest of the mesh (convex polytopes need a
    /// connected edge graph for hill climbing).
    #[error("vertex {vertex} is not connected to vertex {reference} by face edges")]
    DisconnectedMesh {
        /// Index (in the input mesh) of a vertex not reachable from `reference`.
        vertex: usize,
        /// Index (in the input mesh) of the first vertex used by a face, where the search began.
        reference: usize,
    },
    /// A flat coordinate array whose length is not a multiple of 3.
    #[error("coordinate array has {len} floats, not a multiple of 3")]
    CoordinateCountNotMultipleOfThree {
        /// Number of floats given.
        len: usize,
    },
    /// Face sizes that do not add up to the number of indices given.
    #[error("faces need {expected} indices but {actual} were given")]
    IndexCountMismatch {
        /// Indices the face sizes call for.
        expected: usize,
        /// Indices given.
        actual: usize,
    },
    /// A mesh file that cannot be parsed.
    #[error("line {line}: {message}")]
    Parse {
        /// 1-based line number where the problem was found (the last line for a truncated file).
        line: usize,
        /// What is wrong there.
        message: String,
    },
    /// A point set whose convex hull has no volume (fewer than 4 points not all coplanar).
    #[error("convex hull is degenerate: the {points} points are {shape}")]
    DegenerateHull {
        /// Number of input points.
        points: usize,
        /// "coincident", "collinear" or "coplanar".
        shape: &'static str,
    },
    /// A mesh file whose extension names no format colldet reads (`.off` and `.obj` are read).
    #[error("cannot read {path}: unsupported mesh format (expected a .off or .obj extension)")]
    UnsupportedMeshFormat {
        /// The path whose extension was not recognised.
        path: String,
    },
    /// A shape-generator parameter outside its valid range (see the generator's documentation).
    #[error("shape parameter `{parameter}` = {value} is invalid: {requirement}")]
    InvalidShapeParameter {
        /// Name of the offending parameter, as in the generator's signature.
        parameter: &'static str,
        /// The value given (counts converted to `f64`).
        value: f64,
        /// What the parameter must satisfy.
        requirement: &'static str,
    },
    /// More points than 32-bit vertex indices can address.
    #[error("{points} points given; at most {max} are supported")]
    TooManyPoints {
        /// Number of points given.
        points: usize,
        /// The largest supported number of points.
        max: usize,
    },
    /// Convex hull construction found a configuration its exact invariants rule out (a horizon
    /// that is not one simple cycle). This is a bug in colldet, not a property of the input;
    /// please report the input that triggers it.
    #[error("convex hull invariant broken while inserting point {point}")]
    HullInvariant {
        /// Index in the input of the point being inserted (or the hull vertex being examined).
        point: usize,
    },
    /// A bounding volume that is not well formed (found by a `validate()` method).
    #[error("invalid bounding volume: {reason}")]
    InvalidBoundingVolume {
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A face that visits the same vertex at two consecutive corners (DCEL input must be clean).
    #[error("face {face} repeats vertex {vertex} at consecutive corners")]
    RepeatedCorner {
        /// Index of the offending face.
        face: usize,
        /// The repeated vertex.
        vertex: usize,
    },
    /// A convex-only construction was given a polyhedron whose classification is not convex.
    #[error("the polyhedron is not convex (see its classification)")]
    NotConvex,
    /// Reading a file failed.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path that was read.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}
