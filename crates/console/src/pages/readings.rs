//! Readings: a date phrase or a date picker, the calendar and the
//! translation; the day's celebration, rank, colour, season and the readings
//! with their text, the options and the other Masses. A GET form: works
//! without JavaScript.

use super::{class_token, humanize};
use crate::error::ConsoleError;
use crate::html::{esc, select};
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
pub const SKILL: &str = "liturgical_readings";
/// Exact text of the skill when a date has no readings.
pub const NO_READINGS: &str = "No mass readings found.";

/// The calendars and translations the skill offers, with their labels.
#[derive(Debug, Clone, Default)]
pub struct Lists {
    /// Calendar ids (`general-roman`, `1962`, the nations by name, the dioceses).
    pub calendars: Vec<String>,
    /// Translation ids (`cpdv`, `douay-rheims`).
    pub translations: Vec<String>,
    /// Id → label, for both.
    labels: std::collections::HashMap<String, String>,
}

impl Lists {
    /// Ask the skill which values its `calendar` and `translation` fields take.
    pub async fn probe(state: &ConsoleState) -> Lists {
        let registry = state.registry();
        let Some(skill) = registry.get(SKILL) else {
            return Lists::default();
        };
        let mut lists = Lists::default();
        for c in skill.choices("calendar") {
            lists.calendars.push(c.id.clone());
            lists.labels.insert(c.id, c.label);
        }
        for c in skill.choices("translation") {
            lists.translations.push(c.id.clone());
            lists.labels.insert(c.id, c.label);
        }
        lists
    }

    /// A calendar's or translation's label (its id when unknown).
    pub fn label(&self, id: &str) -> String {
        self.labels
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_string())
    }

    /// (id, label) pairs of the calendars, in the skill's order.
    pub fn calendar_options(&self) -> Vec<(String, String)> {
        self.calendars
            .iter()
            .map(|c| (c.clone(), self.label(c)))
            .collect()
    }

    /// (id, label) pairs of the translations.
    pub fn translation_options(&self) -> Vec<(String, String)> {
        self.translations
            .iter()
            .map(|t| (t.clone(), self.label(t)))
            .collect()
    }

    /// A calendar id from the page, checked against the list (400 when unknown).
    pub fn check_calendar(&self, c: Option<String>, default: &str) -> Result<String, ConsoleError> {
        let c = c.unwrap_or_else(|| default.to_string());
        if self.calendars.is_empty() || self.calendars.contains(&c) {
            Ok(c)
        } else {
            Err(ConsoleError::BadInput(format!(
                "unknown calendar; choose one of: {}",
                self.calendars.join(", ")
            )))
        }
    }

    /// A translation id from the page, checked against the list (400 when unknown).
    pub fn check_translation(&self, t: Option<String>) -> Result<Option<String>, ConsoleError> {
        match t {
            Some(t) if !self.translations.is_empty() && !self.translations.contains(&t) => {
                Err(ConsoleError::BadInput(format!(
                    "unknown translation; choose one of: {}",
                    self.translations.join(", ")
                )))
            }
            other => Ok(other),
        }
    }
}

/// The day's title, rank and colour, from either shape of the readings data part: the
/// General Roman Calendar's (`celebration`, `rank`, `color` strings) or the 1962 Missal's
/// (`celebration` {`title`, `class`, `colour`}).
pub struct DayFacts {
    /// The celebration's title.
    pub title: String,
    /// The rank (`SOLEMNITY`) or class (`I class`).
    pub rank: String,
    /// The colour (`VIOLET`, `violet`).
    pub colour: String,
    /// True for the 1962 Missal's classes (shown as they are: "II class").
    pub is_class: bool,
}

impl DayFacts {
    /// Read the facts of a data part.
    pub fn of(d: &Map<String, Value>) -> DayFacts {
        if let Some(c) = d.get("celebration").and_then(Value::as_object) {
            return DayFacts {
                title: s(c, "title").unwrap_or("").to_string(),
                rank: s(c, "class")
                    .map(|k| format!("{k} class"))
                    .unwrap_or_default(),
                colour: s(c, "colour").unwrap_or("").to_uppercase(),
                is_class: true,
            };
        }
        DayFacts {
            title: s(d, "celebration").unwrap_or("").to_string(),
            rank: s(d, "rank").unwrap_or("").to_string(),
            colour: s(d, "color").unwrap_or("").to_string(),
            is_class: false,
        }
    }

    /// The rank as a reader sees it ("Solemnity", "II class").
    pub fn rank_label(&self) -> String {
        if self.is_class {
            self.rank.clone()
        } else {
            humanize(&self.rank)
        }
    }
}

/// The 1962 Missal's extras: Latin title, commemorations, the Latin proper (empty for other
/// calendars).
fn render_1962(d: &Map<String, Value>) -> String {
    let Some(c) = d.get("celebration").and_then(Value::as_object) else {
        return String::new();
    };
    let mut out = String::new();
    if let Some(la) = s(c, "title_la") {
        let _ = write!(out, "<p lang=\"la\" class=\"latin-title\">{}</p>", esc(la));
    }
    let comms: Vec<String> = d
        .get("commemorations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .filter_map(|m| s(m, "title").map(|t| format!("<li>{}</li>", esc(t))))
        .collect();
    if !comms.is_empty() {
        let _ = write!(
            out,
            "<h3>Commemorations</h3><ul class=\"celebrations\">{}</ul>",
            comms.concat()
        );
    }
    let parts: Vec<String> = d
        .get("proper")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .filter_map(|p| {
            Some(format!(
                "<h4>{}</h4><p lang=\"la\" class=\"proper\">{}</p>",
                esc(s(p, "part")?),
                esc(s(p, "latin")?).replace('\n', "<br>")
            ))
        })
        .collect();
    if !parts.is_empty() {
        let _ = write!(
            out,
            "<details class=\"proper\"><summary>Proper of the Mass (Latin)</summary>{}</details>",
            parts.concat()
        );
    }
    out
}

/// `GET /readings?q=&date=&calendar=&translation=`.
pub async fn handler(State(state): State<ConsoleState>, ctx: Ctx, uri: Uri) -> Response {
    let r = page(&state, &ctx, &uri).await;
    crate::respond(&ctx, r)
}

async fn page(state: &ConsoleState, ctx: &Ctx, uri: &Uri) -> Result<Page, ConsoleError> {
    let p = Params::from_uri(uri)?;
    let phrase = p.get("q", MAX_QUERY_CHARS)?;
    let date = p.short("date")?;
    if let Some(d) = &date {
        chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
            .map_err(|_| ConsoleError::BadInput("the date must be written YYYY-MM-DD".into()))?;
    }
    let lists = state.lists().await;
    let calendar = lists.check_calendar(p.short("calendar")?, &state.opts.default_calendar)?;
    let translation = lists.check_translation(p.short("translation")?)?;
    let available = state.registry().get(SKILL).is_some();
    let asked = date.clone().or(phrase.clone());
    let mut body = format!("<h1>{}</h1>\n", ctx.t("readings.title"));
    body.push_str(&form(
        ctx,
        &lists,
        phrase.as_deref(),
        date.as_deref(),
        &calendar,
        translation.as_deref(),
    ));
    if !available {
        body.push_str(&format!(
            "<p class=\"error\" role=\"status\">{}</p>",
            ctx.t("unavailable")
        ));
        return Ok(
            Page::for_ctx(ctx, ctx.t("readings.title"), "readings", body)
                .status(axum::http::StatusCode::SERVICE_UNAVAILABLE),
        );
    }
    let visitor = state.admit(ctx, SKILL).await?;
    let mut req = Map::new();
    req.insert(
        "date".into(),
        Value::String(asked.unwrap_or_else(|| "today".into())),
    );
    req.insert("calendar".into(), Value::String(calendar.clone()));
    if let Some(t) = &translation {
        req.insert("translation".into(), Value::String(t.clone()));
    }
    let answer = skills::call(state, &visitor, SKILL, skills::data(Value::Object(req))).await?;
    let data = answer.data();
    let title;
    if data.is_empty() || answer.text().as_deref() == Some(NO_READINGS) {
        title = ctx.t("readings.title").to_string();
        body.push_str(&format!(
            "<p role=\"status\">{}</p>",
            ctx.t("day.no_readings")
        ));
    } else {
        title = DayFacts::of(&data).title;
        let label = lists.label(&calendar);
        body.push_str(&render_day(
            ctx,
            &data,
            (&calendar, &label),
            translation.as_deref(),
        ));
    }
    Ok(Page::for_ctx(ctx, &title, "readings", body))
}

fn form(
    ctx: &Ctx,
    lists: &Lists,
    phrase: Option<&str>,
    date: Option<&str>,
    calendar: &str,
    translation: Option<&str>,
) -> String {
    let mut f =
        String::from("<form class=\"panel\" method=\"get\" action=\"/readings\" role=\"search\">");
    let _ = write!(
        f,
        "<div class=\"field\"><label for=\"f-q\">{}</label><input id=\"f-q\" name=\"q\" type=\"text\" maxlength=\"{MAX_QUERY_CHARS}\" value=\"{}\" aria-describedby=\"f-q-help\" autocomplete=\"off\"><span id=\"f-q-help\" class=\"help\">{}</span></div>",
        ctx.t("form.phrase"),
        esc(phrase.unwrap_or("")),
        ctx.t("form.phrase.help")
    );
    let _ = write!(
        f,
        "<div class=\"field\"><label for=\"f-date\">{}</label><input id=\"f-date\" name=\"date\" type=\"date\" value=\"{}\"></div>",
        ctx.t("form.date"),
        esc(date.unwrap_or(""))
    );
    if !lists.calendars.is_empty() {
        let _ = write!(
            f,
            "<div class=\"field\">{}</div>",
            select(
                "calendar",
                ctx.t("form.calendar"),
                &lists.calendar_options(),
                calendar
            )
        );
    }
    if !lists.translations.is_empty() {
        let sel = translation.unwrap_or("cpdv");
        let _ = write!(
            f,
            "<div class=\"field\">{}</div>",
            select(
                "translation",
                ctx.t("form.translation"),
                &lists.translation_options(),
                sel
            )
        );
    }
    if ctx.explicit {
        let _ = write!(
            f,
            "<input type=\"hidden\" name=\"lang\" value=\"{}\">",
            ctx.lang.code()
        );
    }
    let _ = write!(
        f,
        "<div><button type=\"submit\">{}</button></div></form>",
        ctx.t("form.show")
    );
    f
}

fn render_readings(readings: Option<&Value>) -> String {
    let mut s = String::new();
    for r in readings.and_then(Value::as_array).into_iter().flatten() {
        let Some(r) = r.as_object() else { continue };
        let kind = r.get("kind").and_then(Value::as_str).unwrap_or("");
        let cite = r.get("citation").and_then(Value::as_str).unwrap_or("");
        let text = r.get("text").and_then(Value::as_str).unwrap_or("");
        let tr = r.get("translation").and_then(Value::as_str).unwrap_or("");
        let _ = write!(
            s,
            "<section class=\"reading\"><h3>{}</h3><p class=\"cite\">{}{}</p><div class=\"text\" lang=\"en\">{}</div></section>",
            esc(kind),
            esc(cite),
            if tr.is_empty() { String::new() } else { format!(" · {}", esc(tr)) },
            crate::html::verses(text)
        );
    }
    s
}

/// One day; `calendar` is the calendar's (id, label).
fn render_day(
    ctx: &Ctx,
    d: &Map<String, Value>,
    (calendar, calendar_label): (&str, &str),
    translation: Option<&str>,
) -> String {
    let date = s(d, "date").unwrap_or("");
    let parsed = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").ok();
    let facts = DayFacts::of(d);
    let color = facts.colour.as_str();
    let mut out = String::from("<article class=\"day\">");
    let _ = write!(
        out,
        "<h2><span class=\"swatch c-{}\" aria-hidden=\"true\"></span>{}</h2>",
        class_token(color),
        esc(&facts.title)
    );
    // A national calendar's own name for the day.
    if let Some(local) = s(d, "celebration_local") {
        let _ = write!(out, "<p class=\"local-name\">{}</p>", esc(local));
    }
    if let Some(day) = parsed {
        let _ = write!(
            out,
            "<p class=\"date\"><time datetime=\"{date}\">{}</time></p>",
            esc(&crate::i18n::date_long(ctx.lang, day))
        );
    }
    out.push_str("<dl class=\"facts\">");
    let mut fact = |k: &str, v: String| {
        if !v.is_empty() {
            let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", ctx.t(k), v);
        }
    };
    fact("day.rank", esc(&facts.rank_label()));
    fact("day.colour", esc(&humanize(color)));
    let week = d.get("week_of_season").and_then(Value::as_i64);
    fact(
        "day.season",
        format!(
            "{}{}",
            esc(&humanize(s(d, "season").unwrap_or(""))),
            week.map(|w| format!(", {} {w}", ctx.t("day.week").to_lowercase()))
                .unwrap_or_default()
        ),
    );
    fact("day.sunday_cycle", esc(s(d, "sunday_cycle").unwrap_or("")));
    fact(
        "day.weekday_cycle",
        esc(s(d, "weekday_cycle").unwrap_or("")),
    );
    fact("day.psalter", esc(s(d, "psalter_week").unwrap_or("")));
    fact("form.calendar", esc(calendar_label));
    out.push_str("</dl>");
    // The 1962 Missal: its Latin title, commemorations and proper.
    out.push_str(&render_1962(d));
    // The options: every celebration of the day (optional memorials marked).
    let cels: Vec<&Map<String, Value>> = d
        .get("celebrations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    if cels.len() > 1 {
        let _ = write!(
            out,
            "<h3>{}</h3><ul class=\"celebrations\">",
            ctx.t("day.also")
        );
        for c in cels.iter().skip(1) {
            let opt = if c.get("optional").and_then(Value::as_bool) == Some(true) {
                format!(" — {}", ctx.t("day.optional"))
            } else {
                String::new()
            };
            let _ = write!(
                out,
                "<li><span class=\"swatch c-{}\" aria-hidden=\"true\"></span>{} ({}){opt}</li>",
                class_token(s(c, "color").unwrap_or("")),
                esc(s(c, "name").unwrap_or("")),
                esc(&humanize(s(c, "rank").unwrap_or("")).to_lowercase())
            );
        }
        out.push_str("</ul>");
    }
    // Links: martyrology, month, neighbours.
    if let Some(day) = parsed {
        let iso = |d: chrono::NaiveDate| d.format("%Y-%m-%d").to_string();
        let tr = translation.unwrap_or("");
        out.push_str("<ul class=\"links\">");
        let _ = write!(
            out,
            "<li><a href=\"{}\">{}</a></li>",
            esc(&ctx.link("/martyrology", &[("date", &iso(day))])),
            ctx.t("day.martyrology")
        );
        let _ = write!(
            out,
            "<li><a href=\"{}\">{}</a></li>",
            esc(&ctx.link(
                "/calendar",
                &[
                    ("year", &day.format("%Y").to_string()),
                    ("month", &day.format("%-m").to_string()),
                    ("calendar", calendar)
                ]
            )),
            ctx.t("calendar.title")
        );
        if let (Some(prev), Some(next)) = (day.pred_opt(), day.succ_opt()) {
            let _ = write!(
                out,
                "<li><a rel=\"prev\" href=\"{}\">← {}</a> · <a rel=\"next\" href=\"{}\">{} →</a></li>",
                esc(&ctx.link("/readings", &[("date", &iso(prev)), ("calendar", calendar), ("translation", tr)])),
                prev.format("%-d %b %Y"),
                esc(&ctx.link("/readings", &[("date", &iso(next)), ("calendar", calendar), ("translation", tr)])),
                next.format("%-d %b %Y")
            );
        }
        out.push_str("</ul>");
    }
    // The Mass of the day.
    let _ = write!(
        out,
        "<section class=\"mass\" aria-labelledby=\"mass-main\"><h2 id=\"mass-main\">{}</h2>{}</section>",
        esc(s(d, "mass").unwrap_or("")),
        render_readings(d.get("readings"))
    );
    // The other Masses.
    let others: Vec<&Map<String, Value>> = d
        .get("other_masses")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    if !others.is_empty() {
        let _ = write!(out, "<h2>{}</h2>", ctx.t("day.other_masses"));
        for (i, m) in others.iter().enumerate() {
            let _ = write!(
                out,
                "<details class=\"mass\" id=\"mass-{i}\"><summary>{}</summary>{}</details>",
                esc(s(m, "title").unwrap_or("")),
                render_readings(m.get("readings"))
            );
        }
    }
    out.push_str("</article>");
    out
}
