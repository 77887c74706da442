//! The day-to-readings mapping checked against an independent lectionary: for every day of a
//! range, the Gospel of our Mass of the day against the Gospel the reference
//! ([`plishman::Reference`]) prints for that day. `tests/crosscheck.rs` runs it for 2025–2030
//! in both calendars and fails on any disagreement not listed, with its reason, in
//! `tests/fixtures/crosscheck-exceptions.tsv`.

pub mod plishman;

use crate::citation::{parse_english, Citation, VerseRange};
use crate::engine::Liturgy;
use crate::error::LiturgyError;
use crate::lectionary::ReadingRef;
use crate::types::Day;
use chrono::NaiveDate;
use plishman::{sanctorale_date, temporal_name, Reference};

/// How our Gospel compares with the reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The same passage, partial-verse letters included.
    Same,
    /// The same verses; a partial verse differs (`18b-23` against `19-23`).
    Trim,
    /// Our first Gospel is an option of the reference's, or the reference's first is one of ours.
    OptionOrder,
    /// Another passage.
    Differs,
    /// Our Mass of the day has no Gospel.
    NoGospel,
    /// The reference has no Gospel for this day.
    NotInReference,
}

impl Outcome {
    /// True for the outcomes that need a written exception.
    pub fn is_disagreement(self) -> bool {
        matches!(self, Outcome::Differs | Outcome::NoGospel)
    }
}

/// One day compared.
#[derive(Debug, Clone)]
pub struct DayCheck {
    /// The date.
    pub date: NaiveDate,
    /// Our lectionary key of the weekday when we read the weekday's Mass, else our
    /// celebration key.
    pub key: String,
    /// Our celebration name.
    pub celebration: String,
    /// The reference's day name (absent when we could not name the day its way).
    pub reference_day: Option<String>,
    /// Our first Gospel (English citation).
    pub ours: Option<String>,
    /// The reference's first Gospel.
    pub theirs: Option<String>,
    /// The comparison.
    pub outcome: Outcome,
}

/// Ranges with adjacent whole verses joined (`7:1, 2` → `7:1-2`), for comparison.
fn joined(ranges: &[VerseRange]) -> Vec<VerseRange> {
    let mut out: Vec<VerseRange> = Vec::new();
    for r in ranges {
        if let Some(last) = out.last_mut() {
            let adjacent = last.book == r.book
                && last.end.chapter == r.start.chapter
                && last.end.verse + 1 == r.start.verse
                && last.end.part.is_empty()
                && r.start.part.is_empty();
            if adjacent {
                last.end = r.end.clone();
                continue;
            }
        }
        out.push(r.clone());
    }
    out
}

fn same_verses(a: &[VerseRange], b: &[VerseRange], with_parts: bool) -> bool {
    let (a, b) = (joined(a), joined(b));
    a.len() == b.len()
        && a.iter().zip(&b).all(|(x, y)| {
            x.book == y.book
                && x.start.chapter == y.start.chapter
                && x.start.verse == y.start.verse
                && x.end.chapter == y.end.chapter
                && x.end.verse == y.end.verse
                && (!with_parts || (x.start.part == y.start.part && x.end.part == y.end.part))
        })
}

fn gospels_of(readings: &[ReadingRef]) -> Vec<&Citation> {
    readings
        .iter()
        .filter(|r| r.kind.starts_with("Gospel") && !r.kind.contains("Acclamation"))
        .filter_map(|r| r.citation.as_ref())
        .collect()
}

/// The reference's name of the day whose Mass `keys` we read, and whose Gospel was read from
/// `gospel_slot`: the weekday's when the Mass is the weekday's, or a memorial's whose proper
/// parts (`x.n01`, `x.n09`) do not include the Gospel; else the saint's.
fn reference_day(day: &Day, keys: &[String], gospel_slot: Option<&str>) -> Option<String> {
    let tkey = day.temporal.lectionary_key.as_str();
    let weekday_mass = keys.iter().all(|k| k.starts_with(tkey));
    let proper_gospel = gospel_slot
        .and_then(|s| s.split_once('.'))
        .is_some_and(|(_, frac)| frac.len() == 3);
    let weekday_gospel = keys.first().is_some_and(|k| k.starts_with(tkey)) && !proper_gospel;
    if weekday_mass || weekday_gospel {
        return temporal_name(day);
    }
    let (m, d) = sanctorale_date(day);
    Reference::sanctorale_name(m, d).map(str::to_string)
}

/// Compare every day from `from` to `to` (inclusive) in `calendar`.
pub fn check(
    liturgy: &Liturgy,
    reference: &Reference,
    calendar: &str,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<DayCheck>, LiturgyError> {
    let spec = liturgy.calendar.spec(calendar)?;
    let books = liturgy.lectionary.books();
    let mut out = Vec::new();
    for date in from.iter_days().take_while(|d| *d <= to) {
        let day = liturgy.calendar.day(spec, date)?;
        let masses = liturgy.lectionary.masses(&liturgy.calendar, &day, &spec.id);
        let first = masses.first();
        let ours = first.map(|m| gospels_of(&m.readings)).unwrap_or_default();
        let keys = first.map(|m| m.keys.as_slice()).unwrap_or_default();
        let gospel_slot = first.and_then(|m| {
            m.readings
                .iter()
                .find(|r| r.kind.starts_with("Gospel") && !r.kind.contains("Acclamation"))
                .map(|r| r.slot.as_str())
        });
        let reference_day = reference_day(&day, keys, gospel_slot);
        let theirs: Vec<Citation> = reference_day
            .as_deref()
            .map(|n| reference.gospels(n, day.sunday_cycle, day.weekday_cycle))
            .unwrap_or_default()
            .into_iter()
            .filter_map(|g| parse_english(books, &g.citation).ok())
            .collect();
        let outcome = match (ours.first(), theirs.first()) {
            (None, _) => Outcome::NoGospel,
            (_, None) => Outcome::NotInReference,
            (Some(o), Some(t)) if same_verses(&o.ranges, &t.ranges, true) => Outcome::Same,
            (Some(o), Some(t)) if same_verses(&o.ranges, &t.ranges, false) => Outcome::Trim,
            (Some(o), Some(t))
                if theirs
                    .iter()
                    .any(|x| same_verses(&x.ranges, &o.ranges, false))
                    || ours
                        .iter()
                        .any(|x| same_verses(&x.ranges, &t.ranges, false)) =>
            {
                Outcome::OptionOrder
            }
            _ => Outcome::Differs,
        };
        let p = day.principal();
        let weekday_mass = keys
            .iter()
            .all(|k| k.starts_with(day.temporal.lectionary_key.as_str()));
        out.push(DayCheck {
            date,
            key: if weekday_mass {
                day.temporal.lectionary_key.clone()
            } else {
                p.key.clone()
            },
            celebration: p.name.clone(),
            reference_day,
            ours: ours.first().map(|c| c.display.clone()),
            theirs: theirs.first().map(|c| c.source.clone()),
            outcome,
        });
    }
    Ok(out)
}
