//! The core client front-ends other than A2A call: an ask is a task like any other (stored,
//! counted, limited), its refusals are `ServerError`s, a failed run is `AskError::Ended`.

use crate::support::*;
use ecclesia_a2a::{Part, TaskState};
use ecclesia_server::{AskError, Caller, CoreClient, Item, Plan, ServerConfig, ServerError};

fn caller(id: &str, plan: Plan) -> Caller {
    Caller {
        id: id.into(),
        plan_name: "test".into(),
        plan,
    }
}

fn unlimited() -> Plan {
    Plan {
        a2a: true,
        send_per_minute: None,
        qa_per_minute: None,
    }
}

#[tokio::test]
async fn an_ask_is_a_stored_task_of_its_caller() {
    let h = harness();
    let core = CoreClient::new(h.state.clone(), "test");
    let me = caller("me", unlimited());
    let artifacts = core
        .ask(&me, "echo", vec![Part::text("hello")])
        .await
        .unwrap();
    assert!(matches!(&artifacts[0].parts[0], Part::Text { text, .. } if text == "hello"));
    let page = core.list(&me, Default::default(), "req").await.unwrap();
    assert_eq!(
        page.tasks.len(),
        1,
        "the ask left its task, as an A2A send does"
    );
    let other = caller("other", unlimited());
    let page = core.list(&other, Default::default(), "req").await.unwrap();
    assert!(page.tasks.is_empty(), "and only its caller sees it");
    let metrics = h.state.metrics.render(0, &[]);
    assert!(
        metrics.contains("method=\"test\"") && metrics.contains("skill=\"echo\""),
        "the ask is counted under its front-end: {metrics}"
    );
}

#[tokio::test]
async fn refusals_are_server_errors_and_failures_end_the_task() {
    let h = harness();
    let core = CoreClient::new(h.state.clone(), "test");
    let me = caller("me", unlimited());
    let e = core
        .ask(&me, "echo", vec![Part::text("bad")])
        .await
        .unwrap_err();
    assert!(e.is_invalid_params(), "{e:?}");
    let e = core
        .ask(&me, "nope", vec![Part::text("x")])
        .await
        .unwrap_err();
    assert!(
        matches!(&e, AskError::Refused(ServerError::InvalidParams { .. }))
            && e.to_string().contains("echo"),
        "an unknown skill names the skills: {e}"
    );
    let e = core
        .ask(&me, "boom", vec![Part::text("x")])
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            AskError::Ended {
                state: TaskState::Failed,
                ..
            }
        ),
        "a panic fails the task: {e:?}"
    );
    let no_a2a = caller(
        "free",
        Plan {
            a2a: false,
            ..unlimited()
        },
    );
    let e = core
        .ask(&no_a2a, "echo", vec![Part::text("x")])
        .await
        .unwrap_err();
    assert!(
        matches!(e, AskError::Refused(ServerError::PlanRequired(_))),
        "{e:?}"
    );
}

#[tokio::test]
async fn the_rate_limit_pools_are_a2a_s() {
    let h = harness_with(ServerConfig::default());
    let core = CoreClient::new(h.state.clone(), "test");
    let limited = caller(
        "limited",
        Plan {
            a2a: true,
            send_per_minute: Some(1),
            qa_per_minute: None,
        },
    );
    core.ask(&limited, "echo", vec![Part::text("1")])
        .await
        .unwrap();
    let e = core
        .ask(&limited, "echo", vec![Part::text("2")])
        .await
        .unwrap_err();
    assert!(
        matches!(e, AskError::Refused(ServerError::RateLimited(_))),
        "{e:?}"
    );
}

#[tokio::test]
async fn a_streamed_ask_gives_the_chunks_then_ends() {
    let h = harness();
    let core = CoreClient::new(h.state.clone(), "test");
    let me = caller("me", unlimited());
    let mut rx = core
        .ask_streaming(&me, "catholic_qa", vec![Part::text("grace")])
        .await
        .unwrap();
    let mut text = String::new();
    while let Some(item) = rx.recv().await {
        if let Item::Text(t) = item.unwrap() {
            text.push_str(&t);
        }
    }
    assert_eq!(text, "one two three");
    let mut rx = core
        .ask_streaming(&me, "echo", vec![Part::text("bad")])
        .await
        .unwrap();
    let last = rx.recv().await.unwrap().unwrap_err();
    assert!(
        last.is_invalid_params(),
        "rejected while streaming: {last:?}"
    );
    assert!(rx.recv().await.is_none());
}
