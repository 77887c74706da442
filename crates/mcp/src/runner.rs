//! [`Runner`]: how a tool call reaches a skill: through the server's [`CoreClient`], for the
//! [`Caller`] the HTTP layer authenticated (keys, plans, lanes, the rate-limit pools, tasks
//! and metrics are exactly A2A's). Over stdio there is one local user: a core of its own
//! over an in-memory task store, whose caller has no rate limit.

use ecclesia_a2a::{Artifact, Part};
use ecclesia_core::SkillRegistry;
use ecclesia_server::{
    AppState, AskError, Caller, CoreClient, Plan, ServerConfig, ServerError, SqliteStore,
    StoreLimits, SystemClock,
};
use std::sync::Arc;
use std::time::Duration;

/// Where skills run, and for whom when no HTTP layer said.
#[derive(Clone, Debug)]
pub struct Runner {
    core: CoreClient,
    /// The caller over stdio (no HTTP layer to authenticate one).
    local: Option<Caller>,
}

/// The ceiling on the tasks a stdio session keeps in memory.
const LOCAL_STORE_BYTES: u64 = 64 * 1024 * 1024;

/// The one user of a stdio session: every skill, no rate limit.
fn local_caller() -> Caller {
    Caller {
        id: "local".into(),
        plan_name: "local".into(),
        plan: Plan {
            a2a: true,
            send_per_minute: None,
            qa_per_minute: None,
        },
    }
}

impl Runner {
    /// Skills of `registry` run in this process, `timeout` each, for the local user
    /// (`ecclesia mcp` over stdio, tests). Tasks live in memory and expire as the
    /// server's do.
    pub fn local(registry: SkillRegistry, timeout: Duration) -> anyhow::Result<Self> {
        let store = Arc::new(SqliteStore::in_memory()?);
        // In memory: a smaller ceiling than the server's file (the oldest finished go first).
        store.set_limits(StoreLimits {
            max_bytes: LOCAL_STORE_BYTES,
            ..StoreLimits::default()
        });
        let config = ServerConfig {
            skill_timeout: timeout,
            ..ServerConfig::default()
        };
        let state = AppState::with_parts(
            config,
            registry,
            store.clone(),
            store,
            None,
            Arc::new(SystemClock),
        );
        Ok(Runner {
            core: CoreClient::new(state, "mcp"),
            local: Some(local_caller()),
        })
    }

    /// Skills run through the server of `state`.
    pub fn server(state: AppState) -> Self {
        Runner {
            core: CoreClient::new(state, "mcp"),
            local: None,
        }
    }

    /// The server's state (its task upkeep is started by whoever owns it).
    pub fn state(&self) -> &AppState {
        self.core.state()
    }

    /// Whether a skill with this id is offered now.
    pub fn has_skill(&self, id: &str) -> bool {
        self.core.has_skill(id)
    }

    /// The caller of a request: the one the HTTP layer authenticated, else the local user.
    fn caller<'a>(&'a self, authenticated: Option<&'a Caller>) -> Result<&'a Caller, AskError> {
        authenticated.or(self.local.as_ref()).ok_or_else(|| {
            // The HTTP layer authenticates every request before MCP sees it.
            AskError::Refused(ServerError::internal("-", "an MCP request with no caller"))
        })
    }

    /// Run `skill` on `parts` for `caller` (`None` over stdio).
    pub async fn run(
        &self,
        skill: &str,
        parts: Vec<Part>,
        caller: Option<&Caller>,
    ) -> Result<Vec<Artifact>, AskError> {
        self.core.ask(self.caller(caller)?, skill, parts).await
    }
}
