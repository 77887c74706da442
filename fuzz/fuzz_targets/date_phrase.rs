//! Date phrases ("next Sunday", "Easter 2027"…). With the calendar data
//! (`ECCLESIA_DATA`, default `../../shared/data` from `fuzz/`), the whole
//! resolver; without it, the word-level helpers only.
#![no_main]
use chrono::NaiveDate;
use ecclesia_liturgy::{phrases, CalendarData};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

fn calendar() -> Option<&'static CalendarData> {
    static C: OnceLock<Option<CalendarData>> = OnceLock::new();
    C.get_or_init(|| {
        let dir = std::env::var_os("ECCLESIA_DATA")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("../../shared/data"));
        CalendarData::load(&dir).ok()
    })
    .as_ref()
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let _ = phrases::fold(s);
    for w in s.split_whitespace().take(8) {
        let _ = phrases::month_from_name(w);
        let _ = phrases::weekday_from_english(w);
    }
    if let Some(cal) = calendar() {
        if let Ok(spec) = cal.spec("general-roman") {
            let today = NaiveDate::from_ymd_opt(2026, 12, 1).expect("a valid date");
            let _ = phrases::resolve(cal, spec, s, today);
        }
    }
});
