//! `ecclesia call`: a small A2A client for a running server.

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

/// Send `message/send` to a running Ecclesia (or any A2A 0.3) server.
#[derive(clap::Args)]
pub struct CallArgs {
    /// The skill id (default: the server's default skill, catholic_qa).
    #[arg(long, short)]
    pub(crate) skill: Option<String>,
    /// JSON object sent as a data part, e.g. '{"query": "Jerome"}'.
    #[arg(long)]
    pub(crate) data: Option<String>,
    /// Base URL of the server.
    #[arg(long, env = "ECCLESIA_URL", default_value = "http://127.0.0.1:8080")]
    url: String,
    /// API key.
    #[arg(long, env = "ECCLESIA_API_KEY")]
    key: Option<String>,
    /// Print the raw JSON-RPC response.
    #[arg(long)]
    json: bool,
    /// Seconds to wait for the answer.
    #[arg(long, default_value_t = 300)]
    timeout: u64,
    /// Text sent as a text part.
    pub(crate) text: Vec<String>,
}

pub fn run(args: CallArgs) -> Result<()> {
    let mut parts = Vec::new();
    let text = args.text.join(" ");
    if !text.trim().is_empty() {
        parts.push(json!({"kind": "text", "text": text}));
    }
    if let Some(d) = &args.data {
        let v: Value = serde_json::from_str(d).context("--data must be a JSON object")?;
        if !v.is_object() {
            bail!("--data must be a JSON object, e.g. '{{\"query\": \"Jerome\"}}'");
        }
        parts.push(json!({"kind": "data", "data": v}));
    }
    if parts.is_empty() {
        bail!("nothing to send: give text and/or --data");
    }
    let mut message = json!({
        "kind": "message", "role": "user",
        "messageId": uuid::Uuid::new_v4().to_string(), "parts": parts,
    });
    if let Some(s) = &args.skill {
        message["metadata"] = json!({"skillId": s});
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": message}});
    let url = format!("{}/api/v1/a2a", args.url.trim_end_matches('/'));
    let agent = ureq::AgentBuilder::new()
        .timeout(std::time::Duration::from_secs(args.timeout))
        .build();
    let mut req = agent.post(&url);
    if let Some(k) = &args.key {
        req = req.set("Authorization", &format!("Bearer {k}"));
    }
    let resp: Value = match req.send_json(body) {
        Ok(r) => r.into_json()?,
        Err(ureq::Error::Status(code, r)) => {
            let text = r.into_string().unwrap_or_default();
            bail!("the server answered HTTP {code}: {text}");
        }
        Err(e) => return Err(e).with_context(|| format!("calling {url}")),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&resp)?);
        return Ok(());
    }
    if let Some(err) = resp.get("error") {
        bail!(
            "JSON-RPC error {}: {}",
            err["code"],
            err["message"].as_str().unwrap_or("")
        );
    }
    print_task(&resp["result"]);
    Ok(())
}

fn print_task(task: &Value) {
    println!(
        "task {}  state: {}",
        task["id"].as_str().unwrap_or("?"),
        task["status"]["state"].as_str().unwrap_or("?")
    );
    if let Some(parts) = task["status"]["message"]["parts"].as_array() {
        for p in parts {
            if let Some(t) = p["text"].as_str() {
                println!("{t}");
            }
        }
    }
    for a in task["artifacts"].as_array().into_iter().flatten() {
        println!("\n== {} ==", a["name"].as_str().unwrap_or("artifact"));
        for p in a["parts"].as_array().into_iter().flatten() {
            match p["kind"].as_str() {
                Some("text") => println!("{}", p["text"].as_str().unwrap_or("")),
                Some("data") => println!(
                    "{}",
                    serde_json::to_string_pretty(&p["data"]).unwrap_or_default()
                ),
                _ => println!("{p}"),
            }
        }
    }
}
