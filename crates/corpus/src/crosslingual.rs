//! Documents found across languages: one multilingual vector per document
//! written in a language other than English (the papal letters, speeches and
//! homilies that exist only in Italian, Latin, French, Spanish or
//! Portuguese), so that a question in Czech, Chinese or Bengali about one of
//! them reaches it. The encoder is handed in (multilingual-e5-small, wired
//! by the skills crate); without it nothing changes.
//!
//! The vectors are computed once in the background (a few minutes on two
//! cores for the ~330 documents) and cached beside the store, keyed by the
//! encoder's id; search uses them when they are complete.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

/// Encodes a text: `(text, is_query)` → L2-normalised vector.
pub type Encode = Box<dyn Fn(&str, bool) -> Result<Vec<f32>, String> + Send + Sync>;

/// Characters of a document (title, then its first passages) encoded.
pub const DOC_CHARS: usize = 1200;
/// Cache file magic.
const MAGIC: &[u8; 8] = b"ECLXL001";

/// The document vectors, complete.
#[derive(Debug, Default)]
struct Vectors {
    docs: Vec<u32>,
    dim: usize,
    data: Vec<f32>,
}

/// Progress of the document vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CrossStatus {
    /// Documents with a vector.
    pub done: usize,
    /// Documents to encode.
    pub total: usize,
}

/// The cross-language document vectors and their encoder.
pub struct CrossLingual {
    encode: Encode,
    model_id: String,
    vectors: RwLock<Option<Vectors>>,
    progress: std::sync::atomic::AtomicUsize,
    total: std::sync::atomic::AtomicUsize,
}

impl std::fmt::Debug for CrossLingual {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CrossLingual")
            .field("model_id", &self.model_id)
            .field("status", &self.status())
            .finish()
    }
}

impl CrossLingual {
    /// An index for the encoder `model_id` (its vectors are only valid for it).
    pub fn new(model_id: impl Into<String>, encode: Encode) -> Arc<CrossLingual> {
        Arc::new(CrossLingual {
            encode,
            model_id: model_id.into(),
            vectors: RwLock::new(None),
            progress: 0.into(),
            total: 0.into(),
        })
    }

    /// How far the vectors are.
    pub fn status(&self) -> CrossStatus {
        use std::sync::atomic::Ordering::Relaxed;
        CrossStatus {
            done: self.progress.load(Relaxed),
            total: self.total.load(Relaxed),
        }
    }

    /// True when every document has its vector.
    pub fn ready(&self) -> bool {
        self.vectors.read().is_ok_and(|v| v.is_some())
    }

    /// The cache file for `docs` (document, text) under `dir`.
    pub fn cache_path(&self, dir: &Path) -> PathBuf {
        let safe: String = self
            .model_id
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .take(40)
            .collect();
        dir.join(format!("crosslingual-{safe}.bin"))
    }

    /// Load the vectors of `docs` from `cache`, or encode them (and write
    /// the cache). Meant for a background thread; a stale or damaged cache
    /// is recomputed.
    pub fn build(&self, docs: &[(u32, String)], cache: &Path) -> Result<(), String> {
        use std::sync::atomic::Ordering::Relaxed;
        self.total.store(docs.len(), Relaxed);
        let ids: Vec<u32> = docs.iter().map(|d| d.0).collect();
        if let Some(v) = read_cache(cache, &ids) {
            self.progress.store(docs.len(), Relaxed);
            *self.vectors.write().map_err(|_| "poisoned")? = Some(v);
            return Ok(());
        }
        let mut data = Vec::new();
        let mut dim = 0;
        for (i, (_, text)) in docs.iter().enumerate() {
            let v = (self.encode)(text, false)?;
            if dim == 0 {
                dim = v.len();
            }
            if v.len() != dim || dim == 0 {
                return Err(format!("the encoder gave {} values, not {dim}", v.len()));
            }
            data.extend_from_slice(&v);
            self.progress.store(i + 1, Relaxed);
        }
        let v = Vectors {
            docs: ids,
            dim,
            data,
        };
        if let Err(e) = write_cache(cache, &v) {
            tracing::warn!(path = %cache.display(), error = %e, "cross-language vectors not cached");
        }
        *self.vectors.write().map_err(|_| "poisoned")? = Some(v);
        Ok(())
    }

    /// Documents closest to `query`, best first, at most `n`, each with how
    /// far its cosine stands above the others' (standard deviations over
    /// every document: a question about one document gives it a score far
    /// above the rest, a general one a flat list); empty until the vectors
    /// are complete or when the encoder fails.
    pub fn standing_out(&self, query: &str, n: usize) -> Vec<(u32, f32)> {
        let all = self.ranked(query, usize::MAX);
        if all.len() < 2 {
            return Vec::new();
        }
        let len = all.len() as f32;
        let mean = all.iter().map(|x| x.1).sum::<f32>() / len;
        let sd = (all.iter().map(|x| (x.1 - mean).powi(2)).sum::<f32>() / len).sqrt();
        if sd <= f32::EPSILON {
            return Vec::new();
        }
        all.into_iter()
            .take(n)
            .map(|(d, c)| (d, (c - mean) / sd))
            .collect()
    }

    /// Documents closest to `query` with their cosines, best first, at most
    /// `n`; empty until the vectors are complete or when the encoder fails.
    pub fn ranked(&self, query: &str, n: usize) -> Vec<(u32, f32)> {
        let Ok(guard) = self.vectors.read() else {
            return Vec::new();
        };
        let Some(v) = guard.as_ref() else {
            return Vec::new();
        };
        let q = match (self.encode)(query, true) {
            Ok(q) if q.len() == v.dim => q,
            Ok(_) | Err(_) => return Vec::new(),
        };
        let mut scored: Vec<(u32, f32)> = v
            .docs
            .iter()
            .zip(v.data.chunks_exact(v.dim))
            .map(|(d, row)| (*d, row.iter().zip(&q).map(|(a, b)| a * b).sum()))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.truncate(n);
        scored
    }
}

fn read_cache(path: &Path, ids: &[u32]) -> Option<Vectors> {
    let mut f = std::fs::File::open(path).ok()?;
    let mut head = [0u8; 16];
    f.read_exact(&mut head).ok()?;
    if &head[..8] != MAGIC {
        return None;
    }
    let n = u32::from_le_bytes(head[8..12].try_into().ok()?) as usize;
    let dim = u32::from_le_bytes(head[12..16].try_into().ok()?) as usize;
    if n != ids.len() || dim == 0 || dim > 4096 {
        return None;
    }
    let mut rest = Vec::new();
    f.read_to_end(&mut rest).ok()?;
    if rest.len() != n * 4 + n * dim * 4 {
        return None;
    }
    let (id_bytes, vec_bytes) = rest.split_at(n * 4);
    let docs: Vec<u32> = id_bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if docs != ids {
        return None;
    }
    let data = vec_bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Some(Vectors { docs, dim, data })
}

fn write_cache(path: &Path, v: &Vectors) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        f.write_all(MAGIC)?;
        f.write_all(&(v.docs.len() as u32).to_le_bytes())?;
        f.write_all(&(v.dim as u32).to_le_bytes())?;
        for d in &v.docs {
            f.write_all(&d.to_le_bytes())?;
        }
        for x in &v.data {
            f.write_all(&x.to_le_bytes())?;
        }
        f.flush()?;
    }
    std::fs::rename(tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy encoder: counts of a few words, normalised.
    fn toy() -> Arc<CrossLingual> {
        CrossLingual::new(
            "toy",
            Box::new(|t: &str, _| {
                let t = t.to_lowercase();
                let mut v: Vec<f32> = ["rosario|rosary", "guerra|war", "musica|music"]
                    .iter()
                    .map(|k| k.split('|').filter(|w| t.contains(w)).count() as f32 + 0.01)
                    .collect();
                let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                v.iter_mut().for_each(|x| *x /= n);
                Ok(v)
            }),
        )
    }

    #[test]
    fn finds_the_document_in_another_language_and_caches() {
        let dir = tempfile::tempdir().unwrap();
        let docs = vec![
            (3, "Il santo rosario".to_string()),
            (7, "La guerra e la pace".to_string()),
            (9, "La musica sacra".to_string()),
        ];
        let x = toy();
        assert!(x.ranked("war", 3).is_empty(), "not ready yet");
        let cache = x.cache_path(dir.path());
        x.build(&docs, &cache).unwrap();
        assert_eq!(x.status(), CrossStatus { done: 3, total: 3 });
        assert_eq!(x.ranked("the pope on the war", 3)[0].0, 7);
        // a second index reads the cache; other documents recompute
        let y = toy();
        y.build(&docs, &cache).unwrap();
        assert_eq!(y.ranked("rosary", 1)[0].0, 3);
        std::fs::write(&cache, b"garbage").unwrap();
        let z = toy();
        z.build(&docs[..2], &cache).unwrap();
        assert_eq!(z.ranked("music", 2).len(), 2);
    }
}
