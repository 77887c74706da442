//! The Redis limiter against a real Redis (`ECCLESIA_TEST_REDIS`, from
//! `scripts/services.sh`): the same decisions as the in-process limiter, all pools or none,
//! one limit held by several limiters at once, and outages (fail closed, fail open,
//! recovery) on a Redis of its own that the test stops and starts.

use ecclesia_redis::{OnOutage, RedisLimiter, RedisOptions};
use ecclesia_state::{InMemoryLimiter, PoolRequest, RateLimiter};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn server() -> Option<String> {
    match std::env::var("ECCLESIA_TEST_REDIS") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var("ECCLESIA_REQUIRE_SERVICES").as_deref() != Ok("1"),
                "ECCLESIA_REQUIRE_SERVICES=1 but ECCLESIA_TEST_REDIS is not set (run under scripts/services.sh)"
            );
            eprintln!("skipped: ECCLESIA_TEST_REDIS is not set (scripts/services.sh starts Redis)");
            None
        }
    }
}

/// Options with a prefix of this test's own (tests share one Redis).
fn options(on_outage: OnOutage) -> RedisOptions {
    RedisOptions {
        prefix: format!("test:{:016x}:", rand::random::<u64>()),
        on_outage,
        ..RedisOptions::default()
    }
}

fn pool(name: &str, limit: u32) -> PoolRequest {
    PoolRequest {
        pool: name.into(),
        key: format!("{name}:caller"),
        limit,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decisions_match_the_in_process_limiter() {
    let Some(url) = server() else { return };
    let redis = RedisLimiter::new(&url, options(OnOutage::Closed)).unwrap();
    let local = InMemoryLimiter::default();
    let t = Instant::now();
    let calls: Vec<Vec<PoolRequest>> = vec![
        vec![pool("send", 4)],
        vec![pool("send", 4), pool("qa", 2)],
        vec![pool("send", 4), pool("qa", 2)],
        vec![pool("send", 4), pool("qa", 2)], // qa is full: refused, send keeps its slot
        vec![pool("send", 4)],
        vec![pool("send", 4)], // send is full
        vec![pool("zero", 0)],
        vec![],
    ];
    for (i, pools) in calls.iter().enumerate() {
        let a = redis.acquire(pools, t).await;
        let b = local.take(pools, t);
        match (&a, &b) {
            (Some(a), Some(b)) => {
                assert_eq!(
                    (a.allowed, &a.pool, a.limit, a.remaining),
                    (b.allowed, &b.pool, b.limit, b.remaining),
                    "call {i}"
                );
                // Reset: seconds until the oldest slot frees (within the second it took).
                assert!(
                    a.reset_secs.abs_diff(b.reset_secs) <= 1,
                    "call {i}: {a:?} {b:?}"
                );
            }
            (None, None) => {}
            _ => panic!("call {i}: {a:?} vs {b:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_window_slides() {
    let Some(url) = server() else { return };
    let limiter = RedisLimiter::new(
        &url,
        RedisOptions {
            window: Duration::from_secs(1),
            ..options(OnOutage::Closed)
        },
    )
    .unwrap();
    let t = Instant::now();
    for _ in 0..3 {
        assert!(limiter.acquire(&[pool("a", 3)], t).await.unwrap().allowed);
    }
    let refused = limiter.acquire(&[pool("a", 3)], t).await.unwrap();
    assert!(!refused.allowed);
    assert_eq!(refused.reset_secs, 1);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let again = limiter.acquire(&[pool("a", 3)], t).await.unwrap();
    assert!(again.allowed, "{again:?}");
    assert_eq!(again.remaining, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_limiters_hold_one_limit_under_concurrency() {
    let Some(url) = server() else { return };
    let opts = options(OnOutage::Closed);
    // Two "replicas", 60 calls at once, a plan of 15 a minute: exactly 15 pass.
    let replicas: Vec<Arc<RedisLimiter>> = (0..2)
        .map(|_| Arc::new(RedisLimiter::new(&url, opts.clone()).unwrap()))
        .collect();
    let barrier = Arc::new(tokio::sync::Barrier::new(60));
    let handles: Vec<_> = (0..60)
        .map(|i| {
            let l = replicas[i % 2].clone();
            let barrier = barrier.clone();
            tokio::spawn(async move {
                barrier.wait().await;
                l.acquire(&[pool("send", 15), pool("qa", 100)], Instant::now())
                    .await
                    .expect("limited")
            })
        })
        .collect();
    let mut decisions = Vec::new();
    for h in handles {
        decisions.push(h.await.unwrap());
    }
    let allowed = decisions.iter().filter(|d| d.allowed).count();
    assert_eq!(allowed, 15, "{decisions:?}");
    assert!(decisions
        .iter()
        .filter(|d| !d.allowed)
        .all(|d| d.pool == "send" && d.remaining == 0 && d.reset_secs >= 1));
    // The refused calls took nothing from the qa pool: 85 left.
    let d = replicas[0]
        .acquire(&[pool("qa", 100)], Instant::now())
        .await
        .unwrap();
    assert_eq!(d.remaining, 84);
}

/// A Redis of the test's own, to stop and start.
struct OwnRedis {
    port: u16,
    child: Option<Child>,
}

impl OwnRedis {
    fn start(port: u16) -> OwnRedis {
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
            .expect("redis-server runs (scripts/services.sh needs it too)");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "redis-server did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        OwnRedis {
            port,
            child: Some(child),
        }
    }

    fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        self.stop();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_fails_closed_or_open_within_the_timeout_and_recovers() {
    if server().is_none() {
        return;
    }
    let port = free_port();
    let mut redis = OwnRedis::start(port);
    let url = format!("redis://127.0.0.1:{}/", redis.port);
    let retry = Duration::from_millis(300);
    let closed = RedisLimiter::new(
        &url,
        RedisOptions {
            retry_after: retry,
            ..options(OnOutage::Closed)
        },
    )
    .unwrap();
    let open = RedisLimiter::new(
        &url,
        RedisOptions {
            retry_after: retry,
            ..options(OnOutage::Open)
        },
    )
    .unwrap();
    let p = [pool("send", 10)];
    assert!(closed.acquire(&p, Instant::now()).await.unwrap().allowed);
    assert!(open.acquire(&p, Instant::now()).await.unwrap().allowed);
    assert!(closed.ping().await);

    redis.stop();
    for _ in 0..5 {
        let started = Instant::now();
        let d = closed.acquire(&p, Instant::now()).await.expect("a refusal");
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "bounded: {:?}",
            started.elapsed()
        );
        assert!(!d.allowed);
        assert!(d.unavailable, "an outage, not a full pool: {d:?}");
        assert!(d.reset_secs >= 1);
        let started = Instant::now();
        assert!(
            open.acquire(&p, Instant::now()).await.is_none(),
            "fail open: unlimited"
        );
        assert!(started.elapsed() < Duration::from_secs(1));
    }
    assert!(!closed.ping().await);
    // Past the retry time one call probes Redis (bounded); calls meanwhile do not wait.
    tokio::time::sleep(retry + Duration::from_millis(50)).await;
    let started = Instant::now();
    let mut probes = Vec::new();
    for _ in 0..8 {
        probes.push(closed.acquire(&p, Instant::now()).await);
    }
    assert!(
        probes
            .iter()
            .all(|d| d.as_ref().is_some_and(|d| d.unavailable)),
        "{probes:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "one bounded probe: {:?}",
        started.elapsed()
    );
    // Unlimited calls never ask Redis.
    assert!(closed.acquire(&[], Instant::now()).await.is_none());

    let _redis = OwnRedis::start(port);
    tokio::time::sleep(retry + Duration::from_millis(100)).await;
    let started = Instant::now();
    loop {
        if let Some(d) = closed.acquire(&p, Instant::now()).await {
            if d.allowed {
                break;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the limiter did not recover"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(open
        .acquire(&p, Instant::now())
        .await
        .is_some_and(|d| d.allowed));
}
