//! The comparable form of queries and glossary terms: lower case, accents of
//! Latin letters removed (`církev` → `cirkev`), other scripts kept as written
//! (Chinese, Bengali, Devanagari: their vowel signs are part of the word),
//! words split on anything that is not a letter, digit or mark.

/// A query in comparable form.
#[derive(Debug, Clone)]
pub struct Normalized {
    /// The folded words.
    pub words: Vec<String>,
    /// The folded text, punctuation kept ([`ecclesia_fold::latin`]; for
    /// Chinese, which has no spaces).
    pub folded: String,
}

/// Folded form of `s` (see the module docs), words joined by single spaces:
/// [`ecclesia_fold::latin_words`].
pub fn fold(s: &str) -> String {
    ecclesia_fold::latin_words(s)
}

pub use ecclesia_fold::{is_han, is_word_char};

impl Normalized {
    /// Normalise `s`.
    pub fn new(s: &str) -> Self {
        let folded = ecclesia_fold::latin(s);
        let words = folded
            .split(|c: char| !is_word_char(c))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        Normalized { words, folded }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_latin_keeps_other_scripts() {
        assert_eq!(fold("Co učí Církev?"), "co uci cirkev");
        assert_eq!(fold("L'Église"), "l eglise");
        assert_eq!(fold("অনুগ্রহ কী?"), "অনুগ্রহ কী");
        assert_eq!(fold("恩典"), "恩典");
    }
}
