//! [`Entry`]: one document of the registry, as the data file writes it.

use serde::{Deserialize, Serialize};

/// One document of the modern Magisterium: facts about it, never its text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Stable slug (`"evangelium-vitae"`).
    pub id: String,
    /// The official title, usually the Latin incipit (`"Evangelium vitae"`).
    pub title_la: String,
    /// The English title or a descriptive name (`"The Gospel of Life"`).
    pub title_en: String,
    /// Other names people use: short names, abbreviations, translations.
    #[serde(default)]
    pub names: Vec<String>,
    /// The pope, council or dicastery that issued it.
    pub author: String,
    /// ISO date of signing or promulgation.
    pub date: String,
    /// `encyclical`, `apostolic exhortation`, `dogmatic constitution`, …
    #[serde(rename = "type")]
    pub doc_type: String,
    /// The official link.
    pub url: String,
    /// True when the link was taken from the papal-documents catalogue rather than written by hand.
    #[serde(default)]
    pub url_checked: bool,
    /// A few subject phrases in English, our own words.
    #[serde(default)]
    pub subjects: Vec<String>,
    /// Where the row's facts come from.
    pub source: String,
}

impl Entry {
    /// The year of [`Entry::date`].
    pub fn year(&self) -> Option<i32> {
        self.date.get(..4)?.parse().ok()
    }

    /// `Evangelium vitae (John Paul II, 1995)`.
    pub fn label(&self) -> String {
        match self.year() {
            Some(y) => format!("{} ({}, {y})", self.title_la, self.author),
            None => format!("{} ({})", self.title_la, self.author),
        }
    }

    /// Every name of the document: both titles and the other names.
    pub fn all_names(&self) -> impl Iterator<Item = &str> {
        [self.title_la.as_str(), self.title_en.as_str()]
            .into_iter()
            .chain(self.names.iter().map(String::as_str))
    }

    /// True for the documents of the Second Vatican Council.
    pub fn is_conciliar(&self) -> bool {
        self.author == "Second Vatican Council"
    }
}
