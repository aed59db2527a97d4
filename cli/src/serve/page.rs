//! The web page: plain HTML, CSS and JavaScript compiled into the binary (`include_str!`), no
//! build step and nothing fetched from elsewhere (the content security policy says so).

use super::error::ApiError;
use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The page (the solver and, under `/db/NAME`, a database's page: the script reads the path).
const INDEX: &str = include_str!("assets/index.html");
/// The script.
const APP_JS: &str = include_str!("assets/app.js");
/// The style sheet.
const STYLE_CSS: &str = include_str!("assets/style.css");

/// Only this server's own scripts, styles and API; no inline script, no other origin.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/// An embedded file with its type.
fn serve(body: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /`: the page.
pub async fn index() -> Response {
    serve(INDEX, "text/html; charset=utf-8")
}

/// `GET /db/{name}`: the same page, which shows the database named in the path.
pub async fn database(Path(_name): Path<String>) -> Response {
    serve(INDEX, "text/html; charset=utf-8")
}

/// `GET /assets/{file}`: the script and the style sheet.
pub async fn asset(Path(file): Path<String>) -> Result<Response, ApiError> {
    match file.as_str() {
        "app.js" => Ok(serve(APP_JS, "text/javascript; charset=utf-8")),
        "style.css" => Ok(serve(STYLE_CSS, "text/css; charset=utf-8")),
        _ => Err(ApiError::not_found(format!("no asset {file:?}"))),
    }
}
