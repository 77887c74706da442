//! The on-disk store: `corpus.sqlite` (documents and passages), `tantivy/`
//! (BM25 over passages) and `vectors.i8` + `vectors.scale` (one quantised
//! static embedding per passage, row = passage ordinal).

use crate::embed::{quantize, StaticEmbedder};
use crate::lexical::{self, Fields};
use crate::model::{Document, DocumentMeta};
use crate::CorpusError;
use rusqlite::{params, Connection};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use tantivy::{doc, Index, IndexWriter, TantivyDocument};

/// SQLite file name in the store.
pub const DB_FILE: &str = "corpus.sqlite";
/// tantivy directory in the store.
pub const INDEX_DIR: &str = "tantivy";
/// Quantised vectors (i8, `dim` bytes per passage).
pub const VEC_FILE: &str = "vectors.i8";
/// Per-row scales (f32 little endian).
pub const SCALE_FILE: &str = "vectors.scale";
/// Documents larger than this are split into linked parts.
pub const SPLIT_DOC_CHARS: usize = 400_000;

pub(crate) const SCHEMA_SQL: &str = "
CREATE TABLE documents(
  idx INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL, author TEXT, date TEXT,
  year INTEGER, type TEXT NOT NULL, language TEXT NOT NULL, source_url TEXT, dataset TEXT NOT NULL,
  licence TEXT NOT NULL, parent_id TEXT, metadata_only INTEGER NOT NULL, machine_translated INTEGER NOT NULL,
  magisterial INTEGER NOT NULL, extra TEXT, passage_count INTEGER NOT NULL, chars INTEGER NOT NULL,
  first_ord INTEGER NOT NULL);
CREATE TABLE passages(
  ord INTEGER PRIMARY KEY, doc_idx INTEGER NOT NULL, idx INTEGER NOT NULL, reference TEXT NOT NULL,
  heading TEXT, kind TEXT NOT NULL, text TEXT NOT NULL, url TEXT);
CREATE TABLE info(key TEXT PRIMARY KEY, value TEXT NOT NULL);
";

/// Counts written by a [`StoreWriter`].
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct StoreStats {
    /// Documents written.
    pub documents: u64,
    /// Passages written.
    pub passages: u64,
    /// Characters of passage text.
    pub chars: u64,
    /// Passages with a dense vector.
    pub embedded: u64,
    /// Seconds spent embedding.
    pub embed_seconds: f64,
}

/// Writes documents into a new store directory.
pub struct StoreWriter {
    dir: PathBuf,
    conn: Connection,
    index_writer: IndexWriter,
    fields: Fields,
    embedder: Option<StaticEmbedder>,
    vec_out: Option<(BufWriter<std::fs::File>, BufWriter<std::fs::File>)>,
    ids: std::collections::HashSet<String>,
    stats: StoreStats,
    /// Ids that had to be renamed because they repeated.
    pub duplicate_ids: Vec<String>,
}

fn ioerr(path: &Path, e: std::io::Error) -> CorpusError {
    CorpusError::Io(format!("{}: {e}", path.display()))
}

impl StoreWriter {
    /// Create the store in `dir` (created if needed; must not hold a store yet).
    /// `threads`: tantivy indexing threads.
    pub fn create(
        dir: &Path,
        embedder: Option<StaticEmbedder>,
        threads: usize,
    ) -> Result<Self, CorpusError> {
        std::fs::create_dir_all(dir).map_err(|e| ioerr(dir, e))?;
        let db = dir.join(DB_FILE);
        if db.exists() {
            std::fs::remove_file(&db).map_err(|e| ioerr(&db, e))?;
        }
        let conn = Connection::open(&db)?;
        conn.execute_batch("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")?;
        conn.execute_batch(SCHEMA_SQL)?;
        conn.execute_batch("BEGIN")?;
        let idx_dir = dir.join(INDEX_DIR);
        if idx_dir.exists() {
            std::fs::remove_dir_all(&idx_dir).map_err(|e| ioerr(&idx_dir, e))?;
        }
        std::fs::create_dir_all(&idx_dir).map_err(|e| ioerr(&idx_dir, e))?;
        let (schema, fields) = lexical::schema();
        let index = Index::create_in_dir(&idx_dir, schema)?;
        lexical::register_tokenizers(&index);
        let threads = threads.clamp(1, 8);
        let index_writer = index.writer_with_num_threads(threads, 60_000_000 * threads)?;
        let vec_out = match &embedder {
            Some(_) => {
                let v = dir.join(VEC_FILE);
                let s = dir.join(SCALE_FILE);
                Some((
                    BufWriter::new(std::fs::File::create(&v).map_err(|e| ioerr(&v, e))?),
                    BufWriter::new(std::fs::File::create(&s).map_err(|e| ioerr(&s, e))?),
                ))
            }
            None => None,
        };
        Ok(StoreWriter {
            dir: dir.to_path_buf(),
            conn,
            index_writer,
            fields,
            embedder,
            vec_out,
            ids: Default::default(),
            stats: StoreStats::default(),
            duplicate_ids: Vec::new(),
        })
    }

    /// Counts so far.
    pub fn stats(&self) -> &StoreStats {
        &self.stats
    }

    /// Add one document (split into linked parts when over [`SPLIT_DOC_CHARS`]).
    pub fn add(&mut self, doc: Document) -> Result<(), CorpusError> {
        let total: usize = doc.passages.iter().map(|p| p.text.len()).sum();
        if total <= SPLIT_DOC_CHARS || doc.passages.len() < 2 {
            return self.add_one(doc);
        }
        // Split at passage boundaries into parts of at most SPLIT_DOC_CHARS.
        let mut groups: Vec<Vec<crate::model::Passage>> = vec![Vec::new()];
        let mut size = 0;
        for p in doc.passages {
            if size + p.text.len() > SPLIT_DOC_CHARS && groups.last().is_some_and(|g| !g.is_empty())
            {
                groups.push(Vec::new());
                size = 0;
            }
            size += p.text.len();
            if let Some(g) = groups.last_mut() {
                g.push(p);
            }
        }
        let n = groups.len();
        let base = doc.meta.clone();
        for (i, mut passages) in groups.into_iter().enumerate() {
            let mut meta = base.clone();
            if i > 0 {
                meta.id = format!("{}~{}", base.id, i + 1);
                meta.parent_id = Some(base.id.clone());
            }
            meta.title = format!("{} (part {} of {n})", base.title, i + 1);
            meta.extra
                .insert("part".into(), serde_json::json!({"part": i + 1, "of": n}));
            for (k, p) in passages.iter_mut().enumerate() {
                p.index = k;
            }
            self.add_one(Document { meta, passages })?;
        }
        Ok(())
    }

    fn add_one(&mut self, mut doc: Document) -> Result<(), CorpusError> {
        let m = &mut doc.meta;
        if !self.ids.insert(m.id.clone()) {
            let mut k = 2;
            while self.ids.contains(&format!("{}-{k}", m.id)) {
                k += 1;
            }
            self.duplicate_ids.push(m.id.clone());
            m.id = format!("{}-{k}", m.id);
            self.ids.insert(m.id.clone());
        }
        m.passage_count = doc.passages.len();
        m.chars = doc.passages.iter().map(|p| p.text.chars().count()).sum();
        let doc_idx = self.stats.documents as i64;
        let first_ord = self.stats.passages as i64;
        let extra = if m.extra.is_empty() {
            None
        } else {
            Some(serde_json::Value::Object(m.extra.clone()).to_string())
        };
        self.conn
            .prepare_cached(
                "INSERT INTO documents VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19)",
            )?
            .execute(params![
                doc_idx,
                m.id,
                m.title,
                m.author,
                m.date,
                m.year,
                m.doc_type,
                m.language,
                m.source_url,
                m.dataset,
                m.licence,
                m.parent_id,
                m.metadata_only,
                m.machine_translated,
                m.magisterial,
                extra,
                m.passage_count as i64,
                m.chars as i64,
                first_ord
            ])?;
        let body_field = lexical::body_field(&self.fields, &m.language);
        let f = &self.fields;
        for p in &doc.passages {
            let ord = self.stats.passages;
            self.conn
                .prepare_cached("INSERT INTO passages VALUES(?1,?2,?3,?4,?5,?6,?7,?8)")?
                .execute(params![
                    ord as i64,
                    doc_idx,
                    p.index as i64,
                    p.reference,
                    p.heading,
                    p.kind.as_str(),
                    p.text,
                    p.url
                ])?;
            // Catalogue entries are found by title and author, not by their boilerplate.
            let body = if p.kind == crate::model::PassageKind::Metadata {
                ""
            } else {
                p.text.as_str()
            };
            let mut tdoc: TantivyDocument = doc!(
                f.ord => ord,
                f.title => m.title.as_str(),
                f.reference => p.reference.as_str(),
                body_field => body,
                f.doc_type => m.doc_type.as_str(),
                f.language => m.language.as_str(),
                f.magisterial => u64::from(m.magisterial),
            );
            if let Some(a) = &m.author {
                tdoc.add_text(f.author, a);
            }
            if let Some(h) = &p.heading {
                tdoc.add_text(f.heading, h);
            }
            if let Some(y) = m.year {
                tdoc.add_i64(f.year, y as i64);
            }
            self.index_writer.add_document(tdoc)?;
            if let (Some(emb), Some((vw, sw))) = (&self.embedder, &mut self.vec_out) {
                let t0 = std::time::Instant::now();
                let v = if m.language == "en" {
                    let text = match &p.heading {
                        Some(h) => format!("{h}. {}", p.text),
                        None => p.text.clone(),
                    };
                    emb.embed(&text)
                } else {
                    vec![0.0; emb.dim()]
                };
                let (q, scale) = quantize(&v);
                if scale > 0.0 {
                    self.stats.embedded += 1;
                }
                let bytes: Vec<u8> = q.iter().map(|x| *x as u8).collect();
                vw.write_all(&bytes).map_err(|e| ioerr(&self.dir, e))?;
                sw.write_all(&scale.to_le_bytes())
                    .map_err(|e| ioerr(&self.dir, e))?;
                self.stats.embed_seconds += t0.elapsed().as_secs_f64();
            }
            self.stats.passages += 1;
            self.stats.chars += p.text.len() as u64;
        }
        self.stats.documents += 1;
        Ok(())
    }

    /// Commit everything; returns the counts.
    pub fn finish(mut self, info: &[(&str, String)]) -> Result<StoreStats, CorpusError> {
        for (k, v) in info {
            self.conn
                .execute("INSERT OR REPLACE INTO info VALUES(?1,?2)", params![k, v])?;
        }
        if let Some(emb) = &self.embedder {
            self.conn.execute(
                "INSERT OR REPLACE INTO info VALUES('dense_model',?1)",
                params![emb.name()],
            )?;
            self.conn.execute(
                "INSERT OR REPLACE INTO info VALUES('dense_dim',?1)",
                params![emb.dim().to_string()],
            )?;
        }
        self.conn.execute(
            "INSERT OR REPLACE INTO info VALUES('stats',?1)",
            params![serde_json::to_string(&self.stats).unwrap_or_default()],
        )?;
        self.conn.execute_batch("COMMIT")?;
        if let Some((mut v, mut s)) = self.vec_out.take() {
            v.flush().map_err(|e| ioerr(&self.dir, e))?;
            s.flush().map_err(|e| ioerr(&self.dir, e))?;
        }
        self.index_writer.commit()?;
        merge_segments(&mut self.index_writer)?;
        self.index_writer.wait_merging_threads()?;
        Ok(self.stats)
    }
}

/// Merge the index's segments into one. A query looks each of its terms up,
/// sets up its BM25 weight and prunes with block-max WAND once per segment,
/// each segment from scratch (tantivy keeps no score threshold across
/// segments), so one segment answers a query faster than the six the
/// indexing threads leave; its cost is paid once, at ingest.
pub fn merge_segments(writer: &mut IndexWriter) -> Result<(), CorpusError> {
    let ids = writer.index().searchable_segment_ids()?;
    if ids.len() > 1 {
        writer.merge(&ids).wait()?;
        writer.garbage_collect_files().wait()?;
    }
    Ok(())
}

/// Read a document's metadata row.
pub(crate) fn meta_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<(DocumentMeta, i64)> {
    let extra: Option<String> = row.get("extra")?;
    let extra = extra
        .and_then(|e| serde_json::from_str::<serde_json::Value>(&e).ok())
        .and_then(|v| v.as_object().cloned())
        .unwrap_or_default();
    Ok((
        DocumentMeta {
            id: row.get("id")?,
            title: row.get("title")?,
            author: row.get("author")?,
            date: row.get("date")?,
            year: row.get("year")?,
            doc_type: row.get("type")?,
            language: row.get("language")?,
            source_url: row.get("source_url")?,
            dataset: row.get("dataset")?,
            licence: row.get("licence")?,
            parent_id: row.get("parent_id")?,
            metadata_only: row.get("metadata_only")?,
            machine_translated: row.get("machine_translated")?,
            magisterial: row.get("magisterial")?,
            extra,
            passage_count: row.get::<_, i64>("passage_count")? as usize,
            chars: row.get::<_, i64>("chars")? as usize,
        },
        row.get("first_ord")?,
    ))
}
