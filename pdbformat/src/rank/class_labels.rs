//! Which class each tile of a class board is known by ([`ClassLabels`]): the row of its goal
//! cell, its column, or a class given for every goal cell ([`CellClasses`]), such as
//! Rokicki's labelling of the 4x4, whose classes follow neither rows nor columns; and the
//! text form users give (`rows`, `rokicki`, or tile groups such as `1,2,4,5/3,6,7/…`).

use crate::board::Board;
use crate::goal::Goal;
use crate::pattern::Pattern;
use crate::presets::Preset;
use std::fmt;

/// Which class each tile is known by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassLabels {
    /// The goal row (tables looked up as they are, and transposed on square boards).
    Rows,
    /// The goal column (for boards where the transposed row lookup does not apply).
    Columns,
    /// A class given for every goal cell.
    Cells(CellClasses),
}

impl ClassLabels {
    /// The name used in reports: `rows`, `columns` or `labelled`.
    pub fn name(self) -> &'static str {
        match self {
            ClassLabels::Rows => "rows",
            ClassLabels::Columns => "columns",
            ClassLabels::Cells(_) => "labelled",
        }
    }

    /// The class of a tile whose goal cell is `cell` ([`CellClasses::NONE`] for the blank's
    /// goal cell of a [`ClassLabels::Cells`] labelling).
    #[inline]
    pub fn class_of(self, board: Board, cell: usize) -> usize {
        match self {
            ClassLabels::Rows => board.row(cell),
            ClassLabels::Columns => board.col(cell),
            ClassLabels::Cells(c) => c.class[cell] as usize,
        }
    }

    /// How many classes the board has under this labelling.
    pub fn classes(self, board: Board) -> usize {
        match self {
            ClassLabels::Rows => board.height(),
            ClassLabels::Columns => board.width(),
            ClassLabels::Cells(c) => c.classes(),
        }
    }
}

/// `goal-rows`, `goal-columns`, or `labelled (goal cells 1,2,4,5/…)`.
impl fmt::Display for ClassLabels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClassLabels::Cells(c) => write!(f, "labelled (goal cells {c})"),
            _ => write!(f, "goal-{}", self.name()),
        }
    }
}

/// A class for every goal cell but the blank's: the labelling of a class table that follows
/// neither goal rows nor goal columns. Classes are numbered from 0 and none is empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellClasses {
    /// The class of each goal cell; [`CellClasses::NONE`] on the blank's and past the board.
    class: [u8; 64],
    cells: u8,
    classes: u8,
}

impl CellClasses {
    /// The class of no cell: the blank's goal cell.
    pub const NONE: u8 = u8::MAX;

    /// The labelling of `goal` that gives every tile of `groups[c]` class `c`. Every tile
    /// (1 to N-1) must be in exactly one group, and no group may be empty.
    pub fn from_tile_groups(goal: &Goal, groups: &[Vec<usize>]) -> Result<CellClasses, String> {
        let n = goal.board().cells();
        let mut by_tile = vec![CellClasses::NONE; n];
        if groups.len() >= CellClasses::NONE as usize {
            return Err(format!("{} classes; at most 254", groups.len()));
        }
        for (c, group) in groups.iter().enumerate() {
            if group.is_empty() {
                return Err(format!("class {c} has no tile"));
            }
            for &t in group {
                if t == 0 || t >= n {
                    return Err(format!("tile {t} is not a tile of the {}", goal.board()));
                }
                if by_tile[t] != CellClasses::NONE {
                    return Err(format!("tile {t} is in two classes"));
                }
                by_tile[t] = c as u8;
            }
        }
        CellClasses::from_tiles(goal, &by_tile[1..])
    }

    /// The labelling of `goal` that gives tile `t` class `by_tile[t - 1]` (as a file stores
    /// it). Every class from 0 to the largest must have a tile.
    pub fn from_tiles(goal: &Goal, by_tile: &[u8]) -> Result<CellClasses, String> {
        let board = goal.board();
        let n = board.cells();
        if n > 64 {
            return Err("boards of at most 64 cells are supported".into());
        }
        if by_tile.len() != n - 1 {
            return Err(format!(
                "{} classes given for {} tiles",
                by_tile.len(),
                n - 1
            ));
        }
        let mut class = [CellClasses::NONE; 64];
        for (i, &c) in by_tile.iter().enumerate() {
            if c == CellClasses::NONE {
                return Err(format!("tile {} has no class", i + 1));
            }
            class[goal.cell_of(i + 1)] = c;
        }
        let classes = by_tile.iter().max().map_or(0, |&m| m as usize + 1);
        if let Some(c) = (0..classes).find(|&c| !by_tile.contains(&(c as u8))) {
            return Err(format!("class {c} has no tile"));
        }
        Ok(CellClasses {
            class,
            cells: n as u8,
            classes: classes as u8,
        })
    }

    /// The class of tile `t`, for tiles 1 to N-1 of `goal` (as a file stores it).
    pub fn by_tile(&self, goal: &Goal) -> Vec<u8> {
        (1..self.cells as usize)
            .map(|t| self.class[goal.cell_of(t)])
            .collect()
    }

    /// The class of the tile whose goal cell is `cell` ([`CellClasses::NONE`] for the
    /// blank's).
    pub fn class(&self, cell: usize) -> u8 {
        self.class[cell]
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.classes as usize
    }

    /// Number of cells of the board the labelling is of.
    pub fn cells(&self) -> usize {
        self.cells as usize
    }
}

impl fmt::Debug for CellClasses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CellClasses({self})")
    }
}

/// The goal cells of each class, classes separated by `/`: `1,2,4,5/3,6,7,10,11/…`.
impl fmt::Display for CellClasses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in 0..self.classes {
            if c > 0 {
                f.write_str("/")?;
            }
            let cells: Vec<String> = (0..self.cells as usize)
                .filter(|&x| self.class[x] == c)
                .map(|x| x.to_string())
                .collect();
            f.write_str(&cells.join(","))?;
        }
        Ok(())
    }
}

/// Rokicki's labelling of the 4x4 (the one slidy's optimal MTM solver uses, there written
/// for the blank on the bottom-right cell as tiles {1,2}, {3,4,7,8}, {5,6,9,10,13},
/// {11,12,14,15}), turned by 180 degrees.
const PRESETS: &[Preset] = &[
    Preset {
        name: "rokicki",
        width: 4,
        height: 4,
        cells: &[
            &[1, 2, 4, 5],
            &[3, 6, 7, 10, 11],
            &[8, 9, 12, 13],
            &[14, 15],
        ],
    },
    // Rokicki's labelling reflected left to right, the blank's goal cell and the corner it
    // lands on exchanged: the same class sizes in other shapes. Beside goal rows and
    // Rokicki's it cuts the nodes of Korf's 100 in MTM to 0.59.
    Preset {
        name: "rokicki-mirror",
        width: 4,
        height: 4,
        cells: &[
            &[1, 2, 6, 7],
            &[3, 4, 5, 8, 9],
            &[10, 11, 14, 15],
            &[12, 13],
        ],
    },
];

impl ClassLabels {
    /// Parses a labelling for `goal`: `rows`, `columns`, a preset (`rokicki` and
    /// `rokicki-mirror` on 4x4, mapped
    /// onto `goal` through the board symmetry that takes the top-left cell to the goal's
    /// blank cell), or the tiles of each class separated by `/`, each class as a pattern is
    /// written (`1,2,4,5/3,6,7,10,11/8,9,12,13/14,15`); every tile in exactly one class.
    pub fn parse(goal: &Goal, spec: &str) -> Result<ClassLabels, String> {
        let board = goal.board();
        let spec = spec.trim();
        match spec {
            "rows" => return Ok(ClassLabels::Rows),
            "columns" => return Ok(ClassLabels::Columns),
            _ => {}
        }
        if let Some(p) = PRESETS.iter().find(|p| p.name == spec) {
            if (p.width, p.height) != (board.width(), board.height()) {
                return Err(format!(
                    "the {} labelling is of the {}x{}",
                    p.name, p.width, p.height
                ));
            }
            let groups = p.tiles_for(goal).ok_or_else(|| {
                format!(
                    "the {} labelling needs a goal with the blank on a corner",
                    p.name
                )
            })?;
            return CellClasses::from_tile_groups(goal, &groups).map(ClassLabels::Cells);
        }
        if !spec.contains('/') {
            let known: Vec<&str> = (PRESETS.iter())
                .filter(|p| (p.width, p.height) == (board.width(), board.height()))
                .map(|p| p.name)
                .chain(["rows", "columns"])
                .collect();
            return Err(format!(
                "unknown labelling {spec:?}: known on {board}: {}, or tile groups such as 1,2/3-8",
                known.join(", ")
            ));
        }
        let groups = spec
            .split('/')
            .map(|g| {
                Pattern::parse(board, g).map(|p| p.tiles().iter().map(|&t| t as usize).collect())
            })
            .collect::<Result<Vec<Vec<usize>>, _>>()
            .map_err(|e| e.to_string())?;
        CellClasses::from_tile_groups(goal, &groups).map(ClassLabels::Cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rokicki_on_both_corners() {
        let first = Goal::blank_first(Board::new(4, 4).unwrap());
        let ClassLabels::Cells(l) = ClassLabels::parse(&first, "rokicki").unwrap() else {
            panic!("a labelling")
        };
        assert_eq!(l.to_string(), "1,2,4,5/3,6,7,10,11/8,9,12,13/14,15");
        // The blank-last goal: slidy's classes of tiles {1,2}, {3,4,7,8}, {5,6,9,10,13},
        // {11,12,14,15}, in some order.
        let last = Goal::blank_last(first.board());
        let ClassLabels::Cells(l) = ClassLabels::parse(&last, "rokicki").unwrap() else {
            panic!("a labelling")
        };
        let mut groups: Vec<Vec<usize>> = (0..l.classes())
            .map(|c| {
                (1..16)
                    .filter(|&t| l.class(last.cell_of(t)) == c as u8)
                    .collect()
            })
            .collect();
        groups.sort();
        let want = [
            vec![1, 2],
            vec![3, 4, 7, 8],
            vec![5, 6, 9, 10, 13],
            vec![11, 12, 14, 15],
        ];
        assert_eq!(groups, want);
        let ClassLabels::Cells(m) = ClassLabels::parse(&first, "rokicki-mirror").unwrap() else {
            panic!("a labelling")
        };
        assert_eq!(m.to_string(), "1,2,6,7/3,4,5,8,9/10,11,14,15/12,13");
    }

    #[test]
    fn text_forms() {
        let three = Goal::blank_first(Board::new(3, 3).unwrap());
        assert_eq!(ClassLabels::parse(&three, "rows"), Ok(ClassLabels::Rows));
        assert_eq!(
            ClassLabels::parse(&three, " columns "),
            Ok(ClassLabels::Columns)
        );
        let ClassLabels::Cells(l) = ClassLabels::parse(&three, "1-4/5,6 7,8").unwrap() else {
            panic!("a labelling")
        };
        assert_eq!(l.by_tile(&three), vec![0, 0, 0, 0, 1, 1, 1, 1]);
        for bad in [
            "rokicki",
            "diagonals",
            "1-4/5-7",
            "1-4/4-8",
            "1-4/5-9",
            "1-4//5-8",
            "a/b",
        ] {
            assert!(ClassLabels::parse(&three, bad).is_err(), "{bad}");
        }
        let tiles: Vec<u16> = (0..16).map(|c| (c + 11) % 16).collect();
        let odd = Goal::from_tiles(Board::new(4, 4).unwrap(), &tiles).unwrap();
        assert_eq!(odd.blank_cell(), 5);
        assert!(
            ClassLabels::parse(&odd, "rokicki").is_err(),
            "blank off the corners"
        );
    }
}
