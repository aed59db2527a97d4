//! Breadth-first search in the multi-tile metric: `bfs.rs`'s level-by-level search
//! ([`Levels`]) where a move takes the blank 1 to k cells along its row or column.
//!
//! Every position generated is kept in a hash table (packed key → the blank's cell in its
//! parent); a move on the line of the move that made the node is not generated (it merges with
//! that move or goes back over it). The goal is recognised when generated. The table's limit
//! and [`super::bfs::check_fits`] are those of the single-tile search: both metrics reach the
//! same positions.

use super::astar::with_key;
use super::bfs::Levels;
use super::{Outcome, Search};
use crate::key::{Layout, Packed};
use crate::position::{Position, MAX_CELLS, NO_CELL};
use pdbformat::{Direction, Goal};

/// Runs MTM breadth-first search from `start` to `goal`.
///
/// # Panics
/// If the board has more than 64 cells.
pub(crate) fn search(goal: &Goal, start: &Position, search: &Search) -> Outcome {
    with_key!(goal.board().cells(), K => run::<K>(goal, start, search))
}

fn run<K: Packed>(goal: &Goal, start: &Position, search: &Search) -> Outcome {
    let board = goal.board();
    let w = board.width();
    let detail = "multi-tile metric, level by level, goal tested when generated";
    let mut bfs = Levels::<K>::new(goal, start, search, detail);
    bfs.run(|bfs, key, blank, prev, tiles| {
        let blank = blank as usize;
        // The axis of the move that made this node: 0 vertical, 1 horizontal, 2 none.
        let last = match prev {
            NO_CELL => 2,
            p if p as usize / w == blank / w => 1,
            _ => 0,
        };
        for (d, dir) in Direction::ALL.into_iter().enumerate() {
            if (d >= 2) as u8 == last {
                continue;
            }
            let (mut k, mut at) = (key, blank);
            while let Some(n) = board.neighbour(at, dir) {
                // The tile on `n` slides onto `at`; the original tiles stand one cell
                // further along, as the blank passes them.
                k = bfs.layout.slide(k, tiles[n], n as u8, at as u8);
                at = n;
                if !bfs.child(k, blank as u8) {
                    return false;
                }
            }
        }
        true
    });
    let (found, stop, depth, start_key) = (bfs.found, bfs.stop, bfs.depth, bfs.start_key);
    let stats = bfs.finish();
    match found {
        Some(k) => {
            let path = trace(&bfs.layout, board, k, |k| bfs.map.get(k).copied());
            let mut o = Outcome::solved(path, stats);
            // The length in moves: the level the goal was generated on.
            o.stats.lower_bound = if k == start_key { 0 } else { depth + 1 };
            o
        }
        None => Outcome::unsolved(stop, depth + 1, stats),
    }
}

/// The blank's cell after each single step of the recorded path that ends at `key`, each
/// multi-tile move unrolled into its steps: `prev` gives the blank's cell in a position's parent.
fn trace<K: Packed>(
    layout: &Layout,
    board: pdbformat::Board,
    key: K,
    mut prev: impl FnMut(&K) -> Option<u8>,
) -> Vec<u8> {
    let mut tiles = [0u8; MAX_CELLS];
    let mut blank = layout.unpack(key, &mut tiles) as usize;
    let mut k = key;
    let mut path = Vec::new();
    while let Some(p) = prev(&k).filter(|&p| p != NO_CELL) {
        let p = p as usize;
        while blank != p {
            path.push(blank as u8);
            // One step back towards the parent's blank cell: that tile slides back.
            let n = if board.row(p) == board.row(blank) {
                if p < blank {
                    blank - 1
                } else {
                    blank + 1
                }
            } else if p < blank {
                blank - board.width()
            } else {
                blank + board.width()
            };
            let tile = tiles[n];
            k = layout.slide(k, tile, n as u8, blank as u8);
            tiles[blank] = tile;
            tiles[n] = 0;
            blank = n;
        }
        if path.len() > u16::MAX as usize * 16 {
            break; // a broken chain: the replay check will report it
        }
    }
    path.reverse();
    path
}
