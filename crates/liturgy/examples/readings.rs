//! `cargo run --release --example readings -- "<phrase>" [today] [calendar] [translation]`: print readings and timings.
use ecclesia_liturgy::Liturgy;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data_dir = std::env::var("ECCLESIA_DATA")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data").into());
    let t = Instant::now();
    let l = Liturgy::load(std::path::Path::new(&data_dir)).expect("load");
    eprintln!("load {:?}", t.elapsed());
    let phrase = args.get(1).cloned().unwrap_or_else(|| "today".into());
    let today = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| chrono::Utc::now().date_naive());
    let cal = args.get(3).map(String::as_str);
    let tr = args.get(4).map(String::as_str);
    let date = l.resolve_date(&phrase, today, cal).expect("phrase");
    let t = Instant::now();
    let a = l.readings(date, cal, tr).expect("readings");
    let text = a.text(&l.translation_name(&a.translation));
    eprintln!("readings {:?}", t.elapsed());
    println!("{text}");
    if std::env::var("BENCH").is_ok() {
        let mut times = Vec::new();
        let start = chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        for i in 0..365 {
            let d = start + chrono::Duration::days(i);
            let t = Instant::now();
            let a = l.readings(d, cal, tr).unwrap();
            let _ = a.text("x");
            let _ = a.data();
            times.push(t.elapsed());
        }
        times.sort();
        eprintln!(
            "readings p50 {:?} p99 {:?}",
            times[times.len() / 2],
            times[times.len() * 99 / 100]
        );
        let t = Instant::now();
        let spec = l.calendar.spec("general-roman").unwrap();
        let n = l
            .calendar
            .range(
                spec,
                chrono::NaiveDate::from_ymd_opt(1970, 1, 1).unwrap(),
                chrono::NaiveDate::from_ymd_opt(2100, 12, 31).unwrap(),
            )
            .unwrap()
            .len();
        eprintln!("calendar 1970-2100: {n} days in {:?}", t.elapsed());
        let bytes: usize = l.bibles.translations().iter().map(|t| t.text_bytes()).sum();
        eprintln!("bible text bytes ~{} MB", bytes / 1_000_000);
    }
}
