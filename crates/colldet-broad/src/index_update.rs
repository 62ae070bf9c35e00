//! What one move did to a space index.

/// The object-array entries a move changed in a space index ([`crate::UniformGrid`] cells or
/// [`crate::Octree`] octants). Both zero when the move kept the integer cell box (early exit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndexUpdate {
    /// Entries removed: cells (octants) the proxy left.
    pub detached: u64,
    /// Entries added: cells (octants) the proxy entered.
    pub attached: u64,
}
