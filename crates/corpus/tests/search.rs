//! Search, fetch and filters over a small store built from real samples.

mod common;
use common::*;
use ecclesia_corpus::{Corpus, Filters, SearchMode, SearchRequest};
use std::sync::OnceLock;

fn corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| {
        // One folder per target dir, emptied at each run (a TempDir in a
        // static is never dropped, and would pile up in /tmp).
        let tmp = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("corpus-search");
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).unwrap();
        let docs = sample_docs(&tmp);
        let store = tmp.join("store");
        build_store(&store, docs, true);
        Corpus::open(&store).unwrap()
    })
}

fn top(mode: SearchMode, q: &str, n: usize) -> Vec<(String, String)> {
    let mut r = SearchRequest::new(q);
    r.mode = mode;
    r.limit = n;
    corpus()
        .search(&r)
        .unwrap()
        .hits
        .into_iter()
        .map(|h| (h.doc.id, h.passage.reference))
        .collect()
}

#[test]
fn rare_term_through_the_lexical_path() {
    let t = top(SearchMode::Lexical, "armistice", 3);
    assert_eq!(
        t[0],
        ("benedict-xv-quod-iam-diu-1918-en".into(), "1".into())
    );
    let t = top(SearchMode::Lexical, "zymurgy", 3);
    assert_eq!(t[0].0, "op-long");
    // Phrase query.
    let t = top(SearchMode::Lexical, "\"living bread\"", 3);
    assert_eq!(t[0].0, "bible-dr-jhn");
}

#[test]
fn paraphrase_through_the_dense_path() {
    // Summa I q. 2 a. 1 asks whether God's existence is "self-evident"; the
    // query says "obvious", a word the article does not use.
    let q = "is it obvious that there is a God";
    let t = top(SearchMode::Dense, q, 3);
    assert_eq!(
        t[0].0, "cf-thomas-aquinas-summa-theologiae-first-part-treatise-on-the-one-god-question-2",
        "{t:?}"
    );
    let doc = corpus().document_passages(&t[0].0).unwrap().unwrap();
    assert!(!doc
        .iter()
        .any(|p| p.text.to_lowercase().contains("obvious")));
    let t = top(SearchMode::Dense, "proofs that a creator exists", 3);
    assert_eq!(
        t[0].0, "cf-thomas-aquinas-summa-theologiae-first-part-treatise-on-the-one-god-question-2",
        "{t:?}"
    );
    assert!(corpus().dense_available());
}

#[test]
fn hybrid_search_and_snippets() {
    let mut r = SearchRequest::new("the armistice and the peace conference");
    r.limit = 5;
    let page = corpus().search(&r).unwrap();
    assert_eq!(page.mode, SearchMode::Hybrid);
    assert!(page
        .hits
        .iter()
        .any(|h| h.doc.id == "benedict-xv-quod-iam-diu-1918-en"));
    let h = page
        .hits
        .iter()
        .find(|h| h.doc.id == "benedict-xv-quod-iam-diu-1918-en")
        .unwrap();
    assert!(h.snippet.contains("**"), "{}", h.snippet);
    // Pagination: page 2 does not repeat page 1.
    r.offset = 5;
    let page2 = corpus().search(&r).unwrap();
    for h in &page2.hits {
        assert!(!page.hits.iter().any(|p| p.doc.id == h.doc.id));
    }
}

#[test]
fn filters() {
    let c = corpus();
    let mut r = SearchRequest::new("bread");
    r.limit = 20;
    r.filters = Filters {
        doc_type: Some("scripture".into()),
        ..Default::default()
    };
    let page = c.search(&r).unwrap();
    assert!(!page.hits.is_empty());
    assert!(page.hits.iter().all(|h| h.doc.doc_type == "scripture"));
    r.filters = Filters {
        author: Some("benedict".into()),
        ..Default::default()
    };
    let page = c.search(&r).unwrap();
    assert!(!page.hits.is_empty());
    assert!(
        page.hits
            .iter()
            .all(|h| h.doc.author.as_deref() == Some("Pope Benedict XV")),
        "{:?}",
        page.hits.iter().map(|h| &h.doc.author).collect::<Vec<_>>()
    );
    r.filters = Filters {
        year_from: Some(1900),
        year_to: Some(1910),
        ..Default::default()
    };
    let page = c.search(&r).unwrap();
    assert!(!page.hits.is_empty());
    assert!(page
        .hits
        .iter()
        .all(|h| h.doc.year.is_some_and(|y| (1900..=1910).contains(&y))));
    r.filters = Filters {
        magisterial_only: true,
        ..Default::default()
    };
    let page = c.search(&r).unwrap();
    assert!(page.hits.iter().all(|h| h.doc.magisterial));
    assert!(page
        .hits
        .iter()
        .any(|h| h.doc.doc_type == "catechism" || h.doc.doc_type == "encyclical"));
    r.filters = Filters {
        language: Some("la".into()),
        ..Default::default()
    };
    assert!(c.search(&r).unwrap().hits.is_empty());
    // Catalogue entries: findable by title, flagged, excluded on request.
    let mut r = SearchRequest::new("grandparents elderly");
    let page = c.search(&r).unwrap();
    let cat = page
        .hits
        .iter()
        .take(10)
        .find(|h| h.doc.metadata_only)
        .unwrap();
    assert!(cat
        .doc
        .source_url
        .as_deref()
        .unwrap()
        .contains("vatican.va"));
    assert!(cat.doc.title.contains("Grandparents"));
    r.filters.exclude_metadata_only = true;
    assert!(c
        .search(&r)
        .unwrap()
        .hits
        .iter()
        .all(|h| !h.doc.metadata_only));
}

#[test]
fn passages_sections_and_neighbours() {
    let c = corpus();
    let hits = c
        .passages("Who is the Holy Ghost", 5, &Filters::default())
        .unwrap();
    assert!(
        hits.iter()
            .any(|h| h.doc_id == "baltimore-catechism-2" && h.reference == "Q. 94"),
        "{:?}",
        hits.iter()
            .map(|h| (&h.doc_id, &h.reference))
            .collect::<Vec<_>>()
    );
    let h = hits.iter().find(|h| h.reference == "Q. 94").unwrap();
    assert!(h.magisterial && h.text.contains("third Person"));
    let summa = "cf-thomas-aquinas-summa-theologiae-first-part-treatise-on-the-one-god-question-2";
    let art = c.passage(summa, "I, q. 2, a. 3").unwrap().unwrap();
    assert!(
        art.text.starts_with("Objection 1:")
            && art.text.contains("I answer that")
            && art.text.contains("Reply to Objection 2")
    );
    let ch = c.section("bible-dr-jhn", "John 6").unwrap().unwrap();
    assert_eq!(ch.first().unwrap().reference, "John 6:1");
    assert!(ch.iter().all(|p| p.reference.starts_with("John 6:")));
    let n = c.neighbours("bible-dr-jhn", ch[10].index, 1).unwrap();
    assert_eq!(
        n.iter().map(|p| p.reference.as_str()).collect::<Vec<_>>(),
        ["John 6:10", "John 6:11", "John 6:12"]
    );
    assert!(c.passage("bible-dr-jhn", "John 99:1").unwrap().is_none());
    assert!(c.passage("nope", "1").unwrap().is_none());
}

#[test]
fn fetch_by_section_and_in_parts() {
    let c = corpus();
    let f = c
        .fetch("benedict-xv-quod-iam-diu-1918-en", Some("2"))
        .unwrap()
        .unwrap();
    assert!(f.text.starts_with("2. Words, then"));
    assert_eq!(f.reference.as_deref(), Some("2"));
    let whole = c
        .fetch("benedict-xv-quod-iam-diu-1918-en", None)
        .unwrap()
        .unwrap();
    assert!(whole.part.is_none() && whole.next_ref.is_none());
    assert!(whole.text.contains("Venerable Brethren") && whole.text.contains("3. As harbinger"));
    let v = c.fetch("bible-dr-jhn", Some("john 6:51")).unwrap().unwrap();
    assert!(v.text.contains("\n51 If any man eat"), "{}", v.text);
    // Over 200,000 characters: parts.
    let p1 = c.fetch("op-long", None).unwrap().unwrap();
    assert_eq!(p1.part, Some((1, 2)));
    assert_eq!(p1.next_ref.as_deref(), Some("part:2"));
    assert!(p1.text.chars().count() <= ecclesia_corpus::PART_CHARS);
    let p2 = c.fetch("op-long", Some("part:2")).unwrap().unwrap();
    assert_eq!(p2.part, Some((2, 2)));
    assert!(p2.next_ref.is_none());
    assert_eq!(p1.passages.len() + p2.passages.len(), 260);
    assert!(matches!(
        c.fetch("op-long", Some("part:3")),
        Err(ecclesia_corpus::CorpusError::NoSuchReference { .. })
    ));
    assert!(matches!(
        c.fetch("op-long", Some("999")),
        Err(ecclesia_corpus::CorpusError::NoSuchReference { .. })
    ));
    assert!(c.fetch("no-such-doc", None).unwrap().is_none());
}

#[test]
fn lexical_only_without_model() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = summa_docs(tmp.path());
    let store = tmp.path().join("store");
    build_store(&store, docs, false);
    let c = Corpus::open(&store).unwrap();
    assert!(!c.dense_available());
    let page = c.search(&SearchRequest::new("whether God exists")).unwrap();
    assert_eq!(page.mode, SearchMode::Lexical);
    assert!(page.notice.as_deref().unwrap().contains("lexical only"));
    assert!(!page.hits.is_empty());
}
