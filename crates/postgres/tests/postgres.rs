//! PostgreSQL only: migrations applied once when replicas start together, the key store
//! (checked beside SQLite's), leases between live replicas, the published generation.

mod common;

use ecclesia_a2a::{Task, TaskState, TaskStatus};
use ecclesia_postgres::{PgOptions, PgStore};
use ecclesia_server::{KeyStore, SqliteStore, TaskRecord, TaskStore};
use std::time::Duration;

fn quick() -> PgOptions {
    PgOptions {
        lease: Duration::from_millis(800),
        heartbeat: Duration::from_millis(200),
        ..PgOptions::default()
    }
}

#[test]
fn replicas_starting_at_once_apply_each_migration_once() {
    let Some(base) = common::server() else { return };
    let url = common::fresh_database(&base);
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || {
                PgStore::connect(&url, quick()).map(|s| s.replica_id().to_string())
            })
        })
        .collect();
    let mut ids: Vec<String> = handles
        .into_iter()
        .map(|h| h.join().expect("no panic").expect("every replica starts"))
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 4, "each replica has its own id");
    let store = PgStore::connect(&url, quick()).unwrap();
    let applied = store.applied_migrations().unwrap();
    let expected: Vec<i32> = ecclesia_postgres::migrate::MIGRATIONS
        .iter()
        .map(|m| m.0)
        .collect();
    assert_eq!(applied, expected);
}

fn check_keys(keys: &dyn KeyStore, name: &str) {
    assert!(!keys.has_active_keys().unwrap(), "{name}");
    let (k, token) = keys.create_key("parish", "pro").unwrap();
    assert!(
        token.starts_with("ecc_") && token.len() == 68,
        "{name}: {token}"
    );
    assert!(k.id.starts_with("key_"));
    assert!(keys.has_active_keys().unwrap());
    assert_eq!(
        keys.verify(&token).unwrap().map(|x| x.id),
        Some(k.id.clone()),
        "{name}"
    );
    assert!(keys.verify("ecc_wrong").unwrap().is_none());
    let (k2, _) = keys.create_key("diocese", "free").unwrap();
    let listed: Vec<_> = keys
        .list_keys()
        .unwrap()
        .into_iter()
        .map(|x| x.id)
        .collect();
    assert_eq!(listed.len(), 2);
    assert!(listed.contains(&k.id) && listed.contains(&k2.id));
    assert_eq!(keys.revoke_key("parish").unwrap(), 1, "{name}: by name");
    assert_eq!(keys.revoke_key("parish").unwrap(), 0, "{name}: only once");
    assert!(
        keys.verify(&token).unwrap().is_none(),
        "{name}: a revoked key is refused"
    );
    assert!(
        keys.is_revoked(&token).unwrap(),
        "{name}: and known as revoked"
    );
    assert!(
        !keys.is_revoked("ecc_wrong").unwrap(),
        "{name}: an unknown token is not revoked"
    );
    assert!(keys
        .list_keys()
        .unwrap()
        .iter()
        .any(|x| x.id == k.id && x.revoked_at.is_some()));
    assert_eq!(keys.revoke_key(&k2.id).unwrap(), 1, "{name}: by id");
    assert!(!keys.has_active_keys().unwrap());
}

#[test]
fn keys_behave_as_in_sqlite() {
    check_keys(&SqliteStore::in_memory().unwrap(), "sqlite");
    let Some(base) = common::server() else { return };
    let store = PgStore::connect(&common::fresh_database(&base), quick()).unwrap();
    check_keys(&store, "postgres");
}

fn working(id: &str) -> TaskRecord {
    let now = chrono::Utc::now();
    let status = TaskStatus {
        state: TaskState::Working,
        message: None,
        timestamp: None,
    };
    TaskRecord {
        task: Task {
            id: id.into(),
            context_id: "c".into(),
            status: status.clone(),
            history: None,
            artifacts: None,
            metadata: None,
        },
        owner: "o".into(),
        skill: "catholic_qa".into(),
        created_at: now,
        expires_at: now + chrono::Duration::hours(1),
        status_history: vec![status],
    }
}

#[test]
fn a_live_replicas_tasks_survive_and_a_dead_ones_fail_within_the_lease() {
    let Some(base) = common::server() else { return };
    let url = common::fresh_database(&base);
    let a = PgStore::connect(&url, quick()).unwrap();
    let b = PgStore::connect(&url, quick()).unwrap();
    a.put(&working("on-a")).unwrap();
    b.put(&working("on-b")).unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // Both alive: nothing fails, whoever sweeps.
    assert_eq!(a.fail_unfinished(chrono::Utc::now()).unwrap(), 0);
    assert_eq!(
        b.get("on-a", "o", chrono::Utc::now())
            .unwrap()
            .unwrap()
            .state(),
        TaskState::Working
    );
    assert_eq!(b.live_replicas().unwrap().len(), 2);
    drop(a);
    // B's heartbeat fails A's task once A's lease (0.8 s) ran out.
    let started = std::time::Instant::now();
    loop {
        let r = b.get("on-a", "o", chrono::Utc::now()).unwrap().unwrap();
        if r.state() == TaskState::Failed {
            let text = serde_json::to_string(&r.task.status.message).unwrap();
            assert!(text.contains("stopped before it finished"), "{text}");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "A's task still {:?}",
            r.state()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        b.get("on-b", "o", chrono::Utc::now())
            .unwrap()
            .unwrap()
            .state(),
        TaskState::Working
    );
    assert_eq!(b.live_replicas().unwrap().len(), 1);
}

#[test]
fn the_published_generation_is_shared() {
    let Some(base) = common::server() else { return };
    let url = common::fresh_database(&base);
    let a = PgStore::connect(&url, quick()).unwrap();
    let b = PgStore::connect(&url, quick()).unwrap();
    assert_eq!(b.published_generation().unwrap(), None);
    a.publish_generation("gen-20261201-1").unwrap();
    assert_eq!(
        b.published_generation().unwrap().as_deref(),
        Some("gen-20261201-1")
    );
    a.publish_generation("gen-20261201-2").unwrap();
    assert_eq!(
        b.published_generation().unwrap().as_deref(),
        Some("gen-20261201-2")
    );
}

#[test]
fn one_replica_at_a_time_does_the_upkeep() {
    let Some(base) = common::server() else { return };
    let url = common::fresh_database(&base);
    let options = || PgOptions {
        hold_lease: false,
        upkeep_every: Duration::from_secs(2),
        ..quick()
    };
    let (a, b) = (
        PgStore::connect(&url, options()).unwrap(),
        PgStore::connect(&url, options()).unwrap(),
    );
    let expired = |id: &str| {
        let mut r = working(id);
        r.task.status.state = TaskState::Completed;
        r.expires_at = chrono::Utc::now() - chrono::Duration::minutes(1);
        r
    };
    a.put(&expired("x1")).unwrap();
    let now = chrono::Utc::now();
    assert_eq!(a.maintain(now).unwrap().expired, 1, "A has the turn");
    b.put(&expired("x2")).unwrap();
    assert_eq!(
        b.maintain(now).unwrap().expired,
        0,
        "B skips: A did the upkeep less than 2 s ago"
    );
    assert_eq!(a.maintain(now).unwrap().expired, 0, "and so does A itself");
    std::thread::sleep(Duration::from_millis(2100));
    assert_eq!(
        b.maintain(chrono::Utc::now()).unwrap().expired,
        1,
        "after the interval the next to ask takes the turn"
    );
}

#[test]
fn a_server_that_does_not_answer_is_a_bounded_error() {
    // A port nothing listens on: connecting fails within the call deadline, never hangs.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let started = std::time::Instant::now();
    let r = PgStore::connect(
        &format!("postgres://ecclesia@127.0.0.1:{port}/x"),
        PgOptions {
            call_timeout: Duration::from_secs(2),
            ..PgOptions::default()
        },
    );
    assert!(r.is_err());
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(PgStore::connect("mysql://nope", PgOptions::default()).is_err());
}
