//! The error type of the world API.

use colldet_broad::BroadPhaseError;
use colldet_geom::GeomError;
use colldet_narrow::NarrowError;
use thiserror::Error;

use crate::ObjectId;

/// Why a world call was refused. After any error the world is unchanged and usable, except after
/// [`WorldError::Narrow`] from [`crate::World::check`], which completed the check for every other
/// pair (see there).
#[derive(Debug, Error)]
pub enum WorldError {
    /// A configuration value is out of range.
    #[error("invalid configuration: {0}")]
    InvalidConfig(&'static str),
    /// A pose or matrix that is not finite or not rigid.
    #[error("invalid transform: {0}")]
    InvalidTransform(&'static str),
    /// The mesh was rejected.
    #[error("invalid mesh: {0}")]
    InvalidMesh(#[from] GeomError),
    /// The handle does not name a live object of this world (never issued, or removed).
    #[error("unknown or stale object handle {0:?}")]
    InvalidHandle(ObjectId),
    /// An argument of a query is out of range (the message says which).
    #[error("invalid argument: {0}")]
    InvalidArgument(&'static str),
    /// A pair of an object with itself.
    #[error("a pair needs two different objects")]
    SameObject,
    /// The call is not allowed in the world's current state (e.g. `check` before `start`).
    #[error("wrong state: {0}")]
    WrongState(&'static str),
    /// The memory an object's preparation may need could not be allocated (the object was not
    /// added; see `memory_probe`).
    #[error(
        "out of memory: preparing the mesh may need {bytes} bytes, which could not be allocated"
    )]
    OutOfMemory {
        /// The forecast that failed.
        bytes: usize,
    },
    /// `max_objects` live objects exist already.
    #[error("the world already holds its maximum of {0} objects")]
    TooManyObjects(usize),
    /// The narrow phase failed on a pair (it names the error; the pair is skipped, not guessed).
    #[error("narrow phase failed on {a:?} and {b:?}: {source}")]
    Narrow {
        /// First object of the pair.
        a: ObjectId,
        /// Second object of the pair.
        b: ObjectId,
        /// What went wrong.
        #[source]
        source: NarrowError,
    },
    /// A continuous query refused its input or geometry.
    #[error("continuous collision: {0}")]
    Ccd(#[from] colldet_ccd::CcdError),
    /// The broad phase refused an update (a bug if it ever happens: boxes are checked first).
    #[error("broad phase: {0}")]
    Broad(#[from] BroadPhaseError),
    /// The thread pool could not be created.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
}
