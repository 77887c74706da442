//! How long a year of the 1962 calendar takes to compute (and with each day's proper):
//! `cargo run --release -p ecclesia-liturgy --example missal1962_bench -- ../shared/data`.
//! Reports the median of 21 runs per year over 2025–2030.

use ecclesia_liturgy::missal1962::Missal1962;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let data = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/data".into());
    let t = Instant::now();
    let missal = Missal1962::load(std::path::Path::new(&data))?;
    println!("load: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for year in 2025..=2030 {
        let mut cal = Vec::new();
        let mut with_mass = Vec::new();
        for _ in 0..21 {
            let t = Instant::now();
            let days = missal.year(year)?;
            cal.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            for d in &days {
                std::hint::black_box(missal.mass(d.date)?);
            }
            with_mass.push(t.elapsed().as_secs_f64() * 1e3);
        }
        println!(
            "{year}: calendar {:.2} ms, every day's proper {:.1} ms",
            median(cal),
            median(with_mass)
        );
    }
    Ok(())
}
