//! The log line of one A2A request (inside the request's span, which carries its id: see
//! `http::request_span`). A request that succeeded is logged at `debug`: the metrics
//! count it (`ecclesia_requests_total`, the latency histograms), and at thousands a second its
//! line was most of what the server wrote, enough to slow the task store's `fsync`s when the
//! log shared its disk. A request that failed, was refused or was rate-limited is logged at
//! `info`, so that the default log shows what an operator has to look at.

use std::time::Duration;

/// Outcomes of requests that succeeded: the answer was sent, or a stream was opened.
const SUCCESSES: [&str; 2] = ["ok", "stream"];

/// One finished request, as the log shows it.
pub(crate) struct RequestLine<'a> {
    /// `JSON-RPC` or `HTTP+JSON`.
    pub binding: &'static str,
    /// The A2A version the request was answered in.
    pub version: &'static str,
    pub method: &'a str,
    pub caller: &'a str,
    /// `ok`, `stream`, or the error code.
    pub outcome: &'a str,
    pub elapsed: Duration,
}

/// The line itself, at the level `$level` (`debug` or `info`): a tracing event's level is
/// part of its static call site, so each level needs its own.
macro_rules! request_event {
    ($level:ident, $line:expr, $elapsed_ms:expr) => {
        tracing::$level!(
            binding = $line.binding,
            version = $line.version,
            method = $line.method,
            caller = $line.caller,
            outcome = $line.outcome,
            elapsed_ms = $elapsed_ms,
            "request"
        )
    };
}

impl RequestLine<'_> {
    pub(crate) fn log(&self) {
        let elapsed_ms = self.elapsed.as_millis() as u64;
        if SUCCESSES.contains(&self.outcome) {
            request_event!(debug, self, elapsed_ms);
        } else {
            request_event!(info, self, elapsed_ms);
        }
    }
}
