//! [`SkillRequest`]: the parts of an A2A message, parsed once for every skill.

use crate::skill::SkillError;
use ecclesia_a2a::{FileContent, Part};
use serde_json::{Map, Value};

/// Longest text a request may carry, in characters; longer is `-32602`.
pub const MAX_TEXT_CHARS: usize = 20_000;

/// The input of a skill: the message's text parts joined, its data parts merged.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SkillRequest {
    /// Text parts joined with newlines, trimmed; `None` when there is no non-blank text.
    pub text: Option<String>,
    /// Data parts merged into one object (later parts win on equal keys).
    pub data: Map<String, Value>,
    /// File parts, kept for skills that accept them.
    pub files: Vec<FileContent>,
}

/// What a look-up skill was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryOrId {
    /// A canonical id (`data.saint_id`, …): exact look-up.
    Id(String),
    /// A natural-language query.
    Query(String),
}

/// A date as the caller gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateInput {
    /// The phrase or ISO date, trimmed (`"next Sunday"`, `"2026-03-19"`).
    pub phrase: String,
}

impl SkillRequest {
    /// Parse message parts. Text over [`MAX_TEXT_CHARS`] is refused.
    pub fn from_parts(parts: &[Part]) -> Result<Self, SkillError> {
        let mut texts = Vec::new();
        let mut data = Map::new();
        let mut files = Vec::new();
        for part in parts {
            match part {
                Part::Text { text, .. } => texts.push(text.as_str()),
                Part::Data { data: d, .. } => {
                    for (k, v) in d {
                        data.insert(k.clone(), v.clone());
                    }
                }
                Part::File { file, .. } => files.push(file.clone()),
            }
        }
        let joined = texts.join("\n");
        let trimmed = joined.trim();
        let chars = trimmed.chars().count();
        if chars > MAX_TEXT_CHARS {
            return Err(SkillError::InvalidParams(format!(
                "the text is too long ({chars} characters); the limit is {MAX_TEXT_CHARS}"
            )));
        }
        Ok(SkillRequest {
            text: (!trimmed.is_empty()).then(|| trimmed.to_string()),
            data,
            files,
        })
    }

    /// A string field of the data part. Numbers are accepted and written out
    /// (`{"id": 12345}` reads as `"12345"`); blank strings and `null` read as absent.
    pub fn str_field(&self, key: &str) -> Result<Option<String>, SkillError> {
        match self.data.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => {
                let s = s.trim();
                if s.chars().count() > MAX_TEXT_CHARS {
                    return Err(SkillError::InvalidParams(format!(
                        "data.{key} is too long; the limit is {MAX_TEXT_CHARS} characters"
                    )));
                }
                Ok((!s.is_empty()).then(|| s.to_string()))
            }
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(other) => Err(SkillError::InvalidParams(format!(
                "data.{key} must be a string, not {}",
                type_name(other)
            ))),
        }
    }

    /// An integer field. Integral floats (`3.0`, as protobuf-based clients send)
    /// and numeric strings are accepted.
    pub fn int_field(&self, key: &str) -> Result<Option<i64>, SkillError> {
        let bad = |what: &str| {
            SkillError::InvalidParams(format!("data.{key} must be an integer, not {what}"))
        };
        match self.data.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => {
                if let Some(i) = n.as_i64() {
                    Ok(Some(i))
                } else {
                    match n.as_f64() {
                        Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(Some(f as i64)),
                        _ => Err(bad(&n.to_string())),
                    }
                }
            }
            Some(Value::String(s)) => s
                .trim()
                .parse::<i64>()
                .map(Some)
                .map_err(|_| bad(&format!("{s:?}"))),
            Some(other) => Err(bad(type_name(other))),
        }
    }

    /// A boolean field (`true`/`false`, or the strings `"true"`/`"false"`).
    pub fn bool_field(&self, key: &str) -> Result<Option<bool>, SkillError> {
        match self.data.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) if s.eq_ignore_ascii_case("true") => Ok(Some(true)),
            Some(Value::String(s)) if s.eq_ignore_ascii_case("false") => Ok(Some(false)),
            Some(other) => Err(SkillError::InvalidParams(format!(
                "data.{key} must be true or false, not {}",
                type_name(other)
            ))),
        }
    }

    /// The query: `data.query`, else the text.
    pub fn query(&self) -> Result<Option<String>, SkillError> {
        Ok(self.str_field("query")?.or_else(|| self.text.clone()))
    }

    /// The query (`data.query` or the text), or `-32602` naming `what` was expected.
    pub fn require_text(&self, what: &str) -> Result<String, SkillError> {
        self.query()?.ok_or_else(|| {
            SkillError::InvalidParams(format!(
                "no {what} given: send it as a text part or as data.query"
            ))
        })
    }

    /// For look-ups: the canonical id in `data.<id_key>` wins over a query.
    /// Neither is `-32602`.
    pub fn query_or_id(&self, id_key: &str) -> Result<QueryOrId, SkillError> {
        if let Some(id) = self.str_field(id_key)? {
            return Ok(QueryOrId::Id(id));
        }
        match self.query()? {
            Some(q) => Ok(QueryOrId::Query(q)),
            None => Err(SkillError::InvalidParams(format!(
                "provide a query (a text part or data.query) or data.{id_key}"
            ))),
        }
    }

    /// For dated skills: `data.date`, else `data.query`, else the text.
    pub fn date_input(&self) -> Result<DateInput, SkillError> {
        let phrase = match self.str_field("date")? {
            Some(d) => d,
            None => self.query()?.ok_or_else(|| {
                SkillError::InvalidParams(
                    "no date given: send a date phrase as text (\"today\", \"next Sunday\", \"2026-03-19\") or data.date".into(),
                )
            })?,
        };
        Ok(DateInput { phrase })
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn req(parts: Vec<Part>) -> SkillRequest {
        SkillRequest::from_parts(&parts).unwrap()
    }

    #[test]
    fn text_and_data_merge() {
        let r = req(vec![
            Part::text("  hello "),
            Part::data(json!({"a": 1, "query": "q1"})),
            Part::data(json!({"query": "q2"})),
        ]);
        assert_eq!(r.text.as_deref(), Some("hello"));
        assert_eq!(r.query().unwrap().as_deref(), Some("q2"));
    }

    #[test]
    fn query_or_id() {
        let r = req(vec![Part::data(
            json!({"saint_id": "jerome", "query": "x"}),
        )]);
        assert_eq!(
            r.query_or_id("saint_id").unwrap(),
            QueryOrId::Id("jerome".into())
        );
        let r = req(vec![Part::text("Thérèse")]);
        assert_eq!(
            r.query_or_id("saint_id").unwrap(),
            QueryOrId::Query("Thérèse".into())
        );
        let r = req(vec![Part::data(json!({"query": "  "}))]);
        assert!(matches!(
            r.query_or_id("saint_id"),
            Err(SkillError::InvalidParams(_))
        ));
        let r = req(vec![Part::data(json!({"saint_id": ["x"]}))]);
        assert!(
            matches!(r.query_or_id("saint_id"), Err(SkillError::InvalidParams(m)) if m.contains("must be a string"))
        );
    }

    #[test]
    fn ints_are_lenient() {
        let r = req(vec![Part::data(
            json!({"a": 3.0, "b": "2010", "c": 2.5, "d": true}),
        )]);
        assert_eq!(r.int_field("a").unwrap(), Some(3));
        assert_eq!(r.int_field("b").unwrap(), Some(2010));
        assert!(r.int_field("c").is_err());
        assert!(r.int_field("d").is_err());
        assert_eq!(r.int_field("missing").unwrap(), None);
    }

    #[test]
    fn oversized_text_refused() {
        let big = "x".repeat(MAX_TEXT_CHARS + 1);
        assert!(SkillRequest::from_parts(&[Part::text(big)]).is_err());
    }

    #[test]
    fn date_input() {
        let r = req(vec![
            Part::data(json!({"date": "2026-03-19"})),
            Part::text("ignored"),
        ]);
        assert_eq!(r.date_input().unwrap().phrase, "2026-03-19");
        assert!(req(vec![]).date_input().is_err());
    }
}
