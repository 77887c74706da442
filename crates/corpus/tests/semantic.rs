//! Transformer vectors in the background: the worker, the content-hash cache,
//! search using vectors as they arrive, the remote `/v1/embeddings` client,
//! and (when the model has been fetched) the real all-MiniLM-L6-v2.

mod common;
use common::*;
use ecclesia_corpus::semantic::{run_worker, PassageEmbedder};
use ecclesia_corpus::{
    Corpus, CorpusError, Document, DocumentMeta, EmbeddingCache, Filters, RemoteConfig,
    RemoteEmbedder, SearchMode, SearchRequest, SemanticIndex, SemanticState, WorkerOptions,
};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A bag-of-words embedder: each word adds a hashed unit to one of 64 dimensions.
struct Words {
    calls: AtomicUsize,
    texts: AtomicUsize,
    fail_first: AtomicUsize,
    seen: Mutex<Vec<String>>,
}

impl Words {
    fn new() -> Arc<Self> {
        Arc::new(Words {
            calls: AtomicUsize::new(0),
            texts: AtomicUsize::new(0),
            fail_first: AtomicUsize::new(0),
            seen: Mutex::new(Vec::new()),
        })
    }
}

fn words_vector(t: &str) -> Vec<f32> {
    let mut v = vec![0f32; 64];
    for w in t
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 3)
    {
        let h = w
            .to_lowercase()
            .bytes()
            .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        v[(h % 64) as usize] += 1.0;
    }
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-9);
    v.iter().map(|x| x / n).collect()
}

impl PassageEmbedder for Words {
    fn model_id(&self) -> &str {
        "words-64"
    }
    fn dim(&self) -> usize {
        64
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, CorpusError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if self
            .fail_first
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
        {
            return Err(CorpusError::Model("endpoint down".into()));
        }
        self.texts.fetch_add(texts.len(), Ordering::SeqCst);
        self.seen
            .lock()
            .unwrap()
            .extend(texts.iter().map(|t| t.to_string()));
        Ok(texts.iter().map(|t| words_vector(t)).collect())
    }
}

fn doc(id: &str, ty: &str, lang: &str, passages: &[&str]) -> Document {
    let mut d = Document::new(DocumentMeta {
        id: id.into(),
        title: id.into(),
        doc_type: ty.into(),
        language: lang.into(),
        dataset: "test".into(),
        licence: "test".into(),
        magisterial: ty == "encyclical",
        ..Default::default()
    });
    for (i, p) in passages.iter().enumerate() {
        d.push((i + 1).to_string(), None, p.to_string());
    }
    d
}

fn small_docs(changed: bool) -> Vec<Document> {
    vec![
        doc(
            "fathers",
            "patristic",
            "en",
            &[
                "The martyrs bore witness with their blood in the arena.",
                "Virginity is praised as the angelic life.",
            ],
        ),
        doc(
            "encyclical",
            "encyclical",
            "en",
            &[
                "Workers have a right to a just wage sufficient for a frugal family.",
                if changed {
                    "Private property is a natural right, yet its use serves the common good of all."
                } else {
                    "Private property is a natural right."
                },
            ],
        ),
        doc(
            "latin",
            "encyclical",
            "la",
            &["Rerum novarum semel excitata cupidine."],
        ),
    ]
}

fn open_with(store: &Path, emb: Arc<dyn PassageEmbedder>) -> (Corpus, Arc<SemanticIndex>) {
    let mut c = Corpus::open(store).unwrap();
    let ix = SemanticIndex::new(emb, c.passage_count());
    c.attach_semantic(ix.clone());
    (c, ix)
}

fn opts(cache: &Path) -> WorkerOptions {
    WorkerOptions {
        cache: Some(cache.to_path_buf()),
        batch: 2,
        retry: Duration::from_millis(10),
        ..Default::default()
    }
}

#[test]
fn worker_embeds_in_priority_order_caches_and_reuses_after_a_reingest() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("embeddings.sqlite");
    let store = tmp.path().join("gen-1");
    build_store(&store, small_docs(false), false);
    let words = Words::new();
    let (c, ix) = open_with(&store, words.clone());
    // No vectors yet: dense search is empty, hybrid is lexical, nothing fails.
    assert!(c
        .semantic_passages("just wage", 5, &Filters::default())
        .is_empty());
    let page = c.search(&SearchRequest::new("just wage")).unwrap();
    assert_eq!(page.mode, SearchMode::Lexical);
    assert_eq!(ix.status().state, SemanticState::Pending);

    run_worker(&Arc::downgrade(&ix), &c.database_path(), &opts(&cache)).unwrap();
    let st = ix.status();
    assert_eq!(st.state, SemanticState::Complete, "{st:?}");
    // English passages only: the Latin one is left to BM25.
    assert_eq!(
        (st.passages, st.embedded, st.computed, st.from_cache),
        (4, 4, 4, 0)
    );
    assert_eq!(st.coverage, 1.0);
    // Magisterial documents first: the encyclical's passages, then the Fathers'.
    let seen = words.seen.lock().unwrap().clone();
    assert!(seen[0].starts_with("Workers have a right"), "{seen:?}");
    assert!(seen[1].starts_with("Private property"), "{seen:?}");
    assert!(seen[2].starts_with("The martyrs"), "{seen:?}");
    assert_eq!(
        EmbeddingCache::open(&cache, "words-64", 64)
            .unwrap()
            .len()
            .unwrap(),
        4
    );

    let mut r = SearchRequest::new("a wage sufficient for the family of workers");
    r.mode = SearchMode::Dense;
    let calls = words.calls.load(Ordering::SeqCst);
    let page = c.search(&r).unwrap();
    // The query is embedded once; the next page reuses its vector.
    r.offset = 1;
    c.search(&r).unwrap();
    assert_eq!(words.calls.load(Ordering::SeqCst), calls + 1);
    assert_eq!(page.hits[0].doc.id, "encyclical");
    assert_eq!(page.hits[0].passage.reference, "1");
    assert!(page.notice.is_none(), "{:?}", page.notice);
    assert!(c.stats().semantic.is_some());

    // A new generation with one passage changed: one vector computed, the rest cached.
    let store2 = tmp.path().join("gen-2");
    build_store(&store2, small_docs(true), false);
    let words2 = Words::new();
    let (c2, ix2) = open_with(&store2, words2.clone());
    run_worker(&Arc::downgrade(&ix2), &c2.database_path(), &opts(&cache)).unwrap();
    let st = ix2.status();
    assert_eq!(
        (st.embedded, st.computed, st.from_cache),
        (4, 1, 3),
        "{st:?}"
    );
    assert_eq!(words2.texts.load(Ordering::SeqCst), 1);

    // A third start finds everything in the cache and computes nothing.
    let words3 = Words::new();
    let (c3, ix3) = open_with(&store2, words3.clone());
    run_worker(&Arc::downgrade(&ix3), &c3.database_path(), &opts(&cache)).unwrap();
    assert_eq!(ix3.status().from_cache, 4);
    assert_eq!(words3.calls.load(Ordering::SeqCst), 0);
}

#[test]
fn rest_margin_puts_the_priority_sets_passage_before_a_closer_retelling() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("gen-1");
    // A minor work retells the encyclical's line in the query's very words;
    // the encyclical (priority set) says it with one word more.
    let docs = vec![
        doc(
            "minor-work",
            "patristic",
            "en",
            &["Workers deserve wages sufficient for their families."],
        ),
        doc(
            "encyclical",
            "encyclical",
            "en",
            &["Workers deserve wages sufficient for their families' sustenance."],
        ),
    ];
    build_store(&store, docs, false);
    let words = Words::new();
    let (mut c, ix) = open_with(&store, words.clone());
    run_worker(
        &Arc::downgrade(&ix),
        &c.database_path(),
        &opts(&tmp.path().join("cache.sqlite")),
    )
    .unwrap();
    let mut r = SearchRequest::new("Workers deserve wages sufficient for their families");
    r.mode = SearchMode::Dense;
    let first = |c: &Corpus| c.search(&r).unwrap().hits[0].doc.id.clone();
    let mut t = c.tuning();
    t.rest_margin = 0.0;
    c.set_tuning(t);
    assert_eq!(first(&c), "minor-work");
    t.rest_margin = 0.3;
    c.set_tuning(t);
    assert_eq!(first(&c), "encyclical");
    // The preference reorders; it drops nothing.
    assert_eq!(c.search(&r).unwrap().hits.len(), 2);
}

#[test]
fn worker_retries_a_failing_model_and_partial_vectors_are_used_and_announced() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("gen-1");
    build_store(&store, small_docs(false), false);
    let words = Words::new();
    let (c, ix) = open_with(&store, words.clone());
    // Insert one vector by hand: search uses it and says coverage is partial.
    ix.insert(&[(
        2,
        {
            let (q, _) = ecclesia_corpus::embed::quantize(&words_vector(
                "Workers have a right to a just wage sufficient for a frugal family.",
            ));
            q
        },
        0.01,
    )]);
    run_worker(
        &Arc::downgrade(&ix),
        &c.database_path(),
        &WorkerOptions {
            compute: false,
            ..opts(&tmp.path().join("cache.sqlite"))
        },
    )
    .unwrap();
    let st = ix.status();
    assert_eq!(st.state, SemanticState::CacheOnly);
    assert_eq!((st.passages, st.embedded), (4, 1));
    let mut r = SearchRequest::new("wage");
    r.mode = SearchMode::Hybrid;
    let page = c.search(&r).unwrap();
    assert_eq!(page.mode, SearchMode::Hybrid);
    let notice = page.notice.unwrap();
    assert!(notice.contains("25%"), "{notice}");
    // The list's fusion weight follows its coverage of the candidates.
    assert_eq!(c.semantic_ranked("wage", 5, &Filters::default()).1, 0.25);
    let encyclicals = Filters {
        doc_type: Some("encyclical".into()),
        ..Default::default()
    };
    let (list, coverage) = c.semantic_ranked("wage", 5, &encyclicals);
    assert_eq!((list.len(), coverage), (1, 0.5));

    // Computing: two failures, then success.
    words.fail_first.store(2, Ordering::SeqCst);
    let before = words.calls.load(Ordering::SeqCst);
    run_worker(
        &Arc::downgrade(&ix),
        &c.database_path(),
        &opts(&tmp.path().join("cache.sqlite")),
    )
    .unwrap();
    let st = ix.status();
    assert_eq!(st.state, SemanticState::Complete, "{st:?}");
    assert_eq!(
        st.last_error.as_deref(),
        Some("embedding model: endpoint down")
    );
    assert_eq!(words.calls.load(Ordering::SeqCst) - before, 2 + 2);
}

#[test]
fn a_failing_query_model_is_not_waited_on_again_and_search_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("gen-1");
    build_store(&store, small_docs(false), false);
    let words = Words::new();
    let (c, ix) = open_with(&store, words.clone());
    ix.insert(&[(2, vec![1; 64], 0.01)]);
    words.fail_first.store(1, Ordering::SeqCst);
    assert!(c
        .semantic_passages("wages", 5, &Filters::default())
        .is_empty());
    let calls = words.calls.load(Ordering::SeqCst);
    // Within the back-off the model is not called; search is lexical + static.
    assert!(c
        .semantic_passages("property", 5, &Filters::default())
        .is_empty());
    let page = c.search(&SearchRequest::new("property")).unwrap();
    assert_eq!(page.hits[0].doc.id, "encyclical");
    assert_eq!(words.calls.load(Ordering::SeqCst), calls);
}

#[test]
fn worker_stops_when_the_index_is_dropped_and_a_bad_cache_is_not_fatal() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("gen-1");
    build_store(&store, small_docs(false), false);
    let (c, ix) = open_with(&store, Words::new());
    // The cache path is a directory: the worker goes on without a cache.
    let bad = tmp.path().join("dir.sqlite");
    std::fs::create_dir_all(&bad).unwrap();
    run_worker(&Arc::downgrade(&ix), &c.database_path(), &opts(&bad)).unwrap();
    let st = ix.status();
    assert_eq!(st.state, SemanticState::Complete);
    assert!(st.last_error.is_some());
    // A cache written by a model of another size is refused, not misread.
    let good = tmp.path().join("c.sqlite");
    EmbeddingCache::open(&good, "words-64", 64).unwrap();
    assert!(EmbeddingCache::open(&good, "words-64", 32).is_err());

    let weak = Arc::downgrade(&ix);
    drop(c);
    drop(ix);
    run_worker(&weak, &store.join("corpus.sqlite"), &opts(&good)).unwrap();
}

// ---- remote /v1/embeddings -------------------------------------------------

/// A one-thread HTTP server on 127.0.0.1 answering each POST with `reply(body)`.
fn mock_server(
    reply: impl Fn(&serde_json::Value) -> (u16, String) + Send + 'static,
) -> (String, Arc<Mutex<Vec<serde_json::Value>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", l.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen2 = seen.clone();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { continue };
            let mut r = BufReader::new(s.try_clone().unwrap());
            let mut len = 0usize;
            let mut auth = String::new();
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                let lower = line.to_ascii_lowercase();
                if let Some(v) = lower.strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap_or(0);
                }
                if lower.starts_with("authorization:") {
                    auth = line.trim().to_string();
                }
            }
            let mut body = vec![0u8; len];
            r.read_exact(&mut body).unwrap();
            let mut v: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
            v["_auth"] = auth.into();
            let (code, text) = reply(&v);
            seen2.lock().unwrap().push(v);
            let _ = write!(
                s,
                "HTTP/1.1 {code} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            );
        }
    });
    (url, seen)
}

fn cfg(url: &str) -> RemoteConfig {
    RemoteConfig {
        base_url: url.into(),
        model: "nomic-embed-text".into(),
        api_key: Some("sk-test".into()),
        timeout: Duration::from_secs(5),
    }
}

#[test]
fn remote_endpoint_vectors_in_input_order_and_normalised() {
    let (url, seen) = mock_server(|v| {
        let inputs = v["input"].as_array().cloned().unwrap_or_default();
        // Out of order, unnormalised, with vendor extras.
        let data: Vec<_> = inputs
            .iter()
            .enumerate()
            .rev()
            .map(|(i, t)| {
                let n = t.as_str().unwrap_or("").len() as f64;
                serde_json::json!({"object": "embedding", "index": i, "embedding": [n, 3.0, 4.0]})
            })
            .collect();
        (
            200,
            serde_json::json!({"object": "list", "data": data, "usage": {"prompt_tokens": 3}})
                .to_string(),
        )
    });
    let e = RemoteEmbedder::connect(cfg(&url)).unwrap();
    assert_eq!(e.dim(), 3);
    assert_eq!(e.model_id(), "remote:nomic-embed-text");
    let long = "x".repeat(10_000);
    let v = e.embed(&["", "abcd", &long]).unwrap();
    assert_eq!(v[0], vec![0.0, 0.6, 0.8]);
    assert!((v[1].iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-5);
    let seen = seen.lock().unwrap();
    let last = seen.last().unwrap();
    assert_eq!(last["model"], "nomic-embed-text");
    assert_eq!(last["_auth"], "Authorization: Bearer sk-test");
    // Over-long inputs are cut before they are sent.
    assert_eq!(last["input"][2].as_str().unwrap().len(), 4_000);
}

#[test]
fn remote_endpoint_errors_are_clear() {
    let (url, _) = mock_server(|_| {
        (
            503,
            r#"{"error":{"message":"model is loading","type":"unavailable"}}"#.into(),
        )
    });
    let e = RemoteEmbedder::connect(cfg(&url)).unwrap_err().to_string();
    assert!(e.contains("HTTP 503: model is loading"), "{e}");

    let (url, _) = mock_server(|_| (200, r#"{"data": "nope"}"#.into()));
    let e = RemoteEmbedder::connect(cfg(&url)).unwrap_err().to_string();
    assert!(e.contains("no `data` list"), "{e}");

    let (url, _) = mock_server(|_| (200, r#"{"data": [{"embedding": ["a"]}]}"#.into()));
    let e = RemoteEmbedder::connect(cfg(&url)).unwrap_err().to_string();
    assert!(e.contains("non-numeric"), "{e}");

    let (url, _) = mock_server(|_| (200, "not json".into()));
    let e = RemoteEmbedder::connect(cfg(&url)).unwrap_err().to_string();
    assert!(e.contains("unreadable reply"), "{e}");

    // Fewer vectors than inputs.
    let (url, _) = mock_server(|_| {
        (
            200,
            r#"{"data": [{"index": 0, "embedding": [1.0, 0.0]}]}"#.into(),
        )
    });
    let e = RemoteEmbedder::connect(cfg(&url)).unwrap();
    let err = e.embed(&["a", "b"]).unwrap_err().to_string();
    assert!(err.contains("no vector for input 1"), "{err}");

    let err = RemoteEmbedder::connect(cfg("ftp://example"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("not an http(s) URL"), "{err}");
    // Nothing listening.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    assert!(RemoteEmbedder::connect(cfg(&format!("http://127.0.0.1:{port}/v1"))).is_err());
}

// ---- the real all-MiniLM-L6-v2 ------------------------------------------------

/// The fetched model (`scripts/fetch-model.sh`), or `None` (skipped unless
/// `ECCLESIA_REQUIRE_MODEL=1`, which `scripts/test.sh` sets).
#[cfg(feature = "transformer")]
fn minilm() -> Option<Arc<ecclesia_corpus::TransformerEmbedder>> {
    use std::sync::OnceLock;
    static M: OnceLock<Option<Arc<ecclesia_corpus::TransformerEmbedder>>> = OnceLock::new();
    M.get_or_init(|| {
        let dir = std::env::var_os("ECCLESIA_EMBEDDING_MODEL")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                PathBuf::from(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../../models/all-MiniLM-L6-v2"
                ))
            });
        if !dir.join("model.safetensors").is_file() {
            assert!(
                std::env::var("ECCLESIA_REQUIRE_MODEL").as_deref() != Ok("1"),
                "no model in {} (run scripts/fetch-model.sh)",
                dir.display()
            );
            eprintln!(
                "skipped: no model in {} (run scripts/fetch-model.sh)",
                dir.display()
            );
            return None;
        }
        Some(Arc::new(
            ecclesia_corpus::TransformerEmbedder::load(&dir, Default::default()).unwrap(),
        ))
    })
    .clone()
}

#[cfg(feature = "transformer")]
#[test]
fn minilm_answers_doctrine_paraphrases_top1() {
    let Some(m) = minilm() else { return };
    assert_eq!(m.dim(), 384);
    assert!(m.model_id().starts_with("all-MiniLM-L6-v2@53aa51172d14"));
    let passages = [
        "The Eucharist is the source and summit of the Christian life; under the appearances of bread and wine Christ is truly, really and substantially present.",
        "In the sacrament of Penance the faithful who confess their sins to a priest receive God's forgiveness and are reconciled with the Church.",
        "A valid, consummated marriage between baptized persons cannot be dissolved by any human power or for any reason other than death.",
        "All who die in God's grace but still imperfectly purified undergo purification after death, so as to achieve the holiness needed to enter heaven.",
        "The existence of God can be proved in five ways: from motion, from efficient causes, from contingency, from degrees of perfection and from the governance of things.",
        "During the forty days before Easter the faithful fast, pray and give alms in preparation for the Paschal feast.",
        "The worker is owed a wage sufficient to support himself and his family in reasonable and frugal comfort.",
        "Through the laying on of hands the bishop ordains deacons, priests and bishops, conferring a sacred power for the service of the faithful.",
        "From the first moment of her conception the Virgin Mary was preserved free from every stain of original sin by a singular grace of God.",
        "The sick are anointed with oil by the priest, who prays over them that the Lord may raise them up and forgive their sins.",
        "The Holy Spirit proceeds from the Father and the Son as from one principle.",
        "Sacred Scripture and Tradition form one sacred deposit of the word of God committed to the Church.",
        "The Pope, as successor of Peter, is the perpetual and visible source of the unity of the bishops and of the faithful.",
        "Angels are spiritual, non-corporeal beings, servants and messengers of God.",
        "Sunday is the day of the Resurrection, on which the faithful are bound to take part in the Mass.",
        "Charity is the theological virtue by which we love God above all things and our neighbour as ourselves.",
    ];
    let questions = [
        (0, "is Jesus really there in the consecrated host"),
        (1, "how are my sins forgiven when I go to confession"),
        (2, "can the Church allow divorce"),
        (3, "what happens to souls not yet ready for heaven"),
        (4, "arguments that God exists"),
        (5, "what should Catholics do in Lent"),
        (6, "how much should an employer pay"),
        (7, "how does someone become a priest"),
        (8, "was Mary born without sin"),
        (9, "what is the sacrament for people who are seriously ill"),
    ];
    let pv = m.embed(&passages).unwrap();
    let qs: Vec<&str> = questions.iter().map(|q| q.1).collect();
    let qv = m.embed(&qs).unwrap();
    let mut top1 = 0;
    for ((want, q), v) in questions.iter().zip(&qv) {
        assert!((v.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-4);
        let best = pv
            .iter()
            .enumerate()
            .map(|(i, p)| (i, p.iter().zip(v).map(|(a, b)| a * b).sum::<f32>()))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap()
            .0;
        if best == *want {
            top1 += 1;
        } else {
            eprintln!("{q:?} → passage {best}, wanted {want}");
        }
    }
    assert!(top1 >= 9, "top-1 {top1}/10");
    // A batch gives the vectors one call per text gives (padding is masked).
    let alone = m.embed(&[qs[2]]).unwrap();
    let cos: f32 = alone[0].iter().zip(&qv[2]).map(|(a, b)| a * b).sum();
    assert!(cos > 0.9999, "{cos}");
}

#[cfg(feature = "transformer")]
#[test]
fn minilm_paraphrase_search_through_the_background_vectors() {
    let Some(m) = minilm() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("gen-1");
    // Two Summa questions (I q. 2, III q. 75), no static model: only the
    // transformer can match a paraphrase here.
    build_store(&store, summa_docs(tmp.path()), false);
    let (c, ix) = open_with(&store, m);
    run_worker(
        &Arc::downgrade(&ix),
        &c.database_path(),
        &WorkerOptions {
            cache: Some(tmp.path().join("cache.sqlite")),
            threads: 2,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(ix.status().state, SemanticState::Complete);
    let mut r = SearchRequest::new("is it obvious that there is a God");
    r.mode = SearchMode::Dense;
    let page = c.search(&r).unwrap();
    assert_eq!(
        page.hits[0].doc.id,
        "cf-thomas-aquinas-summa-theologiae-first-part-treatise-on-the-one-god-question-2"
    );
    let r = c.semantic_passages(
        "bread and wine become the body of Christ",
        3,
        &Filters::default(),
    );
    let p = c
        .passages_with_mode(
            "bread and wine become the body of Christ",
            1,
            &Filters::default(),
            SearchMode::Dense,
        )
        .unwrap();
    assert!(!r.is_empty());
    assert!(p[0].doc_id.contains("question-75"), "{:?}", p[0].doc_id);
}
