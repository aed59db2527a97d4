//! Iterative-deepening A* (IDA*), generic over an incrementally updated [`Heuristic`].
//!
//! Depth-first searches with a growing cost bound: the first bound is the start position's
//! estimate, each next bound the smallest `g + h` that exceeded the previous one. With an
//! admissible heuristic the first solution found is optimal.
//!
//! Moves are made in place on one fixed-size board array; the move that would undo the previous
//! one is never generated; the heuristic is updated incrementally and undone on the way back.
//! Nothing is allocated inside an iteration (the path's capacity is reserved beforehand).
//!
//! **Node counting.** `nodes` counts *generated* nodes: every child made by a move, including
//! children pruned at once because `g + h` exceeds the bound, summed over all iterations (the
//! start position is not counted). `expanded` counts nodes whose children were generated.
//! Both include the last, successful iteration up to the moment the goal is found.

use crate::heuristic::Heuristic;
use crate::state::{MoveTable, State, MAX_CELLS, NO_CELL};
use pdbformat::Goal;
use std::time::{Duration, Instant};

/// Limits that stop a search early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after generating this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this much time (checked every 65,536 nodes).
    pub timeout: Option<Duration>,
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// [`Limits::max_nodes`] was reached.
    NodeLimit,
    /// [`Limits::timeout`] passed.
    Timeout,
}

/// What a search costs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Generated nodes (see the module documentation).
    pub nodes: u64,
    /// Expanded nodes.
    pub expanded: u64,
    /// Number of depth-first iterations started.
    pub iterations: u32,
    /// The heuristic's estimate at the start.
    pub initial_h: u32,
    /// The last bound searched: the solution length when one was found; otherwise a lower
    /// bound on it (every shorter length has been ruled out).
    pub bound: u32,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchResult {
    /// An optimal solution: the blank's cell after each move.
    Found {
        /// The blank's cells after each move, in order.
        blank_path: Vec<u8>,
        /// What it cost.
        stats: SearchStats,
    },
    /// A limit was reached first; every length below `stats.bound` has been ruled out.
    Stopped {
        /// Which limit.
        reason: StopReason,
        /// What was spent.
        stats: SearchStats,
    },
}

/// Runs IDA* from `start` to `goal` with the heuristic `h` (prepared for `goal`).
///
/// The caller checks solvability first: on an unsolvable position the search would not end
/// before a limit.
///
/// # Panics
/// If the board has more than [`MAX_CELLS`] cells.
pub fn ida_star<H: Heuristic>(h: &H, goal: &Goal, start: &State, limits: &Limits) -> SearchResult {
    let t0 = Instant::now();
    let board = goal.board();
    assert!(board.cells() <= MAX_CELLS);
    let moves = MoveTable::new(board);
    let mut goal_tiles = [0u8; MAX_CELLS];
    for (c, &t) in goal.tiles().iter().enumerate() {
        goal_tiles[c] = t as u8;
    }
    let hs = h.init(&start.tiles);
    let h0 = h.value(&hs);
    let mut s = Search {
        h,
        hs,
        state: start.clone(),
        moves: &moves,
        goal_tiles,
        path: Vec::new(),
        nodes: 0,
        expanded: 0,
        node_limit: limits.max_nodes.unwrap_or(u64::MAX),
        deadline: limits.timeout.map(|d| t0 + d),
        bound: h0,
        next_bound: u32::MAX,
        stopped: None,
    };
    let mut iterations = 0;
    loop {
        iterations += 1;
        s.next_bound = u32::MAX;
        s.path.clear();
        s.path.reserve(s.bound as usize + 1);
        let found = s.dfs(0, h0, NO_CELL);
        let stats = SearchStats {
            nodes: s.nodes,
            expanded: s.expanded,
            iterations,
            initial_h: h0,
            bound: s.bound,
            seconds: t0.elapsed().as_secs_f64(),
        };
        if found {
            return SearchResult::Found {
                blank_path: s.path,
                stats,
            };
        }
        if let Some(reason) = s.stopped {
            return SearchResult::Stopped { reason, stats };
        }
        // Boards of at least 2x2 always have children, so a next bound exists.
        s.bound = s.next_bound;
    }
}

struct Search<'a, H: Heuristic> {
    h: &'a H,
    hs: H::State,
    state: State,
    moves: &'a MoveTable,
    goal_tiles: [u8; MAX_CELLS],
    path: Vec<u8>,
    nodes: u64,
    expanded: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    bound: u32,
    next_bound: u32,
    stopped: Option<StopReason>,
}

impl<H: Heuristic> Search<'_, H> {
    /// Searches below the current position (cost `g`, estimate `hval`), never moving the blank
    /// back to `prev`. Returns true when the goal is found (the path then holds the moves);
    /// false when the subtree is exhausted or a limit stopped the search.
    fn dfs(&mut self, g: u32, hval: u32, prev: u8) -> bool {
        if hval == 0 && self.state.tiles == self.goal_tiles {
            return true;
        }
        self.expanded += 1;
        let blank = self.state.blank;
        let moves = self.moves;
        let targets = moves.targets(blank);
        // First every child's lookups are computed and prefetched, so that their memory
        // accesses overlap; then the children are visited.
        let mut pending = [H::Pending::default(); 4];
        for (p, &next) in pending.iter_mut().zip(targets) {
            if next != prev {
                *p = self
                    .h
                    .prepare(&self.hs, self.state.tiles[next as usize], next, blank);
            }
        }
        for (p, &next) in pending.iter().zip(targets) {
            if next == prev {
                continue;
            }
            if self.nodes == self.node_limit {
                self.stopped = Some(StopReason::NodeLimit);
                return false;
            }
            self.nodes += 1;
            if self.nodes & 0xFFFF == 0 {
                if let Some(d) = self.deadline {
                    if Instant::now() >= d {
                        self.stopped = Some(StopReason::Timeout);
                        return false;
                    }
                }
            }
            // The tile on `next` slides into the blank's cell.
            let tile = self.state.slide(next);
            let limit = self.bound.saturating_sub(g + 1);
            let (hv, undo) =
                self.h
                    .apply(&mut self.hs, &self.state.tiles, tile, next, blank, limit, p);
            let f = g + 1 + hv;
            if f <= self.bound {
                self.path.push(next);
                if self.dfs(g + 1, hv, blank) {
                    return true;
                }
                if self.stopped.is_some() {
                    return false;
                }
                self.path.pop();
            } else if f < self.next_bound {
                self.next_bound = f;
            }
            self.h.undo(&mut self.hs, tile, next, blank, undo);
            self.state.slide(blank);
        }
        false
    }
}
