//! Symmetry-reduced payloads (compression `zstd-sym`): a zero-aware table that a board symmetry
//! maps onto an earlier table of the file stores no entries, and one that an involution maps
//! onto itself stores one entry of each mirrored pair; the rest follow from `h(σx) = h(x)`.
//!
//! A payload is an 8-byte preamble (the source table and the symmetry, see [`Link`]) and, for a
//! table linked to itself, one zstd frame of the kept entries: those whose index is not larger
//! than their image's, in index order, packed in the table's encoding. The decoder walks the
//! index one (cell set, region) block at a time: a symmetry maps a block onto one block and
//! permutes its tile orders by a map that depends only on how it reorders the set's cells, so
//! a few maps serve every block.

use super::codes::Encoding;
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
}

impl Link {
    /// The preamble bytes: source table, symmetry code, six zero bytes.
    pub fn preamble(self) -> [u8; PREAMBLE_LEN] {
        let code = SYMMETRY_CODES
            .iter()
            .position(|&s| s == self.symmetry)
            .expect("every symmetry has a code");
        let mut p = [0u8; PREAMBLE_LEN];
        p[0] = self.source as u8;
        p[1] = code as u8;
        p
    }

    /// Reads a preamble of table `table`; the link is checked against the patterns by
    /// [`tile_map`], not here.
    pub fn parse(bytes: &[u8; PREAMBLE_LEN], table: usize) -> Result<Link, String> {
        if bytes[2..].iter().any(|&b| b != 0) {
            return Err("the preamble's reserved bytes are not zero".into());
        }
        let source = bytes[0] as usize;
        let symmetry = *SYMMETRY_CODES
            .get(bytes[1] as usize)
            .ok_or_else(|| format!("unknown symmetry code {}", bytes[1]))?;
        if source > table {
            return Err(format!("source table {source} does not come before it"));
        }
        if source == table && !is_involution(symmetry) {
            return Err(format!(
                "a table can only be reduced by a symmetry that undoes itself, not {}",
                symmetry.name()
            ));
        }
        Ok(Link { source, symmetry })
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

fn is_involution(s: Symmetry) -> bool {
    !matches!(
        s,
        Symmetry::Identity | Symmetry::Rotate90 | Symmetry::Rotate270
    )
}

/// The first link table `table` can use: an earlier table of the same size and encoding that
/// a symmetry maps onto it, else itself under an involution that maps it onto itself.
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
                .filter(|&y| is_involution(y))
                .map(|y| (table, y)),
        );
    candidates
        .filter(|&(s, _)| shapes[s].zero_aware && shapes[s].encoding == t.encoding)
        .find(|&(s, y)| tile_map(goal, y, shapes[s].pattern, t.pattern).is_some())
        .map(|(source, symmetry)| Link { source, symmetry })
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

/// Calls `each(region, image_region, orders)` for every (cell set, region) block of the index:
/// the block's image under `symmetry` and `orders[o]`, the image's tile order of order `o`.
fn for_each_block<F>(
    z: &ZeroAwareIndex,
    board: Board,
    symmetry: Symmetry,
    tau: &[usize],
    mut each: F,
) -> Result<(), String>
where
    F: FnMut(usize, usize, &[u32]) -> Result<(), String>,
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
            each(region, image_region, orders)?;
        }
    }
    Ok(())
}

/// Reading and writing entry `i` of encoded bytes.
#[derive(Clone, Copy)]
struct Entries(Encoding);

impl Entries {
    #[inline]
    fn get(self, bytes: &[u8], i: u64) -> u8 {
        let i = i as usize;
        match self.0 {
            Encoding::U8 => bytes[i],
            Encoding::U4 => bytes[i / 2] >> (4 * (i % 2)) & 15,
            Encoding::Bit1 => bytes[i / 8] >> (i % 8) & 1,
        }
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
    tau: &[usize],
    encoding: Encoding,
    entries: &[u8],
    source: Option<&[u8]>,
) -> Result<Vec<u8>, String> {
    let z = index_for(board, tau.len())?;
    let e = Entries(encoding);
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
    for_each_block(&z, board, link.symmetry, tau, |r, ir, orders| {
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
                e.set(&mut kept, n, v);
                n += 1;
            } else if e.get(entries, j) != v {
                return Err(asymmetric(i, j));
            }
        }
        Ok(())
    })?;
    Ok(kept)
}

/// The entries (`raw_len` bytes) of a table with `link`: from `kept` (the decoded frame of a
/// table linked to itself) or from `source` (the entries of an earlier table).
pub fn decode(
    board: Board,
    link: Link,
    tau: &[usize],
    encoding: Encoding,
    raw_len: u64,
    kept: &[u8],
    source: Option<&[u8]>,
) -> Result<Vec<u8>, String> {
    // At least half the entries are kept: a short stream is refused before any allocation.
    if source.is_none() && kept.len() as u64 * 2 + 2 < raw_len {
        return Err(format!(
            "{} bytes of kept entries, fewer than half the table's {raw_len}",
            kept.len()
        ));
    }
    let z = index_for(board, tau.len())?;
    let e = Entries(encoding);
    if encoding.encoded_len(z.len()) != raw_len {
        return Err("the entry count does not match the index".into());
    }
    let ob = z.order_count();
    let mut out = vec![0u8; raw_len as usize];
    let mut n = 0u64;
    let kept_len = kept.len() as u64 * e.per_byte();
    let short = || "the kept entries end early".to_string();
    match source {
        Some(src) => {
            if src.len() != out.len() {
                return Err("the source table has another length".into());
            }
            for_each_block(&z, board, link.symmetry, tau, |r, ir, orders| {
                for (o, &io) in orders.iter().enumerate() {
                    let v = e.get(src, r as u64 * ob + o as u64);
                    e.set(&mut out, ir as u64 * ob + io as u64, v);
                }
                Ok(())
            })?;
        }
        None => {
            for_each_block(&z, board, link.symmetry, tau, |r, ir, orders| {
                let base = r as u64 * ob;
                if r < ir {
                    if n + ob > kept_len {
                        return Err(short());
                    }
                    for o in 0..ob {
                        e.set(&mut out, base + o, e.get(kept, n + o));
                    }
                    n += ob;
                } else if r > ir {
                    let image = ir as u64 * ob;
                    for (o, &io) in orders.iter().enumerate() {
                        let v = e.get(&out, image + io as u64);
                        e.set(&mut out, base + o as u64, v);
                    }
                } else {
                    for (o, &io) in orders.iter().enumerate() {
                        let (o, io) = (o as u64, io as u64);
                        let v = if o <= io {
                            if n >= kept_len {
                                return Err(short());
                            }
                            n += 1;
                            e.get(kept, n - 1)
                        } else {
                            e.get(&out, base + io)
                        };
                        e.set(&mut out, base + o, v);
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
    Ok(out)
}

fn index_for(board: Board, k: usize) -> Result<ZeroAwareIndex, String> {
    ZeroAwareIndex::new(board, k).map_err(|e| e.to_string())
}
