//! The Roman Martyrology of a day (English 1908 or Latin 1749), linked from
//! the readings.

use crate::error::ConsoleError;
use crate::html::{esc, paragraphs, select};
use crate::layout::{Ctx, Page};
use crate::params::{Params, MAX_QUERY_CHARS};
use crate::skills::{self, s};
use crate::ConsoleState;
use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use serde_json::json;
use std::fmt::Write;

/// The skill behind the page.
pub const SKILL: &str = "saints_of_the_day";
/// Exact text of the skill when a date has no entry.
pub const NO_MARTYROLOGY: &str = "No martyrology data found.";

/// `GET /martyrology?date=&q=&language=en|la`.
pub async fn handler(State(state): State<ConsoleState>, ctx: Ctx, uri: Uri) -> Response {
    let r = page(&state, &ctx, &uri).await;
    crate::respond(&ctx, r)
}

async fn page(state: &ConsoleState, ctx: &Ctx, uri: &Uri) -> Result<Page, ConsoleError> {
    let p = Params::from_uri(uri)?;
    let date = p.short("date")?;
    if let Some(d) = &date {
        chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
            .map_err(|_| ConsoleError::BadInput("the date must be written YYYY-MM-DD".into()))?;
    }
    let phrase = p.get("q", MAX_QUERY_CHARS)?;
    let language = p
        .choice("language", &["en", "la"])?
        .unwrap_or_else(|| "en".into());
    let title = ctx.t("martyrology.title");
    let mut body = format!("<h1>{title}</h1>");
    let _ = write!(
        body,
        "<form class=\"panel\" method=\"get\" action=\"/martyrology\"><div class=\"field\"><label for=\"f-date\">{}</label><input id=\"f-date\" type=\"date\" name=\"date\" value=\"{}\"></div><div class=\"field\"><label for=\"f-q\">{}</label><input id=\"f-q\" name=\"q\" maxlength=\"{MAX_QUERY_CHARS}\" value=\"{}\"></div><div class=\"field\">{}</div>{}<div><button type=\"submit\">{}</button></div></form>",
        ctx.t("form.date"),
        esc(date.as_deref().unwrap_or("")),
        ctx.t("form.phrase"),
        esc(phrase.as_deref().unwrap_or("")),
        select(
            "language",
            ctx.t("form.language"),
            &[("en".into(), "English (1908)".into()), ("la".into(), "Latina (1749)".into())],
            &language
        ),
        if ctx.explicit { format!("<input type=\"hidden\" name=\"lang\" value=\"{}\">", ctx.lang.code()) } else { String::new() },
        ctx.t("form.show")
    );
    if state.registry().get(SKILL).is_none() {
        let _ = write!(
            body,
            "<p class=\"error\" role=\"status\">{}</p>",
            ctx.t("unavailable")
        );
        return Ok(Page::for_ctx(ctx, title, "readings", body)
            .status(axum::http::StatusCode::SERVICE_UNAVAILABLE));
    }
    let visitor = state.admit(ctx, SKILL).await?;
    let asked = date.or(phrase).unwrap_or_else(|| "today".into());
    let answer = skills::call(
        state,
        &visitor,
        SKILL,
        skills::data(json!({"date": asked, "language": language})),
    )
    .await?;
    let text = answer.text().unwrap_or_default();
    let data = answer.data();
    if text == NO_MARTYROLOGY || data.is_empty() {
        let _ = write!(body, "<p role=\"status\">{}</p>", esc(NO_MARTYROLOGY));
    } else {
        if let Some(d) = s(&data, "date") {
            let _ = write!(
                body,
                "<p><a href=\"{}\">{}</a></p>",
                esc(&ctx.link("/readings", &[("date", d)])),
                ctx.t("readings.title")
            );
        }
        if let Some(ed) = s(&data, "edition") {
            let _ = write!(body, "<p class=\"meta\">{}</p>", esc(ed));
        }
        let _ = write!(
            body,
            "<article class=\"martyrology\" lang=\"{}\">{}</article>",
            if language == "la" { "la" } else { "en" },
            paragraphs(&text)
        );
    }
    Ok(Page::for_ctx(ctx, title, "readings", body))
}
