//! The connection and queue figures of issue 15, against a real listener.
//!
//! ```sh
//! cargo build --release -p ecclesia-server --example conn_probe
//! # the server, with the common 1,024-descriptor limit (soft and hard):
//! (ulimit -n 1024; ulimit -Hn 1024; target/release/examples/conn_probe serve 18090) &
//! # the client: 1,100 slowloris connections, 10 probes, then a 10 s QA flood
//! (ulimit -n 8192; target/release/examples/conn_probe attack 18090 $!)
//! ```
//! The server's skills stand in for the real ones: `catholic_qa` sleeps
//! 300 ms (slow lane), `pope_lookup` answers at once (fast lane).

use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, Skill, SkillContext, SkillError, SkillRegistry, SkillRequest,
};
use ecclesia_server::{AppState, Clock, Plan, ServerConfig, SqliteStore, SystemClock};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Qa;
impl Skill for Qa {
    fn card(&self) -> AgentSkill {
        skill_card(
            "catholic_qa",
            "QA stand-in",
            "Sleeps 300 ms",
            &["test"],
            &[],
        )
    }
    fn run(&self, _: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        for _ in 0..30 {
            ctx.check()?;
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(vec![artifact("qa", vec![Part::text("an answer")])])
    }
    fn extra_pool(&self) -> Option<&'static str> {
        Some("catholic_qa")
    }
}

struct Pope;
impl Skill for Pope {
    fn card(&self) -> AgentSkill {
        skill_card(
            "pope_lookup",
            "Pope stand-in",
            "Answers at once",
            &["test"],
            &[],
        )
    }
    fn run(&self, req: &SkillRequest, _: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        Ok(vec![artifact(
            "pope",
            vec![Part::text(req.text.clone().unwrap_or_default())],
        )])
    }
}

fn serve(port: u16) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let mut registry = SkillRegistry::default();
    registry.register(Qa).register(Pope);
    let mut config = ServerConfig {
        anonymous: true,
        listen: ([127, 0, 0, 1], port).into(),
        ..ServerConfig::default()
    };
    // Only the queues bound the flood here, not the rate limits.
    config.plans.insert("anonymous".into(), Plan::unlimited());
    let db = Arc::new(SqliteStore::open(&dir.path().join("state.sqlite"))?);
    let state = AppState::with_parts(
        config,
        registry,
        db.clone(),
        db.clone(),
        Some(db),
        Arc::new(SystemClock) as Arc<dyn Clock>,
    );
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        ecclesia_server::serve(listener, state, std::future::pending()).await
    })
}

fn request(port: u16, body: &str, timeout: Duration) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(timeout)).ok()?;
    let req = format!(
        "POST /api/v1/a2a HTTP/1.1\r\nHost: p\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    let status = out.split_whitespace().nth(1)?.parse().ok()?;
    Some((status, out))
}

fn send_body(skill: &str, text: &str, blocking: bool) -> String {
    serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {
        "message": {"kind": "message", "role": "user", "messageId": "m",
            "parts": [{"kind": "text", "text": text}], "metadata": {"skillId": skill}},
        "configuration": {"blocking": blocking}}})
    .to_string()
}

fn rss_mb(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .unwrap_or(0.0)
        / 1024.0
}

fn attack(port: u16, pid: u32) -> anyhow::Result<()> {
    let healthz = || {
        let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
        s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n")
            .ok()?;
        let mut out = String::new();
        s.read_to_string(&mut out).ok()?;
        out.starts_with("HTTP/1.1 200").then_some(())
    };
    println!("server RSS at start: {:.0} MB", rss_mb(pid));
    let started = Instant::now();
    let mut slow = Vec::new();
    for _ in 0..1100 {
        if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
            let _ = s.write_all(b"POST /api/v1/a2a HTTP/1.1\r\nHost: p\r\nX-Slow: ");
            slow.push(s);
        }
    }
    println!(
        "{} slowloris connections open after {:.1} s",
        slow.len(),
        started.elapsed().as_secs_f64()
    );
    let mut served = 0;
    for _ in 0..10 {
        let t = Instant::now();
        let ok = healthz().is_some();
        served += ok as usize;
        println!(
            "  probe: {} in {:.0} ms",
            if ok { "served" } else { "FAILED" },
            t.elapsed().as_secs_f64() * 1000.0
        );
    }
    println!("normal client: {served}/10 probes served");
    // When did the server drop them? (read returns 0 or an error)
    let t = Instant::now();
    let mut closed = 0;
    for s in &mut slow {
        s.set_read_timeout(Some(Duration::from_secs(30)))?;
        let mut b = [0u8; 16];
        if matches!(s.read(&mut b), Ok(0) | Err(_)) {
            closed += 1;
        }
    }
    println!(
        "{closed}/{} slow connections dropped, the last {:.1} s after the probes ({:.1} s after they opened)",
        slow.len(),
        t.elapsed().as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    drop(slow);

    // A 10-second flood of non-blocking QA from 16 clients.
    let accepted = Arc::new(AtomicUsize::new(0));
    let busy = Arc::new(AtomicUsize::new(0));
    let flood_end = Instant::now() + Duration::from_secs(10);
    let workers: Vec<_> = (0..16)
        .map(|_| {
            let (accepted, busy) = (accepted.clone(), busy.clone());
            std::thread::spawn(move || {
                while Instant::now() < flood_end {
                    match request(
                        port,
                        &send_body("catholic_qa", "What is grace?", false),
                        Duration::from_secs(10),
                    ) {
                        Some((200, _)) => accepted.fetch_add(1, Ordering::Relaxed),
                        Some((503, _)) => busy.fetch_add(1, Ordering::Relaxed),
                        _ => 0,
                    };
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(5));
    let t = Instant::now();
    let r = request(
        port,
        &send_body("pope_lookup", "Leo XIII", true),
        Duration::from_secs(60),
    );
    let lookup = t.elapsed();
    for w in workers {
        let _ = w.join();
    }
    println!(
        "QA flood: {} queued, {} refused busy (503/-32030); RSS {:.0} MB",
        accepted.load(Ordering::Relaxed),
        busy.load(Ordering::Relaxed),
        rss_mb(pid)
    );
    println!(
        "blocking pope_lookup during the flood: HTTP {:?} in {:.1} ms",
        r.map(|r| r.0),
        lookup.as_secs_f64() * 1000.0
    );
    std::thread::sleep(Duration::from_secs(15));
    println!("server RSS after the queue drained: {:.0} MB", rss_mb(pid));
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let port: u16 = args.get(2).and_then(|p| p.parse().ok()).unwrap_or(18090);
    match args.get(1).map(String::as_str) {
        Some("serve") => serve(port),
        Some("attack") => attack(port, args.get(3).and_then(|p| p.parse().ok()).unwrap_or(0)),
        _ => anyhow::bail!("usage: conn_probe serve PORT | attack PORT SERVER_PID"),
    }
}
