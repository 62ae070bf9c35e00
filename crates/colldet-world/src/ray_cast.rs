//! Ray casts against the world: [`World::ray_cast`] (the first object hit) and
//! [`World::ray_cast_all`] (every object hit, each once at its first contact).
//!
//! Rationale. Candidates come from the world's query index (`query_index.rs`, brought up to date
//! with the current poses first) with a conservative segment-box test ([`RaySegment`]'s); for
//! the first hit the index is walked front to back and a node entered strictly after the best
//! hit so far is skipped. Each candidate maps the ray into its local frame by its `f64` pose (the inverse of the
//! pose matrix the collision tests use, rounded once in `f64`) and walks its OBB tree
//! ([`ray_mesh`]): the hit/miss answer is exact for that mapped ray and the vertices as given. A
//! direction is scaled by a power of two (exactly) so its largest component lies in `[1, 2)`,
//! which keeps the exact arithmetic clear of underflow; `t` is scaled back exactly.
//!
//! A ray starting inside a closed object (a solid) hits it at `t = 0` (found by the exact
//! point-in-solid test on the tree), with the normal `-dir / |dir|` and no face, as a start on
//! its surface does with that face's normal.

use colldet_broad::{ProxyId, RaySegment};
use colldet_ccd::ray_mesh::{ray_mesh, ray_volume_margin};
use colldet_ccd::ray_triangle::RaySegment3;
use colldet_geom::dcel::FaceId;
use colldet_geom::math::{MAX_COORDINATE, PointD, VectorD};
use colldet_narrow::NarrowError;
use colldet_narrow::dispatch::PlacedShape;
use colldet_narrow::mesh::bvh::BvhVolume;
use colldet_narrow::mesh::{PointLocation, encloses_solid, point_in_polyhedron_bvh};

use crate::query_candidates::QueryScratch;
use crate::{NO_FEATURE, ObjectId, World, WorldError};

/// Where a ray touches an object, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The object hit.
    pub object: ObjectId,
    /// The ray parameter of the first contact, in units of the ray's `dir`: `point = origin +
    /// t dir`, `0 <= t <= max_t`. `0` when the ray starts inside or on the object.
    pub t: f64,
    /// `origin + t dir`, world coordinates.
    pub point: PointD,
    /// Unit normal of the triangle hit, world frame, on the side its winding makes the front
    /// (outward for a closed mesh); not flipped towards the ray. `-dir / |dir|` for a ray that
    /// starts inside a closed object.
    pub normal: VectorD,
    /// Input face index of the face hit, or [`NO_FEATURE`] (a start inside a closed object).
    pub face: u32,
}

/// A checked ray: the world segment and its direction scaled by a power of two.
#[derive(Clone, Copy)]
struct Ray {
    segment: RaySegment,
    /// `dir * scale`, the largest component's magnitude in `[1, 2)`.
    scaled_dir: VectorD,
    /// The power of two: `origin + t dir = origin + t_scaled dir * scale`, so `t = t_scaled *
    /// scale` and `t_scaled = t / scale`, both exact.
    scale: f64,
}

/// `2^k` for `k` in the range of normal and subnormal doubles, exactly.
fn pow2(k: i32) -> f64 {
    // Two factors keep each within the normal range.
    let half = k / 2;
    2f64.powi(half) * 2f64.powi(k - half)
}

impl Ray {
    fn new(origin: &PointD, dir: &VectorD, max_t: f64) -> Result<Self, WorldError> {
        let bounded = |v: &VectorD| v.iter().all(|c| c.is_finite() && c.abs() <= MAX_COORDINATE);
        if !bounded(&origin.coords) || !bounded(dir) {
            return Err(WorldError::InvalidArgument(
                "the ray's origin and direction must be finite, each coordinate at most \
                 MAX_COORDINATE in magnitude",
            ));
        }
        // A direction whose every component is zero or subnormal has no normal-range scale
        // (its largest component's power of two would overflow when inverted).
        if dir.abs().max() < f64::MIN_POSITIVE {
            return Err(WorldError::InvalidArgument(
                "the ray's direction must not be zero (nor all of its components subnormal)",
            ));
        }
        if max_t.is_nan() || max_t < 0.0 {
            return Err(WorldError::InvalidArgument(
                "max_t must be non-negative (not NaN; +inf for an unbounded ray)",
            ));
        }
        let largest = dir.abs().max();
        // largest = m 2^e with m in [1, 2): scale by 2^-e.
        let e = largest.log2().floor() as i32;
        let mut scale = pow2(-e);
        if largest * scale >= 2.0 {
            scale *= 0.5;
        } else if largest * scale < 1.0 {
            scale *= 2.0;
        }
        Ok(Self {
            segment: RaySegment::new(*origin, *dir, max_t),
            scaled_dir: dir * scale,
            scale,
        })
    }

    /// The ray in the frame of `object`, with the scaled direction and parameter bound.
    fn local(&self, object: &PlacedShape<'_>, max_t: f64) -> RaySegment3 {
        RaySegment3 {
            origin: object
                .matrix
                .inverse_transform_point(self.segment.origin())
                .coords,
            dir: object.matrix.inverse_transform_vector(&self.scaled_dir),
            max_t: max_t / self.scale,
        }
    }

    fn point(&self, t: f64) -> PointD {
        self.segment.origin() + self.segment.dir() * t
    }
}

/// The first contact of `ray` with `object` within `max_t` (world units of `t`), as a hit without
/// its id, or `None`.
fn object_hit(
    object: &PlacedShape<'_>,
    ray: &Ray,
    max_t: f64,
    stack: &mut Vec<u32>,
) -> Result<Option<(f64, VectorD, u32)>, NarrowError> {
    let local = ray.local(object, max_t);
    let bvh = object.shape.bvh()?;
    let poly = object.shape.polyhedron();
    let origin = PointD::from(local.origin);
    let b = object.shape.local_aabb();
    // The local box holds every triangle's `f32` vertices; grown by the tree walk's own margin
    // (vertex rounding included) it is as conservative as the walk's root test: it gates the
    // start-inside test and culls the ray.
    let walk_margin = ray_volume_margin(bvh, &local.origin);
    let in_box = (0..3).all(|k| {
        origin[k] >= f64::from(b.mins[k]) - walk_margin
            && origin[k] <= f64::from(b.maxs[k]) + walk_margin
    });
    if in_box
        && encloses_solid(poly)
        && point_in_polyhedron_bvh(poly, bvh, None, &origin, stack)? == PointLocation::Inside
    {
        // The scaled direction (largest component in [1, 2)) has a norm that cannot underflow.
        let n = -ray.scaled_dir / ray.scaled_dir.norm();
        return Ok(Some((0.0, n, NO_FEATURE)));
    }
    if !b.ray_may_hit(&local.origin, &local.dir, walk_margin) {
        return Ok(None);
    }
    let Some(hit) = ray_mesh(bvh, &local, stack) else {
        return Ok(None);
    };
    let [a, b, c] = bvh.triangle_f64(hit.triangle);
    let n = (b - a).cross(&(c - a));
    let n = object.matrix.rotation() * n.try_normalize(0.0).unwrap_or_else(VectorD::zeros);
    let face = poly.face_source(FaceId(bvh.source_face(hit.triangle).0));
    let t = (hit.t * ray.scale).min(max_t);
    Ok(Some((t, n, face)))
}

impl<U> World<U> {
    fn ray_hit(
        &self,
        slot: ProxyId,
        ray: &Ray,
        max_t: f64,
        stack: &mut Vec<u32>,
    ) -> Result<Option<RayHit>, WorldError> {
        let placed = self.objects.placed();
        let Some(id) = placed.id(slot) else {
            return Ok(None);
        };
        let object = placed.placed(slot);
        let hit = object_hit(&object, ray, max_t, stack).map_err(|source| WorldError::Narrow {
            a: id,
            b: id,
            source,
        })?;
        Ok(hit.map(|(t, normal, face)| RayHit {
            object: id,
            t,
            point: ray.point(t),
            normal,
            face,
        }))
    }

    /// The first object the ray `origin + t dir`, `0 <= t <= max_t`, touches (world frame), or
    /// `None`. `dir` is any finite non-zero vector and `t` is in its units; `max_t` may be
    /// `f64::INFINITY`. Touching counts (a ray through an edge or a corner, or grazing along a
    /// face, hits), a hit exactly at `max_t` counts, and a ray starting inside or on an object
    /// hits it at `t = 0` (inside a closed object: normal `-dir / |dir|`, face [`NO_FEATURE`]).
    /// Among objects hit at the same `t` the smaller id wins. Objects are solids when closed and
    /// surfaces when open, as in [`World::check`]; allowed before and after [`World::start`] at
    /// the current poses; changes nothing but scratch memory.
    ///
    /// Whether an object is hit within `max_t` is exact for the ray mapped into its frame by its
    /// `f64` pose and its vertices as given; `t` is then computed in `f64` (a few ulps relative,
    /// more for a ray nearly parallel to the face hit: the error grows like the inverse cosine of
    /// the angle to the face's normal).
    ///
    /// # Errors
    /// [`WorldError::InvalidArgument`] for a non-finite or zero `dir`, a non-finite origin, a
    /// coordinate above [`MAX_COORDINATE`], a negative or NaN `max_t`; [`WorldError::Narrow`]
    /// (naming the object twice) when an object's tree cannot be built.
    pub fn ray_cast(
        &mut self,
        origin: &PointD,
        dir: &VectorD,
        max_t: f64,
    ) -> Result<Option<RayHit>, WorldError> {
        let ray = Ray::new(origin, dir, max_t)?;
        self.refresh_query_index();
        let mut scratch = std::mem::take(&mut self.queries);
        let result = self.first_hit(&ray, &mut scratch);
        self.queries = scratch;
        result
    }

    fn first_hit(
        &self,
        ray: &Ray,
        scratch: &mut QueryScratch,
    ) -> Result<Option<RayHit>, WorldError> {
        let max_t = ray.segment.max_t();
        let mut best: Option<RayHit> = None;
        let QueryScratch { walk, stack, .. } = scratch;
        // Boxes are visited nearer first; one entered after the best hit so far is skipped
        // (every contact with it is at `t >= enter`), one entered exactly there is not, so a
        // hit at the same `t` with a smaller id is still found.
        self.query_index.walk_ray(&ray.segment, walk, |slot| {
            let bound = best.map_or(max_t, |b| b.t);
            if let Some(hit) = self.ray_hit(slot, ray, bound, stack)?
                && best.is_none_or(|b| (hit.t, hit.object) < (b.t, b.object))
            {
                best = Some(hit);
            }
            Ok::<_, WorldError>(best.map_or(f64::INFINITY, |b| b.t))
        })?;
        Ok(best)
    }

    /// Every object the ray touches, each once at its first contact (as [`World::ray_cast`]
    /// reports it), in `hits` (cleared first) sorted by `t`, then by id. A ray through a shared
    /// edge or corner of one object yields one entry for it.
    ///
    /// # Errors
    /// As [`World::ray_cast`] (`hits` is left empty).
    pub fn ray_cast_all(
        &mut self,
        origin: &PointD,
        dir: &VectorD,
        max_t: f64,
        hits: &mut Vec<RayHit>,
    ) -> Result<(), WorldError> {
        hits.clear();
        let ray = Ray::new(origin, dir, max_t)?;
        self.refresh_query_index();
        let mut scratch = std::mem::take(&mut self.queries);
        let segment = ray.segment;
        self.query_candidates(&mut |b| segment.may_hit(b), &mut scratch);
        let mut result = Ok(());
        for i in 0..scratch.candidates.len() {
            let slot = scratch.candidates[i].0;
            match self.ray_hit(slot, &ray, max_t, &mut scratch.stack) {
                Ok(Some(hit)) => hits.push(hit),
                Ok(None) => {}
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.queries = scratch;
        if result.is_err() {
            hits.clear();
        }
        hits.sort_unstable_by(|x, y| x.t.total_cmp(&y.t).then(x.object.cmp(&y.object)));
        result
    }
}
