//! The API's errors: a message and an HTTP status, answered as `{"error": message}` (with any
//! extra fields, such as a stopped search's lower bound).

use super::limits::Busy;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// An error answer of the API.
#[derive(Debug)]
pub struct ApiError {
    /// The status: 400 bad input, 404 unknown, 408 body too slow, 413 body too large, 422
    /// unsolvable or mismatched, 503 busy (with Retry-After), 500 only for the server's own
    /// failures.
    pub status: StatusCode,
    /// What is wrong, in words.
    pub message: String,
    /// More fields for the JSON object (e.g. `stopped`, `lower_bound`), or `Null`.
    pub extra: Value,
}

impl ApiError {
    /// An error with `status`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            extra: Value::Null,
        }
    }

    /// 400: the request cannot be read.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: no such thing.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 422: readable, but it cannot be solved as asked (unsolvable puzzle, a database for
    /// another board or goal, a search stopped by its limits).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 503: the search would wait longer than the server's bound; the answer says when to
    /// come back (the Retry-After header and the `retry_after` field, in seconds) and the
    /// expected wait (`expected_wait`, in seconds).
    pub fn busy(b: &Busy) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!(
                "the server is busy: this search would wait about {:.1} s for a free slot; try again in {} s",
                b.wait.as_secs_f64(),
                b.retry_after
            ),
            extra: json!({
                "retry_after": b.retry_after,
                "expected_wait": b.wait.as_secs_f64(),
            }),
        }
    }

    /// The JSON object of the answer.
    pub fn json(&self) -> Value {
        let mut v = match &self.extra {
            Value::Object(_) => self.extra.clone(),
            _ => json!({}),
        };
        v["error"] = json!(self.message);
        v["status"] = json!(self.status.as_u16());
        v
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut r = json_response(self.status, &self.json());
        if let Some(s) = self.extra.get("retry_after").and_then(Value::as_u64) {
            r.headers_mut().insert(header::RETRY_AFTER, s.into());
        }
        r
    }
}

/// A JSON answer with `status`.
pub fn json_response(status: StatusCode, v: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        v.to_string(),
    )
        .into_response()
}
