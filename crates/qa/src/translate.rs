//! Questions in other languages, for retrieval: the corpus is mostly English
//! and Latin, so a question in Czech, Chinese, Bengali, Konkani, Latin,
//! Italian, Spanish, Portuguese or French is searched with its English
//! rendering beside its own words.
//!
//! Two sources of English: the glossary of theological terms shipped with the
//! corpus crate (`ecclesia_corpus::query::glossary`, feature `corpus`; without
//! it the question is searched as written), and the configured model's
//! translation of the whole question when a model backend is configured
//! ([`crate::Generator::translate_query`]).

use crate::lang::{detect, Lang};

/// The question followed by the English renderings of the theological terms
/// it names in another language (the question itself when there are none).
pub fn english_terms(question: &str) -> String {
    #[cfg(feature = "corpus")]
    {
        ecclesia_corpus::query::english(question)
    }
    #[cfg(not(feature = "corpus"))]
    {
        question.to_string()
    }
}

/// The text to search for `question`: its words, a model's English
/// translation when one was made, and the glossary's renderings.
pub fn search_text(question: &str, model_translation: Option<&str>) -> String {
    let base = english_terms(question);
    match model_translation.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) if detect(question) != Lang::En => format!("{t} {base}"),
        _ => base,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_translation_leads() {
        let s = search_text(
            "Co učí církev o milosti?",
            Some("What does the Church teach about grace?"),
        );
        assert!(
            s.starts_with("What does the Church teach about grace?"),
            "{s}"
        );
        assert!(s.contains("Co učí"), "{s}");
        assert_eq!(
            search_text("What is grace?", Some("ignored")),
            "What is grace?"
        );
        assert_eq!(search_text("What is grace?", None), "What is grace?");
    }

    #[cfg(feature = "corpus")]
    #[test]
    fn glossary_terms_are_added() {
        let s = english_terms("Che cosa insegna la Chiesa sulla grazia?");
        assert!(s.contains("grace"), "{s}");
    }
}
