//! One axis of the multi-tile walking distance: the abstraction that keeps, for each line
//! (row, for the vertical axis), how many tiles of each goal line it holds and which line holds
//! the blank, and the exact multi-tile distance of every abstract state to the goal's, by a
//! breadth-first search from the goal's state.
//!
//! A vertical multi-tile move of `k` takes the blank `k` lines up or down; each line it crosses
//! passes one tile (of any goal-line class present there: the abstraction does not know which
//! tile stands in the blank's column) to its neighbour towards the blank's old line. Every move
//! of the puzzle along this axis is such an abstract move, and a move along the other axis
//! leaves the abstraction as it is, so the distance here never exceeds the number of moves
//! along this axis that any solution makes.
//!
//! States are numbered in the order of their packed codes; [`AxisTable::step`] gives the state
//! after one tile crosses from one line into the blank's neighbouring line (a single-tile move,
//! the unit a search's heuristic is updated by).

use std::collections::{HashMap, VecDeque};

/// The most abstract states one axis may have: beyond, the table is refused before it is
/// built (it holds about 57 bytes per state on a 5-line axis). The 4×4's axis has 24,964
/// states; the 5×5's has 65,650,495, which this layout (sorted codes, a transition table) would
/// hold in about 3.7 GB per axis.
pub const MAX_STATES: u128 = 4_000_000;

/// The walking-distance table of one axis.
#[derive(Debug)]
pub struct AxisTable {
    /// Lines (and goal-line classes).
    lines: usize,
    /// Bits per count in a packed code.
    bits: u32,
    /// Every state's packed code, ascending (the state's number is its place here).
    codes: Vec<u128>,
    /// Each state's multi-tile distance to the goal's state.
    dist: Vec<u8>,
    /// Per state, per class `c` and side `s` (0: the tile moves to a lower-numbered line,
    /// 1: to a higher one): the state after a tile of class `c` moves one line, `u32::MAX` if
    /// no such tile is next to the blank's line on that side.
    next: Vec<u32>,
}

/// The counts and the blank's line of one abstract state.
#[derive(Clone, PartialEq, Eq, Debug)]
struct State {
    /// `counts[line * lines + class]`.
    counts: Vec<u8>,
    blank: usize,
}

impl AxisTable {
    /// The table of an axis with `lines` lines of `width` cells, the goal's blank on line
    /// `goal_blank`. Fails when the packed codes or the states would not fit.
    pub fn build(lines: usize, width: usize, goal_blank: usize) -> Result<AxisTable, String> {
        let bits = usize::BITS - width.leading_zeros();
        if lines * lines * bits as usize + 8 > 128 || lines > 255 {
            return Err(format!(
                "the walking distance of {lines} lines of {width} cells does not fit its packed code"
            ));
        }
        let states = state_count(lines, width, goal_blank);
        if states > MAX_STATES {
            return Err(format!(
                "the multi-tile walking distance of {lines} lines of {width} cells has {states} states, more than the {MAX_STATES} this table holds"
            ));
        }
        let mut goal = State {
            counts: vec![0; lines * lines],
            blank: goal_blank,
        };
        for l in 0..lines {
            goal.counts[l * lines + l] = (width - usize::from(l == goal_blank)) as u8;
        }
        let pack = |s: &State| -> u128 {
            let mut code = s.blank as u128;
            for &c in &s.counts {
                code = (code << bits) | c as u128;
            }
            code
        };
        let mut seen: HashMap<u128, u8> = HashMap::new();
        let mut queue = VecDeque::new();
        seen.insert(pack(&goal), 0);
        queue.push_back(goal);
        while let Some(s) = queue.pop_front() {
            let d = seen[&pack(&s)];
            let mut kids = Vec::new();
            for down in [false, true] {
                children(&s, lines, down, &mut kids);
            }
            for k in kids {
                let code = pack(&k);
                if let std::collections::hash_map::Entry::Vacant(v) = seen.entry(code) {
                    v.insert(d + 1);
                    queue.push_back(k);
                }
            }
        }
        let mut pairs: Vec<(u128, u8)> = seen.into_iter().collect();
        pairs.sort_unstable();
        let codes: Vec<u128> = pairs.iter().map(|p| p.0).collect();
        let dist: Vec<u8> = pairs.iter().map(|p| p.1).collect();
        let mut table = AxisTable {
            lines,
            bits,
            codes,
            dist,
            next: Vec::new(),
        };
        let mut next = vec![u32::MAX; table.codes.len() * lines * 2];
        for i in 0..table.codes.len() {
            let s = table.unpack(table.codes[i]);
            for side in 0..2 {
                // The tile comes from the line beyond the blank on the other side.
                let from = if side == 0 {
                    s.blank + 1
                } else {
                    s.blank.wrapping_sub(1)
                };
                if from >= lines {
                    continue;
                }
                for c in 0..lines {
                    if s.counts[from * lines + c] == 0 {
                        continue;
                    }
                    let mut t = s.clone();
                    t.counts[from * lines + c] -= 1;
                    t.counts[s.blank * lines + c] += 1;
                    t.blank = from;
                    next[(i * lines + c) * 2 + side] = table.index(&t).expect("closed under moves");
                }
            }
        }
        table.next = next;
        Ok(table)
    }

    /// Number of abstract states.
    pub fn states(&self) -> usize {
        self.codes.len()
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> usize {
        self.codes.len() * 17 + self.next.len() * 4
    }

    /// The state whose line `l` holds `counts[l * lines + c]` tiles of class `c`, with the
    /// blank on line `blank`; `None` when it is not reachable from the goal.
    pub fn find(&self, counts: &[u8], blank: usize) -> Option<u32> {
        self.index(&State {
            counts: counts.to_vec(),
            blank,
        })
    }

    /// The distance of state `i`.
    #[inline(always)]
    pub fn distance(&self, i: u32) -> u32 {
        self.dist[i as usize] as u32
    }

    /// The state after a tile of class `class` moves one line into the blank's line, towards
    /// lower-numbered lines when `up`.
    #[inline(always)]
    pub fn step(&self, i: u32, class: u8, up: bool) -> u32 {
        self.next[((i as usize) * self.lines + class as usize) * 2 + usize::from(!up)]
    }

    /// The greatest distance.
    pub fn max(&self) -> u8 {
        self.dist.iter().copied().max().unwrap_or(0)
    }

    fn index(&self, s: &State) -> Option<u32> {
        let mut code = s.blank as u128;
        for &c in &s.counts {
            code = (code << self.bits) | c as u128;
        }
        self.codes.binary_search(&code).ok().map(|i| i as u32)
    }

    fn unpack(&self, mut code: u128) -> State {
        let n = self.lines * self.lines;
        let mut counts = vec![0u8; n];
        let mask = (1u128 << self.bits) - 1;
        for c in counts.iter_mut().rev() {
            *c = (code & mask) as u8;
            code >>= self.bits;
        }
        State {
            counts,
            blank: code as usize,
        }
    }
}

/// Every state one multi-tile move from `s` with the blank moving to higher-numbered lines
/// when `down`: the blank crosses 1, 2, … lines, each crossed line passing one tile of any
/// class it holds back towards where the blank was.
fn children(s: &State, lines: usize, down: bool, out: &mut Vec<State>) {
    let next = if down {
        s.blank + 1
    } else {
        s.blank.wrapping_sub(1)
    };
    if next >= lines {
        return;
    }
    for c in 0..lines {
        if s.counts[next * lines + c] == 0 {
            continue;
        }
        let mut t = s.clone();
        t.counts[next * lines + c] -= 1;
        t.counts[s.blank * lines + c] += 1;
        t.blank = next;
        children(&t, lines, down, out);
        out.push(t);
    }
}

/// The number of abstract states: per line of the blank, the matrices of counts whose lines
/// hold `width` tiles (one fewer on the blank's) and whose classes have `width` tiles (one
/// fewer for the goal blank's line), counted line by line over the classes' remaining tiles.
pub fn state_count(lines: usize, width: usize, goal_blank: usize) -> u128 {
    fn fill(
        line: usize,
        sums: &[usize],
        left: &mut Vec<u8>,
        memo: &mut HashMap<(usize, Vec<u8>), u128>,
    ) -> u128 {
        if line == sums.len() {
            return u128::from(left.iter().all(|&x| x == 0));
        }
        if let Some(&n) = memo.get(&(line, left.clone())) {
            return n;
        }
        // Every way to take sums[line] tiles from the classes' remaining ones.
        fn take(
            c: usize,
            need: usize,
            line: usize,
            sums: &[usize],
            left: &mut Vec<u8>,
            memo: &mut HashMap<(usize, Vec<u8>), u128>,
        ) -> u128 {
            if c == left.len() {
                return if need == 0 {
                    fill(line + 1, sums, left, memo)
                } else {
                    0
                };
            }
            let mut n = 0;
            for x in 0..=need.min(left[c] as usize) {
                left[c] -= x as u8;
                n += take(c + 1, need - x, line, sums, left, memo);
                left[c] += x as u8;
            }
            n
        }
        let key = (line, left.clone());
        let n = take(0, sums[line], line, sums, left, memo);
        memo.insert(key, n);
        n
    }
    (0..lines)
        .map(|blank| {
            let sums: Vec<usize> = (0..lines)
                .map(|l| width - usize::from(l == blank))
                .collect();
            let mut left: Vec<u8> = (0..lines)
                .map(|c| (width - usize::from(c == goal_blank)) as u8)
                .collect();
            fill(0, &sums, &mut left, &mut HashMap::new())
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_counts_match_the_built_tables_and_the_5x5_is_measured() {
        for (lines, width) in [(3, 3), (4, 4), (3, 4), (4, 3), (2, 5)] {
            let t = AxisTable::build(lines, width, lines - 1).unwrap();
            assert_eq!(t.states() as u128, state_count(lines, width, lines - 1));
        }
        assert_eq!(state_count(4, 4, 0), 24_964);
        assert_eq!(state_count(5, 5, 4), 65_650_495);
        let e = AxisTable::build(5, 5, 4).unwrap_err();
        assert!(e.contains("65650495 states"), "{e}");
    }
}
