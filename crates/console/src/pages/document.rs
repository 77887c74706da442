//! A document from `document_fetch`, with the cited passage highlighted
//! (`hl`) and scrolled to (`#cited`); long documents page through `next_ref`.

use super::lang_attr;
use crate::error::ConsoleError;
use crate::gate::Visitor;
use crate::html::esc;
use crate::layout::{Ctx, Page};
use crate::params::{Params, MAX_SHORT_CHARS};
use crate::skills::{self, s};
use crate::ConsoleState;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use serde_json::{Map, Value};
use std::fmt::Write;

/// The skill behind the page.
pub const SKILL: &str = "document_fetch";
/// Exact text of the skill for an unknown id.
pub const NOT_FOUND: &str = "Document not found.";

/// `GET /document?id=&ref=&at=&hl=`.
pub async fn handler(State(state): State<ConsoleState>, ctx: Ctx, uri: Uri) -> Response {
    let r = page(&state, &ctx, &uri).await;
    crate::respond(&ctx, r)
}

async fn fetch(
    state: &ConsoleState,
    visitor: &Visitor,
    id: &str,
    reference: Option<&str>,
) -> Result<Option<(String, Map<String, Value>)>, ConsoleError> {
    let mut req = Map::new();
    req.insert("id".into(), Value::String(id.into()));
    if let Some(r) = reference {
        req.insert("ref".into(), Value::String(r.into()));
    }
    let a = skills::call(state, visitor, SKILL, skills::data(Value::Object(req))).await?;
    let text = a.text().unwrap_or_default();
    let data = a.data();
    if text == NOT_FOUND && data.is_empty() {
        return Ok(None);
    }
    Ok(Some((text, data)))
}

async fn page(state: &ConsoleState, ctx: &Ctx, uri: &Uri) -> Result<Page, ConsoleError> {
    let p = Params::from_uri(uri)?;
    let id = p
        .get("id", 300)?
        .ok_or_else(|| ConsoleError::BadInput("which document? the address needs ?id=".into()))?;
    let reference = p.get("ref", MAX_SHORT_CHARS)?;
    let at = p.get("at", MAX_SHORT_CHARS)?;
    let hl = p.get("hl", 2000)?;
    if state.registry().get(SKILL).is_none() {
        return Err(ConsoleError::Unavailable(SKILL.into()));
    }
    let visitor = state.admit(ctx, SKILL).await?;
    let Some((mut text, mut data)) = fetch(state, &visitor, &id, reference.as_deref()).await?
    else {
        let body = format!(
            "<h1>{}</h1><p role=\"status\">{}</p>",
            ctx.t("doc.not_found"),
            esc(NOT_FOUND)
        );
        return Ok(Page::for_ctx(ctx, ctx.t("doc.not_found"), "search", body)
            .status(StatusCode::NOT_FOUND));
    };
    // The cited text may sit in a later part of a long document: open its passage.
    let mut narrowed = false;
    if let (Some(h), None, Some(at)) = (&hl, &reference, &at) {
        if find_loose(&text, h).is_none() {
            if let Some((t2, d2)) = fetch(state, &visitor, &id, Some(at)).await? {
                text = t2;
                data = d2;
                narrowed = true;
            }
        }
    }
    let title = s(&data, "title").unwrap_or(&id).to_string();
    let mut body = format!("<article class=\"document\"><h1>{}</h1>", esc(&title));
    let meta: Vec<String> = [
        s(&data, "author").map(str::to_string),
        data.get("year")
            .and_then(Value::as_i64)
            .map(|y| y.to_string()),
        s(&data, "type").map(super::humanize),
        s(&data, "ref").map(|r| format!("§ {r}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    let _ = write!(body, "<p class=\"meta\">{}</p>", esc(&meta.join(" · ")));
    let mut links = Vec::new();
    if let Some(u) =
        s(&data, "source_url").filter(|u| u.starts_with("https://") || u.starts_with("http://"))
    {
        links.push(format!(
            "<a href=\"{}\" rel=\"noopener noreferrer\">Source</a>",
            esc(u)
        ));
    }
    if narrowed || reference.is_some() {
        links.push(format!(
            "<a href=\"{}\">Whole document</a>",
            esc(&ctx.link("/document", &[("id", &id)]))
        ));
    }
    if let Some(n) = s(&data, "next_ref") {
        links.push(format!(
            "<a rel=\"next\" href=\"{}\">Next part →</a>",
            esc(&ctx.link("/document", &[("id", &id), ("ref", n)]))
        ));
    }
    if !links.is_empty() {
        let _ = write!(body, "<p class=\"links\">{}</p>", links.join(" · "));
    }
    let range = hl.as_deref().and_then(|h| find_loose(&text, h));
    if let (Some(h), None) = (&hl, range) {
        let _ = write!(
            body,
            "<aside><h2>{}</h2><blockquote id=\"cited\"><mark>{}</mark></blockquote></aside>",
            ctx.t("doc.cited"),
            esc(h)
        );
    }
    let _ = write!(
        body,
        "<div class=\"doc-body\"{}>{}</div></article>",
        lang_attr(s(&data, "language")),
        body_html(&text, range)
    );
    Ok(Page::for_ctx(ctx, &title, "search", body))
}

/// The byte range of `needle` in `hay`: exact, else with whitespace runs
/// treated as equal (the passage may be re-wrapped in the body).
pub fn find_loose(hay: &str, needle: &str) -> Option<(usize, usize)> {
    let needle = needle
        .trim()
        .trim_start_matches('…')
        .trim_end_matches('…')
        .trim();
    if needle.is_empty() {
        return None;
    }
    if let Some(i) = hay.find(needle) {
        return Some((i, i + needle.len()));
    }
    // Whitespace-insensitive: map the hay's non-space chars to their offsets.
    let words: Vec<&str> = needle.split_whitespace().collect();
    let first = words.first()?;
    let mut from = 0;
    while let Some(pos) = hay[from..].find(first) {
        let start = from + pos;
        let mut at = start;
        let mut ok = true;
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                let skipped = hay[at..].len() - hay[at..].trim_start().len();
                if skipped == 0 {
                    ok = false;
                    break;
                }
                at += skipped;
            }
            if hay[at..].starts_with(w) {
                at += w.len();
            } else {
                ok = false;
                break;
            }
        }
        if ok {
            return Some((start, at));
        }
        from = start + first.len();
    }
    None
}

/// The body as paragraphs, the range (if any) wrapped in `<mark>`, the first
/// mark carrying `id="cited"`.
pub fn body_html(text: &str, range: Option<(usize, usize)>) -> String {
    let mut out = String::new();
    let mut marked = false;
    let mut offset = 0;
    for para in text.split("\n\n") {
        let (ps, pe) = (offset, offset + para.len());
        offset = pe + 2;
        if para.trim().is_empty() {
            continue;
        }
        out.push_str("<p>");
        let piece = |a: usize, b: usize| esc(&text[a..b]).replace('\n', "<br>");
        match range {
            Some((hs, he)) if hs < pe && he > ps => {
                let (a, b) = (hs.max(ps), he.min(pe));
                out.push_str(&piece(ps, a));
                out.push_str(if marked {
                    "<mark>"
                } else {
                    "<mark id=\"cited\" tabindex=\"-1\">"
                });
                marked = true;
                out.push_str(&piece(a, b));
                out.push_str("</mark>");
                out.push_str(&piece(b, pe));
            }
            _ => out.push_str(&piece(ps, pe)),
        }
        out.push_str("</p>\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlight_spans_paragraphs() {
        let t = "One <a>.\n\nTwo three.\n\nFour.";
        let r = find_loose(t, "<a>.\n\nTwo").unwrap();
        let h = body_html(t, Some(r));
        assert_eq!(
            h,
            "<p>One <mark id=\"cited\" tabindex=\"-1\">&lt;a&gt;.</mark></p>\n<p><mark>Two</mark> three.</p>\n<p>Four.</p>\n"
        );
    }

    #[test]
    fn loose_match_ignores_rewrapping() {
        let t = "alpha beta\ngamma  delta";
        assert_eq!(find_loose(t, "beta gamma delta"), Some((6, 23)));
        assert_eq!(find_loose(t, "…beta gamma…"), Some((6, 16)));
        assert!(find_loose(t, "zeta").is_none());
        assert!(find_loose(t, "  ").is_none());
    }
}
