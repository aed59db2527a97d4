//! The generator section: `pdbgen build` of each standard database, with seconds, entries per
//! second, peak memory and bytes per entry, and whether the tables match the manifest.

use super::host::{load_average, machine_line};
use super::measure::{kib_text, measure, Measured};
use crate::file_size;
use crate::manifest::{compare_header, Manifest};
use anyhow::Result;
use pdbformat::format::PdbFile;
use pdbformat::standard::StandardDb;
use pdbformat::units::{self, thousands};
use std::path::Path;

/// One row of the generator table.
struct GenRow {
    db: &'static StandardDb,
    m: Measured,
    entries: u64,
    size: u64,
    manifest: &'static str,
}

pub(super) fn generator_section(
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
