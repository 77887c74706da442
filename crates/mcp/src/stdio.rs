//! MCP over stdio (what desktop clients launch): JSON-RPC on stdin/stdout,
//! logs on stderr only (the caller sets up tracing with a stderr writer).

use crate::handler::EcclesiaMcp;
use crate::runner::Runner;
use ecclesia_core::SkillRegistry;
use rmcp::ServiceExt;
use std::time::Duration;

/// The deadline of one tool call over stdio (the server's default skill timeout).
pub const STDIO_SKILL_TIMEOUT: Duration = Duration::from_secs(120);

/// Serve `registry` over stdin/stdout until the client closes the stream.
/// One local user: no keys, no rate limit.
pub async fn serve_stdio(registry: SkillRegistry) -> anyhow::Result<()> {
    serve_io(registry, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serve `registry` over any byte streams (tests use an in-memory pipe).
pub async fn serve_io<R, W>(registry: SkillRegistry, read: R, write: W) -> anyhow::Result<()>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    tracing::info!(skills = ?registry.ids(), "MCP on stdio");
    let runner = Runner::local(registry, STDIO_SKILL_TIMEOUT)?;
    let state = runner.state().clone();
    let upkeep = state.spawn_purge();
    let handler = EcclesiaMcp::new(runner);
    let service = handler
        .serve((read, write))
        .await
        .map_err(|e| anyhow::anyhow!("the MCP session did not start: {e}"))?;
    let reason = service
        .waiting()
        .await
        .map_err(|e| anyhow::anyhow!("the MCP session failed: {e}"))?;
    tracing::info!(?reason, "MCP on stdio: the client closed the session");
    state.shutdown();
    let _ = upkeep.await;
    Ok(())
}
