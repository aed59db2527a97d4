//! Move strings and positions as puzzle racers write them: the notation module's round trips,
//! `solver solve --notation tiles` checked by an applier written here from the tiles'
//! convention alone, `solver check` and its exit codes, and positions in rows separated by `/`.

use crate::common;

use common::{json_lines, solver, success_stdout, usage_error};
use pdbformat::notation::{length, read_moves, write_moves, Notation};
use pdbformat::testkit::XorShift;
use pdbformat::{Board, Direction, Goal, Metric};

/// Positions of several boards and goals, written in rows (solvable for the goal beside them).
const CASES: [(&str, &str); 5] = [
    ("8 3 0/4 1 7/2 5 6", "blank-first"),
    ("8 6 7/2 5 4/3 0 1", "blank-first"),
    ("8 6 7/2 5 4/3 0 1", "blank-last"),
    ("5 1 0 3/4 2 6 7", "blank-first"),
    ("3 1/0 2/5 4", "blank-first"),
];

#[test]
fn written_moves_read_back_in_both_notations() {
    let mut rng = XorShift::new(42);
    for _ in 0..500 {
        let n = rng.below(40);
        let steps: Vec<Direction> = (0..n).map(|_| Direction::ALL[rng.below(4)]).collect();
        for notation in Notation::ALL {
            let text = write_moves(&steps, notation);
            assert_eq!(read_moves(&text, notation).unwrap(), steps, "{text}");
            // Spaces between the tokens change nothing.
            let spaced: String = text
                .chars()
                .flat_map(|c| [if c.is_ascii_alphabetic() { ' ' } else { '\0' }, c])
                .filter(|&c| c != '\0')
                .collect();
            assert_eq!(read_moves(&spaced, notation).unwrap(), steps, "{spaced}");
        }
        // The blank's form is one letter a step; the tiles' form one token a run.
        assert_eq!(
            write_moves(&steps, Notation::Blank).len(),
            length(&steps, Metric::Stm)
        );
        let tiles = write_moves(&steps, Notation::Tiles);
        let letters = tiles.chars().filter(|c| c.is_ascii_alphabetic()).count();
        assert_eq!(letters, length(&steps, Metric::Mtm));
    }
}

/// The tiles' moves of `moves` played on `tiles` of `board` by hand: a letter is the direction
/// the tiles slide, so `R` moves the tile left of the blank into it. Returns the number of
/// single-tile moves, or `None` when a tile that should slide is not there.
fn play_tiles(board: Board, tiles: &mut [u16], moves: &str) -> Option<usize> {
    let w = board.width();
    let h = board.height();
    let mut steps = 0;
    let mut chars = moves.chars().peekable();
    while let Some(letter) = chars.next() {
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|c| c.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        let count: usize = if digits.is_empty() {
            1
        } else {
            digits.parse().unwrap()
        };
        for _ in 0..count {
            let blank = tiles.iter().position(|&t| t == 0).unwrap();
            let (r, c) = (blank / w, blank % w);
            let from = match letter {
                'R' if c > 0 => blank - 1,
                'L' if c + 1 < w => blank + 1,
                'D' if r > 0 => blank - w,
                'U' if r + 1 < h => blank + w,
                _ => return None,
            };
            tiles.swap(blank, from);
            steps += 1;
        }
    }
    Some(steps)
}

#[test]
fn solutions_in_the_tiles_notation_reach_the_goal_played_by_hand() {
    let home = tempfile::tempdir().unwrap();
    for (puzzle, goal_name) in CASES {
        let run = |notation: &str| {
            let out = success_stdout(
                solver(home.path())
                    .args("solve --json --quiet --heuristic lc --goal".split(' '))
                    .arg(goal_name)
                    .arg("--notation")
                    .arg(notation)
                    .arg(puzzle),
            );
            json_lines(&out).remove(0)
        };
        let v = run("tiles");
        let moves = v["moves"].as_str().unwrap();
        let length = v["length"].as_u64().unwrap() as usize;
        let board: Board = {
            let rows: Vec<&str> = puzzle.split('/').collect();
            let w = rows[0].split_whitespace().count();
            Board::new(w, rows.len()).unwrap()
        };
        let goal = Goal::parse(board, goal_name).unwrap();
        let mut tiles: Vec<u16> = puzzle
            .split(|c: char| c == '/' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(
            play_tiles(board, &mut tiles, moves),
            Some(length),
            "{moves}"
        );
        assert_eq!(tiles, goal.tiles(), "{puzzle} {moves}");
        // Runs of the tiles' form are written once: no letter follows itself.
        let letters: Vec<char> = moves.chars().filter(|c| c.is_ascii_alphabetic()).collect();
        assert!(letters.windows(2).all(|p| p[0] != p[1]), "{moves}");

        // By default the answer is the blank's, a letter a move, as it always was; the same
        // solution in the other notation.
        let blank = run("blank");
        let blank_moves = blank["moves"].as_str().unwrap();
        assert_eq!(blank_moves.len(), length);
        assert!(blank_moves.chars().all(|c| "UDLR".contains(c)));
        let default = json_lines(&success_stdout(
            solver(home.path())
                .args("solve --json --quiet --heuristic lc --goal".split(' '))
                .arg(goal_name)
                .arg(puzzle),
        ))
        .remove(0);
        assert_eq!(default["moves"], blank["moves"]);
        assert_eq!(
            read_moves(moves, Notation::Tiles).unwrap(),
            read_moves(blank_moves, Notation::Blank).unwrap()
        );

        // `solver check` agrees: the moves reach the goal in that many single-tile moves.
        let out = success_stdout(
            solver(home.path())
                .args("check --json --notation tiles --goal".split(' '))
                .arg(goal_name)
                .arg(puzzle)
                .arg(moves),
        );
        let c = json_lines(&out).remove(0);
        assert_eq!(c["reaches_goal"], true);
        assert_eq!(c["stm"].as_u64().unwrap() as usize, length);
        assert_eq!(c["mtm"].as_u64().unwrap() as usize, letters.len());
        assert_eq!(c["moves"], moves);
    }
}

#[test]
fn text_answers_show_the_tiles_moves_only_when_asked() {
    let home = tempfile::tempdir().unwrap();
    let args = ["solve", "--quiet", "--heuristic", "lc", "8 3 0/4 1 7/2 5 6"];
    let plain = String::from_utf8(success_stdout(solver(home.path()).args(args))).unwrap();
    assert!(!plain.contains("moves:"), "{plain}");
    assert!(plain.contains("blank:      L L D D"), "{plain}");
    let tiles = String::from_utf8(success_stdout(
        solver(home.path()).args(args).args(["--notation", "tiles"]),
    ))
    .unwrap();
    assert!(tiles.contains("moves:      R2U2"), "{tiles}");
    assert!(tiles.contains("blank:      L L D D"), "{tiles}");
    // A file of puzzles: each line ends with the moves in the notation asked for.
    let (home, path) = common::home_with_file("p.txt", "8 3 0/4 1 7/2 5 6\n");
    let out = success_stdout(
        solver(home.path())
            .args("solve --heuristic lc --notation tiles --input".split(' '))
            .arg(path.to_str().unwrap()),
    );
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.lines()
            .any(|l| l.starts_with("#1") && l.contains("R2U2")),
        "{out}"
    );
    usage_error(
        solver(home.path()).args(["solve", "--notation", "tile", "1 2 3 4 5 6 7 0 8"]),
        "use tiles or blank",
    );
}

#[test]
fn check_says_whether_moves_reach_the_goal_with_its_exit_status() {
    let home = tempfile::tempdir().unwrap();
    let check = |args: &[&str]| {
        let mut c = solver(home.path());
        c.arg("check").args(args);
        c.assert()
    };
    // Tiles R2 then U2 from the blank's top-right corner: legal, not the goal.
    let out = check(&["--notation", "tiles", "8 3 0/4 1 7/2 5 6", "R2 U2"])
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("length:  4 STM, 2 MTM"), "{out}");
    assert!(out.contains("does not reach"), "{out}");
    // Already solved, no moves; the blank's notation with counts.
    check(&["0 1 2/3 4 5/6 7 8", ""]).code(0);
    check(&["1 0 2/3 4 5/6 7 8", "L"]).code(0);
    check(&["3 1 2/0 4 5/6 7 8", "u"]).code(0);
    check(&["1 2 0/3 4 5/6 7 8", "L2"]).code(0);
    check(&["1 2 0/3 4 5/6 7 8", "R2", "--notation", "tiles"]).code(0);
    // Illegal moves and unreadable strings: status 2, the move named.
    let cases: [(&[&str], &str); 6] = [
        (
            &["0 1 2/3 4 5/6 7 8", "R2 U"],
            "move 2 \"U\" (at character 4) cannot be made",
        ),
        (
            &["0 1 2/3 4 5/6 7 8", "L3", "--notation", "tiles"],
            "after 2 of its 3 steps",
        ),
        (&["0 1 2/3 4 5/6 7 8", "R x"], "cannot read \"x\" (move 2"),
        (
            &["0 1 2/3 4 5/6 7 8", "R99999999999999"],
            "count out of range",
        ),
        (&["0 1 2/3 4 5/6 7", "R"], "row 3 has 2 tiles"),
        (
            &["0 1 2/3 4 5/6 7 8", "R", "--board", "3x4"],
            "3 rows given",
        ),
    ];
    for (args, msg) in cases {
        let out = check(args).code(2).get_output().stderr.clone();
        let err = String::from_utf8(out).unwrap();
        assert!(err.contains(msg), "{args:?}: {err}");
    }
    // With --json, errors are JSON too.
    let out = check(&["--json", "0 1 2/3 4 5/6 7 8", "Q"])
        .code(2)
        .get_output()
        .stdout
        .clone();
    let v = json_lines(&out).remove(0);
    assert!(v["error"].as_str().unwrap().contains("move 1"), "{v}");
}

#[test]
fn positions_in_rows_give_their_board() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        &["8 2 0/4 6 1/3 7 5"][..],
        &["8 2 0", "/", "4 6 1", "/", "3 7 5"],
        &["--board", "3x3", "8 2 0 / 4 6 1 / 3 7 5"],
    ] {
        let out = success_stdout(
            solver(home.path())
                .args(["solve", "--json", "--quiet"])
                .args(args),
        );
        assert_eq!(
            json_lines(&out)[0]["puzzle"],
            "8 2 0 4 6 1 3 7 5",
            "{args:?}"
        );
    }
    let out =
        success_stdout(solver(home.path()).args(["solve", "--json", "--quiet", "5 1 0 3/4 2 6 7"]));
    let v = json_lines(&out).remove(0);
    assert_eq!(v["puzzle"], "5 1 0 3 4 2 6 7");
    assert!(v["length"].as_u64().unwrap() > 0, "{v}");
    common::fails_saying(
        solver(home.path()).args(["solve", "--board", "2x4", "5 1 0 3/4 2 6 7"]),
        "a row of the 2x4 board has 2",
    );
    common::fails_saying(
        solver(home.path()).args(["solve", "8 2 0/4 6 1 9/3 7 5"]),
        "row 2 has 4 tiles, row 1 has 3",
    );
    common::fails_saying(
        solver(home.path()).args(["solve", "8 2 0/4 6 1/3 7 5/"]),
        "row 4 is empty",
    );
}
