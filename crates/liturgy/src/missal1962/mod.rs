//! The calendar and Mass of the 1962 Roman Missal (the rubrics of 1960, "usus antiquior"),
//! computed for any year from Divinum Officium's data (`traditional/divinum-officium`, MIT).
//!
//! One file per concept: [`source`] (the data files' format: sections, conditions,
//! references), [`kalendar`] (the Kalendarium and the transfer tables), [`temporal`] (the
//! proper of time and the seasons), [`office`] (a formulary's rank and class), [`occurrence`]
//! (the 1960 rules: which Mass a day has, what it commemorates), [`colour`], [`mass`] (the
//! proper in Latin and the readings' citations), [`titles`] (English titles).
//!
//! The rubrics of 1960 took effect on 1 January 1961; a date before that is computed with the
//! same rules and says so ([`Day1962::rubrics_note`]).

pub mod colour;
pub mod kalendar;
pub mod mass;
pub mod occurrence;
pub mod office;
pub mod phrases;
pub mod readings;
pub mod source;
pub mod temporal;
pub mod titles;

use crate::easter::easter;
use crate::error::LiturgyError;
use chrono::{Datelike, NaiveDate};
use kalendar::Kalendar;
use occurrence::{Occurrence, Rules};
use office::{Class, Colour};
use serde_json::{json, Value};
use source::{Context, Library};
use std::path::Path;
use temporal::Season;
use titles::Titles;

/// The calendar's id wherever a calendar is chosen.
pub const CALENDAR_ID: &str = "1962";

/// The dataset folder under the data directory.
pub const DATA_DIR: &str = "traditional/divinum-officium";

/// The first year the rubrics of 1960 governed.
pub const FIRST_YEAR: i32 = 1961;

/// The loaded 1962 Missal.
#[derive(Debug, Clone)]
pub struct Missal1962 {
    library: Library,
    kalendar: Kalendar,
    titles: Titles,
}

/// A celebration of the 1962 calendar.
#[derive(Debug, Clone, PartialEq)]
pub struct Celebration1962 {
    /// English title (the Latin where none is known).
    pub title: String,
    /// Latin title.
    pub title_la: String,
    /// The formulary (`Sancti/01-25r`).
    pub file: String,
}

/// One day of the 1962 calendar.
#[derive(Debug, Clone, PartialEq)]
pub struct Day1962 {
    /// The date.
    pub date: NaiveDate,
    /// The Mass of the day.
    pub celebration: Celebration1962,
    /// Its class.
    pub class: Class,
    /// Its colour.
    pub colour: Colour,
    /// What the Mass commemorates.
    pub commemorations: Vec<Celebration1962>,
    /// The season.
    pub season: Season,
}

impl Day1962 {
    /// A note on the rubrics used, for dates before they took effect.
    pub fn rubrics_note(&self) -> Option<String> {
        (self.date.year() < FIRST_YEAR).then(|| {
            format!(
                "computed with the rubrics of 1960, which took effect in {FIRST_YEAR}; in {} other rubrics were in force",
                self.date.year()
            )
        })
    }

    /// The JSONL object of `ecclesia calendar --calendar 1962`.
    pub fn json(&self) -> Value {
        let mut v = json!({
            "date": self.date.format("%Y-%m-%d").to_string(),
            "calendar": CALENDAR_ID,
            "celebration": {
                "title": self.celebration.title,
                "title_la": self.celebration.title_la,
                "class": self.class.code(),
                "colour": self.colour.name(),
            },
            "commemorations": self.commemorations.iter().map(|c| json!({"title": c.title, "title_la": c.title_la})).collect::<Vec<_>>(),
            "season": self.season.code(),
        });
        if let (Some(note), Some(obj)) = (self.rubrics_note(), v.as_object_mut()) {
            obj.insert("rubrics".into(), Value::String(note));
        }
        v
    }

    /// The iCalendar event of the day, with reading lines.
    pub fn ics_event(&self, readings: &[String]) -> crate::ics::IcsEvent {
        let mut description = format!(
            "{} class · {} · {}\n{}",
            self.class.code(),
            self.colour.name(),
            self.season.name(),
            self.celebration.title_la
        );
        for c in &self.commemorations {
            description.push_str(&format!("\nCommemoration: {}", c.title));
        }
        for r in readings {
            description.push('\n');
            description.push_str(r);
        }
        crate::ics::IcsEvent {
            date: self.date,
            key: self.celebration.file.replace('/', "-"),
            summary: self.celebration.title.clone(),
            description,
            category: format!("{} class", self.class.code()),
            colour: match self.colour {
                Colour::White => "white",
                Colour::Red => "red",
                Colour::Green => "green",
                Colour::Violet => "purple",
                Colour::Rose => "pink",
                Colour::Black => "black",
            },
        }
    }

    /// One line of the calendar table.
    pub fn table_line(&self) -> String {
        let comm = if self.commemorations.is_empty() {
            String::new()
        } else {
            format!(
                " (comm. {})",
                self.commemorations
                    .iter()
                    .map(|c| c.title.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        };
        format!(
            "{}  {:<3} {:<6} {}{}",
            self.date.format("%Y-%m-%d %a"),
            self.class.code(),
            self.colour.name(),
            self.celebration.title,
            comm
        )
    }
}

impl Missal1962 {
    /// Load the dataset under `data_dir` (`traditional/divinum-officium`).
    pub fn load(data_dir: &Path) -> Result<Self, LiturgyError> {
        let root = data_dir.join(DATA_DIR);
        Ok(Missal1962 {
            library: Library::load(&root)?,
            kalendar: Kalendar::load(&root)?,
            titles: Titles::load(&root),
        })
    }

    /// Every day of a civil year.
    pub fn year(&self, year: i32) -> Result<Vec<Day1962>, LiturgyError> {
        let first = NaiveDate::from_ymd_opt(year, 1, 1).ok_or(LiturgyError::OutOfRange(year))?;
        let last = NaiveDate::from_ymd_opt(year, 12, 31).ok_or(LiturgyError::OutOfRange(year))?;
        self.range(first, last)
    }

    /// Every day from `from` to `to` (inclusive).
    pub fn range(&self, from: NaiveDate, to: NaiveDate) -> Result<Vec<Day1962>, LiturgyError> {
        let mut out = Vec::new();
        for year in from.year()..=to.year() {
            check_year(year)?;
            let e = easter(year).ok_or(LiturgyError::OutOfRange(year))?;
            let transfers = self.kalendar.year(year, e);
            let rules = self.rules();
            let mut d = NaiveDate::from_ymd_opt(year, 1, 1)
                .ok_or(LiturgyError::OutOfRange(year))?
                .max(from);
            while d.year() == year && d <= to {
                if let Some(o) = rules.decide(d, e, &transfers) {
                    out.push(self.day_of(d, e, &o));
                }
                match d.succ_opt() {
                    Some(n) => d = n,
                    None => break,
                }
            }
        }
        Ok(out)
    }

    /// One day.
    pub fn day(&self, date: NaiveDate) -> Result<Day1962, LiturgyError> {
        self.range(date, date)?.into_iter().next().ok_or_else(|| {
            LiturgyError::data(Path::new(DATA_DIR), format!("no Mass found for {date}"))
        })
    }

    /// The day and the proper of its Mass.
    pub fn mass(&self, date: NaiveDate) -> Result<(Day1962, mass::Proper), LiturgyError> {
        let year = date.year();
        check_year(year)?;
        let e = easter(year).ok_or(LiturgyError::OutOfRange(year))?;
        let transfers = self.kalendar.year(year, e);
        let o = self.rules().decide(date, e, &transfers).ok_or_else(|| {
            LiturgyError::data(Path::new(DATA_DIR), format!("no Mass found for {date}"))
        })?;
        let ctx = Context {
            paschal: temporal::paschal(date, e),
            penitential: temporal::penitential(date, e),
        };
        Ok((
            self.day_of(date, e, &o),
            mass::proper(&self.library, &o, ctx),
        ))
    }

    /// A date phrase naming a day of this calendar ("Septuagesima Sunday 2027"), or `None`.
    pub fn resolve_phrase(
        &self,
        phrase: &str,
        today: NaiveDate,
    ) -> Result<Option<NaiveDate>, LiturgyError> {
        phrases::resolve(phrase, today)
    }

    fn rules(&self) -> Rules<'_> {
        Rules {
            library: &self.library,
            kalendar: &self.kalendar,
        }
    }

    fn celebration(&self, file: &str, title_la: &str) -> Celebration1962 {
        Celebration1962 {
            title: self
                .titles
                .english(file, title_la)
                .unwrap_or_else(|| title_la.to_string()),
            title_la: title_la.to_string(),
            file: file.to_string(),
        }
    }

    fn day_of(&self, date: NaiveDate, easter: NaiveDate, o: &Occurrence) -> Day1962 {
        let season = Season::of(date, easter);
        Day1962 {
            date,
            celebration: self.celebration(&o.winner.file, &o.winner.title_la),
            class: o.class,
            colour: colour::colour(&o.winner, season),
            commemorations: o
                .commemorations
                .iter()
                .map(|c| self.celebration(&c.file, &c.title_la))
                .collect(),
            season,
        }
    }
}

/// The Gregorian years our Easter computation covers.
fn check_year(year: i32) -> Result<(), LiturgyError> {
    if (1583..=4099).contains(&year) {
        Ok(())
    } else {
        Err(LiturgyError::OutOfRange(year))
    }
}
