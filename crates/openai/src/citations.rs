//! The answer of a `catholic_qa` artifact: its text (footnotes `[n]`), the
//! top-level `citations[]` in Magisterium's shape, and related questions.

use ecclesia_a2a::{Artifact, Part};
use serde_json::{json, Map, Value};

/// What `catholic_qa` answered.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answer {
    /// The answer, with `[1]`, `[2]`, … markers.
    pub text: String,
    /// One object per source; `document_index` is zero-based (`[n]` is index + 1).
    pub citations: Vec<Value>,
    /// Suggested follow-ups.
    pub related_questions: Vec<Value>,
    /// Whether the library holds what was asked (`status`, `missing`, `see_also`).
    pub grounding: Option<Value>,
}

impl Answer {
    /// Take the citations and related questions of a data part.
    pub fn add_data(&mut self, data: &Map<String, Value>) {
        if let Some(Value::Array(cs)) = data.get("citations") {
            let base = self.citations.len();
            self.citations
                .extend(cs.iter().enumerate().map(|(i, c)| citation(base + i, c)));
        }
        if let Some(Value::Array(rq)) = data.get("related_questions") {
            self.related_questions.extend(rq.iter().cloned());
        }
        if let Some(g) = data.get("grounding") {
            self.grounding = Some(g.clone());
        }
    }
}

/// The fields of a citation, in Magisterium's order (`document_id` added:
/// it is what `document_fetch` and MCP `fetch` take).
const FIELDS: &[&str] = &[
    "cited_text",
    "cited_text_heading",
    "document_title",
    "document_index",
    "document_author",
    "document_year",
    "document_reference",
    "source_url",
    "document_id",
];

fn citation(i: usize, c: &Value) -> Value {
    let mut out = Map::new();
    for f in FIELDS {
        let v = c.get(*f).cloned().unwrap_or(Value::Null);
        out.insert((*f).to_string(), v);
    }
    if !out.get("document_index").is_some_and(Value::is_u64) {
        out.insert("document_index".into(), json!(i));
    }
    Value::Object(out)
}

/// The answer in `artifacts` (the `catholic_qa_response` one, else the first).
pub fn answer(artifacts: &[Artifact]) -> Answer {
    let chosen = artifacts
        .iter()
        .find(|a| a.name.as_deref() == Some("catholic_qa_response"))
        .or_else(|| artifacts.first());
    let mut out = Answer::default();
    let Some(a) = chosen else {
        return out;
    };
    let mut texts = Vec::new();
    for p in &a.parts {
        match p {
            Part::Text { text, .. } => texts.push(text.as_str()),
            Part::Data { data, .. } => out.add_data(data),
            Part::File { .. } => {}
        }
    }
    out.text = texts.join("\n\n");
    out.grounding = a
        .metadata
        .as_ref()
        .and_then(|m| m.get("grounding"))
        .cloned();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_keep_their_fields_and_index() {
        let a = ecclesia_core::artifact(
            "catholic_qa_response",
            vec![
                Part::text("Grace [1] and truth [2]."),
                Part::data(json!({"citations": [
                    {"cited_text": "a", "document_title": "T", "document_index": 0, "document_year": 1964, "extra": 1},
                    {"cited_text": "b", "document_title": "U"}
                ]})),
                Part::data(json!({"related_questions": ["Why?"]})),
            ],
        );
        let ans = answer(&[a]);
        assert_eq!(ans.text, "Grace [1] and truth [2].");
        assert_eq!(ans.citations[0]["document_year"], 1964);
        assert!(ans.citations[0].get("extra").is_none());
        assert_eq!(ans.citations[1]["document_index"], 1);
        assert_eq!(ans.citations[1]["cited_text_heading"], Value::Null);
        assert_eq!(ans.related_questions, vec![json!("Why?")]);
        assert_eq!(ans.grounding, None);
    }

    #[test]
    fn the_grounding_comes_from_the_artifacts_metadata() {
        let mut a = ecclesia_core::artifact(
            "catholic_qa_response",
            vec![Part::text("This library does not hold …")],
        );
        let g =
            json!({"status": "not_in_library", "missing": ["Evangelium vitae"], "see_also": []});
        a.metadata = Some(Map::from_iter([("grounding".to_string(), g.clone())]));
        assert_eq!(answer(&[a]).grounding, Some(g.clone()));
        // Streamed: it arrives as a data item.
        let mut streamed = Answer::default();
        streamed.add_data(&Map::from_iter([("grounding".to_string(), g.clone())]));
        assert_eq!(streamed.grounding, Some(g));
    }
}
