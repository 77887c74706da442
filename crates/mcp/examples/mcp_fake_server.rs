//! The MCP server over the test registry (no store needed), for
//! `tests/mcp_client.py`: `mcp_fake_server stdio`, or `mcp_fake_server http` (prints
//! `listening <port>` and the API key on stdout, then serves `/mcp` and A2A), or
//! `mcp_fake_server http-anonymous` (the same, callers without a key served on the
//! `unlimited` plan: the official conformance suite sends no `Authorization` header;
//! `scripts/mcp-conformance.sh`). In that mode only, the suite's fixture tools, prompts and
//! resources (`conformance/fixtures.rs`) are mounted beside the test registry's (the
//! Python client's test expects the registry's tools alone).

#[path = "../tests/it/fake.rs"]
#[allow(dead_code)]
mod fake;
#[path = "conformance/fixtures.rs"]
mod fixtures;

use ecclesia_server::{AppState, Plan, ServerConfig};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber_stderr();
    let mode = std::env::args().nth(1).unwrap_or_else(|| "stdio".into());
    if mode == "stdio" {
        return ecclesia_mcp::serve_stdio(fake::registry()).await;
    }
    let dir = tempfile::tempdir()?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let port = listener.local_addr()?.port();
    let mut config = ServerConfig {
        public_url: format!("http://127.0.0.1:{port}"),
        ..ServerConfig::default()
    };
    // The script makes ~150 calls a minute: more than the `pro` plan allows.
    config.plans.insert("test".into(), Plan::unlimited());
    if mode == "http-anonymous" {
        config.anonymous = true;
        config.plans.insert("anonymous".into(), Plan::unlimited());
    } else if mode != "http" {
        anyhow::bail!("usage: mcp_fake_server [stdio | http | http-anonymous]");
    }
    let state = AppState::open(config, fake::registry(), dir.path())?;
    let (_, token) = state.keys.create_key("python", "test")?;
    let mcp = if mode == "http-anonymous" {
        ecclesia_mcp::router_with(state.clone(), fixtures::Fixtures::new)
    } else {
        ecclesia_mcp::router(state.clone())
    };
    let app = ecclesia_server::router(state).merge(mcp);
    println!("listening {port} {token}");
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .await?;
    Ok(())
}

fn tracing_subscriber_stderr() {
    // Logs would go to stderr only; the example keeps quiet.
}
