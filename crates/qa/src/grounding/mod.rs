//! Grounding: does the library hold what a question needs? Decided for every
//! question before any answer is written, from what the question names (the
//! registry of the modern Magisterium, the catalogue of papal documents
//! without text, the documents the library holds) and from how much of the
//! question's subject the gathered passages cover. The result travels with
//! the answer (`metadata.grounding`), and an answer that the library cannot
//! give opens by saying so, naming the documents that would answer and where
//! to read them; a model is never asked to fill such an answer.

mod statement;

use crate::lang::{detect, Lang};
use crate::passage::{CatalogueEntry, Passage, Retriever};
use crate::text::{content_terms, is_stopword, stem, words, QUESTION_WORDS};
use ecclesia_magisterium::{Entry, Registry};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

pub use statement::{partial_intro, related_intro};

/// Whether the passages found answer the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The passages answer it.
    Answered,
    /// A named document is absent, but other sources cover the subject.
    Partial,
    /// The library does not hold what the question needs.
    NotInLibrary,
}

/// A document that would answer the question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeeAlso {
    /// Title (the official one, usually Latin).
    pub title: String,
    /// Pope, council or dicastery.
    pub author: Option<String>,
    /// Year.
    pub year: Option<i32>,
    /// `encyclical`, `dogmatic constitution`, …
    #[serde(rename = "type")]
    pub doc_type: String,
    /// Where to read it.
    pub url: Option<String>,
    /// True when the library holds its text.
    pub in_library: bool,
}

/// The grounding decision carried in `metadata.grounding`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grounding {
    /// Answered, partial or not in the library.
    pub status: Status,
    /// What the question asks that no passage covers (names and words).
    pub missing: Vec<String>,
    /// Documents that would answer.
    pub see_also: Vec<SeeAlso>,
    /// The answer's opening in the question's language when the status is
    /// not `answered` (not serialised: it is the text's first sentence).
    #[serde(skip)]
    pub statement: String,
    /// What the question asks about, names removed (not serialised).
    #[serde(skip)]
    pub subject: String,
}

impl Grounding {
    /// An answered question with nothing missing.
    pub fn answered() -> Self {
        Grounding {
            status: Status::Answered,
            missing: Vec::new(),
            see_also: Vec::new(),
            statement: String::new(),
            subject: String::new(),
        }
    }
}

/// Words of a question about a document that carry no subject of their own
/// (beside [`crate::text::QUESTION_WORDS`]).
const DOCUMENT_WORDS: &[&str] = &[
    "said",
    "pope",
    "document",
    "write",
    "wrote",
    "written",
    "decide",
    "decided",
    "view",
    "position",
    "think",
    "encyclical",
    "exhortation",
    "constitution",
    "letter",
    "council",
    "vatican",
    "second",
    "declaration",
    "paragraph",
    "canon",
    "catechism",
    "code",
    "law",
    "answer",
    "question",
    "ask",
];

/// How much of the question's subject the passages cover.
struct Coverage {
    /// Share of the subject's words found in some passage.
    share: f32,
    /// The words found in none.
    missing: Vec<String>,
    /// How many passages hold at least one of the words.
    passages: usize,
    /// False when the subject could not be judged (a question in another
    /// language whose words the glossary does not know).
    known: bool,
}

impl Coverage {
    /// The subject is covered: most of its words, in more than one passage.
    fn covered(&self) -> bool {
        self.known && self.share >= 0.6 && self.passages >= 2
    }
}

/// How much of `subject` (the question without its names) the passages cover.
fn coverage(question: &str, subject: &str, passages: &[Passage]) -> Coverage {
    let lang = detect(question);
    let english = crate::translate::english_terms(subject);
    // Outside English, only the glossary's English words can be looked for in
    // English passages; the question's own words count when a passage is in its language.
    let own: Vec<String> = words(subject);
    let added: Vec<String> = if lang == Lang::En {
        own.clone()
    } else {
        let own_set: BTreeSet<&String> = own.iter().collect();
        words(&english)
            .into_iter()
            .filter(|w| !own_set.contains(w))
            .collect()
    };
    let mut terms: Vec<(String, String)> = Vec::new();
    for w in added {
        if is_stopword(&w)
            || (QUESTION_WORDS.contains(&w.as_str()) || DOCUMENT_WORDS.contains(&w.as_str()))
            || w.chars().count() < 3
            || w.chars().all(|c| c.is_ascii_digit())
        {
            continue;
        }
        let s = stem(&w);
        if !terms.iter().any(|(t, _)| *t == s) {
            terms.push((s, w));
        }
    }
    if terms.is_empty() {
        return Coverage {
            share: 1.0,
            missing: Vec::new(),
            passages: passages.len(),
            known: lang == Lang::En,
        };
    }
    let mut have: BTreeSet<String> = BTreeSet::new();
    let mut holding = 0;
    for p in passages {
        let mut t = content_terms(&p.text);
        t.extend(content_terms(&p.doc_title));
        if terms.iter().any(|(s, _)| t.contains(s)) {
            holding += 1;
        }
        have.extend(t);
    }
    let missing: Vec<String> = terms
        .iter()
        .filter(|(s, _)| !have.contains(s))
        .map(|(_, w)| w.clone())
        .collect();
    Coverage {
        share: 1.0 - missing.len() as f32 / terms.len() as f32,
        missing,
        passages: holding,
        known: true,
    }
}

fn see_also_of(e: &Entry) -> SeeAlso {
    SeeAlso {
        title: e.title_la.clone(),
        author: Some(e.author.clone()),
        year: e.year(),
        doc_type: e.doc_type.clone(),
        url: Some(e.url.clone()),
        in_library: false,
    }
}

fn see_also_of_catalogue(c: &CatalogueEntry) -> SeeAlso {
    SeeAlso {
        title: c.title.clone(),
        author: c.author.clone(),
        year: c.year,
        doc_type: c.doc_type.clone(),
        url: c.url.clone(),
        in_library: false,
    }
}

fn push(list: &mut Vec<SeeAlso>, s: SeeAlso) {
    let key = ecclesia_magisterium::fold(&s.title);
    if !list
        .iter()
        .any(|o| ecclesia_magisterium::fold(&o.title) == key)
    {
        list.push(s);
    }
}

/// Decide the grounding of `question` over the gathered `passages`.
pub fn decide(
    question: &str,
    passages: &[Passage],
    retriever: &dyn Retriever,
    registry: &Registry,
) -> Grounding {
    let lang = detect(question);
    let mut m = registry.mentions(question);
    if m.documents.is_empty() {
        // "The 2023 declaration on blessings": described, not named.
        let subject = crate::translate::english_terms(&m.remainder);
        m.documents = registry.described_in(question, &subject);
    }
    let held = retriever.documents_named_in(question).unwrap_or_default();
    let held_titles: Vec<String> = held
        .iter()
        .map(|(_, t)| ecclesia_magisterium::fold(t))
        .collect();
    let mut see_also: Vec<SeeAlso> = Vec::new();
    let mut missing: Vec<String> = Vec::new();
    for e in &m.documents {
        push(&mut see_also, see_also_of(e));
        missing.push(e.title_la.clone());
    }
    // Titles given as titles: held, in the catalogue without text, or unknown anywhere.
    let mut nonexistent: Vec<String> = Vec::new();
    for t in &m.unknown_titles {
        let f = ecclesia_magisterium::fold(t);
        if held_titles
            .iter()
            .any(|h| h.contains(&f) || f.contains(h.as_str()))
        {
            continue;
        }
        let found = retriever.catalogue(t, 5).unwrap_or_default();
        match found
            .iter()
            .find(|c| ecclesia_magisterium::fold(&c.title).contains(&f))
        {
            Some(c) => {
                push(&mut see_also, see_also_of_catalogue(c));
                missing.push(c.title.clone());
            }
            // A run of capitals that names nothing: a title only when it looks like one.
            None if t.split(' ').count() >= 2 => nonexistent.push(t.clone()),
            None => {}
        }
    }
    let subject = m.remainder.clone();
    let mut guessed = false;
    // A title that names no document is answered as such: no guesses beside it.
    let guess = nonexistent.is_empty();
    if guess && m.council && !m.documents.iter().any(|e| e.is_conciliar()) {
        let ranked = registry.by_subject(&crate::translate::english_terms(&subject), |e| {
            e.is_conciliar()
        });
        let picks: Vec<&Entry> = if ranked.is_empty() {
            registry
                .entries()
                .iter()
                .filter(|e| e.is_conciliar() && e.doc_type.contains("constitution"))
                .collect()
        } else {
            ranked.into_iter().take(3).map(|(e, _)| e).collect()
        };
        for e in picks {
            push(&mut see_also, see_also_of(e));
        }
        missing.push("Second Vatican Council".into());
        guessed = true;
    }
    for pope in m.popes.iter().filter(|_| guess) {
        if m.documents.iter().any(|e| e.author == *pope) {
            continue;
        }
        let english = crate::translate::english_terms(&subject);
        for (e, _) in registry
            .by_subject(&english, |e| e.author == *pope)
            .into_iter()
            .take(3)
        {
            push(&mut see_also, see_also_of(e));
        }
        let query = format!("{pope} {english}");
        for c in retriever
            .catalogue(&query, 10)
            .unwrap_or_default()
            .iter()
            .filter(|c| c.author.as_deref() == Some(pope))
            .take(2)
        {
            push(&mut see_also, see_also_of_catalogue(c));
        }
        missing.push(format!("the writings of {pope}"));
        guessed = true;
    }
    let named_absent = !m.documents.is_empty() || !missing.is_empty();
    let cov = coverage(question, &subject, passages);
    let subject_covered = cov.covered();
    let cov_known = cov.known;
    let (covered, uncovered) = (cov.share, cov.missing);
    let (status, statement) = if named_absent || !nonexistent.is_empty() {
        if !subject_covered {
            missing.extend(uncovered.iter().cloned());
        }
        missing.extend(nonexistent.iter().cloned());
        // Partial: a document the library holds is named too, or the subject is
        // covered (unless the only name is a title that names nothing, or a guess).
        let status = if !held.is_empty()
            || subject_covered && (!m.documents.is_empty() || nonexistent.is_empty() && !guessed)
        {
            Status::Partial
        } else {
            Status::NotInLibrary
        };
        let text = if see_also.is_empty() && !nonexistent.is_empty() {
            statement::nonexistent(lang, &nonexistent)
        } else if guessed && m.documents.is_empty() {
            statement::modern(lang, &see_also)
        } else {
            let mut s = statement::not_held(lang, &see_also);
            if !nonexistent.is_empty() {
                s.push(' ');
                s.push_str(&statement::nonexistent(lang, &nonexistent));
            }
            s
        };
        (status, text)
    } else {
        let modern = if lang == Lang::En {
            registry.subjects_named_in(question)
        } else {
            registry.subjects_named_in(&crate::translate::english_terms(question))
        };
        // The subject phrases no passage speaks of ("in vitro fertilization").
        let mut uncovered_phrases: Vec<&str> = modern
            .iter()
            .flat_map(|(_, phrases)| phrases.iter().copied())
            .filter(|ph| specific(ph) && !passages.iter().any(|p| speaks_of(&p.text, ph)))
            // One search per phrase below: a bounded number, whatever the question lists.
            .take(MAX_SUBJECT_SEARCHES)
            // The library as a whole, in every language, not only the passages gathered:
            // "real presence" is everywhere in it, "in vitro fertilization" nowhere, and
            // "Caritas" names a modern agency but is the Latin texts' word for charity.
            .filter(|ph| {
                !retriever
                    .words_anywhere(ph, WORDS_ANYWHERE_PASSAGES)
                    .unwrap_or_default()
                    .iter()
                    .any(|p| speaks_of(&p.text, ph) || speaks_of(&p.doc_title, ph))
            })
            .collect();
        uncovered_phrases.sort_unstable();
        uncovered_phrases.dedup();
        let modern: Vec<&Entry> = modern
            .iter()
            .filter(|(_, phrases)| phrases.iter().any(|ph| uncovered_phrases.contains(ph)))
            .map(|(e, _)| *e)
            .collect();
        if passages.is_empty() {
            // Nothing found, and nothing named: say so; the registry may still know where to read.
            for e in modern.iter().take(3) {
                push(&mut see_also, see_also_of(e));
            }
            let nothing = crate::framing::nothing_found(lang).to_string();
            (Status::NotInLibrary, nothing)
        } else if !(modern.is_empty() || cov_known && covered >= 0.8) {
            // A subject only the modern documents treat (in vitro fertilisation, nuclear deterrence).
            for e in modern.iter().take(3) {
                push(&mut see_also, see_also_of(e));
            }
            missing.extend(uncovered_phrases.iter().map(|s| s.to_string()));
            (Status::NotInLibrary, statement::modern(lang, &see_also))
        } else if cov_known && covered < 0.34 && uncovered.len() >= 2 {
            missing.extend(uncovered);
            (Status::Partial, statement::uncovered(lang, &missing))
        } else {
            (Status::Answered, String::new())
        }
    };
    Grounding {
        status,
        missing,
        see_also,
        statement,
        subject,
    }
}

/// Passages read for a subject phrase in the whole library: beyond the first places, which
/// a named work or a Bible episode the phrase evokes may fill ("Council of Nicaea" puts
/// Acts 15 first), and beyond the translations a query expands to ("Caritas": charity).
const WORDS_ANYWHERE_PASSAGES: usize = 20;

/// Most subject phrases looked up in the whole library for one question.
const MAX_SUBJECT_SEARCHES: usize = 8;

/// True when `phrase` names a subject of its own ("climate change"), not
/// only words every question has ("the Church", "faith").
fn specific(phrase: &str) -> bool {
    const BROAD: &[&str] = &[
        "faith",
        "god",
        "christ",
        "jesus",
        "church",
        "catholic",
        "christian",
        "christians",
    ];
    content_terms(phrase).iter().any(|t| {
        !BROAD
            .iter()
            .chain(QUESTION_WORDS)
            .chain(DOCUMENT_WORDS)
            .any(|g| stem(g) == *t)
    })
}

/// True when `text` holds every word of `phrase` (stemmed, accents and ligatures aside: the
/// library's "Council of Nicæa" speaks of the Council of Nicaea): the passage speaks of it.
fn speaks_of(text: &str, phrase: &str) -> bool {
    let have = content_terms(&crate::text::plain(text));
    let want = content_terms(&crate::text::plain(phrase));
    !want.is_empty() && want.iter().all(|t| have.contains(t))
}

/// The passages of `passages` that share a word with `subject`: the related
/// passages an answer the library cannot give may still quote.
pub fn related(subject: &str, passages: Vec<Passage>, max: usize) -> Vec<Passage> {
    let terms: BTreeSet<String> = content_terms(&crate::translate::english_terms(subject))
        .into_iter()
        .filter(|t| {
            !QUESTION_WORDS
                .iter()
                .chain(DOCUMENT_WORDS)
                .any(|g| stem(g) == *t)
        })
        .collect();
    passages
        .into_iter()
        .filter(|p| {
            let have = content_terms(&p.text);
            terms.iter().any(|t| have.contains(t))
        })
        .take(max)
        .collect()
}
