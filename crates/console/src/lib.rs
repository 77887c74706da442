//! The web console for people: server-rendered pages over the same skills the
//! A2A endpoint serves, through [`SkillRegistry`] only.
//!
//! Every skill call goes through the [`SkillRunner`] the deployment gives
//! (`ConsoleOptions::runner`; the server's runs each call as a task of its core),
//! for the [`Visitor`] the [`Gate`] admitted.
//!
//! ```no_run
//! # use std::sync::Arc;
//! # let registry = Arc::new(ecclesia_core::SkillRegistry::default());
//! let app: axum::Router = ecclesia_console::router(registry, ecclesia_console::ConsoleOptions::default());
//! ```
//!
//! Pages: `/` (start), `/readings`, `/martyrology`, `/calendar` (a month grid),
//! `/ask`, `/lookup`, `/search`, `/document`, `/explorer`; the style sheet
//! and script under `/console/static/`. Every page works without
//! JavaScript; the script only enhances (streamed answers through
//! `message/stream`, keyboard navigation of the month grid, the explorer's
//! send button). No external fonts, scripts or images; a strict CSP.

pub mod error;
pub mod gate;
pub mod html;
pub mod i18n;
pub mod layout;
pub mod pages;
pub mod params;
pub mod skills;
pub mod svg;

mod assets;

use axum::extract::{DefaultBodyLimit, FromRequestParts};
use axum::http::request::Parts;
use axum::routing::get;
use axum::Router;
use ecclesia_core::SkillRegistry;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

pub use error::ConsoleError;
pub use gate::{Gate, Refusal, Visitor};
pub use layout::Ctx;
pub use skills::{RegistryRunner, RunError, SkillRunner};

/// How the console is set up.
#[derive(Clone)]
pub struct ConsoleOptions {
    /// Deadline of one skill call made by a page, under the [`RegistryRunner`] (a
    /// deployment's runner applies its own).
    pub skill_timeout: Duration,
    /// Skill calls running at once for the console (others wait), whichever the runner.
    pub max_concurrent: usize,
    /// The JSON-RPC endpoint the script and the explorer talk to.
    pub a2a_path: String,
    /// The agent card the explorer shows.
    pub card_path: String,
    /// The iCalendar feed linked from the month grid; `None` hides the link.
    pub ics_path: Option<String>,
    /// The calendar chosen when the page names none.
    pub default_calendar: String,
    /// Fixed "today" (tests); `None` = the clock (UTC).
    pub today: Option<chrono::NaiveDate>,
    /// Keys, plans and limits: asked before each page that runs a skill.
    pub gate: Option<Arc<dyn Gate>>,
    /// How the skills are run; `None` = a [`RegistryRunner`] over the console's registry
    /// (the console alone; the server always gives its own).
    pub runner: Option<Arc<dyn SkillRunner>>,
    /// The public address the explorer's curl commands name (`https://agent.example`);
    /// `None` = `http://` + the request's `Host`.
    pub public_url: Option<String>,
}

impl std::fmt::Debug for ConsoleOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConsoleOptions")
            .field("skill_timeout", &self.skill_timeout)
            .field("max_concurrent", &self.max_concurrent)
            .field("a2a_path", &self.a2a_path)
            .field("card_path", &self.card_path)
            .field("ics_path", &self.ics_path)
            .field("default_calendar", &self.default_calendar)
            .field("today", &self.today)
            .field("gate", &self.gate.is_some())
            .field("runner", &self.runner.is_some())
            .field("public_url", &self.public_url)
            .finish()
    }
}

impl Default for ConsoleOptions {
    fn default() -> Self {
        ConsoleOptions {
            skill_timeout: Duration::from_secs(60),
            max_concurrent: 4,
            a2a_path: "/api/v1/a2a".into(),
            card_path: "/.well-known/agent-card.json".into(),
            ics_path: Some("/calendar.ics".into()),
            default_calendar: "general-roman".into(),
            today: None,
            gate: None,
            runner: None,
            public_url: None,
        }
    }
}

/// Where the console gets its registry (swapped registries are followed).
pub type RegistrySource = Arc<dyn Fn() -> Arc<SkillRegistry> + Send + Sync>;

/// The console's shared state.
#[derive(Clone)]
pub struct ConsoleState {
    source: RegistrySource,
    /// The options.
    pub opts: Arc<ConsoleOptions>,
    /// Bounds the console's concurrent skill calls.
    pub permits: Arc<tokio::sync::Semaphore>,
    /// Runs the skill calls.
    pub runner: Arc<dyn SkillRunner>,
    lists: Arc<OnceLock<pages::readings::Lists>>,
}

impl ConsoleState {
    /// The registry now.
    pub fn registry(&self) -> Arc<SkillRegistry> {
        (self.source)()
    }

    /// Today, for defaults: the fixed day of the options, else the day the readings skill
    /// calls today (it reads the date in the configured time zone, which the console does
    /// not know), asked for `visitor` (a page admitted for that skill), else the day in UTC
    /// (no visitor, or the skill is not served).
    pub async fn today(&self, visitor: Option<&Visitor>) -> chrono::NaiveDate {
        if let Some(t) = self.opts.today {
            return t;
        }
        const READINGS: &str = "liturgical_readings";
        if let Some(visitor) = visitor.filter(|_| self.registry().get(READINGS).is_some()) {
            let parts = skills::data(serde_json::json!({"date": "today"}));
            if let Ok(answer) = skills::call(self, visitor, READINGS, parts).await {
                let date = answer
                    .data()
                    .get("date")
                    .and_then(|d| d.as_str()?.parse().ok());
                if let Some(date) = date {
                    return date;
                }
            }
        }
        chrono::Utc::now().date_naive()
    }

    /// Ask the gate (if any) to admit a page view running `skill`: the visitor its skill
    /// calls are made for ([`Visitor::anonymous`] without a gate).
    pub async fn admit(&self, ctx: &Ctx, skill: &str) -> Result<Visitor, ConsoleError> {
        match &self.opts.gate {
            Some(g) => g
                .admit(skill, &ctx.headers)
                .await
                .map_err(ConsoleError::Refused),
            None => Ok(Visitor::anonymous()),
        }
    }

    /// The calendars and translations the readings skill offers (asked once).
    pub async fn lists(&self) -> pages::readings::Lists {
        if let Some(l) = self.lists.get() {
            return l.clone();
        }
        let l = pages::readings::Lists::probe(self).await;
        if !l.calendars.is_empty() {
            let _ = self.lists.set(l.clone());
        }
        l
    }
}

/// The console over a fixed registry.
pub fn router(registry: Arc<SkillRegistry>, opts: ConsoleOptions) -> Router {
    router_with_source(Arc::new(move || registry.clone()), opts)
}

/// The console over a registry read anew for each request (follow
/// `AppState::swap_registry`).
pub fn router_with_source(source: RegistrySource, opts: ConsoleOptions) -> Router {
    let runner = opts.runner.clone().unwrap_or_else(|| {
        Arc::new(RegistryRunner::new(source.clone(), opts.skill_timeout)) as Arc<dyn SkillRunner>
    });
    let state = ConsoleState {
        source,
        runner,
        permits: Arc::new(tokio::sync::Semaphore::new(opts.max_concurrent.max(1))),
        opts: Arc::new(opts),
        lists: Arc::new(OnceLock::new()),
    };
    Router::new()
        .route("/", get(pages::home::handler))
        .route("/readings", get(pages::readings::handler))
        .route("/martyrology", get(pages::martyrology::handler))
        .route("/calendar", get(pages::calendar::handler))
        .route(
            "/ask",
            get(pages::ask::get_handler).post(pages::ask::post_handler),
        )
        .route("/lookup", get(pages::lookup::handler))
        .route("/search", get(pages::search::handler))
        .route("/document", get(pages::document::handler))
        .route("/explorer", get(pages::explorer::handler))
        .route("/console/static/{file}", get(assets::handler))
        .layer(DefaultBodyLimit::max(params::MAX_FORM_BYTES))
        .with_state(state)
}

impl<S: Send + Sync> FromRequestParts<S> for Ctx {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let raw = parts.uri.query().unwrap_or("");
        let mut lang_q: Option<String> = None;
        let mut other = Vec::new();
        for pair in raw.split('&').filter(|p| !p.is_empty()).take(64) {
            match pair.split_once('=') {
                Some(("lang", v)) => lang_q = Some(v.chars().take(16).collect()),
                _ if pair.len() <= 2048 => other.push(pair.to_string()),
                _ => {}
            }
        }
        let accept = parts
            .headers
            .get(axum::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok());
        let lang = i18n::Lang::choose(lang_q.as_deref(), accept);
        let explicit = lang_q.as_deref().and_then(i18n::Lang::from_tag).is_some();
        Ok(Ctx {
            headers: Arc::new(parts.headers.clone()),
            lang,
            explicit,
            path: parts.uri.path().chars().take(256).collect(),
            other_query: other,
        })
    }
}

/// A page result as a response: the page, or the error's page.
pub(crate) fn respond(
    ctx: &Ctx,
    r: Result<layout::Page, ConsoleError>,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match r {
        Ok(p) => p.into_response(),
        Err(e) => {
            if matches!(e, ConsoleError::Internal(_)) {
                tracing::error!(path = %ctx.path, "console page failed: {e}");
            } else {
                tracing::debug!(path = %ctx.path, "console page refused: {e}");
            }
            let retry = match &e {
                ConsoleError::Refused(r) => r.retry_after,
                _ => None,
            };
            let mut resp = e.page(ctx.lang).into_response();
            if let Some(secs) = retry {
                if let Ok(v) = axum::http::HeaderValue::from_str(&secs.to_string()) {
                    resp.headers_mut()
                        .insert(axum::http::header::RETRY_AFTER, v);
                }
            }
            resp
        }
    }
}
