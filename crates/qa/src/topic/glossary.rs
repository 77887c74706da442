//! The corpus crate's multilingual glossary of theological terms
//! (`crates/corpus/data/glossary.tsv`, the same file the lexical search
//! translates queries with) as faith evidence for the classifier: a question
//! that names one of its concepts in Latin, Czech, Chinese, Bengali, Konkani,
//! Italian, Spanish, Portuguese or French speaks of the faith; so do its
//! English terms, except those that as often name something else (the mass of
//! the sun, a city council), which are left to the English lexicon
//! ([`super::faith`]).
//!
//! A concept counts 2, enough on its own; the everyday ones (war, work,
//! family, the state, truth, death …) count 1, so "¿Cuál es el mejor coche
//! familiar?" is not taken for a question about the family in Catholic teaching.

use super::normalize::{fold, Normalized};
use std::sync::OnceLock;

const DATA: &str = include_str!("../../../corpus/data/glossary.tsv");

/// English heads of concepts too common in everyday questions to count 2.
const EVERYDAY: &[&str] = &[
    "war",
    "peace",
    "the poor",
    "work",
    "wages",
    "family",
    "state",
    "conscience",
    "truth",
    "dignity",
    "education",
    "suffering",
    "evil",
    "death",
    "lying",
    "theft",
    "murder",
    "religious freedom",
    "justice",
    "pilgrimage",
    "the Holy Land",
    "teaching",
    "creation",
    "the Passion",
    "pride",
    "obedience",
    "humility",
    "virtue",
    "mercy",
    "hope",
    "charity",
    "Peter",
    "Paul",
    "Joseph",
];

/// English terms that name other things just as often (the mass of the sun,
/// a red cross, a city council, Angel Falls); the English lexicon weighs them
/// in context instead.
const ENGLISH_AMBIGUOUS: &[&str] = &[
    "mass",
    "cross",
    "crucifixion",
    "council",
    "passion",
    "sacrifice",
    "fast",
    "fasting",
    "creed",
    "angel",
    "devil",
    "satan",
    "state",
    "work",
    "labour",
    "workers",
    "wages",
    "family",
    "peace",
    "war",
    "education",
    "schools",
    "the poor",
    "poverty",
    "truth",
    "death",
    "evil",
    "suffering",
    "liberty",
    "religious freedom",
    "justice",
    "just",
    "love",
    "hope",
    "pride",
    "virtue",
    "virtues",
    "creation",
    "dignity",
    "human dignity",
    "obedience",
    "humility",
    "mercy",
    "pilgrimage",
    "the holy land",
    "palestine",
    "peter",
    "paul",
    "joseph",
    "fatima",
    "our lady of fatima",
    "teaching",
    "doctrine",
    "lie",
    "lying",
    "killing",
    "murder",
    "theft",
    "stealing",
    "adoration",
    "miracle",
    "miracles",
    "judgment",
    "conscience",
    "sunday",
    "lord's day",
    "christmas",
    "easter",
    "lent",
    "pray",
    "purity",
    "chastity",
];

/// One concept: its name and folded terms in the other languages.
#[derive(Debug)]
pub struct GlossaryConcept {
    /// The English head (`grace`).
    pub name: String,
    /// 1 or 2.
    pub weight: u32,
    terms: Vec<String>,
}

fn term(variant: &str) -> Option<String> {
    let v = variant.trim();
    let prefix = v.ends_with('*') && !v.contains(' ');
    let f = fold(&v.replace('*', " "));
    let f = f.trim();
    if f.is_empty() {
        return None;
    }
    Some(if prefix {
        format!("{f}*")
    } else {
        f.to_string()
    })
}

fn parse(text: &str) -> Vec<GlossaryConcept> {
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() != 10 || cells[0] == "en" {
            continue;
        }
        let name = cells[0].split('|').next().unwrap_or("").trim().to_string();
        let english = cells[0]
            .split('|')
            .filter(|t| !ENGLISH_AMBIGUOUS.contains(&t.trim().to_lowercase().as_str()));
        let terms: Vec<String> = cells[1..]
            .iter()
            .flat_map(|c| c.split('|'))
            .chain(english)
            .filter_map(term)
            // two-letter Latin-script words ("fe", "pax") are too ambiguous alone
            .filter(|t| t.chars().count() > 2 || !t.chars().all(|c| c.is_ascii_alphabetic()))
            .collect();
        let weight = if EVERYDAY.contains(&name.as_str()) {
            1
        } else {
            2
        };
        out.push(GlossaryConcept {
            name,
            weight,
            terms,
        });
    }
    out
}

/// The concepts, parsed once.
pub fn concepts() -> &'static [GlossaryConcept] {
    static C: OnceLock<Vec<GlossaryConcept>> = OnceLock::new();
    C.get_or_init(|| parse(DATA))
}

/// Sum of the weights of the concepts `q` names, and their names.
pub fn score(q: &Normalized) -> (u32, Vec<&'static str>) {
    let mut total = 0;
    let mut names = Vec::new();
    for c in concepts() {
        if c.terms.iter().any(|t| q.has(t)) {
            total += c.weight;
            names.push(c.name.as_str());
        }
    }
    (total, names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_scores() {
        assert!(concepts().len() >= 100);
        let (s, names) = score(&Normalized::new("Le mariage est-il indissoluble ?"));
        assert_eq!(s, 2, "{names:?}");
        let (s, _) = score(&Normalized::new("¿Cuál es el mejor coche familiar?"));
        assert!(s < 2);
        let (s, _) = score(&Normalized::new("婚姻是不可拆散的吗？"));
        assert_eq!(s, 2);
    }
}
