//! Every date-phrase form, in the languages supported, and the errors.
use chrono::NaiveDate;
use ecclesia_liturgy::{CalendarData, LiturgyError};
use std::sync::OnceLock;

fn data() -> &'static CalendarData {
    static D: OnceLock<CalendarData> = OnceLock::new();
    D.get_or_init(|| {
        CalendarData::load(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/data"
        )))
        .unwrap()
    })
}

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

/// Today = Wednesday 2026-03-04.
fn r(p: &str) -> NaiveDate {
    r_cal(p, "general-roman")
}

fn r_cal(p: &str, cal: &str) -> NaiveDate {
    let spec = data().spec(cal).unwrap();
    ecclesia_liturgy::phrases::resolve(data(), spec, p, ymd(2026, 3, 4))
        .unwrap_or_else(|e| panic!("{p}: {e}"))
}

#[test]
fn relative_days_in_every_language() {
    for p in [
        "today",
        "Today",
        "hodie",
        "hoy",
        "oggi",
        "hoje",
        "aujourd'hui",
        "dnes",
        "今天",
        "আজ",
        "आयज",
        "readings for today please",
        "今天的读经",
    ] {
        assert_eq!(r(p), ymd(2026, 3, 4), "{p}");
    }
    for p in [
        "tomorrow",
        "cras",
        "mañana",
        "domani",
        "amanhã",
        "demain",
        "zítra",
        "明天",
        "আগামীকাল",
        "फाल्यां",
    ] {
        assert_eq!(r(p), ymd(2026, 3, 5), "{p}");
    }
    for p in [
        "yesterday",
        "heri",
        "ayer",
        "ieri",
        "ontem",
        "hier",
        "včera",
        "昨天",
        "গতকাল",
        "काल",
    ] {
        assert_eq!(r(p), ymd(2026, 3, 3), "{p}");
    }
    assert_eq!(r("the day after tomorrow"), ymd(2026, 3, 6));
}

#[test]
fn weekdays_next_last_this() {
    // Today is Wednesday 4 March 2026.
    assert_eq!(r("next Sunday"), ymd(2026, 3, 8));
    assert_eq!(r("Sunday"), ymd(2026, 3, 8));
    assert_eq!(r("this Sunday"), ymd(2026, 3, 8));
    assert_eq!(r("last Sunday"), ymd(2026, 3, 1));
    assert_eq!(r("next Wednesday"), ymd(2026, 3, 11));
    assert_eq!(r("Wednesday"), ymd(2026, 3, 4));
    assert_eq!(r("last Wednesday"), ymd(2026, 2, 25));
    assert_eq!(r("domingo próximo"), ymd(2026, 3, 8));
    assert_eq!(r("domenica scorsa"), ymd(2026, 3, 1));
    assert_eq!(r("dimanche prochain"), ymd(2026, 3, 8));
    assert_eq!(r("příští neděli"), ymd(2026, 3, 8));
    assert_eq!(r("下周日"), ymd(2026, 3, 8));
    assert_eq!(r("上周日"), ymd(2026, 3, 1));
    assert_eq!(r("আগামী রবিবার"), ymd(2026, 3, 8));
    assert_eq!(r("গত রবিবার"), ymd(2026, 3, 1));
    assert_eq!(r("फुडलो आयतार"), ymd(2026, 3, 8));
    assert_eq!(r("friday"), ymd(2026, 3, 6));
}

#[test]
fn absolute_dates() {
    assert_eq!(r("2026-03-19"), ymd(2026, 3, 19));
    assert_eq!(r("readings for 2027-12-25 please"), ymd(2027, 12, 25));
    assert_eq!(r("今天是2026-05-01吗"), ymd(2026, 5, 1));
    assert_eq!(r("March 19"), ymd(2026, 3, 19));
    assert_eq!(r("19 March"), ymd(2026, 3, 19));
    assert_eq!(r("March 1"), ymd(2027, 3, 1)); // already past: next year
    assert_eq!(r("March 4"), ymd(2026, 3, 4)); // today included
    assert_eq!(r("19 March 2027"), ymd(2027, 3, 19));
    assert_eq!(r("March 19, 2027"), ymd(2027, 3, 19));
    assert_eq!(r("3/19/2027"), ymd(2027, 3, 19));
    assert_eq!(r("19.3.2027"), ymd(2027, 3, 19));
    assert_eq!(r("19 de marzo"), ymd(2026, 3, 19));
    assert_eq!(r("19 marzo 2027"), ymd(2027, 3, 19));
    assert_eq!(r("19 mars"), ymd(2026, 3, 19));
    assert_eq!(r("19 de março"), ymd(2026, 3, 19));
    assert_eq!(r("1st of May"), ymd(2026, 5, 1));
}

#[test]
fn named_days() {
    assert_eq!(r("Christmas"), ymd(2026, 12, 25));
    assert_eq!(r("Easter Sunday 2026"), ymd(2026, 4, 5));
    assert_eq!(r("Easter"), ymd(2026, 4, 5));
    assert_eq!(r("Ash Wednesday"), ymd(2027, 2, 10)); // 2026's is past
    assert_eq!(r("Ash Wednesday 2027"), ymd(2027, 2, 10));
    assert_eq!(r("Palm Sunday"), ymd(2026, 3, 29));
    assert_eq!(r("Holy Thursday"), ymd(2026, 4, 2));
    assert_eq!(r("Good Friday"), ymd(2026, 4, 3));
    assert_eq!(r("Easter Vigil"), ymd(2026, 4, 4));
    assert_eq!(r("Divine Mercy Sunday"), ymd(2026, 4, 12));
    assert_eq!(r("Ascension"), ymd(2026, 5, 14));
    assert_eq!(r_cal("Ascension", "us"), ymd(2026, 5, 17));
    assert_eq!(r("Pentecost"), ymd(2026, 5, 24));
    assert_eq!(r("Trinity Sunday"), ymd(2026, 5, 31));
    assert_eq!(r("Corpus Christi"), ymd(2026, 6, 4));
    assert_eq!(r_cal("Corpus Christi", "us"), ymd(2026, 6, 7));
    assert_eq!(r("Sacred Heart"), ymd(2026, 6, 12));
    assert_eq!(r("Christ the King"), ymd(2026, 11, 22));
    assert_eq!(r("the 3rd Sunday of Advent"), ymd(2026, 12, 13));
    assert_eq!(r("Gaudete Sunday"), ymd(2026, 12, 13));
    assert_eq!(r("Laetare Sunday"), ymd(2026, 3, 15));
    assert_eq!(r("First Sunday of Lent"), ymd(2027, 2, 14));
    assert_eq!(r("First Sunday of Lent 2026"), ymd(2026, 2, 22));
    assert_eq!(r("Holy Family"), ymd(2026, 12, 27));
    assert_eq!(r("Epiphany"), ymd(2027, 1, 6));
    assert_eq!(r("Baptism of the Lord"), ymd(2027, 1, 10));
    assert_eq!(r("All Saints"), ymd(2026, 11, 1));
    assert_eq!(r("All Souls"), ymd(2026, 11, 2));
    assert_eq!(r("the Assumption"), ymd(2026, 8, 15));
    assert_eq!(r("the Immaculate Conception"), ymd(2026, 12, 8));
    assert_eq!(r("Immaculate Conception 2024"), ymd(2024, 12, 9));
    assert_eq!(r("St Joseph"), ymd(2026, 3, 19));
    assert_eq!(r("St Joseph 2023"), ymd(2023, 3, 20));
    assert_eq!(r("Sts Peter and Paul"), ymd(2026, 6, 29));
    assert_eq!(r("15th Sunday in Ordinary Time"), ymd(2026, 7, 12));
    assert_eq!(r("second sunday of easter 2027"), ymd(2027, 4, 4));
}

#[test]
fn named_days_in_other_languages() {
    for p in [
        "Navidad",
        "Natale",
        "Natal",
        "Noël",
        "Vánoce",
        "圣诞节",
        "বড়দিন",
        "नाताळ",
        "Nativitas Domini",
    ] {
        assert_eq!(r(p), ymd(2026, 12, 25), "{p}");
    }
    for p in [
        "Pascua",
        "Pasqua",
        "Páscoa",
        "Pâques",
        "Velikonoce",
        "复活节",
        "ইস্টার",
        "पास्क",
        "Pascha",
    ] {
        assert_eq!(r(p), ymd(2026, 4, 5), "{p}");
    }
    for p in [
        "Pentecostés",
        "Pentecoste",
        "Pentecostes",
        "Pentecôte",
        "Letnice",
        "圣神降临",
        "পেন্টেকস্ট",
        "पेंतेकोस्त",
    ] {
        assert_eq!(r(p), ymd(2026, 5, 24), "{p}");
    }
    assert_eq!(r("Miércoles de Ceniza 2027"), ymd(2027, 2, 10));
    assert_eq!(r("Domenica delle Palme"), ymd(2026, 3, 29));
    assert_eq!(r("Vendredi saint"), ymd(2026, 4, 3));
    assert_eq!(r("Todos los Santos"), ymd(2026, 11, 1));
    assert_eq!(r("Assunzione"), ymd(2026, 8, 15));
    assert_eq!(r("San José"), ymd(2026, 3, 19));
    assert_eq!(r("tercer domingo de adviento"), ymd(2026, 12, 13));
}

#[test]
fn saints_by_name() {
    assert_eq!(r("Saint Agnes"), ymd(2027, 1, 21));
    assert_eq!(r("St. Thomas Aquinas 2026"), ymd(2026, 1, 28));
    assert_eq!(r("Our Lady of Guadalupe"), ymd(2026, 12, 12));
    assert_eq!(r("St Francis of Assisi"), ymd(2026, 10, 4));
}

#[test]
fn errors_list_accepted_forms() {
    let spec = data().spec("general-roman").unwrap();
    for p in [
        "",
        "   ",
        "the day my cat was born",
        "31 February 2026",
        "2026-02-30x",
        "13/45/2026",
        "qwerty",
    ] {
        match ecclesia_liturgy::phrases::resolve(data(), spec, p, ymd(2026, 3, 4)) {
            Err(LiturgyError::BadPhrase(m)) => {
                assert!(m.contains("accepted date forms"), "{p}: {m}")
            }
            other => panic!("{p:?} gave {other:?}"),
        }
    }
}
