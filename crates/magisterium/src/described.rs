//! Documents described rather than named: "the 2023 declaration on
//! blessings", "la enciclica del 1968", "2015年的通谕". A year the registry
//! has documents of, beside a word for a kind of document, picks the
//! documents of that kind and year; when there are several, the question's
//! subject words choose among them.

use crate::entry::Entry;
use crate::fold::fold;
use crate::registry::Registry;

/// Words for a kind of document (folded; Latin-script words match as whole
/// words or word beginnings, Han inside the text), and the registry types
/// they stand for (a type matches when it contains one of them).
const KINDS: &[(&[&str], &[&str])] = &[
    (
        &[
            "encyclical",
            "enciclica",
            "encyclique",
            "encyklik",
            "encyclic",
            "通谕",
            "通諭",
            "এনসাইক্লিক",
            "एनसायक्लिक",
        ],
        &["encyclical"],
    ),
    (
        &[
            "exhortation",
            "esortazion",
            "exhortacion",
            "exortacao",
            "exhortac",
            "adhortat",
            "劝谕",
            "勸諭",
        ],
        &["exhortation"],
    ),
    (
        &[
            "constitution",
            "costituzion",
            "constitucion",
            "constituicao",
            "konstituc",
            "constitutio",
            "宪章",
            "憲章",
        ],
        &["constitution"],
    ),
    (
        &[
            "declaration",
            "dichiarazion",
            "declaracion",
            "declaracao",
            "deklarac",
            "declaratio",
            "宣言",
            "声明",
            "聲明",
        ],
        &["declaration"],
    ),
    (
        &[
            "instruction",
            "istruzion",
            "instruccion",
            "instrucao",
            "instrukc",
            "instructio",
            "训令",
            "訓令",
        ],
        &["instruction"],
    ),
    (&["note", "nota", "照会", "说明"], &["note"]),
    (
        &[
            "letter", "lettera", "lettre", "carta", "dopis", "list", "epistula", "litterae",
            "牧函", "书信", "信函",
        ],
        &["letter"],
    ),
    (&["motu proprio", "自动诏书", "手谕"], &["motu proprio"]),
    (
        &["decree", "decreto", "decret", "dekret", "decretum", "法令"],
        &["decree"],
    ),
];

/// The kinds of document `question` speaks of (registry type fragments).
fn kinds_in(question: &str) -> Vec<&'static str> {
    let folded = fold(question);
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out = Vec::new();
    for (cues, types) in KINDS {
        let hit = cues.iter().any(|c| {
            // Chinese cues inside the text, "motu proprio" as a phrase.
            if c.contains(' ') || (!c.is_ascii() && c.chars().all(|ch| !ch.is_ascii_alphabetic())) {
                folded.contains(c)
            } else {
                // A whole word, or its beginning for the inflected ones ("encykliku").
                words
                    .iter()
                    .any(|w| *w == *c || (c.chars().count() >= 6 && w.starts_with(c)))
            }
        });
        if hit {
            out.extend_from_slice(types);
        }
    }
    out
}

/// Four-digit years in `question` (`2023`, `2023年`).
fn years_in(question: &str) -> Vec<i32> {
    let mut out = Vec::new();
    let mut digits = String::new();
    for c in question.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if digits.len() == 4 {
            if let Ok(y) = digits.parse() {
                out.push(y);
            }
        }
        digits.clear();
    }
    out
}

impl Registry {
    /// Documents `question` describes by kind and year ("the 2023 declaration
    /// on blessings"): those of that kind and year, narrowed by the subject
    /// words of `subject` (the question in English words) when there are
    /// several; none when the question gives no kind, no year the registry
    /// knows, or several candidates and no subject that tells them apart.
    pub fn described_in(&self, question: &str, subject: &str) -> Vec<&Entry> {
        let years = years_in(question);
        if years.is_empty() {
            return Vec::new();
        }
        let kinds = kinds_in(question);
        if kinds.is_empty() {
            return Vec::new();
        }
        let fits = |e: &Entry| {
            e.year().is_some_and(|y| years.contains(&y))
                && kinds.iter().any(|k| e.doc_type.contains(k))
        };
        let candidates: Vec<&Entry> = self.entries().iter().filter(|e| fits(e)).collect();
        if candidates.len() <= 1 {
            return candidates;
        }
        let ranked = self.by_subject(subject, fits);
        match ranked.as_slice() {
            [] => Vec::new(),
            [(e, _)] => vec![*e],
            [(a, sa), (_, sb), ..] if sa > sb => vec![*a],
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_years_and_kinds() {
        assert_eq!(
            years_in("the 2023 declaration; 1968年的通谕"),
            vec![2023, 1968]
        );
        assert!(years_in("canon 844 and CCC 1030").contains(&1030));
        assert_eq!(kinds_in("la dichiarazione del 2023"), vec!["declaration"]);
        assert_eq!(
            kinds_in("Co říká encyklika z roku 1968?"),
            vec!["encyclical"]
        );
        assert_eq!(kinds_in("2015年的通谕"), vec!["encyclical"]);
        assert!(kinds_in("What did the pope say in 2023?").is_empty());
    }
}
