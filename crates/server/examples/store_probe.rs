//! Task store under load, two figures of issue 15:
//!   1. expiry under load: `tasks/get`-style reads while a purge of
//!      `EXPIRED` expired rows runs (latency p50/p99/max of the reads);
//!   2. the size ceiling: writes of pope_lookup-sized tasks as fast as one
//!      thread can for `SECONDS`, upkeep every second (the server's `purge_every`), `MAX_MB` ceiling (largest
//!      file size seen, database + WAL).
//!
//! ```sh
//! cargo run --release -p ecclesia-server --example store_probe -- 200000 60 100
//! ```

use chrono::Utc;
use ecclesia_a2a::{Artifact, Message, Part, Role, Task, TaskState, TaskStatus};
use ecclesia_server::{SqliteStore, TaskRecord, TaskStore};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn rec(i: u64, state: TaskState, at: chrono::DateTime<Utc>, ttl: chrono::Duration) -> TaskRecord {
    // About the size of a pope_lookup task: a short question and a profile.
    let mut x = i.wrapping_mul(0x9E3779B97F4A7C15) | 1;
    let profile: String = (0..2500)
        .map(|k| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if k % 7 == 0 {
                ' '
            } else {
                char::from(b'a' + (x % 26) as u8)
            }
        })
        .collect();
    let status = TaskStatus {
        state,
        message: None,
        timestamp: None,
    };
    TaskRecord {
        task: Task {
            id: format!("task-{i:012}"),
            context_id: format!("ctx-{i}"),
            status: status.clone(),
            history: Some(vec![Message {
                message_id: format!("m{i}"),
                role: Role::User,
                parts: vec![Part::text("Benedict XVI")],
                task_id: None,
                context_id: None,
                metadata: None,
                extensions: None,
                reference_task_ids: None,
            }]),
            artifacts: Some(vec![Artifact {
                artifact_id: "pope".into(),
                name: Some("pope".into()),
                description: None,
                parts: vec![Part::text(profile)],
                metadata: None,
                extensions: None,
            }]),
            metadata: None,
        },
        owner: format!("key_{}", i % 50),
        skill: "pope_lookup".into(),
        created_at: at,
        expires_at: at + ttl,
        status_history: Vec::new(),
    }
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 - 1.0) * p) as usize]
}

fn file_mb(path: &std::path::Path) -> f64 {
    let mut total = 0;
    for suffix in ["", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        total += std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
    }
    total as f64 / 1048576.0
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let expired: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let seconds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(60);
    let max_mb: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let dir = tempfile::tempdir()?;

    // 1. Expiry under load.
    let path = dir.path().join("expiry.sqlite");
    let db = Arc::new(SqliteStore::open(&path)?);
    let then = Utc::now() - chrono::Duration::hours(2);
    let started = Instant::now();
    for i in 0..expired {
        db.put(&rec(
            i,
            TaskState::Completed,
            then,
            chrono::Duration::hours(1),
        ))?;
    }
    let live: Vec<TaskRecord> = (0..1000)
        .map(|i| {
            rec(
                expired + i,
                TaskState::Completed,
                Utc::now(),
                chrono::Duration::hours(24),
            )
        })
        .collect();
    for r in &live {
        db.put(r)?;
    }
    println!(
        "filled {expired} expired tasks in {:.1} s ({:.0} MB)",
        started.elapsed().as_secs_f64(),
        file_mb(&path)
    );
    let done = Arc::new(AtomicBool::new(false));
    let purger = {
        let (db, done) = (db.clone(), done.clone());
        std::thread::spawn(move || {
            let t = Instant::now();
            let m = db.maintain(Utc::now());
            done.store(true, Ordering::SeqCst);
            (m, t.elapsed())
        })
    };
    let mut lat = Vec::new();
    let mut i = 0;
    while !done.load(Ordering::SeqCst) {
        let r = &live[i % live.len()];
        let t = Instant::now();
        let got = db.get(&r.task.id, &r.owner, Utc::now())?;
        lat.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(got.is_some());
        i += 1;
    }
    let (m, took) = purger.join().expect("purge thread");
    let m = m?;
    println!(
        "expiry: {} rows in {:.1} s; {} reads meanwhile: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        m.expired,
        took.as_secs_f64(),
        lat.len(),
        pct(&mut lat, 0.5),
        pct(&mut lat, 0.99),
        pct(&mut lat, 1.0)
    );

    // 2. The size ceiling.
    let path = dir.path().join("ceiling.sqlite");
    let db = Arc::new(SqliteStore::open(&path)?);
    db.set_limits(ecclesia_server::StoreLimits {
        max_bytes: max_mb * 1024 * 1024,
        max_per_caller: u64::MAX,
    });
    let stop = Arc::new(AtomicBool::new(false));
    let upkeep = {
        let (db, stop) = (db.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut evicted = 0;
            while !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_secs(1));
                if let Ok(m) = db.maintain(Utc::now()) {
                    evicted += m.evicted;
                }
            }
            evicted
        })
    };
    let started = Instant::now();
    let mut n = 0u64;
    let mut largest: f64 = 0.0;
    while started.elapsed() < Duration::from_secs(seconds) {
        db.put(&rec(
            n,
            TaskState::Completed,
            Utc::now(),
            chrono::Duration::hours(24),
        ))?;
        n += 1;
        if n & 511 == 0 {
            largest = largest.max(file_mb(&path));
        }
    }
    stop.store(true, Ordering::SeqCst);
    let evicted = upkeep.join().expect("upkeep thread");
    largest = largest.max(file_mb(&path));
    println!(
        "ceiling {max_mb} MB: {n} tasks written in {seconds} s ({:.0}/s), {evicted} evicted; largest file {:.1} MB, at the end {:.1} MB",
        n as f64 / seconds as f64,
        largest,
        file_mb(&path)
    );
    Ok(())
}
