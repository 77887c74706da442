//! Query-side understanding for the lexical layer: what a query means beyond
//! its literal words.
//!
//! - [`glossary`]: theological terms in the nine other languages served (Czech,
//!   Chinese, Bengali, Konkani, Latin, Italian, Spanish, Portuguese, French)
//!   translated to English and Latin, so a question in those languages reaches
//!   the mostly English and Latin corpus;
//! - [`archaic`]: archaic and modern English wordings of the same thing
//!   (`thee`/`you`, `repose`/`rest`, Douay and modern Bible names);
//! - [`describe`]: a document named by its title or incipit, an author's work
//!   ("Tertullian's Apology") or a kind of document and its subject ("the
//!   encyclical on the rosary");
//! - [`summa`]: Summa Theologiae article references in their usual spellings
//!   (`ST I-II q.109 a.2`, `Summa 1a 2ae 109, 2`), as the store writes them.
//!
//! - [`proximity`]: neighbouring query words asked for as sloppy phrases, so
//!   a remembered line finds the passage that has its words together;
//! - [`shape`]: a long description in plain words or a short topic, for the
//!   weights of the fusion.
//!
//! [`expand`] gathers all three for [`crate::lexical::build_query`];
//! [`english`] gives the query with its translations, for rankers that only
//! understand English (the dense lists, answer reranking).

pub mod archaic;
pub mod catalogue;
pub mod describe;
pub mod episodes;
pub mod glossary;
pub mod normalize;
pub mod proximity;
pub mod shape;
pub mod summa;
pub mod works;

pub use describe::Described;
pub use summa::SummaRef;

use std::sync::atomic::{AtomicBool, Ordering};

static ENABLED: AtomicBool = AtomicBool::new(true);

/// Turn query expansion on or off for the whole process (on by default).
/// For measuring what it adds (`tests/quality.rs`); servers leave it on.
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// True unless [`set_enabled`] turned query expansion off.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// What a query adds to its own words.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expansion {
    /// English and Latin renderings of terms named in another language
    /// (multi-word ones quoted as phrases).
    pub translations: Vec<String>,
    /// The same concepts' Italian, French, Spanish and Portuguese terms (the
    /// papal texts' other languages), weighed less.
    pub romance: Vec<String>,
    /// Other wordings of the query's English words (archaic ↔ modern).
    pub variants: Vec<String>,
    /// A Summa Theologiae article or question the query names.
    pub summa: Option<SummaRef>,
    /// A title, an author's work or a described document.
    pub described: Option<Described>,
}

impl Expansion {
    /// True when the query adds nothing.
    pub fn is_empty(&self) -> bool {
        self.translations.is_empty()
            && self.romance.is_empty()
            && self.variants.is_empty()
            && self.summa.is_none()
            && self.described.is_none()
    }
}

/// Everything [`crate::lexical::build_query`] adds to a query.
pub fn expand(q: &str) -> Expansion {
    if !ENABLED.load(Ordering::Relaxed) {
        return Expansion::default();
    }
    let n = normalize::Normalized::new(q);
    let translations = glossary::global().translate(&n);
    let romance = glossary::global().romance(&n);
    let variants = archaic::variants(&n);
    let summa = summa::parse(q);
    Expansion {
        translations,
        romance,
        variants,
        described: summa.is_none().then(|| describe::parse(q)).flatten(),
        summa,
    }
}

/// The query followed by the English (and Latin) renderings of the terms it
/// names in another language; the query itself when there are none.
pub fn english(q: &str) -> String {
    let t = glossary::global().translate(&normalize::Normalized::new(q));
    if t.is_empty() {
        return q.to_string();
    }
    let words: Vec<&str> = t.iter().map(|s| s.trim_matches('"')).collect();
    format!("{q} {}", words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_each_kind() {
        let e = expand("Co učí církev o milosti?");
        assert!(e.translations.iter().any(|t| t == "grace"), "{e:?}");
        assert!(
            e.translations
                .iter()
                .any(|t| t.eq_ignore_ascii_case("church")),
            "{e:?}"
        );
        let e = expand("our heart is restless until it rests in you");
        assert!(e.variants.iter().any(|t| t == "thee"), "{e:?}");
        assert!(e.variants.iter().any(|t| t == "repose"), "{e:?}");
        assert!(e.translations.is_empty(), "{e:?}");
        let e = expand("ST I-II q.109 a.2");
        assert_eq!(
            e.summa.map(|s| s.reference()),
            Some("I-II, q. 109, a. 2".into())
        );
        assert!(expand("").is_empty());
    }

    #[test]
    fn english_appends_translations() {
        let q = english("Che cosa insegna la Chiesa sulla grazia?");
        assert!(q.starts_with("Che cosa"), "{q}");
        assert!(q.contains("grace") && q.contains("Church"), "{q}");
        assert_eq!(english("What is grace?"), "What is grace?");
    }
}
