//! The handler over an in-memory stdio pipe, with the rmcp client.

use crate::fake;
use rmcp::model::{CallToolRequestParams, GetPromptRequestParams, ReadResourceRequestParams};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};

async fn client() -> RunningService<RoleClient, ()> {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(async move {
        let _ = ecclesia_mcp::serve_io(fake::registry(), sr, sw).await;
    });
    ().serve(client_io).await.expect("the client starts")
}

fn args(v: Value) -> serde_json::Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => panic!("arguments are an object"),
    }
}

async fn call(
    c: &RunningService<RoleClient, ()>,
    name: &str,
    a: Value,
) -> rmcp::model::CallToolResult {
    c.call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(args(a)))
        .await
        .expect("a tool result")
}

fn text(r: &rmcp::model::CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn lists_ten_tools_with_schemas_and_read_only_hints() {
    let c = client().await;
    let info = c.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("ecclesia")
    );
    let tools = c.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "search",
            "fetch",
            "get_mass_readings",
            "get_martyrology",
            "get_saint",
            "get_person",
            "get_pope",
            "get_diocese",
            "get_diocese_statistics",
            "chat"
        ]
    );
    for t in &tools {
        assert_eq!(
            t.input_schema.get("type"),
            Some(&json!("object")),
            "{}",
            t.name
        );
        assert!(t.input_schema.get("properties").is_some(), "{}", t.name);
        assert!(
            t.description.as_ref().is_some_and(|d| d.len() > 40),
            "{}",
            t.name
        );
        let a = t.annotations.as_ref().expect("annotations");
        assert_eq!(a.read_only_hint, Some(true), "{}", t.name);
    }
    c.cancel().await.ok();
}

#[tokio::test]
async fn every_tool_answers_good_input_with_structured_content() {
    let c = client().await;
    let cases = [
        (
            "search",
            json!({"query": "light of nations", "limit": 3}),
            "results",
        ),
        ("fetch", json!({"id": "lg", "ref": "1"}), "title"),
        ("get_mass_readings", json!({"date": "next Sunday"}), "text"),
        ("get_martyrology", json!({"date": "2026-03-19"}), "text"),
        (
            "get_saint",
            json!({"query": "Therese of Lisieux"}),
            "primary_name",
        ),
        ("get_person", json!({"person_id": "tagle"}), "person_id"),
        ("get_pope", json!({"query": "John Paul II"}), "primary_name"),
        (
            "get_diocese",
            json!({"source_code": "dmaml"}),
            "source_code",
        ),
        (
            "get_diocese_statistics",
            json!({"query": "Manila", "start_year": 2010}),
            "primary_name",
        ),
        ("chat", json!({"question": "the Eucharist"}), "citations"),
    ];
    for (name, a, key) in cases {
        let r = call(&c, name, a).await;
        assert_eq!(r.is_error, Some(false), "{name}: {}", text(&r));
        let s = r.structured_content.as_ref().expect("structuredContent");
        assert!(s.get(key).is_some(), "{name}: {s}");
        assert!(!text(&r).is_empty(), "{name}");
    }
    let r = call(&c, "search", json!({"query": "x", "limit": 3})).await;
    assert_eq!(r.structured_content.unwrap()["results"][0]["limit"], 3);
    let r = call(
        &c,
        "get_diocese_statistics",
        json!({"query": "Manila", "start_year": 2010}),
    )
    .await;
    assert_eq!(r.structured_content.unwrap()["start_year"], 2010);
    let r = call(&c, "chat", json!({"question": "grace"})).await;
    assert!(text(&r).contains("grace [1]"));
    c.cancel().await.ok();
}

#[tokio::test]
async fn bad_input_is_a_tool_error_the_model_can_read() {
    let c = client().await;
    let cases = [
        (
            "get_mass_readings",
            json!({"date": "blursday"}),
            "could not read the date",
        ),
        (
            "get_mass_readings",
            json!({}),
            "missing required argument \"date\"",
        ),
        ("search", json!({"query": 5}), "query must be a string"),
        (
            "search",
            json!({"query": "x", "limit": 1000}),
            "limit must be between 1 and 100",
        ),
        (
            "search",
            json!({"query": "x", "bogus": 1}),
            "unknown argument \"bogus\"",
        ),
        ("get_saint", json!({}), "give one of query or saint_id"),
        ("fetch", json!({"id": "  "}), "id must not be blank"),
        ("chat", json!({"question": "x".repeat(20_001)}), "too long"),
        (
            "search",
            json!({"query": "x", "magisterial": "yes"}),
            "true or false",
        ),
    ];
    for (name, a, want) in cases {
        let r = call(&c, name, a).await;
        assert_eq!(r.is_error, Some(true), "{name}");
        assert!(text(&r).contains(want), "{name}: {}", text(&r));
        assert!(r.structured_content.unwrap().get("error").is_some());
    }
    // not_found is a normal result.
    let r = call(&c, "get_pope", json!({"query": "nobody at all"})).await;
    assert_eq!(r.is_error, Some(false));
    assert_eq!(r.structured_content.unwrap()["error"], "not_found");
    // An unknown tool is a protocol error naming the tools.
    let e = c
        .call_tool(CallToolRequestParams::new("nope"))
        .await
        .expect_err("unknown tool");
    assert!(e.to_string().contains("unknown tool"), "{e}");
    c.cancel().await.ok();
}

#[tokio::test]
async fn resources_and_prompts() {
    let c = client().await;
    let templates = c.list_resource_templates(None).await.unwrap();
    assert_eq!(
        templates.resource_templates[0].uri_template,
        ecclesia_mcp::DOCUMENT_TEMPLATE
    );
    let list = c.list_resources(None).await.unwrap();
    assert_eq!(list.resources[0].uri, ecclesia_mcp::TODAY_READINGS);

    let doc = c
        .read_resource(ReadResourceRequestParams::new(
            "ecclesia://document/lg?ref=5",
        ))
        .await
        .unwrap();
    let body = serde_json::to_value(&doc.contents).unwrap();
    assert_eq!(body[0]["text"], "Section 5 of Lumen Gentium.");
    assert_eq!(body[1]["mimeType"], "application/json");
    let missing = c
        .read_resource(ReadResourceRequestParams::new("ecclesia://document/nope"))
        .await
        .expect_err("not found");
    assert!(missing.to_string().contains("not found"), "{missing}");
    let today = c
        .read_resource(ReadResourceRequestParams::new(ecclesia_mcp::TODAY_READINGS))
        .await
        .unwrap();
    assert!(serde_json::to_string(&today.contents)
        .unwrap()
        .contains("mass_readings for today"));

    let prompts = c.list_prompts(None).await.unwrap();
    assert!(prompts
        .prompts
        .iter()
        .any(|p| p.name == "explain_todays_gospel"));
    let p = c
        .get_prompt(GetPromptRequestParams::new("explain_todays_gospel"))
        .await
        .unwrap();
    let s = serde_json::to_string(&p.messages).unwrap();
    assert!(
        s.contains("Explain the Gospel") && s.contains("John 6:51"),
        "{s}"
    );
    c.cancel().await.ok();
}

#[tokio::test]
async fn a_local_runner_answers_for_the_local_user() {
    let r =
        ecclesia_mcp::Runner::local(fake::registry(), std::time::Duration::from_secs(5)).unwrap();
    let artifacts = r
        .run("catholic_qa", vec![ecclesia_a2a::Part::text("grace")], None)
        .await
        .unwrap();
    let text = serde_json::to_string(&artifacts).unwrap();
    assert!(
        text.contains("grace [1]") && text.contains("citations"),
        "{text}"
    );
    let e = r.run("catholic_qa", vec![], None).await.unwrap_err();
    assert!(e.is_invalid_params(), "{e:?}");
}
