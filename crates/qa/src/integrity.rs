//! Citation integrity, checkable against any [`Retriever`]: every `[n]` has a
//! citation, every citation is cited, indices match, and each `cited_text` is
//! a verbatim substring of the passage its `document_id`/`document_reference`
//! names. Used by the tests and by the development-set report.

use crate::answer::{markers_in, Answer};
use crate::passage::Retriever;

/// The integrity problems of `answer`; empty when it is sound.
pub fn citation_problems(answer: &Answer, retriever: &dyn Retriever) -> Vec<String> {
    let mut problems = Vec::new();
    let n = answer.citations.len();
    for m in markers_in(&answer.text) {
        if m == 0 || m > n {
            problems.push(format!("marker [{m}] has no citation ({n} citations)"));
        }
    }
    for (i, c) in answer.citations.iter().enumerate() {
        if c.document_index != i {
            problems.push(format!(
                "citation {i} has document_index {}",
                c.document_index
            ));
        }
        if !answer.text.contains(&format!("[{}]", i + 1)) {
            problems.push(format!("citation {} is never cited", i + 1));
        }
        if c.cited_text.trim().is_empty() {
            problems.push(format!("citation {} quotes nothing", i + 1));
            continue;
        }
        let found = match c.document_reference.as_deref() {
            Some(r) => retriever.by_reference(r, Some(&c.document_id)),
            None => Ok(Vec::new()),
        };
        match found {
            Ok(ps) if ps.iter().any(|p| p.text.contains(&c.cited_text)) => {}
            Ok(ps) => problems.push(format!(
                "citation {} ({} {:?}): cited_text is not in the passage ({} passages with that reference)",
                i + 1,
                c.document_id,
                c.document_reference,
                ps.len()
            )),
            Err(e) => problems.push(format!("citation {}: look-up failed: {e}", i + 1)),
        }
    }
    problems
}
