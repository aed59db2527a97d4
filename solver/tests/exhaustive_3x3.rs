//! Solution lengths on the 8-puzzle checked against exhaustive BFS distances of its 181,440
//! solvable positions (the deepest and every fifth of the others), for every heuristic, both goal conventions, and pattern databases
//! (zero-aware and zero-unaware, with and without reflection).

use crate::common;

use common::{
    all_distances, assert_replays, both_goals, distance_key, every_position, random_solvable,
    write_db, Ida, Rng,
};
use pdbformat::rank::TableKind;
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::{Database, HeuristicChoice, Limits, OpenOptions};
use std::sync::Arc;

fn b33() -> Board {
    Board::new(3, 3).unwrap()
}

#[test]
fn bfs_counts_and_diameter() {
    for goal in both_goals(b33()) {
        let dist = all_distances(&goal);
        let reached: Vec<u8> = dist.iter().copied().filter(|&d| d != u8::MAX).collect();
        assert_eq!(reached.len(), 181_440);
        assert_eq!(reached.iter().max(), Some(&31));
        assert_eq!(reached.iter().filter(|&&d| d == 31).count(), 2);
    }
}

fn pdb_solver(
    goal: &Goal,
    dir: &tempfile::TempDir,
    kind: TableKind,
    reflect: bool,
) -> HeuristicChoice {
    let path = dir.path().join(format!("{kind}-{goal}.pdb"));
    write_db(&path, goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]], kind);
    let db = Database::open(&path, OpenOptions::default()).unwrap();
    HeuristicChoice::Pdb {
        databases: vec![Arc::new(db)],
        reflect,
    }
}

#[test]
fn deep_and_strided_positions_with_pdb_and_a_sample_with_linear_conflict() {
    let dir = tempfile::tempdir().unwrap();
    for goal in both_goals(b33()) {
        let all = every_position(&goal);
        let za = pdb_solver(&goal, &dir, TableKind::ZeroAware, true);
        // Every position at least 27 moves away (the deepest quarter of the search's work)
        // and every fifth of the others.
        let chosen = (all.iter().enumerate()).filter(|&(i, (_, d))| i % 5 == 0 || *d >= 27);
        for (_, (p, d)) in chosen {
            let s = za.ida(p, &goal, &Limits::default()).unwrap();
            assert_eq!(s.len(), *d as usize, "{p:#}");
        }
        let lc = HeuristicChoice::LinearConflict;
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        // The deepest positions, then a random sample.
        let deepest = all.iter().filter(|(_, d)| *d >= 30);
        let sample: Vec<&(Puzzle, u8)> = (0..4000).map(|_| &all[rng.below(all.len())]).collect();
        for (p, d) in deepest.chain(sample) {
            let s = lc.ida(p, &goal, &Limits::default()).unwrap();
            assert_eq!(s.len(), *d as usize, "{p:#}");
            assert_replays(p, &goal, &s);
        }
    }
}

#[test]
fn all_heuristics_and_table_kinds_on_a_sample() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(12345);
    for goal in both_goals(b33()) {
        let dist = all_distances(&goal);
        let solvers = [
            HeuristicChoice::Hamming,
            HeuristicChoice::Manhattan,
            HeuristicChoice::LinearConflict,
            pdb_solver(&goal, &dir, TableKind::ZeroAware, false),
            pdb_solver(&goal, &dir, TableKind::ZeroUnaware, true),
            pdb_solver(&goal, &dir, TableKind::ZeroUnaware, false),
        ];
        for _ in 0..150 {
            let p = random_solvable(&goal, &mut rng);
            let d = dist[distance_key(&p)] as usize;
            for s in &solvers {
                let sol = s.ida(&p, &goal, &Limits::default()).unwrap();
                assert_eq!(sol.len(), d, "{:?} on {p:#}", s.name());
                assert_replays(&p, &goal, &sol);
            }
        }
    }
}

#[test]
fn a_partial_partition_is_still_exact() {
    // Tables that leave tiles uncovered: h can be 0 away from the goal, and the search must
    // still only stop on the goal itself.
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::blank_first(b33());
    let dist = all_distances(&goal);
    let path = dir.path().join("partial.pdb");
    write_db(&path, &goal, &[&[1, 2], &[7]], TableKind::ZeroAware);
    let db = Database::open(&path, OpenOptions::default()).unwrap();
    assert!(!db.is_complete());
    let s = HeuristicChoice::Pdb {
        databases: vec![Arc::new(db)],
        reflect: true,
    };
    let mut rng = Rng::new(424242);
    for _ in 0..40 {
        let p = random_solvable(&goal, &mut rng);
        let sol = s.ida(&p, &goal, &Limits::default()).unwrap();
        assert_eq!(sol.len(), dist[distance_key(&p)] as usize, "{p:#}");
        assert_replays(&p, &goal, &sol);
    }
}
