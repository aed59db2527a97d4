//! `cargo xtask artifacts publish --out DIR [NAMES…]`: a release folder.
//!
//! The folder holds the compressed files (`<name>.zstd.pdb`, `<name>.gzip.pdb`), each board's
//! duplicate-move pruning machine (`prune-<W>x<H>-d<depth>.fsm`, see [`super::machine`]; the
//! solver reads it from the folder it finds the databases in), a `manifest.json` describing
//! each database, machine and file, and a `SHA256SUMS` that `sha256sum -c` accepts. Only databases whose raw file matches the committed manifest are published, and the
//! written folder is checked before the command reports success: every file against the
//! manifest and its checksums, every line of `SHA256SUMS` against the file it names.

use super::compress::{compress_dir, CompressOptions, Long};
use super::verify::{check_file, Status};
use super::{manifest_path, raw_path, variant_path};
use crate::file_sha256;
use crate::manifest::{DbRecord, Manifest};
use anyhow::{bail, Context, Result};
use pdbformat::format::{Compression, FORMAT_VERSION};
use pdbformat::standard::{self, StandardDb};
use pdbformat::units;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The name of the checksum list in a release folder.
pub const SUMS_FILE: &str = "SHA256SUMS";
/// The name of the JSON manifest in a release folder.
pub const JSON_FILE: &str = "manifest.json";

/// `manifest.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Release {
    /// Layout version of this JSON (1).
    pub manifest_version: u32,
    /// The PDB file format version of every file.
    pub pdb_format_version: u16,
    /// How the files were compressed.
    pub compression: ReleaseCompression,
    /// The databases, in the standard order.
    pub databases: Vec<ReleaseDb>,
    /// The pruning machines of the databases' boards (absent from releases made before
    /// machines were shipped).
    #[serde(default)]
    pub pruning: Vec<ReleaseMachine>,
}

/// One board's duplicate-move pruning machine in a release.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReleaseMachine {
    /// File name in the release folder (`prune-5x5-d18.fsm`).
    pub file: String,
    /// Board as `WxH`.
    pub board: String,
    /// Word depth: the longest move strings the machine forbids.
    pub word_depth: u32,
    /// The machine's states.
    pub states: usize,
    /// Size in bytes.
    pub size: u64,
    /// SHA-256 of the whole file.
    pub sha256: String,
}

/// The compression settings of a release.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReleaseCompression {
    /// zstd level.
    pub zstd_level: i32,
    /// Whether tables above 8 MiB used long-distance matching.
    pub zstd_long: bool,
    /// gzip level.
    pub gzip_level: u32,
}

/// One database of a release.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReleaseDb {
    /// StandardDb name.
    pub name: String,
    /// Board as `WxH`.
    pub board: String,
    /// Goal name (`blank-first`) or tiles cell by cell.
    pub goal: String,
    /// The tile at each cell.
    pub goal_tiles: Vec<u16>,
    /// The patterns separated by `/` (empty for a class file).
    pub partition: String,
    /// `zero-aware` or `zero-unaware` (empty for a class file).
    pub kind: String,
    /// The metric the tables count moves in, for a class file (`mtm`); absent for a pattern
    /// file (the single-tile metric).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// Entry encoding.
    pub encoding: String,
    /// Entries of all tables.
    pub entries: u64,
    /// The tables.
    pub tables: Vec<ReleaseTable>,
    /// The files holding this database.
    pub files: Vec<ReleaseFile>,
}

/// One table of a release database.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReleaseTable {
    /// The pattern (`1-7`; empty for a class table).
    pub pattern: String,
    /// Its tiles (every tile for a class table).
    pub tiles: Vec<u8>,
    /// A class table's labelling (`goal-rows`), as the manifest records it; absent for a
    /// pattern table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classes: Option<String>,
    /// Entries.
    pub entries: u64,
    /// Largest value.
    pub max_value: u8,
    /// SHA-256 of the encoded, uncompressed entries (the same in every file of the database).
    pub raw_sha256: String,
}

/// One file of a release.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReleaseFile {
    /// File name in the release folder.
    pub file: String,
    /// `zstd` or `gzip`.
    pub compression: String,
    /// Size in bytes.
    pub size: u64,
    /// SHA-256 of the whole file.
    pub sha256: String,
}

/// Options of `artifacts publish`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PublishOptions {
    /// Compression of the variants (variants already there with the right entries are kept).
    pub compress: CompressOptions,
    /// Write into a folder that already holds files (ours are replaced, others kept).
    pub force: bool,
}

/// Publishes `dbs` from `dir` into `out`; returns the JSON manifest written.
pub fn publish_dir(
    dir: &Path,
    out: &Path,
    manifest: &Manifest,
    dbs: &[&'static StandardDb],
    opts: &PublishOptions,
) -> Result<Release> {
    let problems = manifest.problems();
    if !problems.is_empty() {
        bail!("the manifest is unsound:\n  {}", problems.join("\n  "));
    }
    if same_dir(dir, out) {
        bail!("the release folder must be another folder than the artifacts");
    }
    // Only what the manifest vouches for is published.
    for &s in dbs {
        let rec = manifest.get(s.name);
        match check_file(&raw_path(dir, s), s, Compression::None, rec) {
            Status::Ok => {}
            Status::Missing => bail!(
                "{} is not there: build it first (cargo xtask artifacts build {})",
                s.file_name(),
                s.name
            ),
            Status::Unrecorded => bail!(
                "{} has no manifest record: record it first (cargo xtask artifacts record {})",
                s.file_name(),
                s.name
            ),
            other => bail!("{}: {other}; not published", s.file_name()),
        }
    }
    let boards = super::machine::boards(dbs)?;
    let mut machines = Vec::new();
    for &board in &boards {
        let Some((depth, path)) = super::machine::file_for(dir, board) else {
            continue;
        };
        let first = dbs.iter().find(|s| s.board().ok() == Some(board));
        let name = first.map_or("", |s| s.name);
        match super::machine::check(&path, board, depth) {
            Ok(m) => machines.push((board, depth, path, m.states())),
            Err(_) if !path.exists() => bail!(
                "{} is not there: build it first (cargo xtask artifacts build {name})",
                path.display()
            ),
            Err(why) => bail!("{why}; rebuild it (cargo xtask artifacts build {name})"),
        }
    }
    prepare_out(out, opts.force)?;
    let compressed = compress_dir(dir, manifest, dbs, &opts.compress, true)?;
    super::compress::print_ratios(&compressed);
    let mut databases = Vec::new();
    let mut sums = Vec::new();
    for c in &compressed {
        let s = c.db;
        let rec = manifest.get(s.name).expect("checked above");
        let mut files = Vec::new();
        for v in &c.variants {
            let name = standard::variant_file_name(s, v.compression);
            let dest = out.join(&name);
            std::fs::copy(variant_path(dir, s, v.compression), &dest)
                .with_context(|| format!("cannot write {}", dest.display()))?;
            crate::make_readable(&dest)?;
            let digest = file_sha256(&dest)?;
            sums.push((name.clone(), digest.hex()));
            files.push(ReleaseFile {
                file: name,
                compression: v.compression.name().to_string(),
                size: crate::file_size(&dest)?,
                sha256: digest.hex(),
            });
        }
        databases.push(release_db(s, rec, files)?);
    }
    let mut pruning = Vec::new();
    for (board, depth, path, states) in machines {
        let name = pdbsolver::prune::cache::file_name(board, depth);
        let dest = out.join(&name);
        std::fs::copy(&path, &dest).with_context(|| format!("cannot write {}", dest.display()))?;
        crate::make_readable(&dest)?;
        let digest = file_sha256(&dest)?;
        sums.push((name.clone(), digest.hex()));
        pruning.push(ReleaseMachine {
            file: name,
            board: board.to_string(),
            word_depth: depth,
            states,
            size: crate::file_size(&dest)?,
            sha256: digest.hex(),
        });
    }
    let release = Release {
        manifest_version: 1,
        pdb_format_version: FORMAT_VERSION,
        compression: ReleaseCompression {
            zstd_level: opts.compress.zstd_level,
            zstd_long: opts.compress.long == Long::Auto,
            gzip_level: opts.compress.gzip_level,
        },
        databases,
        pruning,
    };
    let json = serde_json::to_string_pretty(&release).context("cannot write manifest.json")? + "\n";
    let json_path = out.join(JSON_FILE);
    std::fs::write(&json_path, &json)
        .with_context(|| format!("cannot write {}", json_path.display()))?;
    crate::make_readable(&json_path)?;
    sums.push((JSON_FILE.to_string(), file_sha256(&json_path)?.hex()));
    sums.sort();
    let text: String = sums.iter().map(|(n, d)| format!("{d}  {n}\n")).collect();
    let sums_path = out.join(SUMS_FILE);
    std::fs::write(&sums_path, text)
        .with_context(|| format!("cannot write {}", sums_path.display()))?;
    crate::make_readable(&sums_path)?;
    let problems = check_release(out, manifest)?;
    if !problems.is_empty() {
        bail!(
            "the release in {} does not check:\n  {}",
            out.display(),
            problems.join("\n  ")
        );
    }
    Ok(release)
}

fn release_db(s: &StandardDb, rec: &DbRecord, files: Vec<ReleaseFile>) -> Result<ReleaseDb> {
    let goal = s.goal()?;
    // Each table's tiles: a pattern's, or every tile for a class table.
    let tiles: Vec<Vec<u8>> = if s.is_class_file() {
        let all: Vec<u8> = (1..goal.board().cells() as u8).collect();
        vec![all; rec.tables.len()]
    } else {
        (s.partition()?.patterns().iter())
            .map(|p| p.tiles().to_vec())
            .collect()
    };
    Ok(ReleaseDb {
        name: rec.name.clone(),
        board: rec.board.clone(),
        goal: rec.goal.clone(),
        goal_tiles: goal.tiles().to_vec(),
        partition: rec.partition.clone(),
        kind: rec.kind.clone(),
        metric: rec.metric.clone(),
        encoding: rec.encoding.clone(),
        entries: rec.entries,
        tables: rec
            .tables
            .iter()
            .zip(tiles)
            .map(|(t, tiles)| ReleaseTable {
                pattern: t.pattern.clone(),
                tiles,
                classes: t.classes.clone(),
                entries: t.entries,
                max_value: t.max_value,
                raw_sha256: t.raw_sha256.clone(),
            })
            .collect(),
        files,
    })
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Creates `out`; one that holds files is refused unless `force`, which removes the files a
/// release writes (`*.pdb`, `*.fsm`, `manifest.json`, `SHA256SUMS`) and keeps the others.
fn prepare_out(out: &Path, force: bool) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let entries: Vec<PathBuf> = std::fs::read_dir(out)
        .with_context(|| format!("cannot read {}", out.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    if entries.is_empty() {
        return Ok(());
    }
    if !force {
        bail!(
            "{} is not empty ({} entries); choose an empty folder or pass --force to replace a previous release there",
            out.display(),
            entries.len()
        );
    }
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let ours = name.ends_with(".pdb") || name.ends_with(".fsm");
        if p.is_file() && (ours || name == JSON_FILE || name == SUMS_FILE) {
            std::fs::remove_file(&p).with_context(|| format!("cannot remove {}", p.display()))?;
        } else {
            println!("note: {} is not part of a release; left alone", p.display());
        }
    }
    Ok(())
}

/// Parses a `SHA256SUMS` text: `(file name, hex digest)` per line (`<digest>  <name>` or
/// `<digest> *<name>`).
pub fn parse_sums(text: &str) -> Result<Vec<(String, String)>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let (d, rest) = l
                .split_once(' ')
                .with_context(|| format!("line {}: expected `<sha256>  <file>`", i + 1))?;
            let name = rest
                .strip_prefix(' ')
                .or_else(|| rest.strip_prefix('*'))
                .with_context(|| format!("line {}: expected `<sha256>  <file>`", i + 1))?;
            d.parse::<pdbformat::format::Digest>()
                .map_err(|e| anyhow::anyhow!("line {}: {e}", i + 1))?;
            Ok((name.to_string(), d.to_ascii_lowercase()))
        })
        .collect()
}

/// Checks a release folder: every line of `SHA256SUMS` against its file, `manifest.json`
/// against the files, every database file against `manifest` (parameters, entry digests,
/// checksums), and every pruning machine against its board and depth. Returns the problems
/// found (empty when the release is good).
pub fn check_release(out: &Path, manifest: &Manifest) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    let sums_text = std::fs::read_to_string(out.join(SUMS_FILE))
        .with_context(|| format!("cannot read {}", out.join(SUMS_FILE).display()))?;
    let sums = parse_sums(&sums_text)?;
    for (name, digest) in &sums {
        match file_sha256(&out.join(name)) {
            Ok(d) if d.hex() == *digest => {}
            Ok(d) => problems.push(format!("{name}: SHA-256 {d}, SHA256SUMS says {digest}")),
            Err(e) => problems.push(format!("{name}: {}", pdbformat::error::describe(&*e))),
        }
    }
    let json = std::fs::read_to_string(out.join(JSON_FILE))
        .with_context(|| format!("cannot read {}", out.join(JSON_FILE).display()))?;
    let release: Release = serde_json::from_str(&json).context("manifest.json is not valid")?;
    if !sums.iter().any(|(n, _)| n == JSON_FILE) {
        problems.push("SHA256SUMS does not list manifest.json".into());
    }
    for db in &release.databases {
        let Some(s) = standard::find(&db.name) else {
            problems.push(format!("manifest.json: unknown database {}", db.name));
            continue;
        };
        for f in &db.files {
            let Some((fs, c)) = standard::parse_file_name(&f.file) else {
                problems.push(format!("{}: not a standard file name", f.file));
                continue;
            };
            if fs.name != s.name || c.name() != f.compression {
                problems.push(format!(
                    "{}: listed under {} as {}",
                    f.file, s.name, f.compression
                ));
                continue;
            }
            let path = check_listed(out, &f.file, &f.sha256, f.size, &sums, &mut problems);
            match check_file(&path, s, c, manifest.get(s.name)) {
                Status::Ok => {}
                other => problems.push(format!("{}: {other}", f.file)),
            }
        }
    }
    for m in &release.pruning {
        problems.extend(check_machine(out, m, &sums));
    }
    Ok(problems)
}

/// The checks of every file `manifest.json` lists, into `problems`: `SHA256SUMS` lists it with
/// the same digest, and it has the size given. Returns its path in the release folder.
fn check_listed(
    out: &Path,
    file: &str,
    sha256: &str,
    size: u64,
    sums: &[(String, String)],
    problems: &mut Vec<String>,
) -> PathBuf {
    if !sums.iter().any(|(n, d)| n == file && d == sha256) {
        problems.push(format!("{file}: not in SHA256SUMS with the same digest"));
    }
    let path = out.join(file);
    match crate::file_size(&path) {
        Ok(n) if n == size => {}
        Ok(n) => problems.push(format!("{file}: {n} bytes, manifest.json says {size}")),
        Err(e) => problems.push(pdbformat::error::describe(&*e)),
    }
    path
}

/// The problems of one pruning machine listed in a release's `manifest.json`.
fn check_machine(out: &Path, m: &ReleaseMachine, sums: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    let board = match m.board.parse::<pdbformat::Board>() {
        Ok(b) => b,
        Err(e) => return vec![format!("{}: board {}: {e}", m.file, m.board)],
    };
    if m.file != pdbsolver::prune::cache::file_name(board, m.word_depth) {
        problems.push(format!(
            "{}: not the file name of the {} machine of depth {}",
            m.file, m.board, m.word_depth
        ));
    }
    let path = check_listed(out, &m.file, &m.sha256, m.size, sums, &mut problems);
    match super::machine::check(&path, board, m.word_depth) {
        Ok(p) if p.states() == m.states => {}
        Ok(p) => problems.push(format!(
            "{}: {} states, manifest.json says {}",
            m.file,
            p.states(),
            m.states
        )),
        Err(why) => problems.push(format!("{}: {why}", m.file)),
    }
    problems
}

/// Runs `cargo xtask artifacts publish`.
pub fn run(dir: &Path, out: &Path, names: &[String], opts: &PublishOptions) -> Result<bool> {
    let dbs = standard::select(names)?;
    let manifest = Manifest::load(&manifest_path(dir))?;
    let release = publish_dir(dir, out, &manifest, &dbs, opts)?;
    let files: usize = release.databases.iter().map(|d| d.files.len()).sum();
    let bytes: u64 = release
        .databases
        .iter()
        .flat_map(|d| &d.files)
        .map(|f| f.size)
        .sum();
    println!(
        "published {} databases ({files} files, {}) and {} pruning machines in {}, with {JSON_FILE} and {SUMS_FILE}; checked (cd {} && sha256sum -c {SUMS_FILE})",
        release.databases.len(),
        units::bytes(bytes),
        release.pruning.len(),
        out.display(),
        out.display()
    );
    Ok(true)
}
