//! The national calendars defined by romcal's data (`calendar/romcal/romcal_feasts_by_calendar.json`),
//! computed by our engine: Poland (`pl`), Brazil (`br`), the Philippines (`ph`), Ireland (`ie`),
//! England, Wales, Scotland (`gb-eng`, `gb-wls`, `gb-sct`), … — every nation listed in
//! `data/nations.tsv` that LitCal does not already give us (LitCal stays the source for `us`, `ca`,
//! `it`, `nl`).
//!
//! How a nation is built: the General Roman Calendar of our engine (LitCal's Missal sanctorale and
//! the later decrees); then the rows of its wider region (`europe`, `americas`), then its own rows.
//! A row whose romcal slug names a celebration of the General Calendar changes it (date, rank, or
//! drops it); any other slug is a proper celebration of the nation, inscribed with romcal's date and
//! precedence. The slugs of the General Calendar are matched to our LitCal keys by date and name
//! ([`SlugMap`]); the Sunday transfers come from `data/nations.tsv`, which cites a source for each.

use super::data::{read_json, SanctoralEntry};
use super::{CalendarData, CalendarSpec};
use crate::error::LiturgyError;
use crate::types::Color;
use chrono::Weekday;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Our table of nations: id, English name, romcal calendar, region, languages, transfers, source.
pub const NATIONS_TSV: &str = include_str!("../../data/nations.tsv");

/// Where Epiphany is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EpiphanyRule {
    /// 6 January.
    Jan6,
    /// The Sunday between 2 and 8 January.
    Sunday,
    /// 6 January, or the adjacent Sunday when 6 January is a Saturday or a Monday.
    Adjacent,
}

/// One row of `data/nations.tsv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nation {
    /// Our calendar id (ISO 3166: `pl`, `gb-eng`).
    pub id: String,
    /// English name of the nation (`Poland`, `England`), for labels.
    pub name: String,
    /// The `calendar` value in romcal's data (`poland`, `england`).
    pub romcal: String,
    /// The wider calendar applied first (`europe`, `americas`), if any.
    pub region: Option<String>,
    /// Languages (names_by_locale tags such as `en-IE`, `pt-BR`, or plain codes).
    pub langs: Vec<String>,
    /// Where Epiphany is kept.
    pub epiphany: EpiphanyRule,
    /// Ascension on the Seventh Sunday of Easter.
    pub ascension_on_sunday: bool,
    /// Corpus Christi on the Sunday after Trinity.
    pub corpus_christi_on_sunday: bool,
    /// The nation's own rules for single celebrations: (romcal slug, rule).
    pub rules: Vec<(String, Rule)>,
    /// The source of the three transfer settings and of the rules.
    pub source: String,
}

/// A nation's own rule for one celebration (`data/nations.tsv`, column `rules`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// `mon-1,sat+1`: when the date falls on the weekday, kept that many days later (earlier
    /// when negative). The holy days that England, Wales, Scotland and Brazil keep on a Sunday.
    Weekdays(Vec<(Weekday, i64)>),
    /// `easter-9`: kept that many days after Easter (before when negative). Malta's Our Lady of
    /// Sorrows on the Friday before Palm Sunday.
    Easter(i64),
    /// `replaces-sunday`: takes the place of a Sunday in Ordinary Time (Table of Liturgical Days
    /// 5, the rank of a feast of the Lord of the General Calendar; a feast of the nation would
    /// otherwise give way to the Sunday). The Philippines' Santo Niño, third Sunday of January.
    ReplacesSunday,
}

impl Rule {
    /// Parse one rule of the `rules` column.
    pub fn parse(s: &str) -> Option<Rule> {
        if s == "replaces-sunday" {
            return Some(Rule::ReplacesSunday);
        }
        if let Some(n) = s.strip_prefix("easter") {
            return signed(n).map(Rule::Easter);
        }
        let mut moves = Vec::new();
        for m in s.split(',') {
            let (wd, n) = m.split_at_checked(3)?;
            let wd = crate::phrases::weekday_from_english(wd)?;
            let n = signed(n).filter(|n| *n != 0 && n.abs() < 7)?;
            if moves.iter().any(|(w, _)| *w == wd) {
                return None;
            }
            moves.push((wd, n));
        }
        Some(Rule::Weekdays(moves))
    }
}

/// `+5`, `-1` (a sign is required).
fn signed(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => return None,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = digits.parse().ok()?;
    Some(if neg { -n } else { n })
}

/// Parse `data/nations.tsv` (comment lines start with `#`; the header starts with `id`).
/// The console and CLI can label the national ids with [`Nation::name`].
pub fn nations() -> Result<Vec<Nation>, LiturgyError> {
    let path = Path::new("crates/liturgy/data/nations.tsv");
    let mut out = Vec::new();
    for (n, line) in NATIONS_TSV.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("id\t") || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let bad = |what: &str| LiturgyError::data(path, format!("line {}: {what}", n + 1));
        if f.len() != 10 {
            return Err(bad("expected 10 tab-separated fields"));
        }
        let epiphany = match f[5] {
            "jan6" => EpiphanyRule::Jan6,
            "sunday" => EpiphanyRule::Sunday,
            "adjacent" => EpiphanyRule::Adjacent,
            _ => return Err(bad("epiphany must be jan6, sunday or adjacent")),
        };
        let day = |s: &str| match s {
            "sunday" => Ok(true),
            "thursday" => Ok(false),
            _ => Err(bad("ascension and corpus must be thursday or sunday")),
        };
        out.push(Nation {
            id: f[0].to_string(),
            name: f[1].to_string(),
            romcal: f[2].to_string(),
            region: (f[3] != "-").then(|| f[3].to_string()),
            langs: f[4].split(',').map(str::to_string).collect(),
            epiphany,
            ascension_on_sunday: day(f[6])?,
            corpus_christi_on_sunday: day(f[7])?,
            rules: rules(f[8]).ok_or_else(|| {
                bad("rules must be `-` or `slug=rule;...` (mon-1,sat+1 | easter-9 | replaces-sunday)")
            })?,
            source: f[9].to_string(),
        });
    }
    Ok(out)
}

/// The `rules` column: `-`, or `slug=rule` separated by `;`.
fn rules(s: &str) -> Option<Vec<(String, Rule)>> {
    if s == "-" {
        return Some(Vec::new());
    }
    s.split(';')
        .map(|item| {
            let (slug, rule) = item.split_once('=')?;
            let slug_ok = !slug.is_empty()
                && slug
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            if !slug_ok {
                return None;
            }
            Some((slug.to_string(), Rule::parse(rule)?))
        })
        .collect()
}

/// One row of `romcal_feasts_by_calendar.json`.
#[derive(Debug, Clone, Deserialize)]
struct Row {
    calendar: String,
    id: String,
    month: Option<u32>,
    day: Option<u32>,
    precedence: Option<String>,
    #[serde(default)]
    drop: bool,
}

/// Dates of the General Calendar that romcal computes by a function (`dateFn`) rather than
/// month/day: the fixed date each function starts from (its transfers are our engine's).
const DATE_FNS: &[(&str, u32, u32)] = &[
    ("presentation_of_the_lord", 2, 2),
    ("annunciation_of_the_lord", 3, 25),
    ("nativity_of_john_the_baptist", 6, 24),
    ("peter_and_paul_apostles", 6, 29),
    ("transfiguration_of_the_lord", 8, 6),
    ("assumption_of_the_blessed_virgin_mary", 8, 15),
    ("exaltation_of_the_holy_cross", 9, 14),
    ("all_saints", 11, 1),
    ("immaculate_conception_of_the_blessed_virgin_mary", 12, 8),
];

/// romcal slugs of the moveable memorials our engine builds into the proper of time.
const TEMPORAL_SLUGS: &[(&str, &str, i64)] = &[
    ("immaculate_heart_of_mary", "ImmaculateHeart", 69),
    ("mary_mother_of_the_church", "MaryMotherChurch", 50),
];

/// National slugs of saints whom the General Calendar inscribed after romcal's data was taken
/// (commit 78b991e, October 2024): the same saint as our key, not a second celebration. A national
/// row for them also keeps the saint in the years before the general inscription (from 1970, like
/// every romcal proper, whose since-years the data does not carry).
const SLUG_ALIASES: &[(&str, &str)] = &[
    // Inscribed in the General Calendar in 2025 (`DECREES`); Hungary and India had her earlier.
    ("teresa_of_calcutta_religious", "StTeresaCalcutta"),
    // Inscribed in 2026 (`DECREES`); England, Wales and Ireland had him earlier.
    ("john_henry_newman_priest", "StJohnHenryNewman"),
];

/// Moveable dates of proper celebrations, from romcal's `dateDef` (npm
/// `@romcal/calendar.<nation>@3.0.0-dev.116`), which the flattened data leaves empty.
enum Moveable {
    EasterOffset(i64),
    NthWeekday(u8, Weekday, u32),
}

const MOVEABLE: &[(&str, Moveable)] = &[
    // pentecostSunday + 4: the Thursday after Pentecost.
    (
        "our_lord_jesus_christ_the_eternal_high_priest",
        Moveable::EasterOffset(53),
    ),
    // divineMercySunday + 6.
    ("our_lady_of_the_valley", Moveable::EasterOffset(13)),
    // Second Saturday of May.
    (
        "our_lady_of_china",
        Moveable::NthWeekday(2, Weekday::Sat, 5),
    ),
    // Third Sunday of January.
    (
        "holy_child_of_cebu",
        Moveable::NthWeekday(3, Weekday::Sun, 1),
    ),
    // Last Sunday of October (Poland: the dedication of churches whose date is unknown).
    (
        "dedication_of_consecrated_churches",
        Moveable::NthWeekday(5, Weekday::Sun, 10),
    ),
    ("labor_day", Moveable::NthWeekday(1, Weekday::Mon, 9)),
    (
        "thanksgiving_day",
        Moveable::NthWeekday(2, Weekday::Mon, 10),
    ),
];

/// The grade (LitCal: 2 optional memorial … 6 solemnity) and `proper` flag of a romcal precedence
/// (`ProperMemorial_11b`, `GeneralSolemnity_3`, `ProperSolemnity_PrincipalPatron_4a`, …).
pub fn grade_of(precedence: &str) -> Option<(u8, bool)> {
    let kind = precedence.split('_').next()?;
    Some(match kind {
        "ProperOfTimeSolemnity" | "GeneralSolemnity" => (6, false),
        "ProperSolemnity" => (6, true),
        "GeneralLordFeast" => (5, false),
        "GeneralFeast" => (4, false),
        "ProperFeast" => (4, true),
        "GeneralMemorial" => (3, false),
        "ProperMemorial" => (3, true),
        "OptionalMemorial" => (2, true),
        _ => return None,
    })
}

fn tokens(s: &str) -> Vec<String> {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
        .map(str::to_string)
        .collect()
}

fn similarity(a: &str, b: &str) -> f64 {
    let (a, b) = (tokens(a), tokens(b));
    let inter = a.iter().filter(|w| b.contains(w)).count();
    let union = a.len() + b.len() - inter;
    if union == 0 {
        0.0
    } else {
        inter as f64 / union as f64
    }
}

/// romcal slugs of the General Calendar → our keys, matched by date and English name.
#[derive(Debug, Clone, Default)]
pub struct SlugMap {
    to_key: HashMap<String, String>,
}

impl SlugMap {
    /// Our key for a romcal slug of the General Calendar.
    pub fn key(&self, slug: &str) -> Option<&str> {
        self.to_key.get(slug).map(String::as_str)
    }
    /// The romcal slug of one of our keys.
    pub fn slug(&self, key: &str) -> Option<&str> {
        self.to_key
            .iter()
            .find(|(_, k)| k.as_str() == key)
            .map(|(s, _)| s.as_str())
    }
    /// Every (slug, key) pair.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.to_key.iter().map(|(s, k)| (s.as_str(), k.as_str()))
    }

    /// Match each General Calendar row (dated by the row, or by [`DATE_FNS`]) with the general
    /// entry of our sanctorale on that date whose English name is closest to romcal's.
    fn build(
        rows: &[Row],
        general: &[SanctoralEntry],
        romcal_en: &HashMap<String, String>,
        names: &HashMap<String, HashMap<String, String>>,
    ) -> Self {
        let mut to_key = HashMap::new();
        for (slug, key, _) in TEMPORAL_SLUGS {
            to_key.insert(slug.to_string(), key.to_string());
        }
        for (slug, key) in SLUG_ALIASES {
            if general.iter().any(|g| g.key == *key) {
                to_key.insert(slug.to_string(), key.to_string());
            }
        }
        for r in rows.iter().filter(|r| r.calendar == "general_roman") {
            let date = match (r.month, r.day) {
                (Some(m), Some(d)) => Some((m, d)),
                _ => DATE_FNS
                    .iter()
                    .find(|(s, _, _)| *s == r.id)
                    .map(|(_, m, d)| (*m, *d)),
            };
            let Some((m, d)) = date else { continue };
            let rname = romcal_en
                .get(&r.id)
                .cloned()
                .unwrap_or_else(|| r.id.clone());
            let best = general
                .iter()
                .filter(|g| g.month == m && g.day == d && g.rule.is_none())
                .map(|g| {
                    let en = names
                        .get(&g.key)
                        .and_then(|n| n.get("en"))
                        .map_or(g.key.as_str(), String::as_str);
                    (similarity(&rname, en), g.key.clone())
                })
                .max_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((_, key)) = best {
                to_key.insert(r.id.clone(), key);
            }
        }
        SlugMap { to_key }
    }
}

/// An English name made from a romcal slug and, where it has the person, the martyrology
/// catalog: `adalbert_of_prague_bishop` → "Saint Adalbert of Prague, Bishop and Martyr";
/// `irish_martyrs` → "Irish Martyrs"; `our_lady_of_knock` → "Our Lady of Knock".
fn english_name(slug: &str, person: Option<&Value>) -> String {
    const SMALL: &[&str] = &[
        "of", "the", "and", "de", "in", "on", "da", "del", "du", "von",
    ];
    const TITLES: &[&str] = &[
        "bishop",
        "bishops",
        "priest",
        "priests",
        "martyr",
        "martyrs",
        "virgin",
        "virgins",
        "abbot",
        "abbess",
        "religious",
        "pope",
        "monk",
        "hermit",
        "hermits",
        "deacon",
    ];
    /// Titles of the catalog printed after the name; others (`QUEEN_OF_POLAND`) are not titles of a saint.
    const PERSON_TITLES: &[&str] = &[
        "BISHOP",
        "PRIEST",
        "MARTYR",
        "VIRGIN",
        "ABBOT",
        "ABBESS",
        "RELIGIOUS",
        "POPE",
        "MONK",
        "HERMIT",
        "DEACON",
        "DOCTOR_OF_THE_CHURCH",
        "MISSIONARY",
        "APOSTLE",
        "EVANGELIST",
    ];
    let cap = |w: &str| {
        let mut c = w.chars();
        c.next()
            .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
            .unwrap_or_default()
    };
    let words_of = |ws: &[&str]| {
        ws.iter()
            .enumerate()
            .map(|(i, w)| {
                if i > 0 && SMALL.contains(w) {
                    w.to_string()
                } else if i > 0 && w.chars().all(|c| matches!(c, 'i' | 'v' | 'x')) {
                    // Regnal numbers: `henry_ii_emperor` → "Henry II Emperor".
                    w.to_uppercase()
                } else {
                    cap(w)
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let words: Vec<&str> = slug.split('_').collect();
    let mut end = words.len();
    while end > 1 && TITLES.contains(&words[end - 1]) {
        end -= 1;
    }
    let level = person
        .filter(|p| p.get("count").is_none())
        .and_then(|p| p.get("canonizationLevel"))
        .and_then(Value::as_str);
    let prefix = match level {
        Some("BLESSED") => "Blessed ",
        Some("SAINT") => "Saint ",
        _ => "",
    };
    let collective = matches!(words.first(), Some(&("our" | "all" | "holy" | "first")))
        || words.iter().any(|w| *w == "companions" || *w == "saints");
    if prefix.is_empty() || collective {
        // A celebration, not one person: the slug as words, its titles after a comma when it
        // names people with companions ("Vincent Lewoniuk and Companions, Martyrs").
        let full = words_of(&words);
        return if words[..end].contains(&"companions") && end < words.len() {
            format!("{}, {}", words_of(&words[..end]), words_of(&words[end..]))
        } else {
            full
        };
    }
    let base = words_of(&words[..end]);
    let ptitles: Vec<String> = person
        .and_then(|p| p.get("titles"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|t| PERSON_TITLES.contains(t))
        .map(|t| {
            t.split('_')
                .map(|w| {
                    let w = w.to_lowercase();
                    if SMALL.contains(&w.as_str()) {
                        w
                    } else {
                        cap(&w)
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let titles: Vec<String> = if ptitles.is_empty() {
        words[end..].iter().map(|w| cap(w)).collect()
    } else {
        ptitles
    };
    if titles.is_empty() {
        format!("{prefix}{base}")
    } else {
        format!("{prefix}{base}, {}", titles.join(" and "))
    }
}

/// What the romcal data gives every national calendar: its rows, the slug map and the names.
struct Source {
    rows: Vec<Row>,
    slugs: SlugMap,
    /// locale → slug → name (General Calendar celebrations only).
    locales: HashMap<String, HashMap<String, String>>,
    /// slug → martyrology catalog entry.
    persons: HashMap<String, Value>,
}

fn load_source(
    dir: &Path,
    general: &[SanctoralEntry],
    names: &HashMap<String, HashMap<String, String>>,
) -> Result<Source, LiturgyError> {
    let path = dir.join("romcal_feasts_by_calendar.json");
    let v = read_json(&path)?;
    let rows: Vec<Row> =
        serde_json::from_value(v).map_err(|e| LiturgyError::data(&path, e.to_string()))?;
    let locales_path = dir.join("npm_calendar.general-roman_names_by_locale.json");
    let locales: HashMap<String, HashMap<String, String>> =
        serde_json::from_value(read_json(&locales_path)?)
            .map_err(|e| LiturgyError::data(&locales_path, e.to_string()))?;
    let catalog = dir.join("romcal_martyrology_catalog.json");
    let persons = match read_json(&catalog)? {
        Value::Array(a) => a
            .into_iter()
            .filter_map(|p| Some((p.get("id")?.as_str()?.to_string(), p)))
            .collect(),
        _ => return Err(LiturgyError::data(&catalog, "expected an array".into())),
    };
    let empty = HashMap::new();
    let slugs = SlugMap::build(&rows, general, locales.get("en").unwrap_or(&empty), names);
    Ok(Source {
        rows,
        slugs,
        locales,
        persons,
    })
}

/// Apply one romcal row to a sanctorale.
fn apply_row(
    src: &Source,
    nation: &Nation,
    sanctorale: &mut Vec<SanctoralEntry>,
    names: &mut HashMap<String, HashMap<String, String>>,
    row: &Row,
) {
    let grade = row.precedence.as_deref().and_then(grade_of);
    if !row.drop && grade.is_none() && (row.month.is_none() || row.day.is_none()) {
        // Nothing to change (romcal's own proper-of-time bookkeeping rows).
        return;
    }
    let temporal = TEMPORAL_SLUGS.iter().find(|(s, _, _)| *s == row.id);
    let key = src
        .slugs
        .key(&row.id)
        .map(str::to_string)
        .unwrap_or_else(|| row.id.clone());
    if row.drop {
        sanctorale.retain(|g| g.key != key);
        return;
    }
    let exists = sanctorale.iter().any(|g| g.key == key);
    if let (Some((_, tkey, offset)), Some((grade, proper))) = (temporal, grade) {
        // A built-in moveable memorial with another rank: a national entry replaces it.
        sanctorale.retain(|g| g.key != *tkey);
        sanctorale.push(entry(
            tkey,
            0,
            0,
            grade,
            proper,
            Color::White,
            Some(*offset),
        ));
        return;
    }
    if exists {
        let alias = SLUG_ALIASES.iter().any(|(s, _)| *s == row.id);
        let first = sanctorale
            .iter()
            .filter(|g| g.key == key)
            .map(|g| g.from_year)
            .min()
            .unwrap_or(1970);
        if alias && first > 1970 {
            // The nation kept the saint before the General Calendar did.
            if let Some(g) = sanctorale.iter().find(|g| g.key == key) {
                let mut early = g.clone();
                early.from_year = 1970;
                early.until_year = Some(first - 1);
                early.proper = true;
                sanctorale.push(early);
            }
        }
        for g in sanctorale.iter_mut().filter(|g| g.key == key) {
            if let (Some(m), Some(d)) = (row.month, row.day) {
                g.month = m;
                g.day = d;
            }
            if let Some((grade, proper)) = grade {
                g.grade = grade;
                g.proper = proper;
            }
        }
        return;
    }
    // A proper celebration of the nation.
    let moveable = MOVEABLE.iter().find(|(s, _)| *s == row.id).map(|(_, m)| m);
    let (month, day, offset, rule) = match (row.month, row.day, moveable) {
        (Some(m), Some(d), _) => (m, d, None, None),
        (_, _, Some(Moveable::EasterOffset(o))) => (0, 0, Some(*o), None),
        (_, _, Some(Moveable::NthWeekday(n, w, m))) => (0, 0, None, Some((*n, *w, *m))),
        _ => {
            tracing::warn!("romcal {}: {} has no date; skipped", nation.romcal, row.id);
            return;
        }
    };
    let (grade, proper) = grade.unwrap_or((2, true));
    // A proper that names a celebration of the General Calendar on the same day with more saints
    // (`peter_baptist_blasquez_paul_miki_and_companions_martyrs` for `paul_miki_and_companions_martyrs`,
    // `henry_ii_emperor_and_cunigunde_of_luxembourg` for `henry_ii_emperor`) is the nation's form of it
    // and replaces it.
    if offset.is_none() && rule.is_none() {
        let replaced: Vec<String> = sanctorale
            .iter()
            .filter(|g| g.month == month && g.day == day && g.rule.is_none())
            .filter(|g| {
                src.slugs
                    .slug(&g.key)
                    .is_some_and(|s| s != row.id && row.id.contains(s))
            })
            .map(|g| g.key.clone())
            .collect();
        sanctorale.retain(|g| !replaced.contains(&g.key));
    }
    let person = src.persons.get(&row.id);
    let martyr = row.id.contains("martyr")
        || person
            .and_then(|p| p.get("titles"))
            .and_then(Value::as_array)
            .is_some_and(|t| t.iter().any(|x| x.as_str() == Some("MARTYR")));
    let mut e = entry(
        &key,
        month,
        day,
        grade,
        proper,
        if martyr { Color::Red } else { Color::White },
        offset,
    );
    e.rule = rule;
    sanctorale.push(e);
    names
        .entry(key.clone())
        .or_default()
        .entry("en".into())
        .or_insert_with(|| english_name(&row.id, person));
}

/// Apply the nation's `rules` (`data/nations.tsv`) to every entry of the celebration. A rule
/// whose slug names no celebration of the nation is an error of the table.
fn apply_rules(
    src: &Source,
    nation: &Nation,
    sanctorale: &mut [SanctoralEntry],
) -> Result<(), LiturgyError> {
    for (slug, rule) in &nation.rules {
        let key = src.slugs.key(slug).unwrap_or(slug);
        let mut found = false;
        for g in sanctorale.iter_mut().filter(|g| g.key == key) {
            found = true;
            match rule {
                Rule::Weekdays(moves) => g.weekday_moves = moves.clone(),
                Rule::Easter(offset) => {
                    // No month/day left behind (a fixed-date fallback would find it there).
                    g.easter_offset = Some(*offset);
                    g.rule = None;
                    g.month = 0;
                    g.day = 0;
                }
                // Precedence 5 (`precedence_of`): above a Sunday in Ordinary Time (6), below
                // the Sundays of Advent, Lent and Easter (2).
                Rule::ReplacesSunday => g.grade = g.grade.max(5),
            }
        }
        if !found {
            return Err(LiturgyError::data(
                Path::new("crates/liturgy/data/nations.tsv"),
                format!(
                    "{}: rule for {slug}, which the nation does not keep",
                    nation.id
                ),
            ));
        }
    }
    Ok(())
}

fn entry(
    key: &str,
    month: u32,
    day: u32,
    grade: u8,
    proper: bool,
    color: Color,
    easter_offset: Option<i64>,
) -> SanctoralEntry {
    SanctoralEntry {
        key: key.to_string(),
        month,
        day,
        grade,
        color,
        from_year: 1970,
        until_year: None,
        proper,
        sunday_to_monday: false,
        rule: None,
        easter_offset,
        weekday_moves: Vec::new(),
    }
}

/// Build every nation of `data/nations.tsv` that is not already in `specs` (LitCal's), from
/// `calendar/romcal` under `data_dir`, and add the names of the General Calendar's celebrations in
/// the nations' languages. Returns the slug map (for the romcal comparison).
/// The language of a nation's local names: its first that is not English.
fn local_language(nation: &Nation) -> Option<String> {
    nation.langs.iter().find(|l| !l.starts_with("en")).cloned()
}

pub(super) fn load(
    data_dir: &Path,
    specs: &mut BTreeMap<String, CalendarSpec>,
    names: &mut HashMap<String, HashMap<String, String>>,
) -> Result<SlugMap, LiturgyError> {
    let dir = data_dir.join("calendar/romcal");
    let general = specs
        .get("general-roman")
        .map(|s| s.sanctorale.clone())
        .unwrap_or_default();
    let src = load_source(&dir, &general, names)?;
    for nation in nations()? {
        for lang in &nation.langs {
            if let Some(m) = src.locales.get(lang) {
                for (slug, key) in src.slugs.pairs() {
                    if let Some(n) = m.get(slug).filter(|n| !n.starts_with("$(")) {
                        let e = names.entry(key.to_string()).or_default();
                        e.entry(lang.clone()).or_insert_with(|| n.clone());
                        if let Some(short) = lang.split('-').next() {
                            e.entry(short.to_string()).or_insert_with(|| n.clone());
                        }
                    }
                }
            }
        }
        if let Some(spec) = specs.get_mut(&nation.id) {
            spec.language = local_language(&nation);
            continue;
        }
        let mut sanctorale = general.clone();
        for cal in nation.region.iter().chain(std::iter::once(&nation.romcal)) {
            for row in src.rows.iter().filter(|r| &r.calendar == cal) {
                apply_row(&src, &nation, &mut sanctorale, names, row);
            }
        }
        apply_rules(&src, &nation, &mut sanctorale)?;
        specs.insert(
            nation.id.clone(),
            CalendarSpec {
                id: nation.id.clone(),
                epiphany_on_sunday: nation.epiphany == EpiphanyRule::Sunday,
                epiphany_adjacent_sunday: nation.epiphany == EpiphanyRule::Adjacent,
                ascension_on_sunday: nation.ascension_on_sunday,
                corpus_christi_on_sunday: nation.corpus_christi_on_sunday,
                sanctorale,
                language: local_language(&nation),
            },
        );
    }
    Ok(src.slugs)
}

impl CalendarData {
    /// romcal slugs of the General Calendar matched to our keys (empty when romcal's data is absent).
    pub fn romcal_slugs(&self) -> &SlugMap {
        &self.romcal_slugs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_slugs() {
        let saint =
            serde_json::json!({"canonizationLevel": "SAINT", "titles": ["BISHOP", "MARTYR"]});
        assert_eq!(
            english_name("adalbert_of_prague_bishop", Some(&saint)),
            "Saint Adalbert of Prague, Bishop and Martyr"
        );
        let queen =
            serde_json::json!({"canonizationLevel": "SAINT", "titles": ["QUEEN_OF_POLAND"]});
        assert_eq!(
            english_name("our_lady_queen_of_poland", Some(&queen)),
            "Our Lady Queen of Poland"
        );
        assert_eq!(english_name("irish_martyrs", None), "Irish Martyrs");
        assert_eq!(
            english_name("henry_ii_emperor_and_cunigunde_of_luxembourg", None),
            "Henry II Emperor and Cunigunde of Luxembourg"
        );
        assert_eq!(
            english_name("our_lord_jesus_christ_the_eternal_high_priest", None),
            "Our Lord Jesus Christ the Eternal High Priest"
        );
        assert_eq!(
            english_name("vincent_lewoniuk_and_companions_martyrs", None),
            "Vincent Lewoniuk and Companions, Martyrs"
        );
    }

    #[test]
    fn rules_column() {
        assert_eq!(
            Rule::parse("mon-1,sat+1"),
            Some(Rule::Weekdays(vec![(Weekday::Mon, -1), (Weekday::Sat, 1)]))
        );
        assert_eq!(Rule::parse("easter-9"), Some(Rule::Easter(-9)));
        assert_eq!(Rule::parse("replaces-sunday"), Some(Rule::ReplacesSunday));
        for bad in [
            "",
            "mon1",
            "mon+0",
            "mon+7",
            "xyz+1",
            "mon-1,mon+1",
            "easter9",
            "easter-",
        ] {
            assert_eq!(Rule::parse(bad), None, "{bad:?}");
        }
        assert_eq!(rules("-"), Some(Vec::new()));
        assert_eq!(
            rules("a_b=easter+3;c=replaces-sunday").map(|r| r.len()),
            Some(2)
        );
        assert_eq!(rules("A=easter+3"), None);
        assert_eq!(rules("a_b"), None);
        let n = nations().expect("nations.tsv parses");
        let of = |id: &str| {
            n.iter()
                .find(|x| x.id == id)
                .map(|x| x.rules.clone())
                .unwrap_or_default()
        };
        assert_eq!(
            of("ph"),
            vec![("holy_child_of_cebu".to_string(), Rule::ReplacesSunday)]
        );
        assert_eq!(
            of("mt"),
            vec![("our_lady_of_sorrows".to_string(), Rule::Easter(-9))]
        );
        assert_eq!(of("br").len(), 3);
        assert_eq!(of("gb-sct"), of("gb-eng"));
        assert!(of("pt").is_empty());
    }

    #[test]
    fn precedences_and_table() {
        assert_eq!(
            grade_of("ProperSolemnity_PrincipalPatron_4a"),
            Some((6, true))
        );
        assert_eq!(grade_of("GeneralMemorial_10"), Some((3, false)));
        assert_eq!(grade_of("OptionalMemorial_12"), Some((2, true)));
        assert_eq!(grade_of("Nonsense"), None);
        let n = nations().expect("nations.tsv parses");
        assert_eq!(n.len(), 54, "54 nations: 50 from romcal, 4 from LitCal");
        let ids: std::collections::HashSet<&str> = n.iter().map(|x| x.id.as_str()).collect();
        assert_eq!(ids.len(), n.len(), "ids are unique");
        for id in ["pl", "br", "ph", "ie", "gb-eng", "gb-wls", "gb-sct", "gr"] {
            assert!(ids.contains(id), "{id}");
        }
    }
}
