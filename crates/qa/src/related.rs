//! Related questions drawn from the retrieved material: questions the
//! catechism itself asks next to the passage used, the documents and verses
//! cited, and the kinds of source that had something to say.

use crate::passage::{Passage, SourceKind};
use crate::retrieve::topic_phrase;
use crate::text::{content_terms, sentence_spans, squash};

/// 3–5 follow-up questions for `question`, answered by `passages` (best first);
/// fewer when the material suggests fewer.
pub fn related_questions(question: &str, passages: &[Passage], max: usize) -> Vec<String> {
    let asked = content_terms(question);
    let topic = topic_phrase(question);
    let topic_ok = topic.chars().count() <= 60
        && !topic.contains('?')
        && topic != squash(question).trim_end_matches(['?', '.']);
    let mut out: Vec<String> = Vec::new();
    let add = |q: String, out: &mut Vec<String>| {
        let q = squash(&q);
        let same = content_terms(&q) == asked;
        if !same && q.chars().count() <= 160 && !out.iter().any(|o| o.eq_ignore_ascii_case(&q)) {
            out.push(q);
        }
    };

    // 1. Questions the catechism asks in the passages used (Q&A catechisms).
    for p in passages
        .iter()
        .filter(|p| p.kind() == SourceKind::Catechism)
    {
        for (s, e) in sentence_spans(&p.text) {
            let sent = p.text[s..e].trim();
            let sent =
                sent.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ' ');
            let sent = sent.strip_prefix("Q.").unwrap_or(sent).trim();
            let sent =
                sent.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ' ');
            if sent.ends_with('?') && sent.chars().count() >= 15 && sent.chars().count() <= 140 {
                add(sent.to_string(), &mut out);
                break;
            }
        }
    }

    // 2. The documents and verses cited.
    for p in passages {
        if out.len() >= max + 2 {
            break;
        }
        match p.kind() {
            SourceKind::Scripture => {
                if let Some(r) = &p.reference {
                    add(
                        format!("How did the Church Fathers interpret {r}?"),
                        &mut out,
                    );
                }
            }
            SourceKind::Magisterium => {
                let who = p
                    .author
                    .as_deref()
                    .map(|a| format!(" of {a}"))
                    .unwrap_or_default();
                let what = if p.doc_type.to_lowercase().contains("encyclical") {
                    "the encyclical "
                } else {
                    ""
                };
                add(
                    format!(
                        "What is the main teaching of {what}{}{who}?",
                        p.doc_title.trim()
                    ),
                    &mut out,
                );
                if let Some(h) = p
                    .heading
                    .as_deref()
                    .filter(|h| h.chars().count() <= 60 && !h.trim().is_empty())
                {
                    add(
                        format!(
                            "What does {} say about {}?",
                            p.doc_title.trim(),
                            squash(h).to_lowercase()
                        ),
                        &mut out,
                    );
                }
            }
            SourceKind::Fathers => {
                if let Some(a) = p.author.as_deref().filter(|a| !a.trim().is_empty()) {
                    if topic_ok {
                        add(
                            format!("What else did {} write about {topic}?", a.trim()),
                            &mut out,
                        );
                    } else {
                        add(
                            format!("Who was {} and what did he teach?", a.trim()),
                            &mut out,
                        );
                    }
                }
            }
            _ => {}
        }
    }

    // 3. The same subject in the kinds of source not yet used.
    if topic_ok {
        let kinds: Vec<SourceKind> = passages.iter().map(|p| p.kind()).collect();
        if !kinds.contains(&SourceKind::Scripture) {
            add(format!("What does Scripture say about {topic}?"), &mut out);
        }
        if !kinds.contains(&SourceKind::Fathers) && crate::refs::verse_refs(&topic).is_empty() {
            add(
                format!("What did the Church Fathers teach about {topic}?"),
                &mut out,
            );
        }
        if !kinds.contains(&SourceKind::Magisterium) {
            add(
                format!("What have the popes taught about {topic}?"),
                &mut out,
            );
        }
    }
    // Interleave kinds: keep the first `max`.
    out.truncate(max);
    out
}
