//! End to end: the `ecclesia` binary ingests the real datasets (the Church
//! Fathers capped so the debug build stays quick), serves on a loopback port,
//! and every product skill is called over HTTP — with plain JSON-RPC and with
//! the official Python SDK. The other surfaces of the same server (MCP over
//! stdio and Streamable HTTP, the OpenAI API, the Search API) are in
//! `e2e/surfaces.rs`.

#[path = "e2e/surfaces.rs"]
mod surfaces;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}

struct Server {
    child: Child,
    url: String,
    /// A key on `enterprise` (the server is anonymous too; the `openai` client always sends a key).
    key: String,
    /// A key on `tiny` (6 calls, 2 `catholic_qa` a minute), for the shared-pool test alone.
    tiny_key: String,
    /// A revoked key: refused with 401 even though the server is anonymous.
    revoked_key: String,
    _store: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One server for the whole file: ingest once, then serve.
fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let store = tempfile::tempdir().unwrap();
        let _ = SERVER_STORE.set(store.path().to_path_buf());
        let port = free_port();
        // The transformer model, when fetched (scripts/fetch-model.sh).
        let config = store.path().join("ecclesia.toml");
        let model = model_dir();
        let corpus = match &model {
            Some(m) => format!(
                "[corpus]\nembeddings = \"local\"\nmodel_dir = {:?}\nbatch = 8\n",
                m.display().to_string()
            ),
            None => "[corpus]\nembeddings = \"off\"\n".to_string(),
        };
        // `[time] today` for `ecclesia mcp` (stdio), as `--today` is for the server.
        std::fs::write(
            &config,
            format!("[server]\npush_allow = [\"127.0.0.1\"]\n\n[time]\ntoday = \"2026-11-30\"\n\n[plans.tiny]\nsend_per_minute = 6\nqa_per_minute = 2\n\n{corpus}"),
        )
        .unwrap();
        let key = create_key(store.path(), &config, "interop", "enterprise");
        let tiny_key = create_key(store.path(), &config, "tiny", "tiny");
        let revoked_key = create_key(store.path(), &config, "gone", "enterprise");
        revoke_key(store.path(), &config, "gone");
        let mut child = Command::new(env!("CARGO_BIN_EXE_ecclesia"))
            .args(["serve", "--anonymous", "--today", "2026-11-30"])
            .arg("--config")
            .arg(&config)
            .arg("--listen")
            .arg(format!("127.0.0.1:{port}"))
            .arg("--data")
            .arg(data_dir())
            .arg("--store")
            .arg(store.path())
            .env("ECCLESIA_CORPUS_FATHERS_MAX_CHARS", "3000000")
            .env("ECCLESIA_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start ecclesia serve");
        // Drain stderr so the progress bars never block the child.
        let err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                if line.contains("ERROR") || line.contains("error") {
                    eprintln!("server: {line}");
                }
            }
        });
        let url = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        loop {
            if let Ok(r) = ureq::get(&format!("{url}/healthz")).call() {
                if r.status() == 200 {
                    break;
                }
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!("ecclesia serve exited early: {status}");
            }
            assert!(
                started.elapsed() < Duration::from_secs(900),
                "server did not start"
            );
            std::thread::sleep(Duration::from_millis(250));
        }
        // Statics are never dropped: kill the server and remove its store
        // when the test process exits, or it would go on embedding for hours.
        SERVER_PID.store(child.id(), std::sync::atomic::Ordering::SeqCst);
        // SAFETY: registers a plain `extern "C" fn` with no captured state.
        unsafe {
            libc::atexit(stop_server);
        }
        Server {
            child,
            url,
            key,
            tiny_key,
            revoked_key,
            _store: store,
        }
    })
}

/// `ecclesia keys create` in `store`: the token it prints.
fn revoke_key(store: &std::path::Path, config: &std::path::Path, name: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_ecclesia"))
        .args(["keys", "revoke", name])
        .arg("--store")
        .arg(store)
        .arg("--config")
        .arg(config)
        .env("ECCLESIA_LOG", "warn")
        .output()
        .expect("run ecclesia keys revoke");
    assert!(
        out.status.success(),
        "keys revoke: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn create_key(store: &std::path::Path, config: &std::path::Path, name: &str, plan: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ecclesia"))
        .args(["keys", "create", "--name", name, "--plan", plan])
        .arg("--store")
        .arg(store)
        .arg("--config")
        .arg(config)
        .env("ECCLESIA_LOG", "warn")
        .output()
        .expect("run ecclesia keys create");
    assert!(
        out.status.success(),
        "keys create: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let token = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(token.starts_with("ecc_"), "no token in {token:?}");
    token
}

static SERVER_PID: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

extern "C" fn stop_server() {
    let pid = SERVER_PID.load(std::sync::atomic::Ordering::SeqCst);
    if pid != 0 {
        // SAFETY: signals and reaps our own child process.
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
            libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), 0);
        }
    }
    if let Some(s) = SERVER_STORE.get() {
        let _ = std::fs::remove_dir_all(s);
    }
}

static SERVER_STORE: OnceLock<PathBuf> = OnceLock::new();

/// The fetched all-MiniLM-L6-v2 folder; `None` skips the transformer checks
/// (required when `ECCLESIA_REQUIRE_MODEL=1`, as `scripts/test.sh` sets).
fn model_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models/all-MiniLM-L6-v2");
    if dir.join("model.safetensors").is_file() {
        return Some(dir.canonicalize().unwrap());
    }
    assert!(
        std::env::var("ECCLESIA_REQUIRE_MODEL").as_deref() != Ok("1"),
        "no model in {} (run scripts/fetch-model.sh)",
        dir.display()
    );
    None
}

fn call(skill: &str, parts: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {
        "kind": "message", "role": "user", "messageId": "m", "parts": parts, "metadata": {"skillId": skill}}}});
    let resp = ureq::post(&format!("{}/api/v1/a2a", server().url))
        .timeout(Duration::from_secs(120))
        .send_json(body)
        .expect("HTTP call");
    resp.into_json().unwrap()
}

fn artifact(skill: &str, parts: Value) -> Value {
    let v = call(skill, parts);
    assert_eq!(v["result"]["status"]["state"], "completed", "{v}");
    v["result"]["artifacts"][0].clone()
}

fn text(a: &Value) -> String {
    a["parts"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn data(a: &Value) -> Value {
    a["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == "data")
        .map(|p| p["data"].clone())
        .unwrap_or(Value::Null)
}

#[test]
fn card_lists_the_product_skills() {
    let card: Value = ureq::get(&format!("{}/.well-known/agent-card.json", server().url))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    let ids: Vec<&str> = card["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    for id in [
        "catholic_qa",
        "document_search",
        "document_fetch",
        "liturgical_readings",
        "saints_of_the_day",
        "saint_lookup",
        "person_lookup",
        "pope_lookup",
        "diocese_lookup",
        "diocese_statistics_lookup",
    ] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
}

#[test]
fn liturgical_readings_end_to_end() {
    let a = artifact(
        "liturgical_readings",
        json!([{"kind": "text", "text": "Easter Sunday 2026"}]),
    );
    assert_eq!(a["name"], "mass_readings");
    let t = text(&a);
    assert!(t.contains("Easter"), "{t}");
    assert!(t.contains("Gospel"), "{t}");
    assert_eq!(data(&a)["date"], "2026-04-05");
    let v = call(
        "liturgical_readings",
        json!([{"kind": "text", "text": "the day after never"}]),
    );
    assert_eq!(v["error"]["code"], -32602, "{v}");
}

#[test]
fn saints_of_the_day_end_to_end() {
    let a = artifact(
        "saints_of_the_day",
        json!([{"kind": "data", "data": {"date": "2026-03-19"}}]),
    );
    assert_eq!(a["name"], "martyrology");
    assert!(text(&a).contains("Joseph"), "{}", text(&a));
}

#[test]
fn directory_lookups_end_to_end() {
    let a = artifact(
        "pope_lookup",
        json!([{"kind": "data", "data": {"query": "Giovanni Paolo II"}}]),
    );
    assert_eq!(a["name"], "pope_profile");
    assert_eq!(data(&a)["pope_id"], "john-paul-ii");
    let a = artifact(
        "saint_lookup",
        json!([{"kind": "text", "text": "Therese of Lisieux"}]),
    );
    assert_eq!(a["name"], "saint_profile");
    assert!(
        data(&a)["primary_name"].as_str().unwrap().contains("Th"),
        "{a}"
    );
    let a = artifact(
        "person_lookup",
        json!([{"kind": "text", "text": "Pope Francis"}]),
    );
    assert_eq!(a["name"], "person_profile");
    assert_eq!(data(&a)["error"], "not_found");
    let a = artifact(
        "diocese_lookup",
        json!([{"kind": "text", "text": "Archdiocese of Manila"}]),
    );
    assert_eq!(a["name"], "diocese_profile");
    assert!(
        data(&a)["primary_name"]
            .as_str()
            .unwrap()
            .contains("Manila"),
        "{a}"
    );
    let a = artifact(
        "diocese_statistics_lookup",
        json!([{"kind": "data", "data": {"query": "Manila", "start_year": 2010, "end_year": 2012}}]),
    );
    assert_eq!(a["name"], "diocese_statistics_time_series");
    let v = call("saint_lookup", json!([{"kind": "data", "data": {}}]));
    assert_eq!(v["error"]["code"], -32602, "{v}");
}

#[test]
fn documents_end_to_end() {
    let a = artifact(
        "document_search",
        json!([{"kind": "text", "text": "the bread of life John 6"}]),
    );
    assert_eq!(a["name"], "search_results");
    let results = data(&a)["results"].as_array().unwrap().clone();
    assert!(!results.is_empty());
    let id = results[0]["id"].as_str().unwrap().to_string();
    let a = artifact(
        "document_fetch",
        json!([{"kind": "data", "data": {"id": id}}]),
    );
    assert_eq!(a["name"], "document");
    assert!(!text(&a).is_empty());
    let a = artifact(
        "document_fetch",
        json!([{"kind": "data", "data": {"id": "no-such-document"}}]),
    );
    assert_eq!(text(&a), "Document not found.");
}

#[test]
fn catholic_qa_is_the_default_and_cites_real_passages() {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {
        "kind": "message", "role": "user", "messageId": "m",
        "parts": [{"kind": "text", "text": "What did Jesus say about the bread of life?"}]}}});
    let v: Value = ureq::post(&format!("{}/api/v1/a2a", server().url))
        .send_json(body)
        .unwrap()
        .into_json()
        .unwrap();
    let a = &v["result"]["artifacts"][0];
    assert_eq!(a["name"], "catholic_qa_response", "{v}");
    let answer = text(a);
    let citations = a["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|p| p["data"]["citations"].as_array().cloned())
        .unwrap_or_default();
    assert!(!citations.is_empty(), "{v}");
    for (i, c) in citations.iter().enumerate() {
        assert_eq!(c["document_index"], i);
        // The quoted text is in the passage that document_fetch serves.
        let f = artifact(
            "document_fetch",
            json!([{"kind": "data", "data": {"id": c["document_id"], "ref": c["document_reference"]}}]),
        );
        let body = text(&f);
        assert!(
            body.contains(c["cited_text"].as_str().unwrap()),
            "citation {i} not in its passage"
        );
    }
    assert!(
        answer.contains("[1]"),
        "the answer cites no marker: {answer}"
    );
    let mut k = 0;
    while let Some(pos) = answer[k..].find('[') {
        let rest = &answer[k + pos + 1..];
        if let Some(end) = rest.find(']') {
            if let Ok(n) = rest[..end].parse::<usize>() {
                assert!(
                    n >= 1 && n <= citations.len(),
                    "marker [{n}] has no citation"
                );
            }
        }
        k += pos + 1;
    }
}

#[test]
fn python_sdk_against_the_binary() {
    let py = std::env::var("ECCLESIA_PYTHON")
        .map(PathBuf::from)
        .ok()
        .or_else(|| {
            let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python");
            p.exists().then_some(p)
        });
    let Some(py) = py else {
        assert!(
            std::env::var("ECCLESIA_REQUIRE_INTEROP").is_err(),
            "the a2a-sdk venv is required here"
        );
        eprintln!("skipping: no .venv with a2a-sdk");
        return;
    };
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../server/tests/interop/sdk_client.py");
    let out = Command::new(py)
        .arg(script)
        .arg(&server().url)
        .arg("pope_lookup")
        .arg(r#"{"query": "Benedict XVI"}"#)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("OK stream"), "{stdout}");
}

#[test]
fn transformer_vectors_fill_in_the_background_with_progress_in_readyz_and_metrics() {
    if model_dir().is_none() {
        eprintln!("skipped: no transformer model (run scripts/fetch-model.sh)");
        return;
    }
    let url = &server().url;
    let started = Instant::now();
    let semantic = loop {
        let r: Value = ureq::get(&format!("{url}/readyz"))
            .call()
            .unwrap()
            .into_json()
            .unwrap();
        let s = r["skills"]["document_search"]["semantic"].clone();
        assert_ne!(s["state"], "failed", "{s}");
        assert_ne!(s["state"], "off", "{s}");
        if s["embedded"].as_u64().unwrap_or(0) > 0 {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no transformer vector after 5 minutes: {s}"
        );
        std::thread::sleep(Duration::from_secs(1));
    };
    assert!(semantic["model"]
        .as_str()
        .unwrap()
        .starts_with("all-MiniLM-L6-v2@"));
    assert!(semantic["passages"].as_u64().unwrap() > 1000, "{semantic}");
    let metrics = ureq::get(&format!("{url}/metrics"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    let line = metrics
        .lines()
        .find(|l| l.starts_with("ecclesia_skill_document_search_semantic_embedded "))
        .unwrap_or_else(|| panic!("no progress gauge in\n{metrics}"));
    assert!(line.split(' ').nth(1).unwrap().parse::<f64>().unwrap() >= 1.0);
    assert!(metrics.contains("ecclesia_skill_document_search_semantic_coverage "));
    // Search keeps answering while vectors are partial, and says so.
    let a = artifact(
        "document_search",
        json!([{"kind": "text", "text": "just wages for workers"}]),
    );
    let d = data(&a);
    assert_eq!(d["mode"], "hybrid");
    assert!(
        d["notice"]
            .as_str()
            .unwrap_or("")
            .contains("transformer vectors cover"),
        "{d}"
    );
}

#[test]
fn sources_lists_every_dataset_and_the_models_with_licences() {
    server();
    let store = SERVER_STORE.get().cloned().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ecclesia"))
        .arg("sources")
        .arg("--data")
        .arg(data_dir())
        .arg("--store")
        .arg(&store)
        .arg("--config")
        .arg(store.join("ecclesia.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "[liturgy]",
        "[corpus]",
        "[directory]",
        "licence:",
        "[models]",
        "model2vec",
    ] {
        assert!(text.contains(want), "{want} missing in:\n{text}");
    }
    if model_dir().is_some() {
        assert!(text.contains("all-MiniLM-L6-v2 (mean pooling"), "{text}");
        assert!(text.contains("Apache-2.0"), "{text}");
    }
}

/// The `ecclesia …` commands of the README (```sh lines, `cargo run --release -- …`
/// lines, and inline code spans), as argument lists after `ecclesia`.
fn readme_commands() -> Vec<Vec<String>> {
    fn words(line: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = String::new();
        let mut in_word = false;
        let mut quote: Option<char> = None;
        for c in line.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), c) => cur.push(c),
                (None, '\'' | '"') => {
                    quote = Some(c);
                    in_word = true;
                }
                (None, '#') if !in_word => break,
                (None, c) if c.is_whitespace() => {
                    if in_word {
                        out.push(std::mem::take(&mut cur));
                        in_word = false;
                    }
                }
                (None, c) => {
                    cur.push(c);
                    in_word = true;
                }
            }
        }
        if in_word {
            out.push(cur);
        }
        out
    }
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let mut cmds = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = !in_sh && t == "```sh";
            continue;
        }
        if in_sh {
            let w = words(t);
            if w.first().map(String::as_str) == Some("ecclesia") {
                cmds.push(w[1..].to_vec());
            } else if w.len() > 3 && w[..3] == ["cargo", "run", "--release"] {
                if let Some(i) = w.iter().position(|x| x == "--") {
                    cmds.push(w[i + 1..].to_vec());
                }
            }
        } else {
            for (i, span) in line.split('`').enumerate() {
                if let Some(rest) = span.strip_prefix("ecclesia ").filter(|_| i % 2 == 1) {
                    cmds.push(words(rest));
                }
            }
        }
    }
    cmds
}

/// Every README command runs to a successful end against the real binary:
/// client calls against the live server, local commands against its store,
/// key commands against a store of their own. Skipped: `serve` and `ingest`
/// (the server above is one), and lines with placeholders (`ID`, `QUESTION`, `postgres://…`).
#[test]
fn every_readme_command_runs() {
    let s = server();
    let store = SERVER_STORE.get().unwrap().clone();
    let keys_store = tempfile::tempdir().unwrap();
    let placeholder = |w: &String| {
        (w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase()) && w != "II") || w.contains('…')
    };
    let mut ran = 0;
    for cmd in readme_commands() {
        let Some(first) = cmd.first() else { continue };
        if matches!(first.as_str(), "serve" | "ingest") || cmd.iter().any(placeholder) {
            continue;
        }
        let mut c = Command::new(env!("CARGO_BIN_EXE_ecclesia"));
        c.args(&cmd).env("ECCLESIA_LOG", "warn");
        match first.as_str() {
            "call" => {
                c.arg("--url").arg(&s.url);
            }
            "keys" => {
                c.arg("--store").arg(keys_store.path());
            }
            _ => {
                c.arg("--data")
                    .arg(data_dir())
                    .arg("--store")
                    .arg(&store)
                    .arg("--config")
                    .arg(store.join("ecclesia.toml"));
            }
        }
        let out = c.output().expect("run ecclesia");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !stderr.contains("panicked"),
            "README command `ecclesia {}` failed ({}): {stderr}",
            cmd.join(" "),
            out.status
        );
        assert!(
            !out.stdout.is_empty(),
            "README command `ecclesia {}` printed nothing",
            cmd.join(" ")
        );
        ran += 1;
    }
    assert!(ran >= 10, "only {ran} README commands ran");
}
