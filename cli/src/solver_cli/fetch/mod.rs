//! `solver fetch NAME [--from URL]`: downloads a published database from a release folder
//! served over HTTP(S) (`cargo xtask artifacts publish` writes one), checks it against the
//! release's `SHA256SUMS` and `manifest.json` and installs it where the solver looks.
//!
//! Each file is downloaded into `<file>.part` in the install folder; an interrupted download
//! (a dropped connection, a killed process) resumes from that file's length with a `Range`
//! request, on the next attempt or the next run. A file whose size or SHA-256 is not the
//! published one is deleted and refused; a good one is opened, every table decoded and checked
//! against the manifest's entry digests, and written uncompressed as `<name>.pdb` through a
//! temporary file renamed into place, so a failure never leaves a half-written database. A
//! catalogue name fetches its members; the board's duplicate-move pruning machine comes too
//! when the release has it (unless `--no-machine`). Pattern files and class files (the
//! multi-tile metric's) are fetched alike.

mod http;
mod install;
mod manifest;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use http::Client;
use manifest::Release;
use pdbformat::format::Encoding;
use pdbformat::standard;
use pdbsolver::locate;
use std::path::PathBuf;

/// The environment variable holding the default release URL.
pub const RELEASE_ENV: &str = "PDB_RELEASE_URL";

/// Arguments of `solver fetch`.
#[derive(Args, Debug)]
pub struct FetchArgs {
    /// A standard database (15-78-za-bit1, or a class file such as 8-rows-mtm) or catalogue
    /// (15-78+78b-za-bit1) name.
    pub name: String,
    /// Base URL of the release folder, the one holding manifest.json and SHA256SUMS
    /// (http:// or https://); default $PDB_RELEASE_URL.
    #[arg(long, value_name = "URL")]
    pub from: Option<String>,
    /// Where to install; default $PDB_DIR, else the cache directory (`solver locate` lists both).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Attempts per file; each after the first resumes where the previous one stopped.
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub attempts: u32,
    /// Install with these entries: u8, u4 or bit1 (class tables: u8 or u4; default: the
    /// published encoding). Values come from the published entries (a bit1 table's by the BFS
    /// its bits guide, which takes as long as a build); the file is named after the standard
    /// database of that encoding (15-78-za-bit1 as u8 is 15-78-za.pdb), or
    /// `<name>-<encoding>.pdb` when there is none.
    #[arg(long, value_name = "ENC", value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// Download and install again even when an installed file has the published entries.
    #[arg(long)]
    pub force: bool,
    /// Leave out the board's duplicate-move pruning machine: the solver then builds it on
    /// first use, which is quick on 4x4 but slow on 5x5, where downloading it pays.
    #[arg(long)]
    pub no_machine: bool,
}

fn parse_encoding(s: &str) -> Result<Encoding, String> {
    Encoding::parse(s).ok_or_else(|| format!("unknown encoding {s:?}: use u8, u4 or bit1"))
}

/// Runs `solver fetch`.
pub fn run(args: FetchArgs) -> Result<i32> {
    let base = args
        .from
        .clone()
        .or_else(|| std::env::var(RELEASE_ENV).ok().filter(|s| !s.is_empty()))
        .ok_or_else(|| {
            anyhow!("no release to fetch from: pass --from URL or set ${RELEASE_ENV}")
        })?;
    if !(base.starts_with("http://") || base.starts_with("https://")) {
        bail!("--from {base:?}: an http:// or https:// URL is needed");
    }
    let base = base.trim_end_matches('/').to_string();
    let dbs = standard::expand(&args.name)?;
    // Class tables have no bit1 form: say so before anything is downloaded.
    let bit1 = args.encoding == Some(Encoding::Bit1);
    if let Some(s) = dbs.iter().find(|s| s.is_class_file() && bit1) {
        bail!(
            "{} is a file of class tables, which take u8 or u4 entries, not bit1",
            s.name
        );
    }
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => locate::build_dir()
            .ok_or_else(|| anyhow!("no install folder: set $PDB_DIR or $HOME, or pass --dir"))?,
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let client = Client::new(&base, args.attempts.max(1));
    let release = Release::read(&client)?;
    let mut boards = Vec::new();
    for s in &dbs {
        install::database(&client, &release, s, &dir, &args)?;
        let board = format!("{}x{}", s.width, s.height);
        if !boards.contains(&board) {
            boards.push(board);
        }
    }
    for board in boards.iter().filter(|_| !args.no_machine) {
        install::machine(&client, &release, board, &dir)?;
    }
    eprintln!("installed in {}", dir.display());
    Ok(0)
}
