//! The Manhattan predictor of `bit1` entries: bit 1 of the pattern tiles' Manhattan distance
//! for every tile order of a cell set, which kept entries are stored XOR.

use super::link::{Link, Predictor};
use crate::board::Board;
use crate::format::codes::Encoding;

/// Bit 1 of the Manhattan distance of `goals`' tiles on the cells of `occ`, for every tile
/// order of the set in index order, packed: order `o`'s bit is bit `o % 8` of byte `o / 8`.
fn manhattan_bits(board: Board, goals: &[usize], occ: u64, out: &mut Vec<u8>) {
    let k = goals.len();
    let mut cells = Vec::with_capacity(k);
    let mut m = occ;
    while m != 0 {
        cells.push(m.trailing_zeros() as usize);
        m &= m - 1;
    }
    // d[j * k + s]: the distance of tile j on the set's s-th cell, modulo 4.
    let d: Vec<u8> = goals
        .iter()
        .flat_map(|&g| {
            cells
                .iter()
                .map(move |&c| (board.manhattan(g, c) & 3) as u8)
        })
        .collect();
    out.clear();
    out.reserve((1..=k).product::<usize>().div_ceil(8));
    // The last (up to three) tiles' distances for every way of placing them on the slots the
    // earlier tiles leave free: by free-slot mask, one byte per order.
    let last = k.min(3);
    let mut suffix = vec![0u64; 1 << k];
    for (free, sums) in suffix.iter_mut().enumerate() {
        if free.count_ones() as usize != last {
            continue;
        }
        let mut slots = [0usize; 3];
        let mut f = free;
        for slot in slots.iter_mut().take(last) {
            *slot = f.trailing_zeros() as usize;
            f &= f - 1;
        }
        for (n, order) in LAST_ORDERS[last].iter().enumerate() {
            let s: u8 = (0..last)
                .map(|t| d[(k - last + t) * k + slots[order[t]]])
                .sum();
            *sums |= u64::from(s) << (8 * n);
        }
    }
    let mut sink = BitSink {
        out,
        bits: 0,
        len: 0,
    };
    let walk = Walk {
        d: &d,
        k,
        suffix: &suffix,
        orders: LAST_ORDERS[last].len() as u32,
    };
    walk.from(0, 0, 0, &mut sink);
    sink.finish();
}

/// The orders of the last one, two or three tiles over their free slots (taken in increasing
/// order), lexicographic as the index ranks them.
const LAST_ORDERS: [&[[usize; 3]]; 4] = [
    &[],
    &[[0, 0, 0]],
    &[[0, 1, 0], [1, 0, 0]],
    &[
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ],
];

/// Tile orders rank the slot sequences lexicographically: a depth-first walk choosing each
/// tile's slot in increasing order visits them in index order. The last three tiles' six
/// orders are written at once from a table of their distances.
struct Walk<'a> {
    /// `d[j * k + s]`: tile `j`'s distance on the set's `s`-th cell, modulo 4.
    d: &'a [u8],
    k: usize,
    /// By free-slot mask: the last tiles' distance in each of their orders, a byte each.
    suffix: &'a [u64],
    /// How many orders the last tiles have.
    orders: u32,
}

impl Walk<'_> {
    /// Places tile `j` and those after it on slots outside `used`; `sum` is the earlier
    /// tiles' distance modulo 4.
    fn from(&self, j: usize, used: u32, sum: u8, sink: &mut BitSink<'_>) {
        let k = self.k;
        if k - j <= 3 {
            let free = !used & ((1 << k) - 1);
            // Bytes of at most 3 + 3 · 3 < 256 carry into no neighbour; bit 1 of each byte is
            // gathered into the low bits of the product's top byte.
            let v = self.suffix[free as usize] + u64::from(sum & 3) * 0x0101_0101_0101_0101;
            let lanes = (v >> 1) & 0x0101_0101_0101_0101 & (u64::MAX >> (64 - 8 * self.orders));
            sink.push(lanes.wrapping_mul(0x0102_0408_1020_4080) >> 56, self.orders);
            return;
        }
        for s in 0..k {
            if used & 1 << s == 0 {
                self.from(
                    j + 1,
                    used | 1 << s,
                    sum.wrapping_add(self.d[j * k + s]),
                    sink,
                );
            }
        }
    }
}

/// Bits appended to a byte vector, least significant first.
struct BitSink<'a> {
    out: &'a mut Vec<u8>,
    bits: u64,
    len: u32,
}

impl BitSink<'_> {
    /// Appends the low `count` (at most 8) bits of `bits`.
    #[inline]
    fn push(&mut self, bits: u64, count: u32) {
        self.bits |= bits << self.len;
        self.len += count;
        if self.len >= 8 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.len -= 8;
        }
    }

    /// Writes the last, partial byte.
    fn finish(self) {
        if self.len > 0 {
            self.out.push(self.bits as u8);
        }
    }
}

/// Bit `o` of packed bits.
#[inline]
pub(super) fn bit_at(packed: &[u8], o: usize) -> u8 {
    packed[o / 8] >> (o % 8) & 1
}

/// The predicted bits of the current cell set's tile orders (all zero without a predictor).
pub(super) struct Prediction<'a> {
    board: Board,
    goals: &'a [usize],
    on: bool,
    occ: u64,
    bits: Vec<u8>,
}

impl<'a> Prediction<'a> {
    pub(super) fn new(
        board: Board,
        goals: &'a [usize],
        link: Link,
        encoding: Encoding,
    ) -> Result<Self, String> {
        let on = link.predictor == Predictor::Manhattan;
        if on && encoding != Encoding::Bit1 {
            return Err("the Manhattan predictor applies to bit1 entries only".into());
        }
        Ok(Prediction {
            board,
            goals,
            on,
            occ: 0,
            bits: Vec::new(),
        })
    }

    /// The bit of each tile order of the set `occ`, packed as [`manhattan_bits`] packs them.
    pub(super) fn of(&mut self, occ: u64, orders: usize) -> &[u8] {
        if !self.on {
            self.bits.resize(orders.div_ceil(8), 0);
        } else if self.occ != occ || self.bits.len() != orders.div_ceil(8) {
            manhattan_bits(self.board, self.goals, occ, &mut self.bits);
            self.occ = occ;
        }
        &self.bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::ZeroAwareIndex;

    #[test]
    fn manhattan_bits_follow_the_index_order() {
        // One to three tiles are written by the walk's last step alone; more go through it.
        for (w, h, goals, step) in [
            (3, 3, vec![4], 1),
            (3, 3, vec![7, 2], 1),
            (3, 3, vec![1, 2, 5], 1),
            (4, 4, vec![8, 9, 12, 13, 15], 7),
            (5, 5, vec![1, 2, 5, 6, 7, 12], 997),
        ] {
            let board = Board::new(w, h).unwrap();
            let z = ZeroAwareIndex::new(board, goals.len()).unwrap();
            let mut bits = Vec::new();
            let mut cells = vec![0u8; goals.len()];
            for set in (0..z.set_count()).step_by(step) {
                let occ = z.set_mask(set);
                manhattan_bits(board, &goals, occ, &mut bits);
                assert_eq!(bits.len() as u64, z.order_count().div_ceil(8));
                for o in 0..z.order_count() as usize {
                    let b = bit_at(&bits, o);
                    z.place_tiles(occ, o as u64, &mut cells);
                    let md: usize = goals
                        .iter()
                        .zip(&cells)
                        .map(|(&g, &c)| {
                            let c = c as usize;
                            board.row(g).abs_diff(board.row(c))
                                + board.col(g).abs_diff(board.col(c))
                        })
                        .sum();
                    assert_eq!(b as usize, md >> 1 & 1, "set {set} order {o}");
                }
            }
        }
    }
}
