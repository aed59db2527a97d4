//! The routes: the page and its assets, `POST /api/solve`, `GET /api/databases`,
//! `GET /api/databases/{name}` and `GET /api/server`; every error is JSON with its status.

use super::catalog::Catalog;
use super::error::{json_response, ApiError};
use super::limits::{Admission, Caps, StopOnDrop};
use super::{page, request, search, stream};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use pdbsolver::AlgorithmName;
use serde_json::json;
use std::sync::Arc;

/// What every request handler shares.
#[derive(Debug)]
pub struct AppState {
    /// The databases.
    pub catalog: Catalog,
    /// The caps of every search.
    pub caps: Caps,
    /// The bounded queue of searches.
    pub admission: Admission,
}

/// The server's routes over `state`.
pub fn router(state: Arc<AppState>) -> Router {
    let body_limit = state.caps.max_body;
    Router::new()
        .route("/", get(page::index))
        .route("/db/{name}", get(page::database))
        .route("/assets/{file}", get(page::asset))
        .route("/api/server", get(server))
        .route("/api/databases", get(databases))
        .route("/api/databases/{name}", get(database))
        .route("/api/solve", post(solve))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

/// Unknown paths: 404 as JSON.
async fn not_found() -> ApiError {
    ApiError::not_found("no such page or API route: see GET /api/server")
}

/// A known path with another method: 405 as JSON.
async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed on this route",
    )
}

/// `GET /api/server`: the algorithms, heuristics, databases and limits, for the page.
async fn server(State(st): State<Arc<AppState>>) -> Response {
    let caps = &st.caps;
    let algorithms: Vec<serde_json::Value> = AlgorithmName::ALL
        .iter()
        .map(|a| {
            json!({
                "name": a.name(),
                "optimal": a.is_optimal(),
                "uses_heuristic": a.uses_heuristic(),
            })
        })
        .collect();
    json_response(
        StatusCode::OK,
        &json!({
            "version": env!("CARGO_PKG_VERSION"),
            "algorithms": algorithms,
            "heuristics": ["auto", "pdb", "linear-conflict", "manhattan", "hamming", "walking-distance"],
            "metrics": ["stm", "mtm"],
            "databases": st.catalog.dbs.iter().map(|s| s.summary_json()).collect::<Vec<_>>(),
            "limits": {
                "searches": caps.searches,
                "queue": caps.queue,
                "max_wait": caps.max_wait.as_secs_f64(),
                "max_nodes": caps.max_nodes,
                "max_seconds": caps.max_time.as_secs_f64(),
                "max_memory": caps.max_memory,
                "max_body": caps.max_body,
                "max_cells": caps.max_cells,
            },
            "running": st.admission.running(),
            "admitted": st.admission.admitted(),
        }),
    )
}

/// `GET /api/databases`: each database's summary.
async fn databases(State(st): State<Arc<AppState>>) -> Response {
    let v: Vec<serde_json::Value> = st.catalog.dbs.iter().map(|s| s.summary_json()).collect();
    json_response(StatusCode::OK, &json!({ "databases": v }))
}

/// `GET /api/databases/{name}`: the header of each table and its value histogram (counted
/// on a blocking thread the first time).
async fn database(
    State(st): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    if st.catalog.get(&name).is_none() {
        return Err(ApiError::not_found(format!("unknown database {name:?}")));
    }
    let v = tokio::task::spawn_blocking(move || st.catalog.get(&name).map(|s| s.detail_json()))
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("counting the histogram failed: {e}"),
            )
        })?
        .unwrap_or_default();
    Ok(json_response(StatusCode::OK, &v))
}

/// `POST /api/solve` (`?stream=1`: progress lines, then the answer; see [`stream`]).
async fn solve(State(st): State<Arc<AppState>>, req: Request) -> Result<Response, ApiError> {
    let limit = st.caps.max_body;
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than this server's limit of {limit} bytes"),
        )
    };
    // A body announced as too large is refused before any of it is read.
    let announced = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let query = req.uri().query().map(str::to_string);
    // The body limit layer caps what the extractor reads (413 beyond it).
    let body_time = st.caps.client_timeout;
    let body = tokio::time::timeout(body_time, Bytes::from_request(req, &()))
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the body did not arrive within {} s",
                    body_time.as_secs_f64()
                ),
            )
        })?
        .map_err(|r| match r.status() {
            StatusCode::PAYLOAD_TOO_LARGE => too_large(),
            status => ApiError::new(status, r.body_text()),
        })?;
    let streamed = wants_stream(query.as_deref())?;
    let req = request::parse(&body)?;
    // Everything that can be refused is refused before the request takes a place in the queue.
    let stop = StopOnDrop::new();
    let (observer, events) = match streamed {
        true => {
            let (o, e) = stream::observer();
            (Some(o), Some(e))
        }
        false => (None, None),
    };
    let prepared = search::prepare(req, &st.catalog, &st.caps, stop.flag(), observer)?;
    // Admitted when it can start within the server's bound, weighed by what it is expected
    // to cost; else 503 with Retry-After.
    let kind = prepared.kind();
    let cost = st
        .admission
        .costs
        .expected(kind, prepared.time_limit(&st.caps));
    let ticket = st
        .admission
        .enter(cost, kind.is_cheap())
        .map_err(|b| ApiError::busy(&b))?;
    if let Some(events) = events {
        return stream::solve(&st.admission, prepared, events, ticket, stop).await;
    }
    // Waiting here ends (and gives the place back) when the client goes away, or with 503
    // when the bound has passed.
    let entered = std::time::Instant::now();
    let done = st
        .admission
        .run(ticket, kind, move || search::run(&prepared))
        .await
        .map_err(|b| ApiError::busy(&b))?;
    let waited = entered.elapsed();
    // `stop` lives in this future: dropped with it when the client goes away, it stops the
    // search.
    let out = done.await;
    drop(stop);
    // The wait for a slot and the whole time in milliseconds, for clients and load tests.
    let timing = format!(
        "wait;dur={:.3}, total;dur={:.3}",
        waited.as_secs_f64() * 1e3,
        entered.elapsed().as_secs_f64() * 1e3
    );
    let timed = |mut r: Response| {
        if let Ok(v) = header::HeaderValue::from_str(&timing) {
            r.headers_mut().insert("server-timing", v);
        }
        r
    };
    match out {
        Ok(Ok(v)) => Ok(timed(json_response(StatusCode::OK, &v))),
        Ok(Err(e)) => Ok(timed(e.into_response())),
        Err(e) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the search failed: {e}"),
        )),
    }
}

/// Whether the query asks for a streamed answer (`stream=1` or `stream=true`).
fn wants_stream(query: Option<&str>) -> Result<bool, ApiError> {
    let mut stream = false;
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=').unwrap_or((pair, "1")) {
            ("stream", "1" | "true") => stream = true,
            ("stream", "0" | "false") => stream = false,
            _ => {
                return Err(ApiError::bad(format!(
                    "unknown query {pair:?}: the only one is stream=1"
                )))
            }
        }
    }
    Ok(stream)
}
