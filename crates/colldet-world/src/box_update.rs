//! The box update of a check: each moved object's tight world box, recomputed once per move and
//! handed to the broad phase.
//!
//! The box comes from the support mapping of the object's hull along the world axes (I-COLLIDE):
//! six hill climbs warm-started from the last extreme vertices, so a small move costs a few
//! vertex visits. Two cheaper cases: a hull that is a box aligned with its own frame moves its
//! local box by Arvo's transform, and a hull of at most
//! [`SCAN_LANES`](colldet_geom::support::SCAN_LANES) vertices is scanned (its pre-widened vertex
//! lanes, [`colldet_geom::ConvexPolytope::rotated_vertex_bounds`]).
//! A flat shape (no hull) has every vertex its faces use scanned, with the same margin.

use colldet_broad::BroadPhase;
use colldet_geom::WorldAabb;
use colldet_geom::math::{Point, PointD, Vector, VectorD, to_f64};
use colldet_narrow::{PoseMatrix, PreparedShape};
use nalgebra::Matrix3;
use rayon::prelude::*;

use crate::WorldError;
use crate::moved_set::MovedSet;
use crate::object_table::ObjectTable;
use crate::tolerance::Tolerances;

/// Fewest moved objects whose boxes are computed on the pool: a hull's six warm hill climbs cost
/// about 1-3 us, a box's transform about 0.1 us, the pool's hand-over a few us.
const PARALLEL_BOX_UPDATES: usize = 128;

/// Fewest moved objects per piece of work on the pool.
const MIN_BOXES_PER_TASK: usize = 32;

/// What the pool computes for each moved object, in moved-set order (`None` for a removed
/// object): kept by the world so a warm world does not allocate. Two arrays, so that the broad
/// phase's two passes over the boxes do not also read the hints.
#[derive(Default)]
pub(crate) struct MovedBoxes {
    /// The new world box, grown by the object's tolerance margin.
    boxes: Vec<Option<WorldAabb>>,
    /// The new extreme-vertex hints, when they changed.
    hints: Vec<Option<[u32; 6]>>,
}

/// Recomputes the world box of every object in `moved` and hands it to `broad`. With a pool and
/// at least [`PARALLEL_BOX_UPDATES`] moved objects the boxes are computed on the pool into
/// `moved_boxes`, the hints that changed are stored in moved-set order (a box, or a hull scanned
/// whole, keeps its hints), and the broad phase gets the boxes as
/// one batch ([`BroadPhase::update_batch`], which sweep and prune reads and writes on the pool);
/// otherwise each box is computed and handed over in turn. The pairs found do not depend on the
/// thread count. Each box enters the broad phase grown by its object's tolerance margin
/// ([`Tolerances::grown_box`]; 0 unless tolerances are set).
///
/// # Errors
/// The broad phase's refusal of a box ([`WorldError::Broad`]).
pub(crate) fn update_moved_boxes<U>(
    objects: &mut ObjectTable<U>,
    moved: &MovedSet,
    broad: &mut dyn BroadPhase,
    pool: Option<&rayon::ThreadPool>,
    moved_boxes: &mut MovedBoxes,
    tolerances: &Tolerances,
) -> Result<(), WorldError> {
    let slots = moved.slots();
    let Some(pool) = pool.filter(|_| slots.len() >= PARALLEL_BOX_UPDATES) else {
        for &slot in slots {
            if let Some(aabb) = refresh_world_box(objects, slot) {
                broad.update(slot, &tolerances.grown_box(slot, &aabb))?;
            }
        }
        return Ok(());
    };
    let placed = objects.placed();
    let MovedBoxes { boxes, hints } = moved_boxes;
    pool.install(|| {
        slots
            .par_iter()
            .with_min_len(MIN_BOXES_PER_TASK)
            .map(|&slot| match placed.shape_and_hints(slot) {
                Some((shape, pose, old)) => {
                    let mut new = old;
                    let aabb = tight_world_aabb(shape, pose, &mut new);
                    (
                        Some(tolerances.grown_box(slot, &aabb)),
                        (new != old).then_some(new),
                    )
                }
                None => (None, None),
            })
            .unzip_into_vecs(boxes, hints);
    });
    for (&slot, new) in slots.iter().zip(hints.iter()) {
        if let Some(new) = new {
            objects.set_extreme_hints(slot, *new);
        }
    }
    let boxes = &*boxes;
    broad.update_batch(slots.len(), &|k| boxes[k].map(|aabb| (slots[k], aabb)))?;
    Ok(())
}

/// The tight world box of the live object in `slot` at its pose, updating its hints (`None` for
/// an empty slot).
pub(crate) fn refresh_world_box<U>(objects: &mut ObjectTable<U>, slot: u32) -> Option<WorldAabb> {
    let (shape, pose, mut hints) = objects.placed().shape_and_hints(slot)?;
    let aabb = tight_world_aabb(shape, pose, &mut hints);
    objects.set_extreme_hints(slot, hints);
    Some(aabb)
}

/// Relative widening of tight world boxes (times the hull's radius): covers the support mapping's
/// tie tolerance on `f32` directions (about 1e-7) and half the narrow phase's touching band
/// (`1e-9 x (r1 + r2)`), with room to spare.
pub const TIGHT_BOX_MARGIN: f64 = 4e-6;

/// The tight world box of `shape` at `pose` (local to world, the object's [`PoseMatrix`]: the
/// rotation the pair tests use, not converted again from the quaternion), by support mapping
/// along the world axes
/// (I-COLLIDE): `hints` holds the six extreme vertices of the last call and warm-starts the
/// hill climbs, so a small move costs a few vertex visits. The box is widened by
/// [`TIGHT_BOX_MARGIN`] x the hull's radius to cover the support tolerance and the narrow
/// phase's touching band. A box that is axis-aligned in its local frame is its own local box,
/// moved by Arvo's transform ([`Aabb::transformed_by`](colldet_geom::Aabb::transformed_by)); other hulls of at most
/// [`SCAN_LANES`](colldet_geom::support::SCAN_LANES) vertices (for so few, a scan costs less
/// than six warm-started hill climbs), and flat shapes (no hull, [`PreparedShape::flat_vertices`]), are
/// scanned.
pub(crate) fn tight_world_aabb(
    shape: &PreparedShape,
    pose: &PoseMatrix,
    hints: &mut [u32; 6],
) -> WorldAabb {
    // The hull is fitted to the `f32` copy of the vertices; the rounding covers `f64` input.
    let margin = TIGHT_BOX_MARGIN * f64::from(shape.radius()) + shape.vertex_rounding();
    let (r, t) = (pose.rotation(), pose.translation());
    if shape.box_hull().is_some_and(|b| b.is_axis_aligned()) {
        let moved = shape.local_aabb().transformed_by(r, t);
        let widen = VectorD::repeat(margin);
        return WorldAabb::new(moved.mins - widen, moved.maxs + widen);
    }
    let Some(hull) = shape.hull() else {
        return scanned_world_aabb(shape.flat_vertices(), r, t, margin);
    };
    if let Some((lo, hi)) = hull.rotated_vertex_bounds(r) {
        return shifted_box(lo, hi, t, margin);
    }
    let mut mins = PointD::origin();
    let mut maxs = PointD::origin();
    for c in 0..3 {
        let row = r.row(c).transpose();
        let local: Vector = nalgebra::convert(row);
        let hi = hull.support_hill_climb(&local, hints[2 * c]).vertex;
        let lo = hull.support_hill_climb(&-local, hints[2 * c + 1]).vertex;
        hints[2 * c] = hi;
        hints[2 * c + 1] = lo;
        let coordinate = |v: u32| row.dot(&to_f64(&hull.vertices()[v as usize]).coords) + t[c];
        maxs[c] = coordinate(hi) + margin;
        mins[c] = coordinate(lo) - margin;
    }
    WorldAabb::new(mins, maxs)
}

/// The tight world box of `vertices` (a small hull's, or a flat shape's) by transforming every
/// vertex in `f64` (exact extremes, no search), widened by `margin`.
fn scanned_world_aabb(vertices: &[Point], r: &Matrix3<f64>, t: &VectorD, margin: f64) -> WorldAabb {
    let mut mins = [f64::INFINITY; 3];
    let mut maxs = [f64::NEG_INFINITY; 3];
    for v in vertices {
        let world = r * to_f64(v).coords;
        for c in 0..3 {
            mins[c] = mins[c].min(world[c]);
            maxs[c] = maxs[c].max(world[c]);
        }
    }
    shifted_box(mins, maxs, t, margin)
}

/// The box `[lo, hi]` of rotated vertices moved by `t` and widened by `margin` on every side.
fn shifted_box(lo: [f64; 3], hi: [f64; 3], t: &VectorD, margin: f64) -> WorldAabb {
    WorldAabb::new(
        PointD::new(
            lo[0] + t[0] - margin,
            lo[1] + t[1] - margin,
            lo[2] + t[2] - margin,
        ),
        PointD::new(
            hi[0] + t[0] + margin,
            hi[1] + t[1] + margin,
            hi[2] + t[2] + margin,
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_narrow::PreparedShape;
    use colldet_testkit::SeededRng;
    use colldet_testkit::shapes::cuboid;
    use nalgebra::UnitQuaternion;

    /// A pose within 50 of the origin, turned up to 3 rad about a random axis (a quaternion's
    /// matrix), with its rotation matrix and translation.
    fn random_pose(rng: &mut SeededRng) -> (PoseMatrix, Matrix3<f64>, VectorD) {
        let axis = VectorD::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        let t = VectorD::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0), 3.0);
        let r = *UnitQuaternion::from_scaled_axis(axis * 3.0)
            .to_rotation_matrix()
            .matrix();
        (PoseMatrix::from_parts(r, t).unwrap(), r, t)
    }

    /// A small hull's box from its vertex lanes equals the plain transform of every vertex
    /// (bit for bit, before and with the margin).
    #[test]
    fn small_hull_world_boxes_equal_the_vertex_transform() {
        use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope};
        let mut rng = SeededRng::new(0x5ca1);
        for (case, kind) in [
            ChungWangShape::Ellipsoid,
            ChungWangShape::Rod,
            ChungWangShape::Plate,
        ]
        .into_iter()
        .cycle()
        .take(60)
        .enumerate()
        {
            let mesh = chung_wang_polytope(kind, 8 + case % 9, case as u64).unwrap();
            let shape = PreparedShape::build(mesh).unwrap();
            let hull = shape.hull().expect("a convex polytope has a hull");
            assert!(hull.vertex_count() <= 16 && shape.box_hull().is_none());
            let (pose, r, t) = random_pose(&mut rng);
            let margin = TIGHT_BOX_MARGIN * f64::from(shape.radius());
            let tight = tight_world_aabb(&shape, &pose, &mut [0; 6]);
            let scanned = scanned_world_aabb(hull.vertices(), &r, &t, margin);
            assert_eq!(tight, scanned, "case {case}");
        }
    }

    /// For boxes, axis-aligned in their frame (Arvo's transform of the local box) or not (the
    /// vertex scan), the tight world box contains the exact vertex extremes with at least half the
    /// margin to spare and exceeds them by at most the margin plus rounding.
    #[test]
    fn box_world_boxes_match_the_vertex_extremes() {
        let mut rng = SeededRng::new(0xb0c5);
        for case in 0..200 {
            let h = VectorD::new(
                rng.range(0.01, 3.0),
                rng.range(0.01, 3.0),
                rng.range(0.01, 3.0),
            );
            let mut mesh = cuboid(h).unwrap();
            if case % 2 == 1 {
                let q = UnitQuaternion::from_scaled_axis(VectorD::new(0.3, -0.7, 0.2));
                for v in &mut mesh.vertices {
                    *v = nalgebra::convert(q * to_f64(v));
                }
            }
            let shape = PreparedShape::build(mesh).unwrap();
            let aligned = shape.box_hull().expect("a box").is_axis_aligned();
            assert_eq!(aligned, case % 2 == 0);
            let (pose, r, t) = random_pose(&mut rng);
            let margin = TIGHT_BOX_MARGIN * f64::from(shape.radius());
            let tight = tight_world_aabb(&shape, &pose, &mut [0; 6]);
            let hull = shape.hull().expect("a box has a hull");
            let exact = scanned_world_aabb(hull.vertices(), &r, &t, 0.0);
            let rounding = 1e-12 * (1.0 + t.norm());
            for k in 0..3 {
                assert!(tight.mins[k] <= exact.mins[k] - 0.5 * margin, "case {case}");
                assert!(tight.maxs[k] >= exact.maxs[k] + 0.5 * margin, "case {case}");
                assert!(
                    tight.mins[k] >= exact.mins[k] - margin - rounding,
                    "case {case}"
                );
                assert!(
                    tight.maxs[k] <= exact.maxs[k] + margin + rounding,
                    "case {case}"
                );
            }
        }
    }
}
