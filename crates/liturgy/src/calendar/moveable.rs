//! The moveable dates of a civil year (Easter and what follows from it) and the cycles.

use super::{CalendarSpec, MAX_YEAR, MIN_YEAR};
use crate::easter::easter;
use crate::error::LiturgyError;
use chrono::{Datelike, Duration, NaiveDate, Weekday};

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

pub(super) fn d(y: i32, m: u32, day: u32) -> Result<NaiveDate, LiturgyError> {
    NaiveDate::from_ymd_opt(y, m, day).ok_or(LiturgyError::OutOfRange(y))
}

pub(super) fn sunday_on_or_before(x: NaiveDate) -> NaiveDate {
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
    } else if spec.epiphany_adjacent_sunday {
        let jan6 = d(year, 1, 6)?;
        match jan6.weekday() {
            Weekday::Sat => jan6 + Duration::days(1),
            Weekday::Mon => jan6 - Duration::days(1),
            _ => jan6,
        }
    } else {
        d(year, 1, 6)?
    };
    let on_sunday = spec.epiphany_on_sunday || spec.epiphany_adjacent_sunday;
    let baptism = if on_sunday && epiphany.weekday() == Weekday::Sun && epiphany.day() >= 7 {
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
