//! 1.0 ⇄ 0.3 conversions: round trips both ways, and what cannot cross.

use ecclesia_a2a as v03;
use ecclesia_a2a::v1::{
    self, convert::DATA_PART_COMPAT_KEY, ConvertError, PartContent, StreamResponse, TaskState,
};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

fn v1_of<T: DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).expect("decodes")
}

fn v1_message() -> v1::Message {
    v1_of(json!({
        "messageId": "m1", "contextId": "c1", "taskId": "t1", "role": "ROLE_AGENT",
        "parts": [
            {"text": "plain"},
            {"text": "# md", "mediaType": "text/markdown", "metadata": {"k": 1}},
            {"data": {"pope": "Leo XIV", "n": 267}},
            {"data": [1, 2, 3], "metadata": {"source": "x"}},
            {"data": "a string", "filename": "s.txt"},
            {"data": null},
            {"raw": "aGVsbG8=", "filename": "h.txt", "mediaType": "text/plain"},
            {"url": "https://x/y.pdf", "mediaType": "application/pdf", "metadata": {"pages": 3}}
        ],
        "metadata": {"skillId": "pope_lookup"},
        "extensions": ["https://ext/1"],
        "referenceTaskIds": ["t0"]
    }))
}

fn v1_task() -> v1::Task {
    v1_of(json!({
        "id": "t1", "contextId": "c1",
        "status": {"state": "TASK_STATE_INPUT_REQUIRED", "timestamp": "2026-03-12T10:00:00.000Z",
                   "message": {"messageId": "s", "role": "ROLE_AGENT", "parts": [{"text": "which pope?"}]}},
        "artifacts": [{"artifactId": "a1", "name": "search_results", "description": "d",
                       "parts": [{"data": {"hits": []}}], "metadata": {"m": true}, "extensions": ["e"]}],
        "history": [serde_json::to_value(v1_message()).expect("encodes")],
        "metadata": {"caller": "k"}
    }))
}

#[test]
fn message_round_trips_through_03() {
    let m = v1_message();
    let old = v03::Message::try_from(m.clone()).expect("to 0.3");
    // 0.3 JSON is valid 0.3: every part has a kind, non-object data is wrapped.
    let j = serde_json::to_value(&old).expect("encodes");
    assert_eq!(j["kind"], "message");
    assert_eq!(j["role"], "agent");
    assert_eq!(j["parts"][3]["kind"], "data");
    assert_eq!(j["parts"][3]["data"], json!({"value": [1, 2, 3]}));
    assert_eq!(j["parts"][3]["metadata"][DATA_PART_COMPAT_KEY], true);
    assert_eq!(
        j["parts"][6]["file"],
        json!({"bytes": "aGVsbG8=", "name": "h.txt", "mimeType": "text/plain"})
    );
    assert_eq!(j["parts"][7]["file"]["uri"], "https://x/y.pdf");
    // The 0.3 JSON survives its own serde, then comes back to the same 1.0 message.
    let old: v03::Message = serde_json::from_value(j).expect("0.3 decodes");
    let back = v1::Message::try_from(old).expect("to 1.0");
    assert_eq!(back, m);
}

#[test]
fn message_from_03_round_trips() {
    let old: v03::Message = serde_json::from_value(json!({
        "kind": "message", "messageId": "m", "role": "user",
        "parts": [
            {"kind": "text", "text": "hi", "metadata": {"a": 1}},
            {"kind": "data", "data": {"value": 3}},
            {"kind": "data", "data": {"city": "Rome"}},
            {"kind": "file", "file": {"uri": "https://x", "name": "x.pdf", "mimeType": "application/pdf"}}
        ],
        "contextId": "c"
    }))
    .expect("0.3 decodes");
    let new = v1::Message::try_from(old.clone()).expect("to 1.0");
    // `{"value": 3}` without the compat flag is an object, not the number 3.
    assert_eq!(new.parts[1].content, PartContent::Data(json!({"value": 3})));
    let j = serde_json::to_value(&new).expect("encodes");
    assert_eq!(j["role"], "ROLE_USER");
    assert!(j["parts"][0].get("kind").is_none());
    assert_eq!(
        j["parts"][3],
        json!({"url": "https://x", "filename": "x.pdf", "mediaType": "application/pdf"})
    );
    assert_eq!(v03::Message::try_from(new).expect("to 0.3"), old);
}

#[test]
fn task_round_trips_both_ways() {
    let t = v1_task();
    let old = v03::Task::try_from(t.clone()).expect("to 0.3");
    assert_eq!(old.status.state, v03::TaskState::InputRequired);
    let old_json = serde_json::to_value(&old).expect("encodes");
    assert_eq!(old_json["kind"], "task");
    assert_eq!(old_json["status"]["state"], "input-required");
    let back = v1::Task::try_from(old.clone()).expect("to 1.0");
    assert_eq!(back, t);
    assert_eq!(v03::Task::try_from(back).expect("to 0.3"), old);
}

#[test]
fn every_state_maps_both_ways() {
    for s in TaskState::ALL {
        let old = v03::TaskState::from(s);
        assert_eq!(TaskState::from(old), s);
        assert_eq!(old.is_terminal(), s.is_terminal(), "{s:?}");
    }
    assert_eq!(
        v03::TaskState::from(TaskState::Unspecified),
        v03::TaskState::Unknown
    );
}

#[test]
fn events_round_trip() {
    let status: StreamResponse = v1_of(json!({"statusUpdate": {
        "taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}, "metadata": {"x": 1}}}));
    let artifact: StreamResponse = v1_of(json!({"artifactUpdate": {
        "taskId": "t", "contextId": "c", "append": true, "lastChunk": false,
        "artifact": {"artifactId": "a", "parts": [{"text": "chunk"}]}}}));
    let task = StreamResponse::Task(v1_task());
    for e in [status, artifact, task] {
        let old = v03::StreamEvent::try_from(e.clone()).expect("to 0.3");
        assert_eq!(StreamResponse::try_from(old).expect("to 1.0"), e);
    }
}

#[test]
fn final_flag() {
    let ev = |state: &str| -> v1::TaskStatusUpdateEvent {
        v1_of(json!({"taskId": "t", "contextId": "c", "status": {"state": state}}))
    };
    for (state, fin) in [
        ("TASK_STATE_WORKING", false),
        ("TASK_STATE_SUBMITTED", false),
        ("TASK_STATE_INPUT_REQUIRED", true),
        ("TASK_STATE_AUTH_REQUIRED", true),
        ("TASK_STATE_FAILED", true),
        ("TASK_STATE_CANCELED", true),
    ] {
        let old = v03::TaskStatusUpdateEvent::try_from(ev(state)).expect("to 0.3");
        assert_eq!(old.is_final, fin, "{state}");
    }
    let forced = ev("TASK_STATE_WORKING").into_v03(true).expect("to 0.3");
    assert!(forced.is_final);
    // 1.0 has no `final`.
    let back = v1::TaskStatusUpdateEvent::try_from(forced).expect("to 1.0");
    assert!(serde_json::to_value(back)
        .expect("encodes")
        .get("final")
        .is_none());
}

#[test]
fn send_params_round_trip() {
    let r: v1::SendMessageRequest = v1_of(json!({
        "message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "Who was pope in 1900?"}]},
        "configuration": {"acceptedOutputModes": ["application/json"], "historyLength": 2,
                          "returnImmediately": true,
                          "taskPushNotificationConfig": {"id": "p", "url": "https://h/hook", "token": "tok",
                              "authentication": {"scheme": "Bearer", "credentials": "secret"}}},
        "metadata": {"skillId": "pope_lookup"}
    }));
    let old = v03::MessageSendParams::try_from(r.clone()).expect("to 0.3");
    let c = old.configuration.clone().expect("configuration");
    assert_eq!(c.blocking, Some(false));
    assert_eq!(c.history_length, Some(2));
    let push = c.push_notification_config.expect("push");
    assert_eq!(
        push.authentication,
        Some(json!({"schemes": ["Bearer"], "credentials": "secret"}))
    );
    assert_eq!(v1::SendMessageRequest::try_from(old).expect("to 1.0"), r);

    let mut unset = r.clone();
    unset.configuration = Some(v1::SendMessageConfiguration::default());
    let old = v03::MessageSendParams::try_from(unset).expect("to 0.3");
    assert_eq!(old.configuration.expect("configuration").blocking, None);
}

#[test]
fn task_params() {
    let g = v1::GetTaskRequest {
        tenant: String::new(),
        id: "t".into(),
        history_length: Some(0),
    };
    let q = v03::TaskQueryParams::try_from(g.clone()).expect("to 0.3");
    assert_eq!(q.history_length, Some(0));
    assert_eq!(v1::GetTaskRequest::from(q), g);
    let bad = v1::GetTaskRequest {
        history_length: Some(-1),
        ..g
    };
    assert_eq!(
        v03::TaskQueryParams::try_from(bad),
        Err(ConvertError::NegativeHistoryLength("historyLength", -1))
    );
    let c = v1::CancelTaskRequest {
        tenant: String::new(),
        id: "t".into(),
        metadata: None,
    };
    assert_eq!(
        v1::CancelTaskRequest::from(v03::TaskIdParams::from(c.clone())),
        c
    );
}

#[test]
fn what_cannot_cross() {
    let m: v1::Message =
        v1_of(json!({"messageId": "m", "role": "ROLE_UNSPECIFIED", "parts": [{"text": "x"}]}));
    let e = v03::Message::try_from(m).expect_err("unspecified role");
    assert_eq!(e, ConvertError::UnspecifiedRole("message.role"));
    let a2a: v1::A2aError = e.into();
    assert_eq!(a2a.code(), -32602);

    for file in [
        json!({"bytes": "aA==", "uri": "https://x"}),
        json!({"name": "n"}),
    ] {
        let old: v03::Part =
            serde_json::from_value(json!({"kind": "file", "file": file})).expect("0.3 decodes");
        assert_eq!(v1::Part::try_from(old), Err(ConvertError::FileContent));
    }

    let msg = StreamResponse::Message(v1_message());
    assert_eq!(
        v03::StreamEvent::try_from(msg),
        Err(ConvertError::MessageEvent)
    );

    let bad_auth = v03::PushNotificationConfig {
        id: None,
        url: "https://h".into(),
        token: None,
        authentication: Some(json!({"schemes": "Bearer"})),
    };
    assert_eq!(
        v1::TaskPushNotificationConfig::try_from(bad_auth),
        Err(ConvertError::PushAuthentication)
    );
}

/// Keys of `v`, recursively, outside free-form `metadata` and `data` objects.
fn shape_keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                if k != "metadata" && k != "data" {
                    shape_keys(x, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| shape_keys(x, out)),
        _ => {}
    }
}

/// String values of `v`, recursively, outside `metadata` and `data`.
fn shape_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k != "metadata" && k != "data" {
                    shape_strings(x, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| shape_strings(x, out)),
        Value::String(s) => out.push(s.clone()),
        _ => {}
    }
}

#[test]
fn no_shape_crosses_versions() {
    let old = v03::Task::try_from(v1_task()).expect("to 0.3");
    let old_events = [
        v03::StreamEvent::Task(old.clone()),
        v03::StreamEvent::try_from(StreamResponse::ArtifactUpdate(v1_of(json!({
            "taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "parts": [{"raw": "aA=="}]}}))))
        .expect("to 0.3"),
    ];
    for e in &old_events {
        let j = serde_json::to_value(e).expect("encodes");
        let (mut keys, mut strings) = (Vec::new(), Vec::new());
        shape_keys(&j, &mut keys);
        shape_strings(&j, &mut strings);
        for k in [
            "mediaType",
            "filename",
            "raw",
            "url",
            "statusUpdate",
            "artifactUpdate",
        ] {
            assert!(
                !keys.iter().any(|x| x == k),
                "0.3 JSON has the 1.0 key {k}: {j}"
            );
        }
        assert!(
            !strings
                .iter()
                .any(|s| s.starts_with("ROLE_") || s.starts_with("TASK_STATE_")),
            "{j}"
        );
    }
    let new = v1::Task::try_from(old).expect("to 1.0");
    let j = serde_json::to_value(StreamResponse::Task(new)).expect("encodes");
    let (mut keys, mut strings) = (Vec::new(), Vec::new());
    shape_keys(&j, &mut keys);
    shape_strings(&j, &mut strings);
    for k in ["kind", "mimeType", "file", "final", "bytes", "uri"] {
        assert!(
            !keys.iter().any(|x| x == k),
            "1.0 JSON has the 0.3 key {k}: {j}"
        );
    }
    for s in [
        "user",
        "agent",
        "input-required",
        "completed",
        "task",
        "message",
    ] {
        assert!(
            !strings.iter().any(|x| x == s),
            "1.0 JSON has the 0.3 value {s}: {j}"
        );
    }
}
