//! Duplicate-move pruning (Taylor & Korf 1993): a finite-state machine over the blank's moves
//! that forbids every move string with a strictly smaller equivalent, built for the board.
//!
//! **Words.** From every blank cell, move strings are enumerated breadth first, in (length,
//! lexicographic) order of their directions (Up < Down < Left < Right), up to the word depth.
//! A string whose effect (the board it makes from the identity board with the blank on that
//! cell, packed into an integer and hashed with `key.rs`'s hasher) was already made by an earlier string has a strictly smaller
//! equivalent: it becomes a forbidden word for that cell and is not extended. The first string
//! of each effect, the smallest of its class, is never forbidden, nor is any of its factors (a
//! factor with a smaller equivalent would give the whole string one), so a search that refuses
//! every string containing a forbidden word still meets the smallest optimal solution: IDA*
//! stays optimal.
//!
//! **Trimming.** No proper prefix of a word is forbidden (duplicates are not extended), and a
//! word `a·v·b` with `v` forbidden and `b` non-empty is never enumerated (`a·v` is a duplicate
//! already), so the only redundant words are those with a forbidden proper *suffix*; they are
//! dropped, which changes nothing the machine forbids (the suffix ends on the same move).
//!
//! **Machine.** An Aho-Corasick automaton over words tagged with their start cell: one root per
//! blank cell, so every state knows the blank's cell and a transition is indexed by (state,
//! move slot) only. States that complete a word are not states: the move into them is
//! [`FORBIDDEN`]. The reachable states are then merged by Moore's partition refinement
//! (language equivalence) and numbered from 1 in breadth-first order; the table holds `u16`
//! entries when the states fit, else `u32`. The inverse move (a string of length 2 equivalent
//! to the empty string) is the depth-2 case of the machine.
//!
//! **Building.** The enumeration (`prune/forbidden.rs`) names effects by their strings rather than
//! packed boards; the minimisation refines only the states whose signature may have changed.
//! A 5×5 machine of depth 18 takes about 25 s on two cores and 0.56 GB at its peak.
//!
//! **Cache.** Deep machines take seconds to build, so [`Pruner::shared`] keeps machines of depth [`cache::MIN_CACHED_DEPTH`] and more
//! in checksummed files in the user's cache directory (`prune/cache.rs`) and reads them back in
//! milliseconds.

pub mod cache;
mod forbidden;

pub use cache::Origin;
use forbidden::Word;
use pdbformat::{Board, Direction};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The word depth used on boards of at most 16 cells when none is given: measured on Korf's
/// 100 (see `BENCHMARKS.md`, "Solver: duplicate-move pruning").
pub const DEFAULT_DEPTH: u32 = 12;

/// The word depth used on boards of 17 to 25 cells when none is given: measured on Korf's
/// 24-puzzle instances (see `BENCHMARKS.md`: about 6 % fewer nodes than 16, 4-5 % more than
/// 20, whose machine takes minutes and gigabytes to build); the machine is cached
/// (`prune/cache.rs`), since a 5×5 one of this depth takes about 25 s and 0.56 GB to build.
pub const DEFAULT_DEPTH_LARGE: u32 = 18;

/// The word depth used on boards of more than 25 cells when none is given (their machines
/// grow faster with depth, and no search there was measured).
pub const DEFAULT_DEPTH_HUGE: u32 = 10;

/// The largest word depth accepted (the enumeration grows about 2× per level; a word's moves
/// are packed two bits each into a `u64`).
pub const MAX_DEPTH: u32 = 24;

/// The transition that completes a forbidden word: the move is not made. States are numbered
/// from 1, so a `u16` entry widens to the same value.
pub const FORBIDDEN: u32 = 0;

/// The default word depth for `board`.
pub fn default_depth(board: Board) -> u32 {
    match board.cells() {
        0..=16 => DEFAULT_DEPTH,
        17..=25 => DEFAULT_DEPTH_LARGE,
        _ => DEFAULT_DEPTH_HUGE,
    }
}

/// Which duplicate-move pruning machine a cost-bounded search (`ida`, `hybrid`,
/// `parallel-ida`) steps through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Pruning {
    /// The machine of the board's default word depth ([`default_depth`]).
    #[default]
    BoardDefault,
    /// No machine: only the move straight back to the previous cell is never made.
    Off,
    /// The machine of this word depth (1 to [`MAX_DEPTH`]; 0 is [`Pruning::Off`]).
    Depth(u32),
}

impl Pruning {
    /// The word depth on `board` (0: off).
    pub fn depth(self, board: Board) -> u32 {
        match self {
            Pruning::BoardDefault => default_depth(board),
            Pruning::Off => 0,
            Pruning::Depth(d) => d,
        }
    }

    /// The machine on `board`, built once per process for each board and depth
    /// ([`Pruner::shared`]).
    pub fn machine(self, board: Board) -> Arc<Pruner> {
        Pruner::shared(board, self.depth(board))
    }
}

/// The crate's multiplicative hasher for packed keys.
type Fast = crate::key::BuildFast;

/// The machines built so far, by board width, height and word depth.
type Machines = HashMap<(usize, usize, u32), Arc<Pruner>>;

/// The index of a direction in [`Direction::ALL`].
fn dir_index(d: Direction) -> usize {
    Direction::ALL.iter().position(|&x| x == d).unwrap_or(0)
}

/// The machine's transition table, narrow when it can be.
#[derive(Clone, Debug)]
enum Table {
    Narrow(Vec<u16>),
    /// In huge-page memory: tens of megabytes stepped through at random.
    Wide(pdbformat::memory::HugeTable<u32>),
}

/// The machine of one board: from a state (which fixes the blank's cell), the `slot`-th move
/// (slots in the order of [`crate::position::MoveTable`]) leads to `table[state × 4 + slot]`,
/// or is [`FORBIDDEN`].
#[derive(Clone, Debug)]
pub struct Pruner {
    table: Table,
    starts: Vec<u32>,
    states: usize,
    words: usize,
    depth: u32,
    origin: Origin,
}

impl Pruner {
    /// The machine with no forbidden words (one state): pruning off. The search still never
    /// moves the blank back to its previous cell.
    pub fn off(board: Board) -> Pruner {
        Pruner {
            table: Table::Narrow(vec![0, 0, 0, 0, 1, 1, 1, 1]),
            starts: vec![1; board.cells()],
            states: 1,
            words: 0,
            depth: 0,
            origin: Origin::Built,
        }
    }

    /// The machine of `board` for words of at most `depth` moves (capped at [`MAX_DEPTH`]).
    pub fn new(board: Board, depth: u32) -> Pruner {
        let depth = depth.min(MAX_DEPTH);
        let words = Self::words_of(board, depth);
        let word_count = words.len();
        let cells = board.cells();

        // The trie: node `c < cells` is the root of cell `c`; `child` by direction index.
        let mut child: Vec<[u32; 4]> = vec![[u32::MAX; 4]; cells];
        let mut cell_of: Vec<u8> = (0..cells as u8).collect();
        let mut terminal: Vec<bool> = vec![false; cells];
        for w in &words {
            let mut s = w.start();
            for i in 0..w.len() {
                let d = w.dir(i);
                if child[s][d] == u32::MAX {
                    let to = board
                        .neighbour(cell_of[s] as usize, Direction::ALL[d])
                        .expect("words stay on the board");
                    child[s][d] = child.len() as u32;
                    child.push([u32::MAX; 4]);
                    cell_of.push(to as u8);
                    terminal.push(false);
                }
                s = child[s][d] as usize;
            }
            terminal[s] = true;
        }
        drop(words);

        // Failure links breadth first, completing `child` into the automaton's `delta`
        // (directions that leave the board stay u32::MAX); `out`: a word ends here.
        let n = child.len();
        let mut delta = child;
        let mut fail = vec![0u32; n];
        let mut out = terminal;
        // The breadth-first order of the nodes, roots first, doubles as the queue.
        let mut order: Vec<u32> = Vec::with_capacity(n);
        order.extend(0..cells as u32);
        for root in 0..cells {
            fail[root] = root as u32;
            for (d, to) in board.neighbours(root) {
                let d = dir_index(d);
                match delta[root][d] {
                    u32::MAX => delta[root][d] = to as u32,
                    c => {
                        fail[c as usize] = to as u32;
                        order.push(c);
                    }
                }
            }
        }
        let mut head = cells;
        while head < order.len() {
            let s = order[head] as usize;
            head += 1;
            let f = fail[s] as usize;
            out[s] |= out[f];
            for (d, _) in board.neighbours(cell_of[s] as usize) {
                let d = dir_index(d);
                let via_fail = delta[f][d];
                match delta[s][d] {
                    u32::MAX => delta[s][d] = via_fail,
                    c => {
                        fail[c as usize] = via_fail;
                        order.push(c);
                    }
                }
            }
        }
        drop(fail);

        // The states: nodes where no word ends, in breadth-first order (roots first).
        let live: Vec<u32> = order.into_iter().filter(|&s| !out[s as usize]).collect();
        drop(out);
        let mut index = vec![u32::MAX; n];
        for (i, &s) in live.iter().enumerate() {
            index[s as usize] = i as u32;
        }
        // Transitions by slot between live indices; u32::MAX: forbidden or no such slot.
        let trans: Vec<[u32; 4]> = live
            .iter()
            .map(|&s| {
                let s = s as usize;
                let mut t = [u32::MAX; 4];
                for (slot, (d, _)) in board.neighbours(cell_of[s] as usize).enumerate() {
                    t[slot] = index[delta[s][dir_index(d)] as usize];
                }
                t
            })
            .collect();
        drop(delta);
        drop(index);
        let (class, classes) = minimise(&trans, |i| cell_of[live[i] as usize] as u32);

        // Renumber the classes from 1 in first-seen order (roots first).
        let mut id = vec![0u32; classes];
        let mut next_id = 1u32;
        let mut rep = Vec::with_capacity(classes);
        for (i, &c) in class.iter().enumerate() {
            if id[c as usize] == 0 {
                id[c as usize] = next_id;
                next_id += 1;
                rep.push(i);
            }
        }
        let mut table = vec![FORBIDDEN; (classes + 1) * 4];
        for (k, &i) in rep.iter().enumerate() {
            for slot in 0..4 {
                let t = trans[i][slot];
                if t != u32::MAX {
                    table[(k + 1) * 4 + slot] = id[class[t as usize] as usize];
                }
            }
        }
        let starts = (0..cells).map(|c| id[class[c] as usize]).collect();
        let table = if classes < u16::MAX as usize {
            Table::Narrow(table.into_iter().map(|v| v as u16).collect())
        } else {
            Table::Wide(table.into())
        };
        Pruner {
            table,
            starts,
            states: classes,
            words: word_count,
            depth,
            origin: Origin::Built,
        }
    }

    /// The machine of `board` for `depth` (0: [`Pruner::off`]), made on first use and kept
    /// for the rest of the process (a benchmark solves many puzzles on one board). Machines of
    /// depth [`cache::MIN_CACHED_DEPTH`] or more are read from a file beside the databases
    /// ([`cache::read_published`]), else from the cache directory ([`cache::cache_dir`]), or
    /// built and written there ([`Pruner::load_or_build`]).
    pub fn shared(board: Board, depth: u32) -> Arc<Pruner> {
        static CACHE: OnceLock<Mutex<Machines>> = OnceLock::new();
        let key = (board.width(), board.height(), depth.min(MAX_DEPTH));
        let cache = CACHE.get_or_init(Default::default);
        if let Some(p) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Arc::clone(p);
        }
        // Built outside the lock; two threads racing build it twice and keep one.
        let built = Arc::new(match (depth, cache::cache_dir()) {
            (0, _) => Pruner::off(board),
            (d, _) if d < cache::MIN_CACHED_DEPTH => Pruner::new(board, d),
            (d, dir) => match (cache::read_published(board, d).machine, dir) {
                (Some(p), _) => p,
                (None, Some(dir)) => Pruner::load_or_build(board, d, &dir),
                (None, None) => Pruner::new(board, d),
            },
        });
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(map.entry(key).or_insert(built))
    }

    /// The trimmed forbidden words of `board` up to `depth` moves, each as its start cell and
    /// directions, sorted by start cell, length and directions.
    pub fn forbidden_words(board: Board, depth: u32) -> Vec<(usize, Vec<Direction>)> {
        Self::words_of(board, depth.min(MAX_DEPTH))
            .into_iter()
            .map(|w| {
                let dirs = (0..w.len()).map(|i| Direction::ALL[w.dir(i)]).collect();
                (w.start(), dirs)
            })
            .collect()
    }

    fn words_of(board: Board, depth: u32) -> Vec<Word> {
        forbidden::words(board, depth)
    }

    /// The state a search starts in with the blank on `cell`.
    #[inline]
    pub fn start(&self, cell: u8) -> u32 {
        self.starts[cell as usize]
    }

    /// The state after the `slot`-th move (in the order of [`crate::position::MoveTable`])
    /// from `state`, or [`FORBIDDEN`].
    #[inline(always)]
    pub fn step(&self, state: u32, slot: usize) -> u32 {
        let i = state as usize * 4 + slot;
        match &self.table {
            Table::Narrow(t) => t[i] as u32,
            Table::Wide(t) => t[i],
        }
    }

    /// Asks the processor to bring `state`'s row of next states into the cache (a hint; no
    /// effect elsewhere), so that the child entered in `state` finds it there when it steps.
    /// Only `u32` machines (5×5 from depth 14: megabytes, beyond the cache) ask; a `u16`
    /// machine is small enough to stay in the cache.
    #[inline(always)]
    pub fn prefetch(&self, state: u32) {
        if let Table::Wide(t) = &self.table {
            pdbformat::memory::prefetch_read(t.as_ptr().wrapping_add(state as usize * 4).cast());
        }
    }

    /// Number of states of the (minimised) machine.
    pub fn states(&self) -> usize {
        self.states
    }

    /// Number of forbidden words after trimming (over all start cells).
    pub fn words(&self) -> usize {
        self.words
    }

    /// The word depth (0: pruning off).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Where the machine came from: built here, read from a cache file, or built and cached.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Bytes held by the transition table.
    pub fn table_bytes(&self) -> usize {
        match &self.table {
            Table::Narrow(t) => t.len() * 2,
            Table::Wide(t) => t.len() * 4,
        }
    }
}

/// The coarsest partition of a machine's states with transitions `trans` (`u32::MAX`:
/// forbidden or absent) that refines the partition by `initial` (the blank's cell) and is
/// stable (two states of a class go, by every slot, to one class): the class of every state
/// and the number of classes. The partition is unique, so the classes' numbering is the only
/// thing the method chooses; [`Pruner::new`] renumbers them canonically.
///
/// Method: Moore's rounds, but each round looks only at the states whose signature (the class
/// each slot leads to) may have changed: all of them in the first round, then the predecessors
/// of the states that changed class in the round before. Every class is uniform (one
/// signature) apart from such touched states, so a round sorts the touched states by class and
/// signature; in a class, those whose signature differs from its untouched members' (or, when
/// all are touched, from the largest group's) leave it, one new class per signature. A split
/// never separates equivalent states (their successors are equivalent, hence in one class, by
/// induction), and the rounds end when no state changes class, so the result is the coarsest
/// stable partition, as Moore's.
fn minimise(trans: &[[u32; 4]], initial: impl Fn(usize) -> u32) -> (Vec<u32>, usize) {
    let n = trans.len();
    // The predecessors of every state (compressed rows).
    let mut pred_start = vec![0u32; n + 1];
    for t in trans {
        for &to in t.iter().filter(|&&to| to != u32::MAX) {
            pred_start[to as usize + 1] += 1;
        }
    }
    for i in 0..n {
        pred_start[i + 1] += pred_start[i];
    }
    let mut preds = vec![0u32; pred_start[n] as usize];
    let mut fill = pred_start.clone();
    for (from, t) in trans.iter().enumerate() {
        for &to in t.iter().filter(|&&to| to != u32::MAX) {
            preds[fill[to as usize] as usize] = from as u32;
            fill[to as usize] += 1;
        }
    }
    drop(fill);

    // The initial classes, numbered in first-seen order, their members contiguous in
    // `members` (`range[c]`), `pos[state]` its index there.
    let mut class = vec![0u32; n];
    let mut ids: HashMap<u32, u32, Fast> = HashMap::default();
    for (i, c) in class.iter_mut().enumerate() {
        let len = ids.len() as u32;
        *c = *ids.entry(initial(i)).or_insert(len);
    }
    drop(ids);
    let mut members: Vec<u32> = (0..n as u32).collect();
    members.sort_unstable_by_key(|&i| class[i as usize]);
    let mut pos = vec![0u32; n];
    let mut range: Vec<(u32, u32)> = Vec::new();
    for (k, &i) in members.iter().enumerate() {
        pos[i as usize] = k as u32;
        let c = class[i as usize] as usize;
        if c >= range.len() {
            range.resize(c + 1, (k as u32, k as u32));
        }
        range[c].1 = k as u32 + 1;
    }

    let sig_of = |class: &[u32], i: u32| {
        trans[i as usize].map(|t| if t == u32::MAX { t } else { class[t as usize] })
    };
    let mut touched_flag = vec![true; n];
    let mut touched: Vec<u32> = (0..n as u32).collect();
    // (class, signature, state) of the touched states.
    let mut work: Vec<(u32, [u32; 4], u32)> = Vec::new();
    let mut moved: Vec<u32> = Vec::new();
    // (first, end, the signature that stays) of each class's touched states in `work`.
    let mut groups: Vec<(usize, usize, [u32; 4])> = Vec::new();
    while !touched.is_empty() {
        work.clear();
        work.extend(
            touched
                .iter()
                .map(|&i| (class[i as usize], sig_of(&class, i), i)),
        );
        work.sort_unstable();
        moved.clear();
        // First every class's signature that stays, all read from this round's classes
        // (an untouched member's successors may change class later in the round).
        groups.clear();
        let mut g = 0;
        while g < work.len() {
            // The touched states of one class: work[g..end].
            let c = work[g].0;
            let end = g + work[g..].partition_point(|w| w.0 == c);
            let (lo, hi) = range[c as usize];
            // The signature that stays: the untouched members', else the largest group's.
            let base = if end - g < (hi - lo) as usize {
                let untouched = members[lo as usize..hi as usize]
                    .iter()
                    .find(|&&i| !touched_flag[i as usize])
                    .copied()
                    .expect("a class with fewer touched states than members");
                sig_of(&class, untouched)
            } else {
                let mut best = (0, work[g].1);
                let mut k = g;
                while k < end {
                    let run = work[k..end].partition_point(|w| w.1 == work[k].1);
                    if run > best.0 {
                        best = (run, work[k].1);
                    }
                    k += run;
                }
                best.1
            };
            groups.push((g, end, base));
            g = end;
        }
        // Then the splits: every other signature's group leaves for a new class at the end of
        // the class's range.
        for &(g, end, base) in &groups {
            let c = work[g].0;
            let mut hi = range[c as usize].1;
            let mut k = g;
            while k < end {
                let sig = work[k].1;
                let run = work[k..end].partition_point(|w| w.1 == sig);
                if sig != base {
                    let new = range.len() as u32;
                    let old_hi = hi;
                    for &(_, _, i) in &work[k..k + run] {
                        hi -= 1;
                        let (p, q) = (pos[i as usize], hi);
                        let other = members[q as usize];
                        members.swap(p as usize, q as usize);
                        pos[other as usize] = p;
                        pos[i as usize] = q;
                        moved.push(i);
                        class[i as usize] = new;
                    }
                    range.push((hi, old_hi));
                }
                k += run;
            }
            range[c as usize].1 = hi;
        }
        for &i in &touched {
            touched_flag[i as usize] = false;
        }
        touched.clear();
        for &i in &moved {
            let (p0, p1) = (pred_start[i as usize], pred_start[i as usize + 1]);
            for &p in &preds[p0 as usize..p1 as usize] {
                if !touched_flag[p as usize] {
                    touched_flag[p as usize] = true;
                    touched.push(p);
                }
            }
        }
    }
    let count = range.len();
    (class, count)
}
