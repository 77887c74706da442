//! The other surfaces of the same running binary: MCP (the official Python
//! SDK over stdio and Streamable HTTP), the OpenAI API (the official `openai`
//! client), the Search API, one rate-limit pool across all of them, and
//! hostile input on each. The Python clients run when `ECCLESIA_MCP_PYTHON` /
//! `ECCLESIA_OPENAI_PYTHON` name a Python with `mcp` and `openai` installed
//! (`scripts/test.sh` sets both to `.venv-mcp`); without them these tests skip,
//! unless `ECCLESIA_REQUIRE_INTEROP=1`.

use super::{artifact, data, data_dir, server, SERVER_STORE};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

fn python(var: &str) -> Option<PathBuf> {
    match std::env::var(var) {
        Ok(p) => Some(PathBuf::from(p)),
        Err(_) => {
            assert!(
                std::env::var("ECCLESIA_REQUIRE_INTEROP").is_err(),
                "{var} is required here (scripts/test.sh sets it)"
            );
            eprintln!("skipped: set {var} to a Python with `mcp` and `openai` installed");
            None
        }
    }
}

fn script(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn run_python(py: PathBuf, args: Vec<std::ffi::OsString>) {
    // The server is anonymous: a token that matches no key is served, a revoked one is 401.
    let out = Command::new(py)
        .args(args)
        .env("ECCLESIA_REVOKED_KEY", &server().revoked_key)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("ok: "), "{stdout}");
}

/// `tests/mcp_binary.py` of the MCP crate: stdio (`ecclesia mcp`, the same
/// store) and Streamable HTTP in every revision.
#[test]
fn mcp_python_sdk_against_the_binary() {
    let Some(py) = python("ECCLESIA_MCP_PYTHON") else {
        return;
    };
    let s = server();
    let store = SERVER_STORE.get().cloned().expect("the server's store");
    let args = vec![
        script("../mcp/tests/mcp_binary.py").into_os_string(),
        s.url.clone().into(),
        env!("CARGO_BIN_EXE_ecclesia").into(),
        "--data".into(),
        data_dir().into_os_string(),
        "mcp".into(),
        "--store".into(),
        store.clone().into_os_string(),
        "--config".into(),
        store.join("ecclesia.toml").into_os_string(),
    ];
    run_python(py, args);
}

/// `tests/openai_binary.py` of the OpenAI crate: completions with verified
/// citations, a follow-up, bad requests, the Search API, and one pool across
/// A2A, MCP, chat and search (the tiny key).
#[test]
fn openai_python_client_against_the_binary() {
    let Some(py) = python("ECCLESIA_OPENAI_PYTHON") else {
        return;
    };
    let s = server();
    let args = vec![
        script("../openai/tests/openai_binary.py").into_os_string(),
        s.url.clone().into(),
        s.key.clone().into(),
        s.tiny_key.clone().into(),
    ];
    run_python(py, args);
}

/// POST `body` to `path` with the enterprise key (or `key`): status and JSON body.
fn post(path: &str, key: Option<&str>, body: &str) -> (u16, Value) {
    let s = server();
    let key = key.unwrap_or(&s.key);
    let mut req = ureq::post(&format!("{}{path}", s.url))
        .timeout(Duration::from_secs(120))
        .set("Content-Type", "application/json")
        .set("Accept", "application/json, text/event-stream")
        .set("Authorization", &format!("Bearer {key}"));
    if path == "/mcp" {
        // Stateless MCP: the revision and the standard headers that repeat the body's method and name.
        let v: Value = serde_json::from_str(body).unwrap_or_default();
        req = req
            .set("MCP-Protocol-Version", "2026-07-28")
            .set("Mcp-Method", v["method"].as_str().unwrap_or_default());
        if let Some(name) = v["params"]["name"].as_str().filter(|n| n.len() < 100) {
            req = req.set("Mcp-Name", name);
        }
    }
    let r = req.send_string(body);
    let (status, resp) = match r {
        Ok(resp) => (resp.status(), resp),
        Err(ureq::Error::Status(code, resp)) => (code, resp),
        Err(e) => panic!("{path}: {e}"),
    };
    let text = resp.into_string().unwrap_or_default();
    let v = serde_json::from_str(&text)
        .or_else(|_| {
            // An SSE answer (MCP): the JSON of its first `data:` line.
            text.lines()
                .find_map(|l| l.strip_prefix("data: "))
                .map(serde_json::from_str)
                .unwrap_or_else(|| serde_json::from_str(&text))
        })
        .unwrap_or_else(|_| panic!("{path}: not JSON ({status}): {text:.300}"));
    (status, v)
}

#[test]
fn search_api_end_to_end() {
    let (status, v) = post(
        "/api/v1/search",
        None,
        &json!({"query": "the bread of life John 6", "numResults": 5}).to_string(),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["object"], "search.results");
    let results = v["results"].as_array().unwrap();
    assert!(!results.is_empty() && results.len() <= 5, "{v}");
    // The same skill as A2A's document_search: the same first document.
    let a = artifact(
        "document_search",
        json!([{"kind": "data", "data": {"query": "the bread of life John 6", "limit": 5}}]),
    );
    assert_eq!(
        results[0]["document_id"],
        data(&a)["results"][0]["id"],
        "{v}"
    );
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r["rank"], i + 1);
        for k in [
            "document_id",
            "document_title",
            "cited_text",
            "score",
            "magisterial",
        ] {
            assert!(!r[k].is_null(), "{k} in {r}");
        }
    }
    for (category, magisterial) in [("magisterial", true), ("scholarly", false)] {
        let (status, v) = post(
            "/api/v1/search",
            None,
            &json!({"query": "grace and salvation", "numResults": 20, "category": category})
                .to_string(),
        );
        assert_eq!(status, 200, "{v}");
        let results = v["results"].as_array().unwrap();
        assert!(!results.is_empty(), "{category}: {v}");
        assert!(
            results.iter().all(|r| r["magisterial"] == magisterial),
            "{category}: {v}"
        );
    }
    let long = "x".repeat(1025);
    for (body, param) in [
        (json!({"query": long}), "query"),
        (json!({"query": "grace", "numResults": 0}), "numResults"),
        (json!({"query": "grace", "numResults": 101}), "numResults"),
        (json!({"query": "grace", "numResults": 1.5}), "numResults"),
        (json!({"query": "grace", "category": "papal"}), "category"),
        (json!({"query": 7}), "query"),
    ] {
        let (status, v) = post("/api/v1/search", None, &body.to_string());
        assert_eq!(status, 400, "{body}: {v}");
        assert_eq!(v["error"]["param"], param, "{body}: {v}");
    }
    // The server is anonymous: a token that matches no key is served as anonymous (the
    // official clients must send some key), a revoked key is refused.
    let (status, v) = post("/api/v1/search", Some("ecc_wrong"), r#"{"query": "grace"}"#);
    assert_eq!(status, 200, "{v}");
    let (status, v) = post(
        "/api/v1/search",
        Some(&server().revoked_key),
        r#"{"query": "grace"}"#,
    );
    assert_eq!(status, 401, "{v}");
    assert_eq!(v["error"]["code"], "invalid_api_key");
}

/// Hostile input on the OpenAI API, the Search API and MCP over HTTP: each a
/// clear error with the right status, and the server still answers after.
#[test]
fn hostile_input_on_every_surface_gets_a_clear_error() {
    let chat = "/api/v1/chat/completions";
    let turn = json!({"role": "user", "content": "What is grace?"});
    let many: Vec<Value> = (0..5000).map(|_| turn.clone()).collect();
    let cases: Vec<(&str, String, u16, &str)> = vec![
        (
            chat,
            json!({"model": "ecclesia-1", "messages": many}).to_string(),
            400,
            "too many messages",
        ),
        (
            chat,
            json!({"model": "ecclesia-1", "messages": [{"role": "pope", "content": "x"}]})
                .to_string(),
            400,
            "Invalid value",
        ),
        (
            chat,
            json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": {"a": 1}}]})
                .to_string(),
            400,
            "must be a string",
        ),
        (
            chat,
            json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": "x".repeat(20_001)}]})
                .to_string(),
            400,
            "too long",
        ),
        (
            chat,
            json!({"model": "ecclesia-1", "messages": "hi"}).to_string(),
            400,
            "must be an array",
        ),
        (chat, "[[[[".repeat(10_000), 400, "JSON"),
        (
            "/api/v1/search",
            json!({"query": ["grace"]}).to_string(),
            400,
            "must be a string",
        ),
    ];
    for (path, body, status, says) in cases {
        let (got, v) = post(path, None, &body);
        let shown: String = body.chars().take(80).collect();
        assert_eq!(got, status, "{path} {shown}: {v}");
        let message = v["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{path} {shown}: {v}");
        assert!(message.len() < 500, "{path}: a short message: {message}");
    }
    // MCP over HTTP, stateless (2026-07-28): one JSON-RPC request a POST.
    for (args, name) in [
        (json!({"query": ["John Paul II"]}), "get_pope"),
        (json!({"query": "x".repeat(30_000)}), "get_pope"),
        (json!({"date": 20_261_130}), "get_mass_readings"),
    ] {
        let (status, v) = post("/mcp", None, &mcp_call(name, args.clone()));
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["result"]["isError"], true, "{name} {args:.60}: {v}");
        let text = v["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(!text.is_empty() && text.len() < 500, "{v}");
    }
    let (_, v) = post("/mcp", None, &mcp_call("no_such_tool", json!({})));
    let said = v.to_string().to_lowercase();
    assert!(said.contains("unknown tool"), "{v}");
    // Bodies over the limit are refused from the declared length, before they are read.
    for path in [chat, "/api/v1/search", "/mcp"] {
        let head = oversized(path);
        assert!(head.starts_with("HTTP/1.1 413"), "{path}: {head}");
    }
    // Still serving.
    let (status, v) = post(
        "/mcp",
        None,
        &mcp_call("get_pope", json!({"query": "Leo XIII"})),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"]["isError"], false, "{v}");
    assert_eq!(
        v["result"]["structuredContent"]["pope_id"], "leo-xiii",
        "{v}"
    );
}

/// The response head to a POST that declares a 2 MiB body (over the 1 MiB
/// limit) and sends only its first bytes.
fn oversized(path: &str) -> String {
    use std::io::{Read, Write};
    let addr = server().url.trim_start_matches("http://").to_string();
    let mut conn = std::net::TcpStream::connect(&addr).expect("connect");
    conn.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{{\"query\": \"",
        2 * 1024 * 1024
    );
    conn.write_all(head.as_bytes()).expect("send the head");
    let mut buf = vec![0u8; 4096];
    let n = conn.read(&mut buf).unwrap_or(0);
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// A stateless MCP `tools/call` (revision 2026-07-28: the version and the
/// client in each request's `_meta`, no session).
pub(crate) fn mcp_call(name: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": name, "arguments": arguments,
        "_meta": MCP_META.clone()}})
    .to_string()
}

static MCP_META: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "e2e", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    })
});
