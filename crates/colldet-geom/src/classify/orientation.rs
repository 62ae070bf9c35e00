//! Consistent orientation: faces are flipped so that neighbours traverse each shared two-face
//! edge in opposite directions, then closed components are turned outward.
//!
//! Faces are grouped into components through two-face edges and oriented by a breadth-first walk
//! that propagates "same" or "flipped" across each such edge. Of the two consistent orientations
//! of an open component the one that flips fewer input faces is kept; a closed component keeps
//! the one with positive enclosed volume. A component where the walk contradicts itself (a Moebius
//! band) is not orientable and is left as given.

use std::collections::VecDeque;

use crate::dcel::{Dcel, EdgeId, FaceId, HalfEdgeId};
use crate::math::{Point, to_f64};

/// What orientation found and what it wants flipped.
pub(crate) struct OrientationReport {
    /// Pairs of (cleaned) faces that traverse a shared edge in the same direction.
    pub conflicts: Vec<(FaceId, FaceId)>,
    /// Whether each face must be reversed.
    pub flips: Vec<bool>,
    /// False when some component is not orientable.
    pub orientable: bool,
    /// True when some closed component had to be turned inside-out to face outward.
    pub inverted_fixed: bool,
}

/// The other half-edge of a two-face edge, if `h`'s edge has exactly two faces.
fn partner(dcel: &Dcel, h: HalfEdgeId) -> Option<HalfEdgeId> {
    let mut hs = dcel.edge_half_edges(dcel.edge(h));
    match (hs.next(), hs.next(), hs.next()) {
        (Some(a), Some(b), None) => Some(if a == h { b } else { a }),
        _ => None,
    }
}

/// Six times the signed volume contributed by face `f` (fan triangulation, f64).
fn face_volume6(dcel: &Dcel, vertices: &[Point], f: FaceId) -> f64 {
    let face = dcel.face_vertices(f);
    let a = to_f64(&vertices[face[0] as usize]).coords;
    face.windows(2).skip(1).fold(0.0, |acc, w| {
        let b = to_f64(&vertices[w[0] as usize]).coords;
        let c = to_f64(&vertices[w[1] as usize]).coords;
        acc + a.dot(&b.cross(&c))
    })
}

fn edge_is_even(dcel: &Dcel, e: EdgeId) -> bool {
    let uses = dcel.edge_half_edges(e).len();
    uses >= 2 && uses.is_multiple_of(2)
}

/// Decides which faces to flip; see the module docs.
pub(crate) fn orient(dcel: &Dcel, vertices: &[Point]) -> OrientationReport {
    let face_count = dcel.face_count();
    let mut conflicts = Vec::new();
    for e in (0..dcel.edge_count() as u32).map(EdgeId) {
        let mut hs = dcel.edge_half_edges(e);
        if let (Some(h1), Some(h2), None) = (hs.next(), hs.next(), hs.next())
            && dcel.origin(h1) == dcel.origin(h2)
        {
            conflicts.push((dcel.face(h1), dcel.face(h2)));
        }
    }

    let mut flips = vec![false; face_count];
    let mut visited = vec![false; face_count];
    let mut orientable = true;
    let mut inverted_fixed = false;
    let mut queue = VecDeque::new();
    let mut component = Vec::new();
    for seed in 0..face_count {
        if visited[seed] {
            continue;
        }
        visited[seed] = true;
        queue.push_back(FaceId(seed as u32));
        component.clear();
        let mut component_orientable = true;
        let mut closed = true;
        while let Some(f) = queue.pop_front() {
            component.push(f);
            for h in dcel.face_loop(f) {
                closed &= edge_is_even(dcel, dcel.edge(h));
                let Some(other) = partner(dcel, h) else {
                    continue;
                };
                let same_direction = dcel.origin(other) == dcel.origin(h);
                let g = dcel.face(other);
                let wanted = flips[f.index()] ^ same_direction;
                if !visited[g.index()] {
                    visited[g.index()] = true;
                    flips[g.index()] = wanted;
                    queue.push_back(g);
                } else if flips[g.index()] != wanted {
                    component_orientable = false;
                }
            }
        }
        if !component_orientable {
            orientable = false;
            component.iter().for_each(|f| flips[f.index()] = false);
            continue;
        }
        let flipped = component.iter().filter(|f| flips[f.index()]).count();
        let mut invert = 2 * flipped > component.len();
        if closed {
            let volume6: f64 = component
                .iter()
                .map(|&f| {
                    let v = face_volume6(dcel, vertices, f);
                    if flips[f.index()] { -v } else { v }
                })
                .sum();
            let outward_after_majority = (volume6 > 0.0) != invert;
            if volume6 != 0.0 && !outward_after_majority {
                inverted_fixed = true;
            }
            invert = volume6 < 0.0;
        }
        if invert {
            component
                .iter()
                .for_each(|f| flips[f.index()] = !flips[f.index()]);
        }
    }
    OrientationReport {
        conflicts,
        flips,
        orientable,
        inverted_fixed,
    }
}
