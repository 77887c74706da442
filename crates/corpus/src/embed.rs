//! A static (model2vec) sentence embedder implemented here: a BERT WordPiece
//! tokenizer read from `tokenizer.json`, the token embedding matrix read from
//! `model.safetensors` (tensor `embeddings`, F32 or F16), mean pooling over
//! the tokens (unknown tokens dropped, as model2vec does) and L2 normalisation.

use crate::CorpusError;
use std::collections::HashMap;
use std::path::Path;

/// Longest token sequence embedded per text (model2vec's default).
pub const MAX_TOKENS: usize = 512;

/// A BERT WordPiece tokenizer read from a Hugging Face `tokenizer.json`
/// (lower-casing, accent stripping, splitting on whitespace and punctuation),
/// shared by the static and the transformer embedders.
pub struct WordPiece {
    vocab: HashMap<String, u32, std::hash::BuildHasherDefault<FxHasher>>,
    unk: Option<u32>,
    prefix: String,
    max_word_chars: usize,
}

/// A model2vec static embedding model loaded from a local folder.
pub struct StaticEmbedder {
    tok: WordPiece,
    dim: usize,
    matrix: Vec<f32>,
    name: String,
}

impl std::fmt::Debug for StaticEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StaticEmbedder")
            .field("name", &self.name)
            .field("vocab", &self.tok.vocab.len())
            .field("dim", &self.dim)
            .finish()
    }
}

fn bad(dir: &Path, what: impl std::fmt::Display) -> CorpusError {
    CorpusError::Model(format!("{}: {what}", dir.display()))
}

impl WordPiece {
    /// Read a WordPiece `tokenizer.json`.
    pub fn load(tok_path: &Path) -> Result<Self, CorpusError> {
        let tok: serde_json::Value =
            serde_json::from_slice(&std::fs::read(tok_path).map_err(|e| bad(tok_path, e))?)
                .map_err(|e| bad(tok_path, e))?;
        let model = &tok["model"];
        if model["type"].as_str() != Some("WordPiece") {
            return Err(bad(tok_path, "only WordPiece tokenizers are supported"));
        }
        let vocab_v = model["vocab"]
            .as_object()
            .ok_or_else(|| bad(tok_path, "no vocab"))?;
        let mut vocab: HashMap<String, u32, std::hash::BuildHasherDefault<FxHasher>> =
            HashMap::with_capacity_and_hasher(vocab_v.len(), Default::default());
        for (k, v) in vocab_v {
            if let Some(id) = v.as_u64() {
                vocab.insert(k.clone(), id as u32);
            }
        }
        let unk = model["unk_token"]
            .as_str()
            .and_then(|u| vocab.get(u).copied());
        let prefix = model["continuing_subword_prefix"]
            .as_str()
            .unwrap_or("##")
            .to_string();
        let max_word_chars = model["max_input_chars_per_word"].as_u64().unwrap_or(100) as usize;
        Ok(WordPiece {
            vocab,
            unk,
            prefix,
            max_word_chars,
        })
    }

    /// The id of a vocabulary entry (`"[CLS]"` …).
    pub fn id(&self, token: &str) -> Option<u32> {
        self.vocab.get(token).copied()
    }

    /// The id of the unknown token, when the vocabulary has one.
    pub fn unk(&self) -> Option<u32> {
        self.unk
    }

    /// Vocabulary size (largest id + 1).
    pub fn vocab_rows(&self) -> usize {
        self.vocab
            .values()
            .map(|&v| v as usize + 1)
            .max()
            .unwrap_or(0)
    }

    /// Token ids of `text`, at most `max` of them, without special tokens.
    /// Unknown words become the unknown token when `keep_unk` (what a
    /// transformer expects) and are dropped otherwise (what model2vec does).
    pub fn tokenize(&self, text: &str, max: usize, keep_unk: bool) -> Vec<u32> {
        let mut ids = Vec::new();
        // The uncased BERT normalisation: lower case, combining marks removed.
        let normalized = ecclesia_fold::strip_marks(text);
        let mut word = String::new();
        let flush = |word: &mut String, ids: &mut Vec<u32>| {
            if !word.is_empty() {
                self.wordpiece(word, ids, keep_unk);
                word.clear();
            }
        };
        for c in normalized.chars() {
            if ids.len() >= max {
                break;
            }
            if c.is_whitespace() || c.is_control() {
                flush(&mut word, &mut ids);
            } else if is_punct(c) || is_cjk(c) {
                flush(&mut word, &mut ids);
                let mut s = String::new();
                s.push(c);
                self.wordpiece(&s, &mut ids, keep_unk);
            } else {
                word.push(c);
            }
        }
        flush(&mut word, &mut ids);
        ids.truncate(max);
        ids
    }

    fn wordpiece(&self, word: &str, ids: &mut Vec<u32>, keep_unk: bool) {
        let unknown = |ids: &mut Vec<u32>| {
            if keep_unk {
                ids.extend(self.unk);
            }
        };
        // Most words are whole vocabulary entries.
        if let Some(&id) = self.vocab.get(word) {
            if keep_unk || Some(id) != self.unk {
                ids.push(id);
            }
            return;
        }
        let chars: Vec<char> = word.chars().collect();
        if chars.len() > self.max_word_chars {
            return unknown(ids);
        }
        let mut start = 0;
        let mut pieces = Vec::new();
        while start < chars.len() {
            let mut end = chars.len();
            let mut found = None;
            while start < end {
                let mut sub: String = chars[start..end].iter().collect();
                if start > 0 {
                    sub.insert_str(0, &self.prefix);
                }
                if let Some(&id) = self.vocab.get(&sub) {
                    found = Some(id);
                    break;
                }
                end -= 1;
            }
            match found {
                Some(id) => {
                    pieces.push(id);
                    start = end;
                }
                None => return unknown(ids), // the whole word is [UNK]
            }
        }
        ids.extend(
            pieces
                .into_iter()
                .filter(|&id| keep_unk || Some(id) != self.unk),
        );
    }
}

impl StaticEmbedder {
    /// Load `tokenizer.json` and `model.safetensors` from `dir`.
    pub fn load(dir: &Path) -> Result<Self, CorpusError> {
        let tok = WordPiece::load(&dir.join("tokenizer.json"))?;

        let st_path = dir.join("model.safetensors");
        let bytes = std::fs::read(&st_path).map_err(|e| bad(&st_path, e))?;
        if bytes.len() < 8 {
            return Err(bad(&st_path, "file too short"));
        }
        let mut len8 = [0u8; 8];
        len8.copy_from_slice(&bytes[..8]);
        let hlen = u64::from_le_bytes(len8) as usize;
        let header_end = 8usize
            .checked_add(hlen)
            .filter(|&e| e <= bytes.len())
            .ok_or_else(|| bad(&st_path, "bad header length"))?;
        let header: serde_json::Value =
            serde_json::from_slice(&bytes[8..header_end]).map_err(|e| bad(&st_path, e))?;
        let t = &header["embeddings"];
        let dtype = t["dtype"].as_str().unwrap_or("");
        let shape: Vec<usize> = t["shape"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_u64().map(|v| v as usize))
                    .collect()
            })
            .unwrap_or_default();
        let offs: Vec<usize> = t["data_offsets"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_u64().map(|v| v as usize))
                    .collect()
            })
            .unwrap_or_default();
        if shape.len() != 2 || offs.len() != 2 {
            return Err(bad(&st_path, "no 2-D tensor `embeddings`"));
        }
        let (rows, dim) = (shape[0], shape[1]);
        let data = bytes
            .get(header_end + offs[0]..header_end + offs[1])
            .ok_or_else(|| bad(&st_path, "tensor data out of range"))?;
        let matrix: Vec<f32> = match dtype {
            "F32" if data.len() == rows * dim * 4 => data
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
            "F16" if data.len() == rows * dim * 2 => data
                .chunks_exact(2)
                .map(|c| f16_to_f32(u16::from_le_bytes([c[0], c[1]])))
                .collect(),
            _ => {
                return Err(bad(
                    &st_path,
                    format!("unsupported tensor {dtype} {shape:?}"),
                ))
            }
        };
        if tok.vocab_rows() > rows {
            return Err(bad(&st_path, "vocabulary larger than the embedding matrix"));
        }
        Ok(StaticEmbedder {
            tok,
            dim,
            matrix,
            name: dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        })
    }

    /// Vector dimension.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The model's folder name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Token ids of `text` (no special tokens, unknown tokens dropped).
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        self.tok.tokenize(text, MAX_TOKENS, false)
    }

    /// The normalised embedding of `text` (all zeros when no token is known).
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let mut ids = self.tokenize(text);
        let mut v = vec![0f32; self.dim];
        if ids.is_empty() {
            return v;
        }
        // Sum each distinct token's row once, times its count, in id order
        // (fewer and more local reads of the matrix).
        ids.sort_unstable();
        let mut i = 0;
        while i < ids.len() {
            let id = ids[i];
            let mut j = i + 1;
            while j < ids.len() && ids[j] == id {
                j += 1;
            }
            let count = (j - i) as f32;
            let row = &self.matrix[id as usize * self.dim..(id as usize + 1) * self.dim];
            for (a, b) in v.iter_mut().zip(row) {
                *a += count * *b;
            }
            i = j;
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            for a in &mut v {
                *a /= norm;
            }
        }
        v
    }
}

/// The small multiplicative hash of rustc (FxHash): vocabulary look-ups are
/// the tokenizer's hot path and need no DoS resistance (the keys are the model's).
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(b))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
}

fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_alphanumeric() && !c.is_whitespace() && !c.is_control())
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0xF900..=0xFAFF | 0x20000..=0x2A6DF)
}

fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) & 1) as u32;
    let exp = ((h >> 10) & 0x1f) as u32;
    let frac = (h & 0x3ff) as u32;
    let bits = if exp == 0 {
        if frac == 0 {
            sign << 31
        } else {
            // subnormal
            let mut e = 127 - 15 + 1;
            let mut f = frac;
            while f & 0x400 == 0 {
                f <<= 1;
                e -= 1;
            }
            (sign << 31) | ((e as u32) << 23) | ((f & 0x3ff) << 13)
        }
    } else if exp == 0x1f {
        (sign << 31) | (0xff << 23) | (frac << 13)
    } else {
        (sign << 31) | ((exp + 127 - 15) << 23) | (frac << 13)
    };
    f32::from_bits(bits)
}

/// Quantise a normalised vector to i8 with one scale: `v ≈ q * scale`.
pub fn quantize(v: &[f32]) -> (Vec<i8>, f32) {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max == 0.0 {
        return (vec![0; v.len()], 0.0);
    }
    let scale = max / 127.0;
    (
        v.iter()
            .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8)
            .collect(),
        scale,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_conversion() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0), 0.0);
    }

    #[test]
    fn quantize_roundtrip() {
        let v = vec![0.5, -0.25, 0.0, 0.8];
        let (q, s) = quantize(&v);
        for (a, b) in v.iter().zip(q.iter()) {
            assert!((a - *b as f32 * s).abs() < 0.01);
        }
    }
}
