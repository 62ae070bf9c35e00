//! Structural invariants of a [`Dcel`], checked by [`Dcel::validate`] (called from tests).

use super::{Dcel, EdgeId, FaceId, HalfEdgeId, VertexId};

/// A broken DCEL invariant, naming the element where it fails.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DcelError {
    /// `twin(twin(h)) != h`.
    #[error("half-edge {0:?}: twin of twin is not itself")]
    TwinNotInvolution(HalfEdgeId),
    /// A half-edge and its twin do not run between the same vertices in opposite directions.
    #[error("half-edge {0:?}: twin does not run the opposite way")]
    TwinNotOpposite(HalfEdgeId),
    /// Following `next` from a face's first half-edge leaves the face or does not come back.
    #[error("face {0:?}: next cycle leaves the face or does not close")]
    BrokenFaceCycle(FaceId),
    /// `prev(next(h)) != h`.
    #[error("half-edge {0:?}: prev of next is not itself")]
    PrevNextMismatch(HalfEdgeId),
    /// A half-edge's edge does not join its origin and destination.
    #[error("half-edge {0:?}: edge {1:?} does not join its end vertices")]
    WrongEdge(HalfEdgeId, EdgeId),
    /// A vertex's outgoing list holds a half-edge that does not start there.
    #[error("vertex {0:?}: outgoing half-edge {1:?} starts elsewhere")]
    WrongOutgoing(VertexId, HalfEdgeId),
    /// Ring sizes do not add up to the half-edge count.
    #[error("ring sizes do not cover every half-edge exactly once")]
    RingCountMismatch,
}

impl Dcel {
    /// Checks every structural invariant: twin is an involution between opposite half-edges,
    /// `next` cycles stay on one face and close after the face's corner count, `prev` inverts
    /// `next`, each half-edge's edge joins its ends, each vertex ring holds exactly the half-edges
    /// leaving it, and the edge and vertex rings partition the half-edges.
    ///
    /// # Errors
    /// The first broken invariant.
    pub fn validate(&self) -> Result<(), DcelError> {
        for f in (0..self.face_count() as u32).map(FaceId) {
            let start = self.face_half_edge(f);
            let mut h = start;
            for _ in 0..self.face_vertices(f).len() {
                if self.face(h) != f {
                    return Err(DcelError::BrokenFaceCycle(f));
                }
                h = self.next(h);
            }
            if h != start {
                return Err(DcelError::BrokenFaceCycle(f));
            }
        }
        for h in (0..self.half_edge_count() as u32).map(HalfEdgeId) {
            if self.prev(self.next(h)) != h {
                return Err(DcelError::PrevNextMismatch(h));
            }
            if let Some(t) = self.twin(h) {
                if self.twin(t) != Some(h) {
                    return Err(DcelError::TwinNotInvolution(h));
                }
                if self.origin(t) != self.destination(h) || self.destination(t) != self.origin(h) {
                    return Err(DcelError::TwinNotOpposite(h));
                }
            }
            let e = self.edge(h);
            let mut ends = [self.origin(h), self.destination(h)];
            ends.sort_unstable();
            if ends != self.edge_vertices(e) {
                return Err(DcelError::WrongEdge(h, e));
            }
        }
        let mut seen_in_edges = vec![false; self.half_edge_count()];
        for e in (0..self.edge_count() as u32).map(EdgeId) {
            for h in self.edge_half_edges(e) {
                if self.edge(h) != e || std::mem::replace(&mut seen_in_edges[h.index()], true) {
                    return Err(DcelError::RingCountMismatch);
                }
            }
        }
        let mut seen_in_vertices = vec![false; self.half_edge_count()];
        for v in (0..self.vertex_count() as u32).map(VertexId) {
            for h in self.vertex_half_edges(v) {
                if self.origin(h) != v {
                    return Err(DcelError::WrongOutgoing(v, h));
                }
                if std::mem::replace(&mut seen_in_vertices[h.index()], true) {
                    return Err(DcelError::RingCountMismatch);
                }
            }
        }
        if seen_in_edges.contains(&false) || seen_in_vertices.contains(&false) {
            return Err(DcelError::RingCountMismatch);
        }
        Ok(())
    }
}
