//! The error type of colldet-narrow: why a pairwise query produced no answer.

use colldet_geom::GeomError;
use thiserror::Error;

/// Why a narrow-phase query failed. A failed query never degrades into a silent "no collision".
#[derive(Debug, Error)]
pub enum NarrowError {
    /// An input (the relative pose, a support direction or a support point) is NaN or infinite.
    #[error("non-finite {what} given to a narrow-phase query")]
    NonFinite {
        /// Which input: "pos12 translation", "pos12 rotation", "support point of shape 1", ...
        what: &'static str,
    },
    /// The iteration cap was reached before the stopping criterion held.
    #[error("{algorithm} did not converge within {iterations} iterations")]
    DidNotConverge {
        /// "GJK" or "EPA".
        algorithm: &'static str,
        /// The iteration cap that was reached.
        iterations: u32,
    },
    /// EPA could not keep its polytope convex (the silhouette seen from a new support point was not
    /// a single closed loop) while its depth bounds were still far apart.
    #[error("EPA polytope became degenerate with depth bounds [{lower}, {upper}] still apart")]
    EpaDegenerate {
        /// Lower bound on the penetration depth at the time of failure.
        lower: f64,
        /// Upper bound on the penetration depth at the time of failure.
        upper: f64,
    },
    /// A structural invariant checked by a `validate()` method does not hold.
    #[error("broken invariant at index {index}: {what}")]
    BrokenInvariant {
        /// The check that failed.
        what: &'static str,
        /// The face, vertex or edge it failed at (0 when not applicable).
        index: usize,
    },
    /// An options struct holds a value outside its documented range.
    #[error("option {name} = {value} {requirement}")]
    InvalidOption {
        /// The field name.
        name: &'static str,
        /// The rejected value.
        value: f64,
        /// What the value must satisfy.
        requirement: &'static str,
    },
    /// A query that needs a convex polyhedron was given one whose classification is not convex.
    #[error("{shape} is not a convex polyhedron")]
    NotConvex {
        /// "shape 1" or "shape 2".
        shape: &'static str,
    },
    /// A parameter or option is outside its documented range.
    #[error("invalid {parameter}: {requirement}")]
    InvalidParameter {
        /// The parameter's name.
        parameter: &'static str,
        /// What it must satisfy.
        requirement: &'static str,
    },
    /// A box-tree option is out of its documented range (see `mesh::box_tree::BoxTreeOptions`).
    #[error("box-tree option {option} = {value} is invalid: {requirement}")]
    InvalidBoxTreeOption {
        /// The option's field name.
        option: &'static str,
        /// The value given (integers converted to `f64`).
        value: f64,
        /// What the option must satisfy.
        requirement: &'static str,
    },
    /// A box tree was asked to store no elements (a mesh without faces or edges).
    #[error("a box tree needs at least one element")]
    EmptyBoxTree,
    /// A query that needs an enclosed solid (point in polyhedron, containment) got a mesh that
    /// does not bound one: some edge is used by an odd number of faces.
    #[error("mesh does not enclose a solid: {odd_edges} edges are used by an odd number of faces")]
    NotClosed {
        /// Number of edges used by an odd number of faces (boundary edges included).
        odd_edges: usize,
    },
    /// A shape could not be built from its input.
    #[error(transparent)]
    Geom(#[from] GeomError),
}
