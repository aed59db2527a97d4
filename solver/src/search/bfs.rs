//! Breadth-first search: optimal without a heuristic, for boards whose state space fits in
//! memory.
//!
//! Level by level from the start; every position generated is kept in a hash table (packed
//! key → the blank's cell in its parent), so each is expanded once, and the goal is recognised
//! when it is generated (the first time a position is reached is by a shortest path). A board
//! of `n` cells has `n!/2` positions that can reach a given goal; [`check_fits`] refuses boards
//! where they would not fit in the memory limit (the 15-puzzle's 10^13 positions do not; the
//! 8-puzzle's 181,440 take a few MB). The search also stops cleanly if its table outgrows the
//! limit on the way.

use super::astar::with_key;
use super::{goal_array, Outcome, Search, Stats, Stop};
use crate::key::{map_bytes, map_bytes_next, Layout, Packed, PosMap};
use crate::position::{MoveTable, Position, NO_CELL};
use pdbformat::units::{approx_bytes, approx_count};
use pdbformat::{Board, Goal};

/// Positions of `board` that can reach a given goal: `n!/2` (as a float: it overflows).
pub fn state_space(board: Board) -> f64 {
    (2..=board.cells()).map(|k| k as f64).product::<f64>() / 2.0
}

/// Estimated bytes per position held: a table slot and control byte (at 7/8 load at most,
/// so up to twice that just after growing) and a queue entry.
pub fn bytes_per_position(board: Board) -> u64 {
    fn per<K: Packed>() -> u64 {
        map_bytes::<K, u8>(7 << 20) / (7 << 20) + std::mem::size_of::<K>() as u64
    }
    with_key!(board.cells(), K => per::<K>())
}

/// Whether the whole state space of `board` fits in `max_memory` bytes; an error that says
/// how much it would need otherwise.
pub fn check_fits(board: Board, max_memory: u64) -> Result<(), String> {
    let states = state_space(board);
    let need = states * bytes_per_position(board) as f64;
    if need > max_memory as f64 {
        return Err(format!(
            "breadth-first search keeps every position it reaches: the {board} board has {} positions that reach the goal, about {} of memory, more than the limit of {} (use --max-memory to change it, or an algorithm with a heuristic: ida, astar)",
            approx_count(states),
            approx_bytes(need),
            approx_bytes(max_memory as f64)
        ));
    }
    Ok(())
}

/// Runs breadth-first search from `start` to `goal`. The caller checks [`check_fits`] first
/// if it wants to refuse hopeless boards; the search itself stops at the memory limit.
///
/// # Panics
/// If the board has more than 64 cells.
pub(crate) fn search(goal: &Goal, start: &Position, search: &Search) -> Outcome {
    with_key!(goal.board().cells(), K => run::<K>(goal, start, search))
}

fn run<K: Packed>(goal: &Goal, start: &Position, search: &Search) -> Outcome {
    let clock = search.clock();
    let max_memory = search.limits.memory_limit();
    let board = goal.board();
    let layout = Layout::new(board.cells());
    let moves = MoveTable::new(board);
    let goal_key: K = layout.pack(&goal_array(goal));
    let start_key: K = layout.pack(&start.tiles);
    let mut map: PosMap<K, u8> = PosMap::default();
    map.insert(start_key, NO_CELL);
    let mut level: Vec<K> = vec![start_key];
    let mut next: Vec<K> = Vec::new();
    let mut stats = Stats {
        detail: "level by level, goal tested when generated".into(),
        ..Stats::default()
    };
    let mut tiles = [0u8; crate::position::MAX_CELLS];
    let queue_bytes =
        |a: &Vec<K>, b: &Vec<K>| ((a.capacity() + b.capacity()) * std::mem::size_of::<K>()) as u64;
    let mut depth = 0u32;
    let mut found = (start_key == goal_key).then_some(start_key);
    let mut stop = None;
    'search: while found.is_none() && !level.is_empty() {
        for &key in &level {
            let blank = layout.unpack(key, &mut tiles);
            let prev = map.get(&key).copied().unwrap_or(NO_CELL);
            stats.expanded += 1;
            for &n in moves.targets(blank) {
                if n == prev {
                    continue;
                }
                let (now, est) = map_bytes_next(&map);
                let q = queue_bytes(&level, &next);
                stats.peak_memory = stats.peak_memory.max(now + q);
                let over = (est + q + (next.len() == next.capacity()) as u64 * q > max_memory)
                    .then_some(Stop::Memory);
                if let Some(s) = clock.check(stats.nodes).or(over) {
                    stop = Some(s);
                    break 'search;
                }
                stats.nodes += 1;
                let tile = tiles[n as usize];
                let child = layout.slide(key, tile, n, blank);
                if let std::collections::hash_map::Entry::Vacant(v) = map.entry(child) {
                    v.insert(blank);
                    if child == goal_key {
                        found = Some(child);
                        break 'search;
                    }
                    next.push(child);
                }
            }
        }
        depth += 1;
        std::mem::swap(&mut level, &mut next);
        next.clear();
    }
    stats.stored = map.len() as u64;
    stats.peak_memory = stats
        .peak_memory
        .max(map_bytes_next(&map).0 + queue_bytes(&level, &next));
    stats.seconds = clock.seconds();
    match found {
        Some(k) => Outcome::solved(layout.trace(k, |k| map.get(k).copied()), stats),
        // Every position within `depth` moves has been generated.
        None => Outcome::unsolved(stop, depth + 1, stats),
    }
}
