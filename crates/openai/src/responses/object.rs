//! The `response` object (the Open Responses `ResponseResource`): one
//! assistant `message` item whose `output_text` carries the answer and its
//! `url_citation` annotations, every field the schema requires, and, as Chat
//! Completions has them, the top-level `citations[]`, `related_questions` and
//! `grounding`.

use super::annotations::annotations;
use super::request::ResponsesRequest;
use crate::citations::Answer;
use crate::completion::tokens;
use crate::error::ApiError;
use serde_json::{json, Map, Value};

/// What a response's objects share: ids, time, and the request's settings
/// echoed back.
#[derive(Debug, Clone)]
pub struct Envelope {
    /// `resp_…`.
    pub id: String,
    /// The output message's id, `msg_…`.
    pub message_id: String,
    /// Unix seconds.
    pub created_at: i64,
    /// The model as the caller named it.
    pub model: String,
    /// `instructions` as given.
    pub instructions: Option<String>,
    /// `max_output_tokens` as given.
    pub max_output_tokens: Option<u32>,
    /// `temperature` as given (1 otherwise).
    pub temperature: f64,
    /// `top_p` as given (1 otherwise).
    pub top_p: f64,
    /// `tool_choice` as given (`auto` otherwise).
    pub tool_choice: String,
    /// `parallel_tool_calls` as given (true otherwise).
    pub parallel_tool_calls: bool,
    /// `metadata` as given.
    pub metadata: Map<String, Value>,
    /// `safety_identifier` as given.
    pub safety_identifier: Option<String>,
    /// `prompt_cache_key` as given.
    pub prompt_cache_key: Option<String>,
}

impl Envelope {
    /// Fresh ids, now, and `req`'s settings.
    pub fn new(req: &ResponsesRequest) -> Self {
        Envelope {
            id: format!("resp_{}", uuid::Uuid::new_v4().simple()),
            message_id: format!("msg_{}", uuid::Uuid::new_v4().simple()),
            created_at: chrono::Utc::now().timestamp(),
            model: req.model.clone(),
            instructions: req.instructions.clone(),
            max_output_tokens: req.max_output_tokens,
            temperature: req.temperature.unwrap_or(1.0),
            top_p: req.top_p.unwrap_or(1.0),
            tool_choice: req.tool_choice.clone().unwrap_or_else(|| "auto".into()),
            parallel_tool_calls: req.parallel_tool_calls.unwrap_or(true),
            metadata: req.metadata.clone(),
            safety_identifier: req.safety_identifier.clone(),
            prompt_cache_key: req.prompt_cache_key.clone(),
        }
    }
}

/// The response with `status`, `output`, `usage` and `error`.
fn resource(env: &Envelope, status: &str, output: Vec<Value>, usage: Value, error: Value) -> Value {
    let completed_at = if status == "completed" {
        json!(chrono::Utc::now().timestamp())
    } else {
        Value::Null
    };
    json!({
        "id": env.id,
        "object": "response",
        "created_at": env.created_at,
        "completed_at": completed_at,
        "status": status,
        "error": error,
        "incomplete_details": null,
        "instructions": env.instructions,
        "max_output_tokens": env.max_output_tokens,
        "max_tool_calls": null,
        "model": env.model,
        "output": output,
        "parallel_tool_calls": env.parallel_tool_calls,
        "previous_response_id": null,
        "reasoning": null,
        "store": false,
        "background": false,
        "service_tier": "default",
        "temperature": env.temperature,
        "top_p": env.top_p,
        "presence_penalty": 0.0,
        "frequency_penalty": 0.0,
        "top_logprobs": 0,
        "text": {"format": {"type": "text"}},
        "tool_choice": env.tool_choice,
        "tools": [],
        "truncation": "disabled",
        "usage": usage,
        "metadata": env.metadata,
        "safety_identifier": env.safety_identifier,
        "prompt_cache_key": env.prompt_cache_key,
    })
}

/// The `response` as a stream begins: `in_progress`, no output yet.
pub fn in_progress(env: &Envelope) -> Value {
    resource(env, "in_progress", vec![], Value::Null, Value::Null)
}

/// An `output_text` content part.
pub fn output_text(text: &str, annotations: Vec<Value>) -> Value {
    json!({"type": "output_text", "text": text, "annotations": annotations, "logprobs": []})
}

/// The assistant `message` item with `status` (`in_progress`, `completed`).
pub fn message(env: &Envelope, status: &str, content: Vec<Value>) -> Value {
    json!({
        "type": "message",
        "id": env.message_id,
        "status": status,
        "role": "assistant",
        "content": content,
    })
}

/// The completed message: the answer's text and its annotations.
pub fn completed_message(env: &Envelope, answer: &Answer) -> Value {
    let part = output_text(&answer.text, annotations(&answer.text, &answer.citations));
    message(env, "completed", vec![part])
}

/// Token counts, estimated as Chat Completions estimates them.
pub fn usage(prompt: &str, answer: &str) -> Value {
    let (i, o) = (tokens(prompt), tokens(answer));
    json!({
        "input_tokens": i,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": o,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": i + o,
    })
}

/// The completed response to `prompt` (the question as asked): its message,
/// usage, and the citations as Chat Completions has them.
pub fn completed(env: &Envelope, prompt: &str, answer: &Answer) -> Value {
    let mut v = resource(
        env,
        "completed",
        vec![completed_message(env, answer)],
        usage(prompt, &answer.text),
        Value::Null,
    );
    v["citations"] = json!(answer.citations);
    if !answer.related_questions.is_empty() {
        v["related_questions"] = json!(answer.related_questions);
    }
    if let Some(g) = &answer.grounding {
        v["grounding"] = g.clone();
    }
    v
}

/// The response that failed with `e` (a stream's terminal `response.failed`).
pub fn failed(env: &Envelope, e: &ApiError) -> Value {
    let code = e.code.unwrap_or(e.kind);
    resource(
        env,
        "failed",
        vec![],
        Value::Null,
        json!({"code": code, "message": e.message}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields the Open Responses `ResponseResource` schema requires.
    const REQUIRED: &[&str] = &[
        "id",
        "object",
        "created_at",
        "completed_at",
        "status",
        "incomplete_details",
        "model",
        "previous_response_id",
        "instructions",
        "output",
        "error",
        "tools",
        "tool_choice",
        "truncation",
        "parallel_tool_calls",
        "text",
        "top_p",
        "presence_penalty",
        "frequency_penalty",
        "top_logprobs",
        "temperature",
        "reasoning",
        "usage",
        "max_output_tokens",
        "max_tool_calls",
        "store",
        "background",
        "service_tier",
        "metadata",
        "safety_identifier",
        "prompt_cache_key",
    ];

    fn env() -> Envelope {
        let req = ResponsesRequest::parse(
            br#"{"model": "magisterium-1", "input": "q", "instructions": "Be brief."}"#,
        )
        .unwrap();
        Envelope::new(&req)
    }

    #[test]
    fn a_completed_response_has_every_required_field() {
        let env = env();
        let answer = Answer {
            text: "Yes [1].".into(),
            citations: vec![json!({"document_index": 0, "document_title": "T",
                "source_url": "https://example.org/t"})],
            related_questions: vec![],
            grounding: None,
        };
        let v = completed(&env, "q", &answer);
        for f in REQUIRED {
            assert!(v.get(*f).is_some(), "{f}");
        }
        assert!(v["id"].as_str().unwrap().starts_with("resp_"));
        assert_eq!(v["model"], "magisterium-1");
        assert_eq!(v["instructions"], "Be brief.");
        assert_eq!(v["status"], "completed");
        let part = &v["output"][0]["content"][0];
        assert_eq!(part["text"], "Yes [1].");
        assert_eq!(part["annotations"][0]["start_index"], 4);
        assert_eq!(part["annotations"][0]["end_index"], 7);
        assert_eq!(v["usage"]["total_tokens"], 3);
        assert_eq!(v["citations"].as_array().unwrap().len(), 1);
        for v in [in_progress(&env), failed(&env, &ApiError::internal("x"))] {
            for f in REQUIRED {
                assert!(v.get(*f).is_some(), "{f}");
            }
        }
        assert_eq!(
            failed(&env, &ApiError::internal("x"))["error"]["code"],
            "server_error"
        );
    }
}
