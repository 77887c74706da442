//! The works index (`data/works.tsv`): every work with the names people use
//! for it (Latin titles, short English titles, descriptions), so that "the
//! Tome of Leo" or "Ambrose De Spiritu Sancto" finds the document the
//! translators titled "The Tome of St. Leo" or "On the Holy Spirit — Book 1".
//!
//! [`Works::named`] finds the longest alias a query contains (as whole words,
//! accents and case aside). An alias of one word counts only beside its
//! author's name or alone ("Confessions" is a work; "confessions of faith"
//! is not). When several works share an alias, the author named picks among
//! them. The search then puts the named work first and, within it, the
//! passage that fits the rest of the query.

use super::normalize::{is_han, Normalized};
use std::collections::HashMap;

/// The bundled index.
pub const DATA: &str = include_str!("../../data/works.tsv");
/// The bundled author name forms (`Agostino`, `奥斯定` for Augustine).
pub const AUTHORS: &str = include_str!("../../data/authors.tsv");

/// Words in a query that neither name a work nor ask anything of it.
const FILLER: &[&str] = &[
    "the", "a", "an", "of", "on", "in", "by", "s", "st", "saint", "san", "santo", "sant", "work",
    "book", "books", "treatise", "text", "read", "de", "di", "la", "le", "il", "el", "du", "des",
];

/// Words of an author's name that do not tell authors apart.
const AUTHOR_NOISE: &[&str] = &[
    "saint", "pope", "bishop", "blessed", "martyr", "the", "of", "and", "from", "called",
];

/// One alias: its folded words and the documents of its work.
#[derive(Debug, Clone)]
struct Alias {
    words: Vec<String>,
    docs: Vec<u32>,
}

/// A work a query names.
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    /// The work's documents (all of them, for a work in several books).
    pub docs: Vec<u32>,
    /// The query's words that neither name the work nor its author, folded:
    /// what to look for within it (empty: the work as a whole).
    pub rest: String,
}

/// The works index, resolved against a store's documents.
#[derive(Debug, Default)]
pub struct Works {
    aliases: Vec<Alias>,
    /// [`key`] of the first alias word → aliases starting with it
    by_first: HashMap<String, Vec<usize>>,
    /// document → the distinctive words of its author's name, folded
    authors: HashMap<u32, Vec<String>>,
    /// aliases in Chinese: (folded text, alias), matched as substrings
    han: Vec<(String, usize)>,
    /// an author's name in other languages: (its folded words, or its
    /// Chinese text), and the author word it stands for
    forms: Vec<(Vec<String>, String)>,
}

/// A store's documents as the index needs them.
pub trait Documents {
    /// The documents with this id, or whose id starts with `prefix` when the
    /// target ends in `*`; only documents with text.
    fn resolve(&self, target: &str) -> Vec<u32>;
    /// The author of a document.
    fn author(&self, doc: u32) -> Option<String>;
}

/// True when `a` (alias word) and `q` (query word) are the same word, an
/// ending aside ("letters"/"letter", "confessions"/"confession").
fn same_word(a: &str, q: &str) -> bool {
    if a == q {
        return true;
    }
    let (long, short) = if a.len() >= q.len() { (a, q) } else { (q, a) };
    short.chars().count() >= 5 && long.len() - short.len() <= 2 && long.starts_with(short)
}

/// What the first words of an alias and a query are looked up by: the first
/// five characters, so that words differing in their ending meet.
fn key(word: &str) -> &str {
    word.char_indices().nth(5).map_or(word, |(i, _)| &word[..i])
}

impl Works {
    /// Parse `text` (the format of `data/works.tsv`) against `docs`. Lines
    /// whose target names no document are reported, not fatal.
    pub fn build(text: &str, docs: &dyn Documents) -> (Works, Vec<String>) {
        let mut w = Works::default();
        let mut warnings = Vec::new();
        let mut seen: HashMap<(Vec<String>, Vec<u32>), ()> = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let cells: Vec<&str> = line.split('\t').collect();
            let (Some(target), Some(alias)) = (cells.first(), cells.get(1)) else {
                warnings.push(format!("works.tsv line {}: fewer than two cells", n + 1));
                continue;
            };
            let words = Normalized::new(alias).words;
            if words.is_empty() {
                warnings.push(format!("works.tsv line {}: empty alias", n + 1));
                continue;
            }
            let found = docs.resolve(target.trim());
            if found.is_empty() {
                warnings.push(format!(
                    "works.tsv line {}: {target} names no document",
                    n + 1
                ));
                continue;
            }
            for &d in &found {
                w.authors.entry(d).or_insert_with(|| {
                    docs.author(d)
                        .map(|a| {
                            Normalized::new(&a)
                                .words
                                .into_iter()
                                .filter(|x| {
                                    x.chars().count() >= 4 && !AUTHOR_NOISE.contains(&x.as_str())
                                })
                                .collect()
                        })
                        .unwrap_or_default()
                });
            }
            if seen.insert((words.clone(), found.clone()), ()).is_some() {
                continue;
            }
            let at = w.aliases.len();
            if alias.chars().any(is_han) {
                w.han
                    .push((Normalized::new(alias).folded.replace(' ', ""), at));
            } else {
                w.by_first
                    .entry(key(&words[0]).to_string())
                    .or_default()
                    .push(at);
            }
            w.aliases.push(Alias { words, docs: found });
        }
        (w, warnings)
    }

    /// Add the author name forms of `text` (the format of `data/authors.tsv`:
    /// `author word<TAB>form<TAB>lang<TAB>source`).
    pub fn with_authors(mut self, text: &str) -> Works {
        for line in text.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut cells = line.split('\t');
            let (Some(author), Some(form)) = (cells.next(), cells.next()) else {
                continue;
            };
            let author = Normalized::new(author).words.join(" ");
            let form_words = if form.chars().any(is_han) {
                vec![Normalized::new(form).folded.replace(' ', "")]
            } else {
                Normalized::new(form).words
            };
            if !author.is_empty() && !form_words.is_empty() {
                self.forms.push((form_words, author));
            }
        }
        self
    }

    /// Number of aliases.
    pub fn len(&self) -> usize {
        self.aliases.len()
    }

    /// True when the index holds no alias.
    pub fn is_empty(&self) -> bool {
        self.aliases.is_empty()
    }

    /// The work `query` names, if any.
    pub fn named(&self, query: &str) -> Option<Named> {
        let n = Normalized::new(query);
        let words = n.words;
        // authors named in another language's form, and the query words they use
        let mut form_authors: Vec<&str> = Vec::new();
        let mut form_words: Vec<usize> = Vec::new();
        for (form, author) in &self.forms {
            if form[0].chars().any(is_han) {
                if n.folded.replace(' ', "").contains(form[0].as_str()) {
                    form_authors.push(author);
                }
                continue;
            }
            if let Some(at) = (0..words.len()).find(|&i| {
                i + form.len() <= words.len()
                    && form.iter().zip(&words[i..]).all(|(f, q)| same_word(f, q))
            }) {
                form_authors.push(author);
                form_words.extend(at..at + form.len());
            }
        }
        // (start, length, alias indices)
        let mut best: Option<(usize, usize, Vec<usize>)> = None;
        for start in 0..words.len() {
            let Some(cands) = self.candidates(&words[start]) else {
                continue;
            };
            for &i in cands {
                let a = &self.aliases[i];
                let len = a.words.len();
                if start + len > words.len()
                    || !a
                        .words
                        .iter()
                        .zip(&words[start..])
                        .all(|(x, q)| same_word(x, q))
                {
                    continue;
                }
                match &mut best {
                    Some((s, l, list)) if *s == start && *l == len => list.push(i),
                    Some((_, l, _)) if *l >= len => {}
                    _ => best = Some((start, len, vec![i])),
                }
            }
        }
        // a Chinese title inside the query (no spaces to tell its words apart)
        if best.is_none() {
            let compact = n.folded.replace(' ', "");
            let mut han: Vec<(usize, usize)> = self
                .han
                .iter()
                .filter(|(t, _)| compact.contains(t.as_str()))
                .map(|(t, i)| (t.chars().count(), *i))
                .collect();
            han.sort_unstable_by_key(|h| std::cmp::Reverse(h.0));
            if let Some(&(longest, _)) = han.first() {
                let found = han
                    .iter()
                    .take_while(|(l, _)| *l == longest)
                    .map(|(_, i)| *i)
                    .collect();
                // the words are unknown: the work as a whole, its author by name forms
                best = Some((words.len(), 0, found));
            }
        }
        let (start, len, found) = best?;
        let outside: Vec<&String> = words[..start.min(words.len())]
            .iter()
            .enumerate()
            .chain(words.iter().enumerate().skip(start + len))
            .filter(|(i, _)| !form_words.contains(i))
            .map(|(_, w)| w)
            .collect();
        let mut docs: Vec<u32> = found
            .iter()
            .flat_map(|&i| self.aliases[i].docs.iter().copied())
            .collect();
        docs.sort_unstable();
        docs.dedup();
        // the author named, among the works sharing the alias
        let by_author: Vec<u32> = docs
            .iter()
            .copied()
            .filter(|d| self.author_named(*d, &outside, &form_authors))
            .collect();
        let author_named = !by_author.is_empty();
        if author_named {
            docs = by_author;
        }
        let author_words: Vec<&String> = docs
            .iter()
            .filter_map(|d| self.authors.get(d))
            .flatten()
            .collect();
        let rest: Vec<&str> = outside
            .iter()
            .filter(|w| {
                !FILLER.contains(&w.as_str()) && !author_words.iter().any(|a| same_word(a, w))
            })
            .map(|w| w.as_str())
            .collect();
        let rest: Vec<&str> = if len == 0 { Vec::new() } else { rest };
        if len == 1 && !author_named && !rest.is_empty() {
            return None;
        }
        Some(Named {
            docs,
            rest: rest.join(" "),
        })
    }

    fn candidates(&self, word: &str) -> Option<&Vec<usize>> {
        self.by_first.get(key(word))
    }

    fn author_named(&self, doc: u32, words: &[&String], forms: &[&str]) -> bool {
        self.authors.get(&doc).is_some_and(|a| {
            a.iter()
                .any(|x| words.iter().any(|w| same_word(x, w)) || forms.iter().any(|f| f == x))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixture(Vec<(&'static str, &'static str)>);

    impl Documents for Fixture {
        fn resolve(&self, target: &str) -> Vec<u32> {
            let (prefix, whole) = match target.strip_suffix('*') {
                Some(p) => (p, false),
                None => (target, true),
            };
            (0..self.0.len() as u32)
                .filter(|&i| {
                    let id = self.0[i as usize].0;
                    if whole {
                        id == prefix
                    } else {
                        id.starts_with(prefix)
                    }
                })
                .collect()
        }
        fn author(&self, doc: u32) -> Option<String> {
            self.0.get(doc as usize).map(|d| d.1.to_string())
        }
    }

    fn works() -> Works {
        let docs = Fixture(vec![
            ("cf-ambrose-holy-spirit-book-1", "Ambrose of Milan"),
            ("cf-ambrose-holy-spirit-book-2", "Ambrose of Milan"),
            ("cf-basil-on-the-holy-spirit", "Basil of Caesarea"),
            ("cf-augustine-confessions-book-1", "Augustine of Hippo"),
            ("cf-chalcedon-tome", "Council of Chalcedon"),
        ]);
        let tsv = "# test\n\
            cf-ambrose-holy-spirit-book-*\tDe Spiritu Sancto\tla\ttest\n\
            cf-ambrose-holy-spirit-book-*\tOn the Holy Spirit\ten\ttest\n\
            cf-basil-on-the-holy-spirit\tDe Spiritu Sancto\tla\ttest\n\
            cf-basil-on-the-holy-spirit\tOn the Holy Spirit\ten\ttest\n\
            cf-augustine-confessions-book-*\tConfessions\ten\ttest\n\
            cf-augustine-confessions-book-*\tConfessioni\tit\ttest\n\
            cf-augustine-confessions-book-*\t忏悔录\tzh\ttest\n\
            cf-chalcedon-tome\tTome of Leo\ten\ttest\n\
            cf-missing\tNothing\ten\ttest\n";
        let (w, warnings) = Works::build(tsv, &docs);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        w.with_authors(
            "# test\naugustine\tAgostino\tit\ttest\nambrose\tAmbrogio\tit\ttest\naugustine\t奥斯定\tzh\ttest\n",
        )
    }

    #[test]
    fn an_alias_names_its_work_and_the_author_chooses() {
        let w = works();
        let n = w.named("the Tome of Leo").unwrap();
        assert_eq!((n.docs, n.rest.as_str()), (vec![4], ""));
        let n = w
            .named("Ambrose De Spiritu Sancto on the procession")
            .unwrap();
        assert_eq!((n.docs, n.rest.as_str()), (vec![0, 1], "procession"));
        let n = w.named("On the Holy Spirit").unwrap();
        assert_eq!(n.docs, vec![0, 1, 2]);
        let n = w.named("Basil's On the Holy Spirit").unwrap();
        assert_eq!(n.docs, vec![2]);
    }

    #[test]
    fn one_word_aliases_need_their_author_or_nothing_else() {
        let w = works();
        assert_eq!(w.named("Confessions").unwrap().docs, vec![3]);
        assert_eq!(w.named("Augustine's confession").unwrap().docs, vec![3]);
        let n = w.named("Augustine Confessions stealing pears").unwrap();
        assert_eq!(n.rest, "stealing pears");
        assert_eq!(w.named("confessions of faith in the early church"), None);
        // an author named in another language
        let n = w
            .named("le Confessioni di sant'Agostino sul furto delle pere")
            .unwrap();
        assert_eq!(n.docs, vec![3]);
        assert!(!n.rest.contains("agostino"), "{}", n.rest);
        assert_eq!(
            w.named("Ambrogio De Spiritu Sancto").unwrap().docs,
            vec![0, 1]
        );
        // a Chinese title inside a sentence
        assert_eq!(w.named("奥斯定的《忏悔录》").unwrap().docs, vec![3]);
        assert_eq!(w.named(""), None);
        assert_eq!(w.named("grace"), None);
    }
}
