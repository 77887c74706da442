//! The comparable form of queries and glossary terms: lower case, accents of
//! Latin letters removed (`církev` → `cirkev`), other scripts kept as written
//! (Chinese, Bengali, Devanagari: their vowel signs are part of the word),
//! words split on anything that is not a letter, digit or mark.

use unicode_normalization::char::{decompose_canonical, is_combining_mark};

/// A query in comparable form.
#[derive(Debug, Clone)]
pub struct Normalized {
    /// The folded words.
    pub words: Vec<String>,
    /// The folded text (for Chinese, which has no spaces).
    pub folded: String,
}

fn fold_char(c: char, out: &mut String) {
    match c {
        'ł' | 'Ł' => out.push('l'),
        'ø' | 'Ø' => out.push('o'),
        'ß' => out.push_str("ss"),
        'æ' | 'Æ' => out.push_str("ae"),
        'œ' | 'Œ' => out.push_str("oe"),
        '’' | 'ʼ' | '‘' => out.push('\''),
        c if (c as u32) < 0x0250 || (0x1E00..0x1F00).contains(&(c as u32)) => {
            let mut base = None;
            decompose_canonical(c, |d| {
                if base.is_none() && !is_combining_mark(d) {
                    base = Some(d);
                }
            });
            out.extend(base.unwrap_or(c).to_lowercase());
        }
        c => out.extend(c.to_lowercase()),
    }
}

/// Folded form of `s` (see the module docs), words joined by single spaces.
pub fn fold(s: &str) -> String {
    Normalized::new(s).words.join(" ")
}

/// True for a character that is part of a word.
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// True for Han characters (Chinese).
pub fn is_han(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

impl Normalized {
    /// Normalise `s`.
    pub fn new(s: &str) -> Self {
        let mut folded = String::with_capacity(s.len());
        for c in s.chars() {
            fold_char(c, &mut folded);
        }
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
