//! Test skills (registered here only) and helpers to call the router
//! in-process or a real server on a loopback port.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, ArtifactChunk, Skill, SkillContext, SkillError, SkillRegistry,
    SkillRequest,
};
use ecclesia_server::{AppState, Clock, KeyStore, ManualClock, ServerConfig, SqliteStore};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

/// Repeats its text and data.
pub struct Echo;
impl Skill for Echo {
    fn card(&self) -> AgentSkill {
        skill_card("echo", "Echo", "Repeats the message", &["test"], &["hello"])
    }
    fn run(&self, req: &SkillRequest, _: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        if req.text.as_deref() == Some("bad") {
            return Err(SkillError::InvalidParams(
                "the text must not be \"bad\"".into(),
            ));
        }
        let mut parts = vec![Part::text(req.text.clone().unwrap_or_default())];
        if !req.data.is_empty() {
            parts.push(Part::data(Value::Object(req.data.clone())));
        }
        Ok(vec![artifact("echo", parts)])
    }
}

/// Runs until canceled (or 10 s), polling the context.
pub struct Slow;
impl Skill for Slow {
    fn card(&self) -> AgentSkill {
        skill_card("slow", "Slow", "Waits", &["test"], &[])
    }
    fn run(&self, _: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        for _ in 0..1000 {
            ctx.check()?;
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(vec![artifact("slow", vec![Part::text("done")])])
    }
}

/// Panics.
pub struct Boom;
impl Skill for Boom {
    fn card(&self) -> AgentSkill {
        skill_card("boom", "Boom", "Panics", &["test"], &[])
    }
    fn run(&self, _: &SkillRequest, _: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        panic!("boom")
    }
}

/// Stands in for catholic_qa: streams three chunks, counts against the QA pool.
pub struct Chunky;
impl Skill for Chunky {
    fn card(&self) -> AgentSkill {
        skill_card("catholic_qa", "QA (test)", "Streams chunks", &["test"], &[])
    }
    fn run(&self, _: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let mut full = artifact("catholic_qa_response", vec![]);
        let words = ["one ", "two ", "three"];
        for (i, w) in words.iter().enumerate() {
            ctx.emit(ArtifactChunk {
                artifact: Artifact {
                    parts: vec![Part::text(*w)],
                    ..full.clone()
                },
                append: i > 0,
                last_chunk: false,
            });
        }
        full.parts = vec![Part::text(words.concat())];
        Ok(vec![full])
    }
    fn extra_pool(&self) -> Option<&'static str> {
        Some("catholic_qa")
    }
}

/// A `GET` feed at `/letters.txt`: `?n=3` gives `abc`; `n` over 26 is a bad request.
pub struct Letters;

impl ecclesia_core::Feed for Letters {
    fn path(&self) -> &'static str {
        "/letters.txt"
    }
    fn content_type(&self) -> &'static str {
        "text/plain; charset=utf-8"
    }
    fn render(
        &self,
        query: &std::collections::BTreeMap<String, String>,
    ) -> Result<String, ecclesia_core::SkillError> {
        let n: usize = query
            .get("n")
            .map_or(Ok(1), |v| v.parse())
            .map_err(|_| ecclesia_core::SkillError::InvalidParams("n: expected a number".into()))?;
        if n > 26 {
            return Err(ecclesia_core::SkillError::InvalidParams(
                "n: at most 26".into(),
            ));
        }
        Ok(('a'..='z').take(n).collect())
    }
}

pub fn registry() -> SkillRegistry {
    let mut r = SkillRegistry::default();
    r.register(Chunky)
        .register(Echo)
        .register(Slow)
        .register(Boom);
    r.register_feed(Letters);
    r
}

pub struct Harness {
    pub state: AppState,
    pub db: Arc<SqliteStore>,
    pub clock: Arc<ManualClock>,
}

pub fn harness_with(config: ServerConfig) -> Harness {
    let db = Arc::new(SqliteStore::in_memory().unwrap());
    let clock = Arc::new(ManualClock::new(chrono::Utc::now()));
    let state = AppState::with_parts(
        config,
        registry(),
        db.clone(),
        db.clone(),
        Some(db.clone()),
        clock.clone() as Arc<dyn Clock>,
    );
    Harness { state, db, clock }
}

/// Anonymous, unlimited (loopback) server with the test skills.
pub fn harness() -> Harness {
    harness_with(ServerConfig {
        anonymous: true,
        ..ServerConfig::default()
    })
}

pub struct Resp {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).to_string()
    }
    /// The `data:` payloads of an SSE body.
    pub fn sse(&self) -> Vec<Value> {
        self.text()
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(|d| serde_json::from_str(d).unwrap())
            .collect()
    }
}

impl Harness {
    pub async fn raw(&self, body: impl Into<Body>, token: Option<&str>) -> Resp {
        let mut req = Request::post("/api/v1/a2a").header("content-type", "application/json");
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        self.request(req.body(body.into()).unwrap()).await
    }

    /// Run one request through the router, in process, and read the whole response.
    pub async fn request(&self, req: Request<Body>) -> Resp {
        let resp = ecclesia_server::router(self.state.clone())
            .oneshot(req)
            .await
            .unwrap();
        let status = resp.status();
        let headers = resp.headers().clone();
        let body = resp
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec();
        Resp {
            status,
            headers,
            body,
        }
    }

    pub async fn rpc(&self, body: Value, token: Option<&str>) -> Resp {
        self.raw(serde_json::to_vec(&body).unwrap(), token).await
    }

    pub async fn get(&self, path: &str) -> Resp {
        self.request(Request::get(path).body(Body::empty()).unwrap())
            .await
    }

    pub fn key(&self, plan: &str) -> String {
        self.db.create_key(plan, plan).unwrap().1
    }
}

pub fn send(skill: Option<&str>, parts: Value) -> Value {
    let mut message =
        json!({"kind": "message", "messageId": uuid(), "role": "user", "parts": parts});
    if let Some(s) = skill {
        message["metadata"] = json!({"skillId": s});
    }
    json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": message}})
}

pub fn uuid() -> String {
    format!("{:x}", rand_u64())
}

fn rand_u64() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(1);
    N.fetch_add(1, Ordering::Relaxed) ^ 0x5eed_0000
}

#[track_caller]
pub fn check_error(resp: &Resp, code: i64, id: Value) {
    assert_eq!(resp.status, StatusCode::OK, "{}", resp.text());
    let v = resp.json();
    assert_eq!(v["jsonrpc"], "2.0");
    assert_eq!(v["error"]["code"], code, "{v}");
    assert_eq!(v["id"], id, "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .is_some_and(|m| !m.is_empty()));
    assert!(v.get("result").is_none());
}
