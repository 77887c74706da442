//! Print one section of a Divinum Officium file as the 1962 engine reads it:
//! `cargo run -p ecclesia-liturgy --example do_section -- ../shared/data Sancti/01-16 Lectio`.

use ecclesia_liturgy::missal1962::office::Office;
use ecclesia_liturgy::missal1962::source::{Context, Library};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let root = std::path::Path::new(args.get(1).map_or("../shared/data", String::as_str))
        .join("traditional/divinum-officium");
    let lib = Library::load(&root)?;
    let file = args.get(2).map_or("Tempora/Adv1-0", String::as_str);
    let section = args.get(3).map_or("Rank", String::as_str);
    let ctx = Context {
        paschal: args.iter().any(|a| a == "--paschal"),
        penitential: args.iter().any(|a| a == "--penitential"),
    };
    println!("{:?}", Office::read(&lib, file, ctx));
    println!(
        "---\n{}",
        lib.section(file, section, ctx).unwrap_or_default()
    );
    Ok(())
}
