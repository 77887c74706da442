//! The transport-neutral skill interface, the skill registry and the ingest framework.
//!
//! A skill is one [`Skill`] implementation: it turns a parsed [`SkillRequest`]
//! (the text and data parts of an A2A message) into artifacts, or a typed
//! [`SkillError`]. Skills are synchronous and run on a blocking thread with a
//! [`SkillContext`] that carries a deadline, a cancellation flag and an optional
//! sink for streamed artifact chunks. The [`SkillRegistry`] holds them by id.
//!
//! Domain crates that build stores from `../shared/data` implement [`Ingester`];
//! `ecclesia ingest` runs them all into a fresh store generation.
//!
//! ```
//! use ecclesia_core::{Skill, SkillContext, SkillError, SkillRequest, artifact};
//! use ecclesia_a2a::{AgentSkill, Artifact, Part};
//!
//! struct Echo;
//! impl Skill for Echo {
//!     fn card(&self) -> AgentSkill {
//!         ecclesia_core::skill_card("echo", "Echo", "Repeats the text", &["test"], &["hello"])
//!     }
//!     fn run(&self, req: &SkillRequest, _ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
//!         let text = req.require_text("text")?;
//!         Ok(vec![artifact("echo", vec![Part::text(text)])])
//!     }
//! }
//! let req = SkillRequest::from_parts(&[Part::text("hi")]).unwrap();
//! let out = Echo.run(&req, &SkillContext::default()).unwrap();
//! assert_eq!(out[0].name.as_deref(), Some("echo"));
//! ```
#![deny(missing_docs)]

mod feed;
mod ingest;
mod request;
mod skill;
mod store;

pub use feed::Feed;
pub use ingest::{
    IngestContext, IngestError, IngestReport, Ingester, NoProgress, Progress, ProgressFactory,
    SourceInfo,
};
pub use request::{DateInput, QueryOrId, SkillRequest, MAX_TEXT_CHARS};
pub use skill::{
    artifact, skill_card, ArtifactChunk, Choice, Skill, SkillContext, SkillError, SkillRegistry,
};
pub use store::{IngesterManifest, Manifest, StoreLayout};
