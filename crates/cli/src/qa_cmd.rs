//! `ecclesia ask "<question>"`: ask `catholic_qa` from the command line. The
//! answer streams to the terminal as it is written, then its sources and
//! related questions are listed; `--json` prints the artifact instead.

use anyhow::Context as _;
use ecclesia_a2a::{Artifact, Part};
use ecclesia_core::{Skill, SkillContext, SkillRequest};
use serde_json::Value;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `ecclesia ask`.
#[derive(clap::Args, Debug, Clone)]
pub struct AskArgs {
    /// The question, in natural language (quote it).
    pub question: String,
    /// Print the `catholic_qa_response` artifact as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Ask `skill` (the registry's `catholic_qa`) and print the answer.
pub fn run(args: AskArgs, skill: &dyn Skill) -> anyhow::Result<()> {
    let req = SkillRequest::from_parts(&[Part::text(args.question)])
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut ctx = SkillContext::new(Duration::from_secs(600), Arc::new(AtomicBool::new(false)));
    if !args.json {
        // Stream the answer text as it is written.
        ctx = ctx.with_sink(|chunk| {
            let mut out = std::io::stdout().lock();
            for p in &chunk.artifact.parts {
                if let Part::Text { text, .. } = p {
                    let _ = out.write_all(text.as_bytes());
                }
            }
            let _ = out.flush();
        });
    }
    let artifacts = skill
        .run(&req, &ctx)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("catholic_qa failed")?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let v = serde_json::to_string_pretty(&artifacts)?;
        writeln!(out, "{v}")?;
        return Ok(());
    }
    for a in &artifacts {
        print_sources(&mut out, a)?;
    }
    Ok(())
}

/// The citations and related questions of an artifact, for people.
fn print_sources(out: &mut impl Write, a: &Artifact) -> anyhow::Result<()> {
    writeln!(out)?;
    for p in &a.parts {
        let Part::Data { data, .. } = p else { continue };
        if let Some(Value::Array(cites)) = data.get("citations") {
            writeln!(out, "\nSources:")?;
            for c in cites {
                let s = |k: &str| {
                    c.get(k)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .trim()
                        .to_string()
                };
                let n = c.get("document_index").and_then(Value::as_u64).unwrap_or(0) + 1;
                let mut line = format!("[{n}] ");
                let author = s("document_author");
                if !author.is_empty() {
                    line.push_str(&format!("{author}, "));
                }
                line.push_str(&s("document_title"));
                if let Some(y) = c.get("document_year").and_then(Value::as_i64) {
                    line.push_str(&format!(" ({y})"));
                }
                let r = s("document_reference");
                if !r.is_empty() {
                    line.push_str(&format!(", {r}"));
                }
                writeln!(out, "{line}")?;
                writeln!(out, "    id: {}", s("document_id"))?;
                let url = s("source_url");
                if !url.is_empty() {
                    writeln!(out, "    {url}")?;
                }
            }
        }
        if let Some(Value::Array(qs)) = data.get("related_questions") {
            writeln!(out, "\nRelated questions:")?;
            for q in qs.iter().filter_map(Value::as_str) {
                writeln!(out, "  - {q}")?;
            }
        }
    }
    Ok(())
}
