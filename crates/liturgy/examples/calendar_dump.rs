//! Print the calendar between two dates: `cargo run --example calendar_dump -- 2026-01-01 2026-12-31 [us] [jsonl]`.
use ecclesia_liturgy::{calendar_jsonl_line, calendar_table_line, CalendarData};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data_dir = std::env::var("ECCLESIA_DATA")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data").into());
    let t = Instant::now();
    let data = CalendarData::load(std::path::Path::new(&data_dir)).expect("load");
    let from = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap());
    let to = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(from);
    let cal = args.get(3).map(String::as_str).unwrap_or("general-roman");
    let jsonl = args.get(4).is_some_and(|s| s == "jsonl");
    let spec = data.spec(cal).expect("spec");
    let load = t.elapsed();
    let t = Instant::now();
    let days = data.range(spec, from, to).expect("range");
    let compute = t.elapsed();
    for d in &days {
        if jsonl {
            println!("{}", calendar_jsonl_line(d));
        } else {
            println!("{}", calendar_table_line(d));
        }
    }
    eprintln!("load {load:?}, compute {} days {compute:?}", days.len());
}
