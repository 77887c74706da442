//! The skills explorer for developers: the agent card, each skill with an
//! example JSON-RPC request that the page can send (with the script) and
//! whose raw response it shows, and the equivalent `curl` command.

use crate::html::esc;
use crate::layout::{Ctx, Page};
use crate::ConsoleState;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use ecclesia_a2a::Part;
use serde_json::{json, Value};
use std::fmt::Write;

/// The host the curl commands name: the request's `Host` when it is a plain
/// host[:port], else the default listener.
pub fn host_of(headers: &HeaderMap) -> String {
    headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".:-[]".contains(c))
        })
        .unwrap_or("127.0.0.1:8080")
        .to_string()
}

/// The example request of a skill: its first card example, as a data part
/// when it is a JSON object, else as text.
pub fn example_request(skill_id: &str, example: &str) -> Value {
    let part = match serde_json::from_str::<Value>(example) {
        Ok(Value::Object(o)) => Part::data(Value::Object(o)),
        _ => Part::text(example),
    };
    json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "message/send",
        "params": {
            "message": {
                "role": "user",
                "messageId": format!("console-{skill_id}"),
                "kind": "message",
                "parts": [part],
                "metadata": {"skillId": skill_id}
            }
        }
    })
}

/// A shell-quoted string (single quotes, `'` written `'\''`).
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `GET /explorer`.
pub async fn handler(State(state): State<ConsoleState>, ctx: Ctx, headers: HeaderMap) -> Response {
    let origin = match &state.opts.public_url {
        Some(u) => u.trim_end_matches('/').to_string(),
        None => format!("http://{}", host_of(&headers)),
    };
    let a2a = &state.opts.a2a_path;
    let title = ctx.t("explorer.title");
    let mut body = format!("<h1>{title}</h1>");
    let _ = write!(
        body,
        "<form class=\"panel\" id=\"key-form\"><div class=\"field wide\"><label for=\"f-key\">{}</label><input id=\"f-key\" name=\"key\" type=\"password\" autocomplete=\"off\" maxlength=\"512\"></div></form><p class=\"help\">{}</p>",
        ctx.t("explorer.key"),
        ctx.t("explorer.nojs")
    );
    let _ = write!(
        body,
        "<section aria-labelledby=\"card-h\"><h2 id=\"card-h\">{}</h2><p><a href=\"{}\" id=\"card-link\">{}</a></p><pre id=\"agent-card\" data-src=\"{}\" tabindex=\"0\" aria-live=\"polite\"></pre></section>",
        ctx.t("explorer.card"),
        esc(&state.opts.card_path),
        esc(&state.opts.card_path),
        esc(&state.opts.card_path)
    );
    let registry = state.registry();
    body.push_str("<h2>Skills</h2>");
    for skill in registry.iter() {
        let card = skill.card();
        let example = card
            .examples
            .first()
            .cloned()
            .unwrap_or_else(|| "hello".into());
        let req = example_request(&card.id, &example);
        let pretty = serde_json::to_string_pretty(&req).unwrap_or_default();
        let compact = req.to_string();
        let curl = format!(
            "curl -sS {origin}{a2a} \\\n  -H 'Content-Type: application/json' \\\n  -H \"Authorization: Bearer $ECCLESIA_API_KEY\" \\\n  -d {}",
            shell_quote(&compact)
        );
        let id = esc(&card.id);
        let _ = write!(
            body,
            "<details class=\"skill\" id=\"skill-{id}\"><summary><code>{id}</code> — {}</summary><p>{}</p>{}<form class=\"explorer-form\" data-a2a=\"{}\"><label for=\"req-{id}\">{}</label><textarea id=\"req-{id}\" name=\"request\" rows=\"12\" spellcheck=\"false\">{}</textarea><button type=\"submit\" disabled>{}</button></form><h3>{}</h3><pre class=\"response\" id=\"resp-{id}\" aria-live=\"polite\" tabindex=\"0\"></pre><h3>{}</h3><pre class=\"curl\">{}</pre></details>",
            esc(&card.name),
            esc(&card.description),
            if card.examples.is_empty() { String::new() } else { format!("<p class=\"meta\">Examples: {}</p>", esc(&card.examples.join(" · "))) },
            esc(a2a),
            ctx.t("explorer.request"),
            esc(&pretty),
            ctx.t("explorer.send"),
            ctx.t("explorer.response"),
            ctx.t("explorer.curl"),
            esc(&curl)
        );
    }
    if registry.is_empty() {
        let _ = write!(body, "<p class=\"error\">{}</p>", ctx.t("unavailable"));
    }
    Page::for_ctx(&ctx, title, "explorer", body)
        .body_attrs("data-page=\"explorer\"".into())
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_and_quoting() {
        let r = example_request("document_fetch", "{\"id\": \"x\"}");
        assert_eq!(r["params"]["message"]["parts"][0]["kind"], "data");
        let r = example_request("pope_lookup", "John Paul II");
        assert_eq!(r["params"]["message"]["parts"][0]["text"], "John Paul II");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        let mut h = HeaderMap::new();
        h.insert("host", "evil\"<x>".parse().unwrap());
        assert_eq!(host_of(&h), "127.0.0.1:8080");
    }
}
