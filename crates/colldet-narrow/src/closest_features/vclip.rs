//! The feature walk: from a starting feature pair, step to neighbouring features until each
//! feature's closest point lies in the other feature's Voronoi region, or a point of one
//! polyhedron is found inside the other.
//!
//! Rationale (Lin and Canny's closest-feature tracking, Mirtich's V-Clip):
//! * Let `x1, x2` be the closest points of the current features `f1, f2`. If `x2` lies in the
//!   external Voronoi region of `f1` and `x1` in that of `f2`, then `x2` is the point of shape 2's
//!   feature closest to all of shape 1 and vice versa, so the slab between the planes through `x1`
//!   and `x2` perpendicular to `x2 - x1` separates the shapes: `|x2 - x1|` is their distance (or
//!   the features meet, `x1 = x2`, and the shapes touch or overlap).
//! * Otherwise the feature whose region is violated steps to the neighbour across the most
//!   violated constraint plane. Vertex-to-edge steps strictly decrease the distance between the
//!   feature pair; the other steps never increase it, and a chain of non-decreasing steps ends
//!   at a strict decrease (the transition chart of V-Clip), so in exact arithmetic the walk ends.
//! * A point behind a face but inside the face's prism is a local minimum of the walk: the face
//!   plane farthest in front of the point is found by visiting every face (V-Clip's escape); if
//!   no plane has the point in front of it (beyond rounding) the point is inside the other shape,
//!   a witness of penetration whose depth below the boundary is a lower bound on the penetration
//!   depth. Otherwise the walk jumps to that face.
//! * Floating point: violations within `tau` (rounding, about `1e-12` of the pair's numeric scale)
//!   count as satisfied, and the number of steps is capped, so the walk always returns.

use super::Feature;
use super::feature_geometry::{PairPose, Placed, closest_points};
use super::voronoi::{RegionTest, farthest_face_plane, test_region};
use crate::NarrowError;
use colldet_geom::Polyhedron;
use colldet_geom::math::PointD;

/// How the walk ended.
#[derive(Clone, Copy, Debug)]
pub(crate) enum WalkEnd {
    /// Both Voronoi conditions hold: `point1` (on `f1`) and `point2` (on `f2`, shape 1's frame)
    /// are closest points of the shapes, unless they coincide (the features meet).
    Closest {
        f1: Feature,
        f2: Feature,
        point1: PointD,
        point2: PointD,
    },
    /// A point of `f2` (or of `f1`) lies inside or on the other shape, at least `depth` (`>= 0`)
    /// below that shape's boundary; `f1`/`f2` are the features at which it was found (the one the
    /// point was behind is a face).
    Inside {
        f1: Feature,
        f2: Feature,
        depth: f64,
    },
}

/// The inputs of one walk.
pub(crate) struct Walk<'a> {
    pub poly1: &'a Polyhedron,
    pub poly2: &'a Polyhedron,
    pub pose: &'a PairPose,
    /// Rounding allowance of the region tests, in shape 1's units.
    pub tau: f64,
    /// Step cap (feature updates) before [`NarrowError::DidNotConverge`].
    pub max_steps: u32,
}

impl Walk<'_> {
    /// Walks from `(f1, f2)`; on return `f1`/`f2` hold the last pair and `steps` the number of
    /// feature updates made.
    pub(crate) fn run(
        &self,
        f1: &mut Feature,
        f2: &mut Feature,
        steps: &mut u32,
    ) -> Result<WalkEnd, NarrowError> {
        let placed1 = Placed::local(self.poly1);
        let placed2 = Placed::posed(self.poly2, self.pose);
        *steps = 0;
        loop {
            if *steps > self.max_steps {
                return Err(NarrowError::DidNotConverge {
                    algorithm: "closest-feature walk",
                    iterations: self.max_steps,
                });
            }
            let (x1, x2) = closest_points(&placed1, *f1, &placed2, *f2);
            match test_region(self.poly1, *f1, &x2, self.tau) {
                RegionTest::Step(g) => {
                    *f1 = g;
                    *steps += 1;
                    continue;
                }
                RegionTest::Behind => {
                    let (face, signed) = farthest_face_plane(self.poly1, &x2);
                    if signed <= self.tau {
                        return Ok(WalkEnd::Inside {
                            f1: *f1,
                            f2: *f2,
                            depth: (-signed).max(0.0),
                        });
                    }
                    *f1 = Feature::Face(face);
                    *steps += 1;
                    continue;
                }
                RegionTest::Inside => {}
            }
            let y1 = self.pose.point_in_frame2(&x1);
            match test_region(self.poly2, *f2, &y1, self.tau) {
                RegionTest::Step(g) => {
                    *f2 = g;
                    *steps += 1;
                }
                RegionTest::Behind => {
                    let (face, signed) = farthest_face_plane(self.poly2, &y1);
                    if signed <= self.tau {
                        return Ok(WalkEnd::Inside {
                            f1: *f1,
                            f2: *f2,
                            depth: (-signed).max(0.0),
                        });
                    }
                    *f2 = Feature::Face(face);
                    *steps += 1;
                }
                RegionTest::Inside => {
                    return Ok(WalkEnd::Closest {
                        f1: *f1,
                        f2: *f2,
                        point1: x1,
                        point2: x2,
                    });
                }
            }
        }
    }
}
