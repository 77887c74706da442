//! Ask: a question box; the answer with its citation markers, each marker
//! opening the cited passage in its document with the cited text
//! highlighted; related questions as links. Without JavaScript the form posts
//! to the console; with it, the answer streams in through `message/stream`.

use crate::error::ConsoleError;
use crate::html::{esc, esc_trunc};
use crate::layout::{Ctx, Page};
use crate::params::{Params, MAX_QUERY_CHARS};
use crate::skills::{self, s};
use crate::ConsoleState;
use axum::body::Body;
use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use ecclesia_a2a::Part;
use serde_json::{Map, Value};
use std::fmt::Write;

/// The skill behind the page.
pub const SKILL: &str = "catholic_qa";
/// Longest cited text carried in a link (characters).
const MAX_HIGHLIGHT: usize = 1500;

/// `GET /ask?q=`.
pub async fn get_handler(State(state): State<ConsoleState>, ctx: Ctx, uri: Uri) -> Response {
    let r = match Params::from_uri(&uri) {
        Ok(p) => page(&state, &ctx, &p).await,
        Err(e) => Err(e),
    };
    crate::respond(&ctx, r)
}

/// `POST /ask` (form: `q`); a body over [`crate::params::MAX_FORM_BYTES`] is a 400 page.
pub async fn post_handler(State(state): State<ConsoleState>, ctx: Ctx, body: Body) -> Response {
    let r = match crate::params::read_form(body).await {
        Ok(bytes) => match Params::from_form(&bytes) {
            Ok(p) => page(&state, &ctx, &p).await,
            Err(e) => Err(e),
        },
        Err(e) => Err(e),
    };
    crate::respond(&ctx, r)
}

async fn page(state: &ConsoleState, ctx: &Ctx, p: &Params) -> Result<Page, ConsoleError> {
    let q = p.get("q", MAX_QUERY_CHARS)?;
    let available = state.registry().get(SKILL).is_some();
    let title = ctx.t("ask.title");
    let mut body = format!("<h1>{title}</h1>");
    let _ = write!(
        body,
        "<form id=\"ask-form\" class=\"panel\" method=\"post\" action=\"{}\" data-a2a=\"{}\" data-skill=\"{SKILL}\"><div class=\"field wide\"><label for=\"f-q\">{}</label><textarea id=\"f-q\" name=\"q\" maxlength=\"{MAX_QUERY_CHARS}\" required>{}</textarea></div><div><button type=\"submit\"{}>{}</button></div></form>",
        esc(&ctx.link("/ask", &[])),
        esc(&state.opts.a2a_path),
        ctx.t("ask.question"),
        esc(q.as_deref().unwrap_or("")),
        if available { "" } else { " disabled" },
        ctx.t("ask.submit")
    );
    if !available {
        let _ = write!(
            body,
            "<p class=\"error\" role=\"status\" id=\"ask-unavailable\">{}</p>",
            ctx.t("unavailable")
        );
        let status = if q.is_some() {
            axum::http::StatusCode::SERVICE_UNAVAILABLE
        } else {
            axum::http::StatusCode::OK
        };
        return Ok(Page::for_ctx(ctx, title, "ask", body).status(status));
    }
    // The live region the script streams into (empty without a question).
    let _ = write!(body, "<section id=\"answer\" aria-live=\"polite\" data-label-answer=\"{}\" data-label-sources=\"{}\" data-label-related=\"{}\">", ctx.t("ask.answer"), ctx.t("ask.sources"), ctx.t("ask.related"));
    if let Some(q) = &q {
        let visitor = state.admit(ctx, SKILL).await?;
        let answer = skills::call(state, &visitor, SKILL, vec![Part::text(q.clone())]).await?;
        let text = answer.text().unwrap_or_default();
        let data = answer.data();
        body.push_str(&render_answer(ctx, &text, &data));
    }
    body.push_str("</section>");
    Ok(Page::for_ctx(ctx, title, "ask", body).body_attrs("data-page=\"ask\"".into()))
}

/// The link of a citation: its document, the cited text highlighted.
pub fn citation_href(ctx: &Ctx, c: &Map<String, Value>) -> Option<String> {
    let id = s(c, "document_id")?;
    let hl: String = s(c, "cited_text")
        .unwrap_or("")
        .chars()
        .take(MAX_HIGHLIGHT)
        .collect();
    let at = s(c, "document_reference").unwrap_or("");
    Some(format!(
        "{}#cited",
        ctx.link("/document", &[("id", id), ("at", at), ("hl", &hl)])
    ))
}

/// The answer text (markers as links), the sources and the related questions.
pub fn render_answer(ctx: &Ctx, text: &str, data: &Map<String, Value>) -> String {
    let citations: Vec<&Map<String, Value>> = data
        .get("citations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    let hrefs: Vec<Option<String>> = citations.iter().map(|c| citation_href(ctx, c)).collect();
    let mut out = format!(
        "<h2>{}</h2><div class=\"answer\" id=\"answer-text\">{}</div>",
        ctx.t("ask.answer"),
        markup(text, &hrefs)
    );
    out.push_str(&see_also(ctx, data));
    if !citations.is_empty() {
        let _ = write!(
            out,
            "<h2>{}</h2><ol class=\"sources\">",
            ctx.t("ask.sources")
        );
        for (i, c) in citations.iter().enumerate() {
            let mut head = esc(s(c, "document_title").unwrap_or("(untitled)"));
            if let Some(h) = &hrefs[i] {
                head = format!("<a href=\"{}\">{head}</a>", esc(h));
            }
            let meta: Vec<String> = [
                s(c, "document_author").map(str::to_string),
                c.get("document_year")
                    .and_then(Value::as_i64)
                    .map(|y| y.to_string()),
                s(c, "document_reference").map(str::to_string),
            ]
            .into_iter()
            .flatten()
            .collect();
            let _ = write!(
                out,
                "<li id=\"src-{}\">{head} <span class=\"meta\">{}</span>{}<blockquote>{}</blockquote></li>",
                i + 1,
                esc(&meta.join(" · ")),
                s(c, "cited_text_heading").map(|h| format!("<br><span class=\"meta\">{}</span>", esc(h))).unwrap_or_default(),
                esc_trunc(s(c, "cited_text").unwrap_or(""), 1200)
            );
        }
        out.push_str("</ol>");
    }
    let related: Vec<&str> = data
        .get("related_questions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .take(10)
        .collect();
    if !related.is_empty() {
        let _ = write!(
            out,
            "<h2>{}</h2><ul class=\"related\">",
            ctx.t("ask.related")
        );
        for r in related {
            let q: String = r.chars().take(MAX_QUERY_CHARS).collect();
            let _ = write!(
                out,
                "<li><a href=\"{}\">{}</a></li>",
                esc(&ctx.link("/ask", &[("q", &q)])),
                esc(r)
            );
        }
        out.push_str("</ul>");
    }
    out
}

/// The documents that would answer a question the library cannot (the
/// grounding's `see_also`), with their official links.
fn see_also(ctx: &Ctx, data: &Map<String, Value>) -> String {
    let Some(g) = data.get("grounding").and_then(Value::as_object) else {
        return String::new();
    };
    let status = s(g, "status").unwrap_or("answered");
    let items: Vec<&Map<String, Value>> = g
        .get("see_also")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .take(10)
        .collect();
    if status == "answered" || items.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<h2>{}</h2><ul class=\"see-also\" data-grounding=\"{}\">",
        ctx.t("ask.see_also"),
        esc(status)
    );
    for it in items {
        let title = esc(s(it, "title").unwrap_or("(untitled)"));
        let head = match s(it, "url").filter(|u| u.starts_with("https://")) {
            Some(u) => format!("<a href=\"{}\" rel=\"noopener\">{title}</a>", esc(u)),
            None => title,
        };
        let meta: Vec<String> = [
            s(it, "author").map(str::to_string),
            it.get("year")
                .and_then(Value::as_i64)
                .map(|y| y.to_string()),
            s(it, "type").map(str::to_string),
        ]
        .into_iter()
        .flatten()
        .collect();
        let _ = write!(
            out,
            "<li>{head} <span class=\"meta\">{}</span></li>",
            esc(&meta.join(" · "))
        );
    }
    out.push_str("</ul>");
    out
}

/// The answer text escaped, `**bold**` as `<strong>`, and each marker `[n]`
/// a link to citation n (when it exists).
pub fn markup(text: &str, hrefs: &[Option<String>]) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let (before, tail) = rest.split_at(open);
        out.push_str(&bold(&esc(before)));
        let close = tail.find(']');
        let digits = close.map(|c| &tail[1..c]);
        match digits {
            Some(d) if !d.is_empty() && d.len() <= 3 && d.bytes().all(|b| b.is_ascii_digit()) => {
                let n: usize = d.parse().unwrap_or(0);
                match n
                    .checked_sub(1)
                    .and_then(|i| hrefs.get(i))
                    .cloned()
                    .flatten()
                {
                    Some(h) => {
                        let _ = write!(
                            out,
                            "<a class=\"marker\" href=\"{}\" aria-label=\"Source {n}\">[{n}]</a>",
                            esc(&h)
                        );
                    }
                    None => {
                        let _ = write!(out, "[{n}]");
                    }
                }
                rest = &tail[d.len() + 2..];
            }
            _ => {
                out.push('[');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(&bold(&esc(rest)));
    out
}

/// `**x**` → `<strong>x</strong>` in already-escaped text (pairs only).
fn bold(escaped: &str) -> String {
    let pieces: Vec<&str> = escaped.split("**").collect();
    if pieces.len() < 3 {
        return escaped.to_string();
    }
    let mut out = String::new();
    let pairs = (pieces.len() - 1) / 2 * 2;
    for (i, p) in pieces.iter().enumerate() {
        if i > 0 {
            if i <= pairs {
                out.push_str(if i % 2 == 1 { "<strong>" } else { "</strong>" });
            } else {
                out.push_str("**");
            }
        }
        out.push_str(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_become_links_and_text_is_escaped() {
        let hrefs = vec![Some("/document?id=a&hl=x".to_string()), None];
        let m = markup("<b>x</b> [1] [2] [x] [9999] [", &hrefs);
        assert!(m.starts_with("&lt;b&gt;x&lt;/b&gt; "));
        assert!(m.contains(
            "<a class=\"marker\" href=\"/document?id=a&amp;hl=x\" aria-label=\"Source 1\">[1]</a>"
        ));
        assert!(m.contains(" [2] [x] [9999] ["));
    }

    #[test]
    fn bold_pairs() {
        assert_eq!(bold("**a** b **c"), "<strong>a</strong> b **c");
        assert_eq!(bold("no"), "no");
    }
}
