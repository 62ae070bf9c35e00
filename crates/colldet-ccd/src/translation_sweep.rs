//! The translational sweep of a pair: body `a` translating by `d_a` and body `b` by `d_b` over
//! the fraction `tau` in `[0, 1]`, orientations fixed. Solved in `b`'s frame, where `a` translates
//! by `d = R_b^T (d_a - d_b)`: `a`'s vertices are mapped there once in `f64` (the relative pose
//! in `f64`, as the discrete tests use it) and every decision after that is exact
//! ([`crate::translation`]).
//!
//! Features tested: `a`'s contact vertices against `b`'s triangles (vertex-face), `b`'s contact
//! vertices against `a`'s triangles with the reverse motion (face-vertex), `a`'s contact edges
//! against `b`'s (edge-edge), each after a box test on the swept boxes. Closed surfaces are hit
//! only from the front. The first contact of separated bodies is always one of these (a vertex on
//! a closed face, or two edges crossing); a sweep that starts in contact is the caller's to
//! detect (with the discrete test at `tau = 0`).
//!
//! The expel zone (seed section 3, [`crate::expel`]), [`TranslationOptions::expel_distance`]
//! `e > 0`: on top of the exact contacts above (so a sweep never goes further than with `e = 0`),
//! each vertex of `a` stops where it reaches the plane of a face of `b` moved out by `e` inside
//! the face's bounds, and may only move away from a face whose zone it starts in (seed 3.1,
//! [`apply_expel_translation_vertex_face`]); `b`'s vertices the same against `a`'s faces with the
//! reverse motion; each edge pair stops where the moving edge meets the line of the expanded
//! planes of the fixed edge's two triangles (seed 3.2, [`expel_translation_edge_edge`]), with
//! either body's edge as the fixed one. A stop from the zone is a point fraction (`lo = hi`,
//! computed in `f64`: the zone is a tolerance mechanism). On a surface that is not closed, a face
//! (and an edge's triangles) is taken from the side the other feature starts on. `e = 0` runs
//! the exact sweep alone, unchanged.

use std::cell::Cell;

use colldet_geom::math::{MatrixD, PointD, VectorD};

use crate::contact::{ContactKind, SweepContact, TimeOfImpact};
use crate::convex_advance::{Advance, advance};
use crate::expel::{
    apply_expel_translation_vertex_face, expanded_edge_offset, expel_translation_edge_edge,
};
use crate::motion::RigidPose;
use crate::sweep_shape::SweepShape;
use crate::translation::{EdgeFilter, Sides, SweptTriangle, edge_edge};

/// Reusable buffers of [`sweep_translation`] (no allocation once grown).
#[derive(Clone, Debug, Default)]
pub struct TranslationWorkspace {
    mapped: Vec<VectorD>,
    /// Exact sign of `n . d` per triangle of `a` (mapped) and of `b`, computed on first use
    /// ([`FACING_UNKNOWN`] until then).
    facing_a: Vec<i8>,
    facing_b: Vec<i8>,
    /// The features of the current pass.
    selected_a: Selected,
    selected_b: Selected,
    /// `a`'s contact vertices that can lead, with their path boxes.
    leading: Vec<(u32, Bounds)>,
    /// The vertices near the convex advancement's contact.
    near_a: Vec<bool>,
    near_b: Vec<bool>,
    /// `b`'s contact edges that can lead, prepared for the edge filter, with their boxes.
    fixed_edges: Vec<(u32, EdgeFilter, Bounds)>,
    /// With an expel zone: the unit normals of the triangles at each of `fixed_edges`.
    fixed_normals: Vec<[VectorD; 2]>,
    /// The last sweep certified the bodies apart at its end ([`TranslationWorkspace::apart_at_end`]).
    apart_at_end: bool,
}

/// Options of [`sweep_translation_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TranslationOptions {
    /// The expel distance `e` (length units of the bodies' frames; module docs). 0, the default,
    /// switches the zone off; a negative, NaN or infinite value is treated as 0 (callers
    /// validate: `World::set_expel_distance`).
    pub expel: f64,
}

impl TranslationOptions {
    /// The expel distance in effect: `expel` when finite and positive, else 0.
    pub fn expel_distance(&self) -> f64 {
        if self.expel.is_finite() && self.expel > 0.0 {
            self.expel
        } else {
            0.0
        }
    }
}

impl TranslationWorkspace {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// True when the last sweep with these buffers certified that the bodies are apart at the end
    /// of the motion (`tau = 1`): for a convex pair without an expel zone, a slab of the slab
    /// bound separates them there by more than [`END_APART`] times the scale of the coordinates
    /// (the bodies' radii, their translations and motions). That clears the discrete tests'
    /// touching band and the rounding between the sweep's mapping and any `f64` mapping of the
    /// end poses by orders of magnitude: the exact discrete test at the end poses says
    /// "separated". False when nothing is certified (the caller then tests the end poses).
    pub fn apart_at_end(&self) -> bool {
        self.apart_at_end
    }
}

/// Relative separation at the end of a translational sweep (times the coordinates' scale) beyond
/// which [`TranslationWorkspace::apart_at_end`] certifies the bodies apart: ten times the
/// discrete tests' touching band (`1e-9` of the radii), far above the rounding of the mappings.
pub const END_APART: f64 = 1e-8;

/// Vertices within this fraction of the scale of the supporting plane at the advancement's
/// contact are "near" it (generous: the direction there is accurate to far better).
const NEAR_BAND: f64 = 1e-7;

/// The near features decide the contact when it lies within this fraction of the motion after
/// the certified bound (the bracket's width).
const NEAR_TIME_TOLERANCE: f64 = 1e-9;

/// Error factor of the facing filter: the local normal (two differences, a cross product) and
/// its dot product with `d` take a few roundings per term; 16 units of roundoff cover them.
const FACING_ERROR: f64 = 16.0 * f64::EPSILON;

/// An axis-aligned box in `f64`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    min: VectorD,
    max: VectorD,
}

impl Bounds {
    fn empty() -> Self {
        Self {
            min: VectorD::repeat(f64::INFINITY),
            max: VectorD::repeat(f64::NEG_INFINITY),
        }
    }

    fn of(points: &[&VectorD]) -> Self {
        let mut b = Self::empty();
        for p in points {
            b.min = b.min.inf(p);
            b.max = b.max.sup(p);
        }
        b
    }

    /// This box and its copy moved by `d`, grown by `margin` (covers the rounding of `p + d`).
    fn swept(mut self, d: &VectorD, margin: f64) -> Self {
        let (lo, hi) = (self.min + d, self.max + d);
        self.min = self.min.inf(&lo).add_scalar(-margin);
        self.max = self.max.sup(&hi).add_scalar(margin);
        self
    }

    fn overlaps(&self, o: &Bounds) -> bool {
        (0..3).all(|k| self.min[k] <= o.max[k] && o.min[k] <= self.max[k])
    }
}

/// The first contact of the translational sweep (module docs), in world coordinates: point and
/// normal at `toi.hi`, normal from `b` towards `a`. `None` when the bodies do not touch for any
/// `tau` in `[0, 1]` (or only through a contact present at `tau = 0` that no feature path
/// crosses, see the module docs). No expel zone: [`sweep_translation_with`] with the default
/// options.
pub fn sweep_translation(
    a: &SweepShape,
    pose_a: &RigidPose,
    d_a: &VectorD,
    b: &SweepShape,
    pose_b: &RigidPose,
    d_b: &VectorD,
    ws: &mut TranslationWorkspace,
) -> Option<SweepContact> {
    sweep_translation_with(
        a,
        pose_a,
        d_a,
        b,
        pose_b,
        d_b,
        &TranslationOptions::default(),
        ws,
    )
}

/// As [`sweep_translation`], with `options`: an expel distance `e > 0` adds the expel zone's
/// stops (module docs); `e = 0` gives [`sweep_translation`]'s answer bit for bit.
#[allow(clippy::too_many_arguments)]
pub fn sweep_translation_with(
    a: &SweepShape,
    pose_a: &RigidPose,
    d_a: &VectorD,
    b: &SweepShape,
    pose_b: &RigidPose,
    d_b: &VectorD,
    options: &TranslationOptions,
    ws: &mut TranslationWorkspace,
) -> Option<SweepContact> {
    ws.apart_at_end = false;
    let expel = options.expel_distance();
    let rot_bt = pose_b.rot.transpose();
    let rel_rot = rot_bt * pose_a.rot;
    let rel_trans = rot_bt * (pose_a.trans - pose_b.trans);
    let d = rot_bt * (d_a - d_b);
    let scale = a.radius() + b.radius() + rel_trans.norm() + d.norm();
    // Every box test has one side grown by this margin: with an expel zone it covers `e`.
    let margin = 4.0 * f64::EPSILON * scale + expel;
    // Each body's bounding sphere about its origin, along its path relative to the other, against
    // the other's local box (a few operations each, before any vertex is mapped). The slack
    // covers the mapping into the box's frame and the slab quotients' rounding.
    let slack = margin + SPHERE_PATH_SLACK * scale;
    let rel_rot_t = rel_rot.transpose();
    if sphere_path_misses(&rel_trans, &d, a.radius(), b.local_box(), slack)
        || sphere_path_misses(
            &(rel_rot_t * -rel_trans),
            &(rel_rot_t * -d),
            b.radius(),
            a.local_box(),
            slack,
        )
    {
        return None;
    }
    ws.mapped.clear();
    ws.mapped
        .extend(a.vertices().iter().map(|x| rel_rot * x.coords + rel_trans));
    let av = &ws.mapped;
    let bvx = b.vertices();
    let neg_d = -d;

    let mut a_box = Bounds::empty();
    for &v in a.contact_vertices() {
        a_box.min = a_box.min.inf(&av[v as usize]);
        a_box.max = a_box.max.sup(&av[v as usize]);
    }
    let a_swept = a_box.swept(&d, margin);
    let b_box = {
        let lb = b.local_box();
        Bounds {
            min: lb.mins.coords.map(f64::from).add_scalar(-margin),
            max: lb.maxs.coords.map(f64::from).add_scalar(margin),
        }
    };
    if !a_swept.overlaps(&b_box) || path_misses_box(av, a.contact_vertices(), &d, &b_box, margin) {
        return None;
    }
    // Two convex bodies: a lower bound of the contact (or a miss) is certified first by the slabs
    // of `b`'s axes (`slab_bound`, a few comparisons), then, when the features near that bound
    // do not decide, by conservative advancement (a GJK ray cast); the exact tests run on the
    // features near each bound first, and on all features only when neither decides.
    let convex = expel == 0.0 && a.hull().is_some() && b.hull().is_some();
    let band = NEAR_BAND * scale;
    let (slabs, end_gap) = if convex {
        slab_bound(
            av,
            a.contact_vertices(),
            bvx,
            b.contact_vertices(),
            &d,
            &rel_rot,
            margin,
            scale,
        )
    } else {
        (Slabs::Undecided, f64::NEG_INFINITY)
    };
    if slabs == Slabs::Miss {
        return None;
    }
    let end_scale = scale + pose_a.trans.norm() + pose_b.trans.norm() + d_a.norm() + d_b.norm();
    ws.apart_at_end = end_gap > END_APART * end_scale;
    let sides_b = if b.is_closed() {
        Sides::Front
    } else {
        Sides::Both
    };
    let sides_a = if a.is_closed() {
        Sides::Front
    } else {
        Sides::Both
    };
    // Facing of a triangle against the relative motion, from the local normals: +1 or -1 when
    // the sign of n . d is certain (beyond a bound on the rounding of the normal, of the mapping
    // of a's vertices and of the product), 0 when undecided. Culling acts only on certain signs;
    // the exact tests decide the rest. Computed on first use (a pass near a certified bound
    // looks at a few triangles only).
    let d_in_a = rel_rot.transpose() * d;
    let map_error = 32.0 * f64::EPSILON * (a.radius() + rel_trans.norm());
    let d_l1 = d.x.abs() + d.y.abs() + d.z.abs();
    let sign = |x: f64, err: f64| -> i8 {
        if x > err {
            1
        } else if x < -err {
            -1
        } else {
            0
        }
    };
    reset_facing(&mut ws.facing_a, a.triangles().len());
    reset_facing(&mut ws.facing_b, b.triangles().len());
    let (fa, fb) = (
        Cell::from_mut(&mut ws.facing_a[..]).as_slice_of_cells(),
        Cell::from_mut(&mut ws.facing_b[..]).as_slice_of_cells(),
    );
    let facing_a = |t: u32| {
        cached_facing(&fa[t as usize], || {
            let (n, prod, sum) = a.triangle_normal(t as usize);
            let err = (FACING_ERROR * prod + map_error * sum) * d_l1;
            sign(n.dot(&d_in_a), err)
        })
    };
    let facing_b = |t: u32| {
        cached_facing(&fb[t as usize], || {
            let (n, prod, _) = b.triangle_normal(t as usize);
            sign(n.dot(&d), FACING_ERROR * prod * d_l1)
        })
    };
    // A feature of a closed body whose triangles all face strictly away from its motion (`a`
    // moves along d, `b` along -d relative to it) has the body's interior ahead of it: it can
    // only touch after the bodies overlapped, never first.
    // (Not applied with an expel zone: a trailing feature may reach the zone first.)
    let filter = expel == 0.0;
    let a_leads =
        |tris: &[u32]| !filter || !a.is_closed() || tris.iter().any(|&t| facing_a(t) >= 0);
    let b_leads =
        |tris: &[u32]| !filter || !b.is_closed() || tris.iter().any(|&t| facing_b(t) <= 0);
    // The expel stop of vertex `p` moving by `motion` against triangle `q` (seed 3.1).
    let expel_vertex = |p: &VectorD, motion: &VectorD, q: &[VectorD; 3], sides: Sides| {
        let mut tri = q.map(PointD::from);
        if sides == Sides::Both && (q[1] - q[0]).cross(&(q[2] - q[0])).dot(&(p - q[0])) < 0.0 {
            tri.swap(1, 2);
        }
        apply_expel_translation_vertex_face(&PointD::from(*p), motion, &tri, expel)
            .ok()
            .flatten()
            .map(|h| TimeOfImpact::exact(h.stop.fraction))
    };
    let mut stage = if convex { Stage::Slabs } else { Stage::Full };
    loop {
        // A masked pass looks at the features near a certified bound `lo` only.
        let bound = match stage {
            Stage::Slabs => match slabs {
                Slabs::Bound { lo, normal } => Some((lo, normal)),
                Slabs::Miss | Slabs::Undecided => None,
            },
            Stage::Advance => {
                let (ha, hb) = (a.hull().expect("convex"), b.hull().expect("convex"));
                match advance(ha, hb, &rel_rot, &rel_trans, &d, scale) {
                    Advance::Separated => return None,
                    Advance::Near { lo, normal } => Some((lo, normal)),
                    Advance::Undecided => None,
                }
            }
            Stage::Full => None,
        };
        if bound.is_none() && stage != Stage::Full {
            stage = stage.next();
            continue;
        }
        // The features of this pass: near the bound's contact, or all of them.
        match &bound {
            Some((lo, normal)) => {
                mark_near(
                    &mut ws.near_a,
                    &mut ws.near_b,
                    a,
                    b,
                    av,
                    bvx,
                    &d,
                    *lo,
                    normal,
                    band,
                );
                ws.selected_a.near(a, &ws.near_a);
                ws.selected_b.near(b, &ws.near_b);
            }
            None => {
                ws.selected_a.all(a);
                ws.selected_b.all(b);
            }
        }
        let near = bound.map(|(lo, _)| lo);
        let (sel_a, sel_b) = (&ws.selected_a, &ws.selected_b);
        ws.leading.clear();
        for &i in &sel_a.vertices {
            let v = a.contact_vertices()[i as usize];
            if a_leads(a.contact_vertex_triangles(i as usize)) {
                let p = &av[v as usize];
                let path = Bounds::of(&[p]).swept(&d, margin);
                if path.overlaps(&b_box) {
                    ws.leading.push((v, path));
                }
            }
        }
        let mut best = Best::default();

        // Vertices of a against triangles of b.
        for &t in &sel_b.triangles {
            let tri = &b.triangles()[t as usize];
            if sides_b == Sides::Front && facing_b(t) > 0 {
                continue;
            }
            let q = tri.corners.map(|i| bvx[i as usize].coords);
            let tb = Bounds::of(&[&q[0], &q[1], &q[2]]);
            if !tb.overlaps(&a_swept) {
                continue;
            }
            let swept = SweptTriangle::new(q, &d);
            for (v, path) in &ws.leading {
                if !path.overlaps(&tb) {
                    continue;
                }
                let p = &av[*v as usize];
                let found = swept.hit_by(p, &d, sides_b);
                let zone = if expel > 0.0 {
                    expel_vertex(p, &d, &q, sides_b)
                } else {
                    None
                };
                for toi in [found, zone].into_iter().flatten() {
                    best.offer(toi, || {
                        let n = (q[1] - q[0]).cross(&(q[2] - q[0]));
                        let n = if n.dot(&d) <= 0.0 { n } else { -n };
                        (ContactKind::VertexFace, *v, tri.face, p + d * toi.hi, n)
                    });
                }
            }
        }
        // Vertices of b against triangles of a (b moves by -d relative to a).
        for &t in &sel_a.triangles {
            let tri = &a.triangles()[t as usize];
            if sides_a == Sides::Front && facing_a(t) < 0 {
                continue;
            }
            let q = tri.corners.map(|i| av[i as usize]);
            let tb = Bounds::of(&[&q[0], &q[1], &q[2]]).swept(&d, margin);
            if !tb.overlaps(&b_box) {
                continue;
            }
            let swept = SweptTriangle::new(q, &neg_d);
            for &i in &sel_b.vertices {
                let v = b.contact_vertices()[i as usize];
                let p = bvx[v as usize].coords;
                if !Bounds::of(&[&p]).overlaps(&tb)
                    || !b_leads(b.contact_vertex_triangles(i as usize))
                {
                    continue;
                }
                let found = swept.hit_by(&p, &neg_d, sides_a);
                let zone = if expel > 0.0 {
                    expel_vertex(&p, &neg_d, &q, sides_a)
                } else {
                    None
                };
                for toi in [found, zone].into_iter().flatten() {
                    best.offer(toi, || {
                        let n = (q[1] - q[0]).cross(&(q[2] - q[0]));
                        // n points out of a's face towards b's vertex; the contact normal points from
                        // b towards a.
                        let n = if n.dot(&neg_d) <= 0.0 { -n } else { n };
                        (ContactKind::FaceVertex, tri.face, v, p, n)
                    });
                }
            }
        }
        // Edges of a against edges of b.
        ws.fixed_edges.clear();
        ws.fixed_normals.clear();
        let unit = |n: VectorD| n.try_normalize(0.0).unwrap_or_else(VectorD::zeros);
        for &ib in &sel_b.edges {
            let ([k, l], eb) = b.contact_edges()[ib as usize];
            let (p, q) = (bvx[k as usize].coords, bvx[l as usize].coords);
            let bounds = Bounds::of(&[&p, &q]);
            let tris = b.contact_edge_triangles(ib as usize);
            if bounds.overlaps(&a_swept) && b_leads(&tris) {
                ws.fixed_edges.push((eb, EdgeFilter::new(p, q, &d), bounds));
                if expel > 0.0 {
                    ws.fixed_normals
                        .push(tris.map(|t| unit(b.triangle_normal(t as usize).0)));
                }
            }
        }
        // The expel stop of edge `x y` moving by `motion` against the fixed edge `p q` with the unit
        // normals `ns` of its triangles (seed 3.2); an open surface's normals face the moving edge.
        let expel_edge = |x: &VectorD,
                          y: &VectorD,
                          motion: &VectorD,
                          p: &VectorD,
                          q: &VectorD,
                          ns: [VectorD; 2],
                          open: bool| {
            let towards = (x + y) * 0.5 - p;
            let ns = ns.map(|n| if open && n.dot(&towards) < 0.0 { -n } else { n });
            let w = expanded_edge_offset(&ns[0], &ns[1], expel);
            expel_translation_edge_edge(x, y, motion, p, q, &w)
        };
        for &ia in &sel_a.edges {
            let ([i, j], ea) = a.contact_edges()[ia as usize];
            if !a_leads(&a.contact_edge_triangles(ia as usize)) {
                continue;
            }
            let (pa, pb) = (&av[i as usize], &av[j as usize]);
            let eb_box = Bounds::of(&[pa, pb]).swept(&d, margin);
            if !eb_box.overlaps(&b_box) {
                continue;
            }
            let moving = EdgeFilter::new(*pa, *pb, &d);
            let a_normals = if expel > 0.0 {
                a.contact_edge_triangles(ia as usize)
                    .map(|t| unit(rel_rot * a.triangle_normal(t as usize).0))
            } else {
                [VectorD::zeros(); 2]
            };
            for (k, (eb, fixed, bounds)) in ws.fixed_edges.iter().enumerate() {
                if !bounds.overlaps(&eb_box) {
                    continue;
                }
                let (p, q) = (&fixed.start, &fixed.end);
                if expel > 0.0 {
                    // b's edge fixed, a's moving; then a's edge fixed, b's moving back.
                    let f = expel_edge(pa, pb, &d, p, q, ws.fixed_normals[k], !b.is_closed());
                    let g = expel_edge(p, q, &neg_d, pa, pb, a_normals, !a.is_closed());
                    if let Some(f) = [f, g].into_iter().flatten().reduce(f64::min) {
                        best.offer(TimeOfImpact::exact(f), || {
                            let n = (pb - pa).cross(&(q - p));
                            let n = if n.dot(&d) <= 0.0 { n } else { -n };
                            let (sa, sb) = (pa + d * f, pb + d * f);
                            (
                                ContactKind::EdgeEdge,
                                ea,
                                *eb,
                                edge_point(&sa, &sb, &d, p, q),
                                n,
                            )
                        });
                    }
                }
                if !moving.may_hit(fixed, &d) {
                    continue;
                }
                if let Some(toi) = edge_edge(pa, pb, &d, p, q) {
                    best.offer(toi, || {
                        let n = (pb - pa).cross(&(q - p));
                        let n = if n.dot(&d) <= 0.0 { n } else { -n };
                        (
                            ContactKind::EdgeEdge,
                            ea,
                            *eb,
                            edge_point(pa, pb, &d, p, q),
                            n,
                        )
                    });
                }
            }
        }
        match near {
            // The near features decide when their first contact lies within the time tolerance
            // of the certified bound: no contact of any feature before `lo`, one at `hi`.
            Some(lo) => {
                if let Some(hi) = best.hi()
                    && hi - lo <= NEAR_TIME_TOLERANCE
                {
                    best.lo = lo.min(hi);

                    return best.finish(pose_b, d_b);
                }
            }
            None => return best.finish(pose_b, d_b),
        }
        stage = stage.next();
    }
}

/// Marks every triangle's facing unknown ([`cached_facing`]).
fn reset_facing(facing: &mut Vec<i8>, triangles: usize) {
    facing.clear();
    facing.resize(triangles, FACING_UNKNOWN);
}

/// A facing not computed yet.
const FACING_UNKNOWN: i8 = i8::MIN;

/// The facing kept in `cell`, computed by `compute` on first use.
fn cached_facing(cell: &Cell<i8>, compute: impl FnOnce() -> i8) -> i8 {
    let f = cell.get();
    if f != FACING_UNKNOWN {
        return f;
    }
    let f = compute();
    cell.set(f);
    f
}

/// The features one pass of [`sweep_translation_with`] tests on one body, each list ascending
/// (the order of the tests, which decides between contacts of equal upper bound).
#[derive(Clone, Debug, Default)]
struct Selected {
    /// Positions in [`SweepShape::contact_vertices`].
    vertices: Vec<u32>,
    /// Triangle indices.
    triangles: Vec<u32>,
    /// Positions in [`SweepShape::contact_edges`].
    edges: Vec<u32>,
}

impl Selected {
    /// Every feature of `shape`.
    fn all(&mut self, shape: &SweepShape) {
        self.vertices.clear();
        self.vertices
            .extend(0..shape.contact_vertices().len() as u32);
        self.triangles.clear();
        self.triangles.extend(0..shape.triangles().len() as u32);
        self.edges.clear();
        self.edges.extend(0..shape.contact_edges().len() as u32);
    }

    /// The features of `shape` whose vertices are all `near` (per vertex): contact vertices,
    /// triangles with three near corners, contact edges with both ends near. Found from the near
    /// vertices (each triangle and edge through the vertex that leads it).
    fn near(&mut self, shape: &SweepShape, near: &[bool]) {
        self.vertices.clear();
        self.triangles.clear();
        self.edges.clear();
        let triangles = shape.triangles();
        let edges = shape.contact_edges();
        for v in (0..near.len() as u32).filter(|&v| near[v as usize]) {
            if let Some(i) = shape.contact_index(v) {
                self.vertices.push(i as u32);
            }
            self.triangles
                .extend(shape.triangles_led_by(v).iter().filter(|&&t| {
                    triangles[t as usize]
                        .corners
                        .iter()
                        .all(|&c| near[c as usize])
                }));
            self.edges.extend(
                shape
                    .contact_edges_led_by(v)
                    .iter()
                    .filter(|&&e| near[edges[e as usize].0[1] as usize]),
            );
        }
        // Usually one or two near vertices: already in order.
        if !self.triangles.is_sorted() {
            self.triangles.sort_unstable();
        }
        if !self.edges.is_sorted() {
            self.edges.sort_unstable();
        }
    }
}

/// The steps of a convex pair's sweep (`sweep_translation_with`), in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The features near the slab bound.
    Slabs,
    /// The features near the advancement's bound.
    Advance,
    /// Every feature.
    Full,
}

impl Stage {
    fn next(self) -> Self {
        match self {
            Stage::Slabs => Stage::Advance,
            Stage::Advance | Stage::Full => Stage::Full,
        }
    }
}

/// Marks the vertices of `a` (mapped, `av`, at fraction `lo`) and of `b` (`bvx`) within `band`
/// of their extremes along `normal` (from `b` towards `a`): the features near the contact of a
/// bound `lo` certified with the separating direction `normal`.
#[allow(clippy::too_many_arguments)]
fn mark_near(
    near_a: &mut Vec<bool>,
    near_b: &mut Vec<bool>,
    a: &SweepShape,
    b: &SweepShape,
    av: &[VectorD],
    bvx: &[PointD],
    d: &VectorD,
    lo: f64,
    normal: &VectorD,
    band: f64,
) {
    let at_lo = d * lo;
    let project_a = |v: usize| normal.dot(&(av[v] + at_lo));
    let project_b = |v: usize| normal.dot(&bvx[v].coords);
    let min_a = a
        .contact_vertices()
        .iter()
        .map(|&v| project_a(v as usize))
        .fold(f64::INFINITY, f64::min);
    let max_b = b
        .contact_vertices()
        .iter()
        .map(|&v| project_b(v as usize))
        .fold(f64::NEG_INFINITY, f64::max);
    near_a.clear();
    near_a.extend((0..av.len()).map(|v| project_a(v) <= min_a + band));
    near_b.clear();
    near_b.extend((0..bvx.len()).map(|v| project_b(v) >= max_b - band));
}

/// Outcome of [`slab_bound`].
#[derive(Clone, Copy, Debug, PartialEq)]
enum Slabs {
    /// The bodies do not touch for any fraction in `[0, 1]` (certified).
    Miss,
    /// No contact before `lo` (certified): the slab of `b` along `normal` (a coordinate axis of
    /// `b`'s frame, from `b` towards `a`) separates them until then.
    Bound { lo: f64, normal: VectorD },
    /// The slabs overlap at the start.
    Undecided,
}

/// The slab bound of `a`'s vertices `a_vertices` (mapped into `b`'s frame, `av`) translating by
/// `d` against `b`'s vertices `b_vertices` (`bvx`): along an axis the two projections are
/// disjoint before a fraction `t_in` and after a fraction `t_out`; the bodies (inside the hulls
/// of their vertices) cannot touch before the largest `t_in` nor after the smallest `t_out`, and
/// never when the first exceeds the second or 1. The axes are the coordinate axes of `b`'s frame
/// and of `a`'s (the columns of `rel_rot`): the separating axis test of the moving pair
/// restricted to six axes, exact for a vertex meeting a face normal to one of them (a box's
/// faces, such as a wall's). Certified for the vertices as given: each slab of `b` is grown by
/// `margin` (which exceeds the rounding of a difference of coordinates within `scale`) plus, on
/// `a`'s axes, a bound on the rounding of the dot products; the approach rate is taken with its
/// rounding bound, and each quotient is moved outwards by four units of roundoff.
#[allow(clippy::too_many_arguments)]
fn slab_bound(
    av: &[VectorD],
    a_vertices: &[u32],
    bvx: &[PointD],
    b_vertices: &[u32],
    d: &VectorD,
    rel_rot: &MatrixD,
    margin: f64,
    scale: f64,
) -> (Slabs, f64) {
    // A dot product of a point within `scale` with a unit axis: three products and two sums.
    let dot_error = 8.0 * f64::EPSILON * scale;
    let (down, up) = (1.0 - 4.0 * f64::EPSILON, 1.0 + 4.0 * f64::EPSILON);
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut normal = None;
    let mut end_gap = f64::NEG_INFINITY;
    // Both bodies' extents on the six axes, in one pass over each body's vertices.
    let axes: [VectorD; 3] = std::array::from_fn(|k| rel_rot.column(k).into_owned());
    let (a_min, a_max) = extents(a_vertices.iter().map(|&v| &av[v as usize]), &axes);
    let (b_min, b_max) = extents(b_vertices.iter().map(|&v| &bvx[v as usize].coords), &axes);
    for axis in 0..6 {
        // `b`'s axes: the coordinates themselves (exact); `a`'s axes: dot products.
        let n = if axis < 3 {
            VectorD::ith(axis, 1.0)
        } else {
            axes[axis - 3]
        };
        let project = |p: &VectorD| if axis < 3 { p[axis] } else { n.dot(p) };
        let (a_lo, a_hi) = (a_min[axis], a_max[axis]);
        let (b_lo, b_hi) = (b_min[axis], b_max[axis]);
        let (slack, rate_error) = if axis < 3 {
            (margin, 0.0)
        } else {
            (margin + 2.0 * dot_error, dot_error)
        };
        let (below, above) = (b_lo - slack, b_hi + slack);
        let rate = project(d);
        if rate.abs() <= rate_error {
            // Too slow to bound a time: only a miss for the whole motion is certain.
            let reach = 2.0 * rate_error;
            if a_hi + reach < below || a_lo - reach > above {
                return (Slabs::Miss, end_gap);
            }
            continue;
        }
        // The separation along this axis at the end of the motion (`b`'s slab grown by the
        // slack on both sides).
        end_gap = end_gap.max((below - (a_hi + rate)).max((a_lo + rate) - above));
        // Entry: `a` below the slab moving up, or above it moving down.
        let (gap_in, gap_out) = if rate > 0.0 {
            (below - a_hi, above - a_lo)
        } else {
            (a_lo - above, a_hi - below)
        };
        if gap_out < 0.0 {
            return (Slabs::Miss, end_gap);
        }
        let speed = rate.abs();
        hi = hi.min(gap_out / (speed - rate_error) * up);
        if gap_in > 0.0 {
            let t = gap_in / (speed + rate_error) * down;
            if t > lo {
                lo = t;
                normal = Some(n * -rate.signum());
            }
        }
    }
    if lo > hi {
        return (Slabs::Miss, end_gap);
    }
    let slabs = match normal {
        Some(normal) => Slabs::Bound { lo, normal },
        None => Slabs::Undecided,
    };
    (slabs, end_gap)
}

/// The smallest and largest projections of `points` on the six axes of [`slab_bound`]: the
/// coordinates (`b`'s axes), then the dot products with `axes` (`a`'s), each exactly as the
/// slab test projects a point.
fn extents<'p>(
    points: impl Iterator<Item = &'p VectorD>,
    axes: &[VectorD; 3],
) -> ([f64; 6], [f64; 6]) {
    let (mut lo, mut hi) = ([f64::INFINITY; 6], [f64::NEG_INFINITY; 6]);
    for p in points {
        let x = [
            p.x,
            p.y,
            p.z,
            axes[0].dot(p),
            axes[1].dot(p),
            axes[2].dot(p),
        ];
        for k in 0..6 {
            // Finite values: the same extremes as `f64::min` / `f64::max`.
            if x[k] < lo[k] {
                lo[k] = x[k];
            }
            if x[k] > hi[k] {
                hi[k] = x[k];
            }
        }
    }
    (lo, hi)
}

/// Slack of [`sphere_path_misses`] in units of roundoff times the coordinates' scale: the
/// mapping of a point and a direction into the other body's frame (a rotation that is orthogonal
/// to a few units of roundoff), the rounding of the body's radius and of the slab quotients.
const SPHERE_PATH_SLACK: f64 = 64.0 * f64::EPSILON;

/// True when a sphere of `radius` whose centre moves from `start` by `motion` (fraction `tau` in
/// `[0, 1]`) certainly misses `local_box`: the centre's segment misses the box grown by
/// `radius + slack` on every side (which holds the box grown by the sphere). A segment that meets
/// the sphere-grown box has a point at depth `slack` in the grown box, so the slab intervals of
/// the three axes overlap by at least `slack / |motion_k|` in `tau` there, more than the
/// rounding of the quotients (`slack` well above the rounding of the coordinates).
fn sphere_path_misses(
    start: &VectorD,
    motion: &VectorD,
    radius: f64,
    local_box: &colldet_geom::Aabb,
    slack: f64,
) -> bool {
    let grow = radius + slack;
    let (mut enter, mut exit) = (0.0f64, 1.0f64);
    for k in 0..3 {
        let lo = f64::from(local_box.mins[k]) - grow;
        let hi = f64::from(local_box.maxs[k]) + grow;
        let (p, v) = (start[k], motion[k]);
        if v == 0.0 {
            if p < lo || p > hi {
                return true;
            }
            continue;
        }
        let (s0, s1) = ((lo - p) / v, (hi - p) / v);
        let (near, far) = if v > 0.0 { (s0, s1) } else { (s1, s0) };
        enter = enter.max(near);
        exit = exit.min(far);
        if enter > exit {
            return true;
        }
    }
    false
}

/// True when the axes `d x e_k` (`e_k` the coordinate axes of `b`'s frame) separate `a`'s
/// vertices from `b`'s box: projections on an axis orthogonal to `d` do not change during the
/// translation, so one interval per axis covers the whole sweep. The margin covers rounding.
fn path_misses_box(
    av: &[VectorD],
    vertices: &[u32],
    d: &VectorD,
    b_box: &Bounds,
    margin: f64,
) -> bool {
    let centre = (b_box.min + b_box.max) * 0.5;
    let half = (b_box.max - b_box.min) * 0.5;
    for k in 0..3 {
        let axis = d.cross(&VectorD::ith(k, 1.0));
        let reach = half.dot(&axis.abs());
        let c = centre.dot(&axis);
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for &v in vertices {
            let x = av[v as usize].dot(&axis);
            lo = lo.min(x);
            hi = hi.max(x);
        }
        let slack = margin * axis.norm() * 4.0;
        if lo > c + reach + slack || hi < c - reach - slack {
            return true;
        }
    }
    false
}

/// The crossing point of the static edge `p q` with the moving line `a b` (swept along `d`).
fn edge_point(a: &VectorD, b: &VectorD, d: &VectorD, p: &VectorD, q: &VectorD) -> VectorD {
    let n = d.cross(&(b - a));
    let (sp, sq) = (n.dot(&(p - a)), n.dot(&(q - a)));
    let u = if sp != sq { sp / (sp - sq) } else { 0.5 };
    p + (q - p) * u.clamp(0.0, 1.0)
}

/// The earliest contact found so far, in `b`'s frame: the feature pair with the smallest upper
/// bound, and the smallest lower bound of all (the first contact lies between the two).
struct Best {
    lo: f64,
    found: Option<(TimeOfImpact, ContactKind, u32, u32, VectorD, VectorD)>,
}

impl Default for Best {
    fn default() -> Self {
        Self {
            lo: f64::INFINITY,
            found: None,
        }
    }
}

impl Best {
    fn offer(
        &mut self,
        toi: TimeOfImpact,
        describe: impl FnOnce() -> (ContactKind, u32, u32, VectorD, VectorD),
    ) {
        self.lo = self.lo.min(toi.lo);
        if self.found.is_none_or(|f| toi.hi < f.0.hi) {
            let (kind, fa, fb, point, normal) = describe();
            self.found = Some((toi, kind, fa, fb, point, normal));
        }
    }

    /// The smallest upper bound found.
    fn hi(&self) -> Option<f64> {
        self.found.map(|f| f.0.hi)
    }

    /// The contact in world coordinates: `b`'s frame at fraction `hi` is `R_b x + t_b + hi d_b`.
    fn finish(self, pose_b: &RigidPose, d_b: &VectorD) -> Option<SweepContact> {
        let (toi, kind, fa, fb, point, normal) = self.found?;
        let toi = TimeOfImpact {
            lo: self.lo,
            hi: toi.hi,
        };
        let world = pose_b.rot * point + pose_b.trans + d_b * toi.hi;
        let n = pose_b.rot * normal;
        let len = n.norm();
        Some(SweepContact {
            toi,
            kind,
            feature_moving: fa,
            feature_hit: fb,
            point: PointD::from(world),
            normal: if len > 0.0 { n / len } else { n },
            initially_touching: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use colldet_geom::Aabb;
    use colldet_geom::math::Point;

    use super::*;

    /// The corners of the box `[lo, hi]`.
    fn corners(lo: [f64; 3], hi: [f64; 3]) -> Vec<VectorD> {
        (0..8)
            .map(|i| {
                VectorD::new(
                    if i & 1 == 0 { lo[0] } else { hi[0] },
                    if i & 2 == 0 { lo[1] } else { hi[1] },
                    if i & 4 == 0 { lo[2] } else { hi[2] },
                )
            })
            .collect()
    }

    #[test]
    fn sphere_paths_miss_only_beyond_the_sphere_grown_box() {
        let unit = Aabb::new(Point::new(-1.0, -1.0, -1.0), Point::new(1.0, 1.0, 1.0));
        let slack = 1e-12;
        let along_x = VectorD::new(10.0, 0.0, 0.0);
        // A sphere of radius 0.5 passing the box along x, 1e-6 outside and inside its reach.
        let beside = VectorD::new(-5.0, 1.5 + 1e-6, 0.0);
        assert!(sphere_path_misses(&beside, &along_x, 0.5, &unit, slack));
        let grazing = VectorD::new(-5.0, 1.5 - 1e-6, 0.0);
        assert!(!sphere_path_misses(&grazing, &along_x, 0.5, &unit, slack));
        // Stopping 1e-6 short of the reach, and reaching it at the end of the motion.
        let short = VectorD::new(-11.5 - 1e-6, 0.0, 0.0);
        assert!(sphere_path_misses(&short, &along_x, 0.5, &unit, slack));
        let ends_touching = VectorD::new(-11.5, 0.0, 0.0);
        assert!(!sphere_path_misses(
            &ends_touching,
            &along_x,
            0.5,
            &unit,
            slack
        ));
        // No motion: inside or outside the reach.
        let still = VectorD::zeros();
        assert!(!sphere_path_misses(
            &VectorD::new(1.4, 0.0, 0.0),
            &still,
            0.5,
            &unit,
            slack
        ));
        assert!(sphere_path_misses(
            &VectorD::new(1.6, 0.0, 0.0),
            &still,
            0.5,
            &unit,
            slack
        ));
    }

    #[test]
    fn slabs_bound_a_face_contact_exactly_and_certify_misses() {
        let b: Vec<PointD> = corners([-1.0; 3], [1.0; 3])
            .into_iter()
            .map(PointD::from)
            .collect();
        let ids: Vec<u32> = (0..8).collect();
        let identity = MatrixD::identity();
        let margin = 4.0 * f64::EPSILON * 10.0;
        // A unit cube 1 above the box falling by 2: its bottom face meets the top face at 0.5.
        let a = corners([-0.5, -0.5, 2.0], [0.5, 0.5, 3.0]);
        let d = VectorD::new(0.0, 0.0, -2.0);
        match slab_bound(&a, &ids, &b, &ids, &d, &identity, margin, 10.0).0 {
            Slabs::Bound { lo, normal } => {
                assert!(lo <= 0.5 && 0.5 - lo < 1e-13, "lo {lo}");
                assert_eq!(normal, VectorD::z());
            }
            other => panic!("{other:?}"),
        }
        // The same fall 3 beside the box: the x slabs never overlap.
        let beside = corners([2.5, -0.5, 2.0], [3.5, 0.5, 3.0]);
        assert_eq!(
            slab_bound(&beside, &ids, &b, &ids, &d, &identity, margin, 10.0).0,
            Slabs::Miss
        );
        // Falling by 0.9 only: it stops 0.1 above the box.
        let short = VectorD::new(0.0, 0.0, -0.9);
        assert_eq!(
            slab_bound(&a, &ids, &b, &ids, &short, &identity, margin, 10.0).0,
            Slabs::Miss
        );
        // Already overlapping in every slab: no bound.
        let inside = corners([-0.5, -0.5, 0.5], [0.5, 0.5, 1.5]);
        assert_eq!(
            slab_bound(&inside, &ids, &b, &ids, &d, &identity, margin, 10.0).0,
            Slabs::Undecided
        );
        // `a` rotated 90 degrees about z (its axes are then b's up to sign): the same bound.
        let quarter = MatrixD::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
        match slab_bound(&a, &ids, &b, &ids, &d, &quarter, margin, 10.0).0 {
            Slabs::Bound { lo, .. } => assert!(lo <= 0.5 && 0.5 - lo < 1e-13, "lo {lo}"),
            other => panic!("{other:?}"),
        }
    }
}
