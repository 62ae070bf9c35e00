//! The pair-kind table: which exact test a pair of prepared shapes gets under a [`Method`].

use super::{Method, ShapeTraits};

/// The exact test of a pair, as the table chooses it ([`PairKind::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairKind {
    /// Two hulls recognised as boxes: the exact 15-axis test, Chung-Wang inside the touching
    /// band.
    BoxBox,
    /// Chung-Wang separating vector on the hulls, after the caller's bounding-box pre-test.
    SeparatingVector,
    /// GJK on the hulls.
    Gjk,
    /// Surface intersection through the OBB trees, then containment by ray casts.
    Bvh,
    /// The thesis's arbitrary (polygon soup) test with containment.
    Arbitrary,
    /// The thesis's box-trees with containment.
    BoxTree,
    /// No exact test: the bounding boxes overlap, so the pair is reported.
    BoundingBoxes,
}

impl PairKind {
    /// The test `method` gives a pair whose shapes have traits `a` and `b` (symmetric).
    ///
    /// A flat shape ([`ShapeTraits::flat`]) has no hull, so no convex test applies to its
    /// pairs: `Auto` gives them `Bvh` (a flat shape is never convex), and the forced convex
    /// methods (`Convex`, `SeparatingVector`, `Gjk`) fall back to `Bvh`, the exact mesh test.
    #[inline]
    pub fn of(method: Method, a: ShapeTraits, b: ShapeTraits) -> Self {
        // The convex test: the box-box test when both hulls are boxes, else Chung-Wang.
        let convex_test = if a.box_hull && b.box_hull {
            Self::BoxBox
        } else {
            Self::SeparatingVector
        };
        match method {
            Method::Auto if a.convex && b.convex => convex_test,
            Method::Auto => Self::Bvh,
            Method::Arbitrary => Self::Arbitrary,
            Method::BoxTree => Self::BoxTree,
            Method::None => Self::BoundingBoxes,
            Method::Convex | Method::SeparatingVector | Method::Gjk if a.flat || b.flat => {
                Self::Bvh
            }
            Method::Convex => convex_test,
            Method::SeparatingVector => Self::SeparatingVector,
            Method::Gjk => Self::Gjk,
        }
    }

    /// True when the caller runs the Chung-Wang bounding-box pre-test ([`super::box_pretest`])
    /// before the test, and [`super::test_pair`] then does not run it again.
    #[inline]
    pub fn has_box_pretest(self) -> bool {
        self == Self::SeparatingVector
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_symmetric_and_follows_the_classification() {
        let traits = [
            (false, false, false),
            (true, false, false),
            (true, true, false),
            (false, true, false),
            (false, false, true),
        ]
        .map(|(convex, box_hull, flat)| ShapeTraits {
            convex,
            box_hull,
            flat,
        });
        let methods = [
            Method::Auto,
            Method::Convex,
            Method::Arbitrary,
            Method::BoxTree,
            Method::SeparatingVector,
            Method::Gjk,
            Method::None,
        ];
        for method in methods {
            for a in traits {
                for b in traits {
                    assert_eq!(PairKind::of(method, a, b), PairKind::of(method, b, a));
                }
            }
        }
        let [mesh, convex, cuboid, _, flat] = traits;
        assert_eq!(PairKind::of(Method::Auto, cuboid, cuboid), PairKind::BoxBox);
        assert_eq!(
            PairKind::of(Method::Auto, cuboid, convex),
            PairKind::SeparatingVector
        );
        assert_eq!(PairKind::of(Method::Auto, mesh, convex), PairKind::Bvh);
        assert_eq!(
            PairKind::of(Method::Convex, mesh, mesh),
            PairKind::SeparatingVector
        );
        assert_eq!(
            PairKind::of(Method::SeparatingVector, cuboid, cuboid),
            PairKind::SeparatingVector
        );
        for method in [
            Method::Auto,
            Method::Convex,
            Method::SeparatingVector,
            Method::Gjk,
        ] {
            for other in [mesh, convex, cuboid, flat] {
                assert_eq!(
                    PairKind::of(method, flat, other),
                    PairKind::Bvh,
                    "{method:?}"
                );
            }
        }
        assert_eq!(
            PairKind::of(Method::Arbitrary, flat, convex),
            PairKind::Arbitrary
        );
        assert_eq!(PairKind::of(Method::BoxTree, flat, flat), PairKind::BoxTree);
        assert_eq!(
            PairKind::of(Method::None, flat, cuboid),
            PairKind::BoundingBoxes
        );
        assert!(PairKind::SeparatingVector.has_box_pretest());
        assert!(!PairKind::BoxBox.has_box_pretest() && !PairKind::Gjk.has_box_pretest());
    }
}
