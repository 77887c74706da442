//! [`Passage`] and the [`Retriever`] trait: the small surface the answering
//! pipeline needs from a passage store. The corpus crate is adapted onto it in
//! the skills crate; [`MemoryRetriever`] serves tests and tiny corpora.

use crate::error::QaError;
use crate::text::{content_terms, term_overlap};
use serde::{Deserialize, Serialize};

/// One retrievable passage with everything a citation needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Passage {
    /// Document id, usable with `document_fetch`.
    pub doc_id: String,
    /// Document title (`"Mirae Caritatis"`, `"The Gospel of John"`).
    pub doc_title: String,
    /// Author (`"Leo XIII"`, `"Augustine of Hippo"`), when known.
    #[serde(default)]
    pub author: Option<String>,
    /// Year of the document, when known.
    #[serde(default)]
    pub year: Option<i32>,
    /// Document type as the corpus names it (`encyclical`, `scripture`,
    /// `commentary`, `patristic`, `catechism`, …); drives [`SourceKind`].
    #[serde(default)]
    pub doc_type: String,
    /// The passage's reference inside its document (`"34"`, `"Q. 12"`, `"John 6:51"`).
    #[serde(default)]
    pub reference: Option<String>,
    /// The nearest heading above the passage.
    #[serde(default)]
    pub heading: Option<String>,
    /// The passage text, exactly as stored (citations quote substrings of it).
    pub text: String,
    /// Link to the original.
    #[serde(default)]
    pub source_url: Option<String>,
    /// Retrieval score (higher is better; only comparable within one result list).
    #[serde(default)]
    pub score: f32,
    /// True for documents of the Magisterium (papal documents, councils, catechisms).
    #[serde(default)]
    pub magisterial: bool,
    /// True when the text is a machine translation (shown in attributions, ranked lower).
    #[serde(default)]
    pub machine_translated: bool,
    /// Position of the passage in its document, when the store has one (for neighbours).
    #[serde(default)]
    pub index: Option<usize>,
}

/// The kinds of source an answer groups its passages by, in the order shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SourceKind {
    /// The Bible.
    Scripture,
    /// Papal and conciliar documents.
    Magisterium,
    /// Catechisms.
    Catechism,
    /// The Church Fathers and other patristic writers.
    Fathers,
    /// Later theologians and Doctors (the Summa, scholastic commentaries).
    Theology,
    /// Commentaries (Haydock, patristic verse commentaries).
    Commentary,
    /// Anything else an operator loaded.
    Other,
}

impl SourceKind {
    /// The heading used for this group in extractive answers.
    pub fn heading(self) -> &'static str {
        match self {
            SourceKind::Scripture => "Sacred Scripture",
            SourceKind::Magisterium => "The Magisterium",
            SourceKind::Catechism => "The Catechism",
            SourceKind::Fathers => "The Church Fathers",
            SourceKind::Theology => "Theologians and Doctors of the Church",
            SourceKind::Commentary => "Commentary",
            SourceKind::Other => "Other sources",
        }
    }

    /// A short plural noun for the lead sentence.
    pub fn noun(self) -> &'static str {
        match self {
            SourceKind::Scripture => "Scripture",
            SourceKind::Magisterium => "papal documents",
            SourceKind::Catechism => "the catechism",
            SourceKind::Fathers => "the Church Fathers",
            SourceKind::Theology => "the theologians",
            SourceKind::Commentary => "commentary",
            SourceKind::Other => "other writings",
        }
    }
}

impl Passage {
    /// The kind of source, from the document type and the magisterial flag.
    pub fn kind(&self) -> SourceKind {
        let t = self.doc_type.to_ascii_lowercase();
        if t.contains("scripture") || t == "bible" || t.contains("verse") {
            SourceKind::Scripture
        } else if t.contains("catechism") {
            SourceKind::Catechism
        } else if t.contains("commentary") || t.contains("note") {
            SourceKind::Commentary
        } else if t.contains("patristic") || t.contains("father") {
            SourceKind::Fathers
        } else if t.contains("theolog") || t.contains("scholastic") {
            SourceKind::Theology
        } else if self.magisterial
            || [
                "encyclical",
                "letter",
                "apostolic",
                "constitution",
                "exhortation",
                "speech",
                "homily",
                "bull",
                "brief",
                "motu",
                "council",
                "decree",
                "message",
            ]
            .iter()
            .any(|k| t.contains(k))
        {
            SourceKind::Magisterium
        } else {
            SourceKind::Other
        }
    }

    /// A stable key for de-duplication: document and reference (or text start).
    pub fn key(&self) -> String {
        match &self.reference {
            Some(r) => format!("{}#{}", self.doc_id, r),
            None => {
                let head: String = self.text.chars().take(64).collect();
                format!("{}#{}", self.doc_id, head)
            }
        }
    }

    /// How the passage is named in an answer: `Leo XIII, Mirae Caritatis (1902), §5`.
    pub fn attribution(&self) -> String {
        let mut s = self.attribution_plain();
        if self.machine_translated {
            s.push_str(" [machine translation]");
        }
        s
    }

    fn attribution_plain(&self) -> String {
        let mut s = String::new();
        if let Some(a) = self.author.as_deref().filter(|a| !a.trim().is_empty()) {
            if self.kind() != SourceKind::Scripture {
                s.push_str(a.trim());
                s.push_str(", ");
            }
        }
        s.push_str(self.doc_title.trim());
        if let Some(y) = self.year {
            if self.kind() != SourceKind::Scripture {
                s.push_str(&format!(" ({y})"));
            }
        }
        if let Some(r) = self.reference.as_deref().filter(|r| !r.trim().is_empty()) {
            let r = r.trim();
            if !self.doc_title.contains(r) {
                if r.chars().all(|c| c.is_ascii_digit()) || r.starts_with('¶') {
                    s.push_str(&format!(", §{r}"));
                } else {
                    s.push_str(&format!(", {r}"));
                }
            }
        }
        s
    }
}

/// What the answering pipeline needs from a passage store.
///
/// Implementations must be cheap to call several times per question and
/// return passages whose `text` is exactly the stored text (citations quote it).
pub trait Retriever: Send + Sync {
    /// Hybrid (lexical and dense) search over all passages, best first.
    fn search(&self, query: &str, k: usize) -> Result<Vec<Passage>, QaError>;

    /// Passages for the words of `query` (a lexical search, not the meaning), in every
    /// language the store holds, texts only (no catalogue entries): whether the library
    /// speaks of something at all. The default is [`search`](Retriever::search).
    fn words_anywhere(&self, query: &str, k: usize) -> Result<Vec<Passage>, QaError> {
        self.search(query, k)
    }

    /// Search inside one document, best first.
    fn search_in_document(
        &self,
        doc_id: &str,
        query: &str,
        k: usize,
    ) -> Result<Vec<Passage>, QaError>;

    /// The passages up to `radius` places before and after `passage` in its document.
    fn neighbours(&self, passage: &Passage, radius: usize) -> Result<Vec<Passage>, QaError>;

    /// Passages whose reference is `reference` (`"John 6:51"`): in one document
    /// when `doc_id` is given, else across the corpus (the verse in each Bible,
    /// the commentaries on it).
    fn by_reference(&self, reference: &str, doc_id: Option<&str>) -> Result<Vec<Passage>, QaError>;

    /// Search restricted to one kind of source (the Magisterium: papal
    /// documents and catechisms; Scripture; …), best first, so that each kind
    /// the corpus holds can compete even when another dominates the general
    /// hits. The default finds none.
    fn search_kind(
        &self,
        query: &str,
        kind: SourceKind,
        k: usize,
    ) -> Result<Vec<Passage>, QaError> {
        let _ = (query, kind, k);
        Ok(Vec::new())
    }

    /// Documents whose title the question names (`"What does Rerum Novarum say…"`),
    /// as `(doc_id, title)`; empty when none.
    fn documents_named_in(&self, question: &str) -> Result<Vec<(String, String)>, QaError>;

    /// Catalogue entries (documents known by title and link, without text)
    /// for `query`, best first. The default knows none.
    fn catalogue(&self, query: &str, k: usize) -> Result<Vec<CatalogueEntry>, QaError> {
        let _ = (query, k);
        Ok(Vec::new())
    }
}

/// A document the store knows by its metadata only (no text to quote).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CatalogueEntry {
    /// Document id, usable with `document_fetch`.
    pub doc_id: String,
    /// Title.
    pub title: String,
    /// Author (a pope's name).
    pub author: Option<String>,
    /// Year.
    pub year: Option<i32>,
    /// Document type (`encyclical`, `speech`, …).
    pub doc_type: String,
    /// Where to read it.
    pub url: Option<String>,
}

/// An in-memory [`Retriever`] over a list of passages (tests, tiny corpora):
/// lexical scoring by content-term overlap, neighbours by list order within a document.
#[derive(Debug, Clone, Default)]
pub struct MemoryRetriever {
    passages: Vec<Passage>,
}

impl MemoryRetriever {
    /// A retriever over `passages`, in document order.
    pub fn new(passages: Vec<Passage>) -> Self {
        MemoryRetriever { passages }
    }

    /// Every passage held.
    pub fn passages(&self) -> &[Passage] {
        &self.passages
    }

    fn rank<'a>(&self, query: &str, items: impl Iterator<Item = &'a Passage>) -> Vec<Passage> {
        let terms = content_terms(query);
        let mut out: Vec<Passage> = items
            .filter_map(|p| {
                let hay = format!(
                    "{} {} {}",
                    p.doc_title,
                    p.heading.as_deref().unwrap_or(""),
                    p.text
                );
                let s = term_overlap(&terms, &hay);
                (s > 0.0).then(|| {
                    let mut p = p.clone();
                    p.score = s;
                    p
                })
            })
            .collect();
        out.sort_by(|a, b| b.score.total_cmp(&a.score));
        out
    }
}

impl Retriever for MemoryRetriever {
    fn search(&self, query: &str, k: usize) -> Result<Vec<Passage>, QaError> {
        let mut v = self.rank(query, self.passages.iter());
        v.truncate(k);
        Ok(v)
    }

    fn search_kind(
        &self,
        query: &str,
        kind: SourceKind,
        k: usize,
    ) -> Result<Vec<Passage>, QaError> {
        let mut v = self.rank(query, self.passages.iter().filter(|p| p.kind() == kind));
        v.truncate(k);
        Ok(v)
    }

    fn search_in_document(
        &self,
        doc_id: &str,
        query: &str,
        k: usize,
    ) -> Result<Vec<Passage>, QaError> {
        let mut v = self.rank(query, self.passages.iter().filter(|p| p.doc_id == doc_id));
        v.truncate(k);
        Ok(v)
    }

    fn neighbours(&self, passage: &Passage, radius: usize) -> Result<Vec<Passage>, QaError> {
        let doc: Vec<&Passage> = self
            .passages
            .iter()
            .filter(|p| p.doc_id == passage.doc_id)
            .collect();
        let Some(pos) = doc.iter().position(|p| p.key() == passage.key()) else {
            return Ok(Vec::new());
        };
        let lo = pos.saturating_sub(radius);
        let hi = (pos + radius + 1).min(doc.len());
        Ok((lo..hi)
            .filter(|&i| i != pos)
            .map(|i| doc[i].clone())
            .collect())
    }

    fn by_reference(&self, reference: &str, doc_id: Option<&str>) -> Result<Vec<Passage>, QaError> {
        let want = reference.trim().to_lowercase();
        Ok(self
            .passages
            .iter()
            .filter(|p| doc_id.is_none_or(|d| p.doc_id == d))
            .filter(|p| {
                p.reference
                    .as_deref()
                    .is_some_and(|r| r.trim().to_lowercase() == want)
            })
            .cloned()
            .collect())
    }

    fn documents_named_in(&self, question: &str) -> Result<Vec<(String, String)>, QaError> {
        let q = question.to_lowercase();
        let mut out: Vec<(String, String)> = Vec::new();
        for p in &self.passages {
            let t = p.doc_title.to_lowercase();
            if t.len() >= 6
                && q.contains(&t)
                && p.kind() != SourceKind::Scripture
                && !out.iter().any(|(id, _)| id == &p.doc_id)
            {
                out.push((p.doc_id.clone(), p.doc_title.clone()));
            }
        }
        Ok(out)
    }
}
