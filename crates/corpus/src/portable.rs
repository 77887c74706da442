//! Portable transformer vectors: a set computed once (on a GPU, or on another
//! machine) is written to one file and loaded into the vector cache of any
//! install with the same model and the same store generation.
//!
//! The file: a first line `ecclesia-embeddings 1`, a JSON header line
//! (`model`, `dim`, `generation`, `rows`, `sha256` of the body), then `rows`
//! binary rows of the SHA-256 of the embedded text (32 bytes), the vector's
//! scale (f32, little-endian) and its `dim` i8 components. An import checks
//! the model, the generation, the body's length and its checksum before it
//! writes anything to the cache.

use crate::semantic::{content_hash, english_ranges, passage_text, EmbeddingCache};
use crate::CorpusError;
use rusqlite::{params, Connection, OpenFlags};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;

/// First line of an embeddings file.
pub const MAGIC: &str = "ecclesia-embeddings 1";
/// Longest header line read.
const MAX_HEADER: u64 = 64 * 1024;
/// Rows written to the cache per transaction.
const IMPORT_BATCH: usize = 4096;

/// What a set of vectors belongs to: both must match for an import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VectorSet {
    /// The model id (name and weights hash), as the cache keys it.
    pub model: String,
    /// Vector dimension.
    pub dim: usize,
    /// The store generation whose passages the vectors embed (`gen-…`).
    pub generation: String,
}

/// The header line of an embeddings file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The model id.
    pub model: String,
    /// Vector dimension.
    pub dim: usize,
    /// The store generation.
    pub generation: String,
    /// Rows in the body.
    pub rows: u64,
    /// SHA-256 of the body, hex.
    pub sha256: String,
}

fn err(path: &Path, what: impl std::fmt::Display) -> CorpusError {
    CorpusError::Portable(format!("{}: {what}", path.display()))
}

/// Write the cached vectors of the store's English passages (each distinct
/// text once) to `out`. Returns the header written.
pub fn export(
    corpus_db: &Path,
    cache: &EmbeddingCache,
    set: &VectorSet,
    out: &Path,
) -> Result<Header, CorpusError> {
    let conn = Connection::open_with_flags(
        corpus_db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let body_path = out.with_extension("body.part");
    let result = write_body(&conn, cache, set, &body_path).and_then(|(rows, sha)| {
        let header = Header {
            model: set.model.clone(),
            dim: set.dim,
            generation: set.generation.clone(),
            rows,
            sha256: sha,
        };
        let mut w = BufWriter::new(std::fs::File::create(out).map_err(|e| err(out, e))?);
        let line = serde_json::to_string(&header).map_err(|e| err(out, e))?;
        writeln!(w, "{MAGIC}\n{line}").map_err(|e| err(out, e))?;
        let mut body = std::fs::File::open(&body_path).map_err(|e| err(&body_path, e))?;
        std::io::copy(&mut body, &mut w).map_err(|e| err(out, e))?;
        w.flush().map_err(|e| err(out, e))?;
        Ok(header)
    });
    let _ = std::fs::remove_file(&body_path);
    result
}

fn write_body(
    conn: &Connection,
    cache: &EmbeddingCache,
    set: &VectorSet,
    path: &Path,
) -> Result<(u64, String), CorpusError> {
    let mut w = BufWriter::new(std::fs::File::create(path).map_err(|e| err(path, e))?);
    let mut sha = Sha256::new();
    let mut seen: HashSet<[u8; 32]> = HashSet::new();
    let mut rows = 0u64;
    let mut st = conn
        .prepare("SELECT heading, text FROM passages WHERE ord >= ?1 AND ord < ?2 ORDER BY ord")?;
    for (first, count) in english_ranges(conn)? {
        let mut q = st.query(params![first as i64, (first + count) as i64])?;
        while let Some(r) = q.next()? {
            let heading: Option<String> = r.get(0)?;
            let text: String = r.get(1)?;
            let hash = content_hash(&passage_text(heading.as_deref(), &text));
            if !seen.insert(hash) {
                continue;
            }
            let Some((v, scale)) = cache.get(&hash)? else {
                continue;
            };
            if v.len() != set.dim {
                continue;
            }
            let mut row = Vec::with_capacity(36 + set.dim);
            row.extend_from_slice(&hash);
            row.extend_from_slice(&scale.to_le_bytes());
            row.extend(v.iter().map(|&x| x as u8));
            sha.update(&row);
            w.write_all(&row).map_err(|e| err(path, e))?;
            rows += 1;
        }
    }
    w.flush().map_err(|e| err(path, e))?;
    Ok((rows, hex::encode(sha.finalize())))
}

/// Read and check the header of an embeddings file against `set`.
pub fn read_header(file: &Path, set: &VectorSet) -> Result<Header, CorpusError> {
    let (header, _) = open_checked(file, set)?;
    Ok(header)
}

fn open_checked(
    file: &Path,
    set: &VectorSet,
) -> Result<(Header, BufReader<std::fs::File>), CorpusError> {
    let f = std::fs::File::open(file).map_err(|e| err(file, e))?;
    let mut r = BufReader::new(f);
    let mut line = String::new();
    let mut limited = (&mut r).take(MAX_HEADER);
    limited.read_line(&mut line).map_err(|e| err(file, e))?;
    if line.trim_end() != MAGIC {
        return Err(err(
            file,
            format!("not an embeddings file (no {MAGIC:?} line)"),
        ));
    }
    line.clear();
    let mut limited = (&mut r).take(MAX_HEADER);
    limited.read_line(&mut line).map_err(|e| err(file, e))?;
    let header: Header =
        serde_json::from_str(line.trim_end()).map_err(|e| err(file, format!("bad header: {e}")))?;
    if header.model != set.model {
        return Err(err(
            file,
            format!(
                "the vectors are of model {}, this install uses {}: recompute them or configure that model",
                header.model, set.model
            ),
        ));
    }
    if header.dim != set.dim {
        return Err(err(
            file,
            format!(
                "{}-dimension vectors, the model gives {}",
                header.dim, set.dim
            ),
        ));
    }
    if header.generation != set.generation {
        return Err(err(
            file,
            format!(
                "the vectors embed store generation {}, this store serves {}: export them again from a store of this generation",
                header.generation, set.generation
            ),
        ));
    }
    Ok((header, r))
}

/// Check an embeddings file against `set` (model, generation, length,
/// checksum), then write its vectors to `cache`. Returns the header.
pub fn import(
    file: &Path,
    cache: &mut EmbeddingCache,
    set: &VectorSet,
) -> Result<Header, CorpusError> {
    let row_len = 36 + set.dim;
    // First pass: the checksum and the length, before anything is written.
    let (header, mut r) = open_checked(file, set)?;
    let want = header
        .rows
        .checked_mul(row_len as u64)
        .ok_or_else(|| err(file, "row count out of range"))?;
    let mut sha = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut got = 0u64;
    loop {
        let n = r.read(&mut buf).map_err(|e| err(file, e))?;
        if n == 0 {
            break;
        }
        got += n as u64;
        if got > want {
            return Err(err(file, format!("longer than its {} rows", header.rows)));
        }
        sha.update(&buf[..n]);
    }
    if got != want {
        return Err(err(
            file,
            format!(
                "truncated: {got} bytes of vectors, {} rows need {want}",
                header.rows
            ),
        ));
    }
    if hex::encode(sha.finalize()) != header.sha256 {
        return Err(err(file, "checksum mismatch: the file is corrupt"));
    }
    // Second pass: the rows into the cache.
    let (_, mut r) = open_checked(file, set)?;
    let mut row = vec![0u8; row_len];
    let mut batch: Vec<([u8; 32], Vec<i8>, f32)> = Vec::with_capacity(IMPORT_BATCH);
    for _ in 0..header.rows {
        r.read_exact(&mut row).map_err(|e| err(file, e))?;
        let mut hash = [0u8; 32];
        hash.copy_from_slice(&row[..32]);
        let scale = f32::from_le_bytes([row[32], row[33], row[34], row[35]]);
        if !scale.is_finite() || scale < 0.0 {
            return Err(err(file, "a row has an invalid scale"));
        }
        batch.push((hash, row[36..].iter().map(|&b| b as i8).collect(), scale));
        if batch.len() == IMPORT_BATCH {
            put(cache, &mut batch)?;
        }
    }
    put(cache, &mut batch)?;
    Ok(header)
}

fn put(
    cache: &mut EmbeddingCache,
    batch: &mut Vec<([u8; 32], Vec<i8>, f32)>,
) -> Result<(), CorpusError> {
    let items: Vec<([u8; 32], &[i8], f32)> = batch
        .iter()
        .map(|(h, v, s)| (*h, v.as_slice(), *s))
        .collect();
    cache.put_many(&items)?;
    batch.clear();
    Ok(())
}
