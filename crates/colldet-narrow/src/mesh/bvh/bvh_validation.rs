//! Structural checks of a [`MeshBvh`], run by the tests after build and refit.

use super::{BvhVolume, MeshBvh};
use crate::NarrowError;

impl<V: BvhVolume> MeshBvh<V> {
    /// Checks the tree's invariants:
    /// - the root exists, children indices are in range and greater than their parent's, every
    ///   node except the root is the child of exactly one node;
    /// - leaves hold 1 to 4 triangles, the leaves' ranges tile the triangle array exactly once,
    ///   and an internal node's left subtree's triangles directly precede its right subtree's;
    /// - triangle indices are in range and every triangle has a source face id;
    /// - every node's volume contains every vertex of every triangle below it (so every triangle
    ///   lies in its leaf's volume and in all its ancestors');
    /// - for nested volumes ([`BvhVolume::NESTED`], AABBs) every child volume lies inside its
    ///   parent's.
    ///
    /// Takes `O(n log n)` time and allocates one bit per node and triangle.
    ///
    /// # Errors
    /// [`NarrowError::BrokenInvariant`] naming the check and the node (or triangle) index.
    pub fn validate(&self) -> Result<(), NarrowError> {
        let broken = |what, index| Err(NarrowError::BrokenInvariant { what, index });
        let nodes = &self.nodes;
        if nodes.is_empty() {
            return broken("tree has no root", 0);
        }
        if self.faces.len() != self.triangles.len() {
            return broken(
                "face id count differs from triangle count",
                self.faces.len(),
            );
        }
        for (t, tri) in self.triangles.iter().enumerate() {
            if tri.iter().any(|&i| i as usize >= self.vertices.len()) {
                return broken("triangle index out of range", t);
            }
        }
        let mut has_parent = vec![false; nodes.len()];
        let mut covered = vec![false; self.triangles.len()];
        for (i, n) in nodes.iter().enumerate() {
            match (n.children(), n.triangles()) {
                (Some(children), _) => {
                    for c in children {
                        let c = c as usize;
                        if c <= i || c >= nodes.len() {
                            return broken("child index not after its parent or out of range", i);
                        }
                        if std::mem::replace(&mut has_parent[c], true) {
                            return broken("node has two parents", c);
                        }
                        if V::NESTED && !n.volume.contains_volume(&nodes[c].volume) {
                            return broken("child volume not inside its parent's", c);
                        }
                    }
                }
                (None, Some(range)) => {
                    if range.len() > 4 || range.end as usize > self.triangles.len() {
                        return broken("leaf with more than 4 triangles or out of range", i);
                    }
                    for t in range {
                        if std::mem::replace(&mut covered[t as usize], true) {
                            return broken("triangle in two leaves", t as usize);
                        }
                    }
                }
                (None, None) => return broken("node neither leaf nor internal", i),
            }
        }
        if let Some(i) = has_parent.iter().skip(1).position(|&p| !p) {
            return broken("node unreachable from the root", i + 1);
        }
        if has_parent[0] {
            return broken("root has a parent", 0);
        }
        if let Some(t) = covered.iter().position(|&c| !c) {
            return broken("triangle in no leaf", t);
        }
        // Every child index is now known to exceed its parent's: descending terminates.
        for (i, n) in nodes.iter().enumerate() {
            if let Some([a, b]) = n.children()
                && self.subtree_triangles(a as usize).end
                    != self.subtree_triangles(b as usize).start
            {
                return broken("children's triangles not contiguous", i);
            }
        }
        for (i, node) in nodes.iter().enumerate() {
            let range = self.subtree_triangles(i);
            for tri in &self.triangles[range] {
                if tri
                    .iter()
                    .any(|&v| !node.volume.contains_point(&self.vertices[v as usize]))
                {
                    return broken("triangle not inside a volume above it", i);
                }
            }
        }
        Ok(())
    }

    /// The triangles under `node` as an index range (they are contiguous: the left child's, then
    /// the right child's).
    fn subtree_triangles(&self, node: usize) -> std::ops::Range<usize> {
        let mut lo = node;
        while let Some([a, _]) = self.nodes[lo].children() {
            lo = a as usize;
        }
        let mut hi = node;
        while let Some([_, b]) = self.nodes[hi].children() {
            hi = b as usize;
        }
        let (l, h) = (&self.nodes[lo], &self.nodes[hi]);
        l.first as usize..(h.first + h.count) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BvhBuildOptions, MeshBvh};
    use crate::NarrowError;
    use colldet_geom::math::Point;
    use colldet_geom::{Aabb, Obb};
    use colldet_testkit::shapes::sphere;

    fn broken_what(r: Result<(), NarrowError>) -> &'static str {
        match r {
            Err(NarrowError::BrokenInvariant { what, .. }) => what,
            other => panic!("expected a broken invariant, got {other:?}"),
        }
    }

    #[test]
    fn corruptions_are_detected() {
        let mesh = sphere(1.0, 10, 6).unwrap();
        let good = MeshBvh::<Aabb>::build(&mesh, &BvhBuildOptions::default()).unwrap();
        good.validate().unwrap();

        // A leaf volume that misses one of its triangles' corners.
        let mut b = good.clone();
        let leaf = b.nodes.iter().position(|n| n.is_leaf()).unwrap();
        let v = b.triangles[b.nodes[leaf].first as usize][0] as usize;
        let p = b.vertices[v];
        b.nodes[leaf].volume = Aabb::new(
            p + Point::new(1.0, 1.0, 1.0).coords,
            Point::new(3.0, 3.0, 3.0),
        );
        assert!(!broken_what(b.validate()).is_empty());

        // A child box sticking out of its parent's.
        let mut b = good.clone();
        let child = b.nodes[0].children().unwrap()[0] as usize;
        b.nodes[child].volume.maxs.x += 10.0;
        assert_eq!(
            broken_what(b.validate()),
            "child volume not inside its parent's"
        );

        // A leaf with too many triangles, a triangle in two leaves, a back pointer.
        let mut b = good.clone();
        b.nodes[leaf].count = 5;
        assert!(!broken_what(b.validate()).is_empty());
        let mut b = good.clone();
        let leaves: Vec<usize> = (0..b.nodes.len())
            .filter(|&i| b.nodes[i].is_leaf())
            .collect();
        b.nodes[leaves[1]].first = b.nodes[leaves[0]].first;
        assert!(!broken_what(b.validate()).is_empty());
        let mut b = good.clone();
        let inner = (1..b.nodes.len()).find(|&i| !b.nodes[i].is_leaf()).unwrap();
        b.nodes[inner].first = 0;
        assert_eq!(
            broken_what(b.validate()),
            "child index not after its parent or out of range"
        );
        let mut b = good.clone();
        b.triangles[0][1] = u32::MAX;
        assert_eq!(broken_what(b.validate()), "triangle index out of range");

        // OBB trees: a shrunken box loses its triangles.
        let mut o = MeshBvh::<Obb>::build(&mesh, &BvhBuildOptions::default()).unwrap();
        o.validate().unwrap();
        o.nodes[0].volume.half_extents *= 0.5;
        assert_eq!(
            broken_what(o.validate()),
            "triangle not inside a volume above it"
        );
    }
}
