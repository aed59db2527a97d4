//! The walking distance of the multi-tile metric (MTM): the sum of a vertical and a horizontal
//! abstraction's exact multi-tile distances (`table.rs`), a lower bound on the MTM distance.
//!
//! The vertical abstraction keeps, per row, how many tiles of each goal row it holds, and the
//! blank's row; the horizontal one the same over columns. A multi-tile move is either vertical
//! or horizontal and leaves the other abstraction unchanged, so a solution makes at least as
//! many vertical moves as the vertical distance and as many horizontal moves as the horizontal
//! one: the sum is admissible in MTM, and so in the single-tile metric too (weaker there than
//! Manhattan distance with linear conflicts).
//!
//! The estimate is updated per single-tile step, as the [`Heuristic`] trait moves tiles: a
//! horizontal step leaves the row abstraction as it is and moves one tile between neighbouring
//! columns in the column abstraction (one table lookup), and likewise for a vertical step.
//!
//! The tables depend only on the board and the goal blank's row and column; each is built once
//! per process and shared (4×4: 24,964 states per axis, built in milliseconds). A board whose
//! abstraction has more than [`table::MAX_STATES`] states is refused, counted before anything
//! is built: the 5×5's 65,650,495 states per axis need a denser table than this one.

mod table;

use super::{Heuristic, MAX_CELLS};
use pdbformat::Goal;
use std::sync::{Arc, Mutex, OnceLock};
pub use table::AxisTable;

/// The tables built so far, by (lines, width, goal blank's line).
type Cache = Mutex<Vec<((usize, usize, usize), Arc<AxisTable>)>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(Vec::new()))
}

/// The table of `lines` lines of `width` cells with the goal blank on `goal_blank`, from the
/// process's cache or built (and kept).
pub fn axis_table(lines: usize, width: usize, goal_blank: usize) -> Result<Arc<AxisTable>, String> {
    let key = (lines, width, goal_blank);
    let mut c = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, t)) = c.iter().find(|(k, _)| *k == key) {
        return Ok(t.clone());
    }
    let t = Arc::new(AxisTable::build(lines, width, goal_blank)?);
    c.push((key, t.clone()));
    Ok(t)
}

/// The MTM walking distance prepared for one goal.
#[derive(Debug, Clone)]
pub struct WalkingDistance {
    width: usize,
    rows: Arc<AxisTable>,
    cols: Arc<AxisTable>,
    /// Each tile's goal row and goal column (index: the tile).
    goal_row: [u8; MAX_CELLS],
    goal_col: [u8; MAX_CELLS],
    cells: usize,
}

impl WalkingDistance {
    /// The walking distance of `goal`; fails on a board whose abstraction is too large.
    pub fn new(goal: &Goal) -> Result<WalkingDistance, String> {
        let board = goal.board();
        let cells = board.cells();
        if cells > MAX_CELLS {
            return Err(format!(
                "the walking distance works on boards of at most {MAX_CELLS} cells"
            ));
        }
        let (w, h) = (board.width(), board.height());
        let blank = goal.blank_cell();
        let rows = axis_table(h, w, board.row(blank))?;
        let cols = axis_table(w, h, board.col(blank))?;
        let mut goal_row = [0u8; MAX_CELLS];
        let mut goal_col = [0u8; MAX_CELLS];
        for (cell, &t) in goal.tiles().iter().enumerate() {
            goal_row[t as usize] = board.row(cell) as u8;
            goal_col[t as usize] = board.col(cell) as u8;
        }
        Ok(WalkingDistance {
            width: w,
            rows,
            cols,
            goal_row,
            goal_col,
            cells,
        })
    }

    /// The two tables, rows first.
    pub fn tables(&self) -> (&AxisTable, &AxisTable) {
        (&self.rows, &self.cols)
    }
}

impl Heuristic for WalkingDistance {
    /// The row abstraction's state and the column abstraction's.
    type Parts = [u32; 2];
    type Undo = [u32; 2];
    type Pending = ();

    fn init(&self, tiles: &[u8; MAX_CELLS]) -> [u32; 2] {
        let h = self.cells / self.width;
        let w = self.width;
        let mut rc = vec![0u8; h * h];
        let mut cc = vec![0u8; w * w];
        let mut blank = 0;
        for (cell, &t) in tiles[..self.cells].iter().enumerate() {
            let (r, c) = (cell / w, cell % w);
            if t == 0 {
                blank = cell;
                continue;
            }
            rc[r * h + self.goal_row[t as usize] as usize] += 1;
            cc[c * w + self.goal_col[t as usize] as usize] += 1;
        }
        // Every position of the board has a reachable abstraction (one exists for each
        // arrangement of counts); the goal's state stands in for a malformed one.
        [
            self.rows.find(&rc, blank / w).unwrap_or(0),
            self.cols.find(&cc, blank % w).unwrap_or(0),
        ]
    }

    #[inline(always)]
    fn value(&self, parts: &[u32; 2]) -> u32 {
        self.rows.distance(parts[0]) + self.cols.distance(parts[1])
    }

    #[inline(always)]
    fn prepare(&self, _parts: &[u32; 2], _tile: u8, _from: u8, _to: u8) {}

    #[inline(always)]
    fn apply(
        &self,
        parts: &mut [u32; 2],
        _tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: u8,
        to: u8,
        _limit: u32,
        _pending: &(),
    ) -> (u32, [u32; 2]) {
        let before = *parts;
        let (from, to) = (from as usize, to as usize);
        if from / self.width == to / self.width {
            parts[1] = self
                .cols
                .step(parts[1], self.goal_col[tile as usize], to < from);
        } else {
            parts[0] = self
                .rows
                .step(parts[0], self.goal_row[tile as usize], to < from);
        }
        (self.value(parts), before)
    }

    #[inline(always)]
    fn undo(&self, parts: &mut [u32; 2], _tile: u8, _from: u8, _to: u8, undo: [u32; 2]) {
        *parts = undo;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdbformat::Board;

    #[test]
    fn the_4x4_tables_have_the_known_size_and_update_incrementally() {
        let goal = Goal::blank_first(Board::new(4, 4).unwrap());
        let wd = WalkingDistance::new(&goal).unwrap();
        assert_eq!(wd.tables().0.states(), 24_964);
        super::super::testutil::check_incremental(&wd, &goal, 400, 7);
        let goal = Goal::blank_last(Board::new(3, 4).unwrap());
        let wd = WalkingDistance::new(&goal).unwrap();
        super::super::testutil::check_incremental(&wd, &goal, 400, 9);
    }

    #[test]
    fn boards_whose_abstraction_is_too_large_are_refused() {
        let goal = Goal::blank_first(Board::new(5, 5).unwrap());
        let e = WalkingDistance::new(&goal).unwrap_err();
        assert!(e.contains("states"), "{e}");
        let goal = Goal::blank_first(Board::new(8, 8).unwrap());
        let e = WalkingDistance::new(&goal).unwrap_err();
        assert!(e.contains("walking distance"), "{e}");
    }
}
