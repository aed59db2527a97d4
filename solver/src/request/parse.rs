//! The values of a [`super::Request`]'s textual keys as people write them, and what each
//! expects, in words, for messages.

use crate::prune::{Pruning, MAX_DEPTH};

/// What `metric` expects.
pub(super) const METRIC: &str = "stm or mtm";
/// What `reflect` expects.
pub(super) const SWITCH: &str = "on or off";
/// What `threads` expects.
pub(super) const THREADS: &str = "a count of at most 4096 (0: one per core)";
/// What `weight` expects.
pub(super) const WEIGHT: &str = "a number of at least 1, or inf for greedy search";
/// What `within` expects.
pub(super) const WITHIN: &str =
    "a number of at least 1 (the solution proven at most that many times the optimum)";
/// What `depth-limit` expects.
pub(super) const DEPTH: &str = "a number of moves";
/// What the counts (`max-nodes`, `hybrid-nodes`) expect.
pub(super) const COUNT: &str = "a whole number";
/// What `prune` expects.
pub(super) const PRUNE: &str = "on, off or a word depth from 1 to 24";
/// What `timeout` expects.
pub(super) const TIMEOUT: &str = "a positive number of seconds, or none";
/// What `max-memory` expects.
pub(super) const SIZE: &str = "a positive size such as 512M or 4G";

/// `on`, `yes`, `true`, `1` or `off`, `no`, `false`, `0`.
pub(super) fn switch(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" | "1" => Some(true),
        "off" | "no" | "false" | "0" => Some(false),
        _ => None,
    }
}

/// A whole number.
pub(super) fn count(s: &str) -> Option<u64> {
    s.trim().parse().ok()
}

/// A weight: a finite number, or `inf` (`infinity`, `greedy`) for greedy search. The range is
/// the caller's to check.
pub(super) fn weight(s: &str) -> Option<f64> {
    let t = s.trim().to_ascii_lowercase();
    if matches!(t.as_str(), "inf" | "infinity" | "greedy") {
        return Some(f64::INFINITY);
    }
    t.parse::<f64>().ok().filter(|w| w.is_finite())
}

/// A finite number (the range is the caller's to check).
pub(super) fn count_f64(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|w| w.is_finite())
}

/// Pruning: `on` (the board's default depth), `off`, or a word depth from 1 to
/// [`MAX_DEPTH`].
pub(super) fn pruning(s: &str) -> Option<Pruning> {
    match s.trim().to_ascii_lowercase().as_str() {
        "on" | "yes" | "default" => Some(Pruning::BoardDefault),
        "off" | "no" | "0" => Some(Pruning::Off),
        d => d
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=MAX_DEPTH).contains(d))
            .map(Pruning::Depth),
    }
}

/// Seconds, or `none` (`off`, `inf`, `never`) for no time limit (infinity). The sign is the
/// caller's to check.
pub(super) fn seconds(s: &str) -> Option<f64> {
    let t = s.trim().to_ascii_lowercase();
    if matches!(t.as_str(), "none" | "off" | "inf" | "infinity" | "never") {
        return Some(f64::INFINITY);
    }
    t.parse::<f64>().ok().filter(|t| t.is_finite())
}

/// A size in bytes: `1000000`, `512K`, `64M`, `4G`, `1.5GiB` (binary units), positive.
pub(super) fn size(s: &str) -> Option<u64> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return None,
    };
    match num.parse::<f64>() {
        Ok(v) if v > 0.0 && (v * scale as f64) < 1.8e19 => Some(((v * scale as f64) as u64).max(1)),
        _ => None,
    }
}
