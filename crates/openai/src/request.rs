//! [`ChatRequest`]: a Chat Completions body, validated with errors that name
//! the parameter, and the question (with the conversation so far) it asks.

use crate::error::ApiError;
use serde_json::{Map, Value};

/// Most messages a request may carry.
pub const MAX_MESSAGES: usize = 256;
/// Most characters across all messages.
pub const MAX_TOTAL_CHARS: usize = 200_000;
/// Most characters of the question (the skill's own limit).
pub const MAX_QUESTION_CHARS: usize = ecclesia_core::MAX_TEXT_CHARS;
/// Earlier turns kept as context for a follow-up, and their length each.
const CONTEXT_TURNS: usize = 6;
const CONTEXT_TURN_CHARS: usize = 1_000;

/// Who said a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `system` or `developer` instructions.
    System,
    /// The user.
    User,
    /// The model.
    Assistant,
    /// A tool's output.
    Tool,
}

/// One message, its content flattened to text.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// The role.
    pub role: Role,
    /// The text (content parts joined).
    pub content: String,
}

/// A validated request.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    /// The model as named (`ecclesia-1` or the alias `magisterium-1`).
    pub model: String,
    /// The conversation, oldest first; the last is the user's.
    pub messages: Vec<Message>,
    /// SSE chunks instead of one JSON body.
    pub stream: bool,
    /// `stream_options.include_usage`.
    pub include_usage: bool,
    /// `max_completion_tokens` (or the older `max_tokens`).
    pub max_tokens: Option<u32>,
    /// Sampling temperature, 0–2.
    pub temperature: Option<f64>,
}

/// What a JSON value is, for messages ("a string", "an array", …).
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl ChatRequest {
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
        let messages = match obj.get("messages") {
            Some(Value::Array(a)) => a,
            None | Some(Value::Null) => {
                return Err(ApiError::invalid(Some("messages"), "messages is required"))
            }
            Some(other) => {
                return Err(ApiError::invalid(
                    Some("messages"),
                    format!("messages must be an array, not {}", kind(other)),
                ))
            }
        };
        if messages.is_empty() {
            return Err(ApiError::invalid(
                Some("messages"),
                "messages must hold at least one message",
            ));
        }
        let out = bounded_messages(messages, "messages", "messages", message)?;
        let last = out
            .last()
            .ok_or_else(|| ApiError::invalid(Some("messages"), "no message"))?;
        if last.role != Role::User {
            return Err(ApiError::invalid(
                Some("messages"),
                "the last message must be the user's question (role \"user\")",
            ));
        }
        if last.content.trim().is_empty() {
            return Err(ApiError::invalid(
                Some(&format!("messages[{}].content", out.len() - 1)),
                "the question is empty",
            ));
        }
        let n = last.content.trim().chars().count();
        if n > MAX_QUESTION_CHARS {
            return Err(ApiError::invalid(
                Some(&format!("messages[{}].content", out.len() - 1)),
                format!(
                    "the question is too long ({n} characters); the limit is {MAX_QUESTION_CHARS}"
                ),
            ));
        }
        let stream = bool_field(obj, "stream")?.unwrap_or(false);
        let include_usage = match obj.get("stream_options") {
            None | Some(Value::Null) => false,
            Some(Value::Object(o)) => bool_field(o, "include_usage")?.unwrap_or(false),
            Some(other) => {
                return Err(ApiError::invalid(
                    Some("stream_options"),
                    format!("stream_options must be an object, not {}", kind(other)),
                ))
            }
        };
        match obj.get("n") {
            None | Some(Value::Null) => {}
            Some(v) if v.as_u64() == Some(1) => {}
            Some(_) => return Err(ApiError::invalid(Some("n"), "only n = 1 is supported")),
        }
        let max_tokens = match uint_field(obj, "max_completion_tokens")? {
            Some(t) => Some(t),
            None => uint_field(obj, "max_tokens")?,
        };
        let temperature = temperature_field(obj)?;
        Ok(ChatRequest {
            model,
            messages: out,
            stream,
            include_usage,
            max_tokens,
            temperature,
        })
    }

    /// The question: the last user message, after the earlier user and
    /// assistant turns (the last few, shortened) when there are any, so that a
    /// follow-up is understood, and retrieved for, in context.
    pub fn question(&self) -> String {
        question_of(&self.messages)
    }
}

/// The question of a conversation whose last message is the user's: see
/// [`ChatRequest::question`] (the Responses API asks it the same way).
pub(crate) fn question_of(messages: &[Message]) -> String {
    let Some((last, earlier)) = messages.split_last() else {
        return String::new();
    };
    let question = last.content.trim().to_string();
    let turns: Vec<&Message> = earlier
        .iter()
        .filter(|m| matches!(m.role, Role::User | Role::Assistant))
        .filter(|m| !m.content.trim().is_empty())
        .collect();
    if turns.is_empty() {
        return question;
    }
    let start = turns.len().saturating_sub(CONTEXT_TURNS);
    let mut context = String::from("Earlier in this conversation:\n");
    for m in &turns[start..] {
        let who = if m.role == Role::User {
            "User"
        } else {
            "Assistant"
        };
        let text: String = m.content.trim().chars().take(CONTEXT_TURN_CHARS).collect();
        context.push_str(&format!("{who}: {text}\n"));
    }
    let room = MAX_QUESTION_CHARS.saturating_sub(question.chars().count() + 32);
    let context: String = context.chars().take(room).collect();
    format!("{context}\nFollow-up question: {question}")
}

fn message(i: usize, m: &Value) -> Result<Message, ApiError> {
    let Value::Object(o) = m else {
        return Err(ApiError::invalid(
            Some(&format!("messages[{i}]")),
            format!("messages[{i}] must be an object, not {}", kind(m)),
        ));
    };
    let role = match o.get("role").and_then(Value::as_str) {
        Some("system") | Some("developer") => Role::System,
        Some("user") => Role::User,
        Some("assistant") => Role::Assistant,
        Some("tool") | Some("function") => Role::Tool,
        Some(other) => {
            let shown: String = other.chars().take(40).collect();
            return Err(ApiError::invalid(
                Some(&format!("messages[{i}].role")),
                format!("Invalid value: '{shown}'. Supported values are: 'system', 'developer', 'user', 'assistant' and 'tool'."),
            ));
        }
        None => {
            return Err(ApiError::invalid(
                Some(&format!("messages[{i}].role")),
                format!("messages[{i}].role is required (a string)"),
            ))
        }
    };
    let content = match o.get("content") {
        None | Some(Value::Null) if role == Role::Assistant => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            let mut texts = Vec::new();
            for (j, p) in parts.iter().enumerate() {
                match (p.get("type").and_then(Value::as_str), p.get("text")) {
                    (Some("text"), Some(Value::String(t))) => texts.push(t.as_str()),
                    _ => {
                        return Err(ApiError::invalid(
                            Some(&format!("messages[{i}].content[{j}]")),
                            "only text content parts ({\"type\": \"text\", \"text\": ...}) are supported",
                        ))
                    }
                }
            }
            texts.join("\n")
        }
        Some(other) => {
            return Err(ApiError::invalid(
                Some(&format!("messages[{i}].content")),
                format!(
                    "messages[{i}].content must be a string or an array of text parts, not {}",
                    kind(other)
                ),
            ))
        }
        None => {
            return Err(ApiError::invalid(
                Some(&format!("messages[{i}].content")),
                format!("messages[{i}].content is required"),
            ))
        }
    };
    Ok(Message { role, content })
}

/// `model`: required, one of [`crate::MODELS`] (404 `model_not_found` otherwise).
/// `items` read one by one with `read`, within the bounds of a conversation: at most
/// [`MAX_MESSAGES`] items and [`MAX_TOTAL_CHARS`] characters in all (the chat's `messages`, the
/// Responses API's `input`). `param` names the parameter in errors, `what` its items.
pub(crate) fn bounded_messages(
    items: &[Value],
    param: &str,
    what: &str,
    read: impl Fn(usize, &Value) -> Result<Message, ApiError>,
) -> Result<Vec<Message>, ApiError> {
    if items.len() > MAX_MESSAGES {
        return Err(ApiError::invalid(
            Some(param),
            format!(
                "too many {what} ({}); the limit is {MAX_MESSAGES}",
                items.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(items.len());
    let mut total = 0usize;
    for (i, item) in items.iter().enumerate() {
        let m = read(i, item)?;
        total += m.content.chars().count();
        if total > MAX_TOTAL_CHARS {
            return Err(ApiError::invalid(
                Some(param),
                format!(
                    "the {what} are too long in all; the limit is {MAX_TOTAL_CHARS} characters"
                ),
            ));
        }
        out.push(m);
    }
    Ok(out)
}

pub(crate) fn model_field(obj: &Map<String, Value>) -> Result<String, ApiError> {
    let model = match obj.get("model") {
        Some(Value::String(m)) if !m.trim().is_empty() => m.trim().to_string(),
        None | Some(Value::Null) => {
            return Err(ApiError::invalid(
                Some("model"),
                "you must provide a model parameter",
            ))
        }
        Some(other) => {
            return Err(ApiError::invalid(
                Some("model"),
                format!("model must be a string, not {}", kind(other)),
            ))
        }
    };
    if !crate::MODELS.contains(&model.as_str()) {
        return Err(ApiError::model_not_found(&model));
    }
    Ok(model)
}

/// `key` as a boolean, if given; 400 naming it otherwise.
pub(crate) fn bool_field(o: &Map<String, Value>, key: &str) -> Result<Option<bool>, ApiError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(ApiError::invalid(
            Some(key),
            format!("{key} must be a boolean, not {}", kind(other)),
        )),
    }
}

/// `key` as a token count (1–131,072), if given; 400 naming it otherwise.
pub(crate) fn uint_field(o: &Map<String, Value>, key: &str) -> Result<Option<u32>, ApiError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if (1..=131_072).contains(&n) => Ok(Some(n as u32)),
            _ => Err(ApiError::invalid(
                Some(key),
                format!("{key} must be an integer between 1 and 131072"),
            )),
        },
    }
}

/// `temperature`, if given: a number from 0 to 2.
pub(crate) fn temperature_field(o: &Map<String, Value>) -> Result<Option<f64>, ApiError> {
    match o.get("temperature") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_f64() {
            Some(t) if (0.0..=2.0).contains(&t) => Ok(Some(t)),
            _ => Err(ApiError::invalid(
                Some("temperature"),
                "temperature must be a number between 0 and 2",
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(v: Value) -> Result<ChatRequest, ApiError> {
        ChatRequest::parse(v.to_string().as_bytes())
    }

    #[test]
    fn follow_ups_carry_the_conversation() {
        let r = parse(json!({"model": "magisterium-1", "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Who was Augustine?"},
            {"role": "assistant", "content": "A bishop of Hippo."},
            {"role": "user", "content": [{"type": "text", "text": "What did he write?"}]},
        ]}))
        .unwrap();
        let q = r.question();
        assert!(q.contains("User: Who was Augustine?"));
        assert!(q.contains("Assistant: A bishop of Hippo."));
        assert!(q.ends_with("Follow-up question: What did he write?"));
        assert!(!q.contains("Be brief"));
        let r =
            parse(json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": "Hi"}]}))
                .unwrap();
        assert_eq!(r.question(), "Hi");
    }

    #[test]
    fn bad_requests_name_the_parameter() {
        let cases = [
            (json!({"messages": []}), "model", 400),
            (
                json!({"model": "gpt-4", "messages": [{"role": "user", "content": "x"}]}),
                "model",
                404,
            ),
            (json!({"model": "ecclesia-1"}), "messages", 400),
            (
                json!({"model": "ecclesia-1", "messages": []}),
                "messages",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "messages": [{"role": "wizard", "content": "x"}]}),
                "messages[0].role",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": 5}]}),
                "messages[0].content",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "messages": [{"role": "assistant", "content": "x"}]}),
                "messages",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": "x"}], "stream": "yes"}),
                "stream",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": "x"}], "temperature": 9}),
                "temperature",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": "x"}], "n": 2}),
                "n",
                400,
            ),
            (
                json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]}),
                "messages[0].content[0]",
                400,
            ),
        ];
        for (body, param, status) in cases {
            let e = parse(body.clone()).expect_err(&body.to_string());
            assert_eq!(e.param.as_deref(), Some(param), "{body}");
            assert_eq!(e.status.as_u16(), status, "{body}");
        }
        let many: Vec<Value> = (0..5000)
            .map(|_| json!({"role": "user", "content": "x"}))
            .collect();
        let e = parse(json!({"model": "ecclesia-1", "messages": many})).unwrap_err();
        assert!(e.message.contains("too many messages"));
        let e = parse(json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": "x".repeat(20_001)}]})).unwrap_err();
        assert!(e.message.contains("too long"));
        assert!(ChatRequest::parse(b"{not json").is_err());
    }
}
