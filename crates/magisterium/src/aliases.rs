//! The names people use for the registry's modern subjects, in the ten
//! languages: "test-tube babies", "fecondazione in vitro", "试管婴儿" all
//! stand for the subject phrase "in vitro fertilization". Data in
//! `data/subject_aliases.json` (our own translations and paraphrases).

use crate::fold::{fold, indic_skeleton, is_han, is_indic};
use crate::mention::has_word;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The data file's shape.
#[derive(Debug, Deserialize)]
struct AliasFile {
    subjects: Vec<AliasRow>,
}

#[derive(Debug, Deserialize)]
struct AliasRow {
    subject: String,
    /// Language → aliases.
    aliases: BTreeMap<String, Vec<String>>,
}

/// How an alias is matched.
#[derive(Debug, Clone, PartialEq)]
enum Script {
    /// Latin letters: whole folded words (a word may carry a short ending more).
    Words(Vec<String>),
    /// An upper-case abbreviation (`IVF`), whole word in its own case.
    Abbreviation(String),
    /// Chinese: inside the text.
    Han(String),
    /// Bengali or Devanagari: its consonant skeleton inside the question's.
    Indic(String),
}

#[derive(Debug, Clone)]
struct Alias {
    script: Script,
    subject: usize,
}

/// Every alias of every subject.
#[derive(Debug, Clone, Default)]
pub struct SubjectAliases {
    subjects: Vec<String>,
    aliases: Vec<Alias>,
}

impl SubjectAliases {
    /// Read the data file's JSON.
    pub fn from_json(json: &str) -> Result<SubjectAliases, serde_json::Error> {
        let file: AliasFile = serde_json::from_str(json)?;
        let mut out = SubjectAliases::default();
        for row in file.subjects {
            let i = out.subjects.len();
            out.subjects.push(row.subject);
            for alias in row.aliases.values().flatten() {
                if let Some(script) = Script::of(alias) {
                    out.aliases.push(Alias { script, subject: i });
                }
            }
        }
        Ok(out)
    }

    /// How many subjects have aliases.
    pub fn len(&self) -> usize {
        self.subjects.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.subjects.is_empty()
    }

    /// The subjects (as the registry writes them) whose aliases `text` contains.
    pub fn subjects_in(&self, text: &str) -> Vec<&str> {
        let folded = fold(text);
        let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
        let skeleton = if is_indic(text) {
            indic_skeleton(text)
        } else {
            String::new()
        };
        let mut out: Vec<&str> = Vec::new();
        for a in &self.aliases {
            let hit = match &a.script {
                Script::Words(phrase) => words.windows(phrase.len()).any(|w| {
                    w.iter()
                        .zip(phrase)
                        .all(|(a, b)| crate::registry::same_word(a, b))
                }),
                Script::Abbreviation(s) => has_word(text, s),
                Script::Han(s) => folded.contains(s.as_str()),
                Script::Indic(s) => !skeleton.is_empty() && skeleton.contains(s.as_str()),
            };
            let subject = self.subjects[a.subject].as_str();
            if hit && !out.contains(&subject) {
                out.push(subject);
            }
        }
        out
    }
}

impl Script {
    fn of(raw: &str) -> Option<Script> {
        let raw = raw.trim();
        let letters = raw.chars().filter(|c| c.is_alphanumeric()).count();
        if letters < 2 {
            return None;
        }
        if letters <= 5
            && !raw.contains(' ')
            && raw
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        {
            return Some(Script::Abbreviation(raw.to_string()));
        }
        if is_indic(raw) {
            let key = indic_skeleton(raw);
            // Three consonants at least: shorter skeletons match too much.
            return (key.chars().filter(|c| *c != ' ').count() >= 3).then_some(Script::Indic(key));
        }
        let key = fold(raw);
        if key.chars().any(is_han) {
            return Some(Script::Han(key.trim().to_string()));
        }
        let words: Vec<String> = key
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        // One short word alone ("pill") is too common to stand for a subject.
        let long_enough = words.len() > 1 || words.iter().any(|w| w.chars().count() >= 5);
        (!words.is_empty() && long_enough).then_some(Script::Words(words))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = r#"{"subjects": [
        {"subject": "in vitro fertilization", "aliases": {
            "en": ["IVF", "test-tube babies"], "it": ["fecondazione in vitro"],
            "zh": ["试管婴儿"], "bn": ["টেস্ট টিউব শিশু"], "cs": ["umělé oplodnění"]}},
        {"subject": "euthanasia", "aliases": {"en": ["mercy killing", "pill"], "cs": ["eutanazie"]}}
    ]}"#;

    #[test]
    fn aliases_in_every_script_name_their_subject() {
        let a = SubjectAliases::from_json(JSON).unwrap();
        assert_eq!(a.len(), 2);
        for q in [
            "Can Catholics use IVF?",
            "Is it wrong to have test tube babies?",
            "La Chiesa accetta la fecondazione in vitro?",
            "教会怎么看试管婴儿？",
            "টেস্ট টিউব শিশু কি পাপ?",
            "Je umělé oplodnění hřích?",
        ] {
            assert_eq!(a.subjects_in(q), ["in vitro fertilization"], "{q}");
        }
        // inflected forms with a short ending more; "ivf" in lower case is not the abbreviation
        assert_eq!(
            a.subjects_in("Co říká církev o eutanaziemi?"),
            ["euthanasia"]
        );
        assert!(a.subjects_in("an ivf clinic").is_empty());
        // a lone short word is no alias
        assert!(a.subjects_in("a pill for the headache").is_empty());
        assert!(a.subjects_in("What is grace?").is_empty());
    }

    #[test]
    fn bad_json_is_an_error() {
        assert!(SubjectAliases::from_json("{").is_err());
        assert!(SubjectAliases::from_json(r#"{"subjects": [{"subject": 1}]}"#).is_err());
    }
}
