//! The multilingual glossary (`data/glossary.tsv`): theological terms in
//! English, Latin, Czech, Chinese, Bengali, Konkani, Italian, Spanish,
//! Portuguese and French, one concept a line. A query that names a concept in
//! any language but English is given the concept's English and Latin terms, so
//! the lexical index (English and Latin passages, mostly) finds what it asks
//! about.
//!
//! Matching (on [`Normalized`] text): a variant with a Han character is a
//! substring; otherwise a sequence of words, each exact or, ending in `*`, a
//! prefix (`milost*` matches `milosti`).

use super::normalize::{fold, is_han, Normalized};
use std::sync::OnceLock;

/// The glossary as shipped.
const DATA: &str = include_str!("../../data/glossary.tsv");

/// The languages of the columns, in order.
pub const COLUMNS: [&str; 10] = ["en", "la", "cs", "zh", "bn", "kok", "it", "es", "pt", "fr"];

/// The languages, besides English and Latin, that the papal texts are in:
/// a concept named in any language is looked for in these too.
const ROMANCE: [&str; 4] = ["it", "fr", "es", "pt"];

/// Words that mark a query as English: then nothing is translated (an
/// Italian `male` or a Spanish `fe` in an English query is not theirs).
const ENGLISH_MARKERS: &[&str] = &[
    "the", "what", "does", "is", "are", "of", "and", "how", "why", "who", "about", "with", "was",
    "were", "which", "when", "where", "this", "that", "teach", "teaches", "say", "says", "mean",
    "means", "my", "can", "should", "did", "you", "we",
];

/// True when `q` has a word that marks English (`the`, `what`, `how`…).
pub fn looks_english(q: &Normalized) -> bool {
    q.words
        .iter()
        .any(|w| ENGLISH_MARKERS.contains(&w.as_str()))
}

#[derive(Debug, Clone)]
enum Pattern {
    /// Chinese: a substring of the folded text.
    Han(String),
    /// Words, each `(text, is_prefix)`.
    Words(Vec<(String, bool)>),
}

impl Pattern {
    fn parse(variant: &str) -> Option<Pattern> {
        let v = variant.trim();
        if v.is_empty() {
            return None;
        }
        if v.chars().any(is_han) {
            return Some(Pattern::Han(v.to_lowercase()));
        }
        let words: Vec<(String, bool)> = v
            .split_whitespace()
            .map(|w| {
                let prefix = w.ends_with('*');
                (fold(w.trim_end_matches('*')), prefix)
            })
            .filter(|(w, _)| !w.is_empty())
            .flat_map(|(w, prefix)| {
                // A folded word can split ("l'église" → "l eglise"): the prefix mark stays last.
                let parts: Vec<String> = w.split(' ').map(str::to_string).collect();
                let n = parts.len();
                parts
                    .into_iter()
                    .enumerate()
                    .map(move |(i, p)| (p, prefix && i + 1 == n))
            })
            .collect();
        (!words.is_empty()).then_some(Pattern::Words(words))
    }

    fn matches(&self, q: &Normalized) -> bool {
        match self {
            Pattern::Han(s) => q.folded.contains(s.as_str()),
            Pattern::Words(ws) => {
                if ws.len() > q.words.len() {
                    return false;
                }
                q.words.windows(ws.len()).any(|win| {
                    win.iter().zip(ws).all(|(w, (p, prefix))| {
                        if *prefix {
                            w.starts_with(p.as_str())
                        } else {
                            w == p
                        }
                    })
                })
            }
        }
    }
}

/// One concept: its English and Latin terms and the patterns that name it.
#[derive(Debug, Clone)]
pub struct Concept {
    /// English terms, the first one preferred.
    pub en: Vec<String>,
    /// Latin terms.
    pub la: Vec<String>,
    /// `(column, first term)` in the Romance languages of the papal texts.
    romance: Vec<(usize, String)>,
    /// `(column, pattern)` for every language but English.
    patterns: Vec<(usize, Pattern)>,
}

/// The parsed glossary.
#[derive(Debug, Clone)]
pub struct Glossary {
    concepts: Vec<Concept>,
}

fn variants(cell: &str) -> Vec<String> {
    cell.split('|')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
        .collect()
}

fn quoted(term: &str) -> String {
    let t = term.trim_end_matches('*');
    if t.contains(' ') {
        format!("\"{t}\"")
    } else {
        t.to_string()
    }
}

impl Glossary {
    /// Parse glossary text (see `data/glossary.tsv` for the format). Lines
    /// with the wrong number of columns are skipped.
    pub fn parse(text: &str) -> Glossary {
        let mut concepts = Vec::new();
        for line in text.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let cells: Vec<&str> = line.split('\t').collect();
            if cells.len() != COLUMNS.len() || cells[0] == "en" {
                continue;
            }
            let en = variants(cells[0]);
            if en.is_empty() {
                continue;
            }
            let la = variants(cells[1]);
            let mut patterns = Vec::new();
            for (col, cell) in cells.iter().enumerate().skip(1) {
                for v in variants(cell) {
                    if let Some(p) = Pattern::parse(&v) {
                        patterns.push((col, p));
                    }
                }
            }
            let romance = ROMANCE
                .iter()
                .filter_map(|l| COLUMNS.iter().position(|c| c == l))
                .filter_map(|col| variants(cells[col]).into_iter().next().map(|v| (col, v)))
                .collect();
            concepts.push(Concept {
                en,
                la,
                romance,
                patterns,
            });
        }
        Glossary { concepts }
    }

    /// True when `word` (folded) is by itself a term of some concept, in any
    /// language (`eucharist`, `milosti` for `milost*`); words of multi-word
    /// terms do not count.
    pub fn is_term(&self, word: &str) -> bool {
        self.concepts.iter().any(|c| {
            c.en.iter().any(|e| !e.contains(' ') && fold(e) == word)
                || c.patterns.iter().any(|(_, p)| match p {
                    Pattern::Words(ws) if ws.len() == 1 => {
                        let (t, prefix) = &ws[0];
                        if *prefix {
                            word.starts_with(t.as_str())
                        } else {
                            t == word
                        }
                    }
                    _ => false,
                })
        })
    }

    /// Number of concepts.
    pub fn len(&self) -> usize {
        self.concepts.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.concepts.is_empty()
    }

    /// The concepts `q` names in a language other than English, with the
    /// column (language) of the first pattern matched.
    pub fn concepts_in(&self, q: &Normalized) -> Vec<(&Concept, &'static str)> {
        if looks_english(q) {
            return Vec::new();
        }
        self.concepts
            .iter()
            .filter_map(|c| {
                c.patterns
                    .iter()
                    .find(|(_, p)| p.matches(q))
                    .map(|(col, _)| (c, COLUMNS[*col]))
            })
            .collect()
    }

    /// English terms (all) and the first Latin term of each concept named
    /// (no Latin when the query named it in Latin); phrases quoted.
    pub fn translate(&self, q: &Normalized) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (c, lang) in self.concepts_in(q) {
            let mut add = |t: String| {
                if !out.contains(&t) {
                    out.push(t);
                }
            };
            for e in &c.en {
                add(quoted(e));
            }
            if lang != "la" {
                if let Some(l) = c.la.first() {
                    add(quoted(l));
                }
            }
        }
        out
    }

    /// The first Italian, French, Spanish and Portuguese term of each
    /// concept named (the other languages the papal texts are in), none in
    /// the query's own language; phrases quoted.
    pub fn romance(&self, q: &Normalized) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (c, lang) in self.concepts_in(q) {
            // "saints" is French too: a concept the query names in English
            // is not looked for in the other languages
            let english =
                c.en.iter()
                    .filter_map(|e| Pattern::parse(e))
                    .any(|p| p.matches(q));
            if english {
                continue;
            }
            for (col, first) in &c.romance {
                let t = quoted(first);
                if COLUMNS[*col] != lang && !t.is_empty() && !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        out
    }
}

/// The shipped glossary, parsed once.
pub fn global() -> &'static Glossary {
    static G: OnceLock<Glossary> = OnceLock::new();
    G.get_or_init(|| Glossary::parse(DATA))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(q: &str) -> Vec<String> {
        global().translate(&Normalized::new(q))
    }

    #[test]
    fn shipped_glossary_parses_fully() {
        let rows = DATA
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        // every row but the header is a concept
        assert_eq!(global().len(), rows - 1);
        assert!(global().len() >= 100);
    }

    #[test]
    fn nine_languages() {
        for (q, want) in [
            ("Co učí církev o milosti?", "grace"),
            ("教会关于恩典的教导是什么？", "grace"),
            ("অনুগ্রহ সম্পর্কে মণ্ডলী কী শিক্ষা দেয়?", "grace"),
            ("देवाची कृपा म्हणल्यार कितें?", "grace"),
            ("Kurpa mhollear kitem?", "grace"),
            ("Quid est gratia?", "grace"),
            ("Che cosa insegna la Chiesa sulla grazia?", "grace"),
            ("¿Qué enseña la Iglesia sobre la gracia?", "grace"),
            ("O que a Igreja ensina sobre a graça?", "grace"),
            ("Que dit l'Église sur la grâce ?", "grace"),
        ] {
            let got = t(q);
            assert!(got.iter().any(|g| g == want), "{q}: {got:?}");
        }
        assert!(t("Quid est gratia?").iter().all(|g| g != "gratia"));
        assert!(t("¿Qué es el pecado original?").contains(&"\"original sin\"".to_string()));
        // the papal texts' other languages, not the query's own
        let r = |q: &str| global().romance(&Normalized::new(q));
        let es = r("¿Qué enseña la Iglesia sobre la gracia?");
        assert!(
            es.iter().any(|g| g == "grazia") && es.iter().any(|g| g == "grâce"),
            "{es:?}"
        );
        assert!(es.iter().all(|g| g != "gracia"), "{es:?}");
        assert!(r("Co učí církev o milosti?").iter().any(|g| g == "graça"));
        assert!(r("saints").is_empty(), "an English word, though French too");
    }

    #[test]
    fn english_queries_are_left_alone() {
        assert!(t("What is the grace of God?").is_empty());
        assert!(t("the male and female").is_empty());
    }

    #[test]
    fn bad_lines_are_skipped() {
        let g = Glossary::parse(
            "only\tthree\tcells\n\n# comment\nen\tla\tcs\tzh\tbn\tkok\tit\tes\tpt\tfr\n",
        );
        assert!(g.is_empty());
    }
}
