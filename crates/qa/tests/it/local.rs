//! The local GGUF backend (feature `local`), for real: runs only when
//! `ECCLESIA_TEST_GGUF` names a GGUF file (a small instruct model such as
//! SmolLM2-135M-Instruct Q4_1), and never in CI. Tiny models answer nonsense,
//! so this checks loading, the chat template, streaming and the validation of
//! whatever markers the model wrote, not the answer's quality.

use crate::{check_integrity, fixture};
use ecclesia_qa::{Generator, LocalBackend, LocalConfig, QaConfig, QaEngine, QaSettings};
use std::sync::Arc;
use std::time::Instant;

fn gguf() -> Option<String> {
    match std::env::var("ECCLESIA_TEST_GGUF") {
        Ok(p) if !p.trim().is_empty() => Some(p),
        _ => {
            println!("skipped: set ECCLESIA_TEST_GGUF to a .gguf file to test the local backend");
            None
        }
    }
}

#[test]
fn local_model_streams_a_validated_answer() {
    let Some(path) = gguf() else { return };
    let settings = QaSettings::from_json(&serde_json::json!({
        "backend": "local",
        "model_path": path,
        "context": 4096,
        "max_tokens": 160,
    }))
    .unwrap();
    let started = Instant::now();
    let generator = settings.generator().unwrap();
    println!("model loaded in {:?}", started.elapsed());
    assert!(
        generator.name().starts_with("local:"),
        "{}",
        generator.name()
    );
    let engine = QaEngine::new(
        Arc::new(fixture()),
        generator,
        QaConfig {
            // A failing model must fail the test, not hide behind the extractive answer.
            fallback_to_extractive: false,
            ..QaConfig::default()
        },
    );
    let mut chunks: Vec<String> = Vec::new();
    let mut first: Option<std::time::Duration> = None;
    let started = Instant::now();
    let a = engine
        .answer_streaming(
            "What does the Church teach about the Eucharist?",
            &mut |t| {
                first.get_or_insert(started.elapsed());
                chunks.push(t.to_string());
            },
            &|| false,
        )
        .unwrap();
    let total = started.elapsed();
    println!(
        "first chunk after {first:?}, {} chunks in {total:?}\n--- answer ---\n{}\n--- {} citations",
        chunks.len(),
        a.text,
        a.citations.len()
    );
    assert!(a.backend.starts_with("local:"), "{}", a.backend);
    assert!(chunks.len() > 3, "streaming delivered {chunks:?}");
    // The engine may append its "Passages consulted" line after the stream.
    assert!(a.text.starts_with(chunks.concat().trim_end()), "{chunks:?}");
    check_integrity(&a, &fixture());
}

#[test]
fn local_prompt_uses_the_models_chat_template() {
    let Some(path) = gguf() else { return };
    // ECCLESIA_TEST_GGUF_THREADS: threads for this measurement (default: all cores).
    let threads = std::env::var("ECCLESIA_TEST_GGUF_THREADS")
        .ok()
        .and_then(|t| t.parse().ok());
    let b = LocalBackend::load(LocalConfig {
        model_path: path.into(),
        threads,
        ..LocalConfig::default()
    })
    .unwrap();
    let passages = ecclesia_qa::gather(
        &fixture(),
        "What is the Eucharist?",
        &ecclesia_qa::RetrievalConfig::default(),
    )
    .unwrap();
    let prompt = b.prompt("What is the Eucharist?", &passages).unwrap();
    assert!(prompt.contains(ecclesia_qa::SYSTEM_PROMPT), "{prompt}");
    assert!(prompt.contains("<passage n=\"1\""));
    // The template leaves the assistant's turn open (SmolLM2: chatml).
    assert!(
        prompt.trim_end().ends_with("assistant"),
        "{}",
        &prompt[prompt.len().saturating_sub(80)..]
    );

    // Timing of the generator alone over three passages: streamed pieces are
    // tokens (less any held back to complete a UTF-8 character).
    let started = Instant::now();
    let mut at: Vec<std::time::Duration> = Vec::new();
    let draft = b
        .generate(
            "What is the Eucharist?",
            &passages[..passages.len().min(3)],
            &mut |_| {
                at.push(started.elapsed());
                Ok(())
            },
        )
        .unwrap();
    assert!(!draft.text.trim().is_empty());
    assert_eq!(draft.excerpts.len(), passages.len().min(3));
    let first = at[0];
    let last = at[at.len() - 1];
    let rate = (at.len() - 1) as f64 / (last - first).as_secs_f64().max(1e-6);
    println!(
        "3 passages, prompt {} chars: first piece after {first:?}, {} pieces, {rate:.1} pieces/s after the first",
        b.prompt("What is the Eucharist?", &passages[..passages.len().min(3)]).unwrap().len(),
        at.len()
    );
}

#[test]
fn a_missing_model_file_is_a_settings_error() {
    let err = QaSettings::from_json(&serde_json::json!({
        "backend": "local",
        "model_path": "/nonexistent/model.gguf",
    }))
    .unwrap()
    .generator()
    .err()
    .unwrap();
    assert!(err.to_string().contains("model_path"), "{err}");
}
