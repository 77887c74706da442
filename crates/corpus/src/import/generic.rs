//! The operator's own corpus, in two documented forms:
//!
//! * **JSONL** (`*.jsonl`, `*.jsonl.gz`), one document per line:
//!   `{"id": "…", "title": "…", "author": "…", "date": "YYYY-MM-DD", "year": 1965,
//!   "type": "encyclical", "language": "en", "url": "https://…",
//!   "text": "…" | "html": "…", "magisterial": true}`. `title` and one of
//!   `text`/`html` are required; `id` defaults to `op-<slug of title>`.
//!   A record with `html` and a vatican.va `url` is read as a vatican.va page.
//! * **A folder** of `.txt`, `.md` and `.html` files, each optionally opening
//!   with front matter between `---` lines (`title: …`, `author: …`,
//!   `date: …`, `type: …`, `language: …`, `url: …`, `id: …`,
//!   `magisterial: true`). The id defaults to `op-<slug of the relative path>`.
//!   `.html` pages from vatican.va (with `class="documento"`) go through the
//!   vatican.va importer. `.jsonl` files in the folder are read as above.
//!
//! Paragraphs numbered `"12. …"` keep their numbers as references; Markdown
//! `#` lines are headings; other paragraphs are referenced `¶1`, `¶2`, ….

use super::{import_records, year_of, Sink};
use crate::html::Block;
use crate::import::vatican;
use crate::model::{is_magisterial_type, Document, DocumentMeta};
use crate::text::{paragraphs, slug};
use crate::CorpusError;
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize, Default)]
struct Record {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    author: Option<String>,
    #[serde(default)]
    date: Option<String>,
    #[serde(default)]
    year: Option<i32>,
    #[serde(default, rename = "type")]
    doc_type: Option<String>,
    #[serde(default)]
    language: Option<String>,
    #[serde(default, alias = "source_url")]
    url: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    html: Option<String>,
    #[serde(default)]
    magisterial: Option<bool>,
}

/// Import a JSONL file of documents. Returns documents imported.
pub fn import_jsonl(path: &Path, dataset: &str, sink: &mut dyn Sink) -> Result<u64, CorpusError> {
    import_records(path, sink, |rec: Record| {
        record_document(rec, None, dataset)
    })
}

fn record_document(
    rec: Record,
    default_id: Option<String>,
    dataset: &str,
) -> Result<Document, String> {
    let is_vatican = rec.url.as_deref().is_some_and(|u| u.contains("vatican.va"))
        || rec
            .html
            .as_deref()
            .is_some_and(|h| h.contains("class=\"documento\""));
    if let (Some(html), true) = (&rec.html, is_vatican) {
        let mut doc = vatican::record_document(
            vatican::VaticanRecord {
                id: rec.id.clone().or(default_id.clone()),
                title: rec.title.clone(),
                pope: None,
                date: rec.date.clone(),
                doc_type: rec.doc_type.clone(),
                language: rec.language.clone(),
                source_url: rec.url.clone(),
                html: html.clone(),
                upstream_id: None,
            },
            dataset,
            "operator-supplied",
        )?;
        if rec.author.is_some() {
            doc.meta.author = rec.author.clone();
        }
        if let Some(m) = rec.magisterial {
            doc.meta.magisterial = m;
        }
        return Ok(doc);
    }
    let title = rec
        .title
        .clone()
        .filter(|t| !t.trim().is_empty())
        .or_else(|| rec.html.as_deref().and_then(crate::html::title))
        .ok_or("no title")?;
    let blocks: Vec<Block> = match (&rec.text, &rec.html) {
        (Some(t), _) if !t.trim().is_empty() => text_blocks(t),
        (_, Some(h)) if !h.trim().is_empty() => crate::html::blocks(h),
        _ => return Err("no text or html".into()),
    };
    let id = rec
        .id
        .as_deref()
        .map(slug)
        .filter(|s| !s.is_empty())
        .or(default_id)
        .unwrap_or_else(|| format!("op-{}", slug(&title)));
    let doc_type = rec
        .doc_type
        .as_deref()
        .map(vatican::normalise_type)
        .unwrap_or_else(|| "document".into());
    let meta = DocumentMeta {
        id,
        title: crate::text::squash(&title),
        author: rec.author.clone(),
        year: rec.year.or_else(|| rec.date.as_deref().and_then(year_of)),
        date: rec.date.clone(),
        magisterial: rec
            .magisterial
            .unwrap_or_else(|| is_magisterial_type(&doc_type)),
        doc_type,
        language: rec
            .language
            .clone()
            .unwrap_or_else(|| "en".into())
            .to_lowercase(),
        source_url: rec.url.clone(),
        dataset: dataset.into(),
        licence: "operator-supplied".into(),
        ..Default::default()
    };
    let mut doc = Document::new(meta);
    vatican::structure(&blocks, &mut doc);
    if doc.passages.is_empty() {
        return Err("no paragraphs".into());
    }
    Ok(doc)
}

/// Plain text or Markdown as blocks: paragraphs, `#` lines as headings.
fn text_blocks(t: &str) -> Vec<Block> {
    let mut out = Vec::new();
    for p in paragraphs(t) {
        let heading = p.starts_with('#');
        let text = p.trim_start_matches('#').trim().to_string();
        if text.is_empty() {
            continue;
        }
        out.push(Block {
            text,
            emphasis: 0.0,
            centered: false,
            heading_tag: heading,
            hr_before: 0,
        });
    }
    out
}

/// Split `---` front matter from a file's text.
fn front_matter(s: &str) -> (Record, &str) {
    let mut rec = Record::default();
    let t = s.trim_start_matches('\u{feff}');
    let Some(rest) = t.strip_prefix("---") else {
        return (rec, t);
    };
    let Some(end) = rest.find("\n---") else {
        return (rec, t);
    };
    for line in rest[..end].lines() {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let v = v.trim().trim_matches('"').trim_matches('\'').to_string();
        match k.trim().to_lowercase().as_str() {
            "id" => rec.id = Some(v),
            "title" => rec.title = Some(v),
            "author" => rec.author = Some(v),
            "date" => rec.date = Some(v),
            "year" => rec.year = v.parse().ok(),
            "type" => rec.doc_type = Some(v),
            "language" | "lang" => rec.language = Some(v),
            "url" | "source_url" => rec.url = Some(v),
            "magisterial" => rec.magisterial = v.parse().ok(),
            _ => {}
        }
    }
    let body = &rest[end + 4..];
    (rec, body.trim_start_matches(['-', '\r', '\n']))
}

/// Import a folder (recursively). Returns documents imported.
pub fn import_folder(dir: &Path, sink: &mut dyn Sink) -> Result<u64, CorpusError> {
    let dataset = format!("operator:{}", dir.display());
    let mut files = Vec::new();
    walk(dir, &mut files, sink);
    files.sort();
    let mut n = 0;
    for f in files {
        let name = f.to_string_lossy().to_lowercase();
        let rel = f
            .strip_prefix(dir)
            .unwrap_or(&f)
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".jsonl") || name.ends_with(".jsonl.gz") {
            n += import_jsonl(&f, &dataset, sink)?;
            continue;
        }
        let is_html = name.ends_with(".html") || name.ends_with(".htm");
        if !(is_html || name.ends_with(".txt") || name.ends_with(".md")) {
            continue;
        }
        let raw = match std::fs::read(&f) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                sink.warn(format!("{}: unreadable ({e}); skipped", f.display()));
                continue;
            }
        };
        if is_html && raw.contains("class=\"documento\"") && !raw.starts_with("---") {
            if vatican::import_page(&f, &dataset, sink)? {
                n += 1;
            }
            continue;
        }
        let (mut rec, body) = front_matter(&raw);
        if is_html {
            rec.html = Some(body.to_string());
        } else {
            rec.text = Some(body.to_string());
        }
        if rec.title.is_none() && !is_html {
            rec.title = f
                .file_stem()
                .map(|s| s.to_string_lossy().replace(['_', '-'], " "));
        }
        let stem = rel.rsplit_once('.').map(|x| x.0).unwrap_or(&rel);
        match record_document(rec, Some(format!("op-{}", slug(stem))), &dataset) {
            Ok(doc) => {
                n += 1;
                sink.document(doc)?;
            }
            Err(why) => sink.warn(format!("{}: {why}; skipped", f.display())),
        }
    }
    Ok(n)
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>, sink: &mut dyn Sink) {
    let rd = match std::fs::read_dir(dir) {
        Ok(r) => r,
        Err(e) => {
            sink.warn(format!(
                "{}: unreadable folder ({e}); skipped",
                dir.display()
            ));
            return;
        }
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out, sink);
        } else {
            out.push(p);
        }
    }
}
