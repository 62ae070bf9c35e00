//! Overlap queries: which objects a box ([`World::overlap_box`]) or a convex shape
//! ([`World::overlap_convex`]) touches at their current poses.
//!
//! Rationale. The query shape is made an object of its own (a mesh given in `f64`, so its
//! doubles are what the exact tests read), its world box selects candidates from the world's
//! query index ([`World::query_candidates`]), and each candidate gets the exact mesh test the
//! world's check runs for non-convex pairs (OBB-tree surface test, then containment; solid
//! semantics, touching counts). That test is exact for every pair kind, so the answer is exactly
//! "shares a point" for the doubles given. Preparing the query shape (classification, tree)
//! allocates: a few microseconds for a box.

use colldet_geom::math::{PointD, Pose};
use colldet_geom::{FaceList, MeshData, WorldAabb, hull::convex_hull};
use colldet_narrow::PreparedShape;
use colldet_narrow::dispatch::{PairCache, PairKind, PlacedShape, test_pair};

use crate::box_update::tight_world_aabb;
use crate::object_pose::ObjectPose;
use crate::{MAX_COORDINATE, ObjectId, World, WorldError};

/// The faces of a box whose corners are numbered `x + 2 y + 4 z` (bit per axis, 1 = max),
/// counter-clockwise seen from outside.
const BOX_FACES: [[u32; 4]; 6] = [
    [0, 4, 6, 2], // x = min
    [1, 3, 7, 5], // x = max
    [0, 1, 5, 4], // y = min
    [2, 6, 7, 3], // y = max
    [0, 2, 3, 1], // z = min
    [4, 5, 7, 6], // z = max
];

impl<U> World<U> {
    /// The objects that share a point with the closed box `aabb` (world frame; touching counts;
    /// a closed object is a solid, so a box inside one overlaps it), in `out` (cleared first)
    /// sorted by id. Exact for the box's doubles and the objects' vertices as given and `f64`
    /// poses. Allowed before and after [`World::start`]; changes nothing but scratch memory.
    ///
    /// # Errors
    /// [`WorldError::InvalidArgument`] for a box that is not finite, inverted (`mins > maxs` on
    /// some axis), beyond [`MAX_COORDINATE`] or without area (flat on two axes; a box flat on
    /// one axis is the rectangle it is); [`WorldError::Narrow`] when an exact test fails.
    pub fn overlap_box(
        &mut self,
        aabb: &WorldAabb,
        out: &mut Vec<ObjectId>,
    ) -> Result<(), WorldError> {
        out.clear();
        let ok = (0..3).all(|k| {
            let (lo, hi) = (aabb.mins[k], aabb.maxs[k]);
            lo.is_finite() && hi.is_finite() && lo <= hi && lo.abs().max(hi.abs()) <= MAX_COORDINATE
        });
        if !ok {
            return Err(WorldError::InvalidArgument(
                "the box must be finite, with mins <= maxs and coordinates at most MAX_COORDINATE",
            ));
        }
        let corners: Vec<PointD> = (0..8)
            .map(|i| {
                PointD::from(std::array::from_fn::<f64, 3, _>(|k| {
                    if i >> k & 1 == 1 {
                        aabb.maxs[k]
                    } else {
                        aabb.mins[k]
                    }
                }))
            })
            .collect();
        let mut faces = FaceList::new();
        for face in &BOX_FACES {
            faces.push(face);
        }
        let shape = PreparedShape::build(MeshData::from_f64(corners, faces)).map_err(|_| {
            WorldError::InvalidArgument("the box must have a face of non-zero area")
        })?;
        self.overlap_shape(
            &shape,
            &ObjectPose::new(&Pose::identity())?,
            Some(aabb),
            out,
        )
    }

    /// The objects that share a point with the convex hull of `points` (in the shape's frame,
    /// placed by `pose`; a solid), in `out` (cleared first) sorted by id. The hull's faces are
    /// chosen on the points rounded to `f32`; the solid tested is bounded by those faces through
    /// the doubles given (the same polytope whenever the points are `f32` numbers or clearly in
    /// convex position), exactly for those doubles and the `f64` poses. Allowed before and after
    /// [`World::start`].
    ///
    /// # Errors
    /// [`WorldError::InvalidArgument`] for fewer than four points, non-finite points or points
    /// beyond [`MAX_COORDINATE`], or points without volume (all in one plane);
    /// [`WorldError::InvalidTransform`] for a pose that is not rigid; [`WorldError::Narrow`]
    /// when an exact test fails.
    pub fn overlap_convex(
        &mut self,
        points: &[PointD],
        pose: &Pose,
        out: &mut Vec<ObjectId>,
    ) -> Result<(), WorldError> {
        out.clear();
        let pose = ObjectPose::new(pose)?;
        let ok = points
            .iter()
            .all(|p| p.iter().all(|c| c.is_finite() && c.abs() <= MAX_COORDINATE));
        if !ok {
            return Err(WorldError::InvalidArgument(
                "the points must be finite with coordinates at most MAX_COORDINATE",
            ));
        }
        let rounded: Vec<_> = points.iter().map(|p| p.cast::<f32>()).collect();
        let hull = convex_hull(&rounded).map_err(|_| {
            WorldError::InvalidArgument(
                "the points must span a volume (at least four, not coplanar)",
            )
        })?;
        let vertices: Vec<PointD> = hull
            .input_index
            .iter()
            .map(|&i| points[i as usize])
            .collect();
        let shape = PreparedShape::build(MeshData::from_f64(vertices, hull.mesh.faces))
            .map_err(|_| WorldError::InvalidArgument("the points must span a volume"))?;
        self.overlap_shape(&shape, &pose, None, out)
    }

    /// [`World::overlap_convex`] with the pose as a column-major 4x4 matrix (`m[col * 4 + row]`),
    /// checked as [`World::set_transform_matrix`] checks it.
    ///
    /// # Errors
    /// As [`World::overlap_convex`].
    pub fn overlap_convex_matrix(
        &mut self,
        points: &[PointD],
        m: &[f64; 16],
        out: &mut Vec<ObjectId>,
    ) -> Result<(), WorldError> {
        let pose = ObjectPose::from_column_major(m)?;
        self.overlap_convex(points, &pose.pose, out)
    }

    fn overlap_shape(
        &mut self,
        shape: &PreparedShape,
        pose: &ObjectPose,
        exact_box: Option<&WorldAabb>,
        out: &mut Vec<ObjectId>,
    ) -> Result<(), WorldError> {
        let region = match exact_box {
            Some(b) => *b,
            None => tight_world_aabb(shape, &pose.matrix, &mut [0; 6]),
        };
        let query = PlacedShape {
            shape,
            pose: &pose.pose,
            matrix: &pose.matrix,
        };
        self.refresh_query_index();
        let mut scratch = std::mem::take(&mut self.queries);
        self.query_candidates(&mut |b| b.overlaps(&region), &mut scratch);
        let mut result = Ok(());
        let placed = self.objects.placed();
        let pair = scratch.pair.get_or_insert_with(Default::default);
        for &(slot, _) in &scratch.candidates {
            let Some(id) = placed.id(slot) else { continue };
            let object = placed.placed(slot);
            let mut cache = PairCache::Empty;
            match test_pair(PairKind::Bvh, &object, &query, &mut cache, pair) {
                Ok(outcome) if outcome.witness.is_some() => out.push(id),
                Ok(_) => {}
                Err(source) => {
                    result = Err(WorldError::Narrow {
                        a: id,
                        b: id,
                        source,
                    });
                    break;
                }
            }
        }
        self.queries = scratch;
        if result.is_err() {
            out.clear();
        }
        out.sort_unstable();
        result
    }
}
