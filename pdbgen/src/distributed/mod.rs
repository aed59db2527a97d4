//! The distributed build: the BFS across the ranks of an MPI job (`mpirun -np N pdbgen build
//! --distributed`), each rank owning one contiguous slice of every table's index range, held
//! at the single-process build's bits per entry: two (the two-bit BFS of [`crate::twobit`])
//! when the output is `bit1`, a byte otherwise.
//!
//! Every level runs the same per-slice code as the single-process build ([`crate::slice`])
//! under the same level loop ([`crate::levels::run_levels`]): each rank expands its slice in
//! batches of work units; neighbours owned elsewhere go into one outbox per owner, which is
//! sent in bounded all-to-all exchanges (at most 2^23 indices received per rank and piece,
//! counts well under 2^31) and claimed by their owner; an index travels as its offset in its
//! owner's slice, in 4 bytes where the slices allow. A rank whose outbox is full calls the
//! others to a meeting with a small message, and they join after their current batch. Pull
//! levels send each owner the neighbours to look at and get one byte back per neighbour. A
//! sum over all ranks decides when the BFS ends. A rank that waits for slower ones at a
//! meeting sleeps between tests rather than polling, leaving the processor to them. Rank 0
//! then streams every slice, in rank order, through the file writer (which hashes and
//! compresses as it goes), so no rank ever holds a whole table, and renames the file into
//! place only after every rank has delivered its slice.
//!
//! `docs/DISTRIBUTED.md` describes the design and the memory and traffic of a large build.
//!
//! One concept per file: [`ownership`] (who owns which entries), [`plan`] (the plan and the
//! memory check), [`build`] (each table's BFS on this rank, then the file), [`exchange`] (the
//! outboxes and the bounded all-to-all pieces), [`meetings`] (when the ranks stop to
//! exchange, and the sums that end a level), [`wire`] (offsets in 4 or 8 bytes) and
//! [`stream`] (the slices streamed to rank 0 into the file).

mod build;
mod exchange;
mod meetings;
mod ownership;
mod plan;
mod stream;
mod wire;

pub use build::{build_file_distributed, DistributedTable};
pub use exchange::DistributedOptions;
pub use plan::{check_rank_memory, plan_distributed, DistributedPlan};
