//! Documents found across languages: multilingual vectors for the texts
//! written in a language other than English (the papal letters, speeches and
//! homilies that exist only in Italian, Latin, French, Spanish or
//! Portuguese, the Latin Fathers), so that a question in Czech, Chinese or
//! Bengali about one of them reaches it. The encoder is handed in
//! (multilingual-e5-small, wired by the skills crate); without it nothing
//! changes.
//!
//! Two kinds of [`Unit`] are encoded, in this order: each document's head
//! (its title and first passages, a few minutes on two cores for the ~300
//! documents), then every passage of those documents (about 5,600, some 20
//! minutes more), so that a question about what a speech says halfway
//! through finds that passage. Search uses the vectors as soon as the heads
//! are done and takes each passage as it arrives. The vectors are cached
//! beside the store, keyed by the encoder's id; the cache is written as the
//! work goes, so a restart resumes where it stopped.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, RwLock};

/// Encodes a text: `(text, is_query)` → L2-normalised vector.
pub type Encode = Box<dyn Fn(&str, bool) -> Result<Vec<f32>, String> + Send + Sync>;

/// Characters of a document's head (title, then its first passages) encoded.
pub const DOC_CHARS: usize = 1200;
/// Characters of one passage encoded (its document's title first): the
/// encoder reads 512 tokens at most.
pub const PASSAGE_CHARS: usize = 1500;
/// Cache file magic.
const MAGIC: &[u8; 8] = b"ECLXL002";
/// Units encoded between two writes of the cache.
const CACHE_EVERY: usize = 400;

/// One text to encode: the document it finds and the passage shown for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Document index.
    pub doc: u32,
    /// The passage shown when this unit is the document's best.
    pub ord: u32,
    /// What is encoded.
    pub text: String,
}

/// The vectors encoded so far, in unit order.
#[derive(Debug, Default)]
struct Vectors {
    docs: Vec<u32>,
    ords: Vec<u32>,
    dim: usize,
    data: Vec<f32>,
}

impl Vectors {
    fn len(&self) -> usize {
        self.docs.len()
    }
}

/// Progress of the vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CrossStatus {
    /// Units with a vector.
    pub done: usize,
    /// Units to encode.
    pub total: usize,
    /// Units needed before search uses them (the document heads).
    pub usable_after: usize,
}

/// The cross-language vectors and their encoder.
pub struct CrossLingual {
    encode: Encode,
    model_id: String,
    vectors: RwLock<Vectors>,
    progress: AtomicUsize,
    total: AtomicUsize,
    usable_after: AtomicUsize,
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
            vectors: RwLock::new(Vectors::default()),
            progress: 0.into(),
            total: 0.into(),
            usable_after: AtomicUsize::new(usize::MAX),
        })
    }

    /// How far the vectors are.
    pub fn status(&self) -> CrossStatus {
        CrossStatus {
            done: self.progress.load(Relaxed),
            total: self.total.load(Relaxed),
            usable_after: self
                .usable_after
                .load(Relaxed)
                .min(self.total.load(Relaxed)),
        }
    }

    /// True when search may use the vectors: every document head is encoded.
    pub fn ready(&self) -> bool {
        let s = self.status();
        s.total > 0 && s.done >= s.usable_after
    }

    /// The cache file under `dir`.
    pub fn cache_path(&self, dir: &Path) -> PathBuf {
        let safe: String = self
            .model_id
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .take(40)
            .collect();
        dir.join(format!("crosslingual-{safe}.bin"))
    }

    /// Encode `units` (taking what `cache` already holds for them, and
    /// writing it as the work goes); search may use them once the first
    /// `usable_after` are done. Meant for a background thread; a stale or
    /// damaged cache is recomputed.
    pub fn build(&self, units: &[Unit], usable_after: usize, cache: &Path) -> Result<(), String> {
        let start = self.load_cached(units, usable_after, cache)?;
        for (i, unit) in units.iter().enumerate().skip(start) {
            let v = (self.encode)(&unit.text, false)?;
            {
                let mut g = self.vectors.write().map_err(|_| "poisoned")?;
                if g.dim == 0 {
                    g.dim = v.len();
                }
                if v.len() != g.dim || g.dim == 0 {
                    return Err(format!(
                        "the encoder gave {} values, not {}",
                        v.len(),
                        g.dim
                    ));
                }
                g.docs.push(unit.doc);
                g.ords.push(unit.ord);
                g.data.extend_from_slice(&v);
            }
            self.progress.store(i + 1, Relaxed);
            if (i + 1) % CACHE_EVERY == 0 || i + 1 == units.len() {
                self.save(cache);
            }
        }
        Ok(())
    }

    /// Take what `cache` holds for `units` and encode nothing (a one-shot
    /// command); returns how many units that is.
    pub fn load_cached(
        &self,
        units: &[Unit],
        usable_after: usize,
        cache: &Path,
    ) -> Result<usize, String> {
        self.total.store(units.len(), Relaxed);
        self.usable_after.store(usable_after, Relaxed);
        let cached = read_cache(cache, units).unwrap_or_default();
        let n = cached.len();
        self.progress.store(n, Relaxed);
        *self.vectors.write().map_err(|_| "poisoned")? = cached;
        Ok(n)
    }

    fn save(&self, cache: &Path) {
        let Ok(g) = self.vectors.read() else {
            return;
        };
        if let Err(e) = write_cache(cache, &g) {
            tracing::warn!(path = %cache.display(), error = %e, "cross-language vectors not cached");
        }
    }

    /// Documents closest to `query`, best first, at most `n`, each as
    /// (document, its closest passage, how far its cosine stands above the
    /// others' in standard deviations over
    /// every document: a question about one document gives it a score far
    /// above the rest, a general one a flat list); empty until the vectors
    /// are usable or when the encoder fails.
    pub fn standing_out(&self, query: &str, n: usize) -> Vec<(u32, u32, f32)> {
        let all = self.ranked(query, usize::MAX);
        if all.len() < 2 {
            return Vec::new();
        }
        let len = all.len() as f32;
        let mean = all.iter().map(|x| x.2).sum::<f32>() / len;
        let sd = (all.iter().map(|x| (x.2 - mean).powi(2)).sum::<f32>() / len).sqrt();
        if sd <= f32::EPSILON {
            return Vec::new();
        }
        all.into_iter()
            .take(n)
            .map(|(d, o, c)| (d, o, (c - mean) / sd))
            .collect()
    }

    /// Documents closest to `query`, best first, at most `n`, each as
    /// (document, its closest passage, cosine); empty until the vectors are
    /// usable or when the encoder fails.
    pub fn ranked(&self, query: &str, n: usize) -> Vec<(u32, u32, f32)> {
        if !self.ready() {
            return Vec::new();
        }
        let Ok(q) = (self.encode)(query, true) else {
            return Vec::new();
        };
        let Ok(v) = self.vectors.read() else {
            return Vec::new();
        };
        if q.len() != v.dim {
            return Vec::new();
        }
        let mut scored: Vec<(u32, u32, f32)> = v
            .docs
            .iter()
            .zip(&v.ords)
            .zip(v.data.chunks_exact(v.dim))
            .map(|((d, o), row)| (*d, *o, row.iter().zip(&q).map(|(a, b)| a * b).sum()))
            .collect();
        drop(v);
        scored.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
        let mut seen = std::collections::HashSet::new();
        scored.retain(|x| seen.insert(x.0));
        scored.truncate(n);
        scored
    }
}

/// The cached vectors that are a prefix of `units` (none for another file,
/// another model's or a damaged one).
fn read_cache(path: &Path, units: &[Unit]) -> Option<Vectors> {
    let mut f = std::fs::File::open(path).ok()?;
    let mut head = [0u8; 16];
    f.read_exact(&mut head).ok()?;
    if &head[..8] != MAGIC {
        return None;
    }
    let n = u32::from_le_bytes(head[8..12].try_into().ok()?) as usize;
    let dim = u32::from_le_bytes(head[12..16].try_into().ok()?) as usize;
    if n > units.len() || dim == 0 || dim > 4096 {
        return None;
    }
    let mut rest = Vec::new();
    f.read_to_end(&mut rest).ok()?;
    if rest.len() != n * 8 + n * dim * 4 {
        return None;
    }
    let (key_bytes, vec_bytes) = rest.split_at(n * 8);
    let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let mut docs = Vec::with_capacity(n);
    let mut ords = Vec::with_capacity(n);
    for (k, u) in key_bytes.chunks_exact(8).zip(units) {
        let (d, o) = (word(&k[..4]), word(&k[4..]));
        if (d, o) != (u.doc, u.ord) {
            return None;
        }
        docs.push(d);
        ords.push(o);
    }
    let data = vec_bytes
        .chunks_exact(4)
        .map(word)
        .map(f32::from_bits)
        .collect();
    Some(Vectors {
        docs,
        ords,
        dim,
        data,
    })
}

fn write_cache(path: &Path, v: &Vectors) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        f.write_all(MAGIC)?;
        f.write_all(&(v.len() as u32).to_le_bytes())?;
        f.write_all(&(v.dim as u32).to_le_bytes())?;
        for (d, o) in v.docs.iter().zip(&v.ords) {
            f.write_all(&d.to_le_bytes())?;
            f.write_all(&o.to_le_bytes())?;
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

    fn unit(doc: u32, ord: u32, text: &str) -> Unit {
        Unit {
            doc,
            ord,
            text: text.to_string(),
        }
    }

    #[test]
    fn finds_the_document_in_another_language_and_caches() {
        let dir = tempfile::tempdir().unwrap();
        let units = vec![
            unit(3, 30, "Il santo rosario"),
            unit(7, 70, "La guerra e la pace"),
            unit(9, 90, "La musica sacra"),
        ];
        let x = toy();
        assert!(x.ranked("war", 3).is_empty(), "not ready yet");
        let cache = x.cache_path(dir.path());
        x.build(&units, 3, &cache).unwrap();
        assert_eq!(x.status().done, 3);
        assert_eq!(x.ranked("the pope on the war", 3)[0].0, 7);
        // a second index reads the cache; other documents recompute
        let y = toy();
        y.build(&units, 3, &cache).unwrap();
        assert_eq!(y.ranked("rosary", 1)[0].0, 3);
        std::fs::write(&cache, b"garbage").unwrap();
        let z = toy();
        z.build(&units[..2], 2, &cache).unwrap();
        assert_eq!(z.ranked("music", 2).len(), 2);
    }

    #[test]
    fn a_passage_finds_its_document_and_is_the_one_shown() {
        let dir = tempfile::tempdir().unwrap();
        let units = vec![
            unit(3, 30, "Allocuzione ai fedeli"),
            unit(7, 70, "Lettera ai vescovi"),
            unit(3, 31, "la guerra e la pace"),
            unit(3, 32, "la musica sacra"),
        ];
        let x = toy();
        x.build(&units, 2, &dir.path().join("c.bin")).unwrap();
        let r = x.ranked("war", 5);
        assert_eq!((r[0].0, r[0].1), (3, 31), "{r:?}");
        assert_eq!(r.len(), 2, "one entry per document: {r:?}");
    }

    #[test]
    fn a_restart_resumes_from_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("c.bin");
        let units: Vec<Unit> = (0..5).map(|i| unit(i, i, "la guerra")).collect();
        toy().build(&units[..3], 1, &cache).unwrap();
        let calls = Arc::new(AtomicUsize::new(0));
        let c = calls.clone();
        let x = CrossLingual::new(
            "toy",
            Box::new(move |_: &str, _| {
                c.fetch_add(1, Relaxed);
                Ok(vec![1.0, 0.0, 0.0])
            }),
        );
        x.build(&units, 1, &cache).unwrap();
        assert_eq!(calls.load(Relaxed), 2, "only the two units not cached");
        // a cache whose units differ is not used
        let other: Vec<Unit> = (0..5).map(|i| unit(i + 1, i, "la guerra")).collect();
        let y = toy();
        y.build(&other, 1, &cache).unwrap();
        assert_eq!(y.status().done, 5);
    }
}
