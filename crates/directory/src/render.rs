//! Profiles as readable text (for `ecclesia lookup`).

use crate::index::Kind;
use serde_json::Value;

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(if *b { "yes".into() } else { "no".into() }),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(a) if a.is_empty() => None,
        Value::Array(a) => Some(
            a.iter()
                .map(|x| scalar(x).unwrap_or_else(|| x.to_string()))
                .collect::<Vec<_>>()
                .join("; "),
        ),
        Value::Object(o) => {
            let parts: Vec<String> = o
                .iter()
                .filter_map(|(k, v)| scalar(v).map(|s| format!("{k}: {s}")))
                .collect();
            (!parts.is_empty()).then(|| parts.join(", "))
        }
    }
}

fn label(k: &str) -> String {
    let s = k.replace('_', " ");
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// A profile, a statistics series or a not-found answer as text.
pub fn render_text(kind: Option<Kind>, v: &Value) -> String {
    let mut out = String::new();
    if v["error"] == "not_found" {
        out.push_str(&format!(
            "Not found: {}\n",
            v["query"].as_str().unwrap_or("")
        ));
        if let Some(h) = v["hint"].as_str() {
            out.push_str(&format!("Hint: {h}\n"));
        }
        return out;
    }
    let title = v["primary_name"]
        .as_str()
        .or_else(|| v["diocese_name"].as_str())
        .unwrap_or("(unnamed)");
    out.push_str(title);
    out.push('\n');
    out.push_str(&"=".repeat(title.chars().count()));
    out.push('\n');
    let Some(obj) = v.as_object() else {
        return out;
    };
    for (k, val) in obj {
        if matches!(
            k.as_str(),
            "primary_name"
                | "alternates"
                | "rows"
                | "sources"
                | "biography"
                | "notes"
                | "feast_days"
        ) {
            continue;
        }
        if let Some(s) = scalar(val) {
            out.push_str(&format!("{}: {s}\n", label(k)));
        }
    }
    if let Some(f) = v["feast_days"].as_array().filter(|a| !a.is_empty()) {
        out.push_str("Feast days:\n");
        for d in f {
            out.push_str(&format!(
                "  {:02}-{:02} {} ({})\n",
                d["month"].as_u64().unwrap_or(0),
                d["day"].as_u64().unwrap_or(0),
                d["rank"].as_str().unwrap_or(""),
                d["calendar"].as_str().unwrap_or("")
            ));
        }
    }
    if let Some(rows) = v["rows"].as_array() {
        out.push_str(&format!("{} year(s) of statistics\n", rows.len()));
        for r in rows {
            out.push_str(&format!("  {}\n", scalar(r).unwrap_or_default()));
        }
    }
    for k in ["biography", "notes"] {
        if let Some(t) = v[k]["text"].as_str().or_else(|| v[k].as_str()) {
            out.push_str(&format!("\n{}\n", t));
        }
    }
    if let Some(a) = v["alternates"].as_array().filter(|a| !a.is_empty()) {
        out.push_str("\nOther matches:\n");
        for x in a {
            out.push_str(&format!(
                "  {} [{}] {}\n",
                x["name"].as_str().unwrap_or(""),
                x["id"].as_str().unwrap_or(""),
                x["distinguishing"].as_str().unwrap_or("")
            ));
        }
    }
    if let Some(s) = v["sources"].as_array().filter(|a| !a.is_empty()) {
        let list: Vec<String> = s
            .iter()
            .map(|x| {
                format!(
                    "{} ({})",
                    x["dataset"].as_str().unwrap_or(""),
                    x["licence"].as_str().unwrap_or("")
                )
            })
            .collect();
        out.push_str(&format!("\nSources: {}\n", list.join(", ")));
    }
    let _ = kind;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn renders_profile_and_not_found() {
        let p = json!({"primary_name": "Pope Francis", "ordinal": 266, "image_url": null,
            "pontificate": {"start": "2013-03-13", "end": null},
            "alternates": [{"id": "francis-x", "name": "X", "distinguishing": "d"}],
            "sources": [{"dataset": "a", "licence": "MIT"}]});
        let t = render_text(Some(Kind::Pope), &p);
        assert!(t.starts_with("Pope Francis\n"));
        assert!(t.contains("Ordinal: 266"));
        assert!(t.contains("Pontificate: start: 2013-03-13"));
        assert!(!t.contains("Image url"));
        assert!(t.contains("Other matches:"));
        let nf = json!({"error": "not_found", "query": "zz", "hint": "h"});
        assert_eq!(render_text(None, &nf), "Not found: zz\nHint: h\n");
    }
}
