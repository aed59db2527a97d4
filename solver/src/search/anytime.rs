//! Anytime weighted A* (`anytime`): a first solution fast, then shorter ones, each with a
//! proven lower bound on the optimal length, until the bound asked for is proven, the time
//! is up, the memory limit is near, or the open list is empty (the solution is optimal).
//!
//! # The method
//! Weighted A* (`f_w = g + w·h`, ties by smaller `h`) over one hash table of packed positions
//! (the [`Node`] of [`super::astar`]: best `g`, the parent's blank, closed flag, heuristic
//! memo). A goal is recognised when it is *generated*; its path becomes the incumbent and the
//! search goes on: every node with `g + h ≥` the incumbent's length is pruned (it cannot lead
//! to a shorter solution), and the weight is lowered ([`next_weight`]) and the open list
//! reordered, so that the search turns, solution after solution, into A*. Each solution is
//! shortened before it is kept ([`super::shortcut`]: loops cut, windows of a few dozen moves
//! replaced by optimal ones), which makes the pruning bite much earlier.
//!
//! A closed node reached by a shorter path is reopened. That keeps the classic A* argument:
//! on every optimal path the first node not closed with its optimal `g` is open with that
//! `g`, whatever order nodes are expanded in. So `min(g + h)` over the open list (with the
//! admissible, unweighted `h`) is a lower bound on the optimum, as long as that path was not
//! pruned, i.e. as long as the optimum is shorter than the incumbent; the proven bound is
//! therefore `min(incumbent, min over open of g + h)`, never below `h(start)`. It is read
//! from a histogram of the open entries' `g + h` (stale entries included, which only lowers
//! it). An empty open list proves the incumbent optimal.
//!
//! # Stopping
//! With [`Anytime::within`] `W` the search stops once `length ≤ W × lower bound`. A time
//! limit ([`super::Limits::timeout`]) stops it with its best solution and
//! [`super::Stop::Time`]; with neither, it improves for [`DEFAULT_SECONDS`]. The search
//! itself runs for nine tenths of the time; the rest polishes the best solution with
//! windows of growing size ([`shortcut::polish`]). When the memory limit stops the search
//! first, its table is freed and the polish has the rest of the time. The memory limit
//! stops it cleanly the same way, with the best solution so far. Without a solution, a
//! limit gives the usual stopped error with the bound proven.

use super::astar::{keep_memo, with_key, Node};
use super::bucket_queue::Item;
use super::observer::{Event, Improvement};
use super::shortcut;
use super::{Anytime, Clock, Outcome, Search, Stats, Stop};
use crate::heuristic::Heuristic;
use crate::key::{map_bytes_next, Layout, Packed, PosMap};
use crate::position::{MoveTable, Position, MAX_CELLS, NO_CELL};
use pdbformat::{Board, Goal};
use std::collections::hash_map::Entry;
use std::collections::BinaryHeap;
use std::time::Duration;

/// The weight of the first solution.
pub const START_WEIGHT: f64 = 5.0;

/// Seconds an anytime search improves for when neither a bound (`within`) nor a time limit
/// is given.
pub const DEFAULT_SECONDS: f64 = 5.0;

/// The share of the time budget the search runs for; the rest polishes the best solution
/// ([`shortcut::polish`]).
const POLISH_AT: f64 = 0.9;

/// The weight after a solution found with weight `w`: a step towards 1 (plain A*).
pub(crate) fn next_weight(w: f64) -> f64 {
    if w <= 1.25 {
        1.0
    } else if w > 2.0 {
        // Measured on 6x6 with the bands-of-five database: the first solution at 5 comes
        // fast but long, and stepping down from there spends the time at high weights;
        // weight 2 from the start finds nothing in seconds under the weaker fallback.
        2.0
    } else {
        // Measured on 6x6: a gentler step (0.85) got stuck at higher weights, a steeper one
        // (0.55) did no better.
        (1.0 + (w - 1.0) * 0.7).max(1.0)
    }
}

/// How many open entries have each `g + h`, and the smallest with any.
#[derive(Default)]
struct Histogram {
    count: Vec<u64>,
    low: usize,
}

impl Histogram {
    fn add(&mut self, f: u32) {
        let f = f as usize;
        if f >= self.count.len() {
            self.count.resize(f + 1, 0);
        }
        self.count[f] += 1;
        self.low = self.low.min(f);
    }

    fn remove(&mut self, f: u32) {
        self.count[f as usize] -= 1;
    }

    /// The smallest `g + h` held, if any.
    fn min(&mut self) -> Option<u32> {
        while self.low < self.count.len() && self.count[self.low] == 0 {
            self.low += 1;
        }
        (self.low < self.count.len()).then_some(self.low as u32)
    }

    fn clear(&mut self) {
        self.count.clear();
        self.low = 0;
    }
}

/// The best solution so far: the blank's cells after each move.
struct Incumbent {
    path: Vec<u8>,
}

/// The search's state.
struct Run<'a, H: Heuristic, K: Packed> {
    h: &'a H,
    search: &'a Search,
    board: Board,
    /// The start's tiles.
    start: [u8; MAX_CELLS],
    layout: Layout,
    moves: MoveTable,
    goal_key: K,
    map: PosMap<K, Node>,
    memos: Vec<u8>,
    memo_len: usize,
    open: BinaryHeap<Item<K>>,
    fs: Histogram,
    /// The weight × 1024.
    w: u64,
    weight: f64,
    best: Option<Incumbent>,
    /// The highest lower bound proven so far.
    bound: u32,
    within: Option<f64>,
    nodes: u64,
    expanded: u64,
    peak: u64,
    stored_peak: u64,
    solutions: u32,
    max_memory: u64,
    initial_h: u32,
}

impl<'a, H: Heuristic, K: Packed> Run<'a, H, K> {
    /// The length of the incumbent (`u32::MAX` with none).
    fn limit(&self) -> u32 {
        self.best.as_ref().map_or(u32::MAX, |b| b.path.len() as u32)
    }

    fn prio(&self, g: u32, h: u32) -> u64 {
        g as u64 * 1024 + self.w * h as u64
    }

    /// Bytes held now, and at the peak of the next insertion.
    fn memory(&self) -> (u64, u64) {
        let (m, m2) = map_bytes_next(&self.map);
        let item = std::mem::size_of::<Item<K>>() as u64;
        let q = self.open.capacity() as u64 * item;
        let q2 = if self.open.len() == self.open.capacity() {
            q + (self.open.capacity().max(4) as u64 * 2) * item
        } else {
            q
        };
        let k = self.memos.capacity() as u64;
        let k2 = if self.memos.len() + self.memo_len > self.memos.capacity() {
            k + (2 * k).max(self.memo_len as u64 * 8)
        } else {
            k
        };
        (m + q + k, m2.max(m) + q2.max(q) + k2)
    }

    /// Raises the proven bound from the open list; true if it rose.
    fn update_bound(&mut self) -> bool {
        let open_min = self.fs.min().unwrap_or(u32::MAX);
        let b = open_min.min(self.limit());
        if b > self.bound && b != u32::MAX {
            self.bound = b;
            return true;
        }
        false
    }

    /// Whether the incumbent is proven good enough to stop.
    fn done(&self) -> bool {
        let Some(best) = &self.best else { return false };
        let len = best.path.len() as u32;
        len <= self.bound
            || self
                .within
                .is_some_and(|w| len as f64 <= w * self.bound as f64)
    }

    /// Rebuilds the open list after the weight or the incumbent changed: drops stale and
    /// pruned entries, recomputes the priorities.
    fn reorder(&mut self) {
        let limit = self.limit();
        let mut items = std::mem::take(&mut self.open).into_vec();
        self.fs.clear();
        items.retain(|it| {
            it.g + it.tie < limit
                && matches!(self.map.get(&it.key), Some(n) if !n.closed() && n.g() == it.g)
        });
        for it in items.iter_mut() {
            it.prio = self.prio(it.g, it.tie);
            self.fs.add(it.g + it.tie);
        }
        self.open = BinaryHeap::from(items);
    }

    /// A new incumbent ending at the goal just stored, shortened ([`shortcut::shorten`]).
    fn found(&mut self, clock: &Clock) {
        let path = self
            .layout
            .trace(self.goal_key, |k| self.map.get(k).map(|n| n.prev()));
        let path = shortcut::shorten(self.board, &self.start, &path, shortcut::WINDOW, clock);
        let seconds = clock.seconds();
        if path.len() as u32 >= self.limit() {
            return;
        }
        self.best = Some(Incumbent { path });
        self.solutions += 1;
        self.weight = next_weight(self.weight);
        self.w = (self.weight * 1024.0).round() as u64;
        self.reorder();
        self.update_bound();
        self.tell_at(seconds);
    }

    /// Expands nodes until the bound asked for is proven, the open list is empty or a
    /// limit stops the search.
    fn run(&mut self, clock: &Clock) -> Option<Stop> {
        let mut tiles = [0u8; MAX_CELLS];
        let mut parts = self.h.init(&self.start);
        let mut pops = 0u64;
        while let Some(item) = self.open.pop() {
            self.fs.remove(item.g + item.tie);
            pops += 1;
            if pops & 0xff == 0 && self.update_bound() {
                if self.best.is_some() {
                    self.tell_at(clock.seconds());
                }
                if self.done() {
                    return None;
                }
            }
            let (key, g) = (item.key, item.g);
            if g + item.tie >= self.limit() {
                continue;
            }
            let node = match self.map.get_mut(&key) {
                Some(n) if !n.closed() && n.g() == g => n,
                _ => continue,
            };
            node.set_closed(true);
            let node = *node;
            let prev = node.prev();
            let blank = self.layout.unpack(key, &mut tiles);
            let at = node.memo as usize * self.memo_len;
            self.h
                .restore(&mut parts, &tiles, &self.memos[at..at + self.memo_len]);
            self.expanded += 1;
            let mut targets = [NO_CELL; 4];
            let n_targets = {
                let t = self.moves.targets(blank);
                targets[..t.len()].copy_from_slice(t);
                t.len()
            };
            for &next in &targets[..n_targets] {
                if next == prev {
                    continue;
                }
                let stop = clock.check(self.nodes);
                let (_, est) = self.memory();
                let full = est > self.max_memory
                    || self.map.len() >= u32::MAX as usize
                    || g >= Node::MAX_G;
                if let Some(stop) = stop.or(full.then_some(Stop::Memory)) {
                    if let Some(n) = self.map.get_mut(&key) {
                        n.set_closed(false);
                    }
                    self.open.push(item);
                    self.fs.add(item.g + item.tie);
                    return Some(stop);
                }
                self.nodes += 1;
                let tile = tiles[next as usize];
                tiles[blank as usize] = tile;
                tiles[next as usize] = 0;
                let pending = self.h.prepare(&parts, tile, next, blank);
                let (hv, undo) =
                    self.h
                        .apply(&mut parts, &tiles, tile, next, blank, u32::MAX, &pending);
                let ck = self.layout.slide(key, tile, next, blank);
                let cg = g + 1;
                if cg + hv < self.limit() {
                    let push = match self.map.entry(ck) {
                        Entry::Vacant(v) => {
                            let memo = keep_memo(self.h, &mut self.memos, self.memo_len, &parts);
                            v.insert(Node::new(cg, blank, memo));
                            true
                        }
                        Entry::Occupied(mut o) => {
                            let n = o.get_mut();
                            if cg < n.g() {
                                *n = Node::new(cg, blank, n.memo);
                                true
                            } else {
                                false
                            }
                        }
                    };
                    if push {
                        if ck == self.goal_key {
                            self.found(clock);
                            if self.done() {
                                return None;
                            }
                        } else {
                            let prio = self.prio(cg, hv);
                            self.open.push(Item {
                                prio,
                                tie: hv,
                                g: cg,
                                key: ck,
                            });
                            self.fs.add(cg + hv);
                        }
                    }
                }
                self.h.undo(&mut parts, tile, next, blank, undo);
                tiles[next as usize] = tile;
                tiles[blank as usize] = 0;
            }
            let (now, _) = self.memory();
            self.peak = self.peak.max(now);
            self.stored_peak = self.stored_peak.max(self.map.len() as u64);
        }
        // The open list is empty: nothing shorter than the incumbent exists.
        self.fs.clear();
        self.update_bound();
        None
    }

    /// Tells the observer of the incumbent and the bound.
    fn tell_at(&self, seconds: f64) {
        if let (Some(o), Some(b)) = (&self.search.observer, &self.best) {
            o.tell(&Event::Improvement(Improvement {
                length: b.path.len() as u32,
                lower_bound: self.bound,
                weight: self.weight,
                nodes: self.nodes,
                seconds,
            }));
        }
    }
}

/// Runs the anytime search from `start` to `goal` with `h`.
///
/// # Panics
/// If the board has more than 64 cells.
pub(crate) fn search<H: Heuristic>(
    h: &H,
    goal: &Goal,
    start: &Position,
    settings: &Anytime,
    search: &Search,
) -> Outcome {
    let clocks = Clocks::of(settings, search);
    with_key!(goal.board().cells(), K => run::<H, K>(h, goal, start, clocks, search))
}

/// The time budget of one anytime search and the clocks it runs under.
struct Clocks {
    /// The budget: the time limit, or [`DEFAULT_SECONDS`] with neither a limit nor a bound.
    budget: Option<Duration>,
    /// The whole search's clock, polish included.
    whole: Clock,
    /// The search's own clock: nine tenths of the budget; the rest polishes the best solution.
    search: Clock,
    /// The bound asked for ([`Anytime::within`]).
    within: Option<f64>,
}

impl Clocks {
    fn of(settings: &Anytime, search: &Search) -> Clocks {
        let mut whole = search.clock();
        let budget = match (settings.within, search.limits.timeout) {
            (None, None) => Some(Duration::from_secs_f64(DEFAULT_SECONDS)),
            (_, t) => t,
        };
        if let Some(at) = budget.and_then(|b| whole.t0.checked_add(b)) {
            whole = whole.until(at);
        }
        let search_clock = match budget.and_then(|b| whole.t0.checked_add(b.mul_f64(POLISH_AT))) {
            Some(at) => whole.until(at),
            None => whole.clone(),
        };
        Clocks {
            budget,
            whole,
            search: search_clock,
            within: settings.within,
        }
    }
}

fn run<H: Heuristic, K: Packed>(
    h: &H,
    goal: &Goal,
    start: &Position,
    clocks: Clocks,
    search: &Search,
) -> Outcome {
    let Clocks {
        budget,
        whole: clock,
        search: search_clock,
        within,
    } = clocks;
    let layout = Layout::new(goal.board().cells());
    let start_parts = h.init(&start.tiles);
    let initial_h = h.value(&start_parts);
    let memo_len = h.memo_len();
    let mut r = Run::<H, K> {
        h,
        search,
        board: goal.board(),
        start: start.tiles,
        layout,
        moves: MoveTable::new(goal.board()),
        goal_key: layout.pack(&super::goal_array(goal)),
        map: PosMap::default(),
        memos: Vec::new(),
        memo_len,
        open: BinaryHeap::new(),
        fs: Histogram::default(),
        w: 0,
        weight: START_WEIGHT,
        best: None,
        bound: initial_h,
        within,
        nodes: 0,
        expanded: 0,
        peak: 0,
        stored_peak: 0,
        solutions: 0,
        max_memory: search.limits.memory_limit(),
        initial_h,
    };
    r.w = (r.weight * 1024.0).round() as u64;
    let key: K = layout.pack(&start.tiles);
    let stop = if key == r.goal_key {
        r.best = Some(Incumbent { path: Vec::new() });
        r.bound = 0;
        None
    } else {
        let memo = keep_memo(h, &mut r.memos, memo_len, &start_parts);
        r.map.insert(key, Node::new(0, NO_CELL, memo));
        r.open.push(Item {
            prio: r.prio(0, initial_h),
            tie: initial_h,
            g: 0,
            key,
        });
        r.fs.add(initial_h);
        r.run(&search_clock)
    };
    r.update_bound();
    // Time stopped the search early to leave the rest to the polish, and so does the memory
    // limit (the table freed first); the node limit and the interrupt are final.
    let stop = match stop {
        Some(why @ (Stop::Time | Stop::Memory)) if budget.is_some() => {
            if why == Stop::Memory {
                r.peak = r.peak.max(r.memory().0);
                r.stored_peak = r.stored_peak.max(r.map.len() as u64);
                r.map = PosMap::default();
                r.open = BinaryHeap::new();
                r.memos = Vec::new();
            }
            if let Some(best) = r.best.as_mut().filter(|b| b.path.len() as u32 > r.bound) {
                let before = best.path.len();
                best.path = shortcut::polish(r.board, &r.start, &best.path, &clock);
                if best.path.len() < before {
                    r.tell_at(clock.seconds());
                }
            }
            match why {
                Stop::Memory => Some(Stop::Memory),
                _ => Some(clock.time_up().unwrap_or(Stop::Time)),
            }
        }
        other => other,
    };
    let detail = format!(
        "anytime weighted A*: {} solution{}, last weight {}",
        r.solutions,
        if r.solutions == 1 { "" } else { "s" },
        (r.weight * 100.0).round() / 100.0
    );
    let stats = Stats {
        nodes: r.nodes,
        expanded: r.expanded,
        iterations: r.solutions,
        initial_h: r.initial_h,
        lower_bound: r.bound.min(r.limit()),
        stored: r.stored_peak.max(r.map.len() as u64),
        peak_memory: r.peak.max(r.memory().0),
        per_thread: Vec::new(),
        detail,
        seconds: clock.seconds(),
    };
    Outcome {
        path: r.best.map(|b| b.path),
        stop,
        stats,
    }
}
