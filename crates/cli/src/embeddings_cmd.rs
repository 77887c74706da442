//! `ecclesia embeddings export <file>` and `ecclesia embeddings import <file>`:
//! transformer vectors computed once (on a GPU with the `cuda` feature, or on
//! another machine) carried to any install of the same model and store
//! generation. The file names the model id, the generation and the SHA-256
//! of its rows; an import checks all three before it writes to the cache.

use anyhow::{bail, Context as _};
use ecclesia_corpus::portable::{self, VectorSet};
use ecclesia_corpus::EmbeddingCache;
use ecclesia_skills::corpus::{embedding_settings, load_embedder};
use ecclesia_skills::SkillEnv;
use std::path::{Path, PathBuf};

/// `ecclesia embeddings …`.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum EmbeddingsCommand {
    /// Write the cached transformer vectors of the current store generation to FILE.
    Export {
        /// The file to write.
        file: PathBuf,
    },
    /// Load vectors exported by `ecclesia embeddings export` into the vector cache
    /// (same model and store generation; checked by checksum).
    Import {
        /// The file to read.
        file: PathBuf,
    },
}

/// What both directions need: the model's id and size, the generation, the cache.
struct Target {
    set: VectorSet,
    cache: PathBuf,
    corpus_db: PathBuf,
}

fn target(env: &SkillEnv) -> anyhow::Result<Target> {
    let generation = env
        .generation
        .as_ref()
        .context("no store: run `ecclesia ingest` first")?;
    let corpus_db = generation.join("corpus").join("corpus.sqlite");
    if !corpus_db.is_file() {
        bail!("the store has no corpus: run `ecclesia ingest` again");
    }
    let settings = embedding_settings(env).map_err(anyhow::Error::msg)?;
    if settings.backend == "off" {
        bail!("[corpus] embeddings = \"off\": no transformer model is configured");
    }
    let cache = settings
        .cache
        .clone()
        .context("[corpus] embeddings_cache = \"off\": there is no vector cache")?;
    let model = load_embedder(&settings).map_err(anyhow::Error::msg)?;
    let name = generation
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .context("the store generation has no name")?;
    Ok(Target {
        set: VectorSet {
            model: model.model_id().to_string(),
            dim: model.dim(),
            generation: name,
        },
        cache,
        corpus_db,
    })
}

/// Run `ecclesia embeddings export|import`.
pub fn run(cmd: EmbeddingsCommand, env: &SkillEnv) -> anyhow::Result<()> {
    let t = target(env)?;
    match cmd {
        EmbeddingsCommand::Export { file } => export(&t, &file),
        EmbeddingsCommand::Import { file } => import(&t, &file),
    }
}

fn export(t: &Target, file: &Path) -> anyhow::Result<()> {
    if !t.cache.is_file() {
        bail!(
            "no vector cache at {}: run `ecclesia serve` until /readyz shows the vectors",
            t.cache.display()
        );
    }
    let cache = EmbeddingCache::open(&t.cache, &t.set.model, t.set.dim)?;
    let h = portable::export(&t.corpus_db, &cache, &t.set, file)?;
    eprintln!(
        "exported {} vectors of {} for {} to {} (sha256 {})",
        h.rows,
        h.model,
        h.generation,
        file.display(),
        h.sha256
    );
    Ok(())
}

fn import(t: &Target, file: &Path) -> anyhow::Result<()> {
    // Check the header before the cache file is created.
    portable::read_header(file, &t.set)?;
    let mut cache = EmbeddingCache::open(&t.cache, &t.set.model, t.set.dim)?;
    let h = portable::import(file, &mut cache, &t.set)?;
    eprintln!(
        "imported {} vectors of {} for {} into {}; a running server picks them up at its next start",
        h.rows,
        h.model,
        h.generation,
        t.cache.display()
    );
    Ok(())
}
