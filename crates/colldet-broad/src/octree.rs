//! The thesis's octree (sections 5.4 and 7.3.4): a complete octree of fixed depth over a universe
//! box, allocated up front, with an object array in every octant.
//!
//! - Integer coordinates: a box is first mapped to the inclusive range of finest cells (leaves) it
//!   touches, exactly as in the uniform grid with `2^depth` cells per axis (half-open cells, max
//!   face in the last cell, clamping to the border cells outside the universe; see
//!   `cell_mapping.rs` for why clamping keeps the pair search exact).
//! - Storage rule (the thesis's insertion): descend from the root into the octants the cell range
//!   overlaps; attach the proxy to an octant as soon as the range covers it completely (a leaf
//!   the range overlaps is always covered). A proxy is therefore stored in a set of octants that
//!   partition its cell range. Its "octant array" lists them, so removal does not search.
//! - Pruning (decision tree of depth 3, with the thesis's typo fixed): the children of an octant
//!   with lowest cell `lo` and half size `h` split each axis at `mid = lo + h`; the lower children
//!   are visited iff `range.lo < mid` and the upper ones iff `range.hi >= mid`. (The thesis
//!   prints `b_max > o_max` for the second test; the split is at the centre.)
//! - Neighbours: two proxies are candidates iff their cell ranges share a leaf iff one is
//!   attached to an ancestor-or-self of an octant the other is attached to. The search for proxy
//!   `O` descends like the insertion, scanning the object array of every octant its range
//!   overlaps, and scans whole subtrees below octants its range covers (thesis section 5.4.2).
//!   Per-octant counts of attachments in the subtree skip empty subtrees. Pairs are de-duplicated
//!   with time-stamps and tested with the real closed-box overlap.
//! - Moves with the box difference (section 5.4.3): unchanged cell range = early exit. Otherwise
//!   each octant of the octant array that is no longer inside the new range is left; if it still
//!   overlaps the new range, the overlap is re-inserted below that octant; then the (at most six)
//!   entering slabs `new \ old` are inserted from the root. The octants stay an exact partition
//!   of the range, though it can end up finer than the one a fresh insertion builds (a proxy that
//!   drifts one cell at a time is attached to smaller octants). This costs memory and removal
//!   time, never correctness; `remove` + `insert` restores the coarsest partition.

use colldet_geom::WorldAabb;

use crate::broad_phase::BroadPhaseError::Invariant;
use crate::broad_phase::{BroadPhaseError, ProxyId};
use crate::cell_mapping::CellMapping;
use crate::cell_range::CellRange;
use crate::index_update::IndexUpdate;
use crate::space_index::{CellStore, SpaceIndex, space_index_api};

/// Largest accepted octree depth: `2^7 = 128` leaves per axis, about 2.4 million octants
/// allocated up front (each an empty vector plus a counter, about 28 bytes).
pub const MAX_OCTREE_DEPTH: u32 = 7;

/// How to lay out an [`Octree`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OctreeConfig {
    /// The world box covered by the root octant (world units). Must be finite with
    /// `mins < maxs` on every axis. Boxes outside it are still handled correctly.
    pub universe: WorldAabb,
    /// Levels below the root: the leaves form a `2^depth` cells-per-axis grid. `0` is the root
    /// alone; at most [`MAX_OCTREE_DEPTH`]. (The thesis's `resolution` n corresponds to depth
    /// `floor(log2 n)`.)
    pub depth: u32,
}

impl OctreeConfig {
    /// Checks the configuration as [`Octree::new`] does, without allocating the octants.
    ///
    /// # Errors
    /// [`BroadPhaseError::InvalidOctreeDepth`] above [`MAX_OCTREE_DEPTH`],
    /// [`BroadPhaseError::InvalidUniverse`] for a non-finite, empty or flat universe or one too
    /// small for the depth (adjacent leaf boundaries equal in `f64`).
    pub fn check(&self) -> Result<(), BroadPhaseError> {
        self.mapping().map(|_| ())
    }

    fn mapping(&self) -> Result<CellMapping, BroadPhaseError> {
        if self.depth > MAX_OCTREE_DEPTH {
            return Err(BroadPhaseError::InvalidOctreeDepth(self.depth));
        }
        CellMapping::new(&self.universe, [1 << self.depth; 3])
    }
}

/// An octant: level (0 = root) and integer coordinates among the `2^level` octants per axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Octant {
    level: u32,
    coords: [u32; 3],
}

const ROOT: Octant = Octant {
    level: 0,
    coords: [0; 3],
};

/// Child bits `0..=1` on every axis: all eight children.
const ALL_CHILDREN: CellRange = CellRange {
    lo: [0; 3],
    hi: [1; 3],
};

impl Octant {
    /// The octant one level up. `self` must not be the root.
    #[inline]
    fn parent(&self) -> Octant {
        Octant {
            level: self.level - 1,
            coords: self.coords.map(|c| c >> 1),
        }
    }

    /// Calls `f` with every child whose child bit on each axis `a` lies in
    /// `bits.lo[a] ..= bits.hi[a]` (bits 0 and 1 are the lower and upper halves), x fastest.
    #[inline]
    fn for_each_child(&self, bits: &CellRange, mut f: impl FnMut(&Octant)) {
        bits.for_each_cell(|b| {
            f(&Octant {
                level: self.level + 1,
                coords: [0, 1, 2].map(|a| 2 * self.coords[a] + b[a]),
            });
        });
    }
}

/// The preallocated octants with their object arrays and subtree counts.
#[derive(Clone, Debug)]
struct Backbone {
    depth: u32,
    /// First node index of each level; `offsets[depth + 1]` is the node count.
    offsets: [usize; MAX_OCTREE_DEPTH as usize + 2],
    /// Slot indices attached to each octant.
    objects: Vec<Vec<u32>>,
    /// Attachments in each octant's subtree, itself included.
    subtree: Vec<u32>,
}

impl Backbone {
    fn new(depth: u32) -> Self {
        let mut offsets = [0; MAX_OCTREE_DEPTH as usize + 2];
        for level in 0..=depth as usize {
            offsets[level + 1] = offsets[level] + (1usize << (3 * level));
        }
        let count = offsets[depth as usize + 1];
        Self {
            depth,
            offsets,
            objects: vec![Vec::new(); count],
            subtree: vec![0; count],
        }
    }

    #[inline]
    fn index(&self, o: &Octant) -> usize {
        let side = 1usize << o.level;
        let [x, y, z] = o.coords.map(|c| c as usize);
        self.offsets[o.level as usize] + (z * side + y) * side + x
    }

    fn octant(&self, index: usize) -> Octant {
        let level = (0..=self.depth as usize)
            .find(|&l| index < self.offsets[l + 1])
            .expect("node index inside the backbone");
        let local = index - self.offsets[level];
        let side = 1usize << level;
        Octant {
            level: level as u32,
            coords: [local % side, (local / side) % side, local / (side * side)].map(|c| c as u32),
        }
    }

    /// The leaf cells the octant covers.
    #[inline]
    fn range(&self, o: &Octant) -> CellRange {
        let shift = self.depth - o.level;
        CellRange {
            lo: o.coords.map(|c| c << shift),
            hi: o.coords.map(|c| ((c + 1) << shift) - 1),
        }
    }

    /// Adds `delta` to the subtree counts of `o` and all its ancestors.
    fn add_to_path(&mut self, o: &Octant, delta: i32) {
        let mut cur = *o;
        loop {
            let i = self.index(&cur);
            self.subtree[i] = self.subtree[i].wrapping_add_signed(delta);
            if cur.level == 0 {
                break;
            }
            cur = cur.parent();
        }
    }

    fn attach_octant(&mut self, o: &Octant, slot: u32, octants: &mut Vec<u32>) {
        let i = self.index(o);
        self.objects[i].push(slot);
        octants.push(i as u32);
        self.add_to_path(o, 1);
    }

    fn detach_octant(&mut self, index: usize, slot: u32) {
        let array = &mut self.objects[index];
        if let Some(pos) = array.iter().position(|&s| s == slot) {
            array.swap_remove(pos);
            let o = self.octant(index);
            self.add_to_path(&o, -1);
        }
    }

    /// The child bits to visit on each axis (see [`Octant::for_each_child`]) for the octant at
    /// `level` covering `node`: lower children iff `range.lo < mid`, upper ones iff
    /// `range.hi >= mid`. `range` must overlap `node`.
    #[inline]
    fn child_bits(&self, node: &CellRange, level: u32, range: &CellRange) -> CellRange {
        let mid = node.lo.map(|lo| lo + (1 << (self.depth - level - 1)));
        CellRange {
            lo: [0, 1, 2].map(|a| u32::from(range.lo[a] >= mid[a])),
            hi: [0, 1, 2].map(|a| u32::from(range.hi[a] >= mid[a])),
        }
    }

    /// Attaches `slot` to the octants that partition `range ∩ o` (the thesis's insertion,
    /// started at `o`); returns how many. `range` must overlap `o`.
    fn insert_range(
        &mut self,
        o: &Octant,
        range: &CellRange,
        slot: u32,
        octants: &mut Vec<u32>,
    ) -> u64 {
        let node = self.range(o);
        if range.contains(&node) {
            self.attach_octant(o, slot, octants);
            return 1;
        }
        let bits = self.child_bits(&node, o.level, range);
        let mut attached = 0;
        o.for_each_child(&bits, |child| {
            attached += self.insert_range(child, range, slot, octants);
        });
        attached
    }

    /// Calls `visit` with the slots of `o` and of the part of its subtree that overlaps `range`;
    /// `inside` means `range` covers `o`, so the whole subtree is visited.
    fn gather<F: FnMut(u32)>(&self, o: &Octant, range: &CellRange, inside: bool, visit: &mut F) {
        let i = self.index(o);
        if self.subtree[i] == 0 {
            return;
        }
        for &x in &self.objects[i] {
            visit(x);
        }
        if o.level == self.depth {
            return;
        }
        let node = self.range(o);
        let inside = inside || range.contains(&node);
        let bits = if inside {
            ALL_CHILDREN
        } else {
            self.child_bits(&node, o.level, range)
        };
        o.for_each_child(&bits, |child| self.gather(child, range, inside, visit));
    }
}

impl CellStore for Backbone {
    /// The octant array: the node indices the proxy is attached to.
    type Extra = Vec<u32>;

    fn attach(&mut self, slot: u32, range: &CellRange, octants: &mut Vec<u32>) {
        self.insert_range(&ROOT, range, slot, octants);
    }

    fn detach(&mut self, slot: u32, _: &CellRange, octants: &mut Vec<u32>) {
        for &index in octants.iter() {
            self.detach_octant(index as usize, slot);
        }
        octants.clear();
    }

    /// Leaves each octant no longer inside `new`, re-inserting the part of it still in `new`,
    /// then inserts the entering slabs `new \ old` from the root (see the file header).
    fn move_slot(
        &mut self,
        slot: u32,
        old: &CellRange,
        new: &CellRange,
        octants: &mut Vec<u32>,
    ) -> IndexUpdate {
        let mut change = IndexUpdate::default();
        let mut i = 0;
        while i < octants.len() {
            let index = octants[i] as usize;
            let o = self.octant(index);
            let node = self.range(&o);
            if new.contains(&node) {
                i += 1;
                continue;
            }
            self.detach_octant(index, slot);
            octants.swap_remove(i);
            change.detached += 1;
            if let Some(kept) = node.intersection(new) {
                change.attached += self.insert_range(&o, &kept, slot, octants);
            }
        }
        for slab in new.difference(old).as_slice() {
            change.attached += self.insert_range(&ROOT, slab, slot, octants);
        }
        change
    }

    #[inline]
    fn for_each_candidate(&self, range: &CellRange, mut visit: impl FnMut(u32)) {
        self.gather(&ROOT, range, false, &mut visit);
    }
}

/// The thesis's octree with object arrays in every octant (see the file header for the storage
/// rule, the pruning and the moves).
#[derive(Clone, Debug)]
pub struct Octree {
    index: SpaceIndex<Backbone>,
}

impl Octree {
    /// An empty octree with its whole backbone allocated.
    ///
    /// # Errors
    /// As [`OctreeConfig::check`].
    pub fn new(config: &OctreeConfig) -> Result<Self, BroadPhaseError> {
        let mapping = config.mapping()?;
        Ok(Self {
            index: SpaceIndex::new(mapping, Backbone::new(config.depth)),
        })
    }

    /// Levels below the root.
    pub fn depth(&self) -> u32 {
        self.index.store.depth
    }

    /// How many octants proxy `id` is attached to (the length of its octant array).
    ///
    /// # Errors
    /// [`BroadPhaseError::NotPresent`].
    pub fn proxy_octant_count(&self, id: ProxyId) -> Result<usize, BroadPhaseError> {
        let slot = self.index.slots.lookup(id)?;
        Ok(self.index.slots.slots[slot as usize].extra.len())
    }

    /// Checks the structure: every proxy's octants partition its leaf-cell range (recomputed from
    /// its box) and hold it exactly once, octants hold nothing else, and the subtree counts are
    /// exact.
    ///
    /// # Errors
    /// [`BroadPhaseError::Invariant`] describing the first inconsistency found.
    pub fn validate(&self) -> Result<(), BroadPhaseError> {
        use std::collections::HashSet;
        let SpaceIndex {
            store: b, slots, ..
        } = &self.index;
        slots.validate()?;
        let mut entries = vec![0usize; slots.slots.len()];
        for (index, array) in b.objects.iter().enumerate() {
            for &slot in array {
                let s = &slots.slots[slot as usize];
                if !s.live || !s.extra.contains(&(index as u32)) {
                    return Err(Invariant(format!(
                        "octant {index} holds slot {slot} not listing it"
                    )));
                }
                entries[slot as usize] += 1;
            }
        }
        for (slot, s) in slots.slots.iter().enumerate() {
            if !s.live {
                if !s.extra.is_empty() || entries[slot] != 0 {
                    return Err(Invariant(format!("free slot {slot} still attached")));
                }
                continue;
            }
            self.index.check_cell_range(s)?;
            if entries[slot] != s.extra.len() {
                return Err(Invariant(format!(
                    "proxy {}: octant array and octants disagree",
                    s.id
                )));
            }
            let set: HashSet<u32> = s.extra.iter().copied().collect();
            if set.len() != s.extra.len() {
                return Err(Invariant(format!("proxy {} lists an octant twice", s.id)));
            }
            let mut volume = 0;
            for &index in &s.extra {
                let o = b.octant(index as usize);
                let node = b.range(&o);
                if !s.cells.contains(&node) {
                    return Err(Invariant(format!(
                        "proxy {} attached outside its range",
                        s.id
                    )));
                }
                volume += node.cell_count();
                let mut up = o;
                while up.level > 0 {
                    up = up.parent();
                    if set.contains(&(b.index(&up) as u32)) {
                        return Err(Invariant(format!(
                            "proxy {} attached to nested octants",
                            s.id
                        )));
                    }
                }
            }
            if volume != s.cells.cell_count() {
                return Err(Invariant(format!(
                    "proxy {}: octants do not cover its range",
                    s.id
                )));
            }
        }
        let mut expected: Vec<u32> = b.objects.iter().map(|a| a.len() as u32).collect();
        for index in (1..expected.len()).rev() {
            let p = b.index(&b.octant(index).parent());
            expected[p] += expected[index];
        }
        if expected != b.subtree {
            return Err(Invariant("subtree counts are stale".into()));
        }
        Ok(())
    }
}

space_index_api!(Octree);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::boxed;
    use crate::{BroadPhase, ProxyPair};

    fn octree(depth: u32) -> Octree {
        Octree::new(&OctreeConfig {
            universe: boxed([0.0; 3], [8.0; 3]),
            depth,
        })
        .unwrap()
    }

    /// The storage rule on an 8^3-leaf octree with unit leaves: the whole universe goes to the
    /// root, an aligned 4^3 block to one level-1 octant, an aligned 2x4x4 block to four level-2
    /// octants, a 3x1x1 row starting at an odd cell to 3 leaves, an unaligned 2^3 block
    /// straddling the centre to 8 leaves and a point to 1 leaf; pairs match brute force.
    #[test]
    fn storage_follows_the_thesis_insertion() {
        let mut t = octree(3);
        let cases = [
            (boxed([0.0; 3], [8.0; 3]), 1),
            (boxed([4.0, 0.0, 4.0], [7.5, 3.5, 7.5]), 1),
            (boxed([0.0, 0.0, 0.0], [1.5, 3.5, 3.5]), 4),
            (boxed([1.0, 2.0, 2.0], [3.5, 2.5, 2.5]), 3),
            (boxed([3.5, 3.5, 3.5], [4.5, 4.5, 4.5]), 8),
            (boxed([2.0, 2.0, 2.0], [2.0, 2.0, 2.0]), 1),
        ];
        for (id, (b, count)) in cases.iter().enumerate() {
            t.insert(id as u32, b).unwrap();
            assert_eq!(t.proxy_octant_count(id as u32).unwrap(), *count, "{b:?}");
        }
        t.validate().unwrap();
        let mut pairs = Vec::new();
        t.overlapping_pairs(&mut pairs);
        let mut all = crate::AllPairs::new();
        for (id, (b, _)) in cases.iter().enumerate() {
            all.insert(id as u32, b).unwrap();
        }
        let mut expected = Vec::new();
        all.overlapping_pairs(&mut expected);
        assert_eq!(pairs, expected);
    }

    /// Moves: unchanged leaf range is an early exit; a one-leaf shift of a 2^3 block at the
    /// origin (one level-2 octant) leaves that octant, re-inserts the kept half as 4 leaves and
    /// enters 4 leaves; the partition stays exact.
    #[test]
    fn moves_use_the_box_difference() {
        let mut t = octree(3);
        t.insert(7, &boxed([0.0; 3], [1.5; 3])).unwrap();
        assert_eq!(t.proxy_octant_count(7).unwrap(), 1);
        let same = t.move_proxy(7, &boxed([0.2; 3], [1.9; 3])).unwrap();
        assert_eq!(same, IndexUpdate::default());
        let step = t
            .move_proxy(7, &boxed([1.2, 0.2, 0.2], [2.9, 1.9, 1.9]))
            .unwrap();
        assert_eq!(
            step,
            IndexUpdate {
                detached: 1,
                attached: 8
            }
        );
        assert_eq!(t.proxy_octant_count(7).unwrap(), 8);
        t.validate().unwrap();
        t.remove(7).unwrap();
        t.insert(7, &boxed([1.2, 0.2, 0.2], [2.9, 1.9, 1.9]))
            .unwrap();
        assert_eq!(t.proxy_octant_count(7).unwrap(), 8);
        t.validate().unwrap();
    }

    /// Depth 0 (root only) works; depths above the limit and bad universes are refused.
    #[test]
    fn configs() {
        let mut t = octree(0);
        t.insert(1, &boxed([0.0; 3], [1.0; 3])).unwrap();
        t.insert(2, &boxed([1.0; 3], [2.0; 3])).unwrap();
        t.insert(3, &boxed([3.0; 3], [4.0; 3])).unwrap();
        let mut pairs = Vec::new();
        t.overlapping_pairs(&mut pairs);
        assert_eq!(pairs, vec![ProxyPair(1, 2)]);
        let u = boxed([0.0; 3], [1.0; 3]);
        assert_eq!(
            Octree::new(&OctreeConfig {
                universe: u,
                depth: 8
            })
            .err(),
            Some(BroadPhaseError::InvalidOctreeDepth(8))
        );
        let flat = boxed([0.0; 3], [1.0, 1.0, 0.0]);
        assert_eq!(
            OctreeConfig {
                universe: flat,
                depth: 2
            }
            .check(),
            Err(BroadPhaseError::InvalidUniverse)
        );
    }
}
