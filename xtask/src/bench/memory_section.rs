//! `cargo xtask bench`'s memory section: what one random lookup in a table-sized buffer costs
//! on this machine, with 4 KiB pages and with 2 MiB pages, the ceiling of the solver's node rate.
//!
//! A search reads one or two entries of a table of hundreds of megabytes at random per node
//! generated (the 7-8 as `bit1`: 187 MiB). Two figures bound what that costs here: the time of
//! a lookup whose address depends on the previous lookup's byte (nothing overlaps: the
//! latency), and the time per lookup when the addresses are known in advance (the processor
//! overlaps as many as it can: the throughput). Buffers are anonymous memory like the
//! solver's `--load huge-pages` tables, filled before they are timed; for 2 MiB pages the
//! section also says how much of the buffer the kernel actually backed with them
//! (`AnonHugePages` in `/proc/self/smaps`).

use anyhow::{Context, Result};
use pdbformat::memory::{anonymous, Pages};
use pdbformat::system::parse_meminfo;
use pdbformat::units;
use pdbtiles::summary::median_f64;
use std::hint::black_box;
use std::time::Instant;

/// The name of a page size in the table.
fn page_name(pages: Pages) -> &'static str {
    match pages {
        Pages::Small => "4 KiB",
        Pages::Huge => "2 MiB",
    }
}

/// What one buffer measured.
#[derive(Clone, Debug)]
pub struct LookupCost {
    /// The buffer's size in bytes (a power of two).
    pub bytes: usize,
    /// The pages asked for.
    pub pages: Pages,
    /// Bytes of the buffer backed by 2 MiB pages, when `/proc/self/smaps` says.
    pub huge_bytes: Option<u64>,
    /// Nanoseconds per lookup when each address depends on the byte read before (median).
    pub dependent_ns: f64,
    /// Nanoseconds per lookup when the addresses are independent of the bytes read (median).
    pub independent_ns: f64,
}

/// One step of xorshift64: the probe's pseudo-random addresses and fill.
#[inline(always)]
fn xorshift(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

/// How many times each figure is measured; the median is kept (the machines are shared).
const ROUNDS: u64 = 3;

/// Measures a buffer of `bytes` (a power of two) with `pages`: `dependent` lookups one after
/// the other, then `independent` lookups at addresses drawn in advance, `ROUNDS` times each
/// (the medians are kept).
pub fn probe(bytes: usize, pages: Pages, dependent: u64, independent: u64) -> Result<LookupCost> {
    anyhow::ensure!(
        bytes.is_power_of_two(),
        "the buffer size must be a power of two"
    );
    // Only a hint: without transparent huge pages both rows measure 4 KiB pages.
    let mut map = anonymous(bytes, pages)
        .with_context(|| format!("cannot allocate {}", units::bytes(bytes as u64)))?;
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for word in map.chunks_exact_mut(8) {
        x = xorshift(x);
        word.copy_from_slice(&x.to_le_bytes());
    }
    let huge_bytes = std::fs::read_to_string("/proc/self/smaps")
        .ok()
        .and_then(|s| huge_bytes_at(&s, map.as_ptr() as u64));
    let buf: &[u8] = &map;
    let mask = bytes as u64 - 1;
    let (mut dep, mut ind) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let start = Instant::now();
        let mut i = 1 + round;
        for _ in 0..dependent {
            let b = buf[(i & mask) as usize] as u64;
            i = xorshift(i.wrapping_add(b) | 1);
        }
        black_box(i);
        dep.push(start.elapsed().as_secs_f64() * 1e9 / dependent.max(1) as f64);

        let start = Instant::now();
        let (mut a, mut sum) = (0x2545_f491_4f6c_dd1du64 + round, 0u64);
        for _ in 0..independent {
            a = xorshift(a);
            sum = sum.wrapping_add(buf[(a & mask) as usize] as u64);
        }
        black_box(sum);
        ind.push(start.elapsed().as_secs_f64() * 1e9 / independent.max(1) as f64);
    }
    let (dependent_ns, independent_ns) = (median_f64(&dep), median_f64(&ind));
    Ok(LookupCost {
        bytes,
        pages,
        huge_bytes,
        dependent_ns,
        independent_ns,
    })
}

/// The `AnonHugePages` bytes of the mapping that starts at `addr` in the text of
/// `/proc/self/smaps`; `None` when no such mapping or field is there. A mapping's block is its
/// header line (`start-end perms …`) and the `Field: N kB` lines up to the next header, which
/// read like `/proc/meminfo`'s.
pub fn huge_bytes_at(smaps: &str, addr: u64) -> Option<u64> {
    let is_header = |line: &str| {
        let first = line.split_whitespace().next().unwrap_or("");
        first.split_once('-').and_then(|(lo, hi)| {
            let lo = u64::from_str_radix(lo, 16).ok()?;
            u64::from_str_radix(hi, 16).ok().map(|_| lo)
        })
    };
    let mut lines = smaps.lines();
    lines.by_ref().find(|line| is_header(line) == Some(addr))?;
    let block: Vec<&str> = lines.take_while(|line| is_header(line).is_none()).collect();
    parse_meminfo(&block.join("\n"), "AnonHugePages")
}

/// The buffer sizes the section measures: 1 MiB (within the caches), 32 MiB, 256 MiB (a 7-8
/// table's size) and 1 GiB, less those above half of `available` bytes.
pub fn sizes(available: Option<u64>) -> Vec<usize> {
    [1usize << 20, 32 << 20, 256 << 20, 1 << 30]
        .into_iter()
        .filter(|&b| available.is_none_or(|a| b as u64 <= a / 2))
        .collect()
}

/// Measures every size of [`sizes`] with both page kinds and returns the Markdown table (the
/// machine line first).
pub fn section(machine: &str, available: Option<u64>) -> Result<String> {
    let mut rows = Vec::new();
    for bytes in sizes(available) {
        for pages in [Pages::Small, Pages::Huge] {
            let p = probe(bytes, pages, 2_000_000, 16_000_000)?;
            println!(
                "bench: memory {} with {} pages: {:.1} ns dependent, {:.1} ns independent",
                units::bytes(bytes as u64),
                page_name(pages),
                p.dependent_ns,
                p.independent_ns
            );
            rows.push(p);
        }
    }
    Ok(table(machine, &rows))
}

/// The section's Markdown: the machine line, then one row per probe.
pub fn table(machine: &str, rows: &[LookupCost]) -> String {
    let mut t = format!(
        "{machine}\n\n| buffer | pages asked | backed by 2 MiB pages | dependent lookup (ns) | \
         independent lookups (ns each) |\n|---|---|---:|---:|---:|\n"
    );
    for p in rows {
        let huge = p.huge_bytes.map_or_else(|| "?".into(), units::bytes);
        t += &format!(
            "| {} | {} | {huge} | {:.1} | {:.1} |\n",
            units::bytes(p.bytes as u64),
            page_name(p.pages),
            p.dependent_ns,
            p.independent_ns
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_probe_gives_finite_positive_figures() {
        for pages in [Pages::Small, Pages::Huge] {
            let p = probe(1 << 16, pages, 10_000, 10_000).unwrap();
            assert_eq!(p.bytes, 1 << 16);
            for ns in [p.dependent_ns, p.independent_ns] {
                assert!(ns.is_finite() && ns > 0.0, "{p:?}");
            }
        }
        assert!(probe(3 << 10, Pages::Small, 1, 1).is_err());
    }

    #[test]
    fn huge_bytes_are_read_from_the_mapping_that_starts_at_the_address() {
        let smaps = "\
7f0000000000-7f0000200000 rw-p 00000000 00:00 0
Size:               2048 kB
AnonHugePages:         0 kB
7f1000000000-7f1010000000 rw-p 00000000 00:00 0 
Size:             262144 kB
AnonHugePages:    260096 kB
VmFlags: rd wr mr mw me ac sd hg
";
        assert_eq!(huge_bytes_at(smaps, 0x7f10_0000_0000), Some(260_096 * 1024));
        assert_eq!(huge_bytes_at(smaps, 0x7f00_0000_0000), Some(0));
        assert_eq!(huge_bytes_at(smaps, 0x7f20_0000_0000), None);
    }

    #[test]
    fn sizes_leave_out_buffers_above_half_the_available_memory() {
        assert_eq!(sizes(None).len(), 4);
        assert_eq!(sizes(Some(600 << 20)), vec![1 << 20, 32 << 20, 256 << 20]);
        assert!(sizes(Some(1 << 20)).is_empty());
    }

    #[test]
    fn the_table_has_a_row_per_probe() {
        let rows = [LookupCost {
            bytes: 256 << 20,
            pages: Pages::Huge,
            huge_bytes: Some(250 << 20),
            dependent_ns: 139.04,
            independent_ns: 13.61,
        }];
        let t = table("Measured here.", &rows);
        assert!(t.starts_with("Measured here.\n\n| buffer |"), "{t}");
        assert!(t.contains("| 2 MiB | 250.0 MiB | 139.0 | 13.6 |"), "{t}");
    }
}
