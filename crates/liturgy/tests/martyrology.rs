//! The Roman Martyrology and its leap-year shift.
use chrono::NaiveDate;
use ecclesia_liturgy::martyrology::{source_day, Martyrology};

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

#[test]
fn leap_year_shift() {
    // Common year: civil date = file date.
    assert_eq!(source_day(ymd(2026, 2, 24)), "02-24");
    assert_eq!(source_day(ymd(2026, 2, 28)), "02-28");
    // Leap years (2024, 2028): 24 Feb is the bissextile day, 25-29 read 24-28.
    for y in [2024, 2028, 2000] {
        assert_eq!(source_day(ymd(y, 2, 23)), "02-23");
        assert_eq!(source_day(ymd(y, 2, 24)), "02-29");
        assert_eq!(source_day(ymd(y, 2, 25)), "02-24");
        assert_eq!(source_day(ymd(y, 2, 29)), "02-28");
        assert_eq!(source_day(ymd(y, 3, 1)), "03-01");
    }
}

#[test]
fn texts_in_both_languages() {
    let m = Martyrology::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data"
    )))
    .unwrap();
    assert!(m.len() >= 730);
    let d = m.day(ymd(2026, 1, 21), "en").unwrap();
    assert!(d.heading[0].contains("21st day of January"));
    assert!(d.entries[0].contains("Agnes"));
    assert!(d.entries.len() >= 5);
    let la = m.day(ymd(2026, 2, 24), "la").unwrap();
    assert!(la.entries[0].contains("Matth"));
    assert!(la.entries.iter().all(|e| !e.contains("/:")));
    // Leap year: Matthias on 25 February, with a note.
    let d = m.day(ymd(2028, 2, 25), "en").unwrap();
    assert!(d.entries[0].contains("Matthias"));
    assert!(d.note.is_some());
    let d = m.day(ymd(2028, 2, 24), "en").unwrap();
    assert_eq!(d.source_day, "02-29");
    // Every civil day of a leap and a common year has text in both languages.
    for y in [2026, 2028] {
        let mut x = ymd(y, 1, 1);
        while x.year_ce().1 == y as u32 {
            assert!(m.day(x, "en").is_some(), "{x}");
            assert!(m.day(x, "la").is_some(), "{x}");
            x = x.succ_opt().unwrap();
        }
    }
}

use chrono::Datelike;
