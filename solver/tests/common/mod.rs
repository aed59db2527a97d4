//! Test helpers: brute-force pattern databases and exhaustive distances on small boards,
//! built independently of the generator (the workspace's oracle in `pdbformat::testkit`), and
//! the shared deterministic random source.

#![allow(dead_code)]

use pdbformat::format::{
    encode_entries, write_pdb, Compression, Encoding, PdbFile, TableSource, WriteOptions,
};
use pdbformat::rank::{rank_permutation, TableKind};
use pdbformat::testkit::AbstractDistances;
use pdbformat::{Board, Direction, Goal, Pattern, Puzzle};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};

/// The tests' deterministic random source, shared by the workspace.
pub use pdbformat::testkit::XorShift as Rng;

/// Exact abstract distances of `pattern` under `goal` from the workspace's brute-force oracle
/// (0-1 BFS over explicit (tile cells, blank) states; see `pdbformat::testkit`). Values in the
/// order of `TableIndex::new(board, k, kind)`; unreachable entries hold 255. Each table is
/// made once per test binary: the tests share many (the 4x4 rows, columns, …).
pub fn brute_table(goal: &Goal, pattern: &Pattern, kind: TableKind) -> Vec<u8> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    type Key = (Board, Vec<u16>, Vec<u8>, TableKind);
    static MADE: OnceLock<Mutex<HashMap<Key, Arc<Vec<u8>>>>> = OnceLock::new();
    let key = (
        goal.board(),
        goal.tiles().to_vec(),
        pattern.tiles().to_vec(),
        kind,
    );
    let made = MADE.get_or_init(Default::default);
    if let Some(t) = made.lock().unwrap().get(&key) {
        return t.to_vec();
    }
    let t = Arc::new(AbstractDistances::new(goal, pattern).table(kind));
    made.lock().unwrap().insert(key, t.clone());
    t.to_vec()
}

/// Writes a PDB file for `goal` with one brute-force table per pattern (u8, uncompressed).
pub fn write_db(path: &Path, goal: &Goal, patterns: &[&[usize]], kind: TableKind) {
    write_db_with(
        path,
        goal,
        patterns,
        kind,
        Encoding::U8,
        &WriteOptions::default(),
    );
}

/// Like [`write_db`] with another entry encoding and write options.
pub fn write_db_with(
    path: &Path,
    goal: &Goal,
    patterns: &[&[usize]],
    kind: TableKind,
    encoding: Encoding,
    opts: &WriteOptions,
) {
    let board = goal.board();
    let pats: Vec<Pattern> = patterns
        .iter()
        .map(|p| Pattern::new(board, p).unwrap())
        .collect();
    let tables: Vec<Vec<u8>> = pats.iter().map(|p| brute_table(goal, p, kind)).collect();
    let encoded: Vec<Vec<u8>> = tables.iter().map(|t| encode_entries(t, encoding)).collect();
    let sources: Vec<TableSource> = pats
        .iter()
        .zip(&tables)
        .zip(&encoded)
        .map(|((p, t), e)| TableSource {
            kind,
            pattern: p,
            encoding,
            max_value: t
                .iter()
                .copied()
                .filter(|&v| v != u8::MAX)
                .max()
                .unwrap_or(0),
            entries: e,
        })
        .collect();
    write_pdb(path, goal, &sources, opts).unwrap();
}

/// Exact distances of every position to `goal` by BFS, indexed by the permutation rank of
/// the cells of tiles 1..n-1 (which fixes the blank too). Unreachable positions hold 255.
pub fn all_distances(goal: &Goal) -> Vec<u8> {
    let board = goal.board();
    let n = board.cells();
    let total: usize = (2..=n).product();
    let mut dist = vec![u8::MAX; total];
    let key = |cells_of_tiles: &[u8]| rank_permutation(&cells_of_tiles[1..], n) as usize;
    let mut start: Vec<u8> = (0..n).map(|t| goal.cell_of(t) as u8).collect();
    dist[key(&start)] = 0;
    let mut q = VecDeque::new();
    q.push_back(start.clone());
    while let Some(s) = q.pop_front() {
        let d = dist[key(&s)];
        let blank = s[0] as usize;
        for (_, nb) in board.neighbours(blank) {
            start.copy_from_slice(&s);
            let t = s.iter().position(|&c| c as usize == nb).unwrap();
            start[t] = blank as u8;
            start[0] = nb as u8;
            let k = key(&start);
            if dist[k] == u8::MAX {
                dist[k] = d + 1;
                q.push_back(start.clone());
            }
        }
    }
    dist
}

/// The key of `puzzle` in [`all_distances`].
pub fn distance_key(puzzle: &Puzzle) -> usize {
    let cells: Vec<u8> = puzzle.cells_of_tiles().iter().map(|&c| c as u8).collect();
    rank_permutation(&cells[1..], puzzle.board().cells()) as usize
}

/// The position of key `key` in [`all_distances`] of `goal` (the inverse of [`distance_key`]).
pub fn puzzle_of_key(goal: &Goal, key: usize) -> Puzzle {
    let n = goal.board().cells();
    let mut cells = vec![0u8; n - 1];
    pdbformat::rank::unrank_permutation(key as u64, n, &mut cells);
    let mut tiles = vec![0u16; n];
    for (i, &c) in cells.iter().enumerate() {
        tiles[c as usize] = i as u16 + 1;
    }
    Puzzle::new(goal.board(), &tiles).unwrap()
}

/// Every solvable position of `goal`'s board with its exact distance, in the order of their
/// keys in [`all_distances`].
pub fn every_position(goal: &Goal) -> Vec<(Puzzle, u8)> {
    all_distances(goal)
        .iter()
        .enumerate()
        .filter(|&(_, &d)| d != u8::MAX)
        .map(|(k, &d)| (puzzle_of_key(goal, k), d))
        .collect()
}

/// The position relabelled through the board symmetry `sym` that maps `from`'s blank cell to
/// `to`'s: tile `t` on `x` becomes tile `to.tile_at(sym(from.cell_of(t)))` on `sym(x)`, the same
/// problem written for goal `to`. With `from == to` and a symmetry fixing the blank, a position
/// exactly as far from the goal as `p` (moves map to moves, the goal to itself).
pub fn relabel(p: &Puzzle, from: &Goal, to: &Goal, sym: pdbformat::Symmetry) -> Puzzle {
    let b = p.board();
    let mut tiles = vec![0u16; b.cells()];
    for x in 0..b.cells() {
        let t = p.tile_at(x);
        tiles[sym.map(b, x)] = to.tile_at(sym.map(b, from.cell_of(t))) as u16;
    }
    Puzzle::new(b, &tiles).unwrap()
}

/// Both goal conventions of `board`: blank first, blank last.
pub fn both_goals(board: Board) -> [Goal; 2] {
    [Goal::blank_first(board), Goal::blank_last(board)]
}

/// Write options with `compression`, at zstd level 3 where it compresses.
pub fn compressed(compression: Compression) -> WriteOptions {
    WriteOptions {
        compression,
        zstd_level: 3,
        ..WriteOptions::default()
    }
}

/// A position reached from `goal` by `steps` random moves (no immediate move back).
pub fn random_walk(goal: &Goal, steps: usize, rng: &mut Rng) -> Puzzle {
    let mut p = Puzzle::solved(goal);
    let mut last: Option<Direction> = None;
    let mut done = 0;
    while done < steps {
        let d = Direction::ALL[rng.below(4)];
        if Some(d.opposite()) == last {
            continue;
        }
        if p.apply(d).is_some() {
            last = Some(d);
            done += 1;
        }
    }
    p
}

/// A uniformly random position that can reach `goal`.
pub fn random_solvable(goal: &Goal, rng: &mut Rng) -> Puzzle {
    let board: Board = goal.board();
    loop {
        let mut t: Vec<u16> = (0..board.cells() as u16).collect();
        rng.shuffle(&mut t);
        let p = Puzzle::new(board, &t).unwrap();
        if p.is_solvable(goal) {
            return p;
        }
    }
}

/// IDA* of `p` with `settings`: the solution (checked to replay), and the nodes of each
/// iteration that ended without the goal, by its bound (what an order of children or a
/// pruning machine must leave alone or only reduce).
pub fn ida_by_bound(
    h: &pdbsolver::HeuristicChoice,
    p: &Puzzle,
    goal: &Goal,
    settings: pdbsolver::Ida,
) -> (pdbsolver::Solution, std::collections::BTreeMap<u32, u64>) {
    let (observer, seen) = recorder(|e| match e {
        pdbsolver::Event::Iteration(it) => Some((it.bound, it.nodes)),
        _ => None,
    });
    let search = pdbsolver::Search {
        observer: Some(observer),
        ..pdbsolver::Search::new(settings)
    };
    let s = pdbsolver::solve(&search, h, p, goal).unwrap_or_else(|e| panic!("{p:#}: {e}"));
    assert_replays(p, goal, &s);
    let by_bound = seen.lock().unwrap().iter().copied().collect();
    (s, by_bound)
}

/// An observer that keeps what `pick` takes from each event, and the list it keeps it in.
pub fn recorder<T: Send + 'static>(
    pick: impl Fn(&pdbsolver::Event) -> Option<T> + Send + Sync + 'static,
) -> (
    pdbsolver::Observer,
    std::sync::Arc<std::sync::Mutex<Vec<T>>>,
) {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let observer = pdbsolver::Observer::new(move |e| {
        if let Some(t) = pick(e) {
            log.lock().unwrap().push(t);
        }
    });
    (observer, seen)
}

/// Plays `moves` and checks that they reach `goal`, and that the reported tiles are the moved ones.
pub fn assert_replays(puzzle: &Puzzle, goal: &Goal, s: &pdbsolver::Solution) {
    let (end, tiles) = pdbsolver::replay(puzzle, &s.moves).expect("every move stays on the board");
    assert!(
        end.is_goal(goal),
        "moves of {puzzle:#} do not reach the goal"
    );
    assert_eq!(tiles, s.tiles_moved);
    assert_eq!(s.moves.len(), s.tiles_moved.len());
}

/// The settings the algorithm tests vary, as one flat set: [`Settings::search`] gives each
/// algorithm those it takes (threads to `parallel-ida` and `hybrid`, the weight to
/// `weighted`, …) and every algorithm the limits and the observer.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Node, time and memory limits.
    pub limits: pdbsolver::Limits,
    /// `parallel-ida`, `hybrid`: threads (0: one per core).
    pub threads: usize,
    /// `weighted`: the weight (`None`: the default).
    pub weight: Option<f64>,
    /// `dfs`: a fixed depth limit.
    pub depth_limit: Option<u32>,
    /// `hybrid`: the A* budget.
    pub hybrid_nodes: Option<u64>,
    /// `ida`, `hybrid`, `parallel-ida`: the duplicate-move pruning.
    pub pruning: pdbsolver::Pruning,
    /// Told of IDA*'s iterations and checkpoints.
    pub observer: Option<pdbsolver::Observer>,
}

impl Settings {
    /// The search of `alg` with these settings.
    pub fn search(&self, alg: pdbsolver::AlgorithmName) -> pdbsolver::Search {
        use pdbsolver::{Algorithm, AlgorithmName as A};
        let pruning = self.pruning;
        let algorithm = match alg {
            A::Ida => Algorithm::Ida(pdbsolver::Ida {
                pruning,
                ..Default::default()
            }),
            A::Hybrid => Algorithm::Hybrid(pdbsolver::Hybrid {
                budget: self.hybrid_nodes,
                threads: self.threads,
                pruning,
            }),
            A::ParallelIda => Algorithm::ParallelIda(pdbsolver::ParallelIda {
                threads: self.threads,
                pruning,
            }),
            A::Dfs => Algorithm::Dfs(pdbsolver::Dfs {
                depth_limit: self.depth_limit,
            }),
            A::Weighted => Algorithm::Weighted(pdbsolver::Weighted {
                weight: self.weight.unwrap_or(pdbsolver::Weighted::default().weight),
            }),
            other => Algorithm::from(other),
        };
        pdbsolver::Search {
            limits: self.limits,
            observer: self.observer.clone(),
            ..pdbsolver::Search::new(algorithm)
        }
    }
}

/// [`pdbsolver::solve`] of `alg` with the settings `o`.
pub fn solve_as(
    alg: pdbsolver::AlgorithmName,
    h: &pdbsolver::HeuristicChoice,
    p: &Puzzle,
    g: &Goal,
    o: &Settings,
) -> Result<pdbsolver::Solution, pdbsolver::SolveError> {
    pdbsolver::solve(&o.search(alg), h, p, g)
}

/// IDA* through the library's one entry point ([`pdbsolver::solve`]), as most tests run it.
pub trait Ida {
    /// Solves `puzzle` for `goal` with IDA* within `limits`.
    fn ida(
        &self,
        puzzle: &Puzzle,
        goal: &Goal,
        limits: &pdbsolver::Limits,
    ) -> Result<pdbsolver::Solution, pdbsolver::SolveError>;
}

impl Ida for pdbsolver::HeuristicChoice {
    fn ida(
        &self,
        puzzle: &Puzzle,
        goal: &Goal,
        limits: &pdbsolver::Limits,
    ) -> Result<pdbsolver::Solution, pdbsolver::SolveError> {
        let search = pdbsolver::Search {
            limits: *limits,
            ..pdbsolver::Search::default()
        };
        pdbsolver::solve(&search, self, puzzle, goal)
    }
}

/// The two rows-style patterns of the 3×3 fixtures.
pub const ROWS: [&[usize]; 2] = [&[1, 2, 3, 4], &[5, 6, 7, 8]];
/// The two column-style patterns of the 3×3 fixtures (a second partition).
pub const COLS: [&[usize]; 2] = [&[1, 4, 7, 2], &[5, 8, 3, 6]];
/// The 3-4-4-4 row patterns of the 4×4 board (blank first).
pub const ROWS_4X4: [&[usize]; 4] = [
    &[1, 2, 3],
    &[4, 5, 6, 7],
    &[8, 9, 10, 11],
    &[12, 13, 14, 15],
];
/// The 3-4-4-4 column patterns of the 4×4 board (blank first): the rows, transposed.
pub const COLS_4X4: [&[usize]; 4] = [
    &[4, 8, 12],
    &[1, 5, 9, 13],
    &[2, 6, 10, 14],
    &[3, 7, 11, 15],
];

/// A zero-aware database of brute-force tables for `patterns`, in `enc`, written to `dir/name`
/// and opened.
pub fn open_db(
    dir: &Path,
    name: &str,
    goal: &Goal,
    patterns: &[&[usize]],
    enc: Encoding,
) -> std::sync::Arc<pdbsolver::Database> {
    let path = dir.join(name);
    write_db_with(
        &path,
        goal,
        patterns,
        TableKind::ZeroAware,
        enc,
        &WriteOptions::default(),
    );
    std::sync::Arc::new(
        pdbsolver::Database::open(&path, pdbsolver::OpenOptions::default()).unwrap(),
    )
}

/// The heuristics the search-order tests check, by name, on the 3×3 board with `goal`: byte
/// and `bit1` databases, a catalogue of two partitions, Manhattan and linear conflicts.
pub fn heuristics(dir: &Path, goal: &Goal) -> Vec<(&'static str, pdbsolver::HeuristicChoice)> {
    let rows = open_db(dir, "rows.pdb", goal, &ROWS, Encoding::U8);
    let rows1 = open_db(dir, "rows1.pdb", goal, &ROWS, Encoding::Bit1);
    let cols1 = open_db(dir, "cols1.pdb", goal, &COLS, Encoding::Bit1);
    let pdb =
        |databases: Vec<std::sync::Arc<pdbsolver::Database>>| pdbsolver::HeuristicChoice::Pdb {
            databases,
            reflect: true,
        };
    vec![
        ("u8 rows", pdb(vec![rows])),
        ("bit1 rows", pdb(vec![rows1.clone()])),
        ("bit1 rows + cols", pdb(vec![rows1, cols1])),
        ("manhattan", pdbsolver::HeuristicChoice::Manhattan),
        (
            "linear-conflict",
            pdbsolver::HeuristicChoice::LinearConflict,
        ),
    ]
}

/// A bit1 3x3 file and its u8 twin.
pub fn small_bit1(dir: &Path, compression: Compression) -> (PathBuf, Goal) {
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let path = dir.join(format!("small-{compression}.pdb"));
    let opts = WriteOptions {
        compression,
        ..WriteOptions::default()
    };
    let pats: [&[usize]; 2] = [&[1, 2, 3, 4], &[5, 6, 7, 8]];
    write_db_with(
        &path,
        &goal,
        &pats,
        TableKind::ZeroAware,
        Encoding::Bit1,
        &opts,
    );
    (path, goal)
}

/// Table 0's payload of `path`, modified by `f`; written back in place.
pub fn damage(path: &Path, f: impl Fn(&mut [u8])) {
    let file = PdbFile::open(path).unwrap();
    let th = file.header().tables[0].clone();
    let mut bytes = std::fs::read(path).unwrap();
    let start = th.payload_offset as usize;
    f(&mut bytes[start..start + th.stored_len as usize]);
    std::fs::write(path, &bytes).unwrap();
}

/// The 6-6-3 zero-aware database, built on first use into the tests' temporary folder and kept
/// between test runs; one copy per test process.
pub fn db663() -> std::sync::Arc<pdbsolver::Database> {
    use pdbsolver::{Database, OpenOptions};
    static DB: std::sync::OnceLock<std::sync::Arc<Database>> = std::sync::OnceLock::new();
    DB.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("solver-15-663-za.pdb");
        let board = Board::new(4, 4).unwrap();
        let db = Database::open(&path, OpenOptions::default()).or_else(|_| {
            let default = pdbsolver::locate::default_db(board, pdbformat::Metric::Stm).unwrap();
            pdbgen::build_standard(default, &path, None, &pdbgen::NoProgress).unwrap();
            Database::open(&path, OpenOptions::default())
        });
        std::sync::Arc::new(db.unwrap())
    })
    .clone()
}

/// The instances of bench/korf100.txt with their optimal lengths.
pub fn korf100() -> Vec<(Puzzle, usize)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/korf100.txt");
    let text = std::fs::read_to_string(path).unwrap();
    pdbsolver::input::read_puzzles(&text, None)
        .into_iter()
        .map(|l| (l.puzzle.unwrap(), l.expected.unwrap() as usize))
        .collect()
}
