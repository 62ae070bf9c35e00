//! The incremental separating-plane existence test of Chung-Wang section 4.2.
//!
//! The unit directions `r_j = m_j / |m_j|` of the CSO points `m_j = q_j - p_j` met so far lie in a
//! closed hemisphere `{x : w . x >= 0}` when a separating vector can still exist. A new `r_i` with
//! `w . r_i > 0` keeps `w`. Otherwise, if some plane through the origin still has all points on one
//! side, it can be rotated to pass through `r_i` (the feasible normals form a convex cone; the
//! segment from a feasible normal to the old `w` crosses `r_i`'s great circle), so the question
//! becomes two-dimensional: project the points onto the plane `H_i` normal to `r_i` and ask whether
//! the projections fit in a half-plane, i.e. in an angular wedge of at most `pi`. One pass keeps the
//! smallest wedge from the first projected point on (its two end projections, compared by
//! orientation signs, not angles) and fails when a projection lies strictly inside the wedge's
//! antipode.
//!
//! # What a failure proves
//! On failure the wedge ends `r_lo`, `r_hi` and the offending `r_x` positively span `H_i`:
//! `lambda_lo r'_lo + lambda_hi r'_hi + lambda_x r'_x = 0` with positive weights. Lifting to 3D gives
//! `sum lambda r = c r_i` with `c = sum lambda (r . r_i)`, and `c <= 0` because the old `w` has
//! `w . r_j >= 0` for the three earlier points and `w . r_i <= 0`. So the origin lies in the convex
//! hull of `r_i, r_lo, r_hi, r_x`, and (scaling the vertices by positive lengths keeps that) of the
//! CSO points `m_i, m_lo, m_hi, m_x`: a tetrahedron inside `A - B` around the origin. The caller
//! certifies the collision from that tetrahedron in exact-input `f64` arithmetic; the floating-point
//! orientations here only choose the candidate and never decide an answer on their own.
//!
//! Projections shorter than [`PROJECTION_FLOOR`] (points almost parallel or antiparallel to `r_i`)
//! are skipped: they constrain the wedge by a rounding-level amount, and skipping them can only make
//! the test answer "a plane may exist", which costs iterations, never correctness.

use crate::NarrowError;
use colldet_geom::math::{VectorD, any_perpendicular};

/// Projections onto `H_i` shorter than this (the `r_j` are unit vectors) are ignored.
pub(crate) const PROJECTION_FLOOR: f64 = 1e-9;

/// One point of the search: the CSO point and its unit direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SearchPoint {
    /// `m = q - p` in shape 1's frame.
    pub m: VectorD,
    /// `m / |m|`.
    pub r: VectorD,
    /// The supporting vertices `[p, q]` (indices into polytope 1's and 2's vertices) that gave `m`.
    pub vertices: [u32; 2],
}

/// Outcome of adding a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum HemisphereStep {
    /// All points so far lie in the hemisphere of the (possibly updated) normal `w`.
    Open,
    /// No plane through the origin has all points on one side (up to the projection floor): the
    /// CSO points with these indices (the last one is the point just added) span a tetrahedron
    /// containing the origin.
    Closed([usize; 4]),
}

/// The points of the current query and the hemisphere normal `w`.
#[derive(Clone, Debug)]
pub(crate) struct Hemisphere {
    points: Vec<SearchPoint>,
    w: VectorD,
}

impl Hemisphere {
    /// Room for `capacity` points, allocated once.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            points: Vec::with_capacity(capacity),
            w: VectorD::zeros(),
        }
    }

    /// Forgets the points of the previous query (keeps the allocation).
    pub(crate) fn clear(&mut self) {
        self.points.clear();
        self.w = VectorD::zeros();
    }

    /// The current hemisphere normal (unit; zero before the first point).
    pub(crate) fn normal(&self) -> VectorD {
        self.w
    }

    /// The points added in this query, in order.
    pub(crate) fn points(&self) -> &[SearchPoint] {
        &self.points
    }

    /// Number of points the storage holds without reallocating.
    pub(crate) fn capacity(&self) -> usize {
        self.points.capacity()
    }

    /// Adds a point (`r` of unit length) and updates `w` as in section 4.2: the first point gives
    /// `w = r_0`, the second `w = <r_0 + r_1>` (the appendix' choice) when that is well defined,
    /// later points keep `w` while `w . r > 0` and otherwise run the projected wedge test.
    pub(crate) fn add(&mut self, point: SearchPoint) -> HemisphereStep {
        if self.points.len() == self.points.capacity() {
            // The caller's iteration cap keeps this unreachable; without room we claim nothing.
            return HemisphereStep::Open;
        }
        self.points.push(point);
        let r = point.r;
        match self.points.len() {
            1 => {
                self.w = r;
                return HemisphereStep::Open;
            }
            2 => {
                let sum = self.points[0].r + r;
                let n = sum.norm();
                if n > PROJECTION_FLOOR {
                    self.w = sum / n;
                    return HemisphereStep::Open;
                }
            }
            _ => {
                if self.w.dot(&r) > 0.0 {
                    return HemisphereStep::Open;
                }
            }
        }
        self.wedge_test()
    }

    /// The wedge test of the last point against all earlier ones, `O(len)`.
    ///
    /// Angles are never formed: the wedge is kept as its two end projections `lo`, `hi` (the
    /// wedge is the counter-clockwise sweep from `lo` to `hi` seen from `r_i`, at most `pi`
    /// wide), and a projection `x` is placed by the orientations `turn(a, b) = r_i . (a x b)`
    /// (positive when `b` lies less than `pi` counter-clockwise from `a`). `x` is inside when
    /// `turn(lo, x) >= 0` and `turn(x, hi) >= 0`; otherwise widening to `hi = x` keeps the wedge
    /// within `pi` iff `turn(lo, x) >= 0`, widening to `lo = x` iff `turn(x, hi) >= 0` (only one
    /// of them can hold, and it is the shorter way round), and when neither holds `x` lies
    /// strictly inside the wedge's antipode.
    fn wedge_test(&mut self) -> HemisphereStep {
        let last = self.points.len() - 1;
        let ri = self.points[last].r;
        let floor_squared = PROJECTION_FLOOR * PROJECTION_FLOOR;
        // The wedge also keeps the normals `r_i x lo` and `hi x r_i`, so that
        // `turn(lo, x) = x . (r_i x lo)` and `turn(x, hi) = x . (hi x r_i)` cost a dot product
        // each.
        let mut wedge: Option<Wedge> = None;
        let (mut lo_index, mut hi_index) = (0usize, 0usize);
        for (j, point) in self.points[..last].iter().enumerate() {
            let x = point.r - ri * ri.dot(&point.r);
            if x.norm_squared() <= floor_squared {
                continue;
            }
            let Some(w) = wedge.as_mut() else {
                wedge = Some(Wedge {
                    lo: x,
                    hi: x,
                    ri_x_lo: ri.cross(&x),
                    hi_x_ri: x.cross(&ri),
                });
                lo_index = j;
                hi_index = j;
                continue;
            };
            let (from_lo, to_hi) = (x.dot(&w.ri_x_lo), x.dot(&w.hi_x_ri));
            match (from_lo >= 0.0, to_hi >= 0.0) {
                // A zero turn is a collinear projection: opposite to `lo` it lies half a turn
                // counter-clockwise from `lo` (widen to it), opposite to `hi` half a turn
                // clockwise from `hi`; otherwise it lies on an end of the wedge.
                (true, true) if from_lo == 0.0 && w.lo.dot(&x) < 0.0 => {
                    w.set_hi(x, &ri);
                    hi_index = j;
                }
                (true, true) if to_hi == 0.0 && w.hi.dot(&x) < 0.0 => {
                    w.set_lo(x, &ri);
                    lo_index = j;
                }
                (true, true) => {}
                (true, false) => {
                    w.set_hi(x, &ri);
                    hi_index = j;
                }
                (false, true) => {
                    w.set_lo(x, &ri);
                    lo_index = j;
                }
                (false, false) => return HemisphereStep::Closed([lo_index, hi_index, j, last]),
            }
        }
        // All projections fit in the wedge (width <= pi): the new normal is its bisector,
        // perpendicular to r_i: `lo + hi` for unit ends up to a right angle apart, `r_i x (lo -
        // hi)` (the same direction, well conditioned up to a half turn) beyond. Without any
        // usable projection, any unit vector normal to r_i.
        self.w = match wedge {
            Some(Wedge { lo, hi, .. }) => {
                let (lo, hi) = (lo / lo.norm(), hi / hi.norm());
                let w = if lo.dot(&hi) >= 0.0 {
                    lo + hi
                } else {
                    ri.cross(&(lo - hi))
                };
                w / w.norm()
            }
            None => any_perpendicular(&ri),
        };
        HemisphereStep::Open
    }

    /// Checks that the stored directions are unit vectors and the normal is unit (or zero before
    /// the first point).
    pub(crate) fn validate(&self) -> Result<(), NarrowError> {
        for (index, p) in self.points.iter().enumerate() {
            let error = (p.r.norm() - 1.0).abs();
            if error.is_nan() || error > 1e-12 {
                return Err(NarrowError::BrokenInvariant {
                    what: "hemisphere direction is not a unit vector",
                    index,
                });
            }
        }
        let wn = self.w.norm();
        if !(self.points.is_empty() && wn == 0.0 || (wn - 1.0).abs() <= 1e-12) {
            return Err(NarrowError::BrokenInvariant {
                what: "hemisphere normal is not a unit vector",
                index: 0,
            });
        }
        Ok(())
    }
}

/// The wedge of [`Hemisphere::wedge_test`]: its end projections `lo`, `hi` (in the plane normal
/// to `r_i`) and the normals `r_i x lo`, `hi x r_i` its orientation tests dot with.
struct Wedge {
    lo: VectorD,
    hi: VectorD,
    ri_x_lo: VectorD,
    hi_x_ri: VectorD,
}

impl Wedge {
    fn set_lo(&mut self, lo: VectorD, ri: &VectorD) {
        self.lo = lo;
        self.ri_x_lo = ri.cross(&lo);
    }

    fn set_hi(&mut self, hi: VectorD, ri: &VectorD) {
        self.hi = hi;
        self.hi_x_ri = hi.cross(ri);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(x: f64, y: f64, z: f64) -> SearchPoint {
        let m = VectorD::new(x, y, z);
        SearchPoint {
            m,
            r: m / m.norm(),
            vertices: [0, 0],
        }
    }

    #[test]
    fn points_in_a_hemisphere_stay_open_with_a_valid_normal() {
        let mut h = Hemisphere::with_capacity(16);
        let pts = [
            sp(1.0, 0.2, 0.0),
            sp(0.3, 1.0, 0.1),
            sp(0.2, 0.1, 1.0),
            sp(0.1, -1.0, 0.2),
            sp(0.2, 0.0, -1.0),
        ];
        for p in pts {
            assert_eq!(h.add(p), HemisphereStep::Open);
            h.validate().unwrap();
        }
        // All five have positive x: the normal found keeps them all on its side.
        let w = h.normal();
        for p in h.points() {
            assert!(w.dot(&p.r) >= -1e-12, "{w:?} {p:?}");
        }
    }

    #[test]
    fn the_octahedron_closes_with_a_tetrahedron_around_the_origin() {
        let mut h = Hemisphere::with_capacity(16);
        let pts = [
            sp(1.0, 0.1, 0.1),
            sp(-0.1, 1.0, 0.1),
            sp(0.1, 0.1, 1.0),
            sp(-1.0, -1.0, -1.0),
        ];
        let mut closed = None;
        for p in pts {
            if let HemisphereStep::Closed(ids) = h.add(p) {
                closed = Some(ids);
            }
        }
        let ids = closed.expect("no hemisphere contains these four directions");
        let mut sorted = ids;
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3]);
    }

    #[test]
    fn collinear_projections_widen_the_wedge_by_half_a_turn() {
        // Against r_i = -z the first two points project to +x and -x (a zero orientation): the
        // wedge widens by half a turn, counter-clockwise seen from r_i, i.e. through -y, where
        // the third point's projection fits.
        let mut h = Hemisphere::with_capacity(8);
        for p in [
            sp(1.0, 0.0, 1.0),
            sp(-1.0, 0.0, 1.0),
            sp(0.0, -1.0, 1.0),
            sp(0.0, 0.0, -1.0),
        ] {
            assert_eq!(h.add(p), HemisphereStep::Open);
            h.validate().unwrap();
        }
        let w = h.normal();
        assert!((w - VectorD::new(0.0, -1.0, 0.0)).norm() < 1e-12, "{w:?}");
        // +y closes it: the origin is inside the hull of (1, 0, 1), (-1, 0, 1), (0, 0, -1), +y.
        assert_eq!(
            h.add(sp(0.0, 1.0, 0.0)),
            HemisphereStep::Closed([1, 0, 3, 4])
        );
    }

    /// The origin lies in the convex hull of four directions (up to rounding): the coefficients
    /// of `r_3` in the basis `r_0, r_1, r_2` are all non-positive.
    fn origin_in_hull(r: [VectorD; 4]) -> bool {
        let m = nalgebra::Matrix3::from_columns(&[r[0], r[1], r[2]]);
        m.lu()
            .solve(&r[3])
            .is_some_and(|c| c.iter().all(|&x| x <= 1e-9))
    }

    #[test]
    fn random_directions_give_valid_normals_and_enclosing_tetrahedra() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let (mut open, mut closed) = (0, 0);
        for case in 0..20_000 {
            let mut h = Hemisphere::with_capacity(32);
            // A bias towards one side keeps many sets open for a while.
            let bias = VectorD::new(next(), next(), next()) * (case % 4) as f64;
            for _ in 0..24 {
                let v = VectorD::new(next(), next(), next()) + bias;
                if v.norm() < 1e-3 {
                    continue;
                }
                match h.add(sp(v.x, v.y, v.z)) {
                    HemisphereStep::Open => {
                        open += 1;
                        let w = h.normal();
                        assert!((w.norm() - 1.0).abs() < 1e-12);
                        for p in h.points() {
                            assert!(w.dot(&p.r) >= -1e-9, "case {case}: {w:?} {p:?}");
                        }
                    }
                    HemisphereStep::Closed(ids) => {
                        closed += 1;
                        let pts = h.points();
                        assert!(origin_in_hull(ids.map(|i| pts[i].r)), "case {case}");
                        break;
                    }
                }
            }
        }
        assert!(open > 10_000 && closed > 5_000, "{open} {closed}");
    }

    #[test]
    fn antipodal_pair_alone_is_open() {
        let mut h = Hemisphere::with_capacity(4);
        assert_eq!(h.add(sp(0.0, 0.0, 1.0)), HemisphereStep::Open);
        assert_eq!(h.add(sp(0.0, 0.0, -1.0)), HemisphereStep::Open);
        assert!(h.normal().z.abs() < 1e-12);
        h.validate().unwrap();
    }
}
