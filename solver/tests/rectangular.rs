//! Rectangular boards (2x5 exhaustively, 3x4 and 4x3 by agreement) with both goal conventions:
//! linear conflict and brute-force pattern databases give the exact lengths.

use crate::common;

use common::{
    all_distances, assert_replays, both_goals, distance_key, random_solvable, random_walk,
    write_db, Ida, Rng,
};
use pdbformat::rank::TableKind;
use pdbformat::{Board, Goal};
use pdbsolver::{Database, HeuristicChoice, Limits, OpenOptions};
use std::sync::Arc;

fn pdb_solver(
    goal: &Goal,
    patterns: &[&[usize]],
    dir: &tempfile::TempDir,
    name: &str,
) -> HeuristicChoice {
    let path = dir.path().join(name);
    write_db(&path, goal, patterns, TableKind::ZeroAware);
    let db = Database::open(&path, OpenOptions::default()).unwrap();
    HeuristicChoice::Pdb {
        databases: vec![Arc::new(db)],
        reflect: true,
    }
}

#[test]
fn two_by_five_against_exhaustive_bfs() {
    let dir = tempfile::tempdir().unwrap();
    let b = Board::new(5, 2).unwrap();
    for (i, goal) in both_goals(b).into_iter().enumerate() {
        let dist = all_distances(&goal);
        assert_eq!(dist.iter().filter(|&&d| d != u8::MAX).count(), 1_814_400);
        let pats: [&[usize]; 2] = [&[1, 2, 3, 4], &[5, 6, 7, 8, 9]];
        let solvers = [
            HeuristicChoice::LinearConflict,
            pdb_solver(&goal, &pats, &dir, &format!("g{i}.pdb")),
        ];
        let mut rng = Rng::new(31337 + i as u64);
        for _ in 0..60 {
            let p = random_solvable(&goal, &mut rng);
            let d = dist[distance_key(&p)] as usize;
            for s in &solvers {
                let sol = s.ida(&p, &goal, &Limits::default()).unwrap();
                assert_eq!(sol.len(), d, "{p:#} for {goal}");
                assert_replays(&p, &goal, &sol);
            }
        }
    }
}

#[test]
fn three_by_four_and_four_by_three_agree() {
    let dir = tempfile::tempdir().unwrap();
    for (w, h) in [(3, 4), (4, 3)] {
        let b = Board::new(w, h).unwrap();
        for (i, goal) in both_goals(b).into_iter().enumerate() {
            let pats: [&[usize]; 3] = [&[1, 2, 3, 4], &[5, 6, 7, 8], &[9, 10, 11]];
            let pdb = pdb_solver(&goal, &pats, &dir, &format!("{w}x{h}-{i}.pdb"));
            let lc = HeuristicChoice::LinearConflict;
            let mut rng = Rng::new(1 + i as u64 * 7 + w as u64);
            for _ in 0..8 {
                let p = random_walk(&goal, 60, &mut rng);
                let a = pdb.ida(&p, &goal, &Limits::default()).unwrap();
                let c = lc.ida(&p, &goal, &Limits::default()).unwrap();
                assert_eq!(a.len(), c.len(), "{p:#} on {b} for {goal}");
                assert_replays(&p, &goal, &a);
                assert_replays(&p, &goal, &c);
            }
            // The blank-first table also serves blank-last through the 180-degree rotation.
            if i == 0 {
                let last = Goal::blank_last(b);
                let p = random_walk(&last, 60, &mut rng);
                let a = pdb.ida(&p, &last, &Limits::default()).unwrap();
                let c = lc.ida(&p, &last, &Limits::default()).unwrap();
                assert_eq!(a.len(), c.len());
                assert_replays(&p, &last, &a);
            }
        }
    }
}
