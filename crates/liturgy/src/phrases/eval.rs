//! From a date expression to a civil date, for a calendar and a "today".

use super::grammar::{Expr, Pick, WdHow, Year};
use super::lexicon::Unit;
use super::names::{self, NamedDay};
use crate::calendar::{CalendarData, CalendarSpec};
use chrono::{Datelike, Duration, Months, NaiveDate};
use std::cell::RefCell;
use std::collections::HashMap;

/// What an expression is evaluated against.
pub struct Context<'a> {
    /// The calendar data.
    pub cal: &'a CalendarData,
    /// The calendar (its transfers apply to named days).
    pub spec: &'a CalendarSpec,
    /// Today.
    pub today: NaiveDate,
    /// Dates of named days already computed: (day, year) to date. A year of
    /// the calendar is costly to compute, and the same one is asked for by
    /// several readings of a phrase.
    pub memo: RefCell<HashMap<(NamedDay, i32), Option<NaiveDate>>>,
}

/// The least gap, in days, between a named day and the same day a year
/// later (Easter moves by 35 days at most; transfers by less).
const LEAST_YEAR_GAP: i64 = 330;

const WEEKDAY_NAMES: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The years tried, around today's, for a day named without a year.
const YEARS_AROUND: i32 = 9;

/// The occurrence chosen for an expression whose named day (or day and
/// month) has no year, if it has one.
fn floating(e: &Expr) -> Option<Pick> {
    match e {
        Expr::Named {
            year: None, pick, ..
        } => Some(*pick),
        Expr::DayMonth { year: None, .. } | Expr::NthWeekday { year: None, .. } => {
            Some(Pick::Coming)
        }
        Expr::Shift { base, .. } | Expr::WeekdayFrom { base, .. } | Expr::Check { base, .. } => {
            floating(base)
        }
        _ => None,
    }
}

impl Context<'_> {
    /// The date of an expression. A named day without a year means its next
    /// occurrence, today included (its most recent one before today with
    /// "last", its next one after today with "next"); the occurrence is that
    /// of the whole expression ("Christmas Eve" on 25 December is next year's).
    pub fn evaluate(&self, e: &Expr) -> Result<NaiveDate, String> {
        let Some(pick) = floating(e) else {
            return self.at(e, None, true);
        };
        let ty = self.today.year();
        // Today's year first: it tells whether the year before (or, for
        // "last", the year after) can hold the answer at all.
        let edge_needed = match self.at(e, Some(ty), false) {
            Ok(d) if pick == Pick::Last => {
                add_days(d, LEAST_YEAR_GAP).map_or(true, |x| x < self.today)
            }
            Ok(d) => add_days(d, -LEAST_YEAR_GAP).map_or(true, |x| x >= self.today),
            Err(_) => true,
        };
        let years: Vec<i32> = match pick {
            Pick::Last => (ty - YEARS_AROUND..=ty + i32::from(edge_needed))
                .rev()
                .collect(),
            _ => (ty - i32::from(edge_needed)..=ty + YEARS_AROUND).collect(),
        };
        let mut first_err = None;
        for y in years {
            match self.at(e, Some(y), false) {
                Ok(d) => {
                    let fits = match pick {
                        Pick::Coming => d >= self.today,
                        Pick::Next => d > self.today,
                        Pick::Last => d < self.today,
                    };
                    if fits {
                        return self.at(e, Some(y), true);
                    }
                }
                Err(why) => {
                    first_err.get_or_insert(why);
                }
            }
        }
        Err(first_err.unwrap_or_else(|| "no such day near today".to_string()))
    }

    /// The date of `e` with `floating_year` for a day named without a year;
    /// weekday checks ("Pentecost Sunday") apply when `checks` is set, so that
    /// the occurrence is chosen first and then checked.
    fn at(&self, e: &Expr, floating_year: Option<i32>, checks: bool) -> Result<NaiveDate, String> {
        let ty = i64::from(self.today.year());
        let need_year = |y: Option<Year>| match y {
            Some(Year::Abs(y)) => Ok(y),
            Some(Year::Rel(r)) => i32::try_from(ty + r).map_err(|_| "the year is out of range"),
            None => floating_year.ok_or("a year is missing"),
        };
        match e {
            Expr::Date(d) => Ok(*d),
            Expr::Today(n) => add_days(self.today, *n),
            Expr::DayMonth { day, month, year } => {
                if NaiveDate::from_ymd_opt(2028, *month, *day).is_none() {
                    return Err(format!("day {day} of month {month} does not exist"));
                }
                let y = need_year(*year)?;
                NaiveDate::from_ymd_opt(y, *month, *day)
                    .ok_or_else(|| format!("{y}-{month:02}-{day:02} does not exist"))
            }
            Expr::Weekday { wd, how } => self.weekday(*wd, *how),
            Expr::NthWeekday { n, wd, month, year } => {
                nth_weekday(need_year(*year)?, *month, *wd, *n)
            }
            Expr::Named {
                day, year, weekday, ..
            } => {
                let y = need_year(*year)?;
                if !(1970..=9999).contains(&y) {
                    return Err(format!(
                        "the calendar covers the years 1970 to 9999, not {y}"
                    ));
                }
                let d = self
                    .date_of(day, y)
                    .ok_or_else(|| format!("that day is not in the calendar in {y}"))?;
                match weekday {
                    Some(w) if checks => check_weekday(d, *w),
                    _ => Ok(d),
                }
            }
            Expr::Shift { base, unit, n } => {
                let b = self.at(base, floating_year, checks)?;
                match unit {
                    Unit::Days(k) => add_days(b, k.checked_mul(*n).ok_or("too far")?),
                    Unit::Months(k) => {
                        add_months(b, i64::from(*k).checked_mul(*n).ok_or("too far")?)
                    }
                }
            }
            Expr::WeekdayFrom { wd, after, base } => {
                let b = self.at(base, floating_year, checks)?;
                let bw = b.weekday().num_days_from_monday();
                let gap = if *after {
                    (wd + 7 - bw) % 7
                } else {
                    (bw + 7 - wd) % 7
                };
                let gap = i64::from(if gap == 0 { 7 } else { gap });
                add_days(b, if *after { gap } else { -gap })
            }
            Expr::Check { wd, base } => {
                let d = self.at(base, floating_year, checks)?;
                if checks {
                    check_weekday(d, *wd)
                } else {
                    Ok(d)
                }
            }
        }
    }

    fn date_of(&self, day: &NamedDay, y: i32) -> Option<NaiveDate> {
        let key = (day.clone(), y);
        if let Some(d) = self.memo.borrow().get(&key) {
            return *d;
        }
        let d = names::date_of(self.cal, self.spec, day, y);
        self.memo.borrow_mut().insert(key, d);
        d
    }

    fn weekday(&self, wd: u32, how: WdHow) -> Result<NaiveDate, String> {
        let cur = self.today.weekday().num_days_from_monday();
        let ahead = i64::from((wd + 7 - cur) % 7);
        let back = i64::from((cur + 7 - wd) % 7);
        let next = if ahead == 0 { 7 } else { ahead };
        let days = match how {
            WdHow::Coming => ahead,
            WdHow::Next => next,
            WdHow::Last => -(if back == 0 { 7 } else { back }),
            WdHow::BeforeLast => -(if back == 0 { 7 } else { back }) - 7,
            WdHow::AfterNext => next + 7,
            WdHow::WeekOn => ahead + 7,
            WdHow::CalendarWeek(r) => i64::from(wd) - i64::from(cur) + 7 * r,
            WdHow::SundayWeek(r) => {
                let (wd, cur) = (i64::from((wd + 1) % 7), i64::from((cur + 1) % 7));
                wd - cur + 7 * r
            }
        };
        add_days(self.today, days)
    }
}

/// The n-th weekday `wd` of a month (n = -1: the last).
fn nth_weekday(y: i32, month: u32, wd: u32, n: i32) -> Result<NaiveDate, String> {
    let first = NaiveDate::from_ymd_opt(y, month, 1).ok_or("the date is out of range")?;
    let days: Vec<NaiveDate> = first
        .iter_days()
        .take_while(|d| d.month() == month)
        .filter(|d| d.weekday().num_days_from_monday() == wd)
        .collect();
    let pick = if n < 0 {
        days.last()
    } else {
        usize::try_from(n - 1).ok().and_then(|i| days.get(i))
    };
    pick.copied().ok_or_else(|| {
        format!(
            "{y}-{month:02} has no {n}th {}",
            WEEKDAY_NAMES[wd as usize % 7]
        )
    })
}

fn check_weekday(d: NaiveDate, wd: u32) -> Result<NaiveDate, String> {
    let actual = d.weekday().num_days_from_monday();
    if actual == wd {
        Ok(d)
    } else {
        let name = |i: u32| WEEKDAY_NAMES.get(i as usize).copied().unwrap_or("?");
        Err(format!("{d} is a {}, not a {}", name(actual), name(wd)))
    }
}

fn add_days(d: NaiveDate, n: i64) -> Result<NaiveDate, String> {
    Duration::try_days(n)
        .and_then(|x| d.checked_add_signed(x))
        .ok_or_else(|| "the date is out of range".to_string())
}

/// Add months; a day that does not exist in the target month is an error, not clamped.
fn add_months(d: NaiveDate, n: i64) -> Result<NaiveDate, String> {
    let m = u32::try_from(n.unsigned_abs()).map_err(|_| "the date is out of range")?;
    let r = if n >= 0 {
        d.checked_add_months(Months::new(m))
    } else {
        d.checked_sub_months(Months::new(m))
    }
    .ok_or("the date is out of range")?;
    if r.day() == d.day() {
        Ok(r)
    } else {
        Err(format!("{} months from {d} is not a real date", n))
    }
}
