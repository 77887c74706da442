//! [`Liturgy`]: everything loaded once, and the answers the skills and the CLI give.

use crate::bible::Bibles;
use crate::calendar::CalendarData;
use crate::error::LiturgyError;
use crate::lectionary::{Lectionary, Mass};
use crate::martyrology::{format_day, Martyrology, MartyrologyDay};
use crate::missal1962::{readings::Answer1962, Missal1962};
use crate::types::{Day, Rank};
use chrono::NaiveDate;
use serde_json::{json, Value};
use std::path::Path;

/// The loaded engine: calendar, lectionary, Bibles, Martyrology.
#[derive(Debug, Clone)]
pub struct Liturgy {
    /// Calendar data.
    pub calendar: CalendarData,
    /// Lectionary table.
    pub lectionary: Lectionary,
    /// Bible texts.
    pub bibles: Bibles,
    /// Martyrology texts.
    pub martyrology: Martyrology,
    /// The 1962 Missal, when its dataset (`traditional/divinum-officium`) is present.
    pub missal1962: Option<Missal1962>,
}

/// One rendered reading.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Reading {
    /// Heading (`First Reading`).
    pub kind: String,
    /// English citation (`Isaiah 58:7-10`).
    pub citation: String,
    /// Structured verse ranges.
    pub verses: Value,
    /// The text with verse numbers (partial verses given whole and marked `*`).
    pub text: String,
    /// Translation used for this reading (differs from the requested one when a book is missing there).
    pub translation: String,
}

/// The readings of a day, ready to print or serialise.
#[derive(Debug, Clone)]
pub struct ReadingsAnswer {
    /// The liturgical day.
    pub day: Day,
    /// The Masses with their rendered readings (first = the Mass of the day).
    pub masses: Vec<(Mass, Vec<Reading>)>,
    /// Translation id requested.
    pub translation: String,
}

impl Liturgy {
    /// Load every dataset from the data directory.
    pub fn load(data_dir: &Path) -> Result<Self, LiturgyError> {
        Ok(Liturgy {
            calendar: CalendarData::load(data_dir)?,
            lectionary: Lectionary::load(data_dir)?,
            bibles: Bibles::load(data_dir)?,
            martyrology: Martyrology::load(data_dir)?,
            missal1962: if data_dir.join(crate::missal1962::DATA_DIR).is_dir() {
                Some(Missal1962::load(data_dir)?)
            } else {
                None
            },
        })
    }

    /// True when a calendar id names the 1962 Missal (`1962`, `1962-missal`, `usus-antiquior`,
    /// `extraordinary`, `tridentine`).
    pub fn is_1962(calendar: Option<&str>) -> bool {
        calendar.is_some_and(|c| {
            matches!(
                c.trim().to_lowercase().replace(['_', ' '], "-").as_str(),
                "1962"
                    | "1962-missal"
                    | "missal-1962"
                    | "usus-antiquior"
                    | "extraordinary"
                    | "extraordinary-form"
                    | "tridentine"
                    | "traditional"
            )
        })
    }

    /// The 1962 Missal, or an error naming the missing dataset.
    pub fn missal1962(&self) -> Result<&Missal1962, LiturgyError> {
        self.missal1962.as_ref().ok_or_else(|| {
            LiturgyError::UnknownCalendar(format!(
                "the 1962 calendar needs the dataset {} in the data directory; known: {}",
                crate::missal1962::DATA_DIR,
                self.calendar.calendar_ids().join(", ")
            ))
        })
    }

    /// Every calendar id, the 1962 Missal's included when its data is loaded.
    pub fn calendar_ids(&self) -> Vec<String> {
        let mut ids = self.calendar.calendar_ids();
        if self.missal1962.is_some() {
            ids.push(crate::missal1962::CALENDAR_ID.to_string());
        }
        ids
    }

    /// The readings of a date in the 1962 Missal (Douay-Rheims unless another translation
    /// is asked for).
    pub fn readings_1962(
        &self,
        date: NaiveDate,
        translation: Option<&str>,
    ) -> Result<Answer1962, LiturgyError> {
        let missal = self.missal1962()?;
        let (day, proper) = missal.mass(date)?;
        let t = self
            .bibles
            .translation(Some(translation.unwrap_or("douay-rheims")))?;
        let readings = crate::missal1962::readings::readings(
            &proper,
            &self.bibles,
            self.lectionary.books(),
            t,
        );
        Ok(Answer1962 {
            day,
            proper,
            readings,
            translation: t.id.clone(),
        })
    }

    /// Resolve a date phrase (see [`crate::phrases::resolve`]).
    pub fn resolve_date(
        &self,
        phrase: &str,
        today: NaiveDate,
        calendar: Option<&str>,
    ) -> Result<NaiveDate, LiturgyError> {
        if Self::is_1962(calendar) {
            let missal = self.missal1962()?;
            if let Some(date) = missal.resolve_phrase(phrase, today)? {
                return Ok(date);
            }
            let spec = self.calendar.spec("general-roman")?;
            return crate::phrases::resolve(&self.calendar, spec, phrase, today);
        }
        let spec = self.calendar.spec(calendar.unwrap_or("general-roman"))?;
        crate::phrases::resolve(&self.calendar, spec, phrase, today)
    }

    /// The liturgical day of a date.
    pub fn day(&self, date: NaiveDate, calendar: Option<&str>) -> Result<Day, LiturgyError> {
        let spec = self.calendar.spec(calendar.unwrap_or("general-roman"))?;
        self.calendar.day(spec, date)
    }

    /// The readings of a date with their text.
    pub fn readings(
        &self,
        date: NaiveDate,
        calendar: Option<&str>,
        translation: Option<&str>,
    ) -> Result<ReadingsAnswer, LiturgyError> {
        let spec = self.calendar.spec(calendar.unwrap_or("general-roman"))?;
        let day = self.calendar.day(spec, date)?;
        let t = self.bibles.translation(translation)?;
        let fallback = self.bibles.translation(Some("douay-rheims"))?;
        let masses = self.lectionary.masses(&self.calendar, &day, &spec.id);
        let mut out = Vec::new();
        for m in masses {
            let mut readings = Vec::new();
            for r in &m.readings {
                match &r.citation {
                    Some(c) => {
                        let (mut text, _, mut missing) = self.bibles.render_text(t, c);
                        let mut used = t;
                        if !missing.is_empty() && t.id != fallback.id {
                            let (t2, _, m2) = self.bibles.render_text(fallback, c);
                            if m2.len() < missing.len() {
                                text = t2;
                                missing = m2;
                                used = fallback;
                            }
                        }
                        let _ = missing;
                        readings.push(Reading {
                            kind: r.kind.clone(),
                            citation: c.display.clone(),
                            verses: serde_json::to_value(&c.ranges).unwrap_or(Value::Null),
                            text,
                            translation: used.abbreviation.clone(),
                        });
                    }
                    None => readings.push(Reading {
                        kind: r.kind.clone(),
                        citation: r.note.clone().unwrap_or_default(),
                        verses: Value::Array(vec![]),
                        text: String::new(),
                        translation: String::new(),
                    }),
                }
            }
            out.push((m, readings));
        }
        Ok(ReadingsAnswer {
            day,
            masses: out,
            translation: t.id.clone(),
        })
    }

    /// The calendar from `from` to `to` as an iCalendar feed (see [`crate::ics`]); with
    /// `with_readings`, each event lists the citations of the day's Mass readings.
    pub fn calendar_ics(
        &self,
        calendar: Option<&str>,
        from: NaiveDate,
        to: NaiveDate,
        with_readings: bool,
        stamp: chrono::NaiveDateTime,
    ) -> Result<String, LiturgyError> {
        if Self::is_1962(calendar) {
            let missal = self.missal1962()?;
            let mut events = Vec::new();
            for day in missal.range(from, to)? {
                let readings = if with_readings {
                    let (_, proper) = missal.mass(day.date)?;
                    crate::missal1962::readings::citation_lines(&proper, self.lectionary.books())
                } else {
                    Vec::new()
                };
                events.push(day.ics_event(&readings));
            }
            let feed = crate::ics::IcsFeed {
                calendar: crate::missal1962::CALENDAR_ID,
                name: "Liturgical calendar (1962 Missal)",
                stamp,
            };
            return Ok(crate::ics::calendar_ics(&feed, &events));
        }
        let spec = self.calendar.spec(calendar.unwrap_or("general-roman"))?;
        let days = self.calendar.range(spec, from, to)?;
        let name = format!("Liturgical calendar ({})", spec.id);
        let feed = crate::ics::IcsFeed {
            calendar: &spec.id,
            name: &name,
            stamp,
        };
        let events: Vec<_> = days
            .iter()
            .map(|day| {
                let readings = if with_readings {
                    self.reading_citations(day, &spec.id)
                } else {
                    Vec::new()
                };
                crate::ics::IcsEvent::of_day(day, &readings)
            })
            .collect();
        Ok(crate::ics::calendar_ics(&feed, &events))
    }

    /// "Heading: citation" lines of the Mass of the day of a liturgical day.
    pub fn reading_citations(&self, day: &Day, calendar_id: &str) -> Vec<String> {
        self.reading_refs(day, calendar_id)
            .into_iter()
            .map(|(kind, cite)| format!("{kind}: {cite}"))
            .collect()
    }

    /// (heading, citation) of each reading of the Mass of the day of a liturgical day.
    pub fn reading_refs(&self, day: &Day, calendar_id: &str) -> Vec<(String, String)> {
        let masses = self.lectionary.masses(&self.calendar, day, calendar_id);
        let Some(first) = masses.first() else {
            return Vec::new();
        };
        first
            .readings
            .iter()
            .map(|r| {
                let cite = r
                    .citation
                    .as_ref()
                    .map(|c| c.display.clone())
                    .or_else(|| r.note.clone())
                    .unwrap_or_default();
                (r.kind.clone(), cite)
            })
            .collect()
    }

    /// The Martyrology of a date (`en` or `la`).
    pub fn martyrology_day(&self, date: NaiveDate, language: &str) -> Option<MartyrologyDay> {
        self.martyrology.day(date, language)
    }

    /// The formatted Martyrology text.
    pub fn martyrology_text(&self, date: NaiveDate, language: &str) -> Option<String> {
        self.martyrology_day(date, language)
            .map(|d| format_day(date, &d))
    }

    /// Every Bible translation's id.
    pub fn translation_ids(&self) -> Vec<String> {
        self.bibles
            .translations()
            .iter()
            .map(|t| t.id.clone())
            .collect()
    }

    /// Translation full name.
    pub fn translation_name(&self, id: &str) -> String {
        self.bibles
            .translation(Some(id))
            .map(|t| format!("{} ({})", t.name, t.abbreviation))
            .unwrap_or_default()
    }
}

fn season_line(day: &Day) -> String {
    let p = day.principal();
    format!(
        "{}, week {} · Colour: {} · Sunday cycle {} · Weekday cycle {} · Psalter week {}",
        day.season.name(),
        day.week_of_season,
        p.color.name(),
        day.sunday_cycle,
        day.weekday_cycle_roman(),
        day.psalter_week_roman()
    )
}

impl ReadingsAnswer {
    /// True when no reading was found.
    pub fn is_empty(&self) -> bool {
        self.masses.iter().all(|(_, r)| r.is_empty())
    }

    /// The formatted text: day name, rank, season and week, colour, cycles, then each reading.
    pub fn text(&self, translation_name: &str) -> String {
        let d = &self.day;
        let p = d.principal();
        let mut s = format!(
            "{}\n{} — {}\n{}\n",
            d.date.format("%A, %-d %B %Y"),
            p.name,
            p.rank.name(),
            season_line(d)
        );
        if let Some(also) = d.also_line() {
            s.push_str(&also);
            s.push('\n');
        }
        s.push_str(&format!("Translation: {translation_name}\n"));
        for (i, (m, readings)) in self.masses.iter().enumerate() {
            if readings.is_empty() {
                continue;
            }
            if i > 0 || self.masses.len() > 1 {
                s.push_str(&format!("\n== {} ==\n", m.title));
            }
            for r in readings {
                s.push_str(&format!("\n{} — {}\n", r.kind, r.citation));
                if !r.text.is_empty() {
                    s.push_str(&r.text);
                    s.push('\n');
                }
            }
        }
        s.trim_end().to_string()
    }

    /// The structured data part.
    pub fn data(&self) -> Value {
        let d = &self.day;
        let p = d.principal();
        let mass_json = |m: &Mass, rs: &[Reading]| {
            json!({
                "title": m.title,
                "lectionary_keys": m.keys,
                "readings": rs.iter().map(|r| json!({
                    "kind": r.kind, "citation": r.citation, "verses": r.verses, "text": r.text, "translation": r.translation,
                })).collect::<Vec<_>>(),
                "commons": m.commons,
            })
        };
        let first = self.masses.first();
        let mut out = json!({
            "date": d.date.format("%Y-%m-%d").to_string(),
            "celebration": p.name,
            "celebration_key": p.key,
            "rank": p.rank.code(),
            "color": p.color.code(),
            "season": d.season.code(),
            "week_of_season": d.week_of_season,
            "sunday_cycle": d.sunday_cycle.to_string(),
            "weekday_cycle": d.weekday_cycle_roman(),
            "psalter_week": d.psalter_week_roman(),
            "translation": self.translation,
            "celebrations": d.celebrations.iter().filter(|c| !(c.temporal && c.rank == Rank::Weekday && c.optional)).map(|c| json!({
                "key": c.key, "name": c.name, "rank": c.rank.code(), "color": c.color.code(), "optional": c.optional,
            })).collect::<Vec<_>>(),
            "mass": first.map(|(m, _)| m.title.clone()),
            "readings": first.map(|(_, r)| r.iter().map(|r| json!({
                "kind": r.kind, "citation": r.citation, "verses": r.verses, "text": r.text, "translation": r.translation,
            })).collect::<Vec<_>>()).unwrap_or_default(),
            "other_masses": self.masses.iter().skip(1).map(|(m, r)| mass_json(m, r)).collect::<Vec<_>>(),
        });
        // A national calendar's own name for the day, beside the English.
        if let (Some(local), Some(o)) = (&p.name_local, out.as_object_mut()) {
            o.insert("celebration_local".into(), json!(local));
        }
        out
    }
}
