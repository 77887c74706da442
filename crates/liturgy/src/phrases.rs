//! Date phrases: "today", "next Sunday", "Easter Sunday 2026", "19 March 2027", in several languages.

use chrono::Weekday;

/// An English weekday name (or 3-letter abbreviation).
pub fn weekday_from_english(w: &str) -> Option<Weekday> {
    let w = w.to_lowercase();
    let p = w.get(..3)?;
    Some(match p {
        "mon" => Weekday::Mon,
        "tue" => Weekday::Tue,
        "wed" => Weekday::Wed,
        "thu" => Weekday::Thu,
        "fri" => Weekday::Fri,
        "sat" => Weekday::Sat,
        "sun" => Weekday::Sun,
        _ => return None,
    })
}

/// An English month name (or 3-letter abbreviation).
pub fn month_from_name(w: &str) -> Option<u32> {
    let w = w.to_lowercase();
    let p = w.get(..3)?;
    let m = match p {
        "jan" => 1,
        "feb" => 2,
        "mar" => 3,
        "apr" => 4,
        "may" => 5,
        "jun" => 6,
        "jul" => 7,
        "aug" => 8,
        "sep" => 9,
        "oct" => 10,
        "nov" => 11,
        "dec" => 12,
        _ => return None,
    };
    Some(m)
}
