//! The folding functions the domain crates had before this crate, copied as
//! they were, against the variant that replaced each: the same output on a
//! sample of every script and punctuation the stores hold, and the accepted
//! differences spelled out.

use unicode_normalization::char::{decompose_canonical, is_combining_mark};
use unicode_normalization::UnicodeNormalization;

const SAMPLES: &[&str] = &[
    "",
    " ,. ",
    "The Word",
    "ST I q.2 a.3",
    "AVE MARIA, gratia plena!",
    "x-Y_z 09 ~",
    "Thérèse OF Lisieux",
    "Thérèse  de Lisieux!",
    "St. Thérèse of Lisieux",
    "Karol Wojtyła",
    "Galveston–Houston",
    "O’Malley ʼ ‘x’",
    "Nicæa, Evangelium Vitæ, Œuvre, Straße, STRAẞE",
    "Søren Ørsted",
    "Co učí Církev o milosti?",
    "Che cos'è la grazia?",
    "Qu'est-ce que le péché?",
    "Catéchisme de l'Église",
    "Laudato si’!",
    "Nguyễn Văn Thuận, Phêrô",
    "İstanbul ıi",
    "e\u{301}glise decomposed",
    "Ἰησοῦς Χριστός",
    "ΟΔΟΣ ΚΑΙ ΑΛΗΘΕΙΑ",
    "Йосиф Богородица",
    "教会关于恩典的教导是什么？",
    "天主教教理",
    "가톨릭 교회",
    "カトリック教会が",
    "গির্জা কী শিক্ষা দেয়?",
    "লাউদাতো সি",
    "लौदातो सी 'हातूंत'",
    "ﬁdes Pius² ＡＢＣ",
    "a\tb\nc  d",
];

// The characters the union added to some variants.
const ADDED: &[char] = &['đ', 'Đ', 'ð', 'Ð', 'ı', 'þ', 'Þ', 'ł', 'Ł', 'ø', 'Ø'];

fn old_corpus_text_fold(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    s.nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

fn old_coverage_fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for w in text
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

fn old_latin_char(c: char, out: &mut String, with_d: bool) {
    match c {
        'ł' | 'Ł' => out.push('l'),
        'ø' | 'Ø' => out.push('o'),
        'ß' => out.push_str("ss"),
        'æ' | 'Æ' => out.push_str("ae"),
        'œ' | 'Œ' => out.push_str("oe"),
        'đ' | 'Đ' if with_d => out.push('d'),
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

/// corpus `query::normalize` (`with_d` false) and qa `topic::normalize` (true):
/// the per-character form and the words.
fn old_normalize(s: &str, with_d: bool) -> (String, String) {
    let mut folded = String::new();
    for c in s.chars() {
        old_latin_char(c, &mut folded, with_d);
    }
    let words: Vec<&str> = folded
        .split(|c: char| !(c.is_alphanumeric() || is_combining_mark(c)))
        .filter(|w| !w.is_empty())
        .collect();
    let words = words.join(" ");
    (folded, words)
}

fn old_directory_fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.nfkd() {
        if is_combining_mark(c) {
            continue;
        }
        match c {
            'ł' | 'Ł' => out.push('l'),
            'ø' | 'Ø' => out.push('o'),
            'đ' | 'Đ' | 'ð' | 'Ð' => out.push('d'),
            'ß' => out.push_str("ss"),
            'æ' | 'Æ' => out.push_str("ae"),
            'œ' | 'Œ' => out.push_str("oe"),
            'ı' => out.push('i'),
            'þ' | 'Þ' => out.push_str("th"),
            c if c.is_alphanumeric() => out.extend(c.to_lowercase()),
            _ => out.push(' '),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn old_elogium_fold_name(s: &str) -> String {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn old_liturgy_fold(s: &str) -> String {
    s.nfd()
        .filter(|c| !('\u{0300}'..='\u{036f}').contains(c))
        .collect::<String>()
        .to_lowercase()
}

fn old_magisterium_fold(s: &str) -> String {
    let mut out = String::from(" ");
    let mut gap = false;
    for c in s.nfd().filter(|c| !('\u{0300}'..='\u{036F}').contains(c)) {
        if c.is_alphanumeric() || is_combining_mark(c) {
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

fn old_qa_plain(word: &str) -> String {
    let mut out = String::new();
    for c in word
        .nfd()
        .filter(|c| !('\u{0300}'..='\u{036F}').contains(c))
    {
        match c {
            'æ' | 'Æ' => out.push_str("ae"),
            'œ' | 'Œ' => out.push_str("oe"),
            'ß' => out.push_str("ss"),
            c => out.extend(c.to_lowercase()),
        }
    }
    out
}

fn has_added(s: &str) -> bool {
    s.chars().any(|c| ADDED.contains(&c))
}

#[test]
fn unchanged_variants() {
    let added: String = ADDED.iter().collect();
    for s in SAMPLES.iter().copied().chain([added.as_str()]) {
        assert_eq!(
            ecclesia_fold::strip_marks(s),
            old_corpus_text_fold(s),
            "{s:?}"
        );
        assert_eq!(ecclesia_fold::name_words(s), old_directory_fold(s), "{s:?}");
        assert_eq!(ecclesia_fold::words(s), old_coverage_fold(s), "{s:?}");
        assert_eq!(
            ecclesia_fold::strip_diacritics(s),
            old_liturgy_fold(s),
            "{s:?}"
        );
        assert_eq!(
            ecclesia_fold::padded_words(s),
            old_magisterium_fold(s),
            "{s:?}"
        );
    }
}

/// The union: words with the letters in [`ADDED`] fold to plain Latin in the
/// corpus and qa normalisation and in qa's `plain`; nothing else changed.
#[test]
fn union_of_the_letter_table() {
    for s in SAMPLES.iter().filter(|s| !has_added(s)) {
        let (folded, words) = old_normalize(s, false);
        assert_eq!(ecclesia_fold::latin(s), folded, "{s:?}");
        assert_eq!(ecclesia_fold::latin_words(s), words, "{s:?}");
        assert_eq!(
            ecclesia_fold::latin_words(s),
            old_normalize(s, true).1,
            "{s:?}"
        );
        assert_eq!(ecclesia_fold::plain(s), old_qa_plain(s), "{s:?}");
    }
    // Polish and Danish letters were already folded by both normalisations.
    assert_eq!(
        ecclesia_fold::latin_words("Karol Wojtyła, Søren"),
        old_normalize("Karol Wojtyła, Søren", false).1
    );
    assert_eq!(old_normalize("Đakovo ðıþ", false).1, "đakovo ðıþ");
    assert_eq!(old_normalize("Đakovo ðıþ", true).1, "dakovo ðıþ");
    assert_eq!(ecclesia_fold::latin_words("Đakovo ðıþ"), "dakovo dith");
    assert_eq!(old_qa_plain("Łódź Ørsted"), "łodz ørsted");
    assert_eq!(ecclesia_fold::plain("Łódź Ørsted"), "lodz orsted");
}

/// The saint-name folding of the elogia lowered the whole text before splitting
/// it; [`ecclesia_fold::words`] splits first (as coverage did). The two differ
/// only where lowering makes a non-letter (`İ` → `i` + U+0307) or depends on
/// the next character (a word-final capital sigma).
#[test]
fn elogium_names_split_before_lowering() {
    for s in SAMPLES
        .iter()
        .filter(|s| !s.contains('İ') && !s.contains('Σ'))
    {
        assert_eq!(ecclesia_fold::words(s), old_elogium_fold_name(s), "{s:?}");
    }
    assert_eq!(old_elogium_fold_name("İstanbul ΟΔΟΣ"), "i stanbul οδος");
    assert_eq!(
        ecclesia_fold::words("İstanbul ΟΔΟΣ"),
        "i\u{307}stanbul οδοσ"
    );
}
