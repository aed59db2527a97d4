//! The solver section: `solver bench --json` on Korf's 100 instances with each 4×4 database,
//! its summary line read back into the table.

use super::host::{load_average, machine_line};
use super::measure::{kib_text, measure};
use anyhow::{Context, Result};
use pdbformat::standard::StandardDb;
use pdbformat::units::thousands;
use std::path::{Path, PathBuf};

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

pub(super) fn solver_section(
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
            // One thread, as the section says: the default would be parallel-ida on every
            // core, whose node counts depend on timing.
            "--threads".into(),
            "1".into(),
            instances.display().to_string(),
            "--db".into(),
            path.display().to_string(),
        ];
        if let Some(n) = first {
            args.extend(["--first".into(), n.to_string()]);
        }
        println!("bench: solver {}", args.join(" "));
        warm(path)?;
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
        "{}\n\n`solver bench {}` with each 4×4 database (reflection on, duplicate-move pruning, \
         single thread, database digests checked beside the search){}; search seconds exclude the \
         database load; each file is read once just before its run, so that lookups in the mapped \
         table find it in the page cache (the first run after a cold start reads it from disk \
         page by page, several times slower).\n\n",
        machine_line(root, load.as_deref()),
        instances.strip_prefix(root).unwrap_or(instances).display(),
        first.map_or_else(String::new, |n| format!(", first {n} instances"))
    );
    t += "| database | solved | total nodes | mean nodes | median nodes | search s | mean s | nodes/s | load s | peak RSS |\n";
    t += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    t += &rows;
    Ok((t, ok))
}

/// Reads `path` once from start to end and throws the bytes away, so that the page cache holds
/// the file when the timed run maps it.
fn warm(path: &Path) -> Result<()> {
    let mut f =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    std::io::copy(&mut f, &mut std::io::sink())
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
