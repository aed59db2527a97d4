//! The duplicate-move machine's state at each of A*'s frontier nodes, so that the IDA* phase
//! of `hybrid` prunes below them as `ida` prunes below the start.
//!
//! The machine (`prune/mod.rs`) forbids every move string with a smaller equivalent in
//! (length, lexicographic) order, the moves ordered Up < Down < Left < Right (the slots of
//! [`MoveTable`]). The smallest optimal solution `P` contains no forbidden word, so `ida`,
//! following the machine from the start, meets it. A frontier node searched from the
//! machine's start state knows nothing of the moves above it: below each frontier node the
//! first levels are pruned only by the words that begin there, and the duplicates that the
//! machine removes between subtrees of different frontier nodes are all searched.
//!
//! Here a frontier node starts in the state the machine reaches along the *smallest* shortest
//! path to it. `P` leaves A*'s closed set at its first open node `n` (every node before it
//! is closed with its optimal cost), and `P`'s prefix up to `n` is the smallest shortest path
//! to `n` (a smaller one would make `P` smaller). That prefix runs through closed nodes only,
//! so the smallest path through closed parents, which is found here, is exactly it: the state
//! at `n` is the state `ida` has at `n` when following `P`, and the rest of `P` is not
//! forbidden from it. A frontier node whose smallest path is forbidden is never the `n` of `P`
//! and is left out. So the IDA* phase still meets an optimal solution in the iteration of the
//! optimal cost, and searches what `ida` searches below the frontier nodes.
//!
//! **Finding the smallest paths.** Shortest paths of one cost compare as their parents' paths
//! do, then by the last move. The closed nodes are ranked layer by layer of cost: each node's
//! best parent is its closed neighbour one move cheaper with the least (rank, move slot), the
//! layer is sorted by that pair and numbered, and the machine's state is the parent's stepped
//! by the move. A few hash lookups per stored position, once, after A*.

use super::astar::Node;
use crate::key::{Layout, Packed, PosMap};
use crate::position::{MoveTable, MAX_CELLS};
use crate::prune::{Pruner, FORBIDDEN};

/// A closed node's place in its layer and the machine's state on its smallest path.
#[derive(Clone, Copy)]
struct Ranked {
    g: u32,
    rank: u32,
    state: u32,
}

/// The states of the machine along the smallest shortest paths through A*'s closed nodes.
pub(crate) struct FrontierStates<K> {
    ranked: PosMap<K, Ranked>,
    layout: Layout,
    moves: MoveTable,
}

impl<K: Packed> FrontierStates<K> {
    /// Ranks the closed nodes of `map` (A*'s table, before any frontier node is marked), the
    /// start being `start` with its blank on `start_blank`, for `pruner` on a board of
    /// `cells` cells whose move table (slots in Up, Down, Left, Right order) is `moves`.
    pub(crate) fn new(
        map: &PosMap<K, Node>,
        start: K,
        start_blank: u8,
        pruner: &Pruner,
        layout: Layout,
        moves: MoveTable,
    ) -> FrontierStates<K> {
        let mut layers: Vec<Vec<K>> = Vec::new();
        for (key, node) in map.iter() {
            if node.closed() && *key != start {
                let g = node.g() as usize;
                if layers.len() <= g {
                    layers.resize_with(g + 1, Vec::new);
                }
                layers[g].push(*key);
            }
        }
        let mut s = FrontierStates {
            ranked: PosMap::default(),
            layout,
            moves,
        };
        s.ranked
            .reserve(layers.iter().map(Vec::len).sum::<usize>() + 1);
        let root = Ranked {
            g: 0,
            rank: 0,
            state: pruner.start(start_blank),
        };
        s.ranked.insert(start, root);
        let mut layer: Vec<(u32, u8, u32, K)> = Vec::new();
        for (g, keys) in layers.iter().enumerate().skip(1) {
            layer.clear();
            for &key in keys {
                let (rank, slot, state) = s
                    .best_parent(key, g as u32, pruner)
                    .map_or((u32::MAX, 0, FORBIDDEN), |(r, sl, st, _)| (r, sl, st));
                layer.push((rank, slot, state, key));
            }
            layer.sort_unstable_by_key(|c| (c.0, c.1));
            for (i, &(_, _, state, key)) in layer.iter().enumerate() {
                let rank = i as u32;
                s.ranked.insert(
                    key,
                    Ranked {
                        g: g as u32,
                        rank,
                        state,
                    },
                );
            }
        }
        s
    }

    /// The closed neighbour of `key` one move cheaper than `g` whose smallest path, followed
    /// by the move to `key`, is smallest: its rank, the move's slot, the machine's state after
    /// the move ([`FORBIDDEN`] if the path is forbidden) and the neighbour's blank cell.
    fn best_parent(&self, key: K, g: u32, pruner: &Pruner) -> Option<(u32, u8, u32, u8)> {
        let mut tiles = [0u8; MAX_CELLS];
        let blank = self.layout.unpack(key, &mut tiles);
        let mut best: Option<(u32, u8, u32, u8)> = None;
        for &from in self.moves.targets(blank) {
            // The parent has its blank on `from`; the move slides the blank back to `blank`.
            let parent = self.layout.slide(key, tiles[from as usize], from, blank);
            let Some(p) = self.ranked.get(&parent) else {
                continue;
            };
            if p.g + 1 != g {
                continue;
            }
            let Some(slot) = self.moves.targets(from).iter().position(|&c| c == blank) else {
                continue;
            };
            let slot = slot as u8;
            if best.is_some_and(|b| (b.0, b.1) <= (p.rank, slot)) {
                continue;
            }
            let state = if p.state == FORBIDDEN {
                FORBIDDEN
            } else {
                pruner.step(p.state, slot as usize)
            };
            best = Some((p.rank, slot, state, from));
        }
        best
    }

    /// The machine's state at the frontier node `key` of cost `g` and the blank's cell in its
    /// parent on its smallest path, or `None` when that path is forbidden (or it has no
    /// closed parent): no smallest optimal solution passes there first.
    pub(crate) fn at(&self, key: K, g: u32, pruner: &Pruner) -> Option<(u32, u8)> {
        let (_, _, state, from) = self.best_parent(key, g, pruner)?;
        (state != FORBIDDEN).then_some((state, from))
    }

    /// Bytes held (the ranked table).
    pub(crate) fn bytes(&self) -> u64 {
        crate::key::map_bytes::<K, Ranked>(self.ranked.capacity())
    }
}
