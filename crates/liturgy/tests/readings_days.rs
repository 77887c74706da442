//! The readings of the days people look up first, against the printed Lectionary (US
//! edition, as the USCCB publishes it for each date).

use chrono::NaiveDate;
use ecclesia_liturgy::{Liturgy, ReadingsAnswer};
use std::path::Path;
use std::sync::OnceLock;

fn liturgy() -> &'static Liturgy {
    static L: OnceLock<Liturgy> = OnceLock::new();
    L.get_or_init(|| {
        Liturgy::load(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/data"
        )))
        .expect("data")
    })
}

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn readings(cal: &str, date: NaiveDate) -> ReadingsAnswer {
    liturgy().readings(date, Some(cal), None).expect("readings")
}

/// (heading, citation) of the Mass of the day.
fn first_mass(cal: &str, date: NaiveDate) -> Vec<(String, String)> {
    readings(cal, date).masses[0]
        .1
        .iter()
        .map(|r| (r.kind.clone(), r.citation.clone()))
        .collect()
}

fn citations(cal: &str, date: NaiveDate, kind: &str) -> Vec<String> {
    first_mass(cal, date)
        .into_iter()
        .filter(|(k, _)| k.starts_with(kind) && !k.contains("Acclamation"))
        .map(|(_, c)| c)
        .collect()
}

#[test]
fn trinity_corpus_christi_and_sacred_heart_have_their_readings() {
    for cal in ["general-roman", "us"] {
        let trinity = ymd(2026, 5, 31);
        assert_eq!(
            citations(cal, trinity, "First Reading"),
            ["Exodus 34:4b-6, 8-9"]
        );
        assert_eq!(
            citations(cal, trinity, "Second Reading"),
            ["2 Corinthians 13:11-13"]
        );
        assert_eq!(citations(cal, trinity, "Gospel"), ["John 3:16-18"]);
        assert_eq!(citations(cal, trinity, "Responsorial Psalm").len(), 1);
        let sacred_heart = ymd(2026, 6, 12);
        assert_eq!(
            citations(cal, sacred_heart, "First Reading"),
            ["Deuteronomy 7:6-11"]
        );
        assert_eq!(citations(cal, sacred_heart, "Gospel"), ["Matthew 11:25-30"]);
    }
    // Corpus Christi: Thursday 4 June in the General Calendar, Sunday 7 June in the US.
    for (cal, date) in [("general-roman", ymd(2026, 6, 4)), ("us", ymd(2026, 6, 7))] {
        assert_eq!(
            citations(cal, date, "First Reading"),
            ["Deuteronomy 8:2-3, 14b-16a"]
        );
        assert_eq!(
            citations(cal, date, "Second Reading"),
            ["1 Corinthians 10:16-17"]
        );
        assert_eq!(citations(cal, date, "Gospel"), ["John 6:51-58"]);
    }
    // Year B and C sets too.
    assert_eq!(
        citations("us", ymd(2027, 5, 23), "Gospel"),
        ["Matthew 28:16-20"]
    );
    assert_eq!(
        citations("us", ymd(2028, 6, 11), "Gospel"),
        ["John 16:12-15"]
    );
}

#[test]
fn a_memorial_with_a_proper_gospel_keeps_the_weekday_first_reading() {
    // Tuesday 29 July 2025, Saints Martha, Mary and Lazarus: Exod 33 (weekday, Year I), John 11.
    let mass = first_mass("us", ymd(2025, 7, 29));
    let first = &mass.iter().find(|(k, _)| k == "First Reading").unwrap().1;
    assert!(first.starts_with("Exodus 33:7-11"), "{first}");
    assert_eq!(
        citations("us", ymd(2025, 7, 29), "Gospel"),
        ["John 11:19-27", "Luke 10:38-42"]
    );
    // The Beheading of John the Baptist, Friday 29 August 2025: the weekday's 1 Thess, Mark 6.
    let mass = first_mass("general-roman", ymd(2025, 8, 29));
    assert!(mass
        .iter()
        .any(|(k, c)| k == "First Reading" && c.starts_with("1 Thessalonians 4")));
    assert_eq!(
        citations("general-roman", ymd(2025, 8, 29), "Gospel"),
        ["Mark 6:17-29"]
    );
    // A memorial without proper readings reads the weekday: St Monica, Wednesday 27 August 2025.
    assert_eq!(
        citations("general-roman", ymd(2025, 8, 27), "Gospel"),
        ["Matthew 23:27-32"]
    );
    // Mary, Mother of the Church (Monday after Pentecost 2026): a proper Mass as a whole.
    let mass = first_mass("general-roman", ymd(2026, 5, 25));
    assert_eq!(mass[0].1, "Genesis 3:9-15, 20");
    assert_eq!(
        citations("general-roman", ymd(2026, 5, 25), "Gospel"),
        ["John 19:25-27"]
    );
}

#[test]
fn options_come_in_the_lectionarys_order() {
    // Pentecost, Year B (16 May 2027): John 20:19-23 first, Year B's Gospel as the option.
    assert_eq!(
        citations("general-roman", ymd(2027, 5, 16), "Gospel"),
        ["John 20:19-23", "John 15:26-27; 16:12-15"]
    );
    assert_eq!(
        citations("general-roman", ymd(2027, 5, 16), "Second Reading"),
        ["1 Corinthians 12:3b-7, 12-13", "Galatians 5:16-25"]
    );
    // All Souls (Monday 2 November 2026): Wisdom 3 and John 6 first.
    assert_eq!(
        citations("us", ymd(2026, 11, 2), "First Reading")[0],
        "Wisdom 3:1-9"
    );
    assert_eq!(
        citations("us", ymd(2026, 11, 2), "Gospel")[0],
        "John 6:37-40"
    );
}

#[test]
fn holy_thursday_is_lent_with_both_masses() {
    let r = readings("general-roman", ymd(2026, 4, 2));
    assert_eq!(r.day.season, ecclesia_liturgy::Season::Lent);
    let titles: Vec<&str> = r.masses.iter().map(|(m, _)| m.title.as_str()).collect();
    assert_eq!(titles, ["Evening Mass of the Lord's Supper", "Chrism Mass"]);
}

#[test]
fn christmas_octave_days_are_named_as_in_the_missal() {
    let r = readings("us", ymd(2026, 12, 29));
    assert_eq!(
        r.day.principal().name,
        "Fifth Day within the Octave of the Nativity of the Lord"
    );
}

#[test]
fn every_celebration_has_a_full_set_of_readings() {
    use ecclesia_liturgy::Rank;
    let l = liturgy();
    let mut missing = Vec::new();
    for cal in ["general-roman", "us"] {
        let spec = l.calendar.spec(cal).unwrap();
        for day in l
            .calendar
            .range(spec, ymd(2025, 1, 1), ymd(2030, 12, 31))
            .unwrap()
        {
            let masses = l.lectionary.masses(&l.calendar, &day, &spec.id);
            let Some(first) = masses.first() else {
                missing.push(format!(
                    "{cal} {} {}: no Mass",
                    day.date,
                    day.principal().key
                ));
                continue;
            };
            let has = |k: &str| first.readings.iter().any(|r| r.kind.starts_with(k));
            let p = day.principal();
            let mut need = vec!["First Reading", "Responsorial Psalm", "Gospel"];
            // The Easter octave weekdays are solemnities with a weekday's two readings.
            let octave_weekday = p.key.ends_with("OctaveEaster");
            if p.rank == Rank::Sunday
                || (p.rank == Rank::Solemnity && p.temporal && !octave_weekday)
            {
                need.push("Second Reading");
            }
            // Good Friday's Gospel is the Passion; the Easter Vigil's first reading is "Reading 1".
            if p.key == "EasterVigil" {
                need = vec!["Reading 1", "Epistle", "Gospel"];
            }
            for k in need {
                if !has(k) {
                    missing.push(format!(
                        "{cal} {} {} ({}): no {k}",
                        day.date, p.key, first.title
                    ));
                }
            }
        }
    }
    missing.dedup();
    assert!(
        missing.is_empty(),
        "{}:\n{}",
        missing.len(),
        missing.join("\n")
    );
}
