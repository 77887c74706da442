//! The lectionary table (`lectionary/jayarathina-general-roman`) and the
//! mapping of a liturgical [`Day`] to its Masses and readings.

use crate::calendar::CalendarData;
mod masses;
mod slot;
mod sql;
mod supplement;

pub use supplement::SUPPLEMENT_SOURCE;

use crate::citation::{looks_like_citation, parse_english, parse_tamil, BookMap, Citation};
use crate::error::LiturgyError;
use serde::Serialize;
use sql::sql_tuples;
use std::collections::HashMap;
use std::path::Path;
use supplement::Supplement;

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
    /// Our supplement rows (see `data/lectionary-supplement.tsv`).
    supplement: Supplement,
    /// Citations that failed to parse (source, error).
    pub failures: Vec<(String, String)>,
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
        let supplement = Supplement::parse(supplement::SUPPLEMENT_TSV)?;
        for row in supplement.rows() {
            if !citations.contains_key(&row.citation) {
                let c = parse_english(&books, &row.citation)?;
                citations.insert(row.citation.clone(), c);
            }
        }
        Ok(Lectionary {
            rows,
            saints,
            books,
            citations,
            supplement,
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

    /// Number of rows of our supplement.
    pub fn supplement_len(&self) -> usize {
        self.supplement.rows().len()
    }

    /// Number of rows.
    pub fn row_count(&self) -> usize {
        self.rows.values().map(Vec::len).sum()
    }

    /// Every parsed citation.
    pub fn citations(&self) -> impl Iterator<Item = &Citation> {
        self.citations.values()
    }

    /// The rows of one key in the source table.
    pub fn rows(&self, key: &str) -> Option<&[Row]> {
        self.rows.get(key).map(Vec::as_slice)
    }

    /// The rows of one key as read in `calendar`: the table's, with our supplement's rows
    /// added and, for the calendar's own forms, replacing the table's row of the same slot.
    pub fn rows_for(&self, key: &str, calendar: &str) -> Vec<Row> {
        let mut rows: Vec<Row> = self.rows.get(key).cloned().unwrap_or_default();
        for s in self.supplement.rows_of(key, calendar) {
            rows.retain(|r| r.slot != s.slot);
            rows.push(Row {
                slot: s.slot.clone(),
                reference: s.citation.clone(),
            });
        }
        rows
    }

    /// The citation of a source string of the table or the supplement.
    pub fn citation(&self, reference: &str) -> Option<&Citation> {
        self.citations.get(reference)
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
}
