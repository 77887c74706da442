//! [`QaSettings`]: the `[qa]` section of the configuration, and the generator
//! it selects. The API key never sits in the file: `api_key_env` names the
//! environment variable that holds it.

use crate::engine::QaConfig;
use crate::error::QaError;
use crate::extractive::Extractive;
use crate::generate::Generator;
use crate::openai::{OpenAiBackend, OpenAiConfig};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// Which generator writes answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// Quotations composed from the passages (no model).
    #[default]
    Extractive,
    /// An OpenAI-compatible chat-completions server.
    Openai,
    /// A GGUF model run in this process (needs the cargo feature `local`).
    Local,
}

/// Whether this build has the local (GGUF) backend.
pub const LOCAL_BACKEND_BUILT: bool = cfg!(feature = "local");

/// The `[qa]` configuration table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QaSettings {
    /// `extractive` (default), `openai` or `local`.
    pub backend: Backend,
    /// Base URL of the chat-completions server (`http://localhost:11434/v1`).
    pub base_url: Option<String>,
    /// Model name.
    pub model: Option<String>,
    /// Name of the environment variable holding the API key (`OPENAI_API_KEY`).
    pub api_key_env: Option<String>,
    /// Longest wait for the next bytes from the server, in seconds.
    pub timeout_secs: u64,
    /// Longest time for one whole generation, in seconds.
    pub total_timeout_secs: u64,
    /// Retries on transport errors, 429 and 5xx.
    pub max_retries: u32,
    /// Ask the server to stream.
    pub stream: bool,
    /// Most tokens to generate.
    pub max_tokens: u32,
    /// `local`: the GGUF model file.
    pub model_path: Option<String>,
    /// `local`: CPU threads (unset or 0: all cores).
    pub threads: Option<usize>,
    /// `local`: context size in tokens (prompt and answer).
    pub context: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// Refuse questions unrelated to faith, religion or morals.
    pub refuse_off_topic: bool,
    /// Replace the default refusal text.
    pub refusal_message: Option<String>,
    /// Most passages per answer.
    pub max_passages: usize,
    /// Answer extractively when the model fails before writing anything.
    pub fallback_to_extractive: bool,
    /// Longest question, in characters.
    pub max_question_chars: usize,
    /// Language of the passages searched (`en`); empty or `*` for every language.
    pub language: String,
    /// The on-topic classifier's embedding voice: the folder of
    /// multilingual-e5-small (`scripts/fetch-e5.sh`), `"off"` for the word
    /// model alone, or unset to look for `models/multilingual-e5-small`.
    pub topic_model: Option<String>,
}

impl Default for QaSettings {
    fn default() -> Self {
        let c = QaConfig::default();
        let o = OpenAiConfig::default();
        QaSettings {
            backend: Backend::Extractive,
            base_url: None,
            model: None,
            api_key_env: None,
            timeout_secs: o.read_timeout.as_secs(),
            total_timeout_secs: o.total_timeout.as_secs(),
            max_retries: o.max_retries,
            stream: true,
            max_tokens: o.max_tokens,
            model_path: None,
            threads: None,
            context: 4096,
            temperature: o.temperature,
            refuse_off_topic: c.refuse_off_topic,
            refusal_message: None,
            max_passages: c.retrieval.max_passages,
            fallback_to_extractive: c.fallback_to_extractive,
            max_question_chars: c.max_question_chars,
            language: "en".into(),
            topic_model: None,
        }
    }
}

impl QaSettings {
    /// Read the section (`null` gives the defaults).
    pub fn from_json(section: &serde_json::Value) -> Result<Self, QaError> {
        if section.is_null() {
            return Ok(QaSettings::default());
        }
        serde_json::from_value(section.clone()).map_err(|e| QaError::Config(e.to_string()))
    }

    /// The engine behaviour these settings describe.
    pub fn engine_config(&self) -> QaConfig {
        let mut c = QaConfig {
            refuse_off_topic: self.refuse_off_topic,
            fallback_to_extractive: self.fallback_to_extractive,
            max_question_chars: self.max_question_chars.max(1),
            ..QaConfig::default()
        };
        if let Some(m) = self
            .refusal_message
            .as_deref()
            .filter(|m| !m.trim().is_empty())
        {
            c.refusal = m.trim().to_string();
        }
        c.retrieval.max_passages = self.max_passages.clamp(1, 20);
        c
    }

    /// The generator these settings select. `openai` needs `base_url` and
    /// `model`; the key is read from the variable `api_key_env` names (a
    /// named but unset variable is an error, so a typo does not go unnoticed).
    /// `local` needs `model_path` and a build with the feature `local`; it
    /// loads the model here (seconds for a large file).
    pub fn generator(&self) -> Result<Arc<dyn Generator>, QaError> {
        match self.backend {
            Backend::Extractive => Ok(Arc::new(Extractive::default())),
            Backend::Local => self.local_generator(),
            Backend::Openai => {
                let bad = |m: &str| QaError::Config(m.to_string());
                let base_url = self
                    .base_url
                    .clone()
                    .filter(|u| !u.trim().is_empty())
                    .ok_or_else(|| bad("backend \"openai\" needs base_url"))?;
                let model = self
                    .model
                    .clone()
                    .filter(|m| !m.trim().is_empty())
                    .ok_or_else(|| bad("backend \"openai\" needs model"))?;
                let api_key = match self.api_key_env.as_deref().filter(|v| !v.is_empty()) {
                    None => None,
                    Some(var) => Some(std::env::var(var).map_err(|_| {
                        bad(&format!(
                            "the environment variable {var} (api_key_env) is not set"
                        ))
                    })?),
                };
                Ok(Arc::new(OpenAiBackend::new(OpenAiConfig {
                    base_url,
                    model,
                    api_key,
                    read_timeout: Duration::from_secs(self.timeout_secs.max(1)),
                    total_timeout: Duration::from_secs(
                        self.total_timeout_secs.max(self.timeout_secs).max(1),
                    ),
                    max_retries: self.max_retries,
                    stream: self.stream,
                    temperature: self.temperature,
                    max_tokens: self.max_tokens.max(16),
                    ..OpenAiConfig::default()
                })))
            }
        }
    }
}

impl QaSettings {
    #[cfg(feature = "local")]
    fn local_generator(&self) -> Result<Arc<dyn Generator>, QaError> {
        use crate::local::{LocalBackend, LocalConfig};
        let model_path = self
            .model_path
            .clone()
            .filter(|p| !p.trim().is_empty())
            .ok_or_else(|| QaError::Config("backend \"local\" needs model_path".into()))?;
        Ok(Arc::new(LocalBackend::load(LocalConfig {
            model_path: model_path.into(),
            threads: self.threads.filter(|&t| t > 0),
            context: self.context.max(256),
            max_tokens: self.max_tokens.max(16),
            temperature: self.temperature,
        })?))
    }

    #[cfg(not(feature = "local"))]
    fn local_generator(&self) -> Result<Arc<dyn Generator>, QaError> {
        Err(QaError::Config(
            "backend \"local\": this build has no local backend; rebuild with --features local \
             (ecclesia-qa/local)"
                .into(),
        ))
    }
}
