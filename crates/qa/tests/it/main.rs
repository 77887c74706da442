//! Integration tests of ecclesia-qa, one binary. Modules:
//! - `extractive`: the default backend end to end on real passages (fixture), integrity, references;
//! - `openai`: the chat-completions backend against a local fake server;
//! - `guard`: off-topic, injection and oversized questions;
//! - `topic`: the on-topic classifier on the labelled dev and held-out sets;
//! - `local` (feature `local`): the GGUF backend, when `ECCLESIA_TEST_GGUF` names a model.

mod extractive;
mod fake_server;
mod grounding;
mod guard;
#[cfg(feature = "local")]
mod local;
mod multilingual;
mod openai;
mod real_model;
mod topic;

use ecclesia_qa::{citation_problems, Answer, MemoryRetriever, Passage};

/// The fixture: real public-domain passages (Douay-Rheims verses, Haydock notes,
/// Mirae Caritatis §§4, 5, 8, the Baltimore Catechism No. 2, Ignatius to the Smyrnaeans 7).
pub fn fixture() -> MemoryRetriever {
    let raw = include_str!("../fixtures/passages.json");
    let passages: Vec<Passage> = serde_json::from_str(raw).unwrap();
    MemoryRetriever::new(passages)
}

/// Every answer in the tests goes through this.
#[track_caller]
pub fn check_integrity(answer: &Answer, retriever: &MemoryRetriever) {
    let problems = citation_problems(answer, retriever);
    assert!(problems.is_empty(), "{problems:#?}\n{}", answer.text);
}
