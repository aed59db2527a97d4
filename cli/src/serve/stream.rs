//! `POST /api/solve?stream=1`: the answer as newline-delimited JSON, so that a page can show
//! a search's progress and cancel it. Lines: `{"event":"tick","seconds"}` about twice a second
//! (which also finds a client that has gone away), `{"event":"iteration",…}` after each IDA*
//! iteration, `{"event":"improvement","length","lower_bound","bound_ratio",…}` after each
//! shorter solution or higher bound of an anytime search, and last `{"event":"done","status":N,"body":{…}}` where `body` is exactly what
//! the plain request would have answered with status `N`.

use super::error::ApiError;
use super::limits::{Admission, StopOnDrop, Ticket};
use super::search::{self, Prepared};
use crate::answer::{improvement_json, iteration_json};
use axum::body::{Body, Bytes};
use axum::http::{header, StatusCode};
use axum::response::Response;
use futures_core::Stream;
use pdbsolver::{Event, Observer};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The response body: lines sent by the forwarding task.
struct Lines(mpsc::Receiver<Bytes>);

impl Stream for Lines {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx).map(|line| line.map(Ok))
    }
}

/// A JSON value as one line of the body.
fn line(v: &Value) -> Bytes {
    let mut s = v.to_string();
    s.push('\n');
    Bytes::from(s)
}

/// The channel from a search to its stream: what the observer and the search's end send.
pub struct Events {
    tx: mpsc::UnboundedSender<Value>,
    rx: mpsc::UnboundedReceiver<Value>,
}

/// An observer that sends each finished IDA* iteration, and each improvement of an anytime
/// search, as a line, and the channel it sends on.
pub fn observer() -> (Observer, Events) {
    let (tx, rx) = mpsc::unbounded_channel::<Value>();
    let tell = tx.clone();
    let observer = Observer::new(move |e| {
        let line = match e {
            Event::Iteration(it) => {
                let mut line = iteration_json(it);
                line["event"] = json!("iteration");
                line
            }
            Event::Improvement(i) => {
                let mut line = improvement_json(i);
                line["event"] = json!("improvement");
                line
            }
            _ => return,
        };
        let _ = tell.send(line);
    });
    (observer, Events { tx, rx })
}

/// Runs the prepared search (its options hold the [`observer`] of `events`) once a slot is
/// free, and answers with its stream; the search's own outcome comes in the last line. A
/// request that waits longer than the server's bound for its slot is answered 503 instead.
pub async fn solve(
    admission: &Admission,
    prepared: Prepared,
    events: Events,
    ticket: Ticket,
    stop: StopOnDrop,
) -> Result<Response, ApiError> {
    let Events {
        tx: events,
        rx: mut from_search,
    } = events;
    let kind = prepared.kind();
    let search = admission
        .run(ticket, kind, move || {
            let (status, body) = match search::run(&prepared) {
                Ok(v) => (StatusCode::OK, v),
                Err(e) => (e.status, e.json()),
            };
            let done = json!({ "event": "done", "status": status.as_u16(), "body": body });
            let _ = events.send(done);
        })
        .await
        .map_err(|b| ApiError::busy(&b))?;
    let (to_body, body) = mpsc::channel::<Bytes>(16);
    tokio::spawn(async move {
        // Dropped when this task ends: after the last line, or as soon as a line cannot be
        // sent because the client has gone away; either way the search stops.
        let _stop = stop;
        let start = Instant::now();
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        loop {
            tokio::select! {
                ev = from_search.recv() => {
                    let Some(ev) = ev else {
                        // The search thread ended without a verdict (it panicked).
                        let e = ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the search failed");
                        let _ = to_body.send(line(&json!({ "event": "done", "status": 500, "body": e.json() }))).await;
                        break;
                    };
                    let last = ev["event"] == "done";
                    if to_body.send(line(&ev)).await.is_err() || last {
                        break;
                    }
                }
                _ = tick.tick() => {
                    let t = json!({ "event": "tick", "seconds": start.elapsed().as_secs_f64() });
                    if to_body.send(line(&t)).await.is_err() {
                        break;
                    }
                }
            }
        }
        drop(search);
    });
    Ok(Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .header(header::CACHE_CONTROL, "no-store")
        .body(Body::from_stream(Lines(body)))
        .unwrap_or_else(|_| Response::new(Body::empty())))
}
