//! The accept loop: each connection served by hyper's HTTP/1 server with a deadline on its
//! request headers, so that a client trickling them (or holding an idle connection open)
//! is closed after the timeout instead of holding the server; bodies have their own deadline
//! in the solve route.

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::time::Duration;
use tokio::net::TcpListener;

/// Answers the connections of `listener` with `app` until the process is stopped. A client
/// whose request headers (the first request's, or the next one's on a kept-alive
/// connection) are not all in within `header_time` is disconnected.
pub async fn serve(listener: TcpListener, app: Router, header_time: Duration) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors or a connection reset before it was accepted: wait a
                // moment rather than spin, and go on.
                if !matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionAborted | std::io::ErrorKind::ConnectionReset
                ) {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_time)
                .serve_connection(TokioIo::new(stream), service);
            // A connection that ends in an error (a reset, a timeout) concerns only its client.
            let _ = connection.await;
        });
    }
}
