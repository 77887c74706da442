//! The start page: what the console offers, and today's readings a click away.

use crate::html::esc;
use crate::layout::{Ctx, Page};
use crate::ConsoleState;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use std::fmt::Write;

/// `GET /`.
pub async fn handler(State(state): State<ConsoleState>, ctx: Ctx) -> Response {
    let reg = state.registry();
    let title = ctx.t("app.name");
    let mut body = format!(
        "<h1>{title}</h1><p>{}</p><ul class=\"cards\">",
        ctx.t("home.intro")
    );
    let cards: [(&str, &str, &[&str]); 6] = [
        ("/readings", "nav.readings", &["liturgical_readings"]),
        ("/calendar", "calendar.title", &["liturgical_readings"]),
        ("/ask", "ask.title", &["catholic_qa"]),
        (
            "/lookup",
            "lookup.title",
            &[
                "saint_lookup",
                "pope_lookup",
                "person_lookup",
                "diocese_lookup",
            ],
        ),
        ("/search", "search.title", &["document_search"]),
        ("/explorer", "explorer.title", &[]),
    ];
    for (href, key, skills) in cards {
        let on = skills.is_empty() || skills.iter().any(|s| reg.get(s).is_some());
        let _ = write!(
            body,
            "<li><h2><a href=\"{}\">{}</a></h2>{}</li>",
            esc(&ctx.link(href, &[])),
            ctx.t(key),
            if on {
                String::new()
            } else {
                format!("<p class=\"meta\">{}</p>", ctx.t("unavailable"))
            }
        );
    }
    body.push_str("</ul>");
    let today = state.today().format("%Y-%m-%d").to_string();
    let _ = write!(
        body,
        "<form class=\"panel\" method=\"get\" action=\"/readings\"><div class=\"field\"><label for=\"f-date\">{}</label><input id=\"f-date\" type=\"date\" name=\"date\" value=\"{today}\"></div>{}<div><button type=\"submit\">{}</button></div></form>",
        ctx.t("form.date"),
        if ctx.explicit { format!("<input type=\"hidden\" name=\"lang\" value=\"{}\">", ctx.lang.code()) } else { String::new() },
        ctx.t("form.show")
    );
    Page::for_ctx(&ctx, title, "home", body).into_response()
}
