//! How many threads a search may run: the cores of this process, and the most a search may
//! ask for.

/// The most threads a search may ask for.
pub const MAX_THREADS: usize = 4096;

/// The cores this process may use (1 when unknown).
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Whether `n` threads may be started ([`MAX_THREADS`] at most; 0 is one per core).
pub(crate) fn check_threads(n: usize) -> Result<(), String> {
    if n > MAX_THREADS {
        return Err(format!("{n} threads is too many (at most {MAX_THREADS})"));
    }
    Ok(())
}
