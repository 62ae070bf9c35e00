//! Closest-feature tracking for convex polyhedra (Lin-Canny / V-Clip): the distance, closest points
//! and closest features (vertex, edge or face of each shape) of two convex polyhedra, walking the
//! DCEL from the previous query's feature pair, with V-Clip's penetration detection.
//!
//! # Pair convention
//! `pos12` is the pose of shape 2 in shape 1's frame. Points are `f64`, in shape 1's frame and
//! units; features are named by each shape's own DCEL ids ([`Feature`]).
//!
//! # Outcomes and the touching band
//! With `tol = TOUCHING_TOLERANCE_FACTOR * (r1 + r2)` (the band of [`crate::gjk`]; `r1`, `r2` are
//! the largest vertex norms of the shapes, as [`crate::PointCloud`] computes them, so the band is
//! the one GJK uses on the same vertices) and `sd` the signed distance:
//! * [`ClosestFeatures::Disjoint`] when `sd > tol`, with the distance, closest points and features;
//! * [`ClosestFeatures::Touching`] when `-tol <= sd <= tol`;
//! * [`ClosestFeatures::Penetrating`] when `sd < -tol`.
//!
//! A separation found by the walk is certified (the Voronoi conditions give a separating slab), so
//! `Disjoint` and the distance need nothing else. When the walk ends with the features meeting, or
//! with a point of one shape inside the other less than `tol` below its boundary, the depth cannot
//! be read off the features; the band is then resolved exactly as [`crate::gjk_intersect`] does it
//! (GJK and an EPA bracket on the same polyhedra), so the boolean answers agree with GJK's outside
//! the band edges. A point found deeper than `tol` inside the other shape certifies penetration
//! directly (translating shape 2 by less than that depth cannot separate the shapes).
//!
//! # Accuracy
//! Closest points are computed in `f64` from the exact `f32` vertices; Voronoi tests allow a
//! rounding slack of `VORONOI_TOLERANCE_FACTOR * (r1 + r2 + |t12|)`, so the distance is accurate to
//! about that much (well inside `1e-9` relative for unit-size shapes). Faces are assumed planar up to
//! rounding; a face accepted by the polyhedron builder's planarity tolerance (`1e-5` of its
//! diameter by default) limits the accuracy to that deviation.
//!
//! # Cost
//! A query from a still-valid cached pair costs one closest-point computation and two Voronoi
//! tests (steps = 0); coherent motion needs O(1) steps ([`FeaturePairCache::steps`]). A cold
//! query scans the vertices once for a start pair; the escape from a local minimum visits every
//! face of one shape. No allocation except the first time the touching band is bracketed by EPA
//! (inside the cache).

mod exposed;
mod feature;
mod feature_cache;
mod feature_geometry;
mod polyhedron_support;
mod vclip;
mod voronoi;

pub use feature::Feature;
pub use feature_cache::FeaturePairCache;

use crate::NarrowError;
use crate::RelativePose;
use crate::gjk::{GjkStatus, TOUCHING_TOLERANCE_FACTOR, gjk_intersect};
use colldet_geom::Polyhedron;
use colldet_geom::dcel::VertexId;
use colldet_geom::math::{PointD, VectorD, to_f64};
use feature_cache::ShapeInfo;
use feature_geometry::{PairPose, Placed};
use polyhedron_support::PolyhedronSupport;
use vclip::{Walk, WalkEnd};

/// Rounding slack of the Voronoi-region tests, relative to the pair's numeric scale
/// `r1 + r2 + |t12|`.
pub const VORONOI_TOLERANCE_FACTOR: f64 = 1e-12;

/// The walk gives up with [`NarrowError::DidNotConverge`] after
/// `WALK_STEP_FACTOR * (h1 + h2) + WALK_STEP_MIN` feature updates (`h` = half-edge counts); a
/// correct walk visits each feature pair at most a few times.
pub const WALK_STEP_FACTOR: u32 = 4;

/// See [`WALK_STEP_FACTOR`].
pub const WALK_STEP_MIN: u32 = 64;

/// Result of [`closest_features`]; the band definitions are in the [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClosestFeatures {
    /// Separated by more than the touching tolerance.
    Disjoint {
        /// Euclidean distance between the shapes, in shape 1's units (`> tol`).
        distance: f64,
        /// Closest point of shape 1, on `feature1`, in shape 1's frame.
        point1: PointD,
        /// Closest point of shape 2, on `feature2`, in shape 1's frame; `point2 - point1` has
        /// length `distance` and points from shape 1 towards shape 2.
        point2: PointD,
        /// The feature of shape 1 containing `point1`, widened to the feature exposed in the
        /// direction `point2 - point1` up to the touching tolerance: a neighbouring face (else
        /// edge) is reported when all its vertices lie within `tol` of the supporting plane through
        /// `point1`, so (nearly) parallel faces are reported as faces, and a generic closest pair
        /// by its vertex, edge or face.
        feature1: Feature,
        /// The feature of shape 2 containing `point2`, exposed in the direction `point1 - point2`.
        feature2: Feature,
    },
    /// In contact within the touching band: `|sd| <= tol`.
    Touching {
        /// A feature of shape 1 at the contact.
        feature1: Feature,
        /// A feature of shape 2 at the contact.
        feature2: Feature,
    },
    /// Penetrating deeper than the touching tolerance.
    Penetrating {
        /// The feature of shape 1 where penetration was detected: a face that a point of
        /// `feature2` lies behind, or a feature that `feature2` crosses.
        feature1: Feature,
        /// The feature of shape 2 where penetration was detected.
        feature2: Feature,
    },
}

impl ClosestFeatures {
    /// True unless [`ClosestFeatures::Disjoint`]: "do the shapes collide (up to the touching
    /// tolerance)", the boolean of [`GjkStatus::is_colliding`].
    pub fn is_colliding(&self) -> bool {
        !matches!(self, Self::Disjoint { .. })
    }

    /// The feature pair (shape 1's, shape 2's) of any outcome.
    pub fn features(&self) -> (Feature, Feature) {
        match *self {
            Self::Disjoint {
                feature1, feature2, ..
            }
            | Self::Touching { feature1, feature2 }
            | Self::Penetrating { feature1, feature2 } => (feature1, feature2),
        }
    }
}

/// The closest features, points and distance of two convex polyhedra, warm-started from `cache`.
///
/// `pos12` is `p2`'s pose in `p1`'s frame; results are in `p1`'s frame (see the
/// [module docs](self) for the outcomes, tolerances and cost). `cache` holds the previous feature
/// pair of this pair of shapes and is updated; [`FeaturePairCache::steps`] then gives the number of
/// walk steps this query took.
///
/// # Errors
/// * [`NarrowError::NotConvex`] when either polyhedron is not classified convex.
/// * [`NarrowError::NonFinite`] for a NaN or infinite pose.
/// * [`NarrowError::DidNotConverge`] if the walk exceeds its step cap (see [`WALK_STEP_FACTOR`]),
///   or GJK/EPA theirs while resolving the touching band.
/// * [`NarrowError::BrokenInvariant`] if the walk found a point inside the other shape while GJK
///   certified a separation beyond the band (an internal inconsistency, reported, never hidden).
pub fn closest_features<P: RelativePose + ?Sized>(
    p1: &Polyhedron,
    p2: &Polyhedron,
    pos12: &P,
    cache: &mut FeaturePairCache,
) -> Result<ClosestFeatures, NarrowError> {
    if !p1.classification().convex {
        return Err(NarrowError::NotConvex { shape: "shape 1" });
    }
    if !p2.classification().convex {
        return Err(NarrowError::NotConvex { shape: "shape 2" });
    }
    let pose = PairPose::new(pos12)?;
    let [info1, info2] = cache.bind(p1, p2);
    let (r1, r2) = (f64::from(info1.radius), f64::from(info2.radius));
    let tol = TOUCHING_TOLERANCE_FACTOR * (r1 + r2);
    let tau = VORONOI_TOLERANCE_FACTOR * (r1 + r2 + pose.trans.norm());
    let (mut f1, mut f2) = match cache.pair {
        Some(pair) if pair.0.is_valid_in(p1) && pair.1.is_valid_in(p2) => pair,
        _ => cold_start(p1, p2, &pose, &info1, &info2),
    };
    let half_edges = (p1.dcel().half_edge_count() + p2.dcel().half_edge_count()) as u64;
    let max_steps = (u64::from(WALK_STEP_FACTOR) * half_edges + u64::from(WALK_STEP_MIN))
        .min(u64::from(u32::MAX)) as u32;
    let walk = Walk {
        poly1: p1,
        poly2: p2,
        pose: &pose,
        tau,
        max_steps,
    };
    let mut steps = 0;
    let end = walk.run(&mut f1, &mut f2, &mut steps);
    cache.steps = steps;
    cache.pair = Some((f1, f2));
    let band = |cache: &mut FeaturePairCache| {
        let s1 = PolyhedronSupport::new(p1, info1.radius, info1.start);
        let s2 = PolyhedronSupport::new(p2, info2.radius, info2.start);
        gjk_intersect(&s1, &s2, pos12, &mut cache.gjk)
    };
    match end? {
        WalkEnd::Closest {
            f1,
            f2,
            point1,
            point2,
        } => {
            let distance = (point2 - point1).norm();
            let disjoint = || {
                let (mut feature1, mut feature2) = (f1, f2);
                if distance > 0.0 {
                    let n = (point2 - point1) / distance;
                    feature1 = exposed::widen(&Placed::local(p1), f1, &point1, &n, tol);
                    feature2 = exposed::widen(&Placed::posed(p2, &pose), f2, &point2, &-n, tol);
                }
                ClosestFeatures::Disjoint {
                    distance,
                    point1,
                    point2,
                    feature1,
                    feature2,
                }
            };
            if distance > tol {
                return Ok(disjoint());
            }
            let touching = ClosestFeatures::Touching {
                feature1: f1,
                feature2: f2,
            };
            if distance > tau {
                // Certified separation within the band.
                return Ok(touching);
            }
            Ok(match band(cache)? {
                GjkStatus::Separated => disjoint(),
                GjkStatus::Touching => touching,
                GjkStatus::Intersecting => ClosestFeatures::Penetrating {
                    feature1: f1,
                    feature2: f2,
                },
            })
        }
        WalkEnd::Inside { f1, f2, depth } => {
            let penetrating = ClosestFeatures::Penetrating {
                feature1: f1,
                feature2: f2,
            };
            if depth > tol {
                return Ok(penetrating);
            }
            match band(cache)? {
                GjkStatus::Separated => Err(NarrowError::BrokenInvariant {
                    what: "closest-feature walk found a point inside the other shape but GJK certified a separation",
                    index: 0,
                }),
                GjkStatus::Touching => Ok(ClosestFeatures::Touching {
                    feature1: f1,
                    feature2: f2,
                }),
                GjkStatus::Intersecting => Ok(penetrating),
            }
        }
    }
}

/// A start pair for a query without a usable cached pair: the vertex of each shape extreme
/// towards the other shape's origin (one scan over the vertices).
fn cold_start(
    p1: &Polyhedron,
    p2: &Polyhedron,
    pose: &PairPose,
    info1: &ShapeInfo,
    info2: &ShapeInfo,
) -> (Feature, Feature) {
    let mut d = pose.trans;
    if d.norm_squared() == 0.0 {
        d = VectorD::x();
    }
    let d2 = -(pose.rot.transpose() * d);
    (
        Feature::Vertex(extreme_vertex(p1, &d, info1.start)),
        Feature::Vertex(extreme_vertex(p2, &d2, info2.start)),
    )
}

/// The used vertex of `poly` maximising `p . d` (the first one on ties), `start` if none beats it.
fn extreme_vertex(poly: &Polyhedron, d: &VectorD, start: u32) -> VertexId {
    let dcel = poly.dcel();
    let mut best = VertexId(start);
    let mut best_value = to_f64(poly.vertex(best)).coords.dot(d);
    for (i, p) in poly.vertices().iter().enumerate() {
        let value = to_f64(p).coords.dot(d);
        if value > best_value && dcel.vertex_half_edges(VertexId(i as u32)).len() > 0 {
            best_value = value;
            best = VertexId(i as u32);
        }
    }
    best
}
