//! A local server with a fake `catholic_qa` (no store needed), for
//! `tests/openai_client.py` (and the Open Responses compliance runner): prints
//! `listening <port> <API key> <second key>`, then serves A2A, Chat
//! Completions and the Responses API until killed.

#[path = "../tests/it/fake.rs"]
mod fake;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let port = listener.local_addr()?.port();
    let (state, _) = fake::state(dir.path(), Some(format!("http://127.0.0.1:{port}")));
    // A key on a plan of 5 catholic_qa a minute: the script's calls, then a 429.
    let (_, token) = state.keys.create_key("python", "qa5")?;
    // A second key, on a plan of 20 a minute, for the Responses API's calls.
    let (_, second) = state.keys.create_key("python-responses", "enterprise")?;
    let app = ecclesia_server::router(state.clone()).merge(ecclesia_openai::router(state));
    println!("listening {port} {token} {second}");
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .await?;
    Ok(())
}
