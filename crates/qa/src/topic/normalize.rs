//! The form questions and lexicon terms are compared in: lowercase, accents of
//! Latin letters removed (`církev` → `cirkev`, `grâce` → `grace`), other scripts kept
//! as written (Chinese, Bengali, Devanagari), words separated by single spaces.
//!
//! A lexicon term is matched in one of four ways, read from its spelling:
//! - a term with a Han (CJK) character: as a substring (Chinese has no spaces);
//! - a term with a space: as a phrase of whole words;
//! - a term ending in `*`: as the beginning of a word (`peccat*` matches
//!   `peccato`, `peccati`, `peccatum`), for inflected languages;
//! - any other term: as a whole word.

/// A question in comparable form.
#[derive(Debug, Clone)]
pub struct Normalized {
    /// The folded text with a space at each end (`" co uci cirkev o milosti "`).
    padded: String,
    /// Its words.
    words: Vec<String>,
}

pub use ecclesia_fold::is_han;

/// Folded form of `s` (see the module docs): [`ecclesia_fold::latin_words`].
pub fn fold(s: &str) -> String {
    ecclesia_fold::latin_words(s)
}

/// A folded word against a lexicon word (`stem*` matches its continuations).
fn word_matches(word: &str, term: &str) -> bool {
    match term.strip_suffix('*') {
        Some(stem) => word.starts_with(stem),
        None => word == term,
    }
}

impl Normalized {
    /// Normalize a question.
    pub fn new(question: &str) -> Self {
        let folded = fold(question);
        let words = folded.split(' ').map(str::to_string).collect();
        Normalized {
            padded: format!(" {folded} "),
            words,
        }
    }

    /// The folded words, in order.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// Whether `term` (already folded; see the module docs) occurs.
    pub fn has(&self, term: &str) -> bool {
        if term.chars().any(is_han) {
            return self.padded.contains(term);
        }
        if term.contains(' ') {
            return self.padded.contains(&format!(" {term} ")) || self.has_loose(term);
        }
        self.words.iter().any(|w| word_matches(w, term))
    }

    /// A phrase's words in order with at most one other word between each
    /// ("is it *ever* allowed" for "is it allowed"), or, for a phrase of two
    /// words, in either order ("when is a *war just*" for "just war", "the
    /// penalty *of* death" for "death penalty").
    fn has_loose(&self, term: &str) -> bool {
        let parts: Vec<&str> = term.split(' ').collect();
        let ordered = |parts: &[&str]| {
            self.words.iter().enumerate().any(|(start, w)| {
                if !word_matches(w, parts[0]) {
                    return false;
                }
                let mut at = start;
                parts[1..].iter().all(|p| {
                    let next = (at + 1..(at + 3).min(self.words.len()))
                        .find(|&i| word_matches(&self.words[i], p));
                    next.map(|i| at = i).is_some()
                })
            })
        };
        ordered(&parts) || (parts.len() == 2 && ordered(&[parts[1], parts[0]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_latin_keeps_other_scripts() {
        assert_eq!(fold("Co učí církev o milosti?"), "co uci cirkev o milosti");
        assert_eq!(fold("Che cos'è la grazia?"), "che cos e la grazia");
        assert_eq!(
            fold("教会关于恩典的教导是什么？"),
            "教会关于恩典的教导是什么"
        );
        assert_eq!(fold("গির্জা কী শিক্ষা দেয়?"), "গির্জা কী শিক্ষা দেয়");
        assert_eq!(fold("Qu'est-ce que le péché?"), "qu est ce que le peche");
    }

    #[test]
    fn four_ways_of_matching() {
        let n = Normalized::new("Quid docet Ecclesia de peccato originali? 恩典");
        assert!(n.has("peccat*"));
        assert!(n.has("ecclesia"));
        assert!(n.has("peccato originali"));
        assert!(n.has("恩典"));
        assert!(!n.has("eccl"));
        assert!(!n.has("docet ecclesia de gratia"));
    }

    #[test]
    fn phrases_with_a_word_between_or_turned_round() {
        let n = Normalized::new("Is it ever allowed to tell a lie? When is a war just?");
        assert!(n.has("is it allowed"));
        assert!(n.has("just war"));
        assert!(!n.has("is it wrong"));
        let n = Normalized::new("Is the penalty of death ever right?");
        assert!(n.has("death penalty"));
        // two words between is too far; three-word phrases keep their order
        assert!(!Normalized::new("is it really very allowed").has("is it allowed"));
        assert!(!Normalized::new("allowed it is").has("is it allowed"));
    }
}
