//! One benchmark child process, measured: wall-clock seconds and peak resident memory
//! (through `/usr/bin/time` when it exists, else by polling the child's `VmHWM` in `/proc`).

use anyhow::{Context, Result};
use pdbformat::units;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

/// A peak in KiB as the tables write it (`1.5 GiB`); `?` when unknown.
pub(super) fn kib_text(kib: Option<u64>) -> String {
    kib.map_or_else(|| "?".into(), |k| units::bytes(k * 1024))
}

#[cfg(test)]
mod tests {
    use super::*;

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
