//! `ecclesia lookup saint|person|pope|diocese|stats "<query>" [--id] [--json]
//! [--start-year Y] [--end-year Y]`: the directory look-ups from the command line.
//!
//! Wired by the lead into `main.rs` as `Lookup(directory_cmd::LookupArgs)`, calling
//! [`run`] with the built `directory` store of the current generation. Needs the
//! `ecclesia-directory` crate (plus clap, anyhow, serde_json already there).

use anyhow::Context;
use ecclesia_directory::render::render_text;
use ecclesia_directory::{Directory, Kind, Lookup};
use std::path::Path;

/// Which directory to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LookupKind {
    /// Saints, blesseds, venerables, servants of God.
    Saint,
    /// Cardinals, bishops and other clergy (not popes).
    Person,
    /// Popes.
    Pope,
    /// Dioceses and other jurisdictions.
    Diocese,
    /// A diocese's yearly statistics (19 metrics).
    Stats,
}

/// `ecclesia lookup`.
#[derive(Debug, clap::Args)]
pub struct LookupArgs {
    /// Which directory.
    #[arg(value_enum)]
    pub kind: LookupKind,
    /// A name ("Benedict XVI", "Thérèse de Lisieux"), or a canonical id with --id.
    pub query: String,
    /// Take the query as a canonical id (`benedict-xvi`, `jerome`, `boston_us`).
    #[arg(long)]
    pub id: bool,
    /// Print the JSON the skill would return.
    #[arg(long)]
    pub json: bool,
    /// First year (stats only, inclusive).
    #[arg(long)]
    pub start_year: Option<i64>,
    /// Last year (stats only, inclusive).
    #[arg(long)]
    pub end_year: Option<i64>,
}

/// Run a look-up against the directory store in `store_dir` and print it.
pub fn run(args: LookupArgs, store_dir: &Path) -> anyhow::Result<()> {
    let dir = Directory::open(store_dir)
        .with_context(|| format!("opening the directory store {}", store_dir.display()))?;
    let what = if args.id {
        Lookup::Id(&args.query)
    } else {
        Lookup::Query(&args.query)
    };
    let (kind, out) = match args.kind {
        LookupKind::Stats => (
            None,
            dir.statistics_series(what, args.start_year, args.end_year)?,
        ),
        k => {
            let kind = match k {
                LookupKind::Saint => Kind::Saint,
                LookupKind::Person => Kind::Person,
                LookupKind::Pope => Kind::Pope,
                _ => Kind::Diocese,
            };
            (Some(kind), dir.lookup(kind, what)?)
        }
    };
    let v = out.to_json();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print!("{}", render_text(kind, &v));
    }
    Ok(())
}
