//! Date phrases: "today", "next Sunday", "a fortnight from today", "Whit
//! Monday 2028", "the day after Pentecost 2027", "31/12/2027", "2027年4月1日",
//! "৩ দিন পরে", in English, Latin, Spanish, Italian, Portuguese, French,
//! Czech, Chinese, Bengali and Konkani.
//!
//! The parser never guesses: every word of a phrase is read by the grammar,
//! or is one of the [`FILLERS`], or the phrase is refused with an error that
//! says what was understood and what was not. A phrase with two readings
//! (`03/04/2027`, "dans quinze jours") is refused with both. The forms and
//! conventions are documented in `crates/liturgy/docs/date-phrases.md`.

mod calendar_words;
mod error;
mod eval;
mod grammar;
mod lexer;
mod lexicon;
mod names;
mod numeric;
mod reader;
mod saints;
mod words;

pub use error::{PhraseError, MAX_CHARS};
pub use names::find_key;
pub use reader::resolve;
pub use saints::NAME_TITLES;
pub use words::FILLERS;

use chrono::Weekday;

/// The forms a date phrase may take, appended to every phrase error (`-32602`).
pub const ACCEPTED_FORMS: &str = "accepted date forms: an ISO date (2026-03-19); \
31/12/2027 or 12/31/2027 (a slash date must be unambiguous: 03/04/2027 is refused), 19.3.2027 (day.month.year); \
\"19 March 2027\", \"March 19th, 2027\", \"the 1st of April\" (English, Latin, Spanish, Italian, Portuguese, French, Czech, Bengali month names), 2027年4月1日; \
today / tomorrow / yesterday / the day after tomorrow / the day before yesterday (hoy, oggi, demain, zítra, 今天, 后天, আজ, आयज …); \
a weekday: Sunday, this / next / last Sunday, the Sunday after next, Sunday week (domingo próximo, příští neděli, 下周日, আগামী রবিবার); \
an offset: in 10 days, three days from now, two days ago, a fortnight from today, in two weeks, a week from Sunday \
(dentro de tres días, hace dos días, tra tre giorni, due giorni fa, dans trois jours, il y a deux jours, za tři dny, 三天后, 两周前, ৩ দিন পরে, দুই দিন আগে); \
a named day with an optional year or last / next (Christmas, Christmas Eve 2027, Easter, Easter Monday, last Pentecost, Whit Monday 2028, \
Ash Wednesday, Shrove Tuesday, Holy Thursday, Good Friday, Easter Vigil, Divine Mercy, Ascension, Trinity Sunday, Corpus Christi, \
Sacred Heart, Christ the King, the 3rd Sunday of Advent, 15th Sunday in Ordinary Time, Gaudete, Laetare, Holy Family, Epiphany, \
All Saints, All Souls, the Assumption, the Immaculate Conception, St Joseph, Sts Peter and Paul, a saint by name; \
Lady Day, Lammas, Candlemas, Michaelmas, Martinmas, All Hallows' Eve, Boxing Day, Twelfth Night, New Year's Eve, Septuagesima); \
a day relative to another: the day after Pentecost 2027, two days before Easter, the Sunday after Easter, the eve of Pentecost";

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

/// Lower-case, strip accents (NFD, U+0300–U+036F dropped), keep other scripts as they are:
/// [`ecclesia_fold::strip_diacritics`].
pub fn fold(s: &str) -> String {
    ecclesia_fold::strip_diacritics(s)
}
