//! Folding for name matching: lower case, Latin accents removed, every run of
//! characters that are neither letters nor digits made one space, with a
//! space at each end so that `" name "` matches whole words only. Only the
//! combining diacritics of Latin, Greek and Cyrillic letters (U+0300–U+036F)
//! are removed: the vowel signs of Bengali and Devanagari are letters of the name.

use unicode_normalization::UnicodeNormalization;

/// `" evangelium vitæ "` from `"Evangelium Vitæ"` (ligatures are kept); `" "` when
/// empty: [`ecclesia_fold::padded_words`].
pub fn fold(s: &str) -> String {
    ecclesia_fold::padded_words(s)
}

/// True for the consonants of Devanagari and Bengali (nukta forms decompose to their base).
fn is_indic_consonant(c: char) -> bool {
    matches!(c as u32, 0x0915..=0x0939 | 0x0995..=0x09B9 | 0x09DC..=0x09DF)
}

/// True when `s` is written (at least partly) in Devanagari or Bengali.
pub fn is_indic(s: &str) -> bool {
    s.chars().any(|c| matches!(c as u32, 0x0900..=0x09FF))
}

/// The consonant skeleton of Devanagari and Bengali words (`" ल द त स "` for
/// both "लौदातो सी" and "लाउदातो सी"): transliterated Latin titles are spelled
/// with many vowels but the same consonants. Words without a consonant drop out.
pub fn indic_skeleton(s: &str) -> String {
    let mut out = String::from(" ");
    for word in s.split(|c: char| !ecclesia_fold::is_word_char(c)) {
        let consonants: String = word.nfd().filter(|c| is_indic_consonant(*c)).collect();
        if !consonants.is_empty() {
            out.push_str(&consonants);
            out.push(' ');
        }
    }
    out
}

/// True when `c` is a Han character (Chinese names are matched without word spaces).
pub use ecclesia_fold::is_han;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_accents_and_punctuation() {
        assert_eq!(fold("Laudato si’!"), " laudato si ");
        assert_eq!(fold("Catéchisme de l'Église"), " catechisme de l eglise ");
        assert_eq!(fold(""), " ");
        assert_eq!(fold("天主教教理"), " 天主教教理 ");
        // Vowel signs stay: these are two different names.
        assert_ne!(fold("लाउदातो सी"), fold("लउदत स"));
        assert!(fold("লাউদাতো সি").contains('\u{9be}'));
        assert_eq!(indic_skeleton("लौदातो सी"), indic_skeleton("लाउदातो सी"));
        assert_eq!(indic_skeleton("'लौदातो सी' हातूंत"), " लदत स हतत ");
        assert_eq!(indic_skeleton("Laudato si"), " ");
        assert_eq!(fold("লাউদাতো সি"), fold("লাউদাতো  সি!"));
    }
}
