//! Errors of the continuous queries.

use thiserror::Error;

/// Why a continuous query could not run.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum CcdError {
    /// A pose, motion parameter or distance is NaN or infinite.
    #[error("{what} is not finite")]
    NonFinite {
        /// The offending input.
        what: &'static str,
    },
    /// A parameter is out of its documented range.
    #[error("{what}: {requirement}")]
    InvalidParameter {
        /// The offending input.
        what: &'static str,
        /// What it must satisfy.
        requirement: &'static str,
    },
    /// The mesh cannot be swept (no face kept).
    #[error("mesh cannot be swept: {0}")]
    Mesh(String),
}
