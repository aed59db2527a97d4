//! Shortening a solution after the fact, for the anytime search ([`super::anytime`]): cut the
//! loops between positions met twice, then replace each window of a few dozen moves by an
//! optimal path between its two ends (IDA* with Manhattan distance plus linear conflict
//! towards the window's last position, under a node budget). Long paths of a heavily weighted
//! search lose a large share of their moves this way, in milliseconds.

use super::{ida, Clock, Ida, Limits, Search};
use crate::heuristic::LinearConflict;
use crate::key::{Layout, PosMap};
use crate::position::{Position, MAX_CELLS};
use crate::prune::Pruning;
use pdbformat::{Board, Goal};

/// Moves in one window of the pass made on every new solution.
pub(crate) const WINDOW: usize = 28;

/// Nodes one window's IDA* may generate before the window is left as it is, for windows of
/// [`WINDOW`] moves (larger windows get more, in proportion to the square of their size).
const WINDOW_NODES: u64 = 60_000;

/// The positions along `path` (the blank's cells after each move) from `start`: one more than
/// the moves.
fn positions(start: &[u8; MAX_CELLS], path: &[u8]) -> Vec<[u8; MAX_CELLS]> {
    let mut out = Vec::with_capacity(path.len() + 1);
    let mut tiles = *start;
    let mut blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
    out.push(tiles);
    for &c in path {
        let c = c as usize;
        tiles[blank] = tiles[c];
        tiles[c] = 0;
        blank = c;
        out.push(tiles);
    }
    out
}

/// `path` without the loops between positions met twice (the later visit is kept, the moves
/// in between dropped).
pub(crate) fn cut_loops(board: Board, start: &[u8; MAX_CELLS], path: &[u8]) -> Vec<u8> {
    let layout = Layout::new(board.cells());
    let all = positions(start, path);
    // The last index of each position.
    let mut last: PosMap<crate::key::Wide, usize> = PosMap::default();
    for (i, t) in all.iter().enumerate() {
        last.insert(layout.pack(t), i);
    }
    let mut out = Vec::with_capacity(path.len());
    let mut i = 0;
    while i < path.len() {
        let j = last[&layout.pack(&all[i])];
        if j > i {
            i = j;
            continue;
        }
        out.push(path[i]);
        i += 1;
    }
    out
}

/// The optimal path from `from` to `to` if it is shorter than `moves` and found within `nodes`
/// generated nodes (the budget is what bounds its time: [`shorten`] checks the clock between
/// windows).
fn window(
    board: Board,
    from: &[u8; MAX_CELLS],
    to: &[u8; MAX_CELLS],
    moves: usize,
    nodes: u64,
) -> Option<Vec<u8>> {
    let cells = board.cells();
    let goal_tiles: Vec<u16> = to[..cells].iter().map(|&t| t as u16).collect();
    let goal = Goal::from_tiles(board, &goal_tiles).ok()?;
    let start_tiles: Vec<u16> = from[..cells].iter().map(|&t| t as u16).collect();
    let start = Position::from_tiles(&start_tiles)?;
    let h = LinearConflict::new(&goal);
    let settings = Ida {
        pruning: Pruning::Off,
        ..Ida::default()
    };
    let search = Search {
        limits: Limits {
            max_nodes: Some(nodes),
            ..Limits::default()
        },
        ..Search::new(settings.clone())
    };
    let out = ida::search(&h, &goal, &start, &settings, &search);
    out.path.filter(|p| p.len() < moves)
}

/// `path` from `start` shortened: loops cut, then every window of `size` moves (windows
/// overlapping by half) replaced by an optimal one where that is shorter. Stops early, with
/// what it has, when `clock` says the time is up.
pub(crate) fn shorten(
    board: Board,
    start: &[u8; MAX_CELLS],
    path: &[u8],
    size: usize,
    clock: &Clock,
) -> Vec<u8> {
    let size = size.max(2);
    let nodes = WINDOW_NODES * ((size * size) / (WINDOW * WINDOW)).max(1) as u64;
    let mut path = cut_loops(board, start, path);
    let mut i = 0;
    while i + 2 < path.len() {
        if clock.time_up().is_some() {
            break;
        }
        let j = (i + size).min(path.len());
        let all = positions(start, &path[..j]);
        let mut end = j;
        if let Some(better) = window(board, &all[i], &all[j], j - i, nodes) {
            end = i + better.len();
            path.splice(i..j, better);
        }
        if end >= path.len() {
            break;
        }
        i += size / 2;
    }
    cut_loops(board, start, &path)
}

/// `path` polished until `clock` stops: passes of [`shorten`] with windows growing from
/// [`WINDOW`] by a third each time (back to the first size after a pass that gains nothing
/// at the largest, 96 moves).
pub(crate) fn polish(board: Board, start: &[u8; MAX_CELLS], path: &[u8], clock: &Clock) -> Vec<u8> {
    let mut path = path.to_vec();
    let mut size = WINDOW;
    while clock.time_up().is_none() && path.len() > 2 {
        path = shorten(board, start, &path, size, clock);
        size = if size >= 96 { WINDOW } else { size + size / 3 };
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loops_are_cut_and_windows_keep_the_path_valid() {
        let board = Board::new(3, 3).unwrap();
        let mut start = [0u8; MAX_CELLS];
        for (c, t) in start.iter_mut().take(9).enumerate() {
            *t = c as u8; // the blank on cell 0
        }
        // Right, left (back to the start), right, down, up (back), down.
        assert_eq!(cut_loops(board, &start, &[1, 0, 1, 4, 1, 4]), vec![1, 4]);
        // A detour around a 2x2 block and back: twelve moves that return to the start.
        let detour = [1, 4, 3, 0, 1, 4, 3, 0, 1, 4, 3, 0, 1];
        let clock = Clock::new(&Limits::default());
        let short = shorten(board, &start, &detour, WINDOW, &clock);
        assert_eq!(short, vec![1]);
    }
}
