//! [`ResponsesRequest`]: a Responses API body (`POST /v1/responses`),
//! validated with errors that name the parameter, and the question it asks
//! (earlier turns prepended as Chat Completions does).
//!
//! `input` is a string (the question) or message items (`{"type": "message",
//! "role": "user"|"assistant"|"system"|"developer", "content": "…" | [{"type":
//! "input_text"|"output_text", "text": "…"}]}`, `type` optional). Tools, images,
//! files, stored items (`previous_response_id`, `conversation`,
//! `item_reference`) and structured output are refused with a 400: the server
//! answers one question from its library and keeps no responses. Unknown fields
//! are ignored, as in Chat Completions.

use crate::error::ApiError;
use crate::request::{
    bool_field, bounded_messages, kind, model_field, question_of, temperature_field, uint_field,
    Message, Role, MAX_QUESTION_CHARS, MAX_TOTAL_CHARS,
};
use ecclesia_a2a::Part;
use serde_json::{json, Map, Value};

/// Most `metadata` pairs, and the longest key and value (OpenAI's limits).
const MAX_METADATA: usize = 16;
const MAX_METADATA_KEY: usize = 64;
const MAX_METADATA_VALUE: usize = 512;

/// A validated request.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponsesRequest {
    /// The model as named (`ecclesia-1` or the alias `magisterium-1`).
    pub model: String,
    /// The conversation, oldest first; the last is the user's.
    pub messages: Vec<Message>,
    /// `instructions` (echoed; like a system message, not sent to the skill).
    pub instructions: Option<String>,
    /// Semantic SSE events instead of one JSON body.
    pub stream: bool,
    /// `max_output_tokens`.
    pub max_output_tokens: Option<u32>,
    /// Sampling temperature, 0–2.
    pub temperature: Option<f64>,
    /// `top_p`, 0–1 (echoed).
    pub top_p: Option<f64>,
    /// `tool_choice` as given (`"auto"` or `"none"`; echoed).
    pub tool_choice: Option<String>,
    /// `parallel_tool_calls` as given (echoed).
    pub parallel_tool_calls: Option<bool>,
    /// `metadata` (string pairs; echoed).
    pub metadata: Map<String, Value>,
    /// `safety_identifier` and `prompt_cache_key` (echoed).
    pub safety_identifier: Option<String>,
    /// See `safety_identifier`.
    pub prompt_cache_key: Option<String>,
}

impl ResponsesRequest {
    /// Parse and check a body.
    pub fn parse(body: &[u8]) -> Result<Self, ApiError> {
        let v: Value = serde_json::from_slice(body).map_err(|e| {
            ApiError::invalid(
                None,
                format!("We could not parse the JSON body of your request ({e}). The body must be a JSON object."),
            )
        })?;
        let Value::Object(obj) = v else {
            return Err(ApiError::invalid(
                None,
                "the request body must be a JSON object",
            ));
        };
        Self::from_object(&obj)
    }

    fn from_object(obj: &Map<String, Value>) -> Result<Self, ApiError> {
        let model = model_field(obj)?;
        refuse_unsupported(obj)?;
        // Accepted, but nothing is stored: the response says `store: false`.
        bool_field(obj, "store")?;
        let instructions = string_field(obj, "instructions")?;
        let messages = input(obj.get("input"))?;
        let total = messages
            .iter()
            .map(|m| m.content.chars().count())
            .sum::<usize>()
            + instructions.as_deref().map_or(0, |s| s.chars().count());
        if total > MAX_TOTAL_CHARS {
            return Err(ApiError::invalid(
                Some("input"),
                format!("the input and instructions are too long in all; the limit is {MAX_TOTAL_CHARS} characters"),
            ));
        }
        let top_p = match obj.get("top_p") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_f64() {
                Some(p) if (0.0..=1.0).contains(&p) => Some(p),
                _ => {
                    return Err(ApiError::invalid(
                        Some("top_p"),
                        "top_p must be a number between 0 and 1",
                    ))
                }
            },
        };
        Ok(ResponsesRequest {
            model,
            messages,
            instructions,
            stream: bool_field(obj, "stream")?.unwrap_or(false),
            max_output_tokens: uint_field(obj, "max_output_tokens")?,
            temperature: temperature_field(obj)?,
            top_p,
            tool_choice: tool_choice(obj)?,
            parallel_tool_calls: bool_field(obj, "parallel_tool_calls")?,
            metadata: metadata(obj)?,
            safety_identifier: string_field(obj, "safety_identifier")?,
            prompt_cache_key: string_field(obj, "prompt_cache_key")?,
        })
    }

    /// The question: the last user message, after the earlier user and
    /// assistant turns, exactly as Chat Completions asks it.
    pub fn question(&self) -> String {
        question_of(&self.messages)
    }

    /// What `catholic_qa` is sent: the question, and `max_tokens` and
    /// `temperature` as data when given (as Chat Completions sends them).
    pub fn parts(&self) -> Vec<Part> {
        let mut parts = vec![Part::text(self.question())];
        let mut options = Map::new();
        if let Some(t) = self.max_output_tokens {
            options.insert("max_tokens".into(), json!(t));
        }
        if let Some(t) = self.temperature {
            options.insert("temperature".into(), json!(t));
        }
        if !options.is_empty() {
            parts.push(Part::data(Value::Object(options)));
        }
        parts
    }
}

fn given(obj: &Map<String, Value>, key: &str) -> bool {
    !matches!(obj.get(key), None | Some(Value::Null))
}

/// What the server cannot do, refused by name rather than silently ignored.
fn refuse_unsupported(obj: &Map<String, Value>) -> Result<(), ApiError> {
    if given(obj, "previous_response_id") {
        return Err(ApiError::invalid(
            Some("previous_response_id"),
            "previous_response_id is not supported: this server keeps no responses. Send the whole conversation in `input` (earlier user and assistant messages, then the question).",
        )
        .with_code("previous_response_not_found"));
    }
    if given(obj, "conversation") {
        return Err(ApiError::invalid(
            Some("conversation"),
            "conversation is not supported: this server keeps no conversations. Send the whole conversation in `input`.",
        ));
    }
    match obj.get("tools") {
        None | Some(Value::Null) => {}
        Some(Value::Array(a)) if a.is_empty() => {}
        Some(_) => {
            return Err(ApiError::invalid(
                Some("tools"),
                "tools are not supported: the model answers from the Catholic library it searches and calls no tools. Remove `tools`.",
            ))
        }
    }
    if bool_field(obj, "background")? == Some(true) {
        return Err(ApiError::invalid(
            Some("background"),
            "background responses are not supported: this server keeps no responses. Leave `background` out, or stream.",
        ));
    }
    match obj.get("text").and_then(|t| t.get("format")) {
        None | Some(Value::Null) => {}
        Some(f) if f.get("type").and_then(Value::as_str) == Some("text") => {}
        Some(_) => {
            return Err(ApiError::invalid(
                Some("text.format"),
                "only text output is supported (text.format {\"type\": \"text\"}); structured output is not",
            ))
        }
    }
    Ok(())
}

/// `tool_choice`: only `"auto"` and `"none"` (there are no tools to require).
fn tool_choice(obj: &Map<String, Value>) -> Result<Option<String>, ApiError> {
    match obj.get("tool_choice") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s == "auto" || s == "none" => Ok(Some(s.clone())),
        Some(_) => Err(ApiError::invalid(
            Some("tool_choice"),
            "tool_choice can only be \"auto\" or \"none\": tools are not supported",
        )),
    }
}

fn string_field(obj: &Map<String, Value>, key: &str) -> Result<Option<String>, ApiError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(ApiError::invalid(
            Some(key),
            format!("{key} must be a string, not {}", kind(other)),
        )),
    }
}

/// `metadata`: at most 16 string pairs (keys ≤ 64 characters, values ≤ 512).
fn metadata(obj: &Map<String, Value>) -> Result<Map<String, Value>, ApiError> {
    let m = match obj.get("metadata") {
        None | Some(Value::Null) => return Ok(Map::new()),
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(ApiError::invalid(
                Some("metadata"),
                format!("metadata must be an object, not {}", kind(other)),
            ))
        }
    };
    let bad = || {
        ApiError::invalid(
            Some("metadata"),
            format!("metadata holds at most {MAX_METADATA} pairs of strings (keys up to {MAX_METADATA_KEY} characters, values up to {MAX_METADATA_VALUE})"),
        )
    };
    if m.len() > MAX_METADATA {
        return Err(bad());
    }
    for (k, v) in m {
        let ok = k.chars().count() <= MAX_METADATA_KEY
            && v.as_str()
                .is_some_and(|s| s.chars().count() <= MAX_METADATA_VALUE);
        if !ok {
            return Err(bad());
        }
    }
    Ok(m.clone())
}

/// `input`: the conversation, checked (the last item is the user's question).
fn input(v: Option<&Value>) -> Result<Vec<Message>, ApiError> {
    let messages = match v {
        None | Some(Value::Null) => {
            return Err(ApiError::invalid(
                Some("input"),
                "input is required: the question as a string, or message items",
            ))
        }
        Some(Value::String(s)) => vec![Message {
            role: Role::User,
            content: s.clone(),
        }],
        Some(Value::Array(items)) => bounded_messages(items, "input", "input items", message)?,
        Some(other) => {
            return Err(ApiError::invalid(
                Some("input"),
                format!(
                    "input must be a string or an array of message items, not {}",
                    kind(other)
                ),
            ))
        }
    };
    let Some(last) = messages.last() else {
        return Err(ApiError::invalid(
            Some("input"),
            "input must hold at least one message",
        ));
    };
    let at = match v {
        Some(Value::Array(_)) => format!("input[{}].content", messages.len() - 1),
        _ => "input".to_string(),
    };
    if last.role != Role::User {
        return Err(ApiError::invalid(
            Some("input"),
            "the last input item must be the user's question (role \"user\")",
        ));
    }
    if last.content.trim().is_empty() {
        return Err(ApiError::invalid(Some(&at), "the question is empty"));
    }
    let n = last.content.trim().chars().count();
    if n > MAX_QUESTION_CHARS {
        return Err(ApiError::invalid(
            Some(&at),
            format!("the question is too long ({n} characters); the limit is {MAX_QUESTION_CHARS}"),
        ));
    }
    Ok(messages)
}

/// One input item: a message, its content flattened to text.
fn message(i: usize, item: &Value) -> Result<Message, ApiError> {
    let Value::Object(o) = item else {
        return Err(ApiError::invalid(
            Some(&format!("input[{i}]")),
            format!("input[{i}] must be an object, not {}", kind(item)),
        ));
    };
    match o.get("type") {
        None | Some(Value::Null) => {}
        Some(Value::String(t)) if t == "message" => {}
        Some(Value::String(t)) if t == "item_reference" => {
            return Err(ApiError::invalid(
                Some(&format!("input[{i}].type")),
                "item references are not supported: this server keeps no items. Send the messages themselves.",
            ))
        }
        Some(Value::String(t)) if t.contains("_call") => {
            return Err(ApiError::invalid(
                Some(&format!("input[{i}].type")),
                "tool calls are not supported: the model calls no tools. Send message items only.",
            ))
        }
        Some(other) => {
            let shown: String = other
                .as_str()
                .map_or_else(|| kind(other).to_string(), |s| s.chars().take(40).collect());
            return Err(ApiError::invalid(
                Some(&format!("input[{i}].type")),
                format!("input item type '{shown}' is not supported; send message items (\"type\": \"message\")"),
            ));
        }
    }
    let role = match o.get("role").and_then(Value::as_str) {
        Some("system") | Some("developer") => Role::System,
        Some("user") => Role::User,
        Some("assistant") => Role::Assistant,
        Some(other) => {
            let shown: String = other.chars().take(40).collect();
            return Err(ApiError::invalid(
                Some(&format!("input[{i}].role")),
                format!("Invalid value: '{shown}'. Supported values are: 'user', 'assistant', 'system' and 'developer'."),
            ));
        }
        None => {
            return Err(ApiError::invalid(
                Some(&format!("input[{i}].role")),
                format!("input[{i}].role is required (a string)"),
            ))
        }
    };
    let content = match o.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            let mut texts = Vec::with_capacity(parts.len());
            for (j, p) in parts.iter().enumerate() {
                texts.push(text_part(i, j, p)?);
            }
            texts.join("\n")
        }
        None | Some(Value::Null) => {
            return Err(ApiError::invalid(
                Some(&format!("input[{i}].content")),
                format!("input[{i}].content is required"),
            ))
        }
        Some(other) => {
            return Err(ApiError::invalid(
                Some(&format!("input[{i}].content")),
                format!(
                    "input[{i}].content must be a string or an array of text parts, not {}",
                    kind(other)
                ),
            ))
        }
    };
    Ok(Message { role, content })
}

/// A content part's text (`input_text`, `output_text`, or `text`).
fn text_part(i: usize, j: usize, p: &Value) -> Result<&str, ApiError> {
    let param = format!("input[{i}].content[{j}]");
    let ty = p.get("type").and_then(Value::as_str);
    match (ty, p.get("text")) {
        (Some("input_text" | "output_text" | "text"), Some(Value::String(t))) => Ok(t),
        (Some("input_text" | "output_text" | "text"), _) => Err(ApiError::invalid(
            Some(&param),
            format!("{param}.text is required (a string)"),
        )),
        (Some(t @ ("input_image" | "input_file" | "input_audio" | "input_video")), _) => {
            let what = t.trim_start_matches("input_");
            Err(ApiError::invalid(
                Some(&param),
                format!("{t} is not supported: the model reads text only. Send the question as text (\"type\": \"input_text\"), without the {what}."),
            ))
        }
        _ => Err(ApiError::invalid(
            Some(&param),
            "only text content parts ({\"type\": \"input_text\", \"text\": ...}) are supported",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::MAX_MESSAGES;

    fn parse(v: Value) -> Result<ResponsesRequest, ApiError> {
        ResponsesRequest::parse(v.to_string().as_bytes())
    }

    #[test]
    fn a_string_or_messages_ask_the_same_way_as_chat() {
        let r = parse(json!({"model": "ecclesia-1", "input": " What is grace? "})).unwrap();
        assert_eq!(r.question(), "What is grace?");
        assert!(!r.stream);
        let r = parse(
            json!({"model": "magisterium-1", "instructions": "Be brief.", "input": [
            {"role": "developer", "content": "Cite."},
            {"type": "message", "role": "user", "content": "Who was Augustine?"},
            {"type": "message", "role": "assistant", "phase": "final_answer",
             "content": [{"type": "output_text", "text": "A bishop of Hippo.", "annotations": []}]},
            {"role": "user", "content": [{"type": "input_text", "text": "What did he write?"}]},
        ], "max_output_tokens": 100, "temperature": 0.5, "unknown": {"ignored": true}}),
        )
        .unwrap();
        let q = r.question();
        assert!(q.contains("User: Who was Augustine?"), "{q}");
        assert!(q.contains("Assistant: A bishop of Hippo."), "{q}");
        assert!(q.ends_with("Follow-up question: What did he write?"), "{q}");
        assert!(!q.contains("Cite.") && !q.contains("Be brief"), "{q}");
        assert_eq!(r.instructions.as_deref(), Some("Be brief."));
        let parts = r.parts();
        assert_eq!(parts.len(), 2);
        assert!(matches!(&parts[1], Part::Data { data, .. }
            if data["max_tokens"] == 100 && data["temperature"] == 0.5));
    }

    #[test]
    fn bad_requests_name_the_parameter() {
        let ok = |extra: Value| {
            let mut b = json!({"model": "ecclesia-1", "input": "x"});
            if let (Value::Object(b), Value::Object(e)) = (&mut b, extra) {
                b.extend(e);
            }
            b
        };
        let cases = [
            (json!({"input": "x"}), "model", 400),
            (json!({"model": "gpt-4o", "input": "x"}), "model", 404),
            (json!({"model": "ecclesia-1"}), "input", 400),
            (json!({"model": "ecclesia-1", "input": 5}), "input", 400),
            (json!({"model": "ecclesia-1", "input": "  "}), "input", 400),
            (json!({"model": "ecclesia-1", "input": []}), "input", 400),
            (
                json!({"model": "ecclesia-1", "input": [{"role": "user", "content": ""}]}),
                "input[0].content",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "input": [{"role": "assistant", "content": "x"}]}),
                "input",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "input": [{"role": "tool", "content": "x"}]}),
                "input[0].role",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "input": [{"role": "user", "content": [
                    {"type": "input_image", "image_url": "https://example.org/a.png"}]}]}),
                "input[0].content[0]",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "input": [{"role": "user", "content": [
                    {"type": "input_file", "file_id": "f"}]}]}),
                "input[0].content[0]",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "input": [{"type": "function_call_output", "call_id": "c", "output": "x"}]}),
                "input[0].type",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "input": [{"type": "item_reference", "id": "msg_1"}]}),
                "input[0].type",
                400,
            ),
            (
                ok(json!({"tools": [{"type": "function", "name": "f"}]})),
                "tools",
                400,
            ),
            (ok(json!({"tool_choice": "required"})), "tool_choice", 400),
            (
                ok(json!({"previous_response_id": "resp_1"})),
                "previous_response_id",
                400,
            ),
            (ok(json!({"conversation": "conv_1"})), "conversation", 400),
            (ok(json!({"background": true})), "background", 400),
            (
                ok(json!({"text": {"format": {"type": "json_object"}}})),
                "text.format",
                400,
            ),
            (ok(json!({"stream": "yes"})), "stream", 400),
            (ok(json!({"temperature": 3})), "temperature", 400),
            (ok(json!({"top_p": 2})), "top_p", 400),
            (
                ok(json!({"max_output_tokens": 0})),
                "max_output_tokens",
                400,
            ),
            (ok(json!({"instructions": 7})), "instructions", 400),
            (ok(json!({"metadata": {"k": 1}})), "metadata", 400),
        ];
        for (body, param, status) in cases {
            let e = parse(body.clone()).expect_err(&body.to_string());
            assert_eq!(e.param.as_deref(), Some(param), "{body}: {e}");
            assert_eq!(e.status.as_u16(), status, "{body}");
        }
        let many: Vec<Value> = (0..MAX_MESSAGES + 1)
            .map(|_| json!({"role": "user", "content": "x"}))
            .collect();
        let e = parse(json!({"model": "ecclesia-1", "input": many})).unwrap_err();
        assert!(e.message.contains("too many input items"), "{e}");
        let long = "x".repeat(MAX_QUESTION_CHARS + 1);
        let e = parse(json!({"model": "ecclesia-1", "input": long})).unwrap_err();
        assert!(e.message.contains("too long"), "{e}");
        assert!(ResponsesRequest::parse(b"{not json").is_err());
        assert!(ResponsesRequest::parse(b"[1]").is_err());
        // Accepted and echoed: empty tools, auto tool choice, store, metadata.
        let r = parse(ok(
            json!({"tools": [], "tool_choice": "auto", "store": true,
            "metadata": {"k": "v"}, "text": {"format": {"type": "text"}}}),
        ))
        .unwrap();
        assert_eq!(r.tool_choice.as_deref(), Some("auto"));
        assert_eq!(r.metadata["k"], "v");
    }
}
