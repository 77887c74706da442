//! What a question names besides the registry's titles: the Second Vatican
//! Council as a whole, the modern popes, a paragraph of the Catechism of the
//! Catholic Church, a canon of the Code, and titles given after a word like
//! "encyclical" (which the caller checks against what it holds, so that a
//! document that does not exist is never answered as if it did).

use crate::entry::Entry;
use crate::fold::fold;

/// Everything a question names that the registry is about.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mentions<'a> {
    /// Registry documents named (by a title or name, a Catechism paragraph, a canon).
    pub documents: Vec<&'a Entry>,
    /// The Second Vatican Council named as a whole.
    pub council: bool,
    /// Modern popes named (from Pius XII on), in English.
    pub popes: Vec<&'static str>,
    /// Titles given after (or before) a word such as "encyclical" that are
    /// none of the registry's names.
    pub unknown_titles: Vec<String>,
    /// A paragraph of the Catechism of the Catholic Church (`CCC 1030`).
    pub catechism_paragraph: Option<u32>,
    /// A canon of a code of canon law: the code's year (1983, or 1917 when named).
    pub canon_code: Option<u16>,
    /// The folded question with every name above removed: what it asks about.
    pub remainder: String,
}

impl Mentions<'_> {
    /// True when the question names anything after 1930 (or a title we must check).
    pub fn any(&self) -> bool {
        !self.documents.is_empty()
            || self.council
            || !self.popes.is_empty()
            || !self.unknown_titles.is_empty()
    }
}

/// The popes after the library's last texts (1927), with the names people use
/// in the ten languages (folded; `" … "` marks whole words).
const POPES: &[(&str, &[&str])] = &[
    (
        "Pius XII",
        &[
            "pius xii",
            "pio xii",
            "pie xii",
            "pius 12",
            "pacelli",
            "庇护十二世",
            "碧岳十二世",
        ],
    ),
    (
        "John XXIII",
        &[
            "john xxiii",
            "giovanni xxiii",
            "juan xxiii",
            "joao xxiii",
            "jean xxiii",
            "jan xxiii",
            "ioannes xxiii",
            "roncalli",
            "papa buono",
            "若望二十三世",
        ],
    ),
    (
        "Paul VI",
        &[
            "paul vi",
            "paolo vi",
            "pablo vi",
            "paulo vi",
            "pavel vi",
            "paulus vi",
            "montini",
            "保禄六世",
        ],
    ),
    (
        "John Paul I",
        &[
            "john paul i",
            "giovanni paolo i",
            "juan pablo i",
            "joao paulo i",
            "jean paul i",
            "jan pavel i",
            "papa luciani",
            "若望保禄一世",
        ],
    ),
    (
        "John Paul II",
        &[
            "john paul ii",
            "giovanni paolo ii",
            "juan pablo ii",
            "joao paulo ii",
            "jean paul ii",
            "jan pavel ii",
            "jana pavla ii",
            "ioannes paulus ii",
            "wojtyla",
            "若望保禄二世",
            "দ্বিতীয় জন পল",
            "जुवांव पावल दुसरो",
        ],
    ),
    (
        "Benedict XVI",
        &[
            "benedict xvi",
            "benedetto xvi",
            "benedicto xvi",
            "bento xvi",
            "benoit xvi",
            "benedikt xvi",
            "benedikta xvi",
            "benedictus xvi",
            "ratzinger",
            "本笃十六世",
            "ষোড়শ বেনেডিক্ট",
            "बेनेडिक्ट सोळावो",
        ],
    ),
    (
        "Francis",
        &[
            "pope francis",
            "papa francesco",
            "papa francisco",
            "pape francois",
            "papez frantisek",
            "papeze frantiska",
            "papezem frantiskem",
            "franciscus papa",
            "papa franciscus",
            "bergoglio",
            "教宗方济各",
            "教宗方濟各",
            "পোপ ফ্রান্সিস",
            "পোপ ফ্রান্সিসের",
            "पापा फ्रान्सिस",
            "पापा फ्रांसिस",
            "पापा फ्रांसिसान",
            "पापा फ्रान्सिसान",
        ],
    ),
    (
        "Leo XIV",
        &[
            "leo xiv",
            "leone xiv",
            "leon xiv",
            "leao xiv",
            "lev xiv",
            "lva xiv",
            "leo 14",
            "prevost",
            "良十四世",
            "চতুর্দশ লিও",
            "लियो चौदावो",
        ],
    ),
];

/// Words that introduce a document's title.
const CUES: &[&str] = &[
    "encyclical",
    "encyclicals",
    "enciclica",
    "encicliche",
    "encyclique",
    "encyklika",
    "encykliky",
    "encyklice",
    "encykliku",
    "encyclicam",
    "litterae",
    "exhortation",
    "esortazione",
    "exhortacion",
    "exortacao",
    "exhortace",
    "exhortaci",
    "adhortatio",
    "constitution",
    "costituzione",
    "constitucion",
    "constituicao",
    "konstituce",
    "constitutio",
    "motu",
    "declaration",
    "dichiarazione",
    "declaracion",
    "declaracao",
    "deklarace",
    "instruction",
    "istruzione",
    "instruccion",
    "instrucao",
    "instrukce",
    "document",
    "documento",
    "dokument",
    "dokumentu",
];

/// Han cues (matched inside words).
const HAN_CUES: &[&str] = &[
    "通谕", "通諭", "劝谕", "勸諭", "宪章", "憲章", "文件", "诏书", "宗座",
];

/// Lower-case words that may stand inside a Latin or Italian title.
const TITLE_JOINERS: &[&str] = &[
    "et", "in", "de", "ad", "si", "si'", "est", "nos", "te", "non", "del", "di", "e", "della",
];

/// Words that are capitalised without being a title.
const NOT_TITLES: &[&str] = &[
    "pope", "papa", "pape", "papez", "saint", "st", "the", "his", "her", "what", "how", "why",
    "does", "did", "is", "which", "who",
];

/// Scan `question` (whose folded form, with registry names already removed, is `folded`).
pub fn scan<'a>(question: &str, folded: &str) -> Mentions<'a> {
    let mut remainder = folded.to_string();
    let mut popes = Vec::new();
    for (pope, names) in POPES {
        for n in *names {
            let key = fold(n);
            let han = !n.is_ascii() && key.trim().chars().all(|c| !c.is_ascii());
            let hit = if han {
                remainder.contains(key.trim())
            } else {
                remainder.contains(&key)
            };
            if hit {
                if !popes.contains(pope) {
                    popes.push(*pope);
                }
                remainder = remainder.replace(if han { key.trim() } else { key.as_str() }, " ");
            }
        }
    }
    let council = names_the_council(&remainder);
    let numbers = numbers(question);
    let catechism_paragraph = catechism_paragraph(&remainder, &numbers);
    let canon_code = canon_code(question, &remainder, &numbers);
    Mentions {
        documents: Vec::new(),
        council,
        popes,
        unknown_titles: titles_after_cues(question),
        catechism_paragraph,
        canon_code,
        remainder,
    }
}

/// The words of `folded`, each cut to its first five characters (a crude stem
/// shared by `euthanasia`/`euthanasie`, `fertilization`/`fertility`).
pub fn stems(folded: &str) -> Vec<String> {
    folded
        .split(' ')
        .filter(|w| w.chars().count() > 3 && !STOP.contains(w))
        .map(|w| w.chars().take(5).collect())
        .collect()
}

const STOP: &[&str] = &[
    "what", "does", "about", "that", "this", "with", "from", "into", "have", "which", "their",
    "there", "when", "where", "church", "teach", "teaches", "teaching", "say", "says", "said",
    "pope", "would", "should", "could", "your", "they", "them", "were", "been", "being", "other",
    "more", "most", "some", "such", "than", "then", "these", "those", "very", "will",
];

/// "Vatican II" in any of its forms: a Vatican word with a council word or an ordinal "second".
fn names_the_council(folded: &str) -> bool {
    if folded.contains("梵二")
        || folded.contains("梵蒂冈第二")
        || folded.contains("第二次梵蒂冈")
        || folded.contains("第二届梵蒂冈")
    {
        return true;
    }
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    let vatican = words.iter().position(|w| {
        [
            "vatican",
            "vatikan",
            "vaticano",
            "vaticanum",
            "ভাটিকান",
            "ভ্যাটিকান",
            "वॅटिकन",
            "व्हॅटिकन",
            "व्हॅटिकॅन",
        ]
        .iter()
        .any(|v| w.starts_with(v))
    });
    let Some(at) = vatican else {
        return false;
    };
    let near = &words[at.saturating_sub(3)..(at + 4).min(words.len())];
    let second = near.iter().any(|w| {
        [
            "ii",
            "2",
            "2nd",
            "second",
            "secondo",
            "segundo",
            "secundum",
            "deuxieme",
            "druhy",
            "druheho",
            "druhem",
            "দ্বিতীয়",
            "दुसरी",
            "दुसऱ्या",
        ]
        .contains(w)
    });
    let first = near.iter().any(|w| {
        [
            "i", "1", "1st", "first", "primo", "primer", "primeiro", "premier", "prvni", "prvniho",
            "primum", "1870",
        ]
        .contains(w)
    });
    let council = near.iter().any(|w| {
        [
            "council",
            "concil",
            "koncil",
            "concile",
            "synod",
            "মহাসভা",
            "পরিষদ",
            "परिशद",
            "सभा",
        ]
        .iter()
        .any(|c| w.starts_with(c))
    });
    second || (council && !first)
}

/// The maximal runs of ASCII digits in `s`, as numbers.
fn numbers(s: &str) -> Vec<u32> {
    let ascii: String = s.chars().map(ascii_digit).collect();
    ascii
        .split(|c: char| !c.is_ascii_digit())
        .filter(|d| !d.is_empty() && d.len() <= 5)
        .filter_map(|d| d.parse().ok())
        .collect()
}

/// Bengali and Devanagari digits as ASCII ones.
fn ascii_digit(c: char) -> char {
    match c as u32 {
        0x09E6..=0x09EF => char::from_digit(c as u32 - 0x09E6, 10).unwrap_or(c),
        0x0966..=0x096F => char::from_digit(c as u32 - 0x0966, 10).unwrap_or(c),
        _ => c,
    }
}

/// A Catechism paragraph: `CCC 1030`, or a catechism word with a number from 1 to 2865
/// (not the Baltimore Catechism, which the library holds).
fn catechism_paragraph(folded: &str, numbers: &[u32]) -> Option<u32> {
    let n = numbers.iter().copied().find(|n| (1..=2865).contains(n))?;
    if folded.contains(" ccc ") || folded.contains(" kkc ") || folded.contains(" cec ") {
        return Some(n);
    }
    let catechism = [
        " catechism",
        " catechismo",
        " catecismo",
        " catechisme",
        " katechism",
        " catechismus",
        "教理",
        "要理",
        "ধর্মশিক্ষ",
        "কাটেকিজম",
        "कातेसिस",
        "कातेकिस्म",
        "धर्मशिक्षण",
    ]
    .iter()
    .any(|c| folded.contains(c));
    (catechism && !folded.contains("baltimore")).then_some(n)
}

/// A canon of a code: `canon 1055`, `can. 915`, `CIC 1055`, the Code named.
fn canon_code(question: &str, folded: &str, numbers: &[u32]) -> Option<u16> {
    let conciliar = [
        "nicaea",
        "nicea",
        "nicene",
        "trent",
        "trident",
        "chalcedon",
        "ephesus",
        "constantinople",
        "lateran",
        "orange",
        "carthage",
        "elvira",
        "synod",
        "apostolic canons",
        "council of",
        "concilio di",
        "concile de",
        "canon of scripture",
        "canon of the mass",
        "canone romano",
        "roman canon",
    ];
    if conciliar.iter().any(|c| folded.contains(c)) {
        return None;
    }
    let code_named = [
        "code of canon law",
        "codex iuris canonici",
        "codice di diritto canonico",
        "codigo de derecho canonico",
        "codigo de direito canonico",
        "code de droit canonique",
        "kodex kanonickeho prava",
        "kodexu kanonickeho prava",
        "教会法",
        "教會法",
        "canon law",
    ]
    .iter()
    .any(|c| folded.contains(c))
        || has_word(question, "CIC");
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    let canon_numbered = words.windows(2).any(|w| {
        [
            "canon",
            "canons",
            "can",
            "canone",
            "canoni",
            "canones",
            "kanon",
            "kanonu",
            "canonem",
            "कॅनन",
            "कानून",
            "ক্যানন",
            "ক্যাননের",
        ]
        .contains(&w[0])
            && w[1].chars().all(|c| ascii_digit(c).is_ascii_digit())
    });
    if !(code_named || canon_numbered && !numbers.is_empty()) {
        return None;
    }
    Some(
        if folded.contains("1917") || folded.contains("pio benedictine") {
            1917
        } else {
            1983
        },
    )
}

/// True when `word` stands in `text` as a whole word, in the same case.
pub fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| w == word)
}

/// Titles next to a cue word ("the encyclical *Lumen Veritatis*", "the Rerum
/// Novarum encyclical", "《…》通谕"): capitalised runs of words, or a quoted span.
fn titles_after_cues(question: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let tokens: Vec<&str> = question.split_whitespace().collect();
    let is_cue = |t: &str| CUES.contains(&fold(t).trim());
    let has_cue = tokens.iter().any(|t| is_cue(t)) || HAN_CUES.iter().any(|c| question.contains(c));
    if !has_cue {
        return out;
    }
    for (i, t) in tokens.iter().enumerate() {
        if !is_cue(t) {
            continue;
        }
        let after = capitalised_run(tokens[i + 1..].iter().copied());
        let before = capitalised_run(tokens[..i].iter().rev().copied());
        for run in [
            after,
            before.map(|r| r.split(' ').rev().collect::<Vec<_>>().join(" ")),
        ]
        .into_iter()
        .flatten()
        {
            if !out.contains(&run) {
                out.push(run);
            }
        }
    }
    for (open, close) in [
        ('“', '”'),
        ('«', '»'),
        ('„', '“'),
        ('„', '”'),
        ('《', '》'),
        ('"', '"'),
        ('*', '*'),
        ('‘', '’'),
    ] {
        let mut rest = question;
        while let Some(a) = rest.find(open) {
            let after = &rest[a + open.len_utf8()..];
            let Some(b) = after.find(close) else { break };
            let inner = after[..b]
                .trim()
                .trim_matches(|c: char| c.is_ascii_punctuation());
            if (2..=60).contains(&inner.chars().count()) && !out.iter().any(|o| o == inner) {
                out.push(inner.to_string());
            }
            rest = &after[b + close.len_utf8()..];
        }
    }
    out
}

/// The title-like run of `tokens`: capitalised words (Latin joiners allowed
/// inside), one to six, not starting with a title like "Pope".
fn capitalised_run<'t>(tokens: impl Iterator<Item = &'t str>) -> Option<String> {
    let mut words: Vec<String> = Vec::new();
    for t in tokens {
        let clean = t.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’');
        let clean = clean.trim_end_matches(['\'', '’']).trim_end_matches("'s");
        if clean.is_empty() {
            break;
        }
        let capital = clean.chars().next().is_some_and(char::is_uppercase);
        let joiner = TITLE_JOINERS.contains(&clean.to_lowercase().as_str());
        if words.is_empty() && (!capital || NOT_TITLES.contains(&fold(clean).trim())) {
            return None;
        }
        if !(capital || joiner) || words.len() == 6 {
            break;
        }
        words.push(clean.to_string());
        if t.ends_with([',', '?', '.', ';', ':', '!', ')']) {
            break;
        }
    }
    // "Pope Francis's encyclical": an author, not a title.
    if words.iter().any(|w| NOT_TITLES.contains(&fold(w).trim())) {
        return None;
    }
    while words
        .last()
        .is_some_and(|w| TITLE_JOINERS.contains(&w.to_lowercase().as_str()))
    {
        words.pop();
    }
    (!words.is_empty()).then(|| words.join(" "))
}
