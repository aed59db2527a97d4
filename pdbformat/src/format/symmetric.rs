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

use super::codes::Encoding;
use super::view::EntryView;
use crate::board::Board;
use crate::goal::Goal;
use crate::pattern::Pattern;
use crate::rank::{flood, rank_permutation, unrank_permutation, BoardBits, ZeroAwareIndex};
use crate::symmetry::Symmetry;
use std::collections::HashMap;

/// Bytes of the preamble that starts every symmetry-reduced payload.
pub const PREAMBLE_LEN: usize = 8;

/// The symmetry codes of the preamble, in code order (code 0 is the identity).
const SYMMETRY_CODES: [Symmetry; 8] = [
    Symmetry::Identity,
    Symmetry::Transpose,
    Symmetry::Rotate180,
    Symmetry::FlipColumns,
    Symmetry::FlipRows,
    Symmetry::Rotate90,
    Symmetry::Rotate270,
    Symmetry::AntiTranspose,
];

/// Where a symmetry-reduced table takes its entries from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// The table whose entries are mapped: an earlier one, or the table itself.
    pub source: usize,
    /// The board symmetry taking the source's states to this table's states.
    pub symmetry: Symmetry,
    /// What the kept entries are stored relative to.
    pub predictor: Predictor,
}

/// A prediction that kept entries are stored relative to (XOR), so that zstd finds more
/// repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predictor {
    /// The entries themselves (code 0).
    None,
    /// `bit1` entries only: bit 1 of the pattern tiles' Manhattan distance (code 1). An exact
    /// zero-aware value `h` is at least that distance `m` and of its parity, so the stored bit,
    /// bit 1 of `h` XOR bit 1 of `m`, is bit 0 of `(h − m) / 2`: zero whenever the tiles'
    /// interactions cost a multiple of four moves.
    Manhattan,
}

impl Link {
    /// The preamble bytes: source table, symmetry code, predictor code, five zero bytes.
    pub fn preamble(self) -> [u8; PREAMBLE_LEN] {
        let code = SYMMETRY_CODES
            .iter()
            .position(|&s| s == self.symmetry)
            .expect("every symmetry has a code");
        let mut p = [0u8; PREAMBLE_LEN];
        p[0] = self.source as u8;
        p[1] = code as u8;
        p[2] = match self.predictor {
            Predictor::None => 0,
            Predictor::Manhattan => 1,
        };
        p
    }

    /// Reads a preamble of table `table`; the link is checked against the patterns by
    /// [`tile_map`], not here.
    pub fn parse(bytes: &[u8; PREAMBLE_LEN], table: usize) -> Result<Link, String> {
        if bytes[3..].iter().any(|&b| b != 0) {
            return Err("the preamble's reserved bytes are not zero".into());
        }
        let source = bytes[0] as usize;
        let symmetry = *SYMMETRY_CODES
            .get(bytes[1] as usize)
            .ok_or_else(|| format!("unknown symmetry code {}", bytes[1]))?;
        if source > table {
            return Err(format!("source table {source} does not come before it"));
        }
        if source == table && !undoes_itself(symmetry) {
            return Err(format!(
                "a table can only be reduced by a symmetry that undoes itself, not {}",
                symmetry.name()
            ));
        }
        let predictor = match bytes[2] {
            0 => Predictor::None,
            1 if source == table => Predictor::Manhattan,
            1 => return Err("a table mapped from another keeps no entries to predict".into()),
            c => return Err(format!("unknown predictor code {c}")),
        };
        Ok(Link {
            source,
            symmetry,
            predictor,
        })
    }
}

/// The tables a file may reduce: a zero-aware pattern and its entries' encoding.
#[derive(Clone, Copy, Debug)]
pub struct Shape<'a> {
    /// The pattern.
    pub pattern: &'a Pattern,
    /// The entries' encoding.
    pub encoding: Encoding,
    /// Whether the table is zero-aware (only those are reduced).
    pub zero_aware: bool,
}

/// Whether `s` applied twice is the identity (the identity too: it keeps every entry).
fn undoes_itself(s: Symmetry) -> bool {
    !matches!(s, Symmetry::Rotate90 | Symmetry::Rotate270)
}

/// The first link table `table` can use: an earlier table of the same size and encoding that
/// a symmetry maps onto it, else itself under an involution that maps it onto itself, else (for
/// `bit1` entries, which the Manhattan predictor serves) itself under the identity.
pub fn find_link(goal: &Goal, shapes: &[Shape<'_>], table: usize) -> Option<Link> {
    let board = goal.board();
    let t = shapes[table];
    if !t.zero_aware {
        return None;
    }
    let candidates = (0..table)
        .flat_map(|s| Symmetry::of_board(board).into_iter().map(move |y| (s, y)))
        .chain(
            Symmetry::of_board(board)
                .into_iter()
                .filter(|&y| y != Symmetry::Identity && undoes_itself(y))
                .map(|y| (table, y)),
        );
    let predicted = t.encoding == Encoding::Bit1;
    let (source, symmetry) = candidates
        .filter(|&(s, _)| shapes[s].zero_aware && shapes[s].encoding == t.encoding)
        .find(|&(s, y)| tile_map(goal, y, shapes[s].pattern, t.pattern).is_some())
        .or(predicted.then_some((table, Symmetry::Identity)))?;
    Some(Link {
        source,
        symmetry,
        predictor: if predicted && source == table {
            Predictor::Manhattan
        } else {
            Predictor::None
        },
    })
}

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
fn bit_at(packed: &[u8], o: usize) -> u8 {
    packed[o / 8] >> (o % 8) & 1
}

/// `τ` with `τ[j]` the tile of `target` (by position in its pattern) whose goal cell is the
/// image of the goal cell of tile `j` of `source`, when `symmetry` maps the source's goal
/// state (its tiles' goal cells and the blank's region among the other cells) onto the
/// target's; `None` otherwise.
pub fn tile_map(
    goal: &Goal,
    symmetry: Symmetry,
    source: &Pattern,
    target: &Pattern,
) -> Option<Vec<usize>> {
    let board = goal.board();
    if source.len() != target.len() || !maps_board(board, symmetry) {
        return None;
    }
    let (from, to) = (source.goal_cells(goal), target.goal_cells(goal));
    let tau: Vec<usize> = from
        .iter()
        .map(|&c| to.iter().position(|&d| d == symmetry.map(board, c)))
        .collect::<Option<_>>()?;
    let bits = BoardBits::new(board);
    let region = |cells: &[usize]| {
        let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
        flood(&bits, 1 << goal.blank_cell(), bits.all() & !occ)
    };
    let mapped = map_mask(board, symmetry, region(&from));
    (mapped == region(&to)).then_some(tau)
}

fn maps_board(board: Board, s: Symmetry) -> bool {
    Symmetry::of_board(board).contains(&s)
}

fn map_mask(board: Board, s: Symmetry, mut m: u64) -> u64 {
    let mut out = 0u64;
    while m != 0 {
        out |= 1 << s.map(board, m.trailing_zeros() as usize);
        m &= m - 1;
    }
    out
}

/// The most tile-order map entries kept at once (256 MiB): a symmetry that reorders the cells
/// of many sets differently recomputes maps rather than holding one per set.
const MAP_CACHE_ENTRIES: u64 = 1 << 26;

/// Calls `each(set, region, image_region, orders)` for every (cell set, region) block of the
/// index, in index order: the set's cells, the block's image under `symmetry` and `orders[o]`,
/// the image's tile order of order `o`.
fn for_each_block<F>(
    z: &ZeroAwareIndex,
    board: Board,
    symmetry: Symmetry,
    tau: &[usize],
    mut each: F,
) -> Result<(), String>
where
    F: FnMut(u64, usize, usize, &[u32]) -> Result<(), String>,
{
    let k = z.k();
    let mut maps: HashMap<Vec<u8>, Vec<u32>> = HashMap::new();
    let mut slots = vec![0u8; k];
    for set in 0..z.set_count() {
        let occ = z.set_mask(set);
        let image = map_mask(board, symmetry, occ);
        let image_set = z.set_rank(image);
        // pi[i]: the slot in the image set of the image of the set's i-th cell.
        let mut pi = Vec::with_capacity(k);
        let mut m = occ;
        while m != 0 {
            let c = symmetry.map(board, m.trailing_zeros() as usize);
            pi.push((image & ((1u64 << c) - 1)).count_ones() as u8);
            m &= m - 1;
        }
        if !maps.contains_key(&pi) && maps.len() as u64 * z.order_count() >= MAP_CACHE_ENTRIES {
            maps.clear();
        }
        let orders = maps.entry(pi).or_insert_with_key(|pi| {
            let mut image_slots = vec![0u8; k];
            (0..z.order_count())
                .map(|o| {
                    unrank_permutation(o, k, &mut slots);
                    for j in 0..k {
                        image_slots[tau[j]] = pi[slots[j] as usize];
                    }
                    rank_permutation(&image_slots, k) as u32
                })
                .collect()
        });
        for region in z.regions_of_set(set) {
            let blank = z.region_mask(region).trailing_zeros() as usize;
            let image_region = z.region_at(image_set, symmetry.map(board, blank));
            each(occ, region, image_region, orders)?;
        }
    }
    Ok(())
}

/// The predicted bits of the current cell set's tile orders (all zero without a predictor).
struct Prediction<'a> {
    board: Board,
    goals: &'a [usize],
    on: bool,
    occ: u64,
    bits: Vec<u8>,
}

impl<'a> Prediction<'a> {
    fn new(
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
    fn of(&mut self, occ: u64, orders: usize) -> &[u8] {
        if !self.on {
            self.bits.resize(orders.div_ceil(8), 0);
        } else if self.occ != occ || self.bits.len() != orders.div_ceil(8) {
            manhattan_bits(self.board, self.goals, occ, &mut self.bits);
            self.occ = occ;
        }
        &self.bits
    }
}

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

/// The kept entries of `entries`, packed in their encoding: for a table linked to itself
/// (`source` is `None`), those not larger than their image; for one linked to an earlier
/// table's `source` entries, none. An error if the entries are not the image the link says.
pub fn encode(
    board: Board,
    link: Link,
    (tau, goals): (&[usize], &[usize]),
    encoding: Encoding,
    entries: &[u8],
    source: Option<&[u8]>,
) -> Result<Vec<u8>, String> {
    let z = index_for(board, tau.len())?;
    let e = Entries(encoding);
    let mut predicted = Prediction::new(board, goals, link, encoding)?;
    let ob = z.order_count();
    let mut kept = Vec::new();
    let mut n = 0u64;
    if source.is_some_and(|s| s.len() != entries.len()) {
        return Err("the source table has another length".into());
    }
    let asymmetric = |i: u64, j: u64| {
        format!(
            "the entries are not mapped onto themselves by {}: entry {i} differs from entry {j}",
            link.symmetry.name()
        )
    };
    for_each_block(&z, board, link.symmetry, tau, |occ, r, ir, orders| {
        let guess = predicted.of(occ, orders.len());
        for (o, &io) in orders.iter().enumerate() {
            let (i, j) = (r as u64 * ob + o as u64, ir as u64 * ob + io as u64);
            let v = e.get(source.unwrap_or(entries), i);
            if source.is_some() {
                if e.get(entries, j) != v {
                    return Err(asymmetric(j, i));
                }
            } else if i <= j {
                if n.is_multiple_of(e.per_byte()) {
                    kept.push(0);
                }
                e.set(&mut kept, n, v ^ bit_at(guess, o));
                n += 1;
            } else if e.get(entries, j) != v {
                return Err(asymmetric(i, j));
            }
        }
        Ok(())
    })?;
    Ok(kept)
}

/// The bytes of `dst` from bits of `src`: bit `b` of `dst[i]` is bit `base + from[8i + b]`.
fn gather_bits(dst: &mut [u8], src: &[u8], base: u64, from: &[u32]) {
    let src = EntryView::new(src, Encoding::Bit1);
    let bit = |o: u32| src.stored(base + o as u64);
    for (d, f) in dst.iter_mut().zip(from.chunks_exact(8)) {
        *d = f.iter().rev().fold(0u8, |m, &o| m << 1 | bit(o));
    }
}

/// Entries `base..base + count` of `out` from the kept entries `n..` XOR the packed `guess`.
fn copy_kept(
    e: Entries,
    out: &mut [u8],
    (base, count): (u64, u64),
    kept: &[u8],
    n: u64,
    guess: &[u8],
) {
    if e.0 == Encoding::Bit1
        && base.is_multiple_of(8)
        && n.is_multiple_of(8)
        && count.is_multiple_of(8)
    {
        let bytes = count as usize / 8;
        let out = &mut out[base as usize / 8..][..bytes];
        let kept = &kept[n as usize / 8..][..bytes];
        for ((o, &k), &g) in out.iter_mut().zip(kept).zip(guess) {
            *o = k ^ g;
        }
    } else {
        for o in 0..count {
            e.set(
                out,
                base + o,
                e.get(kept, n + o) ^ bit_at(guess, o as usize),
            );
        }
    }
}

/// Whether `kept` bytes of kept entries can hold a table of `raw_len` bytes linked to itself:
/// at least half its entries are kept, so a short stream is refused before the entries are
/// allocated.
pub fn check_kept_len(kept: usize, raw_len: u64) -> Result<(), String> {
    if kept as u64 * 2 + 2 < raw_len {
        return Err(format!(
            "{kept} bytes of kept entries, fewer than half the table's {raw_len}"
        ));
    }
    Ok(())
}

/// The entries of a table with `link` into `out` (whatever it held; its length is the table's
/// raw length): from `kept` (the decoded frame of a table linked to itself, its length
/// checked by [`check_kept_len`] before `out` was allocated) or from `source` (the entries of
/// an earlier table).
pub fn decode(
    board: Board,
    link: Link,
    (tau, goals): (&[usize], &[usize]),
    encoding: Encoding,
    (kept, source): (&[u8], Option<&[u8]>),
    out: &mut [u8],
) -> Result<(), String> {
    let raw_len = out.len() as u64;
    let z = index_for(board, tau.len())?;
    let e = Entries(encoding);
    let mut predicted = Prediction::new(board, goals, link, encoding)?;
    if encoding.encoded_len(z.len()) != raw_len {
        return Err("the entry count does not match the index".into());
    }
    let ob = z.order_count();
    // bit1 blocks of whole bytes are filled a byte at a time.
    let whole_bytes = encoding == Encoding::Bit1 && ob.is_multiple_of(8);
    // Entries are written in place (bytes whole, or bits and nibbles masked in); the padding
    // bits of a last, partial byte are never written, so they start at zero.
    if let Some(last) = out.last_mut() {
        *last = 0;
    }
    let mut n = 0u64;
    let kept_len = kept.len() as u64 * e.per_byte();
    let short = || "the kept entries end early".to_string();
    match source {
        Some(src) => {
            if src.len() != out.len() {
                return Err("the source table has another length".into());
            }
            let mut inverse = vec![0u32; ob as usize];
            for_each_block(&z, board, link.symmetry, tau, |_, r, ir, orders| {
                let (base, image) = (r as u64 * ob, ir as u64 * ob);
                if whole_bytes {
                    for (o, &io) in orders.iter().enumerate() {
                        inverse[io as usize] = o as u32;
                    }
                    let dst = &mut out[image as usize / 8..(image + ob) as usize / 8];
                    gather_bits(dst, src, base, &inverse);
                } else {
                    for (o, &io) in orders.iter().enumerate() {
                        e.set(out, image + io as u64, e.get(src, base + o as u64));
                    }
                }
                Ok(())
            })?;
        }
        None => {
            for_each_block(&z, board, link.symmetry, tau, |occ, r, ir, orders| {
                let base = r as u64 * ob;
                let guess = predicted.of(occ, orders.len());
                // Under the identity every block is its own image and wholly kept.
                if r < ir || link.symmetry == Symmetry::Identity {
                    if n + ob > kept_len {
                        return Err(short());
                    }
                    copy_kept(e, out, (base, ob), kept, n, guess);
                    n += ob;
                } else if r > ir {
                    let image = ir as u64 * ob;
                    if whole_bytes {
                        // The image block comes before this one.
                        let (done, rest) = out.split_at_mut(base as usize / 8);
                        gather_bits(&mut rest[..ob as usize / 8], done, image, orders);
                    } else {
                        for (o, &io) in orders.iter().enumerate() {
                            let v = e.get(out, image + io as u64);
                            e.set(out, base + o as u64, v);
                        }
                    }
                } else {
                    for (o, &io) in orders.iter().enumerate() {
                        let g = bit_at(guess, o);
                        let (o, io) = (o as u64, io as u64);
                        let v = if o <= io {
                            if n >= kept_len {
                                return Err(short());
                            }
                            n += 1;
                            e.get(kept, n - 1) ^ g
                        } else {
                            e.get(out, base + io)
                        };
                        e.set(out, base + o, v);
                    }
                }
                Ok(())
            })?;
            if n.div_ceil(e.per_byte()) != kept.len() as u64 {
                return Err(format!(
                    "{} bytes of kept entries, {} expected",
                    kept.len(),
                    n.div_ceil(e.per_byte())
                ));
            }
        }
    }
    Ok(())
}

fn index_for(board: Board, k: usize) -> Result<ZeroAwareIndex, String> {
    ZeroAwareIndex::new(board, k).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn preambles_round_trip_and_bad_ones_are_refused() {
        let link = Link {
            source: 2,
            symmetry: Symmetry::FlipColumns,
            predictor: Predictor::Manhattan,
        };
        assert_eq!(Link::parse(&link.preamble(), 2), Ok(link));
        let bad = |p: [u8; PREAMBLE_LEN], t: usize| Link::parse(&p, t).unwrap_err();
        assert!(bad([0, 3, 1, 0, 0, 0, 0, 0], 2).contains("no entries to predict"));
        assert!(bad([2, 3, 7, 0, 0, 0, 0, 0], 2).contains("unknown predictor"));
        assert!(bad([2, 5, 0, 0, 0, 0, 0, 0], 2).contains("undoes itself"));
        assert!(bad([3, 0, 0, 0, 0, 0, 0, 0], 2).contains("does not come before"));
        assert!(bad([2, 8, 0, 0, 0, 0, 0, 0], 2).contains("unknown symmetry"));
        assert!(bad([2, 0, 0, 0, 0, 0, 0, 1], 2).contains("reserved"));
        let board = Board::new(3, 3).unwrap();
        assert!(Prediction::new(board, &[1], link, Encoding::U8).is_err());
    }
}
