//! [`PairCache`]: what one pair's test carries from one check to the next, one cache type per
//! pair kind.
//!
//! Rationale: the witnesses of an incremental test belong to the *pair* (the thesis keeps them in
//! the cell of the collision interest matrix, section 6.7), so the caller owns one value per
//! pair and passes it as `&mut`; nothing is global, several worlds and threads stay independent.
//! A pair only ever runs one kind of test, so it carries only that kind's cache: the box-box and
//! separating-vector kinds the Chung-Wang cache (the box-box test falls back to Chung-Wang in the
//! touching band), the GJK kind a GJK cache, the mesh and bounding-box kinds nothing.

use crate::{ChungWangCache, GjkCache, NarrowError};

/// The cache of one pair, in the frame conventions of its test (shape 1's frame for a pair
/// `(1, 2)`): always use it with the pair in the same order, and [`PairCache::reset`] it when
/// the pair's shapes change. A stale cache only slows a test down, it never changes an answer.
#[derive(Clone, Debug, Default)]
pub enum PairCache {
    /// Nothing cached: a new pair, or a kind whose test keeps nothing.
    #[default]
    Empty,
    /// [`super::PairKind::SeparatingVector`] and [`super::PairKind::BoxBox`]: separating vector, supporting
    /// vertices, collision certificate and the GJK fallback's warm start.
    SeparatingVector(ChungWangCache),
    /// [`super::PairKind::Gjk`]: last direction, support hints and simplex.
    Gjk(GjkCache),
}

impl PairCache {
    /// Forgets the witnesses (keeps allocated buffers and the kind).
    pub fn reset(&mut self) {
        match self {
            Self::Empty => {}
            Self::SeparatingVector(cache) => cache.reset(),
            Self::Gjk(cache) => cache.reset(),
        }
    }

    /// True when the pair's Chung-Wang cache holds a collision certificate: its next test checks
    /// the certificate first and skips the bounding-box pre-test.
    #[inline]
    pub fn has_certificate(&self) -> bool {
        matches!(self, Self::SeparatingVector(cache) if cache.has_certificate())
    }

    /// The Chung-Wang cache (an empty one replaces another kind's).
    pub(crate) fn chung_wang(&mut self) -> &mut ChungWangCache {
        if !matches!(self, Self::SeparatingVector(_)) {
            *self = Self::SeparatingVector(ChungWangCache::default());
        }
        match self {
            Self::SeparatingVector(cache) => cache,
            _ => unreachable!("a Chung-Wang cache was just made"),
        }
    }

    /// The GJK cache (an empty one replaces another kind's).
    pub(crate) fn gjk(&mut self) -> &mut GjkCache {
        if !matches!(self, Self::Gjk(_)) {
            *self = Self::Gjk(GjkCache::default());
        }
        match self {
            Self::Gjk(cache) => cache,
            _ => unreachable!("a GJK cache was just made"),
        }
    }

    /// Checks the held cache's invariants.
    ///
    /// # Errors
    /// The held cache's [`NarrowError::BrokenInvariant`].
    pub fn validate(&self) -> Result<(), NarrowError> {
        match self {
            Self::Empty => Ok(()),
            Self::SeparatingVector(cache) => cache.validate(),
            Self::Gjk(cache) => cache.validate(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GjkStatus, chung_wang_intersect, gjk_intersect};
    use colldet_geom::ConvexPolytope;
    use colldet_geom::math::{Point, Pose, VectorD};

    fn cube(h: f32) -> ConvexPolytope {
        let corners: Vec<Point> = (0..8)
            .map(|i| {
                let s = |bit: u32| if i & (1 << bit) == 0 { -h } else { h };
                Point::new(s(0), s(1), s(2))
            })
            .collect();
        ConvexPolytope::from_points(&corners).unwrap()
    }

    /// A pair's cache holds its own kind's witnesses: a query of another kind replaces it with an
    /// empty one; `reset` forgets the witnesses and keeps the kind.
    #[test]
    fn one_cache_per_kind() {
        let c = cube(0.5);
        let apart = Pose::translation(1.6, 0.0, 0.0);
        let deep = Pose::new(VectorD::new(0.2, 0.1, 0.05), VectorD::new(0.3, -0.2, 0.5));
        let mut pair = PairCache::default();
        pair.validate().unwrap();
        assert!(!pair.has_certificate());

        let mut workspace = crate::ChungWangWorkspace::default();
        let result = chung_wang_intersect(&c, &c, &deep, pair.chung_wang(), &mut workspace);
        let result = result.unwrap();
        assert!(result.status.is_colliding(), "{result:?}");
        assert!(matches!(pair, PairCache::SeparatingVector(_)));
        assert!(pair.has_certificate());
        pair.validate().unwrap();
        pair.reset();
        assert!(matches!(pair, PairCache::SeparatingVector(_)));
        assert!(!pair.has_certificate());

        let status = gjk_intersect(&c, &c, &apart, pair.gjk()).unwrap();
        assert_eq!(status, GjkStatus::Separated);
        let PairCache::Gjk(gjk) = &pair else {
            panic!("a GJK query leaves a GJK cache");
        };
        assert!(gjk.direction().is_some());
        pair.validate().unwrap();
        pair.reset();
        let PairCache::Gjk(gjk) = &pair else {
            panic!("reset keeps the kind");
        };
        assert!(gjk.direction().is_none());
    }
}
