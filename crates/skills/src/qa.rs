//! `catholic_qa`: the default skill. Adapts the corpus store onto the
//! question-answering pipeline of `ecclesia-qa` ([`CorpusRetriever`]) and the
//! pipeline onto the [`Skill`] interface ([`CatholicQa`]): streaming chunks,
//! cancellation, error mapping, the stricter rate-limit pool and the backend
//! shown on the card and in `readyz`.

use crate::SkillEnv;
use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, ArtifactChunk, Ingester, Skill, SkillContext, SkillError, SkillRegistry,
    SkillRequest,
};
use ecclesia_corpus::Corpus;
use ecclesia_qa::{Answer, CorpusRetriever, Extractive, QaEngine, QaError, QaSettings, Sampling};
use serde_json::json;
use std::sync::Arc;

/// The artifact name of the contract.
pub const ARTIFACT_NAME: &str = "catholic_qa_response";

/// `catholic_qa` has no store of its own: it reads the corpus.
pub fn ingesters() -> Vec<Box<dyn Ingester>> {
    Vec::new()
}

/// Register `catholic_qa` when the corpus store is present. Bad `[qa]`
/// settings are logged and the extractive backend is used, so a typo in the
/// model configuration never takes the default skill down.
pub fn register(reg: &mut SkillRegistry, env: &SkillEnv) {
    let Some(corpus) = crate::corpus::shared_corpus(env) else {
        tracing::warn!("catholic_qa is disabled: no corpus store (run `ecclesia ingest`)");
        return;
    };
    reg.register(CatholicQa::from_settings(corpus, &env.section("qa"), env));
}

/// The `catholic_qa` skill.
pub struct CatholicQa {
    engine: QaEngine,
}

impl CatholicQa {
    /// The skill over an engine (tests build one over a small retriever).
    pub fn new(engine: QaEngine) -> Self {
        CatholicQa { engine }
    }

    /// The skill over the corpus with the `[qa]` settings section (JSON); the
    /// on-topic classifier's embedding voice is found as `topic_model` says
    /// ([`crate::qa_topic`]).
    pub fn from_settings(corpus: Arc<Corpus>, section: &serde_json::Value, env: &SkillEnv) -> Self {
        let settings = QaSettings::from_json(section).unwrap_or_else(|e| {
            tracing::error!("catholic_qa: {e}; using the defaults");
            QaSettings::default()
        });
        let generator = settings.generator().unwrap_or_else(|e| {
            tracing::error!("catholic_qa: {e}; answering extractively");
            Arc::new(Extractive::default())
        });
        let language = Some(settings.language.clone()).filter(|l| !l.trim().is_empty() && l != "*");
        let retriever = CorpusRetriever::new(corpus, language);
        let mut config = settings.engine_config();
        if config.refuse_off_topic {
            config.topic_vote = crate::qa_topic::topic_vote(settings.topic_model.as_deref(), env);
        }
        let engine = QaEngine::new(Arc::new(retriever), generator, config);
        tracing::info!(backend = %engine.backend(), "catholic_qa ready");
        CatholicQa { engine }
    }
}

/// The contract's artifact for `answer`, under `artifact_id`.
pub fn answer_artifact(answer: &Answer, artifact_id: &str) -> Artifact {
    let mut a = artifact(ARTIFACT_NAME, answer_parts(answer));
    a.artifact_id = artifact_id.to_string();
    a.metadata = grounding_metadata(answer);
    a
}

/// `{"grounding": {status, missing, see_also}}`: our extension of the contract.
fn grounding_metadata(answer: &Answer) -> Option<serde_json::Map<String, serde_json::Value>> {
    let g = answer.grounding.as_ref()?;
    let mut m = serde_json::Map::new();
    m.insert("grounding".into(), serde_json::to_value(g).ok()?);
    Some(m)
}

fn answer_parts(answer: &Answer) -> Vec<Part> {
    let mut parts = vec![Part::text(answer.text.clone())];
    parts.extend(data_parts(answer));
    parts
}

fn data_parts(answer: &Answer) -> Vec<Part> {
    let mut parts = Vec::new();
    if !answer.citations.is_empty() {
        parts.push(Part::data(json!({ "citations": answer.citations })));
    }
    if !answer.related_questions.is_empty() {
        parts.push(Part::data(
            json!({ "related_questions": answer.related_questions }),
        ));
    }
    parts
}

fn skill_error(e: QaError) -> SkillError {
    match e {
        QaError::InvalidQuestion(m) => SkillError::InvalidParams(m),
        QaError::Canceled => SkillError::Canceled,
        QaError::Backend(f) => {
            tracing::error!("catholic_qa backend: {f}");
            SkillError::Unavailable("the answering model is unavailable; try again later".into())
        }
        other => SkillError::internal(other),
    }
}

impl Skill for CatholicQa {
    fn card(&self) -> AgentSkill {
        let backend = self.engine.backend();
        let how = if backend == "extractive" {
            "Answers are composed from the key passages themselves, quoted verbatim and attributed (extractive backend, no language model)".to_string()
        } else {
            format!("Answers are written by a language model ({backend}) from the retrieved passages only, every claim marked with its source")
        };
        skill_card(
            "catholic_qa",
            "Catholic Q&A",
            &format!(
                "Ask a question about the Catholic faith, Scripture, the sacraments, morals or Church history; \
                 get a long-form answer drawn from the corpus (papal documents, Scripture, the Church Fathers, \
                 the Baltimore Catechism, Haydock) with [n] footnotes, citations and related questions. {how}."
            ),
            &["catholic", "question-answering", "citations", "rag"],
            &[
                "What does the Church teach about the real presence of Christ in the Eucharist?",
                "Is baptism necessary for salvation?",
                "What does John 6:51 mean?",
            ],
        )
    }

    fn run(&self, req: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let question = req.require_text("question")?;
        ctx.check()?;
        let id = format!("art_{}", uuid_like());
        let mut first = true;
        let mut on_text = |delta: &str| {
            if !ctx.is_streaming() || delta.is_empty() {
                return;
            }
            let mut a = artifact(ARTIFACT_NAME, vec![Part::text(delta)]);
            a.artifact_id = id.clone();
            ctx.emit(ArtifactChunk {
                artifact: a,
                append: !first,
                last_chunk: false,
            });
            first = false;
        };
        let canceled = || ctx.is_canceled();
        // OpenAI's sampling settings, as the chat completions API passes them on.
        let sampling = Sampling {
            max_tokens: req
                .int_field("max_tokens")?
                .map(|n| n.clamp(1, u32::MAX as i64) as u32),
            temperature: match req.data.get("temperature") {
                None | Some(serde_json::Value::Null) => None,
                Some(v) => match v.as_f64() {
                    Some(t) if (0.0..=2.0).contains(&t) => Some(t as f32),
                    _ => {
                        return Err(SkillError::InvalidParams(format!(
                            "data.temperature must be a number from 0 to 2, not {v}"
                        )))
                    }
                },
            },
        };
        let answer = self
            .engine
            .answer_streaming_sampled(&question, &sampling, &mut on_text, &canceled)
            .map_err(skill_error)?;
        ctx.check()?;
        if ctx.is_streaming() {
            // Then the citations and related questions, closing the streamed artifact.
            let mut a = artifact(ARTIFACT_NAME, data_parts(&answer));
            a.artifact_id = id.clone();
            a.metadata = grounding_metadata(&answer);
            ctx.emit(ArtifactChunk {
                artifact: a,
                append: !first,
                last_chunk: true,
            });
        }
        tracing::info!(backend = %answer.backend, citations = answer.citations.len(), "catholic_qa answered");
        Ok(vec![answer_artifact(&answer, &id)])
    }

    fn extra_pool(&self) -> Option<&'static str> {
        Some("catholic_qa")
    }

    fn status(&self) -> serde_json::Value {
        json!({
            "backend": self.engine.backend(),
            "refuse_off_topic": self.engine.config().refuse_off_topic,
            "topic_classifier": match &self.engine.config().topic_vote {
                Some(v) => format!("words and {}", v.weights().model),
                None => "words".to_string(),
            },
            "max_passages": self.engine.config().retrieval.max_passages,
        })
    }
}

/// A fresh artifact id suffix, the same shape as [`ecclesia_core::artifact`]'s.
fn uuid_like() -> String {
    artifact("x", Vec::new())
        .artifact_id
        .trim_start_matches("art_")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ecclesia_qa::{citation_problems, MemoryRetriever, QaConfig};
    use std::sync::atomic::AtomicBool;
    use std::sync::Mutex;
    use std::time::Duration;

    fn fixture() -> MemoryRetriever {
        let raw = include_str!("../../qa/tests/fixtures/passages.json");
        MemoryRetriever::new(serde_json::from_str(raw).unwrap())
    }

    fn skill() -> CatholicQa {
        CatholicQa::new(QaEngine::new(
            Arc::new(fixture()),
            Arc::new(Extractive::default()),
            QaConfig::default(),
        ))
    }

    fn text_of(a: &Artifact) -> String {
        a.parts
            .iter()
            .filter_map(|p| match p {
                Part::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    fn answer_of(a: &Artifact) -> Answer {
        let mut answer = Answer {
            text: text_of(a),
            citations: Vec::new(),
            related_questions: Vec::new(),
            backend: String::new(),
            grounding: None,
        };
        for p in &a.parts {
            if let Part::Data { data, .. } = p {
                if let Some(c) = data.get("citations") {
                    answer.citations = serde_json::from_value(c.clone()).unwrap();
                }
                if let Some(r) = data.get("related_questions") {
                    answer.related_questions = serde_json::from_value(r.clone()).unwrap();
                }
            }
        }
        answer
    }

    #[test]
    fn streams_text_then_sources_then_returns_the_whole_artifact() {
        let chunks: Arc<Mutex<Vec<ArtifactChunk>>> = Arc::default();
        let sink = chunks.clone();
        let ctx = SkillContext::new(Duration::from_secs(30), Arc::new(AtomicBool::new(false)))
            .with_sink(move |c| sink.lock().unwrap().push(c));
        let req = SkillRequest::from_parts(&[Part::text("What is the Holy Eucharist?")]).unwrap();
        let out = skill().run(&req, &ctx).unwrap();
        assert_eq!(out.len(), 1);
        let fin = &out[0];
        assert_eq!(fin.name.as_deref(), Some(ARTIFACT_NAME));
        let chunks = chunks.lock().unwrap();
        assert!(chunks.len() >= 3, "{}", chunks.len());
        assert!(!chunks[0].append && chunks[1..].iter().all(|c| c.append));
        assert!(chunks
            .iter()
            .all(|c| c.artifact.artifact_id == fin.artifact_id));
        let (last, text_chunks) = chunks.split_last().unwrap();
        assert!(last.last_chunk && text_chunks.iter().all(|c| !c.last_chunk));
        // The text chunks carry only text; the last one carries the data parts.
        assert!(text_chunks.iter().all(|c| c
            .artifact
            .parts
            .iter()
            .all(|p| matches!(p, Part::Text { .. }))));
        assert!(
            last.artifact
                .parts
                .iter()
                .all(|p| matches!(p, Part::Data { .. }))
                && !last.artifact.parts.is_empty()
        );
        let streamed: String = text_chunks.iter().map(|c| text_of(&c.artifact)).collect();
        assert_eq!(streamed, text_of(fin));
        // The final artifact: text, citations, related questions, in that order.
        assert!(matches!(fin.parts[0], Part::Text { .. }));
        let answer = answer_of(fin);
        assert!(citation_problems(&answer, &fixture()).is_empty());
        assert!(!answer.citations.is_empty() && !answer.related_questions.is_empty());
        let data = serde_json::to_value(&fin.parts[1]).unwrap();
        let c0 = &data["data"]["citations"][0];
        for k in [
            "cited_text",
            "cited_text_heading",
            "document_id",
            "document_title",
            "document_index",
            "document_author",
            "document_year",
            "document_reference",
            "source_url",
        ] {
            assert!(c0.get(k).is_some(), "missing {k}: {c0}");
        }
        assert_eq!(c0["document_index"], 0);
    }

    #[test]
    fn the_artifact_carries_the_grounding_in_its_metadata() {
        let req = SkillRequest::from_parts(&[Part::text(
            "What did Vatican II decide about the vernacular in the liturgy?",
        )])
        .unwrap();
        let out = skill().run(&req, &SkillContext::default()).unwrap();
        let g = &out[0].metadata.as_ref().expect("metadata")["grounding"];
        assert_ne!(g["status"], "answered", "{g}");
        let first = &g["see_also"][0];
        for k in ["title", "author", "year", "type", "url", "in_library"] {
            assert!(first.get(k).is_some(), "missing {k}: {first}");
        }
        assert_eq!(first["in_library"], false);
        let req = SkillRequest::from_parts(&[Part::text("What is the Holy Eucharist?")]).unwrap();
        let out = skill().run(&req, &SkillContext::default()).unwrap();
        let g = &out[0].metadata.as_ref().expect("metadata")["grounding"];
        assert_eq!(g["status"], "answered", "{g}");
        assert_eq!(g["see_also"], serde_json::json!([]));
    }

    #[test]
    fn not_streaming_returns_one_artifact() {
        let req =
            SkillRequest::from_parts(&[Part::text("Is baptism necessary to salvation?")]).unwrap();
        let out = skill().run(&req, &SkillContext::default()).unwrap();
        let answer = answer_of(&out[0]);
        assert!(
            citation_problems(&answer, &fixture()).is_empty(),
            "{}",
            answer.text
        );
        assert!(answer.text.contains("[1]"));
    }

    #[test]
    fn pool_card_and_status_name_the_backend() {
        let s = skill();
        assert_eq!(s.extra_pool(), Some("catholic_qa"));
        assert_eq!(s.card().id, "catholic_qa");
        assert!(s.card().description.contains("extractive"));
        assert_eq!(s.status()["backend"], "extractive");
    }

    #[test]
    fn errors_map_to_the_contract() {
        let long = "Why? ".repeat(500);
        let req = SkillRequest::from_parts(&[Part::text(long)]).unwrap();
        assert!(
            matches!(skill().run(&req, &SkillContext::default()), Err(SkillError::InvalidParams(m)) if m.contains("too long"))
        );
        let req = SkillRequest::from_parts(&[]).unwrap();
        assert!(matches!(
            skill().run(&req, &SkillContext::default()),
            Err(SkillError::InvalidParams(_))
        ));
        let ctx = SkillContext::new(Duration::from_secs(30), Arc::new(AtomicBool::new(true)));
        let req = SkillRequest::from_parts(&[Part::text("What is grace?")]).unwrap();
        assert!(matches!(skill().run(&req, &ctx), Err(SkillError::Canceled)));
        let req = SkillRequest::from_parts(&[Part::text("Best lasagna recipe?")]).unwrap();
        let out = skill().run(&req, &SkillContext::default()).unwrap();
        assert_eq!(out[0].parts.len(), 1);
        assert_eq!(text_of(&out[0]), ecclesia_qa::REFUSAL);
    }
}
