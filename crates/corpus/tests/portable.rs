//! Portable vectors: export a cache's vectors for a store generation, import
//! them into another install's cache; wrong model, wrong generation and a
//! damaged file are refused before anything is written.

mod common;
use common::*;
use ecclesia_corpus::portable::{self, VectorSet};
use ecclesia_corpus::semantic::{content_hash, passage_text};
use ecclesia_corpus::{CorpusError, Document, DocumentMeta, EmbeddingCache};
use std::path::Path;

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

const TEXTS: &[&str] = &[
    "Workers have a right to a just wage.",
    "Private property is a natural right.",
    "The martyrs bore witness with their blood.",
    // The same text twice: exported once.
    "The martyrs bore witness with their blood.",
];

fn store(dir: &Path) {
    build_store(
        dir,
        vec![
            doc("enc", "encyclical", "en", &TEXTS[..2]),
            doc("fathers", "patristic", "en", &TEXTS[2..]),
            doc(
                "latin",
                "encyclical",
                "la",
                &["Rerum novarum semel excitata."],
            ),
        ],
        false,
    );
}

fn set(model: &str, generation: &str) -> VectorSet {
    VectorSet {
        model: model.into(),
        dim: 8,
        generation: generation.into(),
    }
}

/// A cache holding a vector for each distinct English passage.
fn filled_cache(path: &Path) -> EmbeddingCache {
    let mut c = EmbeddingCache::open(path, "m@1", 8).unwrap();
    let rows: Vec<([u8; 32], Vec<i8>, f32)> = TEXTS[..3]
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let v: Vec<i8> = (0..8).map(|d| (i as i8 + 1) * (d as i8 - 4)).collect();
            (
                content_hash(&passage_text(None, t)),
                v,
                0.01 * (i + 1) as f32,
            )
        })
        .collect();
    let items: Vec<([u8; 32], &[i8], f32)> = rows
        .iter()
        .map(|(h, v, s)| (*h, v.as_slice(), *s))
        .collect();
    c.put_many(&items).unwrap();
    c
}

fn setup() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let st = tmp.path().join("store");
    store(&st);
    let file = tmp.path().join("vectors.emb");
    let cache = filled_cache(&tmp.path().join("a.sqlite"));
    let h = portable::export(
        &st.join("corpus.sqlite"),
        &cache,
        &set("m@1", "gen-1"),
        &file,
    )
    .unwrap();
    assert_eq!(h.rows, 3, "each distinct English text once: {h:?}");
    (tmp, st, file)
}

#[test]
fn vectors_round_trip_into_an_empty_cache() {
    let (tmp, _st, file) = setup();
    let mut fresh = EmbeddingCache::open(&tmp.path().join("b.sqlite"), "m@1", 8).unwrap();
    assert!(fresh.is_empty().unwrap());
    let h = portable::import(&file, &mut fresh, &set("m@1", "gen-1")).unwrap();
    assert_eq!(h.rows, 3);
    assert_eq!(fresh.len().unwrap(), 3);
    let original = filled_cache(&tmp.path().join("a.sqlite"));
    for t in &TEXTS[..3] {
        let hash = content_hash(&passage_text(None, t));
        assert_eq!(
            fresh.get(&hash).unwrap(),
            original.get(&hash).unwrap(),
            "{t}"
        );
        assert!(fresh.get(&hash).unwrap().is_some());
    }
    // Importing again changes nothing.
    portable::import(&file, &mut fresh, &set("m@1", "gen-1")).unwrap();
    assert_eq!(fresh.len().unwrap(), 3);
}

fn refused(file: &Path, s: &VectorSet, tmp: &Path, want: &str) {
    let path = tmp.join(format!("c-{}.sqlite", want.len()));
    let mut cache = EmbeddingCache::open(&path, &s.model, s.dim).unwrap();
    let e = portable::import(file, &mut cache, s).unwrap_err();
    assert!(matches!(e, CorpusError::Portable(_)), "{e:?}");
    assert!(e.to_string().contains(want), "{want:?} not in {e}");
    assert!(cache.is_empty().unwrap(), "nothing written after {e}");
}

#[test]
fn another_model_or_generation_is_a_clear_error() {
    let (tmp, _st, file) = setup();
    refused(
        &file,
        &set("other@2", "gen-1"),
        tmp.path(),
        "the vectors are of model m@1, this install uses other@2",
    );
    refused(
        &file,
        &set("m@1", "gen-2"),
        tmp.path(),
        "the vectors embed store generation gen-1, this store serves gen-2",
    );
    let mut wide = set("m@1", "gen-1");
    wide.dim = 16;
    refused(
        &file,
        &wide,
        tmp.path(),
        "8-dimension vectors, the model gives 16",
    );
}

#[test]
fn a_truncated_corrupt_or_foreign_file_is_refused() {
    let (tmp, _st, file) = setup();
    let bytes = std::fs::read(&file).unwrap();
    let s = set("m@1", "gen-1");

    let cut = tmp.path().join("cut.emb");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    refused(&cut, &s, tmp.path(), "truncated");

    let long = tmp.path().join("long.emb");
    let mut more = bytes.clone();
    more.extend_from_slice(b"trailing");
    std::fs::write(&long, &more).unwrap();
    refused(&long, &s, tmp.path(), "longer than its 3 rows");

    let flipped = tmp.path().join("flipped.emb");
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x40;
    std::fs::write(&flipped, &bad).unwrap();
    refused(&flipped, &s, tmp.path(), "checksum mismatch");

    let foreign = tmp.path().join("foreign.emb");
    std::fs::write(&foreign, b"PK\x03\x04 not ours").unwrap();
    refused(&foreign, &s, tmp.path(), "not an embeddings file");

    let header = tmp.path().join("header.emb");
    std::fs::write(&header, format!("{}\n{{\"model\": 3}}\n", portable::MAGIC)).unwrap();
    refused(&header, &s, tmp.path(), "bad header");

    let missing = tmp.path().join("missing.emb");
    refused(&missing, &s, tmp.path(), "missing.emb");
}
