//! What stops a search early: [`Limits`] (nodes, time, memory) as a caller sets them, and
//! the [`Clock`] that every search checks them (and the interrupt flag) with.

use super::Stop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Limits that stop a search early. Every algorithm honours all three (a search that holds
/// nothing but its path never reaches a memory limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after generating this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this much time (checked every 1,024 nodes).
    pub timeout: Option<Duration>,
    /// Stop (cleanly) before the estimated memory of the search would exceed this many bytes;
    /// BFS refuses to start when the whole state space would not fit. `None`: half the
    /// available memory ([`Limits::memory_limit`]).
    pub max_memory: Option<u64>,
}

impl Limits {
    /// The memory limit in bytes: the one given, or half of the available memory
    /// (`MemAvailable`, [`pdbformat::system::available_memory`]; 4 GiB when it cannot be read).
    pub fn memory_limit(&self) -> u64 {
        self.max_memory.unwrap_or_else(|| {
            pdbformat::system::available_memory()
                .map(|b| b / 2)
                .unwrap_or(4 << 30)
        })
    }
}

/// Node, time and abort checks shared by the searches: cheap enough for every node.
#[derive(Clone, Debug)]
pub(crate) struct Clock {
    pub(crate) t0: Instant,
    deadline: Option<Instant>,
    pub(crate) max_nodes: u64,
    interrupt: Option<Arc<AtomicBool>>,
}

impl Clock {
    /// The clock for `limits`, started now.
    pub(crate) fn new(limits: &Limits) -> Clock {
        let t0 = Instant::now();
        Clock {
            t0,
            deadline: limits.timeout.map(|d: Duration| t0 + d),
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            interrupt: None,
        }
    }

    /// The clock of `limits` that also stops at the `interrupt` flag, started now.
    pub(crate) fn with_interrupt(limits: &Limits, interrupt: Option<Arc<AtomicBool>>) -> Clock {
        Clock {
            interrupt,
            ..Clock::new(limits)
        }
    }

    /// The same clock with the deadline moved earlier to `at` (when it is earlier).
    pub(crate) fn until(&self, at: Instant) -> Clock {
        Clock {
            deadline: Some(self.deadline.map_or(at, |d| d.min(at))),
            ..self.clone()
        }
    }

    /// Whether a limit stops the search before generating node number `nodes + 1`; the
    /// time is read every 1,024 nodes.
    #[inline(always)]
    pub(crate) fn check(&self, nodes: u64) -> Option<Stop> {
        if nodes >= self.max_nodes {
            return Some(Stop::Nodes);
        }
        if nodes & 0x3FF == 0 {
            return self.time_up();
        }
        None
    }

    /// Whether the interrupt flag is set or the deadline has passed.
    pub(crate) fn time_up(&self) -> Option<Stop> {
        if let Some(i) = &self.interrupt {
            if i.load(Ordering::Relaxed) {
                return Some(Stop::Interrupted);
            }
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => Some(Stop::Time),
            _ => None,
        }
    }

    /// Seconds since the start.
    pub(crate) fn seconds(&self) -> f64 {
        self.t0.elapsed().as_secs_f64()
    }
}
