//! The SQLite store: schema, writing records at ingest, reading them at look-up.

use crate::index::Kind;
use crate::DirectoryError;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;
use std::path::Path;

/// File name of the store inside the ingester's directory.
pub const DB_FILE: &str = "directory.sqlite";

/// The 19 yearly metrics, in contract order.
pub const METRICS: [&str; 19] = [
    "catholics",
    "total_population",
    "percent_catholic",
    "diocesan_priests",
    "religious_priests",
    "total_priests",
    "catholics_per_priest",
    "permanent_deacons",
    "male_religious",
    "female_religious",
    "parishes",
    "area_km2",
    "churches_or_stations",
    "diocesan_priests_ordained",
    "religious_priests_ordained",
    "seminarians",
    "educational_institutes",
    "charitable_institutes",
    "baptisms",
];

/// The financial headline figures, in contract order.
pub const FINANCIALS: [&str; 5] = [
    "total_revenue",
    "total_expenses",
    "net_assets",
    "total_assets",
    "surplus_deficit",
];

/// One record of any directory, ready to store.
#[derive(Debug, Clone)]
pub struct Record {
    /// Canonical id.
    pub id: String,
    /// Directory.
    pub kind: Kind,
    /// Display name.
    pub name: String,
    /// What tells it apart from namesakes.
    pub detail: String,
    /// Prominence in [0, 1].
    pub prior: f32,
    /// Every name it may be asked by, with a weight (primary 1.0).
    pub names: Vec<(String, f32)>,
    /// The stored profile (every contract field present).
    pub profile: Value,
}

/// An episcopal consecration: who consecrated whom.
#[derive(Debug, Clone, PartialEq)]
pub struct LineageEdge {
    /// The consecrator's person id, when the directory has them.
    pub consecrator_id: Option<String>,
    /// The consecrator's name as the source gives it.
    pub consecrator_name: String,
    /// The consecrated bishop's person id.
    pub consecrated_id: String,
    /// `principal` or `co-consecrator`.
    pub role: String,
    /// Date of the consecration, when known.
    pub date: Option<String>,
}

/// One year of statistics of one diocese.
#[derive(Debug, Clone, PartialEq)]
pub struct StatRow {
    /// Diocese id.
    pub source_code: String,
    /// Year.
    pub year: i64,
    /// Values in [`METRICS`] order.
    pub values: [Option<f64>; 19],
    /// Where the figures come from.
    pub source: String,
}

/// One fiscal year of a diocese's finances.
#[derive(Debug, Clone, PartialEq)]
pub struct FinRow {
    /// Diocese id.
    pub source_code: String,
    /// Fiscal year.
    pub fiscal_year: i64,
    /// ISO 4217 currency.
    pub currency: Option<String>,
    /// Values in [`FINANCIALS`] order.
    pub values: [Option<f64>; 5],
    /// Where the figures come from.
    pub source: String,
}

const SCHEMA: &str = "
CREATE TABLE record (id TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, detail TEXT NOT NULL,
  prior REAL NOT NULL, profile TEXT NOT NULL, PRIMARY KEY (kind, id));
CREATE TABLE alias (kind TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, weight REAL NOT NULL);
CREATE INDEX alias_id ON alias(kind, id);
CREATE TABLE lineage (consecrator_id TEXT, consecrator_name TEXT NOT NULL, consecrated_id TEXT NOT NULL,
  role TEXT NOT NULL, date TEXT);
CREATE INDEX lineage_from ON lineage(consecrator_id);
CREATE INDEX lineage_to ON lineage(consecrated_id);
CREATE TABLE statistics (source_code TEXT NOT NULL, year INTEGER NOT NULL,
  catholics REAL, total_population REAL, percent_catholic REAL, diocesan_priests REAL,
  religious_priests REAL, total_priests REAL, catholics_per_priest REAL, permanent_deacons REAL,
  male_religious REAL, female_religious REAL, parishes REAL, area_km2 REAL, churches_or_stations REAL,
  diocesan_priests_ordained REAL, religious_priests_ordained REAL, seminarians REAL,
  educational_institutes REAL, charitable_institutes REAL, baptisms REAL, source TEXT NOT NULL,
  PRIMARY KEY (source_code, year));
CREATE TABLE financials (source_code TEXT NOT NULL, fiscal_year INTEGER NOT NULL, currency TEXT,
  total_revenue REAL, total_expenses REAL, net_assets REAL, total_assets REAL, surplus_deficit REAL,
  source TEXT NOT NULL, PRIMARY KEY (source_code, fiscal_year));
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
";

fn db_err(e: rusqlite::Error) -> DirectoryError {
    DirectoryError::Store(e.to_string())
}

/// Write a fresh store at `path` (replacing any file there).
pub fn write(
    path: &Path,
    records: &[Record],
    lineage: &[LineageEdge],
    stats: &[StatRow],
    fins: &[FinRow],
    meta: &[(&str, String)],
) -> Result<(), DirectoryError> {
    if path.exists() {
        std::fs::remove_file(path).map_err(|e| DirectoryError::Store(e.to_string()))?;
    }
    let mut conn = Connection::open(path).map_err(db_err)?;
    conn.execute_batch("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
        .map_err(db_err)?;
    conn.execute_batch(SCHEMA).map_err(db_err)?;
    let tx = conn.transaction().map_err(db_err)?;
    {
        let mut rec = tx
            .prepare("INSERT INTO record (id, kind, name, detail, prior, profile) VALUES (?1,?2,?3,?4,?5,?6)")
            .map_err(db_err)?;
        let mut ali = tx
            .prepare("INSERT INTO alias (kind, id, name, weight) VALUES (?1,?2,?3,?4)")
            .map_err(db_err)?;
        for r in records {
            rec.execute(params![
                r.id,
                r.kind.as_str(),
                r.name,
                r.detail,
                r.prior as f64,
                r.profile.to_string()
            ])
            .map_err(db_err)?;
            for (n, w) in &r.names {
                ali.execute(params![r.kind.as_str(), r.id, n, *w as f64])
                    .map_err(db_err)?;
            }
        }
        let mut lin = tx
            .prepare("INSERT INTO lineage (consecrator_id, consecrator_name, consecrated_id, role, date) VALUES (?1,?2,?3,?4,?5)")
            .map_err(db_err)?;
        for l in lineage {
            lin.execute(params![
                l.consecrator_id,
                l.consecrator_name,
                l.consecrated_id,
                l.role,
                l.date
            ])
            .map_err(db_err)?;
        }
        let cols = METRICS.join(", ");
        let marks: Vec<String> = (3..=22).map(|i| format!("?{i}")).collect();
        let sql = format!(
            "INSERT OR REPLACE INTO statistics (source_code, year, {cols}, source) VALUES (?1, ?2, {})",
            marks.join(", ")
        );
        let mut st = tx.prepare(&sql).map_err(db_err)?;
        for s in stats {
            let mut p: Vec<&dyn rusqlite::ToSql> = vec![&s.source_code, &s.year];
            for v in &s.values {
                p.push(v);
            }
            p.push(&s.source);
            st.execute(p.as_slice()).map_err(db_err)?;
        }
        let mut fi = tx
            .prepare("INSERT OR REPLACE INTO financials (source_code, fiscal_year, currency, total_revenue, total_expenses, net_assets, total_assets, surplus_deficit, source) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)")
            .map_err(db_err)?;
        for f in fins {
            fi.execute(params![
                f.source_code,
                f.fiscal_year,
                f.currency,
                f.values[0],
                f.values[1],
                f.values[2],
                f.values[3],
                f.values[4],
                f.source
            ])
            .map_err(db_err)?;
        }
        let mut me = tx
            .prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")
            .map_err(db_err)?;
        for (k, v) in meta {
            me.execute(params![k, v]).map_err(db_err)?;
        }
    }
    tx.commit().map_err(db_err)?;
    Ok(())
}

/// Open the store read-only.
pub fn open(path: &Path) -> Result<Connection, DirectoryError> {
    if !path.is_file() {
        return Err(DirectoryError::NotBuilt(path.display().to_string()));
    }
    Connection::open_with_flags(
        path,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(db_err)
}

/// A record's index data: (kind, id, name, detail, prior).
pub type EntryRow = (Kind, String, String, String, f32);

/// Every record's index data.
pub fn load_entries(conn: &Connection) -> Result<Vec<EntryRow>, DirectoryError> {
    let mut st = conn
        .prepare("SELECT kind, id, name, detail, prior FROM record ORDER BY kind, id")
        .map_err(db_err)?;
    let rows = st
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, f64>(4)?,
            ))
        })
        .map_err(db_err)?;
    let mut out = Vec::new();
    for r in rows {
        let (k, id, name, detail, prior) = r.map_err(db_err)?;
        if let Some(kind) = Kind::parse(&k) {
            out.push((kind, id, name, detail, prior as f32));
        }
    }
    Ok(out)
}

/// Every alias: (kind, id, name, weight).
pub fn load_aliases(conn: &Connection) -> Result<Vec<(Kind, String, String, f32)>, DirectoryError> {
    let mut st = conn
        .prepare("SELECT kind, id, name, weight FROM alias")
        .map_err(db_err)?;
    let rows = st
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, f64>(3)?,
            ))
        })
        .map_err(db_err)?;
    let mut out = Vec::new();
    for r in rows {
        let (k, id, name, w) = r.map_err(db_err)?;
        if let Some(kind) = Kind::parse(&k) {
            out.push((kind, id, name, w as f32));
        }
    }
    Ok(out)
}

/// The stored profile of a record.
pub fn profile(conn: &Connection, kind: Kind, id: &str) -> Result<Option<Value>, DirectoryError> {
    let s: Option<String> = conn
        .prepare_cached("SELECT profile FROM record WHERE kind = ?1 AND id = ?2")
        .map_err(db_err)?
        .query_row(params![kind.as_str(), id], |r| r.get(0))
        .optional()
        .map_err(db_err)?;
    match s {
        None => Ok(None),
        Some(s) => serde_json::from_str(&s)
            .map(Some)
            .map_err(|e| DirectoryError::Store(e.to_string())),
    }
}

/// Consecrations where `id` is the consecrated bishop.
pub fn consecrators(conn: &Connection, id: &str) -> Result<Vec<LineageEdge>, DirectoryError> {
    edges(conn, "consecrated_id", id)
}

/// Consecrations where `id` is the consecrator.
pub fn consecrated_by(conn: &Connection, id: &str) -> Result<Vec<LineageEdge>, DirectoryError> {
    edges(conn, "consecrator_id", id)
}

fn edges(conn: &Connection, col: &str, id: &str) -> Result<Vec<LineageEdge>, DirectoryError> {
    let sql = format!(
        "SELECT consecrator_id, consecrator_name, consecrated_id, role, date FROM lineage WHERE {col} = ?1 ORDER BY date, consecrated_id"
    );
    let mut st = conn.prepare_cached(&sql).map_err(db_err)?;
    let rows = st
        .query_map([id], |r| {
            Ok(LineageEdge {
                consecrator_id: r.get(0)?,
                consecrator_name: r.get(1)?,
                consecrated_id: r.get(2)?,
                role: r.get(3)?,
                date: r.get(4)?,
            })
        })
        .map_err(db_err)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(db_err)
}

/// Statistics rows of a diocese, years in `[start, end]`, oldest first.
pub fn statistics(
    conn: &Connection,
    code: &str,
    start: Option<i64>,
    end: Option<i64>,
) -> Result<Vec<StatRow>, DirectoryError> {
    let cols = METRICS.join(", ");
    let sql = format!(
        "SELECT year, {cols}, source FROM statistics WHERE source_code = ?1 AND year >= ?2 AND year <= ?3 ORDER BY year"
    );
    let mut st = conn.prepare_cached(&sql).map_err(db_err)?;
    let rows = st
        .query_map(
            params![code, start.unwrap_or(i64::MIN), end.unwrap_or(i64::MAX)],
            |r| {
                let mut values = [None; 19];
                for (i, v) in values.iter_mut().enumerate() {
                    *v = r.get::<_, Option<f64>>(i + 1)?;
                }
                Ok(StatRow {
                    source_code: code.to_string(),
                    year: r.get(0)?,
                    values,
                    source: r.get(20)?,
                })
            },
        )
        .map_err(db_err)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(db_err)
}

/// The latest fiscal year of a diocese's finances.
pub fn latest_financials(conn: &Connection, code: &str) -> Result<Option<FinRow>, DirectoryError> {
    conn.query_row(
        "SELECT fiscal_year, currency, total_revenue, total_expenses, net_assets, total_assets, surplus_deficit, source FROM financials WHERE source_code = ?1 ORDER BY fiscal_year DESC LIMIT 1",
        [code],
        |r| {
            Ok(FinRow {
                source_code: code.to_string(),
                fiscal_year: r.get(0)?,
                currency: r.get(1)?,
                values: [r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?],
                source: r.get(7)?,
            })
        },
    )
    .optional()
    .map_err(db_err)
}

/// A meta value.
pub fn meta(conn: &Connection, key: &str) -> Result<Option<String>, DirectoryError> {
    conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .optional()
        .map_err(db_err)
}
