//! From text to lexemes: folding, splitting into words and Chinese runs,
//! longest-match lookup in the lexicon, numbers and numeric dates.

use super::fold;
use super::lexicon::{lexicon, Tok};
use super::numeric::{self, Digits};

/// One unit of a phrase: its text and every reading of it.
#[derive(Debug, Clone)]
pub struct Lexeme {
    /// The folded text.
    pub text: String,
    /// The readings (each a token sequence; empty = filler). No readings = not understood.
    pub alts: Vec<Vec<Tok>>,
    /// Why a word was not understood, when there is more to say than "unknown".
    pub note: Option<&'static str>,
}

impl Lexeme {
    /// A word the lexicon does not know.
    pub fn unknown(text: String, note: Option<&'static str>) -> Self {
        Lexeme {
            text,
            alts: Vec::new(),
            note,
        }
    }
    /// Not understood.
    pub fn is_unknown(&self) -> bool {
        self.alts.is_empty()
    }
    /// A filler word, and nothing else.
    pub fn is_filler(&self) -> bool {
        !self.alts.is_empty() && self.alts.iter().all(Vec::is_empty)
    }
}

enum Seg {
    Word(String),
    Cjk(String),
}

/// Elided articles and prepositions split off a word: l'Ascension, d'avril, dell'Angelo.
const ELISIONS: &[&str] = &[
    "l", "d", "j", "qu", "n", "s", "c", "m", "t", "dell", "all", "dall", "nell", "sull",
];

fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}'
        | '\u{3040}'..='\u{30FF}' | '〇')
}

fn is_sep(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || (c.is_ascii_punctuation() && !matches!(c, '\'' | '-' | '.' | '/'))
        || matches!(
            c,
            '¿' | '¡'
                | '«'
                | '»'
                | '“'
                | '”'
                | '„'
                | '‹'
                | '›'
                | '–'
                | '—'
                | '…'
                | '•'
                | '·'
                | '。'
                | '，'
                | '、'
                | '！'
                | '？'
                | '：'
                | '；'
                | '（'
                | '）'
                | '「'
                | '」'
                | '『'
                | '』'
                | '《'
                | '》'
                | '〈'
                | '〉'
                | '【'
                | '】'
                | '～'
                | '।'
                | '॥'
                | '\u{3000}'
        )
}

fn prepare(s: &str) -> String {
    fold(s)
        .chars()
        .map(|c| match c {
            '’' | '‘' | '`' | '´' | 'ʼ' => '\'',
            '‐' | '‑' => '-',
            c => numeric::ascii_digit(c),
        })
        .collect()
}

fn split_word(raw: &str, out: &mut Vec<Seg>) {
    let signed = raw.starts_with(['-', '+']) && raw[1..].starts_with(|c: char| c.is_ascii_digit());
    if numeric::is_numeric_shape(raw) || signed {
        out.push(Seg::Word(raw.to_string()));
        return;
    }
    for piece in raw.split(['-', '/', '.']) {
        let piece = piece.trim_matches('\'');
        if piece.is_empty() {
            continue;
        }
        match piece.split_once('\'') {
            Some((pre, rest)) if ELISIONS.contains(&pre) && !rest.is_empty() => {
                out.push(Seg::Word(pre.to_string()));
                out.push(Seg::Word(rest.trim_matches('\'').to_string()));
            }
            _ => out.push(Seg::Word(piece.to_string())),
        }
    }
}

fn segments(s: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut cjk = String::new();
    let flush = |buf: &mut String, out: &mut Vec<Seg>, is_cjk_run: bool| {
        if buf.is_empty() {
            return;
        }
        if is_cjk_run {
            out.push(Seg::Cjk(std::mem::take(buf)));
        } else {
            split_word(buf, out);
            buf.clear();
        }
    };
    for c in s.chars() {
        if is_sep(c) {
            flush(&mut word, &mut out, false);
            flush(&mut cjk, &mut out, true);
        } else if is_cjk(c) {
            flush(&mut word, &mut out, false);
            cjk.push(c);
        } else {
            flush(&mut cjk, &mut out, true);
            word.push(c);
        }
    }
    flush(&mut word, &mut out, false);
    flush(&mut cjk, &mut out, true);
    out
}

/// The lexicon key of a table entry: (key, number of words, Chinese characters).
pub fn normalize_entry(surface: &str) -> Option<(String, usize, usize)> {
    let segs = segments(&prepare(surface));
    match segs.as_slice() {
        [Seg::Cjk(s)] => Some((s.clone(), 0, s.chars().count())),
        _ => {
            let words: Vec<&str> = segs
                .iter()
                .map(|s| match s {
                    Seg::Word(w) => Some(w.as_str()),
                    Seg::Cjk(_) => None,
                })
                .collect::<Option<_>>()?;
            (!words.is_empty()).then(|| (words.join(" "), words.len(), 0))
        }
    }
}

fn number_word(w: &str) -> Lexeme {
    let seps = w.matches(['/', '-', '.']).count();
    let day_month = numeric::is_numeric_shape(w)
        && !w.contains('-')
        && (w.matches('/').count() == 1 || (w.matches('.').count() == 2 && w.ends_with('.')));
    if day_month
        || (numeric::is_numeric_shape(w) && w.matches('.').count() == 1 && !w.ends_with('.'))
    {
        return match numeric::day_month(w) {
            Ok(dms) => Lexeme {
                text: w.to_string(),
                alts: dms
                    .into_iter()
                    .map(|(d, m)| vec![Tok::Num(d), Tok::Month(m)])
                    .collect(),
                note: None,
            },
            Err(why) => Lexeme::unknown(w.to_string(), Some(why)),
        };
    }
    if numeric::is_numeric_shape(w) && seps >= 2 {
        return match numeric::numeric_date(w) {
            Ok(dates) => Lexeme {
                text: w.to_string(),
                alts: dates.into_iter().map(|d| vec![Tok::Date(d)]).collect(),
                note: None,
            },
            Err(why) => Lexeme::unknown(w.to_string(), Some(why)),
        };
    }
    match numeric::digits(w) {
        Some(Digits::Cardinal(n)) => Lexeme {
            text: w.to_string(),
            alts: vec![vec![Tok::Num(n)]],
            note: None,
        },
        Some(Digits::Ordinal(n)) => Lexeme {
            text: w.to_string(),
            alts: vec![vec![Tok::Ord(n)]],
            note: None,
        },
        None => Lexeme::unknown(w.to_string(), None),
    }
}

fn lex_words(words: &[String], out: &mut Vec<Lexeme>) {
    let lx = lexicon();
    let mut i = 0;
    while i < words.len() {
        let longest = lx.max_words.min(words.len() - i);
        let found = (1..=longest).rev().find_map(|n| {
            let key = words[i..i + n].join(" ");
            lx.get(&key).map(|alts| (n, key, alts.to_vec()))
        });
        match found {
            Some((n, text, alts)) => {
                out.push(Lexeme {
                    text,
                    alts,
                    note: None,
                });
                i += n;
            }
            None => {
                let w = &words[i];
                let stem = w.strip_suffix("'s").and_then(|s| lx.get(s));
                match stem {
                    Some(alts) => out.push(Lexeme {
                        text: w.clone(),
                        alts: alts.to_vec(),
                        note: None,
                    }),
                    None => out.push(number_word(w)),
                }
                i += 1;
            }
        }
    }
}

fn lex_cjk(run: &str, out: &mut Vec<Lexeme>) {
    let lx = lexicon();
    let chars: Vec<char> = run.chars().collect();
    let mut p = 0;
    let mut unknown_run = false;
    while p < chars.len() {
        let longest = lx.max_cjk.min(chars.len() - p);
        let found = (1..=longest).rev().find_map(|n| {
            let key: String = chars[p..p + n].iter().collect();
            lx.get(&key).map(|alts| (n, key, alts.to_vec()))
        });
        if let Some((n, text, alts)) = found {
            out.push(Lexeme {
                text,
                alts,
                note: None,
            });
            p += n;
            unknown_run = false;
        } else if let Some((value, n)) = (chars[p] == '第')
            .then(|| numeric::chinese_numeral(&chars[p + 1..]))
            .flatten()
        {
            out.push(Lexeme {
                text: chars[p..p + 1 + n].iter().collect(),
                alts: vec![vec![Tok::Ord(value)]],
                note: None,
            });
            p += 1 + n;
            unknown_run = false;
        } else if let Some((value, n)) = numeric::chinese_numeral(&chars[p..]) {
            out.push(Lexeme {
                text: chars[p..p + n].iter().collect(),
                alts: vec![vec![Tok::Num(value)]],
                note: None,
            });
            p += n;
            unknown_run = false;
        } else {
            match out.last_mut() {
                Some(last) if unknown_run => last.text.push(chars[p]),
                _ => out.push(Lexeme::unknown(chars[p].to_string(), None)),
            }
            unknown_run = true;
            p += 1;
        }
    }
}

/// Split a phrase into lexemes.
pub fn lex(phrase: &str) -> Vec<Lexeme> {
    let mut out = Vec::new();
    let mut words: Vec<String> = Vec::new();
    for seg in segments(&prepare(phrase)) {
        match seg {
            Seg::Word(w) => words.push(w),
            Seg::Cjk(run) => {
                lex_words(&words, &mut out);
                words.clear();
                lex_cjk(&run, &mut out);
            }
        }
    }
    lex_words(&words, &mut out);
    out
}
