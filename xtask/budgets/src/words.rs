//! The words budget: no tracked file names an issue number or a folder of a particular
//! machine. The project's files describe the project, not the work that made it nor the
//! machines it was made on.
//!
//! Every tracked text file is read (binary files, those with a NUL byte or not UTF-8, are
//! skipped, and so are the lock files `Cargo.lock` and `package-lock.json`), line by line, and
//! letter case does not matter. A line *names an issue number* when it has
//!
//! - one of the words of [`ISSUE_WORDS`] followed by a number, with spaces and a `#` allowed
//!   between them (the word, a space and `51`; the word, a space, `#` and `12`);
//! - one of [`HASH_WORDS`] (`PR` and GitHub's closing keywords) followed by `#` and a number;
//! - or a number alone after a `#` in parentheses (a `(`, `#`, `51` and `)`: how GitHub titles
//!   cite pull requests).
//!
//! A bare `#` and number is left alone (instance numbers are written so), and so are links to
//! other projects' trackers. A line *names a folder of a machine* when an absolute path starts
//! with one of [`MACHINE_FOLDERS`] followed by `/` (or with `home`, a user's name and `/`), at
//! the start of the line or after a space, a quote, a backquote or one of `(=[,:;<>|`: so a path
//! built on a variable (`$TMPDIR`, `$(mktemp -d)`), a relative path and the path part of a URL
//! are fine. A Windows user folder (a drive letter, `:`, one slash or one or two backslashes and
//! `Users`) is one too.

use super::{read_text, Offence};
use anyhow::Result;
use std::ops::Range;
use std::path::Path;

/// The words that, followed by a number, name an issue.
pub const ISSUE_WORDS: &[&str] = &["issue", "issues", "ticket", "tickets"];

/// The words that, followed by `#` and a number, name an issue or a pull request.
pub const HASH_WORDS: &[&str] = &[
    "pr", "prs", "fix", "fixes", "fixed", "close", "closes", "closed", "resolve", "resolves",
    "resolved",
];

/// The folders at the root of a file system whose paths are those of a particular machine
/// (besides `home`, whose next folder is a user's).
pub const MACHINE_FOLDERS: &[&str] = &["work", "root", "tmp"];

/// Lock files, written by tools: they are not checked.
const SKIPPED: &[&str] = &["Cargo.lock", "package-lock.json"];

/// The offences against the words budget among `files` (tracked, relative to `root`), sorted
/// in the order of `files`, then by line.
pub fn check(root: &Path, files: &[String]) -> Result<Vec<Offence>> {
    let mut offences = Vec::new();
    for path in files {
        let name = path.rsplit('/').next().unwrap_or(path);
        if SKIPPED.contains(&name) {
            continue;
        }
        let Some(text) = read_text(root, path)? else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            for what in line_offences(line) {
                offences.push(Offence {
                    path: format!("{path}:{}", i + 1),
                    what,
                });
            }
        }
    }
    Ok(offences)
}

/// What a line breaks: its issue numbers, then its machine folders, each quoted.
pub fn line_offences(line: &str) -> Vec<String> {
    // ASCII lowercase keeps every byte where it was: the ranges found are the line's too.
    let low = line.to_ascii_lowercase();
    let mut found: Vec<String> = issue_numbers(&low)
        .into_iter()
        .map(|r| format!("names an issue number (`{}`)", &line[r]))
        .collect();
    found.extend(
        machine_paths(&low)
            .into_iter()
            .map(|r| format!("names a folder of a particular machine (`{}`)", &line[r])),
    );
    found
}

/// Where a lowercase line mentions issue numbers.
fn issue_numbers(low: &str) -> Vec<Range<usize>> {
    let b = low.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if is_word(b[i]) && (i == 0 || !is_word(b[i - 1])) {
            let end = i + b[i..].iter().take_while(|&&c| is_word(c)).count();
            let word = &low[i..end];
            let after = if ISSUE_WORDS.contains(&word) {
                number_after(b, end, false)
            } else if HASH_WORDS.contains(&word) {
                number_after(b, end, true)
            } else {
                None
            };
            if let Some(stop) = after {
                found.push(i..stop);
                i = stop;
            } else {
                i = end;
            }
        } else if b[i..].starts_with(b"(#") {
            let digits = b[i + 2..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits > 0 && b.get(i + 2 + digits) == Some(&b')') {
                found.push(i..i + 3 + digits);
            }
            i += 2 + digits;
        } else {
            i += 1;
        }
    }
    found
}

/// Where a number that follows a word at `at` ends: spaces, a `#` (required when `hash`),
/// spaces, then digits; `None` when no number follows.
fn number_after(b: &[u8], at: usize, hash: bool) -> Option<usize> {
    let spaces = |from: usize| from + b[from..].iter().take_while(|&&c| c == b' ').count();
    let mut j = spaces(at);
    if b.get(j) == Some(&b'#') {
        j = spaces(j + 1);
    } else if hash {
        return None;
    }
    let digits = b[j..].iter().take_while(|c| c.is_ascii_digit()).count();
    (digits > 0 && !b.get(j + digits).copied().is_some_and(is_word)).then_some(j + digits)
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Where a lowercase line has paths of a particular machine's folders.
fn machine_paths(low: &str) -> Vec<Range<usize>> {
    let b = low.as_bytes();
    let mut found = Vec::new();
    for i in 0..b.len() {
        if b[i] == b'/' && (i == 0 || starts_path(b[i - 1])) {
            let rest = &low[i + 1..];
            let folder = MACHINE_FOLDERS
                .iter()
                .find(|f| rest.starts_with(*f) && rest[f.len()..].starts_with('/'))
                .map(|f| f.len() + 2)
                .or_else(|| {
                    let user = rest.strip_prefix("home/")?;
                    let n = user.bytes().take_while(|&c| is_user_char(c)).count();
                    (n > 0 && user[n..].starts_with('/')).then_some("home/".len() + n + 2)
                });
            if let Some(len) = folder {
                found.push(i..i + len);
            }
        }
        let drive = i > 0 && b[i - 1].is_ascii_alphabetic() && (i == 1 || !is_word(b[i - 2]));
        if b[i] == b':' && drive {
            let rest = &low[i + 1..];
            let back = rest.bytes().take_while(|&c| c == b'\\').count();
            let sep = if back == 0 && rest.starts_with('/') {
                1
            } else {
                back
            };
            if (1..=2).contains(&sep) && rest[sep..].starts_with("users") {
                found.push(i - 1..i + 1 + sep + "users".len());
            }
        }
    }
    found
}

/// Whether a character before a `/` makes it the start of an absolute path.
fn starts_path(c: u8) -> bool {
    c.is_ascii_whitespace() || b"\"'`(=[,:;<>|".contains(&c)
}

fn is_user_char(c: u8) -> bool {
    is_word(c) || c == b'.' || c == b'-'
}
