//! The server's counters and histograms ([`Metrics`]), kept in a few mutex-guarded maps (the
//! request rate of one agent does not need lock-free counters), and their Prometheus text.
//! The core records into them; `http::metrics` serves them.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::time::Duration;

const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0, 30.0,
];

#[derive(Debug, Default, Clone)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

/// Counters and histograms of the server.
#[derive(Debug, Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, String, String), u64>>,
    latency: Mutex<BTreeMap<String, Histogram>>,
    rate_limited: Mutex<BTreeMap<String, u64>>,
}

impl Metrics {
    /// Count one JSON-RPC request.
    pub fn record(&self, method: &str, skill: &str, outcome: &str, elapsed: Duration) {
        let mut r = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        *r.entry((method.into(), skill.into(), outcome.into()))
            .or_default() += 1;
        drop(r);
        let secs = elapsed.as_secs_f64();
        let mut l = self.latency.lock().unwrap_or_else(|e| e.into_inner());
        let h = l.entry(method.into()).or_default();
        for (i, b) in BUCKETS.iter().enumerate() {
            if secs <= *b {
                h.counts[i] += 1;
            }
        }
        h.sum += secs;
        h.count += 1;
    }

    /// Count one rate-limit rejection.
    pub fn rate_limited(&self, pool: &str) {
        let mut r = self.rate_limited.lock().unwrap_or_else(|e| e.into_inner());
        *r.entry(pool.into()).or_default() += 1;
    }

    /// Render in the Prometheus text format.
    pub fn render(&self, tasks_stored: u64, extra: &[(String, f64)]) -> String {
        let mut out = String::new();
        out.push_str("# HELP ecclesia_requests_total JSON-RPC requests by method, skill and outcome.\n# TYPE ecclesia_requests_total counter\n");
        for ((m, s, o), n) in self
            .requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            let _ = writeln!(
                out,
                "ecclesia_requests_total{{method=\"{}\",skill=\"{}\",outcome=\"{}\"}} {n}",
                esc(m),
                esc(s),
                esc(o)
            );
        }
        out.push_str("# HELP ecclesia_request_duration_seconds JSON-RPC request latency by method.\n# TYPE ecclesia_request_duration_seconds histogram\n");
        for (m, h) in self
            .latency
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            let m = esc(m);
            for (i, b) in BUCKETS.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "ecclesia_request_duration_seconds_bucket{{method=\"{m}\",le=\"{b}\"}} {}",
                    h.counts[i]
                );
            }
            let _ = writeln!(
                out,
                "ecclesia_request_duration_seconds_bucket{{method=\"{m}\",le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(
                out,
                "ecclesia_request_duration_seconds_sum{{method=\"{m}\"}} {}",
                h.sum
            );
            let _ = writeln!(
                out,
                "ecclesia_request_duration_seconds_count{{method=\"{m}\"}} {}",
                h.count
            );
        }
        out.push_str("# HELP ecclesia_rate_limited_total Requests refused by a rate limit, by pool.\n# TYPE ecclesia_rate_limited_total counter\n");
        for (p, n) in self
            .rate_limited
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            let _ = writeln!(
                out,
                "ecclesia_rate_limited_total{{pool=\"{}\"}} {n}",
                esc(p)
            );
        }
        out.push_str("# HELP ecclesia_tasks_stored Tasks stored and not expired.\n# TYPE ecclesia_tasks_stored gauge\n");
        let _ = writeln!(out, "ecclesia_tasks_stored {tasks_stored}");
        for (name, v) in extra {
            let _ = writeln!(out, "# TYPE {name} gauge\n{name} {v}");
        }
        out
    }
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}
