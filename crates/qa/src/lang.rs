//! The language a question is written in, for the framing text of answers
//! and for query translation: the ten languages served (English, Czech,
//! Chinese, Bengali, Konkani, Latin, Italian, Spanish, Portuguese, French).
//!
//! Script first (Han → Chinese, Bengali → Bengali, Devanagari or Kannada →
//! Konkani), then, for the Latin script, the language whose common words
//! and letters the question uses most; English when nothing else scores.

use crate::topic::normalize::fold;

/// A language served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    En,
    /// Czech.
    Cs,
    /// Chinese.
    Zh,
    /// Bengali.
    Bn,
    /// Konkani (Devanagari, Romi or Kannada script).
    Kok,
    /// Latin.
    La,
    /// Italian.
    It,
    /// Spanish.
    Es,
    /// Portuguese.
    Pt,
    /// French.
    Fr,
}

impl Lang {
    /// The BCP 47 code.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Cs => "cs",
            Lang::Zh => "zh",
            Lang::Bn => "bn",
            Lang::Kok => "kok",
            Lang::La => "la",
            Lang::It => "it",
            Lang::Es => "es",
            Lang::Pt => "pt",
            Lang::Fr => "fr",
        }
    }

    /// The language's name in English (for prompts).
    pub fn english_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Cs => "Czech",
            Lang::Zh => "Chinese",
            Lang::Bn => "Bengali",
            Lang::Kok => "Konkani",
            Lang::La => "Latin",
            Lang::It => "Italian",
            Lang::Es => "Spanish",
            Lang::Pt => "Portuguese",
            Lang::Fr => "French",
        }
    }
}

/// Common words (folded) of the Latin-script languages, with weights.
const WORDS: &[(Lang, &[&str])] = &[
    (
        Lang::En,
        &[
            "the",
            "what",
            "is",
            "are",
            "does",
            "do",
            "of",
            "and",
            "how",
            "why",
            "who",
            "about",
            "teach",
            "say",
            "was",
            "were",
            "which",
            "can",
            "should",
            "did",
            "mean",
            "church",
            // the function words of ordinary questions, none of them one of the other
            // lists' ("a", "as", "in", "no", "on", "me" are, and are left out)
            "it",
            "to",
            "for",
            "my",
            "at",
            "or",
            "them",
            "this",
            "that",
            "with",
            "from",
            "be",
            "have",
            "has",
            "you",
            "we",
            "they",
            "his",
            "her",
            "our",
            "your",
            "their",
            "not",
            "will",
            "would",
            "could",
            "may",
            "must",
            "when",
            "where",
            "there",
            "if",
            "than",
            "any",
            "all",
            "some",
            "into",
            "an",
            "its",
            "these",
            "those",
            "after",
            "before",
            "whether",
            "still",
            "really",
            "according",
            "wrong",
            "ask",
            "been",
            "get",
            "go",
        ],
    ),
    (
        Lang::Cs,
        &[
            "co",
            "je",
            "jak",
            "proc",
            "kdo",
            "ktery",
            "ktera",
            "ucit",
            "uci",
            "rika",
            "cirkev",
            "se",
            "na",
            "o",
            "v",
            "a",
            "jsou",
            "byl",
            "bylo",
            "mohu",
            "smim",
            "muze",
            "podle",
            "katolicka",
            "znamena",
            "cim",
            "kde",
            "zda",
            "jaky",
            "jaka",
            "nam",
        ],
    ),
    (
        Lang::La,
        &[
            "quid", "est", "estne", "num", "nonne", "et", "de", "quae", "qui", "quod", "sunt",
            "docet", "ecclesia", "cur", "quomodo", "ubi", "quis", "an", "in", "ad", "cum", "non",
            "secundum", "dicit", "nobis", "sit", "esse", "dei", "christi",
        ],
    ),
    (
        Lang::It,
        &[
            "che",
            "cosa",
            "cos",
            "il",
            "della",
            "dei",
            "del",
            "di",
            "perche",
            "chi",
            "come",
            "insegna",
            "chiesa",
            "sulla",
            "sul",
            "gli",
            "e",
            "la",
            "le",
            "un",
            "una",
            "sono",
            "nella",
            "quale",
            "dice",
            "significa",
            "si",
            "puo",
            "cattolica",
        ],
    ),
    (
        Lang::Es,
        &[
            "que",
            "el",
            "los",
            "las",
            "del",
            "de",
            "por",
            "como",
            "quien",
            "ensena",
            "iglesia",
            "sobre",
            "es",
            "la",
            "un",
            "una",
            "son",
            "cual",
            "dice",
            "significa",
            "se",
            "puede",
            "catolica",
            "segun",
            "y",
            "hay",
        ],
    ),
    (
        Lang::Pt,
        &[
            "que",
            "o",
            "os",
            "as",
            "do",
            "da",
            "dos",
            "das",
            "por",
            "como",
            "quem",
            "ensina",
            "igreja",
            "sobre",
            "e",
            "a",
            "um",
            "uma",
            "sao",
            "qual",
            "diz",
            "significa",
            "se",
            "pode",
            "catolica",
            "segundo",
            "nao",
            "ao",
            "na",
            "no",
        ],
    ),
    (
        Lang::Fr,
        &[
            "que",
            "qu",
            "le",
            "la",
            "les",
            "des",
            "du",
            "de",
            "est",
            "ce",
            "pourquoi",
            "qui",
            "comment",
            "enseigne",
            "eglise",
            "sur",
            "un",
            "une",
            "sont",
            "quel",
            "quelle",
            "dit",
            "signifie",
            "peut",
            "catholique",
            "selon",
            "et",
            "l",
            "d",
            "il",
            "au",
        ],
    ),
    (
        Lang::Kok,
        &[
            "kitem", "kiteak", "kosso", "koso", "kon", "khoim", "ani", "hem", "tem", "mhollear",
            "mhollyar", "sangta", "igorz", "igorzo", "devachem", "devan", "amkam", "zalear", "kor",
            "korta", "asa", "nhoi", "vixim", "vixin", "poilo", "khursar",
        ],
    ),
];

/// Letters that only some languages use (on the unfolded, lower-case text).
const LETTERS: &[(Lang, &str)] = &[
    (Lang::Cs, "ěščřžůťďň"),
    (Lang::Es, "ñ¿¡"),
    (Lang::Pt, "ãõ"),
    (Lang::Fr, "êëîœûàç"),
    (Lang::It, "ìò"),
];

/// The language of `text`.
pub fn detect(text: &str) -> Lang {
    let mut han = 0;
    let mut bengali = 0;
    let mut devanagari = 0;
    let mut kannada = 0;
    for c in text.chars() {
        match c as u32 {
            0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF => han += 1,
            0x0980..=0x09FF => bengali += 1,
            0x0900..=0x097F => devanagari += 1,
            0x0C80..=0x0CFF => kannada += 1,
            _ => {}
        }
    }
    if han > 0 {
        return Lang::Zh;
    }
    if bengali > 0 && bengali >= devanagari {
        return Lang::Bn;
    }
    if devanagari > 0 || kannada > 0 {
        return Lang::Kok;
    }
    let lower = text.to_lowercase();
    let folded = fold(text);
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    let mut best = (Lang::En, 0.0f32);
    for (lang, list) in WORDS {
        let mut s = words.iter().filter(|w| list.contains(w)).count() as f32;
        if let Some((_, letters)) = LETTERS.iter().find(|(l, _)| l == lang) {
            s += 1.5 * lower.chars().filter(|c| letters.contains(*c)).count() as f32;
        }
        // English wins ties: it is the default and the corpus's language.
        if s > best.1 {
            best = (*lang, s);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ten_languages() {
        for (q, want) in [
            ("What does the Church teach about grace?", Lang::En),
            ("Co učí církev o milosti?", Lang::Cs),
            ("教会关于恩典的教导是什么？", Lang::Zh),
            ("অনুগ্রহ সম্পর্কে মণ্ডলী কী শিক্ষা দেয়?", Lang::Bn),
            ("देवाची कृपा म्हणल्यार कितें?", Lang::Kok),
            ("Igorz kurpe vixim kitem xikoita?", Lang::Kok),
            ("Quid docet Ecclesia de gratia?", Lang::La),
            ("Che cosa insegna la Chiesa sulla grazia?", Lang::It),
            ("¿Qué enseña la Iglesia sobre la gracia?", Lang::Es),
            ("O que a Igreja ensina sobre a graça?", Lang::Pt),
            ("Que dit l'Église sur la grâce ?", Lang::Fr),
            ("grace", Lang::En),
            ("", Lang::En),
        ] {
            assert_eq!(detect(q), want, "{q}");
        }
    }

    /// English questions full of words that are also Romance or Latin function words
    /// ("a", "as", "no", "in", "ad", "cum"), or naming a Latin document.
    #[test]
    fn english_with_romance_looking_words_is_english() {
        for q in [
            "Is it a sin to eat meat on a Friday in Lent?",
            "Can a soldier refuse an order as a matter of conscience?",
            "Is it wrong for a nation to keep an army as a deterrent?",
            "May I go to a Mass of an Eastern rite on a Sunday?",
            "According to Mortalium animos, may Catholics pray with Protestants?",
            "What does Quas primas say about the kingship of Christ?",
            "In Ad beatissimi, what did Benedict XV ask of the bishops?",
        ] {
            assert_eq!(detect(q), Lang::En, "{q}");
        }
        // and the other languages stay theirs
        for (q, want) in [
            ("A Igreja permite a pena de morte?", Lang::Pt),
            ("¿Es pecado no ir a misa el domingo?", Lang::Es),
            ("Quid est gratia secundum sanctum Thomam?", Lang::La),
            ("È peccato non andare a messa la domenica?", Lang::It),
            ("Est-ce un péché de ne pas aller à la messe ?", Lang::Fr),
        ] {
            assert_eq!(detect(q), want, "{q}");
        }
    }
}
