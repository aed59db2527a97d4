//! `solver serve`: a web page and a JSON API for solving, served over HTTP by axum on a small
//! tokio runtime. Databases are found and loaded once at start, exactly as `solver solve`
//! does it (`--db` names and files, or the default database, built on first use); each
//! search runs on a blocking thread under the caps of [`limits`].

mod api;
mod body;
mod catalog;
mod cost;
mod error;
mod limits;
mod listen;
mod page;
mod request;
mod search;
mod stream;

use crate::resolve_printer::{cli_error, Printer};
use anyhow::{Context, Result};
use clap::Args;
use pdbformat::Metric;
use pdbsolver::{Database, DbChoice, ResolveOptions, Resolver, ServedDefault};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use body::check_solve_body;

/// Arguments of `solver serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address and port to listen on. The default answers only this machine; any other
    /// address (e.g. 0.0.0.0:8080) lets other machines use the server, and is said so at start.
    /// Port 0 picks a free port (the address printed is the one to use).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// Pattern-database files or standard names to serve, as for `solver solve --db`
    /// (repeatable). Without it, the default database of each board that has one (4x4, 5x5),
    /// found where `solver solve` looks; the 4x4 one is built once when missing.
    #[arg(long = "db", value_name = "FILE|NAME")]
    dbs: Vec<PathBuf>,
    /// Do not check the databases' SHA-256 digests.
    #[arg(long)]
    no_verify: bool,
    /// Never build the default 4x4 database (serve without it when none is found).
    #[arg(long)]
    no_build: bool,
    /// Searches that run at once, each on a thread of its own.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    searches: u16,
    /// Requests that may wait for a search at most, however cheap; beyond them the server
    /// answers 503.
    #[arg(long, value_name = "N", default_value_t = 4096, value_parser = clap::value_parser!(u16).range(0..=16384))]
    queue: u16,
    /// The longest a request may wait for a search slot, in seconds. Each request is weighed
    /// by its expected cost (its board, algorithm and limits, then what such searches took
    /// here): one expected to wait longer is answered 503 with Retry-After at once, and one
    /// that has waited that long is too.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    max_wait: f64,
    /// Seconds a client may take to send a request's headers, or its body; a slower one is
    /// disconnected (headers) or answered 408 (body). Also how long an idle connection stays
    /// open.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    client_timeout: f64,
    /// Node limit of one search (requests may ask for less).
    #[arg(long, value_name = "N", default_value_t = 2_000_000_000)]
    max_nodes: u64,
    /// Time limit of one search in seconds (requests may ask for less).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    max_seconds: f64,
    /// Memory limit of one search (A*, BFS), e.g. 512M or 2G.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = crate::solver_cli::flags::read_as("max-memory", |r| r.max_memory))]
    max_memory: u64,
    /// Threads of one parallel-ida search (and of a hybrid search's IDA* phase); a request
    /// naming no algorithm runs parallel-ida on them (ida with --threads 1).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Largest request body in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 64 * 1024)]
    max_body: usize,
    /// Largest board in cells (the strategic algorithm solves any size, with solutions that
    /// grow with the cube of the side; the other algorithms stop at 64 cells).
    #[arg(long, value_name = "N", default_value_t = 256)]
    max_cells: usize,
}

/// Runs `solver serve` until the process is stopped.
pub fn run(a: ServeArgs) -> Result<i32> {
    if !(a.max_seconds.is_finite() && a.max_seconds > 0.0) {
        anyhow::bail!(
            "--max-seconds must be a positive number of seconds, not {}",
            a.max_seconds
        );
    }
    for (name, v) in [
        ("max-wait", a.max_wait),
        ("client-timeout", a.client_timeout),
    ] {
        if !(v.is_finite() && v > 0.0) {
            anyhow::bail!("--{name} must be a positive number of seconds, not {v}");
        }
    }
    if a.max_nodes == 0 {
        anyhow::bail!("--max-nodes must be at least 1");
    }
    let dbs = load_databases(&a)?;
    warm_pruners(dbs.iter().map(|d| d.board()).collect());
    let caps = limits::Caps {
        searches: a.searches as usize,
        queue: a.queue as usize,
        max_wait: Duration::from_secs_f64(a.max_wait.min(1e6)),
        client_timeout: Duration::from_secs_f64(a.client_timeout.min(1e6)),
        max_nodes: a.max_nodes,
        max_time: Duration::from_secs_f64(a.max_seconds.min(1e9)),
        max_memory: a.max_memory,
        threads: a.threads as usize,
        max_body: a.max_body,
        max_cells: a.max_cells,
    };
    let state = Arc::new(api::AppState {
        catalog: catalog::Catalog::new(dbs),
        admission: limits::Admission::new(&caps),
        caps,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // Searches run only once they hold a slot; a few more threads for histograms.
        .max_blocking_threads(state.caps.searches + 4)
        .thread_name("serve")
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(serve(a.bind, state))
}

/// Builds (or reads) the default duplicate-move machines of `boards` on a background thread of
/// its own, so that requests on those boards use the deep machine once it is cached (see
/// [`search::prune_depth`]) without any of them waiting for its first build.
fn warm_pruners(mut boards: Vec<pdbformat::Board>) {
    boards.sort_by_key(|b| (b.width(), b.height()));
    boards.dedup();
    let _ = std::thread::Builder::new()
        .name("serve-pruners".into())
        .spawn(move || {
            for board in boards {
                pdbsolver::Pruning::BoardDefault.machine(board);
            }
        });
}

/// Binds, says where, and answers requests.
async fn serve(bind: SocketAddr, state: Arc<api::AppState>) -> Result<i32> {
    let listener = listen(bind).with_context(|| format!("cannot listen on {bind}"))?;
    let addr = listener
        .local_addr()
        .context("cannot read the bound address")?;
    if !addr.ip().is_loopback() {
        eprintln!(
            "note: listening on {addr}, which is not a loopback address: other machines that reach it can use this server (give --bind 127.0.0.1:PORT to keep it to this machine)"
        );
    }
    let names: Vec<&str> = state.catalog.dbs.iter().map(|s| s.name.as_str()).collect();
    eprintln!(
        "serving {} database{} ({}); at most {} searches at once, waits of at most {} s, {} nodes and {} s each",
        names.len(),
        if names.len() == 1 { "" } else { "s" },
        if names.is_empty() { "none: classic heuristics only".to_string() } else { names.join(", ") },
        state.caps.searches,
        state.caps.max_wait.as_secs_f64(),
        pdbformat::units::thousands(state.caps.max_nodes),
        state.caps.max_time.as_secs_f64()
    );
    // The one line on standard output: scripts read the address from it.
    println!("listening on http://{addr}/");
    let _ = std::io::stdout().flush();
    let header_time = state.caps.client_timeout;
    listen::serve(listener, api::router(state), header_time).await;
    Ok(0)
}

/// A listening socket on `bind` whose queue of connections not yet accepted holds 4,096 (the
/// default of 128 made a burst of a few hundred clients wait a second to connect, while
/// their first handshakes were retried).
fn listen(bind: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = match bind {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    socket.bind(bind)?;
    socket.listen(4096)
}

/// The databases to serve: those of `--db` (names and files resolved as `solver solve` does,
/// opened without a goal: each request's goal is checked against them), or else the defaults
/// the resolver starts a server with ([`Resolver::served_defaults`]): each board's default in
/// each metric, found where `solver solve` looks, a small missing one built once unless
/// `--no-build` is given, a large missing one left to a first `solver solve` on its board, and
/// one whose file exceeds `--max-memory` left to `--db`.
fn load_databases(a: &ServeArgs) -> Result<Vec<Arc<Database>>> {
    let options = ResolveOptions {
        verify: !a.no_verify,
        residence: pdbsolver::Residence::Auto,
        build: !a.no_build,
    };
    let printer = Printer::default();
    if !a.dbs.is_empty() {
        let choices: Vec<DbChoice> = (a.dbs.iter())
            .map(|p| DbChoice::Named(p.to_string_lossy().into_owned()))
            .collect();
        return Resolver::new(options)
            .databases(&choices, None, &printer)
            .map_err(cli_error);
    }
    let served = (Resolver::new(options))
        .served_defaults(a.max_memory, &printer)
        .map_err(cli_error)?;
    let mut dbs = Vec::new();
    for s in served {
        match s {
            ServedDefault::Loaded(db) => dbs.push(db),
            ServedDefault::Missing { db, large, why } => {
                let (w, h) = (db.width, db.height);
                let (what, flag) = match db.metric {
                    Metric::Stm => ("", ""),
                    Metric::Mtm => (" mtm", " --metric mtm"),
                };
                if large && !a.no_build {
                    eprintln!(
                        "note: not serving a {w}x{h}{what} database: none found where `solver \
                         solve` looks; `solver solve --board {w}x{h}{flag} PUZZLE` builds the \
                         default {} once, and the server serves it from then on",
                        db.name
                    )
                } else {
                    eprintln!("note: not serving a {w}x{h}{what} database: none found {why}")
                }
            }
            ServedDefault::TooLarge { db, path, bytes } => eprintln!(
                "note: not loading {} at start: {} is larger than --max-memory {}; serve it \
                 with --db {} (and a --max-memory that holds it)",
                db.name,
                path.display(),
                pdbformat::units::approx_bytes(bytes as f64),
                db.name
            ),
        }
    }
    Ok(dbs)
}
