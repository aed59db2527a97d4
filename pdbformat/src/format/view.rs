//! Lookups in encoded entries: the one place that knows how `u8`, `u4` and `bit1` entries sit
//! in their bytes.
//!
//! An [`EntryView`] is two words (the bytes and the encoding) and every method is
//! `#[inline(always)]`, so that a search can build one per lookup at no cost. `u8` and `u4`
//! entries hold values; `bit1` entries hold bit 1 of each value of a zero-aware table, and a
//! child's value comes from its parent's ([`EntryView::child_value`]): a pattern move changes a
//! zero-aware value by exactly 1, and `v - 1`, `v + 1` always differ in bit 1.

use super::codes::Encoding;

/// Encoded entries seen through their encoding, for lookups.
#[derive(Clone, Copy, Debug)]
pub struct EntryView<'a> {
    bytes: &'a [u8],
    encoding: Encoding,
}

impl<'a> EntryView<'a> {
    /// The entries `bytes`, encoded with `encoding`.
    #[inline(always)]
    pub fn new(bytes: &'a [u8], encoding: Encoding) -> EntryView<'a> {
        EntryView { bytes, encoding }
    }

    /// The encoding.
    #[inline(always)]
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Whether the entries hold only bit 1 of each value (`bit1`): values then come from
    /// [`EntryView::child_value`] (or a walk to the goal), not from [`EntryView::stored`].
    #[inline(always)]
    pub fn is_differential(&self) -> bool {
        self.encoding == Encoding::Bit1
    }

    /// The stored entry `i`: the value for `u8` and `u4` entries, bit 1 of the value for
    /// `bit1` entries.
    ///
    /// # Panics
    /// If `i` is out of range.
    #[inline(always)]
    pub fn stored(&self, i: u64) -> u8 {
        match self.encoding {
            Encoding::U8 => self.bytes[i as usize],
            Encoding::U4 => (self.bytes[(i / 2) as usize] >> ((i & 1) * 4)) & 15,
            Encoding::Bit1 => self.stored_bit(i),
        }
    }

    /// The value of entry `i` of `u8` and `u4` entries.
    ///
    /// # Panics
    /// For `bit1` entries (they hold no values) and out-of-range `i`.
    #[inline(always)]
    pub fn value(&self, i: u64) -> u8 {
        assert!(
            !self.is_differential(),
            "bit1 entries hold only bit 1 of each value"
        );
        self.stored(i)
    }

    /// Bit 1 of the value of entry `i`, whatever the encoding.
    ///
    /// # Panics
    /// If `i` is out of range.
    #[inline(always)]
    pub fn bit1(&self, i: u64) -> u8 {
        match self.encoding {
            Encoding::Bit1 => self.stored_bit(i),
            _ => (self.stored(i) >> 1) & 1,
        }
    }

    /// The stored bit of entry `i` of `bit1` entries (the bits of bytes, lowest first).
    #[inline(always)]
    fn stored_bit(&self, i: u64) -> u8 {
        (self.bytes[(i / 8) as usize] >> (i % 8)) & 1
    }

    /// The value of entry `i`, a state one pattern move away from a state of value `parent`.
    /// For `u8` and `u4` entries this is the stored value. For `bit1` entries it is
    /// `parent + 1` or `parent - 1`, whichever has the stored bit as its bit 1 (zero-aware
    /// values change by exactly 1 on such a move). Corrupt bits give wrong values, never an
    /// overflow.
    ///
    /// # Panics
    /// If `i` is out of range.
    #[inline(always)]
    pub fn child_value(&self, i: u64, parent: u8) -> u8 {
        match self.encoding {
            Encoding::U8 => self.bytes[i as usize],
            Encoding::U4 => (self.bytes[(i / 2) as usize] >> ((i & 1) * 4)) & 15,
            Encoding::Bit1 => {
                let up = parent.wrapping_add(1);
                if self.stored_bit(i) == (up >> 1) & 1 {
                    up.max(parent)
                } else {
                    parent.saturating_sub(1)
                }
            }
        }
    }

    /// The offset of the byte that holds entry `i`.
    #[inline(always)]
    pub fn byte_of(&self, i: u64) -> u64 {
        match self.encoding {
            Encoding::U8 => i,
            Encoding::U4 => i / 2,
            Encoding::Bit1 => i / 8,
        }
    }

    /// The address of the byte that holds entry `i`, for a prefetch hint; `None` when `i` is
    /// out of range.
    #[inline(always)]
    pub fn address_of(&self, i: u64) -> Option<*const u8> {
        let offset = self.byte_of(i);
        (offset < self.bytes.len() as u64)
            .then(|| self.bytes.as_ptr().wrapping_add(offset as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::encode_entries;

    /// Every encoding reads back what `encode_entries` packed, and `bit1` child values follow
    /// the parent's value up or down by one.
    #[test]
    fn reads_back_what_was_encoded() {
        let values: Vec<u8> = (0..1000u32)
            .map(|i| ((i * 7 + i / 13) % 16) as u8)
            .collect();
        for enc in [Encoding::U8, Encoding::U4, Encoding::Bit1] {
            let bytes = encode_entries(&values, enc);
            let v = EntryView::new(&bytes, enc);
            assert_eq!(v.is_differential(), enc == Encoding::Bit1);
            for (i, &x) in values.iter().enumerate() {
                let i = i as u64;
                assert_eq!(v.bit1(i), (x >> 1) & 1, "{enc} bit1 {i}");
                if enc == Encoding::Bit1 {
                    assert_eq!(v.stored(i), (x >> 1) & 1);
                    for parent in [x.wrapping_sub(1), x + 1] {
                        if x > 0 || parent == 1 {
                            assert_eq!(v.child_value(i, parent), x, "{enc} child {i}");
                        }
                    }
                } else {
                    assert_eq!(v.stored(i), x);
                    assert_eq!(v.value(i), x);
                    assert_eq!(v.child_value(i, 200), x);
                }
                let b = v.byte_of(i);
                assert!(b < bytes.len() as u64);
                assert_eq!(
                    v.address_of(i),
                    Some(bytes.as_ptr().wrapping_add(b as usize))
                );
            }
            assert_eq!(v.address_of(1 << 40), None);
        }
        // A corrupt bit never overflows: from 255 with the "up" bit, the value stays 255.
        let bytes = [0xffu8];
        let v = EntryView::new(&bytes, Encoding::Bit1);
        assert!(v.child_value(0, 255) >= 254);
        assert_eq!(EntryView::new(&[0u8], Encoding::Bit1).child_value(0, 0), 1);
    }

    #[test]
    #[should_panic(expected = "bit1 entries hold only bit 1")]
    fn bit1_has_no_values() {
        EntryView::new(&[0u8], Encoding::Bit1).value(0);
    }
}
