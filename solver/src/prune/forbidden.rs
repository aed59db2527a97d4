//! The forbidden words of a board: every move string, from every blank cell, whose effect an
//! earlier string (in length-lexicographic order) already made, then trimmed of the words with
//! a forbidden proper suffix (see the parent module for why this keeps IDA* optimal).
//!
//! **Memory.** A deep enumeration meets tens of millions of effects, so nothing large holds a
//! packed board: a string (its directions, two bits a move, and its length) names its effect,
//! which is rebuilt by replaying the moves when needed (a few dozen register operations, much
//! cheaper than the cache miss of a hash probe). The set of effects seen is an open-addressing
//! table of such strings, eight bytes a slot, with a tag of the effect's hash in the spare bits
//! so that a probe replays a string only when the tags agree; a breadth-first level is a vector
//! of strings with the blank's cell and previous cell in their spare bits; a word is one `u64`
//! whose integer order is (start cell, length, directions).
//!
//! **Speed.** The children of a batch of strings are hashed first and their slots prefetched,
//! then inserted in order (the order decides which string of an effect comes first); the start
//! cells are shared among the machine's cores, and so is the trimming.

use super::MAX_DEPTH;
use pdbformat::{Board, Direction};
use std::collections::HashSet;
use std::hash::Hash;

/// The crate's multiplicative hasher for packed words (see `key.rs`).
type Fast = crate::key::BuildFast;

/// Bits of a string's directions: two a move, up to [`MAX_DEPTH`] moves.
const DIR_BITS: u32 = 2 * MAX_DEPTH;

/// The mask of a string's directions.
const DIR_MASK: u64 = (1 << DIR_BITS) - 1;

/// A board's tiles packed into a key: the identity board with the blank on a start cell, after
/// some moves. Only swaps of two cells are needed.
trait Effect: Copy + Eq + Hash {
    /// The identity board: value `i` on cell `i`. The blank holds the value of the cell it
    /// starts on, so every key is a permutation and every swap changes it.
    fn identity(cells: usize) -> Self;
    /// The board with the contents of cells `a` and `b` swapped.
    fn swap(self, a: usize, b: usize) -> Self;
    /// A well-mixed 64-bit hash of the key (its high bits pick a slot).
    fn hash64(&self) -> u64;
}

/// The final mixing step of every key's hash.
#[inline(always)]
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 29)
}

/// Boards of at most 16 cells: 4 bits a cell.
impl Effect for u64 {
    fn identity(cells: usize) -> Self {
        (0..cells).fold(0, |k, c| k | (c as u64) << (4 * c))
    }
    #[inline(always)]
    fn swap(self, a: usize, b: usize) -> Self {
        let x = ((self >> (4 * a)) ^ (self >> (4 * b))) & 0xF;
        self ^ (x << (4 * a)) ^ (x << (4 * b))
    }
    #[inline(always)]
    fn hash64(&self) -> u64 {
        mix(self.wrapping_mul(0xD6E8_FEB8_6659_FD93))
    }
}

/// Boards of 17 to 25 cells: 5 bits a cell.
impl Effect for u128 {
    fn identity(cells: usize) -> Self {
        (0..cells).fold(0, |k, c| k | (c as u128) << (5 * c))
    }
    #[inline(always)]
    fn swap(self, a: usize, b: usize) -> Self {
        let x = ((self >> (5 * a)) ^ (self >> (5 * b))) & 0x1F;
        self ^ (x << (5 * a)) ^ (x << (5 * b))
    }
    #[inline(always)]
    fn hash64(&self) -> u64 {
        let (lo, hi) = (*self as u64, (*self >> 64) as u64);
        mix(lo.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ hi.wrapping_mul(0x9E37_79B9_7F4A_7C15))
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
    #[inline(always)]
    fn swap(mut self, a: usize, b: usize) -> Self {
        self[..].swap(a, b);
        self
    }
    fn hash64(&self) -> u64 {
        let h = self.chunks_exact(8).fold(0u64, |h, c| {
            let v = u64::from_le_bytes(c.try_into().expect("eight bytes"));
            (h.rotate_left(23) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        });
        mix(h)
    }
}

/// A forbidden word packed in one `u64`: start cell (bits 56..64), length (48..56) and
/// directions (two bits a move, first move lowest), so that integer order is (start cell,
/// length, directions).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(super) struct Word(u64);

impl Word {
    fn new(start: usize, len: usize, dirs: u64) -> Word {
        Word((start as u64) << 56 | (len as u64) << 48 | dirs)
    }
    /// The cell the blank starts on.
    pub(super) fn start(self) -> usize {
        (self.0 >> 56) as usize
    }
    /// The number of moves.
    pub(super) fn len(self) -> usize {
        (self.0 >> 48 & 0xFF) as usize
    }
    /// The index in [`Direction::ALL`] of the `i`-th move.
    pub(super) fn dir(self, i: usize) -> usize {
        (self.0 >> (2 * i) & 3) as usize
    }
    fn dirs(self) -> u64 {
        self.0 & DIR_MASK
    }
}

/// The board's moves as a table: `next[cell × 4 + d]` is the cell the blank reaches from
/// `cell` in direction `Direction::ALL[d]`, or `u8::MAX` off the board.
fn move_table(board: Board) -> Vec<u8> {
    (0..board.cells())
        .flat_map(|c| Direction::ALL.map(|d| board.neighbour(c, d).map_or(u8::MAX, |n| n as u8)))
        .collect()
}

/// The effect of a string, rebuilt: `len` moves `dirs` from `start`, and the blank's cell.
#[inline(always)]
fn replay<K: Effect>(id: K, next: &[u8], start: usize, dirs: u64, len: usize) -> (K, usize) {
    let (mut key, mut blank) = (id, start);
    for i in 0..len {
        let to = next[blank * 4 + (dirs >> (2 * i) & 3) as usize] as usize;
        key = key.swap(blank, to);
        blank = to;
    }
    (key, blank)
}

/// The effects seen from one start cell, each named by its first string: slot bits 0..48
/// directions, 48..53 length + 1 (so no string is the empty slot 0), 53..64 a tag of the
/// effect's hash.
struct Seen {
    slots: Vec<u64>,
    shift: u32,
    len: usize,
}

/// Bits of a slot's hash tag.
const TAG_SHIFT: u32 = 53;

impl Seen {
    fn new() -> Seen {
        Seen {
            slots: vec![0; 1 << 10],
            shift: 64 - 10,
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.slots.fill(0);
        self.len = 0;
    }

    /// The slot a hash starts probing at, and its tag in slot position.
    #[inline(always)]
    fn home(&self, hash: u64) -> (usize, u64) {
        (
            (hash >> self.shift) as usize,
            (hash >> 20 & 0x7FF) << TAG_SHIFT,
        )
    }

    /// Asks for the cache line of the slot `hash` probes first.
    #[inline(always)]
    fn prefetch(&self, hash: u64) {
        let (i, _) = self.home(hash);
        pdbformat::memory::prefetch_read(self.slots.as_ptr().wrapping_add(i).cast());
    }

    /// Inserts the effect `key` (hash `hash`), made by the string `dirs` of `len` moves,
    /// unless an earlier string made it (`same(slot)` replays a stored string and compares):
    /// whether it is new.
    #[inline(always)]
    fn insert(&mut self, hash: u64, dirs: u64, len: usize, same: impl Fn(u64) -> bool) -> bool {
        let mask = self.slots.len() - 1;
        let (mut i, tag) = self.home(hash);
        loop {
            let e = self.slots[i];
            if e == 0 {
                self.slots[i] = tag | (len as u64 + 1) << DIR_BITS | dirs;
                self.len += 1;
                return true;
            }
            if e & !((1 << TAG_SHIFT) - 1) == tag && same(e) {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table when `extra` more entries would fill more than seven eighths of it
    /// (`hash_of` rebuilds a stored string's effect hash). Seven eighths, not less: the
    /// deepest level decides the size, and a probe that runs past its first cache line is
    /// cheaper than a table twice as large.
    fn reserve(&mut self, extra: usize, hash_of: impl Fn(u64) -> u64) {
        if (self.len + extra) * 8 <= self.slots.len() * 7 {
            return;
        }
        let mut size = self.slots.len();
        while (self.len + extra) * 8 > size * 7 {
            size *= 2;
        }
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        self.shift = 64 - size.trailing_zeros();
        let mask = size - 1;
        for e in old.into_iter().filter(|&e| e != 0) {
            let (mut i, _) = self.home(hash_of(e));
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = e;
        }
    }
}

/// A string of a breadth-first level: directions (bits 0..48), the blank's cell (48..55) and
/// its previous cell (55..62, [`NO_CELL`] at the start).
type Entry = u64;

/// The previous cell of the empty string.
const NO_CELL: u64 = 0x7F;

/// Candidates hashed and prefetched before any of them is inserted.
const BATCH: usize = 32;

/// Every forbidden word of `board` up to `depth` moves, trimmed, sorted.
pub(super) fn words(board: Board, depth: u32) -> Vec<Word> {
    let raw = match board.cells() {
        0..=16 => enumerate::<u64>(board, depth),
        17..=25 => enumerate::<u128>(board, depth),
        _ => enumerate::<[u8; 64]>(board, depth),
    };
    trim(board, raw)
}

/// The number of threads for `items` independent pieces of work.
fn threads_for(items: usize) -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, items.max(1))
}

/// Every forbidden word of `board` up to `depth` moves, before trimming (in no particular
/// order): the start cells are shared among the machine's cores, each cell's enumeration
/// independent of the others'.
fn enumerate<K: Effect + Send>(board: Board, depth: u32) -> Vec<Word> {
    let cells = board.cells();
    let threads = threads_for(cells);
    if threads == 1 || depth < 10 {
        return enumerate_from::<K>(board, depth, 0..cells);
    }
    std::thread::scope(|scope| {
        let parts: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || enumerate_from::<K>(board, depth, (t..cells).step_by(threads)))
            })
            .collect();
        let parts: Vec<Vec<Word>> = parts
            .into_iter()
            .map(|p| p.join().expect("the enumeration does not panic"))
            .collect();
        let mut all = Vec::with_capacity(parts.iter().map(Vec::len).sum());
        parts.into_iter().for_each(|p| all.extend(p));
        all
    })
}

/// The forbidden words of `board` up to `depth` moves from the start cells `starts`.
fn enumerate_from<K: Effect>(
    board: Board,
    depth: u32,
    starts: impl Iterator<Item = usize>,
) -> Vec<Word> {
    let cells = board.cells();
    let next_cell = move_table(board);
    let id = K::identity(cells);
    let mut words = Vec::new();
    let mut seen = Seen::new();
    let mut level: Vec<Entry> = Vec::new();
    let mut next: Vec<Entry> = Vec::new();
    // (effect, hash, directions, blank cell, previous cell) of the children of a batch.
    let mut batch: Vec<(K, u64, u64, u8, u8)> = Vec::with_capacity(BATCH * 4);
    for start in starts {
        let nc = &next_cell;
        seen.clear();
        level.clear();
        // The boards and blank cells along the string last expanded.
        let mut keys = [id; MAX_DEPTH as usize + 1];
        let mut path = [start as u8; MAX_DEPTH as usize + 1];
        seen.insert(id.hash64(), 0, 0, |_| false);
        level.push((start as u64) << DIR_BITS | NO_CELL << (DIR_BITS + 7));
        for len in 0..depth as usize {
            next.clear();
            let stored = |e: u64| {
                let l = (e >> DIR_BITS & 0x1F) as usize - 1;
                replay(id, nc, start, e & DIR_MASK, l).0
            };
            // The level is in lexicographic order, so a string shares most of its moves with
            // the one before: only the moves after their common prefix are replayed.
            let mut prev: Option<u64> = None;
            for chunk in level.chunks(BATCH) {
                batch.clear();
                for &entry in chunk {
                    let dirs = entry & DIR_MASK;
                    let blank = (entry >> DIR_BITS & 0x7F) as usize;
                    let back = (entry >> (DIR_BITS + 7) & 0x7F) as usize;
                    let common = prev.map_or(0, |p| ((p ^ dirs).trailing_zeros() / 2) as usize);
                    prev = Some(dirs);
                    for i in common.min(len)..len {
                        let to = nc[path[i] as usize * 4 + (dirs >> (2 * i) & 3) as usize];
                        keys[i + 1] = keys[i].swap(path[i] as usize, to as usize);
                        path[i + 1] = to;
                    }
                    let key = keys[len];
                    for d in 0..4 {
                        let to = nc[blank * 4 + d] as usize;
                        // The move back (a duplicate of the string two moves shorter) is the
                        // length-2 word from the previous cell: enumerated there, and any
                        // longer word ending in it would be trimmed.
                        if to == u8::MAX as usize || (to == back && len >= 2) {
                            continue;
                        }
                        let child = key.swap(blank, to);
                        let hash = child.hash64();
                        seen.prefetch(hash);
                        let w = dirs | (d as u64) << (2 * len);
                        batch.push((child, hash, w, to as u8, blank as u8));
                    }
                }
                if (seen.len + batch.len()) * 8 > seen.slots.len() * 7 {
                    seen.reserve(batch.len(), |e| stored(e).hash64());
                    batch.iter().for_each(|c| seen.prefetch(c.1));
                }
                for &(key, hash, w, to, blank) in &batch {
                    let new = seen.insert(hash, w, len + 1, |e| stored(e) == key);
                    if new {
                        next.push(w | (to as u64) << DIR_BITS | (blank as u64) << (DIR_BITS + 7));
                    } else {
                        words.push(Word::new(start, len + 1, w));
                    }
                }
            }
            std::mem::swap(&mut level, &mut next);
        }
    }
    words
}

/// The words without those that have a forbidden proper suffix (from the cell it starts on),
/// sorted; the words are shared among the machine's cores.
fn trim(board: Board, words: Vec<Word>) -> Vec<Word> {
    let set: HashSet<Word, Fast> = words.iter().copied().collect();
    let next_cell = move_table(board);
    let redundant = |w: &Word| {
        // The cell before each move, then the proper suffixes shortest first (most
        // redundant words end in a short word).
        let mut cells = [0usize; MAX_DEPTH as usize + 1];
        cells[0] = w.start();
        for i in 0..w.len() {
            cells[i + 1] = next_cell[cells[i] * 4 + w.dir(i)] as usize;
        }
        (1..w.len())
            .rev()
            .any(|i| set.contains(&Word::new(cells[i], w.len() - i, w.dirs() >> (2 * i))))
    };
    let threads = threads_for(words.len() / 100_000);
    let piece = words.len().div_ceil(threads).max(1);
    let mut kept: Vec<Word> = std::thread::scope(|scope| {
        let parts: Vec<_> = words
            .chunks(piece)
            .map(|c| {
                let redundant = &redundant;
                scope.spawn(move || {
                    c.iter()
                        .filter(|w| !redundant(w))
                        .copied()
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|p| p.join().expect("the trimming does not panic"))
            .collect()
    });
    drop(set);
    drop(words);
    kept.sort_unstable();
    kept
}
