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
    out.par_chunks_mut(chunk_bytes)
        .enumerate()
        .for_each(|(c, bytes)| {
            let mut cells = vec![0u8; k];
            let mut mapped = vec![0u8; k];
            let first = c as u64 * CHUNK_ENTRIES;
            for (b, byte) in bytes.iter_mut().enumerate() {
                let mut packed = 0u8;
                for j in 0..per_byte {
                    let i = first + b as u64 * per_byte + j;
                    if i >= n {
                        break;
                    }
                    let blank = index.unrank(i, &mut cells);
                    for (t, &c) in cells.iter().enumerate() {
                        mapped[from[t]] = back[c as usize];
                    }
                    let v = get(index.index(&mapped, back[blank] as usize));
                    packed |= v << ((8 / per_byte) * j);
                }
                *byte = packed;
            }
        });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdbformat::Board;

    fn pattern(board: Board, tiles: &[usize]) -> Pattern {
        Pattern::new(board, tiles).unwrap()
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
