//! The human strategy: rows one by one until two remain, then columns one by one, then the
//! last 2×2 block by rotation. Solves any solvable board (any shape, any goal, up to 4096
//! cells) with a number of moves linear in the tiles times the board's side; not optimal.
//!
//! # Order
//! The unsolved part is always a rectangle. While it has at least three rows, its top or
//! bottom row is solved and set aside; then, with two rows left, its left or right column.
//! The side is chosen so that the goal cell of the blank stays inside, which makes the last
//! 2×2 block contain it: for the usual goals that is the bottom-right block (`blank-last`) or
//! the top-left one (`blank-first`), and any other goal works the same way. Tiles are placed
//! where the goal puts them (`goal.tile_at(cell)`).
//!
//! # One line
//! A line (a row, or a column seen as a row of a transposed frame) of width `w` with at least
//! two more lines behind it is solved left to right:
//! - each of the first `w − 2` tiles is moved to its cell and fixed. A tile moves along a
//!   shortest path through the free cells; before each step the blank is brought to the next
//!   cell of that path without touching the tile or fixed cells. The free part (the lines
//!   behind plus the rest of this line, at least three cells) has no cut cell, so the blank
//!   always finds a way round;
//! - the last two tiles `a` (cell `T1`) and `b` (`T2`, the line's end) cannot be placed one
//!   after the other. `b` is brought to `T1` and fixed there, `a` is brought next to it in the
//!   next line (leaving the end cell `T2` alone, which only connects to the cell below it), the
//!   blank is brought near, and a breadth-first search over the positions of `a`, `b` and the
//!   blank inside a window of the three nearest lines by three (or two) cells finishes both. The
//!   window has no cut cell and holds at least three unlabelled tiles, so the search always
//!   succeeds (Wilson's theorem on sliding puzzles on graphs).
//!
//! # Cost
//! Each tile travels at most the board's width plus height, and each step of its journey
//! costs a bounded number of blank moves (the blank circles it), plus one approach of the blank;
//! the windows are constant-size. So moves grow as `cells × side`, and the work per move is
//! small: breadth-first searches for the blank end as soon as they reach their target, which
//! is next to it.

use super::{Clock, Stop};
use pdbformat::{Board, Direction, Goal, Puzzle};
use std::collections::{HashMap, VecDeque};

/// Why the strategy ended without the goal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Halt {
    /// A limit of the clock stopped it (moves made count as nodes; the time and the interrupt
    /// flag are read every 1,024 moves).
    Stopped(Stop),
    /// The puzzle cannot reach the goal, or a bug (the message says which).
    Failed(String),
}

impl From<String> for Halt {
    fn from(why: String) -> Halt {
        Halt::Failed(why)
    }
}

impl From<&str> for Halt {
    fn from(why: &str) -> Halt {
        Halt::Failed(why.to_string())
    }
}

/// Solves `puzzle` for `goal`: the blank's moves. An error when the puzzle cannot reach the
/// goal or the boards differ. (The tests' entry; [`crate::solve`] runs [`solve_within`].)
#[cfg(test)]
fn solve(puzzle: &Puzzle, goal: &Goal) -> Result<Vec<Direction>, String> {
    solve_within(puzzle, goal, &Clock::new(&super::Limits::default())).map_err(|h| match h {
        Halt::Failed(why) => why,
        Halt::Stopped(stop) => stop.describe().to_string(),
    })
}

/// [`solve`] under `clock`'s limits: stops with [`Halt::Stopped`] once the moves made reach
/// the node limit, the time is up or the interrupt flag is raised.
pub(crate) fn solve_within(
    puzzle: &Puzzle,
    goal: &Goal,
    clock: &Clock,
) -> Result<Vec<Direction>, Halt> {
    puzzle.check_solvable(goal).map_err(|e| e.to_string())?;
    let mut w = Work::new(puzzle, goal, clock);
    w.run()?;
    if w.tiles.iter().zip(goal.tiles()).any(|(a, b)| a != b) {
        return Err("the strategy did not reach the goal (a bug)".into());
    }
    Ok(w.moves)
}

/// A frame on the unsolved rectangle: local line `i` (0: the line being solved), position
/// `j` along it.
#[derive(Clone, Copy, Debug)]
struct Frame {
    r: isize,
    c: isize,
    di: (isize, isize),
    dj: (isize, isize),
    lines: usize,
    width: usize,
}

impl Frame {
    fn cell(&self, board: Board, i: usize, j: usize) -> usize {
        let r = self.r + self.di.0 * i as isize + self.dj.0 * j as isize;
        let c = self.c + self.di.1 * i as isize + self.dj.1 * j as isize;
        board.cell(r as usize, c as usize)
    }
}

/// Reusable breadth-first search over cells with generation stamps (no clearing).
struct CellBfs {
    stamp: Vec<u32>,
    parent: Vec<u32>,
    now: u32,
    queue: VecDeque<usize>,
}

impl CellBfs {
    fn new(cells: usize) -> CellBfs {
        CellBfs {
            stamp: vec![0; cells],
            parent: vec![0; cells],
            now: 0,
            queue: VecDeque::new(),
        }
    }

    /// A shortest path of cells from `from` to the first cell satisfying `done`, through
    /// cells satisfying `open` (`from` itself need not be open). `None` when there is none.
    fn path(
        &mut self,
        board: Board,
        from: usize,
        done: impl Fn(usize) -> bool,
        open: impl Fn(usize) -> bool,
    ) -> Option<Vec<usize>> {
        self.now += 1;
        let now = self.now;
        self.queue.clear();
        self.stamp[from] = now;
        self.queue.push_back(from);
        while let Some(c) = self.queue.pop_front() {
            if done(c) {
                let mut path = vec![c];
                let mut x = c;
                while x != from {
                    x = self.parent[x] as usize;
                    path.push(x);
                }
                path.reverse();
                return Some(path);
            }
            for (_, n) in board.neighbours(c) {
                if self.stamp[n] != now && open(n) {
                    self.stamp[n] = now;
                    self.parent[n] = c as u32;
                    self.queue.push_back(n);
                }
            }
        }
        None
    }
}

struct Work<'a> {
    board: Board,
    goal: &'a Goal,
    clock: &'a Clock,
    tiles: Vec<u16>,
    pos: Vec<usize>,
    blank: usize,
    fixed: Vec<bool>,
    /// The unsolved rectangle: rows `r0..=r1`, columns `c0..=c1`.
    r0: usize,
    r1: usize,
    c0: usize,
    c1: usize,
    moves: Vec<Direction>,
    bfs: CellBfs,
}

impl<'a> Work<'a> {
    fn new(puzzle: &Puzzle, goal: &'a Goal, clock: &'a Clock) -> Work<'a> {
        let board = puzzle.board();
        let tiles = puzzle.tiles().to_vec();
        let mut pos = vec![0; tiles.len()];
        for (c, &t) in tiles.iter().enumerate() {
            pos[t as usize] = c;
        }
        Work {
            board,
            goal,
            clock,
            blank: puzzle.blank(),
            pos,
            tiles,
            fixed: vec![false; board.cells()],
            r0: 0,
            r1: board.height() - 1,
            c0: 0,
            c1: board.width() - 1,
            moves: Vec::new(),
            bfs: CellBfs::new(board.cells()),
        }
    }

    /// The blank moves to the neighbouring cell `to` (the tile there slides into the blank);
    /// stops when the clock says so.
    fn step(&mut self, to: usize) -> Result<(), Halt> {
        if let Some(stop) = self.clock.check(self.moves.len() as u64) {
            return Err(Halt::Stopped(stop));
        }
        let d = self
            .board
            .neighbours(self.blank)
            .find(|&(_, n)| n == to)
            .map(|(d, _)| d)
            .expect("steps go to neighbouring cells");
        let t = self.tiles[to];
        self.tiles[self.blank] = t;
        self.pos[t as usize] = self.blank;
        self.tiles[to] = 0;
        self.pos[0] = to;
        self.blank = to;
        self.moves.push(d);
        Ok(())
    }

    /// Brings the blank to a cell satisfying `done` through free cells, never onto `avoid`.
    fn blank_to(&mut self, done: impl Fn(usize) -> bool, avoid: &[usize]) -> Result<(), Halt> {
        let board = self.board;
        let fixed = &self.fixed;
        let (r0, r1, c0, c1) = (self.r0, self.r1, self.c0, self.c1);
        let open = |c: usize| {
            let (r, col) = (board.row(c), board.col(c));
            !fixed[c] && (r0..=r1).contains(&r) && (c0..=c1).contains(&col) && !avoid.contains(&c)
        };
        let path = self
            .bfs
            .path(board, self.blank, done, open)
            .ok_or_else(|| "the blank is walled in (a bug in the strategy)".to_string())?;
        for &c in &path[1..] {
            self.step(c)?;
        }
        Ok(())
    }

    /// Moves `tile` to `target` through free cells, leaving fixed cells alone.
    fn move_tile(&mut self, tile: u16, target: usize) -> Result<(), Halt> {
        let board = self.board;
        let from = self.pos[tile as usize];
        if from == target {
            return Ok(());
        }
        let route = {
            let fixed = &self.fixed;
            let (r0, r1, c0, c1) = (self.r0, self.r1, self.c0, self.c1);
            let open = |c: usize| {
                let (r, col) = (board.row(c), board.col(c));
                !fixed[c] && (r0..=r1).contains(&r) && (c0..=c1).contains(&col)
            };
            self.bfs
                .path(board, from, |c| c == target, open)
                .ok_or_else(|| format!("tile {tile} cannot reach its cell (a bug)"))?
        };
        for &next in &route[1..] {
            let here = self.pos[tile as usize];
            self.blank_to(|c| c == next, &[here])?;
            self.step(here)?;
        }
        Ok(())
    }

    fn run(&mut self) -> Result<(), Halt> {
        let board = self.board;
        let (br, bc) = (
            board.row(self.goal.blank_cell()),
            board.col(self.goal.blank_cell()),
        );
        loop {
            let (h, w) = (self.r1 - self.r0 + 1, self.c1 - self.c0 + 1);
            let (r0, r1, c0, c1) = (
                self.r0 as isize,
                self.r1 as isize,
                self.c0 as isize,
                self.c1 as isize,
            );
            let frame = if h >= 3 {
                // A row: the top one unless the blank's goal is on it.
                let (r, di) = if br > self.r0 { (r0, 1) } else { (r1, -1) };
                Frame {
                    r,
                    c: c0,
                    di: (di, 0),
                    dj: (0, 1),
                    lines: h,
                    width: w,
                }
            } else if w >= 3 {
                // A column: the left one unless the blank's goal is in it.
                let (c, di) = if bc > self.c0 { (c0, 1) } else { (c1, -1) };
                Frame {
                    r: r0,
                    c,
                    di: (0, di),
                    dj: (1, 0),
                    lines: w,
                    width: h,
                }
            } else {
                return self.last_block();
            };
            self.solve_line(frame)?;
            if h >= 3 {
                if br > self.r0 {
                    self.r0 += 1;
                } else {
                    self.r1 -= 1;
                }
            } else if bc > self.c0 {
                self.c0 += 1;
            } else {
                self.c1 -= 1;
            }
        }
    }

    /// Solves line 0 of `f` (which has at least three lines and two cells per line) and
    /// fixes its cells.
    fn solve_line(&mut self, f: Frame) -> Result<(), Halt> {
        let board = self.board;
        debug_assert!(f.lines >= 3 && f.width >= 2);
        let w = f.width;
        for j in 0..w - 2 {
            let cell = f.cell(board, 0, j);
            let tile = self.goal.tile_at(cell) as u16;
            self.move_tile(tile, cell)?;
            self.fixed[cell] = true;
        }
        let t1 = f.cell(board, 0, w - 2);
        let t2 = f.cell(board, 0, w - 1);
        let (a, b) = (self.goal.tile_at(t1) as u16, self.goal.tile_at(t2) as u16);
        if self.pos[a as usize] != t1 || self.pos[b as usize] != t2 {
            // b to T1, fixed for a while.
            self.move_tile(b, t1)?;
            self.fixed[t1] = true;
            // a below T1, keeping out of the end cell T2.
            let below_t2 = f.cell(board, 1, w - 1);
            if self.blank == t2 {
                self.step(below_t2)?;
            }
            if self.pos[a as usize] != t2 {
                self.fixed[t2] = true;
                let r = self.move_tile(a, f.cell(board, 1, w - 2));
                self.fixed[t2] = false;
                r?;
            }
            // The window: lines 0..3, the last three (or two) cells.
            let mut window = Vec::with_capacity(9);
            for i in 0..3 {
                for j in w.saturating_sub(3)..w {
                    let c = f.cell(board, i, j);
                    if !self.fixed[c] || c == t1 {
                        window.push(c);
                    }
                }
            }
            let pa = self.pos[a as usize];
            let in_window = |c: usize| window.contains(&c) && c != t1;
            self.blank_to(in_window, &[pa])?;
            self.fixed[t1] = false;
            self.finish_window(&window, &[(a, t1), (b, t2)])?;
        }
        self.fixed[t1] = true;
        self.fixed[t2] = true;
        Ok(())
    }

    /// The last 2×2 block: all its tiles to their cells.
    fn last_block(&mut self) -> Result<(), Halt> {
        let mut window = Vec::new();
        for r in self.r0..=self.r1 {
            for c in self.c0..=self.c1 {
                window.push(self.board.cell(r, c));
            }
        }
        let targets: Vec<(u16, usize)> = window
            .iter()
            .map(|&c| (self.goal.tile_at(c) as u16, c))
            .filter(|&(t, _)| t != 0)
            .collect();
        self.finish_window(&window, &targets)
    }

    /// Breadth-first search over the positions of the blank and the `targets` tiles inside
    /// `window` (other tiles there are interchangeable) until every target tile is on its cell;
    /// plays the moves found.
    fn finish_window(&mut self, window: &[usize], targets: &[(u16, usize)]) -> Result<(), Halt> {
        let n = window.len();
        debug_assert!(n <= 16 && targets.len() <= 7);
        let index = |c: usize| window.iter().position(|&w| w == c);
        // A state: 4 bits per labelled tile, then the blank, as window indexes.
        let mut start = 0u32;
        for (k, &(t, _)) in targets.iter().enumerate() {
            let i = index(self.pos[t as usize])
                .ok_or_else(|| format!("tile {t} is outside its window (a bug)"))?;
            start |= (i as u32) << (4 * k);
        }
        let bi = index(self.blank).ok_or("the blank is outside its window (a bug)")?;
        let kb = 4 * targets.len();
        start |= (bi as u32) << kb;
        let mut want = 0u32;
        for (k, &(_, c)) in targets.iter().enumerate() {
            want |= (index(c).expect("targets lie in the window") as u32) << (4 * k);
        }
        let mask = (1u32 << kb) - 1;
        let adj: Vec<Vec<usize>> = window
            .iter()
            .map(|&c| {
                self.board
                    .neighbours(c)
                    .filter_map(|(_, x)| index(x))
                    .collect()
            })
            .collect();
        let mut parent: HashMap<u32, u32> = HashMap::new();
        parent.insert(start, start);
        let mut q = VecDeque::from([start]);
        let mut end = None;
        while let Some(s) = q.pop_front() {
            if s & mask == want {
                end = Some(s);
                break;
            }
            let b = ((s >> kb) & 15) as usize;
            for &nb in &adj[b] {
                let mut t = s;
                // A labelled tile on `nb` slides to the blank's cell.
                for k in 0..targets.len() {
                    if (t >> (4 * k)) & 15 == nb as u32 {
                        t = (t & !(15 << (4 * k))) | (b as u32) << (4 * k);
                    }
                }
                t = (t & mask) | (nb as u32) << kb;
                if let std::collections::hash_map::Entry::Vacant(v) = parent.entry(t) {
                    v.insert(s);
                    q.push_back(t);
                }
            }
        }
        let end = end.ok_or("no arrangement of the last tiles reaches the goal (a bug)")?;
        let mut blanks = Vec::new();
        let mut s = end;
        while s != start {
            blanks.push(window[((s >> kb) & 15) as usize]);
            s = parent[&s];
        }
        for &c in blanks.iter().rev() {
            self.step(c)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(w: usize, h: usize, goal: &Goal, seed: u64) {
        let b = Board::new(w, h).unwrap();
        let mut rng = pdbformat::testkit::XorShift::new(seed | 1);
        let mut t: Vec<u16> = (0..b.cells() as u16).collect();
        loop {
            rng.shuffle(&mut t);
            let p = Puzzle::new(b, &t).unwrap();
            if p.is_solvable(goal) {
                let moves = solve(&p, goal).unwrap();
                let mut q = p.clone();
                for &d in &moves {
                    q.apply(d).expect("on the board");
                }
                assert!(q.is_goal(goal), "{w}x{h} {goal}");
                return;
            }
        }
    }

    #[test]
    fn small_boards_every_goal_corner_and_centre() {
        for (w, h) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (4, 4),
            (2, 5),
            (5, 2),
            (3, 7),
            (6, 4),
        ] {
            let b = Board::new(w, h).unwrap();
            let n = b.cells();
            let mut goals = vec![Goal::blank_first(b), Goal::blank_last(b)];
            // The blank's goal on every cell, other tiles in order.
            for cell in 0..n {
                let mut t: Vec<u16> = (1..n as u16).collect();
                t.insert(cell, 0);
                goals.push(Goal::from_tiles(b, &t).unwrap());
            }
            for (i, g) in goals.iter().enumerate() {
                for s in 0..3 {
                    check(w, h, g, 7 + 1000 * i as u64 + s);
                }
            }
        }
    }

    #[test]
    fn unsolvable_is_an_error() {
        let b = Board::new(3, 3).unwrap();
        let p = Puzzle::new(b, &[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        assert!(solve(&p, &Goal::blank_last(b)).is_err());
    }

    /// A large scrambled board: the strategy makes hundreds of thousands of moves.
    fn big_scramble() -> (Puzzle, Goal) {
        let b = Board::new(40, 40).unwrap();
        let goal = Goal::blank_last(b);
        let mut rng = pdbformat::testkit::XorShift::new(99);
        let mut t: Vec<u16> = (0..b.cells() as u16).collect();
        loop {
            rng.shuffle(&mut t);
            let p = Puzzle::new(b, &t).unwrap();
            if p.is_solvable(&goal) {
                return (p, goal);
            }
        }
    }

    #[test]
    fn limits_stop_the_strategy() {
        let (p, goal) = big_scramble();
        let nodes = Clock::new(&super::super::Limits {
            max_nodes: Some(5_000),
            ..Default::default()
        });
        assert_eq!(
            solve_within(&p, &goal, &nodes),
            Err(Halt::Stopped(Stop::Nodes))
        );
        let time = Clock::new(&super::super::Limits {
            timeout: Some(std::time::Duration::ZERO),
            ..Default::default()
        });
        assert_eq!(
            solve_within(&p, &goal, &time),
            Err(Halt::Stopped(Stop::Time))
        );
        // Without limits the same board is solved.
        let free = Clock::new(&super::super::Limits::default());
        let moves = solve_within(&p, &goal, &free).unwrap();
        assert!(moves.len() > 5_000);
    }
}
