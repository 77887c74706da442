//! Saints: Wikidata items (Catholic only) merged with the Roman Martyrology ids
//! (CRMEDR), the 1914 English elogia, romcal's catalog and the feasts of romcal
//! and LitCal. Entity resolution is by normalised name plus dates (death day =
//! Martyrology day, death year, feast day); a source record that fits several
//! entities equally is not merged.

use super::saint_fields::{self, Claims, Reconciled, SourceDate};
use super::{read_json, src, Ctx};
use crate::fold::{fold, slug, tokens};
use crate::index::Kind;
use crate::store::Record;
use ecclesia_core::IngestError;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};

const WIKIDATA: &str = "directories/saints/wikidata";
const CRMEDR: &str = "martyrology/crmedr-ids";
const ELOGIA: &str = "martyrology/editions-1914-en-1749-la";
const ROMCAL: &str = "calendar/romcal";
const LITCAL: &str = "calendar/litcal";

#[derive(Default)]
struct S {
    alive: bool,
    qid: Option<String>,
    crmedr: Vec<(String, u32, u32, Option<String>)>, // id, month, day, country
    romcal: Option<String>,
    name: String,
    names: Vec<(String, f32)>,
    status: Option<&'static str>,
    birth: Option<String>,
    death: Option<String>,
    death_years: Vec<i64>,
    death_md: Vec<(u32, u32)>,
    places: [Option<String>; 3],
    gender: Option<String>,
    orders: Vec<String>,
    citizenship: Vec<String>,
    titles: Vec<String>,
    feasts: Vec<Value>,
    feast_md: Vec<(u32, u32)>,
    general_roman: bool,
    biography: Option<(String, String)>,
    group: bool,
    sources: Vec<Value>,
    /// What each source said, per field (reconciled in `saint_fields`).
    claims: Claims,
    /// The reconciled fields, set before the ids are given.
    fields: Option<Reconciled>,
}

fn rank(s: Option<&str>) -> u8 {
    match s {
        Some("saint") => 4,
        Some("blessed") => 3,
        Some("venerable") => 2,
        Some("servant_of_god") => 1,
        _ => 0,
    }
}

fn status_of(label: &str) -> Option<&'static str> {
    Some(match label.trim() {
        "saint"
        | "Catholic saint"
        | "canonized saint"
        | "pre-congregation saint"
        | "Doctor of the Church"
        | "locally-venerated saint"
        | "regional patron saint"
        | "patron saint" => "saint",
        "blessed" | "beatification" | "Beato" | "Q3295944" => "blessed",
        "venerable" | "The Venerable" => "venerable",
        "Servant of God" | "servant of God" => "servant_of_god",
        _ => return None,
    })
}

fn catholic_religion(r: &str) -> bool {
    let r = r.trim();
    r.contains("Catholic")
        || matches!(
            r,
            "Latin Church"
                | "Maronite Church"
                | "Christianity"
                | "Early Christianity"
                | "Celtic Christianity"
                | "Chalcedonian Christianity"
                | "Christian"
                | "Nicene Christianity"
                | "Judaism"
                | "Mosaic Judaism"
                | "Yahwism"
                | "Jewish Christian"
                | "Eastern Christianity"
        )
}

/// (date, years, month-days) of a Wikidata timestamp list `a;b`: the first value with a
/// day, else the first year. Values that are not timestamps (an "unknown value" comes as a
/// `http://www.wikidata.org/.well-known/genid/…` link) are skipped; BC years keep their `-`.
fn wd_dates(s: &str) -> (Option<String>, Vec<i64>, Vec<(u32, u32)>) {
    let mut best: Option<String> = None;
    let mut years = Vec::new();
    let mut mds = Vec::new();
    for v in s.split(';').map(str::trim) {
        let (sign, body) = match v.strip_prefix('-') {
            Some(b) => ("-", b),
            None => ("", v),
        };
        let Some(d) = body.get(..10) else { continue };
        let b = d.as_bytes();
        let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
        if !(digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10)) {
            continue;
        }
        if let Ok(y) = d[..4].parse::<i64>() {
            years.push(if sign == "-" { -y } else { y });
        }
        let md = &d[5..10];
        if md != "01-01" {
            if let (Ok(m), Ok(dd)) = (d[5..7].parse::<u32>(), d[8..10].parse::<u32>()) {
                mds.push((m, dd));
            }
            if best.as_ref().is_none_or(|b| b.len() < 10) {
                best = Some(format!("{sign}{d}"));
            }
        } else if best.is_none() {
            best = Some(format!("{sign}{}", &d[..4]));
        }
    }
    (best, years, mds)
}

/// Name compatibility: same first word, and one name's words within the other's.
pub(super) fn compatible(a: &[String], b: &[String]) -> bool {
    // "Mother Teresa" is Teresa: a leading honorific does not count
    let honorific = |t: &String| {
        matches!(
            t.as_str(),
            "mother"
                | "father"
                | "brother"
                | "sister"
                | "padre"
                | "don"
                | "fray"
                | "frei"
                | "madre"
        )
    };
    let a = if a.len() > 1 && honorific(&a[0]) {
        &a[1..]
    } else {
        a
    };
    let b = if b.len() > 1 && honorific(&b[0]) {
        &b[1..]
    } else {
        b
    };
    let (Some(fa), Some(fb)) = (a.first(), b.first()) else {
        return false;
    };
    fa == fb && (a.iter().all(|t| b.contains(t)) || b.iter().all(|t| a.contains(t)))
}

/// "Saint Jerome, Priest and Doctor" → "Jerome"; "San Jerónimo, presbítero" → "San Jerónimo".
fn core_name(s: &str) -> String {
    s.split([',', '(']).next().unwrap_or(s).trim().to_string()
}

fn title_word(t: &str) -> String {
    t.to_lowercase().replace('_', " ")
}

fn romcal_date(v: &Value) -> (Option<String>, Option<i64>) {
    match v {
        Value::Number(n) => (n.as_i64().map(|y| format!("{y:04}")), n.as_i64()),
        Value::String(s) => {
            let parts: Vec<&str> = s.split('-').collect();
            let d = match parts.as_slice() {
                // "28-02-1936" (Daniel Brottier) is day-month-year
                [d, m, y] if y.len() == 4 && d.len() <= 2 => {
                    match (y.parse::<i64>(), m.parse::<u32>(), d.parse::<u32>()) {
                        (Ok(y), Ok(m @ 1..=12), Ok(d @ 1..=31)) => {
                            Some(format!("{y:04}-{m:02}-{d:02}"))
                        }
                        _ => None,
                    }
                }
                [y, m, d] => match (y.parse::<i64>(), m.parse::<u32>(), d.parse::<u32>()) {
                    (Ok(y), Ok(m @ 1..=12), Ok(d @ 1..=31)) => {
                        Some(format!("{y:04}-{m:02}-{d:02}"))
                    }
                    _ => y.parse::<i64>().ok().map(|y| format!("{y:04}")),
                },
                _ => parts
                    .first()
                    .and_then(|y| y.parse::<i64>().ok())
                    .map(|y| format!("{y:04}")),
            };
            let y = d
                .as_deref()
                .and_then(|d| d.get(..4))
                .and_then(|y| y.parse().ok());
            (d, y)
        }
        _ => (None, None),
    }
}

fn precedence_label(p: &str) -> String {
    let base = p.split('_').next().unwrap_or(p);
    let mut out = String::new();
    for (i, c) in base.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push(' ');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

fn litcal_grade(g: i64) -> &'static str {
    match g {
        0 => "weekday",
        1 => "commemoration",
        2 => "optional memorial",
        3 => "memorial",
        4 => "feast",
        5 => "feast of the Lord",
        6 => "solemnity",
        _ => "celebration",
    }
}

/// Build the saint records.
pub(crate) fn build(ctx: &mut Ctx) -> Result<Vec<Record>, IngestError> {
    let mut ss: Vec<S> = Vec::new();

    // 1. Wikidata
    let wd = read_json(&ctx.data.join(WIKIDATA).join("saints.json"))?;
    let col = |c: &str| wd.get(format!("{c}.value")).and_then(Value::as_object);
    let names = col("name").cloned().unwrap_or_default();
    let get = |c: &str, q: &str| -> String {
        col(c)
            .and_then(|m| m.get(q))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let mut dropped = (0u32, 0u32);
    let mut qids: Vec<&String> = names.keys().collect();
    qids.sort();
    for q in qids {
        let name = names
            .get(q)
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_string();
        if name.is_empty()
            || (name.starts_with('Q') && name[1..].chars().all(|c| c.is_ascii_digit()))
        {
            dropped.0 += 1;
            continue;
        }
        let raw_states = get("cannonizationState", q);
        let statuses: Vec<(&'static str, &str)> = raw_states
            .split(';')
            .filter_map(|l| status_of(l).map(|s| (s, l.trim())))
            .collect();
        let religions = get("religiousGroup", q);
        let rel: Vec<&str> = religions
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        if statuses.is_empty() || (!rel.is_empty() && !rel.iter().any(|r| catholic_religion(r))) {
            dropped.1 += 1;
            continue;
        }
        let best = statuses.iter().copied().max_by_key(|(s, _)| rank(Some(s)));
        let status = best.map(|(s, _)| s);
        let (birth, _, _) = wd_dates(&get("birthDate", q));
        let (death, years, mds) = wd_dates(&get("deathDate", q));
        let place = |c: &str| {
            let v = get(c, q);
            v.split(';')
                .next()
                .filter(|s| !s.is_empty())
                .map(|u| u.rsplit('/').next().unwrap_or(u).to_string())
        };
        let list = |c: &str| -> Vec<String> {
            get(c, q)
                .split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        };
        let claims = Claims {
            wikidata_status: best.map(|(s, raw)| (s, raw.to_string())),
            wikidata_birth: birth.clone(),
            wikidata_death: death.clone(),
            names: vec![(saint_fields::WIKIDATA, name.clone())],
            name_from: Some(saint_fields::WIKIDATA),
            ..Default::default()
        };
        ss.push(S {
            alive: true,
            qid: Some(q.clone()),
            name: name.clone(),
            names: vec![(name, 1.0)],
            status,
            birth,
            death,
            death_years: years,
            death_md: mds,
            places: [
                place("birthPlace"),
                place("deathPlace"),
                place("burialPlace"),
            ],
            gender: Some(get("gender", q)).filter(|s| !s.is_empty()),
            orders: list("religiousOrders"),
            citizenship: list("countryCitizen"),
            sources: vec![src(WIKIDATA, "CC0-1.0")],
            claims,
            ..Default::default()
        });
    }
    let wd_n = ss.len();
    ctx.source(
        WIKIDATA,
        "shnab-dah/wikidata-saints (Wikidata P411 items)",
        "84b5653",
        "CC0-1.0",
        None,
        wd_n as u64,
    );
    tracing::info!(
        kept = wd_n,
        unlabeled = dropped.0,
        non_catholic = dropped.1,
        "wikidata saints"
    );

    let toks: Vec<Vec<String>> = ss.iter().map(|s| tokens(&s.name)).collect();
    let mut by_first: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, t) in toks.iter().enumerate() {
        if let Some(f) = t.first() {
            by_first.entry(f.clone()).or_default().push(i);
        }
        // "Mother Teresa" is also found under "teresa"
        if t.len() > 1
            && matches!(
                t[0].as_str(),
                "mother"
                    | "father"
                    | "brother"
                    | "sister"
                    | "padre"
                    | "don"
                    | "fray"
                    | "frei"
                    | "madre"
            )
        {
            by_first.entry(t[1].clone()).or_default().push(i);
        }
    }

    // 2. CRMEDR (current entries)
    let ids = read_json(&ctx.data.join(CRMEDR).join("martyrology_ids.json"))?;
    let en = read_json(&ctx.data.join(CRMEDR).join("i18n/en.json"))?;
    let la = read_json(&ctx.data.join(CRMEDR).join("i18n/la.json"))?;
    let it = read_json(&ctx.data.join(CRMEDR).join("i18n/it.json")).unwrap_or(Value::Null);
    let mut crmedr_to: HashMap<String, usize> = HashMap::new();
    let mut c_n = 0u64;
    for e in ids["entries"].as_array().into_iter().flatten() {
        if e["deprecated"].as_bool() == Some(true) {
            continue;
        }
        let (Some(id), Some(m), Some(d)) =
            (e["id"].as_str(), e["month"].as_u64(), e["day"].as_u64())
        else {
            continue;
        };
        let (m, d) = (m as u32, d as u32);
        let la_name = la[id].as_str().unwrap_or("").trim().to_string();
        let first = la_name.split_whitespace().next().unwrap_or("");
        let status = if first.starts_with("Sanct") {
            "saint"
        } else if first.starts_with("Beat") {
            "blessed"
        } else {
            continue; // a feast or a mystery, not a person
        };
        c_n += 1;
        let group = la_name.contains(" et ")
            || la_name.contains("socii")
            || first.ends_with('i')
            || first.ends_with("ae");
        let en_name = en[id].as_str().unwrap_or("").trim().to_string();
        let la_t = tokens(&la_name);
        let en_t = tokens(&en_name);
        let en_ok = !en_name.is_empty() && en_t.first().is_some_and(|f| la_t.contains(f));
        let display = if en_ok {
            crate::fold::strip_title(&en_name)
        } else {
            crate::fold::strip_title(&la_name)
        };
        let country = e["country"].as_str().map(str::to_string);
        let target = if group {
            None
        } else {
            let mut hits: Vec<usize> = Vec::new();
            for t in [&la_t, &en_t] {
                if let Some(cands) = t.first().and_then(|f| by_first.get(f)) {
                    for &i in cands {
                        if ss[i].death_md.contains(&(m, d))
                            && compatible(t, &toks[i])
                            && !hits.contains(&i)
                        {
                            hits.push(i);
                        }
                    }
                }
            }
            (hits.len() == 1).then(|| hits[0])
        };
        let i = match target {
            Some(i) => i,
            None => {
                ss.push(S {
                    alive: true,
                    name: display.clone(),
                    names: vec![(display.clone(), 1.0)],
                    status: Some(status),
                    group,
                    claims: Claims {
                        name_from: Some(saint_fields::CRMEDR),
                        ..Default::default()
                    },
                    ..Default::default()
                });
                ss.len() - 1
            }
        };
        let s = &mut ss[i];
        s.crmedr.push((id.to_string(), m, d, country));
        s.names.push((la_name.clone(), 0.95));
        if en_ok {
            s.names.push((en_name.clone(), 0.97));
            s.claims.names.push((saint_fields::CRMEDR, en_name.clone()));
        }
        // the first entry, or one whose Latin names the record when the first did not (a
        // misaligned English name joins "Sanctus Sergius I" to Peter Claver)
        let own = tokens(&s.name);
        let better = match &s.claims.crmedr_latin {
            None => true,
            Some(old) => !compatible(&tokens(old), &own) && compatible(&la_t, &own),
        };
        if better {
            s.claims.crmedr_status = Some(status);
            s.claims.crmedr_latin = Some(la_name.clone());
        }
        // the Italian names are not always aligned with the ids: keep those that agree
        if let Some(i) = it[id]
            .as_str()
            .filter(|s| tokens(s).iter().any(|t| la_t.first() == Some(t)))
        {
            s.names.push((i.to_string(), 0.95));
        }
        if !s.sources.iter().any(|x| x["dataset"] == CRMEDR) {
            s.sources.push(src(CRMEDR, "Apache-2.0"));
        }
        crmedr_to.insert(id.to_string(), i);
    }
    ctx.source(
        CRMEDR,
        "CatholicOS/crmedr (Roman Martyrology eulogy ids)",
        "7f4f706",
        "Apache-2.0",
        None,
        c_n,
    );

    // 3. 1914 English elogia
    let mut el_n = 0u64;
    let edir = ctx
        .data
        .join(ELOGIA)
        .join("martyrologium_romanum_1914_en_unofficial");
    for month in 1..=12 {
        let Ok(v) = read_json(&edir.join(format!("{month:02}.json"))) else {
            continue;
        };
        for (_, day) in v.as_object().into_iter().flatten() {
            for (id, text) in day["elogia"].as_object().into_iter().flatten() {
                if let (Some(&i), Some(t)) = (crmedr_to.get(id), text.as_str()) {
                    if ss[i].biography.is_none() {
                        ss[i].biography = Some((t.trim().to_string(), id.clone()));
                        ss[i]
                            .sources
                            .push(src(ELOGIA, "public domain (1914 edition)"));
                        el_n += 1;
                    }
                }
            }
        }
    }
    ctx.source(
        ELOGIA,
        "CatholicOS/martyrology-api data/editions (Roman Martyrology, 1914 English)",
        "46f249c",
        "public domain texts; Apache-2.0 repository",
        Some("The Roman Martyrology (1914 English translation), public domain"),
        el_n,
    );

    // 4. romcal catalog + feasts
    let cat = read_json(
        &ctx.data
            .join(ROMCAL)
            .join("romcal_martyrology_catalog.json"),
    )?;
    let feasts = read_json(&ctx.data.join(ROMCAL).join("romcal_feasts_by_calendar.json"))?;
    let npm = read_json(
        &ctx.data
            .join(ROMCAL)
            .join("npm_calendar.general-roman_3.0.0-dev.119_en.json"),
    )
    .unwrap_or(Value::Null);
    let locales = read_json(
        &ctx.data
            .join(ROMCAL)
            .join("npm_calendar.general-roman_names_by_locale.json"),
    )
    .unwrap_or(Value::Null);
    // celebration id → catalog ids
    let mut links: HashMap<String, Vec<String>> = HashMap::new();
    for (cel, defs) in npm["inputs"].as_object().into_iter().flatten() {
        for d in defs.as_array().into_iter().flatten() {
            for m in d["martyrology"].as_array().into_iter().flatten() {
                if let Some(m) = m.as_str() {
                    links.entry(cel.clone()).or_default().push(m.to_string());
                }
            }
        }
    }
    let catalog: HashMap<String, &Value> = cat
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| Some((c["id"].as_str()?.to_string(), c)))
        .collect();
    let cat_ids = |cel: &str| -> Vec<String> {
        match links.get(cel) {
            Some(v) => v.clone(),
            None if catalog.contains_key(cel) => vec![cel.to_string()],
            None => Vec::new(),
        }
    };
    let mut feast_rows: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    for f in feasts.as_array().into_iter().flatten() {
        if f["drop"].as_bool() == Some(true) {
            continue;
        }
        if let Some(id) = f["id"].as_str() {
            for c in cat_ids(id) {
                feast_rows.entry(c).or_default().push(f);
            }
        }
    }
    let mut romcal_to: HashMap<String, usize> = HashMap::new();
    let mut r_n = 0u64;
    let mut cat_sorted: Vec<&String> = catalog.keys().collect();
    cat_sorted.sort();
    for cid in cat_sorted {
        let c = catalog[cid];
        let level = c["canonizationLevel"].as_str().unwrap_or("");
        if c["count"].as_u64().is_some_and(|n| n > 1) || !matches!(level, "SAINT" | "BLESSED") {
            continue;
        }
        r_n += 1;
        let name = c["name"].as_str().unwrap_or("").to_string();
        let t = tokens(&name);
        let (_, dy) = romcal_date(&c["dateOfDeath"]);
        let fmd: Vec<(u32, u32)> = feast_rows
            .get(cid)
            .into_iter()
            .flatten()
            .filter_map(|f| Some((f["month"].as_u64()? as u32, f["day"].as_u64()? as u32)))
            .collect();
        let mut w_hits = Vec::new();
        let mut c_hits = Vec::new();
        if let Some(cands) = t.first().and_then(|f| by_first.get(f)) {
            for &i in cands {
                if compatible(&t, &toks[i])
                    && dy.is_some_and(|y| ss[i].death_years.iter().any(|x| (x - y).abs() <= 1))
                {
                    w_hits.push(i);
                }
            }
        }
        for (i, s) in ss.iter().enumerate().skip(wd_n) {
            if s.alive
                && !s.group
                && s.crmedr.iter().any(|(_, m, d, _)| fmd.contains(&(*m, *d)))
                && s.names.iter().any(|(n, _)| compatible(&t, &tokens(n)))
            {
                c_hits.push(i);
            }
        }
        // Wikidata items already joined to the Martyrology count as date matches too
        for (i, s) in ss.iter().enumerate().take(wd_n) {
            if !w_hits.contains(&i)
                && compatible(&t, &toks[i])
                && s.crmedr.iter().any(|(_, m, d, _)| fmd.contains(&(*m, *d)))
            {
                w_hits.push(i);
            }
        }
        let target = match (w_hits.len(), c_hits.len()) {
            (1, _) => Some(w_hits[0]),
            (0, 1) => Some(c_hits[0]),
            _ => None,
        };
        let i = match target {
            Some(i) => {
                if w_hits.len() == 1 && c_hits.len() == 1 && c_hits[0] != i {
                    merge(&mut ss, i, c_hits[0], &mut crmedr_to);
                }
                i
            }
            None => {
                ss.push(S {
                    alive: true,
                    name: name.clone(),
                    names: vec![(name.clone(), 1.0)],
                    status: Some(if level == "SAINT" { "saint" } else { "blessed" }),
                    claims: Claims {
                        name_from: Some(saint_fields::ROMCAL),
                        ..Default::default()
                    },
                    ..Default::default()
                });
                ss.len() - 1
            }
        };
        let s = &mut ss[i];
        s.romcal = Some(cid.clone());
        s.names.push((name.clone(), 0.98));
        // the calendar's name names the record when the Martyrology gave a bare given
        // name ("John" → "John Chrysostom", "Albert" → "Albert the Great")
        let old = tokens(&s.name);
        if old.len() == 1 && t.len() > 1 && compatible(&t, &old) {
            s.name = name.clone();
            s.claims.name_from = Some(saint_fields::ROMCAL);
        }
        s.claims.names.push((saint_fields::ROMCAL, name.clone()));
        s.titles = c["titles"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t.as_str())
            .map(title_word)
            .collect();
        s.claims.romcal_titles = s.titles.clone();
        let dated = |k: &str, approx: &str| {
            romcal_date(&c[k]).0.map(|value| SourceDate {
                value,
                approximate: c[approx].as_bool() == Some(true),
            })
        };
        s.claims.romcal_birth = dated("dateOfBirth", "dateOfBirthIsApproximative");
        s.claims.romcal_death = dated("dateOfDeath", "dateOfDeathIsApproximative");
        s.claims.romcal_status = Some(if level == "SAINT" { "saint" } else { "blessed" });
        for f in feast_rows.get(cid).into_iter().flatten() {
            let cal = f["calendar"].as_str().unwrap_or("");
            if cal == "general_roman" {
                s.general_roman = true;
                if let (Some(m), Some(d)) = (f["month"].as_u64(), f["day"].as_u64()) {
                    s.claims.romcal_feast = Some((m as u32, d as u32));
                }
            }
            if let (Some(m), Some(d)) = (f["month"].as_u64(), f["day"].as_u64()) {
                s.feast_md.push((m as u32, d as u32));
                s.feasts.push(json!({
                    "calendar": cal,
                    "month": m,
                    "day": d,
                    "rank": f["precedence"].as_str().map(precedence_label),
                    "source": "romcal",
                }));
            }
        }
        s.sources.push(src(ROMCAL, "MIT"));
        romcal_to.insert(cid.clone(), i);
    }
    // names in other languages from romcal's celebrations of one person
    for (_, names) in locales.as_object().into_iter().flatten() {
        for (cel, n) in names.as_object().into_iter().flatten() {
            let ids = cat_ids(cel);
            if ids.len() != 1 {
                continue;
            }
            if let (Some(&i), Some(n)) = (romcal_to.get(&ids[0]), n.as_str()) {
                if !n.contains("$(") {
                    ss[i].names.push((core_name(n), 0.95));
                }
            }
        }
    }
    ctx.source(
        ROMCAL,
        "romcal/romcal catalog and calendars; npm @romcal/calendar.general-roman",
        "78b991e / 3.0.0-dev.119",
        "MIT",
        None,
        r_n,
    );

    // 5. LitCal sanctorale: grades and names in 8 languages
    let mut l_n = 0u64;
    for (missal, label) in [
        (
            "propriumdesanctis_1970",
            "General Roman Calendar (Missale Romanum 1970)",
        ),
        (
            "propriumdesanctis_2002",
            "General Roman Calendar (Missale Romanum 2002)",
        ),
        (
            "propriumdesanctis_2008",
            "General Roman Calendar (Missale Romanum 2008)",
        ),
        ("propriumdesanctis_US_2011", "Proper of Saints, USA (2011)"),
        (
            "propriumdesanctis_IT_1983",
            "Proper of Saints, Italy (1983)",
        ),
    ] {
        let dir = ctx.data.join(LITCAL).join("missals").join(missal);
        let Ok(events) = read_json(&dir.join(format!("{missal}.json"))) else {
            continue;
        };
        let mut i18n: Vec<(String, Value)> = Vec::new();
        for lang in ["en", "la", "it", "fr", "de", "es", "pt", "pl"] {
            if let Ok(v) = read_json(&dir.join("i18n").join(format!("{lang}.json"))) {
                i18n.push((lang.to_string(), v));
            }
        }
        for e in events.as_array().into_iter().flatten() {
            let (Some(key), Some(m), Some(d)) = (
                e["event_key"].as_str(),
                e["month"].as_u64(),
                e["day"].as_u64(),
            ) else {
                continue;
            };
            let (m, d) = (m as u32, d as u32);
            let en_name = i18n
                .iter()
                .find(|(l, _)| l == "en")
                .and_then(|(_, v)| v[key].as_str())
                .or_else(|| e["name"].as_str())
                .unwrap_or("")
                .to_string();
            let base = core_name(&en_name);
            let litcal_status = match base.split_whitespace().next() {
                Some("Saint" | "Saints" | "St." | "Ss.") => Some("saint"),
                Some("Blessed") => Some("blessed"),
                _ => None,
            };
            let general = matches!(
                missal,
                "propriumdesanctis_1970" | "propriumdesanctis_2002" | "propriumdesanctis_2008"
            );
            let parts: Vec<String> = base.split(" and ").map(crate::fold::strip_title).collect();
            let single = parts.len() == 1;
            for part in parts {
                let t = tokens(&part);
                if t.is_empty() {
                    continue;
                }
                let hits: Vec<usize> = ss
                    .iter()
                    .enumerate()
                    .filter(|(i, s)| {
                        s.alive
                            && (s.feast_md.contains(&(m, d))
                                || s.crmedr.iter().any(|(_, cm, cd, _)| (*cm, *cd) == (m, d))
                                || s.death_md.contains(&(m, d)))
                            && (compatible(
                                &t,
                                i.checked_sub(0)
                                    .and_then(|i| toks.get(i))
                                    .unwrap_or(&Vec::new()),
                            ) || s.names.iter().any(|(n, _)| compatible(&t, &tokens(n))))
                    })
                    .map(|(i, _)| i)
                    .collect();
                if hits.len() != 1 {
                    continue;
                }
                let s = &mut ss[hits[0]];
                l_n += 1;
                s.feasts.push(json!({
                    "calendar": label,
                    "month": m,
                    "day": d,
                    "rank": e["grade"].as_i64().map(litcal_grade),
                    "source": "litcal",
                }));
                if missal.starts_with("propriumdesanctis_1970")
                    || missal.starts_with("propriumdesanctis_2")
                {
                    s.general_roman = true;
                }
                if s.claims.litcal_status.is_none() {
                    s.claims.litcal_status = litcal_status;
                }
                if single {
                    for (_, v) in &i18n {
                        if let Some(n) = v[key].as_str() {
                            s.names.push((core_name(n), 0.95));
                        }
                    }
                    s.claims.names.push((saint_fields::LITCAL, base.clone()));
                    if general {
                        // the missals come in order: the latest one's day, titles and Latin stay
                        s.claims.litcal_feast = Some((m, d, label.to_string()));
                        s.claims.litcal_titles = match en_name.split_once(',') {
                            Some((_, t)) => saint_fields::missal_titles(t),
                            None => Some(Vec::new()),
                        };
                        s.claims.litcal_latin = i18n
                            .iter()
                            .find(|(l, _)| l == "la")
                            .and_then(|(_, v)| v[key].as_str())
                            .map(str::to_string);
                    }
                }
                if !s.sources.iter().any(|x| x["dataset"] == LITCAL) {
                    s.sources.push(src(LITCAL, "Apache-2.0"));
                }
            }
        }
    }
    ctx.source(
        &format!("{LITCAL}/missals"),
        "Liturgical-Calendar/LiturgicalCalendarAPI jsondata/missals",
        "425a854",
        "Apache-2.0",
        None,
        l_n,
    );

    // 6. fields two sources give: one value each, by the rules of `saint_fields`;
    // a canonization since the lists, by the record's primary name
    let canonized: HashMap<String, saint_fields::Canonization> = saint_fields::canonizations()
        .map_err(|e| IngestError::Other(e.to_string()))?
        .into_iter()
        .map(|c| (saint_fields::canonization_key(&c.name), c))
        .collect();
    let mut live: Vec<usize> = (0..ss.len()).filter(|&i| ss[i].alive).collect();
    for &i in &live {
        let s = &mut ss[i];
        if let Some(c) = canonized.get(&saint_fields::canonization_key(&s.name)) {
            s.claims.canonization = Some(c.clone());
        }
        let r = saint_fields::reconcile(&s.claims, &s.name, &compatible);
        if r.status.is_some() {
            s.status = r.status;
        }
        s.birth = r.birth.clone();
        s.death = r.death.clone();
        s.titles = r.titles.clone();
        s.fields = Some(r);
    }

    // 7. ids: the strongest record keeps the bare slug
    let prior = |s: &S| -> f32 {
        let mut p = 0.0;
        if s.general_roman {
            p += 0.4;
        }
        if s.romcal.is_some() {
            p += 0.15;
        }
        if s.qid.is_some() {
            p += 0.1;
        }
        if !s.crmedr.is_empty() {
            p += 0.1;
        }
        if s.biography.is_some() {
            p += 0.05;
        }
        p += match s.status {
            Some("saint") => 0.15,
            Some("blessed") => 0.05,
            _ => 0.0,
        };
        f32::min(p, 1.0)
    };
    let key = |s: &S| -> String {
        s.qid
            .clone()
            .or_else(|| s.crmedr.first().map(|c| c.0.clone()))
            .or_else(|| s.romcal.clone())
            .unwrap_or_default()
    };
    live.sort_by(|&a, &b| {
        prior(&ss[b])
            .total_cmp(&prior(&ss[a]))
            .then_with(|| key(&ss[a]).cmp(&key(&ss[b])))
    });
    let mut taken: HashMap<String, ()> = HashMap::new();
    let mut out = Vec::new();
    let mut disagreements = Vec::new();
    for i in live {
        let s = &ss[i];
        let base = slug(&crate::fold::strip_title(&s.name));
        let base = if base.is_empty() { slug(&key(s)) } else { base };
        let year = s
            .death
            .as_deref()
            .and_then(|d| d.get(0..4))
            .map(|y| y.trim_start_matches('0').to_string());
        let mut id = base.clone();
        if taken.contains_key(&id) {
            id = match &year {
                Some(y) if !taken.contains_key(&format!("{base}-{y}")) => format!("{base}-{y}"),
                _ => format!("{base}-{}", slug(&key(s).replace("mr:", ""))),
            };
        }
        let mut n = 2;
        while taken.contains_key(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        taken.insert(id.clone(), ());
        if let Some(r) = &s.fields {
            disagreements.extend(r.disagreements.iter().map(|d| (id.clone(), d.clone())));
        }
        out.push(record(s, id, prior(s)));
    }
    warn_disagreements(ctx, disagreements);
    Ok(out)
}

/// Every field disagreement as an ingest warning, sorted by saint id; those of the
/// fields in [`saint_fields::BULK`] as one counted warning per class
/// (`saint field: canonical_status: kept "blessed" (crmedr); wikidata has "saint": 80 saints`),
/// each one logged at debug level.
fn warn_disagreements(ctx: &mut Ctx, mut ds: Vec<(String, saint_fields::Disagreement)>) {
    ds.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.field.cmp(b.1.field)));
    let mut bulk: BTreeMap<String, u64> = BTreeMap::new();
    for (id, d) in &ds {
        if saint_fields::BULK.contains(&d.field) {
            tracing::debug!("{}", d.warning(id));
            *bulk.entry(d.class()).or_default() += 1;
        } else {
            ctx.warn(d.warning(id));
        }
    }
    for (class, n) in bulk {
        ctx.warn(format!("saint field: {class}: {n} saints"));
    }
}

fn merge(ss: &mut [S], into: usize, from: usize, crmedr_to: &mut HashMap<String, usize>) {
    let f = std::mem::take(&mut ss[from]);
    let t = &mut ss[into];
    for c in &f.crmedr {
        crmedr_to.insert(c.0.clone(), into);
    }
    t.crmedr.extend(f.crmedr);
    t.names
        .extend(f.names.into_iter().map(|(n, w)| (n, w.min(0.97))));
    if t.biography.is_none() {
        t.biography = f.biography;
    }
    for s in f.sources {
        if !t.sources.contains(&s) {
            t.sources.push(s);
        }
    }
    t.claims.absorb(f.claims);
    ss[from].alive = false;
}

fn record(s: &S, id: String, prior: f32) -> Record {
    let none = Reconciled::default();
    let f = s.fields.as_ref().unwrap_or(&none);
    let vocation = (!s.titles.is_empty()).then(|| {
        s.titles
            .iter()
            .map(|t| {
                let mut c = t.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join(", ")
    });
    let prec = |d: &Option<String>| {
        d.as_ref()
            .map(|d| if d.len() >= 10 { "day" } else { "year" })
    };
    let wd_url = |q: &Option<String>| {
        q.as_ref()
            .map(|q| format!("https://www.wikidata.org/wiki/{q}"))
    };
    let martyrology: Vec<Value> = s
        .crmedr
        .iter()
        .map(|(id, m, d, c)| json!({"id": id, "month": m, "day": d, "country": c}))
        .collect();
    let mut feasts = s.feasts.clone();
    // the Martyrology's day (dies natalis) is the commemoration wherever no calendar has one
    for (_, m, d, _) in &s.crmedr {
        if !feasts.iter().any(|f| f["month"] == *m && f["day"] == *d) {
            feasts.push(json!({
                "calendar": "Roman Martyrology",
                "month": m,
                "day": d,
                "rank": "commemoration",
                "source": "crmedr",
            }));
        }
    }
    feasts.sort_by_key(|f| {
        (
            f["calendar"]
                .as_str()
                .map(|c| !(c == "general_roman" || c.starts_with("General")))
                .unwrap_or(true),
            f["month"].as_u64(),
            f["day"].as_u64(),
        )
    });
    let dies_natalis = s
        .crmedr
        .first()
        .map(|(_, m, d, _)| json!({"month": m, "day": d}));
    let mut names: Vec<(String, f32)> = Vec::new();
    for (n, w) in &s.names {
        if !names.iter().any(|(x, _)| fold(x) == fold(n)) {
            names.push((n.clone(), *w));
        }
    }
    let detail = {
        let mut parts = Vec::new();
        if let Some(st) = s.status {
            parts.push(st.replace('_', " "));
        }
        match (&s.birth, &s.death) {
            (Some(b), Some(d)) => {
                parts.push(format!("{}–{}", &b[..b.len().min(4)], &d[..d.len().min(4)]))
            }
            (None, Some(d)) => parts.push(format!("died {}", &d[..d.len().min(4)])),
            _ => {}
        }
        if let Some((_, m, d, c)) = s.crmedr.first() {
            parts.push(format!(
                "Martyrology {m:02}-{d:02}{}",
                c.as_ref().map(|c| format!(" ({c})")).unwrap_or_default()
            ));
        }
        if let Some(o) = s.orders.first() {
            parts.push(o.clone());
        }
        parts.join(", ")
    };
    let profile = json!({
        "saint_id": id,
        "primary_name": s.name,
        "canonical_status": s.status,
        "vocation": vocation,
        "titles": s.titles,
        "image_url": null,
        "learn_more_url": wd_url(&s.qid),
        "birth_date": s.birth,
        "birth_date_precision": prec(&s.birth),
        "birth_place": null,
        "birth_place_wikidata": wd_url(&s.places[0]),
        "death_date": s.death,
        "death_date_precision": prec(&s.death),
        "death_place": null,
        "death_place_wikidata": wd_url(&s.places[1]),
        "burial_place_wikidata": wd_url(&s.places[2]),
        "feast_days": feasts,
        "dies_natalis": dies_natalis,
        "martyrology": martyrology,
        "canonization": {
            "status": s.status,
            "beatification_date": null,
            "canonization_date": s.claims.canonization.as_ref().map(|c| &c.date),
            "canonized_by": s.claims.canonization.as_ref().map(|c| &c.pope),
        },
        "patronages": null,
        "iconography": null,
        "biography": s.biography.as_ref().map(|(t, id)| json!({
            "text": t,
            "source": "The Roman Martyrology (1914 English translation), public domain",
            "martyrology_id": id,
        })),
        "gender": s.gender,
        "religious_orders": s.orders,
        "citizenship": s.citizenship,
        "group": s.group,
        "wikidata_id": s.qid,
        "romcal_id": s.romcal,
        "latin_name": f.latin_name,
        "feast_day": f.feast.map(|(m, d)| json!({"month": m, "day": d})),
        "field_sources": {
            "primary_name": s.claims.name_from,
            "latin_name": f.latin_from,
            "canonical_status": f.status_from,
            "birth_date": f.birth_from,
            "death_date": f.death_from,
            "titles": f.titles_from,
            "feast_day": f.feast_from,
            "dies_natalis": dies_natalis.as_ref().map(|_| saint_fields::CRMEDR),
            "biography": s.biography.as_ref().map(|_| "martyrology-1914"),
        },
        "sources": s.sources,
    });
    Record {
        id,
        kind: Kind::Saint,
        name: s.name.clone(),
        detail,
        prior,
        names,
        profile,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wikidata_dates_skip_unknown_values() {
        let (d, y, md) = wd_dates(
            "http://www.wikidata.org/.well-known/genid/abc;0420-09-30T00:00:00Z;0419-01-01T00:00:00Z",
        );
        assert_eq!(d.as_deref(), Some("0420-09-30"));
        assert_eq!((y, md), (vec![420, 419], vec![(9, 30)]));
        assert_eq!(wd_dates("http://www.wikidata.org/x").0, None);
        assert_eq!(
            wd_dates("-0100-01-01T00:00:00Z").0.as_deref(),
            Some("-0100")
        );
        assert_eq!(wd_dates("Thé 1234-56-78").0, None);
    }

    /// The made-up miniature in `tests/fixtures/saint-fields-mini` (always present): each
    /// field rule once, and exactly these disagreements.
    #[test]
    fn fixture_field_disagreements() {
        let mut ctx = Ctx {
            data: std::path::PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/saint-fields-mini"
            )),
            sources: Vec::new(),
            warnings: Vec::new(),
            cardinal_births: HashMap::new(),
        };
        let recs = build(&mut ctx).expect("the miniature builds");
        let found: Vec<&str> = ctx
            .warnings
            .iter()
            .map(String::as_str)
            .filter(|w| w.starts_with("saint field: "))
            .collect();
        let want = [
            r#"saint field: jerome: birth_date: kept "0345" (wikidata); romcal has "0347""#,
            r#"saint field: marcus-testus: death_date: kept "1600-06-01" (wikidata); romcal has "1601-06-01""#,
            r#"saint field: marcus-testus: feast_day: kept "06-01 (General Roman Calendar (Missale Romanum 2008))" (litcal); romcal has "06-03""#,
            r#"saint field: marcus-testus: latin_name: kept "Quintus Testus" (crmedr); litcal has "S. Marci Testi, episcopi et martyris""#,
            r#"saint field: marcus-testus: titles: kept "bishop, martyr" (litcal); romcal has "bishop, missionary""#,
            r#"saint field: thomas-becket: death_date: kept "1170-12-29" (romcal); wikidata has "1171-01-05""#,
            r#"saint field: canonical_status: kept "blessed" (crmedr); wikidata has "saint": 1 saints"#,
        ];
        assert_eq!(found, want, "{found:#?}");
        let p = |id: &str| {
            recs.iter()
                .find(|r| r.id == id)
                .map(|r| r.profile.clone())
                .unwrap_or_else(|| {
                    panic!(
                        "no {id}: {:?}",
                        recs.iter().map(|r| &r.id).collect::<Vec<_>>()
                    )
                })
        };
        let j = p("jerome");
        assert_eq!(j["latin_name"], "Hieronymus");
        assert_eq!(j["death_date"], "0420-09-30");
        assert_eq!(j["field_sources"]["death_date"], "wikidata");
        assert_eq!(j["field_sources"]["titles"], "litcal");
        assert_eq!(j["vocation"], "Priest, Doctor of the church");
        assert_eq!(j["field_sources"]["canonical_status"], "romcal");
        let a = p("anna-exempla");
        assert_eq!(a["canonical_status"], "blessed");
        assert_eq!(a["field_sources"]["canonical_status"], "crmedr");
        assert_eq!(a["field_sources"]["feast_day"], Value::Null);
        let m = p("marcus-testus");
        assert_eq!(m["titles"], json!(["bishop", "martyr", "missionary"]));
        assert_eq!(m["feast_day"], json!({"month": 6, "day": 1}));
        assert_eq!(m["birth_date"], "1540-03-02");
        assert_eq!(p("odd-dates")["death_date"], Value::Null);
        let t = p("thomas-becket");
        assert_eq!(t["death_date"], "1170-12-29");
        assert_eq!(t["field_sources"]["death_date"], "romcal");
        assert_eq!(t["birth_date"], "1120-12-21");
        assert_eq!(t["field_sources"]["birth_date"], "wikidata");
    }
}
