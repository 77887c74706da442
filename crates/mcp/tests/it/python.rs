//! The official MCP Python SDK against `/mcp` and stdio: runs
//! `tests/mcp_client.py` (with the `mcp_fake_server` example) when
//! `ECCLESIA_MCP_PYTHON` names a Python with `mcp` installed; skipped with a
//! message otherwise.

#[test]
fn official_python_sdk() {
    let Ok(python) = std::env::var("ECCLESIA_MCP_PYTHON") else {
        assert!(
            std::env::var("ECCLESIA_REQUIRE_INTEROP").is_err(),
            "ECCLESIA_MCP_PYTHON is required here (scripts/test.sh sets it)"
        );
        eprintln!("skipped: set ECCLESIA_MCP_PYTHON to a Python with `mcp` installed to run tests/mcp_client.py");
        return;
    };
    // target/<profile>/deps/it-… → target/<profile>/examples/mcp_fake_server
    let exe = std::env::current_exe().expect("the test's path");
    let server = exe
        .parent()
        .and_then(|d| d.parent())
        .map(|d| d.join("examples").join("mcp_fake_server"))
        .expect("the examples folder");
    assert!(
        server.exists(),
        "build the example first: cargo test -p ecclesia-mcp builds it ({})",
        server.display()
    );
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_client.py");
    let status = std::process::Command::new(python)
        .arg(script)
        .arg(&server)
        .status()
        .expect("python runs");
    assert!(status.success(), "tests/mcp_client.py failed");
}
