//! The General Roman Calendar (and national calendars) computed for any year.
//!
//! The proper of time is computed from Easter; the proper of saints comes from
//! the LitCal Roman Missal sanctorale (`calendar/litcal/missals`, editions 1970,
//! 2002, 2008) plus the later decrees listed in [`DECREES`]; national calendars
//! come from `calendar/litcal/calendars/nations/<XX>`. Precedence follows the
//! Table of Liturgical Days of the General Norms (1969).
//!
//! One file per concept: [`data`] (loading the sanctorale and the national and diocesan
//! calendars), [`moveable`] (Easter and the dates that follow it, the cycles), [`temporal`]
//! (the proper of time: seasons, weeks, names), [`precedence`] (the Table of Liturgical Days:
//! which celebration a day keeps, transfers), [`format`] (JSONL and table lines).

pub mod data;
mod format;
pub mod moveable;
mod precedence;
pub mod romcal_nations;
mod temporal;

pub use data::{Decree, SanctoralEntry, DECREES};
pub use format::{calendar_jsonl_line, calendar_table_line};
pub use moveable::{advent1, cycles, moveable, Moveable};
pub(crate) use temporal::ordinal_num;

use crate::error::LiturgyError;
use crate::types::Day;
use chrono::{Datelike, NaiveDate};
use precedence::compute_year;
use std::collections::{BTreeMap, HashMap};

/// A calendar variant: the General Roman Calendar or a national one.
#[derive(Debug, Clone)]
pub struct CalendarSpec {
    /// Id (`general-roman`, `us`, `it`, `nl`).
    pub id: String,
    /// Epiphany on the Sunday between 2 and 8 January.
    pub epiphany_on_sunday: bool,
    /// Epiphany on 6 January, but on the adjacent Sunday when 6 January is a Saturday or a
    /// Monday (England and Wales from 2018). Ignored when `epiphany_on_sunday` is set.
    pub epiphany_adjacent_sunday: bool,
    /// Ascension on the Seventh Sunday of Easter.
    pub ascension_on_sunday: bool,
    /// Corpus Christi on the Sunday after Trinity.
    pub corpus_christi_on_sunday: bool,
    /// The sanctorale in force (general plus national changes).
    pub sanctorale: Vec<SanctoralEntry>,
    /// The nation's language for [`Celebration::name_local`](crate::types::Celebration)
    /// (`pl`, `pt-BR`), none for English-speaking and general calendars.
    pub language: Option<String>,
}

/// The calendar data loaded from `calendar/litcal`: every calendar variant and
/// the names of every celebration in several languages.
#[derive(Debug, Clone)]
pub struct CalendarData {
    specs: BTreeMap<String, CalendarSpec>,
    /// key -> lang -> name.
    names: HashMap<String, HashMap<String, String>>,
    /// Calendars computed elsewhere whose data is present (`1962`), listed in errors.
    other_ids: Vec<String>,
    /// romcal slugs of the General Calendar matched to our keys.
    romcal_slugs: romcal_nations::SlugMap,
}

impl CalendarData {
    /// The calendar with this id (`general-roman`, `us`, `pl`, `gb-eng`, …; `roman`, `universal` are
    /// aliases of `general-roman`; `gr` is Greece; a nation's English or romcal name, `poland`,
    /// `england`, also finds it).
    pub fn spec(&self, id: &str) -> Result<&CalendarSpec, LiturgyError> {
        let norm = id.trim().to_lowercase().replace(['_', ' '], "-");
        let norm = match norm.as_str() {
            // `gr` is Greece (ISO 3166), not an alias of the General Roman Calendar.
            "" | "roman" | "general" | "universal" | "general-roman-calendar" => "general-roman",
            "usa" | "united-states" => "us",
            other => other,
        };
        // A nation may also be named in English or by romcal's name (`poland`, `england`, `new-zealand`).
        let by_name = romcal_nations::nations().ok().and_then(|ns| {
            ns.into_iter()
                .find(|n| n.romcal == norm || n.name.to_lowercase().replace(' ', "-") == norm)
                .map(|n| n.id)
        });
        let norm = by_name.as_deref().unwrap_or(norm);
        self.specs.get(norm).ok_or_else(|| {
            let mut known: Vec<String> = self.specs.keys().cloned().collect();
            known.extend(self.other_ids.iter().cloned());
            LiturgyError::UnknownCalendar(format!(
                "unknown calendar {id:?}; known: {}",
                known.join(", ")
            ))
        })
    }

    /// Ids of the calendars available.
    pub fn calendar_ids(&self) -> Vec<String> {
        self.specs.keys().cloned().collect()
    }

    /// Name of a celebration in a language (`en`, `la`, `it`, `es`, `fr`, `pt`, `de`, `pl`), falling back to
    /// English, then to the first language it has a name in.
    pub fn name(&self, key: &str, lang: &str) -> Option<&str> {
        let m = self.names.get(key)?;
        // A diocesan celebration may be named in its own language only (Rome's in Italian).
        m.get(lang)
            .or_else(|| m.get("en"))
            .or_else(|| m.iter().min_by_key(|(l, _)| l.as_str()).map(|(_, n)| n))
            .map(String::as_str)
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
