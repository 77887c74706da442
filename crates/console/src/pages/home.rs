//! The start page: today first (the celebration and its colour, the readings, the
//! Martyrology, the coming feasts, for the visitor's calendar and the server's time zone),
//! then what the console offers.

use crate::gate::Visitor;
use crate::html::{esc, select};
use crate::layout::{Ctx, Page};
use crate::params::Params;
use crate::skills::{self, s};
use crate::ConsoleState;
use axum::extract::State;
use axum::http::Uri;
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde_json::{json, Map, Value};
use std::fmt::Write;

use super::readings::DayFacts;
use super::{class_token, humanize};

/// How far ahead the coming feasts are looked for, and how many are shown.
const LOOK_AHEAD_DAYS: i64 = 30;
const COMING_SHOWN: usize = 5;
/// Martyrology entries shown on the page (the rest a click away).
const MARTYROLOGY_SHOWN: usize = 3;

/// `GET /?calendar=`.
pub async fn handler(State(state): State<ConsoleState>, ctx: Ctx, uri: Uri) -> Response {
    let calendar = match Params::from_uri(&uri).and_then(|p| p.short("calendar")) {
        Ok(c) => c,
        Err(e) => return crate::respond(&ctx, Err(e)),
    };
    let lists = state.lists().await;
    let calendar = match lists.check_calendar(calendar, &state.opts.default_calendar) {
        Ok(c) => c,
        Err(e) => return crate::respond(&ctx, Err(e)),
    };
    let title = ctx.t("app.name");
    let mut body = format!("<h1>{title}</h1>");
    let (section, found) = today_section(&state, &ctx, &lists, &calendar).await;
    body.push_str(&section);
    let _ = write!(body, "<p>{}</p><ul class=\"cards\">", ctx.t("home.intro"));
    body.push_str(&cards(&state, &ctx));
    body.push_str("</ul>");
    // The day the readings skill called today (the server's time zone), unless the options
    // fix one; else the console's own (UTC).
    let today = match found {
        Some(d) if state.opts.today.is_none() => d,
        _ => state.today(None).await,
    };
    let today = today.format("%Y-%m-%d").to_string();
    let _ = write!(
        body,
        "<form class=\"panel\" method=\"get\" action=\"/readings\"><div class=\"field\"><label for=\"f-date\">{}</label><input id=\"f-date\" type=\"date\" name=\"date\" value=\"{today}\"></div>{}<div><button type=\"submit\">{}</button></div></form>",
        ctx.t("form.date"),
        if ctx.explicit { format!("<input type=\"hidden\" name=\"lang\" value=\"{}\">", ctx.lang.code()) } else { String::new() },
        ctx.t("form.show")
    );
    Page::for_ctx(&ctx, title, "home", body).into_response()
}

/// The links to every page, each marked when its skill is not served.
fn cards(state: &ConsoleState, ctx: &Ctx) -> String {
    let reg = state.registry();
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
    let mut out = String::new();
    for (href, key, skills) in cards {
        let on = skills.is_empty() || skills.iter().any(|s| reg.get(s).is_some());
        let _ = write!(
            out,
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
    out
}

/// Today's day: asked of the readings skill as "today", so that the day follows the
/// server's configured time zone, not the console's clock; with the day found. Empty when
/// the skill is not served or fails (the rest of the page still works).
async fn today_section(
    state: &ConsoleState,
    ctx: &Ctx,
    lists: &super::readings::Lists,
    calendar: &str,
) -> (String, Option<NaiveDate>) {
    const SKILL: &str = "liturgical_readings";
    if state.registry().get(SKILL).is_none() {
        return (String::new(), None);
    }
    let Ok(visitor) = state.admit(ctx, SKILL).await else {
        return (String::new(), None);
    };
    let Ok(answer) = skills::call(
        state,
        &visitor,
        SKILL,
        skills::data(json!({"date": "today", "calendar": calendar})),
    )
    .await
    else {
        return (String::new(), None);
    };
    let d = answer.data();
    let Some(date) = s(&d, "date").and_then(|x| NaiveDate::parse_from_str(x, "%Y-%m-%d").ok())
    else {
        return (String::new(), None);
    };
    let facts = DayFacts::of(&d);
    let iso = date.format("%Y-%m-%d").to_string();
    let mut out =
        String::from("<section class=\"today\" id=\"today\" aria-labelledby=\"today-h\">");
    let _ = write!(
        out,
        "<h2 id=\"today-h\"><span class=\"swatch c-{}\" aria-hidden=\"true\"></span>{} · {}</h2>",
        class_token(&facts.colour),
        ctx.t("home.today"),
        esc(&facts.title)
    );
    let _ = write!(
        out,
        "<p class=\"date\"><time datetime=\"{iso}\">{}</time> · {} · {} · {}</p>",
        esc(&crate::i18n::date_long(ctx.lang, date)),
        esc(&facts.rank_label()),
        esc(&humanize(&facts.colour)),
        esc(&humanize(s(&d, "season").unwrap_or("")))
    );
    if !lists.calendars.is_empty() {
        let _ = write!(
            out,
            "<form class=\"panel\" method=\"get\" action=\"/\"><div class=\"field\">{}</div>{}<div><button type=\"submit\">{}</button></div></form>",
            select("calendar", ctx.t("form.calendar"), &lists.calendar_options(), calendar),
            if ctx.explicit { format!("<input type=\"hidden\" name=\"lang\" value=\"{}\">", ctx.lang.code()) } else { String::new() },
            ctx.t("form.show")
        );
    }
    out.push_str(&readings_list(ctx, &d, &iso, calendar));
    out.push_str(&martyrology(state, ctx, &iso).await);
    out.push_str(&coming(state, &visitor, ctx, date, calendar).await);
    out.push_str("</section>");
    (out, Some(date))
}

/// The day's readings, by their citations, linked to the full texts.
fn readings_list(ctx: &Ctx, d: &Map<String, Value>, iso: &str, calendar: &str) -> String {
    let items: Vec<String> = d
        .get("readings")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .filter_map(|r| {
            let cite = s(r, "citation")?;
            Some(format!(
                "<li>{} — {}</li>",
                esc(s(r, "kind").unwrap_or("")),
                esc(cite)
            ))
        })
        .collect();
    if items.is_empty() {
        return String::new();
    }
    format!(
        "<h3>{}</h3><ul class=\"today-readings\">{}</ul><p><a href=\"{}\">{}</a></p>",
        ctx.t("readings.title"),
        items.concat(),
        esc(&ctx.link("/readings", &[("date", iso), ("calendar", calendar)])),
        ctx.t("home.all_readings")
    )
}

/// The first entries of the day's Martyrology, linked to the whole.
async fn martyrology(state: &ConsoleState, ctx: &Ctx, iso: &str) -> String {
    const SKILL: &str = "saints_of_the_day";
    if state.registry().get(SKILL).is_none() {
        return String::new();
    }
    let Ok(visitor) = state.admit(ctx, SKILL).await else {
        return String::new();
    };
    let Ok(answer) = skills::call(state, &visitor, SKILL, skills::data(json!({"date": iso}))).await
    else {
        return String::new();
    };
    let text = answer.text().unwrap_or_default();
    let entries: Vec<String> = text
        .split("\n\n")
        .skip(1)
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .take(MARTYROLOGY_SHOWN)
        .map(|e| format!("<li>{}</li>", esc(e)))
        .collect();
    if entries.is_empty() {
        return String::new();
    }
    format!(
        "<h3>{}</h3><ul class=\"today-martyrology\">{}</ul><p><a href=\"{}\">{}</a></p>",
        ctx.t("martyrology.title"),
        entries.concat(),
        esc(&ctx.link("/martyrology", &[("date", iso)])),
        ctx.t("home.all_martyrology")
    )
}

/// The next feasts (solemnities and feasts; in the 1962 Missal, days of I and II class that
/// are not Sundays) in the coming month.
async fn coming(
    state: &ConsoleState,
    visitor: &Visitor,
    ctx: &Ctx,
    from: NaiveDate,
    calendar: &str,
) -> String {
    let mut items = Vec::new();
    for ahead in 1..=LOOK_AHEAD_DAYS {
        if items.len() >= COMING_SHOWN {
            break;
        }
        let Some(date) = from.checked_add_days(chrono::Days::new(ahead as u64)) else {
            break;
        };
        let iso = date.format("%Y-%m-%d").to_string();
        let Ok(answer) = skills::call(
            state,
            visitor,
            "liturgical_readings",
            skills::data(json!({"date": iso, "calendar": calendar})),
        )
        .await
        else {
            break;
        };
        let d = answer.data();
        let facts = DayFacts::of(&d);
        let feast = if facts.is_class {
            let latin = d
                .get("celebration")
                .and_then(Value::as_object)
                .and_then(|c| s(c, "title_la"))
                .unwrap_or("");
            (facts.rank == "I class" || facts.rank == "II class") && !latin.starts_with("Dominica")
        } else {
            matches!(facts.rank.as_str(), "SOLEMNITY" | "FEAST")
        };
        if feast {
            items.push(format!(
                "<li><time datetime=\"{iso}\">{}</time> — <a href=\"{}\">{}</a> <span class=\"meta\">({})</span></li>",
                esc(&crate::i18n::date_long(ctx.lang, date)),
                esc(&ctx.link("/readings", &[("date", &iso), ("calendar", calendar)])),
                esc(&facts.title),
                esc(&facts.rank_label())
            ));
        }
    }
    if items.is_empty() {
        return String::new();
    }
    format!(
        "<h3>{} <span class=\"meta\">({})</span></h3><ul class=\"coming\">{}</ul>",
        ctx.t("home.coming"),
        esc(&state.lists().await.label(calendar)),
        items.concat()
    )
}
