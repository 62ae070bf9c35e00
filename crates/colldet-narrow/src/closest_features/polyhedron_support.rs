//! A convex [`Polyhedron`] as a [`SupportMap`] (hill climbing on the DCEL's vertex graph), used to
//! resolve the touching band with GJK/EPA when the feature walk finds the shapes in contact.
//!
//! Rationale: on a convex polyhedron, a vertex with no incident edge going strictly uphill in
//! direction `d` maximises `p . d` (the incident edges span the tangent cone, which contains the
//! whole polyhedron), so hill climbing is exact; every move strictly increases `p . d` (in `f64`),
//! so it terminates. No allocation.

use crate::SupportMap;
use colldet_geom::Polyhedron;
use colldet_geom::dcel::VertexId;
use colldet_geom::math::{Point, Real, Vector, VectorD};

/// Support mapping of a convex polyhedron with a precomputed bounding radius.
pub(crate) struct PolyhedronSupport<'a> {
    poly: &'a Polyhedron,
    radius: Real,
    /// A vertex used by a face, the start of a cold hill climb.
    start: u32,
}

impl<'a> PolyhedronSupport<'a> {
    pub(crate) fn new(poly: &'a Polyhedron, radius: Real, start: u32) -> Self {
        Self {
            poly,
            radius,
            start,
        }
    }

    #[inline]
    fn dot(&self, v: u32, dir: &[f64; 3]) -> f64 {
        let p = &self.poly.vertices()[v as usize];
        f64::from(p.x) * dir[0] + f64::from(p.y) * dir[1] + f64::from(p.z) * dir[2]
    }

    fn climb(&self, dir: &Vector, from: u32) -> u32 {
        self.climb_f64(
            &[f64::from(dir.x), f64::from(dir.y), f64::from(dir.z)],
            from,
        )
    }

    fn climb_f64(&self, d: &[f64; 3], from: u32) -> u32 {
        let dcel = self.poly.dcel();
        let mut current = if (from as usize) < dcel.vertex_count()
            && dcel.vertex_half_edges(VertexId(from)).len() > 0
        {
            from
        } else {
            self.start
        };
        let mut best = self.dot(current, d);
        loop {
            let mut next = current;
            for h in dcel.vertex_half_edges(VertexId(current)) {
                let w = dcel.destination(h).0;
                let value = self.dot(w, d);
                if value > best {
                    best = value;
                    next = w;
                }
            }
            if next == current {
                return current;
            }
            current = next;
        }
    }
}

impl SupportMap for PolyhedronSupport<'_> {
    fn local_support(&self, dir: &Vector) -> Point {
        self.poly.vertices()[self.climb(dir, self.start) as usize]
    }

    fn local_support_hinted(&self, dir: &Vector, hint: &mut u32) -> Point {
        *hint = self.climb(dir, *hint);
        self.poly.vertices()[*hint as usize]
    }

    fn local_support_hinted_f64(&self, dir: &VectorD, hint: &mut u32) -> Point {
        *hint = self.climb_f64(&[dir.x, dir.y, dir.z], *hint);
        self.poly.vertices()[*hint as usize]
    }

    fn local_point_of_hint(&self, hint: u32) -> Option<Point> {
        self.poly.vertices().get(hint as usize).copied()
    }

    fn local_bounding_radius(&self) -> Real {
        self.radius
    }
}
