//! What keeps the server alive under load: the server-side caps of every search, the bounded
//! queue of searches (503 beyond it), and the stop flag raised when a request goes away.

use pdbsolver::Request;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The server-side caps that every request is clamped to.
#[derive(Clone, Debug)]
pub struct Caps {
    /// Searches that run at once (each on a blocking thread of its own).
    pub searches: usize,
    /// Requests that may wait for a search slot; beyond `searches + queue` the server answers 503.
    pub queue: usize,
    /// Node limit of one search (a request may ask for less).
    pub max_nodes: u64,
    /// Time limit of one search (a request may ask for less).
    pub max_time: Duration,
    /// Memory limit of one search in bytes (A*, BFS and the hybrid's table).
    pub max_memory: u64,
    /// Threads of one `parallel-ida` search (and of a `hybrid` search's IDA* phase).
    pub threads: usize,
    /// Largest request body in bytes (413 beyond it).
    pub max_body: usize,
    /// Largest board in cells (422 beyond it): the `strategic` algorithm solves boards of any
    /// size, and its solutions grow with the cube of the side.
    pub max_cells: usize,
}

impl Caps {
    /// The node limit of a request: what it asked for, at most the cap.
    pub fn nodes(&self, asked: Option<u64>) -> u64 {
        asked.map_or(self.max_nodes, |n| n.min(self.max_nodes))
    }

    /// The time limit of a request in seconds: what it asked for, at most the cap.
    pub fn seconds(&self, asked: Option<f64>) -> f64 {
        let cap = self.max_time.as_secs_f64();
        asked.map_or(cap, |t| t.min(cap))
    }

    /// Clamps the limits of request `r` to the caps: its nodes and time at most the caps,
    /// its memory the cap.
    pub fn clamp(&self, r: &mut Request) {
        r.max_nodes = Some(self.nodes(r.max_nodes));
        r.timeout = Some(self.seconds(r.timeout));
        r.max_memory = Some(self.max_memory);
    }
}

/// The bounded queue in front of the searches: at most `searches` run at once and at most
/// `queue` more wait for a slot; a request beyond that is refused at once (503) instead of
/// piling up.
#[derive(Debug)]
pub struct Admission {
    slots: Arc<Semaphore>,
    admitted: Arc<AtomicUsize>,
    capacity: usize,
}

/// A request's place in the queue, given back when dropped (the search ended or the request
/// went away while waiting).
#[derive(Debug)]
pub struct Ticket {
    admitted: Arc<AtomicUsize>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.admitted.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Admission {
    /// A queue for `caps.searches` running and `caps.queue` waiting searches.
    pub fn new(caps: &Caps) -> Admission {
        Admission {
            slots: Arc::new(Semaphore::new(caps.searches.max(1))),
            admitted: Arc::new(AtomicUsize::new(0)),
            capacity: caps.searches.max(1) + caps.queue,
        }
    }

    /// A place in the queue, or `None` when it is full.
    pub fn enter(&self) -> Option<Ticket> {
        let taken = self
            .admitted
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.capacity).then_some(n + 1)
            });
        taken.ok().map(|_| Ticket {
            admitted: self.admitted.clone(),
        })
    }

    /// Waits for a search slot (the future is dropped, and its place given back, when the
    /// request goes away while waiting).
    pub async fn slot(&self) -> OwnedSemaphorePermit {
        self.slots
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed")
    }

    /// Requests admitted now (running and waiting).
    pub fn admitted(&self) -> usize {
        self.admitted.load(Ordering::SeqCst)
    }

    /// Searches running now.
    pub fn running(&self, caps: &Caps) -> usize {
        caps.searches.max(1) - self.slots.available_permits()
    }
}

/// Raises a search's stop flag when dropped: held by the request's future, so that the search
/// on its blocking thread stops (within 1,024 nodes) once the client has gone away and the
/// future is dropped. After a normal end raising it changes nothing.
#[derive(Debug)]
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl StopOnDrop {
    /// A new flag and its guard.
    pub fn new() -> StopOnDrop {
        StopOnDrop(Arc::new(AtomicBool::new(false)))
    }

    /// The flag, for [`pdbsolver::Search::interrupt`].
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(searches: usize, queue: usize) -> Caps {
        Caps {
            searches,
            queue,
            max_nodes: 1000,
            max_time: Duration::from_secs(5),
            max_memory: 1 << 20,
            threads: 1,
            max_body: 1024,
            max_cells: 64,
        }
    }

    #[test]
    fn queue_is_bounded_and_places_come_back() {
        let a = Admission::new(&caps(2, 1));
        let t: Vec<Ticket> = (0..3).map(|_| a.enter().expect("room for 3")).collect();
        assert!(a.enter().is_none(), "a fourth request must be refused");
        assert_eq!(a.admitted(), 3);
        drop(t);
        assert_eq!(a.admitted(), 0);
        assert!(a.enter().is_some());
    }

    #[test]
    fn limits_are_clamped_to_the_caps() {
        let c = caps(1, 0);
        assert_eq!(c.nodes(None), 1000);
        assert_eq!(c.nodes(Some(10)), 10);
        assert_eq!(c.nodes(Some(u64::MAX)), 1000);
        assert_eq!(c.seconds(Some(1.0)), 1.0);
        assert_eq!(c.seconds(Some(99.0)), 5.0);
        let mut r = Request {
            max_nodes: Some(u64::MAX),
            timeout: Some(99.0),
            ..Request::default()
        };
        c.clamp(&mut r);
        assert_eq!(r.max_nodes, Some(1000));
        assert_eq!(r.timeout, Some(5.0));
        assert_eq!(r.max_memory, Some(c.max_memory));
    }

    #[test]
    fn dropping_the_guard_raises_the_flag() {
        let g = StopOnDrop::new();
        let f = g.flag();
        assert!(!f.load(Ordering::SeqCst));
        drop(g);
        assert!(f.load(Ordering::SeqCst));
    }
}
