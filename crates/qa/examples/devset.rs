//! The development set against a built corpus store: how often an answer
//! cites at least one of the documents a good answer should cite, citation
//! integrity on every answer, and latency (total and to the first streamed
//! piece).
//!
//! ```text
//! cargo run --release -p ecclesia-qa --features corpus --example devset -- \
//!     <store>/gen-…/corpus [--devset crates/qa/tests/fixtures/devset.json] \
//!     [--settings '{"backend":"openai","base_url":"http://127.0.0.1:8080/v1","model":"m"}'] \
//!     [--show 3] [--json out.json] [--model models/all-MiniLM-L6-v2-qint8 [--cache F]] \
//!     [--topic-model models/multilingual-e5-small]
//! ```
//!
//! `--topic-model` gives the on-topic classifier its embedding voice, as the
//! server does when the model is installed.
//!
//! `--model` adds the transformer vectors that the vector cache (`--cache`,
//! by default `embeddings.sqlite` two folders above the corpus folder, where
//! `ecclesia serve` keeps it) holds for that model; nothing is computed.

use ecclesia_corpus::Corpus;
use ecclesia_qa::{citation_problems, CorpusRetriever, QaEngine, QaSettings};
use serde::Deserialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

#[derive(Deserialize)]
struct Item {
    category: String,
    question: String,
    expect: Vec<String>,
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut store: Option<PathBuf> = None;
    let mut devset = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/devset.json"
    ));
    let mut settings = serde_json::Value::Null;
    let mut show = 3usize;
    let mut json_out: Option<PathBuf> = None;
    let mut model: Option<PathBuf> = None;
    let mut cache: Option<PathBuf> = None;
    let mut topic_model: Option<PathBuf> = None;
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--devset" => devset = PathBuf::from(val()?),
            "--settings" => settings = serde_json::from_str(&val()?).map_err(|e| e.to_string())?,
            "--show" => {
                show = val()?
                    .parse()
                    .map_err(|_| "--show needs a number".to_string())?
            }
            "--json" => json_out = Some(PathBuf::from(val()?)),
            "--model" => model = Some(PathBuf::from(val()?)),
            "--cache" => cache = Some(PathBuf::from(val()?)),
            "--topic-model" => topic_model = Some(PathBuf::from(val()?)),
            other => store = Some(PathBuf::from(other)),
        }
    }
    let store = store.ok_or(
        "usage: devset <corpus store dir> [--devset F] [--settings JSON] [--show N] [--json OUT]",
    )?;
    let items: Vec<Item> =
        serde_json::from_str(&std::fs::read_to_string(&devset).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let t = Instant::now();
    let mut corpus = Corpus::open(&store).map_err(|e| e.to_string())?;
    // ECCLESIA_EVAL_TUNING: a JSON object of SearchTuning fields (as in the corpus quality eval).
    if let Ok(patch) = std::env::var("ECCLESIA_EVAL_TUNING") {
        let mut t = serde_json::to_value(corpus.tuning()).map_err(|e| e.to_string())?;
        let patch: serde_json::Value = serde_json::from_str(&patch).map_err(|e| e.to_string())?;
        if let (Some(t), Some(p)) = (t.as_object_mut(), patch.as_object()) {
            t.extend(p.clone());
        }
        corpus.set_tuning(serde_json::from_value(t).map_err(|e| e.to_string())?);
        println!("tuning: {:?}", corpus.tuning());
    }
    if let Some(dir) = &model {
        let cache = cache
            .or_else(|| Some(store.parent()?.parent()?.join("embeddings.sqlite")))
            .ok_or("--model needs --cache here")?;
        // 256 word pieces: the server's default window (the model id names it).
        let m =
            ecclesia_corpus::semantic::load_local_model(dir, 2, 256).map_err(|e| e.to_string())?;
        let st = ecclesia_corpus::semantic::attach_cached(&mut corpus, m, &cache)
            .map_err(|e| e.to_string())?;
        println!(
            "transformer vectors {}: {} of {} passages, priority set {} of {}",
            st.model, st.embedded, st.passages, st.priority.embedded, st.priority.passages
        );
    }
    let corpus = Arc::new(corpus);
    println!("corpus opened in {:.2}s", t.elapsed().as_secs_f64());
    let s = QaSettings::from_json(&settings).map_err(|e| e.to_string())?;
    let language = Some(s.language.clone()).filter(|l| !l.is_empty() && l != "*");
    let retriever = Arc::new(CorpusRetriever::new(corpus, language));
    let mut config = s.engine_config();
    if let Some(dir) = &topic_model {
        let e5 = Arc::new(ecclesia_e5::E5::load(dir, None).map_err(|e| e.to_string())?);
        let encode = Box::new(move |q: &str| e5.query(q).map_err(|e| e.to_string()));
        let vote = ecclesia_qa::SemanticVote::bundled(ecclesia_e5::MODEL_SHA256, encode)
            .map_err(|e| e.to_string())?;
        config.topic_vote = Some(Arc::new(vote));
        println!("on-topic classifier: words and {}", ecclesia_e5::MODEL_NAME);
    }
    let engine = QaEngine::new(
        retriever.clone(),
        s.generator().map_err(|e| e.to_string())?,
        config,
    );
    println!("backend: {}", engine.backend());

    let mut hits = 0;
    let mut totals: Vec<f64> = Vec::new();
    let mut firsts: Vec<f64> = Vec::new();
    let mut bad = 0;
    let mut refused = 0;
    let mut english_framing = 0;
    let mut per_cat: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let mut records = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let t = Instant::now();
        let mut first: Option<f64> = None;
        let answer = engine.answer_streaming(
            &item.question,
            &mut |_| {
                if first.is_none() {
                    first = Some(t.elapsed().as_secs_f64());
                }
            },
            &|| false,
        );
        let total = t.elapsed().as_secs_f64();
        let answer = match answer {
            Ok(a) => a,
            Err(e) => {
                println!("{:>2} ERROR {}: {e}", i + 1, item.question);
                continue;
            }
        };
        totals.push(total);
        if answer.backend == "refusal" {
            refused += 1;
        } else if ecclesia_qa::lang::detect(&item.question) != ecclesia_qa::lang::Lang::En
            && (answer.text.starts_with("On the question")
                || answer.text.starts_with("I found no passage"))
        {
            english_framing += 1;
        }
        if let Some(f) = first {
            firsts.push(f);
        }
        let problems = citation_problems(&answer, retriever.as_ref());
        if !problems.is_empty() {
            bad += 1;
        }
        let hit = answer.citations.iter().any(|c| {
            item.expect
                .iter()
                .any(|e| c.document_id.starts_with(e.as_str()))
        });
        if hit {
            hits += 1;
        }
        let e = per_cat.entry(item.category.clone()).or_default();
        e.0 += hit as usize;
        e.1 += 1;
        let cited: Vec<String> = answer
            .citations
            .iter()
            .map(|c| {
                format!(
                    "{}#{}",
                    c.document_id,
                    c.document_reference.as_deref().unwrap_or("")
                )
            })
            .collect();
        println!(
            "{:>2} {} {:>6.0}ms {} | {}",
            i + 1,
            if hit { "HIT " } else { "miss" },
            total * 1000.0,
            item.question,
            cited.join(" ")
        );
        for p in &problems {
            println!("     INTEGRITY: {p}");
        }
        if i < show {
            println!("\n----- Q: {}\n{}\n", item.question, answer.text);
            println!(
                "{}",
                serde_json::to_string_pretty(&answer.citations).unwrap_or_default()
            );
            println!("related: {:?}\n-----\n", answer.related_questions);
        }
        records.push(serde_json::json!({"question": item.question, "hit": hit, "ms": total * 1000.0, "answer": answer, "problems": problems}));
    }
    totals.sort_by(f64::total_cmp);
    firsts.sort_by(f64::total_cmp);
    let n = items.len();
    println!(
        "\n== {hits}/{n} answers cite an expected document ({:.0}%)",
        100.0 * hits as f64 / n.max(1) as f64
    );
    for (c, (h, k)) in &per_cat {
        println!("   {c:<11} {h}/{k}");
    }
    println!("== citation integrity problems in {bad} answers");
    println!("== refused: {refused}; non-English questions framed in English: {english_framing}");
    println!(
        "== latency total p50 {:.0} ms, p99 {:.0} ms; first piece p50 {:.0} ms, p99 {:.0} ms",
        pct(&totals, 0.5) * 1000.0,
        pct(&totals, 0.99) * 1000.0,
        pct(&firsts, 0.5) * 1000.0,
        pct(&firsts, 0.99) * 1000.0
    );
    if let Some(p) = json_out {
        std::fs::write(
            &p,
            serde_json::to_string_pretty(&records).unwrap_or_default(),
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}
