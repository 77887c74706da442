//! One task-store suite, run against the embedded SQLite store and the PostgreSQL one: ids,
//! ownership, updates, history, artifacts, expiry, the per-caller cap, lists and their
//! cursors, unfinished tasks of a process that is gone. (PostgreSQL runs when
//! `ECCLESIA_TEST_POSTGRES` is set: `scripts/services.sh`.)

mod common;

use chrono::{DateTime, Duration, Utc};
use ecclesia_a2a::{Artifact, Message, Part, Role, Task, TaskState, TaskStatus};
use ecclesia_postgres::{PgOptions, PgStore};
use ecclesia_server::{SqliteStore, StoreLimits, TaskListQuery, TaskRecord, TaskStore};
use std::sync::Arc;

/// Storage that can be opened again (a new process on the same data).
trait Storage {
    fn name(&self) -> &'static str;
    fn open(&self, limits: StoreLimits) -> Arc<dyn TaskStore>;
}

struct Sqlite(tempfile::TempDir);

impl Storage for Sqlite {
    fn name(&self) -> &'static str {
        "sqlite"
    }
    fn open(&self, limits: StoreLimits) -> Arc<dyn TaskStore> {
        let db = SqliteStore::open(&self.0.path().join("state.sqlite")).expect("sqlite opens");
        db.set_limits(limits);
        Arc::new(db)
    }
}

struct Postgres(String);

impl Storage for Postgres {
    fn name(&self) -> &'static str {
        "postgres"
    }
    fn open(&self, limits: StoreLimits) -> Arc<dyn TaskStore> {
        let db = PgStore::connect(
            &self.0,
            PgOptions {
                lease: std::time::Duration::from_millis(800),
                heartbeat: std::time::Duration::from_millis(200),
                upkeep_every: std::time::Duration::ZERO,
                ..PgOptions::default()
            },
        )
        .expect("postgres connects");
        db.set_limits(limits);
        Arc::new(db)
    }
}

/// A fresh storage of each kind available.
fn storages() -> Vec<Box<dyn Storage>> {
    let mut v: Vec<Box<dyn Storage>> = vec![Box::new(Sqlite(tempfile::tempdir().expect("tmp")))];
    if let Some(base) = common::server() {
        v.push(Box::new(Postgres(common::fresh_database(&base))));
    }
    v
}

fn each(test: impl Fn(&dyn Storage)) {
    for s in storages() {
        eprintln!("-- {}", s.name());
        test(s.as_ref());
    }
}

fn status(state: TaskState) -> TaskStatus {
    TaskStatus {
        state,
        message: None,
        timestamp: Some("2026-12-01T12:00:00.000Z".into()),
    }
}

fn message(role: Role, text: &str) -> Message {
    Message {
        message_id: format!("m-{}", text.len()),
        role,
        parts: vec![Part::text(text)],
        task_id: None,
        context_id: None,
        metadata: None,
        extensions: None,
        reference_task_ids: None,
    }
}

fn rec(
    id: &str,
    owner: &str,
    ctx: &str,
    state: TaskState,
    at: DateTime<Utc>,
    text: &str,
) -> TaskRecord {
    TaskRecord {
        task: Task {
            id: id.into(),
            context_id: ctx.into(),
            status: status(state),
            history: Some(vec![
                message(Role::User, text),
                message(Role::Agent, "answer"),
            ]),
            artifacts: Some(vec![Artifact {
                artifact_id: format!("a-{id}"),
                name: Some("answer".into()),
                description: None,
                parts: vec![Part::text(text)],
                metadata: None,
                extensions: None,
            }]),
            metadata: None,
        },
        owner: owner.into(),
        skill: "pope_lookup".into(),
        created_at: at,
        expires_at: at + Duration::hours(1),
        status_history: vec![status(state)],
    }
}

fn now() -> DateTime<Utc> {
    // Whole milliseconds: both stores keep times to the millisecond.
    DateTime::from_timestamp_millis(Utc::now().timestamp_millis()).expect("now")
}

#[test]
fn a_task_round_trips_and_only_its_owner_sees_it() {
    each(|s| {
        let db = s.open(StoreLimits::default());
        let t = now();
        let r = rec("t1", "key_a", "c1", TaskState::Completed, t, "hello");
        db.put(&r).unwrap();
        let back = db.get("t1", "key_a", t).unwrap().expect("stored");
        assert_eq!(back.task, r.task, "{}", s.name());
        assert_eq!(back.owner, "key_a");
        assert_eq!(back.skill, "pope_lookup");
        assert_eq!(back.created_at, t);
        assert_eq!(back.expires_at, r.expires_at);
        assert!(
            back.status_history.is_empty(),
            "the status history is not kept"
        );
        assert!(db.get("t1", "key_b", t).unwrap().is_none(), "{}", s.name());
        assert!(db.get("nope", "key_a", t).unwrap().is_none());
        assert_eq!(db.count(t).unwrap(), 1);
    });
}

#[test]
fn an_update_keeps_the_first_owner_skill_and_creation_time() {
    each(|s| {
        let db = s.open(StoreLimits::default());
        let t = now();
        let mut r = rec("t1", "key_a", "c1", TaskState::Working, t, "q");
        db.put(&r).unwrap();
        r.set_status(status(TaskState::Completed));
        r.task.artifacts = Some(vec![]);
        r.skill = "other".into();
        r.created_at = t + Duration::seconds(5);
        r.expires_at = t + Duration::hours(2);
        db.put(&r).unwrap();
        let back = db.get("t1", "key_a", t).unwrap().expect("stored");
        assert_eq!(back.state(), TaskState::Completed, "{}", s.name());
        assert_eq!(back.task.artifacts, Some(vec![]));
        assert_eq!(back.skill, "pope_lookup");
        assert_eq!(back.created_at, t);
        assert_eq!(
            back.expires_at,
            t + Duration::hours(2),
            "expiry follows the update"
        );
        assert_eq!(db.count(t).unwrap(), 1);
    });
}

#[test]
fn big_user_messages_are_shortened_but_artifacts_kept_whole() {
    each(|s| {
        let db = s.open(StoreLimits::default());
        let t = now();
        let big = "é".repeat(20_000);
        db.put(&rec("t", "o", "c", TaskState::Completed, t, &big))
            .unwrap();
        let back = db.get("t", "o", t).unwrap().expect("stored");
        let history = back.task.history.expect("history");
        let Part::Text { text, .. } = &history[0].parts[0] else {
            panic!("not text")
        };
        assert!(text.len() < 3 * 1024, "{}: {}", s.name(), text.len());
        assert!(text.contains("shortened in storage: 40000 bytes"), "{text}");
        let Part::Text { text, .. } = &back.task.artifacts.expect("artifacts")[0].parts[0] else {
            panic!("not text")
        };
        assert_eq!(text.len(), big.len());
    });
}

#[test]
fn expired_tasks_are_invisible_then_purged_in_batches() {
    each(|s| {
        let db = s.open(StoreLimits::default());
        let old = now() - Duration::hours(2);
        for i in 0..1007 {
            db.put(&rec(
                &format!("old{i}"),
                "o",
                "c",
                TaskState::Completed,
                old,
                "x",
            ))
            .unwrap();
        }
        let t = now();
        db.put(&rec("fresh", "o", "c", TaskState::Completed, t, "x"))
            .unwrap();
        assert!(db.get("old3", "o", t).unwrap().is_none(), "{}", s.name());
        assert_eq!(db.count(t).unwrap(), 1);
        let page = db
            .list(
                "o",
                &TaskListQuery {
                    page_size: 50,
                    ..Default::default()
                },
                t,
            )
            .unwrap();
        assert_eq!(page.total, 1);
        assert_eq!(page.tasks.len(), 1);
        assert_eq!(db.purge_expired(t).unwrap(), 1007, "{}", s.name());
        assert_eq!(db.purge_expired(t).unwrap(), 0);
        assert!(db.get("fresh", "o", t).unwrap().is_some());
        let m = db.maintain(t).unwrap();
        assert_eq!(m.expired, 0);
    });
}

#[test]
fn the_per_caller_cap_drops_that_callers_oldest_finished_tasks() {
    each(|s| {
        let db = s.open(StoreLimits {
            max_per_caller: 3,
            ..StoreLimits::default()
        });
        let t0 = now();
        db.put(&rec("running", "a", "c", TaskState::Working, t0, "x"))
            .unwrap();
        for i in 0..5 {
            let at = t0 + Duration::seconds(i + 1);
            db.put(&rec(
                &format!("a{i}"),
                "a",
                "c",
                TaskState::Completed,
                at,
                "x",
            ))
            .unwrap();
        }
        db.put(&rec("b0", "b", "c", TaskState::Completed, t0, "x"))
            .unwrap();
        let t = t0 + Duration::seconds(10);
        assert!(db.get("running", "a", t).unwrap().is_some(), "{}", s.name());
        for gone in ["a0", "a1", "a2"] {
            assert!(
                db.get(gone, "a", t).unwrap().is_none(),
                "{}: {gone}",
                s.name()
            );
        }
        for kept in ["a3", "a4"] {
            assert!(
                db.get(kept, "a", t).unwrap().is_some(),
                "{}: {kept}",
                s.name()
            );
        }
        assert!(db.get("b0", "b", t).unwrap().is_some());
    });
}

#[test]
fn a_batch_is_the_puts_one_after_another() {
    each(|s| {
        let db = s.open(StoreLimits {
            max_per_caller: 3,
            ..StoreLimits::default()
        });
        let t0 = now();
        let mut batch = vec![rec("w", "a", "c", TaskState::Working, t0, "x")];
        for i in 0..4 {
            let at = t0 + Duration::seconds(i + 1);
            batch.push(rec(
                &format!("a{i}"),
                "a",
                "c",
                TaskState::Completed,
                at,
                "x",
            ));
        }
        // The same task twice in one batch: the last write wins.
        batch.push(rec("w", "a", "c", TaskState::Completed, t0, "done"));
        batch.push(rec("b0", "b", "c", TaskState::Completed, t0, "x"));
        db.put_batch(&batch).unwrap();
        let t = t0 + Duration::seconds(10);
        let ids = ["w", "a0", "a1", "a2", "a3"];
        let kept: Vec<&str> = ids
            .into_iter()
            .filter(|id| db.get(id, "a", t).unwrap().is_some())
            .collect();
        // Five of a's tasks against a cap of 3: at most 3 stay (SQLite evicts as it goes, so
        // the order inside a batch decides which), the newest among them.
        assert!((2..=3).contains(&kept.len()), "{}: {kept:?}", s.name());
        assert!(kept.contains(&"a3"), "{}: {kept:?}", s.name());
        if let Some(w) = db.get("w", "a", t).unwrap() {
            assert_eq!(
                w.state(),
                TaskState::Completed,
                "{}: the last write",
                s.name()
            );
        }
        assert!(db.get("b0", "b", t).unwrap().is_some(), "{}", s.name());
        db.put_batch(&[]).unwrap();
    });
}

#[test]
fn purged_and_evicted_tasks_no_longer_count_against_the_cap() {
    each(|s| {
        let db = s.open(StoreLimits {
            max_per_caller: 3,
            ..StoreLimits::default()
        });
        let old = now() - Duration::hours(2);
        for i in 0..3 {
            db.put(&rec(
                &format!("old{i}"),
                "a",
                "c",
                TaskState::Completed,
                old,
                "x",
            ))
            .unwrap();
        }
        assert_eq!(db.purge_expired(now()).unwrap(), 3, "{}", s.name());
        let t0 = now();
        for i in 0..3 {
            let at = t0 + Duration::seconds(i);
            db.put(&rec(
                &format!("new{i}"),
                "a",
                "c",
                TaskState::Completed,
                at,
                "x",
            ))
            .unwrap();
        }
        for i in 0..3 {
            assert!(
                db.get(&format!("new{i}"), "a", t0).unwrap().is_some(),
                "{}: new{i} was evicted as if the purged tasks still counted",
                s.name()
            );
        }
        // One more: exactly one (the oldest) goes, and the count stays right after it.
        db.put(&rec(
            "new3",
            "a",
            "c",
            TaskState::Completed,
            t0 + Duration::seconds(3),
            "x",
        ))
        .unwrap();
        db.put(&rec(
            "new4",
            "a",
            "c",
            TaskState::Completed,
            t0 + Duration::seconds(4),
            "x",
        ))
        .unwrap();
        let kept: Vec<bool> = (0..5)
            .map(|i| db.get(&format!("new{i}"), "a", t0).unwrap().is_some())
            .collect();
        assert_eq!(kept, [false, false, true, true, true], "{}", s.name());
    });
}

#[test]
fn lists_are_newest_first_with_cursors_filters_and_totals() {
    each(|s| {
        let db = s.open(StoreLimits::default());
        let t0 = now();
        for i in 0..7 {
            let ctx = if i % 2 == 0 { "even" } else { "odd" };
            let state = if i == 3 {
                TaskState::Failed
            } else {
                TaskState::Completed
            };
            let at = t0 + Duration::seconds(i);
            db.put(&rec(&format!("t{i}"), "me", ctx, state, at, "x"))
                .unwrap();
        }
        // Same creation time: the larger id comes first.
        db.put(&rec(
            "t6b",
            "me",
            "odd",
            TaskState::Completed,
            t0 + Duration::seconds(6),
            "x",
        ))
        .unwrap();
        db.put(&rec("theirs", "you", "even", TaskState::Completed, t0, "x"))
            .unwrap();
        let t = t0 + Duration::seconds(10);
        let mut seen = Vec::new();
        let mut q = TaskListQuery {
            page_size: 3,
            ..Default::default()
        };
        loop {
            let page = db.list("me", &q, t).unwrap();
            assert_eq!(page.total, 8, "{}", s.name());
            seen.extend(page.tasks.iter().map(|r| r.task.id.clone()));
            assert!(page
                .tasks
                .iter()
                .all(|r| r.owner == "me" && r.status_history.is_empty()));
            match page.next {
                Some(c) => q.after = Some(c),
                None => break,
            }
        }
        assert_eq!(
            seen,
            ["t6b", "t6", "t5", "t4", "t3", "t2", "t1", "t0"],
            "{}",
            s.name()
        );
        let even = db
            .list(
                "me",
                &TaskListQuery {
                    page_size: 10,
                    context_id: Some("even".into()),
                    ..Default::default()
                },
                t,
            )
            .unwrap();
        let ids: Vec<_> = even.tasks.iter().map(|r| r.task.id.as_str()).collect();
        assert_eq!(ids, ["t6", "t4", "t2", "t0"], "{}", s.name());
        assert_eq!(even.total, 4);
        assert!(even.next.is_none());
        let failed = db
            .list(
                "me",
                &TaskListQuery {
                    page_size: 10,
                    state: Some(TaskState::Failed),
                    ..Default::default()
                },
                t,
            )
            .unwrap();
        assert_eq!(failed.tasks.len(), 1);
        assert_eq!(failed.tasks[0].task.id, "t3");
        assert_eq!(failed.total, 1);
        // The token round-trips through its text form.
        let first = db
            .list(
                "me",
                &TaskListQuery {
                    page_size: 1,
                    ..Default::default()
                },
                t,
            )
            .unwrap();
        let token = first.next.expect("more pages").token();
        let after = ecclesia_server::TaskCursor::from_token(&token).expect("a valid token");
        let second = db
            .list(
                "me",
                &TaskListQuery {
                    page_size: 1,
                    after: Some(after),
                    ..Default::default()
                },
                t,
            )
            .unwrap();
        assert_eq!(second.tasks[0].task.id, "t6");
    });
}

#[test]
fn unfinished_tasks_of_a_process_that_is_gone_become_failed() {
    each(|s| {
        let t = now();
        {
            let first = s.open(StoreLimits::default());
            first
                .put(&rec("w", "o", "c", TaskState::Working, t, "x"))
                .unwrap();
            first
                .put(&rec("s", "o", "c", TaskState::Submitted, t, "x"))
                .unwrap();
            first
                .put(&rec("done", "o", "c", TaskState::Completed, t, "x"))
                .unwrap();
        }
        // The first process is gone (for PostgreSQL: its lease runs out).
        std::thread::sleep(std::time::Duration::from_millis(1200));
        let second = s.open(StoreLimits::default());
        // PostgreSQL's own heartbeat may have failed them already: count both ways.
        let n = second.fail_unfinished(now()).unwrap();
        for id in ["w", "s"] {
            let r = second.get(id, "o", now()).unwrap().expect("kept");
            assert_eq!(r.state(), TaskState::Failed, "{}: {id}", s.name());
            let msg = r.task.status.message.expect("a reason");
            assert_eq!(msg.role, Role::Agent);
            assert!(r.task.status.timestamp.is_some());
        }
        assert!(n <= 2, "{}: {n}", s.name());
        assert_eq!(
            second.get("done", "o", now()).unwrap().unwrap().state(),
            TaskState::Completed
        );
        assert_eq!(second.fail_unfinished(now()).unwrap(), 0);
    });
}
