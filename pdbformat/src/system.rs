//! What the machine reports about itself through `/proc`: available and total memory
//! (`/proc/meminfo`) and the load averages (`/proc/loadavg`).
//!
//! Builders size their work by the available memory and benchmarks record the load next to
//! their figures. Each reader returns `None` where the file is missing or unreadable (other
//! systems than Linux); the parsers of the files' text are public so that they are tested on
//! fixed text. Reading files is all this module does: no printing, no threads.

use std::fmt;

/// Bytes the system can still give without swapping (`MemAvailable` of `/proc/meminfo`).
pub fn available_memory() -> Option<u64> {
    meminfo_field("MemAvailable")
}

/// Bytes of installed memory (`MemTotal` of `/proc/meminfo`).
pub fn total_memory() -> Option<u64> {
    meminfo_field("MemTotal")
}

fn meminfo_field(field: &str) -> Option<u64> {
    parse_meminfo(&std::fs::read_to_string("/proc/meminfo").ok()?, field)
}

/// The value in bytes of `field` (`MemAvailable`) in the text of `/proc/meminfo`, whose
/// lines read `MemAvailable:   12345678 kB`.
pub fn parse_meminfo(text: &str, field: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (name, rest) = line.split_once(':')?;
        if name.trim() != field {
            return None;
        }
        let mut words = rest.split_whitespace();
        let n: u64 = words.next()?.parse().ok()?;
        match words.next() {
            Some("kB") => n.checked_mul(1024),
            None => Some(n),
            Some(_) => None,
        }
    })
}

/// The run-queue load averages over 1, 5 and 15 minutes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadAverage {
    /// Over the last minute.
    pub one: f64,
    /// Over the last 5 minutes.
    pub five: f64,
    /// Over the last 15 minutes.
    pub fifteen: f64,
}

impl LoadAverage {
    /// The current load averages (`/proc/loadavg`).
    pub fn read() -> Option<LoadAverage> {
        LoadAverage::parse(&std::fs::read_to_string("/proc/loadavg").ok()?)
    }

    /// The load averages in the text of `/proc/loadavg` (`0.52 0.58 0.59 1/467 12345`).
    pub fn parse(text: &str) -> Option<LoadAverage> {
        let mut w = text.split_whitespace().map(|x| x.parse::<f64>().ok());
        Some(LoadAverage {
            one: w.next()??,
            five: w.next()??,
            fifteen: w.next()??,
        })
    }
}

impl fmt::Display for LoadAverage {
    /// The three averages as the kernel writes them: `0.52 0.58 0.59`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.2} {:.2} {:.2}", self.one, self.five, self.fifteen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEMINFO: &str = "MemTotal:       24576000 kB\nMemFree:         1000000 kB\n\
                           MemAvailable:   12000000 kB\nHugePages_Total:       0\n";

    #[test]
    fn meminfo_fields() {
        assert_eq!(parse_meminfo(MEMINFO, "MemTotal"), Some(24_576_000 * 1024));
        assert_eq!(
            parse_meminfo(MEMINFO, "MemAvailable"),
            Some(12_000_000 * 1024)
        );
        assert_eq!(parse_meminfo(MEMINFO, "HugePages_Total"), Some(0));
        assert_eq!(parse_meminfo(MEMINFO, "Mem"), None);
        assert_eq!(parse_meminfo("MemAvailable: lots kB", "MemAvailable"), None);
        assert_eq!(parse_meminfo("MemAvailable: 5 MB", "MemAvailable"), None);
        assert_eq!(parse_meminfo("", "MemAvailable"), None);
    }

    #[test]
    fn load_averages() {
        let l = LoadAverage::parse("0.52 1.05 12.00 1/467 12345\n").unwrap();
        assert_eq!((l.one, l.five, l.fifteen), (0.52, 1.05, 12.0));
        assert_eq!(l.to_string(), "0.52 1.05 12.00");
        assert!(LoadAverage::parse("0.52 x 1").is_none());
        assert!(LoadAverage::parse("0.52").is_none());
    }

    #[test]
    fn this_machine() {
        // On Linux both files exist and hold sane values; elsewhere both readers say None.
        if std::path::Path::new("/proc/meminfo").exists() {
            let (avail, total) = (available_memory().unwrap(), total_memory().unwrap());
            assert!(avail > 0 && avail <= total, "{avail} of {total}");
        }
        if let Some(l) = LoadAverage::read() {
            assert!(l.one >= 0.0 && l.five >= 0.0 && l.fifteen >= 0.0);
        }
    }
}
