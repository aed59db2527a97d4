//! Entries on the wire: an owned entry travels between the ranks as its offset in its owner's
//! slice, in 4 bytes when every slice has at most 2^32 entries (any table of this machine on
//! two ranks or more), in 8 otherwise.

use super::ownership::Ownership;
use mpi::datatype::Equivalence;

/// An owned entry as it travels between the ranks: its offset in its owner's slice (`u32` or
/// `u64`).
pub(super) trait Wire: Equivalence + Copy + Default + Send + Sync + Into<u64> {
    /// Bytes of one offset on the wire.
    const BYTES: u64;
    /// The offset `o` (below the largest slice's entry count, checked by the caller).
    fn from_offset(o: u64) -> Self;
}

impl Wire for u32 {
    const BYTES: u64 = 4;
    #[inline]
    fn from_offset(o: u64) -> u32 {
        o as u32
    }
}

impl Wire for u64 {
    const BYTES: u64 = 8;
    #[inline]
    fn from_offset(o: u64) -> u64 {
        o
    }
}

/// Whether the offsets of `own`'s slices need 8 bytes (or `wide` asks for them).
pub(super) fn wide_offsets(own: &Ownership, wide: bool) -> bool {
    wide || own.largest() > 1 << 32
}
