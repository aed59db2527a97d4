//! Class tables: the breadth-first search over class boards, in either move metric, and the
//! file of them ([`build_class_file`]).
//!
//! A class board keeps the blank exactly and knows every tile only by its class: the row or
//! column of its goal cell, or a class given per goal cell ([`ClassIndex`]). Moves of either metric map class boards onto class boards
//! and can be undone by a move of the same kind, so a BFS from the goal's class board gives
//! every board's exact distance in the abstraction: an admissible estimate of the positions
//! it abstracts. Unlike sums of disjoint pattern tables, it stays admissible in the
//! multi-tile metric, where one move shifts tiles of several patterns.
//!
//! The search is level-synchronous and parallel: each level scans the byte table for entries
//! of the current depth (*push*: their neighbours not yet reached get depth + 1) or, once the
//! frontier outnumbers the entries left, for unreached entries (*pull*: one with a neighbour
//! at the current depth gets depth + 1). Every write of a level stores the same value, through
//! the byte table's word-sized atomics, so the table does not depend on the thread count.

use crate::byte_table::{ByteTable, Entries, UNREACHED};
use crate::error::BuildError;
use crate::observer::{BuildObserver, TableSummary};
use crate::pool::in_pool;
use crate::stats::ValueStats;
use pdbformat::format::{write_class_pdb, ClassTableSource, Encoding, WriteOptions};
use pdbformat::rank::{ClassIndex, ClassLabels};
use pdbformat::{Goal, Metric, Pattern, TableKind};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Everything that defines a file of class tables.
#[derive(Clone, Debug)]
pub struct ClassBuildRequest {
    /// Goal (and board); only its board and the blank's goal cell shape the tables.
    pub goal: Goal,
    /// The metric the tables count moves in.
    pub metric: Metric,
    /// The labellings, one table each ([`default_labels`] for the goal-row tables).
    pub labels: Vec<ClassLabels>,
    /// Worker threads; `None` for all cores.
    pub threads: Option<usize>,
    /// Entry encoding (`u8` or `u4`); `None` for `u4` when every value fits, `u8` otherwise.
    pub encoding: Option<Encoding>,
    /// Compression and levels.
    pub write: WriteOptions,
}

/// The goal-row class tables of `goal`: the goal-row table, and the goal-column table unless
/// the transposed row lookup serves (a square board with the blank's goal cell on the main
/// diagonal, where transposing maps the goal's class board onto itself).
pub fn default_labels(goal: &Goal) -> Vec<ClassLabels> {
    let board = goal.board();
    let b = goal.blank_cell();
    if board.is_square() && board.row(b) == board.col(b) {
        vec![ClassLabels::Rows]
    } else {
        vec![ClassLabels::Rows, ClassLabels::Columns]
    }
}

/// Builds the class tables of `req` (one per labelling) and writes them to `path`; returns
/// each table's summary. On any error nothing is left under `path`.
pub fn build_class_file(
    req: &ClassBuildRequest,
    path: &Path,
    observer: &dyn BuildObserver,
) -> Result<Vec<TableSummary>, BuildError> {
    if matches!(req.encoding, Some(e) if e == Encoding::Bit1) {
        return Err(BuildError::Bit1NeedsZeroAware);
    }
    if req.labels.is_empty() {
        return Err(BuildError::NoClasses);
    }
    let mut built = Vec::with_capacity(req.labels.len());
    for (t, &labels) in req.labels.iter().enumerate() {
        built.push(build_class_table(
            &req.goal,
            labels,
            req.metric,
            req.threads,
            t,
            observer,
        )?);
    }
    let encoding = req.encoding.unwrap_or_else(|| {
        if built.iter().all(|(_, s)| s.max_value <= 15) {
            Encoding::U4
        } else {
            Encoding::U8
        }
    });
    for (_, s) in &built {
        crate::request::check_fits(encoding, s)?;
    }
    // Byte entries are written as built; only u4 needs a packed copy.
    let encoded: Vec<std::borrow::Cow<'_, [u8]>> = built
        .iter()
        .map(|(e, _)| match encoding {
            Encoding::U8 => std::borrow::Cow::Borrowed(&e[..]),
            _ => std::borrow::Cow::Owned(pdbformat::format::encode_entries(e, encoding)),
        })
        .collect();
    let sources: Vec<ClassTableSource<'_>> = (req.labels.iter().zip(&built).zip(&encoded))
        .map(|((&labels, (_, s)), entries)| ClassTableSource {
            labels,
            encoding,
            max_value: s.max_value,
            entries,
        })
        .collect();
    write_class_pdb(path, &req.goal, req.metric, &sources, &req.write)
        .map_err(BuildError::writing(path))?;
    observer.output_written(encoded.iter().map(|e| e.len() as u64).sum());
    Ok(built.into_iter().map(|(_, s)| s).collect())
}

/// Builds the class table of `goal`'s board and blank cell labelled by `labels` in `metric`, as table
/// number `table` for `observer`: its entries (one exact distance per class board, in the
/// order of [`ClassIndex`]) and its summary.
pub fn build_class_table(
    goal: &Goal,
    labels: ClassLabels,
    metric: Metric,
    threads: Option<usize>,
    table: usize,
    observer: &dyn BuildObserver,
) -> Result<(Entries, TableSummary), BuildError> {
    let board = goal.board();
    let all: Vec<usize> = (1..board.cells()).collect();
    let pattern = Pattern::new(board, &all).expect("every tile is a pattern");
    let index = ClassIndex::for_goal(goal, labels).map_err(|source| BuildError::Index {
        pattern: format!("{labels} classes"),
        source,
    })?;
    observer.table_started(table, &pattern, TableKind::ZeroAware, index.len());
    let start = Instant::now();
    let entries = in_pool(threads, || -> Result<Entries, BuildError> {
        Ok(bfs(&index, metric, table, observer))
    })?;
    let summary = TableSummary::new(
        &pattern,
        TableKind::ZeroAware,
        ValueStats::of(&entries),
        start,
    );
    observer.table_done(table, &summary);
    Ok((entries, summary))
}

/// Entries per unit of work of a level.
const CHUNK: usize = 1 << 16;

/// The most neighbours a class board has: the blank reaches every other cell of its row and
/// column (boards of at most 64 cells).
const MAX_NEIGHBOURS: usize = 64;

/// The level-synchronous BFS from the goal's class board.
fn bfs(index: &ClassIndex, metric: Metric, table: usize, observer: &dyn BuildObserver) -> Entries {
    let len = index.len() as usize;
    let t = ByteTable::new(len);
    let mut masks = [0u64; 64];
    index.goal_masks(&mut masks[..index.classes()]);
    let goal = index.rank(index.blank_goal(), &masks[..index.classes()]);
    t.claim(goal as usize, 0);
    let (mut reached, mut frontier) = (1u64, 1u64);
    let chunks = len.div_ceil(CHUNK);
    for depth in 0u8..UNREACHED - 1 {
        observer.level_started(table, depth);
        let pull = frontier > len as u64 - reached;
        let scanned = AtomicU64::new(0);
        let found: u64 = (0..chunks)
            .into_par_iter()
            .map(|c| {
                let range = c * CHUNK..((c + 1) * CHUNK).min(len);
                let mut n = 0u64;
                let mut state = ClassBoard::new(index);
                // Every neighbour's index first, their words prefetched, then read or
                // claimed: the table's cache misses overlap instead of following each other.
                let mut next = [0u64; MAX_NEIGHBOURS];
                let gather = |state: &ClassBoard, next: &mut [u64; MAX_NEIGHBOURS]| {
                    let mut k = 0;
                    state.any_neighbour(metric, |j| {
                        next[k] = j;
                        t.prefetch(j as usize);
                        k += 1;
                        false
                    });
                    k
                };
                if pull {
                    t.for_each_equal(range.clone(), UNREACHED, |i| {
                        state.load(i as u64);
                        let k = gather(&state, &mut next);
                        if next[..k].iter().any(|&j| t.get(j as usize) == depth) {
                            t.claim(i, depth + 1);
                            n += 1;
                        }
                    });
                } else {
                    t.for_each_equal(range.clone(), depth, |i| {
                        state.load(i as u64);
                        let k = gather(&state, &mut next);
                        for &j in &next[..k] {
                            n += t.claim(j as usize, depth + 1) as u64;
                        }
                    });
                }
                let s = scanned.fetch_add(range.len() as u64, Relaxed) + range.len() as u64;
                observer.chunk_done(table, s);
                n
            })
            .sum();
        reached += found;
        frontier = found;
        observer.level_done(table, depth, reached);
        if found == 0 {
            break;
        }
        observer.after_level(table, depth);
    }
    t.into_entries()
}

/// One class board being expanded: its blank, class masks and the class on every cell.
pub(crate) struct ClassBoard<'a> {
    index: &'a ClassIndex,
    blank: usize,
    masks: [u64; 64],
    class: [u8; 64],
}

impl<'a> ClassBoard<'a> {
    pub(crate) fn new(index: &'a ClassIndex) -> ClassBoard<'a> {
        ClassBoard {
            index,
            blank: 0,
            masks: [0; 64],
            class: [0; 64],
        }
    }

    /// Makes this the board of index `i`.
    pub(crate) fn load(&mut self, i: u64) {
        let k = self.index.classes();
        self.blank = self.index.unrank(i, &mut self.masks[..k]);
        for (c, &m) in self.masks[..k].iter().enumerate() {
            let mut m = m;
            while m != 0 {
                self.class[m.trailing_zeros() as usize] = c as u8;
                m &= m - 1;
            }
        }
    }

    /// Calls `f` with the index of every board one move of `metric` away, until `f` returns
    /// true; returns whether it did.
    pub(crate) fn any_neighbour(&self, metric: Metric, mut f: impl FnMut(u64) -> bool) -> bool {
        let board = self.index.board();
        let (w, b) = (board.width() as isize, self.blank);
        let (row, col) = (board.row(b), board.col(b));
        let lines = [
            (-1isize, col),
            (1, board.width() - 1 - col),
            (-w, row),
            (w, board.height() - 1 - row),
        ];
        let k = self.index.classes();
        for (step, room) in lines {
            let reach = match metric {
                Metric::Stm => room.min(1),
                Metric::Mtm => room,
            };
            let mut masks = self.masks;
            let mut cell = b as isize;
            for _ in 0..reach {
                let next = cell + step;
                // The tile on `next` slides onto `cell`; the blank goes to `next`.
                let c = self.class[next as usize] as usize;
                masks[c] ^= (1u64 << next) | (1u64 << cell);
                cell = next;
                if f(self.index.rank(cell as usize, &masks[..k])) {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observer::NoProgress;
    use std::collections::{HashMap, VecDeque};

    /// The class table by a plain BFS over class boards held as cell arrays in a hash map.
    fn brute_force(goal: &Goal, labels: ClassLabels, metric: Metric) -> HashMap<Vec<u8>, u8> {
        let board = goal.board();
        let n = board.cells();
        let start: Vec<u8> = (0..n)
            .map(|c| {
                if c == goal.blank_cell() {
                    u8::MAX
                } else {
                    labels.class_of(board, c) as u8
                }
            })
            .collect();
        let mut dist = HashMap::from([(start.clone(), 0u8)]);
        let mut queue = VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            let d = dist[&s];
            let b = s.iter().position(|&x| x == u8::MAX).unwrap();
            for dir in pdbformat::Direction::ALL {
                let mut next = s.clone();
                let mut at = b;
                while let Some(to) = board.neighbour(at, dir) {
                    next.swap(at, to);
                    at = to;
                    if !dist.contains_key(&next) {
                        dist.insert(next.clone(), d + 1);
                        queue.push_back(next.clone());
                    }
                    if metric == Metric::Stm {
                        break;
                    }
                }
            }
        }
        dist
    }

    #[test]
    fn tables_equal_a_brute_force_bfs() {
        for (w, h) in [(3, 3), (2, 4), (4, 2), (3, 2)] {
            let board = pdbformat::Board::new(w, h).unwrap();
            for goal in [Goal::blank_first(board), Goal::blank_last(board)] {
                // Rows, columns, and every tile's class its number mod 3 (neither).
                let thirds: Vec<Vec<usize>> = (0..3)
                    .map(|c| (1..board.cells()).filter(|t| t % 3 == c).collect())
                    .collect();
                let thirds = ClassLabels::Cells(
                    pdbformat::rank::CellClasses::from_tile_groups(&goal, &thirds).unwrap(),
                );
                for axis in [ClassLabels::Rows, ClassLabels::Columns, thirds] {
                    for metric in Metric::ALL {
                        let index = ClassIndex::for_goal(&goal, axis).unwrap();
                        let (entries, summary) =
                            build_class_table(&goal, axis, metric, Some(2), 0, &NoProgress)
                                .unwrap();
                        let oracle = brute_force(&goal, axis, metric);
                        assert_eq!(oracle.len() as u64, index.len(), "all reachable");
                        assert_eq!(summary.unreached, 0);
                        let mut masks = vec![0u64; index.classes()];
                        for (cells, &d) in &oracle {
                            masks.iter_mut().for_each(|m| *m = 0);
                            let mut blank = 0;
                            for (x, &c) in cells.iter().enumerate() {
                                if c == u8::MAX {
                                    blank = x;
                                } else {
                                    masks[c as usize] |= 1 << x;
                                }
                            }
                            let i = index.rank(blank, &masks);
                            assert_eq!(entries[i as usize], d, "{goal} {axis} {metric}");
                        }
                        let one = build_class_table(&goal, axis, metric, Some(1), 0, &NoProgress)
                            .unwrap()
                            .0;
                        assert_eq!(&one[..], &entries[..], "whatever the thread count");
                    }
                }
            }
        }
    }
}
