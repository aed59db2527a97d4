//! Streaming to rank 0: once every table is built, rank 0 writes the file through the
//! streaming writer, its own slice of each table first and then every other rank's in rank
//! order, in bounded messages, so that no rank ever holds a whole table.

use super::ownership::Ownership;
use crate::build::EncodedOrRaw;
use crate::error::BuildError;
use crate::observer::{BuildObserver, TableSummary};
use crate::request::BuildRequest;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use pdbformat::format::{write_pdb_streamed, TableShape};
use pdbformat::TableKind;
use std::io::{self, Write};
use std::path::Path;

/// Bytes per message of the slices streamed to rank 0 for the file.
pub(super) const STREAM_BYTES: usize = 64 << 20;

/// Writes the file: rank 0 streams its own slice of each table, then every other rank's in
/// rank order (received in messages of at most [`STREAM_BYTES`]), through the file writer;
/// the other ranks send theirs. The file is renamed into place only once every slice has
/// arrived; then every rank learns whether rank 0 succeeded. `obs` hears of the bytes
/// written (rank 0) or sent (the others).
pub(super) fn write_slices(
    req: &BuildRequest,
    path: &Path,
    world: &SimpleCommunicator,
    slices: &[(EncodedOrRaw, TableSummary, Ownership)],
    obs: &dyn BuildObserver,
) -> Result<(), BuildError> {
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let root = world.process_at_rank(0);
    if rank == 0 {
        let shapes: Vec<TableShape<'_>> = slices
            .iter()
            .map(|(_, s, _)| TableShape {
                kind: TableKind::ZeroAware,
                pattern: &s.pattern,
                encoding: req.encoding,
                max_value: s.max_value,
            })
            .collect();
        let mut buf = Vec::new();
        let mut written = 0u64;
        let mut fill = |i: usize, w: &mut dyn Write| -> io::Result<()> {
            w.write_all(slices[i].0.bytes())?;
            written += slices[i].0.bytes().len() as u64;
            obs.output_written(written);
            let own = &slices[i].2;
            for r in 1..ranks {
                let range = own.range(r);
                let mut left = req.encoding.encoded_len(range.end - range.start) as usize;
                while left > 0 {
                    let n = left.min(STREAM_BYTES);
                    buf.resize(n, 0u8);
                    world.process_at_rank(r as i32).receive_into(&mut buf[..]);
                    w.write_all(&buf)?;
                    written += n as u64;
                    obs.output_written(written);
                    left -= n;
                }
            }
            Ok(())
        };
        write_pdb_streamed(path, &req.goal, &shapes, &req.write, &mut fill)
            .map_err(BuildError::writing(path))?;
    } else {
        let mut sent = 0u64;
        for (bytes, _, _) in slices {
            for chunk in bytes.bytes().chunks(STREAM_BYTES) {
                root.send(chunk);
                sent += chunk.len() as u64;
                obs.output_written(sent);
            }
        }
    }
    // Every rank returns once the file is in place. (A rank 0 that fails returns its error
    // without coming here, and the caller ends the job: see `build_file_distributed`.)
    world.barrier();
    Ok(())
}
