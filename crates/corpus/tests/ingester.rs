//! The `corpus` ingester end to end on a small data folder.

mod common;
use common::data;
use ecclesia_core::{IngestContext, Ingester, NoProgress};
use ecclesia_corpus::{Corpus, CorpusIngester, IngestOptions, SearchRequest};

#[test]
fn ingester_builds_a_store_with_sources_and_warnings() {
    let tmp = tempfile::tempdir().unwrap();
    let dd = tmp.path().join("data");
    std::fs::create_dir_all(dd.join("corpus/baltimore-catechism")).unwrap();
    std::fs::create_dir_all(dd.join("corpus/operator")).unwrap();
    std::fs::copy(
        data().join("corpus/baltimore-catechism/baltimore-catechism-no1.pg.txt.gz"),
        dd.join("corpus/baltimore-catechism/baltimore-catechism-no1.pg.txt.gz"),
    )
    .unwrap();
    std::fs::write(
        dd.join("corpus/operator/a.md"),
        "---\ntitle: Operator Note\n---\nThe quinquennial visit.",
    )
    .unwrap();
    std::fs::write(dd.join("corpus/operator/b.jsonl"), "{\"title\": \"x\"}\n").unwrap();
    let ing = CorpusIngester {
        options: IngestOptions {
            model_dir: Some(tmp.path().join("no-model")),
            embed: true,
            church_fathers: false,
            church_fathers_max_chars: None,
            extra_dirs: vec![tmp.path().join("missing")],
            threads: 1,
        },
    };
    let out = tmp.path().join("store");
    let ctx = IngestContext {
        data_dir: dd.clone(),
        out_dir: out.clone(),
        progress: &NoProgress,
    };
    let report = ing.ingest(&ctx).unwrap();
    let datasets: Vec<&str> = report.sources.iter().map(|s| s.dataset.as_str()).collect();
    assert!(
        datasets.contains(&"corpus/baltimore-catechism"),
        "{datasets:?}"
    );
    assert!(datasets.iter().any(|d| d.starts_with("operator:")));
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("b.jsonl: line 1") && w.contains("no text")),
        "{:?}",
        report.warnings
    );
    assert!(report
        .warnings
        .iter()
        .any(|w| w.contains("missing") && w.contains("not found")));
    let c = Corpus::open(&out).unwrap();
    assert!(!c.dense_available());
    let page = c.search(&SearchRequest::new("quinquennial")).unwrap();
    assert_eq!(page.hits[0].doc.id, "op-a");
    assert!(c.document("baltimore-catechism-1").unwrap().is_some());
    // Re-ingest: same ids.
    let out2 = tmp.path().join("store2");
    let ctx2 = IngestContext {
        data_dir: dd,
        out_dir: out2.clone(),
        progress: &NoProgress,
    };
    ing.ingest(&ctx2).unwrap();
    let c2 = Corpus::open(&out2).unwrap();
    assert_eq!(c2.stats().documents, c.stats().documents);
    assert!(c2.document("op-a").unwrap().is_some());
}
