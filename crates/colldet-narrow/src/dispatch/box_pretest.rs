//! The Chung-Wang bounding-box pre-test, run by the caller before it fetches a pair's cache.
//!
//! Rationale: the separating-vector query starts by placing the hulls' local boxes with the
//! relative pose and testing them ([`HullBox::separated`]); most candidate pairs of a coherent
//! scene stop there. Running that step before the pair's cache is fetched means a pair it
//! separates costs no cache entry at all. Boxes found overlapping usually still overlap at the
//! next check, and a pair holding a collision certificate is usually still colliding, so the
//! pre-test is skipped once after either ([`PretestMemo`]). The arithmetic and margin are the
//! query's own, so the answers do not change.

use crate::chung_wang::HullBox;
use crate::{PairKind, PoseMatrix};

use super::PreparedShape;

/// An object's pre-test box, alone on a cache line: a caller keeps one per object in an array
/// of its own, read at random places only for pairs under the pre-test.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub struct PretestBox(HullBox);

impl PretestBox {
    /// The box of `shape`'s hull (the polytope the Chung-Wang test reads). A flat shape gets
    /// the box of its vertices; no pair of it runs the pre-test ([`PairKind::of`] gives its
    /// pairs mesh tests).
    pub fn of(shape: &PreparedShape) -> Self {
        match shape.hull() {
            Some(hull) => Self(HullBox::of(hull)),
            None => Self(HullBox::of_box(
                shape.local_aabb(),
                f64::from(shape.radius()),
                shape.vertex_rounding(),
            )),
        }
    }
}

/// What a pair's last test leaves for its next pre-test: whether to skip it. Kept by the caller
/// beside the pair's cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PretestMemo {
    skip_next: bool,
}

impl PretestMemo {
    /// The memo after a test: skip the next pre-test when this one ran and found the boxes
    /// overlapping, or when the pair's cache now holds a collision certificate.
    #[inline]
    pub fn after_test(outcome: PretestOutcome, certified: bool) -> Self {
        Self {
            skip_next: outcome == PretestOutcome::Overlapping || certified,
        }
    }
}

impl PretestMemo {
    /// True when the next pre-test is skipped.
    #[inline]
    pub fn skips_next(self) -> bool {
        self.skip_next
    }
}

/// What [`box_pretest`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PretestOutcome {
    /// The kind has no pre-test, or the memo said to skip it: test the pair.
    NotRun,
    /// The boxes overlap: test the pair.
    Overlapping,
    /// The boxes are apart: the pair is separated, do not test it.
    Separated,
}

/// The pre-test of a pair of kind `kind` whose boxes are `a` and `b`, `pos12` the pose of b's
/// object in a's frame, `memo` the pair's memo (the default for a pair without one).
#[inline]
pub fn box_pretest(
    kind: PairKind,
    memo: PretestMemo,
    a: &PretestBox,
    b: &PretestBox,
    pos12: impl FnOnce() -> PoseMatrix,
) -> PretestOutcome {
    if !kind.has_box_pretest() || memo.skip_next {
        return PretestOutcome::NotRun;
    }
    if a.0.separated(&b.0, &pos12()) {
        PretestOutcome::Separated
    } else {
        PretestOutcome::Overlapping
    }
}
