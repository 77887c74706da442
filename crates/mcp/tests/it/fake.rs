//! A test registry: the ten skill ids, each answering from its input without a store.

use ecclesia_a2a::{Artifact, Part};
use ecclesia_core::{artifact, skill_card, Skill, SkillContext, SkillError, SkillRequest};
use serde_json::json;

/// One fake skill.
pub struct Fake(pub &'static str);

impl Skill for Fake {
    fn card(&self) -> ecclesia_a2a::AgentSkill {
        skill_card(self.0, self.0, "fake", &["test"], &[])
    }

    fn extra_pool(&self) -> Option<&'static str> {
        (self.0 == "catholic_qa").then_some("catholic_qa")
    }

    fn run(&self, req: &SkillRequest, _ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        match self.0 {
            "document_search" => {
                let q = req.require_text("query")?;
                let limit = req.int_field("limit")?.unwrap_or(10);
                Ok(vec![artifact(
                    "search_results",
                    vec![Part::data(json!({"results": [
                        {"id": "lg", "title": "Lumen Gentium", "snippet": q, "limit": limit}
                    ]}))],
                )])
            }
            "document_fetch" => {
                let id = req
                    .str_field("id")?
                    .or(req.text.clone())
                    .unwrap_or_default();
                if id != "lg" {
                    return Ok(vec![artifact(
                        "document",
                        vec![Part::text("Document not found.")],
                    )]);
                }
                let r = req.str_field("ref")?;
                let body = match &r {
                    Some(r) => format!("Section {r} of Lumen Gentium."),
                    None => "Christ is the Light of nations.".to_string(),
                };
                Ok(vec![artifact(
                    "document",
                    vec![
                        Part::text(body),
                        Part::data(
                            json!({"id": "lg", "title": "Lumen Gentium", "author": "Paul VI", "ref": r}),
                        ),
                    ],
                )])
            }
            "liturgical_readings" | "saints_of_the_day" => {
                let d = req.date_input()?;
                if d.phrase.contains("blursday") {
                    return Err(SkillError::InvalidParams(format!(
                        "could not read the date {:?}: try \"today\", \"next Sunday\" or 2026-03-19",
                        d.phrase
                    )));
                }
                let name = if self.0 == "liturgical_readings" {
                    "mass_readings"
                } else {
                    "martyrology"
                };
                Ok(vec![artifact(
                    name,
                    vec![Part::text(format!(
                        "{name} for {}: Gospel John 6:51",
                        d.phrase
                    ))],
                )])
            }
            "catholic_qa" => {
                let q = req.require_text("question")?;
                Ok(vec![artifact(
                    "catholic_qa_response",
                    vec![
                        Part::text(format!("The Church teaches about {q} [1].")),
                        Part::data(json!({"citations": [{
                            "cited_text": "Christ is the Light of nations.",
                            "cited_text_heading": "Chapter I",
                            "document_id": "lg",
                            "document_title": "Lumen Gentium",
                            "document_index": 0,
                            "document_author": "Paul VI",
                            "document_year": 1964,
                            "document_reference": "1",
                            "source_url": "https://www.vatican.va/lg"
                        }]})),
                    ],
                )])
            }
            id => {
                let key = match id {
                    "saint_lookup" => "saint_id",
                    "person_lookup" => "person_id",
                    "pope_lookup" => "pope_id",
                    _ => "source_code",
                };
                match req.query_or_id(key)? {
                    ecclesia_core::QueryOrId::Id(i) => {
                        Ok(vec![artifact(id, vec![Part::data(json!({key: i}))])])
                    }
                    ecclesia_core::QueryOrId::Query(q) if q.contains("nobody") => {
                        Ok(vec![artifact(
                            id,
                            vec![Part::data(json!({"error": "not_found", "query": q}))],
                        )])
                    }
                    ecclesia_core::QueryOrId::Query(q) => Ok(vec![artifact(
                        id,
                        vec![Part::data(
                            json!({"primary_name": q, "start_year": req.int_field("start_year")?}),
                        )],
                    )]),
                }
            }
        }
    }
}

/// The ten skill ids.
pub const IDS: &[&str] = &[
    "catholic_qa",
    "document_search",
    "document_fetch",
    "liturgical_readings",
    "saints_of_the_day",
    "saint_lookup",
    "person_lookup",
    "pope_lookup",
    "diocese_lookup",
    "diocese_statistics_lookup",
];

/// A registry of the ten fakes.
pub fn registry() -> ecclesia_core::SkillRegistry {
    let mut r = ecclesia_core::SkillRegistry::default();
    for id in IDS {
        r.register(Fake(id));
    }
    r
}
