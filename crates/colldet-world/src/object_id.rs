//! Object handles: a slot index plus a generation, so a handle to a removed object is detected
//! (stale) instead of silently naming whatever reuses its slot.

use std::num::NonZeroU64;

/// A handle to an object in a [`crate::World`]. Never zero (so `0` can mean "no object" in the C
/// API). Packs `generation << 32 | (slot + 1)`; compare and sort freely, but only the world that
/// issued a handle can resolve it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectId(NonZeroU64);

impl ObjectId {
    /// The largest slot index a handle can carry.
    pub(crate) const MAX_SLOT: u32 = u32::MAX - 1;

    pub(crate) fn new(slot: u32, generation: u32) -> Self {
        debug_assert!(slot <= Self::MAX_SLOT);
        let raw = (u64::from(generation) << 32) | (u64::from(slot) + 1);
        Self(NonZeroU64::new(raw).expect("slot + 1 is never zero"))
    }

    /// The handle as a plain integer (what the C API passes around).
    pub fn to_raw(self) -> u64 {
        self.0.get()
    }

    /// A handle from a plain integer; `None` for 0. Whether it names a live object is for the
    /// world to decide.
    pub fn from_raw(raw: u64) -> Option<Self> {
        NonZeroU64::new(raw)
            .filter(|r| r.get() as u32 != 0)
            .map(Self)
    }

    /// The slot index (dense, reused after removal; also the broad-phase proxy id).
    pub(crate) fn slot(self) -> u32 {
        (self.0.get() as u32) - 1
    }

    /// The slot's generation when the handle was issued.
    pub(crate) fn generation(self) -> u32 {
        (self.0.get() >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_zero() {
        let id = ObjectId::new(7, 3);
        assert_eq!((id.slot(), id.generation()), (7, 3));
        assert_eq!(ObjectId::from_raw(id.to_raw()), Some(id));
        assert_eq!(ObjectId::from_raw(0), None);
        assert_eq!(
            ObjectId::from_raw(5 << 32),
            None,
            "slot part 0 is never issued"
        );
        assert_ne!(ObjectId::new(7, 3), ObjectId::new(7, 4));
    }
}
