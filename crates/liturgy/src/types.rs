//! The vocabulary of the calendar: seasons, ranks, colours, celebrations, days.

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

/// A liturgical season.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Season {
    /// From the First Sunday of Advent to 24 December.
    Advent,
    /// From Christmas to the Baptism of the Lord.
    Christmas,
    /// Both parts of Ordinary Time.
    OrdinaryTime,
    /// From Ash Wednesday to Holy Thursday (until the evening Mass of the Lord's Supper).
    Lent,
    /// Good Friday and Holy Saturday (Holy Thursday is Lent until the evening Mass that
    /// begins the Triduum, Universal Norms 19 and 28).
    PaschalTriduum,
    /// From Easter Sunday to Pentecost.
    Easter,
}

impl Season {
    /// The upper-case name used in the JSONL output (`ORDINARY_TIME`).
    pub fn code(self) -> &'static str {
        match self {
            Season::Advent => "ADVENT",
            Season::Christmas => "CHRISTMAS",
            Season::OrdinaryTime => "ORDINARY_TIME",
            Season::Lent => "LENT",
            Season::PaschalTriduum => "PASCHAL_TRIDUUM",
            Season::Easter => "EASTER",
        }
    }
    /// English name ("Ordinary Time").
    pub fn name(self) -> &'static str {
        match self {
            Season::Advent => "Advent",
            Season::Christmas => "Christmas Time",
            Season::OrdinaryTime => "Ordinary Time",
            Season::Lent => "Lent",
            Season::PaschalTriduum => "Paschal Triduum",
            Season::Easter => "Easter Time",
        }
    }
}

/// The rank of a celebration, as the JSONL output names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Rank {
    /// Solemnity.
    Solemnity,
    /// Feast (including feasts of the Lord).
    Feast,
    /// A Sunday that is not a solemnity or feast.
    Sunday,
    /// Obligatory memorial.
    Memorial,
    /// Optional memorial.
    OptionalMemorial,
    /// A memorial reduced to a commemoration (Lent, 17–24 Dec., Christmas octave).
    Commemoration,
    /// A weekday.
    Weekday,
}

impl Rank {
    /// Upper-case code (`OPTIONAL_MEMORIAL`).
    pub fn code(self) -> &'static str {
        match self {
            Rank::Solemnity => "SOLEMNITY",
            Rank::Feast => "FEAST",
            Rank::Sunday => "SUNDAY",
            Rank::Memorial => "MEMORIAL",
            Rank::OptionalMemorial => "OPTIONAL_MEMORIAL",
            Rank::Commemoration => "COMMEMORATION",
            Rank::Weekday => "WEEKDAY",
        }
    }
    /// English name ("Optional memorial").
    pub fn name(self) -> &'static str {
        match self {
            Rank::Solemnity => "Solemnity",
            Rank::Feast => "Feast",
            Rank::Sunday => "Sunday",
            Rank::Memorial => "Memorial",
            Rank::OptionalMemorial => "Optional memorial",
            Rank::Commemoration => "Commemoration",
            Rank::Weekday => "Weekday",
        }
    }
}

/// A liturgical colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Color {
    /// White (or gold).
    White,
    /// Red.
    Red,
    /// Green.
    Green,
    /// Violet (purple).
    Violet,
    /// Rose (Gaudete, Laetare).
    Rose,
    /// Black (an option for All Souls; not chosen by default).
    Black,
}

impl Color {
    /// Upper-case code (`VIOLET`).
    pub fn code(self) -> &'static str {
        match self {
            Color::White => "WHITE",
            Color::Red => "RED",
            Color::Green => "GREEN",
            Color::Violet => "VIOLET",
            Color::Rose => "ROSE",
            Color::Black => "BLACK",
        }
    }
    /// Lower-case English name.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Red => "red",
            Color::Green => "green",
            Color::Violet => "violet",
            Color::Rose => "rose",
            Color::Black => "black",
        }
    }
    /// From a LitCal colour word (`purple` is violet).
    pub fn from_word(w: &str) -> Option<Color> {
        match w.to_ascii_lowercase().as_str() {
            "white" | "gold" => Some(Color::White),
            "red" => Some(Color::Red),
            "green" => Some(Color::Green),
            "purple" | "violet" => Some(Color::Violet),
            "rose" | "pink" => Some(Color::Rose),
            "black" => Some(Color::Black),
            _ => None,
        }
    }
}

/// One celebration on a day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Celebration {
    /// Stable key (LitCal event keys: `StJoseph`, `OrdSunday5`, `OrdWeekday5Wednesday`).
    pub key: String,
    /// English name.
    pub name: String,
    /// The name in the calendar's own language (`Wniebowzięcie Najświętszej Maryi Panny`
    /// in `pl`), where the data has one that differs from the English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_local: Option<String>,
    /// Rank as celebrated this day.
    pub rank: Rank,
    /// Colour.
    pub color: Color,
    /// True for optional memorials and commemorations (not the day's celebration).
    pub optional: bool,
    /// Position in the Table of Liturgical Days (1 = highest, 13 = weekdays).
    pub precedence: u8,
    /// True for celebrations of the proper of time (Sundays, seasons, moveable feasts).
    pub temporal: bool,
    /// Where a transferred solemnity came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transferred_from: Option<NaiveDate>,
}

/// The proper-of-time position of a day, used by the lectionary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemporalPosition {
    /// Lectionary key of the day in the proper of time (`OW05-3Wed`, `AW05-Dec17`, `CW03-Day2`).
    pub lectionary_key: String,
    /// Key of the temporal celebration (`OrdWeekday5Wednesday`).
    pub key: String,
}

/// A liturgical day with everything celebrated on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Day {
    /// Civil date.
    pub date: NaiveDate,
    /// Season.
    pub season: Season,
    /// Week of the season (Advent 1–4, Christmas 1–3, Lent 0–6, Easter 1–8, Ordinary Time 1–34; Triduum 1).
    pub week_of_season: u8,
    /// Sunday cycle of the liturgical year (A, B, C).
    pub sunday_cycle: char,
    /// Weekday cycle of the liturgical year (1 or 2).
    pub weekday_cycle: u8,
    /// First the celebration of the day, then optional memorials and commemorations.
    pub celebrations: Vec<Celebration>,
    /// The proper-of-time position (for weekday readings).
    pub temporal: TemporalPosition,
}

impl Day {
    /// The celebration of the day.
    pub fn principal(&self) -> &Celebration {
        // A Day always carries at least its temporal celebration.
        &self.celebrations[0]
    }
    /// English weekday name.
    pub fn weekday_name(&self) -> &'static str {
        weekday_name(self.date.weekday())
    }
    /// The week of the four-week psalter of the Liturgy of the Hours (1–4), following the
    /// General Instruction of the Liturgy of the Hours 133: Week I begins with the First
    /// Sunday of Advent, the First Sunday of Lent, Easter Sunday and the first week of
    /// Ordinary Time, and the weeks run on; Ash Wednesday to Saturday take Week IV, the
    /// Triduum continues Holy Week's Week II, and in Christmas Time Week I begins on the
    /// Sunday within the Octave (Holy Family), the days before it continuing Advent's Week IV.
    pub fn psalter_week(&self) -> u8 {
        let cycle = |w: u8| (w.saturating_sub(1) % 4) + 1;
        match self.season {
            Season::Lent if self.week_of_season == 0 => 4,
            Season::PaschalTriduum => 2,
            Season::Christmas => {
                let year = if self.date.month() == 12 {
                    self.date.year()
                } else {
                    self.date.year() - 1
                };
                let christmas_on_sunday = chrono::NaiveDate::from_ymd_opt(year, 12, 25)
                    .is_some_and(|d| d.weekday() == chrono::Weekday::Sun);
                match (christmas_on_sunday, self.week_of_season) {
                    (true, w) => cycle(w),
                    (false, 0 | 1) => 4,
                    (false, w) => cycle(w - 1),
                }
            }
            _ => cycle(self.week_of_season),
        }
    }

    /// "Also: …" naming the day's other celebrations with their ranks (optional memorials,
    /// commemorations), or `None` when there are none.
    pub fn also_line(&self) -> Option<String> {
        let others: Vec<String> = self
            .celebrations
            .iter()
            .skip(1)
            .filter(|c| !(c.temporal && c.rank == Rank::Weekday))
            .map(|c| format!("{} ({})", c.name, c.rank.name().to_lowercase()))
            .collect();
        (!others.is_empty()).then(|| format!("Also: {}", others.join("; ")))
    }

    /// The psalter week as a Roman numeral ("I" to "IV").
    pub fn psalter_week_roman(&self) -> &'static str {
        ["I", "II", "III", "IV"][usize::from(self.psalter_week() - 1)]
    }

    /// The Roman numeral of the weekday cycle ("I" or "II").
    pub fn weekday_cycle_roman(&self) -> &'static str {
        if self.weekday_cycle == 1 {
            "I"
        } else {
            "II"
        }
    }
}

/// English name of a weekday.
pub fn weekday_name(w: chrono::Weekday) -> &'static str {
    match w {
        chrono::Weekday::Mon => "Monday",
        chrono::Weekday::Tue => "Tuesday",
        chrono::Weekday::Wed => "Wednesday",
        chrono::Weekday::Thu => "Thursday",
        chrono::Weekday::Fri => "Friday",
        chrono::Weekday::Sat => "Saturday",
        chrono::Weekday::Sun => "Sunday",
    }
}
