//! The per-pair warm-start state of [`super::closest_features`].
//!
//! Rationale: coherent motion keeps the closest feature pair, or moves it to a neighbour, so
//! starting from the last pair makes a query O(1) steps. The cache also keeps what is O(n) to
//! compute and constant for a pair (each shape's bounding radius, which sets the touching band,
//! and a vertex to start from) together with a fingerprint of the two shapes (element counts and
//! two vertex positions), so using the cache with another pair recomputes them instead of reusing
//! stale ids. Two different shapes with identical fingerprints are not told apart: call
//! [`FeaturePairCache::reset`] when a cache is moved to another pair.

use super::Feature;
use crate::{GjkCache, NarrowError};
use colldet_geom::Polyhedron;
use colldet_geom::math::Real;

/// What the cache knows about one shape of the pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ShapeInfo {
    /// Vertex, half-edge and face counts, and the bit patterns of the first and last vertex.
    fingerprint: [u32; 9],
    /// Bounding radius about the local origin: the largest vertex norm (as [`crate::PointCloud`]
    /// computes it, so the touching band equals GJK's on the same vertices).
    pub radius: Real,
    /// The vertex of a face (a start for cold walks and hill climbs).
    pub start: u32,
}

impl ShapeInfo {
    fn fingerprint(poly: &Polyhedron) -> [u32; 9] {
        let vertices = poly.vertices();
        let first = vertices
            .first()
            .map_or([0; 3], |p| p.coords.map(f32::to_bits).into());
        let last = vertices
            .last()
            .map_or([0; 3], |p| p.coords.map(f32::to_bits).into());
        let dcel = poly.dcel();
        [
            vertices.len() as u32,
            dcel.half_edge_count() as u32,
            dcel.face_count() as u32,
            first[0],
            first[1],
            first[2],
            last[0],
            last[1],
            last[2],
        ]
    }

    fn compute(poly: &Polyhedron) -> Self {
        let radius = poly
            .vertices()
            .iter()
            .map(|p| p.coords.norm())
            .fold(0.0, Real::max);
        let dcel = poly.dcel();
        let start = if dcel.face_count() > 0 {
            dcel.face_vertices(colldet_geom::dcel::FaceId(0))[0]
        } else {
            0
        };
        Self {
            fingerprint: Self::fingerprint(poly),
            radius,
            start,
        }
    }
}

/// Per-pair state carried from one [`super::closest_features`] query to the next, passed in as
/// `&mut`: the last feature pair (the warm start), the shapes' bounding radii, the step count of
/// the last query, and a [`GjkCache`] for the rare queries that must resolve the touching band.
///
/// A cache serves one ordered pair of polyhedra. It allocates only inside its `GjkCache` (once, the
/// first time a contact has to be bracketed by EPA).
#[derive(Clone, Debug, Default)]
pub struct FeaturePairCache {
    pub(crate) pair: Option<(Feature, Feature)>,
    pub(crate) shapes: Option<[ShapeInfo; 2]>,
    pub(crate) steps: u32,
    pub(crate) gjk: GjkCache,
}

impl FeaturePairCache {
    /// An empty cache: the first query starts from the vertices extreme along the line between the
    /// shapes' origins.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the warm start and the shapes (keeps allocated memory).
    pub fn reset(&mut self) {
        self.pair = None;
        self.shapes = None;
        self.steps = 0;
        self.gjk.reset();
    }

    /// The feature pair of the last query (shape 1's feature, shape 2's feature), if any.
    pub fn features(&self) -> Option<(Feature, Feature)> {
        self.pair
    }

    /// Number of feature updates (walk steps) of the last query: 0 when the cached pair was still
    /// the closest one.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// The shape information for `(p1, p2)`, recomputed (and the warm start dropped) when the
    /// cache was last used with other shapes.
    pub(crate) fn bind(&mut self, p1: &Polyhedron, p2: &Polyhedron) -> [ShapeInfo; 2] {
        let fresh = match &self.shapes {
            Some([s1, s2]) => {
                s1.fingerprint != ShapeInfo::fingerprint(p1)
                    || s2.fingerprint != ShapeInfo::fingerprint(p2)
            }
            None => true,
        };
        if fresh {
            self.pair = None;
            self.gjk.reset();
            self.shapes = Some([ShapeInfo::compute(p1), ShapeInfo::compute(p2)]);
        }
        self.shapes
            .unwrap_or_else(|| [ShapeInfo::compute(p1), ShapeInfo::compute(p2)])
    }

    /// Checks the cache invariants: a stored pair comes with stored shapes and its ids are within
    /// the stored counts; radii are finite and non-negative; the inner [`GjkCache`] is valid.
    ///
    /// # Errors
    /// [`NarrowError::BrokenInvariant`] naming the failed check.
    pub fn validate(&self) -> Result<(), NarrowError> {
        if let Some(shapes) = &self.shapes {
            for (i, s) in shapes.iter().enumerate() {
                if !(s.radius.is_finite() && s.radius >= 0.0) {
                    return Err(NarrowError::BrokenInvariant {
                        what: "FeaturePairCache radius is not finite and non-negative",
                        index: i,
                    });
                }
            }
        }
        if let Some((f1, f2)) = self.pair {
            let Some(shapes) = &self.shapes else {
                return Err(NarrowError::BrokenInvariant {
                    what: "FeaturePairCache holds a feature pair without shapes",
                    index: 0,
                });
            };
            for (i, (f, s)) in [(f1, &shapes[0]), (f2, &shapes[1])].into_iter().enumerate() {
                let [vertices, half_edges, faces] =
                    [s.fingerprint[0], s.fingerprint[1], s.fingerprint[2]];
                let in_range = match f {
                    Feature::Vertex(v) => v.0 < vertices,
                    Feature::Edge(e) => e.0 < half_edges / 2,
                    Feature::Face(g) => g.0 < faces,
                };
                if !in_range {
                    return Err(NarrowError::BrokenInvariant {
                        what: "FeaturePairCache feature id out of range",
                        index: i,
                    });
                }
            }
        }
        self.gjk.validate()
    }
}
