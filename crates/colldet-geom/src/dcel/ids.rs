//! Typed indices into a [`crate::dcel::Dcel`]: a vertex, a half-edge, an undirected edge, a face.

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            /// The index as `usize`, for slicing.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

typed_id!(
    /// A vertex: an index into the mesh's vertex array (as given, unused vertices included).
    VertexId
);
typed_id!(
    /// A half-edge: one corner of one face, directed from that corner to the next one.
    HalfEdgeId
);
typed_id!(
    /// An undirected edge: one unordered vertex pair used by one or more faces.
    EdgeId
);
typed_id!(
    /// A face of the built polyhedron (degenerate input faces are dropped; see `face_source`).
    FaceId
);
