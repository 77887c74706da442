//! Transformer passage vectors, computed in the background once the server is
//! up and used by search as they arrive.
//!
//! * [`PassageEmbedder`]: a sentence model — in process
//!   ([`crate::transformer::TransformerEmbedder`], candle) or remote
//!   ([`crate::remote::RemoteEmbedder`], an OpenAI-compatible `/v1/embeddings`).
//! * [`SemanticIndex`]: one quantised vector per passage ordinal, in memory,
//!   filled while the server runs; search scans the rows present.
//! * [`EmbeddingCache`]: vectors by model and SHA-256 of the embedded text, in
//!   a SQLite file beside the store generations, so a re-ingest recomputes
//!   only passages whose text changed.
//! * [`spawn_worker`]: loads what the cache has, then embeds the rest in
//!   priority order (magisterial documents, the catechism, the Summa,
//!   Scripture, the Fathers, the commentaries), on a bounded thread pool.

use crate::binary::SignCodes;
use crate::coverage::Lookup;
use crate::dense::{Indexed, Rows as ScanRows};
use crate::embed::quantize;
use crate::ivf::{Bits, Centres, Ivf, Sample};
use crate::CorpusError;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::{Duration, Instant};

/// A sentence-embedding model for passages and queries.
pub trait PassageEmbedder: Send + Sync {
    /// Names the model and its weights; vectors are cached under it.
    fn model_id(&self) -> &str;
    /// Vector dimension.
    fn dim(&self) -> usize;
    /// One L2-normalised vector per text, in order.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, CorpusError>;

    /// The vector of a search query: a caller is waiting, so a remote model
    /// answers within a short timeout.
    fn embed_query(&self, query: &str) -> Result<Vec<f32>, CorpusError> {
        self.embed(&[query])?
            .pop()
            .ok_or_else(|| CorpusError::Model("no vector for the query".into()))
    }
}

/// After a failed query embedding, searches skip the transformer list for this long.
pub const QUERY_BACKOFF: Duration = Duration::from_secs(30);

/// The text of a passage that is embedded: its heading, then its text.
pub fn passage_text(heading: Option<&str>, text: &str) -> String {
    match heading {
        Some(h) if !h.is_empty() => format!("{h}. {text}"),
        _ => text.to_string(),
    }
}

/// Content hash of an embedded text (the cache key with the model id).
pub fn content_hash(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// What the background embedding is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SemanticState {
    /// Not started yet.
    Pending,
    /// Reading cached vectors.
    LoadingCache,
    /// Computing vectors.
    Embedding,
    /// The last batch failed; retrying after a pause.
    Retrying,
    /// Every embeddable passage has a vector.
    Complete,
    /// Only cached vectors are used (no background computation in this process).
    CacheOnly,
    /// Stopped by an error that retrying cannot fix.
    Failed,
}

/// Progress of the transformer vectors (shown in `/readyz` and the metrics).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SemanticStatus {
    /// Model id (name and weights hash).
    pub model: String,
    /// State.
    pub state: SemanticState,
    /// Passages to embed (English passages; the model is English-only).
    pub passages: u64,
    /// Passages with a vector now.
    pub embedded: u64,
    /// `embedded / passages`.
    pub coverage: f64,
    /// Vectors taken from the cache in this process.
    pub from_cache: u64,
    /// Vectors computed in this process.
    pub computed: u64,
    /// Computation rate, passages per second.
    pub per_second: f64,
    /// Estimated seconds left.
    pub eta_seconds: Option<u64>,
    /// The last error, when there was one.
    pub last_error: Option<String>,
    /// Progress of the priority set (magisterial documents, the catechism,
    /// Scripture, the Summa, the major works of the Fathers), embedded first.
    pub priority: PriorityStatus,
}

/// Progress of the priority set ([`crate::coverage::PrioritySet`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PriorityStatus {
    /// Passages in the set.
    pub passages: u64,
    /// Of them, passages with a vector now.
    pub embedded: u64,
    /// `embedded / passages`.
    pub coverage: f64,
    /// Seconds from the worker's start until every passage of the set had a
    /// vector (`None` until then).
    pub complete_after_seconds: Option<f64>,
}

struct Rows {
    data: Vec<u8>,
    scales: Vec<f32>,
    codes: SignCodes,
    /// The sign codes are re-centred on the rows' mean when this many rows have a vector.
    recentre_at: u64,
    /// The rows that have a vector.
    present: Bits,
    /// The inverted file over the rows, once built ([`SemanticIndex::build_index`]).
    index: Option<RowIndex>,
    /// While an index is being built: the rows inserted since it began (they
    /// join its tail when it is installed).
    building: Option<Vec<u32>>,
}

/// The inverted file and the rows inserted after it was built.
struct RowIndex {
    ivf: Ivf,
    /// Rows not in the lists, or changed since (scored exactly by every search).
    tail: Vec<u32>,
    /// The rows in `tail`.
    queued: Bits,
    /// Rows of the lists whose vector changed (the lists' entry is skipped).
    stale: Bits,
    stale_rows: usize,
    /// Seconds the build took.
    seconds: f64,
}

impl RowIndex {
    /// Row `i` was inserted after the lists were made.
    fn note(&mut self, i: usize) {
        if !self.queued.get(i) {
            self.queued.set(i, true);
            self.tail.push(i as u32);
        }
        if self.ivf.contains(i) && !self.stale.get(i) {
            self.stale.set(i, true);
            self.stale_rows += 1;
        }
    }
}

/// Rows with a vector before the worker builds the inverted file (below
/// this the sign-code pass reads under 2 MB a query).
pub const INDEX_MIN_ROWS: u64 = 32_768;
/// The index is rebuilt once its tail holds more than this many rows and
/// more than a quarter of the rows in its lists.
pub const INDEX_MIN_TAIL: usize = 16_384;
/// Share of the indexed rows whose sign codes a search compares with the
/// query's: the rows of the lists whose centres are nearest it (real
/// vectors, 257 queries: recall@10 of the exact top-10 0.959, top-100
/// 0.810, against 0.978 / 0.801 for the codes of every row, at 40 % of its
/// CPU; see `docs/notes/corpus-measurements.md`, session 5).
pub const PROBE_SHARE: f32 = 0.3;
/// Rows assigned to lists per read of the rows (searches run in between).
const ASSIGN_CHUNK: usize = 8192;

/// What the inverted file over the transformer rows holds (tools, tests).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexInfo {
    /// Lists.
    pub lists: usize,
    /// Rows in the lists.
    pub rows: usize,
    /// Rows with a vector that the lists do not hold yet (scored exactly).
    pub tail: usize,
    /// Seconds the last build took.
    pub build_seconds: f64,
    /// Bytes held (centres, lists, row sets).
    pub bytes: usize,
}

/// Rows with a vector when the sign codes are first centred (then at each doubling).
const FIRST_RECENTRE: u64 = 1024;

struct Meta {
    state: SemanticState,
    last_error: Option<String>,
    /// When computing began (the rate counts from here).
    started: Option<Instant>,
    /// When the worker began (reading the cache).
    worker_started: Option<Instant>,
    /// Seconds from `worker_started` until the priority set was complete.
    priority_done: Option<f64>,
}

/// Transformer vectors of the passages of one corpus store, filled in the background.
pub struct SemanticIndex {
    embedder: Arc<dyn PassageEmbedder>,
    dim: usize,
    rows: RwLock<Rows>,
    meta: Mutex<Meta>,
    passages: AtomicU64,
    embedded: AtomicU64,
    from_cache: AtomicU64,
    computed: AtomicU64,
    priority_passages: AtomicU64,
    priority_embedded: AtomicU64,
    /// Recent query vectors (question answering searches one question
    /// several times; pages of one search repeat it).
    queries: Mutex<std::collections::HashMap<String, Vec<f32>>>,
    /// When a query embedding last failed (a remote model down): searches
    /// do not wait on it again for [`QUERY_BACKOFF`].
    query_failed: Mutex<Option<Instant>>,
    /// [`PROBE_SHARE`] unless changed (f32 bits; 0: searches ignore the index).
    probe_share: AtomicU32,
    /// Lists of the next build (0: [`crate::ivf::lists_for`] the rows).
    index_lists: AtomicUsize,
    /// One index build at a time.
    build: Mutex<()>,
}

/// Query vectors kept before the memo is emptied.
const QUERY_MEMO: usize = 512;

impl std::fmt::Debug for SemanticIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SemanticIndex")
            .field("model", &self.embedder.model_id())
            .field("embedded", &self.embedded.load(Ordering::Relaxed))
            .finish()
    }
}

impl SemanticIndex {
    /// An empty index for a store of `rows` passages.
    pub fn new(embedder: Arc<dyn PassageEmbedder>, rows: u64) -> Arc<Self> {
        let dim = embedder.dim();
        let rows = rows as usize;
        Arc::new(SemanticIndex {
            embedder,
            dim,
            // Zeroed pages are only backed by memory once written.
            rows: RwLock::new(Rows {
                data: vec![0; rows * dim],
                scales: vec![0.0; rows],
                codes: SignCodes::new(rows, dim, Vec::new()),
                recentre_at: FIRST_RECENTRE,
                present: Bits::new(rows),
                index: None,
                building: None,
            }),
            meta: Mutex::new(Meta {
                state: SemanticState::Pending,
                last_error: None,
                started: None,
                worker_started: None,
                priority_done: None,
            }),
            passages: AtomicU64::new(0),
            embedded: AtomicU64::new(0),
            from_cache: AtomicU64::new(0),
            computed: AtomicU64::new(0),
            priority_passages: AtomicU64::new(0),
            priority_embedded: AtomicU64::new(0),
            queries: Mutex::new(Default::default()),
            query_failed: Mutex::new(None),
            probe_share: AtomicU32::new(PROBE_SHARE.to_bits()),
            index_lists: AtomicUsize::new(0),
            build: Mutex::new(()),
        })
    }

    /// The model.
    pub fn embedder(&self) -> &Arc<dyn PassageEmbedder> {
        &self.embedder
    }

    /// Vector dimension.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Passages with a vector.
    pub fn embedded(&self) -> u64 {
        self.embedded.load(Ordering::Relaxed)
    }

    fn set_state(&self, state: SemanticState, error: Option<String>) {
        let mut m = self.meta.lock().unwrap_or_else(|p| p.into_inner());
        if state == SemanticState::Embedding && m.started.is_none() {
            m.started = Some(Instant::now());
        }
        m.state = state;
        if error.is_some() {
            m.last_error = error;
        }
    }

    /// Count `n` more passages of the priority set with a vector; the
    /// moment the set is complete is kept for the status.
    fn add_priority(&self, n: u64) {
        let done = self.priority_embedded.fetch_add(n, Ordering::Relaxed) + n;
        if done < self.priority_passages.load(Ordering::Relaxed) {
            return;
        }
        let mut m = self.meta.lock().unwrap_or_else(|p| p.into_inner());
        if m.priority_done.is_none() {
            let secs = m.worker_started.map_or(0.0, |t| t.elapsed().as_secs_f64());
            m.priority_done = Some((secs * 10.0).round() / 10.0);
            tracing::info!(
                "semantic vectors: the priority set ({done} passages) is complete, {secs:.0} s after the worker started"
            );
        }
    }

    /// Store quantised vectors by passage ordinal (ordinals out of range are ignored).
    pub fn insert(&self, items: &[(u64, Vec<i8>, f32)]) {
        let mut rows = self.rows.write().unwrap_or_else(|p| p.into_inner());
        let mut added = 0;
        for (ord, q, scale) in items {
            let i = *ord as usize;
            if i >= rows.scales.len() || q.len() != self.dim {
                continue;
            }
            if rows.scales[i] == 0.0 && *scale != 0.0 {
                added += 1;
            }
            for (d, x) in rows.data[i * self.dim..(i + 1) * self.dim]
                .iter_mut()
                .zip(q)
            {
                *d = *x as u8;
            }
            rows.scales[i] = *scale;
            rows.present.set(i, *scale != 0.0);
            let Rows {
                data,
                codes,
                index,
                building,
                ..
            } = &mut *rows;
            codes.set_row(i, &data[i * self.dim..(i + 1) * self.dim], *scale);
            if let Some(log) = building {
                log.push(i as u32);
            }
            if let Some(ix) = index {
                ix.note(i);
            }
        }
        let embedded = self.embedded.fetch_add(added, Ordering::Relaxed) + added;
        if embedded >= rows.recentre_at {
            // The sign codes split best around the rows' mean, which moves
            // while the rows arrive: rebuild them at each doubling.
            rows.codes = SignCodes::from_rows(&rows.data, &rows.scales, self.dim);
            rows.recentre_at = embedded.saturating_mul(2);
        }
    }

    /// Read the rows: `(vectors, scales, sign codes)`, vectors as i8 bit
    /// patterns, `dim` per row; a zero scale means "no vector yet".
    pub fn with_rows<R>(&self, f: impl FnOnce(&[u8], &[f32], &SignCodes) -> R) -> R {
        let rows = self.rows.read().unwrap_or_else(|p| p.into_inner());
        f(&rows.data, &rows.scales, &rows.codes)
    }

    /// The rows as a vector scan reads them, with the inverted file when
    /// one is built (and the probe share is not 0).
    pub(crate) fn scan<R>(&self, f: impl FnOnce(&ScanRows<'_>) -> R) -> R {
        let rows = self.rows.read().unwrap_or_else(|p| p.into_inner());
        let share = self.probe_share();
        let index = rows
            .index
            .as_ref()
            .filter(|_| share > 0.0)
            .map(|ix| Indexed {
                ivf: &ix.ivf,
                tail: &ix.tail,
                stale: (ix.stale_rows > 0).then_some(&ix.stale),
                present: &rows.present,
                probe_share: share,
            });
        f(&ScanRows {
            vectors: &rows.data,
            scales: &rows.scales,
            dim: self.dim,
            codes: Some(&rows.codes),
            index,
        })
    }

    /// Share of the indexed rows a search scores.
    pub fn probe_share(&self) -> f32 {
        f32::from_bits(self.probe_share.load(Ordering::Relaxed))
    }

    /// Change the share of the indexed rows a search scores (clamped to
    /// 0…1; 0: searches use the sign codes, as before the index is built).
    pub fn set_probe_share(&self, share: f32) {
        let share = if share.is_finite() {
            share.clamp(0.0, 1.0)
        } else {
            PROBE_SHARE
        };
        self.probe_share.store(share.to_bits(), Ordering::Relaxed);
    }

    /// Lists of the next build (0: about twice the square root of the rows).
    pub fn set_index_lists(&self, lists: usize) {
        self.index_lists.store(lists, Ordering::Relaxed);
    }

    /// What the inverted file holds, once built.
    pub fn index_info(&self) -> Option<IndexInfo> {
        let rows = self.rows.read().unwrap_or_else(|p| p.into_inner());
        rows.index.as_ref().map(|ix| IndexInfo {
            lists: ix.ivf.centres().lists(),
            rows: ix.ivf.rows(),
            tail: ix.tail.len(),
            build_seconds: ix.seconds,
            bytes: ix.ivf.bytes() + ix.queued.words().len() * 8 * 2 + ix.tail.len() * 4,
        })
    }

    /// Build the inverted file when the rows have outgrown what there is: at
    /// least [`INDEX_MIN_ROWS`] rows with a vector and no index yet, or a
    /// tail of more than [`INDEX_MIN_TAIL`] rows and a quarter of the
    /// index. The background worker calls it between batches. True when it built one.
    pub fn index_if_needed(&self) -> bool {
        if self.embedded() < INDEX_MIN_ROWS {
            return false;
        }
        let needed = {
            let rows = self.rows.read().unwrap_or_else(|p| p.into_inner());
            match &rows.index {
                None => true,
                Some(ix) => ix.tail.len() > INDEX_MIN_TAIL.max(ix.ivf.rows() / 4),
            }
        };
        needed && self.build_index()
    }

    /// Build the inverted file over the rows that have a vector now
    /// (searches go on meanwhile: the rows are read in chunks; rows inserted
    /// during the build join the new index's tail). False when no row has a vector.
    pub fn build_index(&self) -> bool {
        let _one = self.build.lock().unwrap_or_else(|p| p.into_inner());
        let t0 = Instant::now();
        let dim = self.dim;
        let (present, sample_bytes, sample_scales, capacity, centre) = {
            let mut rows = self.rows.write().unwrap_or_else(|p| p.into_inner());
            let present: Vec<u32> = ones(&rows.present).collect();
            if present.is_empty() {
                return false;
            }
            rows.building = Some(Vec::new());
            let lists = self.lists_for(present.len());
            let step = present
                .len()
                .div_ceil(lists * crate::ivf::SAMPLE_PER_LIST)
                .max(1);
            let mut bytes = Vec::with_capacity(present.len() / step * dim + dim);
            let mut scales = Vec::with_capacity(present.len() / step + 1);
            for &o in present.iter().step_by(step) {
                let o = o as usize;
                bytes.extend_from_slice(&rows.data[o * dim..(o + 1) * dim]);
                scales.push(rows.scales[o]);
            }
            // The live codes' centre: the rows' mean at the last doubling.
            let centre = rows.codes.centre().to_vec();
            (present, bytes, scales, rows.scales.len(), centre)
        };
        let sample = Sample {
            bytes: &sample_bytes,
            scales: &sample_scales,
            dim,
        };
        let centres = Centres::train(&sample, self.lists_for(present.len()), 0x5eed);
        drop((sample_bytes, sample_scales));
        let mut assigned: Vec<(u32, u32)> = Vec::with_capacity(present.len());
        let mut codes = SignCodes::new(present.len(), dim, centre);
        for chunk in present.chunks(ASSIGN_CHUNK) {
            let rows = self.rows.read().unwrap_or_else(|p| p.into_inner());
            for &o in chunk {
                let i = o as usize;
                let (row, scale) = (&rows.data[i * dim..(i + 1) * dim], rows.scales[i]);
                if scale != 0.0 {
                    codes.set_row(assigned.len(), row, scale);
                    assigned.push((o, centres.assign(row)));
                }
            }
        }
        let ivf = Ivf::new(centres, &assigned, &codes, dim, capacity);
        drop(codes);
        let (lists, indexed) = (ivf.centres().lists(), ivf.rows());
        let mut rows = self.rows.write().unwrap_or_else(|p| p.into_inner());
        let mut ix = RowIndex {
            ivf,
            tail: Vec::new(),
            queued: Bits::new(capacity),
            stale: Bits::new(capacity),
            stale_rows: 0,
            seconds: t0.elapsed().as_secs_f64(),
        };
        for i in rows.building.take().unwrap_or_default() {
            ix.note(i as usize);
        }
        let tail = ix.tail.len();
        rows.index = Some(ix);
        drop(rows);
        tracing::info!(
            "semantic vectors: inverted file of {lists} lists over {indexed} rows built in {:.1} s ({tail} rows arrived meanwhile)",
            t0.elapsed().as_secs_f64()
        );
        true
    }

    fn lists_for(&self, rows: usize) -> usize {
        match self.index_lists.load(Ordering::Relaxed) {
            0 => crate::ivf::lists_for(rows),
            n => n,
        }
    }

    /// The query's vector, or `None` when no passage has a vector yet or the model fails.
    pub fn query_vector(&self, query: &str) -> Option<Vec<f32>> {
        if self.embedded() == 0 || query.trim().is_empty() {
            return None;
        }
        let memo = || self.queries.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = memo().get(query) {
            return Some(v.clone());
        }
        let failed = || self.query_failed.lock().unwrap_or_else(|p| p.into_inner());
        if failed().is_some_and(|t| t.elapsed() < QUERY_BACKOFF) {
            return None;
        }
        match self.embedder.embed_query(query) {
            Ok(v) if v.len() == self.dim => {
                *failed() = None;
                let mut m = memo();
                if m.len() >= QUERY_MEMO {
                    m.clear();
                }
                m.insert(query.to_string(), v.clone());
                Some(v)
            }
            Ok(_) => {
                tracing::warn!("semantic search: the model returned a malformed query vector");
                *failed() = Some(Instant::now());
                None
            }
            Err(e) => {
                tracing::warn!(
                    "semantic search: query not embedded ({e}); searches skip the transformer list for {} s",
                    QUERY_BACKOFF.as_secs()
                );
                *failed() = Some(Instant::now());
                None
            }
        }
    }

    /// Progress.
    pub fn status(&self) -> SemanticStatus {
        let m = self.meta.lock().unwrap_or_else(|p| p.into_inner());
        let passages = self.passages.load(Ordering::Relaxed);
        let embedded = self.embedded();
        let computed = self.computed.load(Ordering::Relaxed);
        let per_second = match m.started {
            Some(t) if computed > 0 => computed as f64 / t.elapsed().as_secs_f64().max(1e-3),
            _ => 0.0,
        };
        let left = passages.saturating_sub(embedded);
        let eta_seconds = (per_second > 0.0
            && matches!(m.state, SemanticState::Embedding | SemanticState::Retrying))
        .then(|| (left as f64 / per_second).round() as u64);
        SemanticStatus {
            model: self.embedder.model_id().to_string(),
            state: m.state,
            passages,
            embedded,
            coverage: if passages == 0 {
                0.0
            } else {
                (embedded as f64 / passages as f64).min(1.0)
            },
            from_cache: self.from_cache.load(Ordering::Relaxed),
            computed,
            per_second: (per_second * 10.0).round() / 10.0,
            eta_seconds,
            last_error: m.last_error.clone(),
            priority: {
                let passages = self.priority_passages.load(Ordering::Relaxed);
                let embedded = self.priority_embedded.load(Ordering::Relaxed).min(passages);
                PriorityStatus {
                    passages,
                    embedded,
                    coverage: if passages == 0 {
                        0.0
                    } else {
                        embedded as f64 / passages as f64
                    },
                    complete_after_seconds: m.priority_done,
                }
            },
        }
    }
}

/// Vectors by model id and content hash, in a SQLite file shared by store generations.
pub struct EmbeddingCache {
    conn: Connection,
    model: i64,
    dim: usize,
}

impl EmbeddingCache {
    /// Open (creating when needed) the cache file for `model_id` vectors of `dim`.
    pub fn open(path: &Path, model_id: &str, dim: usize) -> Result<Self, CorpusError> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| CorpusError::Io(format!("{}: {e}", parent.display())))?;
        }
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(10))?;
        conn.execute_batch(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
             CREATE TABLE IF NOT EXISTS models(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, dim INTEGER NOT NULL);
             CREATE TABLE IF NOT EXISTS vectors(model INTEGER NOT NULL, hash BLOB NOT NULL, scale REAL NOT NULL, vec BLOB NOT NULL,
               PRIMARY KEY(model, hash)) WITHOUT ROWID;",
        )?;
        conn.execute(
            "INSERT OR IGNORE INTO models(name, dim) VALUES (?1, ?2)",
            params![model_id, dim as i64],
        )?;
        let (model, stored_dim): (i64, i64) = conn.query_row(
            "SELECT id, dim FROM models WHERE name = ?1",
            params![model_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if stored_dim as usize != dim {
            return Err(CorpusError::Model(format!(
                "{}: cached vectors of {model_id} have {stored_dim} dimensions, the model gives {dim}",
                path.display()
            )));
        }
        Ok(EmbeddingCache { conn, model, dim })
    }

    /// The cached vector of a text hash.
    pub fn get(&self, hash: &[u8; 32]) -> Result<Option<(Vec<i8>, f32)>, CorpusError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT scale, vec FROM vectors WHERE model = ?1 AND hash = ?2")?;
        let row: Option<(f64, Vec<u8>)> = st
            .query_row(params![self.model, &hash[..]], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        Ok(row
            .filter(|(_, v)| v.len() == self.dim)
            .map(|(s, v)| (v.into_iter().map(|b| b as i8).collect(), s as f32)))
    }

    /// Store vectors (one transaction).
    pub fn put_many(&mut self, items: &[([u8; 32], &[i8], f32)]) -> Result<(), CorpusError> {
        let tx = self.conn.transaction()?;
        {
            let mut st = tx.prepare_cached(
                "INSERT OR REPLACE INTO vectors(model, hash, scale, vec) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (hash, q, scale) in items {
                let bytes: Vec<u8> = q.iter().map(|x| *x as u8).collect();
                st.execute(params![self.model, &hash[..], *scale as f64, bytes])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Vectors cached for this model.
    pub fn len(&self) -> Result<u64, CorpusError> {
        Ok(self.conn.query_row(
            "SELECT count(*) FROM vectors WHERE model = ?1",
            params![self.model],
            |r| r.get::<_, i64>(0),
        )? as u64)
    }

    /// True when nothing is cached for this model.
    pub fn is_empty(&self) -> Result<bool, CorpusError> {
        Ok(self.len()? == 0)
    }
}

/// The ONNX Runtime library beside the models when `ORT_DYLIB_PATH` is not
/// set (where `scripts/fetch-ort.sh` puts it, under the models folder).
pub const ORT_LIBRARY_FILE: &str = "onnxruntime/libonnxruntime.so.1.32.0";

/// The sentence model in a local folder: ONNX Runtime when it holds
/// `model.onnx` (the library from `ORT_DYLIB_PATH`, else
/// [`ORT_LIBRARY_FILE`] beside the folder), else candle; `max_seq` word
/// pieces per passage (the window is part of the model id).
pub fn load_local_model(
    dir: &Path,
    threads: usize,
    max_seq: usize,
) -> Result<Arc<dyn PassageEmbedder>, CorpusError> {
    #[cfg(feature = "ort")]
    if dir.join("model.onnx").is_file() {
        let library = std::env::var_os("ORT_DYLIB_PATH")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                dir.parent()
                    .unwrap_or(Path::new("."))
                    .join(ORT_LIBRARY_FILE)
            });
        return Ok(Arc::new(crate::OnnxEmbedder::load(crate::OnnxConfig {
            model_dir: dir.to_path_buf(),
            library,
            threads,
            max_seq,
        })?));
    }
    #[cfg(feature = "transformer")]
    {
        let _ = threads;
        Ok(Arc::new(
            crate::TransformerEmbedder::load(dir, Default::default())?.with_max_seq(max_seq)?,
        ))
    }
    #[cfg(not(feature = "transformer"))]
    {
        let _ = (threads, max_seq);
        Err(CorpusError::Model(format!(
            "{}: no model this build can run (features `ort`, `transformer`)",
            dir.display()
        )))
    }
}

/// Attach to `corpus` the vectors that `cache` holds for `embedder`,
/// computing nothing (evaluations and one-shot tools); the status after
/// loading says how many passages have one.
pub fn attach_cached(
    corpus: &mut crate::Corpus,
    embedder: Arc<dyn PassageEmbedder>,
    cache: &Path,
) -> Result<SemanticStatus, CorpusError> {
    if !cache.is_file() {
        return Err(CorpusError::Io(format!(
            "{}: no vector cache there",
            cache.display()
        )));
    }
    let index = SemanticIndex::new(embedder, corpus.passage_count());
    let opts = WorkerOptions {
        cache: Some(cache.to_path_buf()),
        compute: false,
        ..Default::default()
    };
    run_worker(&Arc::downgrade(&index), &corpus.database_path(), &opts)?;
    let status = index.status();
    if let Some(e) = &status.last_error {
        return Err(CorpusError::Model(e.clone()));
    }
    corpus.attach_semantic(index);
    Ok(status)
}

/// How the background worker runs.
#[derive(Debug, Clone)]
pub struct WorkerOptions {
    /// The vector cache file (`None`: no cache).
    pub cache: Option<PathBuf>,
    /// Compute missing vectors (`false`: load the cache only).
    pub compute: bool,
    /// Texts per model call.
    pub batch: usize,
    /// Threads for the model (the rest of the machine keeps serving).
    pub threads: usize,
    /// First pause after a failed batch (doubling up to five minutes).
    pub retry: Duration,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        WorkerOptions {
            cache: None,
            compute: true,
            batch: 32,
            threads: 1,
            retry: Duration::from_secs(5),
        }
    }
}

/// Passage ordinal ranges `(first, count)` of the English documents of a
/// store, in embedding order ([`crate::coverage::embedding_order`]: the
/// priority set first).
pub fn english_ranges(conn: &Connection) -> Result<Vec<(u64, u64)>, CorpusError> {
    Ok(crate::coverage::embedding_order(conn)?
        .into_iter()
        .map(|(first, count, _)| (first, count))
        .collect())
}

/// Start the background worker for `index` over the store database `corpus_db`.
/// It stops by itself when the index is dropped.
pub fn spawn_worker(
    index: &Arc<SemanticIndex>,
    corpus_db: PathBuf,
    opts: WorkerOptions,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    let weak = Arc::downgrade(index);
    std::thread::Builder::new()
        .name("embeddings".into())
        .spawn(move || {
            if let Err(e) = run_worker(&weak, &corpus_db, &opts) {
                tracing::error!("semantic vectors: {e}");
                if let Some(ix) = weak.upgrade() {
                    ix.set_state(SemanticState::Failed, Some(e.to_string()));
                }
            }
        })
}

/// Run the worker on this thread (what [`spawn_worker`] runs).
pub fn run_worker(
    weak: &Weak<SemanticIndex>,
    corpus_db: &Path,
    opts: &WorkerOptions,
) -> Result<(), CorpusError> {
    let Some(ix) = weak.upgrade() else {
        return Ok(());
    };
    ix.set_state(SemanticState::LoadingCache, None);
    ix.meta
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .worker_started = Some(Instant::now());
    let conn = Connection::open_with_flags(
        corpus_db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let order = crate::coverage::embedding_order(&conn)?;
    let priority = crate::coverage::PrioritySet::from_order(&order);
    let total: u64 = order.iter().map(|r| r.1).sum();
    ix.passages.store(total, Ordering::Relaxed);
    ix.priority_passages
        .store(priority.passages(), Ordering::Relaxed);
    let model_id = ix.embedder.model_id().to_string();
    let mut cache = match &opts.cache {
        Some(p) => match EmbeddingCache::open(p, &model_id, ix.dim) {
            Ok(c) => Some(c),
            Err(e) => {
                tracing::warn!(
                    "semantic vectors: no cache ({e}); vectors will not outlive this process"
                );
                ix.set_state(SemanticState::LoadingCache, Some(e.to_string()));
                None
            }
        },
        None => None,
    };
    let t0 = Instant::now();
    drop(ix);

    // Pass 1: what the cache has; of the rest, one passage per group of
    // near-duplicates is computed and its vector shared (`followers`).
    let mut found: Vec<(u64, Vec<i8>, f32)> = Vec::new();
    let flush = |found: &mut Vec<(u64, Vec<i8>, f32)>| -> bool {
        let Some(ix) = weak.upgrade() else {
            return false;
        };
        let in_priority = found.iter().filter(|f| priority.contains(f.0)).count();
        ix.from_cache
            .fetch_add(found.len() as u64, Ordering::Relaxed);
        ix.insert(found);
        ix.add_priority(in_priority as u64);
        found.clear();
        true
    };
    let planned = crate::coverage::plan(&conn, &order, |ord, text| {
        let hit = match &cache {
            Some(c) => c.get(&content_hash(text))?,
            None => None,
        };
        Ok(match hit {
            Some((q, s)) => {
                found.push((ord, q, s));
                if found.len() >= 4096 && !flush(&mut found) {
                    Lookup::Stop
                } else {
                    Lookup::Cached
                }
            }
            None => Lookup::Missing,
        })
    })?;
    let Some(plan) = planned else {
        return Ok(());
    };
    if !flush(&mut found) {
        return Ok(());
    }
    let crate::coverage::Plan {
        compute: missing,
        followers,
        ..
    } = plan;
    let Some(ix) = weak.upgrade() else {
        return Ok(());
    };
    ix.index_if_needed();
    let shared: usize = followers.values().map(Vec::len).sum();
    if priority.passages() == 0 {
        ix.add_priority(0);
    }
    tracing::info!(
        "semantic vectors ({model_id}): {} of {total} passages from the cache in {:.1} s, {} to compute, {shared} sharing their vector",
        ix.embedded(),
        t0.elapsed().as_secs_f64(),
        missing.len()
    );
    if missing.is_empty() {
        ix.set_state(SemanticState::Complete, None);
        return Ok(());
    }
    if !opts.compute {
        ix.set_state(SemanticState::CacheOnly, None);
        return Ok(());
    }
    ix.set_state(SemanticState::Embedding, None);
    drop(ix);

    // Pass 2: compute the rest, in priority order.
    lower_priority();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .thread_name(|i| format!("embeddings-{i}"))
        .start_handler(|_| lower_priority())
        .build()
        .map_err(|e| CorpusError::Model(format!("thread pool: {e}")))?;
    let mut st = conn.prepare_cached("SELECT heading, text FROM passages WHERE ord = ?1")?;
    let mut backoff = opts.retry;
    for chunk in missing.chunks(opts.batch.max(1)) {
        let mut texts = Vec::with_capacity(chunk.len());
        for &ord in chunk {
            let (heading, text): (Option<String>, String) =
                st.query_row(params![ord as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
            texts.push(passage_text(heading.as_deref(), &text));
        }
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        loop {
            let Some(ix) = weak.upgrade() else {
                return Ok(());
            };
            match pool.install(|| ix.embedder.embed(&refs)) {
                Ok(vs) if vs.len() == refs.len() && vs.iter().all(|v| v.len() == ix.dim) => {
                    let mut items: Vec<(u64, Vec<i8>, f32)> = chunk
                        .iter()
                        .zip(&vs)
                        .map(|(&ord, v)| {
                            let (q, s) = quantize(v);
                            (ord, q, s)
                        })
                        .collect();
                    let mut hashes: Vec<[u8; 32]> = texts.iter().map(|t| content_hash(t)).collect();
                    for i in 0..chunk.len() {
                        for &f in followers.get(&chunk[i]).map(Vec::as_slice).unwrap_or(&[]) {
                            let (heading, text): (Option<String>, String) =
                                st.query_row(params![f as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
                            hashes.push(content_hash(&passage_text(heading.as_deref(), &text)));
                            let (q, s) = (items[i].1.clone(), items[i].2);
                            items.push((f, q, s));
                        }
                    }
                    if let Some(c) = &mut cache {
                        let rows: Vec<([u8; 32], &[i8], f32)> = hashes
                            .iter()
                            .zip(&items)
                            .map(|(h, (_, q, s))| (*h, q.as_slice(), *s))
                            .collect();
                        if let Err(e) = c.put_many(&rows) {
                            tracing::warn!("semantic vectors: cache write failed: {e}");
                        }
                    }
                    ix.insert(&items);
                    ix.index_if_needed();
                    ix.computed.fetch_add(items.len() as u64, Ordering::Relaxed);
                    ix.add_priority(
                        items.iter().filter(|it| priority.contains(it.0)).count() as u64
                    );
                    if ix.meta.lock().map(|m| m.state).ok() == Some(SemanticState::Retrying) {
                        ix.set_state(SemanticState::Embedding, None);
                    }
                    backoff = opts.retry;
                    break;
                }
                Ok(_) => {
                    ix.set_state(
                        SemanticState::Failed,
                        Some("the model returned the wrong number or size of vectors".into()),
                    );
                    return Ok(());
                }
                Err(e) => {
                    tracing::warn!(
                        "semantic vectors: batch failed, retrying in {} s: {e}",
                        backoff.as_secs()
                    );
                    ix.set_state(SemanticState::Retrying, Some(e.to_string()));
                    drop(ix);
                    sleep_unless_dropped(weak, backoff);
                    backoff = (backoff * 2).min(Duration::from_secs(300));
                }
            }
        }
    }
    if let Some(ix) = weak.upgrade() {
        let s = ix.status();
        tracing::info!(
            "semantic vectors ({model_id}): complete, {} computed at {:.1} passages/s",
            s.computed,
            s.per_second
        );
        ix.set_state(SemanticState::Complete, None);
    }
    Ok(())
}

/// The ordinals in a set, ascending.
fn ones(bits: &Bits) -> impl Iterator<Item = u32> + '_ {
    bits.words().iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros();
                w &= w - 1;
                (i * 64) as u32 + b
            })
        })
    })
}

fn sleep_unless_dropped(weak: &Weak<SemanticIndex>, d: Duration) {
    let end = Instant::now() + d;
    while Instant::now() < end {
        if weak.strong_count() == 0 {
            return;
        }
        std::thread::sleep(Duration::from_millis(200).min(end - Instant::now()));
    }
}

/// Run the calling thread at a lower CPU priority (nice 10) so that requests
/// win over the background computation.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority has no memory effects; on Linux, PRIO_PROCESS with
    // who = 0 applies to the calling thread only.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::{top_cosine, Span};

    /// A model that is never asked for vectors (the tests insert rows).
    struct Fixed;

    impl PassageEmbedder for Fixed {
        fn model_id(&self) -> &str {
            "fixed"
        }
        fn dim(&self) -> usize {
            16
        }
        fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, CorpusError> {
            Ok(texts.iter().map(|_| vec![0.25; 16]).collect())
        }
    }

    /// Row `i`: a pseudo-random unit vector of its own.
    fn row(i: u64) -> (u64, Vec<i8>, f32) {
        let mut seed = (i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let v: Vec<f32> = (0..16)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed % 2001) as f32 / 1000.0 - 1.0
            })
            .collect();
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        let (q, s) = quantize(&v.iter().map(|x| x / norm).collect::<Vec<_>>());
        (i, q, s)
    }

    fn nearest(ix: &SemanticIndex, q: &[i8], rows: u64) -> Vec<(u64, f32)> {
        let qv: Vec<f32> = q.iter().map(|&x| x as f32).collect();
        let spans = std::iter::once(Span {
            first_ord: 0,
            count: rows,
            english: true,
        });
        ix.scan(|r| top_cosine(r, &qv, 5, 10, spans)).hits
    }

    #[test]
    fn rows_inserted_after_the_build_are_found_and_counted_once() {
        let n = 5_000u64;
        let ix = SemanticIndex::new(Arc::new(Fixed), n);
        let first: Vec<_> = (0..4_000).map(row).collect();
        ix.insert(&first);
        assert!(!ix.index_if_needed(), "too few rows for an index");
        assert!(ix.index_info().is_none());
        ix.set_index_lists(16);
        assert!(ix.build_index());
        let info = ix.index_info().expect("built");
        assert_eq!((info.lists, info.rows, info.tail), (16, 4_000, 0));
        // New rows and one changed row join the tail.
        let later: Vec<_> = (4_000..4_100).map(row).collect();
        ix.insert(&later);
        let (_, q, s) = row(3);
        let changed = (7u64, q.clone(), s);
        ix.insert(&[changed]);
        assert_eq!(ix.index_info().map(|i| i.tail), Some(101));
        let (_, q4050, _) = row(4_050);
        let hits = nearest(&ix, &q4050, n);
        assert_eq!(hits[0].0, 4_050);
        // Row 7 now has row 3's vector: both rank first for it, each once.
        let hits = nearest(&ix, &q, n);
        let mut top: Vec<u64> = hits.iter().take(2).map(|h| h.0).collect();
        top.sort_unstable();
        assert_eq!(top, vec![3, 7]);
        let mut ords: Vec<u64> = hits.iter().map(|h| h.0).collect();
        ords.dedup();
        assert_eq!(ords.len(), hits.len());
        // A rebuild takes the tail in.
        assert!(ix.build_index());
        let info = ix.index_info().expect("built");
        assert_eq!((info.rows, info.tail), (4_100, 0));
        assert_eq!(nearest(&ix, &q4050, n)[0].0, 4_050);
        // Probe share 0: the sign codes, same nearest row.
        ix.set_probe_share(0.0);
        assert_eq!(ix.probe_share(), 0.0);
        assert_eq!(nearest(&ix, &q4050, n)[0].0, 4_050);
        ix.set_probe_share(f32::NAN);
        assert_eq!(ix.probe_share(), PROBE_SHARE);
    }

    #[test]
    fn an_index_of_nothing_is_not_built() {
        let ix = SemanticIndex::new(Arc::new(Fixed), 10);
        assert!(!ix.build_index());
        assert!(ix.index_info().is_none());
    }
}
