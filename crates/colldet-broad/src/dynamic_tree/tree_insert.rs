//! Node allocation, leaf insertion by the surface-area heuristic, leaf removal, and AVL-style
//! rotations that keep the height logarithmic.
//!
//! Rationale (insertion cost): descending from the root, placing the new leaf as a sibling of
//! node `X` costs the area of the new parent `X + leaf` plus the growth of every ancestor
//! ("inherited" cost). At each node we compare stopping here with the cheapest lower bound of
//! descending into either child, as Box2D v2 does; areas are half surface areas.

use colldet_geom::WorldAabb;

use super::{DynamicTree, NONE, Node};
use crate::broad_phase::ProxyId;

/// Half the surface area of a box; zero for flat and zero-size boxes.
#[inline]
fn area(b: &WorldAabb) -> f64 {
    let d = b.maxs - b.mins;
    d.x * d.y + d.y * d.z + d.z * d.x
}

impl DynamicTree {
    /// A fresh leaf node (from the free list or appended).
    pub(super) fn allocate_node(&mut self, fat: WorldAabb, proxy: ProxyId) -> u32 {
        let node = Node {
            fat,
            parent: NONE,
            children: [NONE, NONE],
            height: 0,
            proxy,
        };
        if self.free_list != NONE {
            let index = self.free_list;
            self.free_list = self.nodes[index as usize].parent;
            self.nodes[index as usize] = node;
            index
        } else {
            let index = self.nodes.len() as u32;
            self.nodes.push(node);
            self.tight.push(fat);
            self.moved.push(false);
            self.stale.push(false);
            self.is_dead.push(false);
            index
        }
    }

    /// Returns `index` to the free list.
    pub(super) fn free_node(&mut self, index: u32) {
        let node = &mut self.nodes[index as usize];
        node.parent = self.free_list;
        node.children = [NONE, NONE];
        node.height = -1;
        self.free_list = index;
    }

    /// Attaches the detached `leaf` (its fat box set) to the tree.
    pub(super) fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NONE {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NONE;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].fat;
        let mut index = self.root;
        while !self.nodes[index as usize].is_leaf() {
            let node = &self.nodes[index as usize];
            let node_area = area(&node.fat);
            let combined = area(&node.fat.merged(&leaf_box));
            let stop_cost = 2.0 * combined;
            let inherited = 2.0 * (combined - node_area);
            let child_cost = |child: u32| {
                let c = &self.nodes[child as usize];
                let grown = area(&c.fat.merged(&leaf_box));
                if c.is_leaf() {
                    grown + inherited
                } else {
                    grown - area(&c.fat) + inherited
                }
            };
            let [c0, c1] = node.children;
            let (cost0, cost1) = (child_cost(c0), child_cost(c1));
            if stop_cost < cost0 && stop_cost < cost1 {
                break;
            }
            index = if cost0 <= cost1 { c0 } else { c1 };
        }

        let sibling = index;
        let old_parent = self.nodes[sibling as usize].parent;
        let fat = self.nodes[sibling as usize].fat.merged(&leaf_box);
        let parent = self.allocate_node(fat, 0);
        let height = self.nodes[sibling as usize].height + 1;
        let p = &mut self.nodes[parent as usize];
        p.parent = old_parent;
        p.children = [sibling, leaf];
        p.height = height;
        self.nodes[sibling as usize].parent = parent;
        self.nodes[leaf as usize].parent = parent;
        if old_parent == NONE {
            self.root = parent;
        } else {
            self.replace_child(old_parent, sibling, parent);
        }
        self.refit_upwards(self.nodes[leaf as usize].parent);
    }

    /// Detaches `leaf` from the tree (the node itself is kept).
    pub(super) fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NONE;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand = self.nodes[parent as usize].parent;
        let [c0, c1] = self.nodes[parent as usize].children;
        let sibling = if c0 == leaf { c1 } else { c0 };
        self.nodes[leaf as usize].parent = NONE;
        self.free_node(parent);
        self.nodes[sibling as usize].parent = grand;
        if grand == NONE {
            self.root = sibling;
        } else {
            self.replace_child(grand, parent, sibling);
            self.refit_upwards(grand);
        }
    }

    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        let children = &mut self.nodes[parent as usize].children;
        if children[0] == old {
            children[0] = new;
        } else {
            children[1] = new;
        }
    }

    /// From `index` to the root: rebalances, then recomputes heights and boxes.
    fn refit_upwards(&mut self, mut index: u32) {
        while index != NONE {
            index = self.balance(index);
            let [c0, c1] = self.nodes[index as usize].children;
            let height = 1 + self.nodes[c0 as usize]
                .height
                .max(self.nodes[c1 as usize].height);
            let fat = self.nodes[c0 as usize]
                .fat
                .merged(&self.nodes[c1 as usize].fat);
            let node = &mut self.nodes[index as usize];
            node.height = height;
            node.fat = fat;
            index = node.parent;
        }
    }

    /// If the subtrees of internal node `a` differ in height by more than one, lifts the taller
    /// child into `a`'s place, moving one of its children under `a`. Returns the node now at
    /// `a`'s place.
    fn balance(&mut self, a: u32) -> u32 {
        let node_a = self.nodes[a as usize];
        if node_a.is_leaf() || node_a.height < 2 {
            return a;
        }
        let [b, c] = node_a.children;
        let imbalance = self.nodes[c as usize].height - self.nodes[b as usize].height;
        let (up, keep_side) = if imbalance > 1 {
            (c, 0)
        } else if imbalance < -1 {
            (b, 1)
        } else {
            return a;
        };
        // `up` (child `1 - keep_side` of `a`) replaces `a`; `a` becomes `up`'s first child and
        // keeps its child `keep_side`; `up` keeps its taller child and hands the other to `a`.
        let kept = node_a.children[keep_side];
        let [f, g] = self.nodes[up as usize].children;
        let (tall, short) = if self.nodes[f as usize].height > self.nodes[g as usize].height {
            (f, g)
        } else {
            (g, f)
        };
        let grand = node_a.parent;
        self.nodes[up as usize].parent = grand;
        if grand == NONE {
            self.root = up;
        } else {
            self.replace_child(grand, a, up);
        }
        self.nodes[up as usize].children = [a, tall];
        self.nodes[a as usize].parent = up;
        self.nodes[a as usize].children[1 - keep_side] = short;
        self.nodes[short as usize].parent = a;

        let fat_a = self.nodes[kept as usize]
            .fat
            .merged(&self.nodes[short as usize].fat);
        let height_a = 1 + self.nodes[kept as usize]
            .height
            .max(self.nodes[short as usize].height);
        self.nodes[a as usize].fat = fat_a;
        self.nodes[a as usize].height = height_a;
        let fat_up = fat_a.merged(&self.nodes[tall as usize].fat);
        self.nodes[up as usize].fat = fat_up;
        self.nodes[up as usize].height = 1 + height_a.max(self.nodes[tall as usize].height);
        up
    }
}
