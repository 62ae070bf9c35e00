//! Zachmann's separating-planes perceptron (thesis section 3.4.2): a biased test whose "no
//! collision" is certain and whose "collision" may be false.
//!
//! # Method
//! Two point sets are linearly separable iff some `w in R^4` has `w . z > 0` for every
//! `z = (p, -1)`, `p` a vertex of shape 1, and every `z = (-q, 1)`, `q` a vertex of shape 2 (both
//! in shape 1's frame): the plane `w_xyz . x = w_0` then has shape 1 strictly on its positive side
//! and shape 2 strictly on its negative side. The perceptron visits the points cyclically; on a
//! point with `w . z <= 0` it updates `w += eta z` and relaxes `eta *= step_decay` (the thesis's
//! 0.97). `N` consecutive correct points (`N` the number of used vertices, i.e. a clean pass)
//! end the search; otherwise it gives up when the update budget is exhausted.
//!
//! # Bias, precisely
//! * [`PlaneResult::Separated`] is certain: after a clean pass the plane is re-checked in shape
//!   1's frame against every used vertex (shape 1's `f32` vertices exactly widened, shape 2's
//!   mapped by `pos12` in `f64`), each clearance exceeding a forward bound
//!   `CERTIFY_FACTOR * (|offset| + |x|_1 + |q_local|_1 + |t12|_1)` on the rounding of that check and
//!   of the mapping. So the convex hulls of the vertex sets (for convex polyhedra: the solids
//!   themselves, for non-convex ones a superset of them) are disjoint, at distance at least
//!   `2 * clearance`.
//! * [`PlaneResult::NoPlaneFound`] means "collision" but may be false: the budget ran out before
//!   a plane was found, which happens for disjoint shapes that are close compared with their
//!   size (the perceptron needs at most `1 / D^2` updates for normalised points with separation
//!   margin `D`, thesis eq. 3.3) or whose current plane is far from a separating one.
//!
//! # Scale and cache
//! Points are normalised into the unit ball around the midpoint of the shapes' box centres before
//! learning (`x' = (x - c) / s`), so `eta` means the same at every scale. The cached plane
//! ([`SeparatingPlaneCache`]) is stored in shape 1's frame and units (unit normal, offset), which
//! survives changes of the normalisation between frames; it is the plane the last query ended
//! with, whether it separated or not (the thesis's incremental variant). Without a cached plane
//! the start is the thesis's best initial guess: the plane through the midpoint of the box
//! centres, normal to the line joining them.
//!
//! Cost per query: two passes over the vertices for the boxes and the certificate, plus at most
//! `(updates + 1) * N` point checks; no allocation.

use super::Frame12;
use crate::NarrowError;
use crate::RelativePose;
use colldet_geom::dcel::VertexId;
use colldet_geom::math::{PointD, VectorD, to_f64};
use colldet_geom::{GeomError, Polyhedron};
use nalgebra::Vector4;

/// Relative bound used by the certificate: a clearance counts only when it exceeds
/// `CERTIFY_FACTOR` times the magnitudes entering its computation (about 20 times the worst-case
/// rounding of the dot product and of the `pos12` mapping).
pub const CERTIFY_FACTOR: f64 = 1e-14;

/// Parameters of the perceptron.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerceptronOptions {
    /// Maximum number of plane updates; when one more would be needed the query answers
    /// [`PlaneResult::NoPlaneFound`].
    pub max_updates: u32,
    /// Initial step `eta` (points are normalised into the unit ball and the start plane has unit
    /// length, so this is dimensionless). Finite and positive.
    pub initial_step: f64,
    /// Factor applied to `eta` after every update, in `(0, 1]` (the thesis found 0.97 best).
    pub step_decay: f64,
}

impl Default for PerceptronOptions {
    /// 100 updates, `eta = 0.25` (the thesis's best for small budgets), decay 0.97.
    fn default() -> Self {
        Self {
            max_updates: 100,
            initial_step: 0.25,
            step_decay: 0.97,
        }
    }
}

impl PerceptronOptions {
    /// Checks the ranges documented on the fields.
    ///
    /// # Errors
    /// [`NarrowError::InvalidOption`] naming the first bad field.
    pub fn validate(&self) -> Result<(), NarrowError> {
        if !(self.initial_step.is_finite() && self.initial_step > 0.0) {
            return Err(NarrowError::InvalidOption {
                name: "initial_step",
                value: self.initial_step,
                requirement: "must be finite and positive",
            });
        }
        if !(self.step_decay > 0.0 && self.step_decay <= 1.0) {
            return Err(NarrowError::InvalidOption {
                name: "step_decay",
                value: self.step_decay,
                requirement: "must be in (0, 1]",
            });
        }
        Ok(())
    }
}

/// A certified separating plane, in shape 1's frame and units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeparatingPlane {
    /// Unit normal pointing from shape 1 towards shape 2.
    pub normal: VectorD,
    /// Plane offset: the plane is `normal . x = offset`.
    pub offset: f64,
    /// Smallest distance of a vertex of either shape from the plane (positive): every vertex of
    /// shape 1 has `normal . x <= offset - clearance`, every vertex of shape 2
    /// `normal . x >= offset + clearance`, so the shapes are at least `2 * clearance` apart.
    pub clearance: f64,
}

/// Outcome of [`separating_plane`]; the uncertainty is in the variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlaneResult {
    /// Certainly no collision: `plane` strictly separates the vertex sets.
    Separated {
        /// The certified plane.
        plane: SeparatingPlane,
        /// Updates the perceptron made before its clean pass.
        updates: u32,
    },
    /// No separating plane found within the budget: treat as "collision", which may be false.
    NoPlaneFound {
        /// Updates made (the budget, unless the certificate rejected a marginal plane).
        updates: u32,
    },
}

impl PlaneResult {
    /// True for [`PlaneResult::Separated`] (certain).
    pub fn is_separated(&self) -> bool {
        matches!(self, Self::Separated { .. })
    }
}

/// The plane a pair's last perceptron query ended with, used as the next start. Per pair, owned
/// by the caller and passed to each query as `&mut`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeparatingPlaneCache {
    /// Unit normal (shape 1's frame, towards shape 2's side) and offset.
    plane: Option<(VectorD, f64)>,
}

impl SeparatingPlaneCache {
    /// An empty cache: the next query starts from the box-centre plane.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the plane.
    pub fn reset(&mut self) {
        self.plane = None;
    }

    /// The stored plane `(normal, offset)`: unit normal in shape 1's frame pointing towards shape
    /// 2's side, plane `normal . x = offset`; not necessarily separating.
    pub fn plane(&self) -> Option<(VectorD, f64)> {
        self.plane
    }

    /// Checks that a stored plane has a finite unit normal and a finite offset.
    ///
    /// # Errors
    /// [`NarrowError::BrokenInvariant`] naming the failed check.
    pub fn validate(&self) -> Result<(), NarrowError> {
        if let Some((n, d)) = self.plane
            && (!n.iter().all(|c| c.is_finite())
                || (n.norm() - 1.0).abs() > 1e-12
                || !d.is_finite())
        {
            return Err(NarrowError::BrokenInvariant {
                what: "SeparatingPlaneCache plane is not a finite unit-normal plane",
                index: 0,
            });
        }
        Ok(())
    }
}

/// Searches a plane separating the vertices of `p1` from those of `p2` (thesis section 3.4.2),
/// warm-started from `cache` and updating it.
///
/// `pos12` is shape 2's pose in shape 1's frame. Any polyhedra are accepted: the test is on the
/// convex hulls of their used vertices (vertices no face uses are ignored), so for non-convex
/// shapes "separated" is still certain and "no plane" is about the hulls. See the
/// [module docs](self) for the bias.
///
/// # Errors
/// [`NarrowError::InvalidOption`] for bad `options`, [`NarrowError::NonFinite`] for a NaN or
/// infinite pose (or a pair whose size overflows `f64`), [`GeomError::NoVertices`] (wrapped) when
/// a polyhedron has no used vertex.
pub fn separating_plane<P: RelativePose + ?Sized>(
    p1: &Polyhedron,
    p2: &Polyhedron,
    pos12: &P,
    options: &PerceptronOptions,
    cache: &mut SeparatingPlaneCache,
) -> Result<PlaneResult, NarrowError> {
    options.validate()?;
    let pose = Frame12::new(pos12)?;

    // Boxes of the used vertices (shape 2's in its own frame, then its centre mapped).
    let (lo1, hi1, used1) = local_box(p1);
    let (lo2, hi2, used2) = local_box(p2);
    if used1 == 0 || used2 == 0 {
        return Err(GeomError::NoVertices.into());
    }
    let centre1 = (lo1.coords + hi1.coords) * 0.5;
    let centre2 = pose
        .in_frame1(&PointD::from((lo2.coords + hi2.coords) * 0.5))
        .coords;
    let radius = 0.5 * (hi1 - lo1).norm().max((hi2 - lo2).norm());
    let centre = (centre1 + centre2) * 0.5;
    let scale = 0.5 * (centre2 - centre1).norm() + radius;
    if !(scale.is_finite() && scale > 0.0) {
        return Err(NarrowError::NonFinite { what: "pair size" });
    }
    let inv = 1.0 / scale;
    // Shape 2's local points straight to normalised coordinates: x' = a q + b.
    let a = pose.rot * inv;
    let b = (pose.trans - centre) * inv;

    let mut w = start_plane(cache.plane, &centre, scale, &(centre2 - centre1));
    let n1 = p1.vertices().len();
    let n2 = p2.vertices().len();
    let total = used1 + used2;
    let (mut idx, mut clean, mut updates) = (0usize, 0usize, 0u32);
    let mut eta = options.initial_step;
    let found = loop {
        let z = if idx < n1 {
            let v = VertexId(idx as u32);
            if is_used(p1, v) {
                let x = (to_f64(p1.vertex(v)).coords - centre) * inv;
                Some(Vector4::new(x.x, x.y, x.z, -1.0))
            } else {
                None
            }
        } else {
            let v = VertexId((idx - n1) as u32);
            if is_used(p2, v) {
                let x = a * to_f64(p2.vertex(v)).coords + b;
                Some(Vector4::new(-x.x, -x.y, -x.z, 1.0))
            } else {
                None
            }
        };
        if let Some(z) = z {
            if w.dot(&z) > 0.0 {
                clean += 1;
                if clean >= total {
                    break true;
                }
            } else {
                if updates >= options.max_updates {
                    break false;
                }
                w += z * eta;
                eta *= options.step_decay;
                updates += 1;
                clean = 0;
            }
        }
        idx += 1;
        if idx == n1 + n2 {
            idx = 0;
        }
    };

    // Back to shape 1's frame: n = -w_xyz / s, d = -w_0 - (w_xyz . c) / s, then unit length.
    let wn = VectorD::new(w.x, w.y, w.z);
    let normal = -wn * inv;
    let offset = -w.w - wn.dot(&centre) * inv;
    let length = normal.norm();
    if !(length.is_finite() && length > 0.0 && offset.is_finite()) {
        cache.plane = None;
        return Ok(PlaneResult::NoPlaneFound { updates });
    }
    let (normal, offset) = (normal / length, offset / length);
    cache.plane = Some((normal, offset));
    if found && let Some(clearance) = certify(p1, p2, &pose, &normal, offset) {
        return Ok(PlaneResult::Separated {
            plane: SeparatingPlane {
                normal,
                offset,
                clearance,
            },
            updates,
        });
    }
    Ok(PlaneResult::NoPlaneFound { updates })
}

/// True when a face uses vertex `v`.
#[inline]
fn is_used(p: &Polyhedron, v: VertexId) -> bool {
    p.dcel().vertex_half_edges(v).len() > 0
}

/// The box of the used vertices of `p` (local frame) and their number.
fn local_box(p: &Polyhedron) -> (PointD, PointD, usize) {
    let mut lo = PointD::new(f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let mut hi = PointD::new(f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut used = 0;
    for (i, v) in p.vertices().iter().enumerate() {
        if is_used(p, VertexId(i as u32)) {
            let x = to_f64(v);
            lo = lo.inf(&x);
            hi = hi.sup(&x);
            used += 1;
        }
    }
    (lo, hi, used)
}

/// The unit start vector in normalised coordinates: the cached plane if any, else the plane
/// through the midpoint normal to `axis` (the box-centre line, from shape 1 to shape 2), else
/// the thesis's trivial plane.
fn start_plane(
    cached: Option<(VectorD, f64)>,
    centre: &VectorD,
    scale: f64,
    axis: &VectorD,
) -> Vector4<f64> {
    // Shape 1's side is `w_xyz . x' > w_0`, i.e. `w = -(n s, d - n . c)` for the plane
    // `n . x = d` with shape 1 on its negative side.
    let w = match cached {
        Some((n, d)) => {
            let ns = n * scale;
            Vector4::new(-ns.x, -ns.y, -ns.z, -(d - n.dot(centre)))
        }
        None => Vector4::new(-axis.x, -axis.y, -axis.z, 0.0),
    };
    let length = w.norm();
    if length.is_finite() && length > 0.0 {
        w / length
    } else {
        Vector4::new(1.0, 0.0, 0.0, 0.0)
    }
}

/// The smallest vertex clearance from `normal . x = offset` (shape 1 below, shape 2 above), if
/// every clearance exceeds its rounding bound.
fn certify(
    p1: &Polyhedron,
    p2: &Polyhedron,
    pose: &Frame12,
    normal: &VectorD,
    offset: f64,
) -> Option<f64> {
    let mut clearance = f64::INFINITY;
    for (i, v) in p1.vertices().iter().enumerate() {
        if !is_used(p1, VertexId(i as u32)) {
            continue;
        }
        let x = to_f64(v).coords;
        let gap = offset - normal.dot(&x);
        if gap <= CERTIFY_FACTOR * (offset.abs() + x.lp_norm(1)) {
            return None;
        }
        clearance = clearance.min(gap);
    }
    let t1 = pose.trans.lp_norm(1);
    for (i, v) in p2.vertices().iter().enumerate() {
        if !is_used(p2, VertexId(i as u32)) {
            continue;
        }
        let local = to_f64(v);
        let x = pose.in_frame1(&local).coords;
        let gap = normal.dot(&x) - offset;
        if gap <= CERTIFY_FACTOR * (offset.abs() + x.lp_norm(1) + local.coords.lp_norm(1) + t1) {
            return None;
        }
        clearance = clearance.min(gap);
    }
    clearance.is_finite().then_some(clearance)
}
