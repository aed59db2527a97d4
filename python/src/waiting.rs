//! Work on a thread of its own while the calling thread, which holds the interpreter, waits
//! with the GIL released and takes it back every tenth of a second: to draw progress and to
//! let Python's signal handlers run, so that Ctrl-C (`KeyboardInterrupt`) stops the work
//! within a second. The work is told through a stop flag it observes (the solver's interrupt
//! flag, checked every 1,024 nodes; the build observer's), and is always waited for: nothing
//! runs on after the call has returned.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

/// How long the waiting thread leaves the GIL released between two checks.
pub const TICK: Duration = Duration::from_millis(100);

/// What a stopped build unwinds with: the build observer's way out of the generator, which
/// has no cancel hook (see `progress::BuildProgress`). Never shown: [`run`] turns it into the
/// signal's exception.
pub struct Cancelled;

/// Runs `work` on a new thread and returns its result. Every [`TICK`] the GIL is taken back to
/// call `tick` and to run Python's signal handlers; when one raises (Ctrl-C), `stop` is set,
/// the work is waited for (it must observe `stop` promptly), and the handler's exception is
/// returned instead of the result. A panic of the work is a `RuntimeError`, never a crash.
pub fn run<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
    mut tick: impl FnMut(Python<'_>),
) -> PyResult<T> {
    std::thread::scope(|s| {
        let (tx, mut rx) = channel();
        s.spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(result);
        });
        let mut interrupted: Option<PyErr> = None;
        loop {
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(TICK);
                (rx, got)
            });
            rx = back;
            match got {
                Ok(result) => {
                    return match (interrupted, result) {
                        (Some(e), _) => Err(e),
                        (None, Ok(value)) => Ok(value),
                        (None, Err(panic)) => Err(panic_error(panic)),
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(interrupted.unwrap_or_else(|| {
                        PyRuntimeError::new_err("internal error: the work ended without a result")
                    }))
                }
            }
            if interrupted.is_none() {
                tick(py);
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::SeqCst);
                    interrupted = Some(e);
                }
            }
        }
    })
}

/// The `RuntimeError` of a panic payload.
fn panic_error(panic: Box<dyn Any + Send>) -> PyErr {
    let what = if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else if panic.is::<Cancelled>() {
        "stopped".to_string()
    } else {
        "a panic".to_string()
    };
    PyRuntimeError::new_err(format!("internal error: {what}"))
}
