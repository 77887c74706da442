//! The independent reference: `lectionary/plishman-us-english` (US Lectionary numbers and
//! citations, GPL-3.0: read at check time, never shipped) and how it names the days.

use crate::error::LiturgyError;
use crate::types::Day;
use chrono::Datelike;
use std::collections::HashMap;
use std::path::Path;

/// One Gospel row of the reference.
#[derive(Debug, Clone, PartialEq)]
pub struct RefGospel {
    /// English citation (`Luke 7:18b-23`).
    pub citation: String,
    /// The year it is read in: `A`, `B`, `C`, `ABC`, `1`, `2`, `1+2`.
    pub cycle: String,
    /// True for an option printed after the main text (`(opt. B)`, `or …`).
    pub option: bool,
    /// The Sunday cycle of a reading printed for one year only (`(Year A)`, `(in Year A)`):
    /// in that year it is the day's Gospel.
    pub only_in: Option<char>,
}

/// The reference's Gospels by day name.
#[derive(Debug, Clone, Default)]
pub struct Reference {
    gospels: HashMap<String, Vec<RefGospel>>,
}

/// The sanctorale days the reference has, by date (month, day, its name).
const SANCTORALE: &[(u32, u32, &str)] = &[
    (1, 25, "Conversion of Paul, apostle"),
    (2, 2, "Presentation of the Lord"),
    (2, 22, "Chair of Peter, apostle"),
    (3, 19, "Joseph, Husband of Mary"),
    (3, 25, "The Annunciation of our Lord"),
    (4, 25, "Mark, evangelist"),
    (5, 1, "Joseph the Worker"),
    (5, 3, "Philip and James, apostles"),
    (5, 14, "Matthias, apostle"),
    (5, 31, "Visitation"),
    (6, 11, "Barnabas, apostle"),
    (6, 24, "Birth of John the Baptist, Mass during the day"),
    (6, 29, "Peter and Paul, apostles, Mass during the day"),
    (7, 3, "Thomas, apostle"),
    (7, 22, "Mary Magdalene"),
    (7, 25, "James, apostle"),
    (7, 26, "Joachim and Ann, parents of Mary"),
    (8, 6, "Transfiguration"),
    (8, 10, "Lawrence, deacon and martyr"),
    (8, 15, "Assumption, Mass during the day"),
    (8, 24, "Bartholomew, apostle"),
    (8, 29, "Beheading of John the Baptist, martyr"),
    (9, 8, "Birth of Mary"),
    (9, 14, "Triumph of the Cross"),
    (9, 15, "Our Lady of Sorrows"),
    (9, 21, "Matthew, apostle and evangelist"),
    (9, 29, "Michael, Gabriel, and Raphael, archangels"),
    (10, 2, "Guardian Angels"),
    (10, 18, "Luke, evangelist"),
    (10, 28, "Simon and Jude, apostles"),
    (11, 1, "All Saints"),
    (
        11,
        18,
        "Dedication of the Churches of Peter and Paul, apostles",
    ),
    (11, 30, "Andrew, apostle"),
    (12, 8, "Immaculate Conception"),
    (12, 26, "Stephen, first martyr"),
    (12, 27, "John, apostle and evangelist"),
    (12, 28, "Holy Innocents, martyrs"),
];

/// A day name without its trailing notes (`(resp.)`, `morn.`), whether the notes mark an
/// option, and the one year a reading is printed for.
fn base_name(name: &str) -> (String, bool, Option<char>) {
    let name = name.trim().replace('’', " ");
    let name = name.trim_end_matches(" morn.");
    let Some(i) = name.find(" (") else {
        return (name.to_string(), false, None);
    };
    let note = &name[i..];
    let only_in = note
        .split_once("Year ")
        .and_then(|(_, y)| y.chars().next())
        .filter(|c| matches!(c, 'A' | 'B' | 'C'));
    let option = note.to_ascii_lowercase().contains("opt");
    (name[..i].trim().to_string(), option, only_in)
}

/// The alternatives of one cell: `Luke 22:14-23:56 or 23:1-49` → the two citations, the
/// second given its book again.
fn alternatives(cell: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in cell.split(" or ") {
        let piece = piece.trim();
        let starts_with_number = piece.chars().next().is_some_and(|c| c.is_ascii_digit())
            && piece
                .split_whitespace()
                .next()
                .is_some_and(|w| w.contains(':'));
        match out.first() {
            Some(first) if starts_with_number => {
                let book = first.rsplit_once(' ').map_or("", |(b, _)| b);
                out.push(format!("{book} {piece}"));
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}

impl Reference {
    /// Read `lectionary/plishman-us-english/Full_Lectionary_Raw.csv`.
    pub fn load(data_dir: &Path) -> Result<Self, LiturgyError> {
        let path = data_dir.join("lectionary/plishman-us-english/Full_Lectionary_Raw.csv");
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_path(&path)
            .map_err(|e| LiturgyError::data(&path, e.to_string()))?;
        let mut gospels: HashMap<String, Vec<RefGospel>> = HashMap::new();
        for rec in reader.records() {
            let rec = rec.map_err(|e| LiturgyError::data(&path, e.to_string()))?;
            let (Some(kind), Some(citation), Some(name), Some(cycle)) =
                (rec.get(0), rec.get(1), rec.get(3), rec.get(5))
            else {
                continue;
            };
            if kind != "G" {
                continue;
            }
            let (name, option, only_in) = base_name(name);
            let entry = gospels.entry(name).or_default();
            for (i, citation) in alternatives(citation).into_iter().enumerate() {
                entry.push(RefGospel {
                    citation,
                    cycle: cycle.trim().to_string(),
                    option: option || i > 0,
                    only_in,
                });
            }
        }
        if gospels.len() < 300 {
            return Err(LiturgyError::data(
                &path,
                format!("only {} days with a Gospel", gospels.len()),
            ));
        }
        Ok(Reference { gospels })
    }

    /// The Gospels the reference gives a named day in a year (`A`/`B`/`C` and `1`/`2`),
    /// main texts first.
    pub fn gospels(&self, name: &str, sunday: char, weekday: u8) -> Vec<&RefGospel> {
        let Some(rows) = self.gospels.get(name) else {
            return Vec::new();
        };
        let fits = |g: &&RefGospel| {
            let c = g.cycle.as_str();
            c == "ABC" || c == "1+2" || c.contains(sunday) || c == weekday.to_string()
        };
        let mut out: Vec<&RefGospel> = rows.iter().filter(|g| g.only_in == Some(sunday)).collect();
        out.extend(
            rows.iter()
                .filter(|g| g.only_in.is_none() && !g.option)
                .filter(fits),
        );
        out.extend(
            rows.iter()
                .filter(|g| g.only_in.is_none() && g.option)
                .filter(fits),
        );
        out
    }

    /// The reference's name of a sanctorale day.
    pub fn sanctorale_name(month: u32, day: u32) -> Option<&'static str> {
        SANCTORALE
            .iter()
            .find(|(m, d, _)| *m == month && *d == day)
            .map(|(_, _, n)| *n)
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn weekday_abbr(code: &str) -> Option<&'static str> {
    Some(match code {
        "1Mon" => "Mon",
        "2Tue" => "Tues",
        "3Wed" => "Wed",
        "4Thu" => "Thurs",
        "5Fri" => "Fri",
        "6Sat" => "Sat",
        _ => return None,
    })
}

/// The reference's name of a day of the proper of time, from our lectionary key
/// (`OW05-3Wed` → `Ord. Time, Week 5, Wed`).
pub fn temporal_name(day: &Day) -> Option<String> {
    let key = day.temporal.lectionary_key.as_str();
    let fixed = match key {
        "Nativity of the Lord" => Some("Christmas: Mass during the Day"),
        "CW01-HolyFamily" => Some("Sunday in Octave of Christmas: Holy Family"),
        "Blessed Virgin Mary, the Mother of God" => Some("Jan. 1: Mary, Mother of God"),
        "CW02-0Sun" => Some("2nd Sunday after Christmas"),
        "CW03-Epiphany" => Some("The Epiphany of the Lord"),
        "CW04-Baptism" => Some("Sunday after Epiphany: Baptism of the Lord"),
        "LW00-3Wed" => Some("Ash Wednesday"),
        "LW00-4Thu" => Some("Thursday after Ash Wed."),
        "LW00-5Fri" => Some("Friday after Ash Wed."),
        "LW00-6Sat" => Some("Saturday after Ash Wed."),
        "LW06-0Sun" => Some("Palm Sunday Mass"),
        "LW06-4Thu" => Some("Holy Thursday: Mass of the Lord s Supper"),
        "LW06-5Fri" => Some("Good Friday of the Lord s Passion"),
        "LW06-6Sat" => Some("Easter Vigil"),
        "EW01-0Sun" => Some("Easter Sunday: Resurrection of the Lord"),
        "EW07-Ascension" => Some("Ascension of the Lord"),
        "EW08-Pentecost" => Some("Pentecost Sunday"),
        "OW00-Trinity" => Some("Sunday after Pentecost: Holy Trinity"),
        "OW00-CorpusChristi" => Some("Sunday after Trinity Sun: Body & Blood of Christ"),
        "OW00-SacredHeart" => Some("Friday after 2nd Sun after Pentecost: Sacred Heart"),
        "OW34-0Sun" => Some("34th Sunday in Ord. Time: Christ the King"),
        _ => None,
    };
    if let Some(f) = fixed {
        return Some(f.to_string());
    }
    let (head, tail) = key.split_once('-')?;
    if let Some(n) = tail.strip_prefix("Dec") {
        return Some(match head {
            "AW05" => format!("Advent, Dec. {n}"),
            _ => format!(
                "{}th Day in Xmas Octave, Dec. {n}",
                n.parse::<u32>().ok()? - 24
            ),
        });
    }
    if let Some(n) = tail.strip_prefix("Jan") {
        return Some(format!("Jan. {n}"));
    }
    if let Some(n) = tail.strip_prefix("Day") {
        let n: u32 = n.parse().ok()?;
        let wd = ["Mon", "Tues", "Wed", "Thurs", "Fri", "Sat"].get(n.checked_sub(1)? as usize)?;
        return Some(format!("{wd} after Epiphany, or Jan. {}", 6 + n));
    }
    let week: u32 = head.get(2..)?.parse().ok()?;
    let season = &head[..2];
    if tail == "0Sun" {
        return Some(match season {
            "AW" => format!("{} Sunday of Advent", ordinal(week)),
            "LW" => format!("{} Sunday of Lent", ordinal(week)),
            "EW" => format!("{} Sunday of Easter", ordinal(week)),
            "OW" => format!("{} Sunday in Ordinary Time", ordinal(week)),
            _ => return None,
        });
    }
    let wd = weekday_abbr(tail)?;
    Some(match (season, week) {
        ("AW", _) => format!("Advent, Week {week}, {wd}"),
        ("LW", 6) => format!("Holy Week, {wd}"),
        ("LW", _) => format!("Lent, Week {week}, {wd}"),
        ("EW", 1) => format!("Easter Octave, {wd}"),
        ("EW", _) => format!("Easter, Week {week}, {wd}"),
        ("OW", _) => format!("Ord. Time, Week {week}, {wd}"),
        _ => return None,
    })
}

/// The date a celebration is kept by (its own date when transferred).
pub fn sanctorale_date(day: &Day) -> (u32, u32) {
    let d = day.principal().transferred_from.unwrap_or(day.date);
    (d.month(), d.day())
}
