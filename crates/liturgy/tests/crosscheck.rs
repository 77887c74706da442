//! The Gospel of every day of 2025–2030, in the General Roman and the US calendars, against
//! an independent lectionary (`lectionary/plishman-us-english`). A day without a Gospel, or
//! whose Gospel differs, fails unless `fixtures/crosscheck-exceptions.tsv` lists it with a reason.

use chrono::NaiveDate;
use ecclesia_liturgy::crosscheck::plishman::Reference;
use ecclesia_liturgy::crosscheck::{check, DayCheck, Outcome};
use ecclesia_liturgy::Liturgy;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

fn data() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
}

struct Exception {
    calendar: String,
    key: String,
    ours: String,
    theirs: String,
}

fn exceptions() -> Vec<Exception> {
    let text = include_str!("fixtures/crosscheck-exceptions.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(
                f.len() == 5 && !f[4].trim().is_empty(),
                "exception without a reason: {l}"
            );
            Exception {
                calendar: f[0].into(),
                key: f[1].into(),
                ours: f[2].into(),
                theirs: f[3].into(),
            }
        })
        .collect()
}

fn excused(ex: &[Exception], calendar: &str, d: &DayCheck) -> Option<usize> {
    ex.iter().position(|e| {
        (e.calendar == "*" || e.calendar == calendar)
            && e.key == d.key
            && (e.ours == "*" || Some(e.ours.as_str()) == d.ours.as_deref().or(Some("")))
            && Some(e.theirs.as_str()) == d.theirs.as_deref().or(Some(""))
    })
}

#[test]
fn gospel_of_every_day_matches_the_independent_lectionary() {
    let liturgy = Liturgy::load(data()).expect("liturgy data");
    let reference = Reference::load(data()).expect("reference lectionary");
    let ex = exceptions();
    let mut used = HashSet::new();
    let mut failures = Vec::new();
    let from = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
    let to = NaiveDate::from_ymd_opt(2030, 12, 31).unwrap();
    for calendar in ["general-roman", "us"] {
        let days = check(&liturgy, &reference, calendar, from, to).expect("check");
        let mut counts: BTreeMap<Outcome, usize> = BTreeMap::new();
        for d in &days {
            *counts.entry(d.outcome).or_default() += 1;
            if !d.outcome.is_disagreement() {
                continue;
            }
            match excused(&ex, calendar, d) {
                Some(i) => {
                    used.insert(i);
                }
                None => failures.push(format!(
                    "{calendar}\t{}\t{}\t{}\t{:?} ({}; reference day {:?})",
                    d.key,
                    d.ours.as_deref().unwrap_or(""),
                    d.theirs.as_deref().unwrap_or(""),
                    d.outcome,
                    d.date,
                    d.reference_day
                )),
            }
        }
        println!("{calendar}: {} days: {counts:?}", days.len());
    }
    let unused: Vec<&str> = ex
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, e)| e.key.as_str())
        .collect();
    failures.sort();
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} disagreements without a listed reason:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(unused.is_empty(), "exceptions no day uses: {unused:?}");
}
