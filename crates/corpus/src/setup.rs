//! Setting up a corpus's vectors: which transformer model to load ([`load_embedder`]:
//! ONNX Runtime, candle or a remote `/v1/embeddings`), and attaching the transformer and
//! cross-language vectors to an opened corpus, computed in the background by a server or
//! read from the cache by a one-shot command. The skills adapter reads the settings from
//! the configuration and calls these.

use crate::crosslingual::CrossLingual;
use crate::{
    spawn_worker, Corpus, PassageEmbedder, RemoteConfig, RemoteEmbedder, SemanticIndex,
    WorkerOptions,
};
use std::path::PathBuf;
use std::sync::Arc;

/// Settings of the transformer vectors (the `[corpus]` section of the configuration).
#[derive(Debug, Clone, PartialEq)]
pub struct EmbeddingSettings {
    /// `auto` (ONNX Runtime when this build, the model and the library are
    /// there, else candle), `local` (candle), `onnx`, `remote`
    /// (`/v1/embeddings`) or `off`.
    pub backend: String,
    /// The local model folder.
    pub model_dir: Option<PathBuf>,
    /// `cpu` or `cuda`.
    pub device: String,
    /// Model threads for the background computation.
    pub threads: usize,
    /// Texts per model call.
    pub batch: usize,
    /// The vector cache file.
    pub cache: Option<PathBuf>,
    /// Remote endpoint (base URL ending in `/v1`), model and key.
    pub remote: Option<RemoteConfig>,
    /// `onnx`: the folder with `model.onnx` + `tokenizer.json`, and `libonnxruntime.so`.
    pub onnx_dir: Option<PathBuf>,
    /// `onnx`: the ONNX Runtime library.
    pub ort_library: PathBuf,
    /// Word pieces per passage (`onnx`; 16–512).
    pub max_tokens: usize,
}

/// Folder names searched for the local model, in order, when `[corpus]
/// model_dir` is not set: `./models/…` (where `scripts/fetch-model.sh` puts
/// it) and `<data>/../models/…`.
pub const DEFAULT_MODEL: &str = "all-MiniLM-L6-v2";
/// The ONNX model folders (`scripts/fetch-ort.sh`), looked for like
/// [`DEFAULT_MODEL`], fastest first: int8 weights and int8 arithmetic
/// (`MatMulInteger`, about twice the rate of the int8-weight export on 2
/// cores), then the int8-weight export that computes in fp32.
pub const DEFAULT_ONNX_MODELS: &[&str] = &["all-MiniLM-L6-v2-qint8", "all-MiniLM-L6-v2-int8"];
/// Word pieces per passage by default, `[CLS]` and `[SEP]` included (what
/// the model was trained on). 128 doubles the rate but cost 5 points of
/// dense recall@10 on the dev set (`embed_rate recall`); set `max_tokens =
/// 128` to trade them for time.
pub const DEFAULT_MAX_TOKENS: usize = 256;
/// The ONNX Runtime library when neither `[corpus] ort_library` nor `ORT_DYLIB_PATH` is set.
pub const DEFAULT_ORT_LIBRARY: &str = "models/onnxruntime/libonnxruntime.so.1.32.0";

/// Log why the corpus has no transformer vectors and keep it for `/readyz`.
fn semantic_off(corpus: &mut Corpus, why: String) {
    tracing::warn!(
        "document_search: no transformer vectors: {why}; search uses BM25 and static vectors"
    );
    corpus.set_semantic_off(why);
}

/// The configured transformer model (`auto`, `local`, `onnx` or `remote`).
/// `auto` takes ONNX Runtime when it can be loaded and says why not when it
/// falls back to candle.
pub fn load_embedder(s: &EmbeddingSettings) -> Result<Arc<dyn PassageEmbedder>, String> {
    match s.backend.as_str() {
        "auto" => match onnx_embedder(s) {
            Ok(e) => {
                tracing::info!("transformer vectors: ONNX Runtime, {}", e.model_id());
                Ok(e)
            }
            Err(why) => {
                tracing::warn!(
                    "transformer vectors: ONNX Runtime not used ({why}); falling back to candle, \
                     about half the rate (scripts/fetch-ort.sh fetches the faster path)"
                );
                local_embedder(s)
            }
        },
        "remote" => {
            let cfg = s.remote.clone().ok_or("no remote endpoint configured")?;
            Ok(Arc::new(
                RemoteEmbedder::connect(cfg).map_err(|e| e.to_string())?,
            ))
        }
        "onnx" => onnx_embedder(s),
        _ => local_embedder(s),
    }
}

#[cfg(feature = "ort")]
fn onnx_embedder(s: &EmbeddingSettings) -> Result<Arc<dyn PassageEmbedder>, String> {
    let dir = s
        .onnx_dir
        .clone()
        .ok_or("no ONNX model folder (run scripts/fetch-ort.sh, or set [corpus] onnx_dir)")?;
    let cfg = crate::OnnxConfig {
        model_dir: dir,
        library: s.ort_library.clone(),
        threads: s.threads,
        max_seq: s.max_tokens,
    };
    Ok(Arc::new(
        crate::OnnxEmbedder::load(cfg).map_err(|e| e.to_string())?,
    ))
}

#[cfg(not(feature = "ort"))]
fn onnx_embedder(_: &EmbeddingSettings) -> Result<Arc<dyn PassageEmbedder>, String> {
    Err("this build has no ONNX Runtime support (cargo feature `ort`)".into())
}

#[cfg(feature = "transformer")]
fn local_embedder(s: &EmbeddingSettings) -> Result<Arc<dyn PassageEmbedder>, String> {
    let dir = s
        .model_dir
        .as_ref()
        .ok_or("no model folder (run scripts/fetch-model.sh, or set [corpus] model_dir)")?;
    let device = if s.device == "cuda" {
        crate::DeviceChoice::Cuda
    } else {
        crate::DeviceChoice::Cpu
    };
    let window = s.max_tokens.min(crate::transformer::MAX_SEQ);
    Ok(Arc::new(
        crate::TransformerEmbedder::load(dir, device)
            .and_then(|m| m.with_max_seq(window))
            .map_err(|e| e.to_string())?,
    ))
}

#[cfg(not(feature = "transformer"))]
fn local_embedder(_: &EmbeddingSettings) -> Result<Arc<dyn PassageEmbedder>, String> {
    Err("this build has no in-process transformer (cargo feature `transformer`)".into())
}

/// Attach transformer vectors to a freshly opened corpus with `settings` (or say why
/// there are none): a server (`background`) starts the background worker; a one-shot
/// command loads only what is cached.
pub fn attach_semantic(
    corpus: &mut Corpus,
    settings: Result<EmbeddingSettings, String>,
    background: bool,
) {
    let settings = match settings {
        Ok(s) => s,
        Err(e) => return semantic_off(corpus, e),
    };
    if settings.backend == "off" {
        return semantic_off(corpus, "[corpus] embeddings = \"off\"".into());
    }
    if !background && !settings.cache.as_ref().is_some_and(|c| c.is_file()) {
        return; // nothing cached, nothing to compute here
    }
    let embedder = match load_embedder(&settings) {
        Ok(e) => e,
        Err(e) => return semantic_off(corpus, e),
    };
    let index = SemanticIndex::new(embedder, corpus.passage_count());
    corpus.attach_semantic(index.clone());
    let opts = WorkerOptions {
        cache: settings.cache.clone(),
        compute: background,
        batch: settings.batch,
        threads: settings.threads,
        ..Default::default()
    };
    if background {
        if let Err(e) = spawn_worker(&index, corpus.database_path(), opts) {
            corpus.detach_semantic();
            semantic_off(corpus, format!("cannot start the background worker: {e}"));
        }
    } else if let Err(e) =
        crate::semantic::run_worker(&Arc::downgrade(&index), &corpus.database_path(), &opts)
    {
        tracing::warn!("cached transformer vectors not loaded: {e}");
    }
}

/// Attach the cross-language vectors `x` to a freshly opened corpus: a server
/// (`background`) computes them on a thread of their own (the document heads in about 100 s
/// on two cores, then their passages in about 20 minutes, once: they are cached in the store
/// as they come); a one-shot command uses what is cached.
pub fn attach_crosslingual(corpus: &mut Corpus, x: Arc<CrossLingual>, background: bool) {
    let cache = x.cache_path(corpus.dir());
    if !background && !cache.is_file() {
        return;
    }
    let (units, heads) = match corpus.crosslingual_units() {
        Ok(t) => t,
        Err(e) => {
            tracing::error!(error = %e, "cross-language search off");
            return;
        }
    };
    corpus.attach_crosslingual(x.clone());
    if !background {
        if let Err(e) = x.load_cached(&units, heads, &cache) {
            tracing::error!(error = %e, "cross-language search off");
        }
        return;
    }
    let build = move || {
        let started = std::time::Instant::now();
        match x.build(&units, heads, &cache) {
            Ok(()) => tracing::info!(
                documents = heads,
                passages = units.len() - heads,
                seconds = started.elapsed().as_secs(),
                "cross-language vectors ready"
            ),
            Err(e) => tracing::error!(error = %e, "cross-language vectors failed"),
        }
    };
    if let Err(e) = std::thread::Builder::new()
        .name("crosslingual".into())
        .spawn(build)
    {
        tracing::error!(error = %e, "cross-language search off: no thread");
    }
}
