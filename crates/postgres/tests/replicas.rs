//! Two replicas of the real `ecclesia` binary on one PostgreSQL and one Redis, behind a real
//! HAProxy: tasks are shared, a task running on one is streamed and cancelled through the
//! other (the task bus on Redis), webhooks set through either replica are delivered (once),
//! a plan's limit holds across replicas, `kill -9` of a replica
//! under load loses no completed task and fails its running ones within the lease, and a
//! Redis outage gives the configured behaviour and recovers.
//!
//! Needs `ECCLESIA_TEST_POSTGRES`, `ECCLESIA_TEST_REDIS` (for `redis-server` on the PATH),
//! `ECCLESIA_TEST_HAPROXY` (`scripts/services.sh`), the datasets beside the checkout, and the
//! `ecclesia` binary of this build (`cargo test --workspace` builds it; or `ECCLESIA_BIN`).
//! Skipped without them, unless `ECCLESIA_REQUIRE_SERVICES=1`.

mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

/// The replicas' lease (short, so the test sees a dead replica's tasks fail).
const LEASE_SECS: u64 = 3;

fn required() -> bool {
    std::env::var("ECCLESIA_REQUIRE_SERVICES").as_deref() == Ok("1")
}

fn skip(why: &str) {
    assert!(!required(), "ECCLESIA_REQUIRE_SERVICES=1 but {why}");
    eprintln!("skipped: {why}");
}

fn binary() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("ECCLESIA_BIN") {
        return Some(PathBuf::from(p));
    }
    // target/<profile>/deps/replicas-… → target/<profile>/ecclesia
    let exe = std::env::current_exe().ok()?;
    let bin = exe.parent()?.parent()?.join("ecclesia");
    bin.is_file().then_some(bin)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn wait_port(port: u16, what: &str) {
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{what} did not listen"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A child process killed (hard) when dropped.
struct Proc(Option<Child>);

impl Proc {
    fn kill9(&mut self) {
        if let Some(mut c) = self.0.take() {
            let _ = c.kill(); // SIGKILL
            let _ = c.wait();
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill9();
    }
}

/// A Redis of the test's own (stopped and started mid-run).
fn redis_server(port: u16) -> Proc {
    let child = Command::new("redis-server")
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .stdout(Stdio::null())
        .spawn()
        .expect("redis-server runs");
    wait_port(port, "redis-server");
    Proc(Some(child))
}

fn haproxy(bin: &str, dir: &Path, port: u16, a: u16, b: u16) -> Proc {
    let cfg = dir.join("haproxy.cfg");
    std::fs::write(
        &cfg,
        format!(
            "global\n    maxconn 2000\n\
             defaults\n    mode http\n    timeout connect 2s\n    timeout client 60s\n    timeout server 60s\n\
             \x20   retry-on conn-failure\n    retries 3\n    option redispatch\n\
             frontend f\n    bind 127.0.0.1:{port}\n    default_backend replicas\n\
             backend replicas\n    balance roundrobin\n    option httpchk GET /readyz\n\
             \x20   default-server inter 300ms fall 1 rise 1\n\
             \x20   server a 127.0.0.1:{a} check\n    server b 127.0.0.1:{b} check\n"
        ),
    )
    .expect("write haproxy.cfg");
    let child = Command::new(bin)
        .args(["-db", "-f"])
        .arg(&cfg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("haproxy runs");
    wait_port(port, "haproxy");
    Proc(Some(child))
}

/// What every replica is started with.
struct Cluster {
    bin: PathBuf,
    store: PathBuf,
    config: PathBuf,
    state: String,
    limits: String,
}

impl Cluster {
    fn ecclesia(&self) -> Command {
        let mut c = Command::new(&self.bin);
        c.arg("--store")
            .arg(&self.store)
            .arg("--config")
            .arg(&self.config)
            .arg("--state")
            .arg(&self.state)
            .env("ECCLESIA_LOG", "warn");
        c
    }

    fn key(&self, name: &str, plan: &str) -> String {
        let out = self
            .ecclesia()
            .args(["keys", "create", "--name", name, "--plan", plan])
            .output()
            .expect("ecclesia keys create");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    fn replica(&self, port: u16, name: &str) -> Proc {
        let mut child = self
            .ecclesia()
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .arg("--limits")
            .arg(&self.limits)
            .env("HOSTNAME", name)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ecclesia serve");
        let err = child.stderr.take().expect("stderr");
        let tag = name.to_string();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                eprintln!("[{tag}] {line}");
            }
        });
        let started = Instant::now();
        loop {
            if let Ok(r) = ureq::get(&format!("http://127.0.0.1:{port}/readyz")).call() {
                if r.status() == 200 {
                    break;
                }
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!("replica {name} exited: {status}");
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "replica {name} not ready"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        Proc(Some(child))
    }
}

/// Build a small store (liturgy, Scripture, directories) with the binary.
fn ingest(bin: &Path, store: &Path, config: &Path) {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    let data = store.with_file_name("data");
    std::fs::create_dir_all(&data).expect("data dir");
    for d in [
        "calendar",
        "lectionary",
        "martyrology",
        "bible",
        "directories",
    ] {
        std::os::unix::fs::symlink(shared.join(d), data.join(d)).expect("link a dataset");
    }
    let out = Command::new(bin)
        .arg("ingest")
        .arg("--data")
        .arg(&data)
        .arg("--store")
        .arg(store)
        .arg("--config")
        .arg(config)
        .env("ECCLESIA_LOG", "warn")
        .output()
        .expect("ecclesia ingest");
    assert!(
        out.status.success(),
        "ingest: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A JSON-RPC call; `Err((status, body))` on an HTTP error status.
fn rpc(port: u16, token: &str, method: &str, params: Value) -> Result<Value, (u16, Value)> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    match ureq::post(&format!("http://127.0.0.1:{port}/api/v1/a2a"))
        .set("authorization", &format!("Bearer {token}"))
        .timeout(Duration::from_secs(30))
        .send_json(body)
    {
        Ok(r) => Ok(r.into_json().unwrap_or(Value::Null)),
        Err(ureq::Error::Status(code, r)) => Err((code, r.into_json().unwrap_or(Value::Null))),
        Err(e) => Err((0, json!({ "transport": e.to_string() }))),
    }
}

fn send(skill: &str, data: Value) -> Value {
    json!({"message": {"kind": "message", "role": "user", "messageId": format!("m{}", rand::random::<u32>()),
        "parts": [{"kind": "data", "data": data}], "metadata": {"skillId": skill}}})
}

fn pope(port: u16, token: &str) -> Result<Value, (u16, Value)> {
    rpc(
        port,
        token,
        "message/send",
        send("pope_lookup", json!({"query": "John Paul II"})),
    )
}

/// `message/stream` of a question whose answer never comes (the LLM hangs): returns the
/// task id from the first event and keeps the stream open in a thread.
fn start_hanging_question(port: u16, token: &str) -> String {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "message/stream", "params": {"message": {
        "kind": "message", "role": "user", "messageId": "q1",
        "parts": [{"kind": "text", "text": "What does the Church teach about grace?"}],
        "metadata": {"skillId": "catholic_qa"}}}});
    let resp = ureq::post(&format!("http://127.0.0.1:{port}/api/v1/a2a"))
        .set("authorization", &format!("Bearer {token}"))
        .set("accept", "text/event-stream")
        .timeout(Duration::from_secs(300))
        .send_json(body)
        .expect("message/stream");
    let mut reader = BufReader::new(resp.into_reader());
    let mut line = String::new();
    let started = Instant::now();
    loop {
        line.clear();
        let n = reader.read_line(&mut line).expect("read the stream");
        assert!(n > 0, "the stream ended before a task id");
        if let Some(data) = line.strip_prefix("data:") {
            let v: Value = serde_json::from_str(data.trim()).expect("an event is JSON");
            let r = &v["result"];
            let id = r["taskId"]
                .as_str()
                .or(r["id"].as_str())
                .map(str::to_string);
            if let Some(id) = id {
                std::thread::spawn(move || {
                    let mut sink = Vec::new();
                    let _ = reader.read_to_end(&mut sink);
                });
                return id;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no task id on the stream"
        );
    }
}

/// `method` as a stream: its events (the `result` of each) arrive on the channel.
fn sse(port: u16, token: &str, method: &str, params: Value) -> std::sync::mpsc::Receiver<Value> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let resp = ureq::post(&format!("http://127.0.0.1:{port}/api/v1/a2a"))
        .set("authorization", &format!("Bearer {token}"))
        .set("accept", "text/event-stream")
        .timeout(Duration::from_secs(300))
        .send_json(body)
        .expect("a stream");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(resp.into_reader())
            .lines()
            .map_while(Result::ok)
        {
            if let Some(data) = line.strip_prefix("data:") {
                if let Ok(v) = serde_json::from_str::<Value>(data.trim()) {
                    if tx.send(v["result"].clone()).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

fn task_state(port: u16, token: &str, id: &str) -> Option<String> {
    let v = rpc(port, token, "tasks/get", json!({"id": id})).ok()?;
    v["result"]["status"]["state"].as_str().map(str::to_string)
}

/// A webhook receiver: each POST's path, `X-A2A-Notification-Token` and JSON body arrive
/// on the channel; every POST is answered 200.
fn webhook() -> (u16, std::sync::mpsc::Receiver<(String, String, Value)>) {
    use std::io::Write;
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for mut s in l.incoming().flatten() {
            let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
            let mut reader = BufReader::new(s.try_clone().expect("clone"));
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                continue;
            }
            let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
            let (mut length, mut token) = (0usize, String::new());
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
                    break;
                }
                if let Some((k, v)) = h.split_once(':') {
                    match k.trim().to_ascii_lowercase().as_str() {
                        "content-length" => length = v.trim().parse().unwrap_or(0),
                        "x-a2a-notification-token" => token = v.trim().to_string(),
                        _ => {}
                    }
                }
            }
            let mut body = vec![0u8; length.min(1 << 20)];
            if reader.read_exact(&mut body).is_err() {
                continue;
            }
            let _ =
                s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
            if tx.send((path, token, body)).is_err() {
                return;
            }
        }
    });
    (port, rx)
}

/// A call in one protocol: (name, path, headers, body).
type Call = (
    &'static str,
    &'static str,
    Vec<(&'static str, &'static str)>,
    Value,
);

/// One limited call in each protocol.
fn outage_calls() -> Vec<Call> {
    let parts_v1 = json!([{"data": {"query": "John Paul II"}}]);
    vec![
        (
            "A2A 0.3 JSON-RPC",
            "/api/v1/a2a",
            vec![],
            json!({"jsonrpc": "2.0", "id": 1, "method": "message/send",
                "params": send("pope_lookup", json!({"query": "John Paul II"}))}),
        ),
        (
            "A2A 1.0 JSON-RPC",
            "/api/v1/a2a",
            vec![("a2a-version", "1.0")],
            json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {
                "messageId": "m-v1", "role": "ROLE_USER", "parts": parts_v1,
                "metadata": {"skillId": "pope_lookup"}}}}),
        ),
        (
            "A2A 1.0 REST",
            "/api/v1/rest/message:send",
            vec![("a2a-version", "1.0")],
            json!({"message": {"messageId": "m-rest", "role": "ROLE_USER", "parts": parts_v1,
                "metadata": {"skillId": "pope_lookup"}}}),
        ),
        (
            "OpenAI chat",
            "/api/v1/chat/completions",
            vec![],
            json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": "What is grace?"}]}),
        ),
        (
            "MCP",
            "/mcp",
            vec![
                ("accept", "application/json, text/event-stream"),
                ("mcp-protocol-version", "2026-07-28"),
                ("mcp-method", "tools/call"),
                ("mcp-name", "get_pope"),
            ],
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
                "name": "get_pope", "arguments": {"query": "John Paul II"},
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientInfo": {"name": "replicas", "version": "0"},
                    "io.modelcontextprotocol/clientCapabilities": {}}}}),
        ),
    ]
}

/// POST `body` to `path`: the status, `Retry-After`, and the body as text.
fn post(
    port: u16,
    token: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &Value,
) -> (u16, Option<u64>, String) {
    let mut req = ureq::post(&format!("http://127.0.0.1:{port}{path}"))
        .set("authorization", &format!("Bearer {token}"))
        .timeout(Duration::from_secs(10));
    for (k, v) in headers {
        req = req.set(k, v);
    }
    let resp = match req.send_json(body.clone()) {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => return (0, None, e.to_string()),
    };
    let status = resp.status();
    let retry = resp.header("retry-after").and_then(|v| v.parse().ok());
    (status, retry, resp.into_string().unwrap_or_default())
}

/// Accepts connections and never answers: the LLM that hangs.
fn black_hole() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in l.incoming().flatten() {
            held.push(s);
        }
    });
    port
}

#[test]
fn two_replicas_share_tasks_limits_and_survive_a_kill() {
    let Some(pg) = common::server() else { return };
    if std::env::var("ECCLESIA_TEST_REDIS").is_err() {
        return skip("ECCLESIA_TEST_REDIS is not set (scripts/services.sh)");
    }
    let Ok(haproxy_bin) = std::env::var("ECCLESIA_TEST_HAPROXY") else {
        return skip("ECCLESIA_TEST_HAPROXY is not set (scripts/services.sh)");
    };
    let Some(bin) = binary() else {
        return skip("the ecclesia binary is not built (cargo build -p ecclesia, or ECCLESIA_BIN)");
    };
    let dir = tempfile::tempdir().expect("tmp");
    let store = dir.path().join("store");
    let config = dir.path().join("ecclesia.toml");
    let llm = black_hole();
    std::fs::write(
        &config,
        format!(
            "[state]\nlease_secs = {LEASE_SECS}\n\
             [limits]\non_outage = \"closed\"\ntimeout_ms = 200\n\
             [server]\npush_allow = [\"127.0.0.1\"]\n\
             [plans.load]\na2a = true\n\
             [corpus]\nembeddings = \"off\"\n\
             [qa]\nbackend = \"openai\"\nbase_url = \"http://127.0.0.1:{llm}/v1\"\nmodel = \"hangs\"\n\
             timeout_secs = 600\ntotal_timeout_secs = 600\nmax_retries = 0\n"
        ),
    )
    .expect("config");
    ingest(&bin, &store, &config);
    let redis_port = free_port();
    let mut redis = redis_server(redis_port);
    let cluster = Cluster {
        bin,
        store,
        config,
        state: common::fresh_database(&pg),
        limits: format!("redis://127.0.0.1:{redis_port}/"),
    };
    let load = cluster.key("load", "load");
    let pro = cluster.key("pro", "pro");
    let (pa, pb, ph) = (free_port(), free_port(), free_port());
    let mut a = cluster.replica(pa, "replica-a");
    let _b = cluster.replica(pb, "replica-b");
    let mut lb = haproxy(&haproxy_bin, dir.path(), ph, pa, pb);

    // A task created through A is read through B; another caller cannot see it.
    let created = pope(pa, &load).expect("a task through A");
    let id = created["result"]["id"]
        .as_str()
        .expect("a task id")
        .to_string();
    assert_eq!(created["result"]["status"]["state"], "completed");
    let read = rpc(pb, &load, "tasks/get", json!({"id": id})).expect("tasks/get through B");
    assert_eq!(read["result"]["id"], id.as_str());
    assert_eq!(read["result"]["artifacts"], created["result"]["artifacts"]);
    let theirs = rpc(pb, &pro, "tasks/get", json!({"id": id})).unwrap_or_else(|(_, v)| v);
    assert!(
        theirs["error"].is_object(),
        "another caller's task: {theirs}"
    );

    // A plan of 15 a minute: 60 concurrent calls over both replicas let exactly 15 through.
    let barrier = Arc::new(Barrier::new(60));
    let calls: Vec<_> = (0..60)
        .map(|i| {
            let (barrier, pro) = (barrier.clone(), pro.clone());
            let port = if i % 2 == 0 { pa } else { pb };
            std::thread::spawn(move || {
                barrier.wait();
                pope(port, &pro)
            })
        })
        .collect();
    let results: Vec<_> = calls
        .into_iter()
        .map(|h| h.join().expect("no panic"))
        .collect();
    let passed = results.iter().filter(|r| r.is_ok()).count();
    let limited = results
        .iter()
        .filter(|r| matches!(r, Err((429, _))))
        .count();
    assert_eq!((passed, limited), (15, 45), "{results:?}");

    // A task running on A is streamed (resubscribed) and cancelled through B.
    let running = start_hanging_question(pa, &load);
    let events = sse(pb, &load, "tasks/resubscribe", json!({"id": running}));
    let first = events
        .recv_timeout(Duration::from_secs(10))
        .expect("B streams A's task");
    assert_eq!(
        first["id"].as_str().or(first["taskId"].as_str()),
        Some(running.as_str()),
        "{first}"
    );
    // Webhooks of A's task set through B (B follows it on the bus) and through A (A runs
    // it): both in the shared store, each delivered to exactly once.
    let (hook, posts) = webhook();
    for (port, path) in [(pb, "b"), (pa, "a")] {
        let set = rpc(
            port,
            &load,
            "tasks/pushNotificationConfig/set",
            json!({"taskId": running, "pushNotificationConfig": {
                "id": path, "url": format!("http://127.0.0.1:{hook}/{path}"), "token": format!("tok-{path}")}}),
        )
        .expect("a push config");
        assert_eq!(set["result"]["taskId"], running.as_str(), "{set}");
    }
    let listed = rpc(
        pa,
        &load,
        "tasks/pushNotificationConfig/list",
        json!({"id": running}),
    )
    .expect("list through A");
    assert_eq!(
        listed["result"].as_array().map(Vec::len),
        Some(2),
        "A lists the config set through B: {listed}"
    );
    let canceled =
        rpc(pb, &load, "tasks/cancel", json!({"id": running})).expect("cancel through B");
    assert_eq!(
        canceled["result"]["status"]["state"], "canceled",
        "{canceled}"
    );
    let started = Instant::now();
    loop {
        let ev = events
            .recv_timeout(Duration::from_secs(10))
            .expect("B's stream gets the end of A's run");
        if ev["final"] == true {
            assert_eq!(ev["status"]["state"], "canceled", "{ev}");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10));
    }
    assert_eq!(
        task_state(pa, &load, &running).as_deref(),
        Some("canceled"),
        "A stopped it"
    );
    let mut delivered: Vec<(String, String)> = Vec::new();
    while let Ok((path, token, body)) = posts.recv_timeout(Duration::from_secs(10)) {
        assert_eq!(
            body["id"],
            running.as_str(),
            "a 0.3 webhook gets the task: {body}"
        );
        assert_eq!(body["status"]["state"], "canceled", "{body}");
        delivered.push((path, token));
        if delivered.len() == 2 {
            // Anything more within a second would be a duplicate.
            if let Ok(extra) = posts.recv_timeout(Duration::from_secs(1)) {
                panic!("a webhook was delivered to twice: {extra:?}");
            }
            break;
        }
    }
    delivered.sort();
    assert_eq!(
        delivered,
        [
            ("/a".to_string(), "tok-a".to_string()),
            ("/b".to_string(), "tok-b".to_string())
        ],
        "each webhook once, the one set through B by B"
    );
    // Canceled through A, which runs it: only B's follower can deliver B's webhook.
    let followed = start_hanging_question(pa, &load);
    rpc(
        pb,
        &load,
        "tasks/pushNotificationConfig/set",
        json!({"taskId": followed, "pushNotificationConfig": {
            "url": format!("http://127.0.0.1:{hook}/followed"), "token": "tok-f"}}),
    )
    .expect("a push config through B");
    rpc(pa, &load, "tasks/cancel", json!({"id": followed})).expect("cancel through A");
    let (path, token, body) = posts
        .recv_timeout(Duration::from_secs(10))
        .expect("B delivers the end of A's run to the webhook set through B");
    assert_eq!(
        (path.as_str(), token.as_str()),
        ("/followed", "tok-f"),
        "{body}"
    );
    assert_eq!(body["id"], followed.as_str(), "{body}");
    assert_eq!(body["status"]["state"], "canceled", "{body}");

    // kill -9 of A under 16 connections through the balancer.
    let hanging = start_hanging_question(pa, &load);
    assert_eq!(task_state(pb, &load, &hanging).as_deref(), Some("working"));
    let stop = Arc::new(AtomicBool::new(false));
    let done: Arc<Mutex<Vec<String>>> = Arc::default();
    let (lb_failed, b_failed) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let workers: Vec<_> = (0..16)
        .map(|i| {
            let (stop, done, load) = (stop.clone(), done.clone(), load.clone());
            // Two of the sixteen call B directly: none of theirs may fail.
            let (port, failed) = if i < 2 {
                (pb, b_failed.clone())
            } else {
                (ph, lb_failed.clone())
            };
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match pope(port, &load) {
                        Ok(v) if v["result"]["status"]["state"] == "completed" => {
                            let id = v["result"]["id"].as_str().unwrap_or_default().to_string();
                            done.lock().unwrap_or_else(|e| e.into_inner()).push(id);
                        }
                        _ => {
                            failed.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(2));
    a.kill9();
    let killed = Instant::now();
    std::thread::sleep(Duration::from_secs(3));
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        w.join().expect("no panic");
    }
    let done = done.lock().unwrap_or_else(|e| e.into_inner()).clone();
    eprintln!(
        "load: {} completed, {} failed through the balancer, {} failed on B",
        done.len(),
        lb_failed.load(Ordering::Relaxed),
        b_failed.load(Ordering::Relaxed)
    );
    assert!(done.len() > 50, "the load ran: {}", done.len());
    assert_eq!(b_failed.load(Ordering::Relaxed), 0, "no request to B fails");
    for id in &done {
        assert_eq!(
            task_state(pb, &load, id).as_deref(),
            Some("completed"),
            "task {id} lost"
        );
    }
    // A's running task fails within the lease (plus one heartbeat and the poll).
    loop {
        let state = task_state(pb, &load, &hanging);
        if state.as_deref() == Some("failed") {
            break;
        }
        assert!(
            killed.elapsed() < Duration::from_secs(LEASE_SECS * 2 + 3),
            "A's task is still {state:?} {:?} after the kill",
            killed.elapsed()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    eprintln!(
        "A's running task failed {:?} after the kill",
        killed.elapsed()
    );

    // A rejoins, and serves tasks made through B.
    let _a = cluster.replica(pa, "replica-a2");
    let via_a = rpc(pa, &load, "tasks/get", json!({"id": done[0]})).expect("A is back");
    assert_eq!(via_a["result"]["status"]["state"], "completed");

    // Redis stopped: limited calls are refused at once (fail closed), unlimited ones go on;
    // when it is back, limited calls pass again.
    let pro2 = cluster.key("pro2", "pro");
    redis.kill9();
    let started = Instant::now();
    for (name, path, headers, body) in outage_calls() {
        let (status, retry, text) = post(ph, &pro2, path, &headers, &body);
        assert!(
            text.contains("rate-limit store unavailable"),
            "{name}: {status} {text}"
        );
        if name == "MCP" {
            // A tool's failure is a tool result the model reads (`isError`), in a 200.
            assert_eq!(status, 200, "{name}: {text}");
            assert!(text.contains("\"isError\":true"), "{name}: {text}");
        } else {
            assert_eq!(status, 503, "{name}: fail closed is 503, not 429: {text}");
            assert!(
                retry.is_some_and(|s| s >= 1),
                "{name}: Retry-After {retry:?}"
            );
        }
    }
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "bounded: {:?}",
        started.elapsed()
    );
    assert!(
        pope(ph, &load).is_ok(),
        "an unlimited plan does not need Redis"
    );
    let _redis = redis_server(redis_port);
    let started = Instant::now();
    loop {
        if pope(ph, &pro2).is_ok() {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "limits did not recover"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    lb.kill9();
}
