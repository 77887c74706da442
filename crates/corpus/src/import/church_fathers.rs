//! `corpus/church-fathers`: the Writings-Database (works of the Fathers and
//! Doctors, plain text; the Summa Theologiae split into articles with
//! objection/sed contra/respondeo/reply references) and the
//! Commentaries-Database (patristic quotes keyed to Bible verses, gathered
//! into one document per author and Bible book).

use super::{for_each_line, Sink};
use crate::model::{Document, DocumentMeta};
use crate::text::{chunk_paragraphs, paragraphs, slug};
use crate::CorpusError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Dataset path.
pub const DATASET: &str = "corpus/church-fathers";
const LICENCE: &str = "public domain (HistoricalChristianFaith Writings-Database)";
const C_LICENCE: &str =
    "public domain (HistoricalChristianFaith Commentaries-Database, pre-1929 entries)";

#[derive(Deserialize)]
struct Writing {
    id: String,
    author: String,
    work: String,
    year: Option<i32>,
    #[serde(default)]
    html_title: Option<String>,
    #[serde(default)]
    mirrored_from: Option<String>,
    #[serde(default)]
    author_wiki: Option<String>,
    #[serde(default)]
    machine_translated: bool,
    text: String,
}

/// Limits on the writings import (the full import is the default).
#[derive(Debug, Clone, Copy, Default)]
pub struct Limits {
    /// Stop after this many characters of text (None: everything).
    pub max_chars: Option<u64>,
    /// Stop after this many records (None: everything).
    pub max_records: Option<usize>,
}

/// Import `writings-database.jsonl[.gz]`. Returns records imported.
pub fn import_writings(
    path: &Path,
    limits: Limits,
    sink: &mut dyn Sink,
) -> Result<u64, CorpusError> {
    let mut imported = 0u64;
    let mut chars = 0u64;
    let mut seen = 0usize;
    let file = path.display().to_string();
    let mut stop = false;
    for_each_line(path, sink, |line_no, line, sink| {
        if stop {
            return Ok(());
        }
        seen += 1;
        if limits.max_records.is_some_and(|m| seen > m)
            || limits.max_chars.is_some_and(|m| chars >= m)
        {
            stop = true;
            return Ok(());
        }
        let w: Writing = match serde_json::from_str(line) {
            Ok(w) => w,
            Err(e) => {
                sink.warn(format!("{file}: line {line_no}: bad record ({e}); skipped"));
                return Ok(());
            }
        };
        if !w.id.contains('/') {
            // Top-level navigation pages (menu.html) are not works.
            return Ok(());
        }
        if w.text.trim().is_empty() {
            sink.warn(format!(
                "{file}: line {line_no}: {}: empty text; skipped",
                w.id
            ));
            return Ok(());
        }
        chars += w.text.len() as u64;
        let doc = writing_document(&w);
        if doc.passages.is_empty() {
            sink.warn(format!(
                "{file}: line {line_no}: {}: no passages; skipped",
                w.id
            ));
            return Ok(());
        }
        imported += 1;
        sink.document(doc)
    })?;
    Ok(imported)
}

fn writing_document(w: &Writing) -> Document {
    let stem = w.id.trim_end_matches(".html").trim_end_matches(".htm");
    let id = format!("cf-{}", slug(stem));
    let doc_type = if w.author == "Thomas Aquinas" || w.year.is_some_and(|y| y > 800) {
        "theology"
    } else {
        "patristic"
    };
    let mut extra = serde_json::Map::new();
    extra.insert("upstream_id".into(), w.id.clone().into());
    if let Some(h) = &w.html_title {
        extra.insert("html_title".into(), h.clone().into());
    }
    if let Some(a) = &w.author_wiki {
        extra.insert("author_wiki".into(), a.clone().into());
    }
    let source_url = w
        .mirrored_from
        .as_ref()
        .map(|m| format!("https://{m}"))
        .unwrap_or_else(|| {
            format!(
                "https://github.com/HistoricalChristianFaith/Writings-Database/blob/master/{}",
                w.id.replace(' ', "%20")
            )
        });
    let mut meta = DocumentMeta {
        id,
        title: w.work.replace('/', " — "),
        author: Some(w.author.clone()),
        date: w.year.map(|y| y.to_string()),
        year: w.year,
        doc_type: doc_type.into(),
        language: "en".into(),
        source_url: Some(source_url),
        dataset: DATASET.into(),
        licence: LICENCE.into(),
        machine_translated: w.machine_translated,
        extra,
        ..Default::default()
    };
    let paras = paragraphs(&w.text);
    if let Some(summa) = summa_part(&w.id) {
        if let Some(q) = question_number(&w.id) {
            let subject = w
                .html_title
                .as_deref()
                .and_then(|t| t.rsplit(" - ").next())
                .map(|s| s.split(" (").next().unwrap_or(s).trim().to_string())
                .unwrap_or_default();
            let cite = format!("{summa}, q. {q}");
            meta.title = if subject.is_empty() {
                format!("Summa Theologiae {cite}")
            } else {
                format!("Summa Theologiae {cite}: {subject}")
            };
            meta.extra.insert("citation".into(), cite.clone().into());
            let mut doc = Document::new(meta);
            summa_passages(&cite, &paras, &mut doc);
            return doc;
        }
    }
    let mut doc = Document::new(meta);
    for (i, c) in chunk_paragraphs(&paras).into_iter().enumerate() {
        doc.push(format!("§{}", i + 1), c.heading, c.text);
    }
    doc
}

/// `I`, `I-II`, `II-II`, `III`, `Suppl.` for a Summa file path.
fn summa_part(id: &str) -> Option<&'static str> {
    let rest = id.strip_prefix("Thomas Aquinas/Summa Theologiae/")?;
    let part = rest.split('/').next()?;
    Some(match part {
        "First Part" => "I",
        "First Part of the Second Part" => "I-II",
        "Second Part of the Second Part" => "II-II",
        "Third Part" => "III",
        "Supplement" => "Suppl.",
        _ => return None,
    })
}

fn question_number(id: &str) -> Option<u32> {
    let file = id.rsplit('/').next()?;
    let n = file.strip_prefix("Question ")?;
    n.split('.').next()?.trim().parse().ok()
}

/// Split a Summa question into prologue and articles; each article into
/// objections, sed contra, respondeo and replies.
fn summa_passages(cite: &str, paras: &[String], doc: &mut Document) {
    let mut article = 0u32;
    let mut heading: Option<String> = None;
    let mut cur_ref = format!("{cite}, prol.");
    let mut cur = String::new();
    let flush = |doc: &mut Document, r: &str, h: &Option<String>, cur: &mut String| {
        if !cur.trim().is_empty() {
            doc.push(r.to_string(), h.clone(), std::mem::take(cur));
        }
        cur.clear();
    };
    for (i, p) in paras.iter().enumerate() {
        let next_is_objection = paras
            .get(i + 1)
            .is_some_and(|n| n.starts_with("Objection 1") || n.starts_with("Objection:"));
        if p.starts_with("Whether") && p.ends_with('?') && next_is_objection {
            flush(doc, &cur_ref, &heading, &mut cur);
            article += 1;
            heading = Some(p.clone());
            cur_ref = format!("{cite}, a. {article}");
            continue;
        }
        let part_ref = if article == 0 {
            None
        } else {
            summa_part_ref(p).map(|part| format!("{cite}, a. {article}, {part}"))
        };
        if let Some(r) = part_ref {
            flush(doc, &cur_ref, &heading, &mut cur);
            cur_ref = r;
        }
        if !cur.is_empty() {
            cur.push_str("\n\n");
        }
        cur.push_str(p);
    }
    flush(doc, &cur_ref, &heading, &mut cur);
}

/// The part of an article a paragraph opens: `obj. 1`, `s.c.`, `co.`, `ad 1`.
fn summa_part_ref(p: &str) -> Option<String> {
    if let Some(rest) = p.strip_prefix("Reply to Objection") {
        return Some(format!("ad {}", leading_number(rest).unwrap_or(1)));
    }
    if let Some(rest) = p.strip_prefix("Reply Obj.") {
        return Some(format!("ad {}", leading_number(rest).unwrap_or(1)));
    }
    if let Some(rest) = p.strip_prefix("Objection") {
        return Some(format!("obj. {}", leading_number(rest).unwrap_or(1)));
    }
    if p.starts_with("On the contrary") {
        return Some("s.c.".into());
    }
    if p.starts_with("I answer that") {
        return Some("co.".into());
    }
    None
}

fn leading_number(s: &str) -> Option<u32> {
    let d: String = s
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    d.parse().ok()
}

#[derive(Deserialize)]
struct Quote {
    author: String,
    #[serde(rename = "ref")]
    reference: String,
    year: Option<i32>,
    #[serde(default)]
    source_title: Option<String>,
    #[serde(default)]
    source_url: Option<String>,
    #[serde(default)]
    append_to_author_name: Option<String>,
    quote: String,
}

/// Import `commentaries-database*.jsonl[.gz]`: one document per (author, Bible
/// book), one passage per quote, referenced by the verse (`"John 6:51"`).
/// Holds one dataset's quotes grouped in memory (~100 MB for the full file).
pub fn import_commentaries(path: &Path, sink: &mut dyn Sink) -> Result<u64, CorpusError> {
    let file = path.display().to_string();
    // (author, book) -> (year, quotes)
    let mut groups: BTreeMap<(String, String), (Option<i32>, Vec<Quote>)> = BTreeMap::new();
    for_each_line(path, sink, |line_no, line, sink| {
        let q: Quote = match serde_json::from_str(line) {
            Ok(q) => q,
            Err(e) => {
                sink.warn(format!("{file}: line {line_no}: bad record ({e}); skipped"));
                return Ok(());
            }
        };
        let Some(book) = ref_book(&q.reference) else {
            sink.warn(format!(
                "{file}: line {line_no}: reference {:?} is not \"Book C:V\"; skipped",
                q.reference
            ));
            return Ok(());
        };
        if q.quote.trim().is_empty() {
            sink.warn(format!("{file}: line {line_no}: empty quote; skipped"));
            return Ok(());
        }
        let e = groups
            .entry((q.author.clone(), book.to_string()))
            .or_insert((q.year, Vec::new()));
        e.1.push(q);
        Ok(())
    })?;
    let mut n = 0;
    for ((author, book), (year, mut quotes)) in groups {
        quotes.sort_by_key(|q| verse_key(&q.reference));
        let mut doc = Document::new(DocumentMeta {
            id: format!("cfc-{}-{}", slug(&author), slug(&book)),
            title: format!("{author} on {book}"),
            author: Some(author.clone()),
            date: year.map(|y| y.to_string()),
            year,
            doc_type: "commentary".into(),
            language: "en".into(),
            source_url: Some(
                "https://github.com/HistoricalChristianFaith/Commentaries-Database".into(),
            ),
            dataset: DATASET.into(),
            licence: C_LICENCE.into(),
            ..Default::default()
        });
        for q in quotes {
            let heading = q
                .source_title
                .clone()
                .map(|t| match &q.append_to_author_name {
                    Some(a) if !a.trim().is_empty() => format!("{t} ({})", a.trim()),
                    _ => t,
                });
            let text = crate::text::squash(&q.quote);
            doc.push(q.reference.clone(), heading, text);
            if let (Some(url), Some(p)) = (q.source_url, doc.passages.last_mut()) {
                p.url = Some(url);
            }
        }
        n += 1;
        sink.document(doc)?;
    }
    Ok(n)
}

/// The book of a `"Book C:V[-C:V]"` reference.
pub fn ref_book(r: &str) -> Option<&str> {
    let r = r.trim();
    let sp = r.rfind(' ')?;
    let (book, cv) = (&r[..sp], &r[sp + 1..]);
    (cv.contains(':') && cv.starts_with(|c: char| c.is_ascii_digit()) && !book.is_empty())
        .then_some(book)
}

fn verse_key(r: &str) -> (u32, u32) {
    let cv = r.rsplit(' ').next().unwrap_or("");
    let mut it = cv.split(['-', ':']);
    let c = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
    let v = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
    (c, v)
}
