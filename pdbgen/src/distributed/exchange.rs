//! The exchange of one table's BFS on a rank: the workers' outboxes, one per worker and
//! owner, filled while the slice is expanded, and the bounded all-to-all pieces that empty them
//! at each meeting: neighbours pushed to their owners to claim, or (pull) asked of them, one
//! byte back per query.

use super::meetings::{Meetings, Signal};
use super::ownership::Ownership;
use super::wire::Wire;
use crate::pool::WorkerPool;
use crate::slice::{LevelTable, Slice};
use mpi::datatype::{Equivalence, Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Indices one rank receives at most per exchange piece (64 MiB of `u64`): each owner gets at
/// most `EXCHANGE_ENTRIES / ranks` of them from each rank (at least [`MIN_PER_OWNER`]).
const EXCHANGE_ENTRIES: usize = 1 << 23;

/// The smallest per-owner share of a piece, so that a job of many ranks does not exchange
/// tiny messages.
const MIN_PER_OWNER: usize = 1 << 16;

/// Tuning of a distributed build.
#[derive(Clone, Copy, Debug, Default)]
pub struct DistributedOptions {
    /// Indices each rank sends each owner per exchange piece (`None`: `2^23 / ranks`, at least
    /// 2^16). Smaller bounds the buffers tighter and makes the ranks meet more
    /// often.
    pub per_owner: Option<usize>,
    /// Send offsets in 8 bytes even where every slice's fit 4 (to test the path that tables
    /// of more than 2^32 entries per rank take).
    pub wide_offsets: bool,
}

impl DistributedOptions {
    /// Indices each rank sends each owner per piece on a job of `ranks` ranks.
    pub(super) fn share(&self, ranks: usize) -> usize {
        self.per_owner
            .unwrap_or_else(|| (EXCHANGE_ENTRIES / ranks.max(1)).max(MIN_PER_OWNER))
            .max(1)
    }
}

/// One worker's outboxes: per owner, the offsets to send it (push: neighbours to claim; pull:
/// neighbours to look at) and, for pull, the offset in this rank's slice of the entry that
/// asks each query. Kept from batch to batch and level to level (their memory is reused).
struct Outbox<W> {
    queries: Vec<Vec<W>>,
    askers: Vec<Vec<W>>,
}

impl<W: Wire> Outbox<W> {
    fn new(ranks: usize) -> Outbox<W> {
        Outbox {
            queries: vec![Vec::new(); ranks],
            askers: vec![Vec::new(); ranks],
        }
    }

    fn clear(&mut self) {
        self.queries.iter_mut().for_each(Vec::clear);
        self.askers.iter_mut().for_each(Vec::clear);
    }
}

/// The per-level traffic between the ranks: one outbox per worker thread and owner, filled by
/// the expansion in place, and the bounded all-to-all exchanges that empty them through one
/// send and one receive buffer. Every buffer lives as long as the table's BFS.
pub(super) struct Exchange<'w, W> {
    world: &'w SimpleCommunicator,
    /// When the ranks stop expanding to exchange, and the sums that end a level.
    meetings: Meetings<'w>,
    pool: &'w WorkerPool,
    own: Ownership,
    ranks: usize,
    per_owner: usize,
    /// One outbox per work unit of a batch (one per worker thread).
    outboxes: Vec<Outbox<W>>,
    /// What one worker's outbox may hold for one owner before the ranks meet: the share
    /// divided among the workers, so that all of them together hold at most a share per
    /// owner plus one batch's output.
    per_worker: usize,
    /// One piece as sent (every owner's part in rank order) and as received.
    send: Vec<W>,
    recv: Vec<W>,
    /// Pull: the answers to the queries received, and those to this rank's queries.
    answers: Vec<u8>,
    answered: Vec<u8>,
    /// Bytes this rank sent to the others, per level.
    sent: Vec<u64>,
    /// Time this rank spent at meetings and level ends waiting for the others, and in the
    /// exchanges themselves (sending, receiving, claiming and answering).
    waited: Duration,
    exchanging: Duration,
}

impl<'w, W: Wire> Exchange<'w, W> {
    /// The exchange of one table's BFS over the ranks of `world`, who own `own`'s slices:
    /// one outbox per each of the `workers` threads of `pool` and owner, pieces as `opts`
    /// sets them (a collective call: every rank makes it).
    pub fn new(
        world: &'w SimpleCommunicator,
        own: &Ownership,
        pool: &'w WorkerPool,
        workers: usize,
        opts: DistributedOptions,
    ) -> Exchange<'w, W> {
        let ranks = world.size() as usize;
        let per_owner = opts.share(ranks);
        // Buffers given to MPI always own an allocation: an empty `Vec`'s dangling pointer
        // (e.g. 0x1 for bytes) may read as `MPI_IN_PLACE`; they are only ever cleared or
        // resized, never shrunk.
        Exchange {
            world,
            meetings: Meetings::new(world),
            pool,
            own: own.clone(),
            ranks,
            per_owner,
            outboxes: (0..workers).map(|_| Outbox::new(ranks)).collect(),
            per_worker: per_owner.div_ceil(workers),
            send: Vec::with_capacity(1),
            recv: Vec::with_capacity(1),
            answers: Vec::with_capacity(1),
            answered: Vec::with_capacity(1),
            sent: Vec::new(),
            waited: Duration::ZERO,
            exchanging: Duration::ZERO,
        }
    }

    /// Ends the table's exchanges: the bytes this rank sent at each level, and the seconds it
    /// waited for the others and spent in the exchanges.
    pub fn into_traffic(self) -> (Vec<u64>, [f64; 2]) {
        let times = [self.waited.as_secs_f64(), self.exchanging.as_secs_f64()];
        (self.sent, times)
    }

    /// One level on this rank: expands (push) or fills (pull) its slice a batch of work units
    /// at a time, one unit per worker. Neighbours owned elsewhere go into the worker's outbox
    /// for their owner, as offsets in the owner's slice (pull: with the asking entry beside
    /// each). The ranks meet whenever one of them holds a full share for an owner (the others
    /// join after their current batch) or once every rank has finished its slice or been
    /// called, and empty every outbox in bounded pieces. The level ends on every rank at once:
    /// returns the entries all the ranks claimed, summed.
    pub fn level<T: LevelTable, A: Fn(usize, u8) -> bool + Sync>(
        &mut self,
        slice: &Slice<'_, T, A>,
        depth: u8,
        pull: bool,
        report: &(dyn Fn(u64) + Sync),
    ) -> u64 {
        self.sent.push(0);
        let mut claimed = 0u64;
        let mut next = 0;
        let units = slice.chunks();
        let start = slice.owned().start;
        loop {
            // Expand without waiting for the others until an outbox holds a full share or the
            // slice is done: the ranks meet only then.
            let done = loop {
                let batch = &units[next..(next + self.outboxes.len()).min(units.len())];
                next += batch.len();
                let own = &self.own;
                let outboxes = &mut self.outboxes[..batch.len()];
                claimed += self.pool.run(|| {
                    batch
                        .par_iter()
                        .zip(outboxes.par_iter_mut())
                        .map(|(sets, out)| {
                            let work = if pull {
                                slice.pull(sets.clone(), depth, &mut |i, others| {
                                    let asker = W::from_offset(i - start);
                                    for &n in others {
                                        let (o, at) = own.split(n);
                                        out.queries[o].push(W::from_offset(at));
                                        out.askers[o].push(asker);
                                    }
                                })
                            } else {
                                slice.push(sets.clone(), depth, &mut |n| {
                                    let (o, at) = own.split(n);
                                    out.queries[o].push(W::from_offset(at));
                                })
                            };
                            report(work.scanned);
                            work.claimed
                        })
                        .sum::<u64>()
                });
                if next == units.len() {
                    break true;
                }
                if self.full() || self.meetings.asked_to_meet() {
                    break false;
                }
            };
            let waiting = Instant::now();
            self.meetings.arrive(if done {
                Signal::Done
            } else if self.full() {
                Signal::Full
            } else {
                Signal::Joined
            });
            let longest = (0..self.ranks).map(|o| self.queued(o)).max().unwrap_or(0);
            let (pieces, busy) = self.meetings.meet(longest.div_ceil(self.per_owner), done);
            self.waited += waiting.elapsed();
            let exchanging = Instant::now();
            for piece in 0..pieces {
                claimed += if pull {
                    self.ask(slice, depth, piece)
                } else {
                    self.deliver(slice, depth, piece)
                };
            }
            self.exchanging += exchanging.elapsed();
            if pieces > 0 {
                self.outboxes.iter_mut().for_each(Outbox::clear);
            }
            if !busy {
                break;
            }
        }
        let waiting = Instant::now();
        let total = self.meetings.sum(claimed);
        self.waited += waiting.elapsed();
        total
    }

    /// Whether some owner's outboxes hold a full share, or one worker's its part of one.
    fn full(&self) -> bool {
        (0..self.ranks).any(|o| {
            let mut total = 0;
            for out in &self.outboxes {
                let n = out.queries[o].len();
                if n >= self.per_worker {
                    return true;
                }
                total += n;
            }
            total >= self.per_owner
        })
    }

    /// Indices queued for owner `o`, in all the outboxes.
    fn queued(&self, o: usize) -> usize {
        self.outboxes.iter().map(|out| out.queries[o].len()).sum()
    }

    /// The runs of piece `piece` of owner `o`'s queue (the workers' outboxes one after the
    /// other, `per_owner` items a piece), taken from the queries or, with `askers`, from the
    /// asking entries beside them.
    fn runs(&self, o: usize, piece: usize, askers: bool) -> impl Iterator<Item = &[W]> {
        let (lo, hi) = (piece * self.per_owner, (piece + 1) * self.per_owner);
        let mut at = 0;
        self.outboxes.iter().filter_map(move |out| {
            let v = if askers {
                &out.askers[o]
            } else {
                &out.queries[o]
            };
            let (a, b) = (at, at + v.len());
            at = b;
            let (a, b) = (lo.max(a) - a, hi.min(b).saturating_sub(a));
            (a < b).then(|| &v[a..b])
        })
    }

    /// Copies piece `piece` of every owner's queue into the send buffer, in rank order;
    /// returns the counts per owner.
    fn pack(&mut self, piece: usize) -> Vec<Count> {
        let mut send = std::mem::take(&mut self.send);
        send.clear();
        let mut counts = Vec::with_capacity(self.ranks);
        for o in 0..self.ranks {
            let before = send.len();
            for run in self.runs(o, piece, false) {
                send.extend_from_slice(run);
            }
            counts.push(count(send.len() - before));
        }
        self.send = send;
        counts
    }

    /// Sends piece `piece` of the outboxes to their owners and receives the others' into
    /// `self.recv`, counting `bytes` sent per offset. Returns the counts sent to and received
    /// from each rank.
    fn send_piece(&mut self, piece: usize, bytes: u64) -> (Vec<Count>, Vec<Count>) {
        let counts = self.pack(piece);
        self.count_sent(bytes);
        let recv_counts = exchange_counts(self.world, &counts);
        all_to_all_v(
            self.world,
            &self.send,
            &counts,
            &recv_counts,
            &mut self.recv,
        );
        (counts, recv_counts)
    }

    /// Push: sends piece `piece` of the outboxes (neighbours of this rank's frontier) to
    /// their owners and claims with `depth + 1` what the others sent here. Returns the
    /// entries claimed.
    fn deliver<T: LevelTable, A: Fn(usize, u8) -> bool + Sync>(
        &mut self,
        slice: &Slice<'_, T, A>,
        depth: u8,
        piece: usize,
    ) -> u64 {
        self.send_piece(piece, W::BYTES);
        let received = &self.recv;
        self.pool.run(|| {
            received
                .par_chunks(1 << 14)
                .map(|c| slice.claim_received(c, depth + 1))
                .sum::<u64>()
        })
    }

    /// Pull: asks the owners whether the neighbours of piece `piece` are at `depth` (one
    /// byte back each, in the order asked), answers the others' questions the same way, and
    /// claims with `depth + 1` each asking entry that got a yes. Returns the entries claimed.
    fn ask<T: LevelTable, A: Fn(usize, u8) -> bool + Sync>(
        &mut self,
        slice: &Slice<'_, T, A>,
        depth: u8,
        piece: usize,
    ) -> u64 {
        // A query is an offset out and a byte back.
        let (counts, recv_counts) = self.send_piece(piece, W::BYTES + 1);
        let start = slice.owned().start;
        let (asked, answers) = (&self.recv, &mut self.answers);
        answers.resize(asked.len(), 0);
        self.pool.run(|| {
            asked
                .par_chunks(1 << 14)
                .zip(answers.par_chunks_mut(1 << 14))
                .for_each(|(c, out)| {
                    for (k, (&n, a)) in c.iter().zip(out.iter_mut()).enumerate() {
                        if let Some(&ahead) = c.get(k + 16) {
                            slice.prefetch(start + ahead.into());
                        }
                        *a = slice.neighbour_at(start + n.into(), depth) as u8;
                    }
                })
        });
        // The answers go back the way the queries came: the counts are known on both sides.
        let mut answered = std::mem::take(&mut self.answered);
        all_to_all_v(
            self.world,
            &self.answers,
            &recv_counts,
            &counts,
            &mut answered,
        );
        let mut claimed = 0;
        let mut yes = answered.iter();
        for o in 0..self.ranks {
            for run in self.runs(o, piece, true) {
                for (&i, &y) in run.iter().zip(yes.by_ref()) {
                    claimed += (y == 1 && slice.claim(start + i.into(), depth + 1)) as u64;
                }
            }
        }
        self.answered = answered;
        claimed
    }

    /// Adds `bytes_each` per item of the send buffer to this level's traffic.
    fn count_sent(&mut self, bytes_each: u64) {
        *self.sent.last_mut().expect("a level is running") += self.send.len() as u64 * bytes_each;
    }
}

/// `n` items as an MPI count: every part of a piece is far below 2^31 items (a piece is
/// bounded by [`EXCHANGE_ENTRIES`]).
fn count(n: usize) -> Count {
    Count::try_from(n).expect("exchange pieces are bounded far below 2^31")
}

/// How many items every rank sends here, given how many this rank sends each (one
/// `MPI_Alltoall`).
fn exchange_counts(world: &SimpleCommunicator, send_counts: &[Count]) -> Vec<Count> {
    let mut recv_counts = vec![0 as Count; send_counts.len()];
    world.all_to_all_into(send_counts, &mut recv_counts[..]);
    recv_counts
}

/// One all-to-all exchange (`MPI_Alltoallv`): `send` holds, in rank order, `send_counts[r]`
/// items for rank `r`; `recv` is resized to what every rank sends here (`recv_counts[r]`
/// from rank `r`) and receives it in rank order. `send` and `recv` must own an allocation
/// even when empty (see [`Exchange::new`]).
fn all_to_all_v<T: Equivalence + Copy + Default>(
    world: &SimpleCommunicator,
    send: &[T],
    send_counts: &[Count],
    recv_counts: &[Count],
    recv: &mut Vec<T>,
) {
    let displs = |counts: &[Count]| -> Vec<Count> {
        counts
            .iter()
            .scan(0, |acc, &c| {
                let d = *acc;
                *acc += c;
                Some(d)
            })
            .collect()
    };
    let received: usize = recv_counts.iter().map(|&c| c as usize).sum();
    recv.resize(received, T::default());
    let sdispl = displs(send_counts);
    let rdispl = displs(recv_counts);
    let p = Partition::new(send, send_counts, &sdispl[..]);
    let mut q = PartitionMut::new(&mut recv[..], recv_counts, &rdispl[..]);
    world.all_to_all_varcount_into(&p, &mut q);
}
