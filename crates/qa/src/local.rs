//! The local backend (cargo feature `local`): answers generated in-process on
//! the CPU from a GGUF file with llama.cpp (through `llama-cpp-2`); no network.
//! The prompt is the OpenAI backend's ([`SYSTEM_PROMPT`] and [`user_prompt`]),
//! laid out with the chat template stored in the GGUF; tokens are streamed
//! through the same `emit` callback, and the engine validates the markers
//! exactly as it does for the OpenAI backend.

use crate::error::{BackendFailure, QaError};
use crate::generate::{Draft, Emit, Generator};
use crate::openai::{user_prompt, SYSTEM_PROMPT};
use crate::passage::Passage;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// Settings of the local backend.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalConfig {
    /// The GGUF model file.
    pub model_path: PathBuf,
    /// CPU threads for generation (`None`: all available cores).
    pub threads: Option<usize>,
    /// Context size in tokens (prompt and answer); capped at the model's training context.
    pub context: u32,
    /// Most tokens to generate.
    pub max_tokens: u32,
    /// Sampling temperature (0 or less: greedy).
    pub temperature: f32,
}

impl Default for LocalConfig {
    fn default() -> Self {
        LocalConfig {
            model_path: PathBuf::new(),
            threads: None,
            context: 4096,
            max_tokens: 1200,
            temperature: 0.2,
        }
    }
}

/// Tokens decoded per batch while reading the prompt.
const PROMPT_BATCH: usize = 512;

/// llama.cpp's process-wide backend, initialised once.
fn llama_backend() -> Result<&'static LlamaBackend, QaError> {
    static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            // llama.cpp's own logs go to `tracing` (debug and below are filtered there).
            llama_cpp_2::send_logs_to_tracing(llama_cpp_2::LogOptions::default());
            LlamaBackend::init().map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| QaError::Config(format!("cannot start llama.cpp: {e}")))
}

fn local_failure(m: impl std::fmt::Display) -> QaError {
    QaError::Backend(BackendFailure::Local(m.to_string()))
}

/// Generates answers with a GGUF model loaded in this process.
pub struct LocalBackend {
    config: LocalConfig,
    backend: &'static LlamaBackend,
    model: LlamaModel,
    template: LlamaChatTemplate,
    name: String,
    /// One generation at a time: each already uses every configured thread.
    busy: Mutex<()>,
}

impl std::fmt::Debug for LocalBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalBackend")
            .field("config", &self.config)
            .field("name", &self.name)
            .finish()
    }
}

impl LocalBackend {
    /// Load the model (and its chat template) from `config.model_path`.
    /// A missing or unreadable file is a [`QaError::Config`].
    pub fn load(config: LocalConfig) -> Result<Self, QaError> {
        if !config.model_path.is_file() {
            return Err(QaError::Config(format!(
                "model_path {} is not a file",
                config.model_path.display()
            )));
        }
        let backend = llama_backend()?;
        let started = Instant::now();
        let model =
            LlamaModel::load_from_file(backend, &config.model_path, &LlamaModelParams::default())
                .map_err(|e| {
                QaError::Config(format!(
                    "cannot load the model {}: {e}",
                    config.model_path.display()
                ))
            })?;
        let template = match model.chat_template(None) {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!(error = %e, "the GGUF has no usable chat template; using chatml");
                LlamaChatTemplate::new("chatml")
                    .map_err(|e| QaError::Config(format!("chat template: {e}")))?
            }
        };
        let stem = config
            .model_path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "model".into());
        tracing::info!(
            model = %config.model_path.display(),
            params = model.n_params(),
            n_ctx_train = model.n_ctx_train(),
            load_ms = started.elapsed().as_millis() as u64,
            "local model loaded"
        );
        Ok(LocalBackend {
            config,
            backend,
            model,
            template,
            name: format!("local:{stem}"),
            busy: Mutex::new(()),
        })
    }

    /// The prompt after the model's chat template, ending with the assistant's turn.
    pub fn prompt(&self, question: &str, passages: &[Passage]) -> Result<String, QaError> {
        let msg = |role: &str, content: String| {
            LlamaChatMessage::new(role.to_string(), content)
                .map_err(|e| local_failure(format!("chat message: {e}")))
        };
        let chat = [
            msg("system", SYSTEM_PROMPT.to_string())?,
            msg("user", user_prompt(question, passages))?,
        ];
        self.model
            .apply_chat_template(&self.template, &chat, true)
            .map_err(|e| local_failure(format!("chat template: {e}")))
    }

    fn run(&self, prompt: &str, emit: &mut Emit<'_>, text: &mut String) -> Result<(), QaError> {
        let started = Instant::now();
        let n_ctx = self
            .config
            .context
            .clamp(256, self.model.n_ctx_train().max(256));
        let threads = self
            .config
            .threads
            .filter(|&t| t > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
        let threads = i32::try_from(threads).unwrap_or(i32::MAX);
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(n_ctx))
            .with_n_batch(PROMPT_BATCH as u32)
            .with_n_threads(threads)
            .with_n_threads_batch(threads);
        let mut ctx = self
            .model
            .new_context(self.backend, params)
            .map_err(|e| local_failure(format!("context: {e}")))?;

        let vocab = self.model.vocab();
        let tokens = vocab.tokenize(prompt.as_bytes(), vocab.should_add_bos(), true);
        let room = (n_ctx as usize).saturating_sub(tokens.len());
        if tokens.is_empty() || room < 16 {
            return Err(local_failure(format!(
                "the prompt has {} tokens; the context holds {n_ctx}",
                tokens.len()
            )));
        }
        let max_new = room.min(self.config.max_tokens.max(1) as usize);

        // Read the prompt, logits only for its last token.
        let mut batch = LlamaBatch::new(PROMPT_BATCH, 1);
        let last = tokens.len() - 1;
        for (c, chunk) in tokens.chunks(PROMPT_BATCH).enumerate() {
            batch.clear();
            for (j, &t) in chunk.iter().enumerate() {
                let i = c * PROMPT_BATCH + j;
                batch
                    .add(t, i as i32, &[0], i == last)
                    .map_err(|e| local_failure(format!("batch: {e}")))?;
            }
            ctx.decode(&mut batch)
                .map_err(|e| local_failure(format!("decoding the prompt: {e}")))?;
        }
        let prompt_ms = started.elapsed().as_millis() as u64;

        let mut sampler = if self.config.temperature <= 0.0 {
            LlamaSampler::greedy()
        } else {
            LlamaSampler::chain_simple([
                LlamaSampler::penalties(self.model.n_vocab(), 64, 1.1, 0.0, 0.0),
                LlamaSampler::top_k(40),
                LlamaSampler::top_p(0.95, 1),
                LlamaSampler::temp(self.config.temperature),
                LlamaSampler::dist(0x5EED),
            ])
        };
        let mut pos = tokens.len() as i32;
        let mut pending: Vec<u8> = Vec::new();
        let mut generated = 0usize;
        let mut first_token_ms = None;
        let gen_started = Instant::now();
        while generated < max_new {
            let token = sampler.sample(&ctx, batch.n_tokens() - 1);
            sampler.accept(token);
            if vocab.is_eog(token) {
                break;
            }
            generated += 1;
            pending.extend(vocab.token_to_piece(token, false, None));
            let piece = take_utf8(&mut pending);
            if !piece.is_empty() {
                first_token_ms.get_or_insert(started.elapsed().as_millis() as u64);
                text.push_str(&piece);
                emit(&piece)?;
            }
            batch.clear();
            batch
                .add(token, pos, &[0], true)
                .map_err(|e| local_failure(format!("batch: {e}")))?;
            pos += 1;
            ctx.decode(&mut batch)
                .map_err(|e| local_failure(format!("decoding: {e}")))?;
        }
        if !pending.is_empty() {
            let rest = String::from_utf8_lossy(&pending).into_owned();
            text.push_str(&rest);
            emit(&rest)?;
        }
        let secs = gen_started.elapsed().as_secs_f64();
        tracing::info!(
            prompt_tokens = tokens.len(),
            prompt_ms,
            first_token_ms,
            generated,
            tokens_per_s = if secs > 0.0 {
                generated as f64 / secs
            } else {
                0.0
            },
            "local generation done"
        );
        if text.trim().is_empty() {
            return Err(local_failure("the model wrote no text"));
        }
        Ok(())
    }
}

/// Take the longest valid UTF-8 prefix out of `pending` (a token may end
/// inside a character); invalid bytes become U+FFFD.
fn take_utf8(pending: &mut Vec<u8>) -> String {
    match std::str::from_utf8(pending) {
        Ok(s) => {
            let s = s.to_string();
            pending.clear();
            s
        }
        Err(e) if e.error_len().is_none() => {
            let valid = e.valid_up_to();
            let rest = pending.split_off(valid);
            let s = String::from_utf8_lossy(pending).into_owned();
            *pending = rest;
            s
        }
        Err(_) => {
            let s = String::from_utf8_lossy(pending).into_owned();
            pending.clear();
            s
        }
    }
}

impl Generator for LocalBackend {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn generate(
        &self,
        question: &str,
        passages: &[Passage],
        emit: &mut Emit<'_>,
    ) -> Result<Draft, QaError> {
        let prompt = self.prompt(question, passages)?;
        let _turn = self.busy.lock().unwrap_or_else(|p| p.into_inner());
        let mut text = String::new();
        self.run(&prompt, emit, &mut text)?;
        Ok(Draft {
            text,
            excerpts: vec![None; passages.len()],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::take_utf8;

    #[test]
    fn partial_characters_wait_for_their_last_byte() {
        let bytes = "é".as_bytes();
        let mut pending = vec![b'a', bytes[0]];
        assert_eq!(take_utf8(&mut pending), "a");
        assert_eq!(pending, vec![bytes[0]]);
        pending.push(bytes[1]);
        assert_eq!(take_utf8(&mut pending), "é");
        assert!(pending.is_empty());
        let mut bad = vec![0xff, b'x'];
        assert_eq!(take_utf8(&mut bad), "\u{fffd}x");
    }
}
