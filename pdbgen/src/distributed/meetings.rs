//! Meetings: when the ranks stop expanding to exchange. A rank with a full outbox calls the
//! others with a one-byte message on a communicator of its own; a rank still expanding
//! probes for such a call after each batch and joins; a rank whose slice is done arrives
//! without calling. At the meeting one small reduction decides how many pieces to exchange
//! and whether any rank has work left, and at each level's end one sum counts what the level
//! reached. Ranks waiting for slower ones sleep between tests rather than poll.

use mpi::collective::SystemOperation;
use mpi::request::{Request, Scope};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::{Rank, Tag};
use std::time::Duration;

/// Why a rank arrives at a meeting (the tag of its message to the others).
#[derive(Clone, Copy)]
pub(super) enum Signal {
    /// An outbox of this rank holds a full share: the others join at once.
    Full = 1,
    /// This rank has expanded its whole slice for the level: the others join when they are
    /// full or done themselves.
    Done = 2,
    /// Another rank asked to meet.
    Joined = 3,
}

/// The meetings of the ranks of one table's BFS.
pub(super) struct Meetings<'w> {
    world: &'w SimpleCommunicator,
    /// A duplicate of `world` for the messages that call the ranks to a meeting, kept apart
    /// from every other message of the job.
    signals: SimpleCommunicator,
    ranks: usize,
}

impl<'w> Meetings<'w> {
    /// The meetings of the ranks of `world` (a collective call: every rank makes it).
    pub fn new(world: &'w SimpleCommunicator) -> Meetings<'w> {
        Meetings {
            world,
            signals: world.duplicate(),
            ranks: world.size() as usize,
        }
    }

    /// Whether another rank has an outbox holding a full share and waits at the meeting (its
    /// [`Signal::Full`] is here): this rank then joins it at once instead of expanding on.
    pub fn asked_to_meet(&self) -> bool {
        self.ranks > 1
            && self
                .signals
                .any_process()
                .immediate_probe_with_tag(Signal::Full as Tag)
                .is_some()
    }

    /// Arrives at a meeting: tells every other rank why (one small message each, tagged with
    /// `why`), then waits, asleep, until every other rank has arrived too (its message is
    /// here). Every rank sends exactly one message to every other per meeting and cannot
    /// send the next one before this meeting's reduction, so the message of each rank that
    /// is waiting here is the first one from it.
    pub fn arrive(&self, why: Signal) {
        let me = self.world.rank() as usize;
        for r in (0..self.ranks).filter(|&r| r != me) {
            self.signals
                .process_at_rank(r as Rank)
                .send_with_tag(&0u8, why as Tag);
        }
        let mut missing: Vec<usize> = (0..self.ranks).filter(|&r| r != me).collect();
        let mut nap = Duration::from_micros(20);
        loop {
            missing.retain(|&r| {
                let from = self.signals.process_at_rank(r as Rank);
                if from.immediate_probe().is_none() {
                    return true;
                }
                let _ = from.receive::<u8>();
                false
            });
            if missing.is_empty() {
                return;
            }
            std::thread::sleep(nap);
            nap = (nap * 2).min(Duration::from_millis(1));
        }
    }

    /// Meets the other ranks once all have arrived ([`Self::arrive`]): decides with them, in
    /// one reduction, how many pieces to exchange now (the most any rank needs, `pieces` here,
    /// to empty its outboxes) and whether any rank still has work units to expand (this one
    /// has not if `done`).
    pub fn meet(&self, pieces: usize, done: bool) -> (usize, bool) {
        let mine = [pieces as u64, !done as u64];
        let mut all = [0u64; 2];
        mpi::request::scope(|scope| {
            let req = self.world.immediate_all_reduce_into(
                scope,
                &mine[..],
                &mut all[..],
                SystemOperation::max(),
            );
            idle_wait(req);
        });
        (all[0] as usize, all[1] != 0)
    }

    /// The sum of `x` over every rank.
    pub fn sum(&self, x: u64) -> u64 {
        let mut total = 0u64;
        mpi::request::scope(|scope| {
            let req =
                self.world
                    .immediate_all_reduce_into(scope, &x, &mut total, SystemOperation::sum());
            idle_wait(req);
        });
        total
    }
}

/// Waits for `req` to finish, sleeping between tests (20 µs at first, doubling up to 1 ms): a
/// rank that waits at a meeting for slower ones leaves the processor to them, and to the
/// machine's other work, instead of polling as blocking MPI calls do. Only the small
/// reductions wait this way; the exchanges themselves, which both sides enter together, block
/// (a large transfer progresses only while MPI is called).
fn idle_wait<'a, D: ?Sized, S: Scope<'a>>(mut req: Request<'a, D, S>) {
    let mut nap = Duration::from_micros(20);
    loop {
        match req.test() {
            Ok(_) => return,
            Err(r) => req = r,
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(1));
    }
}
