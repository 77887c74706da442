//! The national calendars from romcal's data.
//!
//! `cargo run --release -p ecclesia-liturgy --example nations -- bench` times one year of every
//! nation (best of 20 runs per nation); `-- slugs` prints the romcal slug → LitCal key map with both
//! English names; `-- list` prints the nations with their settings.
use ecclesia_liturgy::calendar::romcal_nations::nations;
use ecclesia_liturgy::CalendarData;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data_dir = std::env::var("ECCLESIA_DATA")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data").into());
    let t = Instant::now();
    let data = CalendarData::load(std::path::Path::new(&data_dir)).expect("load");
    eprintln!("load {:?}", t.elapsed());
    let nations = nations().expect("nations.tsv");
    match args.get(1).map(String::as_str) {
        Some("slugs") => {
            let mut pairs: Vec<_> = data.romcal_slugs().pairs().collect();
            pairs.sort();
            for (slug, key) in pairs {
                println!("{slug}\t{key}\t{}", data.name(key, "en").unwrap_or("?"));
            }
        }
        Some("list") => {
            for n in &nations {
                let spec = data.spec(&n.id).expect("spec");
                println!(
                    "{}\t{}\t{:?}\tasc_sun={}\tcc_sun={}\t{} entries",
                    n.id,
                    n.romcal,
                    n.epiphany,
                    spec.ascension_on_sunday,
                    spec.corpus_christi_on_sunday,
                    spec.sanctorale.len()
                );
            }
        }
        _ => {
            let mut worst = (Duration::ZERO, String::new());
            for id in std::iter::once("general-roman").chain(nations.iter().map(|n| n.id.as_str()))
            {
                let spec = data.spec(id).expect("spec");
                let mut best = Duration::MAX;
                for i in 0..20 {
                    let t = Instant::now();
                    let days = data.year(spec, 2026 + i % 5).expect("year");
                    best = best.min(t.elapsed());
                    assert!(days.len() >= 365);
                }
                println!("{id}\t{best:?}");
                if best > worst.0 {
                    worst = (best, id.to_string());
                }
            }
            println!("slowest: {} {:?} per year", worst.1, worst.0);
        }
    }
}
