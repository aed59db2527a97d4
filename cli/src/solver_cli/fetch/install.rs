//! Installing what was downloaded: a database file checked against its standard definition
//! and the release's entry digests, then written uncompressed (and re-encoded when asked) as
//! `<name>.pdb` by `pdbgen::recode`, through a temporary file renamed into place; a pruning
//! machine renamed into place once its digests match.

use super::http::Client;
use super::manifest::{Published, Release};
use super::FetchArgs;
use anyhow::{bail, Context, Result};
use pdbformat::format::{Compression, Digest, Encoding, PdbFile};
use pdbformat::standard::{self, StandardDb};
use pdbgen::{recode, RecodeOptions};
use std::path::{Path, PathBuf};

/// Downloads, checks and installs database `s` into `dir`.
pub fn database(
    client: &Client,
    release: &Release,
    s: &StandardDb,
    dir: &Path,
    args: &FetchArgs,
) -> Result<()> {
    let digests = release
        .digests(s.name)
        .with_context(|| format!("the release does not publish {}", s.name))?;
    let encoding = args.encoding.unwrap_or(s.encoding);
    let target = target_name(s, encoding);
    let dest = dir.join(format!("{target}.pdb"));
    // The installed file's digests are known when the release publishes that database too.
    let expected = release.digests(&target);
    if !args.force
        && dest.exists()
        && expected
            .as_ref()
            .is_some_and(|d| installed_matches(&dest, d))
    {
        eprintln!("{}: already installed, same entries", dest.display());
        return Ok(());
    }
    let file = release.database_file(s.name)?;
    let part = download_checked(client, release, &file, dir)?;
    let installed = check_tables(&part, s, &digests).and_then(|()| {
        if encoding != s.encoding && s.encoding == Encoding::Bit1 {
            eprintln!(
                "restoring the values of {} from its bits (a BFS per table)",
                s.name
            );
        }
        let opts = RecodeOptions {
            encoding: Some(encoding),
            compression: Some(Compression::None),
            expected,
            ..RecodeOptions::default()
        };
        let obs = crate::bars::BarObserver::without_summaries();
        recode(&part, &dest, &opts, &obs)?;
        Ok(())
    });
    remove(&part);
    installed.with_context(|| format!("{}: not installed", file.name))?;
    eprintln!("{}: installed from {}", dest.display(), file.name);
    Ok(())
}

/// Downloads and installs the pruning machine of `board` when the release has one and the
/// folder does not.
pub fn machine(client: &Client, release: &Release, board: &str, dir: &Path) -> Result<()> {
    let Some(file) = release.machine(board)? else {
        return Ok(());
    };
    let dest = dir.join(&file.name);
    if dest.exists() {
        return Ok(());
    }
    let part = download_checked(client, release, &file, dir)?;
    std::fs::rename(&part, &dest)
        .with_context(|| format!("cannot rename {} to {}", part.display(), dest.display()))?;
    eprintln!("{}: installed", dest.display());
    Ok(())
}

/// Downloads `file` into its `.part` file in `dir` (resuming what is there) and checks its
/// SHA-256 against the release; a file that fails is deleted.
fn download_checked(
    client: &Client,
    release: &Release,
    file: &Published,
    dir: &Path,
) -> Result<PathBuf> {
    let part = dir.join(format!("{}.part", file.name));
    let digest = client.download(&file.name, &part, file.size)?;
    if let Err(e) = release.check(file, &digest) {
        remove(&part);
        return Err(e.context("deleted"));
    }
    Ok(part)
}

/// The file name of `s` stored with `encoding`: the standard database of that encoding (same
/// board, goal, partition or labellings, kind and metric) if there is one, else
/// `<name>-<encoding>`.
fn target_name(s: &StandardDb, encoding: Encoding) -> String {
    if encoding == s.encoding {
        return s.name.to_string();
    }
    if let Some(t) = standard::STANDARD.iter().find(|t| {
        (t.width, t.height, t.goal, t.partition, t.kind)
            == (s.width, s.height, s.goal, s.partition, s.kind)
            && (t.metric, t.labellings) == (s.metric, s.labellings)
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

/// The entry digests of the tables of the file at `path`, if it opens.
fn entry_digests(path: &Path) -> Option<Vec<Digest>> {
    let f = PdbFile::open(path).ok()?;
    Some(f.header().tables.iter().map(|t| t.raw_digest).collect())
}

/// Whether `path` opens and its tables' entry digests are `digests`.
fn installed_matches(path: &Path, digests: &[Digest]) -> bool {
    entry_digests(path).is_some_and(|found| found == digests)
}

/// Checks the downloaded file's header against the standard definition of `s` and its
/// entry digests against the manifest's.
fn check_tables(part: &Path, s: &StandardDb, digests: &[Digest]) -> Result<()> {
    let file = PdbFile::open(part)?;
    let h = file.header();
    let goal = s.goal()?;
    if h.goal != goal {
        bail!("built for goal {}, not {}", h.goal, goal);
    }
    if h.metric != s.metric {
        bail!("its tables count {} moves, not {}", h.metric, s.metric);
    }
    if s.is_class_file() {
        let labels = s.labels()?;
        if h.tables.len() != labels.len()
            || (h.tables.iter().zip(&labels))
                .any(|(t, l)| t.classes != Some(*l) || t.encoding != s.encoding)
        {
            bail!("its tables are not those of {}", s.name);
        }
        return check_digests(h, digests);
    }
    let r = s.resolve()?;
    let patterns = r.partition.patterns();
    if h.tables.len() != patterns.len()
        || h.tables.iter().zip(patterns).any(|(t, p)| {
            t.pattern.tiles() != p.tiles() || t.kind != s.kind || t.encoding != s.encoding
        })
    {
        bail!("its tables are not those of {}", s.name);
    }
    check_digests(h, digests)
}

/// Whether the tables' entry digests are those of the manifest.
fn check_digests(h: &pdbformat::format::Header, digests: &[Digest]) -> Result<()> {
    if !h
        .tables
        .iter()
        .map(|t| t.raw_digest)
        .eq(digests.iter().copied())
    {
        bail!("its entry digests are not those in manifest.json");
    }
    Ok(())
}

fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
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
        assert_eq!(name("8-rows-mtm", Encoding::U8), "8-rows-mtm");
        assert_eq!(name("8-rows-mtm", Encoding::U4), "8-rows-mtm-u4");
    }
}
