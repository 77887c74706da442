//! The official MCP conformance suite's fixture tools, prompts and resources
//! (`@modelcontextprotocol/conformance`, `src/scenarios/server/*.ts`), mounted beside
//! Ecclesia's own on the real `/mcp` transport, as rmcp's conformance server
//! (`modelcontextprotocol/rust-sdk/conformance/src/bin/server.rs`) does. Test-only: the
//! real server never serves these. Everything else goes to [`EcclesiaMcp`].
#![allow(deprecated)]

use ecclesia_mcp::EcclesiaMcp;
use rmcp::model::*;
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Value};
use std::borrow::Cow;

/// A 1×1 red PNG.
const IMAGE: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";
/// A silent WAV.
const AUDIO: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";

/// Ecclesia's handler with the suite's fixtures in front of it.
#[derive(Clone)]
pub struct Fixtures {
    inner: EcclesiaMcp,
}

impl Fixtures {
    pub fn new(inner: EcclesiaMcp) -> Self {
        Fixtures { inner }
    }
}

fn object(v: Value) -> JsonObject {
    match v {
        Value::Object(m) => m,
        _ => JsonObject::new(),
    }
}

fn no_args() -> JsonObject {
    object(json!({"type": "object", "properties": {}}))
}

fn tools() -> Vec<Tool> {
    let simple = [
        ("test_simple_text", "Returns simple text content"),
        ("test_image_content", "Returns image content"),
        ("test_audio_content", "Returns audio content"),
        (
            "test_embedded_resource",
            "Returns embedded resource content",
        ),
        (
            "test_multiple_content_types",
            "Returns multiple content types",
        ),
        ("test_tool_with_logging", "Sends logging notifications"),
        ("test_error_handling", "Always returns an error"),
        ("test_tool_with_progress", "Reports progress notifications"),
        (
            "test_elicitation_sep1034_defaults",
            "Elicitation with defaults",
        ),
        ("test_elicitation_sep1330_enums", "Elicitation with enums"),
        (
            "test_missing_capability",
            "Requires the sampling capability",
        ),
        (
            "test_logging_tool",
            "Logs only when a logLevel is requested",
        ),
    ];
    let mut out: Vec<Tool> = simple
        .iter()
        .map(|(n, d)| Tool::new(*n, *d, no_args()))
        .collect();
    out.push(Tool::new(
        "test_sampling",
        "Requests LLM sampling from the client",
        object(
            json!({"type": "object", "properties": {"prompt": {"type": "string"}},
                      "required": ["prompt"]}),
        ),
    ));
    out.push(Tool::new(
        "test_elicitation",
        "Requests user input from the client",
        object(
            json!({"type": "object", "properties": {"message": {"type": "string"}},
                      "required": ["message"]}),
        ),
    ));
    out.push(Tool::new(
        "test_custom_header",
        "Validates SEP-2243 custom parameter headers",
        object(json!({"type": "object",
                      "properties": {"value": {"type": "string", "x-mcp-header": "Value"}},
                      "required": ["value"]})),
    ));
    out.push(Tool::new(
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features",
        object(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {"address": {"$anchor": "address", "type": "object",
                      "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
            "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
            "allOf": [{"anyOf": [{"required": ["name"]}, {"required": ["address"]}]}],
            "if": {"required": ["address"]},
            "then": {"properties": {"address": {"required": ["street"]}}},
            "else": {"required": ["name"]},
            "additionalProperties": false
        })),
    ));
    out
}

fn text(t: impl Into<String>) -> ContentBlock {
    ContentBlock::text(t.into())
}

async fn elicit(
    ctx: &RequestContext<RoleServer>,
    message: &str,
    schema: Value,
) -> Result<CallToolResult, ErrorData> {
    let schema: ElicitationSchema = serde_json::from_value(schema)
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    let params = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message.into(),
        requested_schema: schema,
    };
    Ok(match ctx.peer.create_elicitation(params).await {
        Ok(r) => CallToolResult::success(vec![text(format!(
            "Elicitation completed: action={:?}, content={:?}",
            r.action, r.content
        ))]),
        Err(e) => CallToolResult::error(vec![text(format!("Elicitation error: {e}"))]),
    })
}

impl Fixtures {
    async fn call_fixture(
        &self,
        name: &str,
        args: JsonObject,
        ctx: &RequestContext<RoleServer>,
    ) -> Option<Result<CallToolResult, ErrorData>> {
        let arg = |k: &str| args.get(k).and_then(Value::as_str).map(str::to_string);
        Some(Ok(match name {
            "test_simple_text" => {
                CallToolResult::success(vec![text("This is a simple text response for testing.")])
            }
            "test_image_content" => {
                CallToolResult::success(vec![ContentBlock::image(IMAGE, "image/png")])
            }
            "test_audio_content" => CallToolResult::success(vec![ContentBlock::Audio(
                AudioContent::new(AUDIO, "audio/wav"),
            )]),
            "test_embedded_resource" => CallToolResult::success(vec![ContentBlock::resource(
                ResourceContents::TextResourceContents {
                    uri: "test://embedded-resource".into(),
                    mime_type: Some("text/plain".into()),
                    text: "This is an embedded resource content.".into(),
                    meta: None,
                },
            )]),
            "test_multiple_content_types" => CallToolResult::success(vec![
                text("Multiple content types test:"),
                ContentBlock::image(IMAGE, "image/png"),
                ContentBlock::resource(ResourceContents::TextResourceContents {
                    uri: "test://mixed-content-resource".into(),
                    mime_type: Some("application/json".into()),
                    text: r#"{"test":"data","value":123}"#.into(),
                    meta: None,
                }),
            ]),
            "test_tool_with_logging" => {
                for msg in [
                    "Tool execution started",
                    "Tool processing data",
                    "Tool execution completed",
                ] {
                    let _ = ctx
                        .peer
                        .notify_logging_message(
                            LoggingMessageNotificationParam::new(LoggingLevel::Info, json!(msg))
                                .with_logger("conformance-fixtures"),
                        )
                        .await;
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
                CallToolResult::success(vec![text("Logging test completed")])
            }
            "test_error_handling" => CallToolResult::error(vec![text(
                "This tool intentionally returns an error for testing",
            )]),
            "test_tool_with_progress" => {
                let token = ctx.meta.get_progress_token();
                for (p, m) in [(0.0, "Starting"), (50.0, "Halfway"), (100.0, "Complete")] {
                    if let Some(token) = &token {
                        let _ = ctx
                            .peer
                            .notify_progress(
                                ProgressNotificationParam::new(token.clone(), p)
                                    .with_total(100.0)
                                    .with_message(m),
                            )
                            .await;
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
                CallToolResult::success(vec![text("Progress test completed")])
            }
            "test_sampling" => {
                let prompt = arg("prompt").unwrap_or_else(|| "Hello".into());
                let params =
                    CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 100);
                match ctx.peer.create_message(params).await {
                    Ok(r) => {
                        let t = r
                            .message
                            .content
                            .first()
                            .and_then(|c| c.as_text())
                            .map(|t| t.text.clone())
                            .unwrap_or_else(|| "No text response".into());
                        CallToolResult::success(vec![text(format!("LLM response: {t}"))])
                    }
                    Err(e) => CallToolResult::error(vec![text(format!("Sampling error: {e}"))]),
                }
            }
            "test_elicitation" => {
                let message =
                    arg("message").unwrap_or_else(|| "Please provide your information".into());
                let schema = json!({"type": "object", "properties": {
                    "username": {"type": "string", "description": "User's response"},
                    "email": {"type": "string", "description": "User's email address"}},
                    "required": ["username", "email"]});
                return Some(elicit(ctx, &message, schema).await);
            }
            "test_elicitation_sep1034_defaults" => {
                let schema = json!({"type": "object", "properties": {
                    "name": {"type": "string", "description": "User's name", "default": "John Doe"},
                    "age": {"type": "integer", "description": "User's age", "default": 30},
                    "score": {"type": "number", "description": "User's score", "default": 95.5},
                    "status": {"type": "string", "description": "User's status",
                               "enum": ["active", "inactive", "pending"], "default": "active"},
                    "verified": {"type": "boolean", "description": "Whether user is verified",
                                 "default": true}}});
                return Some(
                    elicit(ctx, "Please provide values (all have defaults)", schema).await,
                );
            }
            "test_elicitation_sep1330_enums" => {
                let schema = json!({"type": "object", "properties": {
                    "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                    "titledSingle": {"type": "string", "oneOf": [
                        {"const": "value1", "title": "First Option"},
                        {"const": "value2", "title": "Second Option"},
                        {"const": "value3", "title": "Third Option"}]},
                    "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                                   "enumNames": ["Option One", "Option Two", "Option Three"]},
                    "untitledMulti": {"type": "array", "items": {"type": "string",
                                      "enum": ["option1", "option2", "option3"]}},
                    "titledMulti": {"type": "array", "items": {"anyOf": [
                        {"const": "value1", "title": "First Choice"},
                        {"const": "value2", "title": "Second Choice"},
                        {"const": "value3", "title": "Third Choice"}]}}}});
                return Some(elicit(ctx, "Test enum schema improvements", schema).await);
            }
            "test_custom_header" => match arg("value") {
                Some(v) => CallToolResult::success(vec![text(v)]),
                None => {
                    return Some(Err(ErrorData::invalid_params(
                        "value must be a string",
                        None,
                    )))
                }
            },
            "json_schema_2020_12_tool" => {
                let name = arg("name").unwrap_or_else(|| "world".into());
                CallToolResult::success(vec![text(format!("Hello, {name}!"))])
            }
            "test_missing_capability" => {
                let caps = ctx.meta.client_capabilities().unwrap_or_default();
                if caps.sampling.is_none() {
                    return Some(Err(ErrorData::missing_required_client_capability(
                        ClientCapabilities::builder().enable_sampling().build(),
                    )));
                }
                CallToolResult::success(vec![text("Required capability declared")])
            }
            "test_logging_tool" => {
                if let Some(level) = ctx.meta.log_level() {
                    let _ = ctx
                        .peer
                        .notify_logging_message(
                            LoggingMessageNotificationParam::new(
                                level,
                                json!("logLevel was requested"),
                            )
                            .with_logger("conformance-fixtures"),
                        )
                        .await;
                }
                CallToolResult::success(vec![text("Logging tool completed")])
            }
            _ => return None,
        }))
    }
}

fn read_fixture(uri: &str) -> Option<Vec<ResourceContents>> {
    let text_of = |mime: &str, t: String| ResourceContents::TextResourceContents {
        uri: uri.into(),
        mime_type: Some(mime.into()),
        text: t,
        meta: None,
    };
    Some(vec![match uri {
        "test://static-text" => text_of(
            "text/plain",
            "This is the content of the static text resource.".into(),
        ),
        "test://static-binary" => ResourceContents::BlobResourceContents {
            uri: uri.into(),
            mime_type: Some("image/png".into()),
            blob: IMAGE.into(),
            meta: None,
        },
        "test://watched-resource" => text_of("text/plain", "Watched resource content.".into()),
        _ => {
            let id = uri
                .strip_prefix("test://template/")
                .and_then(|s| s.strip_suffix("/data"))?;
            text_of(
                "application/json",
                json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                    .to_string(),
            )
        }
    }])
}

impl ServerHandler for Fixtures {
    fn get_info(&self) -> ServerConfig {
        self.inner.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut all = self.inner.list_tools(request, context).await?.tools;
        all.extend(tools());
        Ok(ListToolsResult::with_all_items(all))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        match self.call_fixture(&request.name, args, &context).await {
            Some(out) => out.map(Into::into),
            None => self.inner.call_tool(request, context).await,
        }
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.set_level(request, context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.inner.complete(request, context).await
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if request.uri.starts_with("test://") {
            return Ok(());
        }
        self.inner.subscribe(request, context).await
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if request.uri.starts_with("test://") {
            return Ok(());
        }
        self.inner.unsubscribe(request, context).await
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.inner.accepted_subscription_filter(requested)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.inner.listen(context).await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut all = self.inner.list_resources(request, context).await?.resources;
        all.push(
            Resource::new("test://static-text", "Static Text Resource")
                .with_mime_type("text/plain"),
        );
        all.push(
            Resource::new("test://static-binary", "Static Binary Resource")
                .with_mime_type("image/png"),
        );
        Ok(ListResourcesResult::with_all_items(all))
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let mut all = self
            .inner
            .list_resource_templates(request, context)
            .await?
            .resource_templates;
        all.push(
            ResourceTemplate::new("test://template/{id}/data", "Dynamic Resource")
                .with_mime_type("application/json"),
        );
        Ok(ListResourceTemplatesResult::with_all_items(all))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match read_fixture(&request.uri) {
            Some(contents) => Ok(ReadResourceResult::new(contents).into()),
            None => self.inner.read_resource(request, context).await,
        }
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut all = self.inner.list_prompts(request, context).await?.prompts;
        all.push(Prompt::new(
            "test_simple_prompt",
            Some("A simple test prompt with no arguments"),
            None,
        ));
        all.push(Prompt::new(
            "test_prompt_with_arguments",
            Some("A test prompt that accepts arguments"),
            Some(vec![
                PromptArgument::new("arg1").with_required(true),
                PromptArgument::new("arg2").with_required(false),
            ]),
        ));
        all.push(Prompt::new(
            "test_prompt_with_embedded_resource",
            Some("A test prompt that includes an embedded resource"),
            None,
        ));
        all.push(Prompt::new(
            "test_prompt_with_image",
            Some("A test prompt that includes an image"),
            None,
        ));
        Ok(ListPromptsResult::with_all_items(all))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let user = |t: &str| PromptMessage::new_text(Role::User, t);
        let result = match request.name.as_str() {
            "test_simple_prompt" => {
                GetPromptResult::new(vec![user("This is a simple test prompt.")])
            }
            "test_prompt_with_arguments" => {
                let args = request.arguments.clone().unwrap_or_default();
                let get = |k: &str| {
                    args.get(k)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                };
                GetPromptResult::new(vec![user(&format!(
                    "Prompt with arguments: arg1='{}', arg2='{}'",
                    get("arg1"),
                    get("arg2")
                ))])
            }
            "test_prompt_with_embedded_resource" => GetPromptResult::new(vec![
                user("Here is a resource:"),
                PromptMessage::new_resource(
                    Role::User,
                    "test://static-text".into(),
                    Some("text/plain".into()),
                    Some("Resource content for prompt".into()),
                    None,
                    None,
                    None,
                ),
            ]),
            "test_prompt_with_image" => GetPromptResult::new(vec![
                user("Here is an image:"),
                PromptMessage::new(
                    Role::User,
                    ContentBlock::Image(ImageContent::new(IMAGE, "image/png")),
                ),
            ]),
            _ => return self.inner.get_prompt(request, context).await,
        };
        Ok(result.into())
    }
}
