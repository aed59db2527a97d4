//! Packed positions for the hash tables of BFS and A*: a few bits per cell in one integer, a
//! fast hasher for them, and the memory estimate of a table.
//!
//! A position of `n` cells stores the tiles of the first `n − 1` cells, `⌈log2 n⌉` bits each;
//! the last cell's tile is the one missing. Boards of at most 16 cells fit a `u64` (15 × 4
//! bits), of at most 26 cells a `u128` (25 × 5 bits), and every board the solver accepts (at
//! most 64 cells) a [`Wide`] key of six words. A move changes two fields, so a child's key is
//! computed from its parent's in a few instructions.

use crate::position::{MAX_CELLS, NO_CELL};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};

/// An integer that holds a packed position: fixed-width fields addressed by index.
pub trait Packed: Copy + Eq + Hash + Send + Sync + 'static {
    /// Bits available.
    const BITS: u32;
    /// The key with every field 0.
    fn zero() -> Self;
    /// Field `i` of `width` bits.
    fn get(&self, i: usize, width: u32) -> u8;
    /// Sets field `i` of `width` bits to `v` (`v` fits the width).
    fn set(&mut self, i: usize, width: u32, v: u8);
}

/// [`Packed`] for a primitive unsigned integer: shifts and masks.
macro_rules! packed_integer {
    ($t:ty) => {
        impl Packed for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn zero() -> $t {
                0
            }
            #[inline(always)]
            fn get(&self, i: usize, width: u32) -> u8 {
                ((*self >> (i as u32 * width)) & ((1 << width) - 1)) as u8
            }
            #[inline(always)]
            fn set(&mut self, i: usize, width: u32, v: u8) {
                let shift = i as u32 * width;
                let one: $t = 1;
                *self = (*self & !(((one << width) - 1) << shift)) | (v as $t) << shift;
            }
        }
    };
}

packed_integer!(u64);
packed_integer!(u128);

/// Six 64-bit words: enough for 63 fields of 6 bits (boards of up to 64 cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide([u64; 6]);

impl Hash for Wide {
    fn hash<S: Hasher>(&self, state: &mut S) {
        for w in self.0 {
            state.write_u64(w);
        }
    }
}

impl Packed for Wide {
    const BITS: u32 = 384;
    #[inline(always)]
    fn zero() -> Wide {
        Wide([0; 6])
    }
    #[inline(always)]
    fn get(&self, i: usize, width: u32) -> u8 {
        // A field may straddle two words (6 does not divide 64).
        let bit = i * width as usize;
        let (w, off) = (bit / 64, bit % 64);
        let mut v = self.0[w] >> off;
        if off + width as usize > 64 {
            v |= self.0[w + 1] << (64 - off);
        }
        (v & ((1 << width) - 1)) as u8
    }
    #[inline(always)]
    fn set(&mut self, i: usize, width: u32, v: u8) {
        let bit = i * width as usize;
        let (w, off) = (bit / 64, bit % 64);
        let mask = (1u64 << width) - 1;
        self.0[w] = (self.0[w] & !(mask << off)) | (v as u64) << off;
        if off + width as usize > 64 {
            let rest = off + width as usize - 64;
            let hi = (1u64 << rest) - 1;
            self.0[w + 1] = (self.0[w + 1] & !hi) | (v as u64) >> (64 - off);
        }
    }
}

/// Which key type a board needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyWidth {
    /// One `u64` (at most 16 cells).
    U64,
    /// One `u128` (at most 26 cells).
    U128,
    /// [`Wide`] (at most 64 cells).
    Wide,
}

/// How a board's positions are packed: cells, bits per field, and the key type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    cells: usize,
    width: u32,
}

impl Layout {
    /// The layout for boards of `cells` cells (2 ≤ `cells` ≤ 64).
    pub fn new(cells: usize) -> Layout {
        debug_assert!((2..=MAX_CELLS).contains(&cells));
        let width = usize::BITS - (cells - 1).leading_zeros();
        Layout { cells, width }
    }

    /// Bits a key needs.
    pub fn key_bits(&self) -> u32 {
        (self.cells as u32 - 1) * self.width
    }

    /// The smallest key type that holds these positions.
    pub fn key_width(&self) -> KeyWidth {
        match self.key_bits() {
            0..=64 => KeyWidth::U64,
            65..=128 => KeyWidth::U128,
            _ => KeyWidth::Wide,
        }
    }

    /// The key of `tiles`.
    #[inline]
    pub fn pack<K: Packed>(&self, tiles: &[u8; MAX_CELLS]) -> K {
        debug_assert!(self.key_bits() <= K::BITS);
        let mut k = K::zero();
        for (c, &t) in tiles.iter().enumerate().take(self.cells - 1) {
            k.set(c, self.width, t);
        }
        k
    }

    /// Writes the position of `key` into `out` and returns the blank's cell.
    #[inline]
    pub fn unpack<K: Packed>(&self, key: K, out: &mut [u8; MAX_CELLS]) -> u8 {
        let n = self.cells;
        let mut sum = n * (n - 1) / 2;
        let mut blank = (n - 1) as u8;
        for (c, t) in out.iter_mut().enumerate().take(n - 1) {
            *t = key.get(c, self.width);
            sum -= *t as usize;
            if *t == 0 {
                blank = c as u8;
            }
        }
        out[n - 1] = sum as u8;
        blank
    }

    /// The key after `tile` slides from cell `from` into the blank's cell `to`.
    #[inline(always)]
    pub fn slide<K: Packed>(&self, mut key: K, tile: u8, from: u8, to: u8) -> K {
        let last = self.cells - 1;
        if (to as usize) < last {
            key.set(to as usize, self.width, tile);
        }
        if (from as usize) < last {
            key.set(from as usize, self.width, 0);
        }
        key
    }

    /// The blank's cells after each move of the recorded path that ends at `key`: `prev`
    /// gives the blank's cell in a position's parent (`None` or [`NO_CELL`] at the start).
    pub fn trace<K: Packed>(&self, key: K, mut prev: impl FnMut(&K) -> Option<u8>) -> Vec<u8> {
        let mut tiles = [0u8; MAX_CELLS];
        let mut blank = self.unpack(key, &mut tiles);
        let mut k = key;
        let mut path = Vec::new();
        while let Some(p) = prev(&k).filter(|&p| p != NO_CELL) {
            path.push(blank);
            // Undo the move: the tile on the parent's blank cell slides back.
            let tile = tiles[p as usize];
            k = self.slide(k, tile, p, blank);
            tiles[blank as usize] = tile;
            tiles[p as usize] = 0;
            blank = p;
            if path.len() > u16::MAX as usize * 16 {
                break; // a broken chain: the replay check will report it
            }
        }
        path.reverse();
        path
    }
}

/// A small multiplicative hasher for packed keys (no new crate; `std`'s SipHash is several
/// times slower on 8-byte keys). The finishing step mixes every bit into the low ones, which
/// the table uses to pick a bucket.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }
    #[inline(always)]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    #[inline(always)]
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
    #[inline(always)]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    #[inline(always)]
    fn finish(&self) -> u64 {
        // The finaliser of MurmurHash3.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// Builds [`FastHasher`]s.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildFast;

impl BuildHasher for BuildFast {
    type Hasher = FastHasher;
    #[inline(always)]
    fn build_hasher(&self) -> FastHasher {
        FastHasher::default()
    }
}

/// A hash map keyed by packed positions.
pub type PosMap<K, V> = HashMap<K, V, BuildFast>;

/// Bytes a map of `capacity` (as [`HashMap::capacity`] reports it) occupies: the standard
/// table keeps one slot of `(K, V)` and one control byte per bucket, with at most 7/8 of the
/// buckets in use.
pub fn map_bytes<K, V>(capacity: usize) -> u64 {
    let buckets = if capacity == 0 {
        0
    } else {
        (capacity * 8 / 7).next_power_of_two()
    };
    (buckets as u64) * (std::mem::size_of::<(K, V)>() as u64 + 1)
}

/// Bytes of a map now, and at its peak during the next insert (old and new tables coexist
/// while it grows).
pub fn map_bytes_next<K, V>(map: &PosMap<K, V>) -> (u64, u64) {
    let now = map_bytes::<K, V>(map.capacity());
    if map.len() >= map.capacity() {
        (now, now * 3)
    } else {
        (now, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip<K: Packed + std::fmt::Debug>(cells: usize) {
        let l = Layout::new(cells);
        let mut tiles = [0u8; MAX_CELLS];
        let mut rng = pdbformat::testkit::XorShift::new(0x1234_5678_9abc_def1u64 ^ cells as u64);
        for (c, t) in tiles.iter_mut().enumerate().take(cells) {
            *t = c as u8;
        }
        rng.shuffle(&mut tiles[..cells]);
        let k: K = l.pack(&tiles);
        let mut out = [0u8; MAX_CELLS];
        let blank = l.unpack(k, &mut out);
        assert_eq!(out[..cells], tiles[..cells]);
        assert_eq!(out[blank as usize], 0);
        // Every slide of the blank gives the key of the moved position.
        let h = (2..cells)
            .find(|&h| cells.is_multiple_of(h) && cells / h >= 2)
            .unwrap();
        let board = pdbformat::Board::new(cells / h, h).unwrap();
        let moves = crate::position::MoveTable::new(board);
        for &next in moves.targets(blank) {
            let mut t2 = tiles;
            let tile = t2[next as usize];
            t2[blank as usize] = tile;
            t2[next as usize] = 0;
            assert_eq!(l.slide(k, tile, next, blank), l.pack::<K>(&t2));
        }
    }

    #[test]
    fn keys_roundtrip() {
        for cells in [4, 8, 9, 12, 16] {
            assert_eq!(Layout::new(cells).key_width(), KeyWidth::U64);
            roundtrip::<u64>(cells);
        }
        for cells in [18, 20, 24, 26] {
            assert_eq!(Layout::new(cells).key_width(), KeyWidth::U128);
            roundtrip::<u128>(cells);
        }
        for cells in [28, 36, 50, 64] {
            assert_eq!(Layout::new(cells).key_width(), KeyWidth::Wide);
            roundtrip::<Wide>(cells);
        }
        assert_eq!(Layout::new(25).key_width(), KeyWidth::U128);
    }

    #[test]
    fn memory_estimate_grows_with_the_table() {
        let mut m: PosMap<u64, u32> = PosMap::default();
        let mut last = 0;
        for i in 0..10_000u64 {
            m.insert(i, 0);
            let b = map_bytes::<u64, u32>(m.capacity());
            assert!(b >= last);
            assert!(b >= m.len() as u64 * 17);
            last = b;
        }
    }
}
