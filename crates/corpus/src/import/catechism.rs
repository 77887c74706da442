//! The Baltimore Catechism (Project Gutenberg plain text, Nos. 1–4): one
//! document per volume, one passage per question with its answer (and, in
//! No. 4, its explanation), referenced `"Q. 12"`, under its lesson heading.

use super::{read_maybe_gz, Sink};
use crate::model::{Document, DocumentMeta};
use crate::text::{chunk_paragraphs, paragraphs, squash};
use crate::CorpusError;
use std::path::Path;

/// Dataset path.
pub const DATASET: &str = "corpus/baltimore-catechism";

/// The question number at the start of a line, in any of the volumes' styles:
/// `12. Q. …`, `12 Q. …`, `*12 Q. …`, `Q. 12. …`. Returns (number, question text).
pub fn question_start(line: &str) -> Option<(u32, &str)> {
    let t = line.trim_start().trim_start_matches('*');
    if let Some(rest) = t.strip_prefix("Q.") {
        let rest = rest.trim_start();
        let d: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if d.is_empty() {
            return None;
        }
        let after = rest[d.len()..].trim_start_matches('.').trim_start();
        return Some((d.parse().ok()?, after));
    }
    let d: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    if d.is_empty() || d.len() > 4 {
        return None;
    }
    let rest = t[d.len()..].trim_start_matches('.').trim_start();
    let q = rest.strip_prefix("Q.")?;
    Some((d.parse().ok()?, q.trim_start()))
}

fn is_caps_heading(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 4
        && t.len() < 90
        && t.chars().any(|c| c.is_alphabetic())
        && !t.chars().any(|c| c.is_lowercase())
        && !t.starts_with("Q.")
        && !t.starts_with("A.")
}

/// Import one volume. `volume`: 1–4.
pub fn import_volume(path: &Path, volume: u32, sink: &mut dyn Sink) -> Result<bool, CorpusError> {
    let raw = read_maybe_gz(path)?;
    let file = path.display().to_string();
    let start = raw
        .find("*** START")
        .and_then(|i| raw[i..].find('\n').map(|j| i + j + 1))
        .unwrap_or(0);
    let end = raw.find("*** END").unwrap_or(raw.len()).max(start);
    let body = &raw[start..end];
    let title = raw
        .lines()
        .find_map(|l| l.strip_prefix("Title:"))
        .map(squash)
        .unwrap_or_else(|| format!("Baltimore Catechism No. {volume}"));
    let mut doc = Document::new(DocumentMeta {
        id: format!("baltimore-catechism-{volume}"),
        title,
        author: Some("Third Plenary Council of Baltimore".into()),
        date: Some("1885".into()),
        year: Some(1885),
        doc_type: "catechism".into(),
        language: "en".into(),
        source_url: Some(format!(
            "https://www.gutenberg.org/ebooks/{}",
            14550 + volume
        )),
        dataset: DATASET.into(),
        licence: "public domain (US); Project Gutenberg text".into(),
        magisterial: true,
        ..Default::default()
    });
    let mut heading: Option<String> = None;
    let mut pending_heading: Vec<String> = Vec::new();
    let mut current: Option<(u32, String)> = None;
    let mut intro = String::new();
    let mut last_q = 0u32;
    let lines: Vec<&str> = body.lines().collect();
    let flush =
        |doc: &mut Document, current: &mut Option<(u32, String)>, heading: &Option<String>| {
            if let Some((n, text)) = current.take() {
                let paras = paragraphs(&text);
                let joined = paras.join("\n\n");
                if joined.len() <= 4000 {
                    doc.push(format!("Q. {n}"), heading.clone(), joined);
                } else {
                    for c in chunk_paragraphs(&paras) {
                        doc.push(format!("Q. {n}"), heading.clone(), c.text);
                    }
                }
            }
        };
    let mut appendix = String::new();
    let mut in_appendix = false;
    for (i, line) in lines.iter().enumerate() {
        if in_appendix {
            appendix.push_str(line);
            appendix.push('\n');
            continue;
        }
        if line.trim() == "STOP_PARSING" {
            // The catebot marker after the last question: prayers and
            // appendices follow, not part of any answer.
            flush(&mut doc, &mut current, &heading);
            in_appendix = true;
            continue;
        }
        let prev_blank = i == 0 || lines[i - 1].trim().is_empty();
        if let Some((n, _)) = question_start(line) {
            flush(&mut doc, &mut current, &heading);
            if !pending_heading.is_empty() {
                heading = Some(pending_heading.join(": "));
                pending_heading.clear();
            }
            if n <= last_q && n != 1 {
                tracing::debug!("{file}: question {n} after {last_q}");
            }
            last_q = n;
            current = Some((n, format!("{}\n", line.trim().trim_start_matches('*'))));
            continue;
        }
        if is_caps_heading(line) && (prev_blank || !pending_heading.is_empty()) {
            pending_heading.push(squash(line));
            continue;
        }
        if !pending_heading.is_empty() && !line.trim().is_empty() {
            // Caps lines followed by prose: part of the text, not a heading.
            let h = pending_heading.join("\n");
            pending_heading.clear();
            match current.as_mut() {
                Some((_, t)) => {
                    t.push_str(&h);
                    t.push('\n');
                }
                None => {
                    intro.push_str(&h);
                    intro.push('\n');
                }
            }
        }
        match current.as_mut() {
            Some((_, t)) => {
                t.push_str(line);
                t.push('\n');
            }
            None => {
                intro.push_str(line);
                intro.push('\n');
            }
        }
    }
    flush(&mut doc, &mut current, &heading);
    for (i, c) in chunk_paragraphs(&paragraphs(&appendix))
        .into_iter()
        .enumerate()
    {
        doc.push(format!("appendix §{}", i + 1), c.heading, c.text);
    }
    if doc.passages.is_empty() {
        sink.warn(format!("{file}: no numbered questions found; skipped"));
        return Ok(false);
    }
    // Front matter before the first question: kept as introduction passages.
    let intro_chunks = chunk_paragraphs(&paragraphs(&intro));
    if !intro_chunks.is_empty() {
        let mut passages: Vec<crate::model::Passage> = intro_chunks
            .into_iter()
            .enumerate()
            .map(|(i, c)| crate::model::Passage {
                index: 0,
                reference: format!("intro §{}", i + 1),
                heading: c.heading,
                kind: crate::model::PassageKind::Body,
                text: c.text,
                url: None,
            })
            .collect();
        passages.append(&mut doc.passages);
        for (i, p) in passages.iter_mut().enumerate() {
            p.index = i;
        }
        doc.passages = passages;
    }
    sink.document(doc)?;
    Ok(true)
}
