//! `corpus/papal-documents-catalog`: papal documents known by title, date and
//! vatican.va links only (no text). Each becomes a metadata-only document with
//! one catalogue passage, so that it is findable by title.

use super::{for_each_line, year_of, Sink};
use crate::import::vatican::{normalise_type, pope_name};
use crate::model::{is_magisterial_type, Document, DocumentMeta, PassageKind};
use crate::text::slug;
use crate::CorpusError;
use serde::Deserialize;
use std::collections::HashSet;
use std::path::Path;

/// Dataset path.
pub const DATASET: &str = "corpus/papal-documents-catalog";

#[derive(Deserialize)]
struct Entry {
    id: String,
    #[serde(default)]
    pope_id: Option<String>,
    #[serde(default, rename = "type")]
    doc_type: Option<String>,
    #[serde(default)]
    date: Option<String>,
    title: String,
    #[serde(default)]
    vatican_urls: serde_json::Map<String, serde_json::Value>,
}

/// Import the catalogue; entries whose vatican.va id is in `have_text` (already
/// imported with text) are skipped.
pub fn import(
    path: &Path,
    have_text: &HashSet<String>,
    sink: &mut dyn Sink,
) -> Result<u64, CorpusError> {
    let file = path.display().to_string();
    let mut n = 0;
    let mut seen: HashSet<String> = HashSet::new();
    for_each_line(path, sink, |line_no, line, sink| {
        let e: Entry = match serde_json::from_str(line) {
            Ok(e) => e,
            Err(err) => {
                sink.warn(format!(
                    "{file}: line {line_no}: bad record ({err}); skipped"
                ));
                return Ok(());
            }
        };
        if have_text.contains(&e.id) {
            return Ok(());
        }
        if !seen.insert(e.id.clone()) {
            sink.warn(format!(
                "{file}: line {line_no}: {}: duplicate entry; skipped",
                e.id
            ));
            return Ok(());
        }
        if e.title.trim().is_empty() {
            sink.warn(format!(
                "{file}: line {line_no}: {}: no title; skipped",
                e.id
            ));
            return Ok(());
        }
        let doc_type = normalise_type(e.doc_type.as_deref().unwrap_or(""));
        let (language, url) = match e.vatican_urls.get("en").and_then(|u| u.as_str()) {
            Some(u) => ("en".to_string(), Some(u.to_string())),
            None => e
                .vatican_urls
                .iter()
                .find_map(|(l, u)| u.as_str().map(|u| (l.clone(), Some(u.to_string()))))
                .unwrap_or(("en".into(), None)),
        };
        let date = e.date.clone().filter(|d| year_of(d).is_some()).or_else(|| {
            url.as_deref()
                .and_then(|u| crate::import::vatican::url_metadata(u).date)
        });
        let author = e.pope_id.as_deref().map(pope_name);
        let mut extra = serde_json::Map::new();
        extra.insert(
            "vatican_urls".into(),
            serde_json::Value::Object(e.vatican_urls.clone()),
        );
        extra.insert("upstream_id".into(), e.id.clone().into());
        let mut doc = Document::new(DocumentMeta {
            id: format!("cat-{}", slug(&e.id)),
            title: crate::text::squash(&e.title),
            author: author.clone(),
            year: date.as_deref().and_then(year_of),
            date: date.clone(),
            magisterial: is_magisterial_type(&doc_type),
            doc_type: doc_type.clone(),
            language,
            source_url: url.clone(),
            dataset: DATASET.into(),
            licence: "metadata (facts); text © Libreria Editrice Vaticana, not included".into(),
            metadata_only: true,
            extra,
            ..Default::default()
        });
        let text = format!(
            "{}. {} of {}{}. Catalogue entry only: the text is not in this corpus{}.",
            doc.meta.title,
            doc_type,
            author.as_deref().unwrap_or("an unknown pope"),
            date.map(|d| format!(", {d}")).unwrap_or_default(),
            url.map(|u| format!("; read it at {u}")).unwrap_or_default()
        );
        doc.push_kind("catalogue", None, text, PassageKind::Metadata);
        n += 1;
        sink.document(doc)
    })?;
    Ok(n)
}
