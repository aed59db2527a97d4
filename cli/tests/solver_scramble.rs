//! `solver scramble`: every position solvable, the same seed the same positions, and the
//! positions spread as a uniform draw of the solvable ones is (the blank's cell, and the
//! distances against those of all 181,440 positions of the 3×3, from the BFS oracle).

use crate::common;

use common::{solver, success_stdout};
use pdbformat::testkit::PositionDistances;
use pdbformat::{Board, Goal, Metric, Puzzle};

/// The positions `solver scramble` prints for `args`.
fn scramble(args: &[&str]) -> Vec<Puzzle> {
    let home = tempfile::tempdir().unwrap();
    let out = success_stdout(solver(home.path()).arg("scramble").args(args));
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| {
            assert!(l.contains('/'), "{l}");
            Puzzle::parse(l, None).unwrap()
        })
        .collect()
}

#[test]
fn every_scramble_is_solvable_and_a_seed_repeats_them() {
    for (board, goal) in [
        ("3x3", "blank-first"),
        ("3x3", "blank-last"),
        ("4x3", "blank-last"),
        ("5x5", "blank-first"),
        ("2x2", "blank-first"),
    ] {
        let b: Board = board.parse().unwrap();
        let g = Goal::parse(b, goal).unwrap();
        let args = [
            "--board", board, "--goal", goal, "--count", "300", "--seed", "11",
        ];
        let v = scramble(&args);
        assert_eq!(v.len(), 300);
        for p in &v {
            assert_eq!(p.board(), b);
            assert!(p.is_solvable(&g), "{board} {goal}: {}", p.to_rows());
        }
        assert_eq!(
            scramble(&args),
            v,
            "{board}: the same seed, other positions"
        );
        let other = scramble(&[
            "--board", board, "--goal", goal, "--count", "300", "--seed", "12",
        ]);
        assert_ne!(other, v, "{board}: another seed, the same positions");
    }
    // Without a seed, a random one, said on standard error so that the run can be repeated.
    let home = tempfile::tempdir().unwrap();
    let out = solver(home.path())
        .args(["scramble", "--board", "3x3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    let seed = err.split_whitespace().nth(1).unwrap();
    let again = scramble(&["--board", "3x3", "--seed", seed]);
    assert_eq!(
        again[0].to_rows(),
        String::from_utf8(out.stdout).unwrap().trim()
    );
}

#[test]
fn scrambles_are_spread_like_a_uniform_draw() {
    const N: usize = 9000;
    let v = scramble(&["--board", "3x3", "--count", "9000", "--seed", "2026"]);
    assert_eq!(v.len(), N);
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());

    // The blank's cell: a ninth of the solvable positions each. Chi-square with 8 degrees of
    // freedom: a uniform draw stays under 26.1 in 999 runs of 1000; 40 is generous.
    let mut cells = [0f64; 9];
    for p in &v {
        cells[p.blank()] += 1.0;
    }
    let e = N as f64 / 9.0;
    let chi2: f64 = cells.iter().map(|&o| (o - e) * (o - e) / e).sum();
    assert!(chi2 < 40.0, "blank cells {cells:?}: chi-square {chi2:.1}");

    // The distances to the goal, against those of every solvable position.
    let oracle = PositionDistances::new(&goal, Metric::Stm);
    assert_eq!(oracle.reachable(), 181_440);
    let bins = oracle.max() as usize + 1;
    let mut all = vec![0f64; bins];
    for (_, d) in oracle.iter() {
        all[d as usize] += 1.0;
    }
    let mut drawn = vec![0f64; bins];
    for p in &v {
        let key: Vec<u8> = p.tiles().iter().map(|&t| t as u8).collect();
        drawn[oracle.distance(&key).expect("solvable") as usize] += 1.0;
    }
    // Total variation distance: about 0.015 for a uniform draw of 9,000 (the sum of the
    // expected deviations of the bins), so 0.03 leaves a wide margin.
    let tv: f64 = (0..bins)
        .map(|d| (drawn[d] / N as f64 - all[d] / 181_440.0).abs())
        .sum::<f64>()
        / 2.0;
    assert!(tv < 0.03, "total variation {tv:.4}: {drawn:?}");
    // The mean distance of the 3×3 is 21.97; a draw of 9,000 has a standard error of 0.034.
    let mean: f64 = (0..bins).map(|d| d as f64 * drawn[d]).sum::<f64>() / N as f64;
    let exact: f64 = (0..bins).map(|d| d as f64 * all[d]).sum::<f64>() / 181_440.0;
    assert!(
        (mean - exact).abs() < 0.2,
        "mean {mean:.3} against {exact:.3}"
    );
}
