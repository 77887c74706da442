//! `ecclesia calendar | date | readings | martyrology`: the liturgy commands.
//!
//! Wired by the lead into `main.rs` as `Liturgy(LiturgyCommand)` (flattened):
//! `ecclesia calendar --from 1970-01-01 --to 2100-12-31 [--calendar us] --format jsonl|table|ics [--with-readings]`,
//! `ecclesia date "<phrase>" [--today YYYY-MM-DD]`, `ecclesia readings "<phrase>"`,
//! `ecclesia martyrology "<phrase>"`.

use anyhow::{bail, Context};
use chrono::NaiveDate;
use ecclesia_liturgy::{calendar_jsonl_line, calendar_table_line, CalendarData, Liturgy};
use std::io::Write;
use std::path::Path;

/// The liturgy subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum LiturgyCommand {
    /// Print the liturgical calendar between two dates (one line per day).
    Calendar(CalendarArgs),
    /// Resolve a date phrase ("next Sunday", "Easter 2026") to an ISO date.
    Date(DateArgs),
    /// Print the Mass readings of a date phrase.
    Readings(ReadingsArgs),
    /// Print the Roman Martyrology of a date phrase.
    Martyrology(MartyrologyArgs),
}

/// Output format of `calendar`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CalendarFormat {
    /// One JSON object per line.
    Jsonl,
    /// Aligned text.
    Table,
    /// An iCalendar feed (RFC 5545) for Google Calendar, Apple Calendar, Thunderbird.
    Ics,
}

/// `ecclesia calendar`.
#[derive(Debug, clap::Args)]
pub struct CalendarArgs {
    /// First day (YYYY-MM-DD).
    #[arg(long)]
    pub from: NaiveDate,
    /// Last day (YYYY-MM-DD).
    #[arg(long)]
    pub to: NaiveDate,
    /// Calendar: general-roman (default), us, …, or 1962 (the 1962 Missal)
    #[arg(long, default_value = "general-roman")]
    pub calendar: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: CalendarFormat,
    /// Add each day's Mass readings (citations of the Mass of the day) to the JSONL and
    /// iCalendar output.
    #[arg(long)]
    pub with_readings: bool,
}

/// Options shared by the dated commands.
#[derive(Debug, clap::Args)]
pub struct DateArgs {
    /// The date phrase.
    pub phrase: String,
    /// Fixed "today" (YYYY-MM-DD); default: the clock in --timezone.
    #[arg(long)]
    pub today: Option<NaiveDate>,
    /// Time zone for "today" (IANA name from the built-in table, UTC, or +HH:MM).
    #[arg(long, default_value = "UTC")]
    pub timezone: String,
    /// Calendar (named days follow its transfers).
    #[arg(long, default_value = "general-roman")]
    pub calendar: String,
}

/// `ecclesia readings`.
#[derive(Debug, clap::Args)]
pub struct ReadingsArgs {
    /// Date options.
    #[command(flatten)]
    pub date: DateArgs,
    /// Translation: cpdv (default) or douay-rheims.
    #[arg(long)]
    pub translation: Option<String>,
    /// Print the structured JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `ecclesia martyrology`.
#[derive(Debug, clap::Args)]
pub struct MartyrologyArgs {
    /// Date options.
    #[command(flatten)]
    pub date: DateArgs,
    /// Language: en (default) or la.
    #[arg(long, default_value = "en")]
    pub language: String,
}

fn today(a: &DateArgs) -> NaiveDate {
    a.today
        .unwrap_or_else(|| ecclesia_liturgy::clock::today_in(&a.timezone))
}

/// `ecclesia calendar`: the days from `--from` to `--to` in the chosen format.
fn calendar(a: &CalendarArgs, data_dir: &Path, out: &mut impl Write) -> anyhow::Result<()> {
    if a.format == CalendarFormat::Ics {
        let lit = Liturgy::load(data_dir).context("loading liturgy data")?;
        let stamp = chrono::Utc::now().naive_utc();
        let ics = lit.calendar_ics(Some(&a.calendar), a.from, a.to, a.with_readings, stamp)?;
        out.write_all(ics.as_bytes())?;
        return Ok(());
    }
    if Liturgy::is_1962(Some(&a.calendar)) {
        return calendar_1962(a, data_dir, out);
    }
    let lit = if a.with_readings {
        Some(Liturgy::load(data_dir).context("loading liturgy data")?)
    } else {
        None
    };
    let data = match &lit {
        Some(l) => l.calendar.clone(),
        None => CalendarData::load(data_dir).context("loading calendar data")?,
    };
    let spec = data.spec(&a.calendar)?;
    for d in data.range(spec, a.from, a.to)? {
        let line = match (a.format, &lit) {
            (CalendarFormat::Jsonl, Some(l)) => {
                let mut v: serde_json::Value = serde_json::from_str(&calendar_jsonl_line(&d))?;
                v["readings"] = l
                    .reading_refs(&d, &spec.id)
                    .into_iter()
                    .map(|(kind, citation)| serde_json::json!({"kind": kind, "citation": citation}))
                    .collect();
                v.to_string()
            }
            (CalendarFormat::Jsonl, None) => calendar_jsonl_line(&d),
            _ => calendar_table_line(&d),
        };
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `ecclesia calendar --calendar 1962`: the 1962 Missal's days, with `readings` {`epistle`,
/// `gospel`} on request.
fn calendar_1962(a: &CalendarArgs, data_dir: &Path, out: &mut impl Write) -> anyhow::Result<()> {
    let lit = Liturgy::load(data_dir).context("loading liturgy data")?;
    let missal = lit.missal1962()?;
    for day in missal.range(a.from, a.to)? {
        let line = match a.format {
            CalendarFormat::Jsonl => {
                let mut v = day.json();
                if a.with_readings {
                    let (_, proper) = missal.mass(day.date)?;
                    let books = lit.lectionary.books();
                    let cite = |part| {
                        ecclesia_liturgy::missal1962::readings::citation_of(&proper, books, part)
                    };
                    v["readings"] =
                        serde_json::json!({"epistle": cite("Epistle"), "gospel": cite("Gospel")});
                }
                v.to_string()
            }
            _ => day.table_line(),
        };
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Run one liturgy command against the data directory.
pub fn run(cmd: LiturgyCommand, data_dir: &Path) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match cmd {
        LiturgyCommand::Calendar(a) => {
            if a.to < a.from {
                bail!("--to {} is before --from {}", a.to, a.from);
            }
            calendar(&a, data_dir, &mut out)?;
        }
        LiturgyCommand::Date(a) if Liturgy::is_1962(Some(&a.calendar)) => {
            let lit = Liturgy::load(data_dir).context("loading liturgy data")?;
            let date = lit.resolve_date(&a.phrase, today(&a), Some(&a.calendar))?;
            let day = lit.missal1962()?.day(date)?;
            writeln!(out, "{}  {}", date.format("%Y-%m-%d"), day.table_line())?;
        }
        LiturgyCommand::Date(a) => {
            let data = CalendarData::load(data_dir).context("loading calendar data")?;
            let spec = data.spec(&a.calendar)?;
            let date = ecclesia_liturgy::phrases::resolve(&data, spec, &a.phrase, today(&a))?;
            let day = data.day(spec, date)?;
            writeln!(
                out,
                "{}  {}",
                date.format("%Y-%m-%d"),
                calendar_table_line(&day)
            )?;
        }
        LiturgyCommand::Readings(a) => {
            let lit = Liturgy::load(data_dir).context("loading liturgy data")?;
            let date = lit.resolve_date(&a.date.phrase, today(&a.date), Some(&a.date.calendar))?;
            if Liturgy::is_1962(Some(&a.date.calendar)) {
                let ans = lit.readings_1962(date, a.translation.as_deref())?;
                if a.json {
                    writeln!(out, "{}", serde_json::to_string_pretty(&ans.data())?)?;
                } else {
                    writeln!(out, "{}", ans.text(&lit.translation_name(&ans.translation)))?;
                }
                out.flush()?;
                return Ok(());
            }
            let ans = lit.readings(date, Some(&a.date.calendar), a.translation.as_deref())?;
            if a.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&ans.data())?)?;
            } else if ans.is_empty() {
                writeln!(out, "No mass readings found.")?;
            } else {
                writeln!(out, "{}", ans.text(&lit.translation_name(&ans.translation)))?;
            }
        }
        LiturgyCommand::Martyrology(a) => {
            let lit = Liturgy::load(data_dir).context("loading liturgy data")?;
            let date = lit.resolve_date(&a.date.phrase, today(&a.date), Some(&a.date.calendar))?;
            match lit.martyrology_text(date, &a.language) {
                Some(t) => writeln!(out, "{t}")?,
                None => writeln!(out, "No martyrology data found.")?,
            }
        }
    }
    out.flush()?;
    Ok(())
}
