//! Folding for name matching: lower case, accents removed, every run of
//! characters that are neither letters nor digits made one space, with a
//! space at each end so that `" name "` matches whole words only.

use unicode_normalization::UnicodeNormalization;

/// `" evangelium vitae "` from `"Evangelium Vitæ"`-like input; `"  "` when empty.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push(' ');
    let mut gap = false;
    for c in s
        .nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
    {
        if c.is_alphanumeric() {
            if gap && !out.ends_with(' ') {
                out.push(' ');
            }
            gap = false;
            out.extend(c.to_lowercase());
        } else {
            gap = true;
        }
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// True when `c` is a Han character (Chinese names are matched without word spaces).
pub fn is_han(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_accents_and_punctuation() {
        assert_eq!(fold("Laudato si’!"), " laudato si ");
        assert_eq!(fold("Catéchisme de l'Église"), " catechisme de l eglise ");
        assert_eq!(fold(""), " ");
        assert_eq!(fold("天主教教理"), " 天主教教理 ");
    }
}
