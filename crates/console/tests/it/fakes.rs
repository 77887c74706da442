//! Stand-ins: the three corpus skills (answers and documents of our own, so
//! that the ask, search and document pages can be checked without the
//! corpus store), and a minimal A2A endpoint (`message/send`,
//! `message/stream`, the agent card) over the registry for the page script.

use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, ArtifactChunk, Skill, SkillContext, SkillError, SkillRegistry,
    SkillRequest,
};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

pub const DOC_ID: &str = "doc-grace";
pub const DOC_TITLE: &str = "On Grace <i>test</i>";
pub const CITED: &str = "Grace is the free and undeserved help that God gives us";
pub const DOC_TEXT: &str = "Introduction to the letter.\n\nGrace is the free and undeserved help that God gives us to respond to his call.\n\nConclusion.";
pub const ANSWER: &str =
    "**Grace** is a gift [1]. A marker without a source [2]. Hostile <script>alert(1)</script>.";

struct FakeQa;
impl Skill for FakeQa {
    fn card(&self) -> AgentSkill {
        skill_card(
            "catholic_qa",
            "Questions (stand-in)",
            "A canned cited answer",
            &["test"],
            &["What is grace?"],
        )
    }
    fn run(&self, req: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let _q = req.require_text("question")?;
        let citations = json!({"citations": [{
            "cited_text": CITED, "cited_text_heading": "On grace", "document_id": DOC_ID,
            "document_title": DOC_TITLE, "document_index": 0, "document_author": "A. Author",
            "document_year": 1990, "document_reference": "2", "source_url": null
        }]});
        let related =
            json!({"related_questions": ["What is sanctifying grace?", "<b>bold</b> question"]});
        let whole = artifact(
            "catholic_qa_response",
            vec![
                Part::text(ANSWER),
                Part::data(citations),
                Part::data(related),
            ],
        );
        if ctx.is_streaming() {
            let words: Vec<&str> = ANSWER.split_inclusive(' ').collect();
            for (i, chunk) in words.chunks(3).enumerate() {
                let mut a = whole.clone();
                a.parts = vec![Part::text(chunk.concat())];
                ctx.emit(ArtifactChunk {
                    artifact: a,
                    append: i > 0,
                    last_chunk: false,
                });
                std::thread::sleep(std::time::Duration::from_millis(30));
            }
        }
        Ok(vec![whole])
    }
}

struct FakeFetch;
impl Skill for FakeFetch {
    fn card(&self) -> AgentSkill {
        skill_card(
            "document_fetch",
            "Document fetch (stand-in)",
            "One document",
            &["test"],
            &["{\"id\": \"doc-grace\"}"],
        )
    }
    fn run(&self, req: &SkillRequest, _: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let id = req
            .str_field("id")?
            .or(req.text.clone())
            .unwrap_or_default();
        if id != DOC_ID {
            return Ok(vec![artifact(
                "document",
                vec![Part::text("Document not found.")],
            )]);
        }
        Ok(vec![artifact(
            "document",
            vec![
                Part::text(DOC_TEXT),
                Part::data(
                    json!({"id": DOC_ID, "title": DOC_TITLE, "author": "A. Author", "ref": null, "year": 1990, "type": "letter", "language": "en", "source_url": "https://example.org/grace"}),
                ),
            ],
        )])
    }
}

struct FakeSearch;
impl Skill for FakeSearch {
    fn card(&self) -> AgentSkill {
        skill_card(
            "document_search",
            "Search (stand-in)",
            "25 results",
            &["test"],
            &["grace"],
        )
    }
    fn run(&self, req: &SkillRequest, _: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let q = req.require_text("query")?;
        let limit = req.int_field("limit")?.unwrap_or(10).clamp(1, 100) as usize;
        let offset = req.int_field("offset")?.unwrap_or(0).max(0) as usize;
        let filter = req.str_field("type")?;
        let total = if filter.as_deref() == Some("scripture") {
            0
        } else {
            25
        };
        let results: Vec<Value> = (offset..total.min(offset + limit))
            .map(|i| json!({
                "id": DOC_ID, "title": format!("Result {} for {q}", i + 1), "author": "A. Author",
                "year": 1990, "type": "letter", "language": "en", "reference": "2",
                "snippet": "**Grace** is the free and undeserved help", "url": "https://example.org/grace"
            }))
            .collect();
        let next = (offset + limit < total).then_some(offset + limit);
        Ok(vec![artifact(
            "search_results",
            vec![Part::data(
                json!({"results": results, "next_offset": next, "offset": offset, "limit": limit}),
            )],
        )])
    }
}

pub fn register(reg: &mut SkillRegistry) {
    reg.register(FakeQa);
    reg.register(FakeFetch);
    reg.register(FakeSearch);
}

type Reg = Arc<SkillRegistry>;

/// `/api/v1/a2a` (send and stream) and the agent card, over `registry`.
pub fn a2a_router(registry: Reg) -> Router {
    Router::new()
        .route("/api/v1/a2a", post(rpc))
        .route("/.well-known/agent-card.json", get(card))
        .with_state(registry)
}

async fn card(State(reg): State<Reg>) -> Json<Value> {
    let skills: Vec<Value> = reg
        .iter()
        .map(|s| serde_json::to_value(s.card()).unwrap())
        .collect();
    Json(json!({"name": "Ecclesia (test)", "protocolVersion": "0.3.0", "skills": skills}))
}

fn task(artifacts: &[Artifact]) -> Value {
    json!({"kind": "task", "id": "task-1", "contextId": "ctx-1", "status": {"state": "completed"}, "artifacts": artifacts})
}

async fn rpc(State(reg): State<Reg>, Json(body): Json<Value>) -> Response {
    let id = body.get("id").cloned().unwrap_or(Value::Null);
    let method = body
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let msg = &body["params"]["message"];
    let skill_id = msg["metadata"]["skillId"]
        .as_str()
        .unwrap_or("catholic_qa")
        .to_string();
    let parts: Vec<Part> = serde_json::from_value(msg["parts"].clone()).unwrap_or_default();
    let err = |code: i64, m: String| {
        Json(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": m}}))
            .into_response()
    };
    let Some(skill) = reg.get(&skill_id).cloned() else {
        return err(-32602, format!("unknown skill {skill_id}"));
    };
    let req = match SkillRequest::from_parts(&parts) {
        Ok(r) => r,
        Err(e) => return err(-32602, e.to_string()),
    };
    if method == "message/stream" {
        let events: Arc<Mutex<Vec<Value>>> = Arc::default();
        let sink = events.clone();
        let ctx = SkillContext::default().with_sink(move |c: ArtifactChunk| {
            sink.lock().unwrap().push(json!({"kind": "artifact-update", "taskId": "task-1", "contextId": "ctx-1", "artifact": c.artifact, "append": c.append, "lastChunk": c.last_chunk}));
        });
        let out = tokio::task::spawn_blocking(move || skill.run(&req, &ctx))
            .await
            .unwrap();
        let mut all = events.lock().unwrap().clone();
        match out {
            Ok(arts) => {
                for a in &arts {
                    all.push(json!({"kind": "artifact-update", "taskId": "task-1", "contextId": "ctx-1", "artifact": a, "append": false, "lastChunk": true}));
                }
                all.push(json!({"kind": "status-update", "taskId": "task-1", "contextId": "ctx-1", "status": {"state": "completed"}, "final": true}));
            }
            Err(e) => return err(-32602, e.to_string()),
        }
        let sse: String = all
            .iter()
            .map(|r| {
                format!(
                    "data: {}\n\n",
                    json!({"jsonrpc": "2.0", "id": id, "result": r})
                )
            })
            .collect();
        return (
            [(header::CONTENT_TYPE, "text/event-stream")],
            Body::from(sse),
        )
            .into_response();
    }
    let out = tokio::task::spawn_blocking(move || skill.run(&req, &SkillContext::default()))
        .await
        .unwrap();
    match out {
        Ok(arts) => {
            Json(json!({"jsonrpc": "2.0", "id": id, "result": task(&arts)})).into_response()
        }
        Err(e) => err(-32602, e.to_string()),
    }
}
