//! The iCalendar feed: RFC 5545 structure checked here, and parsed by Python's `icalendar`
//! (PyPI) when `ECCLESIA_PYTHON` names an interpreter that has it (required when
//! `ECCLESIA_REQUIRE_INTEROP=1`, as in `scripts/test.sh`).

use chrono::NaiveDate;
use ecclesia_liturgy::Liturgy;
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn liturgy() -> Liturgy {
    Liturgy::load(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data"
    )))
    .unwrap()
}

fn feed(calendar: &str, with_readings: bool) -> String {
    let stamp = NaiveDate::from_ymd_opt(2026, 12, 1)
        .unwrap()
        .and_hms_opt(12, 0, 0)
        .unwrap();
    liturgy()
        .calendar_ics(
            Some(calendar),
            NaiveDate::from_ymd_opt(2026, 1, 1).unwrap(),
            NaiveDate::from_ymd_opt(2026, 12, 31).unwrap(),
            with_readings,
            stamp,
        )
        .unwrap()
}

#[test]
fn the_feed_is_well_formed_rfc5545() {
    let ics = feed("us", true);
    assert!(ics.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"));
    assert!(ics.ends_with("END:VCALENDAR\r\n"));
    assert!(!ics.replace("\r\n", "").contains('\n'), "bare LF");
    for l in ics.split("\r\n") {
        assert!(l.len() <= 75, "line over 75 octets: {l}");
    }
    let unfolded = ics.replace("\r\n ", "");
    let events = unfolded.matches("BEGIN:VEVENT").count();
    assert_eq!(events, 365);
    assert_eq!(unfolded.matches("END:VEVENT").count(), 365);
    let uids: HashSet<&str> = unfolded.lines().filter(|l| l.starts_with("UID:")).collect();
    assert_eq!(uids.len(), 365, "UIDs are unique");
    assert!(unfolded.contains("DTSTART;VALUE=DATE:20261225\r\nDTEND;VALUE=DATE:20261226"));
    assert!(unfolded.contains("SUMMARY:The Most Holy Trinity"));
    assert!(
        unfolded.contains("Gospel: John 3:16-18"),
        "readings on request"
    );
    assert!(!feed("us", false).contains("Gospel:"));
}

#[test]
fn python_icalendar_accepts_the_feed() {
    let Ok(python) = std::env::var("ECCLESIA_PYTHON") else {
        assert!(
            std::env::var("ECCLESIA_REQUIRE_INTEROP").is_err(),
            "ECCLESIA_PYTHON unset"
        );
        eprintln!("skipped: ECCLESIA_PYTHON unset");
        return;
    };
    let script = r#"
import sys, icalendar, datetime
cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
events = [c for c in cal.walk() if c.name == "VEVENT"]
assert len(events) == 365, len(events)
days = sorted(e.decoded("DTSTART") for e in events)
assert days[0] == datetime.date(2026, 1, 1) and days[-1] == datetime.date(2026, 12, 31), days[:1]
assert all(isinstance(e.decoded("DTSTAMP"), datetime.datetime) for e in events)
summaries = {e.decoded("DTSTART"): str(e.get("SUMMARY")) for e in events}
assert summaries[datetime.date(2026, 5, 31)] == "The Most Holy Trinity", summaries[datetime.date(2026, 5, 31)]
print("ok", len(events))
"#;
    let mut child = Command::new(&python)
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(feed("general-roman", true).as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("No module named 'icalendar'")
        && std::env::var("ECCLESIA_REQUIRE_INTEROP").is_err()
    {
        eprintln!("skipped: icalendar not installed");
        return;
    }
    assert!(out.status.success(), "icalendar refused the feed: {stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("ok 365"));
}
