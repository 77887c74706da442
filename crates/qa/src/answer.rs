//! The finished [`Answer`] in the contract's shape, its [`Citation`]s, and the
//! [`MarkerRewriter`] that makes the `[n]` markers of any backend trustworthy:
//! markers that point at no passage are removed, the rest are renumbered in
//! order of first use, so `[n]` is always `citations[n-1]` and no citation is
//! left uncited. It works on a stream, so streamed text is already clean.

use crate::grounding::Grounding;
use crate::passage::Passage;
use crate::text::{best_excerpt, content_terms, Excerpt};
use serde::{Deserialize, Serialize};

/// One source of an answer, exactly as `catholic_qa_response` carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Citation {
    /// The passage quoted: a verbatim substring of the stored passage.
    pub cited_text: String,
    /// The nearest heading above the passage.
    pub cited_text_heading: Option<String>,
    /// Document id, usable with `document_fetch`.
    pub document_id: String,
    /// Document title.
    pub document_title: String,
    /// Zero-based position in the citation list; the marker is `[document_index + 1]`.
    pub document_index: usize,
    /// Author of the document.
    pub document_author: Option<String>,
    /// Year of the document.
    pub document_year: Option<i32>,
    /// Paragraph, question or chapter:verse of the passage.
    pub document_reference: Option<String>,
    /// Link to the original.
    pub source_url: Option<String>,
}

/// A finished answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The answer text with `[n]` markers.
    pub text: String,
    /// The sources, `[n]` = `citations[n-1]`.
    pub citations: Vec<Citation>,
    /// Follow-up questions the material supports (may be empty).
    pub related_questions: Vec<String>,
    /// Which backend wrote the text (`extractive`, `openai:<model>`, `refusal`).
    pub backend: String,
    /// Whether the library holds what the question needs (`None` for a refusal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grounding: Option<Grounding>,
}

/// Rewrites `[n]` markers that refer to a 1-based passage list into markers
/// that refer to the citation list, on a stream of text deltas.
#[derive(Debug, Clone)]
pub struct MarkerRewriter {
    n_passages: usize,
    /// `map[p]` = citation number (1-based) of passage `p` (0-based), once used.
    map: Vec<Option<usize>>,
    /// Passage indices in citation order.
    order: Vec<usize>,
    pending: String,
    out: String,
}

/// Longest bracket content still considered a possible marker while streaming.
const MAX_MARKER: usize = 24;

impl MarkerRewriter {
    /// A rewriter for answers over `n_passages` passages.
    pub fn new(n_passages: usize) -> Self {
        MarkerRewriter {
            n_passages,
            map: vec![None; n_passages],
            order: Vec::new(),
            pending: String::new(),
            out: String::new(),
        }
    }

    /// Feed a delta; returns the text that is now final (may be empty while a
    /// `[` is still open).
    pub fn feed(&mut self, delta: &str) -> String {
        self.pending.push_str(delta);
        let mut emitted = String::new();
        loop {
            let Some(open) = self.pending.find('[') else {
                emitted.push_str(&self.pending);
                self.pending.clear();
                break;
            };
            emitted.push_str(&self.pending[..open]);
            let rest = &self.pending[open + 1..];
            match rest.find(']') {
                // "[an unclosed aside … [7]": the first `[` is text; the marker is the later one
                Some(close) if rest[..close].contains('[') => {
                    emitted.push('[');
                    self.pending.drain(..open + 1);
                }
                Some(close) => {
                    let inner = rest[..close].to_string();
                    let consumed = open + 1 + close + 1;
                    match parse_marker(&inner) {
                        Some(nums) => {
                            let src = if emitted.is_empty() {
                                &self.out
                            } else {
                                &emitted
                            };
                            let from = src.char_indices().rev().nth(7).map_or(0, |(i, _)| i);
                            let before: String = src[from..].to_string();
                            let r = self.rewrite(&nums, &before);
                            emitted.push_str(&r);
                        }
                        None => {
                            emitted.push('[');
                            emitted.push_str(&inner);
                            emitted.push(']');
                        }
                    }
                    self.pending.drain(..consumed);
                }
                None => {
                    let could_be = rest.len() <= MAX_MARKER
                        && rest
                            .chars()
                            .all(|c| c.is_ascii_digit() || " ,;-–".contains(c));
                    if could_be {
                        self.pending.drain(..open);
                    } else {
                        emitted.push('[');
                        self.pending.drain(..open + 1);
                        continue;
                    }
                    break;
                }
            }
        }
        self.out.push_str(&emitted);
        emitted
    }

    /// Flush what is pending (an unclosed `[` is kept as text).
    pub fn finish(&mut self) -> String {
        let rest = std::mem::take(&mut self.pending);
        self.out.push_str(&rest);
        rest
    }

    /// Everything emitted so far.
    pub fn text(&self) -> &str {
        &self.out
    }

    /// Passage indices (0-based) in citation order.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The markers for `nums`; a marker repeating the one just before (`[1][1]`) is dropped.
    fn rewrite(&mut self, nums: &[usize], before: &str) -> String {
        let mut s = String::new();
        let mut seen = Vec::new();
        for &n in nums {
            if n == 0 || n > self.n_passages {
                continue;
            }
            let p = n - 1;
            let c = match self.map[p] {
                Some(c) => c,
                None => {
                    self.order.push(p);
                    let c = self.order.len();
                    self.map[p] = Some(c);
                    c
                }
            };
            let m = format!("[{c}]");
            if !(seen.contains(&c) || s.is_empty() && before.ends_with(&m)) {
                seen.push(c);
                s.push_str(&m);
            }
        }
        s
    }
}

/// `"1"`, `"1, 2"`, `"1-3"`, `"2; 4"` → the numbers; anything else → `None`.
fn parse_marker(inner: &str) -> Option<Vec<usize>> {
    let inner = inner.trim();
    if inner.is_empty()
        || !inner
            .chars()
            .all(|c| c.is_ascii_digit() || " ,;-–".contains(c))
    {
        return None;
    }
    let mut nums = Vec::new();
    for piece in inner.split([',', ';']) {
        let piece = piece.trim();
        if piece.is_empty() {
            continue;
        }
        if let Some((a, b)) = piece.split_once(['-', '–']) {
            let a: usize = a.trim().parse().ok()?;
            let b: usize = b.trim().parse().ok()?;
            if b < a || b - a > 20 {
                return None;
            }
            nums.extend(a..=b);
        } else {
            nums.push(piece.parse().ok()?);
        }
    }
    (!nums.is_empty()).then_some(nums)
}

/// Turn marker-like brackets inside quoted source text (`[19]`, `[2, 3]`)
/// into parentheses, so a footnote number of the source is never read as one
/// of the answer's markers.
pub fn defuse_markers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find(']') {
            Some(close) if parse_marker(&after[..close]).is_some() => {
                out.push('(');
                out.push_str(&after[..close]);
                out.push(')');
                rest = &after[close + 1..];
            }
            _ => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Remove a trailing "Sources:"/"References:" section a model may add: only
/// the validated citations are sources.
pub fn strip_model_sources(text: &str) -> String {
    let mut cut = text.len();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let l = line
            .trim()
            .trim_start_matches(['#', '*', ' '])
            .trim_end_matches(['*', ' '])
            .to_lowercase();
        if offset > 0
            && [
                "sources:",
                "sources",
                "references:",
                "references",
                "citations:",
                "citations",
                "bibliography",
                "works cited",
            ]
            .contains(&l.as_str())
        {
            cut = offset;
            break;
        }
        offset += line.len();
    }
    text[..cut].trim_end().to_string()
}

/// Tidy spacing left by removed markers (`"word ."` → `"word."`, double spaces).
pub fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split('\n') {
        let mut l = line.to_string();
        while l.contains("  ") && !l.trim_start().is_empty() {
            let lead = l.len() - l.trim_start().len();
            let body = l[lead..].replace("  ", " ");
            if body.len() == l.len() - lead {
                break;
            }
            l = format!("{}{}", &l[..lead], body);
        }
        for p in [" .", " ,", " ;", " :", " ?", " !"] {
            l = l.replace(p, &p[1..]);
        }
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out.trim_end().to_string()
}

/// Build the citation list from the passages in citation `order`, quoting
/// `excerpts[p]` when the backend chose one, else the excerpt of the passage
/// that best matches the sentences citing it.
pub fn citations(
    passages: &[Passage],
    order: &[usize],
    excerpts: &[Option<Excerpt>],
    answer_text: &str,
    question: &str,
    max_chars: usize,
) -> Vec<Citation> {
    order
        .iter()
        .enumerate()
        .filter_map(|(i, &p)| {
            let passage = passages.get(p)?;
            let quoted = match excerpts.get(p).cloned().flatten() {
                Some(e) if passage.text.get(e.start..e.end) == Some(e.text.as_str()) => e.text,
                _ => {
                    let marker = format!("[{}]", i + 1);
                    let context: String = answer_text
                        .split(['\n', '.', '?', '!'])
                        .filter(|s| s.contains(&marker))
                        .collect::<Vec<_>>()
                        .join(" ");
                    let mut terms = content_terms(&context);
                    terms.extend(content_terms(question));
                    best_excerpt(&passage.text, &terms, max_chars).text
                }
            };
            Some(Citation {
                cited_text: quoted,
                cited_text_heading: passage.heading.clone(),
                document_id: passage.doc_id.clone(),
                document_title: passage.doc_title.clone(),
                document_index: i,
                document_author: passage.author.clone(),
                document_year: passage.year,
                document_reference: passage.reference.clone(),
                source_url: passage.source_url.clone(),
            })
        })
        .collect()
}

/// The numbers of the `[n]` markers in `text`, in order.
pub fn markers_in(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        rest = &rest[open + 1..];
        if let Some(close) = rest.find(']') {
            if let Ok(n) = rest[..close].parse::<usize>() {
                out.push(n);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unclosed_bracket_in_a_quotation_leaves_the_marker_alone() {
        let (text, order) = run(
            3,
            &["“passed through her [this was a heresy, see p.” [3] and [1]."],
        );
        assert_eq!(
            text,
            "“passed through her [this was a heresy, see p.” [1] and [2]."
        );
        assert_eq!(order, vec![2, 0]);
        let (text, _) = run(3, &["“an aside [this", " was…” [", "2]"]);
        assert_eq!(text, "“an aside [this was…” [1]");
    }

    fn run(n: usize, deltas: &[&str]) -> (String, Vec<usize>) {
        let mut r = MarkerRewriter::new(n);
        let mut s = String::new();
        for d in deltas {
            s.push_str(&r.feed(d));
        }
        s.push_str(&r.finish());
        assert_eq!(s, r.text());
        (s, r.order().to_vec())
    }

    #[test]
    fn renumbers_in_order_of_use_and_drops_bad_markers() {
        let (s, order) = run(
            3,
            &["Bread [3] and", " wine [", "1, 2]. Bad [9]. [sic] [2]"],
        );
        assert_eq!(s, "Bread [1] and wine [2][3]. Bad . [sic] [3]");
        assert_eq!(order, vec![2, 0, 1]);
        let (s, _) = run(4, &["range [2-3] x[1][1]"]);
        assert_eq!(s, "range [1][2] x[3]");
        let (s, _) = run(1, &["open [1 and never closed"]);
        assert_eq!(s, "open [1 and never closed");
        let (s, _) = run(2, &["quote \u{201c}by\u{201d} [1][2]", " “x” [2]"]);
        assert_eq!(s, "quote \u{201c}by\u{201d} [1][2] “x” [2]");
        let (s, _) = run(1, &["open [1 and never closed"]);
        assert_eq!(s, "open [1 and never closed");
    }

    #[test]
    fn source_footnotes_are_defused() {
        assert_eq!(
            defuse_markers("text [19] and [of Christ] [2, 3]"),
            "text (19) and [of Christ] (2, 3)"
        );
    }

    #[test]
    fn strips_model_sources() {
        let t = "Answer [1].\n\nSources:\n[1] Made up, 2020";
        assert_eq!(strip_model_sources(t), "Answer [1].");
        assert_eq!(tidy("a  b . c"), "a b. c");
    }
}
