//! `cargo xtask vs-pdbsearch`: the 5×5 solver, at its defaults and on one thread, paired with
//! Robert Clausecker's `pdbsearch` (github.com/fuzxxl/24puzzle), instance by instance, on this
//! machine.
//!
//! Each round runs every instance with their command and then ours once per thread setting
//! asked for (by default: as it is, every core, and with one thread), one after the other, so
//! that all meet the same state of the machine; a pair's ratio is their wall time over ours.
//! The table gives each side's medians over the rounds, the median of the paired ratios and
//! their geometric mean per setting, the summed times, and the command lines. Every length is
//! checked against the one the instance file gives: a wrong answer fails the run. Their
//! program, tables, catalogue and pruning machine are built with their own tools (see
//! BENCHMARKS.md); nothing of theirs is part of this project.

use super::host::machine_line;
use anyhow::{bail, Context, Result};
use pdbtiles::summary::median_f64;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The ten of Korf's 24-puzzle instances the comparison runs by default.
pub const DEFAULT_IDS: [u32; 10] = [38, 40, 44, 25, 1, 32, 37, 30, 28, 5];

/// What to run on each side.
#[derive(Clone, Debug)]
pub struct PairOptions {
    /// Their `cmd/pdbsearch` binary.
    pub pdbsearch: PathBuf,
    /// Their tables (`-d`): mapped by `pdbsearch` as they are, so copies on a hugetlbfs mount
    /// are searched in 2 MiB pages (and left out of its resident memory).
    pub pdb_dir: PathBuf,
    /// Their catalogue file.
    pub catalogue: PathBuf,
    /// Their duplicate-move machine (`-m`), if any.
    pub fsm: Option<PathBuf>,
    /// Arguments given to our `solver solve` after `--board 5x5 --json` (none: the defaults).
    pub solver_args: Vec<String>,
    /// Our thread settings, each a column of its own: 0 runs the command as it is (every core
    /// by default), `n` adds `--threads n`.
    pub threads: Vec<usize>,
    /// The instance file (`id`, 25 tiles, optimal length, ... per line).
    pub instances: PathBuf,
    /// The instances to run, by id, in this order.
    pub ids: Vec<u32>,
    /// How many rounds.
    pub rounds: usize,
}

/// One instance of the file: its id, tiles and optimal length.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// The number in Korf's list.
    pub id: u32,
    /// The 25 tiles, row by row, 0 the blank.
    pub tiles: Vec<u8>,
    /// The optimal length the file gives.
    pub length: u32,
}

/// Reads the instances of a Korf-style file (`id`, the tiles, the optimal length, the
/// published node count; `#` starts a comment) with the solver's own puzzle-list reader: every
/// line must be a 5×5 puzzle with an id and a length.
pub fn parse_instances(text: &str) -> Result<Vec<Instance>> {
    let board = pdbformat::Board::new(5, 5)?;
    pdbsolver::input::read_puzzles(text, Some(board))
        .into_iter()
        .map(|l| {
            let puzzle = l
                .puzzle
                .with_context(|| format!("line {}: not a 5x5 puzzle", l.line))?;
            let (Some(id), Some(length)) = (l.id, l.expected) else {
                bail!(
                    "line {}: expected an id, 25 tiles, a length and a node count",
                    l.line
                );
            };
            Ok(Instance {
                id: id as u32,
                tiles: puzzle.tiles().iter().map(|&t| t as u8).collect(),
                length,
            })
        })
        .collect()
}

/// What one side printed about one instance.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Answer {
    /// Expanded nodes.
    pub expanded: Option<u64>,
    /// The length of the solution.
    pub length: Option<u32>,
}

/// Reads `pdbsearch`'s report: `Expanded N nodes in total.` and `Solution found at depth D`.
pub fn parse_pdbsearch(text: &str) -> Answer {
    let mut a = Answer::default();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Expanded ") {
            if let Some(n) = rest.strip_suffix(" nodes in total.") {
                a.expanded = n.trim().parse().ok();
            }
        } else if let Some(d) = line.strip_prefix("Solution found at depth ") {
            a.length = d.trim().parse().ok();
        }
    }
    a
}

/// Reads our `solver solve --json` object: `expanded` and `length`.
pub fn parse_solver(text: &str) -> Answer {
    let v = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v.get("length").is_some());
    Answer {
        expanded: v.as_ref().and_then(|v| v["expanded"].as_u64()),
        length: v
            .as_ref()
            .and_then(|v| v["length"].as_u64())
            .map(|l| l as u32),
    }
}

/// One timed run: wall and user seconds and peak memory as GNU time reports them.
#[derive(Clone, Debug)]
struct Timed {
    wall: f64,
    user: f64,
    peak_kib: u64,
    /// What it wrote on standard output, then on standard error.
    output: String,
}

/// Runs `program args…` under `/usr/bin/time` with `input` on its standard input.
fn timed(program: &Path, args: &[String], input: &str) -> Result<Timed> {
    let report = tempfile::NamedTempFile::new().context("cannot create a temporary file")?;
    let mut child = Command::new("/usr/bin/time")
        .args(["-f", "%e %U %M", "-o"])
        .arg(report.path())
        .arg(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot run /usr/bin/time (GNU time is needed: apt-get install time)")?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).ok();
    }
    let out = child.wait_with_output()?;
    if !out.status.success() {
        bail!(
            "{} {} failed ({})",
            program.display(),
            args.join(" "),
            out.status
        );
    }
    let text = std::fs::read_to_string(report.path()).unwrap_or_default();
    let figures: Vec<f64> = text
        .lines()
        .last()
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let [wall, user, peak] = figures[..] else {
        bail!("cannot read GNU time's report: {text:?}");
    };
    Ok(Timed {
        wall,
        user,
        peak_kib: peak as u64,
        output: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    })
}

/// One side's runs of one instance.
#[derive(Clone, Debug, Default)]
struct Side {
    wall: Vec<f64>,
    user: Vec<f64>,
    peak_kib: u64,
    expanded: Option<u64>,
}

impl Side {
    fn add(&mut self, t: &Timed, a: Answer) {
        self.wall.push(t.wall);
        self.user.push(t.user);
        self.peak_kib = self.peak_kib.max(t.peak_kib);
        self.expanded = a.expanded.or(self.expanded);
    }

    fn cell(&self) -> String {
        let nodes = self
            .expanded
            .map(|n| format!("{:.2} M", n as f64 / 1e6))
            .unwrap_or_else(|| "?".into());
        format!(
            "{:.2}, {:.2}, {nodes}",
            median_f64(&self.wall),
            median_f64(&self.user)
        )
    }
}

/// Fails with a clear message when one of their files is not there.
pub fn check_paths(opts: &PairOptions) -> Result<()> {
    for (what, path) in [
        ("their pdbsearch", Some(&opts.pdbsearch)),
        ("their table folder", Some(&opts.pdb_dir)),
        ("their catalogue", Some(&opts.catalogue)),
        ("their pruning machine", opts.fsm.as_ref()),
        ("the instance file", Some(&opts.instances)),
    ] {
        if let Some(p) = path.filter(|p| !p.exists()) {
            bail!("{what} is not there: {}", p.display());
        }
    }
    Ok(())
}

/// Runs the comparison and returns the Markdown report (the paths checked by
/// [`check_paths`] first).
pub fn run(root: &Path, solver: &Path, opts: &PairOptions) -> Result<String> {
    let text = std::fs::read_to_string(&opts.instances)
        .with_context(|| format!("cannot read {}", opts.instances.display()))?;
    let all = parse_instances(&text)?;
    let picked: Vec<&Instance> = opts
        .ids
        .iter()
        .map(|id| {
            all.iter()
                .find(|i| i.id == *id)
                .with_context(|| format!("no instance {id} in {}", opts.instances.display()))
        })
        .collect::<Result<_>>()?;
    let mut theirs_args: Vec<String> = Vec::new();
    if let Some(fsm) = &opts.fsm {
        theirs_args.extend(["-m".into(), fsm.display().to_string()]);
    }
    theirs_args.extend([
        "-d".into(),
        opts.pdb_dir.display().to_string(),
        opts.catalogue.display().to_string(),
    ]);
    let mut ours_base: Vec<String> = ["solve", "--board", "5x5", "--json"]
        .map(String::from)
        .to_vec();
    ours_base.extend(opts.solver_args.iter().cloned());
    let settings: Vec<usize> = if opts.threads.is_empty() {
        vec![0]
    } else {
        opts.threads.clone()
    };
    let ours_args = |i: &Instance, threads: usize| -> Vec<String> {
        let mut a = ours_base.clone();
        a.extend(thread_flag(threads));
        a.push(tiles_text(&i.tiles, " "));
        a
    };
    // Our default 5×5 database is built on first use: before any timing, by a solve one move
    // from the goal.
    let mut warm: Vec<u8> = (0..25).collect();
    warm.swap(0, 1);
    let w = Instance {
        id: 0,
        tiles: warm,
        length: 1,
    };
    let warm_args = ours_args(&w, settings[0]);
    println!("warming up: {} {}", solver.display(), warm_args.join(" "));
    timed(solver, &warm_args, "")?;
    let mut theirs = vec![Side::default(); picked.len()];
    // Per thread setting, per instance.
    let mut ours = vec![vec![Side::default(); picked.len()]; settings.len()];
    let mut ratios = vec![vec![Vec::new(); picked.len()]; settings.len()];
    for round in 0..opts.rounds.max(1) {
        for (k, inst) in picked.iter().enumerate() {
            let t = timed(
                &opts.pdbsearch,
                &theirs_args,
                &format!("{}\n", tiles_text(&inst.tiles, ",")),
            )?;
            let ta = parse_pdbsearch(&t.output);
            check_length(inst, "pdbsearch", ta)?;
            theirs[k].add(&t, ta);
            let mut line = format!("round {}, #{}: theirs {:.2} s", round + 1, inst.id, t.wall);
            for (c, &threads) in settings.iter().enumerate() {
                let o = timed(solver, &ours_args(inst, threads), "")?;
                let oa = parse_solver(&o.output);
                check_length(inst, "solver", oa)?;
                line.push_str(&format!(
                    ", {} {:.2} s ({:.2})",
                    setting_name(threads),
                    o.wall,
                    t.wall / o.wall
                ));
                ours[c][k].add(&o, oa);
                ratios[c][k].push(t.wall / o.wall);
            }
            println!("{line}");
        }
    }
    let mut out = String::new();
    out.push_str(&format!(
        "{} {} round(s), per instance their command, then ours; whole process (GNU time), medians:\n\n",
        machine_line(root, None),
        opts.rounds.max(1)
    ));
    out.push_str(&format!(
        "- Theirs: `{} {}` (the instance on standard input)\n- Ours: `{} {} \"<instance>\"`",
        opts.pdbsearch.display(),
        theirs_args.join(" "),
        solver.display(),
        ours_base.join(" ")
    ));
    let added: Vec<String> = settings
        .iter()
        .map(|&t| match thread_flag(t) {
            None => "as it is".to_string(),
            Some(flag) => format!("with `{flag}`"),
        })
        .collect();
    out.push_str(&format!(", {}\n\n", added.join(" and ")));
    let mut head = String::from("| Korf # | length | theirs: wall s, user s, expanded |");
    let mut rule = String::from("|---:|---:|---:|");
    for &threads in &settings {
        let name = setting_name(threads);
        head.push_str(&format!(
            " ours, {name}: wall s, user s, expanded | ÷ ours, {name} |"
        ));
        rule.push_str("---:|---:|");
    }
    out.push_str(&format!("{head}\n{rule}\n"));
    let mut log_sums = vec![0.0; settings.len()];
    let mut sums_ours = vec![0.0; settings.len()];
    let mut sum_theirs = 0.0;
    for (k, inst) in picked.iter().enumerate() {
        sum_theirs += median_f64(&theirs[k].wall);
        let mut row = format!("| {} | {} | {} |", inst.id, inst.length, theirs[k].cell());
        for c in 0..settings.len() {
            let r = median_f64(&ratios[c][k]);
            log_sums[c] += r.ln();
            sums_ours[c] += median_f64(&ours[c][k].wall);
            row.push_str(&format!(" {} | **{:.2}** |", ours[c][k].cell(), r));
        }
        out.push_str(&format!("{row}\n"));
    }
    let peak = |s: &[Side]| s.iter().map(|x| x.peak_kib).max().unwrap_or(0) as f64 / 1048576.0;
    out.push_str(&format!(
        "\nTheirs: {:.1} s in all, peak memory {:.2} GiB.",
        sum_theirs,
        peak(&theirs)
    ));
    for (c, &threads) in settings.iter().enumerate() {
        out.push_str(&format!(
            " Ours, {}: geometric mean of the ratios **{:.2}**, {:.1} s in all, peak memory {:.2} GiB.",
            setting_name(threads),
            (log_sums[c] / picked.len() as f64).exp(),
            sums_ours[c],
            peak(&ours[c])
        ));
    }
    out.push('\n');
    Ok(out)
}

/// Fails when `who` did not answer the instance's optimal length.
fn check_length(inst: &Instance, who: &str, a: Answer) -> Result<()> {
    if a.length != Some(inst.length) {
        bail!(
            "instance {}: {who} answered {:?} moves, not the optimal {}",
            inst.id,
            a.length,
            inst.length
        );
    }
    Ok(())
}

/// The argument a thread setting adds to our command (none for 0: the command as it is).
fn thread_flag(threads: usize) -> Option<String> {
    (threads > 0).then(|| format!("--threads={threads}"))
}

/// A thread setting of ours as the table names it.
fn setting_name(threads: usize) -> String {
    match threads {
        0 => "defaults".into(),
        1 => "one thread".into(),
        n => format!("{n} threads"),
    }
}

/// The tiles joined by `sep`.
fn tiles_text(tiles: &[u8], sep: &str) -> String {
    tiles
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn their_report_gives_expansions_and_length() {
        let text = "Searching for solution with bound 82\nSolution found at depth 82\n\
            Expanded 4760701 nodes during previous round.\nExpanded 7877405 nodes in total.\n\
            Found 1 solution(s).\nSolution found: 3,2,7\n";
        assert_eq!(
            parse_pdbsearch(text),
            Answer {
                expanded: Some(7_877_405),
                length: Some(82)
            }
        );
        assert_eq!(
            parse_pdbsearch("Enter instance to solve:"),
            Answer::default()
        );
    }

    #[test]
    fn our_json_gives_expansions_and_length() {
        let text = "{\"puzzle\":\"x\",\"length\":96,\"expanded\":2078078,\"nodes\":4}\n";
        assert_eq!(
            parse_solver(text),
            Answer {
                expanded: Some(2_078_078),
                length: Some(96)
            }
        );
        assert_eq!(parse_solver("not json"), Answer::default());
    }

    #[test]
    fn the_instance_file_is_read_and_checked() {
        let root = crate::project_root();
        let text = std::fs::read_to_string(root.join("bench/korf50-24.txt")).unwrap();
        let all = parse_instances(&text).unwrap();
        assert_eq!(all.len(), 50);
        for id in DEFAULT_IDS {
            assert!(all.iter().any(|i| i.id == id), "{id}");
        }
        let first = &all[0];
        assert_eq!((first.id, first.tiles.len()), (1, 25));
        // A repeated tile, a short line and a word that is not a number are errors.
        let mut bad = text.lines().nth(1).unwrap().replacen(" 0 ", " 1 ", 1);
        assert!(parse_instances(&bad).is_err(), "{bad}");
        bad = "1 2 3".into();
        assert!(parse_instances(&bad).is_err());
        assert!(parse_instances("1 x").is_err());
        assert_eq!(parse_instances("# only a comment\n\n").unwrap(), vec![]);
    }

    /// Writes an executable shell script `name` into `dir`.
    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn each_thread_setting_is_paired_with_theirs_and_lengths_are_checked() {
        let root = crate::project_root();
        let dir = tempfile::tempdir().unwrap();
        // Stand-ins for both programs: theirs reads the instance, ours logs its arguments.
        let theirs = script(
            dir.path(),
            "pdbsearch",
            "cat >/dev/null; echo 'Solution found at depth 96'; \
             echo 'Expanded 2330000 nodes in total.'",
        );
        let log = dir.path().join("args.log");
        let ours = script(
            dir.path(),
            "solver",
            &format!(
                "echo \"$@\" >> {}; echo '{{\"length\":96,\"expanded\":2000000}}'",
                log.display()
            ),
        );
        let mut opts = PairOptions {
            pdbsearch: theirs,
            pdb_dir: dir.path().to_path_buf(),
            // Any file passes for their catalogue: the stand-in never reads it.
            catalogue: dir.path().join("pdbsearch"),
            fsm: None,
            solver_args: vec!["--prune-depth=20".into()],
            threads: vec![0, 1],
            instances: root.join("bench/korf50-24.txt"),
            ids: vec![38],
            rounds: 2,
        };
        check_paths(&opts).unwrap();
        let table = run(&root, &ours, &opts).unwrap();
        assert!(table.contains("ours, defaults: wall s"), "{table}");
        assert!(table.contains("ours, one thread: wall s"), "{table}");
        assert!(table.contains("| 38 | 96 |"), "{table}");
        assert!(
            table.contains("2.33 M") && table.contains("2.00 M"),
            "{table}"
        );
        assert_eq!(table.matches("geometric mean").count(), 2, "{table}");
        // A warm-up, then per round one run as it is and one on one thread.
        let runs: Vec<String> = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(runs.len(), 5, "{runs:?}");
        assert!(runs.iter().all(|r| r.contains("--prune-depth=20")));
        assert_eq!(runs.iter().filter(|r| r.contains("--threads=1")).count(), 2);
        // A wrong length from either side fails the run: theirs (96 moves for #40, whose
        // optimal length is 82) is checked first, then ours against a stand-in of theirs that
        // answers 82.
        opts.ids = vec![40];
        let e = run(&root, &ours, &opts).unwrap_err().to_string();
        assert!(
            e.contains("instance 40: pdbsearch answered Some(96) moves, not the optimal 82"),
            "{e}"
        );
        opts.pdbsearch = script(
            dir.path(),
            "pdbsearch82",
            "cat >/dev/null; echo 'Solution found at depth 82'; \
             echo 'Expanded 3940000 nodes in total.'",
        );
        let e = run(&root, &ours, &opts).unwrap_err().to_string();
        assert!(
            e.contains("instance 40: solver answered Some(96) moves, not the optimal 82"),
            "{e}"
        );
        opts.fsm = Some(dir.path().join("missing.fsm"));
        let e = check_paths(&opts).unwrap_err().to_string();
        assert!(e.contains("their pruning machine is not there"), "{e}");
    }
}
