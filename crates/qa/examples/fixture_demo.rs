//! Print extractive answers over the test fixture (real passages):
//! `cargo run -p ecclesia-qa --example fixture_demo -- "What is a sacrament?"`.

use ecclesia_qa::{Extractive, MemoryRetriever, Passage, QaConfig, QaEngine};
use std::sync::Arc;

fn main() {
    let raw = include_str!("../tests/fixtures/passages.json");
    let passages: Vec<Passage> = match serde_json::from_str(raw) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bad fixture: {e}");
            std::process::exit(1);
        }
    };
    let engine = QaEngine::new(
        Arc::new(MemoryRetriever::new(passages)),
        Arc::new(Extractive::default()),
        QaConfig::default(),
    );
    let questions: Vec<String> = std::env::args().skip(1).collect();
    let questions = if questions.is_empty() {
        vec![
            "What does the Church teach about the real presence of Christ in the Eucharist?"
                .to_string(),
        ]
    } else {
        questions
    };
    for q in questions {
        match engine.answer(&q) {
            Ok(a) => println!("{}", serde_json::to_string_pretty(&a).unwrap_or_default()),
            Err(e) => eprintln!("{q}: {e}"),
        }
    }
}
