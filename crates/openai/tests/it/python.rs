//! The official `openai` Python client against a local server: runs
//! `tests/openai_client.py` (with the `openai_fake_server` example) when
//! `ECCLESIA_OPENAI_PYTHON` names a Python with `openai` installed; skipped
//! with a message otherwise.

#[test]
fn official_python_client() {
    let Ok(python) = std::env::var("ECCLESIA_OPENAI_PYTHON") else {
        assert!(
            std::env::var("ECCLESIA_REQUIRE_INTEROP").is_err(),
            "ECCLESIA_OPENAI_PYTHON is required here (scripts/test.sh sets it)"
        );
        eprintln!("skipped: set ECCLESIA_OPENAI_PYTHON to a Python with `openai` installed to run tests/openai_client.py");
        return;
    };
    let exe = std::env::current_exe().expect("the test's path");
    let server = exe
        .parent()
        .and_then(|d| d.parent())
        .map(|d| d.join("examples").join("openai_fake_server"))
        .expect("the examples folder");
    assert!(
        server.exists(),
        "the example is built by cargo test ({})",
        server.display()
    );
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/openai_client.py");
    let status = std::process::Command::new(python)
        .arg(script)
        .arg(&server)
        .status()
        .expect("python runs");
    assert!(status.success(), "tests/openai_client.py failed");
}
