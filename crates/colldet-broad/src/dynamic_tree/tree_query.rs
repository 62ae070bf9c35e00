//! Region queries on the dynamic tree: a depth-first walk that skips every subtree whose fat
//! box the probe rejects (the probe is monotone, and a node's fat box contains its subtree's
//! tight boxes), then the leaves whose tight box left their fat box since the last pair pass
//! (not inside their ancestors' boxes until the pass re-inserts them).

use colldet_geom::WorldAabb;

use super::{DynamicTree, NONE};
use crate::broad_phase::ProxyId;

/// Depth of the walk's stack kept on the call stack; deeper trees spill to the heap.
const STACK: usize = 64;

/// The walk's stack: [`STACK`] entries inline, the rest on the heap (allocated only then).
struct WalkStack {
    fixed: [u32; STACK],
    len: usize,
    spill: Vec<u32>,
}

impl WalkStack {
    fn push(&mut self, n: u32) {
        if self.len < STACK {
            self.fixed[self.len] = n;
            self.len += 1;
        } else {
            self.spill.push(n);
        }
    }

    fn pop(&mut self) -> Option<u32> {
        if let Some(n) = self.spill.pop() {
            return Some(n);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.fixed[self.len])
    }
}

impl DynamicTree {
    /// [`crate::BroadPhase::query`]: `O(log n + k)` node visits for a selective probe.
    pub(super) fn query_tree(
        &self,
        probe: &mut dyn FnMut(&WorldAabb) -> bool,
        out: &mut Vec<(ProxyId, WorldAabb)>,
    ) {
        if self.root != NONE {
            let mut stack = WalkStack {
                fixed: [0; STACK],
                len: 0,
                spill: Vec::new(),
            };
            stack.push(self.root);
            while let Some(n) = stack.pop() {
                let node = &self.nodes[n as usize];
                if node.is_leaf() {
                    if !self.stale[n as usize] && probe(&self.tight[n as usize]) {
                        out.push((node.proxy, self.tight[n as usize]));
                    }
                } else if probe(&node.fat) {
                    stack.push(node.children[0]);
                    stack.push(node.children[1]);
                }
            }
        }
        for &leaf in &self.moved_list {
            let l = leaf as usize;
            if self.stale[l] && !self.is_dead[l] && probe(&self.tight[l]) {
                out.push((self.nodes[l].proxy, self.tight[l]));
            }
        }
    }
}
