//! Linear-time DCEL construction: one hash-map lookup per half-edge, keyed by the unordered
//! vertex pair, then counting sorts for the edge and vertex rings.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{Dcel, NO_TWIN};
use crate::mesh_data::FaceList;

/// Hashes a single `u64` edge key by a multiply, then the SplitMix64 finaliser: the map takes its
/// bucket from the hash's low bits, and after a bare multiply those depend only on the key's low
/// bits, so meshes whose vertex pairs agree there (dense index ranges, or a hostile file) would
/// crowd into a few buckets. A few cycles instead of SipHash's dozens.
#[derive(Default)]
pub(crate) struct EdgeKeyHasher(u64);

impl Hasher for EdgeKeyHasher {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^ (h >> 31)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = (key ^ (key >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A hash map keyed by packed edge keys.
pub(crate) type EdgeMap<V> = HashMap<u64, V, BuildHasherDefault<EdgeKeyHasher>>;

/// The key of the unordered vertex pair `{a, b}`.
#[inline]
pub(crate) fn edge_key(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (u64::from(lo) << 32) | u64::from(hi)
}

/// Exclusive prefix sums of `counts` into CSR starts (`counts.len() + 1` entries).
fn prefix_starts(counts: &[u32]) -> Vec<u32> {
    let mut starts = Vec::with_capacity(counts.len() + 1);
    let mut total = 0u32;
    starts.push(0);
    for &c in counts {
        total += c;
        starts.push(total);
    }
    starts
}

impl Dcel {
    /// Builds the half-edge structure of `faces` over `vertex_count` vertices.
    ///
    /// Preconditions (established by [`crate::Polyhedron::build`]): every index is below
    /// `vertex_count`, every face has at least 3 corners and no two consecutive corners (including
    /// last-to-first) are the same vertex.
    pub(crate) fn build(vertex_count: usize, faces: FaceList) -> Self {
        let half_edge_count = faces.index_count();
        let mut half_edge_face = Vec::with_capacity(half_edge_count);
        for (f, face) in faces.iter().enumerate() {
            half_edge_face.extend(std::iter::repeat_n(f as u32, face.len()));
        }

        let mut edge_ids: EdgeMap<u32> =
            EdgeMap::with_capacity_and_hasher(half_edge_count / 2 + 1, Default::default());
        let mut edge_vertices: Vec<[u32; 2]> = Vec::with_capacity(half_edge_count / 2 + 1);
        let mut edge_use_counts: Vec<u32> = Vec::with_capacity(half_edge_count / 2 + 1);
        let mut half_edge_edge = Vec::with_capacity(half_edge_count);
        let mut vertex_use_counts = vec![0u32; vertex_count];
        for face in faces.iter() {
            for (i, &a) in face.iter().enumerate() {
                let b = face[(i + 1) % face.len()];
                debug_assert_ne!(a, b, "consecutive corners must differ");
                let next_id = edge_vertices.len() as u32;
                let e = *edge_ids.entry(edge_key(a, b)).or_insert(next_id);
                if e == next_id {
                    edge_vertices.push([a.min(b), a.max(b)]);
                    edge_use_counts.push(0);
                }
                edge_use_counts[e as usize] += 1;
                half_edge_edge.push(e);
                vertex_use_counts[a as usize] += 1;
            }
        }

        let edge_starts = prefix_starts(&edge_use_counts);
        let mut edge_fill = edge_starts.clone();
        let mut edge_half_edges = vec![0u32; half_edge_count];
        for (h, &e) in half_edge_edge.iter().enumerate() {
            let slot = &mut edge_fill[e as usize];
            edge_half_edges[*slot as usize] = h as u32;
            *slot += 1;
        }

        let vertex_starts = prefix_starts(&vertex_use_counts);
        let mut vertex_fill = vertex_starts.clone();
        let mut vertex_half_edges = vec![0u32; half_edge_count];
        for (h, &v) in faces.iter().flatten().enumerate() {
            let slot = &mut vertex_fill[v as usize];
            vertex_half_edges[*slot as usize] = h as u32;
            *slot += 1;
        }

        let mut dcel = Self {
            vertex_count,
            faces,
            half_edge_face,
            half_edge_twin: vec![NO_TWIN; half_edge_count],
            half_edge_edge,
            edge_vertices,
            edge_starts,
            edge_half_edges,
            vertex_starts,
            vertex_half_edges,
        };
        dcel.pair_twins();
        dcel
    }

    /// Sets `twin` on every edge with exactly two half-edges running in opposite directions.
    fn pair_twins(&mut self) {
        for e in 0..self.edge_vertices.len() {
            let range = self.edge_starts[e] as usize..self.edge_starts[e + 1] as usize;
            if let [h1, h2] = self.edge_half_edges[range] {
                let (h1id, h2id) = (super::HalfEdgeId(h1), super::HalfEdgeId(h2));
                if self.origin(h1id) == self.destination(h2id) {
                    self.half_edge_twin[h1 as usize] = h2;
                    self.half_edge_twin[h2 as usize] = h1;
                }
            }
        }
    }
}
