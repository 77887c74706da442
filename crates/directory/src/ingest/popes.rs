//! Popes: the Wikipedia list (266, Peter to Francis) as the spine, Popet for Latin
//! regnal and birth names, popefeed for vatican.va links and Leo XIV.

use super::{date_with_precision, read_json, src, Ctx};
use crate::fold::{fold, roman_value, slug, tokens};
use crate::index::Kind;
use crate::store::Record;
use ecclesia_core::IngestError;
use serde_json::{json, Value};
use std::collections::HashMap;

pub(crate) const WIKI: &str = "directories/popes/wikipedia-list";
pub(crate) const POPET: &str = "directories/popes/popet";
pub(crate) const FEED: &str = "directories/popes/popefeed";

#[derive(Debug, Clone, Default)]
struct Row {
    number: u32,
    name_full: String,
    personal_name: Option<String>,
    name_l: String,
    canonization: Option<String>,
    birth: Option<String>,
    birth_place: Option<String>,
    start: Option<String>,
    end: Option<String>,
    notes: String,
    wiki: Option<String>,
}

fn na(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty() && t != "NA").then(|| t.to_string())
}

/// How the pontificate ended, read from the Wikipedia notes.
fn end_reason(end: &Option<String>, notes: &str) -> &'static str {
    if end.is_none() {
        return "reigning";
    }
    let n = notes.to_lowercase();
    if n.contains("abdicated")
        || n.contains("resigned")
        || n.contains("first to abdicate")
        || n.contains("first pope to renounce")
    {
        return "resignation";
    }
    if n.starts_with("deposed") || n.contains(". deposed") || n.contains("; deposed") {
        return "deposition";
    }
    "death"
}

struct Popet {
    key: Vec<String>,
    start_year: Option<i64>,
    personal: Option<String>,
    english: String,
    latin: Option<String>,
}

fn year_of(s: &str) -> Option<i64> {
    s.get(0..4).and_then(|y| y.parse().ok())
}

/// Build the 267 pope records.
pub(crate) fn build(ctx: &mut Ctx) -> Result<Vec<Record>, IngestError> {
    let path = ctx.data.join(WIKI).join("popes.csv");
    let mut rdr = csv::Reader::from_path(&path)
        .map_err(|e| IngestError::Other(format!("{}: {e}", path.display())))?;
    let headers = rdr
        .headers()
        .map_err(|e| IngestError::Other(format!("{}: {e}", path.display())))?
        .clone();
    let col = |name: &str| headers.iter().position(|h| h == name);
    let cols: HashMap<&str, Option<usize>> = [
        "number",
        "name_full",
        "personal_name",
        "name_L",
        "canonization",
        "birth",
        "birth_place",
        "start",
        "end",
        "notes",
        "wiki",
    ]
    .into_iter()
    .map(|c| (c, col(c)))
    .collect();
    let mut rows: Vec<Row> = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                ctx.warn(format!("{}:{}: {e}", path.display(), i + 2));
                continue;
            }
        };
        let get = |c: &str| {
            cols.get(c)
                .copied()
                .flatten()
                .and_then(|i| rec.get(i))
                .unwrap_or("")
                .to_string()
        };
        let Ok(number) = get("number").trim().parse::<u32>() else {
            ctx.warn(format!("{}:{}: no pope number", path.display(), i + 2));
            continue;
        };
        let row = Row {
            number,
            name_full: get("name_full").trim().to_string(),
            personal_name: na(&get("personal_name")).map(|s| s.replace('\n', " ")),
            name_l: get("name_L"),
            canonization: na(&get("canonization")),
            birth: na(&get("birth")),
            birth_place: na(&get("birth_place")),
            start: na(&get("start")),
            end: na(&get("end")),
            notes: get("notes"),
            wiki: na(&get("wiki")),
        };
        // a pope listed twice under one number (John XII) is one pontificate: keep
        // the first start, the last end
        if let Some(prev) = rows.last_mut().filter(|p| p.number == number) {
            prev.end = row.end.clone();
            if !row.notes.is_empty() {
                prev.notes = format!("{} {}", prev.notes, row.notes);
            }
            continue;
        }
        rows.push(row);
    }
    ctx.source(
        WIKI,
        "plumkewe/popes (from en.wikipedia \"List of popes\")",
        "8ced60e",
        "CC BY-SA 4.0",
        Some("Wikipedia contributors, \"List of popes\", CC BY-SA 4.0"),
        rows.len() as u64,
    );

    // Popet: Latin regnal names and birth names
    let popet_v: Value = read_json(&ctx.data.join(POPET).join("popes.json"))?;
    let mut popet: Vec<Popet> = Vec::new();
    for p in popet_v.as_array().into_iter().flatten() {
        let english = p["english_name"].as_str().unwrap_or("").to_string();
        let core = english
            .split(['(', ','])
            .next()
            .unwrap_or("")
            .replace("Servant of God", "");
        popet.push(Popet {
            key: tokens(&core),
            start_year: p["start"].as_str().and_then(year_of),
            personal: p["personal_name"].as_str().map(str::to_string),
            english,
            latin: p["regnal_name_latin"].as_str().map(str::to_string),
        });
    }
    ctx.source(
        POPET,
        "PyPI Popet 0.0.1 (github.com/delta114514/Popet)",
        "0.0.1",
        "MIT",
        None,
        popet.len() as u64,
    );

    // popefeed: slugs, vatican.va links, Leo XIV
    let feed: Value = read_json(&ctx.data.join(FEED).join("popes.json"))?;
    let feed: Vec<Value> = feed.as_array().cloned().unwrap_or_default();
    ctx.source(
        FEED,
        "popefeed/api popes.json",
        "bc9413a",
        "facts and URLs (no licence stated)",
        None,
        feed.len() as u64,
    );

    // Leo XIV is only in popefeed: append him after the last numbered pope
    let last = rows.last().map(|r| r.number).unwrap_or(0);
    let known: Vec<Vec<String>> = rows.iter().map(|r| tokens(&r.name_full)).collect();
    for f in &feed {
        let en = f["names"]["en"].as_str().unwrap_or("");
        let t = tokens(en);
        if t.is_empty() || known.contains(&t) {
            continue;
        }
        let start = f["reign_start"].as_str().map(str::to_string);
        if start.as_deref().and_then(year_of).unwrap_or(0)
            < rows
                .last()
                .and_then(|r| r.start.as_deref())
                .and_then(year_of)
                .unwrap_or(0)
        {
            continue;
        }
        let full_name = f["full_name"].as_str().map(str::to_string);
        let (birth, birth_place) = full_name
            .as_deref()
            .and_then(|n| ctx.cardinal_birth(n))
            .map(|(b, p)| (Some(b), p))
            .unwrap_or((None, None));
        rows.push(Row {
            number: last + 1,
            name_full: en.to_string(),
            personal_name: full_name,
            name_l: String::new(),
            canonization: None,
            birth,
            birth_place,
            start,
            end: f["reign_end"].as_str().map(str::to_string),
            notes: String::new(),
            wiki: None,
        });
    }

    let mut seen_ids: HashMap<String, u32> = HashMap::new();
    let mut out = Vec::new();
    for r in &rows {
        let key = tokens(&r.name_full);
        let sy = r.start.as_deref().and_then(year_of);
        let pt = popet.iter().find(|p| {
            p.key == key
                && match (p.start_year, sy) {
                    (Some(a), Some(b)) => (a - b).abs() <= 3,
                    _ => false,
                }
        });
        let feed_rec = feed
            .iter()
            .find(|f| f["names"]["en"].as_str().map(tokens).as_ref() == Some(&key));
        let base = slug(&r.name_full);
        let n = seen_ids.entry(base.clone()).or_insert(0);
        *n += 1;
        let id = match *n {
            1 => base.clone(),
            2 => format!("{base}-second-pontificate"),
            3 => format!("{base}-third-pontificate"),
            k => format!("{base}-pontificate-{k}"),
        };
        let regnal_number = r
            .name_full
            .split_whitespace()
            .last()
            .and_then(|w| roman_value(&w.to_lowercase()));
        let feed_la = feed_rec.and_then(|f| f["names"]["la"].as_str());
        let (latin_name, latin_from, mut disagreements) = super::pope_fields::latin_name(
            r.name_l.trim(),
            regnal_number,
            pt.and_then(|p| p.latin.as_deref()),
            feed_la,
        );
        disagreements.extend(super::pope_fields::status(
            r.canonization.as_deref(),
            pt.map(|p| p.english.as_str()),
            feed_la,
        ));
        for d in &disagreements {
            ctx.warn(d.warning(&r.name_full));
        }
        let birth_name = r
            .personal_name
            .clone()
            .or_else(|| pt.and_then(|p| p.personal.clone()))
            .filter(|s| fold(s) != fold(&r.name_full));
        let (birth_date, birth_prec) = date_with_precision(r.birth.as_deref(), true);
        let (start, start_prec) = date_with_precision(r.start.as_deref(), false);
        let (end, end_prec) = date_with_precision(r.end.as_deref(), false);
        let status = r
            .canonization
            .as_deref()
            .map(|c| c.to_lowercase().replace(' ', "_"));
        let title_prefix = match r.canonization.as_deref() {
            Some("Saint") => "Saint ",
            Some("Blessed") => "Blessed ",
            Some("Venerable") => "Venerable ",
            Some("Servant of God") => "Servant of God ",
            _ => "",
        };
        let mut sources = vec![src(WIKI, "CC BY-SA 4.0")];
        if pt.is_some() {
            sources.push(src(POPET, "MIT"));
        }
        if feed_rec.is_some() {
            sources.push(src(FEED, "facts and URLs"));
        }
        if r.wiki.is_none() && r.birth.is_some() {
            sources.push(src(super::persons::CARDINALS, "MIT / CC0"));
        }
        let tenure_end = r.end.as_deref().and_then(year_of);
        let tenure_days = match (sy, tenure_end) {
            (Some(a), Some(b)) => ((b - a) as f32).max(0.0),
            (Some(a), None) => (2025 - a) as f32,
            _ => 0.0,
        };
        let prior = (0.3 + (tenure_days + 1.0).ln() / 4.0).min(1.0);
        let vatican = feed_rec
            .and_then(|f| f["metadata"]["vatican_urls"]["en"].as_str())
            .map(str::to_string);
        let profile = json!({
            "pope_id": id,
            "primary_name": format!("Pope {}", r.name_full),
            "papal_name": r.name_full,
            "ordinal": r.number,
            "regnal_number": regnal_number,
            "pope_title": format!("Pope {title_prefix}{}", r.name_full),
            "latin_name": latin_name,
            "image_url": feed_rec.and_then(|f| f["image_url"].as_str()),
            "coat_of_arms_url": feed_rec.and_then(|f| f["coat_of_arms_url"].as_str()),
            "birth_name": birth_name,
            "birth_date": birth_date,
            "birth_date_precision": birth_prec,
            "origin": r.birth_place,
            "pontificate": {
                "start": start,
                "start_precision": start_prec,
                "end": end,
                "end_precision": end_prec,
                "end_reason": end_reason(&r.end, &r.notes),
            },
            "canonization_status": status,
            "beatified": matches!(r.canonization.as_deref(), Some("Saint" | "Blessed")),
            "canonized": r.canonization.as_deref() == Some("Saint"),
            "notes": (!r.notes.trim().is_empty()).then(|| r.notes.trim().to_string()),
            "vatican_url": vatican,
            "wikipedia_url": r.wiki,
            "also_known_as": pt.map(|p| super::pope_fields::also_known_as(&p.english, &r.name_full)).unwrap_or_default(),
            "field_sources": {
                "papal_name": super::pope_fields::WIKI,
                "latin_name": latin_from,
                "canonization_status": super::pope_fields::WIKI,
                "birth_name": if r.personal_name.is_some() { Some(super::pope_fields::WIKI) } else if birth_name.is_some() { Some(super::pope_fields::POPET) } else { None },
                "pontificate": super::pope_fields::WIKI,
                "vatican_url": vatican.as_ref().map(|_| super::pope_fields::FEED),
            },
            "sources": sources,
        });
        let years = match (start.as_deref(), end.as_deref()) {
            (Some(s), Some(e)) => format!("{}–{}", &s[..4.min(s.len())], &e[..4.min(e.len())]),
            (Some(s), None) => format!("since {}", &s[..4.min(s.len())]),
            _ => String::new(),
        };
        let detail = format!("pope no. {}, {years}", r.number);
        let mut names = vec![(r.name_full.clone(), 1.0)];
        if let Some(l) = &latin_name {
            names.push((l.clone(), 0.97));
        }
        if let Some(p) = pt {
            // "Stephen IX (Stephen X), O.S.B." → both numberings
            for part in p.english.split(['(', ')', ',']) {
                let part = part.trim();
                if part.len() > 2 && !part.starts_with("O.") {
                    names.push((part.to_string(), 0.96));
                }
            }
        }
        if let Some(b) = &birth_name {
            for part in b.split([';', ',']) {
                let part = part.trim();
                if part.len() > 2 && !part.starts_with("O.") && !part.starts_with("S.") {
                    names.push((part.to_string(), 0.94));
                }
            }
        }
        if let Some(fr) = feed_rec {
            if let Some(fname) = fr["full_name"].as_str() {
                names.push((fname.to_string(), 0.94));
            }
        }
        out.push(Record {
            id,
            kind: Kind::Pope,
            name: r.name_full.clone(),
            detail,
            prior,
            names,
            profile,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_v_becomes_u() {
        assert_eq!(super::super::pope_fields::title_case(&["PAVLVS"]), "Paulus");
        assert_eq!(
            super::super::pope_fields::title_case(&["IOANNES", "PAVLVS"]),
            "Ioannes Paulus"
        );
        assert_eq!(
            super::super::pope_fields::title_case(&["VALENTINVS"]),
            "Valentinus"
        );
        assert_eq!(
            super::super::pope_fields::title_case(&["EVGENIVS"]),
            "Eugenius"
        );
    }

    #[test]
    fn end_reasons() {
        assert_eq!(end_reason(&None, ""), "reigning");
        assert_eq!(end_reason(&Some("x".into()), "Abdicated"), "resignation");
        assert_eq!(
            end_reason(&Some("x".into()), "Deposed and murdered"),
            "deposition"
        );
        assert_eq!(
            end_reason(
                &Some("x".into()),
                "after the Emperor Gratian abdicates the title"
            ),
            "death"
        );
    }
}
