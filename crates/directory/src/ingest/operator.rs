//! Operator files: a full directory loaded from the operator's own CSV or JSONL.
//!
//! Files live in `<data>/directories/operator/` (or are passed to
//! [`DirectoryIngester::with_extra`](super::DirectoryIngester::with_extra)); the
//! table is named by the file name's start: `persons*`, `lineage*`, `dioceses*`,
//! `statistics*`, `financials*`, each `.csv` (with a header row) or `.jsonl` (one
//! object per line). The columns are documented in the crate's README. A bad row
//! is skipped and reported as a warning `file:line: reason`; nothing is dropped
//! silently.

use super::Ctx;
use crate::fold::{fold, slug};
use crate::store::{FinRow, LineageEdge, Record, StatRow, FINANCIALS, METRICS};
use ecclesia_core::IngestError;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Folder of operator files under the data directory.
pub const OPERATOR_DIR: &str = "directories/operator";

/// One row of an operator file: its origin and its fields as strings.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub file: String,
    pub line: u64,
    pub fields: HashMap<String, String>,
}

impl Row {
    pub fn get(&self, k: &str) -> Option<&str> {
        self.fields
            .get(k)
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
    }

    pub fn at(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// The operator's rows, by table.
#[derive(Debug, Default)]
pub(crate) struct OperatorData {
    pub persons: Vec<Row>,
    pub lineage: Vec<Row>,
    pub dioceses: Vec<Row>,
    pub statistics: Vec<Row>,
    pub financials: Vec<Row>,
}

fn files_in(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_file() {
        out.push(p.to_path_buf());
    } else if let Ok(rd) = std::fs::read_dir(p) {
        let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        v.sort();
        for f in v {
            if f.is_file() {
                out.push(f);
            }
        }
    }
}

/// Read every operator file.
pub(crate) fn load(ctx: &mut Ctx, extra: &[PathBuf]) -> Result<OperatorData, IngestError> {
    let mut files = Vec::new();
    files_in(&ctx.data.join(OPERATOR_DIR), &mut files);
    for e in extra {
        if !e.exists() {
            ctx.warn(format!("{}: operator file not found", e.display()));
        }
        files_in(e, &mut files);
    }
    let mut data = OperatorData::default();
    let mut loaded = 0u64;
    for f in files {
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_lowercase();
        let table = if name.starts_with("persons") {
            &mut data.persons
        } else if name.starts_with("lineage") {
            &mut data.lineage
        } else if name.starts_with("dioceses") {
            &mut data.dioceses
        } else if name.starts_with("statistics") {
            &mut data.statistics
        } else if name.starts_with("financials") {
            &mut data.financials
        } else {
            ctx.warn(format!(
                "{}: not an operator table (name must start with persons, lineage, dioceses, statistics or financials)",
                f.display()
            ));
            continue;
        };
        let shown = f.display().to_string();
        let before = table.len();
        if name.ends_with(".csv") {
            read_csv(ctx, &f, &shown, table)?;
        } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
            read_jsonl(ctx, &f, &shown, table)?;
        } else {
            ctx.warn(format!("{shown}: unsupported format (use .csv or .jsonl)"));
            continue;
        }
        loaded += (table.len() - before) as u64;
    }
    if loaded > 0 {
        ctx.source(
            OPERATOR_DIR,
            "operator-supplied files",
            "local",
            "as supplied by the operator",
            None,
            loaded,
        );
    }
    Ok(data)
}

fn read_csv(
    ctx: &mut Ctx,
    path: &Path,
    shown: &str,
    out: &mut Vec<Row>,
) -> Result<(), IngestError> {
    let mut rdr = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .map_err(|e| IngestError::Other(format!("{shown}: {e}")))?;
    let headers: Vec<String> = match rdr.headers() {
        Ok(h) => h.iter().map(|s| s.trim().to_lowercase()).collect(),
        Err(e) => {
            ctx.warn(format!("{shown}:1: unreadable header: {e}"));
            return Ok(());
        }
    };
    for rec in rdr.records() {
        match rec {
            Ok(r) => {
                let line = r.position().map(|p| p.line()).unwrap_or(0);
                if r.len() != headers.len() {
                    ctx.warn(format!(
                        "{shown}:{line}: {} fields, the header has {}",
                        r.len(),
                        headers.len()
                    ));
                    continue;
                }
                let fields = headers
                    .iter()
                    .cloned()
                    .zip(r.iter().map(str::to_string))
                    .collect();
                out.push(Row {
                    file: shown.to_string(),
                    line,
                    fields,
                });
            }
            Err(e) => {
                let line = e.position().map(|p| p.line()).unwrap_or(0);
                ctx.warn(format!("{shown}:{line}: {e}"));
            }
        }
    }
    Ok(())
}

fn read_jsonl(
    ctx: &mut Ctx,
    path: &Path,
    shown: &str,
    out: &mut Vec<Row>,
) -> Result<(), IngestError> {
    let text = std::fs::read_to_string(path).map_err(|e| IngestError::io(path, e))?;
    for (i, line) in text.lines().enumerate() {
        let n = i as u64 + 1;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(m)) => {
                let fields = m
                    .into_iter()
                    .filter_map(|(k, v)| {
                        let s = match v {
                            Value::Null => return None,
                            Value::String(s) => s,
                            Value::Array(a) => a
                                .iter()
                                .map(|x| {
                                    x.as_str()
                                        .map(str::to_string)
                                        .unwrap_or_else(|| x.to_string())
                                })
                                .collect::<Vec<_>>()
                                .join(";"),
                            other => other.to_string(),
                        };
                        Some((k.to_lowercase(), s))
                    })
                    .collect();
                out.push(Row {
                    file: shown.to_string(),
                    line: n,
                    fields,
                });
            }
            Ok(_) => ctx.warn(format!("{shown}:{n}: not a JSON object")),
            Err(e) => ctx.warn(format!("{shown}:{n}: invalid JSON: {e}")),
        }
    }
    Ok(())
}

/// A number as operators write it: `1234`, `1,234`, `1 234`, `12.5`, `12.5%`; empty is none.
fn number(s: &str) -> Result<Option<f64>, String> {
    let t = s.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("null") || t.eq_ignore_ascii_case("na") {
        return Ok(None);
    }
    let cleaned: String = t
        .chars()
        .filter(|c| !matches!(c, ',' | ' ' | '_' | '%'))
        .collect();
    cleaned
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .map(Some)
        .ok_or_else(|| format!("{t:?} is not a number"))
}

fn year(s: Option<&str>) -> Result<i64, String> {
    let s = s.ok_or("no year")?;
    let y: i64 = s
        .trim()
        .parse()
        .map_err(|_| format!("year {s:?} is not a year"))?;
    if !(1000..=2200).contains(&y) {
        return Err(format!("year {y} out of range"));
    }
    Ok(y)
}

impl OperatorData {
    /// Statistics rows whose diocese exists; the others are reported.
    pub(crate) fn resolve_stats(&mut self, ctx: &mut Ctx, dioceses: &[Record]) -> Vec<StatRow> {
        let codes = diocese_codes(dioceses);
        let mut out = Vec::new();
        for r in std::mem::take(&mut self.statistics) {
            match stat_row(&r, &codes) {
                Ok(s) => out.push(s),
                Err(e) => ctx.warn(format!("{}: {e}", r.at())),
            }
        }
        out
    }

    /// Financial rows whose diocese exists; the others are reported.
    pub(crate) fn resolve_fins(&mut self, ctx: &mut Ctx, dioceses: &[Record]) -> Vec<FinRow> {
        let codes = diocese_codes(dioceses);
        let mut out = Vec::new();
        for r in std::mem::take(&mut self.financials) {
            match fin_row(&r, &codes) {
                Ok(s) => out.push(s),
                Err(e) => ctx.warn(format!("{}: {e}", r.at())),
            }
        }
        out
    }

    /// Lineage rows resolved against the persons (unknown consecrated bishops are reported).
    pub(crate) fn lineage_resolved(
        &mut self,
        ctx: &mut Ctx,
        persons: &[Record],
    ) -> Vec<LineageEdge> {
        let by_id: HashMap<&str, &Record> = persons.iter().map(|p| (p.id.as_str(), p)).collect();
        let by_name: HashMap<String, &str> = persons
            .iter()
            .map(|p| (fold(&p.name), p.id.as_str()))
            .collect();
        let resolve = |s: &str| -> Option<String> {
            if by_id.contains_key(s) {
                return Some(s.to_string());
            }
            by_name.get(&fold(s)).map(|s| s.to_string())
        };
        let mut out = Vec::new();
        let mut bad = Vec::new();
        for r in std::mem::take(&mut self.lineage) {
            let (Some(consecrated), Some(consecrator)) =
                (r.get("consecrated"), r.get("consecrator"))
            else {
                bad.push(format!(
                    "{}: consecrated and consecrator are required",
                    r.at()
                ));
                continue;
            };
            let Some(cid) = resolve(consecrated) else {
                bad.push(format!(
                    "{}: unknown consecrated person {consecrated:?}",
                    r.at()
                ));
                continue;
            };
            let role = match r.get("role").map(|s| s.to_lowercase()) {
                None => "principal".to_string(),
                Some(s) if s.starts_with("princ") => "principal".to_string(),
                Some(s) if s.starts_with("co") => "co-consecrator".to_string(),
                Some(s) => {
                    bad.push(format!(
                        "{}: role {s:?} is neither principal nor co-consecrator",
                        r.at()
                    ));
                    continue;
                }
            };
            let name = resolve(consecrator)
                .and_then(|id| by_id.get(id.as_str()).map(|p| p.name.clone()))
                .unwrap_or_else(|| consecrator.to_string());
            out.push(LineageEdge {
                consecrator_id: resolve(consecrator),
                consecrator_name: name,
                consecrated_id: cid,
                role,
                date: r.get("date").map(str::to_string),
            });
        }
        for b in bad {
            ctx.warn(b);
        }
        out
    }
}

fn diocese_codes(dioceses: &[Record]) -> HashMap<String, String> {
    let mut m = HashMap::new();
    for d in dioceses {
        m.insert(d.id.clone(), d.id.clone());
        m.entry(fold(&d.name)).or_insert_with(|| d.id.clone());
    }
    m
}

fn resolve_code(r: &Row, codes: &HashMap<String, String>) -> Result<String, String> {
    if let Some(c) = r.get("source_code") {
        return codes
            .get(c)
            .cloned()
            .ok_or_else(|| format!("unknown diocese source_code {c:?}"));
    }
    if let Some(n) = r.get("diocese") {
        return codes
            .get(&fold(n))
            .cloned()
            .ok_or_else(|| format!("unknown diocese {n:?}"));
    }
    Err("no source_code (or diocese name)".into())
}

fn stat_row(r: &Row, codes: &HashMap<String, String>) -> Result<StatRow, String> {
    let code = resolve_code(r, codes)?;
    let year = year(r.get("year"))?;
    let mut values = [None; 19];
    for (i, m) in METRICS.iter().enumerate() {
        if let Some(v) = r.get(m) {
            let n = number(v).map_err(|e| format!("{m}: {e}"))?;
            if n.is_some_and(|x| x < 0.0) {
                return Err(format!("{m}: negative value"));
            }
            values[i] = n;
        }
    }
    if values.iter().all(Option::is_none) {
        return Err("no metric has a value".into());
    }
    Ok(StatRow {
        source_code: code,
        year,
        values,
        source: r.get("source").unwrap_or(&r.file).to_string(),
    })
}

fn fin_row(r: &Row, codes: &HashMap<String, String>) -> Result<FinRow, String> {
    let code = resolve_code(r, codes)?;
    let fy = year(r.get("fiscal_year").or_else(|| r.get("year")))?;
    let mut values = [None; 5];
    for (i, m) in FINANCIALS.iter().enumerate() {
        if let Some(v) = r.get(m) {
            values[i] = number(v).map_err(|e| format!("{m}: {e}"))?;
        }
    }
    if values.iter().all(Option::is_none) {
        return Err("no figure has a value".into());
    }
    let currency = r.get("currency").map(|c| c.to_uppercase());
    if let Some(c) = &currency {
        if c.len() != 3 || !c.chars().all(|x| x.is_ascii_alphabetic()) {
            return Err(format!("currency {c:?} is not an ISO 4217 code"));
        }
    }
    Ok(FinRow {
        source_code: code,
        fiscal_year: fy,
        currency,
        values,
        source: r.get("source").unwrap_or(&r.file).to_string(),
    })
}

/// Person id for an operator row: its `person_id`, else the slug of its name.
pub(crate) fn person_id(r: &Row) -> Option<String> {
    r.get("person_id")
        .map(str::to_string)
        .or_else(|| r.get("name").map(slug))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_operators_write_them() {
        assert_eq!(number("1,234"), Ok(Some(1234.0)));
        assert_eq!(number(" 12.5% "), Ok(Some(12.5)));
        assert_eq!(number(""), Ok(None));
        assert!(number("lots").is_err());
    }
}
