//! Why a peer run failed.

use colldet_cli::scene::SceneError;
use colldet_geom::GeomError;
use colldet_narrow::NarrowError;
use colldet_world::WorldError;
use thiserror::Error;

/// An error of loading a scene or playing it through one of the libraries.
#[derive(Debug, Error)]
pub enum PeerError {
    /// The scene file is malformed or unreadable.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// A mesh file is unreadable or malformed.
    #[error("mesh {path}: {source}")]
    Mesh {
        /// The OFF file.
        path: String,
        /// What the reader reported.
        #[source]
        source: GeomError,
    },
    /// colldet's world refused a call.
    #[error("colldet: {0}")]
    World(#[from] WorldError),
    /// colldet's narrow phase failed on a pair (the dual-mode experiment calls it directly).
    #[error("colldet: {0}")]
    Narrow(#[from] NarrowError),
    /// parry could not build a shape from a mesh.
    #[error("parry3d-f64: mesh {path}: {message}")]
    ParryShape {
        /// The OFF file.
        path: String,
        /// What failed.
        message: String,
    },
    /// A CCD scene's expected file is unreadable or malformed.
    #[error("expected file {path}: {message}")]
    Expected {
        /// The file.
        path: String,
        /// What failed.
        message: String,
    },
    /// parry has no intersection test for a pair of its shapes.
    #[error("parry3d-f64: no intersection test for this pair of shapes")]
    ParryUnsupported,
}
