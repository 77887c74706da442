//! Date phrases that name days of the 1962 calendar: "Septuagesima Sunday 2027", "Ember
//! Wednesday in Lent", "the third Sunday after Epiphany", "Passion Sunday" (the fifth Sunday
//! of Lent here, not Palm Sunday), "Christ the King" (the last Sunday of October). Other
//! phrases ("next Sunday", "25 December") are left to the general resolver.

use super::temporal::advent1;
use crate::easter::easter;
use crate::error::LiturgyError;
use chrono::{Datelike, Days, NaiveDate, Weekday};

/// Ways people name the 1962 Missal inside a question, longest first.
const NAMES: [&str; 12] = [
    "in the 1962 calendar",
    "in the 1962 missal",
    "in the traditional calendar",
    "in the extraordinary form",
    "in the usus antiquior",
    "for the traditional latin mass",
    "in the traditional latin mass",
    "traditional latin mass",
    "extraordinary form",
    "usus antiquior",
    "1962 missal",
    "1962 calendar",
];

/// When a phrase names the 1962 calendar ("next Sunday in the 1962 calendar", "Septuagesima
/// Sunday 2027 (usus antiquior)"), the phrase without those words.
pub fn strip_calendar_name(phrase: &str) -> Option<String> {
    let lower = phrase.to_lowercase();
    NAMES.iter().find_map(|name| {
        let at = lower.find(name)?;
        // Lower-casing keeps byte offsets for the ASCII names we look for only when the
        // phrase before them is ASCII too; otherwise cut on the lower-cased text.
        let source = if phrase.is_char_boundary(at) && phrase.len() == lower.len() {
            phrase
        } else {
            lower.as_str()
        };
        let rest = format!("{} {}", &source[..at], &source[at + name.len()..]);
        let rest = rest
            .replace(['(', ')'], " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        Some(rest.trim_end_matches([',', '.', '?']).trim().to_string())
    })
}

const ORDINALS: [&str; 24] = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
    "twenty-first",
    "twenty-second",
    "twenty-third",
    "twenty-fourth",
];

/// Resolve a phrase naming a day of the 1962 calendar; `Ok(None)` when it names none.
pub fn resolve(phrase: &str, today: NaiveDate) -> Result<Option<NaiveDate>, LiturgyError> {
    let lower = phrase
        .to_lowercase()
        .replace(['’', ','], " ")
        .replace("  ", " ");
    let words: Vec<&str> = lower.split_whitespace().filter(|w| *w != "the").collect();
    let year = words
        .iter()
        .find(|w| w.len() == 4 && w.chars().all(|c| c.is_ascii_digit()))
        .and_then(|w| w.parse::<i32>().ok());
    let text: String = words
        .iter()
        .filter(|w| !(w.len() == 4 && w.chars().all(|c| c.is_ascii_digit())))
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let Some(rule) = Rule::parse(&text) else {
        return Ok(None);
    };
    let date_in = |y: i32| rule.date(y);
    match year {
        Some(y) => date_in(y).map(Some).ok_or_else(|| not_in_year(phrase, y)),
        None => {
            for y in today.year()..=today.year() + 1 {
                if let Some(d) = date_in(y).filter(|d| *d >= today) {
                    return Ok(Some(d));
                }
            }
            Err(not_in_year(phrase, today.year()))
        }
    }
}

fn not_in_year(phrase: &str, year: i32) -> LiturgyError {
    LiturgyError::BadPhrase(format!(
        "{phrase:?} does not fall in {year} in the 1962 calendar (a Sunday after Epiphany may be displaced by Septuagesima)"
    ))
}

enum Rule {
    FromEaster(i64),
    Ember(Ember, Weekday),
    AfterEpiphany(u64),
    AfterPentecost(u64),
    ChristTheKing,
}

enum Ember {
    Advent,
    Lent,
    Pentecost,
    September,
}

impl Rule {
    fn parse(text: &str) -> Option<Rule> {
        let fixed = [
            ("septuagesima", -63),
            ("sexagesima", -56),
            ("quinquagesima", -49),
            ("passion sunday", -14),
            ("low sunday", 7),
            ("quasimodo", 7),
            ("rogation monday", 36),
        ];
        if let Some((_, offset)) = fixed.iter().find(|(k, _)| text.contains(k)) {
            return Some(Rule::FromEaster(*offset));
        }
        if text.contains("christ the king") || text.contains("christ king") {
            return Some(Rule::ChristTheKing);
        }
        if text.contains("ember") {
            let weekday = if text.contains("wednesday") {
                Weekday::Wed
            } else if text.contains("friday") {
                Weekday::Fri
            } else if text.contains("saturday") {
                Weekday::Sat
            } else {
                return None;
            };
            let season = if text.contains("advent") {
                Ember::Advent
            } else if text.contains("lent") {
                Ember::Lent
            } else if text.contains("pentecost") || text.contains("whit") {
                Ember::Pentecost
            } else if text.contains("september") {
                Ember::September
            } else {
                return None;
            };
            return Some(Rule::Ember(season, weekday));
        }
        let (head, tail) = text.split_once(" sunday after ")?;
        let n = ordinal(head.trim())?;
        match tail.trim() {
            "epiphany" if (1..=6).contains(&n) => Some(Rule::AfterEpiphany(n)),
            "pentecost" if (1..=24).contains(&n) => Some(Rule::AfterPentecost(n)),
            "easter" if (1..=5).contains(&n) => Some(Rule::FromEaster(7 * n as i64)),
            _ => None,
        }
    }

    fn date(&self, year: i32) -> Option<NaiveDate> {
        let e = easter(year)?;
        let add = |d: NaiveDate, n: i64| {
            if n >= 0 {
                d.checked_add_days(Days::new(n as u64))
            } else {
                d.checked_sub_days(Days::new(n.unsigned_abs()))
            }
        };
        match self {
            Rule::FromEaster(n) => add(e, *n),
            Rule::ChristTheKing => {
                let last = NaiveDate::from_ymd_opt(year, 10, 31)?;
                add(last, -i64::from(last.weekday().num_days_from_sunday()))
            }
            Rule::AfterEpiphany(n) => {
                let jan6 = NaiveDate::from_ymd_opt(year, 1, 6)?;
                let first = add(jan6, 7 - i64::from(jan6.weekday().num_days_from_sunday()))?;
                let d = add(first, 7 * (*n as i64 - 1))?;
                (d < add(e, -63)?).then_some(d)
            }
            // The 24th Sunday after Pentecost is always the last before Advent; the others
            // count from Pentecost and must fall before it.
            Rule::AfterPentecost(24) => add(advent1(year)?, -7),
            Rule::AfterPentecost(n) => {
                let d = add(e, 49 + 7 * *n as i64)?;
                (d < add(advent1(year)?, -7)?).then_some(d)
            }
            Rule::Ember(season, weekday) => {
                let sunday = match season {
                    Ember::Lent => add(e, -42)?,
                    Ember::Pentecost => add(e, 49)?,
                    Ember::Advent => add(advent1(year)?, 14)?,
                    Ember::September => {
                        let first = NaiveDate::from_ymd_opt(year, 9, 1)?;
                        let to_sunday = (7 - i64::from(first.weekday().num_days_from_sunday())) % 7;
                        add(first, to_sunday + 14)?
                    }
                };
                add(sunday, i64::from(weekday.num_days_from_sunday()))
            }
        }
    }
}

fn ordinal(word: &str) -> Option<u64> {
    if let Some(i) = ORDINALS
        .iter()
        .position(|o| *o == word || o.replace('-', " ") == word)
    {
        return Some(i as u64 + 1);
    }
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    let rest = &word[digits.len()..];
    (!digits.is_empty() && ["st", "nd", "rd", "th", ""].contains(&rest))
        .then(|| digits.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn traditional_day_names() {
        let today = d(2026, 12, 6);
        assert_eq!(
            resolve("Septuagesima Sunday 2027", today).unwrap(),
            Some(d(2027, 1, 24))
        );
        assert_eq!(
            resolve("Ember Wednesday in Lent", today).unwrap(),
            Some(d(2027, 2, 17))
        );
        assert_eq!(
            resolve("ember saturday of september 2026", today).unwrap(),
            Some(d(2026, 9, 26))
        );
        assert_eq!(
            resolve("Ember Friday in Advent", today).unwrap(),
            Some(d(2026, 12, 18))
        );
        assert_eq!(
            resolve("the third Sunday after Epiphany 2026", today).unwrap(),
            Some(d(2026, 1, 25))
        );
        assert_eq!(
            resolve("Passion Sunday 2026", today).unwrap(),
            Some(d(2026, 3, 22))
        );
        assert_eq!(
            resolve("Christ the King 2026", today).unwrap(),
            Some(d(2026, 10, 25))
        );
        assert_eq!(
            resolve("24th Sunday after Pentecost 2026", today).unwrap(),
            Some(d(2026, 11, 22))
        );
        assert_eq!(resolve("next Sunday", today).unwrap(), None);
    }

    #[test]
    fn calendar_named_in_the_phrase() {
        assert_eq!(
            strip_calendar_name("next Sunday in the 1962 calendar").as_deref(),
            Some("next Sunday")
        );
        assert_eq!(
            strip_calendar_name("Septuagesima Sunday 2027 (usus antiquior)").as_deref(),
            Some("Septuagesima Sunday 2027")
        );
        assert_eq!(strip_calendar_name("next Sunday"), None);
    }

    #[test]
    fn a_sunday_that_does_not_fall_is_an_error() {
        // 2027: Septuagesima on 24 January; the fifth Sunday after Epiphany would be 7 February.
        let e = resolve("fifth Sunday after Epiphany 2027", d(2026, 12, 6)).unwrap_err();
        assert!(e.to_string().contains("does not fall"), "{e}");
    }
}
