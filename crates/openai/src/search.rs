//! The Search API as Magisterium AI offers it: `POST /api/v1/search` with
//! `query` (at most 1,024 characters), `numResults` (1–100, default 10) and
//! `category` (`auto`, `magisterial` or `scholarly`), answered by the
//! `document_search` skill through the same in-process A2A call as chat.
//!
//! The answer:
//!
//! ```json
//! {"object": "search.results", "query": "…", "category": "auto", "numResults": 10,
//!  "mode": "hybrid", "notice": "…",
//!  "results": [{"document_id": "…", "document_title": "…", "document_author": "…",
//!    "document_year": 1964, "document_reference": "34", "document_type": "encyclical",
//!    "magisterial": true, "source_url": "https://…", "cited_text": "…", "score": 0.0123,
//!    "rank": 1}]}
//! ```
//!
//! The result fields are named as the chat API's citations name them.
//! `cited_text` is the matching passage as the search skill shows it (a
//! snippet, possibly shortened, without the skill's `**` highlights); `document_fetch` (or MCP `fetch`) with
//! `document_id` and `document_reference` serves the whole passage.

use crate::error::ApiError;
use ecclesia_a2a::{Artifact, Part};
use serde_json::{json, Map, Value};

/// Longest query, in characters.
pub const MAX_QUERY_CHARS: usize = 1_024;
/// Most results one call may ask for.
pub const MAX_RESULTS: u64 = 100;
/// Results when `numResults` is not given.
pub const DEFAULT_RESULTS: u64 = 10;

/// Which documents to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// Everything.
    Auto,
    /// Magisterial documents only (papal and conciliar acts, catechisms).
    Magisterial,
    /// Everything that is not magisterial (Scripture, the Fathers, theology, commentaries).
    Scholarly,
}

impl Category {
    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Auto => "auto",
            Category::Magisterial => "magisterial",
            Category::Scholarly => "scholarly",
        }
    }
}

/// A validated search request.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchRequest {
    /// The query, trimmed.
    pub query: String,
    /// How many results (1–100).
    pub num_results: u64,
    /// Which documents.
    pub category: Category,
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl SearchRequest {
    /// Parse and check a body; each error names the parameter.
    pub fn parse(body: &[u8]) -> Result<Self, ApiError> {
        let v: Value = serde_json::from_slice(body).map_err(|e| {
            ApiError::invalid(
                None,
                format!("the body is not valid JSON ({e}); send {{\"query\": \"…\"}}"),
            )
        })?;
        let Value::Object(obj) = v else {
            return Err(ApiError::invalid(
                None,
                format!("the body must be a JSON object, not {}", kind(&v)),
            ));
        };
        Self::from_object(&obj)
    }

    fn from_object(obj: &Map<String, Value>) -> Result<Self, ApiError> {
        let query = match obj.get("query") {
            Some(Value::String(q)) => q.trim().to_string(),
            None | Some(Value::Null) => {
                return Err(ApiError::invalid(Some("query"), "query is required"))
            }
            Some(other) => {
                return Err(ApiError::invalid(
                    Some("query"),
                    format!("query must be a string, not {}", kind(other)),
                ))
            }
        };
        if query.is_empty() {
            return Err(ApiError::invalid(Some("query"), "query is empty"));
        }
        let n = query.chars().count();
        if n > MAX_QUERY_CHARS {
            return Err(ApiError::invalid(
                Some("query"),
                format!("query is too long ({n} characters); the limit is {MAX_QUERY_CHARS}"),
            )
            .with_code("query_too_long"));
        }
        let num_results = match obj.get("numResults") {
            None | Some(Value::Null) => DEFAULT_RESULTS,
            Some(v) => match v.as_u64() {
                Some(n) if (1..=MAX_RESULTS).contains(&n) => n,
                _ => {
                    return Err(ApiError::invalid(
                        Some("numResults"),
                        format!("numResults must be an integer from 1 to {MAX_RESULTS}, not {v}"),
                    )
                    .with_code("invalid_value"))
                }
            },
        };
        let category = match obj.get("category") {
            None | Some(Value::Null) => Category::Auto,
            Some(Value::String(c)) => match c.as_str() {
                "auto" => Category::Auto,
                "magisterial" => Category::Magisterial,
                "scholarly" => Category::Scholarly,
                other => {
                    let shown: String = other.chars().take(40).collect();
                    return Err(ApiError::invalid(
                        Some("category"),
                        format!("category must be auto, magisterial or scholarly, not {shown:?}"),
                    )
                    .with_code("invalid_value"));
                }
            },
            Some(other) => {
                return Err(ApiError::invalid(
                    Some("category"),
                    format!(
                        "category must be a string (auto, magisterial or scholarly), not {}",
                        kind(other)
                    ),
                ))
            }
        };
        Ok(SearchRequest {
            query,
            num_results,
            category,
        })
    }

    /// The `document_search` message parts.
    pub fn parts(&self) -> Vec<Part> {
        vec![Part::data(json!({
            "query": self.query,
            "limit": self.num_results,
            "category": self.category.as_str(),
        }))]
    }
}

/// One `document_search` hit in the Search API's shape.
fn result(rank: usize, hit: &Value) -> Value {
    let get = |k: &str| hit.get(k).cloned().unwrap_or(Value::Null);
    json!({
        "document_id": get("id"),
        "document_title": get("title"),
        "document_author": get("author"),
        "document_year": get("year"),
        "document_reference": get("reference"),
        "document_type": get("type"),
        "magisterial": get("magisterial"),
        "source_url": get("url"),
        // The search marks matched words as **bold**; the Search API quotes the text itself.
        "cited_text": hit
            .get("snippet")
            .and_then(Value::as_str)
            .map(|t| Value::String(t.replace("**", "")))
            .unwrap_or(Value::Null),
        "score": get("score"),
        "rank": rank + 1,
    })
}

/// The response body for `req` from `document_search`'s artifacts.
pub fn response(req: &SearchRequest, artifacts: &[Artifact]) -> Value {
    let data = artifacts
        .iter()
        .find(|a| a.name.as_deref() == Some("search_results"))
        .or_else(|| artifacts.first())
        .and_then(|a| {
            a.parts.iter().find_map(|p| match p {
                Part::Data { data, .. } => Some(data),
                _ => None,
            })
        });
    let hits = data
        .and_then(|d| d.get("results"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let results: Vec<Value> = hits
        .iter()
        .take(req.num_results as usize)
        .enumerate()
        .map(|(i, h)| result(i, h))
        .collect();
    let mut out = json!({
        "object": "search.results",
        "query": req.query,
        "category": req.category.as_str(),
        "numResults": req.num_results,
        "results": results,
    });
    for k in ["mode", "notice"] {
        if let Some(v) = data.and_then(|d| d.get(k)) {
            out[k] = v.clone();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(v: Value) -> Result<SearchRequest, ApiError> {
        SearchRequest::parse(v.to_string().as_bytes())
    }

    #[test]
    fn defaults_and_parts() {
        let r = parse(json!({"query": "  grace  "})).unwrap();
        assert_eq!(r.query, "grace");
        assert_eq!(r.num_results, 10);
        assert_eq!(r.category, Category::Auto);
        let r =
            parse(json!({"query": "grace", "numResults": 100, "category": "scholarly"})).unwrap();
        match &r.parts()[0] {
            Part::Data { data, .. } => {
                assert_eq!(data["limit"], 100);
                assert_eq!(data["category"], "scholarly");
                assert_eq!(data["query"], "grace");
            }
            other => panic!("{other:?}"),
        }
        let q = "é".repeat(MAX_QUERY_CHARS);
        assert!(parse(json!({"query": q})).is_ok());
    }

    #[test]
    fn bad_requests_name_the_parameter() {
        let long = "x".repeat(MAX_QUERY_CHARS + 1);
        let cases = [
            (json!({}), "query"),
            (json!({"query": ""}), "query"),
            (json!({"query": 5}), "query"),
            (json!({"query": long}), "query"),
            (json!({"query": "x", "numResults": 0}), "numResults"),
            (json!({"query": "x", "numResults": 101}), "numResults"),
            (json!({"query": "x", "numResults": 2.5}), "numResults"),
            (json!({"query": "x", "numResults": "ten"}), "numResults"),
            (json!({"query": "x", "category": "gossip"}), "category"),
            (json!({"query": "x", "category": ["auto"]}), "category"),
        ];
        for (body, param) in cases {
            let e = parse(body.clone()).expect_err(&body.to_string());
            assert_eq!(e.param.as_deref(), Some(param), "{body}");
            assert_eq!(e.status.as_u16(), 400, "{body}");
        }
        assert!(SearchRequest::parse(b"[1]").is_err());
        assert!(SearchRequest::parse(b"{nope").is_err());
    }

    #[test]
    fn results_in_citation_names() {
        let req = parse(json!({"query": "grace", "numResults": 1})).unwrap();
        let a = ecclesia_core::artifact(
            "search_results",
            vec![Part::data(json!({"results": [
                {"id": "lg", "title": "Lumen Gentium", "author": "Paul VI", "year": 1964,
                 "reference": "1", "type": "constitution", "magisterial": true,
                 "url": "https://example.org/lg", "snippet": "Christ is the **Light**", "score": 0.5},
                {"id": "dv", "title": "Dei Verbum"}
            ], "mode": "lexical"}))],
        );
        let v = response(&req, &[a]);
        assert_eq!(v["results"].as_array().unwrap().len(), 1);
        let r = &v["results"][0];
        assert_eq!(r["document_id"], "lg");
        assert_eq!(r["document_year"], 1964);
        assert_eq!(r["cited_text"], "Christ is the Light");
        assert_eq!(r["source_url"], "https://example.org/lg");
        assert_eq!(r["rank"], 1);
        assert_eq!(v["mode"], "lexical");
        assert_eq!(v["category"], "auto");
        assert_eq!(response(&req, &[])["results"], json!([]));
    }
}
