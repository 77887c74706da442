//! `url_citation` annotations: each `[n]` marker of an answer, as the span of
//! its text that points at citation `n`'s `source_url`.
//!
//! Offsets count characters (Unicode scalar values, as Python indexes a
//! string), the schema's "index of the first character"; `end_index` is one
//! past the marker's `]`, as OpenAI's are, so `text[start_index:end_index]`
//! is the marker. A marker whose citation has no `source_url` gets none (the
//! top-level `citations[]` still describes it).

use serde_json::{json, Value};

/// Longest marker number read (`[9999]`).
const MAX_DIGITS: usize = 4;

/// The annotations of `text`, in the order of its markers.
pub fn annotations(text: &str, citations: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for (start, n, len) in markers(text) {
        let Some(c) = citation(citations, n) else {
            continue;
        };
        let Some(url) = c
            .get("source_url")
            .and_then(Value::as_str)
            .filter(|u| !u.trim().is_empty())
        else {
            continue;
        };
        let title = c
            .get("document_title")
            .and_then(Value::as_str)
            .filter(|t| !t.trim().is_empty())
            .unwrap_or(url);
        out.push(json!({
            "type": "url_citation",
            "url": url,
            "title": title,
            "start_index": start,
            "end_index": start + len,
        }));
    }
    out
}

/// Citation `n` (the marker `[n]`): the one whose zero-based
/// `document_index` is `n - 1`.
fn citation(citations: &[Value], n: u64) -> Option<&Value> {
    let index = n.checked_sub(1)?;
    citations
        .iter()
        .find(|c| c.get("document_index").and_then(Value::as_u64) == Some(index))
}

/// Each `[n]` of `text`: its start (in characters), `n`, and its length in
/// characters.
fn markers(text: &str) -> Vec<(usize, u64, usize)> {
    let mut out = Vec::new();
    for (at, (byte, ch)) in text.char_indices().enumerate() {
        if ch != '[' {
            continue;
        }
        let rest = &text[byte + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > MAX_DIGITS || rest.as_bytes().get(digits) != Some(&b']') {
            continue;
        }
        if let Ok(n) = rest[..digits].parse::<u64>() {
            out.push((at, n, digits + 2));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cite(i: u64, url: Option<&str>) -> Value {
        json!({"document_index": i, "document_title": format!("Doc {i}"), "source_url": url})
    }

    #[test]
    fn spans_are_character_offsets_of_the_markers() {
        let text = "Grâce [1], vérité [2][1] and [3] [x] [12345] [";
        let cs = [
            cite(0, Some("https://a")),
            cite(1, Some("https://b")),
            cite(2, None),
        ];
        let a = annotations(text, &cs);
        let chars: Vec<char> = text.chars().collect();
        let spans: Vec<String> = a
            .iter()
            .map(|x| {
                let (s, e) = (
                    x["start_index"].as_u64().unwrap() as usize,
                    x["end_index"].as_u64().unwrap() as usize,
                );
                chars[s..e].iter().collect()
            })
            .collect();
        assert_eq!(spans, ["[1]", "[2]", "[1]"]);
        assert_eq!(a[0]["start_index"], 6);
        assert_eq!(a[1]["url"], "https://b");
        assert_eq!(a[1]["title"], "Doc 1");
        assert_eq!(a[0]["type"], "url_citation");
        assert!(annotations("[0] [1]", &[]).is_empty());
    }
}
