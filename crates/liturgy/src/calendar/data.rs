//! Loading the calendars: the Missal sanctorale with the later decrees, the national
//! calendars of `calendar/litcal/calendars/nations` and their wider regions.

use super::{CalendarData, CalendarSpec};
use crate::error::LiturgyError;
use crate::types::Color;
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
    /// Days after Easter instead of month/day (the Eternal High Priest: 53, the Thursday after
    /// Pentecost). An entry with the key of a built-in moveable memorial (`MaryMotherChurch`,
    /// `ImmaculateHeart`) replaces it.
    pub easter_offset: Option<i64>,
    /// Moves by weekday: when the date falls on this weekday, it is kept this many days later
    /// (earlier when negative). England and Wales: the Assumption on a Saturday → Sunday.
    pub weekday_moves: Vec<(Weekday, i64)>,
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
pub(super) const ENDED: &[(&str, i32)] = &[
    ("StJaneFrancesDeChantal", 2001), // on 12 Dec until 2001, then DECREES
    ("StMaryMagdalene", 2015),        // memorial until 2015, feast from 2016
    ("StMartha", 2020),               // Saints Martha, Mary and Lazarus from 2021
];

/// Colours that LitCal's Missal data gets wrong: martyrs are celebrated in red (GIRM 346b);
/// LitCal's 2002 entry for Andrew Kim Tae-gon, Paul Chong Ha-sang and Companions, Martyrs, says white.
pub(super) const COLOR_FIXES: &[(&str, Color)] = &[("StAndrewKimTaegon", Color::Red)];

/// English names of the US Missal (2011) proper, which LitCal ships without i18n.
pub(super) const US_NAMES: &[(&str, &str)] = &[
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

pub(super) fn read_json(path: &Path) -> Result<Value, LiturgyError> {
    let text = std::fs::read_to_string(path).map_err(|e| LiturgyError::io(path, e))?;
    serde_json::from_str(&text).map_err(|e| LiturgyError::data(path, e.to_string()))
}

pub(super) fn color_of(v: &Value) -> Color {
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

pub(super) fn parse_missal(
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
            easter_offset: None,
            weekday_moves: Vec::new(),
        });
    }
    Ok(out)
}

/// A grade change (`setProperty`, `makePatron`) in force from `since`: entries that start
/// earlier are split at `since` (the old grade stays before it). A patronage decreed before the
/// Missal that inscribed the celebration (Our Lady of Guadalupe: patroness of the Americas 1999,
/// General Calendar 2008) also creates the celebration for the years in between.
pub(super) fn set_grade_since(
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

pub(super) fn parse_rule(s: &str) -> Option<(u8, Weekday, u32)> {
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

pub(super) fn nth_weekday(year: i32, (nth, wd, month): (u8, Weekday, u32)) -> Option<NaiveDate> {
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
                easter_offset: None,
                weekday_moves: Vec::new(),
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
                epiphany_adjacent_sunday: false,
                ascension_on_sunday: false,
                corpus_christi_on_sunday: false,
                sanctorale: general.clone(),
                language: None,
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
                load_i18n(&nation.path().join("i18n"), &code, &mut names);
            }
        }
        // The nations romcal's data defines (LitCal's stay as loaded above).
        let romcal_slugs = match super::romcal_nations::load(data_dir, &mut specs, &mut names) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!("romcal national calendars skipped: {e}");
                super::romcal_nations::SlugMap::default()
            }
        };
        load_dioceses(&litcal.join("calendars/dioceses"), &mut specs, &mut names);
        let other_ids = if data_dir.join(crate::missal1962::DATA_DIR).is_dir() {
            vec![crate::missal1962::CALENDAR_ID.to_string()]
        } else {
            Vec::new()
        };
        Ok(CalendarData {
            specs,
            names,
            other_ids,
            romcal_slugs,
        })
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
            apply_item(&mut sanctorale, names, item);
        }
        // `eternal_high_priest: true` (NL): Our Lord Jesus Christ, the Eternal High Priest, a feast
        // on the Thursday after Pentecost (LitCal's data does not say since when: from 1970 here).
        if settings.get("eternal_high_priest").and_then(Value::as_bool) == Some(true) {
            sanctorale.push(SanctoralEntry {
                key: "JesusChristEternalHighPriest".into(),
                month: 0,
                day: 0,
                grade: 4,
                color: Color::White,
                from_year: 1970,
                until_year: None,
                proper: true,
                sunday_to_monday: false,
                rule: None,
                easter_offset: Some(53),
                weekday_moves: Vec::new(),
            });
            names
                .entry("JesusChristEternalHighPriest".into())
                .or_default()
                .entry("en".into())
                .or_insert_with(|| "Our Lord Jesus Christ, the Eternal High Priest".into());
        }
        Ok(CalendarSpec {
            id: String::new(),
            epiphany_on_sunday: is_sunday("epiphany"),
            epiphany_adjacent_sunday: false,
            ascension_on_sunday: is_sunday("ascension"),
            corpus_christi_on_sunday: is_sunday("corpus_christi"),
            sanctorale,
            language: None,
        })
    }
}

/// Apply one LitCal calendar item (`moveEvent`, `setProperty`, `makePatron`, `createNew`, or a
/// diocesan item without an action) to a sanctorale.
pub(super) fn apply_item(
    sanctorale: &mut Vec<SanctoralEntry>,
    names: &mut HashMap<String, HashMap<String, String>>,
    item: &Value,
) {
    let ev = item.get("liturgical_event").cloned().unwrap_or(Value::Null);
    let md = item.get("metadata").cloned().unwrap_or(Value::Null);
    let Some(key) = ev.get("event_key").and_then(Value::as_str) else {
        return;
    };
    let since = md.get("since_year").and_then(Value::as_i64).unwrap_or(1970) as i32;
    let exists = sanctorale.iter().any(|g| g.key == key);
    // A diocesan calendar's items carry no action: a new celebration, or a change of an
    // existing one's date and grade.
    let action = match md.get("action").and_then(Value::as_str) {
        Some(a) => a,
        None if exists => "diocesanChange",
        None => "createNew",
    };
    if action == "diocesanChange" {
        let moves = ev.get("month").is_some()
            && sanctorale.iter().any(|g| {
                g.key == key
                    && (Some(u64::from(g.month)), Some(u64::from(g.day)))
                        != (
                            ev.get("month").and_then(Value::as_u64),
                            ev.get("day").and_then(Value::as_u64),
                        )
            });
        if moves {
            move_event(sanctorale, key, &ev, since);
        }
        if let Some(grade) = ev.get("grade").and_then(Value::as_u64) {
            set_grade_since(sanctorale, key, grade as u8, since, false);
        }
        return;
    }
    match action {
        "moveEvent" => move_event(sanctorale, key, &ev, since),
        "setProperty" | "makePatron" => {
            if let Some(grade) = ev.get("grade").and_then(Value::as_u64) {
                set_grade_since(sanctorale, key, grade as u8, since, action == "makePatron");
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
                return;
            }
            let sunday_to_monday = md.get("rules").and_then(Value::as_array).is_some_and(|r| {
                r.iter().any(|x| {
                    x.pointer("/condition/if_weekday").and_then(Value::as_str) == Some("sunday")
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
                easter_offset: None,
                weekday_moves: Vec::new(),
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

/// Move a celebration to the item's date from `since` (the old date ends the year before).
fn move_event(sanctorale: &mut Vec<SanctoralEntry>, key: &str, ev: &Value, since: i32) {
    let (Some(m), Some(d)) = (
        ev.get("month").and_then(Value::as_u64),
        ev.get("day").and_then(Value::as_u64),
    ) else {
        return;
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

/// Names of a national or diocesan calendar's celebrations from its `i18n/<lang>_<REGION>.json`
/// files ("[ USA ] ..." prefixes dropped), under `<lang>` and `<lang>-<code>`.
fn load_i18n(dir: &Path, code: &str, names: &mut HashMap<String, HashMap<String, String>>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for f in rd.flatten() {
        let p = f.path();
        let lang = p
            .file_stem()
            .and_then(|s| s.to_str())
            .map(|s| s.split('_').next().unwrap_or(s).to_string())
            .unwrap_or_default();
        let Ok(Value::Object(m)) = read_json(&p) else {
            continue;
        };
        for (k, v) in m {
            let Some(s) = v.as_str() else {
                continue;
            };
            let clean = s.trim_start_matches(|c: char| c != ']' && s.starts_with('['));
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

/// The diocesan calendars under `dir` (`<NATION>/<diocese id>/<name>.json`), each built on
/// its nation's calendar and selectable by its LitCal id (`boston-us`; `boston_us` is accepted).
fn load_dioceses(
    dir: &Path,
    specs: &mut BTreeMap<String, CalendarSpec>,
    names: &mut HashMap<String, HashMap<String, String>>,
) {
    let Ok(nations) = std::fs::read_dir(dir) else {
        return;
    };
    for nation in nations.flatten() {
        let Ok(dioceses) = std::fs::read_dir(nation.path()) else {
            continue;
        };
        for diocese in dioceses.flatten() {
            let Ok(files) = std::fs::read_dir(diocese.path()) else {
                continue;
            };
            for file in files.flatten().map(|f| f.path()) {
                if file.extension().is_none_or(|e| e != "json") {
                    continue;
                }
                match load_diocese(&file, specs, names) {
                    Ok(spec) => {
                        load_i18n(&diocese.path().join("i18n"), &spec.id, names);
                        specs.insert(spec.id.clone(), spec);
                    }
                    Err(e) => tracing::warn!("diocesan calendar {} skipped: {e}", file.display()),
                }
            }
        }
    }
}

/// One diocesan calendar: its nation's, with the diocese's settings and celebrations.
fn load_diocese(
    file: &Path,
    specs: &BTreeMap<String, CalendarSpec>,
    names: &mut HashMap<String, HashMap<String, String>>,
) -> Result<CalendarSpec, LiturgyError> {
    let v = read_json(file)?;
    let meta = |k: &str| v.pointer(&format!("/metadata/{k}")).and_then(Value::as_str);
    let id = meta("diocese_id")
        .ok_or_else(|| LiturgyError::data(file, "no metadata.diocese_id".into()))?
        .to_lowercase()
        .replace('_', "-");
    let nation = meta("nation")
        .ok_or_else(|| LiturgyError::data(file, "no metadata.nation".into()))?
        .to_lowercase();
    let mut spec = specs
        .get(&nation)
        .cloned()
        .ok_or_else(|| LiturgyError::data(file, format!("nation {nation:?} is not loaded")))?;
    spec.id = id;
    let setting = |k: &str| v.pointer(&format!("/settings/{k}")).and_then(Value::as_str);
    if let Some(s) = setting("epiphany") {
        spec.epiphany_on_sunday = s.starts_with("SUNDAY");
    }
    if let Some(s) = setting("ascension") {
        spec.ascension_on_sunday = s.starts_with("SUNDAY");
    }
    if let Some(s) = setting("corpus_christi") {
        spec.corpus_christi_on_sunday = s.starts_with("SUNDAY");
    }
    for item in v
        .get("litcal")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        apply_item(&mut spec.sanctorale, names, item);
    }
    Ok(spec)
}
