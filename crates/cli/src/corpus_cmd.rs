//! `ecclesia search "<query>"` and `ecclesia fetch <id>`: the corpus from the
//! command line, through the same request parsing and output shape as the
//! `document_search` and `document_fetch` skills.

use anyhow::{bail, Context as _};
use ecclesia_a2a::Part;
use ecclesia_core::SkillRequest;
use ecclesia_skills::corpus::{fetch_parts, open_store, results_json, search_request};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;

/// Arguments of `ecclesia search`.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// The query (quote it; "double quotes" inside make a phrase).
    pub query: String,
    /// Only this document type (encyclical, letter, scripture, catechism, patristic, theology, commentary, …).
    #[arg(long = "type")]
    pub doc_type: Option<String>,
    /// Only authors whose name contains these words (e.g. "augustine", "leo xiii").
    #[arg(long)]
    pub author: Option<String>,
    /// Only this language (en, la, it, fr, es, pt).
    #[arg(long)]
    pub language: Option<String>,
    /// Results (1–100).
    #[arg(long, default_value_t = 10)]
    pub limit: u32,
    /// Skip this many results (pagination).
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
    /// Only magisterial documents.
    #[arg(long)]
    pub magisterial: bool,
    /// Retrieval: hybrid (default), lexical or dense.
    #[arg(long)]
    pub mode: Option<String>,
    /// Print the `search_results` data as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `ecclesia fetch`.
#[derive(clap::Args, Debug, Clone)]
pub struct FetchArgs {
    /// Document id (from `ecclesia search`).
    pub id: String,
    /// Only this passage or section (`34`, `John 6:51`, `I, q. 2, a. 3`, `Q. 12`), or `part:N`.
    #[arg(long = "ref")]
    pub reference: Option<String>,
    /// Print the text and metadata as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Run `ecclesia search` against the corpus store of `env` (with the
/// transformer vectors cached so far, when there are any).
pub fn search(args: SearchArgs, env: &ecclesia_skills::SkillEnv) -> anyhow::Result<()> {
    let corpus = ecclesia_skills::corpus::shared_corpus(env)
        .context("the corpus store is not built: run `ecclesia ingest`")?;
    let mut data = json!({
        "query": args.query,
        "limit": args.limit,
        "offset": args.offset,
        "magisterial": args.magisterial,
    });
    for (k, v) in [
        ("type", &args.doc_type),
        ("author", &args.author),
        ("language", &args.language),
        ("mode", &args.mode),
    ] {
        if let Some(v) = v {
            data[k] = json!(v);
        }
    }
    let req = SkillRequest::from_parts(&[Part::data(data)]).map_err(|e| anyhow::anyhow!("{e}"))?;
    let sreq = search_request(&req).map_err(|e| anyhow::anyhow!("{e}"))?;
    let out = results_json(&corpus, &sreq).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut w = std::io::stdout().lock();
    if args.json {
        writeln!(w, "{}", serde_json::to_string_pretty(&out)?)?;
        return Ok(());
    }
    if let Some(n) = out["notice"].as_str() {
        writeln!(w, "note: {n}\n")?;
    }
    let results = out["results"].as_array().cloned().unwrap_or_default();
    if results.is_empty() {
        writeln!(w, "No documents found.")?;
    }
    for (i, r) in results.iter().enumerate() {
        let s = |k: &str| r[k].as_str().unwrap_or("").to_string();
        let year = r["year"]
            .as_i64()
            .map(|y| format!(", {y}"))
            .unwrap_or_default();
        let author = r["author"]
            .as_str()
            .map(|a| format!(" — {a}"))
            .unwrap_or_default();
        let mut flags = String::new();
        if r["metadata_only"].as_bool() == Some(true) {
            flags.push_str(" [catalogue only]");
        }
        if r["machine_translated"].as_bool() == Some(true) {
            flags.push_str(" [machine translation]");
        }
        writeln!(
            w,
            "{}. {}{author} ({}{year}){flags}",
            sreq.offset + i + 1,
            s("title"),
            s("type")
        )?;
        writeln!(
            w,
            "   id: {}   ref: {}   score: {}",
            s("id"),
            s("reference"),
            r["score"]
        )?;
        writeln!(w, "   {}", s("snippet"))?;
        if let Some(u) = r["url"].as_str() {
            writeln!(w, "   {u}")?;
        }
        writeln!(w)?;
    }
    if let Some(n) = out["next_offset"].as_u64() {
        writeln!(w, "More: --offset {n}")?;
    }
    Ok(())
}

/// Run `ecclesia fetch` against the corpus store in `store_dir`.
pub fn fetch(args: FetchArgs, store_dir: &Path) -> anyhow::Result<()> {
    let corpus = open_store(store_dir)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("the corpus store is not built: run `ecclesia ingest`")?;
    let got = fetch_parts(&corpus, args.id.trim(), args.reference.as_deref())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let Some((text, data)) = got else {
        bail!("Document not found.");
    };
    let mut w = std::io::stdout().lock();
    if args.json {
        let v: Value = json!({"text": text, "metadata": data});
        writeln!(w, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(());
    }
    let s = |k: &str| data[k].as_str().unwrap_or("").to_string();
    writeln!(w, "{}", s("title"))?;
    let mut line = vec![s("id")];
    for k in ["author", "date", "type", "language"] {
        if let Some(v) = data[k].as_str() {
            line.push(v.to_string());
        }
    }
    writeln!(w, "{}", line.join(" · "))?;
    if let Some(u) = data["source_url"].as_str() {
        writeln!(w, "{u}")?;
    }
    if let Some(r) = data["ref"].as_str() {
        writeln!(w, "ref: {r}")?;
    }
    writeln!(w, "\n{text}")?;
    if let (Some(p), Some(n)) = (data["part"].as_u64(), data["parts"].as_u64()) {
        write!(w, "\n[part {p} of {n}")?;
        if let Some(next) = data["next_ref"].as_str() {
            write!(w, "; next: --ref {next}")?;
        }
        writeln!(w, "]")?;
    }
    Ok(())
}
