//! The proper of time of the 1962 Missal: which Mass of the Temporale a date has.
//!
//! The year runs from the First Sunday of Advent (the fourth Sunday before Christmas) through
//! Christmas and the Sundays after Epiphany, Septuagesima (63 days before Easter), Lent (from
//! the Sunday 42 days before Easter), Easter Time to the Saturday after Pentecost, and the
//! Sundays after Pentecost. The last of these is always the 24th; when there are more than 24,
//! the Sundays after Epiphany that Septuagesima left unused are taken up before it (Rubricae
//! generales Missalis, and Codex Rubricarum 18). The file keys are Divinum Officium's
//! (`Adv1-0`, `Quadp3-3`, `Pent05-2`, `PentEpi4-0`, `Nat26`).

use chrono::{Datelike, NaiveDate, Weekday};
use serde::Serialize;

/// A season of the 1962 Missal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Season {
    /// From the First Sunday of Advent to 24 December.
    Advent,
    /// From Christmas to 13 January (the Baptism of the Lord).
    Christmas,
    /// The weeks after Epiphany, to the Saturday before Septuagesima.
    AfterEpiphany,
    /// From Septuagesima Sunday to Shrove Tuesday.
    Septuagesima,
    /// From Ash Wednesday to the Saturday before Passion Sunday.
    Lent,
    /// From Passion Sunday to Holy Saturday.
    Passiontide,
    /// From Easter Sunday to the Saturday after Pentecost.
    Easter,
    /// The weeks after Pentecost, to the Saturday before Advent.
    AfterPentecost,
}

impl Season {
    /// Upper-case code (`AFTER_PENTECOST`).
    pub fn code(self) -> &'static str {
        match self {
            Season::Advent => "ADVENT",
            Season::Christmas => "CHRISTMAS",
            Season::AfterEpiphany => "AFTER_EPIPHANY",
            Season::Septuagesima => "SEPTUAGESIMA",
            Season::Lent => "LENT",
            Season::Passiontide => "PASSIONTIDE",
            Season::Easter => "EASTER",
            Season::AfterPentecost => "AFTER_PENTECOST",
        }
    }
    /// English name.
    pub fn name(self) -> &'static str {
        match self {
            Season::Advent => "Advent",
            Season::Christmas => "Christmastide",
            Season::AfterEpiphany => "Time after Epiphany",
            Season::Septuagesima => "Septuagesima",
            Season::Lent => "Lent",
            Season::Passiontide => "Passiontide",
            Season::Easter => "Paschaltide",
            Season::AfterPentecost => "Time after Pentecost",
        }
    }

    /// The season of a date.
    pub fn of(date: NaiveDate, easter: NaiveDate) -> Season {
        let to_easter = (easter - date).num_days();
        let year = date.year();
        let after_christmas = date.month() == 12 && date.day() >= 25;
        if after_christmas || (date.month() == 1 && date.day() <= 13) {
            return Season::Christmas;
        }
        if advent1(year).is_some_and(|a| date >= a) {
            return Season::Advent;
        }
        match to_easter {
            47..=63 => Season::Septuagesima,
            15..=46 => Season::Lent,
            1..=14 => Season::Passiontide,
            i64::MIN..=0 if -to_easter < 56 => Season::Easter,
            i64::MIN..=0 => Season::AfterPentecost,
            _ => Season::AfterEpiphany,
        }
    }
}

/// The First Sunday of Advent of a civil year: the fourth Sunday before Christmas (the same
/// day in both forms of the rite).
pub fn advent1(year: i32) -> Option<NaiveDate> {
    crate::calendar::advent1(year).ok()
}

/// The week of the proper of time a date falls in (`Adv2`, `Nat26`, `Nat02`, `Epi3`, `Quadp1`,
/// `Quad4`, `Pasc6`, `Pent12`, `PentEpi5`, `Pent24`), as Divinum Officium names it.
pub fn week_name(date: NaiveDate, easter: NaiveDate) -> String {
    let year = date.year();
    let Some(advent) = advent1(year) else {
        return String::new();
    };
    let t = i64::from(date.ordinal());
    let day = date.day();
    if date >= advent {
        if date.month() == 11 || day < 25 {
            let n = 1 + (date - advent).num_days() / 7;
            return format!("Adv{n}");
        }
        return format!("Nat{day}");
    }
    // The Sunday after Epiphany begins the weeks after Epiphany.
    let epiphany =
        NaiveDate::from_ymd_opt(year, 1, 6).map_or(0, |d| d.weekday().num_days_from_sunday());
    let ordtime = 6 + 7 - i64::from(epiphany);
    if date.month() == 1 && t < ordtime {
        return format!("Nat{day:02}");
    }
    let e = i64::from(easter.ordinal());
    if t < e - 63 {
        return format!("Epi{}", (t - ordtime).div_euclid(7) + 1);
    }
    if t < e - 42 {
        return format!("Quadp{}", (t - (e - 63)) / 7 + 1);
    }
    if t < e {
        return format!("Quad{}", 1 + (t - (e - 42)) / 7);
    }
    if t < e + 56 {
        return format!("Pasc{}", (t - e) / 7);
    }
    let n = (t - (e + 49)) / 7;
    if n < 23 {
        return format!("Pent{n:02}");
    }
    let weeks_to_advent = (i64::from(advent.ordinal()) - t + 6) / 7;
    if weeks_to_advent < 2 {
        return "Pent24".into();
    }
    if n == 23 {
        return "Pent23".into();
    }
    format!("PentEpi{}", 8 - weeks_to_advent)
}

/// The Temporale file of a date (`Pent05-2`; `Nat26` in Christmas time), before the 1960
/// substitutions of `Tabulae/Tempora/Generale.txt`.
pub fn file_key(date: NaiveDate, easter: NaiveDate) -> String {
    let week = week_name(date, easter);
    if week.starts_with("Nat") {
        week
    } else {
        format!("{week}-{}", date.weekday().num_days_from_sunday())
    }
}

/// The September Ember days: Wednesday, Friday and Saturday after the third Sunday of
/// September (Codex Rubricarum 87 as amended 1960), as files `093-3`, `093-5`, `093-6`.
pub fn september_ember(date: NaiveDate) -> Option<String> {
    if date.month() != 9 {
        return None;
    }
    let first = NaiveDate::from_ymd_opt(date.year(), 9, 1)?;
    let to_sunday = (7 - first.weekday().num_days_from_sunday()) % 7;
    let third_sunday = first.checked_add_days(chrono::Days::new(u64::from(to_sunday) + 14))?;
    let offset = (date - third_sunday).num_days();
    match offset {
        3 | 5 | 6 => Some(format!("093-{offset}")),
        _ => None,
    }
}

/// True from Septuagesima to Holy Saturday (no Alleluia; a Tract).
pub fn penitential(date: NaiveDate, easter: NaiveDate) -> bool {
    let d = (easter - date).num_days();
    (1..=63).contains(&d)
}

/// True from Easter Sunday to the Saturday after Pentecost.
pub fn paschal(date: NaiveDate, easter: NaiveDate) -> bool {
    let d = (date - easter).num_days();
    (0..56).contains(&d)
}

/// True on Sundays.
pub fn is_sunday(date: NaiveDate) -> bool {
    date.weekday() == Weekday::Sun
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn weeks_of_2026() {
        let easter = d(2026, 4, 5);
        assert_eq!(advent1(2026), Some(d(2026, 11, 29)));
        assert_eq!(file_key(d(2026, 2, 1), easter), "Quadp1-0");
        assert_eq!(file_key(d(2026, 2, 18), easter), "Quadp3-3");
        assert_eq!(file_key(d(2026, 3, 29), easter), "Quad6-0");
        assert_eq!(file_key(d(2026, 4, 5), easter), "Pasc0-0");
        assert_eq!(file_key(d(2026, 5, 24), easter), "Pasc7-0");
        assert_eq!(file_key(d(2026, 5, 31), easter), "Pent01-0");
        assert_eq!(file_key(d(2026, 11, 22), easter), "Pent24-0");
        assert_eq!(file_key(d(2026, 12, 13), easter), "Adv3-0");
        assert_eq!(file_key(d(2026, 12, 26), easter), "Nat26");
        assert_eq!(file_key(d(2026, 1, 3), easter), "Nat03");
        assert_eq!(file_key(d(2026, 1, 11), easter), "Epi1-0");
    }

    #[test]
    fn leftover_epiphany_sundays_before_the_last() {
        // 2027: Easter 28 March, so 28 Sundays after Pentecost; the 24th is the last.
        let easter = d(2027, 3, 28);
        assert_eq!(file_key(d(2027, 11, 21), easter), "Pent24-0");
        assert_eq!(file_key(d(2027, 11, 14), easter), "PentEpi6-0");
        assert_eq!(file_key(d(2027, 10, 31), easter), "PentEpi4-0");
    }

    #[test]
    fn seasons() {
        let easter = d(2026, 4, 5);
        assert_eq!(Season::of(d(2026, 1, 13), easter), Season::Christmas);
        assert_eq!(Season::of(d(2026, 1, 14), easter), Season::AfterEpiphany);
        assert_eq!(Season::of(d(2026, 2, 1), easter), Season::Septuagesima);
        assert_eq!(Season::of(d(2026, 2, 18), easter), Season::Lent);
        assert_eq!(Season::of(d(2026, 3, 22), easter), Season::Passiontide);
        assert_eq!(Season::of(d(2026, 5, 30), easter), Season::Easter);
        assert_eq!(Season::of(d(2026, 5, 31), easter), Season::AfterPentecost);
        assert_eq!(Season::of(d(2026, 11, 29), easter), Season::Advent);
        assert_eq!(Season::of(d(2026, 12, 25), easter), Season::Christmas);
    }

    #[test]
    fn september_ember_days() {
        // 2026: third Sunday of September is the 20th.
        assert_eq!(september_ember(d(2026, 9, 23)).as_deref(), Some("093-3"));
        assert_eq!(september_ember(d(2026, 9, 26)).as_deref(), Some("093-6"));
        assert_eq!(september_ember(d(2026, 9, 16)), None);
    }
}
