//! Contacts of two intersecting triangles, for the manifolds of non-convex objects: the smallest
//! translation of the second triangle that separates them (separating-axis test over the two
//! normals and the nine edge-edge directions), and the contact points along it.

use colldet_geom::math::{PointD, VectorD};

use super::manifold_reduce::Candidate;
use super::polygon_clip::clip_to_prism;

/// How the separating axis of a triangle pair was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairAxis {
    /// The first triangle's normal.
    FaceA,
    /// The second triangle's normal.
    FaceB,
    /// An edge of each.
    Edges,
}

/// The penetration of a triangle pair: moving the second triangle by `depth * normal` separates
/// them (`normal` unit).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairPenetration {
    pub depth: f64,
    pub normal: VectorD,
    pub axis: PairAxis,
}

/// Face axes win ties within this fraction of the depth (stable manifolds on parallel faces).
const FACE_PREFERENCE: f64 = 1e-9;

fn extent(t: &[PointD; 3], n: &VectorD) -> (f64, f64) {
    let d = [
        n.dot(&t[0].coords),
        n.dot(&t[1].coords),
        n.dot(&t[2].coords),
    ];
    (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]))
}

/// The smallest separating translation of `t2` from `t1` over the eleven candidate axes, or
/// `None` for degenerate triangles.
pub(crate) fn pair_penetration(t1: &[PointD; 3], t2: &[PointD; 3]) -> Option<PairPenetration> {
    let edges = |t: &[PointD; 3]| [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let (e1, e2) = (edges(t1), edges(t2));
    let scale = e1
        .iter()
        .chain(e2.iter())
        .map(|e| e.norm())
        .fold(0.0, f64::max);
    if !(scale > 0.0 && scale.is_finite()) {
        return None;
    }
    let mut best: Option<PairPenetration> = None;
    let mut offer = |u: VectorD, axis: PairAxis| {
        let len = u.norm();
        if len.partial_cmp(&(1e-12 * scale * scale)) != Some(std::cmp::Ordering::Greater) {
            return;
        }
        let n = u / len;
        let (lo1, hi1) = extent(t1, &n);
        let (lo2, hi2) = extent(t2, &n);
        let (up, down) = (hi1 - lo2, hi2 - lo1);
        let (depth, normal) = if up <= down { (up, n) } else { (down, -n) };
        let better = match &best {
            None => true,
            Some(b) if axis == PairAxis::Edges => depth < b.depth - FACE_PREFERENCE * b.depth.abs(),
            Some(b) => depth < b.depth,
        };
        if better {
            best = Some(PairPenetration {
                depth,
                normal,
                axis,
            });
        }
    };
    offer(e1[0].cross(&e1[1]), PairAxis::FaceA);
    offer(e2[0].cross(&e2[1]), PairAxis::FaceB);
    for a in &e1 {
        for b in &e2 {
            offer(a.cross(b), PairAxis::Edges);
        }
    }
    best
}

/// Adds the contact points of the pair along `pen` to `out`, as `(point on t2, depth)`
/// candidates, with `point on t1 = point on t2 + depth * normal`: a face axis clips the other
/// triangle to the face's prism along the normal and keeps its points within `tolerance` of
/// penetrating; an edge axis gives the point `common` (a point of both triangles). `scratch` is
/// reused.
pub(crate) fn pair_contacts(
    t1: &[PointD; 3],
    t2: &[PointD; 3],
    pen: &PairPenetration,
    common: &PointD,
    tolerance: f64,
    scratch: &mut [Vec<PointD>; 2],
    out: &mut Vec<Candidate>,
) {
    let n = pen.normal;
    let (reference, incident, n_ref) = match pen.axis {
        PairAxis::Edges => {
            out.push((*common, pen.depth));
            return;
        }
        // t2 moves along +n to separate: t1's face, facing +n, is the reference.
        PairAxis::FaceA => (t1, t2, n),
        PairAxis::FaceB => (t2, t1, -n),
    };
    // The reference corners counter-clockwise around n_ref.
    let mut corners = *reference;
    if (corners[1] - corners[0])
        .cross(&(corners[2] - corners[0]))
        .dot(&n_ref)
        < 0.0
    {
        corners.swap(1, 2);
    }
    let [clipped, tmp] = scratch;
    clipped.clear();
    clipped.extend_from_slice(incident);
    clip_to_prism(clipped, &corners, &n_ref, tmp);
    for p in clipped.iter() {
        let depth = -n_ref.dot(&(p - corners[0]));
        if depth >= -tolerance {
            // Candidates are points of t2: on t2 itself (face A), or where the normal through
            // t1's point meets t2's plane (face B).
            let on_t2 = match pen.axis {
                PairAxis::FaceA => *p,
                _ => p - n * depth,
            };
            out.push((on_t2, depth));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, z: f64) -> PointD {
        PointD::new(x, y, z)
    }

    #[test]
    fn a_wall_triangle_through_a_floor_triangle_is_pushed_up_by_its_depth() {
        let floor = [p(-5.0, -5.0, 0.0), p(5.0, -5.0, 0.0), p(0.0, 5.0, 0.0)];
        let wall = [p(0.0, -1.0, -0.1), p(0.0, 1.0, -0.1), p(0.0, 0.0, 0.9)];
        let pen = pair_penetration(&floor, &wall).unwrap();
        assert_eq!(pen.axis, PairAxis::FaceA);
        assert!((pen.depth - 0.1).abs() < 1e-12 && (pen.normal - VectorD::z()).norm() < 1e-12);
        let mut out = Vec::new();
        pair_contacts(
            &floor,
            &wall,
            &pen,
            &p(0.0, 0.0, 0.0),
            0.0,
            &mut Default::default(),
            &mut out,
        );
        assert_eq!(out.len(), 2, "{out:?}");
        for (q, depth) in &out {
            assert!((depth - 0.1).abs() < 1e-12 && (q.z + 0.1).abs() < 1e-12);
        }
    }

    #[test]
    fn crossing_edges_use_the_common_point() {
        // Two thin triangles crossing like an X in two planes: the separating axis is an edge
        // pair's.
        let a = [p(-1.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 0.0, -1.0)];
        let b = [p(0.0, -1.0, -0.05), p(0.0, 1.0, -0.05), p(0.0, 0.0, 1.0)];
        let pen = pair_penetration(&a, &b).unwrap();
        assert!(pen.depth > 0.0 && pen.depth <= 0.05 + 1e-12, "{pen:?}");
        let mut out = Vec::new();
        let common = p(0.0, 0.0, -0.025);
        pair_contacts(
            &a,
            &b,
            &pen,
            &common,
            0.0,
            &mut Default::default(),
            &mut out,
        );
        assert!(!out.is_empty());
    }
}
