//! The year at a glance: a month grid for any month of any year, each day in
//! its liturgical colour with its celebration (solemnities and feasts stand
//! out), previous/next links (← → with the script), and the iCalendar feed.

use super::readings::{Lists, SKILL};
use super::{class_token, humanize};
use crate::error::ConsoleError;
use crate::html::{esc, select};
use crate::layout::{Ctx, Page};
use crate::params::Params;
use crate::skills;
use crate::ConsoleState;
use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use chrono::{Datelike, NaiveDate};
use serde_json::json;
use std::fmt::Write;

/// Years the grid accepts (the Gregorian calendar onwards, bounded).
pub const YEARS: (i64, i64) = (1583, 4099);

/// One day of the grid, from the readings skill's data part.
#[derive(Debug, Clone, Default)]
pub struct GridDay {
    /// The date.
    pub date: Option<NaiveDate>,
    /// Principal celebration.
    pub celebration: String,
    /// Rank code (`SOLEMNITY` …).
    pub rank: String,
    /// Colour code (`WHITE` …).
    pub color: String,
}

/// `GET /calendar?year=&month=&calendar=`.
pub async fn handler(State(state): State<ConsoleState>, ctx: Ctx, uri: Uri) -> Response {
    let r = page(&state, &ctx, &uri).await;
    crate::respond(&ctx, r)
}

/// The first day of the month and the number of days in it.
pub fn month_bounds(year: i32, month: u32) -> Option<(NaiveDate, u32)> {
    let first = NaiveDate::from_ymd_opt(year, month, 1)?;
    let next = if month == 12 {
        NaiveDate::from_ymd_opt(year + 1, 1, 1)?
    } else {
        NaiveDate::from_ymd_opt(year, month + 1, 1)?
    };
    Some((first, (next - first).num_days() as u32))
}

fn shift(year: i32, month: u32, by: i32) -> (i32, u32) {
    let idx = year * 12 + month as i32 - 1 + by;
    (idx.div_euclid(12), (idx.rem_euclid(12) + 1) as u32)
}

async fn page(state: &ConsoleState, ctx: &Ctx, uri: &Uri) -> Result<Page, ConsoleError> {
    let p = Params::from_uri(uri)?;
    let year = p.int("year", YEARS.0, YEARS.1)?;
    let month = p.int("month", 1, 12)?;
    let lists: Lists = state.lists().await;
    let calendar = lists.check_calendar(p.short("calendar")?, &state.opts.default_calendar)?;
    // One admission for the page: "today" and each day of the grid are asked for this visitor.
    let served = state.registry().get(SKILL).is_some();
    let visitor = match served {
        true => Some(state.admit(ctx, SKILL).await?),
        false => None,
    };
    let today = state.today(visitor.as_ref()).await;
    let year = year.unwrap_or(today.year() as i64) as i32;
    let month = month.unwrap_or(today.month() as i64) as u32;
    let (first, days) =
        month_bounds(year, month).ok_or_else(|| ConsoleError::BadInput("no such month".into()))?;
    let title = crate::i18n::month_year(ctx.lang, year, month);
    let mut body = format!("<h1>{} — {}</h1>\n", ctx.t("calendar.title"), esc(&title));
    // The chooser (GET; no script needed).
    let months: Vec<(String, String)> = (1..=12)
        .map(|m| {
            (
                m.to_string(),
                crate::i18n::month_name(ctx.lang, m).to_string(),
            )
        })
        .collect();
    let _ = write!(
        body,
        "<form class=\"panel\" method=\"get\" action=\"/calendar\"><div class=\"field\">{}</div><div class=\"field\"><label for=\"f-year\">{}</label><input id=\"f-year\" name=\"year\" type=\"number\" min=\"{}\" max=\"{}\" value=\"{year}\" required></div>",
        select("month", ctx.t("calendar.month"), &months, &month.to_string()),
        ctx.t("calendar.year"),
        YEARS.0,
        YEARS.1
    );
    if !lists.calendars.is_empty() {
        let _ = write!(
            body,
            "<div class=\"field\">{}</div>",
            select(
                "calendar",
                ctx.t("form.calendar"),
                &lists.calendar_options(),
                &calendar
            )
        );
    }
    if ctx.explicit {
        let _ = write!(
            body,
            "<input type=\"hidden\" name=\"lang\" value=\"{}\">",
            ctx.lang.code()
        );
    }
    let _ = write!(
        body,
        "<div><button type=\"submit\">{}</button></div></form>",
        ctx.t("form.show")
    );
    // Prev / next.
    let link = |(y, m): (i32, u32)| {
        ctx.link(
            "/calendar",
            &[
                ("year", &y.to_string()),
                ("month", &m.to_string()),
                ("calendar", &calendar),
            ],
        )
    };
    let (py, pm) = shift(year, month, -1);
    let (ny, nm) = shift(year, month, 1);
    let mut nav = String::from("<nav class=\"monthnav\" aria-label=\"Months\">");
    if py >= YEARS.0 as i32 {
        let _ = write!(
            nav,
            "<a id=\"prev-month\" rel=\"prev\" href=\"{}\" aria-keyshortcuts=\"ArrowLeft\">← {} ({})</a>",
            esc(&link((py, pm))),
            ctx.t("calendar.prev"),
            crate::i18n::month_year(ctx.lang, py, pm)
        );
    }
    if ny <= YEARS.1 as i32 {
        let _ = write!(
            nav,
            "<a id=\"next-month\" rel=\"next\" href=\"{}\" aria-keyshortcuts=\"ArrowRight\">{} ({}) →</a>",
            esc(&link((ny, nm))),
            ctx.t("calendar.next"),
            crate::i18n::month_year(ctx.lang, ny, nm)
        );
    }
    nav.push_str("</nav>");
    body.push_str(&nav);
    let _ = write!(body, "<p class=\"help\">{}</p>", ctx.t("calendar.keys"));
    let Some(visitor) = visitor else {
        let _ = write!(
            body,
            "<p class=\"error\" role=\"status\">{}</p>",
            ctx.t("unavailable")
        );
        return Ok(Page::for_ctx(ctx, &title, "calendar", body)
            .status(axum::http::StatusCode::SERVICE_UNAVAILABLE));
    };
    // Each day from the skill.
    let mut grid = Vec::with_capacity(days as usize);
    for i in 0..days {
        let date = first + chrono::Duration::days(i as i64);
        let parts = skills::data(
            json!({"date": date.format("%Y-%m-%d").to_string(), "calendar": calendar}),
        );
        let answer = skills::call(state, &visitor, SKILL, parts).await?;
        let facts = super::readings::DayFacts::of(&answer.data());
        grid.push(GridDay {
            date: Some(date),
            celebration: facts.title,
            rank: facts.rank,
            color: facts.colour,
        });
    }
    body.push_str(&grid_html(ctx, &title, &grid, &calendar, today));
    // The feed.
    if let Some(ics) = &state.opts.ics_path {
        let last = first + chrono::Duration::days(days as i64 - 1);
        let feed = format!(
            "{ics}{}",
            crate::html::query(&[
                ("calendar", &calendar),
                ("from", &first.format("%Y-%m-%d").to_string()),
                ("to", &last.format("%Y-%m-%d").to_string()),
            ])
        );
        let year_feed = format!(
            "{ics}{}",
            crate::html::query(&[
                ("calendar", &calendar),
                ("from", &format!("{year}-01-01")),
                ("to", &format!("{year}-12-31")),
            ])
        );
        let _ = write!(
            body,
            "<p><a class=\"ics\" href=\"{}\" type=\"text/calendar\">{}</a> · <a href=\"{}\" type=\"text/calendar\">{year}</a></p>",
            esc(&feed),
            ctx.t("calendar.ics"),
            esc(&year_feed)
        );
    }
    Ok(Page::for_ctx(ctx, &title, "calendar", body).body_attrs("data-page=\"calendar\"".into()))
}

/// The table: weeks from Sunday, one cell a day.
pub fn grid_html(
    ctx: &Ctx,
    caption: &str,
    days: &[GridDay],
    calendar: &str,
    today: NaiveDate,
) -> String {
    let Some(first) = days.first().and_then(|d| d.date) else {
        return String::new();
    };
    let lead = first.weekday().num_days_from_sunday() as usize;
    let mut s = format!(
        "<table class=\"month\" id=\"month-grid\"><caption>{}</caption><thead><tr>",
        esc(caption)
    );
    for d in 0..7 {
        let _ = write!(
            s,
            "<th scope=\"col\"><abbr title=\"{}\">{}</abbr></th>",
            crate::i18n::weekday_name(ctx.lang, d),
            crate::i18n::weekday_short(ctx.lang, d)
        );
    }
    s.push_str("</tr></thead><tbody><tr>");
    for _ in 0..lead {
        s.push_str("<td class=\"empty\"></td>");
    }
    let mut col = lead;
    for day in days {
        let Some(date) = day.date else { continue };
        if col == 7 {
            s.push_str("</tr><tr>");
            col = 0;
        }
        let iso = date.format("%Y-%m-%d").to_string();
        let is_today = if date == today { " today" } else { "" };
        let current = if date == today {
            " aria-current=\"date\""
        } else {
            ""
        };
        let _ = write!(
            s,
            "<td class=\"c-{c} rank-{r}{is_today}\" data-date=\"{iso}\" data-color=\"{c}\"{current}><a class=\"num\" href=\"{href}\"><time datetime=\"{iso}\">{n}</time><span class=\"visually-hidden\"> {wd}</span></a><span class=\"cel\">{cel}</span><span class=\"meta\"> · {col_name}{rank}</span></td>",
            c = class_token(&day.color),
            r = class_token(&day.rank),
            href = esc(&ctx.link("/readings", &[("date", &iso), ("calendar", calendar)])),
            n = date.day(),
            wd = crate::i18n::weekday_name(ctx.lang, date.weekday().num_days_from_sunday()),
            cel = esc(&day.celebration),
            col_name = esc(&humanize(&day.color)),
            rank = match day.rank.as_str() {
                "SOLEMNITY" | "FEAST" => format!(" · {}", esc(&humanize(&day.rank))),
                _ => String::new(),
            },
        );
        col += 1;
    }
    for _ in col..7 {
        s.push_str("<td class=\"empty\"></td>");
    }
    s.push_str("</tr></tbody></table>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_shift_across_years() {
        assert_eq!(shift(2026, 12, 1), (2027, 1));
        assert_eq!(shift(2026, 1, -1), (2025, 12));
        assert_eq!(month_bounds(2026, 6).map(|b| b.1), Some(30));
        assert_eq!(month_bounds(2028, 2).map(|b| b.1), Some(29));
        assert!(month_bounds(2026, 13).is_none());
    }
}
