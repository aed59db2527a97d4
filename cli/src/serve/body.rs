//! The one door from outside the server to its body reader: a `POST /api/solve` body read and
//! prepared exactly as the server does it, without a search, for fuzzing and tests.

use super::catalog::Catalog;
use super::limits::{Caps, StopOnDrop};
use super::{request, search};
use std::time::Duration;

/// Reads `body` as the server reads a `POST /api/solve` body and prepares its search against a
/// server without databases and with the default caps, stopping before the search would
/// run. `Ok` with nothing for a request the server would queue; `Err` with the HTTP status
/// and the message it would answer.
pub fn check_solve_body(body: &[u8]) -> Result<(), (u16, String)> {
    let caps = Caps {
        searches: 2,
        queue: 4096,
        max_wait: Duration::from_secs(2),
        client_timeout: Duration::from_secs(10),
        max_nodes: 2_000_000_000,
        max_time: Duration::from_secs(60),
        max_memory: 1 << 30,
        threads: 2,
        max_body: 64 * 1024,
        max_cells: 256,
    };
    let fail = |e: super::error::ApiError| (e.status.as_u16(), e.message);
    let req = request::parse(body).map_err(fail)?;
    let stop = StopOnDrop::new();
    search::prepare(req, &Catalog::new(Vec::new()), &caps, stop.flag(), None).map_err(fail)?;
    Ok(())
}
