//! The EPA polytope: a closed, consistently oriented triangle mesh with face adjacency.
//!
//! Rationale: faces are never deleted from the buffer, only marked dead, and new faces are
//! appended, so indices stay valid during an expansion. Each face stores, per edge `k` (from
//! `v[k]` to `v[k + 1]`), the neighbouring face and that neighbour's index for the same edge, which
//! runs the other way. The visible region seen from a new support point is grown by depth-first
//! search from the face being expanded, visiting a face's edges in order after the one it was
//! entered by; this emits the horizon edges as one closed loop in order (checked before use).

use crate::NarrowError;
use crate::cso::CsoPoint;
use colldet_geom::math::VectorD;

/// One triangle of the polytope.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Face {
    /// Vertex indices, counter-clockwise seen from outside.
    pub v: [u32; 3],
    /// Neighbouring face across edge `k` (`v[k] -> v[k + 1]`).
    pub adj: [u32; 3],
    /// The neighbour's edge index for the shared edge.
    pub adj_edge: [u8; 3],
    /// Unit outward normal (zero for a degenerate face).
    pub normal: VectorD,
    /// Signed distance of the face plane from the origin (`+inf` for a degenerate face).
    pub dist: f64,
    pub alive: bool,
}

/// A horizon edge: `a -> b` as it ran in the removed face, and the kept face beyond it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HorizonEdge {
    pub a: u32,
    pub b: u32,
    pub out_face: u32,
    pub out_edge: u8,
}

/// Reusable buffers of EPA (vertices, faces, search stack, horizon, removed faces). Create once, pass `&mut` to
/// every query; contents between queries are scratch.
#[derive(Clone, Debug, Default)]
pub struct EpaWorkspace {
    pub(crate) verts: Vec<CsoPoint>,
    pub(crate) faces: Vec<Face>,
    pub(crate) stack: Vec<(u32, u8)>,
    pub(crate) horizon: Vec<HorizonEdge>,
    pub(crate) removed: Vec<u32>,
}

impl EpaWorkspace {
    /// An empty workspace (no allocation until first used).
    pub fn new() -> Self {
        Self::default()
    }

    /// A workspace pre-sized for polytopes of up to `faces` faces, so queries up to that size never
    /// allocate.
    pub fn with_capacity(faces: usize) -> Self {
        Self {
            verts: Vec::with_capacity(faces / 2 + 4),
            faces: Vec::with_capacity(faces),
            stack: Vec::with_capacity(faces),
            horizon: Vec::with_capacity(faces),
            removed: Vec::with_capacity(faces),
        }
    }

    pub(crate) fn clear(&mut self) {
        self.verts.clear();
        self.faces.clear();
        self.stack.clear();
        self.horizon.clear();
        self.removed.clear();
    }

    /// Appends face `a, b, c` (no adjacency yet) and returns its index.
    pub(crate) fn push_face(&mut self, a: u32, b: u32, c: u32) -> u32 {
        let (pa, pb, pc) = (
            self.verts[a as usize].w,
            self.verts[b as usize].w,
            self.verts[c as usize].w,
        );
        let n = (pb - pa).cross(&(pc - pa));
        let len = n.norm();
        let (normal, dist) = if len > 0.0 && len.is_finite() {
            let n = n / len;
            (n, (n.dot(&pa) + n.dot(&pb) + n.dot(&pc)) / 3.0)
        } else {
            (VectorD::zeros(), f64::INFINITY)
        };
        let id = self.faces.len() as u32;
        self.faces.push(Face {
            v: [a, b, c],
            adj: [u32::MAX; 3],
            adj_edge: [0; 3],
            normal,
            dist,
            alive: true,
        });
        id
    }

    /// Links edge `e` of face `f` with edge `g_e` of face `g`, both ways.
    pub(crate) fn link(&mut self, f: u32, e: u8, g: u32, g_e: u8) {
        self.faces[f as usize].adj[e as usize] = g;
        self.faces[f as usize].adj_edge[e as usize] = g_e;
        self.faces[g as usize].adj[g_e as usize] = f;
        self.faces[g as usize].adj_edge[g_e as usize] = e;
    }

    /// Index of the live face whose plane is nearest the origin.
    pub(crate) fn nearest_face(&self) -> Option<u32> {
        let mut best = None;
        let mut best_dist = f64::INFINITY;
        for (i, f) in self.faces.iter().enumerate() {
            if f.alive && f.dist < best_dist {
                best_dist = f.dist;
                best = Some(i as u32);
            }
        }
        best
    }

    /// Number of live faces.
    pub fn face_count(&self) -> usize {
        self.faces.iter().filter(|f| f.alive).count()
    }

    /// Checks the polytope of the last query: every live face has live neighbours that point back
    /// across the same edge with the opposite direction, and vertex indices are in range.
    ///
    /// # Errors
    /// [`NarrowError::BrokenInvariant`] naming the check and the face.
    pub fn validate(&self) -> Result<(), NarrowError> {
        let nv = self.verts.len() as u32;
        for (i, f) in self.faces.iter().enumerate() {
            if !f.alive {
                continue;
            }
            if f.v.iter().any(|&v| v >= nv) {
                return Err(NarrowError::BrokenInvariant {
                    what: "EPA face vertex out of range",
                    index: i,
                });
            }
            for k in 0..3 {
                let g = f.adj[k] as usize;
                let ge = f.adj_edge[k] as usize;
                let Some(gf) = self.faces.get(g) else {
                    return Err(NarrowError::BrokenInvariant {
                        what: "EPA face has no neighbour",
                        index: i,
                    });
                };
                if !gf.alive {
                    return Err(NarrowError::BrokenInvariant {
                        what: "EPA face neighbour is dead",
                        index: i,
                    });
                }
                if gf.adj[ge] as usize != i || gf.adj_edge[ge] as usize != k {
                    return Err(NarrowError::BrokenInvariant {
                        what: "EPA adjacency not symmetric",
                        index: i,
                    });
                }
                if gf.v[ge] != f.v[(k + 1) % 3] || gf.v[(ge + 1) % 3] != f.v[k] {
                    return Err(NarrowError::BrokenInvariant {
                        what: "EPA shared edge not reversed",
                        index: i,
                    });
                }
            }
        }
        Ok(())
    }
}
