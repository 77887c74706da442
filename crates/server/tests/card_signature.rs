//! The signed agent card (A2A 1.0 §8.4) on a real server on a loopback port: verified by the
//! official A2A 1.x Python SDK's verifier (`a2a.utils.signing`, PyJWT) through its card
//! resolver, with the key fetched from the `jku` the header names; tampered cards refused.
//! The SDK lives in `<repo>/.venv-a2a1` (`scripts/test.sh`) or `ECCLESIA_PYTHON_A2A1`; in CI
//! (`ECCLESIA_REQUIRE_INTEROP=1`) a missing SDK is a failure.

use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, Skill, SkillContext, SkillError, SkillRegistry, SkillRequest,
};
use ecclesia_server::{AppState, CardSigner, Clock, ServerConfig, SqliteStore, SystemClock};
use std::path::PathBuf;
use std::sync::Arc;

/// A throwaway key made for this test (`openssl genpkey -algorithm EC -pkeyopt
/// ec_paramgen_curve:P-256`); it signs nothing else.
const TEST_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgOVeQKu56m7ZONgpg
fbcJrvvbPXQJ/cCcAHmL+vf6HguhRANCAATWL2poEZjEF4ysTaEUqW8znsJrZhXI
nXx8HtGogMZNMLrihGilJWc1fwGrRjomphpjgUu86AQFrTACf9ewg2JN
-----END PRIVATE KEY-----
";

struct Named(&'static str);
impl Skill for Named {
    fn card(&self) -> AgentSkill {
        skill_card(self.0, self.0, "A test skill", &["test"], &[])
    }
    fn run(&self, _: &SkillRequest, _: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        Ok(vec![artifact(self.0, vec![Part::text("ok")])])
    }
}

struct Server {
    url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

async fn start(sign: bool) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let url = format!("http://{addr}");
    let signer = sign.then(|| {
        CardSigner::from_pem(TEST_KEY, Some("test-2026".into()))
            .unwrap()
            .with_jku(format!("{url}{}", ecclesia_server::JWKS_PATH))
    });
    let config = ServerConfig {
        anonymous: true,
        listen: addr,
        public_url: url.clone(),
        card_signer: signer,
        ..Default::default()
    };
    let mut registry = SkillRegistry::default();
    registry.register(Named("first")).register(Named("second"));
    let db = Arc::new(SqliteStore::in_memory().unwrap());
    let state = AppState::with_parts(
        config,
        registry,
        db.clone(),
        db.clone(),
        Some(db),
        Arc::new(SystemClock) as Arc<dyn Clock>,
    );
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(ecclesia_server::serve(listener, state, async {
        let _ = rx.await;
    }));
    Server {
        url,
        stop: Some(tx),
        task,
    }
}

impl Server {
    async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        let _ = self.task.await;
    }
}

/// `GET url` over a plain connection: status, `ETag` and the JSON body (`Null` if none).
async fn get(url: &str, version: Option<&str>) -> (u16, Option<String>, serde_json::Value) {
    use std::io::{Read, Write};
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_once('/').unwrap();
    let (host, path) = (host.to_string(), format!("/{path}"));
    let version = version
        .map(|v| format!("A2A-Version: {v}\r\n"))
        .unwrap_or_default();
    tokio::task::spawn_blocking(move || {
        let mut conn = std::net::TcpStream::connect(&host).unwrap();
        write!(
            conn,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\n{version}Connection: close\r\n\r\n"
        )
        .unwrap();
        let mut text = String::new();
        conn.read_to_string(&mut text).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let etag = head
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("etag:"))
            .map(|l| l[5..].trim().to_string());
        (
            status,
            etag,
            serde_json::from_str(body).unwrap_or(serde_json::Value::Null),
        )
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signed_card_is_stable_and_only_in_the_1_0_shape() {
    let s = start(true).await;
    let card = format!("{}/.well-known/agent-card.json", s.url);
    let (status, etag, v1) = get(&card, Some("1.0")).await;
    assert_eq!(status, 200);
    let sig = &v1["signatures"][0];
    assert!(
        sig["protected"].is_string() && sig["signature"].is_string(),
        "{v1}"
    );
    // Deterministic signatures keep the validator stable.
    let (_, again, _) = get(&card, Some("1.0")).await;
    assert_eq!(etag, again);
    // The 0.3 shape is not signed: 0.3 clients canonicalise differently (see docs).
    let (_, _, v03) = get(&card, Some("0.3")).await;
    assert!(v03.get("signatures").is_none(), "{v03}");
    let (status, _, jwks) = get(&format!("{}{}", s.url, ecclesia_server::JWKS_PATH), None).await;
    assert_eq!(status, 200);
    assert_eq!(jwks["keys"][0]["kid"], "test-2026");
    assert!(jwks["keys"][0].get("d").is_none());
    s.stop().await;

    let plain = start(false).await;
    let (_, _, v1) = get(
        &format!("{}/.well-known/agent-card.json", plain.url),
        Some("1.0"),
    )
    .await;
    assert!(v1.get("signatures").is_none());
    let (status, _, _) = get(
        &format!("{}{}", plain.url, ecclesia_server::JWKS_PATH),
        None,
    )
    .await;
    assert_eq!(status, 404);
    plain.stop().await;
}

fn python() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("ECCLESIA_PYTHON_A2A1") {
        return Some(PathBuf::from(p));
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv-a2a1/bin/python");
    path.exists().then_some(path)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn official_sdk_verifies_the_signature_and_refuses_tampered_cards() {
    let Some(py) = python() else {
        assert!(
            std::env::var("ECCLESIA_REQUIRE_INTEROP").is_err(),
            "a2a-sdk 1.x is required here (run scripts/test.sh)"
        );
        eprintln!("skipping: no a2a-sdk 1.x venv");
        return;
    };
    let s = start(true).await;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/interop/verify_card.py");
    let url = s.url.clone();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(py).arg(script).arg(url).output()
    })
    .await
    .unwrap()
    .unwrap();
    s.stop().await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "verifier failed:\n{stdout}\n{stderr}");
    for line in [
        "verified: 1.0 card",
        "verified: card without a version header",
        "refused: card with a changed description",
        "refused: card with a changed version",
        "refused: card with a skill removed",
    ] {
        assert!(stdout.contains(line), "missing {line:?} in:\n{stdout}");
    }
}
