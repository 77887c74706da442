//! A remote embedding model behind an OpenAI-compatible `POST {base}/embeddings`
//! (OpenAI, Ollama, vLLM, Text Embeddings Inference, llama.cpp `llama-server
//! --embeddings`, LiteLLM …): the way to use a GPU box or a larger,
//! multilingual model.

use crate::semantic::PassageEmbedder;
use crate::CorpusError;
use serde_json::{json, Value};
use std::time::Duration;

/// Characters of one text sent to the endpoint (passages are shorter; this bounds a request).
const MAX_INPUT_CHARS: usize = 4_000;
/// The longest a search waits for its query's vector.
pub const QUERY_TIMEOUT: Duration = Duration::from_secs(5);

/// Settings of a remote embedding endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteConfig {
    /// Base URL ending in `/v1` (`http://127.0.0.1:11434/v1`).
    pub base_url: String,
    /// Model name sent with each request.
    pub model: String,
    /// Bearer token, when the endpoint needs one.
    pub api_key: Option<String>,
    /// Per-request timeout.
    pub timeout: Duration,
}

/// An embedding model reached over HTTP.
pub struct RemoteEmbedder {
    cfg: RemoteConfig,
    agent: ureq::Agent,
    dim: usize,
    id: String,
}

impl std::fmt::Debug for RemoteEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteEmbedder")
            .field("url", &self.cfg.base_url)
            .field("model", &self.cfg.model)
            .field("dim", &self.dim)
            .finish()
    }
}

impl RemoteEmbedder {
    /// Connect: one probe request learns the vector dimension.
    pub fn connect(cfg: RemoteConfig) -> Result<Self, CorpusError> {
        if !(cfg.base_url.starts_with("http://") || cfg.base_url.starts_with("https://")) {
            return Err(CorpusError::Model(format!(
                "embedding endpoint {:?} is not an http(s) URL",
                cfg.base_url
            )));
        }
        let agent = ureq::AgentBuilder::new()
            .timeout_connect(Duration::from_secs(5))
            .timeout(cfg.timeout)
            .build();
        let mut e = RemoteEmbedder {
            id: format!("remote:{}", cfg.model),
            cfg,
            agent,
            dim: 0,
        };
        let probe = e.call(&["dimension probe"], e.cfg.timeout)?;
        e.dim = probe.first().map(Vec::len).unwrap_or(0);
        if e.dim == 0 {
            return Err(CorpusError::Model(format!(
                "{}: the endpoint returned an empty vector",
                e.cfg.base_url
            )));
        }
        Ok(e)
    }

    /// Vectors that keep the dimension learnt at connect, or an error.
    fn checked(&self, out: Vec<Vec<f32>>) -> Result<Vec<Vec<f32>>, CorpusError> {
        if out.iter().any(|v| v.len() != self.dim) {
            return Err(CorpusError::Model(format!(
                "{}: vectors changed size (expected {})",
                self.cfg.base_url, self.dim
            )));
        }
        Ok(out)
    }

    fn call(&self, texts: &[&str], timeout: Duration) -> Result<Vec<Vec<f32>>, CorpusError> {
        let url = format!("{}/embeddings", self.cfg.base_url.trim_end_matches('/'));
        let input: Vec<&str> = texts
            .iter()
            .map(|t| match t.char_indices().nth(MAX_INPUT_CHARS) {
                Some((i, _)) => &t[..i],
                None => t,
            })
            .collect();
        let mut req = self.agent.post(&url).timeout(timeout);
        if let Some(k) = &self.cfg.api_key {
            req = req.set("Authorization", &format!("Bearer {k}"));
        }
        let fail = |what: String| CorpusError::Model(format!("{url}: {what}"));
        let body: Value = match req.send_json(json!({"model": self.cfg.model, "input": input})) {
            Ok(r) => r
                .into_json()
                .map_err(|e| fail(format!("unreadable reply: {e}")))?,
            Err(ureq::Error::Status(code, r)) => {
                let text = r.into_string().unwrap_or_default();
                let msg = serde_json::from_str::<Value>(&text)
                    .ok()
                    .and_then(|v| v["error"]["message"].as_str().map(str::to_string))
                    .unwrap_or_else(|| text.chars().take(200).collect());
                return Err(fail(format!("HTTP {code}: {msg}")));
            }
            Err(e) => return Err(fail(e.to_string())),
        };
        let data = body["data"]
            .as_array()
            .ok_or_else(|| fail("reply has no `data` list".into()))?;
        let mut out: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        for (pos, item) in data.iter().enumerate() {
            let i = item["index"].as_u64().map(|i| i as usize).unwrap_or(pos);
            let v: Vec<f32> = item["embedding"]
                .as_array()
                .ok_or_else(|| fail(format!("item {i} has no `embedding` list")))?
                .iter()
                .map(|x| x.as_f64().map(|f| f as f32))
                .collect::<Option<_>>()
                .ok_or_else(|| fail(format!("item {i} has a non-numeric embedding")))?;
            let slot = out
                .get_mut(i)
                .ok_or_else(|| fail(format!("item index {i} out of range")))?;
            *slot = Some(normalise(v));
        }
        out.into_iter()
            .enumerate()
            .map(|(i, v)| v.ok_or_else(|| fail(format!("no vector for input {i}"))))
            .collect()
    }
}

fn normalise(mut v: Vec<f32>) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 && n.is_finite() {
        for x in &mut v {
            *x /= n;
        }
    }
    v
}

impl PassageEmbedder for RemoteEmbedder {
    fn model_id(&self) -> &str {
        &self.id
    }

    fn dim(&self) -> usize {
        self.dim
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, CorpusError> {
        self.checked(self.call(texts, self.cfg.timeout)?)
    }

    fn embed_query(&self, query: &str) -> Result<Vec<f32>, CorpusError> {
        let mut v = self.checked(self.call(&[query], self.cfg.timeout.min(QUERY_TIMEOUT))?)?;
        v.pop()
            .ok_or_else(|| CorpusError::Model("no vector for the query".into()))
    }
}
