//! Object handles: a slot index, a generation and the tag of the world that issued them, so a
//! handle to a removed object is detected (stale) instead of silently naming whatever reuses its
//! slot, and a handle of another world is refused instead of naming an object of this one.
//!
//! See [`ObjectId`] for the layout and its limits.

use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};

const SLOT_BITS: u32 = 24;
const GENERATION_BITS: u32 = 24;
const TAG_BITS: u32 = 16;
const GENERATION_SHIFT: u32 = SLOT_BITS;
const TAG_SHIFT: u32 = SLOT_BITS + GENERATION_BITS;
const _: () = assert!(SLOT_BITS + GENERATION_BITS + TAG_BITS == 64);

/// The tag a world puts in its ids (see [`ObjectId`]): `1..=`[`ObjectId::MAX_WORLD_TAG`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WorldTag(u16);

/// How many tags were handed out in this process.
static TAGS_ISSUED: AtomicU64 = AtomicU64::new(0);

impl WorldTag {
    /// The next tag of the process-wide sequence 1, 2, ..., 65535, 1, 2, ...
    pub(crate) fn next() -> Self {
        Self::nth(TAGS_ISSUED.fetch_add(1, Ordering::Relaxed))
    }

    /// The `n`-th tag (0-based) of the sequence: never 0, wraps after [`ObjectId::MAX_WORLD_TAG`].
    fn nth(n: u64) -> Self {
        let tag = n % u64::from(ObjectId::MAX_WORLD_TAG) + 1;
        Self(u16::try_from(tag).expect("tag fits in 16 bits"))
    }
}

/// A handle to an object in a [`crate::World`]. Never zero (so `0` can mean "no object" in the C
/// API). Packs the issuing world's tag, the slot's generation and the slot; compare and sort
/// freely, but only the world that issued a handle resolves it: any other world refuses it with
/// [`crate::WorldError::InvalidHandle`].
///
/// # Layout of the raw 64-bit id
/// ```text
///  63          48 47                      24 23                       0
/// +--------------+--------------------------+-------------------------+
/// |  world tag   |        generation        |        slot + 1         |
/// |   16 bits    |         24 bits          |         24 bits         |
/// +--------------+--------------------------+-------------------------+
/// ```
/// - **Slot**: `0..=`[`ObjectId::MAX_SLOT`] (16,777,214), so a world holds at most 16,777,215
///   objects at once ([`crate::WorldError::TooManyObjects`] beyond). Stored as `slot + 1`, so
///   this part is never 0.
/// - **Generation**: `1..=`[`ObjectId::MAX_GENERATION`] (16,777,215), raised each time the slot's
///   object is removed; after the largest it starts again at 1. A stale id is therefore refused
///   unless its slot was emptied and refilled 16,777,215 times (or a multiple) since the id was
///   issued: then it names the slot's current object again.
/// - **World tag**: `1..=`[`ObjectId::MAX_WORLD_TAG`] (65,535), one per world, from a
///   process-wide counter when the world is made. Every lookup checks it, so an id of another
///   world is refused. Tags wrap: the 65,536th world made in a process gets tag 1 again, and so
///   on; two worlds alive at the same time with the same tag (only possible after 65,535 worlds
///   were made) cannot tell each other's ids apart (a mix-up between them behaves as without
///   tags: the id is taken for the object in that slot if its generation matches).
///
/// No part is ever 0, so the raw id is never 0 (the C API's "no object"). Within one world the
/// tag is the same for all ids, so ids order by generation, then slot, and an id keeps its value
/// for the object's lifetime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectId(NonZeroU64);

impl ObjectId {
    /// The largest slot index a handle can carry (a world holds at most `MAX_SLOT + 1` objects).
    pub const MAX_SLOT: u32 = (1 << SLOT_BITS) - 2;
    /// The largest generation; the one after it is 1 again.
    pub const MAX_GENERATION: u32 = (1 << GENERATION_BITS) - 1;
    /// The largest world tag; the world made after the one with this tag gets tag 1 again.
    pub const MAX_WORLD_TAG: u16 = u16::MAX;

    pub(crate) fn new(tag: WorldTag, slot: u32, generation: u32) -> Self {
        debug_assert!(slot <= Self::MAX_SLOT);
        debug_assert!((1..=Self::MAX_GENERATION).contains(&generation));
        let raw = (u64::from(tag.0) << TAG_SHIFT)
            | (u64::from(generation) << GENERATION_SHIFT)
            | (u64::from(slot) + 1);
        Self(NonZeroU64::new(raw).expect("slot + 1 is never zero"))
    }

    /// The handle as a plain integer (what the C API passes around).
    pub fn to_raw(self) -> u64 {
        self.0.get()
    }

    /// A handle from a plain integer; `None` for 0 and for any integer no world issues (a slot,
    /// generation or tag part of 0). Whether it names a live object is for the world to decide.
    pub fn from_raw(raw: u64) -> Option<Self> {
        let id = Self(NonZeroU64::new(raw)?);
        let issued = id.slot_part() != 0 && id.generation() != 0 && id.tag_part() != 0;
        issued.then_some(id)
    }

    fn slot_part(self) -> u32 {
        (self.0.get() & ((1 << SLOT_BITS) - 1)) as u32
    }

    fn tag_part(self) -> u16 {
        (self.0.get() >> TAG_SHIFT) as u16
    }

    /// The slot index (dense, reused after removal; also the broad-phase proxy id).
    pub(crate) fn slot(self) -> u32 {
        self.slot_part() - 1
    }

    /// The slot's generation when the handle was issued.
    pub(crate) fn generation(self) -> u32 {
        ((self.0.get() >> GENERATION_SHIFT) & u64::from(Self::MAX_GENERATION)) as u32
    }

    /// The tag of the world that issued the handle.
    pub(crate) fn world_tag(self) -> WorldTag {
        WorldTag(self.tag_part())
    }

    /// The generation after `generation`: 1 after [`ObjectId::MAX_GENERATION`].
    pub(crate) fn next_generation(generation: u32) -> u32 {
        if generation >= Self::MAX_GENERATION {
            1
        } else {
            generation + 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_zero() {
        let tag = WorldTag::nth(4);
        let id = ObjectId::new(tag, 7, 3);
        assert_eq!((id.slot(), id.generation(), id.world_tag()), (7, 3, tag));
        assert_eq!(ObjectId::from_raw(id.to_raw()), Some(id));
        assert_eq!(ObjectId::from_raw(0), None);
        assert_eq!(
            ObjectId::from_raw(id.to_raw() & !((1 << SLOT_BITS) - 1)),
            None,
            "slot part 0 is never issued"
        );
        assert_eq!(
            ObjectId::from_raw(1 | (1 << 24)),
            None,
            "tag 0 is never issued"
        );
        assert_eq!(
            ObjectId::from_raw(1 | (1 << 48)),
            None,
            "generation 0 never"
        );
        assert_ne!(ObjectId::new(tag, 7, 3), ObjectId::new(tag, 7, 4));
        assert_ne!(
            ObjectId::new(tag, 7, 3),
            ObjectId::new(WorldTag::nth(5), 7, 3)
        );
    }

    #[test]
    fn the_limits_fit_their_fields() {
        let tag = WorldTag::nth(u64::from(ObjectId::MAX_WORLD_TAG) - 1);
        assert_eq!(tag, WorldTag(u16::MAX));
        let id = ObjectId::new(tag, ObjectId::MAX_SLOT, ObjectId::MAX_GENERATION);
        assert_eq!(id.to_raw(), u64::MAX);
        assert_eq!(
            (id.slot(), id.generation(), id.world_tag()),
            (ObjectId::MAX_SLOT, ObjectId::MAX_GENERATION, tag)
        );
        assert_eq!(ObjectId::from_raw(u64::MAX), Some(id));
        let low = ObjectId::new(WorldTag::nth(0), 0, 1);
        assert_eq!(low.to_raw(), (1 << 48) | (1 << 24) | 1);
    }

    #[test]
    fn generations_and_tags_wrap_to_one() {
        assert_eq!(ObjectId::next_generation(1), 2);
        assert_eq!(ObjectId::next_generation(ObjectId::MAX_GENERATION), 1);
        assert_eq!(WorldTag::nth(0), WorldTag(1));
        assert_eq!(WorldTag::nth(65_534), WorldTag(65_535));
        assert_eq!(WorldTag::nth(65_535), WorldTag(1), "tags wrap, never to 0");
        assert_ne!(WorldTag::next(), WorldTag::next());
    }

    #[test]
    fn ids_of_one_world_order_by_generation_then_slot() {
        let tag = WorldTag::nth(9);
        assert!(ObjectId::new(tag, 5, 1) < ObjectId::new(tag, 6, 1));
        assert!(ObjectId::new(tag, 6, 1) < ObjectId::new(tag, 0, 2));
    }
}
