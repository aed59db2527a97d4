//! IDA* in the multi-tile metric (MTM): cost-bounded depth-first searches with a growing bound,
//! where a move slides 1 to k tiles of the blank's row or column towards it at cost 1.
//!
//! From each node the blank goes each way along its row and column, k = 1, 2, … cells up to the
//! edge; a move on the same line as the previous one is never made (the same direction merges
//! with it into one move, the opposite one goes back over it), which leaves every optimal
//! solution. A move of k is made as k single-tile steps through the heuristic's
//! [`Heuristic::apply`], each step's position being the child of that k: any heuristic whose
//! values are MTM lower bounds works, updated incrementally. The duplicate-move machine of
//! `prune/` is single-tile and is not used here.
//!
//! **Node counting**: `nodes` counts generated MTM children (one per k per direction),
//! including those pruned at once because `g + h` exceeds the bound; `expanded` the nodes whose
//! children were generated. The path returned is the blank's single steps, so that replay and
//! notation stay those of the single-tile searches; the solution's length is counted in MTM.
//!
//! **Lookups ahead**: a node prepares the first step of every direction before applying any
//! ([`Heuristic::prepare`]), and each step prepares the next one along its line before its own
//! subtree is searched, so a heuristic that prefetches has its children's entries on the way
//! together. A line's last step gets a `limit` (an early stop there is undone at once); the
//! others get one only where the heuristic's parts stay fit for the next step after an early
//! stop ([`Heuristic::steps_after_early_stop`]), being the base of the next one.
//!
//! The serial search is [`search`]; `parallel-ida` in MTM runs the same probe on threads
//! (`search/mtm_parallel.rs`); `runner.rs` chooses between them.

use super::bounded::{Budget, Local};
use super::{goal_array, AlgorithmName, Clock, Outcome, Search, Stats, Stop};
use crate::heuristic::{Heuristic, HeuristicChoice};
use crate::position::{Position, MAX_CELLS};
use pdbformat::{Board, Direction, Goal, Metric};

/// Whether `algorithm` with the heuristic `choice` can search in MTM; the reason otherwise.
pub(crate) fn check(algorithm: AlgorithmName, choice: &HeuristicChoice) -> Result<(), String> {
    if !matches!(
        algorithm,
        AlgorithmName::Ida | AlgorithmName::ParallelIda | AlgorithmName::Bfs
    ) {
        return Err(format!(
            "{algorithm} has no multi-tile-metric form: in mtm use ida, parallel-ida or bfs"
        ));
    }
    if algorithm.uses_heuristic() && !choice.admissible_in(Metric::Mtm) {
        return Err(format!(
            "the {} heuristic is not a lower bound in the multi-tile metric (one move there can bring several tiles home): use walking-distance",
            choice.name()
        ));
    }
    Ok(())
}

/// The cells along each line from each cell: `ray(c, d)` lists the cells the blank crosses
/// going from `c` in direction `d` (nearest first) up to the edge.
#[derive(Debug)]
pub(crate) struct Rays {
    cells: Vec<u8>,
    /// Per cell and direction (index `c * 4 + d`, `d` in [`Direction::ALL`]'s order): the
    /// range in `cells`.
    spans: Vec<(u16, u8)>,
}

impl Rays {
    /// The rays of `board`.
    pub(crate) fn new(board: Board) -> Rays {
        let mut cells = Vec::new();
        let mut spans = Vec::new();
        for c in 0..board.cells() {
            for d in Direction::ALL {
                let begin = cells.len();
                let mut at = c;
                while let Some(n) = board.neighbour(at, d) {
                    cells.push(n as u8);
                    at = n;
                }
                spans.push((begin as u16, (cells.len() - begin) as u8));
            }
        }
        Rays { cells, spans }
    }

    #[inline(always)]
    fn ray(&self, cell: u8, d: usize) -> &[u8] {
        let (b, n) = self.spans[cell as usize * 4 + d];
        &self.cells[b as usize..b as usize + n as usize]
    }
}

/// The axis of direction number `d` of [`Direction::ALL`] (up, down: 0; left, right: 1).
#[inline(always)]
fn axis(d: usize) -> u8 {
    (d >= 2) as u8
}

/// No previous move: every axis is open.
pub(crate) const NO_AXIS: u8 = 2;

/// One cost-bounded depth-first search in MTM, run from any node under a budget.
pub(crate) struct MtmProbe<'a, H: Heuristic, B: Budget> {
    h: &'a H,
    rays: &'a Rays,
    goal: [u8; MAX_CELLS],
    /// The node and time budget.
    pub(crate) budget: B,
    /// Generated nodes.
    pub(crate) nodes: u64,
    /// Expanded nodes.
    pub(crate) expanded: u64,
    /// The smallest `f` above the bound seen.
    pub(crate) next_bound: u32,
    /// The blank's cell after each single step from the start.
    pub(crate) path: Vec<u8>,
    /// Whether the budget ended the search.
    pub(crate) stopped: bool,
    /// The current position and its heuristic parts.
    tiles: [u8; MAX_CELLS],
    blank: u8,
    parts: H::Parts,
    /// Frontier collection for the parallel search: nodes at this cost are recorded in
    /// `frontier` instead of searched (0: off).
    pub(crate) collect_at: u32,
    /// The recorded nodes: position, blank, the axis of the last move, the path.
    pub(crate) frontier: Vec<Node>,
}

/// A node recorded for a parallel search to start from.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) tiles: [u8; MAX_CELLS],
    pub(crate) blank: u8,
    pub(crate) axis: u8,
    pub(crate) g: u32,
    pub(crate) path: Vec<u8>,
}

impl<'a, H: Heuristic, B: Budget> MtmProbe<'a, H, B> {
    /// A probe towards `goal` on `rays` with `h`, at the node `node`.
    pub(crate) fn new(h: &'a H, rays: &'a Rays, goal: &Goal, budget: B, node: &Node) -> Self {
        MtmProbe {
            h,
            rays,
            goal: goal_array(goal),
            budget,
            nodes: 0,
            expanded: 0,
            next_bound: u32::MAX,
            path: Vec::with_capacity(256),
            stopped: false,
            tiles: node.tiles,
            blank: node.blank,
            parts: h.init(&node.tiles),
            collect_at: 0,
            frontier: Vec::new(),
        }
    }

    /// Moves the probe to `node` (its parts computed afresh); returns its estimate.
    pub(crate) fn place(&mut self, node: &Node) -> u32 {
        self.tiles = node.tiles;
        self.blank = node.blank;
        self.parts = self.h.init(&node.tiles);
        self.path.clear();
        self.path.extend_from_slice(&node.path);
        self.h.value(&self.parts)
    }

    /// Searches below the current node, at cost `g` with estimate `est`, the last move on
    /// `last_axis`, within `bound`. True when the goal is found (the path then leads to it).
    pub(crate) fn search(&mut self, g: u32, est: u32, last_axis: u8, bound: u32) -> bool {
        if est == 0 && self.tiles == self.goal {
            return true;
        }
        if self.collect_at > 0 && g == self.collect_at {
            self.frontier.push(Node {
                tiles: self.tiles,
                blank: self.blank,
                axis: last_axis,
                g,
                path: self.path.clone(),
            });
            return false;
        }
        self.expanded += 1;
        let rays = self.rays;
        // Every first step up front: the heuristic may prefetch what the children will read.
        let mut first = [H::Pending::default(); 4];
        for (d, p) in first.iter_mut().enumerate() {
            if axis(d) == last_axis {
                continue;
            }
            if let Some(&from) = rays.ray(self.blank, d).first() {
                *p = (self.h).prepare(&self.parts, self.tiles[from as usize], from, self.blank);
            }
        }
        for (d, &pending) in first.iter().enumerate() {
            if axis(d) == last_axis {
                continue;
            }
            let ray = rays.ray(self.blank, d);
            if !ray.is_empty() && self.line(ray, g, bound, axis(d), pending) {
                return true;
            }
            if self.stopped {
                return false;
            }
        }
        false
    }

    /// The children along `ray` (k = 1, 2, …), each made one single step after the previous
    /// one and searched in turn, then every step undone. `pending` is what the heuristic
    /// prepared for the first step. True when the goal is found.
    fn line(&mut self, ray: &[u8], g: u32, bound: u32, on: u8, pending: H::Pending) -> bool {
        let Some((&from, rest)) = ray.split_first() else {
            return false;
        };
        if !self.budget.spend() {
            self.stopped = true;
            return false;
        }
        self.nodes += 1;
        let to = self.blank;
        let tile = self.tiles[from as usize];
        self.tiles[to as usize] = tile;
        self.tiles[from as usize] = 0;
        self.blank = from;
        // A child above this limit is pruned: the heuristic may stop early there, unless the
        // line goes on from this child's parts and an early stop leaves them fit only for
        // undo.
        let limit = if rest.is_empty() || self.h.steps_after_early_stop() {
            bound.saturating_sub(g + 1)
        } else {
            u32::MAX
        };
        let (est, undo) = self.h.apply(
            &mut self.parts,
            &self.tiles,
            tile,
            from,
            to,
            limit,
            &pending,
        );
        // The next step along the line, prepared from this child's board.
        let next = rest
            .first()
            .map(|&n| (self.h).prepare(&self.parts, self.tiles[n as usize], n, from));
        self.path.push(from);
        let f = g + 1 + est;
        let found = if f <= bound {
            self.search(g + 1, est, on, bound)
        } else {
            self.next_bound = self.next_bound.min(f);
            false
        } || (!self.stopped && next.is_some_and(|p| self.line(rest, g, bound, on, p)));
        if found {
            return true;
        }
        self.path.pop();
        self.h.undo(&mut self.parts, tile, from, to, undo);
        self.tiles[from as usize] = tile;
        self.tiles[to as usize] = 0;
        self.blank = to;
        false
    }
}

/// The start as a [`Node`].
pub(crate) fn root(start: &Position) -> Node {
    Node {
        tiles: start.tiles,
        blank: start.blank,
        axis: NO_AXIS,
        g: 0,
        path: Vec::new(),
    }
}

/// MTM IDA* from `start` to `goal` with `h`, within the limits of `search`.
pub(crate) fn search<H: Heuristic>(
    h: &H,
    goal: &Goal,
    start: &Position,
    search: &Search,
) -> Outcome {
    let clock = search.clock();
    let rays = Rays::new(goal.board());
    let node = root(start);
    let mut probe = MtmProbe::new(h, &rays, goal, Local::new(clock.clone(), 0), &node);
    let h0 = probe.place(&node);
    let mut bound = h0;
    let mut iterations = 1u32;
    let found = loop {
        probe.next_bound = u32::MAX;
        if probe.search(0, h0, NO_AXIS, bound) {
            break true;
        }
        if probe.stopped || probe.next_bound == u32::MAX {
            break false;
        }
        bound = probe.next_bound;
        iterations += 1;
    };
    let stop = probe.stopped.then(|| probe.budget.stop()).flatten();
    let path = found.then(|| std::mem::take(&mut probe.path));
    outcome(
        path,
        stop,
        (probe.nodes, probe.expanded),
        (iterations, h0, bound),
        Vec::new(),
        &clock,
    )
}

/// The outcome of an MTM search that ended at `bound` (`shape`: iterations, the start's
/// estimate, the bound), having generated and expanded `sizes` nodes.
pub(crate) fn outcome(
    path: Option<Vec<u8>>,
    stop: Option<Stop>,
    sizes: (u64, u64),
    (iterations, h0, bound): (u32, u32, u32),
    per_thread: Vec<u64>,
    clock: &Clock,
) -> Outcome {
    let threads = per_thread.len();
    let stats = Stats {
        nodes: sizes.0,
        expanded: sizes.1,
        iterations,
        initial_h: h0,
        // No solution is shorter than the bound (MTM has no parity to add).
        lower_bound: bound,
        stored: 0,
        peak_memory: (path.as_ref().map_or(0, |p| p.len()) + std::mem::size_of::<Position>())
            as u64,
        per_thread,
        detail: format!(
            "multi-tile metric, {iterations} iteration{}{}",
            if iterations == 1 { "" } else { "s" },
            if threads > 0 {
                format!(", {threads} threads")
            } else {
                String::new()
            }
        ),
        seconds: clock.seconds(),
    };
    Outcome { path, stop, stats }
}
