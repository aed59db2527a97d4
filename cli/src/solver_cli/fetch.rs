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
//! when the release has it (unless `--no-machine`).

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use pdbformat::format::{
    encode_entries, write_pdb, Encoding, LoadOptions, PdbFile, TableSource, WriteOptions,
};
use pdbformat::standard::{self, StandardDb};
use pdbsolver::locate;
use serde_json::Value;
use sha2::{Digest as _, Sha256};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The environment variable holding the default release URL.
pub const RELEASE_ENV: &str = "PDB_RELEASE_URL";

/// The release's checksum list and JSON manifest (as `artifacts publish` names them).
const SUMS_FILE: &str = "SHA256SUMS";
const JSON_FILE: &str = "manifest.json";

/// Arguments of `solver fetch`.
#[derive(Args, Debug)]
pub struct FetchArgs {
    /// A standard database (15-78-za-bit1) or catalogue (15-78+78b-za-bit1) name.
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
    /// Install with these entries: u8, u4 or bit1 (default: the published encoding). Values
    /// come from the published entries (a bit1 table's by the BFS its bits guide, which takes
    /// as long as a build); the file is named after the standard database of that encoding
    /// (15-78-za-bit1 as u8 is 15-78-za.pdb), or `<name>-<encoding>.pdb` when there is none.
    #[arg(long, value_name = "ENC", value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// Download and install again even when an installed file has the published entries.
    #[arg(long)]
    pub force: bool,
    /// Leave out the board's duplicate-move pruning machine (the solver builds it on first
    /// use: milliseconds on 4x4, 20-25 s on 5x5, where the machine is a 66 MiB download).
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
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => locate::build_dir()
            .ok_or_else(|| anyhow!("no install folder: set $PDB_DIR or $HOME, or pass --dir"))?,
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let client = Client::new(&base, args.attempts.max(1));
    let sums = client.sums()?;
    let manifest: Value = {
        let bytes = client.small(JSON_FILE)?;
        check_digest(JSON_FILE, &hex(&Sha256::digest(&bytes)), &sums)?;
        serde_json::from_slice(&bytes).context("manifest.json is not valid JSON")?
    };
    let mut boards = Vec::new();
    for s in &dbs {
        install_db(&client, &manifest, &sums, s, &dir, &args)?;
        let board = format!("{}x{}", s.width, s.height);
        if !boards.contains(&board) {
            boards.push(board);
        }
    }
    for board in boards.iter().filter(|_| !args.no_machine) {
        install_machine(&client, &manifest, &sums, board, &dir)?;
    }
    eprintln!("installed in {}", dir.display());
    Ok(0)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks `found` against the `SHA256SUMS` line of `file`.
fn check_digest(file: &str, found: &str, sums: &HashMap<String, String>) -> Result<()> {
    match sums.get(file) {
        None => bail!("{file} is not listed in the release's SHA256SUMS"),
        Some(d) if d != found => {
            bail!("{file}: SHA-256 {found} is not the published {d}; refused")
        }
        Some(_) => Ok(()),
    }
}

/// The entry digests of database `name` in the release's manifest, if it publishes it.
fn release_digests<'a>(manifest: &'a Value, name: &str) -> Option<(Vec<String>, &'a Value)> {
    let rec = manifest["databases"]
        .as_array()
        .and_then(|a| a.iter().find(|d| d["name"] == name))?;
    let digests = rec["tables"]
        .as_array()?
        .iter()
        .map(|t| t["raw_sha256"].as_str().map(str::to_string))
        .collect::<Option<Vec<String>>>()?;
    Some((digests, rec))
}

/// The file name of `s` stored with `encoding`: the standard database of that encoding (same
/// board, goal, partition and kind) if there is one, else `<name>-<encoding>`.
fn target_name(s: &StandardDb, encoding: Encoding) -> String {
    if encoding == s.encoding {
        return s.name.to_string();
    }
    if let Some(t) = standard::STANDARD.iter().find(|t| {
        (t.width, t.height, t.goal, t.partition, t.kind)
            == (s.width, s.height, s.goal, s.partition, s.kind)
            && t.encoding == encoding
    }) {
        return t.name.to_string();
    }
    let base = s
        .name
        .strip_suffix(&format!("-{}", s.encoding.name()))
        .unwrap_or(s.name);
    match encoding {
        Encoding::U8 => base.to_string(),
        e => format!("{base}-{}", e.name()),
    }
}

/// Downloads, checks and installs one database.
fn install_db(
    client: &Client,
    manifest: &Value,
    sums: &HashMap<String, String>,
    s: &StandardDb,
    dir: &Path,
    args: &FetchArgs,
) -> Result<()> {
    let (digests, rec) = release_digests(manifest, s.name)
        .ok_or_else(|| anyhow!("the release does not publish {}", s.name))?;
    let encoding = args.encoding.unwrap_or(s.encoding);
    let target = target_name(s, encoding);
    let dest = dir.join(format!("{target}.pdb"));
    // The installed file's digests are known when the release publishes that database too.
    let expected = release_digests(manifest, &target).map(|(d, _)| d);
    if !args.force
        && dest.exists()
        && expected
            .as_ref()
            .is_some_and(|d| installed_matches(&dest, d))
    {
        eprintln!("{}: already installed, same entries", dest.display());
        return Ok(());
    }
    // The smallest published file that this reader decodes.
    let file = rec["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["file"].as_str().is_some() && f["size"].as_u64().is_some())
        .min_by_key(|f| f["size"].as_u64())
        .ok_or_else(|| anyhow!("the release lists no file for {}", s.name))?;
    let name = file["file"].as_str().expect("filtered").to_string();
    if name.contains('/') || !name.ends_with(".pdb") {
        bail!("manifest.json: a database file named {name:?}");
    }
    let size = file["size"].as_u64().expect("filtered");
    let published = file["sha256"].as_str().unwrap_or_default();
    let part = part_path(dir, &name);
    let digest = client.download(&name, &part, size)?;
    if digest != published {
        remove(&part);
        bail!("{name}: SHA-256 {digest} is not the one in manifest.json ({published}); refused and deleted");
    }
    if let Err(e) = check_digest(&name, &digest, sums) {
        remove(&part);
        return Err(e.context("deleted"));
    }
    let installed = decode_install(&part, s, &digests, encoding, expected.as_deref(), &dest);
    remove(&part);
    installed.with_context(|| format!("{name}: not installed"))?;
    eprintln!("{}: installed from {name}", dest.display());
    Ok(())
}

/// Whether `path` opens and its tables' entry digests are `digests`.
fn installed_matches(path: &Path, digests: &[String]) -> bool {
    PdbFile::open(path).is_ok_and(|f| {
        let found: Vec<String> = f
            .header()
            .tables
            .iter()
            .map(|t| t.raw_digest.hex())
            .collect();
        found == digests
    })
}

/// Opens the downloaded file, checks it against the standard definition and the manifest's
/// digests, decodes every table (checking its digest), re-encodes it when `encoding` is not
/// the published one (checking the result against `expected` when the release has them) and
/// writes it raw to `dest`.
fn decode_install(
    part: &Path,
    s: &StandardDb,
    digests: &[String],
    encoding: Encoding,
    expected: Option<&[String]>,
    dest: &Path,
) -> Result<()> {
    let file = PdbFile::open(part)?;
    let h = file.header();
    let r = s.resolve()?;
    if h.goal != r.goal {
        bail!("built for goal {}, not {}", h.goal, r.goal);
    }
    let patterns = r.partition.patterns();
    if h.tables.len() != patterns.len()
        || h.tables.iter().zip(patterns).any(|(t, p)| {
            t.pattern.tiles() != p.tiles() || t.kind != s.kind || t.encoding != s.encoding
        })
    {
        bail!("its tables are not those of {}", s.name);
    }
    let found: Vec<String> = h.tables.iter().map(|t| t.raw_digest.hex()).collect();
    if found != digests {
        bail!("its entry digests are not those in manifest.json");
    }
    let tables = file.load_all(LoadOptions {
        verify: true,
        mmap: false,
    })?;
    let mut recoded = Vec::new();
    if encoding != s.encoding {
        if encoding == Encoding::Bit1 && s.kind != pdbformat::TableKind::ZeroAware {
            bail!("bit1 entries need zero-aware tables");
        }
        for (i, t) in tables.iter().enumerate() {
            if encoding == Encoding::U4 && t.header.max_value > 15 {
                bail!(
                    "table {i} holds values up to {}, more than u4's 15",
                    t.header.max_value
                );
            }
            if t.header.encoding == Encoding::Bit1 {
                eprintln!("table {i}: restoring its values from its bits (a BFS)");
            }
            let obs = crate::bars::BarObserver::without_summaries();
            let values = pdbgen::values_of(&h.goal, t, i, &obs)?;
            recoded.push(encode_entries(&values, encoding));
        }
    }
    let sources: Vec<TableSource<'_>> = tables
        .iter()
        .enumerate()
        .map(|(i, t)| match recoded.get(i) {
            Some(entries) => TableSource {
                encoding,
                entries,
                ..t.source()
            },
            None => t.source(),
        })
        .collect();
    if let Some(expected) = expected {
        let found: Vec<String> = sources
            .iter()
            .map(|t| pdbformat::format::Digest::of(t.entries).hex())
            .collect();
        if found != expected {
            bail!(
                "its {} entries do not have the digests in manifest.json",
                encoding
            );
        }
    }
    write_pdb(dest, &h.goal, &sources, &WriteOptions::default())?;
    Ok(())
}

/// Downloads and installs the pruning machine of `board` when the release has one and the
/// folder does not.
fn install_machine(
    client: &Client,
    manifest: &Value,
    sums: &HashMap<String, String>,
    board: &str,
    dir: &Path,
) -> Result<()> {
    let Some(m) = manifest["pruning"]
        .as_array()
        .and_then(|a| a.iter().find(|m| m["board"] == board))
    else {
        return Ok(());
    };
    let (Some(name), Some(size)) = (m["file"].as_str(), m["size"].as_u64()) else {
        bail!("manifest.json: a pruning machine without a file name or size");
    };
    if name.contains('/') || !name.ends_with(".fsm") {
        bail!("manifest.json: a pruning machine named {name:?}");
    }
    let dest = dir.join(name);
    if dest.exists() {
        return Ok(());
    }
    let part = part_path(dir, name);
    let digest = client.download(name, &part, size)?;
    let published = m["sha256"].as_str().unwrap_or_default();
    let checked = if digest != published {
        Err(anyhow!(
            "{name}: SHA-256 {digest} is not the one in manifest.json; refused and deleted"
        ))
    } else {
        check_digest(name, &digest, sums)
    };
    if let Err(e) = checked {
        remove(&part);
        return Err(e);
    }
    std::fs::rename(&part, &dest)
        .with_context(|| format!("cannot rename {} to {}", part.display(), dest.display()))?;
    eprintln!("{}: installed", dest.display());
    Ok(())
}

/// The partial download of `name` in `dir`.
fn part_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.part"))
}

fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
}

/// An HTTP client for one release folder, with retries.
struct Client {
    base: String,
    agent: ureq::Agent,
    attempts: u32,
}

impl Client {
    fn new(base: &str, attempts: u32) -> Client {
        let agent = ureq::Agent::config_builder()
            .timeout_connect(Some(Duration::from_secs(30)))
            .timeout_recv_response(Some(Duration::from_secs(60)))
            .build()
            .into();
        Client {
            base: base.to_string(),
            agent,
            attempts,
        }
    }

    fn url(&self, file: &str) -> String {
        format!("{}/{file}", self.base)
    }

    /// Waits before attempt `n` (counted from 2): 0.25 s, 0.5 s, 1 s, … at most 8 s.
    fn pause(n: u32) {
        std::thread::sleep(Duration::from_millis(250 << (n - 2).min(5)));
    }

    /// A small file (at most 16 MiB) into memory.
    fn small(&self, file: &str) -> Result<Vec<u8>> {
        let url = self.url(file);
        let mut last = None;
        for n in 1..=self.attempts {
            if n > 1 {
                Self::pause(n);
            }
            let got = self
                .agent
                .get(&url)
                .call()
                .and_then(|mut r| r.body_mut().with_config().limit(16 << 20).read_to_vec());
            match got {
                Ok(b) => return Ok(b),
                Err(e) if is_final(&e) => return Err(anyhow!("cannot download {url}: {e}")),
                Err(e) => last = Some(e),
            }
        }
        Err(anyhow!(
            "cannot download {url} ({} attempts): {}",
            self.attempts,
            last.map_or_else(String::new, |e| e.to_string())
        ))
    }

    /// The release's `SHA256SUMS`, file name to digest.
    fn sums(&self) -> Result<HashMap<String, String>> {
        let text = String::from_utf8(self.small(SUMS_FILE)?)
            .map_err(|_| anyhow!("SHA256SUMS is not text"))?;
        let mut m = HashMap::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let (d, n) = line
                .split_once(' ')
                .ok_or_else(|| anyhow!("SHA256SUMS: unreadable line {line:?}"))?;
            let n = n.trim_start_matches([' ', '*']);
            if d.len() != 64 || !d.bytes().all(|b| b.is_ascii_hexdigit()) {
                bail!("SHA256SUMS: unreadable line {line:?}");
            }
            m.insert(n.to_string(), d.to_ascii_lowercase());
        }
        Ok(m)
    }

    /// Downloads `file` (`size` bytes) into `part`, resuming from what `part` already holds;
    /// returns the SHA-256 of the whole file.
    fn download(&self, file: &str, part: &Path, size: u64) -> Result<String> {
        let url = self.url(file);
        let bar = indicatif::ProgressBar::new(size);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {bytes_per_sec} ({eta})",
            )
            .expect("valid template"),
        );
        bar.set_message(file.to_string());
        let mut last = String::new();
        for n in 1..=self.attempts {
            let have = part.metadata().map_or(0, |m| m.len());
            if have > size {
                remove(part);
                continue;
            }
            if have == size {
                break;
            }
            if n > 1 {
                Self::pause(n);
            }
            bar.set_position(have);
            match self.fetch_range(&url, part, have, &bar) {
                Ok(()) => {}
                Err(e) => {
                    last = format!("{e:#}");
                    bar.suspend(|| eprintln!("{file}: attempt {n} stopped: {last}"));
                }
            }
        }
        bar.finish_and_clear();
        let have = part.metadata().map_or(0, |m| m.len());
        if have != size {
            bail!(
                "cannot download {url} ({} attempts, {have} of {size} bytes kept in {}; the next run resumes): {last}",
                self.attempts,
                part.display()
            );
        }
        let mut h = Sha256::new();
        let mut f = File::open(part).with_context(|| format!("cannot read {}", part.display()))?;
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = f
                .read(&mut buf)
                .with_context(|| format!("cannot read {}", part.display()))?;
            if n == 0 {
                break;
            }
            h.update(&buf[..n]);
        }
        Ok(hex(&h.finalize()))
    }

    /// One request: the bytes from `from` on, appended to `part` (a server that ignores the
    /// range sends the whole file, which replaces `part`).
    fn fetch_range(
        &self,
        url: &str,
        part: &Path,
        from: u64,
        bar: &indicatif::ProgressBar,
    ) -> Result<()> {
        let mut req = self.agent.get(url);
        if from > 0 {
            req = req.header("Range", format!("bytes={from}-"));
        }
        let resp = req.call().map_err(|e| anyhow!("{e}"))?;
        let partial = resp.status().as_u16() == 206;
        let mut out = if from > 0 && partial {
            OpenOptions::new().append(true).open(part)
        } else {
            File::create(part)
        }
        .with_context(|| format!("cannot write {}", part.display()))?;
        bar.set_position(if partial { from } else { 0 });
        let mut body = resp.into_body().into_reader();
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = body.read(&mut buf).context("connection lost")?;
            if n == 0 {
                break;
            }
            out.write_all(&buf[..n])
                .with_context(|| format!("cannot write {}", part.display()))?;
            bar.inc(n as u64);
        }
        out.sync_all()
            .with_context(|| format!("cannot write {}", part.display()))?;
        Ok(())
    }
}

/// Whether an error will not go away by asking again (a missing file, a refused request).
fn is_final(e: &ureq::Error) -> bool {
    matches!(e, ureq::Error::StatusCode(c) if (400..500).contains(c) && *c != 408 && *c != 429)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_encodings_take_the_standard_names() {
        let name = |db: &str, e: Encoding| target_name(standard::find(db).unwrap(), e);
        assert_eq!(name("15-78-za-bit1", Encoding::Bit1), "15-78-za-bit1");
        assert_eq!(name("15-78-za-bit1", Encoding::U8), "15-78-za");
        assert_eq!(name("24-6666-za", Encoding::Bit1), "24-6666-za-bit1");
        // No standard database of that encoding: the conventional suffix.
        assert_eq!(name("15-78b-za-bit1", Encoding::U8), "15-78b-za");
        assert_eq!(name("15-78b-za-bit1", Encoding::U4), "15-78b-za-u4");
        assert_eq!(name("15-663-za", Encoding::U4), "15-663-za-u4");
    }

    #[test]
    fn only_client_errors_end_the_retries() {
        assert!(is_final(&ureq::Error::StatusCode(404)));
        assert!(!is_final(&ureq::Error::StatusCode(429)));
        assert!(!is_final(&ureq::Error::StatusCode(503)));
    }
}
