//! Numbers as people read them: thousands grouping (`1,234,567`), byte sizes in binary units
//! (`11.0 MiB`) and rough magnitudes (`10.5 trillion`).
//!
//! Shared by every crate's messages and reports so that they all write numbers alike. The
//! functions return `String`s; printing is the caller's business.

/// Binary units, as written after a byte count.
const BYTE_UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A byte count in binary units with one decimal: `512 B`, `11.0 MiB`, `1.5 GiB`.
pub fn bytes(n: u64) -> String {
    if n < 1024 {
        format!("{n} B")
    } else {
        approx_bytes(n as f64)
    }
}

/// An estimated byte count (which may exceed `u64`), like [`bytes`]: `0 B`, `1.5 GiB`,
/// `3.2 EiB`; whole bytes below 1 KiB. Negative and non-finite inputs are written as they are.
pub fn approx_bytes(x: f64) -> String {
    let mut v = x;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < BYTE_UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{v:.0} B")
    } else {
        format!("{v:.1} {}", BYTE_UNITS[u])
    }
}

/// A rough count in words: `10.5 trillion`, `3.0 billion`, `2.5 million`, `999999` (whole
/// below a million).
pub fn approx_count(x: f64) -> String {
    if x >= 1e12 {
        format!("{:.1} trillion", x / 1e12)
    } else if x >= 1e9 {
        format!("{:.1} billion", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.1} million", x / 1e6)
    } else {
        format!("{x:.0}")
    }
}

/// A rate such as nodes per second, with a unit prefix: `12.30 M`, `4.50 k`, or `999 ` (the
/// space kept, so that a unit such as `nodes/s` can follow in every case).
pub fn rate(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2} G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.2} k", x / 1e3)
    } else {
        format!("{x:.0} ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_by_three() {
        for (n, s) in [
            (0, "0"),
            (7, "7"),
            (12, "12"),
            (999, "999"),
            (1_000, "1,000"),
            (12_345, "12,345"),
            (1_234_567, "1,234,567"),
            (u64::MAX, "18,446,744,073,709,551,615"),
        ] {
            assert_eq!(thousands(n), s);
        }
    }

    #[test]
    fn byte_sizes() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(1024), "1.0 KiB");
        assert_eq!(bytes(11 << 20), "11.0 MiB");
        assert_eq!(bytes(3 << 29), "1.5 GiB");
        assert_eq!(bytes(u64::MAX), "16.0 EiB");
        assert_eq!(approx_bytes(100.4), "100 B");
        assert_eq!(approx_bytes(1.5 * 1024.0 * 1024.0), "1.5 MiB");
        // Beyond u64: stays in the largest unit.
        assert_eq!(approx_bytes(2f64.powi(70)), "1024.0 EiB");
    }

    #[test]
    fn rough_counts() {
        assert_eq!(approx_count(1.05e13), "10.5 trillion");
        assert_eq!(approx_count(3e9), "3.0 billion");
        assert_eq!(approx_count(2.5e6), "2.5 million");
        assert_eq!(approx_count(999_999.0), "999999");
    }

    #[test]
    fn rates_have_a_unit_prefix() {
        assert_eq!(rate(2.5e6), "2.50 M");
        assert_eq!(rate(3.2e9), "3.20 G");
        assert_eq!(rate(4500.0), "4.50 k");
        assert_eq!(rate(999.0), "999 ");
    }
}
