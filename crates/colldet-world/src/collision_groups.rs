//! Collision groups: a 32-bit group and a 32-bit mask per object, checked per pair before the
//! interest matrix.
//!
//! A pair `{a, b}` is admitted when each mask admits the other's group:
//! `(group_a & mask_b) != 0 && (group_b & mask_a) != 0`. The defaults, group and mask
//! [`ALL_GROUPS`], admit every pair, so a world that never sets a group behaves as without
//! groups. The table is per slot (8 bytes an object); while no object has left the defaults the
//! check skips the lookup altogether.

/// Every group bit: the default group and mask of an object.
pub const ALL_GROUPS: u32 = u32::MAX;

/// An object's group bits and the groups it collides with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollisionGroup {
    /// The groups the object belongs to.
    pub group: u32,
    /// The groups it may collide with.
    pub mask: u32,
}

impl Default for CollisionGroup {
    fn default() -> Self {
        Self {
            group: ALL_GROUPS,
            mask: ALL_GROUPS,
        }
    }
}

impl CollisionGroup {
    /// Whether the two objects' groups let their pair be tested.
    #[inline]
    pub fn admits(self, other: Self) -> bool {
        (self.group & other.mask) != 0 && (other.group & self.mask) != 0
    }
}

/// The group of every slot's object (the default for slots never set).
#[derive(Default)]
pub(crate) struct CollisionGroups {
    per_slot: Vec<CollisionGroup>,
    /// Some slot was given a group other than the default since the world was made.
    any_set: bool,
}

impl CollisionGroups {
    /// The group of the object in `slot`.
    #[inline]
    pub fn get(&self, slot: u32) -> CollisionGroup {
        self.per_slot
            .get(slot as usize)
            .copied()
            .unwrap_or_default()
    }

    /// Sets the group of the object in `slot`; returns whether it changed.
    pub fn set(&mut self, slot: u32, group: CollisionGroup) -> bool {
        let s = slot as usize;
        if group == CollisionGroup::default() && self.per_slot.len() <= s {
            return false;
        }
        if self.per_slot.len() <= s {
            self.per_slot.resize(s + 1, CollisionGroup::default());
        }
        self.any_set |= group != CollisionGroup::default();
        std::mem::replace(&mut self.per_slot[s], group) != group
    }

    /// Gives `slot` the default group again (its object was removed or the slot is new).
    pub fn reset(&mut self, slot: u32) {
        if let Some(g) = self.per_slot.get_mut(slot as usize) {
            *g = CollisionGroup::default();
        }
    }

    /// Whether the objects in slots `sa` and `sb` may collide by their groups.
    #[inline]
    pub fn admits(&self, sa: u32, sb: u32) -> bool {
        !self.any_set || self.get(sa).admits(self.get(sb))
    }

    /// False when no two of the objects in `slots` may collide by their groups: an admitted pair
    /// `{a, b}` has `group_a & mask_b != 0`, so the union of their groups meets the union of
    /// their masks. (True does not say that some pair is admitted.)
    pub fn may_admit_among(&self, slots: impl Iterator<Item = u32>) -> bool {
        if !self.any_set {
            return true;
        }
        let (groups, masks) = slots.fold((0u32, 0u32), |(g, m), s| {
            let c = self.get(s);
            (g | c.group, m | c.mask)
        });
        groups & masks != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Objects in a group their masks exclude never pair among themselves, and the test says
    /// so; one object admitting the group is enough for a possible pair.
    #[test]
    fn no_pair_among_objects_whose_masks_exclude_their_groups() {
        let mut groups = CollisionGroups::default();
        assert!(groups.may_admit_among(0..4));
        for s in 0..4 {
            groups.set(s, CollisionGroup { group: 2, mask: !2 });
        }
        assert!(!groups.may_admit_among(0..4));
        assert!((0..4).all(|a| (0..4).all(|b| a == b || !groups.admits(a, b))));
        // A default object admits them and they admit it.
        assert!(groups.may_admit_among(0..5) && groups.admits(0, 4));
        groups.set(3, CollisionGroup { group: 2, mask: 2 });
        assert!(groups.may_admit_among(0..4));
    }

    #[test]
    fn defaults_admit_everything_and_masks_combine_both_ways() {
        let mut groups = CollisionGroups::default();
        assert!(groups.admits(0, 7));
        // Slot 1: group 0b01, collides with 0b10 only; slot 2: group 0b10, collides with 0b01.
        assert!(groups.set(1, CollisionGroup { group: 1, mask: 2 }));
        assert!(!groups.set(1, CollisionGroup { group: 1, mask: 2 }));
        groups.set(2, CollisionGroup { group: 2, mask: 1 });
        groups.set(3, CollisionGroup { group: 2, mask: 2 });
        assert!(groups.admits(1, 2) && groups.admits(2, 1));
        assert!(!groups.admits(1, 3), "3's mask does not admit group 1");
        assert!(
            !groups.admits(2, 3),
            "3 admits group 2, but 2's mask does not"
        );
        groups.set(5, CollisionGroup { group: 2, mask: 2 });
        assert!(groups.admits(3, 5));
        assert!(
            groups.admits(1, 9),
            "a default object admits and is admitted by all"
        );
        groups.set(
            4,
            CollisionGroup {
                group: 0,
                mask: ALL_GROUPS,
            },
        );
        assert!(!groups.admits(4, 9), "group 0 collides with nothing");
        groups.reset(1);
        assert_eq!(groups.get(1), CollisionGroup::default());
        assert!(groups.admits(1, 3));
    }
}
