//! One push-config suite, run against the embedded SQLite store and the PostgreSQL one:
//! insert and replace, owner-only reads, lists in id order, deletes, every config of a task
//! for delivery, configs that outlive a reopen (a new process, another replica), and the
//! configs of tasks that are gone leaving with them. (PostgreSQL runs when
//! `ECCLESIA_TEST_POSTGRES` is set: `scripts/services.sh`.)

mod common;

use chrono::{Duration, Utc};
use ecclesia_a2a::{Message, Part, Role, Task, TaskState, TaskStatus};
use ecclesia_postgres::{PgOptions, PgStore};
use ecclesia_server::{
    PushAuth, PushConfig, PushConfigStore, PushVersion, SqliteStore, TaskRecord, TaskStore,
};
use std::sync::Arc;

/// Both traits of one store.
trait Both: PushConfigStore + TaskStore {}
impl<T: PushConfigStore + TaskStore> Both for T {}

/// Storage that can be opened again (a new process, or another replica, on the same data).
trait Storage {
    fn name(&self) -> &'static str;
    fn open(&self) -> Arc<dyn Both>;
}

struct Sqlite(tempfile::TempDir);

impl Storage for Sqlite {
    fn name(&self) -> &'static str {
        "sqlite"
    }
    fn open(&self) -> Arc<dyn Both> {
        Arc::new(SqliteStore::open(&self.0.path().join("state.sqlite")).expect("sqlite opens"))
    }
}

struct Postgres(String);

impl Storage for Postgres {
    fn name(&self) -> &'static str {
        "postgres"
    }
    fn open(&self) -> Arc<dyn Both> {
        Arc::new(
            PgStore::connect(
                &self.0,
                PgOptions {
                    hold_lease: false,
                    upkeep_every: std::time::Duration::ZERO,
                    ..PgOptions::default()
                },
            )
            .expect("postgres connects"),
        )
    }
}

fn each(test: impl Fn(&dyn Storage)) {
    let mut v: Vec<Box<dyn Storage>> = vec![Box::new(Sqlite(tempfile::tempdir().expect("tmp")))];
    if let Some(base) = common::server() {
        v.push(Box::new(Postgres(common::fresh_database(&base))));
    }
    for s in v {
        eprintln!("-- {}", s.name());
        test(s.as_ref());
    }
}

fn config(task: &str, id: &str, owner: &str, url: &str) -> PushConfig {
    PushConfig {
        id: id.into(),
        task_id: task.into(),
        owner: owner.into(),
        url: url.into(),
        token: Some(format!("tok-{id}")),
        authentication: Some(PushAuth {
            scheme: "Bearer".into(),
            credentials: Some("s3cret".into()),
        }),
        version: PushVersion::V1,
    }
}

fn record(id: &str, owner: &str, ttl: Duration) -> TaskRecord {
    let now = Utc::now();
    TaskRecord {
        task: Task {
            id: id.into(),
            context_id: format!("ctx-{id}"),
            status: TaskStatus {
                state: TaskState::Completed,
                message: None,
                timestamp: Some("2026-12-01T12:00:00.000Z".into()),
            },
            history: Some(vec![Message {
                message_id: "m1".into(),
                role: Role::User,
                parts: vec![Part::text("who is the pope?")],
                task_id: None,
                context_id: None,
                metadata: None,
                extensions: None,
                reference_task_ids: None,
            }]),
            artifacts: None,
            metadata: None,
        },
        owner: owner.into(),
        skill: "pope_lookup".into(),
        created_at: now,
        expires_at: now + ttl,
        status_history: Vec::new(),
    }
}

#[test]
fn a_config_is_stored_replaced_and_read_back_whole() {
    each(|s| {
        let db = s.open();
        let mut c = config("t1", "c1", "alice", "https://hooks.example/a");
        c.version = PushVersion::V03;
        db.put_config(&c).unwrap();
        assert_eq!(db.get_config("alice", "t1", "c1").unwrap(), Some(c.clone()));
        // The same (task, id) again replaces it.
        let mut replaced = c.clone();
        replaced.url = "https://hooks.example/b".into();
        replaced.token = None;
        replaced.authentication = None;
        db.put_config(&replaced).unwrap();
        assert_eq!(
            db.get_config("alice", "t1", "c1").unwrap(),
            Some(replaced.clone())
        );
        assert_eq!(db.list_configs("alice", "t1").unwrap(), vec![replaced]);
        assert_eq!(db.get_config("alice", "t1", "nope").unwrap(), None);
        assert_eq!(db.get_config("alice", "t2", "c1").unwrap(), None);
    });
}

#[test]
fn only_the_owner_reads_lists_and_deletes_but_every_config_is_delivered_to() {
    each(|s| {
        let db = s.open();
        db.put_config(&config("t1", "b", "alice", "https://x/b"))
            .unwrap();
        db.put_config(&config("t1", "a", "alice", "https://x/a"))
            .unwrap();
        db.put_config(&config("t1", "z", "bob", "https://x/z"))
            .unwrap();
        db.put_config(&config("t2", "a", "alice", "https://x/t2"))
            .unwrap();
        let ids = |v: Vec<PushConfig>| v.into_iter().map(|c| c.id).collect::<Vec<_>>();
        assert_eq!(ids(db.list_configs("alice", "t1").unwrap()), ["a", "b"]);
        assert_eq!(ids(db.list_configs("bob", "t1").unwrap()), ["z"]);
        assert!(db.list_configs("carol", "t1").unwrap().is_empty());
        assert_eq!(db.get_config("bob", "t1", "a").unwrap(), None);
        assert!(!db.delete_config("bob", "t1", "a").unwrap(), "not bob's");
        let mut all = ids(db.configs_for_dispatch("t1").unwrap());
        all.sort();
        assert_eq!(all, ["a", "b", "z"]);
        assert!(db.delete_config("alice", "t1", "a").unwrap());
        assert!(
            !db.delete_config("alice", "t1", "a").unwrap(),
            "already gone"
        );
        assert_eq!(ids(db.list_configs("alice", "t1").unwrap()), ["b"]);
        assert_eq!(ids(db.configs_for_dispatch("t2").unwrap()), ["a"]);
    });
}

#[test]
fn configs_outlive_a_reopen_and_are_seen_by_another_process() {
    each(|s| {
        let first = s.open();
        let c = config("t1", "c1", "alice", "https://hooks.example/a");
        first.put_config(&c).unwrap();
        let second = s.open();
        assert_eq!(second.get_config("alice", "t1", "c1").unwrap(), Some(c));
        assert!(second.delete_config("alice", "t1", "c1").unwrap());
        assert!(first.configs_for_dispatch("t1").unwrap().is_empty());
    });
}

#[test]
fn the_configs_of_a_task_that_expired_go_with_it() {
    each(|s| {
        let db = s.open();
        db.put(&record("gone", "alice", Duration::milliseconds(1)))
            .unwrap();
        db.put(&record("kept", "alice", Duration::hours(10)))
            .unwrap();
        db.put_config(&config("gone", "c", "alice", "https://x/g"))
            .unwrap();
        db.put_config(&config("kept", "c", "alice", "https://x/k"))
            .unwrap();
        // Upkeep two hours on: the expired task and (past any grace) its config are gone.
        db.maintain(Utc::now() + Duration::hours(2)).unwrap();
        assert_eq!(db.configs_for_dispatch("kept").unwrap().len(), 1);
        assert!(
            db.configs_for_dispatch("gone").unwrap().is_empty(),
            "{}: the expired task's config is left",
            s.name()
        );
    });
}

/// A blocking send attaches its webhook before the task's only write (at the end of its
/// run), while upkeep may run (another replica's, or this one's): both stores keep such a
/// config for a grace period.
#[test]
fn a_config_whose_task_is_not_written_yet_is_kept() {
    each(|s| {
        let db = s.open();
        db.put_config(&config("running", "c", "alice", "https://x/r"))
            .unwrap();
        db.maintain(Utc::now()).unwrap();
        assert_eq!(
            db.configs_for_dispatch("running").unwrap().len(),
            1,
            "{}",
            s.name()
        );
    });
}
