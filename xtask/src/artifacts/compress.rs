//! `cargo xtask artifacts compress [NAMES…]`: zstd and gzip variants of the raw files.
//!
//! Each raw `<name>.pdb` present is rewritten as `<name>.zstd.pdb` (high level; long-distance
//! matching for tables larger than zstd's default 8 MiB window at that level, the only ones it
//! can help, so that small files stay decodable with an 8 MiB window) and `<name>.gzip.pdb`
//! (for browsers, which decompress gzip natively). The entries and their digests do not change;
//! only the payloads are compressed, through `pdbgen::recode` (which checks the digests of the
//! entries it reads and writes). A pattern file's zstd variant stores the tables a board
//! symmetry maps onto others once (`zstd-sym`); a class file's is plain zstd (`zstd-sym` needs
//! zero-aware pattern tables; see [`stored_as`]). A variant already there with the same entries
//! is kept unless `--force`. The two variants of a file are written in parallel, and zstd
//! itself runs multithreaded (one worker per core by default, `--zstd-workers N`); its
//! multithreaded output does not depend on the worker count, so the files are reproducible
//! across machines.

use super::verify::{check_file, Status};
use super::{check_raw, manifest_path, raw_path, variant_path};
use crate::file_size;
use crate::manifest::{DbRecord, Manifest};
use anyhow::{bail, Context, Result};
use pdbformat::format::{Compression, PdbFile, WriteOptions, DEFAULT_ZSTD_JOB_SIZE};
use pdbformat::standard::{self, StandardDb};
use pdbformat::units;
use pdbgen::RecodeOptions;
use std::path::Path;
use std::time::Instant;

/// Tables larger than this gain from long-distance matching (zstd's window at level 19 is
/// 8 MiB); smaller ones are written without it.
pub const LONG_MATCHING_ABOVE: u64 = 8 << 20;

/// When to use zstd long-distance matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Long {
    /// For tables larger than [`LONG_MATCHING_ABOVE`].
    #[default]
    Auto,
    /// Never.
    Off,
}

/// Options of `artifacts compress` (and of the compression step of `publish`).
#[derive(Clone, Copy, Debug)]
pub struct CompressOptions {
    /// zstd level (1..=22).
    pub zstd_level: i32,
    /// Long-distance matching.
    pub long: Long,
    /// gzip level (1..=9).
    pub gzip_level: u32,
    /// zstd worker threads, at least 1: zstd's multithreaded mode, whose output is the same for
    /// every worker count (jobs of [`DEFAULT_ZSTD_JOB_SIZE`] bytes), so the `.zstd.pdb` files
    /// are the same on every machine whatever its core count.
    pub zstd_workers: u32,
    /// Rewrite variants that are already there.
    pub force: bool,
}

impl Default for CompressOptions {
    fn default() -> Self {
        CompressOptions {
            zstd_level: 19,
            long: Long::Auto,
            gzip_level: 9,
            zstd_workers: default_zstd_workers(),
            force: false,
        }
    }
}

impl CompressOptions {
    /// Rejects levels outside what the compressors take.
    pub fn check(&self) -> Result<()> {
        if !(1..=22).contains(&self.zstd_level) {
            bail!("zstd level {} is not in 1..=22", self.zstd_level);
        }
        if !(1..=9).contains(&self.gzip_level) {
            bail!("gzip level {} is not in 1..=9", self.gzip_level);
        }
        if !(1..=256).contains(&self.zstd_workers) {
            bail!("zstd workers {} is not in 1..=256", self.zstd_workers);
        }
        Ok(())
    }
}

/// One zstd worker per core (at least 1).
pub fn default_zstd_workers() -> u32 {
    std::thread::available_parallelism()
        .map(|n| n.get().min(256) as u32)
        .unwrap_or(1)
}

/// The compression the variant of `s` named after `c` is written with: a pattern file's zstd
/// variant as `zstd-sym` (symmetric tables stored once; the download), a class file's as
/// plain zstd (`zstd-sym` needs zero-aware pattern tables); gzip as gzip.
pub fn stored_as(s: &StandardDb, c: Compression) -> Compression {
    match c {
        Compression::Zstd if !s.is_class_file() => Compression::ZstdSymmetric,
        c => c,
    }
}

/// One compressed variant.
#[derive(Clone, Debug)]
pub struct Variant {
    /// zstd or gzip.
    pub compression: Compression,
    /// Its file size in bytes.
    pub size: u64,
    /// Seconds spent writing it (0 when reused).
    pub seconds: f64,
    /// Whether an existing file was kept.
    pub reused: bool,
}

/// The variants of one database.
#[derive(Clone, Debug)]
pub struct Compressed {
    /// The database.
    pub db: &'static StandardDb,
    /// Size of the raw file in bytes.
    pub raw_size: u64,
    /// The variants, zstd then gzip.
    pub variants: Vec<Variant>,
}

/// Writes the variants of every raw file of `dbs` present in `dir` (every one must be present
/// and valid when `require` is set). The raw file must match the manifest when the manifest
/// records it (the standard definition otherwise); its entries are verified while loading.
pub fn compress_dir(
    dir: &Path,
    manifest: &Manifest,
    dbs: &[&'static StandardDb],
    opts: &CompressOptions,
    require: bool,
) -> Result<Vec<Compressed>> {
    opts.check()?;
    let mut out = Vec::new();
    for &s in dbs {
        let raw = raw_path(dir, s);
        if !raw.exists() {
            if require {
                bail!(
                    "{} is not there: build it first (cargo xtask artifacts build {})",
                    raw.display(),
                    s.name
                );
            }
            continue;
        }
        out.push(compress_one(dir, s, manifest.get(s.name), opts)?);
    }
    Ok(out)
}

fn compress_one(
    dir: &Path,
    s: &'static StandardDb,
    rec: Option<&DbRecord>,
    opts: &CompressOptions,
) -> Result<Compressed> {
    let raw = raw_path(dir, s);
    let file = PdbFile::open(&raw).with_context(|| format!("cannot open {}", raw.display()))?;
    let h = file.header().clone();
    let hint = format!(
        " (rebuild it: cargo xtask artifacts build --force {})",
        s.name
    );
    check_raw(&raw, &h, s, rec, "its payloads are compressed", &hint)?;
    // What the variants must hold: the raw file's own entries.
    let src_rec = DbRecord::from_header(s.name, &h)?;
    let raw_size = file.len();
    let mut variants = Vec::new();
    let mut todo = Vec::new();
    for c in [Compression::Zstd, Compression::Gzip] {
        let path = variant_path(dir, s, c);
        if !opts.force && check_file(&path, s, c, Some(&src_rec)) == Status::Ok {
            variants.push(Variant {
                compression: c,
                size: file_size(&path)?,
                seconds: 0.0,
                reused: true,
            });
        } else {
            todo.push(c);
        }
    }
    if !todo.is_empty() {
        let long =
            opts.long == Long::Auto && h.tables.iter().any(|t| t.raw_len > LONG_MATCHING_ABOVE);
        // Each variant holds the raw file's entries: recode checks them before writing.
        let expected: Vec<_> = h.tables.iter().map(|t| t.raw_digest).collect();
        let results: Vec<Result<Variant>> = std::thread::scope(|scope| {
            let handles: Vec<_> = todo
                .iter()
                .map(|&c| {
                    let (raw, expected) = (&raw, &expected);
                    let path = variant_path(dir, s, c);
                    scope.spawn(move || -> Result<Variant> {
                        let start = Instant::now();
                        let recode = RecodeOptions {
                            encoding: None,
                            compression: Some(stored_as(s, c)),
                            write: WriteOptions {
                                compression: stored_as(s, c),
                                zstd_level: opts.zstd_level,
                                zstd_long: long,
                                gzip_level: opts.gzip_level,
                                zstd_workers: opts.zstd_workers,
                                zstd_job_size: DEFAULT_ZSTD_JOB_SIZE,
                            },
                            expected: Some(expected.clone()),
                        };
                        pdbgen::recode(raw, &path, &recode, &pdbgen::NoProgress)
                            .with_context(|| format!("writing {}", path.display()))?;
                        Ok(Variant {
                            compression: c,
                            size: file_size(&path)?,
                            seconds: start.elapsed().as_secs_f64(),
                            reused: false,
                        })
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(anyhow::anyhow!("a compression thread panicked")))
                })
                .collect()
        });
        for r in results {
            variants.push(r?);
        }
        variants.sort_by_key(|v| v.compression.code());
    }
    // Read back what was written: the same entries, intact.
    for v in &variants {
        let path = variant_path(dir, s, v.compression);
        match check_file(&path, s, v.compression, Some(&src_rec)) {
            Status::Ok => {}
            other => bail!("{} does not check after writing: {other}", path.display()),
        }
    }
    Ok(Compressed {
        db: s,
        raw_size,
        variants,
    })
}

/// Prints the ratios (stored size / raw size) of `done`.
pub fn print_ratios(done: &[Compressed]) {
    println!(
        "{:<10} {:>10} | {:>10} {:>7} {:>8} | {:>10} {:>7} {:>8}",
        "database", "raw", "zstd", "ratio", "seconds", "gzip", "ratio", "seconds"
    );
    let (mut raw, mut z, mut g) = (0u64, 0u64, 0u64);
    for d in done {
        let mut line = format!("{:<10} {:>10}", d.db.name, units::bytes(d.raw_size));
        for v in &d.variants {
            match v.compression {
                Compression::Zstd => z += v.size,
                _ => g += v.size,
            }
            line += &format!(
                " | {:>10} {:>6.2}% {:>8}",
                units::bytes(v.size),
                100.0 * v.size as f64 / d.raw_size.max(1) as f64,
                if v.reused {
                    "kept".to_string()
                } else {
                    format!("{:.1}", v.seconds)
                }
            );
        }
        raw += d.raw_size;
        println!("{line}");
    }
    if done.len() > 1 {
        println!(
            "{:<10} {:>10} | {:>10} {:>6.2}% {:>8} | {:>10} {:>6.2}%",
            "total",
            units::bytes(raw),
            units::bytes(z),
            100.0 * z as f64 / raw.max(1) as f64,
            "",
            units::bytes(g),
            100.0 * g as f64 / raw.max(1) as f64
        );
    }
}

/// Runs `cargo xtask artifacts compress`.
pub fn run(dir: &Path, names: &[String], opts: &CompressOptions) -> Result<bool> {
    let dbs = standard::select(names)?;
    let manifest = Manifest::load_or_empty(&manifest_path(dir))?;
    let done = compress_dir(dir, &manifest, &dbs, opts, !names.is_empty())?;
    if done.is_empty() {
        bail!(
            "no standard file in {}: build them first (cargo xtask artifacts build)",
            dir.display()
        );
    }
    print_ratios(&done);
    Ok(true)
}
