//! The moved set of the thesis (section 7): `set_transform` enters an object once (a per-object
//! flag prevents duplicates) and `check` drains it. The thesis double-buffers it so that moves
//! made from callbacks count for the next check; here that back buffer is the world's list of
//! moves deferred by callbacks (`CallbackContext::set_transform`), entered into this set after the
//! last callback.

/// Slots of objects moved since the last check, without duplicates.
#[derive(Clone, Debug, Default)]
pub(crate) struct MovedSet {
    slots: Vec<u32>,
    /// `flag[slot]`: the slot is in `slots`.
    flag: Vec<bool>,
}

impl MovedSet {
    /// Marks `slot` as moved; a no-op if it already is.
    pub fn mark(&mut self, slot: u32) {
        let s = slot as usize;
        if self.flag.len() <= s {
            self.flag.resize(s + 1, false);
        }
        if !self.flag[s] {
            self.flag[s] = true;
            self.slots.push(slot);
        }
    }

    /// True when `slot` is marked.
    pub fn contains(&self, slot: u32) -> bool {
        self.flag.get(slot as usize).copied().unwrap_or(false)
    }

    /// Forgets `slot` (object removed).
    pub fn unmark(&mut self, slot: u32) {
        if self.contains(slot) {
            self.flag[slot as usize] = false;
            self.slots.retain(|&s| s != slot);
        }
    }

    /// The marked slots in marking order.
    pub fn slots(&self) -> &[u32] {
        &self.slots
    }

    /// Unmarks everything, keeping the capacity.
    pub fn clear(&mut self) {
        for &s in &self.slots {
            self.flag[s as usize] = false;
        }
        self.slots.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_once_and_clears() {
        let mut moved = MovedSet::default();
        moved.mark(5);
        moved.mark(2);
        moved.mark(5);
        assert_eq!(moved.slots(), &[5, 2]);
        assert!(moved.contains(2) && !moved.contains(3) && !moved.contains(100));
        moved.unmark(5);
        assert_eq!(moved.slots(), &[2]);
        moved.clear();
        assert!(moved.slots().is_empty() && !moved.contains(2));
    }
}
