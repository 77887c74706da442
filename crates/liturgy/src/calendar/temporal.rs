//! The proper of time: the season, week, name, rank and colour of every day from Easter
//! and the other moveable dates.

use super::moveable::{d, sunday_on_or_before, Moveable};
use crate::error::LiturgyError;
use crate::types::{weekday_name, Celebration, Color, Rank, Season};
use chrono::{Datelike, Duration, NaiveDate, Weekday};

pub(super) const ORD: [&str; 35] = [
    "",
    "First",
    "Second",
    "Third",
    "Fourth",
    "Fifth",
    "Sixth",
    "Seventh",
    "Eighth",
    "Ninth",
    "Tenth",
    "Eleventh",
    "Twelfth",
    "Thirteenth",
    "Fourteenth",
    "Fifteenth",
    "Sixteenth",
    "Seventeenth",
    "Eighteenth",
    "Nineteenth",
    "Twentieth",
    "Twenty-first",
    "Twenty-second",
    "Twenty-third",
    "Twenty-fourth",
    "Twenty-fifth",
    "Twenty-sixth",
    "Twenty-seventh",
    "Twenty-eighth",
    "Twenty-ninth",
    "Thirtieth",
    "Thirty-first",
    "Thirty-second",
    "Thirty-third",
    "Thirty-fourth",
];

pub(super) fn ordinal(n: u8) -> &'static str {
    ORD.get(n as usize).copied().unwrap_or("")
}

pub(crate) fn ordinal_num(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

pub(super) fn dshort(w: Weekday) -> &'static str {
    match w {
        Weekday::Sun => "0Sun",
        Weekday::Mon => "1Mon",
        Weekday::Tue => "2Tue",
        Weekday::Wed => "3Wed",
        Weekday::Thu => "4Thu",
        Weekday::Fri => "5Fri",
        Weekday::Sat => "6Sat",
    }
}

pub(super) struct Temporal {
    pub(super) season: Season,
    pub(super) week: u8,
    pub(super) cel: Celebration,
    pub(super) lect: String,
}

pub(super) fn cel(
    key: String,
    name: String,
    rank: Rank,
    color: Color,
    precedence: u8,
) -> Celebration {
    Celebration {
        key,
        name,
        name_local: None,
        rank,
        color,
        optional: false,
        precedence,
        temporal: true,
        transferred_from: None,
    }
}

/// The proper of time for one date.
pub(super) fn temporal(
    m: &Moveable,
    prev_advent1: NaiveDate,
    date: NaiveDate,
) -> Result<Temporal, LiturgyError> {
    let y = date.year();
    let wd = date.weekday();
    let wname = weekday_name(wd);
    let is_sun = wd == Weekday::Sun;
    let e = m.easter;
    let days_from_easter = (date - e).num_days();
    let t = |season, week, key: String, name: String, rank, color, prec, lect: String| Temporal {
        season,
        week,
        cel: cel(key, name, rank, color, prec),
        lect,
    };
    // Christmas season at the start of the year: 1 Jan .. Baptism.
    if date <= m.baptism {
        let week = 1
            + ((sunday_on_or_before(date) - sunday_on_or_before(d(y - 1, 12, 25)?)).num_days() / 7)
                as u8;
        if date == d(y, 1, 1)? {
            return Ok(t(
                Season::Christmas,
                week,
                "MaryMotherOfGod".into(),
                "Mary, the Holy Mother of God".into(),
                Rank::Solemnity,
                Color::White,
                3,
                "Blessed Virgin Mary, the Mother of God".into(),
            ));
        }
        if date == m.epiphany {
            return Ok(t(
                Season::Christmas,
                week,
                "Epiphany".into(),
                "The Epiphany of the Lord".into(),
                Rank::Solemnity,
                Color::White,
                2,
                "CW03-Epiphany".into(),
            ));
        }
        if date == m.baptism {
            return Ok(t(
                Season::Christmas,
                week,
                "BaptismLord".into(),
                "The Baptism of the Lord".into(),
                Rank::Feast,
                Color::White,
                5,
                "CW04-Baptism".into(),
            ));
        }
        if is_sun {
            // Second Sunday after Christmas (2–5 January when Epiphany is 6 January).
            return Ok(t(
                Season::Christmas,
                week,
                "Christmas2".into(),
                "Second Sunday after Christmas".into(),
                Rank::Sunday,
                Color::White,
                6,
                "CW02-0Sun".into(),
            ));
        }
        if date < m.epiphany {
            return Ok(t(
                Season::Christmas,
                week,
                format!("ChristmasWeekdayJan{}", date.day()),
                format!("{wname}, {} January (Christmas Time)", date.day()),
                Rank::Weekday,
                Color::White,
                13,
                format!("CW02-Jan{}", date.day()),
            ));
        }
        // After Epiphany: 7–12 January (or Monday.. after a Sunday Epiphany).
        let n = if m.epiphany.weekday() == Weekday::Sun {
            (date - m.epiphany).num_days()
        } else {
            date.day() as i64 - 6
        };
        return Ok(t(
            Season::Christmas,
            week,
            format!("ChristmasWeekdayAfterEpiphany{n}"),
            format!("{wname} after Epiphany"),
            Rank::Weekday,
            Color::White,
            13,
            format!("CW03-Day{n}"),
        ));
    }
    // Ordinary Time, first part.
    if date < m.ash_wednesday {
        let week =
            1 + ((sunday_on_or_before(date) - sunday_on_or_before(m.baptism)).num_days() / 7) as u8;
        return Ok(ordinary(date, week));
    }
    // Lent.
    if date < e - Duration::days(3) {
        let palm = e - Duration::days(7);
        if date < m.ash_wednesday + Duration::days(4) {
            let (key, name) = if date == m.ash_wednesday {
                ("AshWednesday".to_string(), "Ash Wednesday".to_string())
            } else {
                (
                    format!("{wname}AfterAshWednesday"),
                    format!("{wname} after Ash Wednesday"),
                )
            };
            let prec = if date == m.ash_wednesday { 2 } else { 9 };
            let rank = Rank::Weekday;
            return Ok(t(
                Season::Lent,
                0,
                key,
                name,
                rank,
                Color::Violet,
                prec,
                format!("LW00-{}", dshort(wd)),
            ));
        }
        let week = 1
            + ((sunday_on_or_before(date) - (m.ash_wednesday + Duration::days(4))).num_days() / 7)
                as u8;
        let lect = format!("LW{week:02}-{}", dshort(wd));
        if date >= palm {
            if is_sun {
                return Ok(t(
                    Season::Lent,
                    6,
                    "PalmSun".into(),
                    "Palm Sunday of the Passion of the Lord".into(),
                    Rank::Sunday,
                    Color::Red,
                    2,
                    lect,
                ));
            }
            return Ok(t(
                Season::Lent,
                6,
                format!("{}HolyWeek", &wname[..3]),
                format!("{wname} of Holy Week"),
                Rank::Weekday,
                Color::Violet,
                2,
                lect,
            ));
        }
        if is_sun {
            let color = if week == 4 {
                Color::Rose
            } else {
                Color::Violet
            };
            let extra = if week == 4 { " (Laetare)" } else { "" };
            return Ok(t(
                Season::Lent,
                week,
                format!("Lent{week}"),
                format!("{} Sunday of Lent{extra}", ordinal(week)),
                Rank::Sunday,
                color,
                2,
                lect,
            ));
        }
        return Ok(t(
            Season::Lent,
            week,
            format!("LentWeekday{week}{wname}"),
            format!("{wname} of the {} Week of Lent", ordinal_num(week)),
            Rank::Weekday,
            Color::Violet,
            9,
            lect,
        ));
    }
    // Triduum.
    if date < e {
        return Ok(match days_from_easter {
            // Lent until the evening Mass of the Lord's Supper, which begins the Triduum
            // (Universal Norms 19 and 28): the day is reported as Lent, week 6.
            -3 => t(
                Season::Lent,
                6,
                "HolyThurs".into(),
                "Holy Thursday (Evening Mass of the Lord's Supper)".into(),
                Rank::Weekday,
                Color::White,
                1,
                "LW06-4Thu".into(),
            ),
            -2 => t(
                Season::PaschalTriduum,
                1,
                "GoodFri".into(),
                "Friday of the Passion of the Lord (Good Friday)".into(),
                Rank::Weekday,
                Color::Red,
                1,
                "LW06-5Fri".into(),
            ),
            _ => t(
                Season::PaschalTriduum,
                1,
                "EasterVigil".into(),
                "Holy Saturday (Easter Vigil in the Holy Night)".into(),
                Rank::Weekday,
                Color::White,
                1,
                "LW06-6Sat".into(),
            ),
        });
    }
    // Easter Time.
    if date <= m.pentecost {
        let week = (days_from_easter / 7 + 1) as u8;
        let lect = format!("EW{week:02}-{}", dshort(wd));
        if date == e {
            return Ok(t(
                Season::Easter,
                1,
                "Easter".into(),
                "Easter Sunday of the Resurrection of the Lord".into(),
                Rank::Solemnity,
                Color::White,
                1,
                "EW01-0Sun".into(),
            ));
        }
        if date == m.pentecost {
            return Ok(t(
                Season::Easter,
                8,
                "Pentecost".into(),
                "Pentecost Sunday".into(),
                Rank::Solemnity,
                Color::Red,
                2,
                "EW08-Pentecost".into(),
            ));
        }
        if date == m.ascension {
            return Ok(t(
                Season::Easter,
                week,
                "Ascension".into(),
                "The Ascension of the Lord".into(),
                Rank::Solemnity,
                Color::White,
                2,
                "EW07-Ascension".into(),
            ));
        }
        if week == 1 {
            return Ok(t(
                Season::Easter,
                1,
                format!("{}OctaveEaster", &wname[..3]),
                format!("{wname} within the Octave of Easter"),
                Rank::Solemnity,
                Color::White,
                2,
                lect,
            ));
        }
        if is_sun {
            let name = if week == 2 {
                "Second Sunday of Easter (Divine Mercy Sunday)".to_string()
            } else {
                format!("{} Sunday of Easter", ordinal(week))
            };
            return Ok(t(
                Season::Easter,
                week,
                format!("Easter{week}"),
                name,
                Rank::Sunday,
                Color::White,
                2,
                lect,
            ));
        }
        // Weekdays after the Ascension belong to the 6th/7th week; Ascension-Sunday calendars keep EW06 keys.
        return Ok(t(
            Season::Easter,
            week,
            format!("EasterWeekday{week}{wname}"),
            format!("{wname} of the {} Week of Easter", ordinal_num(week)),
            Rank::Weekday,
            Color::White,
            13,
            lect,
        ));
    }
    // Advent and Christmas at the end of the year.
    if date >= m.advent1 {
        let xmas = d(y, 12, 25)?;
        if date < xmas {
            let week = 1 + ((date - m.advent1).num_days() / 7) as u8;
            if is_sun {
                let color = if week == 3 {
                    Color::Rose
                } else {
                    Color::Violet
                };
                let extra = if week == 3 { " (Gaudete)" } else { "" };
                return Ok(t(
                    Season::Advent,
                    week,
                    format!("Advent{week}"),
                    format!("{} Sunday of Advent{extra}", ordinal(week)),
                    Rank::Sunday,
                    color,
                    2,
                    format!("AW{week:02}-0Sun"),
                ));
            }
            // 17–24 December only: Advent can begin on 27 November, whose weekdays are not "Dec 28".
            if date.month() == 12 && date.day() >= 17 {
                return Ok(t(
                    Season::Advent,
                    week,
                    format!("AdventWeekdayDec{}", date.day()),
                    format!("{wname}, {} December (Advent)", date.day()),
                    Rank::Weekday,
                    Color::Violet,
                    9,
                    format!("AW05-Dec{}", date.day()),
                ));
            }
            return Ok(t(
                Season::Advent,
                week,
                format!("AdventWeekday{week}{wname}"),
                format!("{wname} of the {} Week of Advent", ordinal_num(week)),
                Rank::Weekday,
                Color::Violet,
                13,
                format!("AW{week:02}-{}", dshort(wd)),
            ));
        }
        let week =
            1 + ((sunday_on_or_before(date) - sunday_on_or_before(xmas)).num_days() / 7) as u8;
        if date == xmas {
            return Ok(t(
                Season::Christmas,
                week,
                "Christmas".into(),
                "The Nativity of the Lord (Christmas)".into(),
                Rank::Solemnity,
                Color::White,
                2,
                "Nativity of the Lord".into(),
            ));
        }
        if date == m.holy_family {
            return Ok(t(
                Season::Christmas,
                week,
                "HolyFamily".into(),
                "The Holy Family of Jesus, Mary and Joseph".into(),
                Rank::Feast,
                Color::White,
                5,
                "CW01-HolyFamily".into(),
            ));
        }
        return Ok(t(
            Season::Christmas,
            week,
            format!("ChristmasOctaveDay{}", date.day()),
            octave_day_name(date.day()),
            Rank::Weekday,
            Color::White,
            9,
            format!("CW01-Dec{}", date.day()),
        ));
    }
    let _ = prev_advent1;
    // Ordinary Time, second part: weeks counted back from Christ the King (week 34).
    let christ_king = m.advent1 - Duration::days(7);
    let week = (34 - (christ_king - sunday_on_or_before(date)).num_days() / 7) as u8;
    if date == christ_king {
        return Ok(t(
            Season::OrdinaryTime,
            34,
            "ChristKing".into(),
            "Our Lord Jesus Christ, King of the Universe".into(),
            Rank::Solemnity,
            Color::White,
            3,
            "OW34-0Sun".into(),
        ));
    }
    if date == m.pentecost + Duration::days(7) {
        return Ok(t(
            Season::OrdinaryTime,
            week,
            "Trinity".into(),
            "The Most Holy Trinity".into(),
            Rank::Solemnity,
            Color::White,
            3,
            "OW00-Trinity".into(),
        ));
    }
    if date == m.corpus_christi {
        return Ok(t(
            Season::OrdinaryTime,
            week,
            "CorpusChristi".into(),
            "The Most Holy Body and Blood of Christ (Corpus Christi)".into(),
            Rank::Solemnity,
            Color::White,
            3,
            "OW00-CorpusChristi".into(),
        ));
    }
    if date == e + Duration::days(68) {
        return Ok(t(
            Season::OrdinaryTime,
            week,
            "SacredHeart".into(),
            "The Most Sacred Heart of Jesus".into(),
            Rank::Solemnity,
            Color::White,
            3,
            "OW00-SacredHeart".into(),
        ));
    }
    Ok(ordinary(date, week))
}

/// The Missal's name of a day within the Octave of Christmas (26–31 December):
/// "Fifth Day within the Octave of the Nativity of the Lord".
pub(super) fn octave_day_name(day_of_december: u32) -> String {
    const ORDINALS: [&str; 6] = ["Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh"];
    let n = day_of_december.saturating_sub(26) as usize;
    let ordinal = ORDINALS.get(n).copied().unwrap_or("Seventh");
    format!("{ordinal} Day within the Octave of the Nativity of the Lord")
}

pub(super) fn ordinary(date: NaiveDate, week: u8) -> Temporal {
    let wd = date.weekday();
    let wname = weekday_name(wd);
    let lect = format!("OW{week:02}-{}", dshort(wd));
    if wd == Weekday::Sun {
        return Temporal {
            season: Season::OrdinaryTime,
            week,
            cel: cel(
                format!("OrdSunday{week}"),
                format!("{} Sunday in Ordinary Time", ordinal(week)),
                Rank::Sunday,
                Color::Green,
                6,
            ),
            lect,
        };
    }
    Temporal {
        season: Season::OrdinaryTime,
        week,
        cel: cel(
            format!("OrdWeekday{week}{wname}"),
            format!("{wname} of the {} Week in Ordinary Time", ordinal_num(week)),
            Rank::Weekday,
            Color::Green,
            13,
        ),
        lect,
    }
}
