//! The line that says what a section was measured on: date, commit, processor, memory, load
//! and compiler.

use pdbformat::system::{total_memory, LoadAverage};
use pdbformat::units;
use std::path::Path;
use std::process::{Command, Stdio};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_numbers() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(utc_date().len(), 10);
    }
}
