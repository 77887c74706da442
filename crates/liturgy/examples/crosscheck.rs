//! Print every day of a range whose Gospel is not the same as the independent reference's
//! (`lectionary/plishman-us-english`), with a summary per outcome.
//!
//! `cargo run -p ecclesia-liturgy --example crosscheck -- ../shared/data us 2025 2030`

use chrono::NaiveDate;
use ecclesia_liturgy::crosscheck::plishman::Reference;
use ecclesia_liturgy::crosscheck::{check, Outcome};
use ecclesia_liturgy::Liturgy;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let data = PathBuf::from(args.next().unwrap_or_else(|| "../shared/data".into()));
    let calendar = args.next().unwrap_or_else(|| "general-roman".into());
    let from: i32 = args.next().map_or(Ok(2025), |s| s.parse())?;
    let to: i32 = args.next().map_or(Ok(2030), |s| s.parse())?;
    let liturgy = Liturgy::load(&data)?;
    let reference = Reference::load(&data)?;
    let start = NaiveDate::from_ymd_opt(from, 1, 1).ok_or_else(|| anyhow::anyhow!("bad year"))?;
    let end = NaiveDate::from_ymd_opt(to, 12, 31).ok_or_else(|| anyhow::anyhow!("bad year"))?;
    let days = check(&liturgy, &reference, &calendar, start, end)?;
    let mut counts: BTreeMap<Outcome, usize> = BTreeMap::new();
    for d in &days {
        *counts.entry(d.outcome).or_default() += 1;
        if d.outcome != Outcome::Same {
            println!(
                "{}\t{:?}\t{}\t{}\t{}\t{}",
                d.date,
                d.outcome,
                d.key,
                d.ours.as_deref().unwrap_or("-"),
                d.theirs.as_deref().unwrap_or("-"),
                d.reference_day.as_deref().unwrap_or("-")
            );
        }
    }
    println!("{calendar} {from}–{to}: {} days: {counts:?}", days.len());
    Ok(())
}
