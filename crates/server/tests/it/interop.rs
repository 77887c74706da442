//! Interop with the official Python SDKs against this server on a loopback port:
//! `a2a-sdk==0.3.26` (A2A 0.3: its card resolver and client) and `a2a-sdk==1.3.0`
//! (A2A 1.0: JSON-RPC and HTTP+JSON).
//!
//! The SDKs live in the venvs that `.ci/run` (and `scripts/test.sh`) create at `<repo>/.venv`
//! and `<repo>/.venv-a2a1` (one venv cannot hold both lines); `ECCLESIA_PYTHON` and
//! `ECCLESIA_PYTHON_A2A1` may point elsewhere. In CI (`ECCLESIA_REQUIRE_INTEROP=1`) a missing
//! SDK is a failure.

use crate::support::*;
use std::path::PathBuf;

/// The interpreter named by `env`, or the repo's venv at `venv`.
fn python(env: &str, venv: &str) -> Option<PathBuf> {
    if let Ok(p) = std::env::var(env) {
        return Some(PathBuf::from(p));
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../{venv}/bin/python"));
    path.exists().then_some(path)
}

/// Run `tests/interop/<script>` with `py` against a real server on a loopback port;
/// its stdout, after asserting that it exited 0.
async fn run_client(py: PathBuf, script: &str) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut h = harness_with(ecclesia_server::ServerConfig {
        anonymous: true,
        listen: addr,
        public_url: format!("http://{addr}"),
        // The scripts' webhook receivers listen on loopback.
        push_allow: vec!["127.0.0.1".into()],
        ..Default::default()
    });
    h.state = h.state.clone().with_push(h.db.clone());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ecclesia_server::serve(listener, h.state.clone(), async {
        let _ = rx.await;
    }));
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/interop")
        .join(script);
    let url = format!("http://{addr}");
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(py).arg(script).arg(url).output()
    })
    .await
    .unwrap()
    .unwrap();
    let _ = tx.send(());
    let _ = server.await;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "sdk client failed:\n{stdout}\n{stderr}"
    );
    stdout
}

fn skip_unless_optional(what: &str) {
    assert!(
        std::env::var("ECCLESIA_REQUIRE_INTEROP").is_err(),
        "{what} is required here (run scripts/test.sh)"
    );
    eprintln!("skipping: no {what} (scripts/test.sh creates it)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_client() {
    let Some(py) = python("ECCLESIA_PYTHON", ".venv") else {
        return skip_unless_optional("the a2a-sdk 0.3 venv (.venv)");
    };
    let stdout = run_client(py, "sdk_client.py").await;
    for step in ["OK card", "OK send", "OK stream", "OK get", "OK push"] {
        assert!(stdout.contains(step), "{step} missing:\n{stdout}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_1x_client_speaks_a2a_1_0() {
    let Some(py) = python("ECCLESIA_PYTHON_A2A1", ".venv-a2a1") else {
        return skip_unless_optional("the a2a-sdk 1.x venv (.venv-a2a1)");
    };
    let stdout = run_client(py, "sdk1_client.py").await;
    for step in [
        "OK send",
        "OK get",
        "OK list",
        "OK stream",
        "OK rest",
        "OK cancel refused",
        "OK resubscribe",
        "OK push",
    ] {
        assert!(stdout.contains(step), "{step} missing:\n{stdout}");
    }
}
