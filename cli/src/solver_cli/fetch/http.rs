//! The HTTP(S) client of `solver fetch`: small files into memory, large ones into a `.part`
//! file that a later attempt (or a later run) resumes with a `Range` request, each request
//! retried with a growing pause unless the server's answer is final.

use anyhow::{anyhow, bail, Context, Result};
use pdbformat::format::Digest;
use sha2::{Digest as _, Sha256};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

/// An HTTP client for one release folder, with retries.
pub struct Client {
    base: String,
    agent: ureq::Agent,
    attempts: u32,
}

impl Client {
    /// A client for the release folder at `base` (no trailing `/`), making up to `attempts`
    /// tries per file.
    pub fn new(base: &str, attempts: u32) -> Client {
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
    pub fn small(&self, file: &str) -> Result<Vec<u8>> {
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

    /// Downloads `file` (`size` bytes) into `part`, resuming from what `part` already holds;
    /// returns the SHA-256 of the whole file.
    pub fn download(&self, file: &str, part: &Path, size: u64) -> Result<String> {
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
                let _ = std::fs::remove_file(part);
                continue;
            }
            if have == size {
                break;
            }
            if n > 1 {
                Self::pause(n);
            }
            bar.set_position(have);
            if let Err(e) = self.fetch_range(&url, part, have, &bar) {
                last = format!("{e:#}");
                bar.suspend(|| eprintln!("{file}: attempt {n} stopped: {last}"));
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
        sha256_of(part)
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

/// The SHA-256 of the file at `path`, in hexadecimal.
fn sha256_of(path: &Path) -> Result<String> {
    let mut f = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut h = Sha256::new();
    std::io::copy(&mut f, &mut h).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(Digest::from_hasher(h).hex())
}

/// Whether an error will not go away by asking again (a missing file, a refused request).
fn is_final(e: &ureq::Error) -> bool {
    matches!(e, ureq::Error::StatusCode(c) if (400..500).contains(c) && *c != 408 && *c != 429)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_client_errors_end_the_retries() {
        assert!(is_final(&ureq::Error::StatusCode(404)));
        assert!(!is_final(&ureq::Error::StatusCode(429)));
        assert!(!is_final(&ureq::Error::StatusCode(503)));
    }
}
