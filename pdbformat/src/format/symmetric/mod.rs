//! Symmetry-reduced payloads (compression `zstd-sym`): a zero-aware table that a board symmetry
//! maps onto an earlier table of the file stores no entries, and one that an involution maps
//! onto itself stores one entry of each mirrored pair; the rest follow from `h(σx) = h(x)`.
//!
//! A payload is an 8-byte preamble (the source table, the symmetry and the predictor, see
//! [`Link`]) and, for a table linked to itself, one zstd frame of the kept entries: those whose
//! index is not larger than their image's, in index order, packed in the table's encoding,
//! `bit1` ones XOR the [`Predictor`]. The decoder walks the
//! index one (cell set, region) block at a time: a symmetry maps a block onto one block and
//! permutes its tile orders by a map that depends only on how it reorders the set's cells, so
//! a few maps serve every block.

mod blocks;
mod decode;
mod encode;
mod link;
mod predict;

pub use blocks::tile_map;
pub use decode::{check_kept_len, decode};
pub use encode::encode;
pub use link::{find_link, Link, Shape, PREAMBLE_LEN};

use super::codes::Encoding;
use super::view::EntryView;

/// Reading (through [`EntryView`]) and writing entry `i` of encoded bytes.
#[derive(Clone, Copy)]
struct Entries(Encoding);

impl Entries {
    #[inline]
    fn get(self, bytes: &[u8], i: u64) -> u8 {
        EntryView::new(bytes, self.0).stored(i)
    }

    #[inline]
    fn set(self, bytes: &mut [u8], i: u64, v: u8) {
        let i = i as usize;
        match self.0 {
            Encoding::U8 => bytes[i] = v,
            Encoding::U4 => {
                let s = 4 * (i % 2);
                bytes[i / 2] = bytes[i / 2] & !(15 << s) | v << s;
            }
            Encoding::Bit1 => {
                let s = i % 8;
                bytes[i / 8] = bytes[i / 8] & !(1 << s) | v << s;
            }
        }
    }

    fn per_byte(self) -> u64 {
        match self.0 {
            Encoding::U8 => 1,
            Encoding::U4 => 2,
            Encoding::Bit1 => 8,
        }
    }
}
