//! [`EcclesiaMcp`]: the MCP server handler (tools, resources, prompts, completion, logging,
//! subscriptions), transport-neutral; [`crate::serve_stdio`] and [`crate::router`] serve it.
// Logging and resource subscriptions are deprecated in rmcp (SEP-2577, the stateless
// 2026-07-28 revision) but part of the 2025 revisions this server also serves.
#![allow(deprecated)]

use crate::runner::Runner;
use crate::session::Session;
use crate::{completion, content, prompts, resources, tools};
use ecclesia_server::{AskError, Caller, ServerError};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, CompletionInfo,
    GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    ServerCapabilities, ServerConfig, SetLevelRequestParams, SubscribeRequestParams,
    SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::borrow::Cow;

/// The protocol revisions served: 2025-06-18 and 2025-11-25 over the
/// `initialize` handshake (sessions), 2026-07-28 stateless.
pub const PROTOCOL_VERSIONS: &[ProtocolVersion] = &[
    ProtocolVersion::V_2025_06_18,
    ProtocolVersion::V_2025_11_25,
    ProtocolVersion::V_2026_07_28,
];

const INSTRUCTIONS: &str = "Ecclesia answers questions about the Catholic faith from its own corpus and directories. \
Use `search` then `fetch` for documents, `chat` for a cited long-form answer (slow, strictly rate-limited), \
`get_mass_readings` and `get_martyrology` for a date, and `get_saint`, `get_person`, `get_pope`, `get_diocese`, \
`get_diocese_statistics` for the directories. A tool result with isError explains what to change.";

/// The MCP server: one per session (cheap to clone).
#[derive(Debug, Clone)]
pub struct EcclesiaMcp {
    runner: Runner,
    version: String,
    session: Session,
}

impl EcclesiaMcp {
    /// A server running skills through `runner`.
    pub fn new(runner: Runner) -> Self {
        EcclesiaMcp {
            runner,
            version: env!("CARGO_PKG_VERSION").into(),
            session: Session::default(),
        }
    }

    /// The handler for a new session: the same skills, a fresh logging level and no
    /// subscriptions (a clone would share them).
    pub fn for_session(&self) -> Self {
        EcclesiaMcp {
            runner: self.runner.clone(),
            version: self.version.clone(),
            session: Session::default(),
        }
    }

    /// Name the server's version (the card's) in `serverInfo`.
    pub fn with_version(mut self, version: impl Into<String>) -> Self {
        self.version = version.into();
        self
    }

    /// The tools offered now (those whose skill is registered), in order.
    pub fn tools(&self) -> Vec<rmcp::model::Tool> {
        tools::TOOLS
            .iter()
            .filter(|t| self.runner.has_skill(t.skill))
            .map(tools::tool)
            .collect()
    }

    /// Call tool `name` with `arguments` (skill errors come back as `isError` results).
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<&serde_json::Map<String, serde_json::Value>>,
        caller: Option<&Caller>,
    ) -> Result<rmcp::model::CallToolResult, ErrorData> {
        let Some(spec) = tools::spec(name).filter(|t| self.runner.has_skill(t.skill)) else {
            let shown: String = name.chars().take(64).collect();
            let known: Vec<String> = self
                .tools()
                .into_iter()
                .map(|t| t.name.into_owned())
                .collect();
            return Err(ErrorData::invalid_params(
                format!("unknown tool {shown:?}; tools: {}", known.join(", ")),
                Some(serde_json::json!({"tools": known})),
            ));
        };
        let parts = match tools::to_parts(spec, arguments) {
            Ok(p) => p,
            Err(m) => {
                return Ok(content::failure(&AskError::Refused(
                    ServerError::invalid_params(m),
                )));
            }
        };
        let started = std::time::Instant::now();
        let out = self.runner.run(spec.skill, parts, caller).await;
        tracing::info!(
            tool = name,
            skill = spec.skill,
            ok = out.is_ok(),
            ms = started.elapsed().as_millis() as u64,
            "mcp tool call"
        );
        Ok(match out {
            Ok(artifacts) => content::success(&artifacts),
            Err(e) => content::failure(&e),
        })
    }
}

impl EcclesiaMcp {
    /// A log message for a tool call, when the client set a level: info for each call, a
    /// warning when the tool failed.
    #[allow(deprecated)]
    async fn log_call(
        &self,
        context: &RequestContext<RoleServer>,
        tool: &str,
        out: &Result<rmcp::model::CallToolResult, ErrorData>,
        started: std::time::Instant,
    ) {
        use rmcp::model::LoggingLevel;
        let ms = started.elapsed().as_millis() as u64;
        let failed = match out {
            Ok(r) => r.is_error == Some(true),
            Err(_) => true,
        };
        let (level, what) = if failed {
            (LoggingLevel::Warning, "tool call failed")
        } else {
            (LoggingLevel::Info, "tool call")
        };
        let tool: String = tool.chars().take(64).collect();
        self.session
            .log(
                &context.peer,
                level,
                serde_json::json!({"message": what, "tool": tool, "ms": ms}),
            )
            .await;
    }
}

/// The caller the HTTP layer authenticated; none over stdio.
fn caller_of(ctx: &RequestContext<RoleServer>) -> Option<Caller> {
    ctx.extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Caller>())
        .cloned()
}

impl ServerHandler for EcclesiaMcp {
    fn get_info(&self) -> ServerConfig {
        let caps = ServerCapabilities::builder()
            .enable_logging()
            .enable_completions()
            .enable_tools()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_prompts()
            .build();
        let mut info = ServerConfig::new(caps).with_instructions(INSTRUCTIONS);
        info.server_info = Implementation::new("ecclesia", self.version.clone());
        info.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        info
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(PROTOCOL_VERSIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let caller = caller_of(&context);
        let started = std::time::Instant::now();
        let out = self
            .call(&request.name, request.arguments.as_ref(), caller.as_ref())
            .await;
        self.log_call(&context, &request.name, &out, started).await;
        out.map(Into::into)
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.set_level(request.level);
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let mut values = completion::values(
            &request.r#ref,
            &request.argument.name,
            &request.argument.value,
        );
        values.truncate(CompletionInfo::MAX_VALUES);
        let info = CompletionInfo::with_all_values(values)
            .map_err(|m| ErrorData::internal_error(m, None))?;
        Ok(CompleteResult::new(info))
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        match resources::parse(&request.uri)? {
            resources::Target::TodayReadings => {
                if self.session.subscribe(&request.uri) {
                    self.session.notify_daily(context.peer.clone(), request.uri);
                }
                Ok(())
            }
            // A document does not change while the server runs: nothing will ever be sent.
            resources::Target::Document { .. } => Ok(()),
        }
    }

    /// `subscriptions/listen` (2026-07-28): the resources of ours among those asked for
    /// (today's readings change each midnight; a document never does); no list changes.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let uris: Vec<String> = requested
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| resources::parse(uri).is_ok())
            .cloned()
            .collect();
        let mut accepted = SubscriptionFilter::new();
        accepted.resource_subscriptions = Some(uris);
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let today = context
            .accepted()
            .resource_subscriptions
            .iter()
            .flatten()
            .any(|uri| uri == resources::TODAY_READINGS);
        if !today {
            context.cancelled().await;
            return Ok(());
        }
        loop {
            tokio::select! {
                () = context.cancelled() => return Ok(()),
                () = tokio::time::sleep(crate::session::until_next_day()) => {}
            }
            if context
                .sink()
                .notify_resource_updated(resources::TODAY_READINGS)
                .await
                .is_err()
            {
                return Ok(());
            }
        }
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.unsubscribe(&request.uri);
        Ok(())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let items = if self.runner.has_skill("liturgical_readings") {
            resources::list()
        } else {
            Vec::new()
        };
        Ok(ListResourcesResult::with_all_items(items))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let caller = caller_of(&context);
        let contents = resources::read(&self.runner, &request.uri, caller.as_ref()).await?;
        Ok(ReadResourceResult::new(contents).into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(prompts::list()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let caller = caller_of(&context);
        prompts::get(
            &self.runner,
            &request.name,
            request.arguments.as_ref(),
            caller.as_ref(),
        )
        .await
        .map(Into::into)
    }
}
