//! Proximity queries between two objects of a world: [`World::distance`] (signed distance,
//! closest points, normal, features) and [`World::within_distance`] (tolerance verification).
//!
//! Rationale. Both queries run in object a's frame on the `f64` relative pose
//! `a.matrix.inv_mul(b.matrix)`, as the collision tests do, and only the answer is mapped to
//! world coordinates. Which algorithm answers depends on the pair:
//! - two convex objects given in `f32` (their hulls are the objects, exactly): GJK distance and
//!   closest points, EPA's penetration depth when GJK finds a common point; the tolerance query
//!   is GJK stopped as soon as a bound crosses the tolerance ([`gjk_within_distance`]);
//! - any other pair (a non-convex object, or a mesh given in `f64`, whose doubles only the mesh
//!   trees read): the exact collision test decides contact first (surfaces, then containment:
//!   solid semantics), and a separated pair's distance is the surfaces' distance by the OBBRSS
//!   trees, pruned by their RSS bounds ([`mesh_distance`]). The tolerance query stops at the first triangle pair within the
//!   tolerance ([`mesh_within_distance`]) and runs the exact test only when none is, so its answer
//!   is `distance <= tolerance` with the same triangle distances. Colliding pairs of this kind
//!   report distance 0 and the collision witness (no depth: depth of non-convex solids is not
//!   computed); two convex objects given in `f64` get EPA's depth on their `f32` hulls.
//!
//! Each ordered pair's queries warm-start from where its last one ended (GJK's simplex and
//! supporting vertices, the trees' closest triangle pair), kept in the world's
//! [`crate::proximity_caches`]; the start changes the work, not what is certified.
//!
//! Features are input face indices (a face holding the reported point); for convex pairs the face
//! is found around a vertex of the closest feature (GJK's heaviest simplex vertex; for a
//! penetration, the vertex supporting the object along the normal), as the face whose plane
//! through that vertex the point is closest to.

use colldet_geom::dcel::{FaceId, VertexId};
use colldet_geom::math::{PointD, VectorD};
use colldet_geom::{ConvexPolytope, Polyhedron};
use colldet_narrow::dispatch::{PairCache, PairKind, PairScratch, PlacedShape, test_pair};
use colldet_narrow::mesh::bvh::{
    MeshDistance, MeshDistanceCache, MeshDistanceOptions, MeshQueryWorkspace, mesh_distance,
    mesh_within_distance,
};
use colldet_narrow::{
    DistanceCertificate, EpaWorkspace, GjkCache, ManifoldWorkspace, NarrowError, Penetration,
    PoseMatrix, PreparedShape, WitnessKind, epa_penetration, gjk_distance_approx_coherent,
    gjk_within_distance, gjk_within_distance_coherent,
};

use crate::object_table::ObjectTable;
use crate::proximity_caches::PairProximityCache;
use crate::{NO_FEATURE, ObjectId, World, WorldError};

/// What [`World::distance`] reports about two objects `a` and `b`, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proximity {
    /// Signed distance: `> 0` separated (the Euclidean distance), `0` touching (or, for a pair
    /// that is not two convex objects, colliding), `< 0` the penetration depth of two convex
    /// objects, negated.
    pub distance: f64,
    /// The closest point on `a` (separated), `a`'s deepest point into `b` (penetrating), or a
    /// common point of both (colliding, not both convex).
    pub point_a: PointD,
    /// The closest point on `b`, or `b`'s deepest point into `a`, or the same common point.
    pub point_b: PointD,
    /// Unit normal from `a` towards `b`: `point_b - point_a` over the distance when separated;
    /// for a penetrating convex pair, the direction to move `b` by `-distance` to separate it.
    /// Zero when no direction is defined (distance 0 between non-convex objects or at a single
    /// touching point).
    pub normal: VectorD,
    /// Input face index of `a` holding `point_a`, or [`NO_FEATURE`].
    pub feature_a: u32,
    /// Input face index of `b` holding `point_b`, or [`NO_FEATURE`] (the container of a
    /// contained object).
    pub feature_b: u32,
}

/// Scratch memory of the proximity queries, kept by the world (no allocation per query once
/// warm). What a pair's queries carry from one to the next is apart, in
/// [`crate::proximity_caches`].
#[derive(Default)]
pub(crate) struct ProximityScratch {
    pair: PairScratch,
    pub(crate) gjk: GjkCache,
    pub(crate) epa: EpaWorkspace,
    pub(crate) mesh: MeshQueryWorkspace,
    /// The contact manifold query's buffers (`contact_query.rs`).
    pub(crate) manifold: ManifoldWorkspace,
}

/// The point `p` of a local frame in world coordinates.
pub(crate) fn to_world(frame: &PoseMatrix, p: &PointD) -> PointD {
    frame.transform_point(p)
}

/// Both objects' polytopes when both objects are convex (a convex object always has one).
pub(crate) type Hulls<'s> = (&'s ConvexPolytope, &'s ConvexPolytope);

pub(crate) fn convex_hulls<'s>(a: &'s PreparedShape, b: &'s PreparedShape) -> Option<Hulls<'s>> {
    if !(a.is_convex() && b.is_convex()) {
        return None;
    }
    a.hull().zip(b.hull())
}

/// True when the pair's convex algorithms run on the vertices as given (both in `f32`).
pub(crate) fn exact_vertices(a: &PreparedShape, b: &PreparedShape) -> bool {
    !a.has_precise_vertices() && !b.has_precise_vertices()
}

/// The input face of a convex object that holds `point` (local frame), found around its hull
/// vertex `vertex`, a vertex of the closest (or deepest) feature: the face whose plane `point` is
/// closest to, each face's plane taken through that vertex (a corner of every face around it).
fn convex_face(shape: &PreparedShape, point: &PointD, vertex: u32) -> u32 {
    let Some(hull) = shape.hull() else {
        return NO_FEATURE;
    };
    let Some(&source) = hull.source_vertices().get(vertex as usize) else {
        return NO_FEATURE;
    };
    let p: &Polyhedron = shape.polyhedron();
    let offset = point - p.vertex_f64(source as usize);
    let mut best: Option<(f64, FaceId)> = None;
    for f in p.dcel().vertex_faces(VertexId(source)) {
        let n = p.face_normal(f);
        let d = f64::from(n.x) * offset.x + f64::from(n.y) * offset.y + f64::from(n.z) * offset.z;
        if best.is_none_or(|(b, _)| d >= b) {
            best = Some((d, f));
        }
    }
    best.map_or(NO_FEATURE, |(_, f)| p.face_source(f))
}

/// The hull vertex of a convex object supporting it in direction `dir` (local), climbing from
/// `hint`.
fn supporting_vertex(shape: &PreparedShape, dir: &VectorD, hint: u32) -> u32 {
    shape
        .hull()
        .map_or(0, |hull| hull.support_hill_climb_f64_warm(dir, hint).vertex)
}

/// An input face around input vertex `v` (a containment witness names a vertex).
fn face_around(p: &Polyhedron, v: u32) -> u32 {
    if v == NO_FEATURE || v as usize >= p.dcel().vertex_count() {
        return NO_FEATURE;
    }
    p.dcel()
        .vertex_faces(VertexId(v))
        .next()
        .map_or(NO_FEATURE, |f| p.face_source(f))
}

/// The unit vector along `d`, or zero when `d` has no direction.
fn unit_or_zero(d: VectorD) -> VectorD {
    let n = d.norm();
    if n > 0.0 && n.is_finite() {
        d / n
    } else {
        VectorD::zeros()
    }
}

/// A pair of placed objects and b's `f64` pose in a's frame.
pub(crate) struct QueryPair<'s> {
    pub(crate) a: PlacedShape<'s>,
    pub(crate) b: PlacedShape<'s>,
    pub(crate) pos12: PoseMatrix,
}

impl<'s> QueryPair<'s> {
    /// The pair `(a, b)` with b's pose in a's frame.
    pub(crate) fn new(a: PlacedShape<'s>, b: PlacedShape<'s>) -> Self {
        let pos12 = a.matrix.inv_mul(b.matrix);
        Self { a, b, pos12 }
    }

    /// A result given in a's frame (points, normal from a to b), mapped to world coordinates,
    /// with the convex faces holding the points, found around the hull vertices `vertices` of
    /// the closest (or deepest) features.
    fn convex_result(
        &self,
        distance: f64,
        point1: PointD,
        point2: PointD,
        normal: VectorD,
        vertices: [u32; 2],
    ) -> Proximity {
        let (sa, sb) = (self.a.shape, self.b.shape);
        let (feature_a, feature_b) = if normal == VectorD::zeros() {
            (NO_FEATURE, NO_FEATURE)
        } else {
            let point_in_b = self.pos12.inverse_transform_point(&point2);
            (
                convex_face(sa, &point1, vertices[0]),
                convex_face(sb, &point_in_b, vertices[1]),
            )
        };
        Proximity {
            distance,
            point_a: to_world(self.a.matrix, &point1),
            point_b: to_world(self.a.matrix, &point2),
            normal: self.a.matrix.rotation() * normal,
            feature_a,
            feature_b,
        }
    }

    /// [`QueryPair::convex_result`] of a penetration: the features around the vertices
    /// supporting a along `normal` and b along `-normal` (climbing from the last hints).
    fn penetration_result(&self, pen: &Penetration, hints: [u32; 2]) -> Proximity {
        let normal = unit_or_zero(pen.normal);
        let vertices = if normal == VectorD::zeros() {
            hints
        } else {
            let normal_in_b = self.pos12.inverse_transform_vector(&-normal);
            [
                supporting_vertex(self.a.shape, &normal, hints[0]),
                supporting_vertex(self.b.shape, &normal_in_b, hints[1]),
            ]
        };
        self.convex_result(-pen.depth, pen.point1, pen.point2, normal, vertices)
    }

    /// The penetration of two convex objects by EPA on their hulls (GJK first).
    fn penetration(
        &self,
        (ha, hb): Hulls<'_>,
        gjk: &mut GjkCache,
        epa: &mut EpaWorkspace,
    ) -> Result<Proximity, NarrowError> {
        match epa_penetration(ha, hb, &self.pos12, gjk, epa)? {
            Some(pen) => Ok(self.penetration_result(&pen, gjk.support_hints())),
            // GJK found the hulls apart beyond the touching band after all: their distance.
            None => {
                self.convex_distance((ha, hb), 0.0, (gjk, &mut DistanceCertificate::new()), epa)
            }
        }
    }

    /// GJK's distance between two convex objects, EPA's depth when they share a point; `gjk`
    /// (the pair's warm start) is updated and the bounds GJK certified are recorded in
    /// `certificate`.
    fn convex_distance(
        &self,
        (ha, hb): Hulls<'_>,
        relative_error: f64,
        (gjk, certificate): (&mut GjkCache, &mut DistanceCertificate),
        epa: &mut EpaWorkspace,
    ) -> Result<Proximity, NarrowError> {
        let d =
            gjk_distance_approx_coherent(ha, hb, &self.pos12, relative_error, gjk, certificate)?;
        if d.distance > 0.0 {
            let normal = unit_or_zero(d.point2 - d.point1);
            return Ok(self.convex_result(
                d.distance,
                d.point1,
                d.point2,
                normal,
                d.witness_tokens,
            ));
        }
        let pen = epa_penetration(ha, hb, &self.pos12, gjk, epa)?;
        Ok(match pen {
            Some(pen) => self.penetration_result(&pen, gjk.support_hints()),
            None => self.convex_result(0.0, d.point1, d.point2, VectorD::zeros(), d.witness_tokens),
        })
    }

    /// The exact collision test (surfaces, then containment), as the world's check runs it.
    pub(crate) fn collides(
        &self,
        scratch: &mut ProximityScratch,
    ) -> Result<Option<colldet_narrow::Witness>, NarrowError> {
        let mut cache = PairCache::Empty;
        let outcome = test_pair(
            PairKind::Bvh,
            &self.a,
            &self.b,
            &mut cache,
            &mut scratch.pair,
        )?;
        Ok(outcome.witness)
    }

    /// A mesh distance (a's frame) as a proximity in world coordinates with input faces.
    fn mesh_result(&self, d: &MeshDistance) -> Proximity {
        let (pa, pb) = (self.a.shape.polyhedron(), self.b.shape.polyhedron());
        Proximity {
            distance: d.distance,
            point_a: to_world(self.a.matrix, &d.point1),
            point_b: to_world(self.a.matrix, &d.point2),
            normal: self.a.matrix.rotation() * unit_or_zero(d.point2 - d.point1),
            feature_a: pa.face_source(FaceId(d.face1.0)),
            feature_b: pb.face_source(FaceId(d.face2.0)),
        }
    }

    /// The distance of a pair that is not two exact convex objects, warm-started from and
    /// updating the pair's `cache`.
    fn mesh_distance(
        &self,
        relative_error: f64,
        cache: &mut PairProximityCache,
        scratch: &mut ProximityScratch,
    ) -> Result<Proximity, NarrowError> {
        let (sa, sb) = (self.a.shape, self.b.shape);
        if let Some(witness) = self.collides(scratch)? {
            if let Some(hulls) = convex_hulls(sa, sb) {
                return self.penetration(hulls, &mut cache.gjk, &mut scratch.epa);
            }
            let (feature_a, feature_b) = match witness.kind {
                WitnessKind::Containment => (
                    face_around(sa.polyhedron(), witness.feature_a),
                    face_around(sb.polyhedron(), witness.feature_b),
                ),
                _ => (witness.feature_a, witness.feature_b),
            };
            return Ok(Proximity {
                distance: 0.0,
                point_a: witness.point,
                point_b: witness.point,
                normal: VectorD::zeros(),
                feature_a,
                feature_b,
            });
        }
        self.surface_distance(relative_error, &mut cache.mesh, scratch)
    }

    /// The distance between the surfaces by the OBBRSS trees (no contact test), warm-started from
    /// and updating `mesh_cache`.
    fn surface_distance(
        &self,
        relative_error: f64,
        mesh_cache: &mut MeshDistanceCache,
        scratch: &mut ProximityScratch,
    ) -> Result<Proximity, NarrowError> {
        let (sa, sb) = (self.a.shape, self.b.shape);
        let d = mesh_distance(
            sa.bvh()?,
            sb.bvh()?,
            &self.pos12,
            &MeshDistanceOptions { relative_error },
            mesh_cache,
            &mut scratch.mesh,
        )?;
        Ok(self.mesh_result(&d))
    }

    /// Both hulls when the pair's convex algorithms answer it (two convex objects given in
    /// `f32`).
    fn exact_hulls(&self) -> Option<Hulls<'_>> {
        let (sa, sb) = (self.a.shape, self.b.shape);
        convex_hulls(sa, sb).filter(|_| exact_vertices(sa, sb))
    }

    /// The distance, separated pairs' to within `relative_error` of it (0: exact), warm-started
    /// from and updating the pair's `cache`.
    fn distance(
        &self,
        relative_error: f64,
        cache: &mut PairProximityCache,
        scratch: &mut ProximityScratch,
    ) -> Result<Proximity, NarrowError> {
        match self.exact_hulls() {
            Some(hulls) => self.convex_distance(
                hulls,
                relative_error,
                (&mut cache.gjk, &mut cache.certificate),
                &mut scratch.epa,
            ),
            None => self.mesh_distance(relative_error, cache, scratch),
        }
    }

    /// The tolerance answer; convex pairs warm-start GJK from (and update) the pair's `cache`.
    fn within(
        &self,
        tolerance: f64,
        cache: &mut PairProximityCache,
        scratch: &mut ProximityScratch,
    ) -> Result<bool, NarrowError> {
        if let Some((ha, hb)) = self.exact_hulls() {
            return gjk_within_distance_coherent(
                ha,
                hb,
                &self.pos12,
                tolerance,
                &mut cache.gjk,
                &mut cache.certificate,
            );
        }
        // At tolerance 0 only contact (or a surface distance that rounds to 0) answers yes, and
        // a traversal seldom meets a triangle pair at exactly 0: the exact test goes first.
        if tolerance == 0.0 && self.collides(scratch)?.is_some() {
            return Ok(true);
        }
        if self.apart_within(tolerance, scratch)? {
            return Ok(true);
        }
        Ok(tolerance > 0.0 && self.collides(scratch)?.is_some())
    }

    /// [`QueryPair::within`] for a pair the exact collision test found apart (so its contact
    /// test is skipped), cold (the check's near pairs): two exact convex objects by GJK stopped
    /// at the tolerance, other pairs by the first triangle pair within it.
    pub(crate) fn apart_within(
        &self,
        tolerance: f64,
        scratch: &mut ProximityScratch,
    ) -> Result<bool, NarrowError> {
        if let Some((ha, hb)) = self.exact_hulls() {
            scratch.gjk.reset();
            return gjk_within_distance(ha, hb, &self.pos12, tolerance, &mut scratch.gjk);
        }
        let (sa, sb) = (self.a.shape, self.b.shape);
        Ok(mesh_within_distance(
            sa.bvh()?,
            sb.bvh()?,
            &self.pos12,
            tolerance,
            &mut scratch.mesh,
        )?
        .is_some())
    }

    /// [`QueryPair::distance`] (exact) for a pair the exact collision test found apart: GJK for
    /// two exact convex objects, the surfaces' distance for other pairs.
    pub(crate) fn apart_distance(
        &self,
        scratch: &mut ProximityScratch,
    ) -> Result<Proximity, NarrowError> {
        match self.exact_hulls() {
            Some(hulls) => {
                scratch.gjk.reset();
                self.convex_distance(
                    hulls,
                    0.0,
                    (&mut scratch.gjk, &mut DistanceCertificate::new()),
                    &mut scratch.epa,
                )
            }
            None => self.surface_distance(0.0, &mut MeshDistanceCache::new(), scratch),
        }
    }
}

/// The placed objects `a` and `b` of `objects`, checked: both live, different.
#[inline]
fn placed_pair<U>(
    objects: &ObjectTable<U>,
    a: ObjectId,
    b: ObjectId,
) -> Result<(PlacedShape<'_>, PlacedShape<'_>), WorldError> {
    let (placed_a, placed_b) = (objects.placed_live(a)?, objects.placed_live(b)?);
    if a == b {
        return Err(WorldError::SameObject);
    }
    Ok((placed_a, placed_b))
}

/// The placed pair `(a, b)` of `objects`, checked: both live, different.
pub(crate) fn query_pair<U>(
    objects: &ObjectTable<U>,
    a: ObjectId,
    b: ObjectId,
) -> Result<QueryPair<'_>, WorldError> {
    let (placed_a, placed_b) = placed_pair(objects, a, b)?;
    Ok(QueryPair::new(placed_a, placed_b))
}

impl<U> World<U> {
    /// Runs `query` on the placed objects `a` and `b` (checked as by [`query_pair`]) with the
    /// ordered pair's warm start and the world's scratch memory; the poses go with the warm
    /// start when the query recorded new distance bounds ([`crate::carried_bounds`]).
    fn with_pair_cache<T>(
        &mut self,
        a: ObjectId,
        b: ObjectId,
        query: impl FnOnce(
            (PlacedShape<'_>, PlacedShape<'_>),
            &mut PairProximityCache,
            &mut ProximityScratch,
        ) -> Result<T, NarrowError>,
    ) -> Result<T, WorldError> {
        // Disjoint fields: the objects read, the scratch and the warm starts written (nothing
        // is moved out and back, which would build a default scratch per query).
        let placed = placed_pair(&self.objects, a, b)?;
        let cache = self.proximity_caches.get(a, b);
        let answer = query(placed, cache, &mut self.proximity);
        cache.note_poses(placed.0.pose, placed.1.pose);
        answer.map_err(|source| WorldError::Narrow { a, b, source })
    }

    /// The signed distance between objects `a` and `b` at their current poses, with the closest
    /// points (world coordinates), the unit normal from `a` to `b` and the input faces holding
    /// the points ([`Proximity`] says what each field means for separated, touching and
    /// colliding pairs). Allowed before and after [`World::start`]; changes nothing but scratch
    /// memory and the pair's warm start (below).
    ///
    /// Two convex objects (given in `f32`): GJK's distance, accurate to `1e-10` of itself plus
    /// about `1e-12 (r_a + r_b + |t_ab|)`, and EPA's depth for a penetrating pair. Any other pair:
    /// the exact collision test, then the distance between the surfaces by the OBBRSS trees (exact
    /// up to `f64` rounding for the vertices as given); a colliding pair of this kind (surfaces
    /// crossing, or one object inside the other, closed one) reports distance 0 and a common
    /// point.
    ///
    /// Warm starts: the world keeps, per ordered pair `(a, b)`, where its last query ended (GJK's
    /// simplex and supporting vertices, the trees' closest triangle pair) and starts the next
    /// query of the pair there, so a pair queried again after a small move costs a support query
    /// or two. Only the search's start depends on earlier queries, not what it certifies: the
    /// distance stays within the accuracy above of the true distance (so a warm and a cold
    /// query of two convex objects agree to twice that, a penetration depth to twice EPA's
    /// `1e-9` relative, a mesh distance exactly); the closest points and features may differ
    /// where they are not unique (parallel faces). The entries of a removed object are dropped;
    /// the world keeps at most 4096 pairs (the least recently queried go first).
    ///
    /// # Errors
    /// [`WorldError::InvalidHandle`] for a stale or foreign id, [`WorldError::SameObject`] for
    /// `a == b`, [`WorldError::Narrow`] when an algorithm fails numerically.
    pub fn distance(&mut self, a: ObjectId, b: ObjectId) -> Result<Proximity, WorldError> {
        self.distance_approx(a, b, 0.0)
    }

    /// [`World::distance`] with a caller's bound on the relative error of a separated pair's
    /// distance: the reported `d` satisfies `d_true <= d <= (1 + relative_error) d_true`, and
    /// `point_a`, `point_b` are points of the objects `d` apart (PQP's and GJK's progressive
    /// refinement stopped early: convex pairs end GJK when its upper bound is within the factor
    /// of its lower bound; other pairs prune node pairs whose volumes' distance times `1 +
    /// relative_error` is not below the best found). Touching, colliding and penetrating pairs
    /// are answered as by [`World::distance`], warm starts too: the bound holds whatever the
    /// start, but within it warm and cold answers may differ. `relative_error` 0 is
    /// [`World::distance`].
    ///
    /// # Errors
    /// [`WorldError::InvalidArgument`] for a negative or NaN `relative_error`, otherwise as
    /// [`World::distance`].
    pub fn distance_approx(
        &mut self,
        a: ObjectId,
        b: ObjectId,
        relative_error: f64,
    ) -> Result<Proximity, WorldError> {
        if relative_error.is_nan() || relative_error < 0.0 {
            return Err(WorldError::InvalidArgument(
                "the relative error must be non-negative (not NaN)",
            ));
        }
        self.with_pair_cache(a, b, |(pa, pb), cache, scratch| {
            QueryPair::new(pa, pb).distance(relative_error, cache, scratch)
        })
    }

    /// True when objects `a` and `b` are within `tolerance` of each other at their current poses
    /// (colliding pairs included): the answer of `distance(a, b)?.distance <= tolerance`,
    /// decided as soon as it is known, without the exact distance. Two convex objects: GJK
    /// stopped when a lower bound exceeds `tolerance` or an upper bound falls to it (answers
    /// differ from the distance's only within GJK's accuracy of `tolerance`), warm-started from
    /// the pair's last query like [`World::distance`] (a warm and a cold answer also differ only
    /// within that accuracy); the bounds the pair's last queries certified, carried to the
    /// current poses by how far both objects moved since, answer first when they clear
    /// `tolerance` (no support query, no relative pose). Other pairs: the tree traversal stops at the first triangle pair
    /// within `tolerance` and prunes node pairs whose volumes are farther apart; when none is
    /// found, the exact collision test decides (no warm start: the answer never depends on
    /// earlier queries).
    ///
    /// # Errors
    /// [`WorldError::InvalidArgument`] for a negative or NaN `tolerance`, otherwise as
    /// [`World::distance`].
    pub fn within_distance(
        &mut self,
        a: ObjectId,
        b: ObjectId,
        tolerance: f64,
    ) -> Result<bool, WorldError> {
        if tolerance.is_nan() || tolerance < 0.0 {
            return Err(WorldError::InvalidArgument(
                "the tolerance must be non-negative (not NaN)",
            ));
        }
        self.with_pair_cache(a, b, |(pa, pb), cache, scratch| {
            // Convex pairs: the last bounds carried on the world poses first (no relative pose).
            match cache.carried_within((&pa, &pb), tolerance) {
                Some(answer) => Ok(answer),
                None => QueryPair::new(pa, pb).within(tolerance, cache, scratch),
            }
        })
    }
}
