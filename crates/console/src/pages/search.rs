//! Document search with filters (type, author, language) and pagination;
//! each result opens the document.

use super::lang_attr;
use crate::error::ConsoleError;
use crate::html::{esc, esc_trunc, select};
use crate::layout::{Ctx, Page};
use crate::params::{Params, MAX_QUERY_CHARS};
use crate::skills::{self, s};
use crate::ConsoleState;
use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use serde_json::{Map, Value};
use std::fmt::Write;

/// The skill behind the page.
pub const SKILL: &str = "document_search";
/// Results a page.
pub const PER_PAGE: i64 = 10;
/// Deepest page (the skill returns at most 100 a call; we page with `offset`).
pub const MAX_PAGE: i64 = 50;

const TYPES: &[&str] = &[
    "encyclical",
    "apostolic-exhortation",
    "apostolic-constitution",
    "letter",
    "scripture",
    "catechism",
    "patristic",
    "theology",
    "commentary",
    "canon-law",
    "council",
];
const LANGUAGES: &[&str] = &["en", "la", "it", "fr", "es", "pt"];

/// `GET /search?q=&type=&author=&language=&page=`.
pub async fn handler(State(state): State<ConsoleState>, ctx: Ctx, uri: Uri) -> Response {
    let r = page(&state, &ctx, &uri).await;
    crate::respond(&ctx, r)
}

async fn page(state: &ConsoleState, ctx: &Ctx, uri: &Uri) -> Result<Page, ConsoleError> {
    let p = Params::from_uri(uri)?;
    let q = p.get("q", MAX_QUERY_CHARS)?;
    let doc_type = p.short("type")?;
    if let Some(t) = &doc_type {
        if !t
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(ConsoleError::BadInput(
                "the type is a single word such as encyclical".into(),
            ));
        }
    }
    let author = p.short("author")?;
    let language = p.choice("language", LANGUAGES)?;
    let page_no = p.int("page", 1, MAX_PAGE)?.unwrap_or(1);
    let title = ctx.t("search.title");
    let mut body = format!("<h1>{title}</h1>");
    let mut types: Vec<(String, String)> = vec![(String::new(), "—".into())];
    types.extend(
        TYPES
            .iter()
            .map(|t| (t.to_string(), super::humanize(&t.replace('-', " ")))),
    );
    if let Some(t) = &doc_type {
        if !TYPES.contains(&t.as_str()) {
            types.push((t.clone(), t.clone()));
        }
    }
    let mut langs: Vec<(String, String)> = vec![(String::new(), "—".into())];
    langs.extend(LANGUAGES.iter().map(|l| (l.to_string(), l.to_string())));
    let _ = write!(
        body,
        "<form class=\"panel\" method=\"get\" action=\"/search\" role=\"search\"><div class=\"field wide\"><label for=\"f-q\">{}</label><input id=\"f-q\" type=\"search\" name=\"q\" maxlength=\"{MAX_QUERY_CHARS}\" value=\"{}\" required></div><div class=\"field\">{}</div><div class=\"field\"><label for=\"f-author\">{}</label><input id=\"f-author\" name=\"author\" maxlength=\"100\" value=\"{}\"></div><div class=\"field\">{}</div>{}<div><button type=\"submit\">{}</button></div></form>",
        ctx.t("search.query"),
        esc(q.as_deref().unwrap_or("")),
        select("type", ctx.t("search.type"), &types, doc_type.as_deref().unwrap_or("")),
        ctx.t("search.author"),
        esc(author.as_deref().unwrap_or("")),
        select("language", ctx.t("search.language"), &langs, language.as_deref().unwrap_or("")),
        if ctx.explicit { format!("<input type=\"hidden\" name=\"lang\" value=\"{}\">", ctx.lang.code()) } else { String::new() },
        ctx.t("search.submit")
    );
    if state.registry().get(SKILL).is_none() {
        let _ = write!(
            body,
            "<p class=\"error\" role=\"status\" id=\"search-unavailable\">{}</p>",
            ctx.t("unavailable")
        );
        let status = if q.is_some() {
            axum::http::StatusCode::SERVICE_UNAVAILABLE
        } else {
            axum::http::StatusCode::OK
        };
        return Ok(Page::for_ctx(ctx, title, "search", body).status(status));
    }
    let Some(q) = q else {
        return Ok(Page::for_ctx(ctx, title, "search", body));
    };
    let visitor = state.admit(ctx, SKILL).await?;
    let mut req = Map::new();
    req.insert("query".into(), Value::String(q.clone()));
    req.insert("limit".into(), Value::from(PER_PAGE));
    req.insert("offset".into(), Value::from((page_no - 1) * PER_PAGE));
    if let Some(t) = &doc_type {
        req.insert("type".into(), Value::String(t.clone()));
    }
    if let Some(a) = &author {
        req.insert("author".into(), Value::String(a.clone()));
    }
    if let Some(l) = &language {
        req.insert("language".into(), Value::String(l.clone()));
    }
    let answer = skills::call(state, &visitor, SKILL, skills::data(Value::Object(req))).await?;
    let data = answer.data();
    let results: Vec<&Map<String, Value>> = data
        .get("results")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    let _ = write!(
        body,
        "<h2 id=\"results\">{}</h2>",
        esc(&format!("{} — {}", ctx.t("search.submit"), q))
    );
    if results.is_empty() {
        let _ = write!(body, "<p role=\"status\">{}</p>", ctx.t("search.none"));
    } else {
        let _ = write!(
            body,
            "<ol class=\"results\" start=\"{}\">",
            (page_no - 1) * PER_PAGE + 1
        );
        for r in &results {
            let Some(id) = s(r, "id") else { continue };
            let href = ctx.link(
                "/document",
                &[
                    ("id", id),
                    ("ref", ""),
                    ("at", s(r, "reference").unwrap_or("")),
                    ("hl", &plain_snippet(s(r, "snippet").unwrap_or(""))),
                ],
            );
            let meta: Vec<String> = [
                s(r, "author").map(str::to_string),
                r.get("year").and_then(Value::as_i64).map(|y| y.to_string()),
                s(r, "type").map(super::humanize),
                s(r, "reference").map(|x| format!("§ {x}")),
                s(r, "language").map(str::to_string),
            ]
            .into_iter()
            .flatten()
            .collect();
            let _ = write!(
                body,
                "<li><a class=\"result\" href=\"{}#cited\">{}</a><div class=\"meta\">{}</div>{}</li>",
                esc(&href),
                esc(s(r, "title").unwrap_or(id)),
                esc(&meta.join(" · ")),
                s(r, "snippet")
                    .map(|sn| format!("<blockquote{}>{}</blockquote>", lang_attr(s(r, "language")), snippet_html(sn)))
                    .unwrap_or_default()
            );
        }
        body.push_str("</ol>");
    }
    // Pagination.
    let more =
        data.get("next_offset").is_some_and(|v| !v.is_null()) && results.len() as i64 == PER_PAGE;
    let link = |n: i64| {
        ctx.link(
            "/search",
            &[
                ("q", &q),
                ("type", doc_type.as_deref().unwrap_or("")),
                ("author", author.as_deref().unwrap_or("")),
                ("language", language.as_deref().unwrap_or("")),
                ("page", &n.to_string()),
            ],
        )
    };
    body.push_str("<nav class=\"monthnav\" aria-label=\"Pages\">");
    if page_no > 1 {
        let _ = write!(
            body,
            "<a rel=\"prev\" href=\"{}\">← {}</a>",
            esc(&link(page_no - 1)),
            ctx.t("search.prev")
        );
    }
    let _ = write!(body, "<span>{page_no}</span>");
    if more && page_no < MAX_PAGE {
        let _ = write!(
            body,
            "<a rel=\"next\" id=\"next-page\" href=\"{}\">{} →</a>",
            esc(&link(page_no + 1)),
            ctx.t("search.next")
        );
    }
    body.push_str("</nav>");
    Ok(Page::for_ctx(ctx, title, "search", body))
}

/// The snippet without its `**` match markers, to find it in the document.
fn plain_snippet(sn: &str) -> String {
    sn.replace("**", "").chars().take(600).collect()
}

/// The snippet escaped, its `**match**` markers as `<mark>`.
fn snippet_html(sn: &str) -> String {
    let e = esc_trunc(sn, 800);
    let pieces: Vec<&str> = e.split("**").collect();
    let mut out = String::new();
    for (i, p) in pieces.iter().enumerate() {
        if i > 0 {
            out.push_str(if i % 2 == 1 { "<mark>" } else { "</mark>" });
        }
        out.push_str(p);
    }
    if pieces.len() % 2 == 0 {
        out.push_str("</mark>");
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn snippets() {
        assert_eq!(
            super::snippet_html("a **b** <c>"),
            "a <mark>b</mark> &lt;c&gt;"
        );
        assert_eq!(super::snippet_html("a **b"), "a <mark>b</mark>");
        assert_eq!(super::plain_snippet("a **b**"), "a b");
    }
}
