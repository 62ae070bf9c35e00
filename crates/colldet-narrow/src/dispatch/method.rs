//! [`Method`]: the caller's choice of exact test, which [`super::PairKind::of`] turns into a
//! test per pair.

/// Which exact test runs on a candidate pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Chosen per pair from the objects' classification: two convex objects use the exact
    /// box-box test when both are boxes (Chung-Wang near the touching band), otherwise the cached
    /// Chung-Wang separating-vector test; any other pair uses the mesh BVH test with solid
    /// semantics.
    #[default]
    Auto,
    /// Convex test on every pair, using each object's convex hull when it is not convex: box-box
    /// when both hulls are boxes, Chung-Wang otherwise. A pair with a flat object (no hull,
    /// [`super::PreparedShape::is_flat`]) gets the mesh BVH test instead, as under `Auto`.
    Convex,
    /// The thesis's arbitrary (polygon soup) test with containment.
    Arbitrary,
    /// The thesis's box-trees with containment.
    BoxTree,
    /// Chung-Wang separating vector on convex hulls (as `Convex`, without the box-box test; flat
    /// objects' pairs get the mesh BVH test).
    SeparatingVector,
    /// GJK on convex hulls (flat objects' pairs get the mesh BVH test).
    Gjk,
    /// No exact test: report every broad-phase pair (bounding boxes overlap).
    None,
}
