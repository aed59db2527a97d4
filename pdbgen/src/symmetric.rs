//! Symmetric patterns built once: a table whose pattern is the image of an earlier pattern
//! under a board symmetry that fixes the goal's blank cell is derived from that table.
//!
//! Tiles are only names for goal cells, so when a symmetry `S` of the board fixes the blank's
//! goal cell and maps the goal cells of pattern `A` onto those of pattern `B`, the abstract
//! distance of a `B` state is the distance of the `A` state it comes from under `S`: each `B`
//! tile on cell `c` stands for the `A` tile whose goal cell is `S⁻¹` of its own, on cell
//! `S⁻¹(c)`, and the blank (or its free region) moves the same way. Deriving `B` is one pass
//! over its index (unrank, map, rank in `A`, copy the entry) instead of a breadth-first search,
//! and it works on the encoded entries directly (`u8`, `u4` or `bit1`), so a `bit1` build never
//! holds a byte per entry for a derived table either.

use pdbformat::format::Encoding;
use pdbformat::rank::{IndexError, TableIndex};
use pdbformat::{Goal, Pattern, Symmetry, TableKind};
use rayon::prelude::*;

/// Where a derived table comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Image {
    /// The table (an earlier pattern of the partition) it is derived from.
    pub source: usize,
    /// The symmetry that maps the source pattern's goal cells onto this pattern's.
    pub symmetry: Symmetry,
}

/// The symmetries of `goal`'s board other than the identity that keep the blank's goal cell in
/// place (the transpose for a corner blank on a square board; none on most rectangles).
pub fn blank_fixing_symmetries(goal: &Goal) -> Vec<Symmetry> {
    let board = goal.board();
    let blank = goal.blank_cell();
    Symmetry::of_board(board)
        .into_iter()
        .filter(|&s| s != Symmetry::Identity && s.map(board, blank) == blank)
        .collect()
}

/// Whether `symmetry` maps the goal cells of `source` onto those of `target`.
pub fn maps_onto(goal: &Goal, symmetry: Symmetry, source: &Pattern, target: &Pattern) -> bool {
    let board = goal.board();
    let mask = |p: &Pattern, s: Symmetry| {
        p.tiles().iter().fold(0u64, |m, &t| {
            m | 1 << s.map(board, goal.cell_of(t as usize))
        })
    };
    source.len() == target.len() && mask(source, symmetry) == mask(target, Symmetry::Identity)
}

/// The earliest pattern before `patterns[i]` whose image under a blank-fixing symmetry it is,
/// or `None` when its table has to be searched.
pub fn image_of(goal: &Goal, patterns: &[Pattern], i: usize) -> Option<Image> {
    let syms = blank_fixing_symmetries(goal);
    (0..i).find_map(|j| {
        syms.iter()
            .find(|&&s| maps_onto(goal, s, &patterns[j], &patterns[i]))
            .map(|&symmetry| Image {
                source: j,
                symmetry,
            })
    })
}

/// The most tile orders (`k!`) a worker tabulates per cell set (9 tiles: 362,880 orders).
const MAX_ORDER_TABLE: u64 = 362_880;

/// Entries per parallel work item (a multiple of 8, so that no encoded byte is shared).
const CHUNK_ENTRIES: u64 = 1 << 16;

/// Derives the encoded entries of `target`'s table from `source_bytes`, the encoded entries
/// (`encoding`) of `source`'s table of the same `kind`, given that `symmetry` maps `source`'s
/// goal cells onto `target`'s ([`maps_onto`]).
///
/// # Panics
/// When `symmetry` does not map `source` onto `target`, or `source_bytes` is not a whole
/// encoded table.
pub fn derive_table(
    goal: &Goal,
    source: &Pattern,
    source_bytes: &[u8],
    target: &Pattern,
    symmetry: Symmetry,
    kind: TableKind,
    encoding: Encoding,
) -> Result<Vec<u8>, IndexError> {
    assert!(
        maps_onto(goal, symmetry, source, target),
        "{symmetry:?} does not map pattern {source} onto {target}"
    );
    let board = goal.board();
    let k = source.len();
    let index = TableIndex::new(board, k, kind)?;
    let n = index.len();
    assert_eq!(
        source_bytes.len() as u64,
        encoding.encoded_len(n),
        "the source table has the wrong length"
    );
    let back: Vec<u8> = symmetry
        .inverse()
        .table(board)
        .into_iter()
        .map(|c| c as u8)
        .collect();
    // Target tile order position -> source tile order position.
    let from: Vec<usize> = target
        .tiles()
        .iter()
        .map(|&q| {
            let p = goal.tile_at(back[goal.cell_of(q as usize)] as usize) as u8;
            source
                .tiles()
                .iter()
                .position(|&t| t == p)
                .expect("the symmetry maps the source onto the target")
        })
        .collect();
    let per_byte = match encoding {
        Encoding::U8 => 1,
        Encoding::U4 => 2,
        Encoding::Bit1 => 8,
    };
    let get = |i: u64| -> u8 {
        match encoding {
            Encoding::U8 => source_bytes[i as usize],
            Encoding::U4 => (source_bytes[(i / 2) as usize] >> (4 * (i % 2))) & 0x0F,
            Encoding::Bit1 => (source_bytes[(i / 8) as usize] >> (i % 8)) & 1,
        }
    };
    let mut out = vec![0u8; encoding.encoded_len(n) as usize];
    let chunk_bytes = (CHUNK_ENTRIES / per_byte) as usize;
    let shift = 8 / per_byte;
    out.par_chunks_mut(chunk_bytes)
        .enumerate()
        .for_each(|(c, bytes)| {
            let mut source_of = SourceIndex::new(&index, &back, &from, MAX_ORDER_TABLE);
            let first = c as u64 * CHUNK_ENTRIES;
            for (b, byte) in bytes.iter_mut().enumerate() {
                let mut packed = 0u8;
                for j in 0..per_byte {
                    let i = first + b as u64 * per_byte + j;
                    if i >= n {
                        break;
                    }
                    packed |= get(source_of.of(i)) << (shift * j);
                }
                *byte = packed;
            }
        });
    Ok(out)
}

/// Maps target indexes to source indexes, one worker's state. For zero-aware indexes it keeps
/// what depends only on the target's cell set (the source's set, and a table from target tile
/// order to source tile order) and its region (the source's region) while consecutive indexes
/// stay in them, so that most indexes cost one table lookup; zero-unaware indexes are unranked,
/// mapped and ranked one by one.
struct SourceIndex<'a> {
    index: &'a TableIndex,
    back: &'a [u8],
    from: &'a [usize],
    cells: Vec<u8>,
    mapped: Vec<u8>,
    /// Target region (global number) whose source region is `source_base`, if any yet.
    region: Option<u64>,
    /// The first index of that region (`u64::MAX` before there is one).
    first: u64,
    /// Target cell set whose tile order map `orders` holds, if any yet.
    set: Option<usize>,
    source_set: usize,
    source_base: u64,
    orders: Vec<u32>,
    /// Above this many tile orders, no table of them.
    max_orders: u64,
}

impl<'a> SourceIndex<'a> {
    fn new(
        index: &'a TableIndex,
        back: &'a [u8],
        from: &'a [usize],
        max_orders: u64,
    ) -> SourceIndex<'a> {
        let k = from.len();
        SourceIndex {
            index,
            back,
            from,
            cells: vec![0; k],
            mapped: vec![0; k],
            region: None,
            first: u64::MAX,
            set: None,
            source_set: 0,
            source_base: 0,
            orders: Vec::new(),
            max_orders,
        }
    }

    /// The cells of `cells` mapped through the symmetry and into the source's tile order.
    fn map_cells(&mut self) {
        for (t, &c) in self.cells.iter().enumerate() {
            self.mapped[self.from[t]] = self.back[c as usize];
        }
    }

    /// The source index of target index `i`.
    #[inline]
    fn of(&mut self, i: u64) -> u64 {
        let za = match self.index {
            TableIndex::ZeroAware(za) => za,
            TableIndex::Permutation(_) => {
                let blank = self.index.unrank(i, &mut self.cells);
                self.map_cells();
                return self.index.index(&self.mapped, self.back[blank] as usize);
            }
        };
        let orders = za.order_count();
        if self.first <= i && i < self.first + orders {
            // Still in the current region: no division.
            return self.source_base + u64::from(self.orders[(i - self.first) as usize]);
        }
        let region = i / orders;
        if orders > self.max_orders {
            // Patterns of more than 9 tiles: no table of tile orders, one order at a time.
            let blank = za.unrank(i, &mut self.cells);
            self.map_cells();
            return za.index(&self.mapped, self.back[blank] as usize);
        }
        if self.region != Some(region) {
            let blank = za.unrank(region * orders, &mut self.cells);
            let occ = self.cells.iter().fold(0u64, |m, &c| m | 1 << c);
            let set = za.set_rank(occ);
            if self.set != Some(set) {
                let source_occ = self
                    .cells
                    .iter()
                    .fold(0u64, |m, &c| m | 1 << self.back[c as usize]);
                self.source_set = za.set_rank(source_occ);
                self.orders.clear();
                for o in 0..orders {
                    za.place_tiles(occ, o, &mut self.cells);
                    self.map_cells();
                    self.orders
                        .push(za.order_rank(&self.mapped, source_occ) as u32);
                }
                self.set = Some(set);
            }
            let source_region = za.region_at(self.source_set, self.back[blank] as usize);
            self.source_base = source_region as u64 * orders;
            self.region = Some(region);
            self.first = region * orders;
        }
        self.source_base + u64::from(self.orders[(i % orders) as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::twobit::build_bit1_table;
    use crate::{build_table, NoProgress};
    use pdbformat::format::encode_entries;
    use pdbformat::Board;

    fn pattern(board: Board, tiles: &[usize]) -> Pattern {
        Pattern::new(board, tiles).unwrap()
    }

    /// The transpose of `tiles`' goal cells, as the tiles on those cells.
    fn transposed(goal: &Goal, tiles: &[usize]) -> Vec<usize> {
        let board = goal.board();
        tiles
            .iter()
            .map(|&t| goal.tile_at(Symmetry::Transpose.map(board, goal.cell_of(t))))
            .collect()
    }

    /// (board side, goal, source pattern): square boards with the blank on the main diagonal.
    fn cases() -> Vec<(usize, &'static str, Vec<usize>)> {
        vec![
            (3, "blank-first", vec![1, 2]),
            (3, "blank-first", vec![1, 2, 5]),
            (3, "blank-last", vec![1, 2, 3]),
            (4, "blank-first", vec![1, 2, 3]),
            (4, "blank-first", vec![2, 3, 7, 11]),
            (4, "blank-last", vec![1, 2, 3, 4, 7]),
            // The blank in the middle of the diagonal.
            (3, "1 2 3 4 0 5 6 7 8", vec![1, 2, 3]),
        ]
    }

    /// A table derived through a board symmetry equals, entry for entry, the table of the same
    /// pattern built by its own BFS, for every kind and encoding, from the byte BFS's entries
    /// and from the two-bit BFS's payload.
    #[test]
    fn derived_tables_equal_independent_builds() {
        for (side, g, tiles) in cases() {
            let board = Board::new(side, side).unwrap();
            let goal = Goal::parse(board, g).unwrap();
            let a = Pattern::new(board, &tiles).unwrap();
            let b = Pattern::new(board, &transposed(&goal, &tiles)).unwrap();
            assert_ne!(a, b);
            assert!(maps_onto(&goal, Symmetry::Transpose, &a, &b));
            for kind in [TableKind::ZeroAware, TableKind::ZeroUnaware] {
                let ta = build_table(&goal, &a, kind, Some(2), 0, &NoProgress).unwrap();
                let tb = build_table(&goal, &b, kind, Some(2), 0, &NoProgress).unwrap();
                let mut encodings = vec![Encoding::U8];
                if ta.iter().all(|&v| v <= 15) {
                    encodings.push(Encoding::U4);
                }
                if kind == TableKind::ZeroAware {
                    encodings.push(Encoding::Bit1);
                }
                for enc in encodings {
                    let derived = derive_table(
                        &goal,
                        &a,
                        &encode_entries(&ta, enc),
                        &b,
                        Symmetry::Transpose,
                        kind,
                        enc,
                    )
                    .unwrap();
                    assert_eq!(
                        derived,
                        encode_entries(&tb, enc),
                        "{side}x{side} {g} {tiles:?} {kind} {enc}"
                    );
                }
            }
            // From the two-bit BFS's payload as well.
            let (pa, _) = build_bit1_table(&goal, &a, 0, &NoProgress, None).unwrap();
            let (pb, _) = build_bit1_table(&goal, &b, 0, &NoProgress, None).unwrap();
            let derived = derive_table(
                &goal,
                &a,
                &pa,
                &b,
                Symmetry::Transpose,
                TableKind::ZeroAware,
                Encoding::Bit1,
            )
            .unwrap();
            assert_eq!(&derived[..], &pb[..], "{side}x{side} {g} {tiles:?} two-bit");
        }
    }

    #[test]
    fn finds_the_transpose_for_a_corner_blank_only() {
        let board = Board::new(4, 4).unwrap();
        let goal = Goal::blank_first(board);
        assert_eq!(blank_fixing_symmetries(&goal), vec![Symmetry::Transpose]);
        let goal = Goal::blank_last(board);
        assert_eq!(blank_fixing_symmetries(&goal), vec![Symmetry::Transpose]);
        let rect = Goal::blank_first(Board::new(3, 2).unwrap());
        assert!(blank_fixing_symmetries(&rect).is_empty());
        // A 3x3 board with the blank in the centre keeps it under all eight symmetries.
        let b3 = Board::new(3, 3).unwrap();
        let centre = Goal::from_tiles(b3, &[1, 2, 3, 4, 0, 5, 6, 7, 8]).unwrap();
        assert_eq!(blank_fixing_symmetries(&centre).len(), 7);
    }

    #[test]
    fn the_order_table_agrees_with_one_order_at_a_time() {
        // 4x4, blank first: {2, 3, 7, 11} and its transpose {8, 12, 13, 14}.
        let board = Board::new(4, 4).unwrap();
        let goal = Goal::blank_first(board);
        let (a, b) = (
            pattern(board, &[2, 3, 7, 11]),
            pattern(board, &[8, 12, 13, 14]),
        );
        assert!(maps_onto(&goal, Symmetry::Transpose, &a, &b));
        let back: Vec<u8> = Symmetry::Transpose
            .table(board)
            .into_iter()
            .map(|c| c as u8)
            .collect();
        // Target tile order 8, 12, 13, 14 comes from tiles 2, 3, 7, 11 in that order.
        let from = [0, 1, 2, 3];
        let index = TableIndex::new(board, 4, TableKind::ZeroAware).unwrap();
        let mut tabled = SourceIndex::new(&index, &back, &from, MAX_ORDER_TABLE);
        let mut single = SourceIndex::new(&index, &back, &from, 0);
        let mut seen = vec![false; index.len() as usize];
        for i in 0..index.len() {
            let s = tabled.of(i);
            assert_eq!(s, single.of(i), "index {i}");
            assert!(!std::mem::replace(&mut seen[s as usize], true), "index {i}");
        }
    }

    #[test]
    fn finds_images_among_earlier_patterns() {
        let board = Board::new(4, 4).unwrap();
        let goal = Goal::blank_first(board);
        let ps = vec![
            pattern(board, &[1, 2, 3]),
            pattern(board, &[5, 6]),
            pattern(board, &[4, 8, 12]),
            pattern(board, &[7, 9]),
        ];
        assert_eq!(image_of(&goal, &ps, 0), None);
        assert_eq!(image_of(&goal, &ps, 1), None);
        assert_eq!(
            image_of(&goal, &ps, 2),
            Some(Image {
                source: 0,
                symmetry: Symmetry::Transpose
            })
        );
        // The transpose of {5, 6} is {1, 6}, not {7, 9}.
        assert_eq!(image_of(&goal, &ps, 3), None);
    }
}
