//! The console's skill calls through the core: [`ConsoleRunner`] implements the console's
//! port ([`ecclesia_console::SkillRunner`]) with a [`CoreClient`] of surface `console`, so
//! that every call a page makes is a task of the page's caller, in its skill's lane, under
//! the server's deadline, counted in the metrics (`method="console"`), like an A2A, MCP or
//! OpenAI call.
//!
//! **Admission.** The gate ([`crate::http::console_gate`]) finds the page's caller (its key,
//! or the shared `console` pool) and draws the rate-limit pools once for the page view.
//! A page then makes one call (readings) to about 31 (a month grid, with "today"): charging
//! each would refuse a month page halfway. So the gate hands the page a [`PageCaller`]: its
//! caller with the plan's per-minute limits cleared, because the page's pools are already
//! counted. The core's admission still runs on each call with it: the plan's `a2a`, the
//! skill, the parameters, a place in the lane (round-robin between callers, the caller's
//! share), a task, the deadline and the metrics; only the rate-limit pools draw nothing
//! more. A `PageCaller` exists only once the gate has charged the page, and a visitor
//! without one is not run.

use crate::core::callers::Caller;
use crate::core::client::{AskError, CoreClient};
use crate::core::errors::ServerError;
use axum::http::StatusCode;
use ecclesia_a2a::{Artifact, Part, TaskState};
use ecclesia_console::{Refusal, RunError, SkillRunner, Visitor};
use futures::future::BoxFuture;
use std::time::{Duration, Instant};

/// The caller of an admitted console page: the gate's caller with its plan's per-minute
/// limits cleared, the page's rate-limit pools having been drawn by the gate (see the
/// module's doc). Built by the gate only, carried in the page's [`Visitor`].
#[derive(Debug, Clone)]
pub(crate) struct PageCaller(Caller);

impl PageCaller {
    /// `caller`, whose pools the gate has just drawn for one page view.
    pub(crate) fn counted(mut caller: Caller) -> Self {
        caller.plan.send_per_minute = None;
        caller.plan.qa_per_minute = None;
        PageCaller(caller)
    }

    /// The caller each of the page's skill calls is made for.
    pub(crate) fn caller(&self) -> &Caller {
        &self.0
    }
}

/// The console's runner over the core (surface `console`).
pub(crate) struct ConsoleRunner {
    core: CoreClient,
    /// The server's deadline of one run: a failed task that took this long ran out of time.
    deadline: Duration,
}

impl ConsoleRunner {
    /// Over the core `core`.
    pub(crate) fn new(core: CoreClient) -> Self {
        let deadline = core.state().config.skill_timeout;
        ConsoleRunner { core, deadline }
    }

    async fn ask(
        &self,
        visitor: &Visitor,
        skill: &str,
        parts: Vec<Part>,
    ) -> Result<Vec<Artifact>, RunError> {
        let Some(page) = visitor.admission::<PageCaller>() else {
            return Err(RunError::Failed(format!(
                "the visitor {} was not admitted by the server's console gate",
                visitor.id()
            )));
        };
        if !self.core.has_skill(skill) {
            return Err(RunError::UnknownSkill(skill.to_string()));
        }
        let started = Instant::now();
        self.core
            .ask(page.caller(), skill, parts)
            .await
            .map_err(|e| self.run_error(e, started.elapsed()))
    }

    /// The console's reading of an [`AskError`].
    fn run_error(&self, e: AskError, elapsed: Duration) -> RunError {
        match e {
            AskError::Refused(e) => refused(e),
            AskError::Ended {
                state: TaskState::Rejected,
                message,
            } => RunError::InvalidParams(message),
            // A run the deadline stopped (or that never got a worker in time) ends `failed`
            // after the server's deadline.
            AskError::Ended { .. } if elapsed >= self.deadline => RunError::Timeout,
            AskError::Ended { state, message } => {
                RunError::Failed(format!("the task ended {}: {message}", state.as_str()))
            }
        }
    }
}

/// A refusal before the skill ran, as the console shows it.
fn refused(e: ServerError) -> RunError {
    let refusal = |status: StatusCode, retry_after: Option<u64>| {
        RunError::Refused(Refusal {
            status,
            message: e.message(),
            retry_after,
        })
    };
    match &e {
        ServerError::InvalidParams { message, .. } => RunError::InvalidParams(message.clone()),
        ServerError::ContentTypeNotSupported(m) => RunError::InvalidParams(m.clone()),
        ServerError::Unavailable(m) => RunError::Unavailable(m.clone()),
        ServerError::RateLimited(d) => refusal(StatusCode::TOO_MANY_REQUESTS, Some(d.reset_secs)),
        ServerError::Busy { retry_after, .. } | ServerError::LimiterUnavailable { retry_after } => {
            refusal(StatusCode::SERVICE_UNAVAILABLE, Some(*retry_after))
        }
        ServerError::PlanRequired(_) => refusal(StatusCode::FORBIDDEN, None),
        other => RunError::Failed(other.message()),
    }
}

impl SkillRunner for ConsoleRunner {
    fn run<'a>(
        &'a self,
        visitor: &'a Visitor,
        skill: &'a str,
        parts: Vec<Part>,
    ) -> BoxFuture<'a, Result<Vec<Artifact>, RunError>> {
        Box::pin(self.ask(visitor, skill, parts))
    }
}
