//! `cargo xtask bench`: generator and solver benchmarks, written into `BENCHMARKS.md`.
//!
//! The release binaries of `pdbgen` and `solver` are built first and run as child processes,
//! so each figure has its own process: wall-clock seconds and peak resident memory (through
//! `/usr/bin/time` when it exists, else by polling the child's `VmHWM` in `/proc`). The
//! generator section builds every standard database into a temporary folder and reports, for
//! each build, entries per second and peak resident bytes per entry; the solver section
//! runs `solver bench` on Korf's 100 instances with each 4×4 database; the memory section
//! ([`crate::memory`]) times random lookups in table-sized buffers. Each section's table is
//! rewritten between its marker comments (`<!-- bench:generator:start -->` … `:end -->`), with
//! the machine it ran on; the prose around the markers is left alone.

use crate::file_size;
use crate::manifest::{compare_header, Manifest};
use anyhow::{bail, Context, Result};
use pdbformat::format::PdbFile;
use pdbformat::standard::{self, StandardDb};
use pdbformat::system::{total_memory, LoadAverage};
use pdbformat::units::{self, thousands};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Options of `cargo xtask bench`.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Leave out the 7-8 databases (minutes and gigabytes each).
    pub quick: bool,
    /// Run the generator section.
    pub generator: bool,
    /// Run the solver section.
    pub solver: bool,
    /// Run the memory section ([`crate::memory`]).
    pub memory: bool,
    /// Only the first N benchmark instances.
    pub first: Option<usize>,
    /// Generator threads (all cores when `None`).
    pub threads: Option<usize>,
    /// The file whose tables are rewritten.
    pub output: PathBuf,
    /// Where the solver section finds databases when the generator section did not run.
    pub artifacts: PathBuf,
    /// The benchmark instances.
    pub instances: PathBuf,
}

/// One measured child process.
#[derive(Clone, Debug)]
pub struct Measured {
    /// Whether it exited with status 0.
    pub success: bool,
    /// Its exit status in words.
    pub status: String,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Peak resident memory in KiB, when it could be measured.
    pub peak_kib: Option<u64>,
    /// Its standard output.
    pub stdout: String,
}

/// Runs `program args…` with standard output captured and standard error passed through, and
/// measures time and peak memory.
pub fn measure(program: &Path, args: &[String]) -> Result<Measured> {
    let time = Path::new("/usr/bin/time");
    let start = Instant::now();
    let (output, peak_kib) = if time.exists() {
        let f = tempfile::NamedTempFile::new().context("cannot create a temporary file")?;
        let out = Command::new(time)
            .arg("-f")
            .arg("%M")
            .arg("-o")
            .arg(f.path())
            .arg(program)
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .output()
            .with_context(|| format!("cannot run {}", program.display()))?;
        let text = std::fs::read_to_string(f.path()).unwrap_or_default();
        // GNU time writes "Command exited with non-zero status N" before the figure.
        let kib = text
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .next_back();
        (out, kib)
    } else {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("cannot run {}", program.display()))?;
        let status_file = PathBuf::from(format!("/proc/{}/status", child.id()));
        let mut stdout = child.stdout.take().expect("piped");
        let reader = std::thread::spawn(move || {
            let mut s = Vec::new();
            std::io::Read::read_to_end(&mut stdout, &mut s).map(|_| s)
        });
        let mut peak = None;
        while child.try_wait()?.is_none() {
            if let Some(kib) = vm_hwm(&status_file) {
                peak = Some(kib);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let status = child.wait()?;
        let stdout = reader
            .join()
            .map_err(|_| anyhow::anyhow!("output reader panicked"))??;
        (
            std::process::Output {
                status,
                stdout,
                stderr: Vec::new(),
            },
            peak,
        )
    };
    Ok(Measured {
        success: output.status.success(),
        status: output.status.to_string(),
        seconds: start.elapsed().as_secs_f64(),
        peak_kib,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
    })
}

fn vm_hwm(status: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(status).ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The 1-minute load average, when known (as `/proc/loadavg` writes it: `0.52`).
pub fn load_average() -> Option<String> {
    LoadAverage::read().map(|l| format!("{:.2}", l.one))
}

/// What the figures were measured on, as one line of Markdown; `load` is the load average
/// when the section started (the machine may be shared).
pub fn machine_line(root: &Path, load: Option<&str>) -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, m)| m.trim().to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mem = total_memory()
        .map(|b| format!(", {} RAM", units::bytes(b)))
        .unwrap_or_default();
    let rustc = command_line("rustc", &["--version"], root).unwrap_or_else(|| "rustc ?".into());
    let commit = command_line("git", &["rev-parse", "--short", "HEAD"], root)
        .unwrap_or_else(|| "unknown".into());
    let dirty = command_line(
        "git",
        &["status", "--porcelain", "--untracked-files=no"],
        root,
    )
    .is_some_and(|s| !s.is_empty());
    format!(
        "Measured {} at commit `{commit}`{} on {cpu}, {threads} hardware threads{mem}, load \
         average {} at the start; {rustc}.",
        utc_date(),
        if dirty { " (with local changes)" } else { "" },
        load.unwrap_or("unknown")
    )
}

fn command_line(program: &str, args: &[&str], dir: &Path) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Today's date in UTC as `YYYY-MM-DD`.
pub fn utc_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a day number counted from 1970-01-01 (H. Hinnant's
/// algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn kib_text(kib: Option<u64>) -> String {
    kib.map_or_else(|| "?".into(), |k| units::bytes(k * 1024))
}

/// Entries per second of a build, as the generator table writes it (`7.31 M`); `?` when
/// nothing was built or no time passed.
pub fn entries_per_second(entries: u64, seconds: f64) -> String {
    if entries == 0 || seconds <= 0.0 || !seconds.is_finite() {
        return "?".into();
    }
    let rate = entries as f64 / seconds;
    if rate >= 1e6 {
        format!("{:.2} M", rate / 1e6)
    } else {
        format!("{:.0}", rate)
    }
}

/// Peak resident bytes per entry of a build (`1.02`): how close the build comes to its memory
/// plan (one byte per entry for a byte table, a quarter byte for the two-bit BFS); `?` when the
/// peak is unknown or nothing was built.
pub fn peak_bytes_per_entry(peak_kib: Option<u64>, entries: u64) -> String {
    match peak_kib {
        Some(k) if entries > 0 => format!("{:.3}", (k * 1024) as f64 / entries as f64),
        _ => "?".into(),
    }
}

/// The figures of the summary object that `solver bench --json` prints last.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolverFigures {
    /// Instances solved and given.
    pub solved: Option<(u64, u64)>,
    /// Nodes over all instances.
    pub total_nodes: Option<u64>,
    /// Search seconds over all instances.
    pub total_seconds: Option<f64>,
    /// Mean nodes per instance.
    pub mean_nodes: Option<u64>,
    /// Mean seconds per instance.
    pub mean_seconds: Option<f64>,
    /// Median nodes.
    pub median_nodes: Option<u64>,
    /// Seconds spent loading the database.
    pub load_seconds: Option<f64>,
}

/// Reads the `{"summary": {…}}` line of `solver bench --json` (the per-instance lines before
/// it are skipped). Figures it cannot find stay `None`.
pub fn parse_solver_output(text: &str) -> SolverFigures {
    let Some(s) = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|v| v.get("summary").cloned())
    else {
        return SolverFigures::default();
    };
    let u = |k: &str| s.get(k).and_then(|v| v.as_u64());
    let f = |k: &str| s.get(k).and_then(|v| v.as_f64());
    SolverFigures {
        solved: u("solved").zip(u("instances")),
        total_nodes: u("total_nodes"),
        total_seconds: f("total_seconds"),
        mean_nodes: f("mean_nodes").map(|x| x.round() as u64),
        mean_seconds: f("mean_seconds"),
        median_nodes: f("median_nodes").map(|x| x.round() as u64),
        load_seconds: f("load_seconds"),
    }
}

/// Replaces the text between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` in
/// `doc` by `body`; appends a new section titled `title` with the markers when they are absent.
/// Everything outside the markers is kept as it is.
pub fn replace_section(doc: &str, name: &str, title: &str, body: &str) -> Result<String> {
    let start = format!("<!-- bench:{name}:start -->");
    let end = format!("<!-- bench:{name}:end -->");
    let body = body.trim_end();
    match (doc.find(&start), doc.find(&end)) {
        (Some(s), Some(e)) if s < e => Ok(format!("{}{start}\n{body}\n{}", &doc[..s], &doc[e..])),
        (None, None) => {
            let mut out = doc.trim_end().to_string();
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            out.push_str(&format!("## {title}\n\n{start}\n{body}\n{end}\n"));
            Ok(out)
        }
        _ => bail!("the markers {start} and {end} are not a pair in that order; fix them by hand"),
    }
}

const NEW_DOC: &str = "\
# Benchmarks

The tables below are written by `cargo xtask bench` (`--quick` leaves out the 7-8 databases);
do not edit them by hand: change the prose around them, rerun the command, and commit the
result. Each section says the machine and commit it was measured on.
";

/// Paths of the release binaries of `pdbgen` and `solver`.
fn binaries(root: &Path) -> (PathBuf, PathBuf) {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let target = if target.is_absolute() {
        target
    } else {
        root.join(target)
    };
    let exe = std::env::consts::EXE_SUFFIX;
    (
        target.join("release").join(format!("pdbgen{exe}")),
        target.join("release").join(format!("solver{exe}")),
    )
}

/// One row of the generator table.
struct GenRow {
    db: &'static StandardDb,
    m: Measured,
    entries: u64,
    size: u64,
    manifest: &'static str,
}

fn generator_section(
    root: &Path,
    pdbgen: &Path,
    dbs: &[&'static StandardDb],
    manifest: &Manifest,
    work: &Path,
    threads: Option<usize>,
) -> Result<(String, bool)> {
    let load = load_average();
    let mut rows = Vec::new();
    let mut ok = true;
    for &s in dbs {
        let out = work.join(s.file_name());
        let mut args: Vec<String> = vec![
            "build".into(),
            "--board".into(),
            format!("{}x{}", s.width, s.height),
            "--goal".into(),
            s.goal.into(),
            "--partition".into(),
            s.partition.into(),
            "--kind".into(),
            s.kind.name().into(),
            "--encoding".into(),
            s.encoding.name().into(),
            "--output".into(),
            out.display().to_string(),
        ];
        if let Some(t) = threads {
            args.extend(["--threads".into(), t.to_string()]);
        }
        println!("bench: pdbgen {}", args.join(" "));
        let m = measure(pdbgen, &args)?;
        let (entries, size, matches) = if m.success {
            let f = PdbFile::open(&out)?;
            let entries = f.header().tables.iter().map(|t| t.entry_count).sum();
            let matches = match manifest.get(s.name) {
                None => "not recorded",
                Some(r) if compare_header(f.header(), s, Some(r)).is_empty() => "yes",
                Some(_) => {
                    ok = false;
                    "**NO**"
                }
            };
            (entries, file_size(&out)?, matches)
        } else {
            ok = false;
            (0, 0, "build failed")
        };
        println!(
            "bench: {}: {:.2} s, {} entries/s, peak {} ({} B/entry)",
            s.name,
            m.seconds,
            entries_per_second(entries, m.seconds),
            kib_text(m.peak_kib),
            peak_bytes_per_entry(m.peak_kib, entries)
        );
        rows.push(GenRow {
            db: s,
            m,
            entries,
            size,
            manifest: matches,
        });
    }
    let threads = threads.map_or_else(|| "all".to_string(), |t| t.to_string());
    let mut t = format!(
        "{}\n\n`pdbgen build` of each standard database, {threads} worker threads; seconds are \
         wall-clock for the whole command (tables, encoding, writing), peak RSS of the process; \
         entries/s is all the file's entries over those seconds, peak B/entry the peak RSS over \
         the entries.\n\n",
        machine_line(root, load.as_deref())
    );
    t += "| database | board | partition | kind | entries | file | seconds | entries/s | peak RSS | peak B/entry | same digests as manifest |\n";
    t += "|---|---|---|---|---:|---:|---:|---:|---:|---:|---|\n";
    for r in &rows {
        t += &format!(
            "| {} | {}x{} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.db.name,
            r.db.width,
            r.db.height,
            r.db.partition,
            r.db.kind,
            thousands(r.entries),
            units::bytes(r.size),
            if r.m.success {
                format!("{:.2}", r.m.seconds)
            } else {
                format!("failed ({})", r.m.status)
            },
            if r.m.success {
                entries_per_second(r.entries, r.m.seconds)
            } else {
                "?".into()
            },
            kib_text(r.m.peak_kib),
            peak_bytes_per_entry(r.m.peak_kib.filter(|_| r.m.success), r.entries),
            r.manifest
        );
    }
    Ok((t, ok))
}

fn solver_section(
    root: &Path,
    solver: &Path,
    dbs: &[(&'static StandardDb, PathBuf)],
    instances: &Path,
    first: Option<usize>,
) -> Result<(String, bool)> {
    let load = load_average();
    let mut ok = true;
    let mut rows = String::new();
    for (s, path) in dbs {
        let mut args: Vec<String> = vec![
            "bench".into(),
            "--json".into(),
            instances.display().to_string(),
            "--db".into(),
            path.display().to_string(),
        ];
        if let Some(n) = first {
            args.extend(["--first".into(), n.to_string()]);
        }
        println!("bench: solver {}", args.join(" "));
        let m = measure(solver, &args)?;
        let f = parse_solver_output(&m.stdout);
        if !m.success || f.total_nodes.is_none() {
            ok = false;
            let tail: Vec<&str> = m.stdout.lines().rev().take(5).collect();
            println!(
                "bench: solver with {} failed ({}): {}",
                s.name,
                m.status,
                tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
            );
        }
        let u = |x: Option<u64>| x.map_or_else(|| "?".into(), thousands);
        let secs = |x: Option<f64>, p: usize| x.map_or_else(|| "?".into(), |v| format!("{v:.p$}"));
        let rate = match (f.total_nodes, f.total_seconds) {
            (Some(n), Some(s)) if s > 0.0 => format!("{:.2} M", n as f64 / s / 1e6),
            _ => "?".into(),
        };
        rows += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            s.name,
            f.solved
                .map_or_else(|| "?".into(), |(a, b)| format!("{a}/{b}")),
            u(f.total_nodes),
            u(f.mean_nodes),
            u(f.median_nodes),
            secs(f.total_seconds, 2),
            secs(f.mean_seconds, 4),
            rate,
            secs(f.load_seconds, 2),
            kib_text(m.peak_kib)
        );
    }
    let mut t = format!(
        "{}\n\n`solver bench {}` with each 4×4 database (reflection on, single thread, database \
         digests checked while loading){}; search seconds exclude the database load.\n\n",
        machine_line(root, load.as_deref()),
        instances.strip_prefix(root).unwrap_or(instances).display(),
        first.map_or_else(String::new, |n| format!(", first {n} instances"))
    );
    t += "| database | solved | total nodes | mean nodes | median nodes | search s | mean s | nodes/s | load s | peak RSS |\n";
    t += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    t += &rows;
    Ok((t, ok))
}

/// Runs `cargo xtask bench` in the workspace `root`.
pub fn run(root: &Path, names: &[String], opts: &BenchOptions) -> Result<bool> {
    let mut dbs = standard::select(names)?;
    if opts.quick {
        dbs.retain(|s| !s.large);
    }
    if !opts.generator && !opts.solver && !opts.memory {
        bail!("nothing to do: every section is switched off");
    }
    let mut doc = match std::fs::read_to_string(&opts.output) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => NEW_DOC.to_string(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", opts.output.display())),
    };
    if opts.memory {
        let machine = machine_line(root, load_average().as_deref());
        let table = crate::memory::section(&machine, pdbformat::system::available_memory())?;
        println!("\n{table}");
        doc = replace_section(&doc, "memory", "Memory: one random table lookup", &table)?;
        std::fs::write(&opts.output, &doc)
            .with_context(|| format!("cannot write {}", opts.output.display()))?;
    }
    if !opts.generator && !opts.solver {
        println!("wrote {}", opts.output.display());
        return Ok(true);
    }
    let cmd = ["build", "--release", "-p", "pdbtiles"];
    println!("$ cargo {}", cmd.join(" "));
    let status = Command::new(crate::ci::cargo())
        .args(cmd)
        .current_dir(root)
        .status()
        .context("cannot run cargo")?;
    if !status.success() {
        bail!("building the release binaries failed ({status})");
    }
    let (pdbgen, solver) = binaries(root);
    let manifest = Manifest::load_or_empty(&crate::artifacts::manifest_path(&opts.artifacts))?;
    let target = pdbgen
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| root.to_path_buf());
    let work = tempfile::Builder::new()
        .prefix("xtask-bench-")
        .tempdir_in(&target)
        .context("cannot create a temporary folder")?;
    let mut ok = true;
    if opts.generator {
        let (table, good) =
            generator_section(root, &pdbgen, &dbs, &manifest, work.path(), opts.threads)?;
        ok &= good;
        println!("\n{table}");
        doc = replace_section(&doc, "generator", "Generator", &table)?;
        std::fs::write(&opts.output, &doc)
            .with_context(|| format!("cannot write {}", opts.output.display()))?;
    }
    if opts.solver {
        let mut with_db = Vec::new();
        for &s in dbs.iter().filter(|s| s.width == 4 && s.height == 4) {
            let built = work.path().join(s.file_name());
            let path = if opts.generator {
                built
            } else {
                crate::artifacts::raw_path(&opts.artifacts, s)
            };
            if path.exists() {
                with_db.push((s, path));
            } else {
                println!(
                    "bench: {} is not there, left out of the solver section (cargo xtask artifacts build {})",
                    path.display(),
                    s.name
                );
            }
        }
        if with_db.is_empty() {
            bail!("no 4x4 database to run the solver with");
        }
        let (table, good) = solver_section(root, &solver, &with_db, &opts.instances, opts.first)?;
        ok &= good;
        println!("\n{table}");
        doc = replace_section(&doc, "solver", "Solver", &table)?;
        std::fs::write(&opts.output, &doc)
            .with_context(|| format!("cannot write {}", opts.output.display()))?;
    }
    println!("wrote {}", opts.output.display());
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_replaced_or_added() {
        let doc = "# B\n\nprose\n";
        let a = replace_section(doc, "generator", "Generator", "| t |\n").unwrap();
        assert!(a.starts_with("# B\n\nprose\n\n## Generator\n\n<!-- bench:generator:start -->\n| t |\n<!-- bench:generator:end -->\n"), "{a}");
        let b = replace_section(&format!("{a}\nmore prose\n"), "generator", "G", "| u |").unwrap();
        assert!(
            b.contains("start -->\n| u |\n<!-- bench:generator:end -->\n\nmore prose\n"),
            "{b}"
        );
        assert!(!b.contains("| t |"));
        assert_eq!(replace_section(&b, "generator", "G", "| u |").unwrap(), b);
        let bad = "<!-- bench:solver:end --> <!-- bench:solver:start -->";
        assert!(replace_section(bad, "solver", "S", "x").is_err());
        assert!(replace_section("<!-- bench:solver:start -->", "solver", "S", "x").is_err());
    }

    #[test]
    fn solver_summary_is_read() {
        let text = r#"{"instance":1,"line":1,"length":57,"expected":57,"initial_h":41,"nodes":1234567,"expanded":600000,"iterations":9,"seconds":0.1234,"moves":"RD"}
{"instance":2,"line":2,"error":"node limit reached"}
{"summary":{"file":"bench/korf100.txt","heuristic":"pdb","instances":100,"solved":100,"failed":0,"mismatched":0,"total_nodes":123456789,"total_seconds":12.345,"mean_nodes":1234567.89,"mean_seconds":0.1235,"median_nodes":456789.0,"median_seconds":0.0456,"nodes_per_second":1.0e7,"load_seconds":0.25}}
"#;
        let f = parse_solver_output(text);
        assert_eq!(f.total_nodes, Some(123_456_789));
        assert_eq!(f.total_seconds, Some(12.345));
        assert_eq!(f.load_seconds, Some(0.25));
        assert_eq!(f.mean_nodes, Some(1_234_568));
        assert_eq!(f.mean_seconds, Some(0.1235));
        assert_eq!(f.median_nodes, Some(456_789));
        assert_eq!(f.solved, Some((100, 100)));
        assert_eq!(parse_solver_output("nothing"), SolverFigures::default());
    }

    #[test]
    fn rates_and_bytes_per_entry() {
        assert_eq!(entries_per_second(1_565_000_000, 214.0), "7.31 M");
        assert_eq!(entries_per_second(500, 2.0), "250");
        assert_eq!(entries_per_second(0, 2.0), "?");
        assert_eq!(entries_per_second(10, 0.0), "?");
        // 1 GiB peak over 2^30 entries is one byte each; a quarter for the two-bit BFS.
        assert_eq!(peak_bytes_per_entry(Some(1 << 20), 1 << 30), "1.000");
        assert_eq!(peak_bytes_per_entry(Some(1 << 18), 1 << 30), "0.250");
        assert_eq!(peak_bytes_per_entry(None, 1 << 30), "?");
        assert_eq!(peak_bytes_per_entry(Some(100), 0), "?");
    }

    #[test]
    fn dates_and_numbers() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(utc_date().len(), 10);
    }

    #[test]
    fn measures_a_child() {
        let m = measure(Path::new("/bin/sh"), &["-c".into(), "echo hi".into()]).unwrap();
        assert!(m.success);
        assert_eq!(m.stdout.trim(), "hi");
        let m = measure(Path::new("/bin/sh"), &["-c".into(), "exit 3".into()]).unwrap();
        assert!(!m.success);
        assert!(measure(Path::new("/nonexistent/program"), &[]).map_or(true, |m| !m.success));
    }
}
