//! JSON examples in the shape of the A2A 1.0 specification
//! (`a2aproject/A2A` v1.0.1, `docs/specification.md` §6, §8.5, §9 and
//! `specification/a2a.proto`) decode into the 1.0 types and re-encode
//! identically.

use ecclesia_a2a::v1::{
    A2aError, AgentCard, ListTaskPushNotificationConfigsResponse, ListTasksResponse, PartContent,
    Request, Role, SecurityScheme, SendMessageResponse, StreamResponse, TaskPushNotificationConfig,
    TaskState,
};
use ecclesia_a2a::{JsonRpcId, JsonRpcRequest, JsonRpcResponse};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

fn fixture(text: &str) -> Value {
    serde_json::from_str(text).expect("fixture is JSON")
}

#[track_caller]
fn same<T: Serialize + DeserializeOwned>(v: &Value) -> T {
    let t: T = serde_json::from_value(v.clone()).expect("decodes");
    assert_eq!(&serde_json::to_value(&t).expect("encodes"), v);
    t
}

/// Decode a JSON-RPC request with [`Request::decode_named`] and check the
/// params re-encode to what was sent.
#[track_caller]
fn request(v: &Value) -> Request {
    let rpc: JsonRpcRequest = serde_json::from_value(v.clone()).expect("envelope");
    let params = rpc.params.clone().unwrap_or(Value::Null);
    let req = Request::decode_named(&rpc.method, rpc.params.as_ref()).expect("params decode");
    let back = match &req {
        Request::SendMessage(r) | Request::SendStreamingMessage(r) => serde_json::to_value(r),
        Request::ListTasks(r) => serde_json::to_value(r),
        Request::CreateTaskPushNotificationConfig(r) => serde_json::to_value(r),
        other => panic!("unexpected {other:?}"),
    }
    .expect("encodes");
    assert_eq!(back, params);
    req
}

fn result(v: &Value) -> &Value {
    &v["result"]
}

#[test]
fn send_message_request() {
    let v = fixture(include_str!("fixtures/v1/send_message_request.json"));
    let Request::SendMessage(r) = request(&v) else {
        panic!("not SendMessage")
    };
    assert_eq!(r.message.role, Role::User);
    assert!(matches!(&r.message.parts[1].content, PartContent::Raw(_)));
    assert_eq!(
        r.message.parts[1].filename.as_deref(),
        Some("input_image.png")
    );
    let c = r.configuration.expect("configuration");
    assert_eq!(c.return_immediately, Some(true));
    assert_eq!(c.history_length, Some(3));
    let push = c.task_push_notification_config.expect("push");
    assert_eq!(push.authentication.expect("auth").scheme, "Bearer");
}

#[test]
fn send_message_response() {
    let v = fixture(include_str!("fixtures/v1/send_message_response.json"));
    let r: SendMessageResponse = same(result(&v));
    let SendMessageResponse::Task(t) = r else {
        panic!("not a task")
    };
    assert_eq!(t.status.state, TaskState::Completed);
    let artifacts = t.artifacts.expect("artifacts");
    assert!(
        matches!(&artifacts[0].parts[0].content, PartContent::Url(u) if u.contains("output.png"))
    );
    // The envelope too, through this crate's JSON-RPC types.
    let resp = JsonRpcResponse::success(JsonRpcId::Num(1.into()), result(&v).clone());
    assert_eq!(serde_json::to_value(resp).expect("encodes"), v);
}

#[test]
fn stream_events() {
    let v = fixture(include_str!("fixtures/v1/stream_events.json"));
    let events: Vec<StreamResponse> = v
        .as_array()
        .expect("array")
        .iter()
        .map(|e| same::<StreamResponse>(result(e)))
        .collect();
    assert!(matches!(events[0], StreamResponse::Task(_)));
    assert!(matches!(&events[2], StreamResponse::ArtifactUpdate(a) if a.append == Some(true)));
    assert!(matches!(&events[3], StreamResponse::StatusUpdate(s) if s.status.state.is_terminal()));
}

#[test]
fn list_tasks() {
    let v = fixture(include_str!("fixtures/v1/list_tasks.json"));
    let Request::ListTasks(r) = request(&v["request"]) else {
        panic!("not ListTasks")
    };
    assert_eq!(r.status, Some(TaskState::Working));
    assert_eq!(r.effective_page_size(), 20);
    let resp: ListTasksResponse = same(result(&v["response"]));
    assert_eq!(resp.total_size, 1);
    assert_eq!(resp.next_page_token, "");
    // nextPageToken, pageSize and totalSize are written even when empty or zero.
    assert_eq!(
        serde_json::to_value(ListTasksResponse::default()).expect("encodes"),
        json!({"tasks": [], "nextPageToken": "", "pageSize": 0, "totalSize": 0})
    );
}

#[test]
fn push_configs() {
    let v = fixture(include_str!("fixtures/v1/push_configs.json"));
    let Request::CreateTaskPushNotificationConfig(c) = request(&v["create"]) else {
        panic!("not Create…")
    };
    assert_eq!(
        c.task_id.as_deref(),
        Some("43667960-d455-4453-b0cf-1bae4955270d")
    );
    let list: ListTaskPushNotificationConfigsResponse = same(result(&v["list"]));
    assert_eq!(list.configs[0].id.as_deref(), Some("cfg-1"));
    let _: TaskPushNotificationConfig = same(&v["list"]["result"]["configs"][0]);
    let n: StreamResponse = same(&v["notification"]);
    assert!(matches!(n, StreamResponse::StatusUpdate(_)));
}

#[test]
fn agent_card() {
    let v = fixture(include_str!("fixtures/v1/agent_card.json"));
    let card: AgentCard = same(&v);
    assert_eq!(card.supported_interfaces.len(), 3);
    assert_eq!(card.supported_interfaces[1].protocol_version, "0.3");
    assert_eq!(card.supported_interfaces[2].tenant, "geo");
    assert_eq!(card.capabilities.extended_agent_card, Some(true));
    assert!(matches!(
        card.security_schemes.get("bearer"),
        Some(SecurityScheme::HttpAuthSecurityScheme(h)) if h.scheme == "Bearer"
    ));
    assert_eq!(
        card.security_requirements[0].schemes["google"].list.len(),
        3
    );
    assert_eq!(card.signatures.len(), 1);
    // No 0.3 field may leak into a 1.0 card.
    let out = serde_json::to_value(&card).expect("encodes");
    for legacy in [
        "url",
        "preferredTransport",
        "additionalInterfaces",
        "protocolVersion",
        "security",
    ] {
        assert!(out.get(legacy).is_none(), "{legacy}");
    }
}

#[test]
fn errors() {
    let v = fixture(include_str!("fixtures/v1/errors.json"));
    let e = A2aError::task_not_found("nonexistent-task-id")
        .with_metadata("timestamp", "2025-11-09T10:30:00.000Z");
    let r = JsonRpcResponse::error(JsonRpcId::Num(2.into()), e.to_jsonrpc());
    assert_eq!(
        serde_json::to_value(r).expect("encodes"),
        v["task_not_found"]
    );

    // What an empty parts list gets back, through the decoder.
    let params = json!({"message": {"messageId": "m", "role": "ROLE_USER", "parts": []}});
    let e = Request::decode_named("SendMessage", Some(&params)).expect_err("rejected");
    let r = JsonRpcResponse::error(JsonRpcId::Num(1.into()), e.to_jsonrpc());
    assert_eq!(
        serde_json::to_value(r).expect("encodes"),
        v["invalid_params"]
    );
}
