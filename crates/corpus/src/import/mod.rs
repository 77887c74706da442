//! Importers: each reads one dataset (streaming) and hands [`Document`]s to a
//! sink; malformed records become warnings with file and position.

use crate::model::Document;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

pub mod bible;
pub mod catalog;
pub mod catechism;
pub mod church_fathers;
pub mod generic;
pub mod registry;
pub mod vatican;

/// Where importers send documents and warnings.
pub trait Sink {
    /// Store one document.
    fn document(&mut self, doc: Document) -> Result<(), crate::CorpusError>;
    /// Report a skipped record: `file`, position (`line 12`, `entry 7`), what is wrong.
    fn warn(&mut self, msg: String);
}

/// A sink that collects documents in memory (tests, small imports).
#[derive(Debug, Default)]
pub struct VecSink {
    /// Documents received.
    pub docs: Vec<Document>,
    /// Warnings received.
    pub warnings: Vec<String>,
}

impl Sink for VecSink {
    fn document(&mut self, doc: Document) -> Result<(), crate::CorpusError> {
        self.docs.push(doc);
        Ok(())
    }
    fn warn(&mut self, msg: String) {
        self.warnings.push(msg);
    }
}

/// Open a file for streaming, gunzipping `*.gz`.
pub fn open_maybe_gz(path: &Path) -> Result<Box<dyn BufRead>, crate::CorpusError> {
    let f = std::fs::File::open(path)
        .map_err(|e| crate::CorpusError::Io(format!("{}: {e}", path.display())))?;
    let r: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::MultiGzDecoder::new(f))
    } else {
        Box::new(f)
    };
    Ok(Box::new(BufReader::with_capacity(1 << 20, r)))
}

/// Read a whole (small) file, gunzipping `*.gz`.
pub fn read_maybe_gz(path: &Path) -> Result<String, crate::CorpusError> {
    let mut s = String::new();
    open_maybe_gz(path)?
        .read_to_string(&mut s)
        .map_err(|e| crate::CorpusError::Io(format!("{}: {e}", path.display())))?;
    Ok(s)
}

/// Import a JSONL file of records of type `T`, converting each with `convert`.
/// A line that does not parse, or that `convert` refuses, is reported with its
/// file and line number and skipped. Returns the documents imported.
pub fn import_records<T: serde::de::DeserializeOwned>(
    path: &Path,
    sink: &mut dyn Sink,
    mut convert: impl FnMut(T) -> Result<crate::model::Document, String>,
) -> Result<u64, crate::CorpusError> {
    let file = path.display().to_string();
    let mut n = 0;
    for_each_line(path, sink, |line_no, line, sink| {
        let rec: T = match serde_json::from_str(line) {
            Ok(r) => r,
            Err(e) => {
                sink.warn(format!("{file}: line {line_no}: bad record ({e}); skipped"));
                return Ok(());
            }
        };
        match convert(rec) {
            Ok(doc) => {
                n += 1;
                sink.document(doc)
            }
            Err(why) => {
                sink.warn(format!("{file}: line {line_no}: {why}; skipped"));
                Ok(())
            }
        }
    })?;
    Ok(n)
}

/// Call `f(line_number, line)` for each non-blank line of a JSONL file (1-based
/// numbers); a line that cannot be read as text is reported and skipped.
pub fn for_each_line(
    path: &Path,
    sink: &mut dyn Sink,
    mut f: impl FnMut(usize, &str, &mut dyn Sink) -> Result<(), crate::CorpusError>,
) -> Result<usize, crate::CorpusError> {
    let mut r = open_maybe_gz(path)?;
    let mut buf = Vec::new();
    let mut n = 0;
    let mut count = 0;
    loop {
        buf.clear();
        let read = r.read_until(b'\n', &mut buf).map_err(|e| {
            crate::CorpusError::Io(format!("{}: line {}: {e}", path.display(), n + 1))
        })?;
        if read == 0 {
            break;
        }
        n += 1;
        match std::str::from_utf8(&buf) {
            Ok(line) if line.trim().is_empty() => {}
            Ok(line) => {
                count += 1;
                f(n, line, sink)?;
            }
            Err(e) => sink.warn(format!(
                "{}: line {n}: not UTF-8 ({e}); skipped",
                path.display()
            )),
        }
    }
    Ok(count)
}

/// Year from an ISO date or a leading 4-digit year.
pub fn year_of(date: &str) -> Option<i32> {
    let d: String = date.trim().chars().take(4).collect();
    (d.len() == 4 && d.chars().all(|c| c.is_ascii_digit()))
        .then(|| d.parse().ok())
        .flatten()
}
