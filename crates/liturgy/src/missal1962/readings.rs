//! The Epistle and Gospel of a day of the 1962 Missal, with their text from one of our
//! public-domain Bibles (Douay-Rheims by default: the translation these readings were read
//! in), beside the Latin proper.

use super::mass::Proper;
use super::Day1962;
use crate::bible::{Bibles, Translation};
use crate::citation::{parse_english, BookMap};
use serde_json::{json, Value};

/// One reading with its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading1962 {
    /// `Epistle` or `Gospel`.
    pub kind: String,
    /// The citation as the Missal gives it (`Joann 5:25-29`).
    pub citation_la: String,
    /// Our citation (`John 5:25-29`), Vulgate numbering.
    pub citation: String,
    /// The text with verse numbers (empty when the citation could not be read).
    pub text: String,
    /// The translation's abbreviation.
    pub translation: String,
}

/// The answer of `readings` in the 1962 calendar.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer1962 {
    /// The day.
    pub day: Day1962,
    /// The Latin proper.
    pub proper: Proper,
    /// The Epistle and the Gospel.
    pub readings: Vec<Reading1962>,
    /// Translation id.
    pub translation: String,
}

/// Render the Epistle and the Gospel of a proper.
pub fn readings(
    proper: &Proper,
    bibles: &Bibles,
    books: &BookMap,
    t: &Translation,
) -> Vec<Reading1962> {
    proper
        .parts
        .iter()
        .filter(|p| p.part == "Epistle" || p.part == "Gospel")
        .filter_map(|p| {
            let citation = p.citation.clone()?;
            let text = parse_english(books, &parse_form(&citation))
                .map(|c| bibles.render_text(t, &c).0)
                .unwrap_or_default();
            Some(Reading1962 {
                kind: p.part.clone(),
                citation_la: p.citation_la.clone().unwrap_or_default(),
                citation: display(books, &citation),
                text,
                translation: t.abbreviation.clone(),
            })
        })
        .collect()
}

/// `1Cor 9:24-27` → `1 Cor 9:24-27`, the form the citation parser reads.
fn parse_form(citation: &str) -> String {
    match citation.chars().next() {
        Some(c) if c.is_ascii_digit() => format!("{c} {}", &citation[1..]),
        _ => citation.to_string(),
    }
}

/// "Epistle: Romans 13:11-14" lines of a proper (for the iCalendar feed and the JSONL).
pub fn citation_lines(proper: &Proper, books: &BookMap) -> Vec<String> {
    proper
        .parts
        .iter()
        .filter_map(|p| {
            Some(format!(
                "{}: {}",
                p.part,
                display(books, p.citation.as_deref()?)
            ))
        })
        .collect()
}

/// The English citation of a part (`Epistle`, `Gospel`) of a proper.
pub fn citation_of(proper: &Proper, books: &BookMap, part: &str) -> Option<String> {
    proper.citation(part).map(|c| display(books, c))
}

/// `1Cor 15:51-57` → `1 Corinthians 15:51-57`.
fn display(books: &BookMap, citation: &str) -> String {
    match citation.split_once(' ') {
        Some((osis, rest)) => format!("{} {rest}", books.english(osis).unwrap_or(osis)),
        None => citation.to_string(),
    }
}

impl Answer1962 {
    /// The text part: the day, its class and colour, commemorations, then each reading.
    pub fn text(&self, translation_name: &str) -> String {
        let d = &self.day;
        let mut s = format!(
            "{}\n{} — {} class · {} · {}\n{}\n",
            d.date.format("%A, %-d %B %Y"),
            d.celebration.title,
            d.class.code(),
            d.colour.name(),
            d.season.name(),
            d.celebration.title_la,
        );
        for c in &d.commemorations {
            s.push_str(&format!("Commemoration: {} ({})\n", c.title, c.title_la));
        }
        if let Some(note) = d.rubrics_note() {
            s.push_str(&format!("Note: {note}\n"));
        }
        s.push_str(&format!(
            "Calendar: 1962 Missal · Translation: {translation_name}\n"
        ));
        for r in &self.readings {
            s.push_str(&format!(
                "\n{} — {} (Missal: {})\n",
                r.kind, r.citation, r.citation_la
            ));
            if !r.text.is_empty() {
                s.push_str(&r.text);
                s.push('\n');
            }
        }
        s.trim_end().to_string()
    }

    /// The structured data part.
    pub fn data(&self) -> Value {
        let mut v = self.day.json();
        if let Some(obj) = v.as_object_mut() {
            obj.insert(
                "translation".into(),
                Value::String(self.translation.clone()),
            );
            obj.insert(
                "readings".into(),
                self.readings
                    .iter()
                    .map(|r| {
                        json!({"kind": r.kind, "citation": r.citation, "citation_la": r.citation_la, "text": r.text, "translation": r.translation})
                    })
                    .collect(),
            );
            obj.insert(
                "proper".into(),
                self.proper
                    .parts
                    .iter()
                    .map(|p| json!({"part": p.part, "latin": p.latin}))
                    .collect(),
            );
        }
        v
    }
}
