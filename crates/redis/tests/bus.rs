//! The task bus on a real Redis (`ECCLESIA_TEST_REDIS`): events of a task open on one
//! replica reach a subscriber on another, in order, ending after the final status; a cancel
//! on one reaches the other; a task open nowhere has no stream.

use ecclesia_a2a::{StreamEvent, TaskState, TaskStatus, TaskStatusUpdateEvent};
use ecclesia_redis::RedisBus;
use ecclesia_state::TaskBus;
use futures::StreamExt;
use std::sync::Arc;
use std::time::Duration;

fn server() -> Option<String> {
    match std::env::var("ECCLESIA_TEST_REDIS") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var("ECCLESIA_REQUIRE_SERVICES").as_deref() != Ok("1"),
                "ECCLESIA_REQUIRE_SERVICES=1 but ECCLESIA_TEST_REDIS is not set"
            );
            None
        }
    }
}

fn status(n: usize, is_final: bool) -> Arc<StreamEvent> {
    Arc::new(StreamEvent::Status(TaskStatusUpdateEvent {
        task_id: "t".into(),
        context_id: format!("c{n}"),
        status: TaskStatus {
            state: if is_final {
                TaskState::Completed
            } else {
                TaskState::Working
            },
            message: None,
            timestamp: None,
        },
        is_final,
        metadata: None,
    }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_and_cancels_cross_replicas() {
    let Some(url) = server() else { return };
    let prefix = format!("test:{:016x}:", rand::random::<u64>());
    let t = Duration::from_secs(2);
    let (u, p) = (url.clone(), prefix.clone());
    let (a, b) = tokio::task::spawn_blocking(move || {
        (
            RedisBus::connect(&u, &p, "a", t).unwrap(),
            RedisBus::connect(&u, &p, "b", t).unwrap(),
        )
    })
    .await
    .unwrap();
    assert!(b.subscribe("t").await.unwrap().is_none(), "open nowhere");
    a.open("t");
    tokio::time::sleep(Duration::from_millis(200)).await; // the open: key is written async
    let mut remote = b.subscribe("t").await.unwrap().expect("open on A");
    let mut local = a.subscribe("t").await.unwrap().expect("open here");
    for n in 0..5 {
        a.publish("t", status(n, false));
    }
    a.publish("t", status(5, true));
    for s in [&mut remote, &mut local] {
        for n in 0..=5 {
            let ev = tokio::time::timeout(t, s.next())
                .await
                .expect("in time")
                .expect("an event");
            let StreamEvent::Status(e) = ev.as_ref() else {
                panic!("{ev:?}")
            };
            assert_eq!(e.context_id, format!("c{n}"), "in order");
        }
        assert!(tokio::time::timeout(t, s.next())
            .await
            .expect("ends")
            .is_none());
    }
    // A cancel on B reaches the run on A.
    let watched = tokio::spawn(a.cancel_requested("t"));
    b.request_cancel("other").await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!watched.is_finished());
    b.request_cancel("t").await.unwrap();
    tokio::time::timeout(t, watched)
        .await
        .expect("the cancel arrived")
        .unwrap();
    a.close("t");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(b.subscribe("t").await.unwrap().is_none(), "closed");
    tokio::task::spawn_blocking(move || drop((a, b)))
        .await
        .unwrap();
}
