//! `bit1` tables read with differential lookups: the same lengths and the same node counts as
//! the `u8` table they encode (Korf's first ten instances with 6-6-3, random 3x4 and 3x3
//! puzzles, both goals, with and without reflection); the walk to the goal gives the exact
//! value of any position; A*, A*+IDA*, weighted A* and parallel IDA* (which keep
//! positions and rebuild a kept position's exact values from a memo instead of walking to the
//! goal again) search exactly as with the byte table; compressed bit1 files load the same; corrupt ones are
//! refused with a clear message and never make the solver panic.

use crate::common;

use common::{
    both_goals, compressed, damage, random_solvable, random_walk, small_bit1, solve_as,
    write_db_with, Ida, Rng, Settings,
};
use pdbformat::format::{
    encode_entries, write_pdb, Compression, Encoding, LoadOptions, PdbFile, TableSource,
    WriteOptions,
};
use pdbformat::rank::TableKind;
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::heuristic::{Heuristic, MoveTable, PdbHeuristic, Position};
use pdbsolver::{
    AlgorithmName, Database, DbError, HeuristicChoice, Limits, OpenOptions, SolveError,
};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Rewrites the file `from` with every table in `encoding` and `compression`.
fn convert(from: &Path, to: &Path, encoding: Encoding, compression: Compression) {
    let f = PdbFile::open(from).unwrap();
    let h = f.header().clone();
    let tables: Vec<_> = (0..h.tables.len())
        .map(|i| f.load(i, LoadOptions::default()).unwrap())
        .collect();
    let encoded: Vec<Vec<u8>> = tables
        .iter()
        .map(|t| {
            assert_eq!(t.header.encoding, Encoding::U8);
            encode_entries(&t.bytes, encoding)
        })
        .collect();
    let sources: Vec<TableSource> = tables
        .iter()
        .zip(&encoded)
        .map(|(t, e)| TableSource {
            kind: t.header.kind,
            pattern: &t.header.pattern,
            encoding,
            max_value: t.header.max_value,
            entries: e,
        })
        .collect();
    write_pdb(to, &h.goal, &sources, &compressed(compression)).unwrap();
}

/// The zero-aware 6-6-3 database as u8 and as bit1, built once and kept between test runs.
fn dbs663() -> (Arc<Database>, Arc<Database>) {
    static DBS: OnceLock<(Arc<Database>, Arc<Database>)> = OnceLock::new();
    DBS.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let u8_path = dir.join("bit1-test-15-663-za.pdb");
        let bit1_path = dir.join("bit1-test-15-663-za-bit1.pdb");
        let board = Board::new(4, 4).unwrap();
        if Database::open(&u8_path, OpenOptions::default()).is_err() {
            let default = pdbsolver::locate::default_db(board, pdbformat::Metric::Stm).unwrap();
            pdbgen::build_standard(default, &u8_path, None, &pdbgen::NoProgress).unwrap();
        }
        if Database::open(&bit1_path, OpenOptions::default()).is_err() {
            convert(&u8_path, &bit1_path, Encoding::Bit1, Compression::None);
        }
        let open = |p: &Path| Arc::new(Database::open(p, OpenOptions::default()).unwrap());
        let (a, b) = (open(&u8_path), open(&bit1_path));
        assert!(b.tables().iter().all(|t| t.is_differential()));
        assert!(!a.tables().iter().any(|t| t.is_differential()));
        (a, b)
    })
    .clone()
}

fn solver_of(db: &Arc<Database>, reflect: bool) -> HeuristicChoice {
    HeuristicChoice::Pdb {
        databases: vec![db.clone()],
        reflect,
    }
}

/// Solves `p` with both solvers: same length, same nodes, same iterations, same start value.
fn same_search(
    p: &Puzzle,
    goal: &Goal,
    a: &HeuristicChoice,
    b: &HeuristicChoice,
    what: &str,
) -> u64 {
    let x = a.ida(p, goal, &Limits::default()).unwrap();
    let y = b.ida(p, goal, &Limits::default()).unwrap();
    assert_eq!(x.len(), y.len(), "{what}: lengths of {p:#}");
    assert_eq!(
        x.stats.initial_h, y.stats.initial_h,
        "{what}: start values of {p:#}"
    );
    assert_eq!(x.stats.nodes, y.stats.nodes, "{what}: nodes of {p:#}");
    assert_eq!(
        x.stats.iterations, y.stats.iterations,
        "{what}: iterations of {p:#}"
    );
    assert_eq!(x.moves, y.moves, "{what}: the same first solution of {p:#}");
    x.stats.nodes
}

/// Korf's 100 instances with their optimal lengths, and their goal (blank first).
fn korf100() -> (Goal, Vec<pdbsolver::input::PuzzleLine>) {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/korf100.txt"))
            .unwrap();
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    (goal, pdbsolver::input::read_puzzles(&text, None))
}

/// The byte and the bit1 6-6-3 as heuristics, with or without reflection.
fn both_663(reflect: bool) -> (HeuristicChoice, HeuristicChoice) {
    let (u8db, bit1db) = dbs663();
    (solver_of(&u8db, reflect), solver_of(&bit1db, reflect))
}

#[test]
fn korf_first_ten_same_lengths_and_nodes_as_u8() {
    let (goal, lines) = korf100();
    for reflect in [true, false] {
        let (a, b) = both_663(reflect);
        for (i, l) in lines.iter().take(10).enumerate() {
            let p = l.puzzle.as_ref().unwrap();
            let what = format!("instance {} reflect {reflect}", i + 1);
            same_search(p, &goal, &a, &b, &what);
            let s = b.ida(p, &goal, &Limits::default()).unwrap();
            assert_eq!(Some(s.len() as u32), l.expected, "{what}");
        }
    }
}

/// The searches that keep positions and rebuild their parts from a memo (A*, A*+IDA* with a
/// budget small enough for IDA* to run from the frontier, weighted A*, parallel IDA* on one
/// thread, whose root every iteration searches again from its memo) with a
/// `bit1` table: the same lengths, moves and node counts as with the byte table, i.e. every
/// rebuilt position's parts hold its exact values.
#[test]
fn searches_from_kept_positions_same_as_u8() {
    let (goal, lines) = korf100();
    for reflect in [true, false] {
        let (a, b) = both_663(reflect);
        // Korf's 2nd and 8th instance (lengths 53 and 46): tens of thousands of positions.
        for i in [1usize, 7] {
            let p = lines[i].puzzle.as_ref().unwrap();
            for (alg, budget) in [
                (AlgorithmName::AStar, None),
                (AlgorithmName::Hybrid, Some(3_000)),
                (AlgorithmName::Weighted, None),
                (AlgorithmName::ParallelIda, None),
            ] {
                let o = Settings {
                    hybrid_nodes: budget,
                    threads: 1,
                    ..Settings::default()
                };
                let x = solve_as(alg, &a, p, &goal, &o).unwrap();
                let y = solve_as(alg, &b, p, &goal, &o).unwrap();
                let what = format!("{alg} instance {} reflect {reflect}", i + 1);
                assert_eq!(x.moves, y.moves, "{what}: moves");
                assert_eq!(x.stats.nodes, y.stats.nodes, "{what}: nodes");
                assert_eq!(x.stats.stored, y.stats.stored, "{what}: stored");
                if alg != AlgorithmName::Weighted {
                    assert_eq!(Some(y.len() as u32), lines[i].expected, "{what}");
                }
            }
        }
    }
}

/// One-thread A*+IDA*, whose iterations after the first take the frontier nodes in the order
/// the previous one learned: with a byte and a `bit1` table the same moves, nodes and
/// iterations, and `ida`'s lengths, over Korf's first ten instances and two budgets, most
/// runs with later iterations (those the learned order acts on).
#[test]
fn hybrid_learned_order_same_as_u8_and_optimal() {
    let (goal, lines) = korf100();
    let (a, b) = both_663(true);
    let mut later = 0;
    for (i, l) in lines.iter().take(10).enumerate() {
        let p = l.puzzle.as_ref().unwrap();
        let optimal = a.ida(p, &goal, &Limits::default()).unwrap().len();
        for budget in [2_000, 20_000] {
            let o = Settings {
                hybrid_nodes: Some(budget),
                threads: 1,
                ..Settings::default()
            };
            let x = solve_as(AlgorithmName::Hybrid, &a, p, &goal, &o).unwrap();
            let y = solve_as(AlgorithmName::Hybrid, &b, p, &goal, &o).unwrap();
            let what = format!("instance {} budget {budget}", i + 1);
            assert_eq!(x.moves, y.moves, "{what}: moves");
            assert_eq!(x.stats.nodes, y.stats.nodes, "{what}: nodes");
            assert_eq!(x.stats.iterations, y.stats.iterations, "{what}: iterations");
            assert_eq!(y.len(), optimal, "{what}: length");
            assert!(y.optimal, "{what}");
            if y.stats.iterations >= 2 {
                later += 1;
            }
        }
    }
    assert!(later >= 10, "{later} of 20 runs had later iterations");
}

#[test]
fn random_three_by_four_same_lengths_and_nodes_both_goals() {
    let dir = tempfile::tempdir().unwrap();
    for (w, h) in [(3, 4), (4, 3)] {
        let board = Board::new(w, h).unwrap();
        for (gi, goal) in both_goals(board).into_iter().enumerate() {
            // Tiles 1..=11 in goal cells of blocks, whatever the goal.
            let pats: [&[usize]; 3] = [&[1, 2, 3, 4], &[5, 6, 7, 8], &[9, 10, 11]];
            let open = |enc: Encoding, c: Compression| {
                let path = dir.path().join(format!("{w}x{h}-{gi}-{enc}-{c}.pdb"));
                let opts = compressed(c);
                write_db_with(&path, &goal, &pats, TableKind::ZeroAware, enc, &opts);
                Arc::new(Database::open(&path, OpenOptions::default()).unwrap())
            };
            let a = solver_of(&open(Encoding::U8, Compression::None), true);
            let b = solver_of(&open(Encoding::Bit1, Compression::None), true);
            let c = solver_of(&open(Encoding::Bit1, Compression::Zstd), false);
            let mut rng = Rng::new(0xb171 + gi as u64 + 10 * w as u64);
            for _ in 0..12 {
                let p = random_solvable(&goal, &mut rng);
                let what = format!("{board} {goal}");
                same_search(&p, &goal, &a, &b, &what);
                same_search(&p, &goal, &a, &c, &what);
            }
        }
    }
}

#[test]
fn random_three_by_three_with_and_without_reflection() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(3, 3).unwrap();
    for (gi, goal) in both_goals(board).into_iter().enumerate() {
        let pats: [&[usize]; 2] = [&[1, 2, 3, 4], &[5, 6, 7, 8]];
        let open = |enc: Encoding| {
            let path = dir.path().join(format!("{gi}-{enc}.pdb"));
            let opts = WriteOptions::default();
            write_db_with(&path, &goal, &pats, TableKind::ZeroAware, enc, &opts);
            Arc::new(Database::open(&path, OpenOptions::default()).unwrap())
        };
        let (x, y) = (open(Encoding::U8), open(Encoding::Bit1));
        let mut rng = Rng::new(99 + gi as u64);
        for reflect in [true, false] {
            let (a, b) = (solver_of(&x, reflect), solver_of(&y, reflect));
            assert_eq!(a.reflects(&goal), reflect);
            for _ in 0..100 {
                let p = random_solvable(&goal, &mut rng);
                same_search(&p, &goal, &a, &b, &format!("{goal} reflect {reflect}"));
            }
        }
    }
}

/// The u8 table's value of every (table, view) of the position `tiles`.
fn components(h: &PdbHeuristic, tiles: &[u8; 64]) -> Vec<u32> {
    h.component_values(&h.init(tiles))
}

#[test]
fn walk_to_the_goal_gives_the_exact_value_of_random_positions() {
    let (u8db, bit1db) = dbs663();
    let board = Board::new(4, 4).unwrap();
    let mut rng = Rng::new(4242);
    // Every goal corner, through the frames of the blank-first tables, with reflection.
    let goals = [
        Goal::blank_first(board),
        Goal::blank_last(board),
        Goal::parse(board, "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15").unwrap(),
    ];
    for goal in &goals {
        let a = PdbHeuristic::new(std::slice::from_ref(&u8db), goal, true).unwrap();
        let b = PdbHeuristic::new(std::slice::from_ref(&bit1db), goal, true).unwrap();
        for i in 0..400 {
            // Uniform positions and short walks from the goal (small values, the goal itself).
            let p = if i % 2 == 0 {
                random_solvable(goal, &mut rng)
            } else {
                random_walk(goal, i % 23, &mut rng)
            };
            let s = Position::from_tiles(p.tiles()).unwrap();
            assert_eq!(
                components(&a, &s.tiles),
                components(&b, &s.tiles),
                "{p:#} for {goal}"
            );
            b.check_position(&s.tiles).unwrap();
        }
    }
    // Table by table, in the table's own frame, against the stored byte.
    let mut cells = [0u8; 16];
    for (ta, tb) in u8db.tables().iter().zip(bit1db.tables()) {
        let k = ta.pattern.len();
        for _ in 0..2000 {
            let mut perm: Vec<u8> = (0..16).collect();
            for j in (1..16).rev() {
                perm.swap(j, rng.below(j + 1));
            }
            cells[..k].copy_from_slice(&perm[..k]);
            let occ = cells[..k].iter().fold(0u64, |m, &c| m | 1 << c);
            let blank = perm[k];
            assert_eq!(
                tb.exact_value(&cells[..k], occ, blank).unwrap(),
                ta.lookup(&cells[..k], occ, blank)
            );
        }
    }
}

#[test]
fn incremental_values_follow_the_u8_table_along_random_walks() {
    let (u8db, bit1db) = dbs663();
    let board = Board::new(4, 4).unwrap();
    let goal = Goal::blank_last(board);
    let a = PdbHeuristic::new(std::slice::from_ref(&u8db), &goal, true).unwrap();
    let b = PdbHeuristic::new(std::slice::from_ref(&bit1db), &goal, true).unwrap();
    let moves = MoveTable::new(board);
    let mut s = Position::from_tiles(goal.tiles()).unwrap();
    let (mut ha, mut hb) = (a.init(&s.tiles), b.init(&s.tiles));
    let hb_start = hb.clone();
    let mut rng = Rng::new(17);
    for step in 0..3000 {
        let t = moves.targets(s.blank);
        let next = t[rng.below(t.len())];
        let (from, to) = (next, s.blank);
        let tile = s.slide(next);
        let (pa, pb) = (
            a.prepare(&ha, tile, from, to),
            b.prepare(&hb, tile, from, to),
        );
        let (va, _) = a.apply(&mut ha, &s.tiles, tile, from, to, u32::MAX, &pa);
        // Early stops and undos leave the carried values intact.
        let (_, u) = b.apply(&mut hb, &s.tiles, tile, from, to, 0, &pb);
        b.undo(&mut hb, tile, from, to, u);
        let (vb, _) = b.apply(&mut hb, &s.tiles, tile, from, to, u32::MAX, &pb);
        assert_eq!(va, vb, "step {step}");
        assert_eq!(a.component_values(&ha), b.component_values(&hb));
        if step % 100 == 0 {
            assert_eq!(b.component_values(&hb), components(&b, &s.tiles), "fresh");
        }
        // A memo of the carried parts (a byte per bit1 entry) rebuilds them exactly; the u8
        // table keeps none.
        assert_eq!(a.memo_len(), 0);
        let mut memo = vec![0u8; b.memo_len()];
        b.write_memo(&hb, &mut memo);
        assert!(b.memo_len() > 0);
        let mut restored = hb_start.clone();
        b.restore(&mut restored, &s.tiles, &memo);
        assert_eq!(b.component_values(&restored), b.component_values(&hb));
        assert_eq!(format!("{restored:?}"), format!("{:?}", b.init(&s.tiles)));
    }
}

#[test]
fn corrupt_bit1_files_give_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let no_verify = OpenOptions {
        verify: false,
        ..Default::default()
    };
    // A flipped bit: the digest check refuses the file.
    let (path, goal) = small_bit1(dir.path(), Compression::None);
    damage(&path, |p| p[p.len() / 2] ^= 4);
    let e = Database::open(&path, OpenOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("checksum mismatch") && e.contains("small-none.pdb"),
        "{e}"
    );
    // The goal's bit set: refused even without the digest check.
    let (path, _) = small_bit1(dir.path(), Compression::None);
    let goal_entry = {
        let db = Database::open(&path, OpenOptions::default()).unwrap();
        let t = &db.tables()[0];
        let cells = [1u8, 2, 3, 4];
        t.index(&cells, 0b11110, 0)
    };
    damage(&path, |p| {
        p[(goal_entry / 8) as usize] ^= 1 << (goal_entry % 8)
    });
    let e = Database::open(&path, no_verify.clone()).unwrap_err();
    assert!(matches!(e, DbError::Corrupt { table: 0, .. }), "{e:?}");
    assert!(e.to_string().contains("goal"), "{e}");
    // Every bit 0 but the goal's: the walk from a start finds no way down, and solving says so
    // instead of searching with wrong values.
    let (path, _) = small_bit1(dir.path(), Compression::None);
    damage(&path, |p| p.fill(0));
    let db = Arc::new(Database::open(&path, no_verify.clone()).unwrap());
    let s = solver_of(&db, true);
    let p = Puzzle::parse("8 7 6 5 4 3 2 1 0", None).unwrap();
    let e = s.ida(&p, &goal, &Limits::default()).unwrap_err();
    assert!(
        matches!(&e, SolveError::Database(DbError::Corrupt { .. })),
        "{e:?}"
    );
    assert!(e.to_string().contains("pdbgen verify"), "{e}");
    // The heuristic itself never panics on such a table, whatever it is asked.
    let h = PdbHeuristic::new(&[db], &goal, true).unwrap();
    let mut rng = Rng::new(5);
    let moves = MoveTable::new(goal.board());
    let mut st = Position::from_tiles(p.tiles()).unwrap();
    let mut hs = h.init(&st.tiles);
    for _ in 0..500 {
        let t = moves.targets(st.blank);
        let next = t[rng.below(t.len())];
        let (from, to) = (next, st.blank);
        let tile = st.slide(next);
        let pend = h.prepare(&hs, tile, from, to);
        h.apply(&mut hs, &st.tiles, tile, from, to, u32::MAX, &pend);
    }
    // A damaged zstd payload: refused at load.
    let (path, _) = small_bit1(dir.path(), Compression::Zstd);
    damage(&path, |p| {
        let n = p.len();
        p[n / 2] ^= 0x55
    });
    assert!(Database::open(&path, OpenOptions::default()).is_err());
    let _ = Database::open(&path, no_verify.clone());
}

#[test]
fn compressed_bit1_files_load_the_same_entries() {
    let (u8db, _) = dbs663();
    let dir = tempfile::tempdir().unwrap();
    let mut loaded = Vec::new();
    for c in [Compression::None, Compression::Zstd, Compression::Gzip] {
        let path = dir.path().join(format!("663-{c}.pdb"));
        convert(u8db.path(), &path, Encoding::Bit1, c);
        let mut calls = 0u64;
        let mut last = (0, 0);
        let db = Database::open_with(&path, OpenOptions::default(), &mut |d, t| {
            calls += 1;
            assert!(d <= t && d >= last.0);
            last = (d, t);
        })
        .unwrap();
        assert!(calls > 0 && last.0 == last.1, "progress reaches the total");
        assert_eq!(
            last.1,
            db.tables()
                .iter()
                .map(|t| t.memory_bytes() as u64)
                .sum::<u64>()
        );
        loaded.push(Arc::new(db));
    }
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let hs: Vec<PdbHeuristic> = loaded
        .iter()
        .map(|d| PdbHeuristic::new(std::slice::from_ref(d), &goal, true).unwrap())
        .collect();
    let mut rng = Rng::new(3);
    for _ in 0..50 {
        let s = Position::from_tiles(random_solvable(&goal, &mut rng).tiles()).unwrap();
        let v0 = components(&hs[0], &s.tiles);
        for h in &hs[1..] {
            assert_eq!(components(h, &s.tiles), v0);
        }
    }
}
