//! Artifacts → tool results: text content a model reads, `structuredContent`
//! a program reads, and errors as results with `isError: true`.

use ecclesia_a2a::{Artifact, Part};
use ecclesia_server::{AskError, ServerError};
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value};

/// The structured form of the artifacts: their data parts merged into one
/// object, the text parts joined under `text`, and `artifact` naming the
/// (first) artifact, e.g. `{"artifact": "search_results", "results": [...]}`.
pub fn structured(artifacts: &[Artifact]) -> Map<String, Value> {
    let mut out = Map::new();
    let mut texts = Vec::new();
    for a in artifacts {
        if let Some(name) = &a.name {
            out.entry("artifact")
                .or_insert_with(|| Value::String(name.clone()));
        }
        // `catholic_qa`'s grounding (whether the library holds what was asked).
        if let Some(g) = a.metadata.as_ref().and_then(|m| m.get("grounding")) {
            out.insert("grounding".into(), g.clone());
        }
        for p in &a.parts {
            match p {
                Part::Text { text, .. } => texts.push(text.as_str()),
                Part::Data { data, .. } => {
                    for (k, v) in data {
                        out.insert(k.clone(), v.clone());
                    }
                }
                Part::File { .. } => {}
            }
        }
    }
    if !texts.is_empty() {
        out.insert("text".into(), Value::String(texts.join("\n\n")));
    }
    out
}

/// The text a model reads: the text parts, then each data part as JSON.
pub fn text_of(artifacts: &[Artifact]) -> String {
    let mut blocks = Vec::new();
    for a in artifacts {
        for p in &a.parts {
            match p {
                Part::Text { text, .. } => blocks.push(text.clone()),
                Part::Data { data, .. } => {
                    blocks.push(serde_json::to_string_pretty(data).unwrap_or_else(|_| "{}".into()))
                }
                Part::File { .. } => {}
            }
        }
    }
    blocks.join("\n\n")
}

/// A successful call.
pub fn success(artifacts: &[Artifact]) -> CallToolResult {
    let mut r = CallToolResult::success(vec![ContentBlock::text(text_of(artifacts))]);
    r.structured_content = Some(Value::Object(structured(artifacts)));
    r
}

/// A failed call, readable by the model: `isError: true`, the message as text,
/// and `{"error": kind, "message": ..}` as structured content.
pub fn failure(e: &AskError) -> CallToolResult {
    let (kind, retry_after) = match e {
        e if e.is_invalid_params() => ("invalid_arguments", None),
        AskError::Refused(ServerError::RateLimited(d)) => ("rate_limited", Some(d.reset_secs)),
        AskError::Refused(ServerError::LimiterUnavailable { retry_after }) => {
            ("rate_limited", Some(*retry_after))
        }
        AskError::Refused(ServerError::PlanRequired(_)) => ("not_allowed", None),
        AskError::Refused(ServerError::Busy { retry_after, .. }) => ("busy", Some(*retry_after)),
        _ => ("failed", None),
    };
    let mut obj = Map::new();
    obj.insert("error".into(), Value::String(kind.into()));
    obj.insert("message".into(), Value::String(e.to_string()));
    if let Some(s) = retry_after {
        obj.insert("retry_after_seconds".into(), Value::from(s));
    }
    let mut r = CallToolResult::error(vec![ContentBlock::text(e.to_string())]);
    r.structured_content = Some(Value::Object(obj));
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_grounding_is_part_of_the_structured_content() {
        let mut a = ecclesia_core::artifact(
            "catholic_qa_response",
            vec![
                Part::text("Answer [1]."),
                Part::data(json!({"citations": []})),
            ],
        );
        let g = json!({"status": "partial", "missing": [], "see_also": []});
        a.metadata = Some(Map::from_iter([("grounding".to_string(), g.clone())]));
        let s = structured(&[a]);
        assert_eq!(s["grounding"], g);
        assert_eq!(s["artifact"], "catholic_qa_response");
    }
}
