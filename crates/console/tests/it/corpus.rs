//! The corpus pages over a real, full store when one is named by
//! `ECCLESIA_CONSOLE_STORE` (a store root built by `ecclesia ingest`; the
//! corpus ingest takes minutes, so the default run skips this).

use crate::support::{data_dir, get, today, Server};
use std::sync::OnceLock;

fn server() -> Option<&'static Server> {
    static S: OnceLock<Option<Server>> = OnceLock::new();
    S.get_or_init(|| {
        let root = std::env::var("ECCLESIA_CONSOLE_STORE").ok()?;
        let gen = ecclesia_core::StoreLayout::new(std::path::Path::new(&root)).current()?;
        let mut settings = serde_json::Map::new();
        settings.insert("corpus".into(), serde_json::json!({"embeddings": "off"}));
        let env = ecclesia_skills::SkillEnv {
            data_dir: data_dir(),
            generation: Some(gen),
            today: Some(today()),
            timezone: "UTC".into(),
            settings,
            ..Default::default()
        };
        Some(crate::support::spawn(
            ecclesia_skills::build_registry(&env),
            false,
        ))
    })
    .as_ref()
}

fn href_after(body: &str, marker: &str) -> Option<String> {
    let at = body.find(marker)?;
    let rest = &body[at + marker.len()..];
    let end = rest.find('"')?;
    Some(rest[..end].replace("&amp;", "&"))
}

#[test]
fn real_answer_citation_and_search_open_the_passage() {
    let Some(s) = server() else {
        eprintln!("skipped: set ECCLESIA_CONSOLE_STORE to a full store to check the corpus pages");
        return;
    };
    let r = get(s, "/ask?q=What%20is%20the%20Eucharist%3F");
    assert_eq!(r.status, 200, "{}", r.body);
    let href = href_after(&r.body, "<a class=\"marker\" href=\"").expect("a citation marker");
    let href = href.split('#').next().unwrap_or("").to_string();
    let doc = get(s, &href);
    assert_eq!(doc.status, 200, "{href}");
    assert!(
        doc.body.contains("<mark id=\"cited\""),
        "the cited text is highlighted in {href}"
    );
    assert!(r.body.contains("<ul class=\"related\">"));

    let r = get(s, "/search?q=Eucharist&type=catechism");
    assert_eq!(r.status, 200);
    let href = href_after(&r.body, "<a class=\"result\" href=\"").expect("a result");
    let href = href.split('#').next().unwrap_or("").to_string();
    let doc = get(s, &href);
    assert_eq!(doc.status, 200);
    assert!(doc.body.contains("<article class=\"document\">"));
    assert!(
        doc.body.contains("<mark"),
        "the snippet is highlighted in {href}"
    );
}
