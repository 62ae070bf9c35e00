//! [`World::contact`]: the contact manifold of two objects of a world (normal, depth and up to
//! four contact points), for engines' contact solvers.
//!
//! The exact collision test decides whether there is a contact, as in [`World::check`]; only the
//! manifold's geometry comes from the manifold algorithms ([`colldet_narrow::manifold`]: EPA and
//! face clipping for convex pairs, the crossing triangle pairs for meshes).

use colldet_geom::math::VectorD;
use colldet_narrow::mesh::bvh::{ContactReport, MeshIntersectionOptions, mesh_surfaces_intersect};
use colldet_narrow::{
    ContactManifold, ContactPoint, ManifoldKind, TOUCHING_TOLERANCE_FACTOR, WitnessKind,
    contact_manifold, epa_penetration, mesh_contact_manifold, touching_tolerance,
};

use crate::proximity::{ProximityScratch, QueryPair, convex_hulls, query_pair, to_world};
use crate::{NO_FEATURE, ObjectId, World, WorldError};

impl QueryPair<'_> {
    /// The manifold (world coordinates) of a colliding pair with witness `witness`.
    fn manifold(
        &self,
        witness: &colldet_narrow::Witness,
        scratch: &mut ProximityScratch,
    ) -> Result<ContactManifold, colldet_narrow::NarrowError> {
        if let Some((ha, hb)) = convex_hulls(self.a.shape, self.b.shape) {
            scratch.gjk.reset();
            if let Some(pen) =
                epa_penetration(ha, hb, &self.pos12, &mut scratch.gjk, &mut scratch.epa)?
            {
                let local = contact_manifold(
                    self.a.shape,
                    self.b.shape,
                    &self.pos12,
                    &pen,
                    touching_tolerance(ha, hb),
                    &mut scratch.manifold,
                );
                return Ok(self.in_world(local));
            }
        }
        // Surfaces crossing: the manifold of the crossing triangle pairs.
        if witness.kind != WitnessKind::Containment && !self.both_convex() {
            let (ba, bb) = (self.a.shape.bvh()?, self.b.shape.bvh()?);
            let options = MeshIntersectionOptions {
                report: ContactReport::All,
            };
            mesh_surfaces_intersect(ba, bb, &self.pos12, &options, &mut scratch.mesh)?;
            let tolerance = TOUCHING_TOLERANCE_FACTOR
                * f64::from(self.a.shape.radius() + self.b.shape.radius());
            if let Some(local) = mesh_contact_manifold(
                ba,
                bb,
                &self.pos12,
                scratch.mesh.hits(),
                tolerance,
                &mut scratch.manifold,
            ) {
                return Ok(self.in_world(local));
            }
        }
        // One object inside the other, closed one (or two convex objects EPA finds apart inside
        // the touching band): the witness alone.
        let (feature_a, feature_b) = match witness.kind {
            WitnessKind::Containment => (NO_FEATURE, NO_FEATURE),
            _ => (witness.feature_a, witness.feature_b),
        };
        let mut m = ContactManifold {
            normal: VectorD::zeros(),
            depth: 0.0,
            count: 1,
            kind: ManifoldKind::Witness,
            face_a: feature_a,
            face_b: feature_b,
            ..ContactManifold::default()
        };
        m.points[0] = ContactPoint {
            point_a: witness.point,
            point_b: witness.point,
            depth: 0.0,
        };
        Ok(m)
    }

    fn both_convex(&self) -> bool {
        convex_hulls(self.a.shape, self.b.shape).is_some()
    }

    /// A manifold in a's frame mapped to world coordinates.
    fn in_world(&self, mut m: ContactManifold) -> ContactManifold {
        let frame = self.a.matrix;
        m.normal = frame.rotation() * m.normal;
        for c in &mut m.points[..m.count] {
            c.point_a = to_world(frame, &c.point_a);
            c.point_b = to_world(frame, &c.point_b);
        }
        m
    }
}

impl<U> World<U> {
    /// The contact manifold of objects `a` and `b` at their current poses, world coordinates,
    /// or `None` when they do not collide (the exact test of [`World::check`]: touching counts).
    ///
    /// Two convex objects: EPA's normal (unit, from `a` towards `b`: moving `b` by `depth *
    /// normal` separates them) and up to four point pairs with `point_a - point_b = depth *
    /// normal` each ([`ContactManifold`]; [`ManifoldKind::Face`] when a face of one object is
    /// within about 1.4e-3 radians of the normal, its contact polygon reduced to four points
    /// keeping the deepest; [`ManifoldKind::Point`] for edge-edge contacts). One convex object
    /// inside the other is a penetration like any other (the depth is the shortest way out).
    /// A non-convex object whose surface crosses the other's: the manifold of the crossing
    /// triangle pairs ([`colldet_narrow::mesh_contact_manifold`]: each pair's smallest separating
    /// translation, the deepest pair's normal, the contacts of every pair along it, reduced to
    /// four); its depth is the local depth of the crossing, not the depth of the solids. One
    /// object inside the other, closed one, with no surfaces crossing (or two convex objects EPA
    /// finds apart inside the touching band): [`ManifoldKind::Witness`], one common point (a
    /// vertex of the inner object), depth 0, normal zero. Allowed before and after [`World::start`]; changes nothing but scratch
    /// memory.
    ///
    /// # Errors
    /// As [`World::distance`].
    pub fn contact(
        &mut self,
        a: ObjectId,
        b: ObjectId,
    ) -> Result<Option<ContactManifold>, WorldError> {
        let pair = query_pair(&self.objects, a, b)?;
        let scratch = &mut self.proximity;
        let narrow = |source| WorldError::Narrow { a, b, source };
        match pair.collides(scratch).map_err(narrow)? {
            None => Ok(None),
            Some(w) => pair.manifold(&w, scratch).map(Some).map_err(narrow),
        }
    }
}
