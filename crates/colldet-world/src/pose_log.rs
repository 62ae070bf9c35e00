//! [`PoseLog`]: the slots whose pose changed since the query index last read them (an addition
//! counts: it places the object at the identity), and a count of additions and removals, kept by
//! the object table so that every pose change is seen.

/// Pose changes and layout changes (additions, removals) since the last [`PoseLog::take`].
#[derive(Default)]
pub(crate) struct PoseLog {
    /// Slots whose pose was set, each once.
    slots: Vec<u32>,
    /// Per slot: listed in `slots`.
    listed: Vec<bool>,
    /// Incremented by every addition and removal.
    layout: u64,
}

impl PoseLog {
    /// Notes that the pose of `slot` was set.
    #[inline]
    pub fn pose_set(&mut self, slot: u32) {
        let s = slot as usize;
        if s >= self.listed.len() {
            self.listed.resize(s + 1, false);
        }
        if !self.listed[s] {
            self.listed[s] = true;
            self.slots.push(slot);
        }
    }

    /// Notes that an object was added or removed.
    pub fn layout_changed(&mut self) {
        self.layout = self.layout.wrapping_add(1);
    }

    /// The layout count: equal values mean no addition or removal in between.
    pub fn layout(&self) -> u64 {
        self.layout
    }

    /// True when some pose was set since the last [`PoseLog::drain`].
    pub fn has_poses(&self) -> bool {
        !self.slots.is_empty()
    }

    /// True when the pose of `slot` was set since the last [`PoseLog::drain`].
    pub fn is_listed(&self, slot: u32) -> bool {
        self.listed.get(slot as usize).copied().unwrap_or(false)
    }

    /// Number of slots whose pose was set since the last [`PoseLog::drain`].
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Calls `f` with each slot whose pose was set (once each) and forgets them.
    pub fn drain(&mut self, mut f: impl FnMut(u32)) {
        for &slot in &self.slots {
            self.listed[slot as usize] = false;
            f(slot);
        }
        self.slots.clear();
    }
}
