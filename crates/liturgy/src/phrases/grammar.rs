//! The grammar of date phrases: a token sequence (fillers removed) is read
//! whole into date expressions, or not at all. Every rule must use every
//! token; all readings are returned so that the caller can detect ambiguity.

use super::lexicon::{Tok, Unit};
use super::names::NamedDay;
use chrono::NaiveDate;

/// Which occurrence of a day named without a year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// The next one, today included ("Pentecost", "this Pentecost").
    Coming,
    /// The next one strictly after today ("next Pentecost").
    Next,
    /// The most recent one strictly before today ("last Pentecost").
    Last,
}

/// A year as given: a number, or relative to today's ("next year", 明年).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Year {
    /// A year number.
    Abs(i32),
    /// Today's year plus this.
    Rel(i64),
}

/// How a weekday is counted from today.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WdHow {
    /// "Sunday", "this Sunday": the next one, today included.
    Coming,
    /// "next Sunday": the first strictly after today.
    Next,
    /// "last Sunday": the most recent strictly before today.
    Last,
    /// "the Sunday after next": next Sunday plus a week.
    AfterNext,
    /// "the Sunday before last": last Sunday minus a week.
    BeforeLast,
    /// "Sunday week": the coming Sunday plus a week.
    WeekOn,
    /// Chinese 上周日 / 这周日 / 下周日: in the previous, this or the next
    /// calendar week (weeks start on Monday).
    CalendarWeek(i64),
    /// The same with weeks starting on Sunday; English "Sunday next week"
    /// is read both ways, and refused when the two disagree.
    SundayWeek(i64),
}

/// A date expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// A civil date given in full.
    Date(NaiveDate),
    /// Today plus days.
    Today(i64),
    /// A day and month, with or without a year.
    DayMonth {
        /// Day of the month.
        day: u32,
        /// Month.
        month: u32,
        /// Year, if given.
        year: Option<Year>,
    },
    /// A weekday counted from today.
    Weekday {
        /// 0 = Monday.
        wd: u32,
        /// How.
        how: WdHow,
    },
    /// A named day.
    Named {
        /// Which day.
        day: NamedDay,
        /// Year, if given.
        year: Option<Year>,
        /// Which occurrence when no year is given.
        pick: Pick,
        /// A weekday the day must fall on ("Pentecost Sunday").
        weekday: Option<u32>,
    },
    /// The n-th (or, with n = -1, the last) weekday of a month: "the first
    /// Sunday of December", "the last Friday in May 2027".
    NthWeekday {
        /// 1..=5, or -1 for the last.
        n: i32,
        /// 0 = Monday.
        wd: u32,
        /// Month.
        month: u32,
        /// Year, if given.
        year: Option<Year>,
    },
    /// A base plus a length of time.
    Shift {
        /// From.
        base: Box<Expr>,
        /// Unit.
        unit: Unit,
        /// How many (negative = earlier).
        n: i64,
    },
    /// The first weekday after (or last before) a base: "the Sunday after Easter".
    WeekdayFrom {
        /// 0 = Monday.
        wd: u32,
        /// After (true) or before.
        after: bool,
        /// From.
        base: Box<Expr>,
    },
    /// A date with its weekday, which must agree: "Sunday, 5 April 2026".
    Check {
        /// 0 = Monday.
        wd: u32,
        /// The date.
        base: Box<Expr>,
    },
}

/// Every reading of a whole token sequence.
pub fn parse(t: &[Tok]) -> Vec<Expr> {
    let mut out = point(t);
    out.extend(offset(t));
    out.extend(checked(t));
    out
}

fn point(t: &[Tok]) -> Vec<Expr> {
    let mut out = Vec::new();
    match t {
        [Tok::Date(d)] => out.push(Expr::Date(*d)),
        [Tok::Rel(n)] => out.push(Expr::Today(*n)),
        _ => {}
    }
    out.extend(weekday(t));
    out.extend(day_month(t));
    out.extend(named(t));
    out.extend(nth_weekday(t));
    out
}

fn nth_weekday(t: &[Tok]) -> Vec<Expr> {
    let mut out = Vec::new();
    for (core, year) in year_splits(t) {
        let found = match core {
            [Tok::Ord(n), Tok::Wd(w), Tok::Month(m)]
            | [Tok::Ord(n), Tok::Wd(w), Tok::In, Tok::Month(m)]
                if (1..=5).contains(n) =>
            {
                Some((*n as i32, *w, *m))
            }
            [Tok::Last, Tok::Wd(w), Tok::Month(m)]
            | [Tok::Last, Tok::Wd(w), Tok::In, Tok::Month(m)] => Some((-1, *w, *m)),
            _ => None,
        };
        if let Some((n, wd, month)) = found {
            out.push(Expr::NthWeekday { n, wd, month, year });
        }
    }
    out
}

fn weekday(t: &[Tok]) -> Vec<Expr> {
    let week = |w: u32, r: i64| {
        [WdHow::CalendarWeek(r), WdHow::SundayWeek(r)]
            .into_iter()
            .map(|how| Expr::Weekday { wd: w, how })
            .collect()
    };
    match t {
        [Tok::Wd(w), Tok::Next, Tok::Unit(Unit::Days(7))] => return week(*w, 1),
        [Tok::Wd(w), Tok::Last, Tok::Unit(Unit::Days(7))] => return week(*w, -1),
        [Tok::Wd(w), Tok::This, Tok::Unit(Unit::Days(7))] => return week(*w, 0),
        _ => {}
    }
    let (wd, how) = match t {
        [Tok::Wd(w)] | [Tok::This, Tok::Wd(w)] => (*w, WdHow::Coming),
        [Tok::Next, Tok::Wd(w)] | [Tok::Wd(w), Tok::Next] => (*w, WdHow::Next),
        [Tok::Last, Tok::Wd(w)] | [Tok::Wd(w), Tok::Last] => (*w, WdHow::Last),
        [Tok::Wd(w), Tok::After, Tok::Next] => (*w, WdHow::AfterNext),
        [Tok::Wd(w), Tok::Before, Tok::Last] => (*w, WdHow::BeforeLast),
        [Tok::Wd(w), Tok::Unit(Unit::Days(7))] => (*w, WdHow::WeekOn),
        [Tok::Week(r), Tok::Wd(w)] => (*w, WdHow::CalendarWeek(*r)),
        _ => return Vec::new(),
    };
    vec![Expr::Weekday { wd, how }]
}

fn year(n: u32) -> Option<i32> {
    (1583..=9999).contains(&n).then_some(n as i32)
}

/// A relative year: "next year", "this year", "last year", 明年 …
fn relative_year(t: &[Tok]) -> Option<i64> {
    match t {
        [Tok::YearRel(r)] => Some(*r),
        [Tok::Next, Tok::Unit(Unit::Months(12))] | [Tok::Unit(Unit::Months(12)), Tok::Next] => {
            Some(1)
        }
        [Tok::Last, Tok::Unit(Unit::Months(12))] | [Tok::Unit(Unit::Months(12)), Tok::Last] => {
            Some(-1)
        }
        [Tok::This, Tok::Unit(Unit::Months(12))] => Some(0),
        _ => None,
    }
}

/// The ways to read a year off the ends of `t`: "Easter 2027", "Easter in
/// 2027", "2027年…", "২০২৭ সালের …", "Easter next year", "明年复活节".
fn year_splits(t: &[Tok]) -> Vec<(&[Tok], Option<Year>)> {
    let mut out = vec![(t, None)];
    let abs = |n: &u32| year(*n).map(Year::Abs);
    match t {
        [rest @ .., Tok::In, Tok::Unit(Unit::Months(12)), Tok::Num(n)]
        | [rest @ .., Tok::Unit(Unit::Months(12)), Tok::Num(n)] => {
            out.extend(abs(n).map(|y| (rest, Some(y))))
        }
        _ => {}
    }
    match t {
        [rest @ .., Tok::In, Tok::Num(n)] | [Tok::Num(n), Tok::YearMark, rest @ ..] => {
            out.extend(abs(n).map(|y| (rest, Some(y))))
        }
        [rest @ .., Tok::Num(n), Tok::YearMark] => out.extend(abs(n).map(|y| (rest, Some(y)))),
        _ => {}
    }
    if let [rest @ .., Tok::Num(n)] = t {
        out.extend(abs(n).map(|y| (rest, Some(y))));
    }
    for k in 1..t.len() {
        if let Some(r) = relative_year(&t[k..]) {
            out.push((&t[..k], Some(Year::Rel(r))));
        }
        if let Some(r) = relative_year(&t[..k]) {
            out.push((&t[k..], Some(Year::Rel(r))));
        }
    }
    out
}

fn day_of_month(t: &Tok) -> Option<u32> {
    match t {
        Tok::Num(d) | Tok::Ord(d) if (1..=31).contains(d) => Some(*d),
        _ => None,
    }
}

fn day_month(t: &[Tok]) -> Vec<Expr> {
    let mut out = Vec::new();
    for (core, year) in year_splits(t) {
        let dm = match core {
            [d, Tok::Month(m)] | [Tok::Month(m), d] => day_of_month(d).map(|d| (d, *m)),
            [Tok::Num(m), Tok::MonthMark, d, Tok::DayMark] if (1..=12).contains(m) => {
                day_of_month(d).map(|d| (d, *m))
            }
            _ => None,
        };
        if let Some((day, month)) = dm {
            out.push(Expr::DayMonth { day, month, year });
        }
    }
    out
}

fn named(t: &[Tok]) -> Vec<Expr> {
    let mut out = Vec::new();
    for (core, year) in year_splits(t) {
        let picks: Vec<(&[Tok], Pick)> = match core {
            [Tok::Next, rest @ ..] | [rest @ .., Tok::Next] => vec![(rest, Pick::Next)],
            [Tok::Last, rest @ ..] | [rest @ .., Tok::Last] => vec![(rest, Pick::Last)],
            [Tok::This, rest @ ..] => vec![(rest, Pick::Coming)],
            _ => vec![(core, Pick::Coming)],
        };
        if let [Tok::Last, Tok::Wd(6), Tok::Season(p @ ("Advent" | "OrdSunday"), _)]
        | [Tok::Last, Tok::Wd(6), Tok::In, Tok::Season(p @ ("Advent" | "OrdSunday"), _)] = core
        {
            // The 34th Sunday in Ordinary Time is Christ the King.
            let key = if *p == "Advent" {
                "Advent4"
            } else {
                "ChristKing"
            };
            out.push(Expr::Named {
                day: NamedDay::key(key),
                year,
                pick: Pick::Coming,
                weekday: None,
            });
        }
        for (core, pick) in picks {
            if year.is_some() && pick != Pick::Coming {
                continue;
            }
            if let Some((day, weekday)) = named_core(core) {
                out.push(Expr::Named {
                    day,
                    year,
                    pick,
                    weekday,
                });
            }
        }
    }
    out
}

fn named_core(t: &[Tok]) -> Option<(NamedDay, Option<u32>)> {
    match t {
        [Tok::Day(d)] => Some((d.clone(), None)),
        [Tok::Day(d), Tok::Eve] | [Tok::Eve, Tok::Day(d)] => Some((d.eve(), None)),
        [Tok::Day(d), Tok::Wd(w)] | [Tok::Wd(w), Tok::Day(d)] => Some((d.clone(), Some(*w))),
        [Tok::Day(d), Tok::Unit(Unit::Days(1))] | [Tok::Unit(Unit::Days(1)), Tok::Day(d)] => {
            Some((d.clone(), None))
        }
        [Tok::Season(p, max), Tok::Ord(n), Tok::Wd(6)] if (1..=*max).contains(n) => {
            Some((season_sunday(p, *n), None))
        }
        [Tok::Ord(n), Tok::Wd(6), Tok::Season(p, max)]
        | [Tok::Ord(n), Tok::Wd(6), Tok::In, Tok::Season(p, max)]
        | [Tok::Wd(6), Tok::Ord(n), Tok::Season(p, max)]
            if (1..=*max).contains(n) =>
        {
            Some((season_sunday(p, *n), None))
        }
        _ => None,
    }
}

/// The n-th Sunday of a season ("Easter1" is Easter Sunday itself).
fn season_sunday(prefix: &str, n: u32) -> NamedDay {
    if prefix == "Easter" && n == 1 {
        NamedDay::key("Easter")
    } else {
        NamedDay::key(format!("{prefix}{n}"))
    }
}

fn amount(t: &[Tok]) -> Option<(i64, Unit)> {
    match t {
        [Tok::Num(n), Tok::Unit(u) | Tok::Units(u)] => Some((i64::from(*n), *u)),
        [Tok::Article, Tok::Unit(u)] => Some((1, *u)),
        _ => None,
    }
}

fn amount_or_one(t: &[Tok]) -> Option<(i64, Unit)> {
    match t {
        [Tok::Unit(u)] => Some((1, *u)),
        _ => amount(t),
    }
}

fn shift(base: Expr, (n, unit): (i64, Unit), sign: i64) -> Expr {
    Expr::Shift {
        base: Box::new(base),
        unit,
        n: n * sign,
    }
}

fn offset(t: &[Tok]) -> Vec<Expr> {
    let mut out = from_today(t);
    for k in 1..t.len().saturating_sub(1) {
        out.extend(around(&t[..k], &t[k], &t[k + 1..]));
    }
    out
}

/// Offsets from today: "in 3 days", "hace dos días", "three days later",
/// "三天后", "৩ দিন পরে", "post tres dies", "a week today"; and the
/// postposition forms with a day before them (Bengali "ইস্টারের দুই দিন পরে").
fn from_today(t: &[Tok]) -> Vec<Expr> {
    let mut out = Vec::new();
    let now = || Expr::Today(0);
    match t {
        [Tok::In | Tok::After, rest @ ..] => out.extend(amount(rest).map(|a| shift(now(), a, 1))),
        [Tok::Ago | Tok::Before, rest @ ..] => {
            out.extend(amount(rest).map(|a| shift(now(), a, -1)))
        }
        _ => {}
    }
    if let [rest @ .., last @ (Tok::Ago | Tok::Later | Tok::Earlier)] = t {
        let sign = if matches!(last, Tok::Later) { 1 } else { -1 };
        out.extend(amount(rest).map(|a| shift(now(), a, sign)));
        if !matches!(last, Tok::Ago) {
            for k in 1..rest.len() {
                if let Some(a) = amount(&rest[k..]) {
                    out.extend(point(&rest[..k]).into_iter().map(|b| shift(b, a, sign)));
                }
            }
        }
    }
    // British "a week today", "a fortnight tomorrow", "two weeks on Sunday":
    // weeks from a day to come.
    if let [count, unit @ (Tok::Unit(Unit::Days(7 | 14)) | Tok::Units(Unit::Days(7 | 14))), last @ (Tok::Rel(0..) | Tok::Wd(_))] =
        t
    {
        let Some(a) = amount(&[count.clone(), unit.clone()]) else {
            return out;
        };
        out.extend(
            point(std::slice::from_ref(last))
                .into_iter()
                .map(|b| shift(b, a, 1)),
        );
    }
    out
}

/// An offset or a weekday on either side of a word: "three days from now",
/// "two days after Easter", "the Sunday after Easter", "复活节后三天".
fn around(left: &[Tok], word: &Tok, right: &[Tok]) -> Vec<Expr> {
    let mut out = Vec::new();
    match word {
        Tok::From => {
            if let Some(a) = amount(left) {
                out.extend(point(right).into_iter().map(|b| shift(b, a, 1)));
            }
        }
        Tok::After | Tok::Before => {
            let after = matches!(word, Tok::After);
            let sign = if after { 1 } else { -1 };
            if let Some(a) = amount_or_one(left) {
                out.extend(point(right).into_iter().map(|b| shift(b, a, sign)));
            }
            out.extend(weekday_from(left, after, right));
        }
        Tok::Later | Tok::Earlier => {
            let sign = if matches!(word, Tok::Later) { 1 } else { -1 };
            if let Some(a) = amount(right) {
                out.extend(point(left).into_iter().map(|b| shift(b, a, sign)));
            }
        }
        _ => {}
    }
    out
}

/// "the Sunday after Easter", "the second Sunday after Epiphany": the n-th
/// weekday strictly after (or before) a day.
fn weekday_from(left: &[Tok], after: bool, right: &[Tok]) -> Vec<Expr> {
    let (wd, n) = match left {
        [Tok::Wd(wd)] => (*wd, 1),
        [Tok::Ord(n), Tok::Wd(wd)] if (1..=60).contains(n) => (*wd, *n),
        _ => return Vec::new(),
    };
    let sign = if after { 1 } else { -1 };
    point(right)
        .into_iter()
        .map(|b| {
            let first = Expr::WeekdayFrom {
                wd,
                after,
                base: Box::new(b),
            };
            if n == 1 {
                first
            } else {
                shift(first, (i64::from(n) - 1, Unit::Days(7)), sign)
            }
        })
        .collect()
}

fn checked(t: &[Tok]) -> Vec<Expr> {
    let (wd, rest) = match t {
        [Tok::Wd(w), rest @ ..] | [rest @ .., Tok::Wd(w)] if !rest.is_empty() => (*w, rest),
        _ => return Vec::new(),
    };
    point(rest)
        .into_iter()
        .filter(|e| matches!(e, Expr::Date(_) | Expr::DayMonth { .. }))
        .map(|e| Expr::Check {
            wd,
            base: Box::new(e),
        })
        .collect()
}
