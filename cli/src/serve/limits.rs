//! What keeps the server alive under load: the server-side caps of every search, the queue of
//! searches bounded by expected waiting time (503 with Retry-After beyond it), and the stop
//! flag raised when a request goes away.

use super::cost::{Costs, Kind};
use pdbsolver::Request;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;

/// The server-side caps that every request is clamped to.
#[derive(Clone, Debug)]
pub struct Caps {
    /// Searches that run at once (each on a blocking thread of its own).
    pub searches: usize,
    /// Requests that may wait for a search slot; beyond `searches + queue` the server answers 503.
    pub queue: usize,
    /// The longest a request may wait for a search slot: one expected to wait longer is
    /// answered 503 (with Retry-After) at once, and one that has waited that long is too.
    pub max_wait: Duration,
    /// How long a client may take to send its request's headers, or its body.
    pub client_timeout: Duration,
    /// Node limit of one search (a request may ask for less).
    pub max_nodes: u64,
    /// Time limit of one search (a request may ask for less).
    pub max_time: Duration,
    /// Memory limit of one search in bytes (A*, BFS and the hybrid's table).
    pub max_memory: u64,
    /// Threads of one `parallel-ida` search (and of a `hybrid` search's IDA* phase); a request
    /// naming no algorithm runs `parallel-ida` on them (`ida` when this is 1).
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

/// The queue in front of the searches, bounded by waiting time: a request is admitted when
/// the work already admitted (each request weighed by its expected cost, [`super::cost`])
/// would let it start within `max_wait`, and refused at once (503 with Retry-After) when not,
/// or when `queue` requests already wait. A request admitted on a guess that proves wrong
/// waits at most `max_wait` for its slot, then is refused too. Cheap searches (expected under
/// [`CHEAP`](super::cost::CHEAP) by their kind) have a lane of their own, so that they never
/// queue behind dear ones: each lane runs at most `searches` at once.
#[derive(Debug)]
pub struct Admission {
    /// The lane of cheap searches, then the lane of the others.
    lanes: [Lane; 2],
    searches: usize,
    capacity: usize,
    max_wait: Duration,
    /// What searches of each kind are expected to cost.
    pub costs: Arc<Costs>,
}

/// One lane: its slots, the requests admitted to it, and their expected work.
#[derive(Debug)]
struct Lane {
    slots: Arc<Semaphore>,
    admitted: Arc<AtomicUsize>,
    /// Expected microseconds of the searches admitted and not yet ended.
    work: Arc<AtomicU64>,
}

impl Lane {
    fn new(searches: usize) -> Lane {
        Lane {
            slots: Arc::new(Semaphore::new(searches)),
            admitted: Arc::new(AtomicUsize::new(0)),
            work: Arc::new(AtomicU64::new(0)),
        }
    }
}

/// A request's place in its lane and its share of the expected work, given back when
/// dropped (the search ended or the request went away while waiting).
#[derive(Debug)]
pub struct Ticket {
    slots: Arc<Semaphore>,
    admitted: Arc<AtomicUsize>,
    work: Arc<AtomicU64>,
    cost: u64,
    cheap: bool,
    entered: Instant,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.admitted.fetch_sub(1, Ordering::SeqCst);
        self.work.fetch_sub(self.cost, Ordering::SeqCst);
    }
}

/// Why a request was not admitted, and when to try again.
#[derive(Debug)]
pub struct Busy {
    /// What the request would have waited (or has waited) for a slot.
    pub wait: Duration,
    /// When the client may try again (the Retry-After header), in whole seconds.
    pub retry_after: u64,
}

impl Admission {
    /// A queue for `caps.searches` running searches per lane, bounded by `caps.max_wait` and
    /// by `caps.queue` waiting requests per lane.
    pub fn new(caps: &Caps) -> Admission {
        let searches = caps.searches.max(1);
        Admission {
            lanes: [Lane::new(searches), Lane::new(searches)],
            searches,
            capacity: searches + caps.queue,
            max_wait: caps.max_wait,
            costs: Arc::default(),
        }
    }

    /// The lane of cheap searches, or of the others.
    fn lane(&self, cheap: bool) -> &Lane {
        &self.lanes[usize::from(!cheap)]
    }

    /// The expected wait of a search arriving now in the cheap lane or the other: none while
    /// a slot of the lane is free, else the expected work admitted to it shared among its
    /// slots.
    pub fn expected_wait(&self, cheap: bool) -> Duration {
        let lane = self.lane(cheap);
        if lane.admitted.load(Ordering::SeqCst) < self.searches {
            return Duration::ZERO;
        }
        Duration::from_micros(lane.work.load(Ordering::SeqCst) / self.searches as u64)
    }

    /// A place in the queue for a search expected to cost `cost`, in the cheap lane (a search
    /// whose kind is expected to cost less than [`CHEAP`](super::cost::CHEAP)) or the other,
    /// or [`Busy`] when it would wait longer than the bound or the queue is full.
    pub fn enter(&self, cost: Duration, cheap: bool) -> Result<Ticket, Busy> {
        let wait = self.expected_wait(cheap);
        if wait > self.max_wait {
            return Err(self.busy(wait));
        }
        let lane = self.lane(cheap);
        let taken = lane
            .admitted
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.capacity).then_some(n + 1)
            });
        if taken.is_err() {
            return Err(self.busy(wait.max(self.max_wait)));
        }
        let micros = (cost.as_micros() as u64).max(1);
        lane.work.fetch_add(micros, Ordering::SeqCst);
        Ok(Ticket {
            slots: lane.slots.clone(),
            admitted: lane.admitted.clone(),
            work: lane.work.clone(),
            cost: micros,
            cheap,
            entered: Instant::now(),
        })
    }

    /// Waits for a search slot in the ticket's lane, at most the bound from the ticket's
    /// admission (the future is dropped, and its place given back, when the request goes away
    /// while waiting).
    pub async fn slot(&self, ticket: &Ticket) -> Result<OwnedSemaphorePermit, Busy> {
        let left = self.max_wait.saturating_sub(ticket.entered.elapsed());
        match tokio::time::timeout(left, ticket.slots.clone().acquire_owned()).await {
            Ok(permit) => Ok(permit.expect("the semaphore is never closed")),
            Err(_) => Err(self.busy(self.expected_wait(ticket.cheap).max(self.max_wait))),
        }
    }

    /// Waits for `ticket`'s slot (see [`Admission::slot`]), then runs `search` on a blocking
    /// thread that holds the slot and the ticket's place until the search has really ended,
    /// and records what it took as a search of `kind`.
    pub async fn run<T: Send + 'static>(
        &self,
        ticket: Ticket,
        kind: Kind,
        search: impl FnOnce() -> T + Send + 'static,
    ) -> Result<JoinHandle<T>, Busy> {
        let permit = self.slot(&ticket).await?;
        let costs = self.costs.clone();
        Ok(tokio::task::spawn_blocking(move || {
            let _held = (permit, ticket);
            let start = Instant::now();
            let out = search();
            costs.record(kind, start.elapsed());
            out
        }))
    }

    /// The answer to a request that would wait `wait`: try again once the queue has
    /// drained below the bound, in whole seconds, at least one.
    fn busy(&self, wait: Duration) -> Busy {
        let later = wait.saturating_sub(self.max_wait).as_secs_f64().ceil() as u64;
        Busy {
            wait,
            retry_after: later.clamp(1, 3600),
        }
    }

    /// Requests admitted now (running and waiting).
    pub fn admitted(&self) -> usize {
        self.lanes
            .iter()
            .map(|l| l.admitted.load(Ordering::SeqCst))
            .sum()
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.lanes
            .iter()
            .map(|l| self.searches - l.slots.available_permits())
            .sum()
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
            max_wait: Duration::from_secs(2),
            client_timeout: Duration::from_secs(10),
            max_nodes: 1000,
            max_time: Duration::from_secs(5),
            max_memory: 1 << 20,
            threads: 1,
            max_body: 1024,
            max_cells: 64,
        }
    }

    #[test]
    fn the_queue_is_bounded_by_count_and_places_come_back() {
        let a = Admission::new(&caps(2, 1));
        let cheap = Duration::from_micros(50);
        let t: Vec<Ticket> = (0..3)
            .map(|_| a.enter(cheap, true).expect("room for 3"))
            .collect();
        let busy = a
            .enter(cheap, true)
            .expect_err("a fourth request must be refused");
        assert!(busy.retry_after >= 1);
        assert_eq!(a.admitted(), 3);
        drop(t);
        assert_eq!(a.admitted(), 0);
        assert_eq!(a.expected_wait(true), Duration::ZERO);
        assert!(a.enter(cheap, true).is_ok());
    }

    #[test]
    fn dear_requests_are_refused_by_expected_wait_and_cheap_ones_keep_their_lane() {
        let a = Admission::new(&caps(2, 4096));
        // A hundred searches of 10 ms each: half a second of work for two slots.
        let some: Vec<Ticket> = (0..100)
            .map(|_| a.enter(Duration::from_millis(10), false).expect("admitted"))
            .collect();
        let dear = Duration::from_secs(3);
        assert_eq!(a.expected_wait(false), Duration::from_millis(500));
        // Two searches of 3 s each still start within the bound of 2 s...
        let two: Vec<Ticket> = (0..2)
            .map(|_| a.enter(dear, false).expect("within"))
            .collect();
        // ...but then the expected wait is 3.5 s: refused, to come back in 2 s.
        let busy = a
            .enter(Duration::from_millis(10), false)
            .expect_err("beyond the bound");
        assert_eq!(busy.wait, Duration::from_millis(3500));
        assert_eq!(busy.retry_after, 2);
        // Cheap searches do not wait behind them.
        let cheap = Duration::from_micros(100);
        assert_eq!(a.expected_wait(true), Duration::ZERO);
        let many: Vec<Ticket> = (0..1000)
            .map(|_| a.enter(cheap, true).expect("cheap"))
            .collect();
        assert_eq!(a.expected_wait(true), Duration::from_millis(50));
        drop(two);
        assert!(a.enter(Duration::from_millis(10), false).is_ok());
        drop((some, many));
        assert_eq!(a.admitted(), 0);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn no_request_waits_for_a_slot_longer_than_the_bound() {
        let a = Admission::new(&Caps {
            max_wait: Duration::from_millis(100),
            ..caps(1, 8)
        });
        // A search admitted on a guess of 1 ms that really takes long holds the only slot.
        let first = a.enter(Duration::from_millis(1), true).unwrap();
        let _running = a.slot(&first).await.expect("a free slot");
        let second = a
            .enter(Duration::from_millis(1), true)
            .expect("expected to start soon");
        let start = Instant::now();
        let busy = a
            .slot(&second)
            .await
            .expect_err("the slot never comes free");
        assert!(start.elapsed() >= Duration::from_millis(100));
        assert!(busy.retry_after >= 1);
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
