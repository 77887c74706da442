//! 1.0 method names, params decoding errors, and version routing.

use ecclesia_a2a::v1::{
    route, ErrorKind, Method, ProtocolVersion, Request, TaskState, V03_METHODS,
};
use serde_json::{json, Value};

#[track_caller]
fn rejected(method: &str, params: Value) -> (ErrorKind, String) {
    let e = Request::decode_named(method, Some(&params)).expect_err("must be rejected");
    (e.kind, e.message)
}

#[track_caller]
fn invalid(method: &str, params: Value, field: &str) -> String {
    let (kind, msg) = rejected(method, params);
    assert_eq!(kind, ErrorKind::InvalidParams, "{msg}");
    assert!(
        msg.starts_with(&format!("Invalid parameters: {field}:")),
        "expected the field {field} in: {msg}"
    );
    msg
}

fn ok_message() -> Value {
    json!({"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]})
}

#[test]
fn names_round_trip() {
    assert_eq!(Method::ALL.len(), 11);
    for m in Method::ALL {
        assert_eq!(Method::from_name(m.name()), Some(m));
        assert!(m
            .name()
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_uppercase()));
    }
    for old in V03_METHODS {
        let m = Method::from_v03_name(old).expect("every 0.3 method has a 1.0 twin");
        assert_eq!(m.v03_name(), old);
    }
    assert_eq!(Method::from_name("sendMessage"), None);
    assert_eq!(Method::from_name("ListTaskPushNotificationConfig"), None);
    assert_eq!(Method::from_v03_name("tasks/list"), None);
    assert!(Method::SubscribeToTask.is_streaming() && !Method::GetTask.is_streaming());
}

#[test]
fn routing() {
    use ProtocolVersion::*;
    for (method, header, want) in [
        ("message/send", None, V0_3),
        ("message/send", Some(""), V0_3),
        ("message/send", Some("0.3"), V0_3),
        ("tasks/resubscribe", Some("0.3.0"), V0_3),
        ("SendMessage", Some("1.0"), V1_0),
        ("ListTasks", Some("1.0.1"), V1_0),
        ("GetExtendedAgentCard", Some(" 1.0 "), V1_0),
        // Unknown names go to the header's version (which answers -32601).
        ("tasks/list", None, V0_3),
        ("Frobnicate", Some("1.0"), V1_0),
        ("Frobnicate", None, V0_3),
    ] {
        assert_eq!(
            route(method, header).expect("routes"),
            want,
            "{method} {header:?}"
        );
    }
}

#[test]
fn routing_mismatches_say_what_to_do() {
    let e = route("SendMessage", None).expect_err("no header is 0.3");
    assert_eq!(e.kind, ErrorKind::VersionNotSupported);
    assert_eq!(e.code(), -32009);
    assert!(e.message.contains("A2A-Version: 1.0"), "{}", e.message);
    assert!(e.message.contains("message/send"), "{}", e.message);

    let e = route("GetTask", Some("0.3")).expect_err("0.3 header");
    assert!(e.message.contains("tasks/get"), "{}", e.message);

    let e = route("message/send", Some("1.0")).expect_err("1.0 header");
    assert_eq!(e.kind, ErrorKind::VersionNotSupported);
    assert!(e.message.contains("SendMessage"), "{}", e.message);
    assert!(e.message.contains("A2A-Version: 0.3"), "{}", e.message);

    let e = route("message/send", Some("2.0")).expect_err("unknown version");
    assert!(e.message.contains("0.3 and 1.0"), "{}", e.message);
    assert_eq!(
        e.metadata.get("supportedVersions").map(String::as_str),
        Some("0.3,1.0")
    );
}

#[test]
fn unknown_method() {
    let (kind, msg) = rejected("Nope", json!({}));
    assert_eq!(kind, ErrorKind::MethodNotFound);
    assert!(msg.contains("Nope"));
    let (kind, msg) = rejected("message/send", json!({}));
    assert_eq!(kind, ErrorKind::MethodNotFound);
    assert!(msg.contains("SendMessage"), "{msg}");
}

#[test]
fn send_message_errors_name_the_field() {
    invalid("SendMessage", json!({}), "message");
    invalid("SendMessage", json!({"message": "hi"}), "message");
    invalid(
        "SendMessage",
        json!({"message": {"role": "ROLE_USER", "parts": [{"text": "x"}]}}),
        "message.messageId",
    );
    invalid(
        "SendMessage",
        json!({"message": {"messageId": "", "role": "ROLE_USER", "parts": [{"text": "x"}]}}),
        "message.messageId",
    );
    invalid(
        "SendMessage",
        json!({"message": {"messageId": "m", "parts": [{"text": "x"}]}}),
        "message.role",
    );
    let msg = invalid(
        "SendMessage",
        json!({"message": {"messageId": "m", "role": "user", "parts": [{"text": "x"}]}}),
        "message.role",
    );
    assert!(msg.contains("ROLE_USER"), "{msg}");
    invalid(
        "SendMessage",
        json!({"message": {"messageId": "m", "role": "ROLE_UNSPECIFIED", "parts": [{"text": "x"}]}}),
        "message.role",
    );
    invalid(
        "SendMessage",
        json!({"message": {"messageId": "m", "role": "ROLE_USER"}}),
        "message.parts",
    );
    invalid(
        "SendMessage",
        json!({"message": {"messageId": "m", "role": "ROLE_USER", "parts": {}}}),
        "message.parts",
    );
    invalid(
        "SendMessage",
        json!({"message": {"messageId": "m", "role": "ROLE_USER", "parts": []}}),
        "message.parts",
    );
    let msg = invalid(
        "SendStreamingMessage",
        json!({"message": {"messageId": "m", "role": "ROLE_USER",
               "parts": [{"text": "ok"}, {"kind": "text", "text": "x", "url": "y"}]}}),
        "message.parts[1]",
    );
    assert!(msg.contains("several"), "{msg}");
    let msg = invalid(
        "SendMessage",
        json!({"message": {"messageId": "m", "role": "ROLE_USER",
               "parts": [{"kind": "file", "file": {"uri": "https://x"}}]}}),
        "message.parts[0]",
    );
    assert!(msg.contains("0.3"), "{msg}");
    invalid(
        "SendMessage",
        json!({"message": ok_message(), "configuration": {"historyLength": "lots"}}),
        "configuration.historyLength",
    );
    invalid(
        "SendMessage",
        json!({"message": ok_message(), "configuration": {"historyLength": -1}}),
        "configuration.historyLength",
    );
    invalid(
        "SendMessage",
        json!({"message": ok_message(), "configuration": {"returnImmediately": "yes"}}),
        "configuration.returnImmediately",
    );
    invalid(
        "SendMessage",
        json!({"message": ok_message(), "configuration": {"taskPushNotificationConfig": {"url": " "}}}),
        "configuration.taskPushNotificationConfig.url",
    );
    invalid(
        "SendMessage",
        json!({"message": ok_message(), "metadata": [1]}),
        "metadata",
    );
    invalid(
        "SendMessage",
        json!({"message": ok_message(), "tenant": 5}),
        "tenant",
    );
}

#[test]
fn send_message_leniency() {
    // Unknown fields are ignored; int32 as string; enum by number; null = unset.
    let r = Request::decode_named(
        "SendMessage",
        Some(&json!({
            "message": {"messageId": "m", "role": 1, "parts": [{"text": "hi", "kind": "text"}],
                        "contextId": null, "futureField": true},
            "configuration": {"historyLength": "4", "acceptedOutputModes": null},
            "extra": {}
        })),
    )
    .expect("accepted");
    let Request::SendMessage(r) = r else {
        panic!("not SendMessage")
    };
    assert_eq!(r.message.context_id, None);
    assert_eq!(
        r.configuration.expect("configuration").history_length,
        Some(4)
    );
}

#[test]
fn other_methods() {
    invalid("GetTask", json!({}), "id");
    invalid("GetTask", json!({"id": 5}), "id");
    invalid(
        "GetTask",
        json!({"id": "t", "historyLength": -5}),
        "historyLength",
    );
    invalid("CancelTask", json!({"id": ""}), "id");
    invalid("SubscribeToTask", json!({"name": "tasks/t"}), "id");
    invalid("ListTasks", json!({"pageSize": 150}), "pageSize");
    invalid("ListTasks", json!({"pageSize": 0}), "pageSize");
    let msg = invalid(
        "ListTasks",
        json!({"status": "TASK_STATE_RUNNING"}),
        "status",
    );
    assert!(msg.contains("TASK_STATE_WORKING"), "{msg}");
    invalid(
        "CreateTaskPushNotificationConfig",
        json!({"url": "https://h"}),
        "taskId",
    );
    invalid(
        "CreateTaskPushNotificationConfig",
        json!({"taskId": "t"}),
        "url",
    );
    invalid(
        "CreateTaskPushNotificationConfig",
        json!({"taskId": "t", "url": "https://h", "authentication": {"scheme": ""}}),
        "authentication.scheme",
    );
    invalid(
        "GetTaskPushNotificationConfig",
        json!({"taskId": "t"}),
        "id",
    );
    invalid(
        "DeleteTaskPushNotificationConfig",
        json!({"id": "c"}),
        "taskId",
    );
    invalid(
        "ListTaskPushNotificationConfigs",
        json!({"taskId": "t", "pageSize": -1}),
        "pageSize",
    );

    let (kind, msg) = rejected("GetTask", json!([1, 2]));
    assert_eq!(kind, ErrorKind::InvalidParams);
    assert!(msg.contains("must be an object"), "{msg}");
    let e = Request::decode_named("CancelTask", None).expect_err("params needed");
    assert!(
        e.message.contains("CancelTask needs params"),
        "{}",
        e.message
    );
}

#[test]
fn optional_params() {
    for (m, p) in [
        ("ListTasks", None),
        ("GetExtendedAgentCard", None),
        ("GetExtendedAgentCard", Some(Value::Null)),
    ] {
        let r = Request::decode_named(m, p.as_ref()).expect("no params needed");
        assert_eq!(r.method().name(), m);
        assert_eq!(r.tenant(), "");
    }
    let r = Request::decode_named(
        "ListTasks",
        Some(&json!({"status": "TASK_STATE_UNSPECIFIED", "tenant": "x"})),
    )
    .expect("decodes");
    let Request::ListTasks(l) = &r else {
        panic!("not ListTasks")
    };
    assert_eq!(l.status, None);
    assert_eq!(l.effective_page_size(), 50);
    assert_eq!(r.tenant(), "x");
    let r = Request::decode_named("ListTasks", Some(&json!({"status": 3}))).expect("decodes");
    assert!(matches!(r, Request::ListTasks(l) if l.status == Some(TaskState::Completed)));
}

#[test]
fn every_method_decodes_a_minimal_request() {
    let minimal = |m: Method| match m {
        Method::SendMessage | Method::SendStreamingMessage => json!({"message": ok_message()}),
        Method::GetTask | Method::CancelTask | Method::SubscribeToTask => json!({"id": "t"}),
        Method::ListTasks | Method::GetExtendedAgentCard => json!({}),
        Method::CreateTaskPushNotificationConfig => json!({"taskId": "t", "url": "https://h/x"}),
        Method::GetTaskPushNotificationConfig | Method::DeleteTaskPushNotificationConfig => {
            json!({"taskId": "t", "id": "c"})
        }
        Method::ListTaskPushNotificationConfigs => json!({"taskId": "t"}),
    };
    for m in Method::ALL {
        let r = Request::decode(m, Some(&minimal(m))).unwrap_or_else(|e| panic!("{m:?}: {e}"));
        assert_eq!(r.method(), m);
    }
}
