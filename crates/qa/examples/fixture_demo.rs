//! Answers over the test fixture (real passages), with any backend:
//! `cargo run -p ecclesia-qa --example fixture_demo -- "What is a sacrament?"`;
//! `QA_SETTINGS='{"backend":"openai","base_url":"http://127.0.0.1:8080/v1","model":"m"}'`
//! selects a model backend. Prints each answer as JSON with its timings.

use ecclesia_qa::{MemoryRetriever, Passage, QaEngine, QaSettings};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let raw = include_str!("../tests/fixtures/passages.json");
    let passages: Vec<Passage> = serde_json::from_str(raw).map_err(|e| e.to_string())?;
    let settings = match std::env::var("QA_SETTINGS") {
        Ok(s) => serde_json::from_str(&s).map_err(|e| e.to_string())?,
        Err(_) => serde_json::Value::Null,
    };
    let s = QaSettings::from_json(&settings).map_err(|e| e.to_string())?;
    let engine = QaEngine::new(
        Arc::new(MemoryRetriever::new(passages)),
        s.generator().map_err(|e| e.to_string())?,
        s.engine_config(),
    );
    let mut questions: Vec<String> = std::env::args().skip(1).collect();
    if questions.is_empty() {
        questions.push(
            "What does the Church teach about the real presence of Christ in the Eucharist?".into(),
        );
    }
    for q in questions {
        let t = Instant::now();
        let mut first: Option<f64> = None;
        let answer = engine
            .answer_streaming(
                &q,
                &mut |_| {
                    first.get_or_insert(t.elapsed().as_secs_f64() * 1000.0);
                },
                &|| false,
            )
            .map_err(|e| e.to_string())?;
        let total = t.elapsed().as_secs_f64() * 1000.0;
        let out = serde_json::json!({
            "question": q,
            "ms_total": total,
            "ms_first_piece": first,
            "answer": answer,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    }
    Ok(())
}
