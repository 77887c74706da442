//! The lectionary table (`lectionary/jayarathina-general-roman`) and the
//! mapping of a liturgical [`Day`] to its Masses and readings.

use crate::calendar::CalendarData;
use crate::citation::{looks_like_citation, parse_tamil, BookMap, Citation};
use crate::error::LiturgyError;
use crate::types::{Day, Rank};
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;

/// One row of the table: a reading slot of a liturgical day.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Slot code (`1` first reading, `2` psalm, `3` second reading, `4` sequence,
    /// `5` acclamation, `6` gospel, `0` procession gospel, `9` commons; decimals are options).
    pub slot: String,
    /// The citation or code as written.
    pub reference: String,
}

/// The parsed lectionary table.
#[derive(Debug, Clone)]
pub struct Lectionary {
    rows: HashMap<String, Vec<Row>>,
    /// (month, day, English name) of the table's sanctorale.
    saints: Vec<(u32, u32, String)>,
    books: BookMap,
    /// Parsed citations by source string.
    citations: HashMap<String, Citation>,
    /// Citations that failed to parse (source, error).
    pub failures: Vec<(String, String)>,
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Split the value tuples of MySQL `INSERT ... VALUES (...), (...);` statements.
fn sql_tuples(sql: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for line in sql.lines() {
        let l = line.trim();
        if !l.starts_with('(') {
            continue;
        }
        let mut fields = Vec::new();
        let mut cur = String::new();
        let mut in_str = false;
        let mut chars = l.chars().peekable();
        chars.next(); // '('
        while let Some(c) = chars.next() {
            if in_str {
                if c == '\\' {
                    cur.push(c);
                    if let Some(n) = chars.next() {
                        cur.push(n);
                    }
                } else if c == '\'' {
                    in_str = false;
                } else {
                    cur.push(c);
                }
            } else if c == '\'' {
                in_str = true;
            } else if c == ',' {
                fields.push(unescape(cur.trim()));
                cur.clear();
            } else if c == ')' {
                fields.push(unescape(cur.trim()));
                break;
            } else {
                cur.push(c);
            }
        }
        out.push(fields);
    }
    out
}

/// A reading as served.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ReadingRef {
    /// Heading (`First Reading`, `Responsorial Psalm`, `Gospel`, `Gospel (shorter form)`, `Or`).
    pub kind: String,
    /// The slot code of the table (`6.11`).
    pub slot: String,
    /// The parsed citation (absent for sequences and text codes).
    pub citation: Option<Citation>,
    /// A non-citation entry (sequence name).
    pub note: Option<String>,
}

/// One Mass formulary of a day (Christmas has four, the vigils two…).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Mass {
    /// Title (`Mass during the Day`, `Vigil Mass`, `Saint Agnes (proper readings)`).
    pub title: String,
    /// Table key(s) used.
    pub keys: Vec<String>,
    /// Readings in order.
    pub readings: Vec<ReadingRef>,
    /// Commons the table refers to (`_Martyr or _Virgin`).
    pub commons: Vec<String>,
}

fn kind_of(slot: &str, vigil: bool) -> String {
    let (int, frac) = slot.split_once('.').unwrap_or((slot, ""));
    let base = match int {
        "0" => "Procession Gospel",
        "1" => "First Reading",
        "2" => "Responsorial Psalm",
        "3" => "Second Reading",
        "4" => "Sequence",
        "5" => "Gospel Acclamation",
        "6" => "Gospel",
        _ => "Reading",
    };
    if vigil && (int == "1" || int == "2") && !frac.is_empty() {
        let n: String = frac.chars().take(1).collect();
        let short = frac.len() > 1 && frac.ends_with('1') && frac.len() == 2;
        let label = if int == "1" {
            if n == "8" {
                "Epistle".to_string()
            } else {
                format!("Reading {n}")
            }
        } else {
            format!("Psalm after Reading {n}")
        };
        return if short {
            format!("{label} (shorter form)")
        } else {
            label
        };
    }
    if frac.len() == 2 && frac.ends_with('1') && !frac.starts_with('0') {
        return format!("{base} (shorter form)");
    }
    if frac.len() == 3 && frac.ends_with('1') && !frac.starts_with('0') {
        return format!("{base} (shorter form)");
    }
    base.to_string()
}

fn slot_num(s: &str) -> f64 {
    s.parse().unwrap_or(99.0)
}

fn sequence_name(code: &str) -> Option<&'static str> {
    match code {
        "Victimae" => Some("Victimae paschali laudes"),
        "LaudaSion" => Some("Lauda Sion"),
        "StabatMater" => Some("Stabat Mater"),
        "VeniSancteSpiritus" => Some("Veni, Sancte Spiritus"),
        _ => None,
    }
}

fn norm_words(s: &str) -> Vec<String> {
    crate::phrases::fold(s)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| {
            w.len() > 2
                && !matches!(
                    *w,
                    "saint"
                        | "saints"
                        | "the"
                        | "and"
                        | "of"
                        | "bishop"
                        | "bishops"
                        | "priest"
                        | "priests"
                        | "martyr"
                        | "martyrs"
                        | "virgin"
                        | "doctor"
                        | "church"
                        | "pope"
                        | "religious"
                        | "companions"
                        | "abbot"
                        | "apostle"
                        | "apostles"
                )
        })
        .map(str::to_string)
        .collect()
}

impl Lectionary {
    /// Load the table and the book map from `lectionary/jayarathina-general-roman`.
    pub fn load(data_dir: &Path) -> Result<Self, LiturgyError> {
        let dir = data_dir.join("lectionary/jayarathina-general-roman");
        let read = |name: &str| {
            let p = dir.join(name);
            std::fs::read_to_string(&p).map_err(|e| LiturgyError::io(&p, e))
        };
        let books = BookMap::from_tsv(&read("tamil-book-abbrev-to-osis.verified.tsv")?);
        if books.len() < 70 {
            return Err(LiturgyError::data(
                &dir,
                format!("book map has {} entries", books.len()),
            ));
        }
        let mut rows: HashMap<String, Vec<Row>> = HashMap::new();
        let mut citations = HashMap::new();
        let mut failures = Vec::new();
        for t in sql_tuples(&read("liturgy_lectionary_table_readings__list.sql")?) {
            if t.len() < 3 {
                continue;
            }
            let reference = t[2].trim().to_string();
            if looks_like_citation(&reference) && !citations.contains_key(&reference) {
                match parse_tamil(&books, &reference) {
                    Ok(c) => {
                        citations.insert(reference.clone(), c);
                    }
                    Err(e) => failures.push((reference.clone(), e.to_string())),
                }
            }
            rows.entry(t[0].clone()).or_default().push(Row {
                slot: t[1].clone(),
                reference,
            });
        }
        if rows.len() < 1000 {
            return Err(LiturgyError::data(
                &dir,
                format!("only {} day keys", rows.len()),
            ));
        }
        let mut saints = Vec::new();
        for t in sql_tuples(&read("liturgy_lectionary_table_generalcalendar.sql")?) {
            if t.len() >= 3 {
                if let (Ok(m), Ok(d)) = (t[0].parse(), t[1].parse()) {
                    saints.push((m, d, t[2].clone()));
                }
            }
        }
        Ok(Lectionary {
            rows,
            saints,
            books,
            citations,
            failures,
        })
    }

    /// Number of day keys.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Number of rows.
    pub fn row_count(&self) -> usize {
        self.rows.values().map(Vec::len).sum()
    }

    /// Every parsed citation.
    pub fn citations(&self) -> impl Iterator<Item = &Citation> {
        self.citations.values()
    }

    /// The rows of one key.
    pub fn rows(&self, key: &str) -> Option<&[Row]> {
        self.rows.get(key).map(Vec::as_slice)
    }

    /// The book map.
    pub fn books(&self) -> &BookMap {
        &self.books
    }

    /// The table key of a sanctorale celebration, matched by date and name.
    pub fn saint_key(&self, cal: &CalendarData, key: &str, month: u32, day: u32) -> Option<String> {
        let name = cal.name(key, "en").unwrap_or(key);
        let words = norm_words(name);
        let mut best: Option<(usize, &str)> = None;
        for (m, d, n) in &self.saints {
            let same_day = *m == month && *d == day;
            let w2 = norm_words(n);
            let score =
                words.iter().filter(|w| w2.contains(w)).count() * 2 + usize::from(same_day) * 3;
            if (same_day || score >= 4)
                && self.rows.contains_key(n.as_str())
                && best.is_none_or(|(s, _)| score > s)
            {
                best = Some((score, n));
            }
        }
        best.filter(|(s, _)| *s >= 4).map(|(_, n)| n.to_string())
    }

    fn mass(&self, title: &str, keys: &[String], vigil: bool) -> Option<Mass> {
        let mut rows: Vec<&Row> = Vec::new();
        for k in keys {
            if let Some(r) = self.rows.get(k) {
                for row in r {
                    // A more specific key (later in `keys`) replaces the same slot.
                    rows.retain(|x| x.slot != row.slot);
                    rows.push(row);
                }
            }
        }
        if rows.is_empty() {
            return None;
        }
        if vigil {
            rows.sort_by(|a, b| {
                let key = |r: &Row| {
                    let (i, f) = r.slot.split_once('.').unwrap_or((&r.slot, "0"));
                    let first: u32 = f.chars().next().and_then(|c| c.to_digit(10)).unwrap_or(0);
                    let i: u32 = i.parse().unwrap_or(9);
                    // Readings 1.1..1.7 each followed by psalm 2.1..2.7; then epistle and the rest.
                    let order = if i <= 2 { first * 10 + i } else { 100 + i * 10 };
                    (order, slot_num(&r.slot).to_bits())
                };
                key(a).cmp(&key(b))
            });
        } else {
            rows.sort_by(|a, b| slot_num(&a.slot).total_cmp(&slot_num(&b.slot)));
        }
        let mut readings = Vec::new();
        let mut commons = Vec::new();
        let mut prev_int = String::new();
        for r in rows {
            let int = r.slot.split('.').next().unwrap_or("").to_string();
            if int == "9" {
                commons.push(r.reference.trim().to_string());
                continue;
            }
            let mut kind = kind_of(&r.slot, vigil);
            if !vigil && int == prev_int && !kind.contains("shorter") {
                kind = format!("{kind} (or)");
            }
            prev_int = int;
            if let Some(c) = self.citations.get(&r.reference) {
                readings.push(ReadingRef {
                    kind,
                    slot: r.slot.clone(),
                    citation: Some(c.clone()),
                    note: None,
                });
            } else if let Some(seq) = sequence_name(r.reference.trim()) {
                readings.push(ReadingRef {
                    kind,
                    slot: r.slot.clone(),
                    citation: None,
                    note: Some(seq.to_string()),
                });
            }
        }
        if readings.is_empty() {
            return None;
        }
        Some(Mass {
            title: title.to_string(),
            keys: keys.to_vec(),
            readings,
            commons,
        })
    }

    /// The Masses of a liturgical day: the first is the Mass of the day's celebration.
    pub fn masses(&self, cal: &CalendarData, day: &Day) -> Vec<Mass> {
        let mut out = Vec::new();
        let cyc = day.sunday_cycle.to_string();
        let wcyc = day.weekday_cycle.to_string();
        let with = |base: &str| vec![base.to_string(), format!("{base} {cyc}")];
        let tkey = day.temporal.lectionary_key.as_str();
        // Mass of the proper of time.
        let temporal_mass = || -> Vec<Mass> {
            let mut v = Vec::new();
            match tkey {
                "Nativity of the Lord" => {
                    for (i, t) in [
                        (4, "Mass during the Day"),
                        (1, "Vigil Mass"),
                        (2, "Mass during the Night"),
                        (3, "Mass at Dawn"),
                    ] {
                        if let Some(m) = self.mass(t, &[format!("Nativity of the Lord {i}")], false)
                        {
                            v.push(m);
                        }
                    }
                }
                "LW06-6Sat" => {
                    if let Some(m) = self.mass("Easter Vigil in the Holy Night", &with(tkey), true)
                    {
                        v.push(m);
                    }
                }
                "LW06-4Thu" => {
                    if let Some(m) =
                        self.mass("Evening Mass of the Lord's Supper", &with(tkey), false)
                    {
                        v.push(m);
                    }
                    if let Some(m) =
                        self.mass("Chrism Mass", &["LW06-4Thu~Chrism".to_string()], false)
                    {
                        v.push(m);
                    }
                }
                "EW08-Pentecost" => {
                    if let Some(m) = self.mass("Mass during the Day", &with(tkey), false) {
                        v.push(m);
                    }
                    if let Some(m) =
                        self.mass("Vigil Mass", &["EW08-Pentecost - Vigil".to_string()], false)
                    {
                        v.push(m);
                    }
                }
                _ => {
                    let weekday_ot = tkey.starts_with("OW") && !tkey.ends_with("0Sun");
                    let mut keys = vec![tkey.to_string()];
                    if weekday_ot {
                        keys.push(format!("{tkey} {wcyc}"));
                    } else {
                        keys.push(format!("{tkey} {cyc}"));
                        keys.push(format!("{tkey} {wcyc}"));
                    }
                    if let Some(m) = self.mass("Mass of the day", &keys, false) {
                        v.push(m);
                    }
                }
            }
            v
        };
        let principal = day.principal();
        let sanctoral_mass = |c: &crate::types::Celebration| -> Option<(Mass, Option<Mass>)> {
            let key = match c.key.as_str() {
                "ImmaculateHeart" => Some("OW00-ImmaculateHeart".to_string()),
                "MaryMotherChurch" => Some("OW00-MaryMotherofChurch".to_string()),
                "MaryMotherOfGod" => Some("Blessed Virgin Mary, the Mother of God".to_string()),
                _ => {
                    let (m, d) = match c.transferred_from {
                        Some(orig) => {
                            (chrono::Datelike::month(&orig), chrono::Datelike::day(&orig))
                        }
                        None => (
                            chrono::Datelike::month(&day.date),
                            chrono::Datelike::day(&day.date),
                        ),
                    };
                    self.saint_key(cal, &c.key, m, d)
                }
            }?;
            let main = self.mass(&c.name, &with(&key), false)?;
            let vigil = self.mass(
                &format!("{} (Vigil Mass)", c.name),
                &[format!("{key} - Vigil")],
                false,
            );
            Some((main, vigil))
        };
        let temporal_principal = principal.temporal
            && !matches!(
                principal.key.as_str(),
                "ImmaculateHeart" | "MaryMotherChurch" | "MaryMotherOfGod"
            );
        if temporal_principal {
            out.extend(temporal_mass());
        } else if matches!(principal.rank, Rank::Solemnity | Rank::Feast) {
            if let Some((m, v)) = sanctoral_mass(principal) {
                out.push(m);
                out.extend(v);
            }
            if out.is_empty() {
                out.extend(temporal_mass());
            }
        } else {
            // Memorials: the weekday readings first, the memorial's own readings as another Mass.
            out.extend(temporal_mass());
            if let Some((m, _)) = sanctoral_mass(principal) {
                out.push(m);
            }
        }
        for c in day.celebrations.iter().skip(1) {
            if c.temporal && c.rank == Rank::Weekday {
                continue;
            }
            if let Some((m, _)) = sanctoral_mass(c) {
                if !out.iter().any(|x| x.keys == m.keys) {
                    out.push(m);
                }
            }
        }
        // The vigil Mass of tomorrow's solemnity is not included here (see the README).
        out
    }
}
