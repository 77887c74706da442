//! The connection layer against a real loopback listener: slow and idle
//! clients are dropped, normal ones keep being served, malformed bodies get
//! 400, and refused bodies close the connection saying so.

use crate::support::*;
use ecclesia_server::ServerConfig;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

struct Live {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    server: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl Live {
    async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(40), self.server).await;
    }
}

async fn live(config: ServerConfig) -> Live {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let h = harness_with(ServerConfig {
        anonymous: true,
        listen: addr,
        public_url: format!("http://{addr}"),
        ..config
    });
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ecclesia_server::serve(listener, h.state.clone(), async {
        let _ = rx.await;
    }));
    Live {
        addr,
        stop: Some(tx),
        server,
    }
}

/// One raw HTTP/1.1 exchange on a fresh connection: the response head (lower-cased)
/// and body, read until the server closes or the body is complete.
fn exchange(addr: SocketAddr, request: &[u8]) -> std::io::Result<(String, String)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(20)))?;
    s.write_all(request)?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = s.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf).to_string();
        if let Some(end) = text.find("\r\n\r\n") {
            let head = text[..end].to_ascii_lowercase();
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if let Some(len) = len {
                if buf.len() >= end + 4 + len {
                    break;
                }
            }
        }
    }
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let head = head.to_ascii_lowercase();
    // Only the first response (a pipelined remainder may have been answered too).
    let len = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let body = match len {
        Some(n) if body.len() > n && body.is_char_boundary(n) => &body[..n],
        _ => body,
    };
    Ok((head, body.to_string()))
}

fn healthz(addr: SocketAddr) -> bool {
    matches!(
        exchange(addr, b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"),
        Ok((head, _)) if head.starts_with("http/1.1 200")
    )
}

/// Whether the server closed `s` (EOF or reset) within `limit`.
fn closed_within(s: &mut TcpStream, limit: Duration) -> bool {
    let started = Instant::now();
    s.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut b = [0u8; 64];
    while started.elapsed() < limit {
        match s.read(&mut b) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return true,
        }
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slowloris_connections_are_dropped_and_normal_clients_served() {
    let server = live(ServerConfig {
        header_read_timeout: Duration::from_secs(2),
        idle_timeout: Duration::from_secs(3),
        max_connections: 100,
        max_connections_per_ip: 100,
        ..ServerConfig::default()
    })
    .await;
    let addr = server.addr;
    let result = tokio::task::spawn_blocking(move || {
        // 150 slow clients: partial heads, more than the connection limit.
        let mut slow = Vec::new();
        for _ in 0..150 {
            let mut s = TcpStream::connect(addr).unwrap();
            s.write_all(b"POST /api/v1/a2a HTTP/1.1\r\nHost: t\r\nX-Slow: ")
                .unwrap();
            slow.push(s);
        }
        // One that sends nothing at all.
        let mut idle = TcpStream::connect(addr).unwrap();
        let probes = (0..10).filter(|_| healthz(addr)).count();
        // A little more of each head: still not complete.
        for s in &mut slow {
            let _ = s.write_all(b"a");
        }
        let started = Instant::now();
        // Generous margin over the 2 s header timeout (and 3 s idle timeout).
        let dropped = slow
            .iter_mut()
            .map(|s| closed_within(s, Duration::from_secs(12)))
            .filter(|closed| *closed)
            .count();
        let idle_dropped = closed_within(&mut idle, Duration::from_secs(12));
        let after = healthz(addr);
        (probes, dropped, idle_dropped, started.elapsed(), after)
    })
    .await
    .unwrap();
    let (probes, dropped, idle_dropped, elapsed, after) = result;
    assert!(probes >= 9, "only {probes}/10 normal requests were served");
    assert_eq!(dropped, 150, "slow connections left open");
    assert!(idle_dropped, "the idle connection was not closed");
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    assert!(after, "the server stopped answering");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_in_flight_outlives_the_timeouts() {
    let server = live(ServerConfig {
        header_read_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(1),
        ..ServerConfig::default()
    })
    .await;
    let addr = server.addr;
    // `slow` runs ~10 s: far past both timeouts, on an otherwise silent connection.
    let body = serde_json::to_string(&send(
        Some("slow"),
        serde_json::json!([{"kind": "text", "text": "x"}]),
    ))
    .unwrap();
    let req = format!(
        "POST /api/v1/a2a HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (head, body) = tokio::task::spawn_blocking(move || exchange(addr, req.as_bytes()))
        .await
        .unwrap()
        .unwrap();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(body.contains("\"completed\""), "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_bodies_get_400_and_refused_ones_close_the_connection() {
    let server = live(ServerConfig {
        body_limit: 1024,
        ..ServerConfig::default()
    })
    .await;
    let addr = server.addr;
    tokio::task::spawn_blocking(move || {
        // Bad chunk size.
        let (head, body) = exchange(
            addr,
            b"POST /api/v1/a2a HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        )
        .unwrap();
        assert!(head.starts_with("http/1.1 400"), "{head}");
        assert!(head.contains("connection: close"), "{head}");
        assert!(body.contains("-32600"), "{body}");
        // Transfer-Encoding and Content-Length together.
        let (head, _) = exchange(
            addr,
            b"POST /api/v1/a2a HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nhello",
        )
        .unwrap();
        assert!(head.starts_with("http/1.1 400"), "{head}");
        // Too large: 413, and the connection is closed with `Connection: close`.
        let big = "x".repeat(4096);
        let req = format!(
            "POST /api/v1/a2a HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{big}",
            big.len()
        );
        let (head, body) = exchange(addr, req.as_bytes()).unwrap();
        assert!(head.starts_with("http/1.1 413"), "{head}");
        assert!(head.contains("connection: close"), "{head}");
        assert!(body.contains("1024"), "{body}");
    })
    .await
    .unwrap();
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_reports_the_limits() {
    let server = live(ServerConfig::default()).await;
    let addr = server.addr;
    let (head, body) = tokio::task::spawn_blocking(move || {
        exchange(
            addr,
            b"GET /readyz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
        )
    })
    .await
    .unwrap()
    .unwrap();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let l = &v["limits"];
    assert_eq!(l["header_read_timeout_secs"], 10.0, "{v}");
    assert!(l["max_connections"].as_u64().unwrap() >= 1, "{v}");
    assert!(l["fd_soft_limit"].as_u64().unwrap() >= 64, "{v}");
    assert!(
        l["max_connections"].as_u64().unwrap() + 256 <= l["fd_soft_limit"].as_u64().unwrap()
            || l["max_connections"] == 4096,
        "{v}"
    );
    assert_eq!(v["queues"]["slow"]["running"], 0, "{v}");
    server.stop().await;
}

/// A small deterministic generator (no test depends on chance).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Mutate a valid request: flip, insert, delete or repeat bytes, cut it,
/// or garble a header line; then see that the server answers well-formed
/// HTTP (JSON-RPC for 200s) and keeps serving. (16 clients at once: a cut
/// request waits out the 1 s header or body timeout.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_http_requests_never_break_the_server() {
    let server = live(ServerConfig {
        header_read_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        ..ServerConfig::default()
    })
    .await;
    let addr = server.addr;
    let body = serde_json::to_string(&send(
        Some("echo"),
        serde_json::json!([{"kind": "text", "text": "hi"}, {"kind": "data", "data": {"q": 1}}]),
    ))
    .unwrap();
    let valid = format!(
        "POST /api/v1/a2a HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes();
    let mut workers = Vec::new();
    for w in 0..16u64 {
        let valid = valid.clone();
        workers.push(tokio::task::spawn_blocking(move || {
            mutate_and_send(addr, &valid, 0x5eed + w, 15)
        }));
    }
    let mut statuses = std::collections::BTreeMap::<String, usize>::new();
    for w in workers {
        for (k, v) in w.await.unwrap() {
            *statuses.entry(k).or_default() += v;
        }
    }
    assert!(statuses.len() >= 2, "{statuses:?}");
    assert!(
        tokio::task::spawn_blocking(move || healthz(addr))
            .await
            .unwrap(),
        "the server stopped answering"
    );
    server.stop().await;
}

fn mutate_and_send(
    addr: SocketAddr,
    valid: &[u8],
    seed: u64,
    n: usize,
) -> std::collections::BTreeMap<String, usize> {
    let mut rng = Lcg(seed);
    let specials: &[&[u8]] = &[
        b"\r\n",
        b"\0",
        b"\xff",
        b"{",
        b"}",
        b"\"",
        b"-9223372036854775809",
        b"Transfer-Encoding: chunked\r\n",
        b"Content-Length: 99999999\r\n",
        b"Expect: 100-continue\r\n",
        b" ",
        b":",
    ];
    let mut statuses = std::collections::BTreeMap::<String, usize>::new();
    for _ in 0..n {
        let mut req = valid.to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(req.len());
            match rng.below(5) {
                0 => req[at] ^= 1 << rng.below(8),
                1 => {
                    let s = specials[rng.below(specials.len())];
                    req.splice(at..at, s.iter().copied());
                }
                2 => {
                    let end = (at + 1 + rng.below(8)).min(req.len());
                    req.drain(at..end);
                }
                3 => {
                    let end = (at + 1 + rng.below(16)).min(req.len());
                    let chunk: Vec<u8> = req[at..end].to_vec();
                    req.splice(at..at, chunk);
                }
                _ => req.truncate(at),
            }
        }
        let Ok((head, body)) = exchange(addr, &req) else {
            // Reset by the server: acceptable for garbage.
            continue;
        };
        if head.is_empty() {
            // Closed without an answer (e.g. a cut-off head timed out).
            continue;
        }
        assert!(head.starts_with("http/1.1 "), "not HTTP: {head:?}");
        let status = head.split_whitespace().nth(1).unwrap_or("?").to_string();
        assert!(
            ["200", "400", "404", "405", "408", "413", "415", "417", "431", "503", "505"]
                .contains(&status.as_str()),
            "status {status}: {head}"
        );
        if status == "200" && head.contains("application/json") {
            let v: serde_json::Value =
                serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
            assert_eq!(v["jsonrpc"], "2.0", "{v}");
            assert!(v.get("result").is_some() != v.get("error").is_some(), "{v}");
        }
        *statuses.entry(status).or_default() += 1;
    }
    statuses
}
