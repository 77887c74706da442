//! A fake `catholic_qa` that echoes the question it was asked, with two
//! citations, and a fake `document_search` that echoes its inputs.

use ecclesia_a2a::{Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, ArtifactChunk, Skill, SkillContext, SkillError, SkillRequest,
};
use ecclesia_server::{AppState, Plan, ServerConfig};
use serde_json::json;

/// The fake.
pub struct Qa;

impl Skill for Qa {
    fn card(&self) -> ecclesia_a2a::AgentSkill {
        skill_card("catholic_qa", "QA", "fake", &["test"], &[])
    }

    fn extra_pool(&self) -> Option<&'static str> {
        Some("catholic_qa")
    }

    fn run(&self, req: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let q = req.require_text("question")?;
        if q.contains("unavailable") {
            return Err(SkillError::Unavailable("the corpus is not ingested".into()));
        }
        let text = format!("You asked: {q}. Grace perfects nature [1], as taught [2].");
        let data = vec![
            Part::data(json!({"citations": [
                {"cited_text": "Grace does not destroy nature but perfects it.",
                 "cited_text_heading": "Article 8", "document_id": "st-1-1-8",
                 "document_title": "Summa Theologiae", "document_index": 0,
                 "document_author": "Thomas Aquinas", "document_year": 1274,
                 "document_reference": "I q.1 a.8", "source_url": "https://example.org/st"},
                {"cited_text": "Christ is the Light of nations.", "cited_text_heading": null,
                 "document_id": "lg", "document_title": "Lumen Gentium", "document_index": 1,
                 "document_author": "Paul VI", "document_year": 1964,
                 "document_reference": "1", "source_url": "https://example.org/lg"}
            ]})),
            Part::data(json!({"related_questions": ["What is grace?"]})),
        ];
        let mut whole = artifact("catholic_qa_response", vec![Part::text(text.clone())]);
        whole.parts.extend(data.clone());
        if ctx.is_streaming() {
            // As the real skill does: text deltas, then the data parts closing the artifact.
            for (i, word) in text.split_inclusive(' ').enumerate() {
                let mut a = artifact("catholic_qa_response", vec![Part::text(word)]);
                a.artifact_id = whole.artifact_id.clone();
                ctx.emit(ArtifactChunk {
                    artifact: a,
                    append: i > 0,
                    last_chunk: false,
                });
            }
            let mut a = artifact("catholic_qa_response", data);
            a.artifact_id = whole.artifact_id.clone();
            ctx.emit(ArtifactChunk {
                artifact: a,
                append: true,
                last_chunk: true,
            });
        }
        Ok(vec![whole])
    }
}

/// A fake `document_search`: `limit` results named after the query, magisterial
/// unless the category is `scholarly`; the inputs it saw in `seen`.
pub struct Search;

impl Skill for Search {
    fn card(&self) -> ecclesia_a2a::AgentSkill {
        skill_card("document_search", "Search", "fake", &["test"], &[])
    }

    fn run(&self, req: &SkillRequest, _ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let q = req.require_text("query")?;
        if q.contains("explode") {
            return Err(SkillError::InvalidParams("the query cannot be read".into()));
        }
        let limit = req.int_field("limit")?.unwrap_or(10);
        let category = req.str_field("category")?.unwrap_or_else(|| "auto".into());
        let results: Vec<_> = (0..limit)
            .map(|i| {
                json!({"id": format!("doc-{i}"), "url": format!("https://example.org/{i}"),
                       "title": format!("{q} {i}"), "author": "Paul VI", "year": 1964,
                       "type": "encyclical", "reference": format!("{}", i + 1),
                       "snippet": format!("passage {i} about {q}"),
                       "score": 1.0 / (i as f64 + 1.0),
                       "magisterial": category != "scholarly"})
            })
            .collect();
        Ok(vec![artifact(
            "search_results",
            vec![Part::data(json!({"results": results, "mode": "hybrid",
                "seen": {"limit": limit, "category": category}}))],
        )])
    }
}

/// A server state with the fakes, and a `pro` key (15 calls and 2 `catholic_qa` a minute).
pub fn state(dir: &std::path::Path, public_url: Option<String>) -> (AppState, String) {
    let mut registry = ecclesia_core::SkillRegistry::default();
    registry.register(Qa);
    registry.register(Search);
    let mut config = ServerConfig::default();
    if let Some(u) = public_url {
        config.public_url = u;
    }
    config.plans.insert(
        "qa5".into(),
        Plan {
            a2a: true,
            send_per_minute: Some(100),
            qa_per_minute: Some(5),
        },
    );
    let state = AppState::open(config, registry, dir).expect("state");
    let (_, token) = state.keys.create_key("test", "pro").expect("key");
    (state, token)
}
