//! The registry of the modern Magisterium (`ecclesia-magisterium`): the
//! documents the library holds no text of, known by their titles and the
//! names people use for them. Each row the papal-documents catalogue lacks
//! becomes a metadata-only document with one catalogue passage, so that
//! `document_search` finds it by its title ("Lumen gentium") and
//! `document_fetch` gives its metadata and official link.

use super::Sink;
use crate::model::{Document, DocumentMeta, PassageKind};
use crate::CorpusError;
use ecclesia_magisterium::{Entry, Registry};

/// The dataset name shown by `ecclesia sources`.
pub const DATASET: &str = "ecclesia/magisterium-registry";

/// Import the rows of `registry` that the catalogue does not already hold
/// (their `source` names the catalogue entry they were checked against).
pub fn import(registry: &Registry, sink: &mut dyn Sink) -> Result<u64, CorpusError> {
    let mut n = 0;
    for e in registry.entries() {
        if e.source.starts_with("catalogue:") {
            continue;
        }
        sink.document(document(e))?;
        n += 1;
    }
    Ok(n)
}

fn document(e: &Entry) -> Document {
    let mut extra = serde_json::Map::new();
    extra.insert("title_en".into(), e.title_en.clone().into());
    extra.insert("names".into(), e.names.clone().into());
    extra.insert("subjects".into(), e.subjects.clone().into());
    extra.insert("url_checked".into(), e.url_checked.into());
    extra.insert("registry_source".into(), e.source.clone().into());
    let mut doc = Document::new(DocumentMeta {
        id: format!("reg-{}", e.id),
        title: e.title_la.clone(),
        author: Some(e.author.clone()),
        year: e.year(),
        date: Some(e.date.clone()),
        magisterial: true,
        doc_type: e.doc_type.clone(),
        language: "en".into(),
        source_url: Some(e.url.clone()),
        dataset: DATASET.into(),
        licence: "metadata (facts, written by the project); text © Libreria Editrice Vaticana, not included".into(),
        metadata_only: true,
        extra,
        ..Default::default()
    });
    let names = if e.names.is_empty() {
        String::new()
    } else {
        format!(" Also known as: {}.", e.names.join("; "))
    };
    let text = format!(
        "{} \u{2014} {}. {} of {}, {}.{names} Subjects: {}. Catalogue entry only: the text is not in this corpus; read it at {}.",
        e.title_la,
        e.title_en,
        e.doc_type,
        e.author,
        e.date,
        e.subjects.join(", "),
        e.url
    );
    // Catalogue entries are indexed by title and author only: the Latin title finds it;
    // the other names stay in the text (the registry finds them in questions).
    doc.push_kind("catalogue", None, text, PassageKind::Metadata);
    doc
}
