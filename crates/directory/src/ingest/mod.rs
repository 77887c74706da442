//! `ecclesia ingest` for the directories: read the shared datasets (and the
//! operator's own files), merge them per entity, write the SQLite store.

pub(crate) mod dioceses;
pub mod operator;
pub(crate) mod persons;
pub(crate) mod pope_fields;
pub(crate) mod popes;
pub(crate) mod saint_fields;
pub(crate) mod saints;

use crate::fold::fold;
use crate::store::{self, Record};
use ecclesia_core::{IngestContext, IngestError, IngestReport, Ingester, SourceInfo};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Name of the ingester, and of its directory in a store generation.
pub const INGESTER_NAME: &str = "directory";

/// The directories ingester: saints, popes, persons, dioceses, statistics, financials.
#[derive(Debug, Clone, Default)]
pub struct DirectoryIngester {
    /// Extra operator files or folders (CSV/JSONL), besides `<data>/directories/operator/`.
    pub extra: Vec<PathBuf>,
}

impl DirectoryIngester {
    /// An ingester that also loads the operator files or folders in `extra`.
    pub fn with_extra(extra: Vec<PathBuf>) -> Self {
        DirectoryIngester { extra }
    }
}

/// Shared state of one ingest run.
pub(crate) struct Ctx {
    pub data: PathBuf,
    pub sources: Vec<SourceInfo>,
    pub warnings: Vec<String>,
    /// folded full name → (birth date, birth place), from the cardinals' Wikidata file
    pub cardinal_births: HashMap<String, (String, Option<String>)>,
}

impl Ctx {
    pub fn warn(&mut self, w: String) {
        tracing::warn!("{w}");
        self.warnings.push(w);
    }

    pub fn source(
        &mut self,
        dataset: &str,
        origin: &str,
        version: &str,
        licence: &str,
        attribution: Option<&str>,
        records: u64,
    ) {
        self.sources.push(SourceInfo {
            dataset: dataset.to_string(),
            origin: origin.to_string(),
            version: version.to_string(),
            licence: licence.to_string(),
            attribution: attribution.map(str::to_string),
            records,
        });
    }

    pub fn cardinal_birth(&self, full_name: &str) -> Option<(String, Option<String>)> {
        self.cardinal_births.get(&fold(full_name)).cloned()
    }
}

/// `{dataset, licence}` for a profile's `sources`.
pub(crate) fn src(dataset: &str, licence: &str) -> Value {
    json!({ "dataset": dataset, "licence": licence })
}

pub(crate) fn read_json(path: &Path) -> Result<Value, IngestError> {
    if !path.is_file() {
        return Err(IngestError::MissingData(path.to_path_buf()));
    }
    let text = std::fs::read_to_string(path).map_err(|e| IngestError::io(path, e))?;
    serde_json::from_str(&text).map_err(|e| IngestError::Other(format!("{}: {e}", path.display())))
}

/// An ISO timestamp or date (`0030-01-01T00:00:00Z`) cut to what is really known.
///
/// The Wikipedia list pads unknown days: births on 30 June, tenures on 1 January /
/// 31 December. Those come back as the year alone with precision `year`.
pub(crate) fn date_with_precision(
    s: Option<&str>,
    birth: bool,
) -> (Option<String>, Option<&'static str>) {
    let Some(s) = s.map(str::trim).filter(|s| !s.is_empty()) else {
        return (None, None);
    };
    let d = s.split('T').next().unwrap_or(s);
    if d.len() < 10 {
        return (
            Some(d.to_string()),
            Some(if d.len() == 4 { "year" } else { "month" }),
        );
    }
    let md = &d[5..10];
    let padded = if birth {
        md == "06-30"
    } else {
        md == "01-01" || md == "12-31"
    };
    if padded {
        (Some(d[..4].to_string()), Some("year"))
    } else {
        (Some(d[..10].to_string()), Some("day"))
    }
}

impl Ingester for DirectoryIngester {
    fn name(&self) -> &'static str {
        INGESTER_NAME
    }

    fn ingest(&self, ctx: &IngestContext<'_>) -> Result<IngestReport, IngestError> {
        let t0 = Instant::now();
        let bar = ctx.progress.bar("directories", Some(6));
        let mut c = Ctx {
            data: ctx.data_dir.clone(),
            sources: Vec::new(),
            warnings: Vec::new(),
            cardinal_births: HashMap::new(),
        };
        c.cardinal_births = persons::cardinal_births(&c.data);
        bar.set_message("popes");
        let popes = popes::build(&mut c)?;
        bar.inc(1);
        bar.set_message("saints");
        let saints = saints::build(&mut c)?;
        bar.inc(1);
        bar.set_message("persons");
        let mut ops = operator::load(&mut c, &self.extra)?;
        let (persons, mut lineage) = persons::build(&mut c, &popes, &mut ops)?;
        bar.inc(1);
        bar.set_message("dioceses");
        let dioceses = dioceses::build(&mut c, &persons, &mut ops)?;
        bar.inc(1);
        let mut extra_lineage = ops.lineage_resolved(&mut c, &persons);
        lineage.append(&mut extra_lineage);
        let stats = ops.resolve_stats(&mut c, &dioceses);
        let fins = ops.resolve_fins(&mut c, &dioceses);
        let mut records: Vec<Record> = Vec::new();
        records.extend(popes);
        records.extend(saints);
        records.extend(persons);
        records.extend(dioceses);
        bar.set_message("writing the store");
        std::fs::create_dir_all(&ctx.out_dir).map_err(|e| IngestError::io(&ctx.out_dir, e))?;
        let path = ctx.out_dir.join(store::DB_FILE);
        let counts = counts(&records);
        let meta = vec![
            (
                "sources",
                serde_json::to_string(&c.sources).unwrap_or_default(),
            ),
            ("counts", counts.to_string()),
            ("statistics_rows", stats.len().to_string()),
            ("financial_rows", fins.len().to_string()),
        ];
        store::write(&path, &records, &lineage, &stats, &fins, &meta)
            .map_err(|e| IngestError::Other(e.to_string()))?;
        bar.inc(2);
        bar.finish();
        tracing::info!(
            records = records.len(),
            ms = t0.elapsed().as_millis() as u64,
            "directory store built"
        );
        Ok(IngestReport {
            sources: c.sources,
            warnings: c.warnings,
        })
    }
}

fn counts(records: &[Record]) -> Value {
    let mut m: HashMap<&str, u64> = HashMap::new();
    for r in records {
        *m.entry(r.kind.as_str()).or_default() += 1;
    }
    json!(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padded_dates_lose_their_day() {
        assert_eq!(
            date_with_precision(Some("0001-06-30T00:00:00Z"), true),
            (Some("0001".into()), Some("year"))
        );
        assert_eq!(
            date_with_precision(Some("1927-04-16T00:00:00Z"), true),
            (Some("1927-04-16".into()), Some("day"))
        );
        assert_eq!(
            date_with_precision(Some("0030-01-01T00:00:00Z"), false),
            (Some("0030".into()), Some("year"))
        );
        assert_eq!(date_with_precision(None, false), (None, None));
    }
}
