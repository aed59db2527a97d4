//! The worker threads of a build or a check: a rayon pool of the requested size, or rayon's
//! global pool (one thread per core, or as `RAYON_NUM_THREADS` says).

use rayon::{ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder};

/// The worker threads of one process: a pool of the requested size, or rayon's global pool.
pub(crate) struct WorkerPool(Option<ThreadPool>);

impl WorkerPool {
    /// A pool of `threads` workers (at least one), or the global pool for `None`.
    pub fn new(threads: Option<usize>) -> Result<WorkerPool, ThreadPoolBuildError> {
        Ok(WorkerPool(match threads {
            None => None,
            Some(n) => Some(ThreadPoolBuilder::new().num_threads(n.max(1)).build()?),
        }))
    }

    /// Runs `f` (which may use rayon's parallel iterators) on the pool's threads.
    pub fn run<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        match &self.0 {
            Some(p) => p.install(f),
            None => f(),
        }
    }
}

/// The worker threads a request for `threads` gets: that many (at least one), or one per
/// thread of the global pool for `None`.
pub(crate) fn worker_threads(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(rayon::current_num_threads).max(1)
}

/// Runs `f` in a pool of `threads` workers (the global pool when `None`).
pub(crate) fn in_pool<T: Send, E: From<ThreadPoolBuildError> + Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> Result<T, E> + Send,
) -> Result<T, E> {
    WorkerPool::new(threads)?.run(f)
}
