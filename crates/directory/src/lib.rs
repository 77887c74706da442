//! Directories of saints, popes, clergy and dioceses: ingest, name matching, profiles.
//!
//! [`DirectoryIngester`] (ingester name `directory`) merges the shared datasets
//! (Wikidata saints, the Roman Martyrology ids and 1914 elogia, romcal and LitCal
//! feasts, three pope lists, the cardinals and US bishops, LitCal's world dioceses and
//! the US sees) and the operator's own CSV/JSONL files into one SQLite file. At
//! look-up time [`Directory::open`] loads every name into an in-memory [`NameIndex`]
//! (folded tokens, regnal numbers, language variants, typo tolerance) and reads
//! profiles from SQLite.
//!
//! ```no_run
//! use ecclesia_directory::{Directory, Kind, Lookup, Outcome};
//! let dir = Directory::open(std::path::Path::new("store/gen-1/directory")).unwrap();
//! match dir.lookup(Kind::Pope, Lookup::Query("Benedetto XVI")).unwrap() {
//!     Outcome::Found(profile) => assert_eq!(profile["pope_id"], "benedict-xvi"),
//!     Outcome::NotFound { .. } => unreachable!(),
//! }
//! ```
#![deny(missing_docs)]

pub mod elogium;
pub mod epithet;
pub mod fold;
pub mod index;
pub mod ingest;
pub mod link;
pub mod places;
pub mod render;
pub mod store;

pub use index::{Kind, NameIndex, Scored, CONFIDENT, MIN_SCORE};
pub use ingest::{DirectoryIngester, INGESTER_NAME};
pub use link::SaintLink;

use index::IndexEntry;
use rusqlite::Connection;
use serde_json::{json, Map, Value};
use std::path::Path;
use std::sync::Mutex;

/// Hint when `person_lookup` resolves only to a pope (contract wording).
pub const HINT_POPE: &str = "Top match looks like a pope; try get_pope.";
/// Hint when `pope_lookup` resolves only to another cleric (contract wording).
pub const HINT_PERSON: &str = "Top match looks like a non-pope clergy member; try get_person.";
/// Hint when a query resolves only to a saint.
pub const HINT_SAINT: &str = "Top match looks like a saint; try get_saint.";
/// Hint when a query resolves only to a diocese.
pub const HINT_DIOCESE: &str = "Top match looks like a diocese; try get_diocese.";

/// Why a directory operation failed.
#[derive(Debug, thiserror::Error)]
pub enum DirectoryError {
    /// The store has not been built.
    #[error("the directory store is not built ({0}); run `ecclesia ingest`")]
    NotBuilt(String),
    /// SQLite or file failure.
    #[error("directory store: {0}")]
    Store(String),
    /// The caller's input is wrong (year bounds …).
    #[error("{0}")]
    InvalidInput(String),
}

/// What is being looked up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup<'a> {
    /// A canonical id (`benedict-xvi`, `jerome`, `boston_us`).
    Id(&'a str),
    /// A natural-language name.
    Query(&'a str),
}

/// The answer to a look-up.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The profile (with `alternates`).
    Found(Value),
    /// Nothing matched confidently.
    NotFound {
        /// The query (or id) as given.
        query: String,
        /// Where to look instead.
        hint: Option<String>,
        /// Candidates that matched below [`CONFIDENT`], best first (each
        /// `{id, <kind>_id, name, distinguishing, score}`); an extra field beside the
        /// contract's `{error, query, hint?}`.
        alternates: Vec<Value>,
    },
}

/// Hint when no record matches confidently but some come close.
pub const HINT_ALTERNATES: &str =
    "No confident match; the closest records are listed in alternates.";

impl Outcome {
    /// The data part's JSON: the profile, or `{error:"not_found", query, hint?,
    /// alternates?}` (`alternates` only when there are some).
    pub fn to_json(&self) -> Value {
        match self {
            Outcome::Found(v) => v.clone(),
            Outcome::NotFound {
                query,
                hint,
                alternates,
            } => {
                let mut m = Map::new();
                m.insert("error".into(), json!("not_found"));
                m.insert("query".into(), json!(query));
                if let Some(h) = hint {
                    m.insert("hint".into(), json!(h));
                }
                if !alternates.is_empty() {
                    m.insert("alternates".into(), json!(alternates));
                }
                Value::Object(m)
            }
        }
    }
}

/// Whether a candidate is answered as the match: it scores at least [`CONFIDENT`],
/// or every word of the query is one of its name's words as spelt ("Cardinal Tagle":
/// a surname alone covers only part of the name, but nothing of the query is
/// missing or misspelt).
pub fn is_confident(s: &Scored) -> bool {
    s.score >= CONFIDENT || s.complete
}

/// Why a query did not resolve: a hint, and the candidates below the confidence cut.
struct NotResolved {
    hint: Option<String>,
    alternates: Vec<Scored>,
}

/// The built directories, ready for look-ups (share it behind an `Arc`).
pub struct Directory {
    index: NameIndex,
    conn: Mutex<Connection>,
}

impl std::fmt::Debug for Directory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Directory")
            .field("records", &self.index.len())
            .finish()
    }
}

/// Headline statistics shown in a diocese profile.
const HEADLINE: [&str; 7] = [
    "catholics",
    "total_population",
    "percent_catholic",
    "total_priests",
    "parishes",
    "baptisms",
    "seminarians",
];

fn id_key(kind: Kind) -> &'static str {
    match kind {
        Kind::Saint => "saint_id",
        Kind::Pope => "pope_id",
        Kind::Person => "person_id",
        Kind::Diocese => "source_code",
    }
}

fn num(v: Option<f64>) -> Value {
    match v {
        None => Value::Null,
        Some(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => json!(x as i64),
        Some(x) => json!(x),
    }
}

impl Directory {
    /// Open the store built by the ingester in `store_dir` and load the name index.
    pub fn open(store_dir: &Path) -> Result<Self, DirectoryError> {
        let conn = store::open(&store_dir.join(store::DB_FILE))?;
        let entries = store::load_entries(&conn)?;
        let aliases = store::load_aliases(&conn)?;
        let mut by: std::collections::HashMap<(Kind, String), Vec<(String, f32)>> =
            std::collections::HashMap::new();
        for (k, id, n, w) in aliases {
            by.entry((k, id)).or_default().push((n, w));
        }
        let mut index = NameIndex::default();
        for (kind, id, name, detail, prior) in entries {
            let names = by.remove(&(kind, id.clone())).unwrap_or_default();
            index.add(
                IndexEntry {
                    id,
                    kind,
                    name,
                    detail,
                    prior,
                },
                &names,
            );
        }
        Ok(Directory {
            index,
            conn: Mutex::new(conn),
        })
    }

    /// The name index.
    pub fn index(&self) -> &NameIndex {
        &self.index
    }

    fn with_conn<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, DirectoryError>,
    ) -> Result<T, DirectoryError> {
        let guard = self
            .conn
            .lock()
            .map_err(|_| DirectoryError::Store("connection lock poisoned".into()))?;
        f(&guard)
    }

    /// Resolve a query to (entry, alternates) in `kind`, or a not-found hint with
    /// the candidates that matched below [`CONFIDENT`].
    fn resolve(&self, kind: Kind, q: &str) -> Result<(usize, Vec<Scored>), NotResolved> {
        // the asked directory first, then the others a query may really be meant for
        let kinds: &[Kind] = match kind {
            Kind::Person => &[Kind::Person, Kind::Pope, Kind::Saint],
            Kind::Pope => &[Kind::Pope, Kind::Person, Kind::Saint],
            Kind::Saint => &[Kind::Saint, Kind::Pope, Kind::Person],
            Kind::Diocese => &[Kind::Diocese],
        };
        let (mut ranked, hints) = self.index.search_each(q, kinds, MIN_SCORE);
        let own = std::mem::take(&mut ranked[0]);
        let own_best = own.first().filter(|s| is_confident(s)).map(|s| s.score);
        let mut hint: Option<String> = None;
        let mut other_best: Option<(Kind, f32)> = None;
        for (&k, r) in kinds.iter().zip(&ranked).skip(1) {
            let Some(b) = r.first().filter(|b| is_confident(b)) else {
                continue;
            };
            // a title naming the other directory ("Pope …" asked of persons) decides
            let titled = match (kind, k) {
                (Kind::Person, Kind::Pope) => hints.pope && !hints.cleric,
                (Kind::Pope, Kind::Person) => hints.cleric && !hints.pope,
                _ => false,
            };
            if titled {
                other_best = Some((k, f32::INFINITY));
                break;
            }
            if other_best.is_none_or(|(_, s)| b.score > s) {
                other_best = Some((k, b.score));
            }
        }
        if let Some((k, s)) = other_best {
            let clearly_better = s.is_infinite()
                || match k {
                    Kind::Saint | Kind::Diocese => own_best.is_none(),
                    _ => own_best.is_none_or(|o| s >= o + 0.15 && s >= 0.9),
                };
            if clearly_better {
                hint = Some(
                    match k {
                        Kind::Pope => HINT_POPE,
                        Kind::Person => HINT_PERSON,
                        Kind::Saint => HINT_SAINT,
                        Kind::Diocese => HINT_DIOCESE,
                    }
                    .to_string(),
                );
            }
        }
        // popes are saints too: a saint query that names a pope stays with the saints
        if kind == Kind::Saint && own_best.is_some() {
            hint = None;
        }
        match (own.first(), hint) {
            (Some(b), None) if is_confident(b) => {
                let floor = (b.score - 0.2).max(MIN_SCORE);
                let alts = own
                    .iter()
                    .skip(1)
                    .filter(|s| s.score >= floor)
                    .take(5)
                    .copied()
                    .collect();
                Ok((b.entry, alts))
            }
            (Some(_), None) => Err(NotResolved {
                hint: Some(HINT_ALTERNATES.to_string()),
                alternates: own.iter().take(5).copied().collect(),
            }),
            (_, hint) => Err(NotResolved {
                hint,
                alternates: Vec::new(),
            }),
        }
    }

    fn alternates_json(&self, kind: Kind, alts: &[Scored]) -> Vec<Value> {
        alts.iter()
            .map(|s| {
                let e = self.index.entry(s.entry);
                json!({ "id": e.id, id_key(kind): e.id, "name": e.name, "distinguishing": e.detail, "score": (s.score * 1000.0).round() / 1000.0 })
            })
            .collect()
    }

    /// The raw ranking of a query in one directory, before the confidence cut:
    /// `(id, scored)` of up to `n` records scoring at least [`MIN_SCORE`], best
    /// first (used to measure and choose [`CONFIDENT`]; see [`is_confident`]).
    pub fn candidates(&self, kind: Kind, q: &str, n: usize) -> Vec<(String, Scored)> {
        let (own, _) = self.index.search(q, &[kind], MIN_SCORE);
        own.iter()
            .take(n)
            .map(|s| (self.index.entry(s.entry).id.clone(), *s))
            .collect()
    }

    /// Look up one record: by canonical id (exact) or by name.
    pub fn lookup(&self, kind: Kind, what: Lookup<'_>) -> Result<Outcome, DirectoryError> {
        let (id, alts, query) = match what {
            Lookup::Id(id) => match self.index.by_id(kind, id) {
                Some(e) => (e.id.clone(), Vec::new(), id),
                None => {
                    return Ok(Outcome::NotFound {
                        query: id.to_string(),
                        hint: None,
                        alternates: Vec::new(),
                    });
                }
            },
            Lookup::Query(q) => match self.resolve(kind, q) {
                Ok((e, alts)) => (self.index.entry(e).id.clone(), alts, q),
                Err(nr) => {
                    return Ok(Outcome::NotFound {
                        query: q.to_string(),
                        hint: nr.hint,
                        alternates: self.alternates_json(kind, &nr.alternates),
                    })
                }
            },
        };
        let Some(mut profile) = self.with_conn(|c| store::profile(c, kind, &id))? else {
            return Ok(Outcome::NotFound {
                query: query.to_string(),
                hint: None,
                alternates: Vec::new(),
            });
        };
        let alternates = self.alternates_json(kind, &alts);
        if let Value::Object(m) = &mut profile {
            m.insert("alternates".into(), json!(alternates));
            match kind {
                Kind::Person => self.add_lineage(&id, m)?,
                Kind::Diocese => self.add_figures(&id, m)?,
                _ => {}
            }
        }
        Ok(Outcome::Found(profile))
    }

    fn add_lineage(&self, id: &str, m: &mut Map<String, Value>) -> Result<(), DirectoryError> {
        let (up, down) =
            self.with_conn(|c| Ok((store::consecrators(c, id)?, store::consecrated_by(c, id)?)))?;
        let up: Vec<Value> = up
            .iter()
            .map(|e| json!({"person_id": e.consecrator_id, "name": e.consecrator_name, "role": e.role, "date": e.date}))
            .collect();
        let down: Vec<Value> = down
            .iter()
            .map(|e| {
                let name = self
                    .index
                    .by_id(Kind::Person, &e.consecrated_id)
                    .map(|p| p.name.clone());
                json!({"person_id": e.consecrated_id, "name": name, "role": e.role, "date": e.date})
            })
            .collect();
        m.insert("consecrators".into(), json!(up));
        m.insert("consecrated".into(), json!(down));
        Ok(())
    }

    fn add_figures(&self, code: &str, m: &mut Map<String, Value>) -> Result<(), DirectoryError> {
        let (rows, fin) = self.with_conn(|c| {
            Ok((
                store::statistics(c, code, None, None)?,
                store::latest_financials(c, code)?,
            ))
        })?;
        let recent: Vec<Value> = rows
            .iter()
            .rev()
            .take(5)
            .map(|r| {
                let mut o = Map::new();
                o.insert("year".into(), json!(r.year));
                for h in HEADLINE {
                    let i = store::METRICS.iter().position(|x| *x == h).unwrap_or(0);
                    o.insert(h.into(), num(r.values[i]));
                }
                Value::Object(o)
            })
            .collect();
        m.insert("recent_statistics".into(), json!(recent));
        let fin = fin.map(|f| {
            let mut o = Map::new();
            o.insert("fiscal_year".into(), json!(f.fiscal_year));
            o.insert("currency".into(), json!(f.currency));
            for (i, k) in store::FINANCIALS.iter().enumerate() {
                o.insert((*k).into(), num(f.values[i]));
            }
            o.insert("source".into(), json!(f.source));
            Value::Object(o)
        });
        m.insert("latest_financials".into(), fin.unwrap_or(Value::Null));
        Ok(())
    }

    /// A diocese's yearly statistics, all 19 metrics, years in `[start, end]`.
    pub fn statistics_series(
        &self,
        what: Lookup<'_>,
        start: Option<i64>,
        end: Option<i64>,
    ) -> Result<Outcome, DirectoryError> {
        if let (Some(s), Some(e)) = (start, end) {
            if s > e {
                return Err(DirectoryError::InvalidInput(format!(
                    "start_year {s} is after end_year {e}"
                )));
            }
        }
        let (code, name) = match what {
            Lookup::Id(id) => match self.index.by_id(Kind::Diocese, id) {
                Some(e) => (e.id.clone(), e.name.clone()),
                None => {
                    return Ok(Outcome::NotFound {
                        query: id.to_string(),
                        hint: None,
                        alternates: Vec::new(),
                    })
                }
            },
            Lookup::Query(q) => match self.resolve(Kind::Diocese, q) {
                Ok((e, _)) => (
                    self.index.entry(e).id.clone(),
                    self.index.entry(e).name.clone(),
                ),
                Err(nr) => {
                    return Ok(Outcome::NotFound {
                        query: q.to_string(),
                        hint: nr.hint,
                        alternates: self.alternates_json(Kind::Diocese, &nr.alternates),
                    })
                }
            },
        };
        let rows = self.with_conn(|c| store::statistics(c, &code, start, end))?;
        let first = rows.first().map(|r| r.year);
        let last = rows.last().map(|r| r.year);
        let out: Vec<Value> = rows
            .iter()
            .map(|r| {
                let mut o = Map::new();
                o.insert("year".into(), json!(r.year));
                for (i, k) in store::METRICS.iter().enumerate() {
                    o.insert((*k).into(), num(r.values[i]));
                }
                o.insert("source".into(), json!(r.source));
                Value::Object(o)
            })
            .collect();
        Ok(Outcome::Found(json!({
            "source_code": code,
            "diocese_name": name,
            "year_range": { "start": start.or(first), "end": end.or(last) },
            "rows": out,
        })))
    }

    /// Records per directory.
    pub fn counts(&self) -> Result<Value, DirectoryError> {
        self.with_conn(|c| {
            let s = store::meta(c, "counts")?.unwrap_or_else(|| "{}".into());
            serde_json::from_str(&s).map_err(|e| DirectoryError::Store(e.to_string()))
        })
    }

    /// Every stored profile of a directory (for coverage reports).
    pub fn profiles(&self, kind: Kind) -> Result<Vec<Value>, DirectoryError> {
        self.with_conn(|c| {
            let mut st = c
                .prepare("SELECT profile FROM record WHERE kind = ?1")
                .map_err(|e| DirectoryError::Store(e.to_string()))?;
            let rows = st
                .query_map([kind.as_str()], |r| r.get::<_, String>(0))
                .map_err(|e| DirectoryError::Store(e.to_string()))?;
            let mut out = Vec::new();
            for r in rows {
                let s = r.map_err(|e| DirectoryError::Store(e.to_string()))?;
                out.push(
                    serde_json::from_str(&s).map_err(|e| DirectoryError::Store(e.to_string()))?,
                );
            }
            Ok(out)
        })
    }
}
