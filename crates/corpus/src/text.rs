//! Plain-text helpers: slugs for stable ids, whitespace clean-up, chunking
//! long text into passages, and folding for case- and accent-blind matching.

/// Lower case, accents removed (`"Thérèse"` → `"therese"`): [`ecclesia_fold::strip_marks`].
pub fn fold(s: &str) -> String {
    ecclesia_fold::strip_marks(s)
}

/// A stable, readable id fragment: folded, ASCII letters and digits, single dashes.
pub fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut dash = false;
    for c in fold(s).chars() {
        if c.is_ascii_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c);
        } else {
            dash = true;
        }
    }
    out
}

/// Collapse runs of whitespace to one space and trim.
pub fn squash(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// Split plain text into paragraphs at blank lines (lines inside a paragraph are joined).
pub fn paragraphs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(t);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out.into_iter()
        .map(|p| squash(&p))
        .filter(|p| !p.is_empty())
        .collect()
}

/// True when a paragraph looks like a heading: short, no closing punctuation,
/// not starting in lower case.
pub fn looks_like_heading(p: &str) -> bool {
    let n = p.chars().count();
    if n == 0 || n > 90 {
        return false;
    }
    let last = p.chars().last().unwrap_or('.');
    if matches!(
        last,
        '.' | ',' | ';' | ':' | '?' | '!' | '"' | '”' | '’' | '\''
    ) {
        return false;
    }
    let first = p.chars().next().unwrap_or('a');
    !first.is_lowercase() && p.split_whitespace().count() <= 12
}

/// Target passage size (characters) when chunking running text.
pub const PASSAGE_TARGET: usize = 900;
/// Largest passage (characters) before a paragraph is split at sentence ends.
pub const PASSAGE_MAX: usize = 1800;

/// A chunk of running text with the heading it stands under.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    /// The heading in force.
    pub heading: Option<String>,
    /// The text.
    pub text: String,
}

/// Chunk paragraphs into passages of about [`PASSAGE_TARGET`] characters:
/// short paragraphs are merged, long ones split at sentence ends; headings
/// (see [`looks_like_heading`]) start a new passage and are carried along.
pub fn chunk_paragraphs(paras: &[String]) -> Vec<Chunk> {
    let mut out: Vec<Chunk> = Vec::new();
    let mut heading: Option<String> = None;
    let mut cur = String::new();
    let flush = |cur: &mut String, heading: &Option<String>, out: &mut Vec<Chunk>| {
        if !cur.trim().is_empty() {
            out.push(Chunk {
                heading: heading.clone(),
                text: std::mem::take(cur),
            });
        }
        cur.clear();
    };
    for p in paras {
        if looks_like_heading(p) {
            flush(&mut cur, &heading, &mut out);
            heading = Some(p.clone());
            continue;
        }
        for piece in split_long(p, PASSAGE_MAX) {
            if !cur.is_empty() && cur.len() + piece.len() > PASSAGE_MAX {
                flush(&mut cur, &heading, &mut out);
            }
            if !cur.is_empty() {
                cur.push_str("\n\n");
            }
            cur.push_str(&piece);
            if cur.len() >= PASSAGE_TARGET {
                flush(&mut cur, &heading, &mut out);
            }
        }
    }
    flush(&mut cur, &heading, &mut out);
    if out.is_empty() && !paras.is_empty() {
        // Only heading-like lines (a short note, a list of titles): keep them as text.
        return vec![Chunk {
            heading: None,
            text: paras.join("\n\n"),
        }];
    }
    out
}

/// Split a paragraph longer than `max` bytes at sentence ends (or spaces).
pub fn split_long(p: &str, max: usize) -> Vec<String> {
    if p.len() <= max {
        return vec![p.to_string()];
    }
    let mut out = Vec::new();
    let mut rest = p;
    while rest.len() > max {
        let window = floor_char(rest, max);
        let head = &rest[..window];
        let cut = head
            .rfind(". ")
            .or_else(|| head.rfind("? "))
            .or_else(|| head.rfind("; "))
            .filter(|&i| i > max / 3)
            .map(|i| i + 1)
            .or_else(|| head.rfind(' ').filter(|&i| i > max / 3))
            .unwrap_or(window);
        let (a, b) = rest.split_at(cut);
        out.push(a.trim().to_string());
        rest = b.trim_start();
    }
    if !rest.trim().is_empty() {
        out.push(rest.trim().to_string());
    }
    out
}

/// The largest char boundary ≤ `i`.
pub fn floor_char(s: &str, i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    let mut i = i;
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Words of a query, folded, for snippet highlighting (short stopwords dropped).
pub fn query_terms(q: &str) -> Vec<String> {
    const STOP: &[&str] = &[
        "the", "and", "of", "to", "in", "a", "is", "on", "for", "what", "does", "do", "how", "why",
        "who", "which", "that", "by", "with", "an", "are", "be", "it", "as", "at", "or", "about",
        "church", "teach", "says", "say",
    ];
    let mut terms: Vec<String> = fold(q)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2 && !STOP.contains(w))
        .map(str::to_string)
        .collect();
    terms.sort();
    terms.dedup();
    terms
}

/// A snippet of at most about `max` characters around the densest cluster of
/// query terms, with each matched word marked `**like this**`.
pub fn snippet(text: &str, terms: &[String], max: usize) -> String {
    // Word spans with a match flag (prefix match so "sacrament" marks "sacraments").
    let mut words: Vec<(usize, usize, bool)> = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        if c.is_alphanumeric() {
            if start.is_none() {
                start = Some(i);
            }
        } else if let Some(s) = start.take() {
            let w = fold(&text[s..i]);
            let hit = terms.iter().any(|t| {
                w == *t
                    || (t.len() >= 4 && w.starts_with(t.as_str()))
                    || (w.len() >= 4 && t.starts_with(w.as_str()))
            });
            words.push((s, i, hit));
        }
    }
    if words.is_empty() {
        return String::new();
    }
    // Best window start: most hits within `max` bytes.
    let mut best = (0usize, 0usize);
    let mut j = 0;
    let mut hits = 0;
    for i in 0..words.len() {
        while j < words.len() && words[j].1 - words[i].0 <= max {
            if words[j].2 {
                hits += 1;
            }
            j += 1;
        }
        if hits > best.1 {
            best = (i, hits);
        }
        if words[i].2 {
            hits -= 1;
        }
    }
    // Back up a few words for context when the window has room.
    let mut first = best.0;
    let mut back = 0;
    while first > 0 && back < 8 && words.last().map(|w| w.1).unwrap_or(0) - words[first - 1].0 > max
    {
        first -= 1;
        back += 1;
    }
    if best.1 == 0 {
        first = 0;
    }
    let from = words[first].0;
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    let mut pos = from;
    let mut end = from;
    for &(s, e, hit) in &words[first..] {
        if e - from > max {
            break;
        }
        out.push_str(&text[pos..s]);
        if hit {
            out.push_str("**");
            out.push_str(&text[s..e]);
            out.push_str("**");
        } else {
            out.push_str(&text[s..e]);
        }
        pos = e;
        end = e;
    }
    if end < text.len() {
        let tail = &text[end..];
        let punct: String = tail
            .chars()
            .take_while(|c| !c.is_alphanumeric() && !c.is_whitespace())
            .collect();
        out.push_str(&punct);
        if end + punct.len() < text.trim_end().len() {
            out.push('…');
        }
    }
    squash(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_stable() {
        assert_eq!(
            slug("Thomas Aquinas/Summa Theologiae/First Part"),
            "thomas-aquinas-summa-theologiae-first-part"
        );
        assert_eq!(slug("  Thérèse  d'Avila! "), "therese-d-avila");
    }

    #[test]
    fn chunking_merges_and_splits() {
        let paras: Vec<String> = vec![
            "Chapter 1".into(),
            "Short one.".into(),
            "Another short.".into(),
            "x. ".repeat(1000),
        ];
        let chunks = chunk_paragraphs(&paras);
        assert_eq!(chunks[0].heading.as_deref(), Some("Chapter 1"));
        assert!(chunks[0].text.starts_with("Short one.\n\nAnother short."));
        assert!(chunks.iter().all(|c| c.text.len() <= PASSAGE_MAX + 2));
        assert!(chunks.len() >= 3);
        let only_headings: Vec<String> = vec!["See Letter 158".into()];
        assert_eq!(chunk_paragraphs(&only_headings)[0].text, "See Letter 158");
    }

    #[test]
    fn snippet_marks_terms() {
        let text =
            "In the beginning was the Word, and the Word was with God, and the Word was God.";
        let s = snippet(text, &query_terms("the Word with God"), 40);
        assert!(s.contains("**Word**"), "{s}");
        assert!(s.chars().count() < 80, "{s}");
    }
}
