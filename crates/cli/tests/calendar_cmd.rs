//! `ecclesia calendar`: the JSONL with readings and the iCalendar feed, as a user runs them.

use std::path::PathBuf;
use std::process::Command;

fn data_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
}

fn calendar(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ecclesia"))
        .arg("--data")
        .arg(data_dir())
        .arg("calendar")
        .args(args)
        .output()
        .expect("run ecclesia");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn jsonl_with_readings_gives_each_days_mass() {
    let (ok, out, err) = calendar(&[
        "--from",
        "2026-05-31",
        "--to",
        "2026-06-01",
        "--calendar",
        "us",
        "--format",
        "jsonl",
        "--with-readings",
    ]);
    assert!(ok, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["psalter_week"], "I");
    let gospel = lines[0]["readings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "Gospel")
        .unwrap();
    assert_eq!(gospel["citation"], "John 3:16-18");
    assert!(lines[1]["readings"]
        .as_array()
        .is_some_and(|r| !r.is_empty()));
}

#[test]
fn ics_format_is_a_feed() {
    let (ok, out, err) = calendar(&[
        "--from",
        "2026-12-01",
        "--to",
        "2026-12-31",
        "--format",
        "ics",
    ]);
    assert!(ok, "{err}");
    assert!(out.starts_with("BEGIN:VCALENDAR\r\n"));
    assert_eq!(out.matches("BEGIN:VEVENT").count(), 31);
}

#[test]
fn a_reversed_range_is_a_clear_error() {
    let (ok, _, err) = calendar(&["--from", "2026-12-31", "--to", "2026-12-01"]);
    assert!(!ok);
    assert!(err.contains("before --from"), "{err}");
}
