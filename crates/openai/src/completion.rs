//! The bodies OpenAI clients read: a `chat.completion`, and the
//! `chat.completion.chunk`s of a stream (citations in the last one, the one
//! with `finish_reason`).

use crate::citations::Answer;
use serde_json::{json, Value};

/// Ids and times shared by a completion's chunks.
#[derive(Debug, Clone)]
pub struct Meta {
    /// `chatcmpl-…`.
    pub id: String,
    /// Unix seconds.
    pub created: i64,
    /// The model as the caller named it.
    pub model: String,
}

impl Meta {
    /// A fresh id, now.
    pub fn new(model: &str) -> Self {
        Meta {
            id: format!("chatcmpl-{}", uuid::Uuid::new_v4().simple()),
            created: chrono::Utc::now().timestamp(),
            model: model.to_string(),
        }
    }
}

/// A rough token count (four characters a token), as OpenAI's `usage` needs one.
pub fn tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

fn usage(prompt: &str, answer: &str) -> Value {
    let (p, c) = (tokens(prompt), tokens(answer));
    json!({"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c})
}

/// The non-streaming body.
pub fn completion(meta: &Meta, prompt: &str, answer: &Answer) -> Value {
    let mut v = json!({
        "id": meta.id,
        "object": "chat.completion",
        "created": meta.created,
        "model": meta.model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": answer.text, "refusal": null},
            "logprobs": null,
            "finish_reason": "stop",
        }],
        "usage": usage(prompt, &answer.text),
        "system_fingerprint": null,
        "citations": answer.citations,
    });
    if !answer.related_questions.is_empty() {
        v["related_questions"] = json!(answer.related_questions);
    }
    if let Some(g) = &answer.grounding {
        v["grounding"] = g.clone();
    }
    v
}

fn chunk(meta: &Meta, delta: Value, finish: Option<&str>, include_usage: bool) -> Value {
    let mut v = json!({
        "id": meta.id,
        "object": "chat.completion.chunk",
        "created": meta.created,
        "model": meta.model,
        "system_fingerprint": null,
        "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}],
    });
    if include_usage {
        v["usage"] = Value::Null;
    }
    v
}

/// Split `text` into pieces of about `size` characters at word boundaries.
pub fn pieces(text: &str, size: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in text.split_inclusive(char::is_whitespace) {
        cur.push_str(word);
        if cur.chars().count() >= size {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The first chunk: the assistant's role.
pub fn role_chunk(meta: &Meta, include_usage: bool) -> Value {
    chunk(
        meta,
        json!({"role": "assistant", "content": "", "refusal": null}),
        None,
        include_usage,
    )
}

/// A chunk of content.
pub fn content_chunk(meta: &Meta, text: &str, include_usage: bool) -> Value {
    chunk(meta, json!({"content": text}), None, include_usage)
}

/// The last chunk with a choice: `finish_reason`, and the citations.
pub fn finish_chunk(meta: &Meta, answer: &Answer, include_usage: bool) -> Value {
    let mut last = chunk(meta, json!({}), Some("stop"), include_usage);
    last["citations"] = json!(answer.citations);
    if !answer.related_questions.is_empty() {
        last["related_questions"] = json!(answer.related_questions);
    }
    if let Some(g) = &answer.grounding {
        last["grounding"] = g.clone();
    }
    last
}

/// The usage chunk (`stream_options.include_usage`): no choices.
pub fn usage_chunk(meta: &Meta, prompt: &str, answer: &Answer) -> Value {
    json!({
        "id": meta.id,
        "object": "chat.completion.chunk",
        "created": meta.created,
        "model": meta.model,
        "system_fingerprint": null,
        "choices": [],
        "usage": usage(prompt, &answer.text),
    })
}

/// A whole answer's stream `data:` payloads in order, `[DONE]` last: the
/// role, the content in pieces, the finish chunk with `citations`, then usage
/// if asked.
pub fn chunks(meta: &Meta, prompt: &str, answer: &Answer, include_usage: bool) -> Vec<String> {
    let mut out = vec![role_chunk(meta, include_usage)];
    for p in pieces(&answer.text, 48) {
        out.push(content_chunk(meta, &p, include_usage));
    }
    out.push(finish_chunk(meta, answer, include_usage));
    if include_usage {
        out.push(usage_chunk(meta, prompt, answer));
    }
    let mut s: Vec<String> = out.into_iter().map(|v| v.to_string()).collect();
    s.push("[DONE]".into());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_rejoin() {
        let t = "The Church teaches [1] that grace perfects nature, and more words follow here.";
        assert_eq!(pieces(t, 10).concat(), t);
        assert!(pieces("", 10).is_empty());
    }

    #[test]
    fn citations_only_in_the_finish_chunk() {
        let meta = Meta::new("ecclesia-1");
        let a = Answer {
            text: "Yes [1].".into(),
            citations: vec![json!({"document_index": 0})],
            related_questions: vec![],
            grounding: None,
        };
        let c = chunks(&meta, "q", &a, true);
        assert_eq!(c.last().map(String::as_str), Some("[DONE]"));
        let parsed: Vec<Value> = c[..c.len() - 1]
            .iter()
            .map(|s| serde_json::from_str(s).unwrap())
            .collect();
        let with: Vec<&Value> = parsed
            .iter()
            .filter(|v| v.get("citations").is_some())
            .collect();
        assert_eq!(with.len(), 1);
        assert_eq!(with[0]["choices"][0]["finish_reason"], "stop");
        assert_eq!(parsed.last().unwrap()["usage"]["total_tokens"], 3);
    }
}
