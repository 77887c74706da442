//! Look-ups: saints, popes, clergy and dioceses with their profiles; a
//! bishop's consecration lineage drawn as inline SVG; a diocese's statistics
//! as a small chart where the data has figures.

use super::humanize;
use crate::error::ConsoleError;
use crate::gate::Visitor;
use crate::html::{esc, esc_trunc, select};
use crate::layout::{Ctx, Page};
use crate::params::{Params, MAX_QUERY_CHARS};
use crate::skills::{self, s};
use crate::svg::{self, Node};
use crate::ConsoleState;
use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// One directory: its page name, skill, id field and interface key.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    /// `?kind=` value.
    pub name: &'static str,
    /// The skill.
    pub skill: &'static str,
    /// The canonical id field.
    pub id_key: &'static str,
    /// The interface string of its name.
    pub label_key: &'static str,
}

/// The four directories.
pub const KINDS: [Kind; 4] = [
    Kind {
        name: "saint",
        skill: "saint_lookup",
        id_key: "saint_id",
        label_key: "lookup.saint",
    },
    Kind {
        name: "pope",
        skill: "pope_lookup",
        id_key: "pope_id",
        label_key: "lookup.pope",
    },
    Kind {
        name: "person",
        skill: "person_lookup",
        id_key: "person_id",
        label_key: "lookup.person",
    },
    Kind {
        name: "diocese",
        skill: "diocese_lookup",
        id_key: "source_code",
        label_key: "lookup.diocese",
    },
];
/// The statistics skill.
pub const STATS_SKILL: &str = "diocese_statistics_lookup";

/// Fields shown elsewhere on the page (or not at all).
const SKIP: &[&str] = &[
    "primary_name",
    "alternates",
    "sources",
    "consecrators",
    "consecrated",
    "recent_statistics",
    "image_url",
    "coat_of_arms_url",
    "error",
];

/// `GET /lookup?kind=&q=&id=`.
pub async fn handler(State(state): State<ConsoleState>, ctx: Ctx, uri: Uri) -> Response {
    let r = page(&state, &ctx, &uri).await;
    crate::respond(&ctx, r)
}

fn kind_of(name: &str) -> Option<Kind> {
    KINDS.iter().copied().find(|k| k.name == name)
}

/// The link to a profile.
pub fn profile_href(ctx: &Ctx, kind: &str, id: &str) -> String {
    ctx.link("/lookup", &[("kind", kind), ("id", id)])
}

async fn page(state: &ConsoleState, ctx: &Ctx, uri: &Uri) -> Result<Page, ConsoleError> {
    let p = Params::from_uri(uri)?;
    let names: Vec<&str> = KINDS.iter().map(|k| k.name).collect();
    let kind =
        kind_of(&p.choice("kind", &names)?.unwrap_or_else(|| "saint".into())).unwrap_or(KINDS[0]);
    let q = p.get("q", MAX_QUERY_CHARS)?;
    let id = p.short("id")?;
    let title = ctx.t("lookup.title");
    let mut body = format!("<h1>{title}</h1>");
    let options: Vec<(String, String)> = KINDS
        .iter()
        .map(|k| (k.name.to_string(), ctx.t(k.label_key).to_string()))
        .collect();
    let _ = write!(
        body,
        "<form class=\"panel\" method=\"get\" action=\"/lookup\" role=\"search\"><div class=\"field\">{}</div><div class=\"field\"><label for=\"f-q\">{}</label><input id=\"f-q\" name=\"q\" maxlength=\"{MAX_QUERY_CHARS}\" value=\"{}\" required></div>{}<div><button type=\"submit\">{}</button></div></form>",
        select("kind", ctx.t("lookup.kind"), &options, kind.name),
        ctx.t("lookup.query"),
        esc(q.as_deref().unwrap_or("")),
        if ctx.explicit { format!("<input type=\"hidden\" name=\"lang\" value=\"{}\">", ctx.lang.code()) } else { String::new() },
        ctx.t("search.submit")
    );
    let available = state.registry().get(kind.skill).is_some();
    if !available {
        let _ = write!(
            body,
            "<p class=\"error\" role=\"status\" id=\"lookup-unavailable\">{}</p>",
            ctx.t("unavailable")
        );
        let status = if q.is_some() || id.is_some() {
            axum::http::StatusCode::SERVICE_UNAVAILABLE
        } else {
            axum::http::StatusCode::OK
        };
        return Ok(Page::for_ctx(ctx, title, "lookup", body).status(status));
    }
    if q.is_none() && id.is_none() {
        return Ok(Page::for_ctx(ctx, title, "lookup", body));
    }
    let visitor = state.admit(ctx, kind.skill).await?;
    let mut req = Map::new();
    if let Some(i) = &id {
        req.insert(kind.id_key.into(), Value::String(i.clone()));
    }
    if let Some(q) = &q {
        req.insert("query".into(), Value::String(q.clone()));
    }
    let data = skills::call(
        state,
        &visitor,
        kind.skill,
        skills::data(Value::Object(req)),
    )
    .await?
    .data();
    if s(&data, "error") == Some("not_found") {
        let _ = write!(body, "<p role=\"status\">{}</p>", ctx.t("lookup.not_found"));
        if let Some(h) = s(&data, "hint") {
            let other = if h.contains("get_pope") {
                Some("pope")
            } else if h.contains("get_person") {
                Some("person")
            } else {
                None
            };
            let _ = write!(body, "<p class=\"help\">{}", esc(h));
            if let (Some(o), Some(q)) = (other, &q) {
                let _ = write!(
                    body,
                    " <a href=\"{}\">→ {}</a>",
                    esc(&ctx.link("/lookup", &[("kind", o), ("q", q)])),
                    ctx.t(kind_of(o).map(|k| k.label_key).unwrap_or("lookup.title"))
                );
            }
            body.push_str("</p>");
        }
        return Ok(Page::for_ctx(ctx, title, "lookup", body));
    }
    let name = s(&data, "primary_name").unwrap_or("").to_string();
    let _ = write!(body, "<article class=\"profile\"><h2>{}</h2>", esc(&name));
    let mut img_links = Vec::new();
    for (k, label) in [("image_url", "Image"), ("coat_of_arms_url", "Coat of arms")] {
        if let Some(u) = s(&data, k).filter(|u| is_web(u)) {
            img_links.push(format!(
                "<a href=\"{}\" rel=\"noopener noreferrer\">{label}</a>",
                esc(u)
            ));
        }
    }
    if !img_links.is_empty() {
        let _ = write!(body, "<p class=\"links\">{}</p>", img_links.join(" · "));
    }
    body.push_str("<dl class=\"facts\">");
    for (k, v) in &data {
        if SKIP.contains(&k.as_str()) {
            continue;
        }
        let html = value_html(ctx, v, 0);
        if !html.is_empty() {
            let _ = write!(body, "<dt>{}</dt><dd>{html}</dd>", esc(&humanize(k)));
        }
    }
    body.push_str("</dl>");
    if kind.name == "person" {
        body.push_str(&lineage_html(ctx, &name, &data));
    }
    if kind.name == "diocese" {
        body.push_str(&stats_html(ctx, state, &visitor, &data).await);
    }
    if let Some(src) = data
        .get("sources")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
    {
        let list: Vec<String> = src
            .iter()
            .filter_map(Value::as_object)
            .map(|o| {
                format!(
                    "{} ({})",
                    s(o, "dataset").unwrap_or(""),
                    s(o, "licence").unwrap_or("")
                )
            })
            .collect();
        let _ = write!(
            body,
            "<p class=\"meta\">Sources: {}</p>",
            esc(&list.join("; "))
        );
    }
    body.push_str("</article>");
    // Alternates.
    let alts: Vec<&Map<String, Value>> = data
        .get("alternates")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    if !alts.is_empty() {
        let _ = write!(
            body,
            "<h2>{}</h2><ul class=\"alternates\">",
            ctx.t("lookup.alternates")
        );
        for a in alts.iter().take(20) {
            let aid = s(a, kind.id_key).or_else(|| s(a, "id")).unwrap_or("");
            let _ = write!(
                body,
                "<li><a href=\"{}\">{}</a> <span class=\"meta\">{}</span></li>",
                esc(&profile_href(ctx, kind.name, aid)),
                esc(s(a, "name").unwrap_or(aid)),
                esc(s(a, "distinguishing").unwrap_or(""))
            );
        }
        body.push_str("</ul>");
    }
    Ok(Page::for_ctx(
        ctx,
        if name.is_empty() { title } else { &name },
        "lookup",
        body,
    ))
}

fn is_web(u: &str) -> bool {
    u.starts_with("https://") || u.starts_with("http://")
}

/// A profile value as HTML: strings escaped (web addresses as links),
/// lists joined, nested objects as `key: value`, ids as profile links.
fn value_html(ctx: &Ctx, v: &Value, depth: usize) -> String {
    match v {
        Value::Null => String::new(),
        Value::Bool(b) => {
            if *b {
                "yes".into()
            } else {
                "no".into()
            }
        }
        Value::Number(n) => esc(&n.to_string()),
        Value::String(s) if s.is_empty() => String::new(),
        Value::String(s) if is_web(s) => format!(
            "<a href=\"{}\" rel=\"noopener noreferrer\">{}</a>",
            esc(s),
            esc_trunc(s, 80)
        ),
        Value::String(s) => esc_trunc(s, 4000).replace('\n', "<br>"),
        Value::Array(a) if a.is_empty() || depth > 2 => String::new(),
        Value::Array(a) => {
            let items: Vec<String> = a
                .iter()
                .take(50)
                .map(|x| value_html(ctx, x, depth + 1))
                .filter(|x| !x.is_empty())
                .collect();
            if a.iter().all(|x| !x.is_object()) {
                items.join(", ")
            } else {
                format!(
                    "<ul>{}</ul>",
                    items
                        .iter()
                        .map(|i| format!("<li>{i}</li>"))
                        .collect::<String>()
                )
            }
        }
        Value::Object(o) if depth > 2 => esc(&Value::Object(o.clone()).to_string()),
        Value::Object(o) => {
            // A reference to another profile.
            for (idk, kind) in [
                ("pope_id", "pope"),
                ("person_id", "person"),
                ("saint_id", "saint"),
            ] {
                if let (Some(id), Some(name)) = (s(o, idk), s(o, "name")) {
                    let rest: Vec<String> = o
                        .iter()
                        .filter(|(k, v)| k.as_str() != idk && k.as_str() != "name" && !v.is_null())
                        .map(|(k, v)| {
                            format!("{}: {}", esc(&humanize(k)), value_html(ctx, v, depth + 1))
                        })
                        .collect();
                    return format!(
                        "<a href=\"{}\">{}</a>{}",
                        esc(&profile_href(ctx, kind, id)),
                        esc(name),
                        if rest.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", rest.join("; "))
                        }
                    );
                }
            }
            let parts: Vec<String> = o
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, value_html(ctx, v, depth + 1)))
                .filter(|(_, h)| !h.is_empty())
                .map(|(k, h)| format!("{}: {h}", esc(&humanize(k))))
                .collect();
            parts.join("; ")
        }
    }
}

fn nodes(ctx: &Ctx, list: Option<&Value>) -> Vec<Node> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .map(|o| Node {
            label: s(o, "name").unwrap_or("?").to_string(),
            href: s(o, "person_id").map(|id| profile_href(ctx, "person", id)),
            note: {
                let bits: Vec<&str> = [s(o, "role"), s(o, "date")].into_iter().flatten().collect();
                (!bits.is_empty()).then(|| bits.join(", "))
            },
        })
        .collect()
}

/// The consecration lineage, drawn when the profile has consecrators or consecrated.
pub fn lineage_html(ctx: &Ctx, name: &str, data: &Map<String, Value>) -> String {
    let above = nodes(ctx, data.get("consecrators"));
    let below = nodes(ctx, data.get("consecrated"));
    if above.is_empty() && below.is_empty() {
        return String::new();
    }
    let center = Node {
        label: name.to_string(),
        href: None,
        note: s(data, "consecration_date").map(str::to_string),
    };
    let title = format!("{}: {name}", ctx.t("lookup.lineage"));
    let mut out = format!("<section class=\"lineage\" aria-labelledby=\"lineage-h\"><h3 id=\"lineage-h\">{}</h3><figure>{}", ctx.t("lookup.lineage"), svg::lineage(&center, &above, &below, &title));
    // The same as text, for screen readers and text browsers.
    let list = |label: &str, ns: &[Node]| -> String {
        if ns.is_empty() {
            return String::new();
        }
        let items: Vec<String> = ns
            .iter()
            .map(|n| match &n.href {
                Some(h) => format!("<a href=\"{}\">{}</a>", esc(h), esc(&n.label)),
                None => esc(&n.label),
            })
            .collect();
        format!("<p>{label}: {}</p>", items.join(", "))
    };
    let _ = write!(
        out,
        "<figcaption>{}{}</figcaption></figure></section>",
        list("Consecrated by", &above),
        list("Consecrated", &below)
    );
    out
}

/// The statistics: a table of the recent figures and a chart of the series
/// when `diocese_statistics_lookup` has at least two years.
async fn stats_html(
    ctx: &Ctx,
    state: &ConsoleState,
    visitor: &Visitor,
    data: &Map<String, Value>,
) -> String {
    let Some(code) = s(data, "source_code") else {
        return String::new();
    };
    let mut out = String::new();
    let rows: Vec<Map<String, Value>> = if state.registry().get(STATS_SKILL).is_some() {
        match skills::call(
            state,
            visitor,
            STATS_SKILL,
            skills::data(json!({"source_code": code})),
        )
        .await
        {
            Ok(a) => a
                .data()
                .get("rows")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_object)
                .cloned()
                .collect(),
            Err(e) => {
                tracing::debug!("statistics not shown: {e}");
                Vec::new()
            }
        }
    } else {
        Vec::new()
    };
    let charts = stats_charts(&rows);
    if !charts.is_empty() {
        let _ = write!(
            out,
            "<section class=\"stats\"><h3>{}</h3>{charts}</section>",
            ctx.t("lookup.statistics")
        );
    }
    out
}

/// Charts of catholics and priests per year (only metrics with two or more figures).
pub fn stats_charts(rows: &[Map<String, Value>]) -> String {
    let mut out = String::new();
    for (metric, label) in [
        ("catholics", "Catholics"),
        ("total_priests", "Priests"),
        ("parishes", "Parishes"),
    ] {
        let points: Vec<(i64, f64)> = rows
            .iter()
            .filter_map(|r| Some((r.get("year")?.as_i64()?, r.get(metric)?.as_f64()?)))
            .collect();
        if let Some(c) = svg::line_chart(label, &points) {
            let _ = write!(out, "<figure>{c}</figure>");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_where_data_exists() {
        let rows: Vec<Map<String, Value>> = vec![
            json!({"year": 2020, "catholics": 1000.0, "total_priests": null}),
            json!({"year": 2021, "catholics": 1100.0, "total_priests": 5}),
        ]
        .into_iter()
        .filter_map(|v| v.as_object().cloned())
        .collect();
        let c = stats_charts(&rows);
        assert_eq!(c.matches("<svg").count(), 1);
        assert!(stats_charts(&[]).is_empty());
    }

    #[test]
    fn values_escape_and_link() {
        let ctx = Ctx::default();
        let v = json!({"name": "<x>", "pope_id": "a\"b", "date": "2012"});
        let h = value_html(&ctx, &v, 0);
        assert!(h.contains("&lt;x&gt;") && h.contains("a%22b") && h.contains("Date: 2012"));
        assert_eq!(
            value_html(&ctx, &json!("javascript:alert(1)"), 0),
            "javascript:alert(1)"
        );
    }
}
