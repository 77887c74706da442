//! The document model: documents, passages, and the metadata a citation needs.

use serde::{Deserialize, Serialize};

/// Document types that count as magisterial teaching for the "magisterial only" filter.
pub const MAGISTERIAL_TYPES: &[&str] = &[
    "encyclical",
    "apostolic exhortation",
    "apostolic constitution",
    "apostolic letter",
    "motu proprio",
    "bull",
    "brief",
    "letter",
    "speech",
    "homily",
    "message",
    "audience",
    "angelus",
    "catechism",
    "council",
    "decree",
    "instruction",
    "declaration",
    "constitution",
];

/// True when documents of this type are magisterial (papal or conciliar acts, catechisms).
pub fn is_magisterial_type(doc_type: &str) -> bool {
    MAGISTERIAL_TYPES.contains(&doc_type)
}

/// What a passage is within its document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PassageKind {
    /// Running text (a paragraph, verse, article part, question and answer).
    #[default]
    Body,
    /// A footnote or endnote.
    Note,
    /// The catalogue entry of a metadata-only document (no text available).
    Metadata,
}

impl PassageKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            PassageKind::Body => "body",
            PassageKind::Note => "note",
            PassageKind::Metadata => "metadata",
        }
    }

    /// Parse a stored name (unknown names read as `Body`).
    pub fn parse(s: &str) -> Self {
        match s {
            "note" => PassageKind::Note,
            "metadata" => PassageKind::Metadata,
            _ => PassageKind::Body,
        }
    }
}

/// One citable unit of a document: a numbered paragraph, a verse, a catechism
/// question, an article part of the Summa, or a chunk of a long work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Passage {
    /// Position in the document, from 0.
    pub index: usize,
    /// How to cite it: `"34"`, `"Q. 12"`, `"John 6:51"`, `"I, q. 2, a. 3, co."`, `"§7"`.
    pub reference: String,
    /// The heading the passage stands under, when the source has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<String>,
    /// Body, note or catalogue entry.
    pub kind: PassageKind,
    /// The text.
    pub text: String,
    /// A source URL for this passage when it differs from the document's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// A document's metadata (everything but the passages).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct DocumentMeta {
    /// Stable id, derived from the source's own keys or paths.
    pub id: String,
    /// Title.
    pub title: String,
    /// Author (pope, Father, commentator), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Date (ISO `YYYY-MM-DD`, or a year), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Year, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// Type: `encyclical`, `letter`, `speech`, `homily`, `catechism`, `scripture`,
    /// `commentary`, `patristic`, `theology`, … (lower case).
    #[serde(rename = "type")]
    pub doc_type: String,
    /// ISO 639-1 language code (`en`, `la`, `it`, …).
    pub language: String,
    /// Where the text can be read online.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
    /// The dataset it came from (`corpus/church-fathers`, `operator:/path`).
    pub dataset: String,
    /// Licence or rights note of the source.
    pub licence: String,
    /// For a part of a very large work: the id of the work's first part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
    /// True for catalogue entries without text.
    #[serde(default)]
    pub metadata_only: bool,
    /// True when the source says the text is a machine translation.
    #[serde(default)]
    pub machine_translated: bool,
    /// True for magisterial documents (papal and conciliar acts, catechisms).
    #[serde(default)]
    pub magisterial: bool,
    /// Anything else the source gives (other-language URLs, upstream ids).
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// Number of passages.
    #[serde(default)]
    pub passage_count: usize,
    /// Characters of text in all passages.
    #[serde(default)]
    pub chars: usize,
}

/// A document with its passages, as importers produce it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    /// Metadata.
    pub meta: DocumentMeta,
    /// The body, in order.
    pub passages: Vec<Passage>,
}

impl Document {
    /// A new document with no passages.
    pub fn new(meta: DocumentMeta) -> Self {
        Document {
            meta,
            passages: Vec::new(),
        }
    }

    /// Append a passage, numbering it.
    pub fn push(&mut self, reference: impl Into<String>, heading: Option<String>, text: String) {
        self.push_kind(reference, heading, text, PassageKind::Body);
    }

    /// Append a passage of a given kind, numbering it.
    pub fn push_kind(
        &mut self,
        reference: impl Into<String>,
        heading: Option<String>,
        text: String,
        kind: PassageKind,
    ) {
        let index = self.passages.len();
        self.passages.push(Passage {
            index,
            reference: reference.into(),
            heading,
            kind,
            text,
            url: None,
        });
    }
}
