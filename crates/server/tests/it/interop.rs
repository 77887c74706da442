//! Interop with the official Python SDK (`a2a-sdk==0.3.26`): its card
//! resolver and client against this server on a loopback port.
//!
//! The SDK lives in the venv that `.ci/run` (and `scripts/test.sh`) creates at
//! `<repo>/.venv`; `ECCLESIA_PYTHON` may point elsewhere. In CI
//! (`ECCLESIA_REQUIRE_INTEROP=1`) a missing SDK is a failure.

use crate::support::*;
use std::path::PathBuf;

fn python() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("ECCLESIA_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python");
    venv.exists().then_some(venv)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_client() {
    let Some(py) = python() else {
        assert!(
            std::env::var("ECCLESIA_REQUIRE_INTEROP").is_err(),
            "the a2a-sdk venv is required here (run scripts/test.sh)"
        );
        eprintln!("skipping: no .venv with a2a-sdk (scripts/test.sh creates it)");
        return;
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let h = harness_with(ecclesia_server::ServerConfig {
        anonymous: true,
        listen: addr,
        public_url: format!("http://{addr}"),
        ..Default::default()
    });
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ecclesia_server::serve(listener, h.state.clone(), async {
        let _ = rx.await;
    }));
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/interop/sdk_client.py");
    let url = format!("http://{addr}");
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(py).arg(script).arg(url).output()
    })
    .await
    .unwrap()
    .unwrap();
    let _ = tx.send(());
    let _ = server.await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "sdk client failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("OK card"), "{stdout}");
    assert!(stdout.contains("OK send"), "{stdout}");
    assert!(stdout.contains("OK stream"), "{stdout}");
    assert!(stdout.contains("OK get"), "{stdout}");
}

/// The venv with the 1.x SDK (`a2a-sdk==1.3.0`): `ECCLESIA_PYTHON_A2A1`, or `<repo>/.venv-a2a1`
/// (created by `scripts/test.sh`; one venv cannot hold both SDK lines).
fn python_1x() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("ECCLESIA_PYTHON_A2A1") {
        return Some(PathBuf::from(p));
    }
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv-a2a1/bin/python");
    venv.exists().then_some(venv)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_1x_client_speaks_a2a_1_0() {
    let Some(py) = python_1x() else {
        assert!(
            std::env::var("ECCLESIA_REQUIRE_INTEROP").is_err(),
            "the a2a-sdk 1.x venv is required here (run scripts/test.sh)"
        );
        eprintln!("skipping: no .venv-a2a1 with a2a-sdk 1.x (scripts/test.sh creates it)");
        return;
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let h = harness_with(ecclesia_server::ServerConfig {
        anonymous: true,
        listen: addr,
        public_url: format!("http://{addr}"),
        ..Default::default()
    });
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ecclesia_server::serve(listener, h.state.clone(), async {
        let _ = rx.await;
    }));
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/interop/sdk1_client.py");
    let url = format!("http://{addr}");
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(py).arg(script).arg(url).output()
    })
    .await
    .unwrap()
    .unwrap();
    let _ = tx.send(());
    let _ = server.await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "sdk 1.x client failed:\n{stdout}\n{stderr}"
    );
    for step in ["OK send", "OK get", "OK list", "OK stream", "OK rest"] {
        assert!(stdout.contains(step), "{step} missing:\n{stdout}");
    }
}
