//! Print the 1962 calendar of a range of years as TSV: date, celebration (Latin), class,
//! colour, commemorations (Latin, ` | `), Epistle and Gospel citations (the Missal's own),
//! and the formulary. `cargo run --release -p ecclesia-liturgy --example missal1962_dump --
//! ../shared/data 2025 2030`.

use ecclesia_liturgy::missal1962::Missal1962;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let data = args.get(1).map_or("../shared/data", String::as_str);
    let from: i32 = args.get(2).map_or(Ok(2025), |s| s.parse())?;
    let to: i32 = args.get(3).map_or(Ok(from), |s| s.parse())?;
    let missal = Missal1962::load(std::path::Path::new(data))?;
    println!("date\tcelebration\tclass\tcolour\tcommemorations\tepistle\tgospel\tfile");
    for year in from..=to {
        for day in missal.year(year)? {
            let (_, proper) = missal.mass(day.date)?;
            let la = |p: &str| {
                proper
                    .parts
                    .iter()
                    .find(|x| x.part == p)
                    .and_then(|x| x.citation_la.clone())
                    .unwrap_or_default()
            };
            println!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                day.date,
                day.celebration.title_la,
                day.class.code(),
                day.colour.name(),
                day.commemorations
                    .iter()
                    .map(|c| c.title_la.as_str())
                    .collect::<Vec<_>>()
                    .join(" | "),
                la("Epistle"),
                la("Gospel"),
                day.celebration.file
            );
        }
    }
    Ok(())
}
