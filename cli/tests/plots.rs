//! The figures of `--plot` (`solver compare`, `solver bench`, `pdbgen info`): each SVG parses,
//! holds one mark per run, instance or value, in the colour of its series and placed in the
//! order of the numbers it stands for; bad output paths are refused with a clear error.

use crate::common;

use common::{json_lines, solver, success_stdout};
use pdbtiles::plot::{histogram, instances, series_color, svg_color};
use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;

/// A drawn element of an SVG: its tag, fill, stroke and position.
#[derive(Debug, Clone)]
struct Mark {
    tag: String,
    fill: String,
    stroke: String,
    /// Centre of a circle, first point of a polygon, top left of a rectangle.
    x: f64,
    y: f64,
    /// A rectangle's height (0 for other elements).
    height: f64,
}

/// The `tag` elements of `marks` filled with `colour`.
fn filled_marks<'a>(
    marks: &'a [Mark],
    tag: &str,
    colour: plotters::style::RGBColor,
) -> Vec<&'a Mark> {
    let fill = svg_color(colour);
    marks
        .iter()
        .filter(|m| m.tag == tag && m.fill == fill)
        .collect()
}

/// Every circle, polygon and rectangle of the SVG file at `path`, in document order; the file
/// must parse as XML with an `svg` root.
fn read_svg(path: &Path) -> (Vec<Mark>, String) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the figure is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let num = |n: &roxmltree::Node, a: &str| n.attribute(a).map_or(0.0, |v| v.parse().unwrap());
    let mut out = Vec::new();
    let mut words = String::new();
    for n in doc.descendants() {
        let tag = n.tag_name().name();
        if tag == "text" {
            words.push_str(n.text().unwrap_or(""));
            words.push('\n');
        }
        let (x, y, height) = match tag {
            "circle" => (num(&n, "cx"), num(&n, "cy"), 0.0),
            "rect" => (num(&n, "x"), num(&n, "y"), num(&n, "height")),
            "polygon" => {
                let first = n.attribute("points").unwrap().split_whitespace().next();
                let (x, y) = first.unwrap().split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap(), 0.0)
            }
            _ => continue,
        };
        out.push(Mark {
            tag: tag.into(),
            fill: n.attribute("fill").unwrap_or("").into(),
            stroke: n.attribute("stroke").unwrap_or("").into(),
            x,
            y,
            height,
        });
    }
    (out, words)
}

/// The JSON lines of a command's output that report a run (not the closing summary).
fn runs(out: &[u8]) -> Vec<Value> {
    json_lines(out)
        .into_iter()
        .filter(|v| v.get("summary").is_none())
        .collect()
}

/// The repository's bench folder.
fn bench(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

/// Whether the marks are placed in the order of `values` on a vertical axis drawn downwards:
/// a larger value never sits lower than a smaller one.
fn ordered_upwards(marks: &[&Mark], values: &[f64]) -> bool {
    assert_eq!(marks.len(), values.len());
    (0..values.len())
        .all(|i| (0..values.len()).all(|j| values[i] >= values[j] || marks[i].y >= marks[j].y))
}

#[test]
fn compare_draws_one_mark_per_puzzle_and_pair_in_both_panels() {
    let home = tempfile::tempdir().unwrap();
    let text = bench("3x3-random.txt");
    let puzzles: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(6)
        .collect();
    std::fs::write(home.path().join("p.txt"), puzzles.join("\n")).unwrap();
    let pairs = [
        "ida:manhattan",
        "astar:linear-conflict",
        "weighted:manhattan:w=2",
    ];
    let out = success_stdout(
        solver(home.path())
            .args(["compare", "--board", "3x3", "--input", "p.txt", "--json"])
            .args(["--pairs", &pairs.join(","), "--plot", "c.svg"]),
    );
    let runs = runs(&out);
    assert_eq!(runs.len(), puzzles.len() * pairs.len());
    let (marks, words) = read_svg(&home.path().join("c.svg"));
    let circles: Vec<&Mark> = marks.iter().filter(|m| m.tag == "circle").collect();
    assert_eq!(
        circles.len(),
        2 * runs.len(),
        "one mark per run in each of two panels"
    );
    for (k, pair) in pairs.iter().enumerate() {
        assert!(words.contains(pair), "the legend names {pair}");
        let color = svg_color(series_color(k));
        let mine: Vec<&Mark> = circles
            .iter()
            .copied()
            .filter(|m| m.fill == color)
            .collect();
        let runs: Vec<&Value> = runs.iter().filter(|r| r["pair"] == *pair).collect();
        assert_eq!(
            mine.len(),
            2 * runs.len(),
            "{pair}: one mark per puzzle per panel"
        );
        // The nodes panel (drawn first) and the seconds panel, each in the puzzles' order.
        let (nodes_panel, time_panel) = mine.split_at(runs.len());
        assert!(nodes_panel.iter().all(|m| m.x < 600.0) && time_panel.iter().all(|m| m.x > 600.0));
        let nodes: Vec<f64> = runs.iter().map(|r| r["nodes"].as_f64().unwrap()).collect();
        let seconds: Vec<f64> = runs
            .iter()
            .map(|r| r["seconds"].as_f64().unwrap().max(1e-6))
            .collect();
        assert!(
            ordered_upwards(nodes_panel, &nodes),
            "{pair}: marks follow the nodes"
        );
        assert!(
            ordered_upwards(time_panel, &seconds),
            "{pair}: marks follow the time"
        );
        // Further right for a longer optimum.
        let optimum: Vec<u64> = runs
            .iter()
            .map(|r| r["optimum"].as_u64().unwrap())
            .collect();
        for i in 0..runs.len() {
            for j in 0..runs.len() {
                if optimum[i] < optimum[j] {
                    assert!(nodes_panel[i].x < nodes_panel[j].x);
                }
            }
        }
    }
}

#[test]
fn bench_draws_ours_beside_the_published_counts() {
    let home = tempfile::tempdir().unwrap();
    // Numbered lines `id tiles length published`, as Korf's 24-puzzle file; the published
    // counts are made up, three decades apart.
    let file = "# id tiles length nodes\n\
                7 8 7 3 1 0 4 2 5 6 28 10\n\
                3 0 3 1 6 5 4 7 8 2 14 100000\n\
                9 4 1 2 0 5 6 3 8 7 23 1000\n";
    std::fs::write(home.path().join("b.txt"), file).unwrap();
    let out = success_stdout(
        solver(home.path())
            .args("bench b.txt --heuristic manhattan --json --plot b.svg".split(' ')),
    );
    let runs = runs(&out);
    assert_eq!(runs.len(), 3);
    let (marks, words) = read_svg(&home.path().join("b.svg"));
    let ours = filled_marks(&marks, "circle", instances::OURS);
    let published = filled_marks(&marks, "polygon", instances::PUBLISHED);
    assert_eq!(ours.len(), 3, "one mark per instance");
    assert_eq!(published.len(), 3, "one mark per published count");
    assert!(
        !marks.iter().any(|m| m.tag == "circle" && m.fill == "none"),
        "nothing stopped"
    );
    let nodes: Vec<f64> = runs.iter().map(|r| r["nodes"].as_f64().unwrap()).collect();
    assert!(ordered_upwards(&ours, &nodes));
    assert!(ordered_upwards(&published, &[10.0, 1e5, 1e3]));
    assert!(published[0].y > published[2].y && published[2].y > published[1].y);
    // In the file's order, labelled by the file's ids.
    assert!(ours[0].x < ours[1].x && ours[1].x < ours[2].x);
    for id in ["7", "3", "9"] {
        assert!(words.lines().any(|w| w == id), "instance {id} labelled");
    }

    // Stopped searches: a hollow mark each, at the nodes they had generated.
    let out = solver(home.path())
        .args("bench b.txt --heuristic manhattan --max-nodes 50".split(' '))
        .args(["--json", "--plot", "s.svg"])
        .assert()
        .code(3)
        .get_output()
        .stdout
        .clone();
    let stopped = json_lines(&out)
        .iter()
        .filter(|v| v.get("stopped").is_some())
        .count();
    assert!(stopped > 0);
    let (marks, _) = read_svg(&home.path().join("s.svg"));
    let hollow = marks
        .iter()
        .filter(|m| m.tag == "circle" && m.fill == "none" && m.stroke == svg_color(instances::OURS))
        .count();
    let filled = filled_marks(&marks, "circle", instances::OURS).len();
    assert_eq!((hollow, filled), (stopped, 3 - stopped));
}

/// The histogram rows of `pdbgen info`'s output, per table (`  value  count  bars`).
fn histograms(stdout: &str) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = Vec::new();
    for line in stdout.lines() {
        if line.starts_with("table ") {
            out.push(Vec::new());
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() >= 2 && f[0].parse::<u64>().is_ok() && f[1].parse::<u64>().is_ok() {
            out.last_mut().unwrap().push(f[1].parse().unwrap());
        }
    }
    out
}

fn pdbgen(home: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("pdbgen").unwrap();
    c.current_dir(home);
    c
}

#[test]
fn info_draws_one_bar_per_value_of_each_table() {
    let home = tempfile::tempdir().unwrap();
    pdbgen(home.path())
        .args("build --board 3x3 --partition 1-4/5-8 -o a.pdb".split(' '))
        .assert()
        .success();
    let out = pdbgen(home.path())
        .args(["info", "a.pdb", "--plot", "h.svg"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let tables = histograms(&String::from_utf8_lossy(&out));
    assert_eq!(tables.len(), 2);
    let (marks, words) = read_svg(&home.path().join("h.svg"));
    let bars = filled_marks(&marks, "rect", histogram::BAR);
    assert_eq!(
        bars.len(),
        tables.iter().map(Vec::len).sum::<usize>(),
        "one bar per value"
    );
    let mut rest = &bars[..];
    for (i, counts) in tables.iter().enumerate() {
        let (mine, more) = rest.split_at(counts.len());
        rest = more;
        // Heights in proportion to the counts, values left to right.
        let top = *counts.iter().max().unwrap() as f64;
        let tallest = mine.iter().map(|m| m.height).fold(0.0, f64::max);
        for (m, &c) in mine.iter().zip(counts) {
            assert!(
                (m.height - tallest * c as f64 / top).abs() <= 1.5,
                "table {i}: bar of {c}"
            );
        }
        assert!(mine.windows(2).all(|w| w[0].x < w[1].x));
        assert!(words.contains(&format!("table {i}: tiles")));
    }

    // A bit1 table: a note instead of bars, unless the values are restored.
    pdbgen(home.path())
        .args("build --board 3x3 --partition 1-4/5-8 --encoding bit1 -o b.pdb".split(' '))
        .assert()
        .success();
    pdbgen(home.path())
        .args(["info", "b.pdb", "--plot", "n.svg"])
        .assert()
        .success();
    let (marks, words) = read_svg(&home.path().join("n.svg"));
    assert!(!marks.iter().any(|m| m.fill == svg_color(histogram::BAR)));
    assert!(words.contains("--restore"));
    pdbgen(home.path())
        .args(["info", "b.pdb", "--restore", "--plot", "r.svg"])
        .assert()
        .success();
    let (restored, _) = read_svg(&home.path().join("r.svg"));
    let bars = restored
        .iter()
        .filter(|m| m.fill == svg_color(histogram::BAR))
        .count();
    assert_eq!(
        bars,
        tables.iter().map(Vec::len).sum::<usize>(),
        "the same values restored"
    );
}

#[test]
fn bad_plot_paths_are_clear_errors() {
    let home = tempfile::tempdir().unwrap();
    let compare = || {
        let mut c = solver(home.path());
        c.args(["compare", "--board", "3x3", "1 2 3 4 5 6 7 0 8"]);
        c
    };
    compare()
        .args(["--plot", "c.png"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("ending in .svg"));
    compare()
        .args(["--pairs", "ida:manhattan"])
        .args(["--plot", "missing/c.svg"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("writing the figure missing/c.svg"))
        .stderr(predicate::str::contains("panicked").not());
    pdbgen(home.path())
        .args(["info", "x.pdb", "--header-only", "--plot", "h.svg"])
        .assert()
        .code(2);
    solver(home.path())
        .args(["bench", "none.txt", "--plot", "b.txt"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("ending in .svg"));
}
