//! Small text tools shared by retrieval, extractive answers and validation:
//! content terms with light stemming, term overlap, sentence spans and
//! verbatim excerpts (always byte slices of the original, so a quote is a
//! substring of its passage by construction).

use std::collections::BTreeSet;

const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "either",
    "else",
    "ever",
    "few",
    "for",
    "from",
    "further",
    "get",
    "gets",
    "give",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "let",
    "me",
    "might",
    "more",
    "most",
    "much",
    "must",
    "my",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "one",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "out",
    "over",
    "own",
    "please",
    "same",
    "say",
    "says",
    "said",
    "shall",
    "she",
    "should",
    "so",
    "some",
    "such",
    "tell",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "thus",
    "to",
    "too",
    "under",
    "until",
    "up",
    "upon",
    "us",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "unto",
    "thee",
    "thou",
    "thy",
    "ye",
    "hath",
    "doth",
    "shalt",
    "wilt",
    "art",
    "according",
    "mean",
    "means",
    "explain",
    "teach",
    "teaches",
    "teaching",
    "catholic",
    "church",
    "view",
    "believe",
    "believes",
    "way",
    "ways",
    "according",
    "many",
    "really",
    "like",
    "think",
    "know",
];

/// Lower-case alphanumeric words of `text`, in order.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Text in lower case without Latin accents and ligatures (`Nicæa` → `nicaea`, `Thérèse` →
/// `therese`), so that the old spellings of the library's translations meet today's. The
/// combining marks of other scripts (Bengali and Devanagari vowel signs) are kept:
/// [`ecclesia_fold::plain`].
pub fn plain(word: &str) -> String {
    ecclesia_fold::plain(word)
}

/// A crude English stem: plural endings dropped, then the first five
/// characters, so `baptism`/`baptized`/`baptizing` and `sins`/`sin` meet.
pub fn stem(word: &str) -> String {
    let mut w = word.trim_end_matches("'s").to_string();
    let n = w.chars().count();
    if n > 4 && w.ends_with("ies") {
        w.truncate(w.len() - 3);
        w.push('y');
    } else if n > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") {
        w.pop();
    }
    w.chars().take(5).collect()
}

/// Words of a question that carry no subject ("What does the Church teach about …").
pub const QUESTION_WORDS: &[&str] = &[
    "church",
    "catholic",
    "teach",
    "teaches",
    "teaching",
    "say",
    "says",
    "believe",
    "mean",
    "means",
    "explain",
    "according",
    "tell",
    "doe",
    "does",
    "did",
    "why",
    "how",
];

/// True for words that carry no topic.
pub fn is_stopword(w: &str) -> bool {
    STOPWORDS.contains(&w)
}

/// The distinct stemmed content terms of `text`.
pub fn content_terms(text: &str) -> BTreeSet<String> {
    words(text)
        .into_iter()
        .filter(|w| {
            !is_stopword(w) && (w.chars().count() > 2 || w.chars().all(|c| c.is_ascii_digit()))
        })
        .map(|w| stem(&w))
        .collect()
}

/// Fraction of `terms` present in `text` (0 when `terms` is empty).
pub fn term_overlap(terms: &BTreeSet<String>, text: &str) -> f32 {
    if terms.is_empty() {
        return 0.0;
    }
    let have = content_terms(text);
    let hit = terms.iter().filter(|t| have.contains(*t)).count();
    hit as f32 / terms.len() as f32
}

/// Byte ranges of the sentences of `text` (each trimmed of surrounding whitespace).
pub fn sentence_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut iter = text.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        let end_here = match c {
            '.' | '?' | '!' | ';' => iter
                .peek()
                .is_none_or(|&(_, n)| n.is_whitespace() || n == '"' || n == '\u{201d}' || n == ')'),
            '\n' => iter.peek().is_some_and(|&(_, n)| n == '\n'),
            _ => false,
        };
        if end_here {
            let mut end = i + c.len_utf8();
            // Keep a closing quote or bracket with its sentence.
            while let Some(&(j, n)) = iter.peek() {
                if n == '"' || n == '\u{201d}' || n == ')' || n == '\u{2019}' {
                    end = j + n.len_utf8();
                    iter.next();
                } else {
                    break;
                }
            }
            push_trimmed(text, start, end, &mut spans);
            start = end;
        }
    }
    push_trimmed(text, start, bytes.len(), &mut spans);
    spans
}

fn push_trimmed(text: &str, start: usize, end: usize, spans: &mut Vec<(usize, usize)>) {
    let slice = &text[start..end];
    let lead = slice.len() - slice.trim_start().len();
    let trail = slice.len() - slice.trim_end().len();
    if lead + trail < slice.len() {
        spans.push((start + lead, end - trail));
    }
}

/// A verbatim excerpt of a passage and where it sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// Byte offset of the excerpt in the passage text.
    pub start: usize,
    /// Byte offset just past the excerpt.
    pub end: usize,
    /// The excerpt itself (`&text[start..end]`).
    pub text: String,
}

impl Excerpt {
    /// True when the excerpt starts after the passage start.
    pub fn cut_before(&self) -> bool {
        self.start > 0
    }

    /// True when the excerpt ends before the passage end (`len` is the passage length).
    pub fn cut_after(&self, len: usize) -> bool {
        self.end < len
    }
}

/// The window of consecutive sentences of `text`, at most `max_chars` long,
/// that holds most of `terms` (ties go to the earlier window). A sentence
/// longer than the bound is cut at a word boundary. Always a substring of `text`.
pub fn best_excerpt(text: &str, terms: &BTreeSet<String>, max_chars: usize) -> Excerpt {
    let spans = sentence_spans(text);
    if spans.is_empty() {
        return Excerpt {
            start: 0,
            end: 0,
            text: String::new(),
        };
    }
    let sent_terms: Vec<BTreeSet<String>> = spans
        .iter()
        .map(|&(s, e)| content_terms(&text[s..e]))
        .collect();
    let mut best: Option<(f32, usize, usize)> = None;
    for i in 0..spans.len() {
        let mut covered: BTreeSet<&String> = BTreeSet::new();
        for j in i..spans.len() {
            let len = text[spans[i].0..spans[j].1].chars().count();
            if len > max_chars && j > i {
                break;
            }
            covered.extend(sent_terms[j].iter().filter(|t| terms.contains(*t)));
            // Prefer covering more terms; then longer context up to the bound;
            // then earlier position.
            let score = covered.len() as f32 * 10.0
                + (len.min(max_chars) as f32 / max_chars as f32)
                - i as f32 * 0.01;
            if best.is_none_or(|(b, _, _)| score > b) {
                best = Some((score, i, j));
            }
            if len > max_chars {
                break;
            }
        }
    }
    let (_, i, j) = best.unwrap_or((0.0, 0, 0));
    let (start, mut end) = (spans[i].0, spans[j].1);
    if text[start..end].chars().count() > max_chars {
        end = cut_at_word(text, start, max_chars);
    }
    Excerpt {
        start,
        end,
        text: text[start..end].to_string(),
    }
}

/// Byte offset of the last word boundary within `max_chars` characters after `start`.
fn cut_at_word(text: &str, start: usize, max_chars: usize) -> usize {
    let slice = &text[start..];
    let limit = slice
        .char_indices()
        .nth(max_chars)
        .map(|(i, _)| i)
        .unwrap_or(slice.len());
    let cut = slice[..limit]
        .rfind(char::is_whitespace)
        .filter(|&i| i > limit / 2)
        .unwrap_or(limit);
    let trimmed = slice[..cut].trim_end_matches(|c: char| c.is_whitespace() || c == ',');
    start + trimmed.len()
}

/// Collapse runs of whitespace to single spaces (for display only, never for citations).
pub fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_meet() {
        assert_eq!(stem("baptism"), stem("baptized"));
        assert_eq!(stem("sins"), stem("sin"));
        assert_eq!(stem("prayers"), stem("prayer"));
    }

    #[test]
    fn sentences_and_excerpts_are_substrings() {
        let t = "In the beginning was the Word. And the Word was with God! Was it? \"Yes.\" Then  more text follows here; and more.";
        for (s, e) in sentence_spans(t) {
            assert!(t[s..e].trim() == &t[s..e]);
        }
        let ex = best_excerpt(t, &content_terms("Word with God"), 60);
        assert!(t.contains(&ex.text));
        assert!(ex.text.contains("with God"), "{ex:?}");
        let long = "word ".repeat(400);
        let ex = best_excerpt(&long, &content_terms("word"), 100);
        assert!(ex.text.chars().count() <= 100 && long.contains(&ex.text));
    }

    #[test]
    fn overlap_counts_terms() {
        let terms = content_terms("What is the Eucharist?");
        assert_eq!(
            term_overlap(&terms, "The Holy Eucharist is a sacrament"),
            1.0
        );
        assert_eq!(term_overlap(&terms, "nothing here"), 0.0);
    }
}
