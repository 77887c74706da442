//! The background worker's coverage plan: the priority set first, and
//! near-duplicate passages (one verse in two English translations, repeated
//! boilerplate) embedded once with their vector shared and cached.

mod common;
use common::*;
use ecclesia_corpus::semantic::{run_worker, spawn_worker, PassageEmbedder};
use ecclesia_corpus::{
    Corpus, CorpusError, Document, DocumentMeta, EmbeddingCache, SemanticIndex, SemanticState,
    WorkerOptions,
};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Records what it embeds; a text's vector is its length in one of 8 dimensions.
#[derive(Default)]
struct Recorder {
    seen: Mutex<Vec<String>>,
}

impl PassageEmbedder for Recorder {
    fn model_id(&self) -> &str {
        "recorder-8"
    }
    fn dim(&self) -> usize {
        8
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, CorpusError> {
        self.seen
            .lock()
            .map_err(|_| CorpusError::Model("poisoned".into()))?
            .extend(texts.iter().map(|t| t.to_string()));
        Ok(texts
            .iter()
            .map(|t| {
                let mut v = vec![0f32; 8];
                v[t.len() % 8] = 1.0;
                v
            })
            .collect())
    }
}

fn doc(id: &str, ty: &str, passages: &[(&str, &str)]) -> Document {
    let mut d = Document::new(DocumentMeta {
        id: id.into(),
        title: id.into(),
        doc_type: ty.into(),
        language: "en".into(),
        dataset: "test".into(),
        licence: "test".into(),
        magisterial: ty == "encyclical",
        ..Default::default()
    });
    for (r, t) in passages {
        d.push(r.to_string(), None, t.to_string());
    }
    d
}

fn docs() -> Vec<Document> {
    vec![
        doc("cf-origen-homily", "patristic", &[("1", "Origen on the Exodus of the people.")]),
        doc(
            "bible-dr-jhn",
            "scripture",
            &[
                ("John 3:16", "For God so loved the world, as to give his only begotten Son; that whosoever believeth in him, may not perish, but may have life everlasting."),
                ("John 3:17", "For God sent not his Son into the world, to judge the world, but that the world may be saved by him."),
            ],
        ),
        doc(
            "bible-cpdv-jhn",
            "scripture",
            &[
                ("John 3:16", "For God so loved the world that he gave his only-begotten Son, so that all who believe in him may not perish, but may have eternal life."),
                ("John 3:17", "Quite other words that do not match the verse at all here."),
            ],
        ),
        doc(
            "cf-augustine-of-hippo-confessions-book-1",
            "patristic",
            &[("1", "Our heart is restless until it rests in you.")],
        ),
        doc(
            "encyclical",
            "encyclical",
            &[("1", "Workers have a right to a just wage."), ("2", "Copyright Libreria Editrice Vaticana.")],
        ),
        doc("other-encyclical", "encyclical", &[("1", "COPYRIGHT: Libreria Editrice Vaticana")]),
    ]
}

fn opts(cache: &std::path::Path) -> WorkerOptions {
    WorkerOptions {
        cache: Some(cache.to_path_buf()),
        batch: 2,
        retry: Duration::from_millis(10),
        ..Default::default()
    }
}

#[test]
fn priority_set_first_and_near_duplicates_embedded_once() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("embeddings.sqlite");
    let store = tmp.path().join("gen-1");
    build_store(&store, docs(), false);
    let c = Corpus::open(&store).unwrap();
    let rec = Arc::new(Recorder::default());
    let ix = SemanticIndex::new(rec.clone(), c.passage_count());
    run_worker(&Arc::downgrade(&ix), &c.database_path(), &opts(&cache)).unwrap();
    let st = ix.status();
    assert_eq!(st.state, SemanticState::Complete, "{st:?}");
    assert_eq!((st.passages, st.embedded), (9, 9), "{st:?}");
    let seen = rec.seen.lock().unwrap().clone();
    // Magisterial documents, Scripture, the major work of a Father, then the rest;
    // the second translation of John 3:16 and the repeated copyright line are shared.
    assert_eq!(seen.len(), 7, "{seen:?}");
    assert!(
        seen[0].starts_with("1. Workers") || seen[0].starts_with("Workers"),
        "{seen:?}"
    );
    assert!(
        seen.iter().position(|t| t.contains("restless"))
            > seen.iter().position(|t| t.contains("life everlasting"))
    );
    assert!(seen.last().unwrap().contains("Origen"), "{seen:?}");
    assert!(!seen.iter().any(|t| t.contains("eternal life")), "{seen:?}");
    assert!(!seen.iter().any(|t| t.contains("COPYRIGHT")), "{seen:?}");
    assert!(
        seen.iter().any(|t| t.contains("Quite other words")),
        "{seen:?}"
    );
    // Every passage's own text is cached: a restart computes nothing.
    assert_eq!(
        EmbeddingCache::open(&cache, "recorder-8", 8)
            .unwrap()
            .len()
            .unwrap(),
        9
    );
    let pr = &ix.status().priority;
    assert_eq!(
        (pr.passages, pr.embedded, pr.coverage),
        (8, 8, 1.0),
        "{pr:?}"
    );
    assert!(pr.complete_after_seconds.is_some(), "{pr:?}");
    let rec2 = Arc::new(Recorder::default());
    let ix2 = SemanticIndex::new(rec2.clone(), c.passage_count());
    run_worker(&Arc::downgrade(&ix2), &c.database_path(), &opts(&cache)).unwrap();
    let st2 = ix2.status();
    assert_eq!(st2.from_cache, 9);
    assert!(rec2.seen.lock().unwrap().is_empty());
    // From the cache, the priority set is complete as soon as it is read.
    assert_eq!((st2.priority.passages, st2.priority.embedded), (8, 8));
    assert!(st2.priority.complete_after_seconds.is_some());
}

/// Embeds like [`Recorder`] but fails on every text after the priority set.
struct FailsAfterPriority(Recorder);

impl PassageEmbedder for FailsAfterPriority {
    fn model_id(&self) -> &str {
        "fails-after-priority-8"
    }
    fn dim(&self) -> usize {
        8
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, CorpusError> {
        if texts.iter().any(|t| t.contains("Origen")) {
            return Err(CorpusError::Model("down after the priority set".into()));
        }
        self.0.embed(texts)
    }
}

#[test]
fn status_shows_the_priority_set_complete_before_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("gen-1");
    build_store(&store, docs(), false);
    let c = Corpus::open(&store).unwrap();
    let ix = SemanticIndex::new(
        Arc::new(FailsAfterPriority(Recorder::default())),
        c.passage_count(),
    );
    let worker = spawn_worker(&ix, c.database_path(), opts(&tmp.path().join("e.sqlite"))).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let st = loop {
        let st = ix.status();
        if st.state == SemanticState::Retrying || std::time::Instant::now() > deadline {
            break st;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(st.state, SemanticState::Retrying, "{st:?}");
    // 8 of the 9 passages: all of the priority set, not the Father outside it.
    assert_eq!((st.passages, st.embedded), (9, 8), "{st:?}");
    let pr = &st.priority;
    assert_eq!(
        (pr.passages, pr.embedded, pr.coverage),
        (8, 8, 1.0),
        "{pr:?}"
    );
    let secs = pr.complete_after_seconds.expect("complete");
    assert!((0.0..30.0).contains(&secs), "{pr:?}");
    let json = serde_json::to_value(&st).unwrap();
    assert_eq!(json["priority"]["passages"], 8, "{json}");
    assert!(
        json["priority"]["complete_after_seconds"].is_number(),
        "{json}"
    );
    drop(ix);
    worker.join().unwrap();
}

#[test]
fn status_counts_the_priority_set_while_it_is_incomplete() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("gen-1");
    build_store(&store, docs(), false);
    let c = Corpus::open(&store).unwrap();
    let ix = SemanticIndex::new(Arc::new(Recorder::default()), c.passage_count());
    let pr = ix.status().priority;
    assert_eq!(
        (pr.passages, pr.embedded, pr.complete_after_seconds),
        (0, 0, None)
    );
    // Cache only, nothing cached: the set is counted, nothing of it is there.
    let o = WorkerOptions {
        compute: false,
        ..opts(&tmp.path().join("e.sqlite"))
    };
    run_worker(&Arc::downgrade(&ix), &c.database_path(), &o).unwrap();
    let st = ix.status();
    assert_eq!(st.state, SemanticState::CacheOnly, "{st:?}");
    assert_eq!(
        (st.priority.passages, st.priority.embedded),
        (8, 0),
        "{st:?}"
    );
    assert_eq!(st.priority.complete_after_seconds, None);
}

#[test]
fn attach_cached_loads_the_vectors_and_computes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("embeddings.sqlite");
    let store = tmp.path().join("gen-1");
    build_store(&store, docs(), false);
    let mut c = Corpus::open(&store).unwrap();
    let missing = ecclesia_corpus::semantic::attach_cached(
        &mut c,
        Arc::new(Recorder::default()),
        &tmp.path().join("none.sqlite"),
    )
    .unwrap_err();
    assert!(missing.to_string().contains("no vector cache"), "{missing}");
    assert!(c.semantic().is_none());
    let ix = SemanticIndex::new(Arc::new(Recorder::default()), c.passage_count());
    run_worker(&Arc::downgrade(&ix), &c.database_path(), &opts(&cache)).unwrap();
    let rec = Arc::new(Recorder::default());
    let st = ecclesia_corpus::semantic::attach_cached(&mut c, rec.clone(), &cache).unwrap();
    assert_eq!(
        (st.embedded, st.from_cache, st.computed),
        (9, 9, 0),
        "{st:?}"
    );
    assert_eq!(st.state, SemanticState::Complete);
    assert!(rec.seen.lock().unwrap().is_empty());
    assert_eq!(c.semantic().map(|s| s.embedded()), Some(9));
}
