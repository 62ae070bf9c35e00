//! Spatial queries against every object of a world: `colRayCast` (first hit), `colRayCastAll`
//! (every object hit), `colOverlapBox` and `colOverlapConvex` (objects touching a box or a
//! convex shape). They wrap `colldet_world::World::ray_cast`, `ray_cast_all`, `overlap_box` and
//! `overlap_convex_matrix`, change nothing in the world, and are allowed before and after
//! `colStart` and inside callbacks. Results go into the caller's buffers; the lists are
//! gathered in per-thread scratch memory kept between calls (no allocation once warm, except
//! the overlap queries' query shape).

use std::cell::RefCell;
use std::ffi::c_void;

use colldet_geom::WorldAabb;
use colldet_geom::math::{PointD, VectorD};
use colldet_world::{ObjectId, RayHit, World};

use crate::boundary::{Access, with_world};
use crate::callback::COL_NO_FEATURE;
use crate::status::{ColStatus, Failure};
use crate::world::{ClientData, ColObjectId, ColWorld};

/// Where a ray touches an object (world coordinates), as `colRayCast` and `colRayCastAll`
/// report it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColRayHit {
    /// The object hit; 0 when `colRayCast` hit nothing.
    pub object: ColObjectId,
    /// The ray parameter of the first contact, in units of `dir`: `point = origin + t * dir`,
    /// `0 <= t <= max_t` (`0` for a ray starting inside or on the object). `INFINITY` on a miss.
    pub t: f64,
    /// `origin + t * dir`.
    pub point: [f64; 3],
    /// Unit normal of the face hit, on the side its winding makes the front (outward for a
    /// closed mesh), not flipped towards the ray; `-dir / |dir|` for a ray starting inside a
    /// closed object; zero on a miss.
    pub normal: [f64; 3],
    /// Index of the face hit (as given), or `COL_NO_FEATURE` (a start inside, or a miss).
    pub face: u32,
    /// The object's `client_data` (NULL on a miss).
    pub client_data: *mut c_void,
}

impl ColRayHit {
    fn miss() -> Self {
        Self {
            object: 0,
            t: f64::INFINITY,
            point: [0.0; 3],
            normal: [0.0; 3],
            face: COL_NO_FEATURE,
            client_data: std::ptr::null_mut(),
        }
    }

    fn of(hit: &RayHit, world: &World<ClientData>) -> Self {
        Self {
            object: hit.object.to_raw(),
            t: hit.t,
            point: hit.point.coords.into(),
            normal: hit.normal.into(),
            face: hit.face,
            client_data: world
                .user_data(hit.object)
                .map_or(std::ptr::null_mut(), |c| c.0),
        }
    }
}

thread_local! {
    /// The last all-hits list (reused, so a warm thread does not allocate).
    static HITS: RefCell<Vec<RayHit>> = const { RefCell::new(Vec::new()) };
    /// The last overlap list.
    static IDS: RefCell<Vec<ObjectId>> = const { RefCell::new(Vec::new()) };
}

/// Three doubles at `p`, or a NULL-argument failure naming `name`.
///
/// # Safety
/// `p` is NULL or points to three readable doubles.
unsafe fn read3(p: *const f64, name: &str) -> Result<[f64; 3], Failure> {
    // SAFETY: caller's contract.
    unsafe { p.cast::<[f64; 3]>().as_ref() }
        .copied()
        .ok_or_else(|| Failure::null(name))
}

/// Writes the first `capacity` of `items` to `out` (mapped by `map`) and the total to
/// `out_count`.
///
/// # Safety
/// `out` is NULL only when `capacity` is 0, else writable for `capacity` elements;
/// `out_count` writable.
unsafe fn write_list<T, C>(
    items: &[T],
    out: *mut C,
    capacity: usize,
    out_count: *mut usize,
    map: impl Fn(&T) -> C,
) {
    for (k, item) in items.iter().take(capacity).enumerate() {
        // SAFETY: k < capacity, the caller's buffer size.
        unsafe { out.add(k).write(map(item)) };
    }
    // SAFETY: caller's contract.
    unsafe { out_count.write(items.len()) };
}

fn check_buffer<C>(out: *mut C, capacity: usize, out_count: *mut usize) -> Result<(), Failure> {
    if out_count.is_null() {
        return Err(Failure::null("out_count"));
    }
    if out.is_null() && capacity > 0 {
        return Err(Failure::null("the output buffer (capacity > 0)"));
    }
    Ok(())
}

/// The first object the ray `origin + t * dir`, `0 <= t <= max_t`, touches (world frame),
/// written to `*out` (`out->object == 0` when none is). `dir` is any finite non-zero vector and
/// `t` is in its units; `max_t` may be `INFINITY`. Touching counts: a ray through an edge or a
/// corner, or grazing along a face, hits; a hit exactly at `max_t` counts; a ray starting inside
/// a closed object (a solid) or on any object hits it at `t = 0`. Among objects hit at the
/// same `t` the smaller id wins. Whether an object is hit is exact for the ray mapped into its
/// frame by its double pose and its vertices as given; `t` is computed in double precision (a
/// few ulps, more for a ray nearly parallel to the face hit). Candidates come from the world's
/// query index (a tree over the objects' current boxes, walked nearest first). Allowed before and after `colStart` and inside callbacks.
///
/// Errors: `COL_ERR_NULL_ARGUMENT` for a NULL `world`, `origin`, `dir` or `out`;
/// `COL_ERR_INVALID_ARGUMENT` for a NaN or infinite coordinate, one beyond
/// `COL_MAX_COORDINATE`, a zero `dir` (or one whose components are all subnormal), a negative or NaN `max_t`; `COL_ERR_NUMERICAL` when an
/// object's tree cannot be built. `*out` is written on success only.
///
/// # Safety
/// `world` is NULL or a live world; `origin` and `dir` are NULL or point to 3 readable doubles;
/// `out` is NULL or writable. Not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colRayCast(
    world: *const ColWorld,
    origin: *const f64,
    dir: *const f64,
    max_t: f64,
    out: *mut ColRayHit,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colRayCast", Access::Any, |w| {
            let (o, d) = (read3(origin, "origin")?, read3(dir, "dir")?);
            if out.is_null() {
                return Err(Failure::null("out"));
            }
            let mut world = w.world.borrow_mut();
            let hit = world.ray_cast(&PointD::from(o), &VectorD::from(d), max_t)?;
            out.write(hit.map_or_else(ColRayHit::miss, |h| ColRayHit::of(&h, &world)));
            Ok(())
        })
    }
}

/// Every object the ray touches, each once at its first contact (as `colRayCast` reports it),
/// sorted by `t`, then by id: the first `capacity` go to `hits`, and `*out_count` is the total
/// (which may exceed `capacity`: call again with a larger buffer for the rest). A ray through a
/// shared edge or corner of one object yields one entry for it. `hits` may be NULL when
/// `capacity` is 0 (to count).
///
/// Errors: as `colRayCast` (`out_count` NULL, or `hits` NULL with `capacity > 0`, is
/// `COL_ERR_NULL_ARGUMENT`). Outputs are written on success only.
///
/// # Safety
/// `world` is NULL or a live world; `origin`, `dir` as for `colRayCast`; `hits` NULL or writable
/// for `capacity` elements; `out_count` NULL or writable. Not concurrently with other calls on
/// the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colRayCastAll(
    world: *const ColWorld,
    origin: *const f64,
    dir: *const f64,
    max_t: f64,
    hits: *mut ColRayHit,
    capacity: usize,
    out_count: *mut usize,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colRayCastAll", Access::Any, |w| {
            let (o, d) = (read3(origin, "origin")?, read3(dir, "dir")?);
            check_buffer(hits, capacity, out_count)?;
            let mut world = w.world.borrow_mut();
            HITS.with_borrow_mut(|list| {
                world.ray_cast_all(&PointD::from(o), &VectorD::from(d), max_t, list)?;
                write_list(list, hits, capacity, out_count, |h| {
                    ColRayHit::of(h, &world)
                });
                Ok(())
            })
        })
    }
}

/// The objects sharing a point with the closed box `[lo, hi]` (world frame; touching counts; a
/// closed object is a solid, so a box inside one overlaps it), sorted by id: the first
/// `capacity` ids go to `ids`, `*out_count` is the total. Exact for the box's doubles, the
/// objects' vertices as given and their double poses. A box flat on one axis is the rectangle
/// it is. Allowed before and after `colStart` and inside callbacks.
///
/// Errors: `COL_ERR_NULL_ARGUMENT` for a NULL `world`, `lo`, `hi`, `out_count`, or `ids` with
/// `capacity > 0`; `COL_ERR_INVALID_ARGUMENT` for a NaN or infinite coordinate, one beyond
/// `COL_MAX_COORDINATE`, `lo > hi` on some axis, or a box without area; `COL_ERR_NUMERICAL`
/// when an exact test fails.
///
/// # Safety
/// `world` is NULL or a live world; `lo`, `hi` NULL or 3 readable doubles each; `ids` NULL or
/// writable for `capacity` ids; `out_count` NULL or writable. Not concurrently with other calls
/// on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colOverlapBox(
    world: *const ColWorld,
    lo: *const f64,
    hi: *const f64,
    ids: *mut ColObjectId,
    capacity: usize,
    out_count: *mut usize,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colOverlapBox", Access::Any, |w| {
            let (lo, hi) = (read3(lo, "lo")?, read3(hi, "hi")?);
            check_buffer(ids, capacity, out_count)?;
            let aabb = WorldAabb::new(PointD::from(lo), PointD::from(hi));
            IDS.with_borrow_mut(|list| {
                w.world.borrow_mut().overlap_box(&aabb, list)?;
                write_list(list, ids, capacity, out_count, |id| id.to_raw());
                Ok(())
            })
        })
    }
}

/// The objects sharing a point with the convex hull of `point_count` points (`points`: x, y, z
/// per point, in the shape's frame) placed by the column-major 4x4 double matrix `m` (checked
/// as `colSetTransformd` checks it; NULL is the identity), sorted by id: the first `capacity`
/// ids go to `ids`, `*out_count` is the total. The hull is a solid; its faces are chosen on
/// the points rounded to float, and the solid tested is bounded by those faces through the
/// doubles given (the same polytope whenever the points are floats or clearly in convex
/// position); the test is exact for those doubles, the objects' vertices and the double poses.
///
/// Errors: `COL_ERR_NULL_ARGUMENT` for a NULL `world`, `points`, `out_count`, or `ids` with
/// `capacity > 0`; `COL_ERR_INVALID_ARGUMENT` for a non-rigid matrix, NaN or infinite
/// coordinates, coordinates beyond `COL_MAX_COORDINATE`, or points without volume (fewer than
/// four, or all in one plane); `COL_ERR_NUMERICAL` when an exact test fails.
///
/// # Safety
/// `world` is NULL or a live world; `points` NULL or `3 * point_count` readable doubles; `m`
/// NULL or 16 readable doubles; `ids` NULL or writable for `capacity` ids; `out_count` NULL or
/// writable. Not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colOverlapConvex(
    world: *const ColWorld,
    points: *const f64,
    point_count: usize,
    m: *const f64,
    ids: *mut ColObjectId,
    capacity: usize,
    out_count: *mut usize,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colOverlapConvex", Access::Any, |w| {
            if points.is_null() {
                return Err(Failure::null("points"));
            }
            check_buffer(ids, capacity, out_count)?;
            let len = point_count.checked_mul(3).ok_or(Failure::new(
                crate::status::COL_ERR_INVALID_ARGUMENT,
                "colOverlapConvex: point_count is too large",
            ))?;
            let coords = std::slice::from_raw_parts(points, len);
            let pts: Vec<PointD> = coords
                .chunks_exact(3)
                .map(|c| PointD::new(c[0], c[1], c[2]))
                .collect();
            const IDENTITY: [f64; 16] = [
                1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
            ];
            let m = m.cast::<[f64; 16]>().as_ref().copied().unwrap_or(IDENTITY);
            IDS.with_borrow_mut(|list| {
                w.world.borrow_mut().overlap_convex_matrix(&pts, &m, list)?;
                write_list(list, ids, capacity, out_count, |id| id.to_raw());
                Ok(())
            })
        })
    }
}
