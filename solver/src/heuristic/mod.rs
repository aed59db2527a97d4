//! Admissible heuristics with incremental updates: the [`Heuristic`] trait and its implementations.
//!
//! A heuristic is prepared for one goal (and board). The search calls [`Heuristic::init`] once
//! for the start position and then, for every move, [`Heuristic::apply`] (after the tile has
//! moved on the board) and later [`Heuristic::undo`] with the token `apply` returned. Only what
//! the moved tile touches is recomputed: one distance for Manhattan, two lines for linear
//! conflict, one pattern per view for pattern databases, two class boards for the
//! multi-tile metric's class tables ([`ClassHeuristic`]).
//!
//! The position the heuristics read, [`Position`] (at most [`MAX_CELLS`] cells, moves made in
//! place) and its [`MoveTable`], are here too, for code that drives a heuristic itself.

mod class_heuristic;
mod linear_conflict;
pub mod pdb;
mod tile_sum;
mod walking_distance;

pub use crate::position::{MoveTable, Position, MAX_CELLS};
pub use class_heuristic::{ClassHeuristic, ClassParts, ClassPending, MAX_CLASSES};
pub use linear_conflict::LinearConflict;
pub use pdb::{reflections_for, PdbHeuristic};
pub use tile_sum::{Distance, Hamming, Manhattan, Misplaced, TileCost, TileSum};
pub use walking_distance::WalkingDistance;

use crate::db::{Database, DbError};
use pdbformat::{Goal, Metric};
use std::sync::Arc;

/// An admissible estimate of the distance to the goal, updated move by move.
///
/// `tile` moves from cell `from` to cell `to` (the blank goes from `to` to `from`).
pub trait Heuristic {
    /// The parts the estimate of the current position is made of (sums, per-line values, …),
    /// kept so that a move updates them instead of recomputing the estimate.
    type Parts: Clone;
    /// What [`Heuristic::undo`] needs to restore the parts before a move.
    type Undo: Copy;
    /// What [`Heuristic::prepare`] computes for one child ahead of [`Heuristic::apply`].
    type Pending: Copy + Default;

    /// The parts of the position `tiles` (`tiles[cell]`, 0 for the blank; cells past the board
    /// are ignored).
    fn init(&self, tiles: &[u8; MAX_CELLS]) -> Self::Parts;

    /// The current estimate.
    fn value(&self, parts: &Self::Parts) -> u32;

    /// Called for every child of a node, with the node's parts, before the first child is
    /// applied: computes what `apply` will need (table indexes) and may prefetch memory, so
    /// that the children's lookups overlap instead of waiting for each other. Changes nothing.
    fn prepare(&self, parts: &Self::Parts, tile: u8, from: u8, to: u8) -> Self::Pending;

    /// The estimate of the child that the move of `tile` from `from` to `to` makes, computed
    /// from the node's `parts` and `tiles` (the board before the move) without changing them.
    /// Called after [`Heuristic::prepare`] for every child, before the first is applied (the
    /// cost-bounded searches prune a child above the bound without making it); it may
    /// keep in `pending` what the child's [`Heuristic::apply`] would otherwise compute again
    /// (the looked-up values). The default applies the move to a copy of the parts.
    ///
    /// `limit` works as in [`Heuristic::apply`]: when the estimate exceeds it, any admissible
    /// value above it may be returned, and the child must then not be applied with this
    /// `pending` (the search prunes it).
    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &self,
        parts: &Self::Parts,
        tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: u8,
        to: u8,
        limit: u32,
        pending: &mut Self::Pending,
    ) -> u32 {
        let mut after = *tiles;
        after[to as usize] = tile;
        after[from as usize] = 0;
        let mut copy = parts.clone();
        self.apply(&mut copy, &after, tile, from, to, limit, pending)
            .0
    }

    /// Updates `parts` for the move of `tile` from `from` to `to`; `tiles` is the board after
    /// the move. Returns the new estimate and the token that undoes the update.
    ///
    /// `limit` lets a heuristic stop early: when it can tell that the estimate exceeds `limit`
    /// it may return any admissible value above `limit` without finishing the update. The
    /// parts are then fit only for [`Heuristic::undo`] (the search prunes such a child).
    /// `pending` is what [`Heuristic::prepare`] returned for this move from these parts (and
    /// [`Heuristic::evaluate`] completed, if it was called).
    #[allow(clippy::too_many_arguments)]
    fn apply(
        &self,
        parts: &mut Self::Parts,
        tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: u8,
        to: u8,
        limit: u32,
        pending: &Self::Pending,
    ) -> (u32, Self::Undo);

    /// Restores `parts` as they were before the `apply` that returned `undo`.
    fn undo(&self, parts: &mut Self::Parts, tile: u8, from: u8, to: u8, undo: Self::Undo);

    /// Bytes that a search keeping positions (A* and its weighted form, A*+IDA*'s frontier,
    /// parallel IDA*'s split roots) holds per position so that [`Heuristic::restore`] rebuilds
    /// the position's parts without the work of [`Heuristic::init`]. 0 (the default): `init`
    /// is cheap, nothing is kept.
    fn memo_len(&self) -> usize {
        0
    }

    /// Writes into `out` (of [`Heuristic::memo_len`] bytes) what [`Heuristic::restore`] needs
    /// to rebuild `parts`, which must be complete (from `init`, or an `apply` that did not stop
    /// early).
    fn write_memo(&self, parts: &Self::Parts, out: &mut [u8]) {
        let _ = (parts, out);
    }

    /// Makes `parts` (parts of this heuristic, of any position) those of the position `tiles`,
    /// rebuilt from the `memo` that [`Heuristic::write_memo`] wrote for the same position:
    /// equal to `init(tiles)`, cheaper where `init` is costly (the walks that find a `bit1`
    /// table's exact values), and without allocating. The default ignores the memo and
    /// calls `init`.
    fn restore(&self, parts: &mut Self::Parts, tiles: &[u8; MAX_CELLS], memo: &[u8]) {
        let _ = memo;
        *parts = self.init(tiles);
    }

    /// What one move can do to the estimate (see [`StepChange`]); searches that order nodes
    /// in buckets rely on it. The default promises nothing.
    fn step_change(&self) -> StepChange {
        StepChange::Any
    }

    /// Whether parts left by an early stop (an [`Heuristic::apply`] past its `limit`) still
    /// take the next move's [`Heuristic::prepare`] and `apply`, not only `undo`: the MTM
    /// search then lets every step of a multi-tile move stop early, not only the last. The
    /// default promises nothing.
    fn steps_after_early_stop(&self) -> bool {
        false
    }
}

/// How much one move can change a heuristic's estimate: what A* may assume about `f = g + h`.
///
/// Every move costs 1, so a heuristic whose estimate changes by at most 1 per move is
/// *consistent*: `f` never decreases along a path, A* never has to reopen a closed node, and
/// the open list can be an array of buckets indexed by `f` (the solver's A* picks its open
/// list from this promise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StepChange {
    /// Only admissibility is promised: a move may change the estimate by more than 1 (linear
    /// conflict, zero-unaware databases). A* reopens closed nodes reached by a shorter path
    /// and orders its open list with a binary heap.
    Any,
    /// Every move changes the estimate by −1, 0 or +1 (misplaced tiles; a maximum of
    /// zero-aware sums): `f` changes by 0, 1 or 2, and a bucket queue on `f` applies.
    AtMostOne,
    /// Every move changes the estimate by exactly −1 or +1 (Manhattan distance; zero-aware
    /// tables that cover every tile, without a maximum): `f` changes by 0 or 2, so at most two
    /// values of `f` are open at once and a two-bucket queue suffices.
    ExactlyOne,
}

/// Which heuristic a search uses, with what it needs (the databases for `Pdb`); prepared for a
/// goal by [`crate::search::solve`].
#[derive(Clone, Debug)]
pub enum HeuristicChoice {
    /// Misplaced tiles.
    Hamming,
    /// Manhattan distance.
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// The multi-tile walking distance (admissible in both metrics; the default in MTM).
    WalkingDistance,
    /// Additive pattern databases from these files: tables grouped into additive sums, the
    /// maximum over groups, and with `reflect` the reflected lookup too (see [`pdb`]).
    Pdb {
        /// The loaded files, in the order given.
        databases: Vec<Arc<Database>>,
        /// Also look up the reflected position where the board and goal allow it.
        reflect: bool,
    },
}

impl HeuristicChoice {
    /// Waits for the background digest checks of the databases (see
    /// [`crate::OpenOptions::verify_in_background`]) and fails with the first corruption found.
    pub fn wait_verified(&self) -> Result<(), crate::DbError> {
        match self {
            HeuristicChoice::Pdb { databases, .. } => {
                databases.iter().try_for_each(|db| db.wait_verified())
            }
            _ => Ok(()),
        }
    }

    /// The heuristic's family.
    pub fn name(&self) -> HeuristicName {
        match self {
            HeuristicChoice::Hamming => HeuristicName::Hamming,
            HeuristicChoice::Manhattan => HeuristicName::Manhattan,
            HeuristicChoice::LinearConflict => HeuristicName::LinearConflict,
            HeuristicChoice::WalkingDistance => HeuristicName::WalkingDistance,
            HeuristicChoice::Pdb { .. } => HeuristicName::Pdb,
        }
    }

    /// Whether the heuristic's values are lower bounds of distances in `metric`: every one is
    /// in the single-tile metric; in the multi-tile metric only the walking distance (one move
    /// there can bring several tiles home, which Manhattan distance, linear conflicts,
    /// misplaced tiles and the single-tile databases count one by one).
    /// A database heuristic is admissible in the metric its files were built for.
    pub fn admissible_in(&self, metric: Metric) -> bool {
        match self {
            HeuristicChoice::Pdb { databases, .. } => {
                !databases.is_empty() && databases.iter().all(|d| d.metric() == metric)
            }
            _ => self.name().admissible_in(metric),
        }
    }

    /// The metric this heuristic's databases were built for (`None` without databases).
    pub fn database_metric(&self) -> Option<Metric> {
        match self {
            HeuristicChoice::Pdb { databases, .. } => databases.first().map(|d| d.metric()),
            _ => None,
        }
    }

    /// Checks that the heuristic can serve `goal` (its databases fit the board and goal), so
    /// that a batch can fail before its first puzzle.
    pub fn check(&self, goal: &Goal) -> Result<(), DbError> {
        if let HeuristicChoice::Pdb { databases, reflect } = self {
            PdbHeuristic::new(databases, goal, *reflect)?;
        }
        Ok(())
    }

    /// Whether symmetric lookups (reflections, rotations) apply to `goal` with this heuristic.
    pub fn reflects(&self, goal: &Goal) -> bool {
        matches!(self, HeuristicChoice::Pdb { reflect: true, .. })
            && !pdb::reflections_for(goal).is_empty()
    }

    /// What the heuristic is, in the words reports use, for `goal`: the classic ones by name;
    /// databases by file and patterns, then which symmetric views apply and why not
    /// (`pdb 15-663-za.pdb [1-6/7-12/13-15], with reflection`). Fails as [`Self::check`].
    pub fn describe(&self, goal: &Goal) -> Result<String, DbError> {
        let HeuristicChoice::Pdb { databases, reflect } = self else {
            let (_, words) = self.name().classic().expect("not a database heuristic");
            return Ok(words.to_string());
        };
        if self.database_metric() == Some(Metric::Mtm) {
            let db = single_class_database(databases)?;
            let h = ClassHeuristic::new(db, goal)?;
            return Ok(format!(
                "{} (multi-tile class tables, the largest of {} lookups: {})",
                file_name(db),
                h.lookups(),
                db.describe_patterns()
            ));
        }
        let prepared = PdbHeuristic::new(databases, goal, *reflect)?;
        let files: Vec<String> = (databases.iter())
            .map(|d| format!("{} [{}]", file_name(d), d.describe_patterns()))
            .collect();
        let names = |syms: &[pdbformat::Symmetry]| {
            syms.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
        };
        let syms = pdb::reflections_for(goal);
        let used = prepared.reflections();
        let views = match (reflect, syms.len(), used.len()) {
            (false, _, _) => "no reflection (--no-reflect)".to_string(),
            (true, 0, _) => {
                "no reflection (no board symmetry fixes the goal's blank cell)".to_string()
            }
            (true, 1, 1) => "with reflection".to_string(),
            (true, _, 0) => format!(
                "no reflection (the {} view{} only repeat{} the plain sums)",
                names(&syms),
                if syms.len() == 1 { "" } else { "s" },
                if syms.len() == 1 { "s" } else { "" },
            ),
            (true, _, n) => format!(
                "with {n} symmetric view{} ({}), {} components",
                if n == 1 { "" } else { "s" },
                names(used),
                prepared.components()
            ),
        };
        Ok(format!("pdb {}, {views}", files.join(" + ")))
    }
}

/// The heuristics the command line offers, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicName {
    /// Misplaced tiles.
    Hamming,
    /// Sum of the tiles' Manhattan distances.
    Manhattan,
    /// Manhattan plus linear conflicts.
    LinearConflict,
    /// The multi-tile walking distance.
    WalkingDistance,
    /// Additive pattern databases (maximum over partitions and reflection).
    Pdb,
}

impl HeuristicName {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicName::Hamming => "hamming",
            HeuristicName::Manhattan => "manhattan",
            HeuristicName::LinearConflict => "linear-conflict",
            HeuristicName::WalkingDistance => "walking-distance",
            HeuristicName::Pdb => "pdb",
        }
    }

    /// The heuristics that need no database, ready to use, with the words reports name them
    /// by; `None` for [`HeuristicName::Pdb`].
    pub fn classic(self) -> Option<(HeuristicChoice, &'static str)> {
        match self {
            HeuristicName::Hamming => Some((HeuristicChoice::Hamming, "misplaced tiles (hamming)")),
            HeuristicName::Manhattan => Some((HeuristicChoice::Manhattan, "manhattan")),
            HeuristicName::LinearConflict => Some((
                HeuristicChoice::LinearConflict,
                "manhattan + linear conflict",
            )),
            HeuristicName::WalkingDistance => Some((
                HeuristicChoice::WalkingDistance,
                "walking distance (multi-tile)",
            )),
            HeuristicName::Pdb => None,
        }
    }

    /// Whether the heuristic is admissible in `metric` (see [`HeuristicChoice::admissible_in`]).
    pub fn admissible_in(self, metric: Metric) -> bool {
        metric == Metric::Stm || self == HeuristicName::WalkingDistance
    }

    /// Parses a name or one of its aliases (`misplaced`, `md`, `lc`, `manhattan-lc`, `wd`).
    pub fn parse(s: &str) -> Option<HeuristicName> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hamming" | "misplaced" => Some(HeuristicName::Hamming),
            "manhattan" | "md" => Some(HeuristicName::Manhattan),
            "linear-conflict" | "lc" | "manhattan-lc" | "linear" => {
                Some(HeuristicName::LinearConflict)
            }
            "walking-distance" | "wd" => Some(HeuristicName::WalkingDistance),
            "pdb" => Some(HeuristicName::Pdb),
            _ => None,
        }
    }
}

impl std::fmt::Display for HeuristicName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Checks shared by the heuristics' unit tests: incremental values equal fresh ones.

    use super::Heuristic;
    use crate::position::{MoveTable, Position};
    use pdbformat::{Board, Goal};

    /// Walks `steps` random moves from `goal`, checking after each move that the incremental
    /// value equals a fresh `init`, and that undo restores the previous value.
    pub fn check_incremental<H: Heuristic>(h: &H, goal: &Goal, steps: usize, seed: u64)
    where
        H::Parts: std::fmt::Debug,
    {
        let board: Board = goal.board();
        let moves = MoveTable::new(board);
        let mut s = Position::from_tiles(goal.tiles()).unwrap();
        let mut parts = h.init(&s.tiles);
        let at_goal = parts.clone();
        assert_eq!(h.value(&parts), 0, "zero at the goal");
        let mut rng = pdbformat::testkit::XorShift::new(seed | 1);
        for _ in 0..steps {
            let t = moves.targets(s.blank);
            let to_blank = t[rng.below(t.len())];
            let from = to_blank;
            let to = s.blank;
            let before = h.value(&parts);
            let tile = s.slide(to_blank);
            let pending = h.prepare(&parts, tile, from, to);
            // `evaluate` sees the board before the move and changes nothing.
            let mut evaluated = pending;
            let mut before_tiles = s.tiles;
            before_tiles[to as usize] = 0;
            before_tiles[from as usize] = tile;
            let ev = h.evaluate(
                &parts,
                &before_tiles,
                tile,
                from,
                to,
                u32::MAX,
                &mut evaluated,
            );
            // An early stop gives a value above the limit and changes nothing either.
            let mut stopped = pending;
            let e0 = h.evaluate(&parts, &before_tiles, tile, from, to, 0, &mut stopped);
            assert!(e0 > 0 || ev == 0, "an early stop below the limit");
            assert!(e0 <= ev, "an early stop above the estimate");
            assert_eq!(h.value(&parts), before, "evaluate changed the parts");
            let (v, undo) = h.apply(&mut parts, &s.tiles, tile, from, to, u32::MAX, &pending);
            assert_eq!(ev, v, "evaluate against apply after moving {tile}");
            let fresh = h.init(&s.tiles);
            assert_eq!(v, h.value(&fresh), "incremental value after moving {tile}");
            // The memo of the incrementally updated parts rebuilds exactly the fresh parts.
            let mut memo = vec![0u8; h.memo_len()];
            h.write_memo(&parts, &mut memo);
            // Over the parts of another position (the goal's), as a search reuses them.
            let mut restored = at_goal.clone();
            h.restore(&mut restored, &s.tiles, &memo);
            assert_eq!(
                format!("{restored:?}"),
                format!("{fresh:?}"),
                "parts restored from the memo after moving {tile}"
            );
            assert_eq!(v, h.value(&parts));
            // Undo and redo, as the search does for pruned children.
            h.undo(&mut parts, tile, from, to, undo);
            assert_eq!(h.value(&parts), before);
            // An early stop (limit 0) must undo cleanly too.
            let (_, u0) = h.apply(&mut parts, &s.tiles, tile, from, to, 0, &pending);
            h.undo(&mut parts, tile, from, to, u0);
            assert_eq!(h.value(&parts), before);
            let (v2, u2) = h.apply(&mut parts, &s.tiles, tile, from, to, u32::MAX, &pending);
            assert_eq!(v2, v);
            // Applied from the evaluated pending (what the search does): the same parts.
            h.undo(&mut parts, tile, from, to, u2);
            let (v3, _) = h.apply(&mut parts, &s.tiles, tile, from, to, 0, &evaluated);
            assert_eq!(v3, v, "apply after evaluate");
            assert_eq!(h.value(&h.init(&s.tiles)), h.value(&parts));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdbformat::Board;

    #[test]
    fn classic_heuristics_are_named_as_they_are_chosen() {
        let goal = Goal::blank_first(Board::new(4, 4).unwrap());
        for name in [
            HeuristicName::Hamming,
            HeuristicName::Manhattan,
            HeuristicName::LinearConflict,
            HeuristicName::WalkingDistance,
        ] {
            let (choice, words) = name.classic().unwrap();
            assert_eq!(choice.name(), name);
            assert_eq!(choice.describe(&goal).unwrap(), words);
        }
        assert!(HeuristicName::Pdb.classic().is_none());
    }
}

/// A database's file name (its whole path when it has none).
fn file_name(d: &Database) -> String {
    d.path().file_name().map_or_else(
        || d.path().display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    )
}

/// The one multi-tile-metric database of `databases`: its class tables are the whole
/// heuristic, so a second one is refused rather than silently left out.
pub(crate) fn single_class_database(
    databases: &[Arc<Database>],
) -> Result<&Arc<Database>, DbError> {
    match databases {
        [one] => Ok(one),
        _ => Err(DbError::TooMany {
            what: "class-table databases in a multi-tile-metric search",
            max: 1,
            found: databases.len(),
        }),
    }
}
