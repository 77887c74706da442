//! The grounding evaluation sets against a built corpus store: for questions
//! that need documents the library does not hold (set a), how often the
//! answer says so (`partial` or `not_in_library`) and names the needed
//! document in `see_also`; for answerable questions (set b), how often an
//! expected source is cited, how often the answer wrongly says
//! `not_in_library`, and how often its first quotation is an expected
//! source. Citation integrity and latency on every answer; figures per
//! language. The topic sets (`q`, `on_topic`) count on-topic questions answered and
//! off-topic ones refused, through the whole engine (the classifier and the library's
//! evidence).
//!
//! ```text
//! cargo run --release -p ecclesia-qa --features corpus --example grounding_eval -- \
//!     <store>/gen-…/corpus crates/qa/tests/fixtures/grounding_test_a.json [more sets…] \
//!     [--settings JSON] [--show N] [--json OUT] [--e5 models/multilingual-e5-small]
//! ```
//!
//! `--e5` answers as `serve` does once it has multilingual-e5-small: the
//! on-topic classifier's second voice and the cross-language vectors (read
//! from the store's cache, or computed and cached there first).

use ecclesia_corpus::Corpus;
use ecclesia_magisterium::{fold, Registry};
use ecclesia_qa::{citation_problems, CorpusRetriever, GroundingStatus, QaEngine, QaSettings};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    id: String,
    #[serde(default)]
    lang: String,
    #[serde(default)]
    kind: String,
    /// `q` in the topic sets.
    #[serde(alias = "q")]
    question: String,
    /// Topic sets: whether the question is about the faith (answered) or not (refused).
    #[serde(default)]
    on_topic: Option<bool>,
    /// Set a: registry ids of the needed documents (empty for a document that does not exist).
    #[serde(default)]
    needs: Option<Vec<String>>,
    #[serde(default)]
    needs_title: Vec<String>,
    /// Set b: id prefixes of documents a good answer cites.
    #[serde(default)]
    expect: Option<Vec<String>>,
}

#[derive(Default)]
struct Tally {
    n: usize,
    na: usize,
    nb: usize,
    flagged: usize,
    need_known: usize,
    need_found: usize,
    cited: usize,
    nil: usize,
    first: usize,
    bad: usize,
    /// Topic sets: on-topic questions, those answered; off-topic ones, those refused.
    on: usize,
    on_answered: usize,
    off: usize,
    off_refused: usize,
    /// Topic sets: questions the classifier alone gets wrong (refuses on-topic, answers off-topic).
    alone_wrong: usize,
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{:.1}% ({a}/{b})", 100.0 * a as f64 / b as f64)
    }
}

fn first_sentences(text: &str, n: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for (i, c) in text.char_indices() {
        out.push(c);
        if matches!(c, '.' | '?' | '!' | '。' | '।')
            && text[i + c.len_utf8()..].starts_with([' ', '\n'])
        {
            count += 1;
            if count == n {
                break;
            }
        }
    }
    out.replace('\n', " ")
}

/// The cross-language vectors, as `serve` builds them (cached in the store).
fn attach_crosslingual(corpus: &mut Corpus, e5: Arc<ecclesia_e5::E5>) -> Result<(), String> {
    let x = ecclesia_corpus::crosslingual::CrossLingual::new(
        ecclesia_e5::MODEL_SHA256,
        Box::new(move |t: &str, q: bool| {
            if q { e5.query(t) } else { e5.passage(t) }.map_err(|e| e.to_string())
        }),
    );
    let (units, heads) = corpus.crosslingual_units().map_err(|e| e.to_string())?;
    let t = Instant::now();
    x.build(&units, heads, &x.cache_path(corpus.dir()))?;
    println!(
        "cross-language vectors: {} texts ({heads} documents) in {:.1} s",
        units.len(),
        t.elapsed().as_secs_f64()
    );
    corpus.attach_crosslingual(x);
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let mut store: Option<PathBuf> = None;
    let mut sets: Vec<PathBuf> = Vec::new();
    let mut settings = serde_json::Value::Null;
    let mut show = 0usize;
    let mut json_out: Option<PathBuf> = None;
    let mut e5_dir: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--settings" => settings = serde_json::from_str(&val()?).map_err(|e| e.to_string())?,
            "--show" => show = val()?.parse().map_err(|_| "--show needs a number")?,
            "--json" => json_out = Some(PathBuf::from(val()?)),
            "--e5" => e5_dir = Some(PathBuf::from(val()?)),
            other if store.is_none() => store = Some(PathBuf::from(other)),
            other => sets.push(PathBuf::from(other)),
        }
    }
    let store = store.ok_or("usage: grounding_eval <corpus store dir> <set.json>…")?;
    let mut corpus = Corpus::open(&store).map_err(|e| e.to_string())?;
    let s = QaSettings::from_json(&settings).map_err(|e| e.to_string())?;
    let mut config = s.engine_config();
    if let Some(dir) = &e5_dir {
        let e5 = Arc::new(ecclesia_e5::E5::load(dir, None).map_err(|e| e.to_string())?);
        attach_crosslingual(&mut corpus, e5.clone())?;
        let encode = Box::new(move |q: &str| e5.query(q).map_err(|e| e.to_string()));
        let vote = ecclesia_qa::SemanticVote::bundled(ecclesia_e5::MODEL_SHA256, encode)
            .map_err(|e| e.to_string())?;
        config.topic_vote = Some(Arc::new(vote));
    }
    let topic_vote = config.topic_vote.clone();
    let language = Some(s.language.clone()).filter(|l| !l.is_empty() && l != "*");
    let retriever = Arc::new(CorpusRetriever::new(Arc::new(corpus), language));
    let engine = QaEngine::new(
        retriever.clone(),
        s.generator().map_err(|e| e.to_string())?,
        config,
    );
    let registry = Registry::bundled();
    let mut records = Vec::new();
    for set in &sets {
        let items: Vec<Item> = serde_json::from_str(
            &std::fs::read_to_string(set).map_err(|e| format!("{}: {e}", set.display()))?,
        )
        .map_err(|e| format!("{}: {e}", set.display()))?;
        let mut by_lang: BTreeMap<String, Tally> = BTreeMap::new();
        let mut all = Tally::default();
        let mut times: Vec<f64> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let t = Instant::now();
            let answer = match engine.answer(&item.question) {
                Ok(a) => a,
                Err(e) => {
                    println!("{} ERROR {}: {e}", item.id, item.question);
                    continue;
                }
            };
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            let status = answer.grounding.as_ref().map(|g| g.status);
            let see: Vec<String> = answer
                .grounding
                .as_ref()
                .map(|g| g.see_also.iter().map(|s| fold(&s.title)).collect())
                .unwrap_or_default();
            let mut tally = Tally {
                n: 1,
                bad: !citation_problems(&answer, retriever.as_ref()).is_empty() as usize,
                ..Tally::default()
            };
            let mut verdict = String::new();
            if let Some(needs) = &item.needs {
                tally.na = 1;
                tally.flagged = matches!(
                    status,
                    Some(GroundingStatus::Partial | GroundingStatus::NotInLibrary)
                ) as usize;
                // The needed documents the registry holds, by id or by title.
                let known: Vec<String> = needs
                    .iter()
                    .zip(
                        item.needs_title
                            .iter()
                            .map(Some)
                            .chain(std::iter::repeat(None)),
                    )
                    .filter_map(|(id, title)| {
                        registry
                            .get(id)
                            .or_else(|| {
                                let t = fold(title?);
                                registry
                                    .entries()
                                    .iter()
                                    .find(|e| e.all_names().any(|n| fold(n) == t))
                            })
                            .map(|e| fold(&e.title_la))
                    })
                    .collect();
                if !known.is_empty() {
                    tally.need_known = 1;
                    tally.need_found = known.iter().any(|k| see.contains(k)) as usize;
                }
                if needs.is_empty() {
                    // A document that does not exist: not_in_library and nothing invented.
                    tally.need_known = 1;
                    tally.need_found =
                        (status == Some(GroundingStatus::NotInLibrary) && see.is_empty()) as usize;
                }
                verdict = format!(
                    "{:?} see_also={}",
                    status,
                    if tally.need_known == 1 {
                        if tally.need_found == 1 {
                            "HIT"
                        } else {
                            "miss"
                        }
                    } else {
                        "n/a"
                    }
                );
            }
            if let Some(on_topic) = item.on_topic {
                let refused = answer.backend == "refusal";
                // What the classifier alone would have done (before the library's evidence).
                let m = registry.mentions(&item.question);
                let names = !m.documents.is_empty() || m.council || !m.popes.is_empty();
                let alone = !names
                    && !ecclesia_qa::topic::classify_with(&item.question, topic_vote.as_deref())
                        .on_topic();
                tally.alone_wrong = (alone == on_topic) as usize;
                if on_topic {
                    tally.on = 1;
                    tally.on_answered = (!refused) as usize;
                } else {
                    tally.off = 1;
                    tally.off_refused = refused as usize;
                }
                verdict = format!(
                    "topic={} {}",
                    if on_topic { "on" } else { "off" },
                    if refused { "refused" } else { "answered" }
                );
            }
            if let Some(expect) = &item.expect {
                tally.nb = 1;
                let matches = |id: &str| expect.iter().any(|e| id.starts_with(e.as_str()));
                tally.cited = answer.citations.iter().any(|c| matches(&c.document_id)) as usize;
                tally.nil = (status == Some(GroundingStatus::NotInLibrary)) as usize;
                let opening = answer.text.split("\n\n").next().unwrap_or("");
                tally.first = ecclesia_qa::markers_in(opening)
                    .first()
                    .and_then(|&m| answer.citations.get(m.wrapping_sub(1)))
                    .is_some_and(|c| matches(&c.document_id))
                    as usize;
                verdict = format!(
                    "{:?} cited={} first={}",
                    status,
                    if tally.cited == 1 { "HIT" } else { "miss" },
                    tally.first
                );
            }
            println!(
                "{} [{}] {} | {} | {}",
                item.id,
                item.lang,
                verdict,
                item.question,
                first_sentences(&answer.text, 1)
                    .chars()
                    .take(160)
                    .collect::<String>()
            );
            if i < show {
                println!("    >> {}", first_sentences(&answer.text, 2));
            }
            for t in [&mut all, by_lang.entry(item.lang.clone()).or_default()] {
                t.n += tally.n;
                t.na += tally.na;
                t.nb += tally.nb;
                t.flagged += tally.flagged;
                t.need_known += tally.need_known;
                t.need_found += tally.need_found;
                t.cited += tally.cited;
                t.nil += tally.nil;
                t.first += tally.first;
                t.bad += tally.bad;
                t.on += tally.on;
                t.on_answered += tally.on_answered;
                t.off += tally.off;
                t.off_refused += tally.off_refused;
                t.alone_wrong += tally.alone_wrong;
            }
            records.push(serde_json::json!({
                "set": set.display().to_string(), "id": item.id, "lang": item.lang, "kind": item.kind,
                "question": item.question, "first_two": first_sentences(&answer.text, 2),
                "grounding": answer.grounding, "cited": answer.citations.iter().map(|c| c.document_id.clone()).collect::<Vec<_>>(),
            }));
        }
        times.sort_by(f64::total_cmp);
        let p50 = times.get(times.len() / 2).copied().unwrap_or(0.0);
        println!(
            "\n== {} ({} questions), p50 {p50:.0} ms",
            set.display(),
            all.n
        );
        let line = |name: &str, t: &Tally| {
            let mut l = format!("   {name:<5}");
            if t.na > 0 {
                l.push_str(&format!(
                    " [a] flagged {:<18} see_also {:<18}",
                    pct(t.flagged, t.na),
                    pct(t.need_found, t.need_known)
                ));
            }
            if t.nb > 0 {
                l.push_str(&format!(
                    " [b] cited {:<18} not_in_library {:<16} first {:<18}",
                    pct(t.cited, t.nb),
                    pct(t.nil, t.nb),
                    pct(t.first, t.nb)
                ));
            }
            if t.on + t.off > 0 {
                l.push_str(&format!(
                    " [topic] on-topic answered {:<18} off-topic refused {:<18} wrong {} (classifier alone {})",
                    pct(t.on_answered, t.on),
                    pct(t.off_refused, t.off),
                    (t.on - t.on_answered) + (t.off - t.off_refused),
                    t.alone_wrong
                ));
            }
            println!("{l} integrity problems {}", t.bad);
        };
        line("all", &all);
        for (l, t) in &by_lang {
            line(l, t);
        }
    }
    if let Some(p) = json_out {
        std::fs::write(
            &p,
            serde_json::to_string_pretty(&records).unwrap_or_default(),
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}
