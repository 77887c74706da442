//! The server as a system under test for the A2A conformance suites (a2a-tck): the real
//! router, store, auth and limits, with one stand-in skill registered as the default
//! `catholic_qa`, so that the suite's free-text messages complete without the corpus.
//!
//! `cargo run -p ecclesia-server --example tck_sut -- 127.0.0.1:9999`

use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, Skill, SkillContext, SkillError, SkillRegistry, SkillRequest,
};
use ecclesia_server::{AppState, ServerConfig};

/// Answers with the text it was given.
struct Echo;

impl Skill for Echo {
    fn card(&self) -> AgentSkill {
        skill_card(
            "catholic_qa",
            "Echo (conformance stand-in)",
            "Repeats the message",
            &["test"],
            &["hello"],
        )
    }
    fn run(&self, req: &SkillRequest, _: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        Ok(vec![artifact(
            "echo",
            vec![Part::text(req.text.clone().unwrap_or_default())],
        )])
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let addr: std::net::SocketAddr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:9999".into())
        .parse()?;
    let mut registry = SkillRegistry::default();
    registry.register(Echo);
    let dir = tempfile::tempdir()?;
    let config = ServerConfig {
        anonymous: true,
        listen: addr,
        public_url: format!("http://{addr}"),
        // The suites' webhook receivers listen on loopback.
        push_allow: vec!["127.0.0.1".into(), "localhost".into(), "::1".into()],
        ..ServerConfig::default()
    };
    let state = AppState::open(config, registry, dir.path())?;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("serving the conformance stand-in on http://{addr}");
    ecclesia_server::serve(listener, state, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}
