//! Duplicate-move pruning (Taylor & Korf 1993): a finite-state machine over the blank's moves
//! that forbids every move string with a strictly smaller equivalent, built for the board.
//!
//! From every blank cell, move strings are enumerated breadth first, in (length, lexicographic)
//! order of their directions (Up < Down < Left < Right), up to the word depth. A string whose
//! effect (the board it makes from the identity board with the blank on that cell) was already
//! made by an earlier string has a strictly smaller equivalent: it becomes a forbidden word for
//! that cell and is not extended. The first string of each effect, the smallest of its class, is
//! never forbidden, nor is any of its substrings (a substring with a smaller equivalent would
//! give the whole string one), so a search that refuses every string containing a forbidden
//! word still meets the smallest optimal solution: IDA* stays optimal.
//!
//! The forbidden words of all cells go into one Aho-Corasick automaton over the four
//! directions; whether a word matched at the blank's cell is forbidden depends on the cell it
//! started from, so the transition table is indexed by (state, blank cell, move slot) and its
//! entry is the next state or [`FORBIDDEN`]. The inverse move (a string of length 2 equivalent
//! to the empty string) is the depth-2 case of the machine.

use pdbformat::{Board, Direction};
use std::collections::{HashMap, HashSet, VecDeque};

/// The word depth used when none is given: measured on Korf's 100 (see `BENCHMARKS.md`).
pub const DEFAULT_DEPTH: u32 = 8;

/// The largest word depth accepted (the enumeration grows about 2.1× per level).
pub const MAX_DEPTH: u32 = 16;

/// The transition that completes a forbidden word: the move is not made.
pub const FORBIDDEN: u32 = u32::MAX;

/// The machine of one board: `table[(state × cells + cell) × 4 + slot]`, where `slot` indexes
/// the blank's targets in the order of [`crate::position::MoveTable`].
#[derive(Clone, Debug)]
pub struct Pruner {
    cells: usize,
    table: Vec<u32>,
    states: usize,
    words: usize,
    depth: u32,
}

fn dir_index(d: Direction) -> usize {
    Direction::ALL.iter().position(|&x| x == d).unwrap_or(0)
}

impl Pruner {
    /// The machine with no forbidden words (one state): pruning off. The search still never
    /// moves the blank back to its previous cell.
    pub fn off(board: Board) -> Pruner {
        Pruner {
            cells: board.cells(),
            table: vec![0; board.cells() * 4],
            states: 1,
            words: 0,
            depth: 0,
        }
    }

    /// The machine of `board` for words of at most `depth` moves (capped at [`MAX_DEPTH`]).
    #[allow(clippy::needless_range_loop)] // `goto[s][d]` and `goto[fail[s]][d]` side by side
    pub fn new(board: Board, depth: u32) -> Pruner {
        let depth = depth.min(MAX_DEPTH);
        let cells = board.cells();
        // Forbidden words: directions → (mask of start cells, row shift, column shift).
        let mut words: HashMap<Vec<u8>, (u64, i32, i32)> = HashMap::new();
        for start in 0..cells {
            let mut tiles: Vec<u8> = (0..cells as u8).collect();
            tiles[start] = u8::MAX;
            let mut seen: HashSet<Vec<u8>> = HashSet::new();
            seen.insert(tiles.clone());
            let mut level: Vec<(Vec<u8>, Vec<u8>, usize)> = vec![(Vec::new(), tiles, start)];
            for _ in 0..depth {
                let mut next_level = Vec::new();
                for (dirs, tiles, blank) in &level {
                    for d in Direction::ALL {
                        let Some(to) = board.neighbour(*blank, d) else {
                            continue;
                        };
                        let mut t = tiles.clone();
                        t.swap(*blank, to);
                        let mut w = dirs.clone();
                        w.push(dir_index(d) as u8);
                        if seen.contains(&t) {
                            let dr = board.row(to) as i32 - board.row(start) as i32;
                            let dc = board.col(to) as i32 - board.col(start) as i32;
                            words.entry(w).or_insert((0, dr, dc)).0 |= 1u64 << start;
                        } else {
                            seen.insert(t.clone());
                            next_level.push((w, t, to));
                        }
                    }
                }
                level = next_level;
            }
        }
        // The trie.
        let mut goto: Vec<[u32; 4]> = vec![[u32::MAX; 4]];
        let mut end: Vec<Option<(u64, i32, i32)>> = vec![None];
        let mut list: Vec<_> = words.iter().collect();
        list.sort();
        for (w, &info) in &list {
            let mut s = 0usize;
            for &d in w.iter() {
                if goto[s][d as usize] == u32::MAX {
                    goto[s][d as usize] = goto.len() as u32;
                    goto.push([u32::MAX; 4]);
                    end.push(None);
                }
                s = goto[s][d as usize] as usize;
            }
            end[s] = Some(info);
        }
        // Failure links, breadth first, completing `goto` into a full automaton.
        let mut fail = vec![0u32; goto.len()];
        let mut queue = VecDeque::new();
        for d in 0..4 {
            match goto[0][d] {
                u32::MAX => goto[0][d] = 0,
                c => queue.push_back(c as usize),
            }
        }
        while let Some(s) = queue.pop_front() {
            for d in 0..4 {
                let f = goto[fail[s] as usize][d];
                match goto[s][d] {
                    u32::MAX => goto[s][d] = f,
                    c => {
                        fail[c as usize] = f;
                        queue.push_back(c as usize);
                    }
                }
            }
        }
        let states = goto.len();
        let mut table = vec![FORBIDDEN; states * cells * 4];
        for s in 0..states {
            for cell in 0..cells {
                for (slot, (d, to)) in board.neighbours(cell).enumerate() {
                    let n = goto[s][dir_index(d)];
                    // Every word ending here: the node and its failure chain.
                    let mut k = n as usize;
                    let mut forbidden = false;
                    loop {
                        if let Some((mask, dr, dc)) = end[k] {
                            let r = board.row(to) as i32 - dr;
                            let c = board.col(to) as i32 - dc;
                            if r >= 0
                                && c >= 0
                                && (r as usize) < board.height()
                                && (c as usize) < board.width()
                                && mask >> (r as usize * board.width() + c as usize) & 1 == 1
                            {
                                forbidden = true;
                                break;
                            }
                        }
                        if k == 0 {
                            break;
                        }
                        k = fail[k] as usize;
                    }
                    if !forbidden {
                        table[(s * cells + cell) * 4 + slot] = n;
                    }
                }
            }
        }
        Pruner {
            cells,
            table,
            states,
            words: words.len(),
            depth,
        }
    }

    /// The state after the blank on `cell` takes its `slot`-th move from `state`, or
    /// [`FORBIDDEN`]. The start state is 0.
    #[inline(always)]
    pub fn step(&self, state: u32, cell: u8, slot: usize) -> u32 {
        self.table[(state as usize * self.cells + cell as usize) * 4 + slot]
    }

    /// Number of states of the automaton.
    pub fn states(&self) -> usize {
        self.states
    }

    /// Number of distinct forbidden words (over all start cells).
    pub fn words(&self) -> usize {
        self.words
    }

    /// The word depth (0: pruning off).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Bytes held by the transition table.
    pub fn table_bytes(&self) -> usize {
        self.table.len() * std::mem::size_of::<u32>()
    }
}
