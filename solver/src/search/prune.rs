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
//! **Cache.** Deep machines take seconds to build (a 5×5 machine of depth 16 about half a
//! minute), so [`Pruner::shared`] keeps machines of depth [`cache::MIN_CACHED_DEPTH`] and more
//! in checksummed files in the user's cache directory (`prune/cache.rs`) and reads them back in
//! milliseconds.

pub mod cache;

pub use cache::Origin;
use pdbformat::{Board, Direction};
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};

/// The word depth used on boards of at most 16 cells when none is given: measured on Korf's
/// 100 (see `BENCHMARKS.md`, "Solver: duplicate-move pruning").
pub const DEFAULT_DEPTH: u32 = 12;

/// The word depth used on boards of 17 to 25 cells when none is given: measured on Korf's
/// 24-puzzle instances (see `BENCHMARKS.md`); the machine is cached (`prune/cache.rs`), since
/// a 5×5 one of this depth takes half a minute or more to build.
pub const DEFAULT_DEPTH_LARGE: u32 = 16;

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

/// The crate's multiplicative hasher for packed keys: the enumeration hashes millions of packed
/// boards, where SipHash's flood resistance buys nothing.
type Fast = super::key::BuildFast;

/// The machines built so far, by board width, height and word depth.
type Machines = HashMap<(usize, usize, u32), Arc<Pruner>>;

/// A board's tiles packed into a key: the identity board with the blank on a start cell, after
/// some moves. Only swaps of two cells are needed.
trait Effect: Copy + Eq + Hash {
    /// The identity board: value `i` on cell `i`. The blank holds the value of the cell it
    /// starts on, so every key is a permutation and every swap changes it.
    fn identity(cells: usize) -> Self;
    /// The board with the contents of cells `a` and `b` swapped.
    fn swap(self, a: usize, b: usize) -> Self;
}

/// Boards of at most 16 cells: 4 bits a cell.
impl Effect for u64 {
    fn identity(cells: usize) -> Self {
        (0..cells).fold(0, |k, c| k | (c as u64) << (4 * c))
    }
    #[inline]
    fn swap(self, a: usize, b: usize) -> Self {
        let x = ((self >> (4 * a)) ^ (self >> (4 * b))) & 0xF;
        self ^ (x << (4 * a)) ^ (x << (4 * b))
    }
}

/// Boards of 17 to 25 cells: 5 bits a cell.
impl Effect for u128 {
    fn identity(cells: usize) -> Self {
        (0..cells).fold(0, |k, c| k | (c as u128) << (5 * c))
    }
    #[inline]
    fn swap(self, a: usize, b: usize) -> Self {
        let x = ((self >> (5 * a)) ^ (self >> (5 * b))) & 0x1F;
        self ^ (x << (5 * a)) ^ (x << (5 * b))
    }
}

/// Larger boards (up to 64 cells): a byte a cell.
impl Effect for [u8; 64] {
    fn identity(cells: usize) -> Self {
        let mut k = [0u8; 64];
        for (c, v) in k.iter_mut().enumerate().take(cells) {
            *v = c as u8;
        }
        k
    }
    #[inline]
    fn swap(mut self, a: usize, b: usize) -> Self {
        self[..].swap(a, b);
        self
    }
}

/// The index of a direction in [`Direction::ALL`].
fn dir_index(d: Direction) -> usize {
    Direction::ALL.iter().position(|&x| x == d).unwrap_or(0)
}

/// A forbidden word: its start cell, length and directions (2 bits each, first move in the
/// lowest bits).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
struct Word {
    start: u8,
    len: u8,
    dirs: u64,
}

impl Word {
    fn dir(&self, i: usize) -> usize {
        (self.dirs >> (2 * i) & 3) as usize
    }
}

/// Every forbidden word of `board` up to `depth` moves, before trimming (in no particular
/// order): the start cells are shared among the machine's cores, each cell's enumeration
/// independent of the others'.
fn enumerate<K: Effect + Send>(board: Board, depth: u32) -> Vec<Word> {
    let cells = board.cells();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, cells);
    if threads == 1 || depth < 10 {
        return enumerate_from::<K>(board, depth, 0..cells);
    }
    std::thread::scope(|scope| {
        let parts: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || enumerate_from::<K>(board, depth, (t..cells).step_by(threads)))
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|p| p.join().expect("the enumeration does not panic"))
            .collect()
    })
}

/// The forbidden words of `board` up to `depth` moves from the start cells `starts`.
fn enumerate_from<K: Effect>(
    board: Board,
    depth: u32,
    starts: impl Iterator<Item = usize>,
) -> Vec<Word> {
    let cells = board.cells();
    let mut words = Vec::new();
    let mut seen: HashSet<K, Fast> = HashSet::default();
    // (key, directions, blank cell, the blank's previous cell or u8::MAX).
    let mut level: Vec<(K, u64, u8, u8)> = Vec::new();
    let mut next: Vec<(K, u64, u8, u8)> = Vec::new();
    for start in starts {
        seen.clear();
        level.clear();
        let id = K::identity(cells);
        seen.insert(id);
        level.push((id, 0, start as u8, u8::MAX));
        for len in 0..depth {
            next.clear();
            for &(key, dirs, blank, back) in &level {
                for (d, to) in board.neighbours(blank as usize) {
                    // The move back (a duplicate of the string two moves shorter) is the
                    // length-2 word from the previous cell: enumerated there, and any longer
                    // word ending in it would be trimmed.
                    if to == back as usize && len >= 2 {
                        continue;
                    }
                    let k = key.swap(blank as usize, to);
                    let w = dirs | (dir_index(d) as u64) << (2 * len);
                    if seen.insert(k) {
                        next.push((k, w, to as u8, blank));
                    } else {
                        words.push(Word {
                            start: start as u8,
                            len: len as u8 + 1,
                            dirs: w,
                        });
                    }
                }
            }
            std::mem::swap(&mut level, &mut next);
        }
    }
    words
}

/// The words without those that have a forbidden proper suffix (from the cell it starts on).
fn trim(board: Board, words: Vec<Word>) -> Vec<Word> {
    let set: HashSet<Word, Fast> = words.iter().copied().collect();
    let mut kept: Vec<Word> = words
        .into_iter()
        .filter(|w| {
            // The cell before each move, then the proper suffixes shortest first (most
            // redundant words end in a short word).
            let mut cells = [0u8; MAX_DEPTH as usize + 1];
            cells[0] = w.start;
            for i in 0..w.len as usize {
                cells[i + 1] = board
                    .neighbour(cells[i] as usize, Direction::ALL[w.dir(i)])
                    .unwrap_or(cells[i] as usize) as u8;
            }
            !(1..w.len as usize).rev().any(|i| {
                set.contains(&Word {
                    start: cells[i],
                    len: w.len - i as u8,
                    dirs: w.dirs >> (2 * i),
                })
            })
        })
        .collect();
    kept.sort_unstable();
    kept
}

/// The machine's transition table, narrow when it can be.
#[derive(Clone, Debug)]
enum Table {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
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
        let cells = board.cells();

        // The trie: node `c < cells` is the root of cell `c`; `child` by direction index.
        let mut child: Vec<[u32; 4]> = vec![[u32::MAX; 4]; cells];
        let mut cell_of: Vec<u8> = (0..cells as u8).collect();
        let mut terminal: Vec<bool> = vec![false; cells];
        for w in &words {
            let mut s = w.start as usize;
            for i in 0..w.len as usize {
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

        // Failure links breadth first, completing `child` into the automaton's `delta`
        // (directions that leave the board stay u32::MAX); `out`: a word ends here.
        let n = child.len();
        let mut delta = child;
        let mut fail = vec![0u32; n];
        let mut out = terminal;
        let mut order = Vec::with_capacity(n);
        let mut queue = VecDeque::new();
        for root in 0..cells {
            fail[root] = root as u32;
            for (d, to) in board.neighbours(root) {
                let d = dir_index(d);
                match delta[root][d] {
                    u32::MAX => delta[root][d] = to as u32,
                    c => {
                        fail[c as usize] = to as u32;
                        queue.push_back(c as usize);
                    }
                }
            }
            order.push(root);
        }
        while let Some(s) = queue.pop_front() {
            order.push(s);
            let f = fail[s] as usize;
            out[s] |= out[f];
            for (d, _) in board.neighbours(cell_of[s] as usize) {
                let d = dir_index(d);
                let via_fail = delta[f][d];
                match delta[s][d] {
                    u32::MAX => delta[s][d] = via_fail,
                    c => {
                        fail[c as usize] = via_fail;
                        queue.push_back(c as usize);
                    }
                }
            }
        }

        // The states: nodes where no word ends, in breadth-first order (roots first).
        let live: Vec<usize> = order.into_iter().filter(|&s| !out[s]).collect();
        let mut index = vec![u32::MAX; n];
        for (i, &s) in live.iter().enumerate() {
            index[s] = i as u32;
        }
        // Transitions by slot between live indices; u32::MAX: forbidden or no such slot.
        let trans: Vec<[u32; 4]> = live
            .iter()
            .map(|&s| {
                let mut t = [u32::MAX; 4];
                for (slot, (d, _)) in board.neighbours(cell_of[s] as usize).enumerate() {
                    t[slot] = index[delta[s][dir_index(d)] as usize];
                }
                t
            })
            .collect();
        let (class, classes) = minimise(&trans, |i| cell_of[live[i]] as u32);

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
            Table::Wide(table)
        };
        Pruner {
            table,
            starts,
            states: classes,
            words: words.len(),
            depth,
            origin: Origin::Built,
        }
    }

    /// The machine of `board` for `depth` (0: [`Pruner::off`]), made on first use and kept
    /// for the rest of the process (a benchmark solves many puzzles on one board). Machines of
    /// depth [`cache::MIN_CACHED_DEPTH`] or more are read from the cache directory
    /// ([`cache::cache_dir`]), or built and written there ([`Pruner::load_or_build`]).
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
            (d, Some(dir)) if d >= cache::MIN_CACHED_DEPTH => Pruner::load_or_build(board, d, &dir),
            (d, _) => Pruner::new(board, d),
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
                let dirs = (0..w.len as usize)
                    .map(|i| Direction::ALL[w.dir(i)])
                    .collect();
                (w.start as usize, dirs)
            })
            .collect()
    }

    fn words_of(board: Board, depth: u32) -> Vec<Word> {
        let raw = match board.cells() {
            0..=16 => enumerate::<u64>(board, depth),
            17..=25 => enumerate::<u128>(board, depth),
            _ => enumerate::<[u8; 64]>(board, depth),
        };
        trim(board, raw)
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
            crate::db::prefetch_read(t.as_ptr().wrapping_add(state as usize * 4).cast());
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

/// Moore's partition refinement of a machine with transitions `trans` (`u32::MAX`: forbidden
/// or absent), starting from the partition by `initial` (the blank's cell): the class of every
/// state and the number of classes.
fn minimise(trans: &[[u32; 4]], initial: impl Fn(usize) -> u32) -> (Vec<u32>, usize) {
    let n = trans.len();
    let mut class: Vec<u32> = (0..n).map(initial).collect();
    let mut count = {
        let mut seen: HashSet<u32, Fast> = HashSet::default();
        class.iter().for_each(|&c| {
            seen.insert(c);
        });
        seen.len()
    };
    let mut ids: HashMap<(u32, [u32; 4]), u32, Fast> = HashMap::default();
    loop {
        ids.clear();
        let next: Vec<u32> = (0..n)
            .map(|i| {
                let sig = trans[i].map(|t| {
                    if t == u32::MAX {
                        u32::MAX
                    } else {
                        class[t as usize]
                    }
                });
                let len = ids.len() as u32;
                *ids.entry((class[i], sig)).or_insert(len)
            })
            .collect();
        let new_count = ids.len();
        class = next;
        if new_count == count {
            return (class, count);
        }
        count = new_count;
    }
}
