//! The named partitions (`78`, `663`, `6666x7`, …) in goal cells for a blank on cell 0, the
//! `bandsK` rule that makes one for any board, and the mapping of either onto a goal.

use crate::board::Board;
use crate::goal::Goal;
use crate::symmetry::Symmetry;

/// A named set of tile groups (a partition here, a labelling in `rank/class_labels.rs`),
/// defined by goal cells for a goal with the blank on cell 0.
pub(crate) struct Preset {
    pub(crate) name: &'static str,
    pub(crate) width: usize,
    pub(crate) height: usize,
    /// The groups; overlapping patterns make a compound ([`Partition::compound`]).
    pub(crate) cells: &'static [&'static [usize]],
}

impl Preset {
    /// The tiles of each group for `goal` ([`tiles_for`]).
    pub(crate) fn tiles_for(&self, goal: &Goal) -> Option<Vec<Vec<usize>>> {
        let cells: Vec<Vec<usize>> = self.cells.iter().map(|c| c.to_vec()).collect();
        tiles_for(&cells, goal)
    }
}

pub(crate) const PRESETS: &[Preset] = &[
    // The top two rows and the bottom two rows (Korf & Felner).
    Preset {
        name: "78",
        width: 4,
        height: 4,
        cells: &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
    },
    // A second 7-8 for catalogues: the top-left staircase (cells 1-5, 8, 9) and the rest. It
    // cuts the board along the anti-diagonal, so neither it nor its transpose shares a pattern
    // with "78" (rows) or with the transposed "78" (columns): taking the maximum with them
    // raises the heuristic most (BENCHMARKS.md, "Solver: catalogues").
    Preset {
        name: "78b",
        width: 4,
        height: 4,
        cells: &[&[1, 2, 3, 4, 5, 8, 9], &[6, 7, 10, 11, 12, 13, 14, 15]],
    },
    // Left block, right block, bottom row.
    Preset {
        name: "663",
        width: 4,
        height: 4,
        cells: &[&[1, 4, 5, 8, 9, 12], &[2, 3, 6, 7, 10, 11], &[13, 14, 15]],
    },
    // Three connected blocks of five.
    Preset {
        name: "555",
        width: 4,
        height: 4,
        cells: &[&[1, 4, 5, 8, 12], &[2, 3, 6, 7, 11], &[9, 10, 13, 14, 15]],
    },
    // The four blocks of Korf & Felner's 24-puzzle tables.
    Preset {
        name: "6666",
        width: 5,
        height: 5,
        cells: &[
            &[1, 2, 5, 6, 7, 12],
            &[3, 4, 8, 9, 13, 14],
            &[10, 11, 15, 16, 20, 21],
            &[17, 18, 19, 22, 23, 24],
        ],
    },
    // A 6-6-6-6 that the transpose maps onto itself: the second and third blocks are each
    // other's mirror images across the main diagonal and the first and last are their own, so
    // `pdbgen` searches three tables and derives the third block's from the second's (the
    // transpose fixes the corner blank). No partition of the 24-puzzle into four patterns can
    // be two mirror pairs: the four diagonal cells must lie in patterns that are their own image.
    Preset {
        name: "6666s",
        width: 5,
        height: 5,
        cells: &[
            &[1, 5, 6, 12, 13, 17],
            &[2, 3, 4, 7, 8, 9],
            &[10, 11, 15, 16, 20, 21],
            &[14, 18, 19, 22, 23, 24],
        ],
    },
    // Two more 6-6-6-6 for catalogues with "6666" (and, through reflection, their transposes):
    // 2×3 blocks shifted against Korf & Felner's, so that no pattern of one is a pattern of
    // another or of its mirror image. "6666b": the top-left 2×3 block, the right column pair
    // of rows 1-3 with 4, the left column pair of rows 1-3 with 20, and the bottom-right rest.
    Preset {
        name: "6666b",
        width: 5,
        height: 5,
        cells: &[
            &[1, 2, 3, 6, 7, 8],
            &[4, 9, 13, 14, 18, 19],
            &[5, 10, 11, 15, 16, 20],
            &[12, 17, 21, 22, 23, 24],
        ],
    },
    // "6666c": two columns of three (the left block's cells 1, 2, 6, 7, 11, 12), the top
    // right block reaching down to 19, the bottom-left block, and the bottom-right block with
    // 13. Chosen by a search over compact partitions for none of whose patterns (nor their
    // mirror images) is a pattern of "6666" or "6666b" or their mirror images.
    Preset {
        name: "6666c",
        width: 5,
        height: 5,
        cells: &[
            &[1, 2, 6, 7, 11, 12],
            &[3, 4, 8, 9, 14, 19],
            &[5, 10, 15, 16, 20, 21],
            &[13, 17, 18, 22, 23, 24],
        ],
    },
    // A 7-7-5-5 that the transpose maps onto itself: the top two rows less cells 5 and 6, its
    // mirror image (the left two columns less cells 1 and 6), and two 5-tile patterns that
    // are each their own image (the inner 2×2 block with cell 6, and the bottom-right corner
    // with its two arms). `pdbgen` searches one 7-tile table and derives the other.
    Preset {
        name: "7755s",
        width: 5,
        height: 5,
        cells: &[
            &[1, 2, 3, 4, 7, 8, 9],
            &[5, 10, 11, 15, 16, 20, 21],
            &[6, 12, 13, 17, 18],
            &[14, 19, 22, 23, 24],
        ],
    },
    // Clausecker's "small" catalogue of the 24-puzzle (its catalogues/small-compound.cat):
    // seven 6-6-6-6 partitions over these fourteen 6-tile patterns, each stored once. The
    // first four patterns are Korf & Felner's partition; the seven exact covers of the tiles
    // are the catalogue's seven partitions (a test checks it). With the transposed view,
    // fourteen sums.
    Preset {
        name: "6666x7",
        width: 5,
        height: 5,
        cells: &[
            &[1, 5, 6, 10, 11, 12],
            &[2, 3, 4, 7, 8, 9],
            &[13, 14, 18, 19, 23, 24],
            &[15, 16, 17, 20, 21, 22],
            &[1, 2, 5, 6, 10, 11],
            &[3, 4, 7, 8, 9, 12],
            &[13, 14, 15, 16, 17, 18],
            &[19, 20, 21, 22, 23, 24],
            &[1, 5, 6, 10, 15, 20],
            &[11, 12, 16, 17, 21, 22],
            &[3, 4, 9, 14, 19, 24],
            &[7, 8, 12, 13, 18, 23],
            &[11, 12, 13, 16, 17, 18],
            &[14, 19, 21, 22, 23, 24],
        ],
    },
];

/// The groups of goal cells of the partition called `name` on `board`: a preset of that board,
/// or `bandsK` (K from 2 to 9: cells 1, 2, … cut into groups of K row by row, the last group
/// what is left). `None` when there is none.
pub(crate) fn cells_of(board: Board, name: &str) -> Option<Vec<Vec<usize>>> {
    if let Some(k) = name.strip_prefix("bands") {
        let k: usize = k.parse().ok().filter(|k| (2..=9).contains(k))?;
        let cells: Vec<usize> = (1..board.cells()).collect();
        return Some(cells.chunks(k).map(<[usize]>::to_vec).collect());
    }
    PRESETS
        .iter()
        .find(|p| p.name == name && p.width == board.width() && p.height == board.height())
        .map(|p| p.cells.iter().map(|c| c.to_vec()).collect())
}

/// The tiles of each group of goal cells for `goal`, mapped through the board symmetry that
/// takes the top-left cell to the goal's blank cell; `None` when none does (the blank is not
/// on a corner, or on a corner no symmetry of a rectangle reaches).
pub(crate) fn tiles_for(groups: &[Vec<usize>], goal: &Goal) -> Option<Vec<Vec<usize>>> {
    let board = goal.board();
    let sym = Symmetry::taking(board, 0, goal.blank_cell())?;
    let group = |cells: &[usize]| -> Vec<usize> {
        cells
            .iter()
            .map(|&c| goal.tile_at(sym.map(board, c)))
            .collect()
    };
    Some(groups.iter().map(|c| group(c)).collect())
}
