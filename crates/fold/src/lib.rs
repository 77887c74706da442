//! Text folding: the one place that decides how text is lowered, stripped of its
//! accents and split into words before it is compared.
//!
//! There is one character table ([`letter`]: the Latin letters and ligatures
//! that Unicode does not decompose, `æ` → `ae`, `ß` → `ss`, `ł` → `l`, …) and a
//! few named variants. They differ on purpose, because the stores and tables of
//! each domain were built with one of them and matching only works when both
//! sides fold alike:
//!
//! | variant              | accents removed                       | [`letter`] table | punctuation        | other scripts                          |
//! |----------------------|---------------------------------------|------------------|--------------------|----------------------------------------|
//! | [`strip_marks`]      | every combining mark (NFD)            | no               | kept               | marks removed (Indic vowel signs too)  |
//! | [`strip_diacritics`] | U+0300–U+036F (NFD)                   | no               | kept               | Greek/Cyrillic accents removed, Indic marks kept |
//! | [`plain`]            | U+0300–U+036F (NFD)                   | yes              | kept               | as [`strip_diacritics`]                |
//! | [`latin`]            | Latin letters only (canonical base)   | yes, and `’` → `'` | kept             | kept as written (Greek accents too)    |
//! | [`latin_words`]      | as [`latin`]                          | yes              | word separator     | kept as written                        |
//! | [`words`]            | none                                  | no               | word separator     | kept; marks separate words (split before lowering) |
//! | [`name_words`]       | every combining mark (NFKD)           | yes              | word separator     | marks removed; compatibility forms (`ﬁ`, `²`, full-width) decomposed |
//! | [`padded_words`]     | U+0300–U+036F (NFD)                   | no               | word separator, padded with a space at each end | Indic marks kept in the word |
//!
//! All variants lower the case; all keep digits; none transliterates
//! (Greek, Cyrillic, Chinese, Bengali stay in their script).

use unicode_normalization::char::{decompose_canonical, is_combining_mark};
use unicode_normalization::UnicodeNormalization;

/// The Latin letters and ligatures that canonical decomposition leaves whole,
/// with their plain form (lower case). Capital sharp s (`ẞ`) is not listed: it
/// lowers to `ß` after the table is read, as it always has.
const LETTERS: &[(char, &str)] = &[
    ('æ', "ae"),
    ('Æ', "ae"),
    ('œ', "oe"),
    ('Œ', "oe"),
    ('ß', "ss"),
    ('ł', "l"),
    ('Ł', "l"),
    ('ø', "o"),
    ('Ø', "o"),
    ('đ', "d"),
    ('Đ', "d"),
    ('ð', "d"),
    ('Ð', "d"),
    ('ı', "i"),
    ('þ', "th"),
    ('Þ', "th"),
];

/// The plain form of a letter that Unicode does not decompose (`'Æ'` →
/// `Some("ae")`, `'ł'` → `Some("l")`), `None` for every other character.
pub fn letter(c: char) -> Option<&'static str> {
    LETTERS.iter().find(|(l, _)| *l == c).map(|(_, s)| *s)
}

/// The typographic apostrophes (`’`, `ʼ`, `‘`) that [`latin`] writes as `'`.
fn is_apostrophe(c: char) -> bool {
    matches!(c, '\u{2019}' | '\u{02BC}' | '\u{2018}')
}

/// True for the combining diacritics of Latin, Greek and Cyrillic (U+0300–U+036F).
pub fn is_diacritic(c: char) -> bool {
    ('\u{0300}'..='\u{036F}').contains(&c)
}

/// True for a character that is part of a word in [`latin_words`] and
/// [`padded_words`]: a letter, a digit, or a combining mark (the vowel signs of
/// Bengali and Devanagari are marks, not letters, in Unicode).
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// True for Han (Chinese) characters, which are matched without word spaces.
pub fn is_han(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

/// Lower case, every combining mark removed after canonical decomposition (NFD);
/// punctuation, ligatures and undecomposable letters kept (`"Thérèse, Æ"` →
/// `"therese, æ"`). Indic vowel signs and Japanese voicing marks are marks too
/// and are removed; Hangul comes out as its jamo. ASCII input is only lowered.
/// This is the uncased BERT normalisation, and the form of the corpus index.
pub fn strip_marks(s: &str) -> String {
    // ASCII has nothing to decompose: the same result without the decomposition.
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    s.nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Lower case (of the whole text, so a final capital sigma becomes `ς`), the
/// diacritics U+0300–U+036F removed after NFD; everything else kept as it is
/// decomposed: punctuation, ligatures (`æ` stays), Indic vowel signs
/// (`"Sáo Tomé!"` → `"sao tome!"`).
pub fn strip_diacritics(s: &str) -> String {
    s.nfd()
        .filter(|c| !is_diacritic(*c))
        .collect::<String>()
        .to_lowercase()
}

/// Lower case, the diacritics U+0300–U+036F removed after NFD, the [`letter`]
/// table applied (`"Nicæa"` → `"nicaea"`, `"Łódź"` → `"lodz"`); punctuation
/// and the marks of other scripts kept.
pub fn plain(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.nfd().filter(|c| !is_diacritic(*c)) {
        match letter(c) {
            Some(l) => out.push_str(l),
            None => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// One character of [`latin`].
fn push_latin(c: char, out: &mut String) {
    if let Some(l) = letter(c) {
        out.push_str(l);
    } else if is_apostrophe(c) {
        out.push('\'');
    } else if (c as u32) < 0x0250 || (0x1E00..0x1F00).contains(&(c as u32)) {
        let mut base = None;
        decompose_canonical(c, |d| {
            if base.is_none() && !is_combining_mark(d) {
                base = Some(d);
            }
        });
        out.extend(base.unwrap_or(c).to_lowercase());
    } else {
        out.extend(c.to_lowercase());
    }
}

/// Lower case; Latin letters (below U+0250 and U+1E00–U+1EFF) reduced to their
/// base letter, the [`letter`] table applied, typographic apostrophes written
/// `'`; every other character kept (punctuation, and other scripts with their
/// accents and vowel signs: `"Co učí Církev? Ἰησοῦς"` → `"co uci cirkev? ἰησοῦς"`).
pub fn latin(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_latin(c, &mut out);
    }
    out
}

/// [`latin`], then split into words on every character that is not a
/// [word character](is_word_char), joined by single spaces
/// (`"Qu'est-ce que le péché?"` → `"qu est ce que le peche"`).
pub fn latin_words(s: &str) -> String {
    join_words(latin(s).split(|c: char| !is_word_char(c)))
}

/// Split into words on every character that is not a letter or a digit, each
/// word lowered character by character, joined by single spaces: accents and
/// ligatures are kept (`"Thérèse — de Lisieux."` → `"thérèse de lisieux"`).
pub fn words(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(w.chars().flat_map(char::to_lowercase));
    }
    out
}

/// Names: compatibility decomposition (NFKD: `ﬁ` → `fi`, `²` → `2`), every
/// combining mark removed, the [`letter`] table applied, lower case, every
/// other character a word break; words joined by single spaces
/// (`"Karol Wojtyła"` → `"karol wojtyla"`, `"O’Malley"` → `"o malley"`).
pub fn name_words(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.nfkd().filter(|c| !is_combining_mark(*c)) {
        match letter(c) {
            Some(l) => out.push_str(l),
            None if c.is_alphanumeric() => out.extend(c.to_lowercase()),
            None => out.push(' '),
        }
    }
    join_words(out.split_whitespace())
}

/// Lower case, the diacritics U+0300–U+036F removed after NFD, words of
/// [word characters](is_word_char) joined by single spaces, with one space at
/// each end so that `" name "` matches whole words only
/// (`"Laudato si’!"` → `" laudato si "`; `""` → `" "`). Ligatures are kept.
pub fn padded_words(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push(' ');
    for w in s
        .nfd()
        .filter(|c| !is_diacritic(*c))
        .collect::<String>()
        .split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty())
    {
        out.extend(w.chars().flat_map(char::to_lowercase));
        out.push(' ');
    }
    out
}

/// The non-empty pieces joined by single spaces.
fn join_words<'a>(pieces: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for w in pieces.filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        assert_eq!(letter('Æ'), Some("ae"));
        assert_eq!(letter('ß'), Some("ss"));
        assert_eq!(letter('þ'), Some("th"));
        assert_eq!(letter('e'), None);
        assert_eq!(letter('é'), None);
    }

    #[test]
    fn strip_marks_variant() {
        assert_eq!(strip_marks("Thérèse OF Lisieux"), "therese of lisieux");
        assert_eq!(
            strip_marks("AVE MARIA, gratia plena!"),
            "ave maria, gratia plena!"
        );
        // Ligatures and undecomposable letters stay; punctuation stays.
        assert_eq!(
            strip_marks("Nicæa, Wojtyła, Straße"),
            "nicæa, wojtyła, straße"
        );
        // Greek and Cyrillic lose their accents but keep their script; CJK is kept.
        assert_eq!(strip_marks("Ἰησοῦς Йосиф"), "ιησους иосиф");
        assert_eq!(strip_marks("天主教教理"), "天主教教理");
        // Indic vowel signs are marks: removed.
        assert_eq!(strip_marks("সি"), "স");
        for s in ["The Word", "ST I q.2 a.3", "", "x-Y_z 09 ~"] {
            let slow: String = s.nfd().flat_map(char::to_lowercase).collect();
            assert_eq!(strip_marks(s), slow, "{s:?}");
        }
    }

    #[test]
    fn strip_diacritics_variant() {
        assert_eq!(strip_diacritics("Sáo Tomé!"), "sao tome!");
        assert_eq!(strip_diacritics("Cæciliæ, Straße"), "cæciliæ, straße");
        // Whole-text lowering: a final capital sigma is a final sigma.
        assert_eq!(strip_diacritics("ΟΔΟΣ Ἰησοῦ"), "οδος ιησου");
        assert_eq!(strip_diacritics("Йосиф"), "иосиф");
        assert_eq!(strip_diacritics("天主"), "天主");
        // Indic vowel signs are not in U+0300–U+036F: kept.
        assert_eq!(strip_diacritics("সি"), "সি");
    }

    #[test]
    fn plain_variant() {
        assert_eq!(plain("Nicæa"), "nicaea");
        assert_eq!(plain("Thérèse"), "therese");
        assert_eq!(plain("Œuvre, STRAẞE: Łódź"), "oeuvre, straße: lodz");
        assert_eq!(plain("Ἰησοῦς ΟΔΟΣ"), "ιησους οδοσ");
        assert_eq!(plain("গির্জা"), "গির্জা");
        assert_eq!(plain("恩典"), "恩典");
    }

    #[test]
    fn latin_variants() {
        assert_eq!(latin("Co učí Církev? Ἰησοῦς"), "co uci cirkev? ἰησοῦς");
        assert_eq!(latin("L’Église"), "l'eglise");
        assert_eq!(
            latin("Œuvre, Straße, Þór, Đakovo"),
            "oeuvre, strasse, thor, dakovo"
        );
        assert_eq!(latin_words("Co učí Církev?"), "co uci cirkev");
        assert_eq!(latin_words("L'Église"), "l eglise");
        assert_eq!(latin_words("Che cos'è la grazia?"), "che cos e la grazia");
        assert_eq!(
            latin_words("Qu'est-ce que le péché?"),
            "qu est ce que le peche"
        );
        // Other scripts are kept as written, vowel signs and accents included.
        assert_eq!(latin_words("অনুগ্রহ কী?"), "অনুগ্রহ কী");
        assert_eq!(latin_words("Ἰησοῦς Йосиф"), "ἰησοῦς йосиф");
        assert_eq!(
            latin_words("教会关于恩典的教导是什么？"),
            "教会关于恩典的教导是什么"
        );
    }

    #[test]
    fn words_variant() {
        assert_eq!(words("Thérèse — de  Lisieux."), "thérèse de lisieux");
        assert_eq!(words("In the beginning, God"), "in the beginning god");
        assert_eq!(words("Nicæa ΟΔΟΣ 天主"), "nicæa οδοσ 天主");
        assert_eq!(words(" ,. "), "");
    }

    #[test]
    fn name_words_variant() {
        assert_eq!(name_words("Thérèse  de Lisieux!"), "therese de lisieux");
        assert_eq!(name_words("Karol Wojtyła"), "karol wojtyla");
        assert_eq!(name_words("Galveston–Houston"), "galveston houston");
        assert_eq!(name_words("O’Malley"), "o malley");
        assert_eq!(name_words("Þorlákur, Straße"), "thorlakur strasse");
        assert_eq!(name_words("ﬁdes Pius²"), "fides pius2");
        assert_eq!(name_words("Ἰησοῦς Йосиф 天主"), "ιησους иосиф 天主");
    }

    #[test]
    fn padded_words_variant() {
        assert_eq!(padded_words("Laudato si’!"), " laudato si ");
        assert_eq!(
            padded_words("Catéchisme de l'Église"),
            " catechisme de l eglise "
        );
        assert_eq!(padded_words(""), " ");
        assert_eq!(padded_words("Evangelium Vitæ"), " evangelium vitæ ");
        assert_eq!(padded_words("天主教教理"), " 天主教教理 ");
        assert_eq!(padded_words("লাউদাতো সি"), padded_words("লাউদাতো  সি!"));
        assert!(padded_words("লাউদাতো সি").contains('\u{9be}'));
        assert_eq!(padded_words("ἸΗΣΟΥΣ Ἰησοῦς"), " ιησουσ ιησους ");
    }
}
