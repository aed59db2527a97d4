//! Population count (the number of set bits of a `u64`), the instruction chosen at run time.
//!
//! Ranking counts bits in every step (a Lehmer digit, a cell's slot in a set), and so does the
//! generator's move code. x86-64 processors of the last fifteen years have the POPCNT
//! instruction, but the baseline x86-64 target does not assume it: compiled for that target,
//! `u64::count_ones` becomes a dozen shifts and masks. [`popcount`] instead asks the processor
//! once (`is_x86_feature_detected!`), remembers the answer, and then runs POPCNT where it is
//! there and the portable count where it is not, so that a build without any target flags
//! (`cargo install` of a packaged crate, a wheel built from the sdist) is as fast as one for
//! `x86-64-v2`, and still runs on a processor without it. Compiled for a target that has
//! POPCNT (`-C target-cpu=native`, `x86-64-v2`) or for another architecture, it is plain
//! `count_ones`, with no check.
//!
//! The path can be forced to the portable count, to test it or to measure it, by
//! [`select_popcount`] (a test or a benchmark calls it; nothing in the environment is read).
//! Both paths give the same counts, so switching while other threads count changes only their
//! speed.

use std::sync::atomic::{AtomicU8, Ordering};

/// How [`popcount`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PopcountPath {
    /// The processor's POPCNT instruction (or a target compiled with it).
    Hardware,
    /// The portable count of shifts and masks, for processors without POPCNT.
    Software,
}

const UNKNOWN: u8 = 0;
const HARDWARE: u8 = 1;
const SOFTWARE: u8 = 2;

/// The path chosen: `UNKNOWN` until the first count or selection.
static PATH: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Whether the processor running this has POPCNT (always, where the target guarantees it).
pub fn hardware_popcount_available() -> bool {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    {
        std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(all(target_arch = "x86_64", not(target_feature = "popcnt"))))]
    {
        true
    }
}

/// Chooses how [`popcount`] counts from now on, in every thread, and returns the path in
/// effect: [`PopcountPath::Hardware`] only where the processor has it (else the portable
/// count stays). On a target compiled with POPCNT, or another architecture, the count is the
/// compiler's either way and this returns `Hardware`.
pub fn select_popcount(path: PopcountPath) -> PopcountPath {
    let hardware = path == PopcountPath::Hardware && hardware_popcount_available();
    PATH.store(
        if hardware { HARDWARE } else { SOFTWARE },
        Ordering::Relaxed,
    );
    popcount_path()
}

/// The path [`popcount`] takes (choosing it, if no count or selection has yet).
pub fn popcount_path() -> PopcountPath {
    if cfg!(not(all(
        target_arch = "x86_64",
        not(target_feature = "popcnt")
    ))) {
        return PopcountPath::Hardware;
    }
    match PATH.load(Ordering::Relaxed) {
        HARDWARE => PopcountPath::Hardware,
        SOFTWARE => PopcountPath::Software,
        _ => {
            detect();
            popcount_path()
        }
    }
}

/// Chooses the path from the processor (first use only).
#[cold]
#[inline(never)]
fn detect() {
    let hardware = hardware_popcount_available();
    // A selection made meanwhile by another thread wins.
    let _ = PATH.compare_exchange(
        UNKNOWN,
        if hardware { HARDWARE } else { SOFTWARE },
        Ordering::Relaxed,
        Ordering::Relaxed,
    );
}

/// The number of set bits of `x`: POPCNT where the processor has it, else the portable count
/// (see the module documentation).
#[inline(always)]
pub fn popcount(x: u64) -> u32 {
    popcount_with(popcount_hardware(), x)
}

/// Whether [`popcount`] takes the POPCNT instruction (choosing the path on first use): read it
/// once before many counts and give it to [`popcount_with`], one check instead of one a count.
#[inline(always)]
pub fn popcount_hardware() -> bool {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    {
        match PATH.load(Ordering::Relaxed) {
            HARDWARE => true,
            UNKNOWN => first_choice(),
            _ => false,
        }
    }
    #[cfg(not(all(target_arch = "x86_64", not(target_feature = "popcnt"))))]
    {
        true
    }
}

/// The number of set bits of `x`, by POPCNT when `hardware` (which must come from
/// [`popcount_hardware`]), else by the portable count.
#[inline(always)]
pub fn popcount_with(hardware: bool, x: u64) -> u32 {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    if hardware {
        let count: u64;
        // SAFETY: `hardware` comes from `popcount_hardware`, true only where the processor
        // reported POPCNT (`select_popcount`, `detect`); the instruction reads and writes
        // registers only (and the flags, which the default options allow).
        unsafe {
            std::arch::asm!(
                "popcnt {count}, {x}",
                x = in(reg) x,
                count = lateout(reg) count,
                options(pure, nomem, nostack),
            );
        }
        return count as u32;
    }
    let _ = hardware;
    x.count_ones()
}

/// [`popcount_hardware`] before the path is chosen: chooses it.
#[cold]
#[inline(never)]
fn first_choice() -> bool {
    detect();
    popcount_path() == PopcountPath::Hardware
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_paths_count_every_bit_pattern_alike() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let words: Vec<u64> = (0..10_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            })
            .chain([0, 1, u64::MAX, 1 << 63, u64::MAX >> 1])
            .collect();
        let expected: Vec<u32> = words.iter().map(|w| w.count_ones()).collect();
        for path in [PopcountPath::Software, PopcountPath::Hardware] {
            let taken = select_popcount(path);
            let dispatching = cfg!(all(target_arch = "x86_64", not(target_feature = "popcnt")));
            if path == PopcountPath::Software && dispatching {
                assert_eq!(taken, PopcountPath::Software);
            }
            let counts: Vec<u32> = words.iter().map(|&w| popcount(w)).collect();
            assert_eq!(counts, expected, "{taken:?}");
        }
        assert_eq!(
            select_popcount(PopcountPath::Hardware) == PopcountPath::Hardware,
            hardware_popcount_available()
        );
    }
}
