//! A BERT sentence-embedding model (all-MiniLM-L6-v2 by default) run in
//! process by candle: `config.json`, `model.safetensors` and `tokenizer.json`
//! from a local folder, `[CLS] … [SEP]` inputs truncated to 256 word pieces,
//! mean pooling over the attention mask and L2 normalisation — the
//! sentence-transformers recipe.

use crate::embed::WordPiece;
use crate::semantic::PassageEmbedder;
use crate::CorpusError;
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// Word pieces per input, `[CLS]` and `[SEP]` included (the model was trained at 256).
pub const MAX_SEQ: usize = 256;
/// Texts per forward pass.
const SUB_BATCH: usize = 16;

/// Where the model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeviceChoice {
    /// The CPU (candle's pure-Rust kernels).
    #[default]
    Cpu,
    /// The first CUDA GPU (needs the `cuda` cargo feature).
    Cuda,
}

/// An in-process BERT sentence embedder.
pub struct TransformerEmbedder {
    model: BertModel,
    tok: WordPiece,
    cls: u32,
    sep: u32,
    pad: u32,
    dim: usize,
    device: Device,
    id: String,
    /// Word pieces per passage (queries always get [`MAX_SEQ`]).
    max_seq: usize,
}

impl std::fmt::Debug for TransformerEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TransformerEmbedder")
            .field("id", &self.id)
            .field("dim", &self.dim)
            .finish()
    }
}

fn bad(path: &Path, what: impl std::fmt::Display) -> CorpusError {
    CorpusError::Model(format!("{}: {what}", path.display()))
}

fn model_err(e: candle_core::Error) -> CorpusError {
    CorpusError::Model(e.to_string())
}

impl TransformerEmbedder {
    /// Load the model in `dir` (`config.json`, `model.safetensors`, `tokenizer.json`).
    pub fn load(dir: &Path, device: DeviceChoice) -> Result<Self, CorpusError> {
        let cfg_path = dir.join("config.json");
        let config: Config =
            serde_json::from_slice(&std::fs::read(&cfg_path).map_err(|e| bad(&cfg_path, e))?)
                .map_err(|e| bad(&cfg_path, format!("not a BERT config: {e}")))?;
        let tok = WordPiece::load(&dir.join("tokenizer.json"))?;
        let special = |t: &str| {
            tok.id(t)
                .ok_or_else(|| bad(dir, format!("the vocabulary has no {t}")))
        };
        let (cls, sep) = (special("[CLS]")?, special("[SEP]")?);
        let pad = tok.id("[PAD]").unwrap_or(config.pad_token_id as u32);
        if tok.vocab_rows() > config.vocab_size {
            return Err(bad(dir, "the vocabulary is larger than the model's"));
        }
        if config.max_position_embeddings < MAX_SEQ {
            return Err(bad(&cfg_path, "max_position_embeddings below 256"));
        }
        let device = match device {
            DeviceChoice::Cpu => Device::Cpu,
            DeviceChoice::Cuda => Device::new_cuda(0).map_err(model_err)?,
        };
        let st_path = dir.join("model.safetensors");
        // The content hash names the vectors in the cache: other weights, other vectors.
        let mut hasher = Sha256::new();
        let mut f = std::fs::File::open(&st_path).map_err(|e| bad(&st_path, e))?;
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = f.read(&mut buf).map_err(|e| bad(&st_path, e))?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
        }
        let digest = hex::encode(hasher.finalize());
        // SAFETY: the weights file is memory-mapped read-only; an operator
        // replacing it while the process runs is outside what we support.
        let vb = unsafe { VarBuilder::from_mmaped_safetensors(&[&st_path], DType::F32, &device) }
            .map_err(|e| bad(&st_path, e))?;
        let model = BertModel::load(vb, &config).map_err(|e| bad(&st_path, e))?;
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "bert".into());
        Ok(TransformerEmbedder {
            model,
            tok,
            cls,
            sep,
            pad,
            dim: config.hidden_size,
            device,
            id: format!("{name}@{}", &digest[..12]),
            max_seq: MAX_SEQ,
        })
    }

    /// Embed passages in windows of `max_seq` word pieces (16 to [`MAX_SEQ`],
    /// `[CLS]` and `[SEP]` included) instead of [`MAX_SEQ`]. The window is part
    /// of the model id (`…/w128`): vectors of other windows are cached apart.
    pub fn with_max_seq(mut self, max_seq: usize) -> Result<Self, CorpusError> {
        if !(16..=MAX_SEQ).contains(&max_seq) {
            return Err(CorpusError::Model(format!(
                "max_tokens must be from 16 to {MAX_SEQ} for this model, not {max_seq}"
            )));
        }
        if let Some(base) = self.id.split('/').next().map(str::to_string) {
            self.id = if max_seq == MAX_SEQ {
                base
            } else {
                format!("{base}/w{max_seq}")
            };
        }
        self.max_seq = max_seq;
        Ok(self)
    }

    fn ids(&self, text: &str, max_seq: usize) -> Vec<u32> {
        let mut ids = Vec::with_capacity(64);
        ids.push(self.cls);
        ids.extend(self.tok.tokenize(text, max_seq - 2, true));
        ids.push(self.sep);
        ids
    }

    fn forward(&self, seqs: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, CorpusError> {
        let len = seqs.iter().map(Vec::len).max().unwrap_or(0);
        let b = seqs.len();
        let mut ids = Vec::with_capacity(b * len);
        let mut mask = Vec::with_capacity(b * len);
        for s in seqs {
            ids.extend_from_slice(s);
            ids.extend(std::iter::repeat_n(self.pad, len - s.len()));
            mask.extend(std::iter::repeat_n(1u32, s.len()));
            mask.extend(std::iter::repeat_n(0u32, len - s.len()));
        }
        let run = || -> candle_core::Result<Vec<Vec<f32>>> {
            let ids = Tensor::from_vec(ids, (b, len), &self.device)?;
            let mask = Tensor::from_vec(mask, (b, len), &self.device)?;
            let types = ids.zeros_like()?;
            let hidden = self.model.forward(&ids, &types, Some(&mask))?; // (b, len, dim)
            let m = mask.to_dtype(DType::F32)?.unsqueeze(2)?; // (b, len, 1)
            let summed = hidden.broadcast_mul(&m)?.sum(1)?; // (b, dim)
            let counts = m.sum(1)?; // (b, 1)
            let mean = summed.broadcast_div(&counts)?;
            let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f32::MAX)?;
            mean.broadcast_div(&norm)?.to_vec2::<f32>()
        };
        run().map_err(model_err)
    }
}

impl PassageEmbedder for TransformerEmbedder {
    fn model_id(&self) -> &str {
        &self.id
    }

    fn dim(&self) -> usize {
        self.dim
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, CorpusError> {
        let seqs: Vec<Vec<u32>> = texts.iter().map(|t| self.ids(t, self.max_seq)).collect();
        // Similar lengths together: less padding to compute.
        let mut order: Vec<usize> = (0..seqs.len()).collect();
        order.sort_by_key(|&i| seqs[i].len());
        let mut out = vec![Vec::new(); seqs.len()];
        for chunk in order.chunks(SUB_BATCH) {
            let batch: Vec<Vec<u32>> = chunk.iter().map(|&i| seqs[i].clone()).collect();
            for (&i, v) in chunk.iter().zip(self.forward(&batch)?) {
                out[i] = v;
            }
        }
        Ok(out)
    }

    fn embed_query(&self, query: &str) -> Result<Vec<f32>, CorpusError> {
        self.forward(&[self.ids(query, MAX_SEQ)])?
            .pop()
            .ok_or_else(|| CorpusError::Model("no vector for the query".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_nn::VarMap;

    /// A tiny random BERT (hidden 32, 2 layers) and a WordPiece vocabulary, written to `dir`.
    fn tiny_model(dir: &Path) {
        let config = serde_json::json!({
            "vocab_size": 40, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
            "intermediate_size": 64, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
            "max_position_embeddings": 300, "type_vocab_size": 2, "initializer_range": 0.02,
            "layer_norm_eps": 1e-12, "pad_token_id": 0, "model_type": "bert"
        });
        std::fs::write(dir.join("config.json"), config.to_string()).unwrap();
        let cfg: Config = serde_json::from_value(config).unwrap();
        let vm = VarMap::new();
        let vb = VarBuilder::from_varmap(&vm, DType::F32, &Device::Cpu);
        BertModel::load(vb, &cfg).unwrap();
        vm.save(dir.join("model.safetensors")).unwrap();
        let words = [
            "[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "lord", "is", "my", "shepherd", "grace",
            "of", "god", "bread", "wine", "##s", ".", ",", "a", "b", "c",
        ];
        let vocab: serde_json::Map<String, serde_json::Value> = words
            .iter()
            .enumerate()
            .map(|(i, w)| (w.to_string(), serde_json::json!(i)))
            .collect();
        let tok = serde_json::json!({"model": {"type": "WordPiece", "unk_token": "[UNK]",
            "continuing_subword_prefix": "##", "max_input_chars_per_word": 100, "vocab": vocab}});
        std::fs::write(dir.join("tokenizer.json"), tok.to_string()).unwrap();
    }

    #[test]
    fn tiny_bert_embeds_normalised_batch_independent_vectors() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("tiny");
        std::fs::create_dir_all(&dir).unwrap();
        tiny_model(&dir);
        let m = TransformerEmbedder::load(&dir, DeviceChoice::Cpu).unwrap();
        assert_eq!(m.dim(), 32);
        assert!(m.model_id().starts_with("tiny@"), "{}", m.model_id());
        assert_eq!(
            m.ids("The Lord's bread", MAX_SEQ),
            vec![2, 4, 5, 1, 1, 12, 3]
        );
        assert_eq!(m.ids("breads", MAX_SEQ), vec![2, 12, 14, 3]);
        let long = "the lord is my shepherd ".repeat(200);
        let texts = [
            "the lord is my shepherd",
            "grace",
            "",
            "ζωή ∞ unknown",
            long.as_str(),
        ];
        let all = m.embed(&texts).unwrap();
        assert_eq!(all.len(), texts.len());
        for (t, v) in texts.iter().zip(&all) {
            assert_eq!(v.len(), 32);
            let n: f32 = v.iter().map(|x| x * x).sum();
            assert!((n - 1.0).abs() < 1e-4, "{t:?}: norm² {n}");
            // Alone (no padding) or in a batch (padded to 256): the same vector.
            let alone = m.embed(&[t]).unwrap();
            let cos: f32 = alone[0].iter().zip(v).map(|(a, b)| a * b).sum();
            assert!(cos > 0.9999, "{t:?}: cos {cos}");
        }
        assert!(m.embed(&[]).unwrap().is_empty());
    }

    #[test]
    fn a_shorter_window_truncates_passages_but_not_queries() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("tiny");
        std::fs::create_dir_all(&dir).unwrap();
        tiny_model(&dir);
        let full = TransformerEmbedder::load(&dir, DeviceChoice::Cpu).unwrap();
        let w16 = TransformerEmbedder::load(&dir, DeviceChoice::Cpu)
            .unwrap()
            .with_max_seq(16)
            .unwrap();
        assert_eq!(w16.model_id(), format!("{}/w16", full.model_id()));
        let long = format!("{} grace of god", "the lord is my shepherd ".repeat(4));
        let cos = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
        // 14 word pieces of the passage in the window: "grace of god" is cut off.
        let head = "the lord is my shepherd ".repeat(2) + "the lord is my";
        let cut = w16.embed(&[long.as_str()]).unwrap();
        let head_v = full.embed(&[head.as_str()]).unwrap();
        assert!(cos(&cut[0], &head_v[0]) > 0.9999);
        // A query gets the full window.
        let q_full = full.embed_query(&long).unwrap();
        let q_w16 = w16.embed_query(&long).unwrap();
        assert!(cos(&q_full, &q_w16) > 0.9999);
        assert!(cos(&cut[0], &q_w16) < 0.9999);
        for bad in [0, 15, 257] {
            let e = TransformerEmbedder::load(&dir, DeviceChoice::Cpu)
                .unwrap()
                .with_max_seq(bad)
                .unwrap_err();
            assert!(e.to_string().contains("max_tokens"), "{e}");
        }
    }

    #[test]
    fn missing_or_wrong_model_files_are_reported() {
        let tmp = tempfile::tempdir().unwrap();
        let e = TransformerEmbedder::load(tmp.path(), DeviceChoice::Cpu).unwrap_err();
        assert!(e.to_string().contains("config.json"), "{e}");
        let dir = tmp.path().join("m");
        std::fs::create_dir_all(&dir).unwrap();
        tiny_model(&dir);
        std::fs::write(dir.join("config.json"), r#"{"hidden_size": "big"}"#).unwrap();
        let e = TransformerEmbedder::load(&dir, DeviceChoice::Cpu).unwrap_err();
        assert!(e.to_string().contains("not a BERT config"), "{e}");
        tiny_model(&dir);
        std::fs::write(dir.join("model.safetensors"), b"garbage").unwrap();
        let e = TransformerEmbedder::load(&dir, DeviceChoice::Cpu).unwrap_err();
        assert!(e.to_string().contains("model.safetensors"), "{e}");
    }
}
