//! What a release folder publishes: its `SHA256SUMS` (file name to SHA-256) and its
//! `manifest.json` (each database's files, sizes and entry digests; each board's pruning
//! machine), the manifest itself checked against the sums before anything is read from it.

use super::http::Client;
use anyhow::{anyhow, bail, Context, Result};
use pdbformat::format::Digest;
use serde_json::Value;
use std::collections::HashMap;

/// The release's checksum list and JSON manifest (as `artifacts publish` names them).
const SUMS_FILE: &str = "SHA256SUMS";
const JSON_FILE: &str = "manifest.json";

/// A release: its checksums and its manifest.
pub struct Release {
    sums: HashMap<String, String>,
    manifest: Value,
}

/// A file the release publishes: its name in the folder, its size and its SHA-256.
pub struct Published {
    /// The file's name (no folder).
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its SHA-256 in hexadecimal, as `manifest.json` gives it.
    pub sha256: String,
}

impl Release {
    /// Downloads the release's `SHA256SUMS` and `manifest.json`, the latter checked against
    /// the former.
    pub fn read(client: &Client) -> Result<Release> {
        let text = String::from_utf8(client.small(SUMS_FILE)?)
            .map_err(|_| anyhow!("{SUMS_FILE} is not text"))?;
        let sums = parse_sums(&text)?;
        let bytes = client.small(JSON_FILE)?;
        let release = Release {
            sums,
            manifest: Value::Null,
        };
        release.check_sums(JSON_FILE, &Digest::of(&bytes).hex())?;
        let manifest = serde_json::from_slice(&bytes).context("manifest.json is not valid JSON")?;
        Ok(Release {
            manifest,
            ..release
        })
    }

    /// Checks `found` against the `SHA256SUMS` line of `file`.
    fn check_sums(&self, file: &str, found: &str) -> Result<()> {
        match self.sums.get(file) {
            None => bail!("{file} is not listed in the release's SHA256SUMS"),
            Some(d) if d != found => {
                bail!("{file}: SHA-256 {found} is not the published {d}; refused")
            }
            Some(_) => Ok(()),
        }
    }

    /// Checks the SHA-256 `found` of a downloaded `file` against both `manifest.json` and
    /// `SHA256SUMS`.
    pub fn check(&self, file: &Published, found: &str) -> Result<()> {
        if found != file.sha256 {
            bail!(
                "{}: SHA-256 {found} is not the one in manifest.json ({}); refused",
                file.name,
                file.sha256
            );
        }
        self.check_sums(&file.name, found)
    }

    /// The entry digests of database `name`'s tables, if the release publishes it.
    pub fn digests(&self, name: &str) -> Option<Vec<Digest>> {
        self.database(name)?["tables"]
            .as_array()?
            .iter()
            .map(|t| t["raw_sha256"].as_str().and_then(parse_digest))
            .collect()
    }

    /// The smallest file the release publishes for database `name`.
    pub fn database_file(&self, name: &str) -> Result<Published> {
        let rec = self
            .database(name)
            .ok_or_else(|| anyhow!("the release does not publish {name}"))?;
        let file = rec["files"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(published)
            .min_by_key(|f| f.size)
            .ok_or_else(|| anyhow!("the release lists no file for {name}"))?;
        if file.name.contains('/') || !file.name.ends_with(".pdb") {
            bail!("manifest.json: a database file named {:?}", file.name);
        }
        Ok(file)
    }

    /// The pruning machine of `board` (`4x4`), if the release has one.
    pub fn machine(&self, board: &str) -> Result<Option<Published>> {
        let Some(m) = self.manifest["pruning"]
            .as_array()
            .and_then(|a| a.iter().find(|m| m["board"] == board))
        else {
            return Ok(None);
        };
        let file = published(m).ok_or_else(|| {
            anyhow!("manifest.json: a pruning machine without a file name or size")
        })?;
        if file.name.contains('/') || !file.name.ends_with(".fsm") {
            bail!("manifest.json: a pruning machine named {:?}", file.name);
        }
        Ok(Some(file))
    }

    /// The manifest's record of database `name`.
    fn database(&self, name: &str) -> Option<&Value> {
        self.manifest["databases"]
            .as_array()
            .and_then(|a| a.iter().find(|d| d["name"] == name))
    }
}

/// A manifest record's file, when it has a name and a size.
fn published(rec: &Value) -> Option<Published> {
    Some(Published {
        name: rec["file"].as_str()?.to_string(),
        size: rec["size"].as_u64()?,
        sha256: rec["sha256"].as_str().unwrap_or_default().to_string(),
    })
}

/// Reads `SHA256SUMS`: lines of a digest, spaces (and `*` for binary mode) and a file name.
fn parse_sums(text: &str) -> Result<HashMap<String, String>> {
    let mut m = HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let unreadable = || anyhow!("SHA256SUMS: unreadable line {line:?}");
        let (d, n) = line.split_once(' ').ok_or_else(unreadable)?;
        let n = n.trim_start_matches([' ', '*']);
        if d.len() != 64 || !d.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(unreadable());
        }
        m.insert(n.to_string(), d.to_ascii_lowercase());
    }
    Ok(m)
}

/// A SHA-256 written in 64 hexadecimal digits.
fn parse_digest(text: &str) -> Option<Digest> {
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut d = [0u8; 32];
    for (i, byte) in d.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(Digest(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_digests_read_back() {
        let d = "ab".repeat(32);
        let sums = parse_sums(&format!("{d}  a.pdb\n{}  *b.fsm\n\n", d.to_uppercase())).unwrap();
        assert_eq!(sums["a.pdb"], d);
        assert_eq!(sums["b.fsm"], d);
        assert!(parse_sums("xyz a.pdb").is_err());
        assert_eq!(parse_digest(&d).map(|x| x.hex()), Some(d.clone()));
        assert!(parse_digest(&d[1..]).is_none());
        assert!(parse_digest(&"g".repeat(64)).is_none());
    }
}
