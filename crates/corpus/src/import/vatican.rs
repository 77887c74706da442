//! vatican.va pages: the `corpus/papal-documents-pre1929` JSONL (one record
//! per document and language, with the page's `<div class="documento">` HTML),
//! and, for operators, a folder of downloaded vatican.va pages or a JSONL of
//! records in the same shape.
//!
//! Structure kept: numbered paragraphs (`"2. …"` → reference `"2"`; the
//! unnumbered paragraph before `"2."` is `"1"`), headings (short emphasised
//! or centred lines, `<h1>`–`<h6>`), footnotes (the blocks after the last
//! rule inside the text, referenced `"note 1"`, `"note *"`). The title block,
//! copyright lines and everything after `<!-- /TESTO -->` are dropped.

use super::{import_records, year_of, Sink};
use crate::html::{self, Block};
use crate::model::{is_magisterial_type, Document, DocumentMeta, PassageKind};
use crate::text::{looks_like_heading, slug};
use crate::CorpusError;
use serde::Deserialize;
use std::path::Path;

/// Dataset path of the pre-1929 papal documents.
pub const DATASET: &str = "corpus/papal-documents-pre1929";

/// One vatican.va record (the pre-1929 JSONL shape; also the operator JSONL shape).
#[derive(Debug, Deserialize, Default)]
pub struct VaticanRecord {
    /// Stable id (`leo-xiii-quum-diuturnum-1898-en`); derived from the URL when absent.
    #[serde(default)]
    pub id: Option<String>,
    /// Title.
    #[serde(default)]
    pub title: Option<String>,
    /// Pope (vatican.va slug: `leo-xiii`).
    #[serde(default)]
    pub pope: Option<String>,
    /// ISO date.
    #[serde(default)]
    pub date: Option<String>,
    /// Type (`encyclical`, `encyclicals`, `letter`, …).
    #[serde(default, rename = "type")]
    pub doc_type: Option<String>,
    /// Language code.
    #[serde(default)]
    pub language: Option<String>,
    /// vatican.va URL.
    #[serde(default, alias = "url")]
    pub source_url: Option<String>,
    /// The page HTML (whole page or the `documento` fragment).
    pub html: String,
    /// Upstream (popefeed / vatican.va file stem) id, kept in `extra`.
    #[serde(default)]
    pub upstream_id: Option<String>,
}

/// Pope slug → display name.
pub fn pope_name(slug: &str) -> String {
    let known = [
        ("leo-xiii", "Pope Leo XIII"),
        ("pius-x", "Pope Pius X"),
        ("benedict-xv", "Pope Benedict XV"),
        ("pius-xi", "Pope Pius XI"),
        ("pius-xii", "Pope Pius XII"),
        ("john-xxiii", "Pope John XXIII"),
        ("paul-vi", "Pope Paul VI"),
        ("john-paul-i", "Pope John Paul I"),
        ("john-paul-ii", "Pope John Paul II"),
        ("benedict-xvi", "Pope Benedict XVI"),
        ("francesco", "Pope Francis"),
        ("leo-xiv", "Pope Leo XIV"),
    ];
    known
        .iter()
        .find(|(k, _)| *k == slug)
        .map(|(_, v)| v.to_string())
        .unwrap_or_else(|| slug.to_string())
}

/// Normalise a vatican.va category to a document type (`encyclicals` → `encyclical`).
pub fn normalise_type(t: &str) -> String {
    let t = t.trim().to_lowercase().replace(['_', '-'], " ");
    match t.as_str() {
        "encyclicals" => "encyclical".into(),
        "letters" => "letter".into(),
        "speeches" => "speech".into(),
        "homilies" => "homily".into(),
        "messages" => "message".into(),
        "audiences" => "audience".into(),
        "apost exhortations" | "apost_exhortations" => "apostolic exhortation".into(),
        "apost letters" => "apostolic letter".into(),
        "apost constitutions" => "apostolic constitution".into(),
        "motu proprio" => "motu proprio".into(),
        "bulls" => "bull".into(),
        "briefs" => "brief".into(),
        "prayers" => "prayer".into(),
        "angelus" => "angelus".into(),
        "" => "document".into(),
        other => other.trim_end_matches('s').to_string(),
    }
}

/// Import a JSONL of [`VaticanRecord`]s. Returns documents imported.
pub fn import_jsonl(
    path: &Path,
    dataset: &str,
    licence: &str,
    sink: &mut dyn Sink,
) -> Result<u64, CorpusError> {
    import_records(path, sink, |rec: VaticanRecord| {
        record_document(rec, dataset, licence)
    })
}

/// Build a document from one record (metadata missing from the record is
/// taken from its vatican.va URL when possible).
pub fn record_document(
    rec: VaticanRecord,
    dataset: &str,
    licence: &str,
) -> Result<Document, String> {
    let url_meta = rec
        .source_url
        .as_deref()
        .map(url_metadata)
        .unwrap_or_default();
    let language = rec
        .language
        .clone()
        .or(url_meta.language.clone())
        .unwrap_or_else(|| "en".into())
        .to_lowercase();
    let pope = rec.pope.clone().or(url_meta.pope.clone());
    let doc_type = normalise_type(
        rec.doc_type
            .as_deref()
            .or(url_meta.doc_type.as_deref())
            .unwrap_or(""),
    );
    let date = rec
        .date
        .clone()
        .filter(|d| !d.trim().is_empty())
        .or(url_meta.date.clone());
    let id = match rec.id.clone().filter(|s| !s.trim().is_empty()) {
        Some(id) => slug(&id),
        None => match &url_meta.stem {
            Some(stem) => format!("va-{}-{language}", slug(stem)),
            None => return Err("no id and no vatican.va URL to derive one from".into()),
        },
    };
    let blocks = page_blocks(&rec.html);
    if blocks.is_empty() {
        return Err("no text in the HTML".into());
    }
    let title = rec
        .title
        .clone()
        .filter(|t| !t.trim().is_empty())
        .or_else(|| html::title(&rec.html))
        .or_else(|| blocks.first().map(|b| b.text.clone()))
        .unwrap_or_else(|| id.clone());
    let mut meta = DocumentMeta {
        id,
        title: crate::text::squash(&title),
        author: pope.as_deref().map(pope_name),
        year: date.as_deref().and_then(year_of),
        date,
        magisterial: is_magisterial_type(&doc_type),
        doc_type,
        language,
        source_url: rec.source_url.clone(),
        dataset: dataset.into(),
        licence: licence.into(),
        ..Default::default()
    };
    if let Some(u) = &rec.upstream_id {
        meta.extra.insert("upstream_id".into(), u.clone().into());
    }
    let mut doc = Document::new(meta.clone());
    let header = structure(&blocks, &mut doc);
    if !header.is_empty() {
        meta.extra.insert("header".into(), header.into());
    }
    doc.meta.extra = meta.extra;
    if doc.passages.is_empty() {
        return Err("no paragraphs after the title block".into());
    }
    Ok(doc)
}

/// The blocks of the document's text: the `documento` fragment up to
/// `<!-- /TESTO -->`, copyright lines dropped.
pub fn page_blocks(page: &str) -> Vec<Block> {
    let mut h = page;
    if let Some(i) = h.find("class=\"documento\"") {
        h = &h[h[..i].rfind('<').unwrap_or(0)..];
    }
    if let Some(i) = h.find("<!-- /TESTO -->") {
        h = &h[..i];
    }
    html::blocks(h)
        .into_iter()
        .filter(|b| !is_boilerplate(&b.text))
        .collect()
}

fn is_boilerplate(t: &str) -> bool {
    let l = t.to_lowercase();
    (l.contains("copyright") || l.contains('©'))
        && l.contains("libreria editrice vaticana")
        && t.len() < 200
}

fn para_number(t: &str) -> Option<(u32, &str)> {
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() || digits.len() > 4 {
        return None;
    }
    let rest = &t[digits.len()..];
    let rest = rest.strip_prefix('.').or_else(|| rest.strip_prefix(')'))?;
    if !rest.starts_with(' ') {
        return None;
    }
    Some((digits.parse().ok()?, rest.trim_start()))
}

fn note_marker(t: &str) -> Option<String> {
    let t = t.trim_start();
    if let Some(rest) = t.strip_prefix('*') {
        let _ = rest;
        return Some("*".into());
    }
    for (open, close) in [("[", "]"), ("(", ")")] {
        if let Some(rest) = t.strip_prefix(open) {
            let d: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            if !d.is_empty() && rest[d.len()..].starts_with(close) {
                return Some(d);
            }
        }
    }
    let d: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    if !d.is_empty() && d.len() <= 3 && t[d.len()..].starts_with([' ', '.']) {
        return Some(d);
    }
    None
}

/// Turn blocks into passages of `doc`; returns the header text (title block).
pub(crate) fn structure(blocks: &[Block], doc: &mut Document) -> String {
    // Title block: the leading centred blocks.
    let mut start = 0;
    let mut header = Vec::new();
    while start < blocks.len() && blocks[start].centered && start < 6 {
        header.push(blocks[start].text.clone());
        start += 1;
    }
    let body = &blocks[start..];
    // Footnotes: the blocks after the last rule, if they are notes.
    let last_hr = body.iter().map(|b| b.hr_before).max().unwrap_or(0);
    let mut note_start = body.len();
    if last_hr > 0 {
        let first_after = body
            .iter()
            .position(|b| b.hr_before == last_hr)
            .unwrap_or(body.len());
        let after = &body[first_after..];
        let after_chars: usize = after.iter().map(|b| b.text.len()).sum();
        let total: usize = body.iter().map(|b| b.text.len()).sum();
        let marked = after
            .iter()
            .filter(|b| note_marker(&b.text).is_some())
            .count();
        if !after.is_empty()
            && (marked * 2 >= after.len() || after_chars * 4 < total)
            && first_after > 0
        {
            note_start = first_after;
        }
    }
    let main = &body[..note_start];
    let numbered: Vec<u32> = main
        .iter()
        .filter_map(|b| para_number(&b.text).map(|n| n.0))
        .collect();
    let is_numbered = numbered.len() >= 2;
    let first_number = numbered.first().copied().unwrap_or(0);
    // Index of the block that is paragraph 1 when the numbering starts at 2.
    let implicit_one = if is_numbered && first_number == 2 {
        main.iter()
            .position(|b| para_number(&b.text).is_some())
            .and_then(|first_num| {
                main[..first_num]
                    .iter()
                    .rposition(|b| !is_heading(b) && b.text.len() > 120)
            })
    } else {
        None
    };
    let mut heading: Option<String> = None;
    let mut current: Option<String> = None;
    let mut seq = 0;
    for (i, b) in main.iter().enumerate() {
        let num = para_number(&b.text);
        if num.is_none() && is_heading(b) && i + 1 < main.len() {
            heading = Some(b.text.clone());
            continue;
        }
        let reference = if is_numbered {
            if let Some((n, _)) = num {
                current = Some(n.to_string());
                n.to_string()
            } else if Some(i) == implicit_one {
                current = Some("1".into());
                "1".into()
            } else {
                current.clone().unwrap_or_else(|| "intro".into())
            }
        } else {
            seq += 1;
            format!("¶{seq}")
        };
        doc.push(reference, heading.clone(), b.text.clone());
    }
    for (i, b) in body[note_start..].iter().enumerate() {
        let k = i + 1;
        let marker = note_marker(&b.text).unwrap_or_else(|| k.to_string());
        doc.push_kind(
            format!("note {marker}"),
            None,
            b.text.clone(),
            PassageKind::Note,
        );
    }
    header.join(" — ")
}

fn is_heading(b: &Block) -> bool {
    (b.heading_tag || b.emphasis >= 0.9 || b.centered)
        && looks_like_heading(&b.text)
        && para_number(&b.text).is_none()
}

/// What a vatican.va URL tells: pope, language, category, date stamp, file stem.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct UrlMeta {
    /// Pope slug.
    pub pope: Option<String>,
    /// Language code.
    pub language: Option<String>,
    /// Category (`encyclicals`).
    pub doc_type: Option<String>,
    /// ISO date from the file name stamp.
    pub date: Option<String>,
    /// File stem (`hf_l-xiii_enc_25121898_quum-diuturnum`).
    pub stem: Option<String>,
}

/// Parse `…/content/<pope>/<lang>/<category>/…/<stem>.html` (also a local path
/// that mirrors it). The date stamp `DDMMYYYY` or `YYYYMMDD` in the stem is read.
pub fn url_metadata(url: &str) -> UrlMeta {
    let mut m = UrlMeta::default();
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let segs: Vec<&str> = path.split(['/', '\\']).filter(|s| !s.is_empty()).collect();
    if let Some(i) = segs.iter().position(|s| *s == "content") {
        m.pope = segs.get(i + 1).map(|s| s.to_string());
        m.language = segs.get(i + 2).map(|s| s.to_string());
        m.doc_type = segs.get(i + 3).map(|s| s.to_string());
    }
    if let Some(last) = segs.last() {
        let stem = last.trim_end_matches(".html").trim_end_matches(".htm");
        m.stem = Some(stem.to_string());
        for part in stem.split(['_', '-']) {
            if part.len() == 8 && part.chars().all(|c| c.is_ascii_digit()) {
                let (a, b, c) = (&part[..2], &part[2..4], &part[4..]);
                // DDMMYYYY (hf_ files) or YYYYMMDD (newer files).
                let iso = if part.starts_with("19") || part.starts_with("20") {
                    let (y, mo, d) = (&part[..4], &part[4..6], &part[6..]);
                    format!("{y}-{mo}-{d}")
                } else {
                    format!("{c}-{b}-{a}")
                };
                let ok = iso[5..7]
                    .parse::<u32>()
                    .is_ok_and(|mo| (1..=12).contains(&mo))
                    && iso[8..].parse::<u32>().is_ok_and(|d| (1..=31).contains(&d));
                if ok {
                    m.date = Some(iso);
                    break;
                }
            }
        }
        if m.pope.is_none() {
            // hf_l-xiii_enc_…: abbreviations used in file names.
            let abbrev = [
                ("hf_l-xiii", "leo-xiii"),
                ("hf_p-x_", "pius-x"),
                ("hf_ben-xv", "benedict-xv"),
                ("hf_p-xi_", "pius-xi"),
                ("hf_p-xii", "pius-xii"),
                ("hf_j-xxiii", "john-xxiii"),
                ("hf_p-vi", "paul-vi"),
                ("hf_jp-i_", "john-paul-i"),
                ("hf_jp-ii", "john-paul-ii"),
                ("hf_ben-xvi", "benedict-xvi"),
                ("papa-francesco", "francesco"),
            ];
            m.pope = abbrev
                .iter()
                .find(|(a, _)| stem.starts_with(a))
                .map(|(_, p)| p.to_string());
        }
        if m.doc_type.is_none() {
            let kinds = [
                ("_enc_", "encyclicals"),
                ("_let_", "letters"),
                ("_spe_", "speeches"),
                ("_hom_", "homilies"),
                ("_mes_", "messages"),
                ("_exh_", "apost_exhortations"),
                ("_apl_", "apost_letters"),
                ("_aud_", "audiences"),
                ("_const_", "apost_constitutions"),
                ("_motu-proprio_", "motu_proprio"),
                ("enciclica", "encyclicals"),
                ("esortazione", "apost_exhortations"),
            ];
            m.doc_type = kinds
                .iter()
                .find(|(k, _)| stem.contains(k))
                .map(|(_, t)| t.to_string());
        }
    }
    m
}

/// Import one downloaded vatican.va page (operator folder). The id is
/// derived from the file stem and language, so re-imports keep it.
pub fn import_page(path: &Path, dataset: &str, sink: &mut dyn Sink) -> Result<bool, CorpusError> {
    let html = match std::fs::read(path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            sink.warn(format!("{}: unreadable ({e}); skipped", path.display()));
            return Ok(false);
        }
    };
    let p = path.to_string_lossy().replace('\\', "/");
    // A canonical link in the page wins over the local path.
    let canonical = html
        .find("rel=\"canonical\"")
        .and_then(|i| {
            let lo = crate::text::floor_char(&html, i.saturating_sub(300));
            let hi = crate::text::floor_char(&html, i + 300);
            let s = &html[lo..hi];
            let h = s.find("href=\"")? + 6;
            let e = s[h..].find('"')? + h;
            Some(s[h..e].to_string())
        })
        .filter(|u| u.contains("vatican.va"));
    let um = url_metadata(canonical.as_deref().unwrap_or(&p));
    let rec = VaticanRecord {
        id: um.stem.as_ref().map(|s| {
            format!(
                "va-{}-{}",
                slug(s),
                um.language.clone().unwrap_or_else(|| "en".into())
            )
        }),
        title: None,
        pope: um.pope.clone(),
        date: um.date.clone(),
        doc_type: um.doc_type.clone(),
        language: um.language.clone(),
        source_url: canonical,
        html,
        upstream_id: um.stem.clone(),
    };
    match record_document(rec, dataset, "operator-supplied") {
        Ok(doc) => {
            sink.document(doc)?;
            Ok(true)
        }
        Err(why) => {
            sink.warn(format!("{}: {why}; skipped", path.display()));
            Ok(false)
        }
    }
}
