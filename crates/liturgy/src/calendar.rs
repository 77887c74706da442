//! The General Roman Calendar (and national calendars) computed for any year.
//!
//! The proper of time is computed from Easter; the proper of saints comes from
//! the LitCal Roman Missal sanctorale (`calendar/litcal/missals`, editions 1970,
//! 2002, 2008) plus the later decrees listed in [`DECREES`]; national calendars
//! come from `calendar/litcal/calendars/nations/<XX>`. Precedence follows the
//! Table of Liturgical Days of the General Norms (1969).

use crate::easter::easter;
use crate::error::LiturgyError;
use crate::types::{weekday_name, Celebration, Color, Day, Rank, Season, TemporalPosition};
use chrono::{Datelike, Duration, NaiveDate, Weekday};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// One entry of a sanctorale: a fixed-date celebration.
#[derive(Debug, Clone, PartialEq)]
pub struct SanctoralEntry {
    /// LitCal event key (`StJoseph`).
    pub key: String,
    /// Month (1–12).
    pub month: u32,
    /// Day of month.
    pub day: u32,
    /// LitCal grade: 2 optional memorial, 3 memorial, 4 feast, 5 feast of the Lord, 6 solemnity.
    pub grade: u8,
    /// Colour.
    pub color: Color,
    /// First year in force.
    pub from_year: i32,
    /// Last year in force (when later moved, renamed or raised).
    pub until_year: Option<i32>,
    /// True for national/proper entries (precedence 4/8/11 instead of 3/7/10).
    pub proper: bool,
    /// Moved to the next day when it falls on a Sunday (US Day of Prayer for the Unborn).
    pub sunday_to_monday: bool,
    /// A moveable rule instead of month/day ("fourth thursday of november").
    pub rule: Option<(u8, Weekday, u32)>,
}

/// Changes to the General Roman Calendar after the Missal editions in LitCal,
/// applied from the year given: (key, month, day, grade, colour, from year, until year, English name).
/// Sources: decrees of the Congregation (Dicastery) for Divine Worship.
/// One decree row: (key, month, day, grade, colour, from year, until year, English name).
pub type Decree = (
    &'static str,
    u32,
    u32,
    u8,
    &'static str,
    i32,
    Option<i32>,
    &'static str,
);

/// The decrees applied after the Missal editions.
pub const DECREES: &[Decree] = &[
    // 2002: St Jane Frances de Chantal moved from 12 Dec to 12 Aug (Missal 2002).
    (
        "StJaneFrancesDeChantal",
        8,
        12,
        2,
        "white",
        2002,
        None,
        "Saint Jane Frances de Chantal, Religious",
    ),
    // 2014: Saints John XXIII and John Paul II (decree of 29 May 2014).
    (
        "StJohnXXIII",
        10,
        11,
        2,
        "white",
        2014,
        None,
        "Saint John XXIII, Pope",
    ),
    (
        "StJohnPaulII",
        10,
        22,
        2,
        "white",
        2014,
        None,
        "Saint John Paul II, Pope",
    ),
    // 2016: Mary Magdalene raised to a feast (decree of 3 June 2016).
    (
        "StMaryMagdalene",
        7,
        22,
        4,
        "white",
        2016,
        None,
        "Saint Mary Magdalene",
    ),
    // 2019: Paul VI (decree of 25 January 2019); Our Lady of Loreto (decree of 7 October 2019).
    (
        "StPaulVI",
        5,
        29,
        2,
        "white",
        2019,
        None,
        "Saint Paul VI, Pope",
    ),
    (
        "OurLadyLoreto",
        12,
        10,
        2,
        "white",
        2019,
        None,
        "Our Lady of Loreto",
    ),
    // 2020: Faustina Kowalska (decree of 18 May 2020).
    (
        "StFaustinaKowalska",
        10,
        5,
        2,
        "white",
        2020,
        None,
        "Saint Faustina Kowalska, Virgin",
    ),
    // 2021: Gregory of Narek, John of Avila, Hildegard of Bingen (decree of 25 January 2021);
    // Martha, Mary and Lazarus replace Saint Martha (decree of 26 January 2021).
    (
        "StGregoryNarek",
        2,
        27,
        2,
        "white",
        2021,
        None,
        "Saint Gregory of Narek, Abbot and Doctor of the Church",
    ),
    (
        "StJohnAvila",
        5,
        10,
        2,
        "white",
        2021,
        None,
        "Saint John of Avila, Priest and Doctor of the Church",
    ),
    (
        "StHildegardBingen",
        9,
        17,
        2,
        "white",
        2021,
        None,
        "Saint Hildegard of Bingen, Virgin and Doctor of the Church",
    ),
    (
        "StsMarthaMaryLazarus",
        7,
        29,
        3,
        "white",
        2021,
        None,
        "Saints Martha, Mary and Lazarus",
    ),
    // 2025: Teresa of Calcutta; 2026: John Henry Newman.
    (
        "StTeresaCalcutta",
        9,
        5,
        2,
        "white",
        2025,
        None,
        "Saint Teresa of Calcutta, Virgin",
    ),
    (
        "StJohnHenryNewman",
        10,
        9,
        2,
        "white",
        2026,
        None,
        "Saint John Henry Newman, Priest and Doctor of the Church",
    ),
];

/// Entries of the Missal editions that later decrees end: (key, last year).
const ENDED: &[(&str, i32)] = &[
    ("StJaneFrancesDeChantal", 2001), // on 12 Dec until 2001, then DECREES
    ("StMaryMagdalene", 2015),        // memorial until 2015, feast from 2016
    ("StMartha", 2020),               // Saints Martha, Mary and Lazarus from 2021
];

/// Colours that LitCal's Missal data gets wrong: martyrs are celebrated in red (GIRM 346b);
/// LitCal's 2002 entry for Andrew Kim Tae-gon, Paul Chong Ha-sang and Companions, Martyrs, says white.
const COLOR_FIXES: &[(&str, Color)] = &[("StAndrewKimTaegon", Color::Red)];

/// English names of the US Missal (2011) proper, which LitCal ships without i18n.
const US_NAMES: &[(&str, &str)] = &[
    ("StElizabethSeton", "Saint Elizabeth Ann Seton, Religious"),
    ("StJohnNeumann", "Saint John Neumann, Bishop"),
    ("StAndreBessette", "Saint André Bessette, Religious"),
    ("StKatharineDrexel", "Saint Katharine Drexel, Virgin"),
    ("StDamienVeuster", "Saint Damien de Veuster, Priest"),
    ("StIsidore", "Saint Isidore the Farmer"),
    ("JuniperoSerra", "Saint Junípero Serra, Priest"),
    ("IndependenceDay", "Independence Day"),
    ("KateriTekakwitha", "Saint Kateri Tekakwitha, Virgin"),
    ("StPeterClaver", "Saint Peter Claver, Priest"),
    ("MarieDurocher", "Blessed Marie Rose Durocher, Virgin"),
    ("StFrancesXCabrini", "Saint Frances Xavier Cabrini, Virgin"),
    ("StRoseDuchesne", "Saint Rose Philippine Duchesne, Virgin"),
    ("MiguelPro", "Blessed Miguel Agustín Pro, Priest and Martyr"),
    ("ThanksgivingDay", "Thanksgiving Day"),
    (
        "PrayerUnborn",
        "Day of Prayer for the Legal Protection of Unborn Children",
    ),
];

/// A calendar variant: the General Roman Calendar or a national one.
#[derive(Debug, Clone)]
pub struct CalendarSpec {
    /// Id (`general-roman`, `us`, `it`, `nl`).
    pub id: String,
    /// Epiphany on the Sunday between 2 and 8 January.
    pub epiphany_on_sunday: bool,
    /// Ascension on the Seventh Sunday of Easter.
    pub ascension_on_sunday: bool,
    /// Corpus Christi on the Sunday after Trinity.
    pub corpus_christi_on_sunday: bool,
    /// The sanctorale in force (general plus national changes).
    pub sanctorale: Vec<SanctoralEntry>,
}

/// The calendar data loaded from `calendar/litcal`: every calendar variant and
/// the names of every celebration in several languages.
#[derive(Debug, Clone)]
pub struct CalendarData {
    specs: BTreeMap<String, CalendarSpec>,
    /// key -> lang -> name.
    names: HashMap<String, HashMap<String, String>>,
}

fn read_json(path: &Path) -> Result<Value, LiturgyError> {
    let text = std::fs::read_to_string(path).map_err(|e| LiturgyError::io(path, e))?;
    serde_json::from_str(&text).map_err(|e| LiturgyError::data(path, e.to_string()))
}

fn color_of(v: &Value) -> Color {
    let words: Vec<&str> = v
        .as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default();
    if words.iter().any(|w| w.eq_ignore_ascii_case("red")) {
        return Color::Red;
    }
    words
        .first()
        .and_then(|w| Color::from_word(w))
        .unwrap_or(Color::White)
}

fn parse_missal(
    path: &Path,
    from_year: i32,
    proper: bool,
) -> Result<Vec<SanctoralEntry>, LiturgyError> {
    let v = read_json(path)?;
    let arr = v
        .as_array()
        .ok_or_else(|| LiturgyError::data(path, "expected an array".into()))?;
    let mut out = Vec::new();
    for e in arr {
        let (Some(key), Some(month), Some(day), Some(grade)) = (
            e.get("event_key").and_then(Value::as_str),
            e.get("month").and_then(Value::as_u64),
            e.get("day").and_then(Value::as_u64),
            e.get("grade").and_then(Value::as_u64),
        ) else {
            continue;
        };
        let until = ENDED.iter().find(|(k, _)| *k == key).map(|(_, y)| *y);
        out.push(SanctoralEntry {
            key: key.to_string(),
            month: month as u32,
            day: day as u32,
            grade: grade as u8,
            color: COLOR_FIXES.iter().find(|(k, _)| *k == key).map_or_else(
                || color_of(e.get("color").unwrap_or(&Value::Null)),
                |(_, c)| *c,
            ),
            from_year,
            until_year: if proper { None } else { until },
            proper,
            sunday_to_monday: false,
            rule: None,
        });
    }
    Ok(out)
}

/// A grade change (`setProperty`, `makePatron`) in force from `since`: entries that start
/// earlier are split at `since` (the old grade stays before it). A patronage decreed before the
/// Missal that inscribed the celebration (Our Lady of Guadalupe: patroness of the Americas 1999,
/// General Calendar 2008) also creates the celebration for the years in between.
fn set_grade_since(
    sanctorale: &mut Vec<SanctoralEntry>,
    key: &str,
    grade: u8,
    since: i32,
    patron: bool,
) {
    let mut added = Vec::new();
    for g in sanctorale
        .iter_mut()
        .filter(|g| g.key == key && g.until_year.is_none_or(|u| u >= since))
    {
        if g.from_year < since {
            let mut n = g.clone();
            n.grade = grade;
            n.from_year = since;
            n.proper |= patron;
            g.until_year = Some(since - 1);
            added.push(n);
        } else {
            if patron && since < g.from_year {
                let mut n = g.clone();
                n.grade = grade;
                n.from_year = since;
                n.until_year = Some(g.from_year - 1);
                n.proper = true;
                added.push(n);
            }
            g.grade = grade;
            g.proper |= patron;
        }
    }
    sanctorale.extend(added);
}

fn parse_rule(s: &str) -> Option<(u8, Weekday, u32)> {
    let w: Vec<String> = s.split_whitespace().map(|x| x.to_lowercase()).collect();
    if w.len() != 4 || w[2] != "of" {
        return None;
    }
    let nth = match w[0].as_str() {
        "first" => 1,
        "second" => 2,
        "third" => 3,
        "fourth" => 4,
        "last" => 5,
        _ => return None,
    };
    let wd = crate::phrases::weekday_from_english(&w[1])?;
    let month = crate::phrases::month_from_name(&w[3])?;
    Some((nth, wd, month))
}

fn nth_weekday(year: i32, (nth, wd, month): (u8, Weekday, u32)) -> Option<NaiveDate> {
    if nth == 5 {
        let next = if month == 12 {
            NaiveDate::from_ymd_opt(year + 1, 1, 1)?
        } else {
            NaiveDate::from_ymd_opt(year, month + 1, 1)?
        };
        let mut d = next - Duration::days(1);
        while d.weekday() != wd {
            d -= Duration::days(1);
        }
        return Some(d);
    }
    let mut d = NaiveDate::from_ymd_opt(year, month, 1)?;
    while d.weekday() != wd {
        d += Duration::days(1);
    }
    Some(d + Duration::days(7 * (nth as i64 - 1)))
}

impl CalendarData {
    /// Load `calendar/litcal` under `data_dir`.
    pub fn load(data_dir: &Path) -> Result<Self, LiturgyError> {
        let litcal = data_dir.join("calendar/litcal");
        let missals = litcal.join("missals");
        let mut general = Vec::new();
        let mut names: HashMap<String, HashMap<String, String>> = HashMap::new();
        for (edition, year) in [("1970", 1970), ("2002", 2002), ("2008", 2008)] {
            let dir = missals.join(format!("propriumdesanctis_{edition}"));
            general.extend(parse_missal(
                &dir.join(format!("propriumdesanctis_{edition}.json")),
                year,
                false,
            )?);
            if let Ok(rd) = std::fs::read_dir(dir.join("i18n")) {
                for f in rd.flatten() {
                    let p = f.path();
                    let Some(lang) = p.file_stem().and_then(|s| s.to_str()).map(str::to_string)
                    else {
                        continue;
                    };
                    if let Ok(Value::Object(m)) = read_json(&p) {
                        for (k, v) in m {
                            if let Some(s) = v.as_str() {
                                names
                                    .entry(k)
                                    .or_default()
                                    .insert(lang.clone(), s.to_string());
                            }
                        }
                    }
                }
            }
        }
        if general.len() < 150 {
            return Err(LiturgyError::data(
                &missals,
                format!("only {} sanctorale entries", general.len()),
            ));
        }
        for (key, month, day, grade, color, from, until, name) in DECREES {
            general.push(SanctoralEntry {
                key: key.to_string(),
                month: *month,
                day: *day,
                grade: *grade,
                color: Color::from_word(color).unwrap_or(Color::White),
                from_year: *from,
                until_year: *until,
                proper: false,
                sunday_to_monday: false,
                rule: None,
            });
            names
                .entry(key.to_string())
                .or_default()
                .insert("en".into(), name.to_string());
        }
        for (k, n) in US_NAMES {
            names
                .entry(k.to_string())
                .or_default()
                .entry("en".into())
                .or_insert_with(|| n.to_string());
        }
        let mut specs = BTreeMap::new();
        specs.insert(
            "general-roman".to_string(),
            CalendarSpec {
                id: "general-roman".into(),
                epiphany_on_sunday: false,
                ascension_on_sunday: false,
                corpus_christi_on_sunday: false,
                sanctorale: general.clone(),
            },
        );
        if let Ok(rd) = std::fs::read_dir(litcal.join("calendars/nations")) {
            for nation in rd.flatten() {
                let code = nation.file_name().to_string_lossy().to_string();
                let file = nation.path().join(format!("{code}.json"));
                if !file.is_file() {
                    continue;
                }
                match Self::load_nation(&file, &missals, &general, &mut names) {
                    Ok(mut spec) => {
                        spec.id = code.to_lowercase();
                        specs.insert(spec.id.clone(), spec);
                    }
                    Err(e) => tracing::warn!("national calendar {code} skipped: {e}"),
                }
                // Names of national changes ("[ USA ] ..." prefixes dropped).
                if let Ok(rd2) = std::fs::read_dir(nation.path().join("i18n")) {
                    for f in rd2.flatten() {
                        let p = f.path();
                        let lang = p
                            .file_stem()
                            .and_then(|s| s.to_str())
                            .map(|s| s.split('_').next().unwrap_or(s).to_string())
                            .unwrap_or_default();
                        if let Ok(Value::Object(m)) = read_json(&p) {
                            for (k, v) in m {
                                if let Some(s) = v.as_str() {
                                    let clean = s.trim_start_matches(|c: char| {
                                        c != ']' && s.starts_with('[')
                                    });
                                    let clean = clean.trim_start_matches(']').trim();
                                    let entry = names.entry(k).or_default();
                                    entry
                                        .entry(format!("{lang}-{code}"))
                                        .or_insert_with(|| clean.to_string());
                                    entry
                                        .entry(lang.clone())
                                        .or_insert_with(|| clean.to_string());
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok(CalendarData { specs, names })
    }

    fn load_nation(
        file: &Path,
        missals: &Path,
        general: &[SanctoralEntry],
        names: &mut HashMap<String, HashMap<String, String>>,
    ) -> Result<CalendarSpec, LiturgyError> {
        let v = read_json(file)?;
        let settings = v.get("settings").cloned().unwrap_or(Value::Null);
        let is_sunday = |k: &str| {
            settings
                .get(k)
                .and_then(Value::as_str)
                .is_some_and(|s| s.starts_with("SUNDAY"))
        };
        let mut sanctorale: Vec<SanctoralEntry> = general.to_vec();
        if let Some(list) = v.pointer("/metadata/missals").and_then(Value::as_array) {
            for m in list.iter().filter_map(Value::as_str) {
                let p = missals.join(format!("propriumdesanctis_{m}/propriumdesanctis_{m}.json"));
                let year = m
                    .rsplit('_')
                    .next()
                    .and_then(|y| y.parse::<i32>().ok())
                    .unwrap_or(1970);
                if let Ok(entries) = parse_missal(&p, year, true) {
                    for e in entries {
                        // A national missal entry with the key of a general one replaces it (grade change).
                        if let Some(g) = sanctorale.iter_mut().find(|g| g.key == e.key && !g.proper)
                        {
                            g.month = e.month;
                            g.day = e.day;
                            g.grade = e.grade.max(g.grade);
                        } else {
                            sanctorale.push(e);
                        }
                    }
                }
            }
        }
        // The wider region (Americas, Europe, Asia) first: its patrons (Our Lady of Guadalupe,
        // feast in the Americas from 1999; the patrons of Europe), then the nation's own changes.
        let mut items: Vec<Value> = Vec::new();
        if let Some(region) = v.pointer("/metadata/wider_region").and_then(Value::as_str) {
            let rf = missals
                .parent()
                .unwrap_or(missals)
                .join(format!("calendars/wider_regions/{region}/{region}.json"));
            match read_json(&rf) {
                Ok(r) => items.extend(
                    r.get("litcal")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .cloned(),
                ),
                Err(e) => tracing::warn!("wider region {region} skipped: {e}"),
            }
        }
        items.extend(
            v.get("litcal")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .cloned(),
        );
        for item in &items {
            let ev = item.get("liturgical_event").cloned().unwrap_or(Value::Null);
            let md = item.get("metadata").cloned().unwrap_or(Value::Null);
            let Some(key) = ev.get("event_key").and_then(Value::as_str) else {
                continue;
            };
            let since = md.get("since_year").and_then(Value::as_i64).unwrap_or(1970) as i32;
            let action = md.get("action").and_then(Value::as_str).unwrap_or("");
            match action {
                "moveEvent" => {
                    let (Some(m), Some(d)) = (
                        ev.get("month").and_then(Value::as_u64),
                        ev.get("day").and_then(Value::as_u64),
                    ) else {
                        continue;
                    };
                    let mut moved = Vec::new();
                    for g in sanctorale.iter_mut().filter(|g| g.key == key) {
                        let mut n = g.clone();
                        n.month = m as u32;
                        n.day = d as u32;
                        n.from_year = n.from_year.max(since);
                        n.proper = true;
                        g.until_year = Some(g.until_year.map_or(since - 1, |u| u.min(since - 1)));
                        moved.push(n);
                    }
                    sanctorale.extend(moved);
                }
                "setProperty" | "makePatron" => {
                    if let Some(grade) = ev.get("grade").and_then(Value::as_u64) {
                        set_grade_since(
                            &mut sanctorale,
                            key,
                            grade as u8,
                            since,
                            action == "makePatron",
                        );
                    }
                }
                "createNew" => {
                    let rule = ev
                        .get("strtotime")
                        .and_then(Value::as_str)
                        .and_then(parse_rule);
                    let month = ev.get("month").and_then(Value::as_u64).unwrap_or(0) as u32;
                    let day = ev.get("day").and_then(Value::as_u64).unwrap_or(0) as u32;
                    if rule.is_none() && (month == 0 || day == 0) {
                        continue;
                    }
                    let sunday_to_monday =
                        md.get("rules").and_then(Value::as_array).is_some_and(|r| {
                            r.iter().any(|x| {
                                x.pointer("/condition/if_weekday").and_then(Value::as_str)
                                    == Some("sunday")
                            })
                        });
                    sanctorale.push(SanctoralEntry {
                        key: key.to_string(),
                        month,
                        day,
                        grade: ev.get("grade").and_then(Value::as_u64).unwrap_or(2) as u8,
                        color: color_of(ev.get("color").unwrap_or(&Value::Null)),
                        from_year: since,
                        until_year: None,
                        proper: true,
                        sunday_to_monday,
                        rule,
                    });
                    if let Some(n) = ev.get("name").and_then(Value::as_str) {
                        names
                            .entry(key.to_string())
                            .or_default()
                            .insert("en".into(), n.to_string());
                    }
                }
                _ => {}
            }
        }
        Ok(CalendarSpec {
            id: String::new(),
            epiphany_on_sunday: is_sunday("epiphany"),
            ascension_on_sunday: is_sunday("ascension"),
            corpus_christi_on_sunday: is_sunday("corpus_christi"),
            sanctorale,
        })
    }

    /// The calendar with this id (`general-roman`, `us`, …; `gr`, `roman`, `universal` are aliases).
    pub fn spec(&self, id: &str) -> Result<&CalendarSpec, LiturgyError> {
        let norm = id.trim().to_lowercase().replace(['_', ' '], "-");
        let norm = match norm.as_str() {
            "" | "gr" | "roman" | "general" | "universal" | "general-roman-calendar" => {
                "general-roman"
            }
            "usa" | "united-states" => "us",
            other => other,
        };
        self.specs.get(norm).ok_or_else(|| {
            LiturgyError::UnknownCalendar(format!(
                "unknown calendar {id:?}; known: {}",
                self.specs.keys().cloned().collect::<Vec<_>>().join(", ")
            ))
        })
    }

    /// Ids of the calendars available.
    pub fn calendar_ids(&self) -> Vec<String> {
        self.specs.keys().cloned().collect()
    }

    /// Name of a celebration in a language (`en`, `la`, `it`, `es`, `fr`, `pt`, `de`, `pl`), falling back to English.
    pub fn name(&self, key: &str, lang: &str) -> Option<&str> {
        let m = self.names.get(key)?;
        m.get(lang).or_else(|| m.get("en")).map(String::as_str)
    }

    /// Every (key, language, name) known, for phrase matching.
    pub fn all_names(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.names.iter().flat_map(|(k, m)| {
            m.iter()
                .map(move |(l, n)| (k.as_str(), l.as_str(), n.as_str()))
        })
    }

    /// Compute every day of a civil year.
    pub fn year(&self, spec: &CalendarSpec, year: i32) -> Result<Vec<Day>, LiturgyError> {
        compute_year(self, spec, year)
    }

    /// Compute one day.
    pub fn day(&self, spec: &CalendarSpec, date: NaiveDate) -> Result<Day, LiturgyError> {
        let days = compute_year(self, spec, date.year())?;
        days.into_iter()
            .find(|d| d.date == date)
            .ok_or(LiturgyError::OutOfRange(date.year()))
    }

    /// Compute every day between two dates (inclusive).
    pub fn range(
        &self,
        spec: &CalendarSpec,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<Day>, LiturgyError> {
        let mut out = Vec::new();
        for y in from.year()..=to.year() {
            out.extend(
                compute_year(self, spec, y)?
                    .into_iter()
                    .filter(|d| d.date >= from && d.date <= to),
            );
        }
        Ok(out)
    }
}

/// First year supported.
pub const MIN_YEAR: i32 = 1970;
/// Last year supported.
pub const MAX_YEAR: i32 = 9999;

/// The moveable dates of a civil year.
#[derive(Debug, Clone, Copy)]
pub struct Moveable {
    /// Easter Sunday.
    pub easter: NaiveDate,
    /// Ash Wednesday.
    pub ash_wednesday: NaiveDate,
    /// Pentecost Sunday.
    pub pentecost: NaiveDate,
    /// First Sunday of Advent (of this civil year's end).
    pub advent1: NaiveDate,
    /// Epiphany.
    pub epiphany: NaiveDate,
    /// Baptism of the Lord.
    pub baptism: NaiveDate,
    /// Ascension.
    pub ascension: NaiveDate,
    /// Corpus Christi.
    pub corpus_christi: NaiveDate,
    /// Holy Family (of the Christmas at this year's end).
    pub holy_family: NaiveDate,
}

fn d(y: i32, m: u32, day: u32) -> Result<NaiveDate, LiturgyError> {
    NaiveDate::from_ymd_opt(y, m, day).ok_or(LiturgyError::OutOfRange(y))
}

fn sunday_on_or_before(x: NaiveDate) -> NaiveDate {
    x - Duration::days(x.weekday().num_days_from_sunday() as i64)
}

/// Advent 1 of a civil year: four Sundays before Christmas.
pub fn advent1(year: i32) -> Result<NaiveDate, LiturgyError> {
    let xmas = d(year, 12, 25)?;
    let s = sunday_on_or_before(xmas - Duration::days(1));
    Ok(s - Duration::days(21))
}

/// The moveable dates of a year under a calendar's settings.
pub fn moveable(spec: &CalendarSpec, year: i32) -> Result<Moveable, LiturgyError> {
    if !(MIN_YEAR..=MAX_YEAR).contains(&year) {
        return Err(LiturgyError::OutOfRange(year));
    }
    let e = easter(year).ok_or(LiturgyError::OutOfRange(year))?;
    let epiphany = if spec.epiphany_on_sunday {
        let mut x = d(year, 1, 2)?;
        while x.weekday() != Weekday::Sun {
            x += Duration::days(1);
        }
        x
    } else {
        d(year, 1, 6)?
    };
    let baptism = if spec.epiphany_on_sunday && epiphany.day() >= 7 {
        epiphany + Duration::days(1)
    } else {
        let mut x = epiphany + Duration::days(1);
        while x.weekday() != Weekday::Sun {
            x += Duration::days(1);
        }
        x
    };
    let xmas = d(year, 12, 25)?;
    let holy_family = if xmas.weekday() == Weekday::Sun {
        d(year, 12, 30)?
    } else {
        let mut x = xmas + Duration::days(1);
        while x.weekday() != Weekday::Sun {
            x += Duration::days(1);
        }
        x
    };
    Ok(Moveable {
        easter: e,
        ash_wednesday: e - Duration::days(46),
        pentecost: e + Duration::days(49),
        advent1: advent1(year)?,
        epiphany,
        baptism,
        ascension: e + Duration::days(if spec.ascension_on_sunday { 42 } else { 39 }),
        corpus_christi: e + Duration::days(if spec.corpus_christi_on_sunday {
            63
        } else {
            60
        }),
        holy_family,
    })
}

/// Sunday cycle and weekday cycle of the liturgical year containing `date`.
pub fn cycles(date: NaiveDate) -> Result<(char, u8), LiturgyError> {
    let y = date.year();
    let lit_year = if date >= advent1(y)? { y + 1 } else { y };
    let sunday = ['C', 'A', 'B'][lit_year.rem_euclid(3) as usize];
    let weekday = if lit_year % 2 == 1 { 1 } else { 2 };
    Ok((sunday, weekday))
}

const ORD: [&str; 35] = [
    "",
    "First",
    "Second",
    "Third",
    "Fourth",
    "Fifth",
    "Sixth",
    "Seventh",
    "Eighth",
    "Ninth",
    "Tenth",
    "Eleventh",
    "Twelfth",
    "Thirteenth",
    "Fourteenth",
    "Fifteenth",
    "Sixteenth",
    "Seventeenth",
    "Eighteenth",
    "Nineteenth",
    "Twentieth",
    "Twenty-first",
    "Twenty-second",
    "Twenty-third",
    "Twenty-fourth",
    "Twenty-fifth",
    "Twenty-sixth",
    "Twenty-seventh",
    "Twenty-eighth",
    "Twenty-ninth",
    "Thirtieth",
    "Thirty-first",
    "Thirty-second",
    "Thirty-third",
    "Thirty-fourth",
];

fn ordinal(n: u8) -> &'static str {
    ORD.get(n as usize).copied().unwrap_or("")
}

fn ordinal_num(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn dshort(w: Weekday) -> &'static str {
    match w {
        Weekday::Sun => "0Sun",
        Weekday::Mon => "1Mon",
        Weekday::Tue => "2Tue",
        Weekday::Wed => "3Wed",
        Weekday::Thu => "4Thu",
        Weekday::Fri => "5Fri",
        Weekday::Sat => "6Sat",
    }
}

#[allow(dead_code)]
fn month_abbr(m: u32) -> &'static str {
    [
        "", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ][m as usize]
}

struct Temporal {
    season: Season,
    week: u8,
    cel: Celebration,
    lect: String,
}

fn cel(key: String, name: String, rank: Rank, color: Color, precedence: u8) -> Celebration {
    Celebration {
        key,
        name,
        rank,
        color,
        optional: false,
        precedence,
        temporal: true,
        transferred_from: None,
    }
}

/// The proper of time for one date.
fn temporal(
    m: &Moveable,
    prev_advent1: NaiveDate,
    date: NaiveDate,
) -> Result<Temporal, LiturgyError> {
    let y = date.year();
    let wd = date.weekday();
    let wname = weekday_name(wd);
    let is_sun = wd == Weekday::Sun;
    let e = m.easter;
    let days_from_easter = (date - e).num_days();
    let t = |season, week, key: String, name: String, rank, color, prec, lect: String| Temporal {
        season,
        week,
        cel: cel(key, name, rank, color, prec),
        lect,
    };
    // Christmas season at the start of the year: 1 Jan .. Baptism.
    if date <= m.baptism {
        let week = 1
            + ((sunday_on_or_before(date) - sunday_on_or_before(d(y - 1, 12, 25)?)).num_days() / 7)
                as u8;
        if date == d(y, 1, 1)? {
            return Ok(t(
                Season::Christmas,
                week,
                "MaryMotherOfGod".into(),
                "Mary, the Holy Mother of God".into(),
                Rank::Solemnity,
                Color::White,
                3,
                "Blessed Virgin Mary, the Mother of God".into(),
            ));
        }
        if date == m.epiphany {
            return Ok(t(
                Season::Christmas,
                week,
                "Epiphany".into(),
                "The Epiphany of the Lord".into(),
                Rank::Solemnity,
                Color::White,
                2,
                "CW03-Epiphany".into(),
            ));
        }
        if date == m.baptism {
            return Ok(t(
                Season::Christmas,
                week,
                "BaptismLord".into(),
                "The Baptism of the Lord".into(),
                Rank::Feast,
                Color::White,
                5,
                "CW04-Baptism".into(),
            ));
        }
        if is_sun {
            // Second Sunday after Christmas (2–5 January when Epiphany is 6 January).
            return Ok(t(
                Season::Christmas,
                week,
                "Christmas2".into(),
                "Second Sunday after Christmas".into(),
                Rank::Sunday,
                Color::White,
                6,
                "CW02-0Sun".into(),
            ));
        }
        if date < m.epiphany {
            return Ok(t(
                Season::Christmas,
                week,
                format!("ChristmasWeekdayJan{}", date.day()),
                format!("{wname}, {} January (Christmas Time)", date.day()),
                Rank::Weekday,
                Color::White,
                13,
                format!("CW02-Jan{}", date.day()),
            ));
        }
        // After Epiphany: 7–12 January (or Monday.. after a Sunday Epiphany).
        let n = if m.epiphany.weekday() == Weekday::Sun {
            (date - m.epiphany).num_days()
        } else {
            date.day() as i64 - 6
        };
        return Ok(t(
            Season::Christmas,
            week,
            format!("ChristmasWeekdayAfterEpiphany{n}"),
            format!("{wname} after Epiphany"),
            Rank::Weekday,
            Color::White,
            13,
            format!("CW03-Day{n}"),
        ));
    }
    // Ordinary Time, first part.
    if date < m.ash_wednesday {
        let week =
            1 + ((sunday_on_or_before(date) - sunday_on_or_before(m.baptism)).num_days() / 7) as u8;
        return Ok(ordinary(date, week));
    }
    // Lent.
    if date < e - Duration::days(3) {
        let palm = e - Duration::days(7);
        if date < m.ash_wednesday + Duration::days(4) {
            let (key, name) = if date == m.ash_wednesday {
                ("AshWednesday".to_string(), "Ash Wednesday".to_string())
            } else {
                (
                    format!("{wname}AfterAshWednesday"),
                    format!("{wname} after Ash Wednesday"),
                )
            };
            let prec = if date == m.ash_wednesday { 2 } else { 9 };
            let rank = Rank::Weekday;
            return Ok(t(
                Season::Lent,
                0,
                key,
                name,
                rank,
                Color::Violet,
                prec,
                format!("LW00-{}", dshort(wd)),
            ));
        }
        let week = 1
            + ((sunday_on_or_before(date) - (m.ash_wednesday + Duration::days(4))).num_days() / 7)
                as u8;
        let lect = format!("LW{week:02}-{}", dshort(wd));
        if date >= palm {
            if is_sun {
                return Ok(t(
                    Season::Lent,
                    6,
                    "PalmSun".into(),
                    "Palm Sunday of the Passion of the Lord".into(),
                    Rank::Sunday,
                    Color::Red,
                    2,
                    lect,
                ));
            }
            return Ok(t(
                Season::Lent,
                6,
                format!("{}HolyWeek", &wname[..3]),
                format!("{wname} of Holy Week"),
                Rank::Weekday,
                Color::Violet,
                2,
                lect,
            ));
        }
        if is_sun {
            let color = if week == 4 {
                Color::Rose
            } else {
                Color::Violet
            };
            let extra = if week == 4 { " (Laetare)" } else { "" };
            return Ok(t(
                Season::Lent,
                week,
                format!("Lent{week}"),
                format!("{} Sunday of Lent{extra}", ordinal(week)),
                Rank::Sunday,
                color,
                2,
                lect,
            ));
        }
        return Ok(t(
            Season::Lent,
            week,
            format!("LentWeekday{week}{wname}"),
            format!("{wname} of the {} Week of Lent", ordinal_num(week)),
            Rank::Weekday,
            Color::Violet,
            9,
            lect,
        ));
    }
    // Triduum.
    if date < e {
        return Ok(match days_from_easter {
            // Lent until the evening Mass of the Lord's Supper, which begins the Triduum
            // (Universal Norms 19 and 28): the day is reported as Lent, week 6.
            -3 => t(
                Season::Lent,
                6,
                "HolyThurs".into(),
                "Holy Thursday (Evening Mass of the Lord's Supper)".into(),
                Rank::Weekday,
                Color::White,
                1,
                "LW06-4Thu".into(),
            ),
            -2 => t(
                Season::PaschalTriduum,
                1,
                "GoodFri".into(),
                "Friday of the Passion of the Lord (Good Friday)".into(),
                Rank::Weekday,
                Color::Red,
                1,
                "LW06-5Fri".into(),
            ),
            _ => t(
                Season::PaschalTriduum,
                1,
                "EasterVigil".into(),
                "Holy Saturday (Easter Vigil in the Holy Night)".into(),
                Rank::Weekday,
                Color::White,
                1,
                "LW06-6Sat".into(),
            ),
        });
    }
    // Easter Time.
    if date <= m.pentecost {
        let week = (days_from_easter / 7 + 1) as u8;
        let lect = format!("EW{week:02}-{}", dshort(wd));
        if date == e {
            return Ok(t(
                Season::Easter,
                1,
                "Easter".into(),
                "Easter Sunday of the Resurrection of the Lord".into(),
                Rank::Solemnity,
                Color::White,
                1,
                "EW01-0Sun".into(),
            ));
        }
        if date == m.pentecost {
            return Ok(t(
                Season::Easter,
                8,
                "Pentecost".into(),
                "Pentecost Sunday".into(),
                Rank::Solemnity,
                Color::Red,
                2,
                "EW08-Pentecost".into(),
            ));
        }
        if date == m.ascension {
            return Ok(t(
                Season::Easter,
                week,
                "Ascension".into(),
                "The Ascension of the Lord".into(),
                Rank::Solemnity,
                Color::White,
                2,
                "EW07-Ascension".into(),
            ));
        }
        if week == 1 {
            return Ok(t(
                Season::Easter,
                1,
                format!("{}OctaveEaster", &wname[..3]),
                format!("{wname} within the Octave of Easter"),
                Rank::Solemnity,
                Color::White,
                2,
                lect,
            ));
        }
        if is_sun {
            let name = if week == 2 {
                "Second Sunday of Easter (Divine Mercy Sunday)".to_string()
            } else {
                format!("{} Sunday of Easter", ordinal(week))
            };
            return Ok(t(
                Season::Easter,
                week,
                format!("Easter{week}"),
                name,
                Rank::Sunday,
                Color::White,
                2,
                lect,
            ));
        }
        // Weekdays after the Ascension belong to the 6th/7th week; Ascension-Sunday calendars keep EW06 keys.
        return Ok(t(
            Season::Easter,
            week,
            format!("EasterWeekday{week}{wname}"),
            format!("{wname} of the {} Week of Easter", ordinal_num(week)),
            Rank::Weekday,
            Color::White,
            13,
            lect,
        ));
    }
    // Advent and Christmas at the end of the year.
    if date >= m.advent1 {
        let xmas = d(y, 12, 25)?;
        if date < xmas {
            let week = 1 + ((date - m.advent1).num_days() / 7) as u8;
            if is_sun {
                let color = if week == 3 {
                    Color::Rose
                } else {
                    Color::Violet
                };
                let extra = if week == 3 { " (Gaudete)" } else { "" };
                return Ok(t(
                    Season::Advent,
                    week,
                    format!("Advent{week}"),
                    format!("{} Sunday of Advent{extra}", ordinal(week)),
                    Rank::Sunday,
                    color,
                    2,
                    format!("AW{week:02}-0Sun"),
                ));
            }
            // 17–24 December only: Advent can begin on 27 November, whose weekdays are not "Dec 28".
            if date.month() == 12 && date.day() >= 17 {
                return Ok(t(
                    Season::Advent,
                    week,
                    format!("AdventWeekdayDec{}", date.day()),
                    format!("{wname}, {} December (Advent)", date.day()),
                    Rank::Weekday,
                    Color::Violet,
                    9,
                    format!("AW05-Dec{}", date.day()),
                ));
            }
            return Ok(t(
                Season::Advent,
                week,
                format!("AdventWeekday{week}{wname}"),
                format!("{wname} of the {} Week of Advent", ordinal_num(week)),
                Rank::Weekday,
                Color::Violet,
                13,
                format!("AW{week:02}-{}", dshort(wd)),
            ));
        }
        let week =
            1 + ((sunday_on_or_before(date) - sunday_on_or_before(xmas)).num_days() / 7) as u8;
        if date == xmas {
            return Ok(t(
                Season::Christmas,
                week,
                "Christmas".into(),
                "The Nativity of the Lord (Christmas)".into(),
                Rank::Solemnity,
                Color::White,
                2,
                "Nativity of the Lord".into(),
            ));
        }
        if date == m.holy_family {
            return Ok(t(
                Season::Christmas,
                week,
                "HolyFamily".into(),
                "The Holy Family of Jesus, Mary and Joseph".into(),
                Rank::Feast,
                Color::White,
                5,
                "CW01-HolyFamily".into(),
            ));
        }
        return Ok(t(
            Season::Christmas,
            week,
            format!("ChristmasOctaveDay{}", date.day()),
            octave_day_name(date.day()),
            Rank::Weekday,
            Color::White,
            9,
            format!("CW01-Dec{}", date.day()),
        ));
    }
    let _ = prev_advent1;
    // Ordinary Time, second part: weeks counted back from Christ the King (week 34).
    let christ_king = m.advent1 - Duration::days(7);
    let week = (34 - (christ_king - sunday_on_or_before(date)).num_days() / 7) as u8;
    if date == christ_king {
        return Ok(t(
            Season::OrdinaryTime,
            34,
            "ChristKing".into(),
            "Our Lord Jesus Christ, King of the Universe".into(),
            Rank::Solemnity,
            Color::White,
            3,
            "OW34-0Sun".into(),
        ));
    }
    if date == m.pentecost + Duration::days(7) {
        return Ok(t(
            Season::OrdinaryTime,
            week,
            "Trinity".into(),
            "The Most Holy Trinity".into(),
            Rank::Solemnity,
            Color::White,
            3,
            "OW00-Trinity".into(),
        ));
    }
    if date == m.corpus_christi {
        return Ok(t(
            Season::OrdinaryTime,
            week,
            "CorpusChristi".into(),
            "The Most Holy Body and Blood of Christ (Corpus Christi)".into(),
            Rank::Solemnity,
            Color::White,
            3,
            "OW00-CorpusChristi".into(),
        ));
    }
    if date == e + Duration::days(68) {
        return Ok(t(
            Season::OrdinaryTime,
            week,
            "SacredHeart".into(),
            "The Most Sacred Heart of Jesus".into(),
            Rank::Solemnity,
            Color::White,
            3,
            "OW00-SacredHeart".into(),
        ));
    }
    Ok(ordinary(date, week))
}

/// The Missal's name of a day within the Octave of Christmas (26–31 December):
/// "Fifth Day within the Octave of the Nativity of the Lord".
fn octave_day_name(day_of_december: u32) -> String {
    const ORDINALS: [&str; 6] = ["Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh"];
    let n = day_of_december.saturating_sub(26) as usize;
    let ordinal = ORDINALS.get(n).copied().unwrap_or("Seventh");
    format!("{ordinal} Day within the Octave of the Nativity of the Lord")
}

fn ordinary(date: NaiveDate, week: u8) -> Temporal {
    let wd = date.weekday();
    let wname = weekday_name(wd);
    let lect = format!("OW{week:02}-{}", dshort(wd));
    if wd == Weekday::Sun {
        return Temporal {
            season: Season::OrdinaryTime,
            week,
            cel: cel(
                format!("OrdSunday{week}"),
                format!("{} Sunday in Ordinary Time", ordinal(week)),
                Rank::Sunday,
                Color::Green,
                6,
            ),
            lect,
        };
    }
    Temporal {
        season: Season::OrdinaryTime,
        week,
        cel: cel(
            format!("OrdWeekday{week}{wname}"),
            format!("{wname} of the {} Week in Ordinary Time", ordinal_num(week)),
            Rank::Weekday,
            Color::Green,
            13,
        ),
        lect,
    }
}

fn precedence_of(grade: u8, proper: bool) -> u8 {
    match (grade, proper) {
        (6.., false) => 3,
        (6.., true) => 4,
        (5, _) => 5,
        (4, false) => 7,
        (4, true) => 8,
        (3, false) => 10,
        (3, true) => 11,
        _ => 12,
    }
}

fn rank_of(grade: u8) -> Rank {
    match grade {
        6.. => Rank::Solemnity,
        4 | 5 => Rank::Feast,
        3 => Rank::Memorial,
        _ => Rank::OptionalMemorial,
    }
}

fn compute_year(
    data: &CalendarData,
    spec: &CalendarSpec,
    year: i32,
) -> Result<Vec<Day>, LiturgyError> {
    let m = moveable(spec, year)?;
    let prev_adv = if year > MIN_YEAR {
        advent1(year - 1)?
    } else {
        m.advent1
    };
    let name = |key: &str| {
        data.name(key, "en")
            .map(str::to_string)
            .unwrap_or_else(|| key.to_string())
    };
    let first = d(year, 1, 1)?;
    let last = d(year, 12, 31)?;
    let ndays = (last - first).num_days() as usize + 1;
    let mut temporals = Vec::with_capacity(ndays);
    for i in 0..ndays {
        temporals.push(temporal(&m, prev_adv, first + Duration::days(i as i64))?);
    }
    let idx = |x: NaiveDate| (x - first).num_days() as usize;
    // Sanctoral candidates per day.
    let mut cands: Vec<Vec<Celebration>> = vec![Vec::new(); ndays];
    for s in &spec.sanctorale {
        if year < s.from_year || s.until_year.is_some_and(|u| year > u) {
            continue;
        }
        let date = match s.rule {
            Some(r) => nth_weekday(year, r),
            None => NaiveDate::from_ymd_opt(year, s.month, s.day),
        };
        let Some(mut date) = date else { continue };
        if s.sunday_to_monday && date.weekday() == Weekday::Sun {
            date += Duration::days(1);
        }
        cands[idx(date)].push(Celebration {
            key: s.key.clone(),
            name: name(&s.key),
            rank: rank_of(s.grade),
            color: s.color,
            optional: s.grade <= 2,
            precedence: precedence_of(s.grade, s.proper),
            temporal: false,
            transferred_from: None,
        });
    }
    // Moveable memorials of the proper of time.
    let ih = m.easter + Duration::days(69);
    if ih.year() == year {
        let grade = if year >= 1996 { 3 } else { 2 };
        cands[idx(ih)].push(Celebration {
            key: "ImmaculateHeart".into(),
            name: "The Immaculate Heart of the Blessed Virgin Mary".into(),
            rank: rank_of(grade),
            color: Color::White,
            optional: grade == 2,
            precedence: precedence_of(grade, false),
            temporal: true,
            transferred_from: None,
        });
    }
    if year >= 2018 {
        cands[idx(m.pentecost + Duration::days(1))].push(Celebration {
            key: "MaryMotherChurch".into(),
            name: "The Blessed Virgin Mary, Mother of the Church".into(),
            rank: Rank::Memorial,
            color: Color::White,
            optional: false,
            precedence: 10,
            temporal: true,
            transferred_from: None,
        });
    }
    // Solemnities: resolve clashes and transfers first.
    let easter = m.easter;
    let palm = easter - Duration::days(7);
    let divine_mercy = easter + Duration::days(7);
    let sacred_heart = easter + Duration::days(68);
    let mut placed_solemnity: Vec<Option<Celebration>> = vec![None; ndays];
    let mut pending: Vec<(NaiveDate, Celebration)> = Vec::new();
    for i in 0..ndays {
        let date = first + Duration::days(i as i64);
        let sols: Vec<Celebration> = cands[i]
            .iter()
            .filter(|c| c.rank == Rank::Solemnity)
            .cloned()
            .collect();
        cands[i].retain(|c| c.rank != Rank::Solemnity);
        for s in sols {
            let tp = temporals[i].cel.precedence;
            let impeded = tp < s.precedence
                || (tp == s.precedence && temporals[i].cel.rank == Rank::Solemnity)
                || placed_solemnity[i].is_some();
            if !impeded {
                placed_solemnity[i] = Some(s);
                continue;
            }
            let target = if s.key == "StJoseph" && date >= palm && date < easter + Duration::days(7)
            {
                // In Holy Week: anticipated to the Saturday before Palm Sunday.
                Some(palm - Duration::days(1))
            } else if s.key == "Annunciation" && date >= palm && date <= divine_mercy {
                Some(divine_mercy + Duration::days(1))
            } else if date == sacred_heart {
                // Precedent of 2022 (Nativity of John the Baptist): anticipated to the day before.
                Some(date - Duration::days(1))
            } else {
                None
            };
            pending.push((target.unwrap_or(date + Duration::days(1)), {
                let mut s = s;
                s.transferred_from = Some(date);
                s
            }));
            // Place pending items whose target is fixed immediately below.
        }
        // Try to place pending transferred solemnities on this or later days.
        let _ = i;
    }
    // Place transferred solemnities on the first free day from their target.
    for (target, s) in pending {
        let mut x = target;
        while x.year() == year {
            let j = idx(x);
            let free = temporals[j].cel.precedence > 8
                && placed_solemnity[j].is_none()
                && !cands[j].iter().any(|c| c.precedence <= 8);
            if free {
                placed_solemnity[j] = Some(s);
                break;
            }
            x += Duration::days(1);
        }
    }
    // Resolve each day.
    let mut days = Vec::with_capacity(ndays);
    for (i, t) in temporals.into_iter().enumerate() {
        let date = first + Duration::days(i as i64);
        let (sunday_cycle, weekday_cycle) = cycles(date)?;
        let mut list: Vec<Celebration> = Vec::new();
        let tcel = t.cel.clone();
        let privileged = tcel.precedence == 9; // Lent weekdays, 17–24 Dec., Christmas octave
        let mut principal = tcel.clone();
        if let Some(s) = placed_solemnity[i].take() {
            if s.precedence < principal.precedence {
                principal = s;
            }
        }
        // Feasts (precedence 5, 7, 8) against the day.
        let mut others: Vec<Celebration> = cands[i].clone();
        others.sort_by_key(|c| c.precedence);
        if let Some(best) = others.first().cloned() {
            if best.precedence <= 8 && best.precedence < principal.precedence {
                principal = best.clone();
                others.remove(0);
            }
        }
        let principal_is_weekday =
            principal.temporal && principal.rank == Rank::Weekday && principal.precedence >= 9;
        list.push(principal.clone());
        if principal_is_weekday {
            let memorials: Vec<Celebration> =
                others.into_iter().filter(|c| c.precedence >= 10).collect();
            let mut obligatory = memorials
                .iter()
                .filter(|c| c.rank == Rank::Memorial)
                .count();
            // Table of Liturgical Days: an obligatory memorial of the General Calendar (10)
            // outranks a proper one (11: US Thanksgiving Day on St Cecilia, 22 Nov 2029); the
            // loser stays listed as optional. Only memorials of equal rank become both optional.
            let mut memorials = memorials;
            let mut demoted = Vec::new();
            if obligatory > 1 {
                let best = memorials
                    .iter()
                    .filter(|c| c.rank == Rank::Memorial)
                    .map(|c| c.precedence)
                    .min()
                    .unwrap_or(10);
                let at_best = memorials
                    .iter()
                    .filter(|c| c.rank == Rank::Memorial && c.precedence == best)
                    .count();
                if at_best == 1 {
                    let (lost, kept): (Vec<_>, Vec<_>) = memorials
                        .into_iter()
                        .partition(|c| c.rank == Rank::Memorial && c.precedence != best);
                    memorials = kept;
                    demoted = lost;
                    obligatory = 1;
                }
            }
            if privileged {
                for mut c in memorials {
                    c.rank = Rank::Commemoration;
                    c.optional = true;
                    list.push(c);
                }
            } else if obligatory == 1 {
                let mut rest = Vec::new();
                for c in memorials {
                    if c.rank == Rank::Memorial {
                        list.insert(0, c);
                    } else {
                        rest.push(c);
                    }
                }
                // Optional memorials cannot be kept on a day with an obligatory memorial.
                let _ = rest;
                // An outranked proper memorial stays listed as optional (its Mass may be said).
                for mut c in demoted {
                    c.rank = Rank::OptionalMemorial;
                    c.optional = true;
                    list.push(c);
                }
            } else {
                // Two obligatory memorials (e.g. the Immaculate Heart with another): both optional.
                for mut c in memorials {
                    if c.rank == Rank::Memorial {
                        c.rank = Rank::OptionalMemorial;
                    }
                    c.optional = true;
                    list.push(c);
                }
            }
            // Mary, Mother of the Church prevails over another obligatory memorial of the day.
            if let Some(pos) = list.iter().position(|c| c.key == "MaryMotherChurch") {
                let mmc = list.remove(pos);
                let mut mmc = mmc;
                mmc.rank = Rank::Memorial;
                mmc.optional = false;
                list.retain(|c| c.temporal && c.rank == Rank::Weekday);
                list.insert(0, mmc);
            }
            if obligatory >= 1 && !privileged {
                // The weekday stays listed after the memorial (its readings remain usable).
                if let Some(pos) = list.iter().position(|c| c.key == tcel.key) {
                    if pos != 0 {
                        let mut w = list.remove(pos);
                        w.optional = true;
                        list.push(w);
                    }
                }
            }
        }
        days.push(Day {
            date,
            season: t.season,
            week_of_season: t.week,
            sunday_cycle,
            weekday_cycle,
            celebrations: list,
            temporal: TemporalPosition {
                lectionary_key: t.lect,
                key: tcel.key,
            },
        });
    }
    Ok(days)
}

/// One JSONL line of `ecclesia calendar --format jsonl`:
/// `{"date","weekday","season","week_of_season","sunday_cycle","weekday_cycle","celebrations":[{"key","name","rank","color","optional"}]}`.
pub fn calendar_jsonl_line(day: &Day) -> String {
    let cels: Vec<Value> = day
        .celebrations
        .iter()
        .filter(|c| !(c.temporal && c.rank == Rank::Weekday && c.optional))
        .map(|c| {
            serde_json::json!({
                "key": c.key,
                "name": c.name,
                "rank": c.rank.code(),
                "color": c.color.code(),
                "optional": c.optional,
            })
        })
        .collect();
    let v = serde_json::json!({
        "date": day.date.format("%Y-%m-%d").to_string(),
        "weekday": day.weekday_name(),
        "season": day.season.code(),
        "week_of_season": day.week_of_season,
        "sunday_cycle": day.sunday_cycle.to_string(),
        "weekday_cycle": day.weekday_cycle_roman(),
        "celebrations": cels,
    });
    v.to_string()
}

/// One line of the `table` format: date, weekday, season/week, cycles, then the celebrations.
pub fn calendar_table_line(day: &Day) -> String {
    let cels: Vec<String> = day
        .celebrations
        .iter()
        .filter(|c| !(c.temporal && c.rank == Rank::Weekday && c.optional))
        .map(|c| format!("{} [{}, {}]", c.name, c.rank.name(), c.color.name()))
        .collect();
    format!(
        "{}  {:<9}  {:<15} {:>2}  {}/{}  {}",
        day.date.format("%Y-%m-%d"),
        day.weekday_name(),
        day.season.code(),
        day.week_of_season,
        day.sunday_cycle,
        day.weekday_cycle_roman(),
        cels.join(" | ")
    )
}

/// Month abbreviation helper for other modules.
#[allow(dead_code)]
pub(crate) fn month_short(m: u32) -> &'static str {
    month_abbr(m)
}
